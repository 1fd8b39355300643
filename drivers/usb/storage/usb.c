/*
 * USB mass storage (Linux's drivers/usb/storage/usb.c, reduced to
 * Bulk-Only Transport with the SCSI command set, which is what USB sticks,
 * card readers and USB disks speak): the class driver that claims such an
 * interface, makes it a SCSI host with one logical unit, and hands that
 * to the SCSI disk driver, so a stick becomes sda, sdb, ... and its
 * partitions sda1, sda2, ... like any disk.
 *
 * Each device has a thread, "usb-storage", that carries its commands:
 * queuecommand (any context, from sd.c) parks the command in srb and
 * wakes the thread; the thread runs the transport, which sleeps on the
 * controller, then clears srb and calls the command's scsi_done.  So
 * the block layer never waits on USB, and USB's sleeping transfers never
 * run where sleeping is not allowed.
 *
 * States of a device (srb, under lock):
 *   idle      srb NULL: the thread sleeps on wq.
 *   carrying  srb set: the thread runs it; another queuecommand is a bug
 *             of the caller's and gets -EBUSY.
 * The thread never allocates memory, and holds no lock while it sleeps:
 * what it uses (the device, its endpoints, its iobuf) lives for the
 * whole boot, and srb is not touched by anyone else until it is cleared.
 *
 * Only LUN 0 is used; a device with more says so in a line.
 */
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <uapi/errno.h>

#include "usb.h"

/* Sectors per command (Linux's usb-storage default for USB 2 devices). */
#define US_MAX_SECTORS		240
#define US_IOBUF_SIZE		256

static int usb_stor_queuecommand(struct scsi_cmnd *srb)
{
	struct us_data *us = srb->device->hostdata;
	unsigned long flags;

	spin_lock_irqsave(&us->lock, flags);
	if (us->srb) {
		spin_unlock_irqrestore(&us->lock, flags);
		return -EBUSY;
	}
	us->srb = srb;
	spin_unlock_irqrestore(&us->lock, flags);
	wake_up(&us->wq);
	return 0;
}

static const struct scsi_host_template usb_stor_host_template = {
	.name = "usb-storage",
	.queuecommand = usb_stor_queuecommand,
};

static int usb_stor_control_thread(void *data)
{
	struct us_data *us = data;
	struct scsi_cmnd *srb;
	unsigned long flags;

	for (;;) {
		wait_event(us->wq, us->srb != NULL);
		srb = us->srb;
		usb_stor_invoke_transport(srb, us);
		spin_lock_irqsave(&us->lock, flags);
		us->srb = NULL;
		spin_unlock_irqrestore(&us->lock, flags);
		srb->scsi_done(srb);
	}
	return 0;
}

/* GET MAX LUN (BOT 3.2): the highest LUN, 0 when the device stalls it
 * (devices with one LUN may). */
static unsigned int usb_stor_max_lun(struct us_data *us)
{
	int ret = usb_control_msg(us->pusb_dev, US_BULK_GET_MAX_LUN,
				  USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE, 0, us->ifnum,
				  us->iobuf, 1, USB_CTRL_GET_TIMEOUT);

	return ret == 1 ? us->iobuf[0] & 0x0f : 0;
}

static int storage_probe(struct usb_device *udev, const struct usb_interface_descriptor *intf)
{
	struct task_struct *thread;
	struct us_data *us;
	unsigned int i, max_lun;

	if (intf->bInterfaceSubClass != USB_SC_SCSI || intf->bInterfaceProtocol != USB_PR_BULK) {
		printk(KERN_INFO "usb %s: usb-storage: subclass %#x, protocol %#x: only SCSI over Bulk-Only is supported\n",
		       udev->devpath, intf->bInterfaceSubClass, intf->bInterfaceProtocol);
		return -ENODEV;
	}
	us = kzalloc(sizeof(*us), GFP_KERNEL);
	if (!us)
		return -ENOMEM;
	us->iobuf = kzalloc(US_IOBUF_SIZE, GFP_KERNEL);
	if (!us->iobuf) {
		kfree(us);
		return -ENOMEM;
	}
	us->pusb_dev = udev;
	us->ifnum = intf->bInterfaceNumber;
	for (i = 0; i < udev->nr_ep; i++) {
		if (udev->ep[i].address & USB_DIR_IN)
			us->ep_in = us->ep_in ? us->ep_in : &udev->ep[i];
		else
			us->ep_out = us->ep_out ? us->ep_out : &udev->ep[i];
	}
	if (!us->ep_in || !us->ep_out) {
		printk(KERN_WARNING "usb %s: usb-storage: no bulk-in and bulk-out endpoint pair\n",
		       udev->devpath);
		goto fail;
	}
	spin_lock_init(&us->lock, "us_data");
	init_waitqueue_head(&us->wq);
	max_lun = usb_stor_max_lun(us);
	us->sdev.host = &usb_stor_host_template;
	us->sdev.hostdata = us;
	us->sdev.host_no = scsi_new_host_no();
	us->sdev.max_sectors = US_MAX_SECTORS;
	thread = kthread_create(usb_stor_control_thread, us, "usb-storage");
	if (!thread) {
		printk(KERN_ERR "usb %s: usb-storage: no memory for its thread\n", udev->devpath);
		goto fail;
	}
	wake_up_process(thread);
	printk(KERN_INFO "scsi host%u: usb-storage %s: bulk-in %#x, bulk-out %#x, max packet %u%s\n",
	       us->sdev.host_no, udev->devpath, us->ep_in->address, us->ep_out->address,
	       us->ep_in->maxpacket, max_lun ? ", LUNs after 0 not used" : "");
	sd_probe(&us->sdev);
	return 0;
fail:
	kfree(us->iobuf);
	kfree(us);
	return -ENODEV;
}

struct usb_driver usb_storage_driver = {
	.name = "usb-storage",
	.interface_class = USB_CLASS_MASS_STORAGE,
	.probe = storage_probe,
};
