/*
 * virtio-blk over PCI, legacy interface (device 1af4:1001), one
 * virtqueue, interrupt-driven: disks vda, vdb, ...
 *
 * The queue: num descriptors (the device says how many).  A request is a
 * chain of rq->nr_phys_segments + 2 of them:
 *
 *   head      the request header (struct virtio_blk_outhdr in reqs[head])
 *   1 .. n    the segments of the request's bios, one each, in order;
 *             device-writable for a read
 *   tail      the status byte (in reqs[head]), device-writable
 *
 * Descriptors not in a request are on a free list threaded through
 * their .next fields (free_head, num_free).  A request is posted by
 * taking a chain from the list, filling it, and putting its head in the
 * available ring; a used-ring entry with that head finishes reqs[head],
 * and its chain goes back on the list.  So as many requests are in
 * flight as their descriptors allow, the whole queue at most.  The
 * device's seg_max and size_max (when it offers them) become the disk's
 * max_segments and max_segment_size, so every request the block layer
 * hands us fits in a chain; indirect descriptors are not used.
 *
 * reqs[] has one entry per descriptor, used only at chain heads:
 *
 *   free      req->rq == NULL
 *   in flight req->rq set, its chain given to the device
 *
 * A request is either on vb->queue (FIFO, waiting for descriptors) or in
 * exactly one chain in flight, until it is completed.  Everything in
 * struct virtio_blk below `lock` changes only under it; the interrupt
 * handler takes it too, and calls blk_end_request_all() only after
 * dropping it, so a completion callback may submit again.
 *
 * The interrupt: PCI INTx, routed by firmware to a PIC line
 * (pdev->irq).  Several disks may share a line, so the driver installs
 * one handler per line, which services every disk on it: reading ISR
 * acknowledges (and lowers) the device's interrupt, then the used ring is
 * walked from last_used to the device's used->idx.  A request whose
 * status byte is not VIRTIO_BLK_S_OK completes with -EIO; a malformed
 * used entry is logged and skipped, never trusted.
 */
#include <asm/cpu.h>
#include <asm/io.h>
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <drivers/pci.h>
#include <drivers/virtio.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
#include <uapi/errno.h>

#include "blk.h"

#define VBLK_STATUS_UNSET	0xff	/* what the device must overwrite */
#define VBLK_MAX_DISKS		26	/* vda .. vdz */
#define VBLK_FEATURES		((1u << VIRTIO_BLK_F_RO) | (1u << VIRTIO_BLK_F_BLK_SIZE) | \
				 (1u << VIRTIO_BLK_F_SIZE_MAX) | (1u << VIRTIO_BLK_F_SEG_MAX))

struct vblk_req {
	struct virtio_blk_outhdr hdr;	/* read by the device */
	uint8_t status;			/* written by the device */
	struct request *rq;		/* NULL: no request starts here */
	uint16_t tail;			/* the chain's last descriptor */
	uint16_t ndesc;			/* the chain's length */
};

struct virtio_blk {
	struct block_device bdev;
	struct pci_dev *pdev;
	uint16_t iobase;		/* BAR0 */
	unsigned int irq;
	unsigned int num;		/* queue size */
	struct page *ring_pages;
	unsigned int ring_order;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	struct vblk_req *reqs;		/* num entries, by head descriptor */
	struct list_head list;		/* on vblk_disks */

	spinlock_t lock;
	uint16_t free_head;		/* the free descriptor list */
	unsigned int num_free;
	struct list_head queue;		/* requests waiting for descriptors, oldest first */
	uint16_t avail_idx;		/* our copy of avail->idx */
	uint16_t last_used;		/* the next used-ring entry to look at */
};

static LIST_HEAD(vblk_disks);		/* fixed after boot: read without a lock */
static uint16_t vblk_irq_lines;		/* bit n: our handler owns IRQ n */

static uint8_t vblk_read8(const struct virtio_blk *vb, unsigned int reg)   { return inb(vb->iobase + reg); }
static uint16_t vblk_read16(const struct virtio_blk *vb, unsigned int reg) { return inw(vb->iobase + reg); }
static uint32_t vblk_read32(const struct virtio_blk *vb, unsigned int reg) { return inl(vb->iobase + reg); }
static void vblk_write8(const struct virtio_blk *vb, unsigned int reg, uint8_t v)   { outb(vb->iobase + reg, v); }
static void vblk_write16(const struct virtio_blk *vb, unsigned int reg, uint16_t v) { outw(vb->iobase + reg, v); }
static void vblk_write32(const struct virtio_blk *vb, unsigned int reg, uint32_t v) { outl(vb->iobase + reg, v); }

static void vblk_add_status(const struct virtio_blk *vb, uint8_t bits)
{
	vblk_write8(vb, VIRTIO_PCI_STATUS, vblk_read8(vb, VIRTIO_PCI_STATUS) | bits);
}

/* Take n descriptors off the free list (there are that many) and set
 * each one's .next to its successor in the new chain; returns the head
 * and puts the last in *tail.  Called under vb->lock. */
static uint16_t vblk_alloc_chain(struct virtio_blk *vb, unsigned int n, uint16_t *tail)
{
	uint16_t head = vb->free_head, d = head;
	unsigned int i;

	for (i = 1; i < n; i++)
		d = vb->desc[d].next;
	*tail = d;
	vb->free_head = vb->desc[d].next;
	vb->num_free -= n;
	return head;
}

/* Put rq in a new chain and make it visible to the device (the caller
 * kicks); there are enough free descriptors.  Called under vb->lock. */
static void vblk_post(struct virtio_blk *vb, struct request *rq)
{
	uint16_t tail, head = vblk_alloc_chain(vb, rq->nr_phys_segments + 2u, &tail);
	uint16_t data_flags = VRING_DESC_F_NEXT | (rq_data_dir(rq) == WRITE ? 0 : VRING_DESC_F_WRITE);
	struct vblk_req *req = &vb->reqs[head];
	struct vring_desc *d = &vb->desc[head];
	struct req_iterator iter;
	struct bio_vec *bv;

	req->rq = rq;
	req->tail = tail;
	req->ndesc = rq->nr_phys_segments + 2;
	req->hdr.type = rq_data_dir(rq) == WRITE ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_IN;
	req->hdr.ioprio = 0;
	req->hdr.sector = blk_rq_pos(rq);
	req->status = VBLK_STATUS_UNSET;
	d->addr = virt_to_phys(&req->hdr);
	d->len = sizeof(req->hdr);
	d->flags = VRING_DESC_F_NEXT;
	rq_for_each_segment(bv, rq, iter) {
		d = &vb->desc[d->next];
		d->addr = page_to_phys(bv->bv_page) + bv->bv_offset;
		d->len = bv->bv_len;
		d->flags = data_flags;
	}
	d = &vb->desc[d->next];
	d->addr = virt_to_phys(&req->status);
	d->len = sizeof(req->status);
	d->flags = VRING_DESC_F_WRITE;

	vb->avail->ring[vb->avail_idx % vb->num] = head;
	virtio_wmb();			/* the entry before the index that publishes it */
	vb->avail_idx++;
	*(volatile uint16_t *)&vb->avail->idx = vb->avail_idx;
}

/* Post queued requests, oldest first, while their chains fit, and kick
 * the device if any went.  Called under vb->lock. */
static void vblk_start_queue(struct virtio_blk *vb)
{
	bool posted = false;

	while (!list_empty(&vb->queue)) {
		struct request *rq = list_first_entry(&vb->queue, struct request, queuelist);

		if (vb->num_free < rq->nr_phys_segments + 2u)
			break;
		list_del_init(&rq->queuelist);
		vblk_post(vb, rq);
		posted = true;
	}
	if (posted) {
		virtio_wmb();
		vblk_write16(vb, VIRTIO_PCI_QUEUE_NOTIFY, 0);
	}
}

static void virtio_blk_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct virtio_blk *vb = container_of(bdev, struct virtio_blk, bdev);
	unsigned long flags;

	spin_lock_irqsave(&vb->lock, flags);
	list_add_tail(&rq->queuelist, &vb->queue);
	vblk_start_queue(vb);
	spin_unlock_irqrestore(&vb->lock, flags);
}

const struct block_device_operations virtio_blk_ops = {
	.queue_rq = virtio_blk_queue_rq,
};

/*
 * Collect the requests the device finished onto done (rq->errors holds
 * the result), give their descriptors back and post queued requests in
 * them.
 */
static void vblk_reap(struct virtio_blk *vb, struct list_head *done)
{
	unsigned long flags;

	spin_lock_irqsave(&vb->lock, flags);
	while (vb->last_used != *(volatile uint16_t *)&vb->used->idx) {
		struct vring_used_elem elem;
		struct vblk_req *req;
		struct request *rq;

		virtio_rmb();		/* the index before the entry it covers */
		elem = vb->used->ring[vb->last_used % vb->num];
		vb->last_used++;
		if (elem.id >= vb->num || !vb->reqs[elem.id].rq) {
			printk(KERN_ERR "virtio_blk: %s: bogus used entry id %u, ignored\n",
			       vb->bdev.name, elem.id);
			continue;
		}
		req = &vb->reqs[elem.id];
		rq = req->rq;
		rq->errors = req->status == VIRTIO_BLK_S_OK ? 0 : -EIO;
		list_add_tail(&rq->queuelist, done);
		req->rq = NULL;
		vb->desc[req->tail].next = vb->free_head;
		vb->free_head = elem.id;
		vb->num_free += req->ndesc;
	}
	vblk_start_queue(vb);
	spin_unlock_irqrestore(&vb->lock, flags);
}

/* The handler of a PIC line shared by one or more of our disks. */
static void virtio_blk_interrupt(unsigned int irq, struct pt_regs *regs)
{
	struct virtio_blk *vb;
	struct request *rq, *next;
	LIST_HEAD(done);

	(void)regs;
	list_for_each_entry(vb, &vblk_disks, list) {
		if (vb->irq != irq)
			continue;
		/* Reading ISR acknowledges; the used ring is walked either way,
		 * which costs nothing when the interrupt was another disk's. */
		vblk_read8(vb, VIRTIO_PCI_ISR);
		vblk_reap(vb, &done);
	}
	list_for_each_entry_safe(rq, next, &done, queuelist) {
		list_del_init(&rq->queuelist);
		blk_end_request_all(rq, rq->errors);
	}
}

/* Allocate and lay out queue 0 of num entries, every descriptor free. */
static int vblk_setup_queue(struct virtio_blk *vb, unsigned int num)
{
	unsigned int order = 0, d;
	phys_addr_t phys;
	void *ring;

	while ((PAGE_SIZE << order) < vring_size(num))
		order++;
	if (num < 3 || order >= MAX_ORDER)
		return -EINVAL;
	vb->ring_order = order;
	vb->ring_pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);
	vb->reqs = kzalloc(num * sizeof(*vb->reqs), GFP_KERNEL);
	if (!vb->ring_pages || !vb->reqs)
		return -ENOMEM;
	phys = page_to_phys(vb->ring_pages);
	if ((phys >> VIRTIO_PCI_QUEUE_ADDR_SHIFT) > UINT32_MAX)
		return -ENOMEM;		/* QUEUE_PFN is 32 bits */
	ring = page_address(vb->ring_pages);
	vb->num = num;
	vb->desc = ring;
	vb->avail = (struct vring_avail *)((char *)ring + num * sizeof(struct vring_desc));
	vb->used = vring_used_of(ring, num);

	for (d = 0; d + 1 < num; d++)
		vb->desc[d].next = d + 1;
	vb->free_head = 0;
	vb->num_free = num;
	vblk_write32(vb, VIRTIO_PCI_QUEUE_PFN, phys >> VIRTIO_PCI_QUEUE_ADDR_SHIFT);
	return 0;
}

/* The logical block size the device reports, if it is one we can use. */
static unsigned int vblk_sector_size(const struct virtio_blk *vb, uint32_t features)
{
	uint32_t bs;

	if (!(features & (1u << VIRTIO_BLK_F_BLK_SIZE)))
		return SECTOR_SIZE;
	bs = vblk_read32(vb, VIRTIO_PCI_CONFIG + VIRTIO_BLK_CFG_BLK_SIZE);
	if (bs < SECTOR_SIZE || bs > PAGE_SIZE || (bs & (bs - 1)))
		return SECTOR_SIZE;
	return bs;
}

/*
 * The disk's queue limits: a bio must fit in one chain (num - 2 segments)
 * and within the device's seg_max segments of at most size_max bytes
 * when it offers them.  -ENODEV if a page-sized segment cannot pass.
 */
static int vblk_set_limits(struct virtio_blk *vb, uint32_t features)
{
	unsigned int segs = MIN(vb->num - 2, (unsigned int)BLK_MAX_SEGMENTS);
	uint32_t v;

	if (features & (1u << VIRTIO_BLK_F_SEG_MAX)) {
		v = vblk_read32(vb, VIRTIO_PCI_CONFIG + VIRTIO_BLK_CFG_SEG_MAX);
		if (v)
			segs = MIN(segs, v);
	}
	vb->bdev.max_segments = segs;
	vb->bdev.max_sectors = MIN((unsigned int)BLK_DEF_MAX_SECTORS,
				   segs * (unsigned int)(PAGE_SIZE >> SECTOR_SHIFT));
	if (features & (1u << VIRTIO_BLK_F_SIZE_MAX)) {
		v = vblk_read32(vb, VIRTIO_PCI_CONFIG + VIRTIO_BLK_CFG_SIZE_MAX);
		if (v && v < PAGE_SIZE) {
			printk(KERN_ERR "virtio_blk: %s: size_max %u is below a page\n",
			       vb->bdev.name, v);
			return -ENODEV;
		}
		if (v)
			vb->bdev.max_segment_size = MIN(v, (uint32_t)PAGE_SIZE);
	}
	return 0;
}

/*
 * Bring up one device as disk number index: reset, negotiate, set up the
 * queue, register, hook the interrupt, DRIVER_OK.  On failure the device
 * is reset (it forgets the queue) and marked FAILED, and everything is
 * freed.
 */
static int virtio_blk_probe(struct pci_dev *pdev, unsigned int index)
{
	struct virtio_blk *vb;
	uint32_t features;
	uint64_t capacity;
	unsigned int num, per_block;
	uint64_t irq_flags;
	int err;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_IO))
		return -ENODEV;		/* not a legacy interface */
	if (pdev->irq == PCI_IRQ_NONE)
		return -ENODEV;		/* no PIC line to complete on */
	vb = kzalloc(sizeof(*vb), GFP_KERNEL);
	if (!vb)
		return -ENOMEM;
	vb->pdev = pdev;
	vb->iobase = pci_resource_start(pdev, 0);
	vb->irq = pdev->irq;
	INIT_LIST_HEAD(&vb->queue);
	spin_lock_init(&vb->lock, "virtio_blk");
	pci_enable_device(pdev);

	vblk_write8(vb, VIRTIO_PCI_STATUS, 0);		/* reset */
	vblk_add_status(vb, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	vblk_add_status(vb, VIRTIO_CONFIG_S_DRIVER);
	features = vblk_read32(vb, VIRTIO_PCI_HOST_FEATURES) & VBLK_FEATURES;
	vblk_write32(vb, VIRTIO_PCI_GUEST_FEATURES, features);

	vblk_write16(vb, VIRTIO_PCI_QUEUE_SEL, 0);
	num = vblk_read16(vb, VIRTIO_PCI_QUEUE_NUM);
	err = num ? vblk_setup_queue(vb, num) : -ENODEV;
	if (err)
		goto fail;

	capacity = vblk_read32(vb, VIRTIO_PCI_CONFIG + VIRTIO_BLK_CFG_CAPACITY) |
		   (uint64_t)vblk_read32(vb, VIRTIO_PCI_CONFIG + VIRTIO_BLK_CFG_CAPACITY + 4) << 32;
	snprintf(vb->bdev.name, sizeof(vb->bdev.name), "vd%c", 'a' + index);
	vb->bdev.sector_size = vblk_sector_size(vb, features);
	per_block = vb->bdev.sector_size >> SECTOR_SHIFT;
	vb->bdev.nr_sectors = capacity - capacity % per_block;
	vb->bdev.read_only = features & (1u << VIRTIO_BLK_F_RO);
	vb->bdev.major = VIRTBLK_MAJOR;
	vb->bdev.minor = index * VIRTBLK_MINORS;
	vb->bdev.minors = VIRTBLK_MINORS;
	err = vblk_set_limits(vb, features);
	if (err)
		goto fail;
	vb->bdev.ops = &virtio_blk_ops;
	vb->bdev.private = vb;

	if (!(vblk_irq_lines & (1u << vb->irq))) {
		err = request_irq(vb->irq, virtio_blk_interrupt, "virtio_blk");
		if (err)
			goto fail;
		vblk_irq_lines |= 1u << vb->irq;
	}
	err = register_blkdev(&vb->bdev);
	if (err)
		goto fail;
	irq_flags = local_irq_save();	/* the handler walks vblk_disks */
	list_add_tail(&vb->list, &vblk_disks);
	local_irq_restore(irq_flags);
	vblk_add_status(vb, VIRTIO_CONFIG_S_DRIVER_OK);
	return 0;

fail:
	vblk_write8(vb, VIRTIO_PCI_STATUS, 0);
	vblk_write8(vb, VIRTIO_PCI_STATUS, VIRTIO_CONFIG_S_FAILED);
	if (vb->ring_pages)
		__free_pages(vb->ring_pages, vb->ring_order);
	kfree(vb->reqs);
	kfree(vb);
	return err;
}

void virtio_blk_init(void)
{
	struct pci_dev *pdev = NULL;
	unsigned int index = 0;
	int err;

	while ((pdev = pci_get_device(PCI_VENDOR_ID_REDHAT_QUMRANET,
				      VIRTIO_PCI_DEVICE_ID_BLOCK, pdev))) {
		if (index == VBLK_MAX_DISKS) {
			printk(KERN_WARNING "virtio_blk: more than %d disks, the rest ignored\n",
			       VBLK_MAX_DISKS);
			return;
		}
		err = virtio_blk_probe(pdev, index);
		if (err) {
			printk(KERN_ERR "virtio_blk: 0000:%02x:%02x.%u: no disk (error %d)\n",
			       pdev->bus, PCI_SLOT(pdev->devfn), PCI_FUNC(pdev->devfn), err);
			continue;
		}
		index++;
	}
}
