/*
 * Multi-page bios for filesystems whose files map to disk blocks (Linux's
 * fs/mpage.c): readahead and writeback build one bio per run of pages
 * whose blocks are contiguous on the disk.  kernel/fs/mpage.c has the
 * essay.
 */
#ifndef FS_MPAGE_H
#define FS_MPAGE_H

#include <drivers/blkdev.h>
#include <fs/fs.h>

/*
 * Map block iblock of mapping's file to a disk block in *pblock: 0 for a
 * hole (or a block at or past the end of the file).  With create, a hole
 * gets a block.  0 or -errno.  May sleep.
 */
typedef int (get_block_t)(struct address_space *mapping, sector_t iblock, bool create,
			  sector_t *pblock);

/* Where a mapping's blocks are: the device and log2 of the block size;
 * and the file's size now (writeback reads it for each page it holds
 * locked, as Linux's __mpage_writepage reads i_size). */
struct mpage_geometry {
	struct block_device *bdev;
	unsigned int blkbits;
	get_block_t *get_block;
	uint64_t (*isize)(struct address_space *mapping);
};

/* a_ops->readpages for such a filesystem (the contract is in fs/fs.h). */
int mpage_readpages(struct address_space *mapping, struct list_head *pages,
		    unsigned int nr_pages, const struct mpage_geometry *geo);

/*
 * a_ops->writepages for such a filesystem: every dirty page of mapping
 * below the file's size, in index order, runs of contiguous blocks in one bio;
 * then waits for all of them.  A page that is not wholly mapped (a hole
 * under data, blocks out of order) goes through a_ops->writepage.
 * Returns 0 or the first error; failed pages are dirty again.
 */
int mpage_writepages(struct address_space *mapping, const struct mpage_geometry *geo);

#endif
