/*
 * Enumeration (Linux's usb_new_device and usb_set_configuration, from
 * drivers/usb/core/hub.c and message.c): what happens to a device a host
 * controller found on a root port, or the hub driver below found on a
 * hub's port, once its endpoint 0 has an address.
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
 * unconfigured, with a line.  The hub driver is at the end of this file.
 */
#include <drivers/usb.h>
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

extern struct usb_driver usb_storage_driver;
static struct usb_driver hub_driver;

static struct usb_driver *const usb_drivers[] = {
	&usb_storage_driver,
	&hub_driver,
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

/*
 * The hub driver (Linux's hub_probe, hub_port_init and hub_port_connect,
 * reduced to what is there at boot): a USB 2 or 1.1 hub's ports are
 * powered, and each port with a device is reset; the device that then
 * enables the port is addressed by the controller and enumerated like one
 * on a root port, as "1-2.3" (port 3 of the hub on 1-2).  Ports are not
 * watched afterwards: a device plugged in later is not found, and one
 * pulled out fails its transfers with transaction errors or by timeout
 * rather than at once with -ENODEV.  A
 * SuperSpeed hub is left alone: its USB 2 half, on the root hub's USB 2
 * port, is a hub of its own and brings the USB 2 devices, but a USB 3
 * device behind it is not found.  A port whose device cannot be
 * addressed is disabled, so that the next device at address 0 is not
 * that one.  Hubs nest up to the five levels USB allows (USB 2.0 4.1.1).
 */

#define USB_DT_HUB			0x29
#define USB_PORT_FEAT_ENABLE		1
#define USB_PORT_FEAT_RESET		4
#define USB_PORT_FEAT_POWER		8
#define USB_PORT_FEAT_C_CONNECTION	16
#define USB_PORT_FEAT_C_RESET		20
#define USB_PORT_STAT_CONNECTION	0x0001
#define USB_PORT_STAT_ENABLE		0x0002
#define USB_PORT_STAT_RESET		0x0010
#define USB_PORT_STAT_LOW_SPEED		0x0200
#define USB_PORT_STAT_HIGH_SPEED	0x0400
#define USB_PORT_STAT_C_RESET		0x0010	/* in wPortChange */
#define HUB_MAX_LEVEL			5
#define HUB_MAX_PORTS			15	/* the most a route string names */
#define HUB_RESET_TIMEOUT_MS		500

static int hub_port_feature(struct usb_device *hdev, uint8_t request, uint16_t feature,
			    unsigned int port)
{
	return usb_control_msg(hdev, request, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_OTHER, feature,
			       (uint16_t)port, NULL, 0, USB_CTRL_SET_TIMEOUT);
}

/* GET_STATUS of port into *status and *change (buf: 4 bytes of
 * kmalloc'd memory); 0 or an errno. */
static int hub_port_status(struct usb_device *hdev, unsigned int port, uint8_t *buf,
			   uint16_t *status, uint16_t *change)
{
	int ret = usb_control_msg(hdev, USB_REQ_GET_STATUS,
				  USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_OTHER, 0, (uint16_t)port,
				  buf, 4, USB_CTRL_GET_TIMEOUT);

	if (ret != 4)
		return ret < 0 ? ret : -EPROTO;
	*status = (uint16_t)(buf[0] | buf[1] << 8);
	*change = (uint16_t)(buf[2] | buf[3] << 8);
	return 0;
}

/* Reset port of hdev, which has a device, and enumerate what enables it. */
static void hub_port_connect(struct usb_device *hdev, unsigned int port, uint8_t *buf)
{
	uint16_t status = 0, change = 0;
	enum usb_device_speed speed;
	struct usb_device *udev;
	unsigned int waited;

	if (hub_port_feature(hdev, USB_REQ_SET_FEATURE, USB_PORT_FEAT_RESET, port) < 0)
		goto fail;
	for (waited = 0; waited < HUB_RESET_TIMEOUT_MS; waited += 10) {
		msleep(10);
		if (hub_port_status(hdev, port, buf, &status, &change))
			goto fail;
		if ((change & USB_PORT_STAT_C_RESET) || !(status & USB_PORT_STAT_RESET))
			break;
	}
	hub_port_feature(hdev, USB_REQ_CLEAR_FEATURE, USB_PORT_FEAT_C_RESET, port);
	hub_port_feature(hdev, USB_REQ_CLEAR_FEATURE, USB_PORT_FEAT_C_CONNECTION, port);
	if (!(status & USB_PORT_STAT_ENABLE))
		goto fail;
	msleep(10);			/* reset recovery (USB 2.0 7.1.7.5) */
	speed = status & USB_PORT_STAT_LOW_SPEED ? USB_SPEED_LOW :
		status & USB_PORT_STAT_HIGH_SPEED ? USB_SPEED_HIGH : USB_SPEED_FULL;
	udev = hdev->bus->driver->alloc_device(hdev, port, speed);
	if (udev) {
		usb_new_device(udev);
		return;
	}
	hub_port_feature(hdev, USB_REQ_CLEAR_FEATURE, USB_PORT_FEAT_ENABLE, port);
	return;
fail:
	printk(KERN_WARNING "usb %s: port %u: the device does not come up after a reset (status %#x)\n",
	       hdev->devpath, port, status);
}

static int hub_probe(struct usb_device *hdev, const struct usb_interface_descriptor *intf)
{
	unsigned int nports, port, think_time, power_ms;
	uint16_t status, change;
	uint8_t *buf;
	int ret;

	(void)intf;
	if (hdev->speed == USB_SPEED_SUPER) {
		printk(KERN_INFO "usb %s: SuperSpeed hub: its USB 2 half serves its ports here\n",
		       hdev->devpath);
		return -ENODEV;
	}
	if (hdev->level >= HUB_MAX_LEVEL) {
		printk(KERN_WARNING "usb %s: a hub too deep in the tree, left alone\n", hdev->devpath);
		return -E2BIG;
	}
	buf = kmalloc(16, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = usb_control_msg(hdev, USB_REQ_GET_DESCRIPTOR, USB_DIR_IN | USB_TYPE_CLASS,
			      USB_DT_HUB << 8, 0, buf, 9, USB_CTRL_GET_TIMEOUT);
	if (ret < 7 || buf[1] != USB_DT_HUB) {
		printk(KERN_WARNING "usb %s: hub descriptor read failed (%d)\n", hdev->devpath, ret);
		ret = ret < 0 ? ret : -EPROTO;
		goto out;
	}
	nports = MIN((unsigned int)buf[2], (unsigned int)HUB_MAX_PORTS);
	think_time = (buf[3] >> 5) & 3;
	/* Power good (bPwrOn2PwrGood, in 2 ms), then up to 100 ms for a
	 * device to attach and 100 ms of debounce (USB 2.0 7.1.7.3). */
	power_ms = 2u * buf[5] + 200;
	printk(KERN_INFO "usb %s: USB hub found, %u ports\n", hdev->devpath, nports);
	ret = hdev->bus->driver->update_hub(hdev, nports, think_time);
	if (ret) {
		printk(KERN_WARNING "usb %s: the controller does not take the hub (%d)\n",
		       hdev->devpath, ret);
		goto out;
	}
	for (port = 1; port <= nports; port++)
		hub_port_feature(hdev, USB_REQ_SET_FEATURE, USB_PORT_FEAT_POWER, port);
	msleep(power_ms);
	for (port = 1; port <= nports; port++)
		if (!hub_port_status(hdev, port, buf, &status, &change) &&
		    (status & USB_PORT_STAT_CONNECTION))
			hub_port_connect(hdev, port, buf);
	ret = 0;
out:
	kfree(buf);
	return ret;
}

static struct usb_driver hub_driver = {
	.name = "hub",
	.interface_class = USB_CLASS_HUB,
	.probe = hub_probe,
};
