/*
 * The block layer core: the registry of block devices, the checks every
 * bio passes before a driver sees it, completion, and waiting.
 *
 * A bio's life:
 *
 *   owned by the caller --submit_bio()--> owned by the driver
 *       --bio_endio()--> done (bi_done, bi_error set; bi_end_io called)
 *       --> owned by the caller again
 *
 * submit_bio() refuses a bad bio with an errno and hands nothing to the
 * driver, so a driver only ever sees a bio that is non-empty, inside the
 * device, aligned to its sector size, within its queue limits, and whose
 * segments are each a non-empty multiple of the sector size inside one
 * page and add up to bi_size.  Each accepted bio is completed exactly once, by the driver,
 * possibly before submit_bio() returns (ramdisks), possibly in an
 * interrupt handler (virtio-blk).
 *
 * The registry is a list of devices with unique names.  Devices are
 * registered at boot and (for now) never go away while in use, so lookups
 * take no reference.  The counters in struct block_device count completed
 * I/Os, as /proc/diskstats does (one bio is one request); they change in
 * interrupt handlers, so they are updated under blk_lock.
 *
 * Waiting: a kernel thread in submit_bio_wait() sleeps on bio_waitq until
 * bio_endio() has set bi_done and woken the queue (one queue for all bios:
 * each sleeper tests its own bio).  The idle task (kmain: boot and tests)
 * instead halts the CPU with interrupts enabled until bi_done, as before
 * there were threads, so no thread runs in the middle of a boot step.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <drivers/pci.h>
#include <fs/devfs.h>
#include <fs/proc_fs.h>
#include <fs/seq_file.h>
#include <pageturn/cmdline.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#include "blk.h"

BOOT_OPTION(read_ahead_kb, "readahead window of every disk in KiB (default 128; BLKRASET changes one)");

#define READ_AHEAD_KB_MAX	(32 * 1024)	/* BLKRASET's bound too (kernel/fs/block_dev.c) */

static DEFINE_SPINLOCK(blk_lock);
static unsigned long default_ra_pages = VM_MAX_READAHEAD;
static LIST_HEAD(all_bdevs);
static DECLARE_WAIT_QUEUE_HEAD(bio_waitq);

int register_blkdev(struct block_device *bdev)
{
	struct block_device *other;
	unsigned long flags;
	size_t len = strnlen(bdev->name, sizeof(bdev->name));

	if (len == 0 || len == sizeof(bdev->name))
		return -EINVAL;
	if (bdev->sector_size < SECTOR_SIZE || bdev->sector_size > PAGE_SIZE ||
	    (bdev->sector_size & (bdev->sector_size - 1)) ||
	    bdev->nr_sectors == 0 || !IS_ALIGNED(bdev->nr_sectors, bdev->sector_size >> SECTOR_SHIFT) ||
	    !bdev->ops || !bdev->ops->submit)
		return -EINVAL;
	bdev->max_sectors = blk_max_sectors(bdev);
	bdev->max_segments = blk_max_segments(bdev);
	bdev->max_segment_size = blk_max_segment_size(bdev);
	if (bdev->max_sectors < PAGE_SIZE >> SECTOR_SHIFT || bdev->max_segment_size < PAGE_SIZE)
		return -EINVAL;		/* every page-sized bio must be possible */
	if (!bdev->backing_dev_info.ra_pages)
		bdev->backing_dev_info.ra_pages = default_ra_pages;
	spin_lock_irqsave(&blk_lock, flags);
	list_for_each_entry(other, &all_bdevs, list) {
		if (strcmp(other->name, bdev->name) == 0) {
			spin_unlock_irqrestore(&blk_lock, flags);
			return -EEXIST;
		}
	}
	bdev->reads = bdev->writes = 0;
	bdev->sectors_read = bdev->sectors_written = bdev->errors = 0;
	list_add_tail(&bdev->list, &all_bdevs);
	spin_unlock_irqrestore(&blk_lock, flags);
	return 0;
}

void unregister_blkdev(struct block_device *bdev)
{
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	list_del(&bdev->list);
	spin_unlock_irqrestore(&blk_lock, flags);
}

struct block_device *lookup_bdev(const char *name)
{
	struct block_device *bdev, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	list_for_each_entry(bdev, &all_bdevs, list) {
		if (strcmp(bdev->name, name) == 0) {
			found = bdev;
			break;
		}
	}
	spin_unlock_irqrestore(&blk_lock, flags);
	return found;
}

struct block_device *next_bdev(struct block_device *prev)
{
	struct list_head *next = prev ? prev->list.next : all_bdevs.next;

	return next == &all_bdevs ? NULL : list_entry(next, struct block_device, list);
}

/* The errno submit_bio() must return for bio, or 0 when it may go on. */
static int bio_check(int rw, const struct bio *bio)
{
	const struct block_device *bdev = bio->bi_bdev;
	const struct bio_vec *bv;
	uint64_t total = 0;
	unsigned int i;
	sector_t nr;

	if ((rw != READ && rw != WRITE) || !bdev || !bio->bi_io_vec)
		return -EINVAL;
	if (bio->bi_vcnt == 0 || bio->bi_vcnt > bio->bi_max_vecs ||
	    bio->bi_vcnt > blk_max_segments(bdev))
		return -EINVAL;
	bio_for_each_segment(bv, bio, i) {
		if (!bv->bv_page || bv->bv_len == 0 || bv->bv_len % bdev->sector_size ||
		    bv->bv_len > blk_max_segment_size(bdev) ||
		    bv->bv_offset >= PAGE_SIZE || bv->bv_len > PAGE_SIZE - bv->bv_offset)
			return -EINVAL;
		total += bv->bv_len;
	}
	if (total != bio->bi_size || total > (uint64_t)blk_max_sectors(bdev) << SECTOR_SHIFT)
		return -EINVAL;
	if (!IS_ALIGNED(bio->bi_sector, (sector_t)(bdev->sector_size >> SECTOR_SHIFT)))
		return -EINVAL;
	nr = bio->bi_size >> SECTOR_SHIFT;
	if (bio->bi_sector >= bdev->nr_sectors || nr > bdev->nr_sectors - bio->bi_sector)
		return -EIO;
	if (rw == WRITE && bdev->read_only)
		return -EROFS;
	return 0;
}

int submit_bio(int rw, struct bio *bio)
{
	int err = bio_check(rw, bio);

	if (err)
		return err;
	bio->bi_rw = rw;
	bio->bi_error = 0;
	bio->bi_done = false;
	bio->bi_bdev->ops->submit(bio->bi_bdev, bio);
	return 0;
}

int submit_bio_wait(int rw, struct bio *bio)
{
	uint64_t flags;
	int err = submit_bio(rw, bio);

	if (err)
		return err;
	flags = local_irq_save();
	if (!(flags & X86_EFLAGS_IF) && !bio->bi_done)
		panic("submit_bio_wait on %s with interrupts off: it would never finish",
		      bio->bi_bdev->name);
	if (current != &init_task) {
		wait_event(bio_waitq, *(volatile bool *)&bio->bi_done);
	} else {
		while (!*(volatile bool *)&bio->bi_done) {
			safe_halt();
			cli();
		}
	}
	local_irq_restore(flags);
	return bio->bi_error;
}

void bio_endio(struct bio *bio, int error)
{
	struct block_device *bdev = bio->bi_bdev;
	sector_t nr = bio->bi_size >> SECTOR_SHIFT;
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	if (error) {
		bdev->errors++;
	} else if (bio->bi_rw == WRITE) {
		bdev->writes++;
		bdev->sectors_written += nr;
	} else {
		bdev->reads++;
		bdev->sectors_read += nr;
	}
	spin_unlock_irqrestore(&blk_lock, flags);
	bio->bi_error = error;
	*(volatile bool *)&bio->bi_done = true;
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
	wake_up(&bio_waitq);
}

/*
 * /proc/diskstats in Linux 6.1's layout (block/genhd.c): major, minor,
 * name, then reads completed, reads merged, sectors read, ms reading,
 * the same four for writes, I/Os in flight, ms doing I/O, weighted ms,
 * the four discard columns and the two flush columns.  Pageturn counts
 * completed requests and sectors; every other column is 0 (a bio is one
 * request, nothing is merged, no time is kept).
 */
void diskstats_show(struct seq_file *m)
{
	struct block_device *bdev;
	uint64_t r, w, sr, sw;
	unsigned long flags;

	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev)) {
		spin_lock_irqsave(&blk_lock, flags);
		r = bdev->reads;
		w = bdev->writes;
		sr = bdev->sectors_read;
		sw = bdev->sectors_written;
		spin_unlock_irqrestore(&blk_lock, flags);
		seq_printf(m, "%4u %7u %s %lu 0 %lu 0 %lu 0 %lu 0 0 0 0 0 0 0 0 0 0\n",
			   bdev->major, bdev->minor, bdev->name, (unsigned long)r,
			   (unsigned long)sr, (unsigned long)w, (unsigned long)sw);
	}
}

static const char *blk_driver_name(const struct block_device *bdev)
{
	if (bdev->ops == &ramdisk_ops)
		return "ramdisk";
	if (bdev->ops == &virtio_blk_ops)
		return "virtio-blk";
	return "other";
}

/* "64 MiB" or "1536 KiB": MiB when the size is a whole number of them. */
static void format_size(char *buf, size_t len, sector_t sectors)
{
	const sector_t per_mib = (1u << 20) >> SECTOR_SHIFT;

	if (sectors % per_mib == 0)
		snprintf(buf, len, "%lu MiB", sectors / per_mib);
	else
		snprintf(buf, len, "%lu KiB", sectors >> (10 - SECTOR_SHIFT));
}

void blk_dev_init(void)
{
	long ra_kb = cmdline_get_long("read_ahead_kb", VM_MAX_READAHEAD * (PAGE_SIZE >> 10));
	struct block_device *bdev;
	char size[24];

	if (ra_kb < 0 || ra_kb > READ_AHEAD_KB_MAX)
		printk(KERN_WARNING "blk: read_ahead_kb=%ld is not in 0-%d, using %lu\n", ra_kb,
		       READ_AHEAD_KB_MAX, VM_MAX_READAHEAD * (PAGE_SIZE >> 10));
	else
		default_ra_pages = ra_kb / (PAGE_SIZE >> 10);
	ramdisk_init();
	pci_init();
	virtio_blk_init();
	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev)) {
		format_size(size, sizeof(size), bdev->nr_sectors);
		printk(KERN_INFO "blk: %s %s (%lu sectors of %u bytes), %s%s\n",
		       bdev->name, size, bdev->nr_sectors / (bdev->sector_size >> SECTOR_SHIFT),
		       bdev->sector_size, blk_driver_name(bdev),
		       bdev->read_only ? ", read-only" : "");
	}
	blkdev_register_nodes();
}
