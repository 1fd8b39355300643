/*
 * Unit tests for USB enumeration (drivers/usb/core/hub.c, message.c) and
 * the Bulk-Only Transport (drivers/usb/storage/transport.c), over a fake
 * host controller whose one device is played here: a stick with the
 * descriptors a test gives it and a Bulk-Only disk of FAKE_SECTORS
 * sectors behind them, which can be told to misbehave the ways BOT 6.6
 * and 6.7 name (a stalled data stage, a stalled CSW, a CSW with a bad
 * signature or tag, a command that fails with sense data, a transfer
 * that times out).
 *
 * The oracle for the transport is the disk itself: what a WRITE(10)
 * stored must come back from a READ(10), and every misbehaviour must end
 * in the result, resid and recovery requests (CLEAR_FEATURE, the class
 * reset) that BOT prescribes.  Enumeration is also fed random
 * configuration descriptors: whatever they hold, the walk stays inside
 * them (AddressSanitizer watches) and hands a driver only bulk endpoints,
 * each with a number other than 0, a packet size of 1 to 512 bytes and
 * an address of its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <asm/page.h>
#include <mm/slab.h>
#include <uapi/errno.h>

#include "../../drivers/usb/storage/usb.h"
#include "fake_machine.h"
#include "kernel_stubs.h"

#define FAKE_SECTORS	64
#define CBW_SIGN	0x43425355
#define CSW_SIGN	0x53425355

/* A hub the hub tests put in front of the stick: its hub descriptor,
 * which ports have a device, what the driver asked of it. */
static struct {
	uint8_t desc[16];
	unsigned int desc_len;
	uint32_t connected;		/* bit n: a device on port n */
	uint32_t reset;			/* bit n: port n was reset */
	unsigned int powered, updates, nports_told;
	struct usb_device child;
} hub;

/* The device: its descriptors, its disk, its BOT state and its faults. */
static struct {
	uint8_t device[18];
	uint8_t config[2048];
	unsigned int config_len;
	uint8_t disk[FAKE_SECTORS * 512];
	/* BOT */
	enum { WANT_CBW, WANT_DATA, WANT_CSW } state;
	uint8_t cbw[31];
	uint32_t tag, residue;
	uint8_t status;
	bool halted_in, halted_out;
	uint8_t sense_key;
	/* faults, each used once */
	bool stall_data, stall_csw, bad_csw_sign, bad_csw_tag, fail_command, timeout_data;
	unsigned int short_by;		/* bytes a READ returns fewer than asked */
	unsigned int stall_after;	/* bytes a READ moves before it stalls, then passes */
	unsigned int moved;		/* bytes the last stalled transfer moved */
	/* what the host asked */
	int set_config;			/* -1: never */
	unsigned int clear_halts, resets, ep_resets;
} dev;

static int hub_control(const struct usb_ctrlrequest *setup, uint8_t *data, unsigned int len);

static int fake_control(struct usb_device *udev, const struct usb_ctrlrequest *setup,
			phys_addr_t buf, unsigned int len, unsigned int timeout_ms)
{
	uint8_t *data = phys_to_virt(buf);
	static const uint8_t product[] = { 22, USB_DT_STRING, 'F', 0, 'a', 0, 'k', 0, 'e', 0, ' ', 0,
					   'S', 0, 't', 0, 'i', 0, 'c', 0, 'k', 0 };
	unsigned int n;

	(void)timeout_ms;
	assert_int_equal(setup->wLength, len);
	if (udev->hcpriv == &hub)
		return hub_control(setup, data, len);
	switch (setup->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		switch (setup->wValue >> 8) {
		case USB_DT_DEVICE:
			n = MIN(len, sizeof(dev.device));
			memcpy(data, dev.device, n);
			return (int)n;
		case USB_DT_CONFIG:
			n = MIN(len, dev.config_len);
			memcpy(data, dev.config, n);
			return (int)n;
		case USB_DT_STRING:
			n = MIN(len, sizeof(product));
			memcpy(data, product, n);
			return (int)n;
		}
		return -EPIPE;
	case USB_REQ_SET_CONFIGURATION:
		dev.set_config = setup->wValue;
		return 0;
	case USB_REQ_CLEAR_FEATURE:
		dev.clear_halts++;
		if (setup->wIndex & USB_DIR_IN)
			dev.halted_in = false;
		else
			dev.halted_out = false;
		return 0;
	case US_BULK_RESET_REQUEST:
		dev.resets++;
		dev.state = WANT_CBW;
		return 0;
	case US_BULK_GET_MAX_LUN:
		data[0] = 0;
		return 1;
	}
	return -EPIPE;
}

static int fake_enable_endpoints(struct usb_device *udev)
{
	(void)udev;
	return 0;
}

static int fake_reset_endpoint(struct usb_device *udev, struct usb_host_endpoint *ep)
{
	(void)udev;
	(void)ep;
	dev.ep_resets++;
	return 0;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Copy between the sg pieces and buf (len bytes); to_host: device to host. */
static unsigned int sg_copy(const struct scatterlist *sg, unsigned int nsg, uint8_t *buf,
			    unsigned int len, bool to_host)
{
	unsigned int i, done = 0, n;

	for (i = 0; i < nsg && done < len; i++) {
		n = MIN(sg[i].length, len - done);
		if (to_host)
			memcpy(phys_to_virt(sg[i].dma_address), buf + done, n);
		else
			memcpy(buf + done, phys_to_virt(sg[i].dma_address), n);
		done += n;
	}
	return done;
}

static unsigned int sg_len(const struct scatterlist *sg, unsigned int nsg)
{
	unsigned int i, len = 0;

	for (i = 0; i < nsg; i++)
		len += sg[i].length;
	return len;
}

/* The data stage the current CBW asks for: the bytes moved, or -EPIPE. */
static int fake_data(const struct scatterlist *sg, unsigned int nsg, bool in)
{
	uint32_t want = dev.cbw[8] | dev.cbw[9] << 8 | dev.cbw[10] << 16 | (uint32_t)dev.cbw[11] << 24;
	const uint8_t *cdb = dev.cbw + 15;
	uint32_t lba = get_be32(cdb + 2), count = cdb[7] << 8 | cdb[8];
	unsigned int len = sg_len(sg, nsg), n;
	uint8_t sense[18] = { 0x70, 0, dev.sense_key };

	assert_int_equal(len, want);
	dev.state = WANT_CSW;
	dev.status = 0;
	dev.residue = 0;
	if (dev.stall_data) {
		dev.stall_data = false;
		dev.status = 1;
		dev.residue = want;
		dev.sense_key = MEDIUM_ERROR;
		if (in)
			dev.halted_in = true;
		else
			dev.halted_out = true;
		return -EPIPE;
	}
	if (dev.timeout_data) {
		dev.timeout_data = false;
		return -ETIMEDOUT;
	}
	switch (cdb[0]) {
	case READ_10:
		assert_true(in);
		assert_true(lba + count <= FAKE_SECTORS && count * 512 == want);
		if (dev.stall_after) {		/* stops short, stalls, then says all went well */
			dev.moved = sg_copy(sg, nsg, dev.disk + lba * 512, dev.stall_after, true);
			dev.stall_after = 0;
			dev.halted_in = true;
			return -EPIPE;
		}
		n = want - dev.short_by;
		dev.residue = dev.short_by;
		dev.short_by = 0;
		return (int)sg_copy(sg, nsg, dev.disk + lba * 512, n, true);
	case WRITE_10:
		assert_false(in);
		assert_true(lba + count <= FAKE_SECTORS && count * 512 == want);
		return (int)sg_copy(sg, nsg, dev.disk + lba * 512, want, false);
	case REQUEST_SENSE:
		assert_true(in);
		dev.sense_key = 0;
		return (int)sg_copy(sg, nsg, sense, MIN(want, sizeof(sense)), true);
	}
	fail_msg("unexpected command %#x", cdb[0]);
	return -EPROTO;
}

static int fake_bulk_bytes(struct usb_device *udev, struct usb_host_endpoint *ep,
			   const struct scatterlist *sg, unsigned int nsg, unsigned int timeout_ms)
{
	bool in = ep->address & USB_DIR_IN;
	uint8_t csw[13];

	(void)udev;
	(void)timeout_ms;
	if (in ? dev.halted_in : dev.halted_out)
		return -EPIPE;
	if (dev.state == WANT_CBW) {
		uint32_t want;

		assert_false(in);
		assert_int_equal(sg_len(sg, nsg), 31);
		sg_copy(sg, nsg, dev.cbw, 31, false);
		assert_int_equal(get_be32(dev.cbw) , 0x55534243);	/* "USBC", little-endian */
		dev.tag = dev.cbw[4] | dev.cbw[5] << 8 | dev.cbw[6] << 16 | (uint32_t)dev.cbw[7] << 24;
		want = dev.cbw[8] | dev.cbw[9] << 8 | dev.cbw[10] << 16 | (uint32_t)dev.cbw[11] << 24;
		dev.state = want ? WANT_DATA : WANT_CSW;
		dev.status = 0;
		dev.residue = 0;
		if (dev.fail_command) {
			dev.fail_command = false;
			dev.status = 1;
			dev.sense_key = NOT_READY;
			dev.state = WANT_CSW;
			dev.residue = want;
			if (want) {		/* BOT 6.7.2: the host expects data; stall it */
				if (dev.cbw[12] & 0x80)
					dev.halted_in = true;
				else
					dev.halted_out = true;
			}
		}
		return 31;
	}
	if (dev.state == WANT_DATA)
		return fake_data(sg, nsg, in);
	assert_true(in);
	if (dev.stall_csw) {
		dev.stall_csw = false;
		dev.halted_in = true;
		return -EPIPE;
	}
	assert_int_equal(sg_len(sg, nsg), 13);
	csw[0] = 'U'; csw[1] = 'S'; csw[2] = 'B'; csw[3] = 'S';
	if (dev.bad_csw_sign) {
		dev.bad_csw_sign = false;
		csw[3] = 'X';
	}
	memcpy(csw + 4, &dev.tag, 4);
	if (dev.bad_csw_tag) {
		dev.bad_csw_tag = false;
		csw[4] ^= 0xff;
	}
	memcpy(csw + 8, &dev.residue, 4);
	csw[12] = dev.status;
	dev.state = WANT_CBW;
	return (int)sg_copy(sg, nsg, csw, 13, true);
}

/* The hub's side of the hub driver's requests (USB 2.0 11.24). */
static int hub_control(const struct usb_ctrlrequest *setup, uint8_t *data, unsigned int len)
{
	static const uint8_t hub_device[18] = { 18, USB_DT_DEVICE, 0x00, 0x02, 9, 0, 1, 64,
						0x09, 0x04, 0x5a, 0x55, 0, 0, 0, 0, 0, 1 };
	static const uint8_t hub_config[] = {
		9, USB_DT_CONFIG, 25, 0, 1, 1, 0, 0xe0, 0,
		9, USB_DT_INTERFACE, 0, 0, 1, USB_CLASS_HUB, 0, 0, 0,
		7, USB_DT_ENDPOINT, 0x81, 3, 0x01, 0x00, 12,
	};
	unsigned int port = setup->wIndex, n;

	switch (setup->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		if (setup->bRequestType & USB_TYPE_CLASS) {
			n = MIN(len, hub.desc_len);
			memcpy(data, hub.desc, n);
			return (int)n;
		}
		if (setup->wValue >> 8 == USB_DT_DEVICE) {
			n = MIN(len, sizeof(hub_device));
			memcpy(data, hub_device, n);
			return (int)n;
		}
		if (setup->wValue >> 8 == USB_DT_CONFIG) {
			n = MIN(len, sizeof(hub_config));
			memcpy(data, hub_config, n);
			return (int)n;
		}
		return -EPIPE;
	case USB_REQ_SET_CONFIGURATION:
		return 0;
	case USB_REQ_SET_FEATURE:
		assert_true(port >= 1 && port <= 15);
		if (setup->wValue == 8)			/* PORT_POWER */
			hub.powered++;
		else if (setup->wValue == 4)		/* PORT_RESET */
			hub.reset |= 1u << port;
		return 0;
	case USB_REQ_CLEAR_FEATURE:
		return 0;
	case USB_REQ_GET_STATUS:
		assert_int_equal(len, 4);
		n = 0;
		if (hub.connected & (1u << port))
			n |= 0x0001 | 0x0100;		/* connection, power */
		if (hub.reset & (1u << port))
			n |= 0x0002 | 0x0400;		/* enabled, high speed */
		data[0] = (uint8_t)n;
		data[1] = (uint8_t)(n >> 8);
		data[2] = hub.reset & (1u << port) ? 0x10 : 0;	/* C_PORT_RESET */
		data[3] = 0;
		return 4;
	}
	return -EPIPE;
}

static int fake_update_hub(struct usb_device *hdev, unsigned int nports, unsigned int think_time)
{
	(void)hdev;
	(void)think_time;
	hub.updates++;
	hub.nports_told = nports;
	return 0;
}

/* The stick behind the hub: the same fake device, at the hub's port. */
static struct usb_device *fake_alloc_device(struct usb_device *hdev, unsigned int port,
					    enum usb_device_speed speed)
{
	struct usb_device *child = &hub.child;

	memset(child, 0, sizeof(*child));
	child->bus = hdev->bus;
	child->busnum = hdev->busnum;
	child->parent = hdev;
	child->portnum = port;
	child->level = hdev->level + 1;
	child->speed = speed;
	snprintf(child->devpath, sizeof(child->devpath), "%.16s.%u", hdev->devpath, port);
	return child;
}

/* struct hc_driver's bulk over the device: 0 or an errno, the bytes in
 * *actual (those before a stall too). */
static int fake_bulk(struct usb_device *udev, struct usb_host_endpoint *ep,
		     const struct scatterlist *sg, unsigned int nsg, unsigned int *actual,
		     unsigned int timeout_ms)
{
	int ret;

	dev.moved = 0;
	ret = fake_bulk_bytes(udev, ep, sg, nsg, timeout_ms);
	*actual = ret >= 0 ? (unsigned int)ret : dev.moved;
	return ret < 0 ? ret : 0;
}

static const struct hc_driver fake_hc = {
	.control = fake_control,
	.enable_endpoints = fake_enable_endpoints,
	.bulk = fake_bulk,
	.reset_endpoint = fake_reset_endpoint,
	.update_hub = fake_update_hub,
	.alloc_device = fake_alloc_device,
};

static struct usb_hcd fake_hcd = { .driver = &fake_hc, .busnum = 1 };

/* The class driver hub.c hands interfaces to: records what it got. */
static struct {
	unsigned int calls;
	struct usb_interface_descriptor intf;
	int ret;
} probed;

static int fake_storage_probe(struct usb_device *udev, const struct usb_interface_descriptor *intf)
{
	(void)udev;
	probed.calls++;
	probed.intf = *intf;
	return probed.ret;
}

struct usb_driver usb_storage_driver = {
	.name = "usb-storage",
	.interface_class = USB_CLASS_MASS_STORAGE,
	.probe = fake_storage_probe,
};

static struct usb_device udev;

/* The hub driver's pauses: nothing to wait for here. */
void msleep(unsigned int ms)
{
	(void)ms;
}

/* The random configurations' numbers (the C library's stdlib.h would
 * clash with pageturn/sched.h): a 64-bit LCG, Knuth's MMIX constants. */
static uint64_t rand_state;

static unsigned int rnd(void)
{
	rand_state = rand_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned int)(rand_state >> 33);
}

static void fake_device_reset(void)
{
	static const uint8_t device[18] = { 18, USB_DT_DEVICE, 0x00, 0x02, 0, 0, 0, 64,
					    0xf4, 0x46, 0x01, 0x00, 0, 0, 1, 2, 3, 1 };
	/* One configuration: a storage interface with bulk-in 0x81 and
	 * bulk-out 0x02 (512 bytes), as a USB 2 stick has. */
	static const uint8_t config[] = {
		9, USB_DT_CONFIG, 32, 0, 1, 1, 0, 0x80, 50,
		9, USB_DT_INTERFACE, 0, 0, 2, USB_CLASS_MASS_STORAGE, USB_SC_SCSI, USB_PR_BULK, 0,
		7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
		7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	};

	memset(&dev, 0, sizeof(dev));
	memcpy(dev.device, device, sizeof(device));
	memcpy(dev.config, config, sizeof(config));
	dev.config_len = sizeof(config);
	dev.set_config = -1;
	memset(&probed, 0, sizeof(probed));
	memset(&hub, 0, sizeof(hub));
	memset(&udev, 0, sizeof(udev));
	log_clear();
	udev.bus = &fake_hcd;
	udev.busnum = 1;
	udev.portnum = 3;
	udev.speed = USB_SPEED_HIGH;
	strcpy(udev.devpath, "1-3");
}

static int setup(void **state)
{
	(void)state;
	fake_device_reset();
	return 0;
}

static void enumerate_stick(void **state)
{
	(void)state;
	usb_new_device(&udev);
	assert_int_equal(probed.calls, 1);
	assert_int_equal(probed.intf.bInterfaceClass, USB_CLASS_MASS_STORAGE);
	assert_int_equal(probed.intf.bInterfaceProtocol, USB_PR_BULK);
	assert_int_equal(dev.set_config, 1);
	assert_int_equal(udev.nr_ep, 2);
	assert_int_equal(udev.ep[0].address, 0x81);
	assert_int_equal(udev.ep[1].address, 0x02);
	assert_int_equal(udev.ep[0].maxpacket, 512);
	assert_int_equal(udev.descriptor.idVendor, 0x46f4);
	assert_string_equal(udev.product, "Fake Stick");
}

/* Endpoints a hostile or broken stick describes: number 0, packet size
 * 0, a high-speed bulk size other than 512 (kept, with a line, as Linux
 * keeps it), the same address twice.  Only the usable ones reach the
 * driver. */
static void enumerate_bad_endpoints(void **state)
{
	static const uint8_t config[] = {
		9, USB_DT_CONFIG, 53, 0, 1, 1, 0, 0x80, 50,
		9, USB_DT_INTERFACE, 0, 0, 5, USB_CLASS_MASS_STORAGE, USB_SC_SCSI, USB_PR_BULK, 0,
		7, USB_DT_ENDPOINT, 0x80, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,	/* number 0 */
		7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x00, 0x00, 0,	/* size 0 */
		7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x40, 0x00, 0,	/* 64: kept */
		7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,	/* twice */
		7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	};

	(void)state;
	memcpy(dev.config, config, sizeof(config));
	dev.config_len = sizeof(config);
	usb_new_device(&udev);
	assert_int_equal(probed.calls, 1);
	assert_int_equal(udev.nr_ep, 2);
	assert_int_equal(udev.ep[0].address, 0x81);
	assert_int_equal(udev.ep[0].maxpacket, 64);
	assert_int_equal(udev.ep[1].address, 0x02);
	assert_int_equal(log_count("left out"), 3);
	assert_int_equal(log_count("bulk endpoint 0x81 has invalid max packet 64\n"), 1);
}

/* A hub (udev, its hcpriv &hub) of four ports with the stick on port 2:
 * the hub driver tells the controller, powers every port, resets port 2
 * only, and the stick there is enumerated as 1-3.2 and given to the
 * storage driver. */
static void hub_with_stick(void **state)
{
	static const uint8_t desc[9] = { 9, 0x29, 4, 0x20, 0, 50, 0, 0, 0xff };

	(void)state;
	memcpy(hub.desc, desc, sizeof(desc));
	hub.desc_len = sizeof(desc);
	hub.connected = 1u << 2;
	udev.hcpriv = &hub;
	usb_new_device(&udev);
	assert_int_equal(hub.updates, 1);
	assert_int_equal(hub.nports_told, 4);
	assert_int_equal(hub.powered, 4);
	assert_int_equal(hub.reset, 1u << 2);
	assert_int_equal(probed.calls, 1);
	assert_string_equal(hub.child.devpath, "1-3.2");
	assert_int_equal(hub.child.level, 1);
	assert_ptr_equal(hub.child.parent, &udev);
	assert_int_equal(hub.child.speed, USB_SPEED_HIGH);
	assert_int_equal(hub.child.nr_ep, 2);
	assert_non_null(strstr(log_buf, "usb 1-3: USB hub found, 4 ports"));
}

/* Hostile hub descriptors: 255 ports are cut to the 15 a route string
 * can name; a descriptor too short or of the wrong type is refused
 * before any port is touched; a fifth hub in a row is driven, a sixth
 * left alone (USB 2.0 4.1.1). */
static void hub_hostile(void **state)
{
	static const uint8_t many[9] = { 9, 0x29, 255, 0, 0, 1, 0, 0, 0 };
	static const uint8_t wrong[9] = { 9, 0x2a, 4, 0, 0, 1, 0, 0, 0 };

	(void)state;
	memcpy(hub.desc, many, sizeof(many));
	hub.desc_len = sizeof(many);
	udev.hcpriv = &hub;
	usb_new_device(&udev);
	assert_int_equal(hub.nports_told, 15);
	assert_int_equal(hub.powered, 15);
	assert_int_equal(probed.calls, 0);

	hub.powered = hub.updates = 0;
	hub.desc_len = 3;
	usb_new_device(&udev);
	assert_int_equal(hub.updates + hub.powered, 0);
	memcpy(hub.desc, wrong, sizeof(wrong));
	hub.desc_len = sizeof(wrong);
	usb_new_device(&udev);
	assert_int_equal(hub.updates + hub.powered, 0);

	memcpy(hub.desc, many, sizeof(many));
	hub.desc_len = sizeof(many);
	udev.level = 4;			/* the fifth hub: allowed */
	hub.updates = hub.powered = 0;
	usb_new_device(&udev);
	assert_int_equal(hub.updates, 1);
	udev.level = 5;			/* a sixth: not */
	hub.updates = hub.powered = 0;
	usb_new_device(&udev);
	assert_int_equal(hub.updates + hub.powered, 0);
	assert_non_null(strstr(log_buf, "a hub too deep in the tree, left alone"));
}

/* A keyboard (class 03, HID): configured, left alone, no driver called. */
static void enumerate_no_driver(void **state)
{
	(void)state;
	dev.config[9 + 5] = 0x03;
	usb_new_device(&udev);
	assert_int_equal(probed.calls, 0);
	assert_int_equal(dev.set_config, 1);
	assert_non_null(strstr(log_buf, "usb 1-3: no driver for this device's interfaces, left alone"));
}

/* A configuration longer than the walk reads is refused before SET_CONFIGURATION. */
static void enumerate_config_too_long(void **state)
{
	(void)state;
	dev.config[2] = 0x00;
	dev.config[3] = 0x08;		/* 2048 bytes */
	dev.config_len = 2048;
	usb_new_device(&udev);
	assert_int_equal(probed.calls, 0);
	assert_int_equal(dev.set_config, -1);
	assert_non_null(strstr(log_buf, "usb 1-3: a configuration of 2048 bytes"));
}

/*
 * Random configurations: descriptors of random lengths (0 and 1
 * included) and types, a storage interface now and then, random total
 * lengths.  The walk must stay inside the buffer (ASan) and give the
 * driver at most USB_MAXENDPOINTS endpoints, all bulk, numbered, of 1 to
 * 512 bytes and each address once, and only when a storage interface
 * with alternate setting 0 was there.
 */
static void enumerate_random_configs(void **state)
{
	unsigned int round, i, off;

	(void)state;
	rand_state = 12345;
	for (round = 0; round < 3000; round++) {
		fake_device_reset();
		off = 9;
		while (off < 1024 && rnd() % 16) {
			unsigned int len = rnd() % 6 == 0 ? rnd() % 3 : 2 + rnd() % 12;
			uint8_t *d = dev.config + off;

			for (i = 0; i < len && off + i < sizeof(dev.config); i++)
				d[i] = (uint8_t)rnd();
			if (len >= 2) {
				d[0] = (uint8_t)len;
				d[1] = (uint8_t[]){ USB_DT_INTERFACE, USB_DT_ENDPOINT,
						    USB_DT_SS_ENDPOINT_COMP, 0x21 }[rnd() % 4];
				if (d[1] == USB_DT_INTERFACE && len >= 9 && rnd() % 2)
					d[5] = USB_CLASS_MASS_STORAGE;
				if (d[1] == USB_DT_ENDPOINT && len >= 7 && rnd() % 2)
					d[3] = USB_ENDPOINT_XFER_BULK;
			} else if (len == 1) {
				d[0] = 0;
			}
			off += len;
		}
		if (rnd() % 4 == 0)
			off = 9 + rnd() % 1100;
		dev.config[2] = (uint8_t)off;
		dev.config[3] = (uint8_t)(off >> 8);
		dev.config_len = MIN(off, sizeof(dev.config));
		usb_new_device(&udev);
		assert_true(udev.nr_ep <= USB_MAXENDPOINTS);
		for (i = 0; i < udev.nr_ep; i++) {
			unsigned int j;

			assert_int_equal(udev.ep[i].type, USB_ENDPOINT_XFER_BULK);
			assert_true(udev.ep[i].maxpacket > 0 && udev.ep[i].maxpacket <= 512);
			assert_int_not_equal(udev.ep[i].address & USB_ENDPOINT_NUMBER_MASK, 0);
			for (j = 0; j < i; j++)
				assert_int_not_equal(udev.ep[j].address, udev.ep[i].address);
		}
		if (probed.calls) {
			assert_int_equal(probed.intf.bInterfaceClass, USB_CLASS_MASS_STORAGE);
			assert_int_equal(probed.intf.bAlternateSetting, 0);
		}
	}
}

/*
 * The transport.
 */

static struct us_data us;
static struct scsi_device sdev;

static int transport_setup(void **state)
{
	(void)state;
	fake_device_reset();
	usb_new_device(&udev);
	assert_int_equal(probed.calls, 1);
	memset(&us, 0, sizeof(us));
	us.pusb_dev = &udev;
	us.ep_in = &udev.ep[0];
	us.ep_out = &udev.ep[1];
	us.iobuf = kzalloc(256, GFP_KERNEL);
	assert_non_null(us.iobuf);
	sdev.hostdata = &us;
	return 0;
}

static int transport_teardown(void **state)
{
	(void)state;
	kfree(us.iobuf);
	return 0;
}

/* A READ(10) or WRITE(10) of count sectors at lba through buf. */
static void rw_cmd(struct scsi_cmnd *cmd, bool write, uint32_t lba, unsigned int count, uint8_t *buf)
{
	unsigned int len = count * 512, i;

	memset(cmd, 0, sizeof(*cmd));
	cmd->device = &sdev;
	cmd->cmnd[0] = write ? WRITE_10 : READ_10;
	cmd->cmnd[2] = lba >> 24;
	cmd->cmnd[3] = lba >> 16;
	cmd->cmnd[4] = lba >> 8;
	cmd->cmnd[5] = lba;
	cmd->cmnd[8] = count;
	cmd->cmd_len = 10;
	cmd->sc_data_direction = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	for (i = 0; i * 4096 < len; i++) {
		cmd->sg[i].dma_address = virt_to_phys(buf + i * 4096);
		cmd->sg[i].length = MIN(4096u, len - i * 4096);
	}
	cmd->nsg = i;
	cmd->length = len;
}

static uint8_t *pattern_buf(unsigned int len, unsigned int seed)
{
	uint8_t *buf = kmalloc(len, GFP_KERNEL);
	unsigned int i;

	assert_non_null(buf);
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 7 + seed);
	return buf;
}

static void write_then_read(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *out = pattern_buf(16 * 512, 3), *in = kzalloc(16 * 512, GFP_KERNEL);

	(void)state;
	rw_cmd(cmd, true, 8, 16, out);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_GOOD);
	assert_int_equal(cmd->resid, 0);
	assert_memory_equal(dev.disk + 8 * 512, out, 16 * 512);
	rw_cmd(cmd, false, 8, 16, in);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_GOOD);
	assert_memory_equal(in, out, 16 * 512);
	assert_int_equal(dev.resets + dev.clear_halts, 0);
	kfree(cmd);
	kfree(out);
	kfree(in);
}

/* A stalled data stage: the halt is cleared, the CSW read, the command
 * failed with the unit's sense data (BOT 6.7.2). */
static void data_stage_stalls(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *in = kzalloc(4 * 512, GFP_KERNEL);

	(void)state;
	dev.stall_data = true;
	rw_cmd(cmd, false, 0, 4, in);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_CHECK_CONDITION);
	assert_int_equal(cmd->sense[2] & 0xf, MEDIUM_ERROR);
	assert_int_equal(cmd->resid, 4 * 512);
	assert_int_equal(dev.clear_halts, 1);
	assert_int_equal(dev.ep_resets, 1);
	assert_int_equal(dev.resets, 0);
	assert_false(dev.halted_in);
	kfree(cmd);
	kfree(in);
}

/* A command the unit fails: REQUEST SENSE follows, and the next command works. */
static void command_fails_with_sense(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *out = pattern_buf(512, 9);

	(void)state;
	dev.fail_command = true;
	rw_cmd(cmd, true, 1, 1, out);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_CHECK_CONDITION);
	assert_int_equal(cmd->sense[2] & 0xf, NOT_READY);
	assert_int_equal(dev.resets, 0);
	rw_cmd(cmd, true, 1, 1, out);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_GOOD);
	assert_memory_equal(dev.disk + 512, out, 512);
	kfree(cmd);
	kfree(out);
}

/* A stalled CSW is cleared and read again (BOT 6.7.2, case 3). */
static void csw_stalls_once(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *out = pattern_buf(512, 1);

	(void)state;
	dev.stall_csw = true;
	rw_cmd(cmd, true, 2, 1, out);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_GOOD);
	assert_int_equal(dev.clear_halts, 1);
	assert_int_equal(dev.resets, 0);
	kfree(cmd);
	kfree(out);
}

/* A CSW that is not valid (signature, tag) or a transfer that times out:
 * reset recovery, both halts cleared; the command fails with -EAGAIN
 * (try again) after a bad CSW, -EIO after a timeout (the device may be
 * hung); the next one works. */
static void bad_csw_or_timeout_resets(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *out = pattern_buf(512, 5);
	unsigned int fault;

	(void)state;
	for (fault = 0; fault < 3; fault++) {
		dev.resets = dev.clear_halts = 0;
		dev.bad_csw_sign = fault == 0;
		dev.bad_csw_tag = fault == 1;
		dev.timeout_data = fault == 2;
		rw_cmd(cmd, true, 3, 1, out);
		usb_stor_invoke_transport(cmd, &us);
		assert_int_equal(cmd->result, fault == 2 ? -EIO : -EAGAIN);
		assert_int_equal(dev.resets, 1);
		assert_int_equal(dev.clear_halts, 2);
		rw_cmd(cmd, true, 3, 1, out);
		usb_stor_invoke_transport(cmd, &us);
		assert_int_equal(cmd->result, SAM_STAT_GOOD);
	}
	assert_int_equal(log_count("usb 1-3: usb-storage: resetting the device"), 3);
	kfree(cmd);
	kfree(out);
}

/* A short read: the residue reaches resid, so sd.c fails the request. */
static void short_read_has_resid(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *in = kzalloc(8 * 512, GFP_KERNEL);

	(void)state;
	dev.short_by = 1024;
	rw_cmd(cmd, false, 0, 8, in);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_GOOD);
	assert_int_equal(cmd->resid, 1024);
	kfree(cmd);
	kfree(in);
}

/* A device that stops a READ short with a stall and then reports it
 * passed with no residue (BOT 6.7.2 lets a device stall early; the CSW
 * is wrong): the bytes that did not move still count as not moved. */
static void stall_after_short_read(void **state)
{
	struct scsi_cmnd *cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	uint8_t *in = kzalloc(8 * 512, GFP_KERNEL);

	(void)state;
	dev.stall_after = 1024;
	rw_cmd(cmd, false, 0, 8, in);
	usb_stor_invoke_transport(cmd, &us);
	assert_int_equal(cmd->result, SAM_STAT_GOOD);
	assert_int_equal(cmd->resid, 8 * 512 - 1024);
	assert_int_equal(dev.clear_halts, 1);
	assert_int_equal(dev.resets, 0);
	kfree(cmd);
	kfree(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(enumerate_stick, setup),
		cmocka_unit_test_setup(enumerate_bad_endpoints, setup),
		cmocka_unit_test_setup(enumerate_no_driver, setup),
		cmocka_unit_test_setup(hub_with_stick, setup),
		cmocka_unit_test_setup(hub_hostile, setup),
		cmocka_unit_test_setup(enumerate_config_too_long, setup),
		cmocka_unit_test_setup(enumerate_random_configs, setup),
		cmocka_unit_test_setup_teardown(write_then_read, transport_setup, transport_teardown),
		cmocka_unit_test_setup_teardown(data_stage_stalls, transport_setup, transport_teardown),
		cmocka_unit_test_setup_teardown(command_fails_with_sense, transport_setup,
						transport_teardown),
		cmocka_unit_test_setup_teardown(csw_stalls_once, transport_setup, transport_teardown),
		cmocka_unit_test_setup_teardown(bad_csw_or_timeout_resets, transport_setup,
						transport_teardown),
		cmocka_unit_test_setup_teardown(short_read_has_resid, transport_setup, transport_teardown),
		cmocka_unit_test_setup_teardown(stall_after_short_read, transport_setup,
						transport_teardown),
	};

	fake_machine_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
