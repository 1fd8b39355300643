/*
 * A mass-storage device as the usb-storage driver keeps it (Linux's
 * drivers/usb/storage/usb.h and transport.h, reduced to the Bulk-Only
 * Transport): usb.c owns the device and its thread, transport.c carries
 * one SCSI command over the bulk endpoints.
 */
#ifndef DRIVERS_USB_STORAGE_USB_H
#define DRIVERS_USB_STORAGE_USB_H

#include <drivers/scsi.h>
#include <drivers/usb.h>
#include <pageturn/spinlock.h>
#include <pageturn/wait.h>

/* Interface subclass and protocol this driver speaks: SCSI transparent
 * command set over Bulk-Only Transport ("BBB"). */
#define USB_SC_SCSI		0x06
#define USB_PR_BULK		0x50

/* Class requests of the Bulk-Only Transport (BOT 1.0, 3.1 and 3.2). */
#define US_BULK_RESET_REQUEST	0xff
#define US_BULK_GET_MAX_LUN	0xfe

/* How long one stage of a command may take, milliseconds (Linux gives
 * a disk command 30 s). */
#define US_TIMEOUT		30000

struct us_data {
	struct usb_device *pusb_dev;
	struct usb_host_endpoint *ep_in, *ep_out;
	uint8_t ifnum;			/* bInterfaceNumber */
	uint32_t tag;			/* the last CBW's dCBWTag */
	/* Preallocated, so a command never allocates (it may be swap-out
	 * during reclaim): the CBW, the CSW, a REQUEST SENSE's data. */
	uint8_t *iobuf;
	struct scsi_cmnd sense_srb;	/* the REQUEST SENSE after a failure */
	struct scsi_device sdev;
	spinlock_t lock;		/* srb */
	struct scsi_cmnd *srb;		/* the command to carry, or NULL */
	wait_queue_head_t wq;		/* the thread waits here for srb */
};

/* transport.c: carry srb (its cmnd, data, LUN) to the device and back,
 * setting srb->result, resid and sense; a failed command gets its sense
 * data with REQUEST SENSE.  Process context (the device's thread). */
void usb_stor_invoke_transport(struct scsi_cmnd *srb, struct us_data *us);

#endif
