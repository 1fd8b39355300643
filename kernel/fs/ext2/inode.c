/*
 * ext2: in-core inodes, the block map, and file data.
 *
 * ext2_iget() copies the first 128 bytes of an on-disk inode into an
 * ext2_inode_info shared by every user of that inode number; the copy is
 * the truth while the inode is in core, and ext2_write_inode() puts it
 * back (any bytes of a larger inode past 128 are left alone).
 *
 * The block map is Linux's: file block lblk is found through a path of up
 * to four offsets, one in i_block[] and one in each indirect block below
 * it (block_to_path).  ext2_get_block() walks that path, allocating and
 * zeroing missing indirect blocks when asked to create; i_blocks counts
 * every block the inode owns, indirect ones included, in 512-byte units.
 * Every block number read from the disk is range-checked before it is
 * followed, and the walk is at most four steps deep, so a corrupt map
 * gives -EIO and never a stray read or a loop.
 *
 * Truncation walks the same tree, freeing each subtree that lies wholly
 * past the new end and the data blocks past it; an indirect block that
 * still maps something before the end is kept.
 *
 * File data goes through the page cache (mm/filemap.c).  Each in-core
 * inode's i_mapping has ext2_aops:
 *   readpage       maps each block of the page with ext2_get_block and
 *                  reads it with one bio; holes and blocks at or past the
 *                  end of the file read as zeroes.
 *   readpages      readahead: mpage_readpages (fs/mpage.c) with the same
 *                  mapping, one bio per run of contiguous blocks.
 *   writepages     writeback of the whole file (sync, fsync, the flusher):
 *                  mpage_writepages, one bio per run of pages with
 *                  contiguous blocks; a page with a hole under it goes
 *                  through writepage, which allocates.
 *   prepare_write  allocates every block a write() covers before the data
 *                  is copied, so a full disk gives -ENOSPC from write().
 *                  The page was read first (read-modify-write), so a new
 *                  block's stale contents never reach the page.
 *   writepage      writes each block of the page below the end of the
 *                  file, zeroing the page past the end first.  A hole
 *                  under non-zero data (a page dirtied without write(), as
 *                  a store through a mapping will) gets a block then.
 *   bmap           ext2_get_block without allocating: where a block of
 *                  the file is on the disk (swapon maps swap files so).
 * ext2_write() hands the page cache one block at a time and moves the
 * end of the file past each block's bytes.  A write that ends short past
 * the end (its source faulted after prepare_write had allocated, or the
 * disk filled after an indirect block was taken) gives back every block
 * past the end and drops the cached pages there (ext2_write_failed, as
 * Linux's), so no block lies past i_size.
 *
 * Sleeping (see fs/ext2.h for the rule).  ext2_iget() reads the disk and
 * allocates, so it looks for the inode again afterwards: the same number
 * never gets two in-core copies.  The last ext2_iput() writes the inode
 * back, or frees it, sleeping with the inode still listed and marked
 * i_freeing; ext2_iget() waits for such an inode to go and then reads it
 * afresh, rather than reviving one about to be freed.  ext2_get_block()
 * allocates a block for an empty slot (sleeping) and then finds the slot
 * again: if another writer of the same file filled it meanwhile, its
 * block is used and ours given back.
 *
 * A block freed as metadata (an indirect block, a directory block) can
 * still have a dirty buffer in the buffer cache when it is reused for file
 * data; Linux forgets such buffers (unmap_underlying_metadata).  Here the
 * buffers are written first: dirty pages are written back only after
 * sync_blockdev(), so the file's data is the last thing written there.
 */
#include <fs/ext2.h>
#include <fs/mpage.h>
#include <mm/pagemap.h>
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define EXT2_MAX_32BIT_SIZE 0x7fffffffull	/* larger needs RO_COMPAT_LARGE_FILE */

static const struct address_space_operations ext2_aops;
static int free_blocks_from(struct ext2_inode_info *inode, uint64_t from);

/* The buffer and the place in it of inode ino's on-disk copy. */
static struct ext2_inode *raw_inode(struct ext2_sb_info *sbi, uint32_t ino,
				    struct buffer_head **bh)
{
	uint32_t index = (ino - 1) % sbi->s_inodes_per_group;
	struct buffer_head *gdbh;
	struct ext2_group_desc *gd = ext2_group_desc(sbi, (ino - 1) / sbi->s_inodes_per_group, &gdbh);

	*bh = __bread(sbi->s_bdev, gd->bg_inode_table + index / sbi->s_inodes_per_block,
		      sbi->s_blocksize);
	if (!*bh) {
		pr_err("ext2: %s: cannot read inode %u\n", sbi->s_bdev->name, ino);
		return NULL;
	}
	return (struct ext2_inode *)((*bh)->b_data +
				     (index % sbi->s_inodes_per_block) * sbi->s_inode_size);
}

/* Woken when a freeing inode leaves its filesystem's list. */
static DECLARE_WAIT_QUEUE_HEAD(ext2_freeing_wait);

static struct ext2_inode_info *find_inode(struct ext2_sb_info *sbi, uint32_t ino)
{
	struct ext2_inode_info *inode;

	list_for_each_entry(inode, &sbi->s_inodes, i_list)
		if (inode->i_ino == ino)
			return inode;
	return NULL;
}

/*
 * Sleep until inode, which its last ext2_iput() is freeing, is off the
 * list.  Called right after finding it (no sleep between), so the wakeup
 * that follows its list_del cannot be missed; the pointer is not used
 * afterwards.
 */
static void wait_on_freeing(void)
{
	DEFINE_WAIT(wait);

	prepare_to_wait(&ext2_freeing_wait, &wait, TASK_UNINTERRUPTIBLE);
	schedule();
	finish_wait(&ext2_freeing_wait, &wait);
}

/* The listed inode ino, referenced, or NULL if none; waits out a freeing one. */
static struct ext2_inode_info *grab_inode(struct ext2_sb_info *sbi, uint32_t ino)
{
	struct ext2_inode_info *inode;

	while ((inode = find_inode(sbi, ino)) && inode->i_freeing)
		wait_on_freeing();
	if (inode)
		inode->i_count++;
	return inode;
}

struct ext2_inode_info *ext2_iget(struct ext2_sb_info *sbi, uint32_t ino, int *err)
{
	struct ext2_inode_info *inode, *new;
	struct buffer_head *bh;
	struct ext2_inode *raw;

	if (ino == 0 || ino > sbi->s_inodes_count ||
	    (ino < sbi->s_first_ino && ino != EXT2_ROOT_INO)) {
		pr_err("ext2: %s: inode number %u out of range\n", sbi->s_bdev->name, ino);
		*err = -EIO;
		return NULL;
	}
	*err = 0;
	inode = grab_inode(sbi, ino);
	if (inode)
		return inode;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new) {
		*err = -ENOMEM;
		return NULL;
	}
	raw = raw_inode(sbi, ino, &bh);
	if (!raw) {
		kfree(new);
		*err = -EIO;
		return NULL;
	}
	/* The allocation and the read slept: another process may have read
	 * the inode in, or be freeing it (then the table copy read here
	 * could be older than its).  Nothing sleeps from here on. */
	if (find_inode(sbi, ino)) {
		brelse(bh);
		kfree(new);
		return ext2_iget(sbi, ino, err);
	}
	if (raw->i_links_count == 0 || raw->i_mode == 0) {
		pr_err("ext2: %s: inode %u is not in use\n", sbi->s_bdev->name, ino);
		brelse(bh);
		kfree(new);
		*err = -EIO;
		return NULL;
	}
	memcpy(&new->i_raw, raw, sizeof(new->i_raw));
	brelse(bh);
	new->i_sb = sbi;
	new->i_ino = ino;
	new->i_count = 1;
	address_space_init(&new->i_mapping, new, &ext2_aops, false);
	new->i_mapping.backing_dev_info = &sbi->s_bdev->backing_dev_info;
	list_add(&new->i_list, &sbi->s_inodes);
	return new;
}

int ext2_write_inode(struct ext2_inode_info *inode)
{
	struct buffer_head *bh;
	struct ext2_inode *raw;

	if (!inode->i_dirty)
		return 0;
	raw = raw_inode(inode->i_sb, inode->i_ino, &bh);
	if (!raw)
		return -EIO;
	memcpy(raw, &inode->i_raw, sizeof(*raw));
	mark_buffer_dirty(bh);
	brelse(bh);
	inode->i_dirty = false;
	return 0;
}

void ext2_mark_inode_dirty(struct ext2_inode_info *inode)
{
	inode->i_dirty = true;
}

int ext2_set_mode(struct ext2_inode_info *inode, unsigned int mode)
{
	if (inode->i_sb->s_read_only)
		return -EROFS;
	inode->i_raw.i_mode = (inode->i_raw.i_mode & EXT2_S_IFMT) | (mode & 07777);
	inode->i_raw.i_ctime = inode->i_sb->s_es->s_wtime;
	ext2_mark_inode_dirty(inode);
	return 0;
}

int ext2_set_mtime(struct ext2_inode_info *inode, uint32_t mtime)
{
	if (inode->i_sb->s_read_only)
		return -EROFS;
	inode->i_raw.i_mtime = mtime;
	ext2_mark_inode_dirty(inode);
	return 0;
}

uint64_t ext2_isize(const struct ext2_inode_info *inode)
{
	uint64_t size = inode->i_raw.i_size;

	if (EXT2_S_ISREG(inode->i_raw.i_mode))
		size |= (uint64_t)inode->i_raw.i_size_high << 32;
	return size;
}

void ext2_set_isize(struct ext2_inode_info *inode, uint64_t size)
{
	struct ext2_super_block *es = inode->i_sb->s_es;

	inode->i_raw.i_size = (uint32_t)size;
	if (EXT2_S_ISREG(inode->i_raw.i_mode)) {
		inode->i_raw.i_size_high = (uint32_t)(size >> 32);
		if (size > EXT2_MAX_32BIT_SIZE &&
		    !(es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_LARGE_FILE)) {
			es->s_feature_ro_compat |= EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
			if (es->s_rev_level == EXT2_GOOD_OLD_REV)
				es->s_rev_level = EXT2_DYNAMIC_REV;
			ext2_sb_dirty(inode->i_sb);
		}
	}
	ext2_mark_inode_dirty(inode);
}

/* The blocks a file can map: direct, single, double and triple indirect. */
static uint64_t max_blocks(const struct ext2_sb_info *sbi)
{
	uint64_t a = sbi->s_addr_per_block;

	return EXT2_NDIR_BLOCKS + a + a * a + a * a * a;
}

/* Split lblk into its path through the map: the depth (1..4) or -EFBIG. */
static int block_to_path(const struct ext2_sb_info *sbi, uint64_t lblk, unsigned int off[4])
{
	uint64_t a = sbi->s_addr_per_block;
	unsigned int bits = sbi->s_addr_per_block_bits;

	if (lblk < EXT2_NDIR_BLOCKS) {
		off[0] = lblk;
		return 1;
	}
	lblk -= EXT2_NDIR_BLOCKS;
	if (lblk < a) {
		off[0] = EXT2_IND_BLOCK;
		off[1] = lblk;
		return 2;
	}
	lblk -= a;
	if (lblk < a * a) {
		off[0] = EXT2_DIND_BLOCK;
		off[1] = lblk >> bits;
		off[2] = lblk & (a - 1);
		return 3;
	}
	lblk -= a * a;
	if (lblk < a * a * a) {
		off[0] = EXT2_TIND_BLOCK;
		off[1] = lblk >> (2 * bits);
		off[2] = (lblk >> bits) & (a - 1);
		off[3] = lblk & (a - 1);
		return 4;
	}
	return -EFBIG;
}

/*
 * Fill the empty slot (entry idx of array, in the inode or in a held
 * indirect block) with a new block near its left neighbour, zeroed when
 * zero.  Allocating and zeroing sleep: if another writer of the file filled
 * the slot meanwhile, that block stays and ours is given back.  Sets
 * *fresh when the slot now holds our block.
 */
static int alloc_slot(struct ext2_inode_info *inode, uint32_t *array, unsigned int idx,
		      uint32_t goal, bool zero, bool *fresh)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	struct buffer_head *bh;
	uint32_t block;
	int err;

	*fresh = false;
	if (idx > 0 && array[idx - 1])
		goal = array[idx - 1] + 1;
	err = ext2_new_block(sbi, goal, &block);
	if (err)
		return err;
	if (zero) {
		bh = __getblk(sbi->s_bdev, block, sbi->s_blocksize);
		if (!bh) {
			ext2_free_block(sbi, block);
			return -ENOMEM;
		}
		memset(bh->b_data, 0, sbi->s_blocksize);
		mark_buffer_dirty(bh);
		brelse(bh);
	}
	if (array[idx])
		return ext2_free_block(sbi, block);
	array[idx] = block;
	inode->i_raw.i_blocks += sbi->s_blocksize >> SECTOR_SHIFT;
	ext2_mark_inode_dirty(inode);
	*fresh = true;
	return 0;
}

int ext2_get_block(struct ext2_inode_info *inode, uint64_t lblk, bool create,
		   uint32_t *block, bool *fresh)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	struct buffer_head *bh = NULL, *next;
	unsigned int off[4];
	uint32_t *array = inode->i_raw.i_block;
	uint32_t goal = sbi->s_first_data_block +
			(inode->i_ino - 1) / sbi->s_inodes_per_group * sbi->s_blocks_per_group;
	int depth, level, err = 0;

	depth = block_to_path(sbi, lblk, off);
	if (depth < 0)
		return depth;
	if (create && sbi->s_read_only)
		return -EROFS;
	*block = 0;
	for (level = 0; level < depth; level++) {
		uint32_t *slot = &array[off[level]];
		bool ours;

		if (*slot == 0) {
			if (!create)
				break;
			/* array stays valid across the sleeps: i_raw, or bh held. */
			err = alloc_slot(inode, array, off[level], goal, level < depth - 1, &ours);
			if (err)
				break;
			if (bh && ours)
				mark_buffer_dirty(bh);
			if (level == depth - 1 && fresh)
				*fresh = ours;
		} else if (!ext2_valid_block(sbi, *slot)) {
			pr_err("ext2: %s: inode %u maps block %u, out of range\n",
			       sbi->s_bdev->name, inode->i_ino, *slot);
			err = -EIO;
			break;
		}
		if (level == depth - 1) {
			*block = *slot;
			break;
		}
		goal = *slot + 1;
		next = __bread(sbi->s_bdev, *slot, sbi->s_blocksize);
		brelse(bh);
		bh = next;
		if (!bh) {
			err = -EIO;
			break;
		}
		array = (uint32_t *)bh->b_data;
	}
	brelse(bh);
	return err;
}

int ext2_get_zeroed_block(struct ext2_inode_info *inode, uint64_t lblk, struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	struct buffer_head *bh;
	uint32_t block;
	int err;

	err = ext2_get_block(inode, lblk, true, &block, NULL);
	if (err)
		return err;
	bh = __getblk(sbi->s_bdev, block, sbi->s_blocksize);
	if (!bh)
		return -ENOMEM;
	memset(bh->b_data, 0, sbi->s_blocksize);
	*bhp = bh;
	return 0;
}

/* ---- the page cache's operations ----------------------------------------- */

/* Read or write the block at offset in page: 0 or -EIO. */
static int block_io(struct ext2_inode_info *inode, int rw, struct page *page,
		    unsigned int offset, uint32_t block)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	struct bio_vec bv;
	struct bio bio;
	int err;

	bio_init(&bio, &bv, 1);
	bio.bi_bdev = sbi->s_bdev;
	bio.bi_sector = (sector_t)block << (sbi->s_blocksize_bits - SECTOR_SHIFT);
	bio_add_page(&bio, page, sbi->s_blocksize, offset);
	err = submit_bio_wait(rw, &bio);

	if (err) {
		pr_err("ext2: %s: inode %u: cannot %s block %u (%d)\n", sbi->s_bdev->name,
		       inode->i_ino, rw == WRITE ? "write" : "read", block, err);
		return -EIO;
	}
	return 0;
}

/* Called with the page locked and not uptodate. */
static int ext2_readpage(struct address_space *mapping, struct page *page)
{
	struct ext2_inode_info *inode = mapping->host;
	struct ext2_sb_info *sbi = inode->i_sb;
	unsigned int bs = sbi->s_blocksize, i;
	uint64_t lblk = (uint64_t)page->index << (PAGE_SHIFT - sbi->s_blocksize_bits);
	uint64_t isize = ext2_isize(inode);
	char *data = page_address(page);
	uint32_t block;
	int err;

	for (i = 0; i < PAGE_SIZE / bs; i++, lblk++) {
		block = 0;
		if (lblk << sbi->s_blocksize_bits < isize) {
			err = ext2_get_block(inode, lblk, false, &block, NULL);
			if (err)
				return err;
		}
		if (!block) {
			memset(data + i * bs, 0, bs);
			continue;
		}
		err = block_io(inode, READ, page, i * bs, block);
		if (err)
			return err;
	}
	SetPageUptodate(page);
	return 0;
}

/* Called with the page locked, before write() copies into [from, to). */
static int ext2_prepare_write(struct address_space *mapping, struct page *page,
			      unsigned int from, unsigned int to)
{
	struct ext2_inode_info *inode = mapping->host;
	unsigned int bits = inode->i_sb->s_blocksize_bits;
	uint64_t pos = (uint64_t)page->index << PAGE_SHIFT;
	uint64_t lblk, last = (pos + to - 1) >> bits;
	uint32_t block;
	int err;

	for (lblk = (pos + from) >> bits; lblk <= last; lblk++) {
		err = ext2_get_block(inode, lblk, true, &block, NULL);
		if (err)
			return err;
	}
	return 0;
}

static bool all_zero(const char *p, unsigned int len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* Called with the page locked, uptodate and PG_dirty cleared; writes it
 * and waits, so its writeback has ended when this returns. */
static int ext2_writepage(struct address_space *mapping, struct page *page)
{
	struct ext2_inode_info *inode = mapping->host;
	struct ext2_sb_info *sbi = inode->i_sb;
	unsigned int bs = sbi->s_blocksize, i;
	uint64_t pos = (uint64_t)page->index << PAGE_SHIFT, isize = ext2_isize(inode);
	uint64_t lblk = pos >> sbi->s_blocksize_bits;
	char *data = page_address(page);
	uint32_t block;
	int err = 0;

	set_page_writeback(page);
	/* The part past the end of the file goes to the disk as zeroes. */
	if (isize < pos + PAGE_SIZE && isize > pos)
		memset(data + (isize - pos), 0, pos + PAGE_SIZE - isize);
	for (i = 0; i < PAGE_SIZE / bs && pos + i * bs < isize; i++, lblk++) {
		err = ext2_get_block(inode, lblk, false, &block, NULL);
		if (!err && !block && !all_zero(data + i * bs, bs))
			err = ext2_get_block(inode, lblk, true, &block, NULL);
		if (!err && block)
			err = block_io(inode, WRITE, page, i * bs, block);
		if (err)
			break;
	}
	end_page_writeback(page);
	return err;
}

/* get_block for fs/mpage.c: blocks at or past the end of the file are
 * holes when reading. */
static int ext2_get_block_mpage(struct address_space *mapping, sector_t iblock, bool create,
				sector_t *pblock)
{
	struct ext2_inode_info *inode = mapping->host;
	uint32_t block = 0;
	int err = 0;

	if (create || iblock << inode->i_sb->s_blocksize_bits < ext2_isize(inode))
		err = ext2_get_block(inode, iblock, create, &block, NULL);
	*pblock = block;
	return err;
}

static uint64_t ext2_isize_mpage(struct address_space *mapping)
{
	return ext2_isize(mapping->host);
}

static struct mpage_geometry ext2_geometry(struct ext2_inode_info *inode)
{
	return (struct mpage_geometry){
		.bdev = inode->i_sb->s_bdev,
		.blkbits = inode->i_sb->s_blocksize_bits,
		.get_block = ext2_get_block_mpage,
		.isize = ext2_isize_mpage,
	};
}

static int ext2_readpages(struct address_space *mapping, struct list_head *pages,
			  unsigned int nr_pages)
{
	struct mpage_geometry geo = ext2_geometry(mapping->host);

	return mpage_readpages(mapping, pages, nr_pages, &geo);
}

static int ext2_writepages(struct address_space *mapping)
{
	struct ext2_inode_info *inode = mapping->host;
	struct mpage_geometry geo = ext2_geometry(inode);

	return mpage_writepages(mapping, &geo);
}

static uint64_t ext2_bmap(struct address_space *mapping, uint64_t block)
{
	sector_t pblock;

	if (ext2_get_block_mpage(mapping, block, false, &pblock))
		return 0;
	return pblock;
}

static const struct address_space_operations ext2_aops = {
	.bmap = ext2_bmap,
	.readpage = ext2_readpage,
	.readpages = ext2_readpages,
	.writepage = ext2_writepage,
	.writepages = ext2_writepages,
	.prepare_write = ext2_prepare_write,
};

long ext2_read(struct ext2_inode_info *inode, uint64_t off, struct iov_iter *to)
{
	if (EXT2_S_ISDIR(inode->i_raw.i_mode))
		return -EISDIR;
	return filemap_read(&inode->i_mapping, off, to, ext2_isize(inode));
}

/*
 * A write ended short with the file's end before where it meant to
 * write: prepare_write may have allocated blocks past the end that got no
 * byte (the copy from user memory faulted after it, or an indirect block
 * was taken before the data block found the disk full).  Drop the cached
 * pages past the end and free every block there (Linux's
 * ext2_write_failed: truncate_pagecache and ext2_truncate_blocks).  The
 * pages dropped hold no data: none of the file lies past its end.  0 or
 * -EIO.
 */
static int ext2_write_failed(struct ext2_inode_info *inode)
{
	uint64_t size = ext2_isize(inode);
	unsigned int bs = inode->i_sb->s_blocksize;

	truncate_inode_pages(&inode->i_mapping, size);
	return free_blocks_from(inode, (size + bs - 1) >> inode->i_sb->s_blocksize_bits);
}

long ext2_write(struct ext2_inode_info *inode, uint64_t off, struct iov_iter *from)
{
	int err;

	struct ext2_sb_info *sbi = inode->i_sb;
	uint64_t limit = max_blocks(sbi) << sbi->s_blocksize_bits, pos;
	size_t done = 0, len = iov_iter_count(from), n;
	long ret = 0;

	if (sbi->s_read_only)
		return -EROFS;
	if (EXT2_S_ISDIR(inode->i_raw.i_mode))
		return -EISDIR;
	if (off >= limit)
		return len ? -EFBIG : 0;
	len = MIN(len, limit - off);
	while (done < len) {
		pos = off + done;
		n = MIN(sbi->s_blocksize - (pos & (sbi->s_blocksize - 1)), len - done);
		iov_iter_truncate(from, n);
		ret = generic_perform_write(&inode->i_mapping, from, pos);
		iov_iter_reexpand(from, iov_iter_count(from) + (len - done - n));
		if (ret <= 0)
			break;
		done += ret;
		/* Nothing slept since the page was unlocked (mm/pagemap.h),
		 * so writeback has not seen its new bytes past the end. */
		if (off + done > ext2_isize(inode))
			ext2_set_isize(inode, off + done);
		if ((size_t)ret < n)
			break;
	}
	if (done < len && off + len > ext2_isize(inode)) {
		err = ext2_write_failed(inode);
		if (err && !done)
			ret = err;
	}
	return done ? (long)done : ret;
}

int ext2_writeback_pages(struct ext2_inode_info *inode)
{
	int err;

	if (!inode->i_mapping.nrpages)
		return 0;
	err = sync_blockdev(inode->i_sb->s_bdev);
	return err ? err : filemap_write_and_wait(&inode->i_mapping);
}

/*
 * Free what the subtree at *slot maps at or past file block from.  The
 * subtree is depth levels of indirection over file blocks [base, base +
 * a^depth); a block mapping only blocks past from goes, with *slot zeroed.
 */
static int free_tree(struct ext2_inode_info *inode, uint32_t *slot, unsigned int depth,
		     uint64_t base, uint64_t from)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	uint64_t child = 1ull << ((depth ? depth - 1 : 0) * sbi->s_addr_per_block_bits);
	uint64_t span = depth ? child * sbi->s_addr_per_block : 1;
	struct buffer_head *bh;
	unsigned int i;
	int err;

	if (*slot == 0 || base + span <= from)
		return 0;
	if (!ext2_valid_block(sbi, *slot)) {
		pr_err("ext2: %s: inode %u maps block %u, out of range\n",
		       sbi->s_bdev->name, inode->i_ino, *slot);
		return -EIO;
	}
	if (depth > 0) {
		bh = __bread(sbi->s_bdev, *slot, sbi->s_blocksize);
		if (!bh)
			return -EIO;
		for (i = 0; i < sbi->s_addr_per_block; i++) {
			err = free_tree(inode, (uint32_t *)bh->b_data + i, depth - 1,
					base + i * child, from);
			if (err) {
				brelse(bh);
				return err;
			}
		}
		mark_buffer_dirty(bh);
		brelse(bh);
		if (base < from)
			return 0;
	}
	err = ext2_free_block(sbi, *slot);
	if (err)
		return err;
	*slot = 0;
	inode->i_raw.i_blocks -= sbi->s_blocksize >> SECTOR_SHIFT;
	ext2_mark_inode_dirty(inode);
	return 0;
}

/* Free every block mapping file blocks from on. */
static int free_blocks_from(struct ext2_inode_info *inode, uint64_t from)
{
	uint64_t a = inode->i_sb->s_addr_per_block;
	uint64_t base[] = { EXT2_NDIR_BLOCKS, EXT2_NDIR_BLOCKS + a, EXT2_NDIR_BLOCKS + a + a * a };
	uint32_t *i_block = inode->i_raw.i_block;
	unsigned int i;
	int err;

	for (i = 0; i < EXT2_NDIR_BLOCKS; i++) {
		err = free_tree(inode, &i_block[i], 0, i, from);
		if (err)
			return err;
	}
	for (i = 0; i < 3; i++) {
		err = free_tree(inode, &i_block[EXT2_IND_BLOCK + i], i + 1, base[i], from);
		if (err)
			return err;
	}
	return 0;
}

int ext2_truncate(struct ext2_inode_info *inode, uint64_t size)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	unsigned int bs = sbi->s_blocksize, tail = size & (bs - 1);
	static const char zero_block[1u << EXT2_MAX_BLOCK_LOG_SIZE];
	struct iov_iter iter;
	struct kvec kv;
	uint32_t block;
	long n;
	int err;

	if (sbi->s_read_only)
		return -EROFS;
	if (EXT2_S_ISDIR(inode->i_raw.i_mode))
		return -EISDIR;
	if (!EXT2_S_ISREG(inode->i_raw.i_mode))
		return -EINVAL;
	if (size > max_blocks(sbi) << sbi->s_blocksize_bits)
		return -EFBIG;
	if (size < ext2_isize(inode)) {
		if (tail) {
			/* Zero the rest of the new last block, through the page
			 * cache (Linux's block_truncate_page): a later extension
			 * must read zeroes there. */
			err = ext2_get_block(inode, size >> sbi->s_blocksize_bits, false, &block, NULL);
			if (err)
				return err;
			if (block) {
				kv = (struct kvec){ (void *)zero_block, bs - tail };
				iov_iter_kvec(&iter, WRITE, &kv, 1, bs - tail);
				n = generic_perform_write(&inode->i_mapping, &iter, size);
				if (n < 0)
					return n;
			}
		}
		/* The new size first (Linux's truncate_setsize): freeing the
		 * blocks sleeps, and a writepage of the page holding the new
		 * end (the flusher, or reclaim) must meanwhile neither write
		 * nor allocate blocks past it, into indirect blocks being
		 * freed. */
		ext2_set_isize(inode, size);
		truncate_inode_pages(&inode->i_mapping, size);
		return free_blocks_from(inode, (size + bs - 1) >> sbi->s_blocksize_bits);
	}
	ext2_set_isize(inode, size);
	return 0;
}

/*
 * Drop the inode's extended-attribute block (written by Linux or mke2fs):
 * the block's header counts the inodes sharing it; the last one frees it.
 */
static int release_xattr_block(struct ext2_inode_info *inode)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	uint32_t block = inode->i_raw.i_file_acl, magic, refcount;
	struct buffer_head *bh;

	if (!block)
		return 0;
	if (!ext2_valid_block(sbi, block))
		return -EIO;
	bh = __bread(sbi->s_bdev, block, sbi->s_blocksize);
	if (!bh)
		return -EIO;
	memcpy(&magic, bh->b_data + EXT2_XATTR_MAGIC_OFF, sizeof(magic));
	memcpy(&refcount, bh->b_data + EXT2_XATTR_REFCOUNT_OFF, sizeof(refcount));
	if (magic != EXT2_XATTR_MAGIC || refcount == 0) {
		brelse(bh);
		pr_err("ext2: %s: inode %u: bad extended-attribute block %u\n",
		       sbi->s_bdev->name, inode->i_ino, block);
		return -EIO;
	}
	inode->i_raw.i_file_acl = 0;
	inode->i_raw.i_blocks -= sbi->s_blocksize >> 9;
	if (refcount > 1) {
		refcount--;
		memcpy(bh->b_data + EXT2_XATTR_REFCOUNT_OFF, &refcount, sizeof(refcount));
		mark_buffer_dirty(bh);
		brelse(bh);
		return 0;
	}
	brelse(bh);
	return ext2_free_block(sbi, block);
}

/* The last link is gone: give back the blocks and the inode. */
static void evict_inode(struct ext2_inode_info *inode)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	int err;

	truncate_inode_pages(&inode->i_mapping, 0);
	err = release_xattr_block(inode);
	/* No data blocks left to count: i_block[] may hold a fast symlink's
	 * text or a device number instead of block numbers. */
	if (!err && inode->i_raw.i_blocks)
		err = free_blocks_from(inode, 0);
	inode->i_raw.i_dtime = MAX(sbi->s_es->s_wtime, 1u);
	ext2_set_isize(inode, 0);
	if (!err)
		err = ext2_write_inode(inode);
	if (!err)
		err = ext2_free_inode(sbi, inode->i_ino, EXT2_S_ISDIR(inode->i_raw.i_mode));
	if (err)
		pr_err("ext2: %s: inode %u not freed (%d)\n", sbi->s_bdev->name, inode->i_ino, err);
}

/*
 * The last put writes the inode back or frees it, sleeping; meanwhile it
 * stays listed, marked i_freeing, so that ext2_iget() waits for it to go
 * instead of reviving it or reading a table copy older than it.
 */
void ext2_iput(struct ext2_inode_info *inode)
{
	if (--inode->i_count > 0)
		return;
	inode->i_freeing = true;
	if (inode->i_raw.i_links_count == 0 && !inode->i_sb->s_read_only) {
		evict_inode(inode);
	} else {
		/* The pages go with the in-core inode: write them first. */
		if (ext2_writeback_pages(inode))
			pr_err("ext2: %s: inode %u: file data not written\n",
			       inode->i_sb->s_bdev->name, inode->i_ino);
		truncate_inode_pages(&inode->i_mapping, 0);
		if (ext2_write_inode(inode))
			pr_err("ext2: %s: inode %u not written\n", inode->i_sb->s_bdev->name,
			       inode->i_ino);
	}
	list_del(&inode->i_list);
	wake_up(&ext2_freeing_wait);
	kfree(inode);
}
