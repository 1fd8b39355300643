/*
 * The buffer cache (Linux's fs/buffer.c, reduced to its idea).
 *
 * Every buffer is one block of one device, cached under the key
 * (device, block number, block size).  To keep the code short each buffer
 * owns a whole page from alloc_page(), whatever its size: a 1 KiB buffer
 * wastes three quarters of its page.  Packing several buffers per page is
 * an optimisation for later; nothing outside this file depends on it.
 *
 * All buffers sit on one list, most recently used first.  Lookup walks it,
 * which is fine because the list is bounded: when a new buffer would make
 * more than BH_CACHE_MAX, the least recently used unreferenced buffer is
 * dropped first (written back first if dirty; a buffer whose write fails
 * stays, dirty, and the cache simply grows past the bound for a while).
 * Referenced buffers are never dropped, so the bound is soft.
 *
 * Under memory pressure the buffer cache's shrinker (mm/shrinker.c)
 * frees clean, unreferenced, unlocked buffers from the cold end, pages
 * and all, in step with page reclaim.  Linux has no such shrinker: its
 * buffers live in the block device's page cache, on the LRU lists, and
 * reclaim frees their buffer heads with the page (try_to_release_page).
 * Here the buffer cache is its own cache of slab objects and pages on no
 * LRU list, so a shrinker is the honest equivalent.  It never writes a
 * dirty buffer (sync and the flusher do), so it needs neither __GFP_IO
 * nor __GFP_FS, never sleeps, and works for any allocation that reclaims.
 *
 * Reads and single writes are synchronous, through submit_bio_wait().  A
 * failed read gives NULL and leaves nothing cached; a failed write leaves
 * the buffer dirty and returns -EIO.
 *
 * sync_blockdev() (sync, fsync, umount, BLKFLSBUF) writes a device's
 * dirty buffers asynchronously instead, in batches of SYNC_BATCH taken in
 * block order: each buffer is locked, made clean and its bio submitted
 * under a plug (drivers/blkdev.h), so adjacent blocks (bitmaps, inode
 * table blocks, a directory's blocks) reach the disk as one request;
 * then it waits for the batch.  A write's completion
 * (end_buffer_async_write, possibly in the disk's interrupt handler)
 * marks the buffer dirty again and sets BH_Write_EIO if the write failed,
 * then unlocks it; the waiter, which holds a reference to each buffer of
 * its batch, reads BH_Write_EIO and reports -EIO.  Because completions
 * are interrupts, b_state changes only atomically (buffer_set/clear).
 *
 * Sleeping.  The kernel is one CPU and never preempted, so the list and
 * the buffers (but for b_state) need no lock between sleeps; but every I/O sleeps, and
 * while one process waits for a buffer's read or write another may look
 * the same block up, use it, or drop it from the cache.  So:
 *   - a buffer under I/O is locked (BH_Lock, Linux's lock_buffer): whoever
 *     wants its data waits for the unlock, then looks again (a second
 *     reader never reads over data the first already handed out and
 *     someone changed);
 *   - whoever sleeps on a buffer holds a reference to it, so it is never
 *     freed under a sleeper;
 *   - a write clears BH_Dirty before it starts, so a change made while it
 *     is in flight leaves the buffer dirty for the next write;
 *   - every list walk that sleeps starts again from the head afterwards
 *     (the list may have changed under it), and every decision taken
 *     before a sleep (no such buffer yet; unreferenced and clean, so
 *     droppable) is taken again after it.
 * Only end_buffer_async_write() (and the unlock_buffer() it calls) runs
 * in interrupts; everything else is process context.
 */
#include <fs/buffer_head.h>
#include <fs/proc_fs.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/shrinker.h>
#include <mm/slab.h>
#include <pageturn/list.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define BH_CACHE_MAX 512	/* buffers kept before old ones are dropped */
#define SYNC_BATCH 64		/* buffers sync_blockdev() writes before it waits */

static LIST_HEAD(bh_lru);
static unsigned int nr_buffers;
static DECLARE_WAIT_QUEUE_HEAD(bh_wait);	/* for unlocks of every buffer */
static unsigned long sync_pass;			/* sync_blockdev()'s passes */

/*
 * Sleep until no I/O is in flight on bh (held by the caller).  The task is
 * on the queue and not running before it tests the bit, so an unlock
 * between the test and schedule() is not lost, even one by a write's
 * completion in an interrupt handler (as lock_page).
 */
static void wait_on_buffer(struct buffer_head *bh)
{
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait(&bh_wait, &wait, TASK_UNINTERRUPTIBLE);
		if (!buffer_locked(bh))
			break;
		schedule();
	}
	finish_wait(&bh_wait, &wait);
}

/* Take bh's lock for an I/O; the caller holds a reference.  Nothing
 * sleeps between the wait's end and the lock being taken. */
static void lock_buffer(struct buffer_head *bh)
{
	wait_on_buffer(bh);
	buffer_set(bh, BH_Lock);
}

/* May be called from an interrupt handler. */
static void unlock_buffer(struct buffer_head *bh)
{
	buffer_clear(bh, BH_Lock);
	wake_up(&bh_wait);
}

/* Read or write the whole of bh: 0 or a negative errno. */
static int bh_io(int rw, struct buffer_head *bh)
{
	struct bio_vec bv;
	struct bio bio;

	bio_init(&bio, &bv, 1);
	bio.bi_bdev = bh->b_bdev;
	bio.bi_sector = bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT);
	bio_add_page(&bio, bh->b_page, bh->b_size, 0);
	return submit_bio_wait(rw, &bio);
}

static void free_buffer(struct buffer_head *bh)
{
	list_del(&bh->b_lru);
	__free_page(bh->b_page);
	kfree(bh);
	nr_buffers--;
}

/* May the shrinker free bh: nobody holds it, no I/O is in flight and
 * nothing needs writing? */
static bool buffer_freeable(const struct buffer_head *bh)
{
	return !bh->b_count && !buffer_locked(bh) && !buffer_dirty(bh);
}

/* The coldest buffer nobody holds, or NULL. */
static struct buffer_head *coldest_unused(void)
{
	struct list_head *pos;
	struct buffer_head *bh;

	for (pos = bh_lru.prev; pos != &bh_lru; pos = pos->prev) {
		bh = list_entry(pos, struct buffer_head, b_lru);
		if (!bh->b_count)
			return bh;
	}
	return NULL;
}

/*
 * Drop unreferenced buffers from the cold end until there is room.  A
 * dirty one is written first, held across the write; the write sleeps,
 * so the walk then starts again from the cold end, and the buffer goes
 * only if it is still unreferenced and clean.  A failed write, or as many
 * writes as the cache holds (others keep dirtying), ends the shrinking:
 * the cache grows past its bound for a while.
 */
static void shrink_cache(void)
{
	unsigned int writes = 0;
	struct buffer_head *bh;
	int err;

	while (nr_buffers >= BH_CACHE_MAX && (bh = coldest_unused())) {
		if (!buffer_dirty(bh)) {
			free_buffer(bh);
			continue;
		}
		if (writes++ == BH_CACHE_MAX)
			return;
		bh->b_count++;
		err = sync_dirty_buffer(bh);
		bh->b_count--;
		if (err)
			return;
	}
}

static struct buffer_head *find_buffer(struct block_device *bdev, sector_t block,
				       unsigned int size)
{
	struct buffer_head *bh;

	list_for_each_entry(bh, &bh_lru, b_lru) {
		if (bh->b_bdev == bdev && bh->b_blocknr == block && bh->b_size == size) {
			list_move(&bh->b_lru, &bh_lru);
			return bh;
		}
	}
	return NULL;
}

/*
 * The buffer for (bdev, block, size), referenced, up to date or not, with
 * no read in flight (a write may be: the data stay valid, and a change
 * marks them dirty again).  NULL for an impossible size or block, or when out of
 * memory.  Making room and allocating may sleep, and another process may
 * add the same block meanwhile: the lookup is repeated after them, so a
 * block never has two buffers.
 */
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct buffer_head *bh, *new;
	struct page *page;

	if (size < SECTOR_SIZE || size > PAGE_SIZE || (size & (size - 1)) ||
	    size < bdev->sector_size || block >= bdev->nr_sectors / (size >> SECTOR_SHIFT))
		return NULL;
	bh = find_buffer(bdev, block, size);
	if (!bh) {
		if (nr_buffers >= BH_CACHE_MAX)
			shrink_cache();
		new = kzalloc(sizeof(*new), GFP_NOFS);
		page = new ? alloc_page(GFP_NOFS) : NULL;
		if (!page) {
			kfree(new);
			return NULL;
		}
		bh = find_buffer(bdev, block, size);
		if (bh) {
			__free_page(page);
			kfree(new);
		} else {
			bh = new;
			bh->b_page = page;
			bh->b_bdev = bdev;
			bh->b_blocknr = block;
			bh->b_size = size;
			bh->b_data = page_address(page);
			list_add(&bh->b_lru, &bh_lru);
			nr_buffers++;
		}
	}
	bh->b_count++;
	if (!buffer_uptodate(bh))
		wait_on_buffer(bh);
	return bh;
}

/*
 * The block with its data read in; NULL on I/O error or out of memory.
 * The buffer is locked across the read; a reader that finds it locked
 * waits (in __getblk) and then finds it up to date, or reads it itself if
 * the first read failed.  A failed read drops the buffer when nobody else
 * holds it.
 */
struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct buffer_head *bh = __getblk(bdev, block, size);
	int err;

	if (!bh || buffer_uptodate(bh))
		return bh;
	lock_buffer(bh);
	err = bh_io(READ, bh);
	if (!err)
		buffer_set(bh, BH_Uptodate);
	unlock_buffer(bh);
	if (!err)
		return bh;
	pr_err("buffer: read error on %s block %llu\n", bdev->name, (unsigned long long)block);
	if (--bh->b_count == 0)
		free_buffer(bh);
	return NULL;
}

/* Drop a reference; NULL is allowed.  Dropping one not held is a bug. */
void brelse(struct buffer_head *bh)
{
	if (!bh)
		return;
	if (bh->b_count <= 0)
		panic("brelse: buffer %s:%llu has no reference", bh->b_bdev->name,
		      (unsigned long long)bh->b_blocknr);
	bh->b_count--;
}

/*
 * The caller changed bh's data and holds a reference.  A dirty buffer is
 * up to date by definition: the caller of __getblk() fills the whole block
 * before marking it, and this is how it says so.
 */
void mark_buffer_dirty(struct buffer_head *bh)
{
	buffer_set(bh, BH_Uptodate);
	buffer_set(bh, BH_Dirty);
}

/*
 * The caller holds bh.  BH_Dirty is cleared before the write, so a change
 * made while the write sleeps marks the buffer dirty again; a failed write
 * marks it dirty again too.
 */
int sync_dirty_buffer(struct buffer_head *bh)
{
	int err;

	lock_buffer(bh);
	if (!buffer_dirty(bh)) {
		unlock_buffer(bh);
		return 0;
	}
	buffer_clear(bh, BH_Dirty);
	err = bh_io(WRITE, bh);
	if (err)
		buffer_set(bh, BH_Dirty);
	unlock_buffer(bh);
	if (err) {
		pr_err("buffer: write error on %s block %llu\n", bh->b_bdev->name,
		       (unsigned long long)bh->b_blocknr);
		return -EIO;
	}
	return 0;
}

/* The dirty buffer of bdev this pass has not written yet that comes
 * first on the disk, or NULL.  Taking them in block order lets the plug
 * merge a whole batch of neighbours. */
static struct buffer_head *next_to_sync(struct block_device *bdev, unsigned long pass)
{
	struct buffer_head *bh, *first = NULL;
	sector_t sector, first_sector = 0;

	list_for_each_entry(bh, &bh_lru, b_lru) {
		if (bh->b_bdev != bdev || !buffer_dirty(bh) || bh->b_sync_pass == pass)
			continue;
		sector = bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT);
		if (!first || sector < first_sector) {
			first = bh;
			first_sector = sector;
		}
	}
	return first;
}

/* Completion of sync_blockdev()'s write of one buffer (bi_private): may
 * run in an interrupt handler. */
static void end_buffer_async_write(struct bio *bio)
{
	struct buffer_head *bh = bio->bi_private;

	if (bio->bi_error) {
		buffer_set(bh, BH_Dirty);
		buffer_set(bh, BH_Write_EIO);
	}
	bio_put(bio);
	unlock_buffer(bh);
}

/*
 * Start the write of bh (held by the caller) if it is dirty.  Returns 1
 * when the write is in flight (the caller waits for the unlock and reads
 * BH_Write_EIO), 0 when there is nothing left to wait for (the buffer was
 * clean, or without memory for a bio it was written synchronously), or
 * -EIO when that failed or the block layer refused the bio (the buffer is
 * dirty again).
 */
static int start_buffer_write(struct buffer_head *bh)
{
	struct bio *bio;

	lock_buffer(bh);
	if (!buffer_dirty(bh)) {
		unlock_buffer(bh);
		return 0;
	}
	bio = bio_alloc(GFP_NOFS, 1);
	if (!bio) {
		unlock_buffer(bh);
		return sync_dirty_buffer(bh);
	}
	/* bio_alloc may sleep: bh stays locked and held, so no other write
	 * starts meanwhile, and a change made meanwhile goes out with this
	 * one (the disk reads the page when it does the write). */
	buffer_clear(bh, BH_Dirty);
	buffer_clear(bh, BH_Write_EIO);
	bio->bi_bdev = bh->b_bdev;
	bio->bi_sector = bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT);
	bio->bi_end_io = end_buffer_async_write;
	bio->bi_private = bh;
	bio_add_page(bio, bh->b_page, bh->b_size, 0);
	if (submit_bio(WRITE, bio) == 0)
		return 1;
	bio_put(bio);
	buffer_set(bh, BH_Dirty);
	unlock_buffer(bh);
	pr_err("buffer: write error on %s block %llu\n", bh->b_bdev->name,
	       (unsigned long long)bh->b_blocknr);
	return -EIO;
}

/*
 * Write every dirty buffer of bdev (see the top).  Choosing a buffer and
 * locking it may sleep, and the list may change meanwhile (buffers added,
 * moved, dropped, dirtied again): each buffer is chosen afresh, held from
 * then until its write is done, and stamped with this pass so that it is
 * written at most once by it.  A buffer dirtied again after its write
 * started is left for the next sync, as Linux's sync_blockdev leaves it.
 */
int sync_blockdev(struct block_device *bdev)
{
	unsigned long pass = ++sync_pass;
	struct buffer_head *batch[SYNC_BATCH], *bh;
	struct blk_plug plug;
	unsigned int n, i;
	int err = 0, e;

	do {
		n = 0;
		blk_start_plug(&plug);
		while (n < SYNC_BATCH && (bh = next_to_sync(bdev, pass))) {
			bh->b_sync_pass = pass;
			bh->b_count++;
			e = start_buffer_write(bh);
			if (e == 1) {
				batch[n++] = bh;
				continue;
			}
			if (e && !err)
				err = e;
			brelse(bh);
		}
		blk_finish_plug(&plug);
		for (i = 0; i < n; i++) {
			bh = batch[i];
			wait_on_buffer(bh);
			if (buffer_test(bh, BH_Write_EIO)) {
				buffer_clear(bh, BH_Write_EIO);
				pr_err("buffer: write error on %s block %llu\n", bdev->name,
				       (unsigned long long)bh->b_blocknr);
				err = -EIO;
			}
			brelse(bh);
		}
	} while (n == SYNC_BATCH);
	return err;
}

/* The buffers the shrinker may free now. */
static int nr_freeable_buffers(void)
{
	struct buffer_head *bh;
	int n = 0;

	list_for_each_entry(bh, &bh_lru, b_lru)
		n += buffer_freeable(bh);
	return n;
}

/*
 * The buffer cache's shrinker (see the top): free up to nr freeable
 * buffers, coldest first, and count those left.  Dirty, locked and held
 * buffers are passed over; nothing here sleeps, so the walk needs no
 * restart.  Any gfp_mask: no I/O is done.
 */
static int shrink_buffer_cache(int nr, gfp_t gfp_mask)
{
	struct list_head *pos, *prev;
	struct buffer_head *bh;

	(void)gfp_mask;
	for (pos = bh_lru.prev; nr > 0 && pos != &bh_lru; pos = prev) {
		prev = pos->prev;
		bh = list_entry(pos, struct buffer_head, b_lru);
		if (buffer_freeable(bh)) {
			free_buffer(bh);
			nr--;
		}
	}
	return nr_freeable_buffers();
}

static struct shrinker buffer_shrinker = {
	.shrink = shrink_buffer_cache,
	.seeks = DEFAULT_SEEKS,
};

void buffer_init(void)
{
	register_shrinker(&buffer_shrinker);
}

void invalidate_bdev(struct block_device *bdev)
{
	struct buffer_head *bh, *next;

	list_for_each_entry_safe(bh, next, &bh_lru, b_lru)
		if (bh->b_bdev == bdev && bh->b_count == 0)
			free_buffer(bh);
}

/* One page per buffer: what meminfo counts as Buffers. */
unsigned long nr_blockdev_pages(void)
{
	return nr_buffers;
}
