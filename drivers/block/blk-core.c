/*
 * The block layer core: the registry of block devices, the checks every
 * bio passes before a driver sees it, plugging, the request queue,
 * completion, and waiting.
 *
 * A bio's life:
 *
 *   owned by the caller --submit_bio()--> held: on current->plug's list,
 *       or on the device's queue
 *       --blk_run_queue()--> in a request, owned by the driver
 *       --blk_end_request_all()--> done (bi_done, bi_error set; bi_end_io
 *       called) --> owned by the caller again
 *
 * submit_bio() refuses a bad bio with an errno and holds nothing, so a
 * driver only ever sees bios that are non-empty, inside the device,
 * aligned to its sector size, within its queue limits, and whose
 * segments are each a non-empty multiple of the sector size inside one
 * page and add up to bi_size.  A bio for a partition is checked against
 * the partition, then moved onto its disk (bi_bdev, bi_sector) before it
 * is held: plugs, queues and drivers only ever see whole disks.  Each accepted bio is completed exactly
 * once, possibly before submit_bio() returns (a RAM disk without a plug),
 * possibly in an interrupt handler (virtio-blk).
 *
 * A request's life (Linux's struct request; each device has
 * BLKDEV_MAX_RQ of them, allocated at registration, so dispatching never
 * allocates and never sleeps):
 *
 *   free (bdev->rq_free)
 *     --blk_run_queue(): the oldest bio on the queue, then each next bio
 *       that blk_rq_merge_ok() lets continue it (counted in read_merges
 *       or write_merges, /proc/diskstats' "merged" columns)-->
 *   in flight: ops->queue_rq(bdev, rq); the driver owns it
 *     --blk_end_request_all(rq, error): counted once as a completed read
 *       or write (or an error), back on rq_free, then every bio of it
 *       completed with error, oldest first-->
 *   free, and blk_run_queue() starts the next bios waiting
 *
 * Plugging (Linux's blk_plug): with current->plug set, submit_bio() puts
 * the bio on the plug's list instead of the queue.  blk_flush_plug()
 * takes the whole list off first (a flush inside a flush finds it empty),
 * sorts it by device, direction and sector (stable, as Linux 3.x's
 * plug_rq_cmp), moves it to the devices' queues and runs them, so bios
 * that continue each other on the disk become one request whatever order
 * they were submitted in.  blk_finish_plug() flushes, and so does
 * schedule() when a plugged task is about to sleep (Linux's
 * sched_submit_work), so a task never waits for I/O it holds itself.  A
 * bio submitted with interrupts off (a bi_end_io in an interrupt handler)
 * bypasses the plug: the plug's list is the task's, touched only with
 * interrupts on.  Nothing promises an order among bios in flight together:
 * a caller that needs one write before another read of the same blocks
 * waits for the first (the buffer cache and the page cache lock their
 * buffers and pages for the duration of the I/O).
 *
 * The queue: bios that wait for a free request, oldest first, under
 * blk_lock.  blk_run_queue() dispatches while there are both; it drops
 * blk_lock around queue_rq, and bdev->queue_running keeps a second run
 * (a completion inside queue_rq, or an interrupt meanwhile) from
 * dispatching beside it: the first loop picks up whatever the second
 * would have.  So a RAM disk, which completes inside queue_rq, dispatches
 * its whole queue in one loop, never recursively.
 *
 * The registry is a list of devices with unique names.  Devices are
 * registered at boot and (for now) never go away while in use, so lookups
 * take no reference.  The counters in struct block_device count completed
 * requests and merged bios, as /proc/diskstats does; they change in
 * interrupt handlers, so they are updated under blk_lock.
 *
 * Waiting: a kernel thread in submit_bio_wait() sleeps on bio_waitq until
 * bio_endio() has set bi_done and woken the queue (one queue for all bios:
 * each sleeper tests its own bio).  The idle task (kmain: boot and tests)
 * instead halts the CPU with interrupts enabled until bi_done, as before
 * there were threads, so no thread runs in the middle of a boot step; it
 * flushes its plug first, since halting is not schedule().
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <drivers/pci.h>
#include <drivers/scsi.h>
#include <drivers/usb.h>
#include <fs/devfs.h>
#include <fs/proc_fs.h>
#include <fs/seq_file.h>
#include <mm/slab.h>
#include <pageturn/cmdline.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
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

int blk_init_queue(struct block_device *bdev)
{
	struct request *pool = kzalloc(BLKDEV_MAX_RQ * sizeof(*pool), GFP_KERNEL);
	unsigned int i;

	if (!pool)
		return -ENOMEM;
	INIT_LIST_HEAD(&bdev->queue);
	INIT_LIST_HEAD(&bdev->rq_free);
	for (i = 0; i < BLKDEV_MAX_RQ; i++)
		list_add_tail(&pool[i].queuelist, &bdev->rq_free);
	bdev->rq_pool = pool;
	bdev->queue_running = false;
	return 0;
}

void blk_cleanup_queue(struct block_device *bdev)
{
	kfree(bdev->rq_pool);
	bdev->rq_pool = NULL;
}

int register_blkdev(struct block_device *bdev)
{
	struct block_device *other;
	int err;
	unsigned long flags;
	size_t len = strnlen(bdev->name, sizeof(bdev->name));

	if (len == 0 || len == sizeof(bdev->name))
		return -EINVAL;
	if (bdev->sector_size < SECTOR_SIZE || bdev->sector_size > PAGE_SIZE ||
	    (bdev->sector_size & (bdev->sector_size - 1)) ||
	    bdev->nr_sectors == 0 || !IS_ALIGNED(bdev->nr_sectors, bdev->sector_size >> SECTOR_SHIFT) ||
	    !bdev->ops || !bdev->ops->queue_rq)
		return -EINVAL;
	bdev->max_sectors = blk_max_sectors(bdev);
	bdev->max_segments = blk_max_segments(bdev);
	bdev->max_segment_size = blk_max_segment_size(bdev);
	if (bdev->max_sectors < PAGE_SIZE >> SECTOR_SHIFT || bdev->max_segment_size < PAGE_SIZE)
		return -EINVAL;		/* every page-sized bio must be possible */
	if (!bdev->backing_dev_info.ra_pages)
		bdev->backing_dev_info.ra_pages = default_ra_pages;
	if (bdev->bd_partno && (!bdev->bd_contains || bdev->bd_contains->bd_partno))
		return -EINVAL;
	spin_lock_irqsave(&blk_lock, flags);
	list_for_each_entry(other, &all_bdevs, list) {
		if (strcmp(other->name, bdev->name) == 0) {
			spin_unlock_irqrestore(&blk_lock, flags);
			return -EEXIST;
		}
	}
	spin_unlock_irqrestore(&blk_lock, flags);
	if (!bdev->bd_partno) {
		bdev->bd_contains = bdev;
		bdev->bd_part_next = NULL;
		err = blk_init_queue(bdev);	/* may sleep: the name is checked again */
		if (err)
			return err;
	}
	spin_lock_irqsave(&blk_lock, flags);
	list_for_each_entry(other, &all_bdevs, list) {
		if (strcmp(other->name, bdev->name) == 0) {
			spin_unlock_irqrestore(&blk_lock, flags);
			blk_cleanup_queue(bdev);
			return -EEXIST;
		}
	}
	bdev->reads = bdev->writes = 0;
	bdev->sectors_read = bdev->sectors_written = bdev->errors = 0;
	bdev->read_merges = bdev->write_merges = 0;
	list_add_tail(&bdev->list, &all_bdevs);
	spin_unlock_irqrestore(&blk_lock, flags);
	return 0;
}

/* Called when no bio of bdev is held or in flight. */
void unregister_blkdev(struct block_device *bdev)
{
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	list_del(&bdev->list);
	spin_unlock_irqrestore(&blk_lock, flags);
	blk_cleanup_queue(bdev);
}

void blk_link_partition(struct block_device *part)
{
	struct block_device **pp = &part->bd_contains->bd_part_next;
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	while (*pp && (*pp)->bd_partno < part->bd_partno)
		pp = &(*pp)->bd_part_next;
	part->bd_part_next = *pp;
	*pp = part;
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

/*
 * Dispatch bdev's queue while it has bios and free requests: each request
 * takes the oldest bio and every following one that continues it (see
 * the top).  Interrupts may be on or off; never sleeps.
 */
static void blk_run_queue(struct block_device *bdev)
{
	struct request *rq;
	struct bio *bio;
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	if (bdev->queue_running) {
		spin_unlock_irqrestore(&blk_lock, flags);
		return;
	}
	bdev->queue_running = true;
	while (!list_empty(&bdev->queue) && !list_empty(&bdev->rq_free)) {
		rq = list_first_entry(&bdev->rq_free, struct request, queuelist);
		list_del_init(&rq->queuelist);
		bio = list_first_entry(&bdev->queue, struct bio, bi_queue);
		list_del_init(&bio->bi_queue);
		blk_rq_bio_prep(rq, bio);
		while (!list_empty(&bdev->queue)) {
			bio = list_first_entry(&bdev->queue, struct bio, bi_queue);
			if (!blk_rq_merge_ok(rq, bio))
				break;
			list_del_init(&bio->bi_queue);
			blk_rq_append_bio(rq, bio);
			if (bio->bi_rw == WRITE)
				bdev->write_merges++;
			else
				bdev->read_merges++;
		}
		spin_unlock_irqrestore(&blk_lock, flags);
		bdev->ops->queue_rq(bdev, rq);
		spin_lock_irqsave(&blk_lock, flags);
	}
	bdev->queue_running = false;
	spin_unlock_irqrestore(&blk_lock, flags);
}

/* Put bio at the tail of its device's queue (not yet run). */
static void blk_queue_bio(struct bio *bio)
{
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	list_add_tail(&bio->bi_queue, &bio->bi_bdev->queue);
	spin_unlock_irqrestore(&blk_lock, flags);
}

int submit_bio(int rw, struct bio *bio)
{
	struct blk_plug *plug = current->plug;
	struct block_device *bdev;
	int err = bio_check(rw, bio);
	uint64_t flags;

	if (err)
		return err;
	if (bio->bi_bdev->bd_partno) {	/* checked against the partition: now the disk's */
		bio->bi_sector += bio->bi_bdev->bd_start_sect;
		bio->bi_bdev = bio->bi_bdev->bd_contains;
	}
	bio->bi_rw = rw;
	bio->bi_error = 0;
	bio->bi_done = false;
	bio->bi_next = NULL;
	flags = local_irq_save();	/* only to read IF */
	local_irq_restore(flags);
	if (plug && (flags & X86_EFLAGS_IF)) {
		list_add_tail(&bio->bi_queue, &plug->list);
		return 0;
	}
	/* The bio may complete (and its end_io free it) as soon as it is
	 * queued: the device is taken from it before. */
	bdev = bio->bi_bdev;
	blk_queue_bio(bio);
	blk_run_queue(bdev);
	return 0;
}

/* Is a before b in the plug's order: device, direction, sector? */
static bool plug_bio_before(const struct bio *a, const struct bio *b)
{
	if (a->bi_bdev != b->bi_bdev)
		return (uintptr_t)a->bi_bdev < (uintptr_t)b->bi_bdev;
	if (a->bi_rw != b->bi_rw)
		return a->bi_rw < b->bi_rw;
	return a->bi_sector < b->bi_sector;
}

/* Move every entry of from to the tail of to, in order. */
static void move_all_tail(struct list_head *from, struct list_head *to)
{
	while (!list_empty(from))
		list_move_tail(from->next, to);
}

/* Sort the n bios on head by plug_bio_before, stably (a merge sort of
 * the list: O(n log n) steps, recursion depth log2 n, no memory). */
static void plug_sort(struct list_head *head, unsigned int n)
{
	LIST_HEAD(left);
	LIST_HEAD(right);
	unsigned int i;

	if (n < 2)
		return;
	for (i = 0; i < n / 2; i++)
		list_move_tail(head->next, &left);
	move_all_tail(head, &right);
	plug_sort(&left, n / 2);
	plug_sort(&right, n - n / 2);
	while (!list_empty(&left) && !list_empty(&right)) {
		struct bio *l = list_first_entry(&left, struct bio, bi_queue);
		struct bio *r = list_first_entry(&right, struct bio, bi_queue);

		if (plug_bio_before(r, l))
			list_move_tail(&r->bi_queue, head);
		else
			list_move_tail(&l->bi_queue, head);
	}
	move_all_tail(&left, head);
	move_all_tail(&right, head);
}

void blk_flush_plug(struct blk_plug *plug)
{
	struct block_device *bdev = NULL;
	struct bio *bio, *next;
	unsigned int n = 0;
	LIST_HEAD(held);

	if (!plug || list_empty(&plug->list))
		return;
	while (!list_empty(&plug->list)) {
		list_move_tail(plug->list.next, &held);
		n++;
	}
	plug_sort(&held, n);
	list_for_each_entry_safe(bio, next, &held, bi_queue) {
		list_del_init(&bio->bi_queue);
		if (bdev && bdev != bio->bi_bdev)
			blk_run_queue(bdev);
		bdev = bio->bi_bdev;
		blk_queue_bio(bio);
	}
	blk_run_queue(bdev);
}

void blk_start_plug(struct blk_plug *plug)
{
	INIT_LIST_HEAD(&plug->list);
	if (!current->plug)
		current->plug = plug;
}

void blk_finish_plug(struct blk_plug *plug)
{
	blk_flush_plug(plug);
	if (current->plug == plug)
		current->plug = NULL;
}

int submit_bio_wait(int rw, struct bio *bio)
{
	uint64_t flags;
	int err = submit_bio(rw, bio);

	if (err)
		return err;
	blk_flush_plug(current->plug);
	flags = local_irq_save();
	if (!(flags & X86_EFLAGS_IF) && !bio->bi_done)
		panic("submit_bio_wait on %s with interrupts off: it would never finish",
		      bio->bi_bdev->name);
	/* The boot task sleeps here too (it is the idle task, which may):
	 * a driver may complete requests from a thread of its own. */
	wait_event(bio_waitq, *(volatile bool *)&bio->bi_done);
	local_irq_restore(flags);
	return bio->bi_error;
}

void bio_endio(struct bio *bio, int error)
{
	bio->bi_error = error;
	*(volatile bool *)&bio->bi_done = true;
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
	wake_up(&bio_waitq);
}

/* Count rq, done with error, on bdev (its disk or the partition where it
 * starts, as Linux 2.6.28's disk_map_sector_rcu).  Called with blk_lock
 * held. */
static void blk_account_io_done(struct block_device *bdev, const struct request *rq, int error)
{
	if (error) {
		bdev->errors++;
	} else if (rq_data_dir(rq) == WRITE) {
		bdev->writes++;
		bdev->sectors_written += blk_rq_sectors(rq);
	} else {
		bdev->reads++;
		bdev->sectors_read += blk_rq_sectors(rq);
	}
}

void blk_end_request_all(struct request *rq, int error)
{
	struct block_device *bdev = rq->rq_disk;
	struct bio *bio = rq->bio, *next;
	int rw = rq_data_dir(rq);
	unsigned long flags;

	struct block_device *part;

	spin_lock_irqsave(&blk_lock, flags);
	blk_account_io_done(bdev, rq, error);
	for (part = bdev->bd_part_next; part; part = part->bd_part_next) {
		if (blk_rq_pos(rq) >= part->bd_start_sect &&
		    blk_rq_pos(rq) - part->bd_start_sect < part->nr_sectors) {
			blk_account_io_done(part, rq, error);
			break;
		}
	}
	rq->bio = rq->biotail = NULL;
	list_add(&rq->queuelist, &bdev->rq_free);
	spin_unlock_irqrestore(&blk_lock, flags);
	for (; bio; bio = next) {
		next = bio->bi_next;	/* bi_end_io may free bio */
		bio->bi_next = NULL;
		bio_endio(bio, error);
	}
	clear_bdi_congested(rw);
	blk_run_queue(bdev);
}

/*
 * /proc/diskstats in Linux 6.1's layout (block/genhd.c): major, minor,
 * name, then reads completed, reads merged, sectors read, ms reading,
 * the same four for writes, I/Os in flight, ms doing I/O, weighted ms,
 * the four discard columns and the two flush columns.  Pageturn counts
 * completed requests, merged bios and sectors; every other column is 0
 * (no time is kept).  Each disk is followed by its partitions, whose
 * requests are those starting in them; their merges are counted on the
 * disk only.  The partition chains change only at boot, before anyone
 * reads this.
 */
static void diskstats_show_one(struct seq_file *m, struct block_device *bdev)
{
	uint64_t r, w, sr, sw, rm, wm;
	unsigned long flags;

	spin_lock_irqsave(&blk_lock, flags);
	r = bdev->reads;
	w = bdev->writes;
	sr = bdev->sectors_read;
	sw = bdev->sectors_written;
	rm = bdev->read_merges;
	wm = bdev->write_merges;
	spin_unlock_irqrestore(&blk_lock, flags);
	seq_printf(m, "%4u %7u %s %lu %lu %lu 0 %lu %lu %lu 0 0 0 0 0 0 0 0 0 0\n",
		   bdev->major, bdev->minor, bdev->name, (unsigned long)r,
		   (unsigned long)rm, (unsigned long)sr, (unsigned long)w,
		   (unsigned long)wm, (unsigned long)sw);
}

void diskstats_show(struct seq_file *m)
{
	struct block_device *disk, *part;

	for (disk = next_bdev(NULL); disk; disk = next_bdev(disk)) {
		if (disk->bd_partno)
			continue;
		diskstats_show_one(m, disk);
		for (part = disk->bd_part_next; part; part = part->bd_part_next)
			diskstats_show_one(m, part);
	}
}

static const char *blk_driver_name(const struct block_device *bdev)
{
	if (bdev->ops == &ramdisk_ops)
		return "ramdisk";
	if (bdev->ops == &virtio_blk_ops)
		return "virtio-blk";
	if (bdev->ops == &ata_piix_ops)
		return "ata_piix";
	if (bdev->ops == &ahci_ops)
		return "ahci";
	if (bdev->ops == &sd_ops)
		return "sd";
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
	ata_piix_init();
	ahci_init();
	xhci_init();
	ehci_init();
	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev)) {
		if (bdev->bd_partno)
			continue;
		format_size(size, sizeof(size), bdev->nr_sectors);
		printk(KERN_INFO "blk: %s %s (%lu sectors of %u bytes), %s%s\n",
		       bdev->name, size, bdev->nr_sectors / (bdev->sector_size >> SECTOR_SHIFT),
		       bdev->sector_size, blk_driver_name(bdev),
		       bdev->read_only ? ", read-only" : "");
	}
	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev))
		if (!bdev->bd_partno && bdev->minors > 1)
			blk_add_partitions(bdev);
	blkdev_register_nodes();
}
