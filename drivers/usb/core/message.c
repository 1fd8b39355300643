/*
 * The requests every USB driver makes (Linux's drivers/usb/core/
 * message.c): control requests on endpoint 0 and bulk transfers, each
 * handed to the device's host controller and waited for, and the two
 * standard requests built on them that the core and class drivers need
 * (GET_DESCRIPTOR, SET_CONFIGURATION), plus clearing a halted endpoint.
 *
 * A control request's data moves through a buffer of the caller's, which
 * must be kmalloc'd (one physically contiguous run the controller can
 * reach); these functions never allocate, so a storage driver may call
 * them while the machine is reclaiming memory.
 */
#include <drivers/usb.h>
#include <mm/mm.h>
#include <uapi/errno.h>

int usb_control_msg(struct usb_device *udev, uint8_t request, uint8_t requesttype,
		    uint16_t value, uint16_t index, void *data, uint16_t size,
		    unsigned int timeout_ms)
{
	struct usb_ctrlrequest setup = {
		.bRequestType = requesttype, .bRequest = request,
		.wValue = value, .wIndex = index, .wLength = size,
	};

	if (size && !data)
		return -EINVAL;
	return udev->bus->driver->control(udev, &setup, size ? virt_to_phys(data) : 0, size,
					  timeout_ms);
}

int usb_get_descriptor(struct usb_device *udev, uint8_t type, uint8_t index, void *buf,
		       uint16_t size)
{
	return usb_control_msg(udev, USB_REQ_GET_DESCRIPTOR, USB_DIR_IN, (uint16_t)(type << 8 | index),
			       0, buf, size, USB_CTRL_GET_TIMEOUT);
}

int usb_set_configuration(struct usb_device *udev, uint8_t configuration)
{
	int ret = usb_control_msg(udev, USB_REQ_SET_CONFIGURATION, USB_DIR_OUT, configuration, 0,
				  NULL, 0, USB_CTRL_SET_TIMEOUT);

	if (ret < 0)
		return ret;
	udev->config = configuration;
	return 0;
}

int usb_bulk_msg(struct usb_device *udev, struct usb_host_endpoint *ep,
		 const struct scatterlist *sg, unsigned int nsg, unsigned int *actual,
		 unsigned int timeout_ms)
{
	*actual = 0;
	if (ep->type != USB_ENDPOINT_XFER_BULK)
		return -EINVAL;
	return udev->bus->driver->bulk(udev, ep, sg, nsg, actual, timeout_ms);
}

int usb_clear_halt(struct usb_device *udev, struct usb_host_endpoint *ep)
{
	int ret = udev->bus->driver->reset_endpoint(udev, ep);

	if (ret)
		return ret;
	ret = usb_control_msg(udev, USB_REQ_CLEAR_FEATURE, USB_DIR_OUT | USB_RECIP_ENDPOINT,
			      USB_ENDPOINT_HALT, ep->address, NULL, 0, USB_CTRL_SET_TIMEOUT);
	return ret < 0 ? ret : 0;
}
