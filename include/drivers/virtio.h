/*
 * Virtio over PCI, the legacy interface (virtio 0.9.5 / "transitional"
 * devices, Linux's virtio_pci_legacy.h and virtio_ring.h names).
 *
 * A legacy device has its registers in I/O space behind BAR0, and one
 * virtqueue per queue index: a descriptor table, an available ring the
 * driver fills and a used ring the device fills, in one physically
 * contiguous block whose page frame number the driver writes to
 * QUEUE_PFN.  The used ring starts at the next VIRTIO_PCI_VRING_ALIGN
 * boundary after the available ring.  All fields are little endian,
 * which on x86 is native.
 */
#ifndef DRIVERS_VIRTIO_H
#define DRIVERS_VIRTIO_H

#include <pageturn/types.h>

#define PCI_VENDOR_ID_REDHAT_QUMRANET	0x1af4
#define VIRTIO_PCI_DEVICE_ID_BLOCK	0x1001	/* transitional virtio-blk */

/* Legacy registers, offsets into BAR0 (I/O space). */
#define VIRTIO_PCI_HOST_FEATURES	0x00	/* 32 bits, read: what the device offers */
#define VIRTIO_PCI_GUEST_FEATURES	0x04	/* 32 bits, write: what the driver accepts */
#define VIRTIO_PCI_QUEUE_PFN		0x08	/* 32 bits: queue address >> 12; 0 = none */
#define VIRTIO_PCI_QUEUE_NUM		0x0c	/* 16 bits, read: queue size (0: no queue) */
#define VIRTIO_PCI_QUEUE_SEL		0x0e	/* 16 bits: which queue the above mean */
#define VIRTIO_PCI_QUEUE_NOTIFY		0x10	/* 16 bits: write a queue index to kick it */
#define VIRTIO_PCI_STATUS		0x12	/* 8 bits: VIRTIO_CONFIG_S_*; 0 resets */
#define VIRTIO_PCI_ISR			0x13	/* 8 bits: reading acknowledges the interrupt */
#define VIRTIO_PCI_CONFIG		0x14	/* device-specific config (MSI-X off) */

#define VIRTIO_PCI_ISR_QUEUE		0x01	/* a used ring has new entries */
#define VIRTIO_PCI_ISR_CONFIG		0x02	/* the configuration changed */

#define VIRTIO_PCI_QUEUE_ADDR_SHIFT	12
#define VIRTIO_PCI_VRING_ALIGN		4096

/* Device status bits, set in this order during initialisation. */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE	0x01	/* the OS noticed the device */
#define VIRTIO_CONFIG_S_DRIVER		0x02	/* and has a driver for it */
#define VIRTIO_CONFIG_S_DRIVER_OK	0x04	/* the driver is ready */
#define VIRTIO_CONFIG_S_FAILED		0x80	/* the driver gave up */

/* The virtqueue. */
#define VRING_DESC_F_NEXT	1	/* the chain continues at .next */
#define VRING_DESC_F_WRITE	2	/* the device writes this buffer */

struct vring_desc {
	uint64_t addr;		/* physical */
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

struct vring_avail {
	uint16_t flags;
	uint16_t idx;		/* where the driver puts the next entry (free-running) */
	uint16_t ring[];	/* heads of descriptor chains */
};

struct vring_used_elem {
	uint32_t id;		/* head of the finished chain */
	uint32_t len;		/* bytes the device wrote */
};

struct vring_used {
	uint16_t flags;
	uint16_t idx;		/* where the device puts the next entry (free-running) */
	struct vring_used_elem ring[];
};

/* Bytes of a legacy virtqueue of num entries: descriptors and the
 * available ring (with its trailing used_event), aligned, then the used
 * ring (with avail_event). */
static inline size_t vring_size(unsigned int num)
{
	size_t avail_end = sizeof(struct vring_desc) * num + sizeof(uint16_t) * (3 + num);

	return ALIGN_UP(avail_end, (size_t)VIRTIO_PCI_VRING_ALIGN) +
	       sizeof(uint16_t) * 3 + sizeof(struct vring_used_elem) * num;
}

static inline struct vring_used *vring_used_of(void *ring, unsigned int num)
{
	size_t avail_end = sizeof(struct vring_desc) * num + sizeof(uint16_t) * (3 + num);

	return (struct vring_used *)((char *)ring + ALIGN_UP(avail_end, (size_t)VIRTIO_PCI_VRING_ALIGN));
}

/*
 * Ordering between the driver's writes to ring memory and the device: on
 * x86 stores are seen in program order and the notify is an I/O
 * instruction (serialising), so only the compiler must be kept from
 * reordering (Linux's virt_wmb/virt_rmb are barrier() here too).
 */
#define virtio_wmb()	__asm__ volatile("" ::: "memory")
#define virtio_rmb()	__asm__ volatile("" ::: "memory")

/* virtio-blk (device ID 2). */
#define VIRTIO_BLK_F_SIZE_MAX	1	/* feature bits: config.size_max is valid */
#define VIRTIO_BLK_F_SEG_MAX	2	/* config.seg_max is valid */
#define VIRTIO_BLK_F_RO		5	/* the disk is read-only */
#define VIRTIO_BLK_F_BLK_SIZE	6	/* config.blk_size is valid */

#define VIRTIO_BLK_CFG_CAPACITY	0x00	/* 64 bits, in 512-byte sectors */
#define VIRTIO_BLK_CFG_SIZE_MAX	0x08	/* 32 bits: bytes per segment, at most */
#define VIRTIO_BLK_CFG_SEG_MAX	0x0c	/* 32 bits: segments per request, at most */
#define VIRTIO_BLK_CFG_BLK_SIZE	0x14	/* 32 bits: logical block size */

#define VIRTIO_BLK_T_IN		0	/* read */
#define VIRTIO_BLK_T_OUT	1	/* write */

#define VIRTIO_BLK_S_OK		0
#define VIRTIO_BLK_S_IOERR	1
#define VIRTIO_BLK_S_UNSUPP	2

/* The request header, first descriptor of every request. */
struct virtio_blk_outhdr {
	uint32_t type;		/* VIRTIO_BLK_T_* */
	uint32_t ioprio;
	uint64_t sector;	/* always 512-byte units */
};

#endif
