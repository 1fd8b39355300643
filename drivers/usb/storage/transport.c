/*
 * The Bulk-Only Transport (USB Mass Storage Class, Bulk-Only Transport
 * 1.0; Linux's usb_stor_Bulk_transport and usb_stor_invoke_transport in
 * drivers/usb/storage/transport.c): how one SCSI command crosses the
 * wire.
 *
 *   CBW    31 bytes out: signature "USBC", a tag, the data length and
 *          direction, the LUN and the command block;
 *   data   the command's buffer, in or out, over the same bulk pipes
 *          (none when the length is 0);
 *   CSW    13 bytes in: signature "USBS", the same tag, the residue (the
 *          bytes of the data stage that did not move) and a status:
 *          0 passed, 1 failed (the unit has sense data), 2 phase error.
 *
 * What goes wrong, and what is done (BOT 5.3 and 6.6):
 *   a stalled data stage   the endpoint's halt is cleared and the CSW
 *                          read anyway: the unit says what happened, and
 *                          only the bytes before the stall count as moved;
 *   a stalled CSW read     the halt is cleared and the CSW read once more;
 *   a device unplugged     (-ENODEV from the controller) the command
 *                          fails with -ENODEV, quietly: there is nothing
 *                          to recover;
 *   anything else          (a timeout, a transaction error, a bad or
 *                          missing CSW, a phase error): reset recovery,
 *                          the class reset then both halts cleared, and
 *                          the command fails: with -EAGAIN (try again)
 *                          when the reset worked and the failure was not
 *                          a timeout or a buffer the controller refused,
 *                          else with -EIO.
 * A command that failed (status 1) is followed by REQUEST SENSE, whose
 * data goes to the command's sense buffer (Linux's auto-sense).
 *
 * Nothing here allocates: the CBW, CSW and sense data live in the
 * device's iobuf, so a swap-out can pass through while memory is short.
 */
#include <mm/mm.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "usb.h"

#define US_BULK_CB_SIGN		0x43425355	/* "USBC" */
#define US_BULK_CS_SIGN		0x53425355	/* "USBS" */
#define US_BULK_CB_WRAP_LEN	31
#define US_BULK_CS_WRAP_LEN	13
#define US_BULK_FLAG_IN		0x80
#define US_BULK_STAT_OK		0
#define US_BULK_STAT_FAIL	1

/* Where in iobuf each part lives. */
#define US_IOBUF_CBW		0
#define US_IOBUF_CSW		64
#define US_IOBUF_SENSE		128

struct bulk_cb_wrap {
	uint32_t Signature;
	uint32_t Tag;
	uint32_t DataTransferLength;
	uint8_t Flags;
	uint8_t Lun;
	uint8_t Length;			/* of CDB */
	uint8_t CDB[16];
} __attribute__((packed));

struct bulk_cs_wrap {
	uint32_t Signature;
	uint32_t Tag;
	uint32_t Residue;
	uint8_t Status;
} __attribute__((packed));

enum {
	USB_STOR_TRANSPORT_GOOD,	/* the command passed */
	USB_STOR_TRANSPORT_FAILED,	/* it failed; the unit has sense data */
	USB_STOR_TRANSPORT_ERROR,	/* the transport failed: reset recovery */
	USB_STOR_TRANSPORT_NO_DEVICE,	/* the device is gone: nothing to recover */
};

/* One bulk transfer of len bytes at buf (in iobuf); bytes or an errno. */
static int usb_stor_bulk_buf(struct us_data *us, struct usb_host_endpoint *ep, void *buf,
			     unsigned int len)
{
	struct scatterlist sg = { .dma_address = virt_to_phys(buf), .length = len };
	unsigned int actual;
	int ret = usb_bulk_msg(us->pusb_dev, ep, &sg, 1, &actual, US_TIMEOUT);

	return ret ? ret : (int)actual;
}

/* Reset recovery (BOT 5.3.4): the class reset, then both halts cleared;
 * 0 when all three worked. */
static int usb_stor_Bulk_reset(struct us_data *us)
{
	int ret;

	printk(KERN_WARNING "usb %s: usb-storage: resetting the device\n", us->pusb_dev->devpath);
	ret = usb_control_msg(us->pusb_dev, US_BULK_RESET_REQUEST,
			      USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE, 0, us->ifnum,
			      NULL, 0, USB_CTRL_SET_TIMEOUT);
	if (ret < 0) {
		printk(KERN_WARNING "usb %s: usb-storage: the reset failed (%d)\n",
		       us->pusb_dev->devpath, ret);
		return ret;
	}
	ret = usb_clear_halt(us->pusb_dev, us->ep_in);
	return ret ? ret : usb_clear_halt(us->pusb_dev, us->ep_out);
}

/* A halt cleared in the middle of a command: USB_STOR_TRANSPORT_GOOD
 * when it was, else what the command comes to. */
static int usb_stor_clear_halt(struct us_data *us, struct usb_host_endpoint *ep, int *err)
{
	*err = usb_clear_halt(us->pusb_dev, ep);
	if (*err == -ENODEV)
		return USB_STOR_TRANSPORT_NO_DEVICE;
	return *err ? USB_STOR_TRANSPORT_ERROR : USB_STOR_TRANSPORT_GOOD;
}

/* Carry srb; what it came to, and when the transport failed, the errno
 * that made it fail in *err. */
static int usb_stor_Bulk_transport(struct scsi_cmnd *srb, struct us_data *us, int *err)
{
	struct bulk_cb_wrap *bcb = (struct bulk_cb_wrap *)(us->iobuf + US_IOBUF_CBW);
	struct bulk_cs_wrap *bcs = (struct bulk_cs_wrap *)(us->iobuf + US_IOBUF_CSW);
	bool in = srb->sc_data_direction == DMA_FROM_DEVICE;
	struct usb_host_endpoint *ep = in ? us->ep_in : us->ep_out;
	int moved = -1, ret;	/* moved: the data stage's bytes, -1 when there was none */
	unsigned int actual;

	memset(bcb, 0, sizeof(*bcb));
	bcb->Signature = US_BULK_CB_SIGN;
	bcb->Tag = ++us->tag;
	bcb->DataTransferLength = srb->length;
	bcb->Flags = in ? US_BULK_FLAG_IN : 0;
	bcb->Lun = (uint8_t)srb->device->lun;
	bcb->Length = (uint8_t)srb->cmd_len;
	memcpy(bcb->CDB, srb->cmnd, srb->cmd_len);
	ret = usb_stor_bulk_buf(us, us->ep_out, bcb, US_BULK_CB_WRAP_LEN);
	*err = ret < 0 ? ret : -EPROTO;
	if (ret == -ENODEV)
		return USB_STOR_TRANSPORT_NO_DEVICE;
	if (ret != US_BULK_CB_WRAP_LEN) {
		printk(KERN_WARNING "usb %s: usb-storage: CBW not sent (%d)\n", us->pusb_dev->devpath, ret);
		return USB_STOR_TRANSPORT_ERROR;
	}
	if (srb->length) {
		ret = usb_bulk_msg(us->pusb_dev, ep, srb->sg, srb->nsg, &actual, US_TIMEOUT);
		if (ret == -EPIPE) {
			/* A device may stop short with a stall (BOT 6.7.2): what
			 * moved before it counts, whatever the CSW's residue. */
			moved = (int)actual;
			ret = usb_stor_clear_halt(us, ep, err);
			if (ret != USB_STOR_TRANSPORT_GOOD)
				return ret;
		} else if (ret == -ENODEV) {
			return USB_STOR_TRANSPORT_NO_DEVICE;
		} else if (ret < 0) {
			*err = ret;
			printk(KERN_WARNING "usb %s: usb-storage: data stage failed (%d)\n",
			       us->pusb_dev->devpath, ret);
			return USB_STOR_TRANSPORT_ERROR;
		} else {
			moved = (int)actual;
		}
	}
	memset(bcs, 0, sizeof(*bcs));
	ret = usb_stor_bulk_buf(us, us->ep_in, bcs, US_BULK_CS_WRAP_LEN);
	if (ret == -EPIPE) {
		ret = usb_stor_clear_halt(us, us->ep_in, err);
		if (ret != USB_STOR_TRANSPORT_GOOD)
			return ret;
		ret = usb_stor_bulk_buf(us, us->ep_in, bcs, US_BULK_CS_WRAP_LEN);
	}
	*err = ret < 0 ? ret : -EPROTO;
	if (ret == -ENODEV)
		return USB_STOR_TRANSPORT_NO_DEVICE;
	if (ret != US_BULK_CS_WRAP_LEN || bcs->Signature != US_BULK_CS_SIGN ||
	    bcs->Tag != bcb->Tag || bcs->Status > US_BULK_STAT_FAIL ||
	    bcs->Residue > srb->length) {
		printk(KERN_WARNING "usb %s: usb-storage: bad CSW (%d bytes, status %u, residue %u)\n",
		       us->pusb_dev->devpath, ret, bcs->Status, bcs->Residue);
		return USB_STOR_TRANSPORT_ERROR;
	}
	srb->resid = bcs->Residue;
	if (moved >= 0 && srb->length - (unsigned int)moved > srb->resid)
		srb->resid = srb->length - (unsigned int)moved;
	return bcs->Status == US_BULK_STAT_OK ? USB_STOR_TRANSPORT_GOOD : USB_STOR_TRANSPORT_FAILED;
}

/* REQUEST SENSE after a failed srb: its sense data into srb->sense.
 * USB_STOR_TRANSPORT_GOOD when it came. */
static int usb_stor_request_sense(struct scsi_cmnd *srb, struct us_data *us, int *err)
{
	struct scsi_cmnd *sense = &us->sense_srb;
	uint8_t *data = us->iobuf + US_IOBUF_SENSE;
	int ret;

	memset(sense, 0, sizeof(*sense));
	sense->device = srb->device;
	sense->cmnd[0] = REQUEST_SENSE;
	sense->cmnd[4] = SCSI_SENSE_BUFFERSIZE;
	sense->cmd_len = 6;
	sense->sc_data_direction = DMA_FROM_DEVICE;
	sense->sg[0].dma_address = virt_to_phys(data);
	sense->sg[0].length = SCSI_SENSE_BUFFERSIZE;
	sense->nsg = 1;
	sense->length = SCSI_SENSE_BUFFERSIZE;
	memset(data, 0, SCSI_SENSE_BUFFERSIZE);
	ret = usb_stor_Bulk_transport(sense, us, err);
	if (ret == USB_STOR_TRANSPORT_GOOD)
		memcpy(srb->sense, data, SCSI_SENSE_BUFFERSIZE);
	return ret;
}

void usb_stor_invoke_transport(struct scsi_cmnd *srb, struct us_data *us)
{
	int err = 0, ret = usb_stor_Bulk_transport(srb, us, &err);

	if (ret == USB_STOR_TRANSPORT_FAILED) {
		ret = usb_stor_request_sense(srb, us, &err);
		if (ret == USB_STOR_TRANSPORT_GOOD)
			ret = USB_STOR_TRANSPORT_FAILED;
	}
	switch (ret) {
	case USB_STOR_TRANSPORT_GOOD:
		srb->result = SAM_STAT_GOOD;
		break;
	case USB_STOR_TRANSPORT_FAILED:
		srb->result = SAM_STAT_CHECK_CONDITION;
		break;
	case USB_STOR_TRANSPORT_NO_DEVICE:
		srb->result = -ENODEV;
		break;
	default:
		/* Worth another try when the device came back from the reset
		 * and the failure was not for good: not a timeout (the device
		 * may be hung), not a buffer the controller cannot use. */
		if (!usb_stor_Bulk_reset(us) && err != -ETIMEDOUT && err != -EIO && err != -EINVAL)
			srb->result = -EAGAIN;
		else
			srb->result = -EIO;
		break;
	}
}
