/*
 * ext2: symbolic links (Linux's fs/ext2/symlink.c and the symlink half of
 * ext2_symlink in namei.c).
 *
 * A link's target is its data, i_size bytes without a NUL.  A short
 * target (under 60 bytes) is a "fast" symlink, kept in the inode itself
 * in place of the block map, i_block[]; a longer one (up to a block
 * less one byte) is a "slow" symlink whose target fills the start of
 * data block 0.  Linux tells them apart by whether the inode owns any
 * data block: i_blocks, less an extended-attribute block if it has one
 * (ext2_inode_is_fast_symlink).  A size that does not fit its kind, or
 * a slow link without its block, is corruption: -EIO with one line.
 *
 * Writing a target follows the same rule, so e2fsck (which wants the
 * byte after the target, in i_block[] or in the block, to be a NUL)
 * accepts both kinds: a fast target goes into the zeroed i_block[] of a
 * new inode; a slow one into a new data block, zeroed first, written
 * through the buffer cache, where readlink reads it.
 */
#include <fs/ext2.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

static bool ext2_fast_symlink(const struct ext2_inode_info *inode)
{
	uint32_t ea_blocks = inode->i_raw.i_file_acl ? inode->i_sb->s_blocksize >> SECTOR_SHIFT : 0;

	return inode->i_raw.i_blocks == ea_blocks;
}

long ext2_readlink(struct ext2_inode_info *inode, char *buf, size_t len)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	uint64_t size = ext2_isize(inode);
	size_t n = MIN(size, len);
	struct buffer_head *bh;
	uint32_t block;
	int err;

	if ((inode->i_raw.i_mode & EXT2_S_IFMT) != EXT2_S_IFLNK)
		return -EINVAL;
	if (ext2_fast_symlink(inode)) {
		if (size >= sizeof(inode->i_raw.i_block))
			goto corrupt;
		memcpy(buf, inode->i_raw.i_block, n);
		return n;
	}
	if (size >= sbi->s_blocksize)
		goto corrupt;
	err = ext2_get_block(inode, 0, false, &block, NULL);
	if (err)
		return err;
	if (!block)
		goto corrupt;
	bh = __bread(sbi->s_bdev, block, sbi->s_blocksize);
	if (!bh)
		return -EIO;
	memcpy(buf, bh->b_data, n);
	brelse(bh);
	return n;
corrupt:
	pr_err("ext2: %s: symlink %u: bad size %llu or block map\n", sbi->s_bdev->name,
	       inode->i_ino, (unsigned long long)size);
	return -EIO;
}

int ext2_write_symlink(struct ext2_inode_info *inode, const char *target)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	size_t len = strlen(target);
	struct buffer_head *bh;
	int err;

	if (len >= sbi->s_blocksize)
		return -ENAMETOOLONG;
	if (len < sizeof(inode->i_raw.i_block)) {
		memset(inode->i_raw.i_block, 0, sizeof(inode->i_raw.i_block));
		memcpy(inode->i_raw.i_block, target, len);
	} else {
		err = ext2_get_zeroed_block(inode, 0, &bh);
		if (err)
			return err;
		memcpy(bh->b_data, target, len);
		mark_buffer_dirty(bh);
		brelse(bh);
	}
	ext2_set_isize(inode, len);
	return 0;
}
