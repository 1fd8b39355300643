/*
 * USB (Linux's include/linux/usb.h, usb/ch9.h and usb/hcd.h, reduced to
 * what a mass-storage stick needs): the descriptors of chapter 9 of the
 * USB specification, a device as the core knows it, the host controller
 * driver's operations, and the calls a class driver makes.
 *
 * The layers, each a folder of drivers/usb/ as in Linux:
 *   host/            the host controllers: xhci.c (USB 3, and every
 *                    port of PCs since about 2012), ehci-hcd.c (USB 2's
 *                    high-speed ports on older PCs); each finds a device
 *                    on a root port (or, asked by the hub driver, on a
 *                    hub's port), addresses it and hands it to the core.
 *   core/hub.c       enumeration: reads a new device's descriptors,
 *                    configures it, gives its interface to the class
 *                    driver that claims it; and the hub class driver,
 *                    which finds the devices on a hub's ports.
 *   core/message.c   the requests every driver makes: control requests
 *                    (usb_control_msg), bulk transfers (usb_bulk_msg),
 *                    clearing a halted endpoint (usb_clear_halt).
 *   storage/         the mass-storage class driver (Bulk-Only Transport),
 *                    which hands its disk to drivers/scsi/sd.c.
 *
 * Every transfer is synchronous: the caller sleeps until the controller
 * says it is done or its timeout passes.  Callers are in process
 * context and hold no spinlock.  Data buffers are described by their
 * physical addresses (struct scatterlist), so a transfer can go straight to
 * and from page-cache pages; a buffer of the caller's for a control
 * request is kmalloc'd memory (one physically contiguous run).
 */
#ifndef DRIVERS_USB_H
#define DRIVERS_USB_H

#include <drivers/scatterlist.h>
#include <pageturn/types.h>

/* Standard requests (USB 2.0 9.4) and their bmRequestType bits. */
#define USB_DIR_OUT			0x00
#define USB_DIR_IN			0x80
#define USB_TYPE_CLASS			0x20
#define USB_RECIP_INTERFACE		0x01
#define USB_RECIP_ENDPOINT		0x02
#define USB_RECIP_OTHER			0x03	/* a hub's port */

#define USB_REQ_GET_STATUS		0x00
#define USB_REQ_CLEAR_FEATURE		0x01
#define USB_REQ_SET_FEATURE		0x03
#define USB_REQ_SET_ADDRESS		0x05
#define USB_REQ_GET_DESCRIPTOR		0x06
#define USB_REQ_SET_CONFIGURATION	0x09
#define USB_ENDPOINT_HALT		0	/* feature selector */

#define USB_DT_DEVICE			0x01
#define USB_DT_CONFIG			0x02
#define USB_DT_STRING			0x03
#define USB_DT_INTERFACE		0x04
#define USB_DT_ENDPOINT			0x05
#define USB_DT_SS_ENDPOINT_COMP		0x30
#define USB_DT_DEVICE_SIZE		18
#define USB_DT_CONFIG_SIZE		9

#define USB_ENDPOINT_NUMBER_MASK	0x0f
#define USB_ENDPOINT_XFERTYPE_MASK	0x03	/* bmAttributes: control, isochronous, */
#define USB_ENDPOINT_XFER_BULK		2	/* bulk or interrupt */

#define USB_CLASS_MASS_STORAGE		0x08
#define USB_CLASS_HUB			0x09

/* Timeouts of the requests the core makes, milliseconds (Linux's
 * USB_CTRL_GET_TIMEOUT and USB_CTRL_SET_TIMEOUT). */
#define USB_CTRL_GET_TIMEOUT		5000
#define USB_CTRL_SET_TIMEOUT		5000

struct usb_ctrlrequest {
	uint8_t bRequestType;
	uint8_t bRequest;
	uint16_t wValue;
	uint16_t wIndex;
	uint16_t wLength;
} __attribute__((packed));

struct usb_device_descriptor {
	uint8_t bLength;
	uint8_t bDescriptorType;
	uint16_t bcdUSB;
	uint8_t bDeviceClass;
	uint8_t bDeviceSubClass;
	uint8_t bDeviceProtocol;
	uint8_t bMaxPacketSize0;	/* SuperSpeed: an exponent of 2 */
	uint16_t idVendor;
	uint16_t idProduct;
	uint16_t bcdDevice;
	uint8_t iManufacturer;
	uint8_t iProduct;
	uint8_t iSerialNumber;
	uint8_t bNumConfigurations;
} __attribute__((packed));

struct usb_config_descriptor {
	uint8_t bLength;
	uint8_t bDescriptorType;
	uint16_t wTotalLength;		/* this and every descriptor after it */
	uint8_t bNumInterfaces;
	uint8_t bConfigurationValue;
	uint8_t iConfiguration;
	uint8_t bmAttributes;
	uint8_t bMaxPower;
} __attribute__((packed));

struct usb_interface_descriptor {
	uint8_t bLength;
	uint8_t bDescriptorType;
	uint8_t bInterfaceNumber;
	uint8_t bAlternateSetting;
	uint8_t bNumEndpoints;
	uint8_t bInterfaceClass;
	uint8_t bInterfaceSubClass;
	uint8_t bInterfaceProtocol;
	uint8_t iInterface;
} __attribute__((packed));

struct usb_endpoint_descriptor {
	uint8_t bLength;
	uint8_t bDescriptorType;
	uint8_t bEndpointAddress;	/* number, and USB_DIR_IN */
	uint8_t bmAttributes;		/* transfer type */
	uint16_t wMaxPacketSize;
	uint8_t bInterval;
} __attribute__((packed));

enum usb_device_speed {
	USB_SPEED_UNKNOWN = 0,
	USB_SPEED_LOW,			/* 1.5 Mbit/s */
	USB_SPEED_FULL,			/* 12 Mbit/s */
	USB_SPEED_HIGH,			/* 480 Mbit/s */
	USB_SPEED_SUPER,		/* 5 Gbit/s */
};

/* An endpoint the core has enabled on the controller: its descriptor's
 * facts, and the controller's state for it. */
struct usb_host_endpoint {
	uint8_t address;		/* bEndpointAddress */
	uint8_t type;			/* USB_ENDPOINT_XFER_* */
	uint16_t maxpacket;
	uint8_t maxburst;		/* SuperSpeed companion's bMaxBurst */
	void *hcpriv;			/* the controller's */
};

/* Most endpoints an interface may use here (a storage interface has 2 or 3). */
#define USB_MAXENDPOINTS		4

struct usb_hcd;

/*
 * A device on a root port or on a hub's port.  The controller creates it
 * (busnum, parent, portnum, speed, hcpriv: its slot, with endpoint 0
 * addressed and working) and hands it to usb_new_device(); the core
 * fills in the rest.  A device's structures live for the whole boot,
 * also after it is unplugged (its transfers then fail: with -ENODEV at
 * once when it was on a root port; behind a hub with transaction errors
 * or by timeout).
 */
struct usb_device {
	struct usb_hcd *bus;
	void *hcpriv;
	unsigned int busnum;		/* the controller's number, from 1 */
	struct usb_device *parent;	/* the hub it is on; NULL on a root port */
	unsigned int portnum;		/* the port of the root or the hub, from 1 */
	unsigned int level;		/* hubs above it: 0 on a root port */
	enum usb_device_speed speed;
	char devpath[24];		/* Linux's name: "1-2" (bus 1, root port 2),
					 * "1-2.3" (port 3 of the hub on 1-2) */
	struct usb_device_descriptor descriptor;
	char product[64];		/* iProduct, ASCII, or "" */
	uint8_t config;			/* bConfigurationValue in use */
	struct usb_host_endpoint ep[USB_MAXENDPOINTS];
	unsigned int nr_ep;
};

/*
 * What a host controller driver does for the core (Linux's struct
 * hc_driver, as methods of one controller).  All are called in process
 * context, may sleep, and return a negative errno on failure:
 *   -EPIPE      the endpoint stalled (now halted on the controller too,
 *               until reset_endpoint);
 *   -ETIMEDOUT  nothing came within timeout_ms: the transfer was
 *               cancelled, and the endpoint takes transfers again, but
 *               its data toggle may no longer match the device's until
 *               reset_endpoint and CLEAR_FEATURE(ENDPOINT_HALT);
 *   -EPROTO     a transaction error, babble or anything else the
 *               controller reported (the endpoint is halted);
 *   -ENODEV     the device was unplugged, or the controller is dead.
 */
struct hc_driver {
	/* A control transfer on endpoint 0: setup, then len bytes of data
	 * (in or out as setup says) at buf.  Returns the bytes moved.  A
	 * stall is cleared on the controller before it returns. */
	int (*control)(struct usb_device *udev, const struct usb_ctrlrequest *setup,
		       phys_addr_t buf, unsigned int len, unsigned int timeout_ms);
	/* Make udev's endpoints ep[0..nr_ep) usable (xHCI's Configure
	 * Endpoint).  Called once, before SET_CONFIGURATION. */
	int (*enable_endpoints)(struct usb_device *udev);
	/* A bulk transfer on ep over nsg pieces, each within one page and
	 * each but the last a multiple of ep's packet size (else -EINVAL:
	 * EHCI cannot split a packet between two of its descriptors).
	 * Returns 0 or an errno, and in *actual the bytes moved: fewer than
	 * asked after a short packet, and those before a stall, an error or
	 * a timeout as far as the controller reports them. */
	int (*bulk)(struct usb_device *udev, struct usb_host_endpoint *ep,
		    const struct scatterlist *sg, unsigned int nsg, unsigned int *actual,
		    unsigned int timeout_ms);
	/* Start ep afresh on the controller, halted or not: its next
	 * transfer from the ring's enqueue position, its data toggle (or
	 * sequence number) reset, as the device's is by CLEAR_FEATURE
	 * (ENDPOINT_HALT). */
	int (*reset_endpoint)(struct usb_device *udev, struct usb_host_endpoint *ep);
	/* hub is a hub with nports ports whose transaction translator needs
	 * think_time (wHubCharacteristics bits 6:5): tell the controller
	 * (xHCI's slot context).  Called by the hub driver at its probe. */
	int (*update_hub)(struct usb_device *hub, unsigned int nports, unsigned int think_time);
	/* A device of speed on port of hub, the port just reset and
	 * enabled: address it, endpoint 0 working, and return it (the
	 * caller hands it to usb_new_device()), or NULL with a line. */
	struct usb_device *(*alloc_device)(struct usb_device *hub, unsigned int port,
					   enum usb_device_speed speed);
};

struct usb_hcd {
	const struct hc_driver *driver;
	unsigned int busnum;
	void *hcpriv;
};

/* A class driver: it claims the interfaces it knows (probe returns 0)
 * and from then on owns them.  probe may sleep. */
struct usb_driver {
	const char *name;
	uint8_t interface_class;
	int (*probe)(struct usb_device *udev, const struct usb_interface_descriptor *intf);
};

/* core/hub.c: a controller (or a hub) found a device on one of its
 * ports, its endpoint 0 addressed.  Reads its descriptors, configures it and hands
 * its interfaces to the class drivers; logs what it found.  Process
 * context, at boot. */
void usb_new_device(struct usb_device *udev);

/* core/message.c.  Returns the bytes moved or a negative errno. */
int usb_control_msg(struct usb_device *udev, uint8_t request, uint8_t requesttype,
		    uint16_t value, uint16_t index, void *data, uint16_t size,
		    unsigned int timeout_ms);
int usb_get_descriptor(struct usb_device *udev, uint8_t type, uint8_t index, void *buf,
		       uint16_t size);
int usb_set_configuration(struct usb_device *udev, uint8_t configuration);
/* Bulk transfer over sg (nsg pieces) on ep: 0 or an errno, the bytes
 * moved in *actual, as struct hc_driver's bulk says (Linux's
 * usb_bulk_msg, whose actual_length this is). */
int usb_bulk_msg(struct usb_device *udev, struct usb_host_endpoint *ep,
		 const struct scatterlist *sg, unsigned int nsg, unsigned int *actual,
		 unsigned int timeout_ms);
/* Start ep afresh on both sides, after a stall (-EPIPE) or in a class
 * driver's reset recovery: reset it on the controller, then send
 * CLEAR_FEATURE(ENDPOINT_HALT) to the device, so that both data toggles
 * start over.  0 or an errno. */
int usb_clear_halt(struct usb_device *udev, struct usb_host_endpoint *ep);

/* core/hub.c: the next bus number, 1, 2, ..., one per controller in
 * the order they are found.  Boot only. */
unsigned int usb_new_busnum(void);

/* host/xhci.c, host/ehci-hcd.c: find every xHCI (then EHCI) controller
 * on PCI and the devices on their root ports.  Called by blk_dev_init(),
 * in that order. */
void xhci_init(void);
void ehci_init(void);

#endif
