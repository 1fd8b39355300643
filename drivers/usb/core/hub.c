/*
 * Enumeration (Linux's usb_new_device and usb_set_configuration, from
 * drivers/usb/core/hub.c and message.c): what happens to a device a host
 * controller found on a root port, once its endpoint 0 has an address.
 *
 *   1. its device descriptor, and its product string for the log;
 *   2. its first configuration descriptor, whole (wTotalLength bytes):
 *      the configuration's interfaces, each followed by its endpoints;
 *   3. the first interface (alternate setting 0) whose class a driver
 *      here has (usb_drivers[]), with its bulk endpoints, each checked
 *      (a number other than 0, a packet size its speed allows, no
 *      address twice);
 *   4. the controller told of those endpoints, SET_CONFIGURATION, and
 *      the driver's probe, which gets the interface descriptor for the
 *      time of the call.
 * A device with no such interface is configured all the same and left
 * alone, with a line saying so; a device that fails a step is left
 * unconfigured, with a line.  There are no hubs below the root ports:
 * a hub is one of the devices left alone.
 */
#include <drivers/usb.h>
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

extern struct usb_driver usb_storage_driver;

static struct usb_driver *const usb_drivers[] = {
	&usb_storage_driver,
};

static unsigned int usb_nr_buses;

unsigned int usb_new_busnum(void)
{
	return ++usb_nr_buses;
}

/* The largest configuration descriptor read (all its interfaces and
 * endpoints); a bigger one is refused. */
#define USB_MAX_CONFIG_LEN	1024

/* String descriptor index into udev->product as ASCII (English, langid
 * 0x0409); "" when the device has none or refuses.  buf: 255 bytes. */
static void usb_read_product(struct usb_device *udev, uint8_t *buf)
{
	unsigned int i, n = 0;
	int len;

	udev->product[0] = '\0';
	if (!udev->descriptor.iProduct)
		return;
	len = usb_control_msg(udev, USB_REQ_GET_DESCRIPTOR, USB_DIR_IN,
			      USB_DT_STRING << 8 | udev->descriptor.iProduct, 0x0409, buf, 255,
			      USB_CTRL_GET_TIMEOUT);
	if (len < 2 || buf[1] != USB_DT_STRING)
		return;
	len = MIN(len, buf[0]);
	for (i = 2; i + 1 < (unsigned int)len && n + 1 < sizeof(udev->product); i += 2)
		udev->product[n++] = buf[i + 1] == 0 && buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '?';
	udev->product[n] = '\0';
}

/* The bulk packet size the speed fixes (USB 2.0 5.8.3, USB 3.2 9.6.6):
 * 512 at high speed, 1024 at SuperSpeed; 0 at full speed, which allows
 * 8, 16, 32 or 64, and at low speed, which has no bulk. */
static unsigned int usb_bulk_maxpacket(enum usb_device_speed speed)
{
	return speed == USB_SPEED_HIGH ? 512 : speed == USB_SPEED_SUPER ? 1024 : 0;
}

/*
 * Take endpoint descriptor epd of the chosen interface into udev->ep, or
 * leave it out with a line: not bulk, endpoint 0, a packet size of 0 or
 * not 8-64 at full speed, the same address twice, or one too many.  A
 * high-speed or SuperSpeed endpoint that gives another size than its
 * speed fixes is told of in a line, and cut to the fixed size when it is
 * larger, as Linux's usb_parse_endpoint does.  The new endpoint, or NULL.
 */
static struct usb_host_endpoint *usb_add_endpoint(struct usb_device *udev,
						  const struct usb_endpoint_descriptor *epd)
{
	unsigned int maxpacket = epd->wMaxPacketSize & 0x7ff, fixed = usb_bulk_maxpacket(udev->speed);
	struct usb_host_endpoint *ep;
	unsigned int i;

	if ((epd->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) != USB_ENDPOINT_XFER_BULK)
		return NULL;
	if (!(epd->bEndpointAddress & USB_ENDPOINT_NUMBER_MASK) || maxpacket == 0 ||
	    (!fixed && (maxpacket > 64 || (maxpacket & (maxpacket - 1)) || maxpacket < 8)) ||
	    udev->speed == USB_SPEED_LOW || udev->nr_ep == USB_MAXENDPOINTS) {
		printk(KERN_WARNING "usb %s: bulk endpoint %#x (max packet %u) left out\n",
		       udev->devpath, epd->bEndpointAddress, maxpacket);
		return NULL;
	}
	for (i = 0; i < udev->nr_ep; i++)
		if (udev->ep[i].address == epd->bEndpointAddress) {
			printk(KERN_WARNING "usb %s: endpoint %#x described twice, left out\n",
			       udev->devpath, epd->bEndpointAddress);
			return NULL;
		}
	if (fixed && maxpacket != fixed) {
		printk(KERN_WARNING "usb %s: bulk endpoint %#x has invalid max packet %u%s\n",
		       udev->devpath, epd->bEndpointAddress, maxpacket,
		       maxpacket > fixed ? ", cut to the speed's" : "");
		maxpacket = MIN(maxpacket, fixed);
	}
	ep = &udev->ep[udev->nr_ep++];
	ep->address = epd->bEndpointAddress;
	ep->type = USB_ENDPOINT_XFER_BULK;
	ep->maxpacket = (uint16_t)maxpacket;
	ep->maxburst = 0;
	return ep;
}

/*
 * Find in the configuration cfg (len bytes, whose first USB_DT_CONFIG_SIZE
 * were checked) the first interface a driver of ours takes, and its bulk
 * endpoints into udev->ep; the driver, or NULL.  The walk stops at a
 * descriptor that does not fit in what is left, and at the next
 * interface after the chosen one; a SuperSpeed endpoint companion counts
 * only right after the endpoint it belongs to.
 */
static struct usb_driver *usb_match(struct usb_device *udev, const uint8_t *cfg, unsigned int len,
				    const struct usb_interface_descriptor **intfp)
{
	const struct usb_interface_descriptor *intf;
	struct usb_host_endpoint *last_ep = NULL;
	struct usb_driver *driver = NULL;
	unsigned int off, i;

	for (off = 0; off + 2 <= len && cfg[off] >= 2 && off + cfg[off] <= len; off += cfg[off]) {
		const uint8_t *d = cfg + off;
		struct usb_host_endpoint *ep = NULL;

		if (d[1] == USB_DT_INTERFACE) {
			if (driver || d[0] < sizeof(*intf))
				break;		/* the chosen interface's endpoints are all read */
			intf = (const struct usb_interface_descriptor *)d;
			if (intf->bAlternateSetting)
				continue;
			for (i = 0; i < ARRAY_SIZE(usb_drivers); i++)
				if (usb_drivers[i]->interface_class == intf->bInterfaceClass)
					driver = usb_drivers[i];
			if (driver)
				*intfp = intf;
		} else if (d[1] == USB_DT_ENDPOINT && driver &&
			   d[0] >= sizeof(struct usb_endpoint_descriptor)) {
			ep = usb_add_endpoint(udev, (const struct usb_endpoint_descriptor *)d);
		} else if (d[1] == USB_DT_SS_ENDPOINT_COMP && d[0] >= 3 && last_ep &&
			   udev->speed == USB_SPEED_SUPER) {
			last_ep->maxburst = d[2] & 0x0f;
		}
		last_ep = ep;
	}
	return driver;
}

void usb_new_device(struct usb_device *udev)
{
	const struct usb_interface_descriptor *intf = NULL;
	struct usb_config_descriptor *config;
	struct usb_driver *driver;
	unsigned int total;
	uint8_t *buf;
	int ret;

	buf = kmalloc(USB_MAX_CONFIG_LEN, GFP_KERNEL);
	if (!buf) {
		printk(KERN_ERR "usb %s: out of memory\n", udev->devpath);
		return;
	}
	ret = usb_get_descriptor(udev, USB_DT_DEVICE, 0, buf, USB_DT_DEVICE_SIZE);
	if (ret != USB_DT_DEVICE_SIZE || buf[1] != USB_DT_DEVICE) {
		printk(KERN_WARNING "usb %s: device descriptor read failed (%d)\n", udev->devpath, ret);
		goto out;
	}
	memcpy(&udev->descriptor, buf, sizeof(udev->descriptor));
	usb_read_product(udev, buf);
	printk(KERN_INFO "usb %s: New USB device found, idVendor=%04x, idProduct=%04x: \"%s\"\n",
	       udev->devpath, udev->descriptor.idVendor, udev->descriptor.idProduct, udev->product);
	ret = usb_get_descriptor(udev, USB_DT_CONFIG, 0, buf, USB_DT_CONFIG_SIZE);
	config = (struct usb_config_descriptor *)buf;
	if (ret != USB_DT_CONFIG_SIZE || config->bDescriptorType != USB_DT_CONFIG ||
	    config->wTotalLength < USB_DT_CONFIG_SIZE) {
		printk(KERN_WARNING "usb %s: configuration descriptor read failed (%d)\n",
		       udev->devpath, ret);
		goto out;
	}
	total = config->wTotalLength;
	if (total > USB_MAX_CONFIG_LEN) {
		printk(KERN_WARNING "usb %s: a configuration of %u bytes, more than %u: left alone\n",
		       udev->devpath, total, USB_MAX_CONFIG_LEN);
		goto out;
	}
	ret = usb_get_descriptor(udev, USB_DT_CONFIG, 0, buf, (uint16_t)total);
	if (ret != (int)total) {
		printk(KERN_WARNING "usb %s: configuration read failed (%d)\n", udev->devpath, ret);
		goto out;
	}
	driver = usb_match(udev, buf, total, &intf);
	/* The controller first, then the device (xHCI 4.3.5): a controller
	 * that cannot serve the endpoints leaves the device unconfigured. */
	ret = driver ? udev->bus->driver->enable_endpoints(udev) : 0;
	if (ret) {
		printk(KERN_WARNING "usb %s: its endpoints cannot be enabled (%d)\n", udev->devpath, ret);
		goto out;
	}
	ret = usb_set_configuration(udev, config->bConfigurationValue);
	if (ret) {
		printk(KERN_WARNING "usb %s: SET_CONFIGURATION failed (%d)\n", udev->devpath, ret);
		goto out;
	}
	if (!driver) {
		printk(KERN_INFO "usb %s: no driver for this device's interfaces, left alone\n",
		       udev->devpath);
		goto out;
	}
	ret = driver->probe(udev, intf);
	if (ret)
		printk(KERN_INFO "usb %s: %s does not take interface %u (%d)\n", udev->devpath,
		       driver->name, intf->bInterfaceNumber, ret);
out:
	kfree(buf);
}
