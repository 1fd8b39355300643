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
 * I/O is synchronous, through submit_bio_wait().  A failed read gives
 * NULL and leaves nothing cached; a failed write leaves the buffer dirty
 * and returns -EIO.
 *
 * Locking.  The kernel switches tasks only where one sleeps, and nothing
 * here is called from interrupts, so the list needs no lock.  A read
 * sleeps, though: the buffer is on the list, not up to date and BH_Lock
 * set while its read is in flight, and a second __bread of the block
 * waits for it (bh_wait) rather than read it again, which would
 * overwrite what the first reader changed meanwhile with the disk's old
 * contents.  Writes need no such lock: the in-core data stays the truth.
 */
#include <fs/buffer_head.h>
#include <fs/proc_fs.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/list.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define BH_CACHE_MAX 512	/* buffers kept before old ones are dropped */

static LIST_HEAD(bh_lru);
/* Readers waiting for a buffer's read in flight (BH_Lock). */
static DECLARE_WAIT_QUEUE_HEAD(bh_wait);
static unsigned int nr_buffers;

/* Read or write the whole of bh: 0 or a negative errno. */
static int bh_io(int rw, struct buffer_head *bh)
{
	struct bio bio = {
		.bi_bdev = bh->b_bdev,
		.bi_sector = bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT),
		.bi_rw = rw,
		.bi_page = bh->b_page,
		.bi_offset = 0,
		.bi_size = bh->b_size,
	};

	return submit_bio_wait(rw, &bio);
}

static void free_buffer(struct buffer_head *bh)
{
	list_del(&bh->b_lru);
	__free_page(bh->b_page);
	kfree(bh);
	nr_buffers--;
}

/* Drop unreferenced buffers from the cold end until there is room. */
static void shrink_cache(void)
{
	struct list_head *pos, *prev;
	struct buffer_head *bh;

	for (pos = bh_lru.prev; pos != &bh_lru && nr_buffers >= BH_CACHE_MAX; pos = prev) {
		prev = pos->prev;
		bh = list_entry(pos, struct buffer_head, b_lru);
		if (bh->b_count)
			continue;
		if (buffer_dirty(bh) && sync_dirty_buffer(bh))
			continue;
		free_buffer(bh);
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
 * The buffer for (bdev, block, size), referenced, up to date or not.
 * NULL for an impossible size or block, or when out of memory.
 */
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct buffer_head *bh;

	if (size < SECTOR_SIZE || size > PAGE_SIZE || (size & (size - 1)) ||
	    size < bdev->sector_size || block >= bdev->nr_sectors / (size >> SECTOR_SHIFT))
		return NULL;
	bh = find_buffer(bdev, block, size);
	if (bh) {
		bh->b_count++;
		return bh;
	}
	if (nr_buffers >= BH_CACHE_MAX)
		shrink_cache();
	bh = kzalloc(sizeof(*bh), GFP_NOFS);
	if (!bh)
		return NULL;
	bh->b_page = alloc_page(GFP_NOFS);
	if (!bh->b_page) {
		kfree(bh);
		return NULL;
	}
	bh->b_bdev = bdev;
	bh->b_blocknr = block;
	bh->b_size = size;
	bh->b_data = page_address(bh->b_page);
	bh->b_count = 1;
	list_add(&bh->b_lru, &bh_lru);
	nr_buffers++;
	return bh;
}

/*
 * The block with its data read in; NULL on I/O error or out of memory.
 * The reference held keeps the buffer on the list across the sleeps; a
 * read that failed leaves the buffer to a waiter, which tries again, or
 * frees it when nobody else holds it.
 */
struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct buffer_head *bh = __getblk(bdev, block, size);

	if (!bh)
		return NULL;
	for (;;) {
		if (buffer_locked(bh))
			wait_event(bh_wait, !buffer_locked(bh));
		if (buffer_uptodate(bh))
			return bh;
		bh->b_state |= 1ul << BH_Lock;
		if (!bh_io(READ, bh))
			break;
		bh->b_state &= ~(1ul << BH_Lock);
		wake_up(&bh_wait);
		pr_err("buffer: read error on %s block %llu\n", bdev->name,
		       (unsigned long long)block);
		if (--bh->b_count == 0)
			free_buffer(bh);
		return NULL;
	}
	bh->b_state |= 1ul << BH_Uptodate;
	bh->b_state &= ~(1ul << BH_Lock);
	wake_up(&bh_wait);
	return bh;
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
	bh->b_state |= (1ul << BH_Dirty) | (1ul << BH_Uptodate);
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	int err;

	if (!buffer_dirty(bh))
		return 0;
	err = bh_io(WRITE, bh);
	if (err) {
		pr_err("buffer: write error on %s block %llu\n", bh->b_bdev->name,
		       (unsigned long long)bh->b_blocknr);
		return -EIO;
	}
	bh->b_state &= ~(1ul << BH_Dirty);
	return 0;
}

int sync_blockdev(struct block_device *bdev)
{
	struct buffer_head *bh;
	int err = 0, e;

	list_for_each_entry(bh, &bh_lru, b_lru) {
		if (bh->b_bdev != bdev)
			continue;
		e = sync_dirty_buffer(bh);
		if (e && !err)
			err = e;
	}
	return err;
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
