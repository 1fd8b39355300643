/*
 * RAM disks (Linux's brd, simplified): block devices whose sectors live
 * in memory.  Three kinds, numbered in this order:
 *
 *   ram0 .. ram{M-1}  one per GRUB boot module, in place: the module's
 *                     physical range (reserved by mm_init, so never handed
 *                     out) is the disk, reached through the direct map.
 *                     Read-write; a trailing partial sector is not part
 *                     of the disk.
 *   ramM ..           asked for on the command line: brd.rd_nr= disks of
 *                     brd.rd_size= KiB each (Linux's brd parameters; the
 *                     older rd_nr= and ramdisk_size= mean the same, the
 *                     brd. names win when both are given; an unset one is
 *                     1 disk, 4096 KiB).  Their memory is all taken at
 *                     boot, so no I/O ever allocates and a disk can hold
 *                     swap, whose writes come when memory is short:
 *                       carved   one contiguous range of the RAM above
 *                                mem= (mem_limit_carve(), mm/init.c),
 *                                which the page allocator never sees:
 *                                rd->data, zeroed at boot;
 *                       taken    without mem=, or when too little RAM is
 *                                left above it: every page from the page
 *                                allocator at boot, in rd->pages[] (so
 *                                MemTotal stays, MemFree drops by the
 *                                disk).  A disk whose pages cannot all be
 *                                had is not registered, with a line.
 *   ramM              without any of those options: one 4096 KiB disk
 *                     whose pages are allocated on the first write to
 *                     them: rd->pages[i] is NULL until page i has been
 *                     written, and a read of it returns zeroes.
 *
 * Once set, an entry of pages[] never changes until the disk goes away
 * (never, today), so readers need no lock; only installing a page takes
 * rd->lock.
 *
 * I/O is a memcpy per segment, so every request completes inside
 * queue_rq: blk_end_request_all() is called before ramdisk_queue_rq()
 * returns.  The one possible error is the default disk running out of
 * memory for a new page on a write: -EIO.
 */
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <mm/gfp.h>
#include <mm/init.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/boot.h>
#include <pageturn/cmdline.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "blk.h"

BOOT_OPTION_NAMED(brd_rd_nr, "brd.rd_nr", "number of RAM disks after the boot-module ones (default 1), their memory taken at boot");
BOOT_OPTION_NAMED(brd_rd_size, "brd.rd_size", "size of each RAM disk in KiB (default 4096), carved above mem= when there is room");
BOOT_OPTION(rd_nr, "brd.rd_nr's older name");
BOOT_OPTION(ramdisk_size, "brd.rd_size's older name");

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

/* Give every page of rd's table one from the allocator; false (with the
 * pages taken so far given back) when memory runs out. */
static bool rd_take_pages(struct ramdisk *rd)
{
	unsigned long i;

	for (i = 0; i < rd->nr_pages; i++) {
		rd->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
		if (!rd->pages[i])
			break;
	}
	if (i == rd->nr_pages)
		return true;
	while (i--)
		__free_page(rd->pages[i]);
	return false;
}

/*
 * Register a disk of size_kib KiB: lazy (the default disk), or with all
 * its memory taken now (a disk asked for on the command line): carved
 * from above mem= when there is room, else from the page allocator.
 */
static void ramdisk_add(unsigned long size_kib, bool reserve)
{
	unsigned long nr_pages = RD_KIB_TO_PAGES(size_kib);
	struct ramdisk *rd = ramdisk_alloc();
	phys_addr_t pa = 0;

	if (!rd)
		goto nomem;
	rd->nr_pages = nr_pages;
	rd->bdev.nr_sectors = (sector_t)size_kib << (10 - SECTOR_SHIFT);
	if (reserve)
		pa = mem_limit_carve((phys_addr_t)nr_pages << PAGE_SHIFT);
	if (pa) {
		rd->data = phys_to_virt(pa);
		memset(rd->data, 0, nr_pages << PAGE_SHIFT);
		printk(KERN_INFO "ramdisk: %s: %lu KiB carved from RAM above mem= at %#lx\n",
		       rd->bdev.name, size_kib, pa);
		ramdisk_register(rd);
		return;
	}
	rd->pages = kzalloc(nr_pages * sizeof(struct page *), GFP_KERNEL);
	if (!rd->pages)
		goto nomem;
	if (reserve && !rd_take_pages(rd)) {
		printk(KERN_ERR "ramdisk: %s: cannot take %lu KiB from the page allocator, no disk\n",
		       rd->bdev.name, size_kib);
		kfree(rd->pages);
		kfree(rd);
		return;
	}
	ramdisk_register(rd);
	return;
nomem:
	printk(KERN_ERR "ramdisk: out of memory for a %lu KiB disk\n", size_kib);
	if (rd)
		kfree(rd->pages);
	kfree(rd);
}

/* A brd option by its brd. name or its older one. */
static long rd_option(const char *brd_name, const char *old_name, long def)
{
	return cmdline_get_long(cmdline_has(brd_name) ? brd_name : old_name, def);
}

void ramdisk_init(void)
{
	long count = rd_option("brd.rd_nr", "rd_nr", RD_NR_DEFAULT);
	long size_kib = rd_option("brd.rd_size", "ramdisk_size", RD_SIZE_DEFAULT_KIB);
	bool reserve = cmdline_has("brd.rd_nr") || cmdline_has("rd_nr") ||
		       cmdline_has("brd.rd_size") || cmdline_has("ramdisk_size");
	unsigned int i;

	for (i = 0; i < boot_info.nr_modules; i++)
		ramdisk_add_module(&boot_info.modules[i]);
	if (count < 0 || count > RD_NR_MAX) {
		printk(KERN_WARNING "ramdisk: brd.rd_nr=%ld is not in 0-%d, using %d\n",
		       count, RD_NR_MAX, RD_NR_DEFAULT);
		count = RD_NR_DEFAULT;
	}
	if (size_kib <= 0 || RD_KIB_TO_PAGES(size_kib) > RD_MAX_PAGES) {
		printk(KERN_WARNING "ramdisk: brd.rd_size=%ld KiB is not in 1-%lu, using %d\n",
		       size_kib, (unsigned long)(RD_MAX_PAGES * (PAGE_SIZE >> 10)), RD_SIZE_DEFAULT_KIB);
		size_kib = RD_SIZE_DEFAULT_KIB;
	}
	for (i = 0; i < count; i++)
		ramdisk_add(size_kib, reserve);
}
