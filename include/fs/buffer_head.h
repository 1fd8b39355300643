/*
 * The buffer cache: filesystem metadata blocks (superblock, group
 * descriptors, bitmaps, inode tables, directories, indirect blocks) read
 * and written through a block device, with Linux's names.  File data goes
 * through the page cache instead (mm/filemap.c).
 *
 * A buffer is one block of b_size bytes (the filesystem's block size) of
 * one device, cached by (device, block number).  __bread() returns it with
 * a reference held and its data up to date; brelse() drops the reference.
 * mark_buffer_dirty() schedules it for writing; sync_dirty_buffer() writes
 * one now, sync_blockdev() every dirty buffer of a device.  Unreferenced
 * clean buffers may be dropped to bound the cache, and under memory
 * pressure by the buffer cache's shrinker.
 */
#ifndef FS_BUFFER_HEAD_H
#define FS_BUFFER_HEAD_H

#include <drivers/blkdev.h>

enum bh_state_bits {
	BH_Uptodate,	/* contains valid data */
	BH_Dirty,	/* newer than the disk */
	BH_Lock,	/* I/O in flight: others wait before using the data */
	BH_Write_EIO,	/* the last asynchronous write failed (sync_blockdev) */
};

struct buffer_head {
	unsigned long b_state;		/* changed atomically: write completions are interrupts */
	struct block_device *b_bdev;
	sector_t b_blocknr;		/* in units of b_size */
	unsigned int b_size;		/* 512 .. PAGE_SIZE, a power of two */
	char *b_data;
	int b_count;			/* references */
	struct page *b_page;		/* the page b_data lies in */
	struct list_head b_lru;		/* the cache's list */
	unsigned long b_sync_pass;	/* the sync_blockdev() pass that last wrote it */
};

/* The block, read from the device if not cached; NULL on I/O error or
 * when out of memory. */
struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size);
/* The block without reading it (for a block about to be overwritten
 * whole); NULL when out of memory. */
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size);
void brelse(struct buffer_head *bh);
void mark_buffer_dirty(struct buffer_head *bh);
/* Write bh now if dirty: 0 or -EIO. */
int sync_dirty_buffer(struct buffer_head *bh);
/* Write every dirty buffer of bdev, many at once under a plug, and wait
 * for them: 0 or -EIO if any failed (those stay dirty). */
int sync_blockdev(struct block_device *bdev);
/* Register the buffer cache's shrinker.  Boot, before any buffer. */
void buffer_init(void);
/* Drop every unreferenced buffer of bdev (after sync); for unmount. */
void invalidate_bdev(struct block_device *bdev);

static inline bool buffer_test(const struct buffer_head *bh, enum bh_state_bits bit)
{
	return __atomic_load_n(&bh->b_state, __ATOMIC_SEQ_CST) & (1ul << bit);
}

static inline void buffer_set(struct buffer_head *bh, enum bh_state_bits bit)
{
	__atomic_fetch_or(&bh->b_state, 1ul << bit, __ATOMIC_SEQ_CST);
}

static inline void buffer_clear(struct buffer_head *bh, enum bh_state_bits bit)
{
	__atomic_fetch_and(&bh->b_state, ~(1ul << bit), __ATOMIC_SEQ_CST);
}

static inline bool buffer_uptodate(const struct buffer_head *bh) { return buffer_test(bh, BH_Uptodate); }
static inline bool buffer_dirty(const struct buffer_head *bh) { return buffer_test(bh, BH_Dirty); }
static inline bool buffer_locked(const struct buffer_head *bh) { return buffer_test(bh, BH_Lock); }

#endif
