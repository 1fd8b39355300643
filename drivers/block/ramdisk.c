/*
 * RAM disks (Linux's brd, simplified): block devices whose sectors live
 * in memory.  Two kinds, numbered in this order:
 *
 *   ram0 .. ram{M-1}  one per GRUB boot module, in place: the module's
 *                     physical range (reserved by mm_init, so never handed
 *                     out) is the disk, reached through the direct map.
 *                     Read-write; a trailing partial sector is not part
 *                     of the disk.
 *   ramM ..           rd_nr= disks of ramdisk_size= KiB each (Linux's
 *                     boot option names; defaults 1 disk of 4096 KiB).
 *                     Their pages are allocated on the first write to
 *                     them: rd->pages[i] is NULL until page i of the disk
 *                     has been written, and a read of it returns zeroes.
 *                     Once set, an entry never changes until the disk goes
 *                     away (never, today), so readers need no lock; only
 *                     installing a page takes rd->lock.
 *
 * I/O is a memcpy per segment, so every request completes inside
 * queue_rq: blk_end_request_all() is called before ramdisk_queue_rq()
 * returns.  The one possible error is
 * running out of memory for a new page on a write: -EIO.
 */
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/boot.h>
#include <pageturn/cmdline.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "blk.h"

BOOT_OPTION(rd_nr, "number of RAM disks after the boot-module ones (default 1)");
BOOT_OPTION(ramdisk_size, "size of each RAM disk in KiB (default 4096)");

#define RD_NR_DEFAULT		1
#define RD_NR_MAX		64
#define RD_SIZE_DEFAULT_KIB	4096
/* The page table of a lazy disk is one kmalloc: this bounds its size. */
#define RD_MAX_PAGES		(KMALLOC_MAX_SIZE / sizeof(struct page *))
#define RD_KIB_TO_PAGES(kib)	(((unsigned long)(kib) + (PAGE_SIZE >> 10) - 1) / (PAGE_SIZE >> 10))

struct ramdisk {
	struct block_device bdev;
	void *data;		/* a boot module's memory, or NULL (lazy disk) */
	struct page **pages;	/* lazy disk: nr_pages entries, NULL = zeroes */
	unsigned long nr_pages;
	spinlock_t lock;	/* installing an entry of pages[] */
};

static unsigned int nr_ramdisks;	/* registered so far: the next N of ramN */

/*
 * Page idx of a lazy disk, allocated (zeroed) if it has none yet; NULL
 * when memory is short.  Requests are dispatched where sleeping is not
 * allowed (a plug is flushed inside schedule(), a completion may start
 * the next request), so the page comes without waiting or reclaiming:
 * GFP_ATOMIC, which may dip into the reserves (and reclaim itself, when
 * it writes to such a disk, has them all).
 */
static struct page *rd_page_for_write(struct ramdisk *rd, unsigned long idx)
{
	struct page *page = rd->pages[idx], *fresh;
	unsigned long flags;

	if (page)
		return page;
	fresh = alloc_page(GFP_ATOMIC | __GFP_ZERO | __GFP_NOWARN);
	if (!fresh)
		return NULL;
	spin_lock_irqsave(&rd->lock, flags);
	page = rd->pages[idx];
	if (!page) {
		page = rd->pages[idx] = fresh;
		fresh = NULL;
	}
	spin_unlock_irqrestore(&rd->lock, flags);
	if (fresh)		/* an interrupt installed one meanwhile */
		__free_page(fresh);
	return page;
}

/* Copy between buf and a lazy disk, one disk page at a time. */
static int rd_copy_lazy(struct ramdisk *rd, int rw, char *buf, uint64_t pos, unsigned int len)
{
	while (len) {
		unsigned long idx = pos >> PAGE_SHIFT;
		unsigned int off = pos & (PAGE_SIZE - 1);
		unsigned int chunk = MIN(len, (unsigned int)PAGE_SIZE - off);
		struct page *page;

		if (rw == WRITE) {
			page = rd_page_for_write(rd, idx);
			if (!page)
				return -EIO;
			memcpy((char *)page_address(page) + off, buf, chunk);
		} else if ((page = rd->pages[idx])) {
			memcpy(buf, (char *)page_address(page) + off, chunk);
		} else {
			memset(buf, 0, chunk);
		}
		buf += chunk;
		pos += chunk;
		len -= chunk;
	}
	return 0;
}

static void ramdisk_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct ramdisk *rd = container_of(bdev, struct ramdisk, bdev);
	uint64_t pos = blk_rq_pos(rq) << SECTOR_SHIFT;
	int rw = rq_data_dir(rq);
	struct req_iterator iter;
	struct bio_vec *bv;
	int err = 0;

	rq_for_each_segment(bv, rq, iter) {
		char *buf = (char *)page_address(bv->bv_page) + bv->bv_offset;

		if (!rd->data)
			err = rd_copy_lazy(rd, rw, buf, pos, bv->bv_len);
		else if (rw == WRITE)
			memcpy((char *)rd->data + pos, buf, bv->bv_len);
		else
			memcpy(buf, (char *)rd->data + pos, bv->bv_len);
		if (err)
			goto out;
		pos += bv->bv_len;
	}
out:
	blk_end_request_all(rq, err);
}

const struct block_device_operations ramdisk_ops = {
	.queue_rq = ramdisk_queue_rq,
};

/* A zeroed struct ramdisk named ramN (the next N); NULL without memory. */
static struct ramdisk *ramdisk_alloc(void)
{
	struct ramdisk *rd = kzalloc(sizeof(*rd), GFP_KERNEL);

	if (!rd)
		return NULL;
	snprintf(rd->bdev.name, sizeof(rd->bdev.name), "ram%u", nr_ramdisks);
	rd->bdev.sector_size = SECTOR_SIZE;
	rd->bdev.major = RAMDISK_MAJOR;
	rd->bdev.minor = nr_ramdisks;
	rd->bdev.ops = &ramdisk_ops;
	rd->bdev.private = rd;
	spin_lock_init(&rd->lock, "ramdisk");
	return rd;
}

/* Register rd or free it; logs why it failed. */
static void ramdisk_register(struct ramdisk *rd)
{
	int err = register_blkdev(&rd->bdev);

	if (err) {
		printk(KERN_ERR "ramdisk: cannot register %s: error %d\n", rd->bdev.name, err);
		kfree(rd->pages);
		kfree(rd);
		return;
	}
	nr_ramdisks++;
}

static void ramdisk_add_module(const struct boot_module *mod)
{
	sector_t nr = (mod->end - mod->start) >> SECTOR_SHIFT;
	struct ramdisk *rd;

	if (nr == 0) {
		printk(KERN_WARNING "ramdisk: boot module \"%s\" is smaller than a sector, no disk\n",
		       mod->cmdline);
		return;
	}
	rd = ramdisk_alloc();
	if (!rd) {
		printk(KERN_ERR "ramdisk: out of memory for boot module \"%s\"\n", mod->cmdline);
		return;
	}
	rd->data = phys_to_virt(mod->start);
	rd->bdev.nr_sectors = nr;
	ramdisk_register(rd);
}

static void ramdisk_add_lazy(unsigned long size_kib)
{
	unsigned long nr_pages = RD_KIB_TO_PAGES(size_kib);
	struct ramdisk *rd = ramdisk_alloc();

	if (rd)
		rd->pages = kzalloc(nr_pages * sizeof(struct page *), GFP_KERNEL);
	if (!rd || !rd->pages) {
		printk(KERN_ERR "ramdisk: out of memory for a %lu KiB disk\n", size_kib);
		kfree(rd);
		return;
	}
	rd->nr_pages = nr_pages;
	rd->bdev.nr_sectors = (sector_t)size_kib << (10 - SECTOR_SHIFT);
	ramdisk_register(rd);
}

void ramdisk_init(void)
{
	long count = cmdline_get_long("rd_nr", RD_NR_DEFAULT);
	long size_kib = cmdline_get_long("ramdisk_size", RD_SIZE_DEFAULT_KIB);
	unsigned int i;

	for (i = 0; i < boot_info.nr_modules; i++)
		ramdisk_add_module(&boot_info.modules[i]);
	if (count < 0 || count > RD_NR_MAX) {
		printk(KERN_WARNING "ramdisk: rd_nr=%ld is not in 0-%d, using %d\n",
		       count, RD_NR_MAX, RD_NR_DEFAULT);
		count = RD_NR_DEFAULT;
	}
	if (size_kib <= 0 || RD_KIB_TO_PAGES(size_kib) > RD_MAX_PAGES) {
		printk(KERN_WARNING "ramdisk: ramdisk_size=%ld KiB is not in 1-%lu, using %d\n",
		       size_kib, (unsigned long)(RD_MAX_PAGES * (PAGE_SIZE >> 10)), RD_SIZE_DEFAULT_KIB);
		size_kib = RD_SIZE_DEFAULT_KIB;
	}
	for (i = 0; i < count; i++)
		ramdisk_add_lazy(size_kib);
}
