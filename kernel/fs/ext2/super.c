/*
 * ext2: mounting, the group descriptors, sync and unmount.
 *
 * Mounting reads the superblock at byte 1024 through a 1 KiB buffer (every
 * block size allows that), learns the block size, and reads it again as
 * part of a real block, which stays held for the life of the mount, as do
 * the blocks of the group descriptor table.  Everything the rest of the
 * driver trusts is checked here once: the geometry adds up, each group's
 * bitmaps and inode table lie inside the group, and the root is a
 * directory.  What is checked later, where it is used, is everything that
 * changes: block numbers in inodes and indirect blocks, inode numbers and
 * records in directories.
 *
 * Errors: a volume that is not ext2 or needs a feature Pageturn lacks gives
 * -EINVAL; one that claims to be ext2 but does not add up gives -EIO.
 * Each failure prints one line naming the device and the reason.
 * INCOMPAT features other than FILETYPE refuse the mount; unknown
 * RO_COMPAT features mount read-only, as Linux does.
 */
#include <fs/ext2.h>
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

bool ext2_valid_block(const struct ext2_sb_info *sbi, uint32_t block)
{
	return block >= sbi->s_first_data_block && block < sbi->s_blocks_count;
}

struct ext2_group_desc *ext2_group_desc(struct ext2_sb_info *sbi, unsigned int group,
					struct buffer_head **bh)
{
	unsigned int blk = group / sbi->s_desc_per_block;
	unsigned int idx = group % sbi->s_desc_per_block;

	*bh = sbi->s_group_desc[blk];
	return (struct ext2_group_desc *)(*bh)->b_data + idx;
}

void ext2_sb_dirty(struct ext2_sb_info *sbi)
{
	mark_buffer_dirty(sbi->s_sbh);
}

/* First block of group g and the number of blocks in it. */
static void group_range(const struct ext2_sb_info *sbi, unsigned int g,
			uint32_t *first, uint32_t *count)
{
	*first = sbi->s_first_data_block + g * sbi->s_blocks_per_group;
	*count = MIN(sbi->s_blocks_per_group, sbi->s_blocks_count - *first);
}

/* Each group's bitmaps and inode table must lie inside the group. */
static bool check_descriptors(struct ext2_sb_info *sbi)
{
	struct ext2_group_desc *gd;
	struct buffer_head *bh;
	uint32_t first, count;
	unsigned int g;

	for (g = 0; g < sbi->s_groups_count; g++) {
		gd = ext2_group_desc(sbi, g, &bh);
		group_range(sbi, g, &first, &count);
		if (gd->bg_block_bitmap < first || gd->bg_block_bitmap >= first + count ||
		    gd->bg_inode_bitmap < first || gd->bg_inode_bitmap >= first + count ||
		    gd->bg_inode_table < first ||
		    gd->bg_inode_table + sbi->s_itb_per_group > first + count) {
			pr_err("ext2: %s: group %u descriptor points outside its group\n",
			       sbi->s_bdev->name, g);
			return false;
		}
	}
	return true;
}

/* Fill sbi from the superblock es; -EIO when the numbers do not add up. */
static int read_geometry(struct ext2_sb_info *sbi, struct ext2_super_block *es)
{
	const char *name = sbi->s_bdev->name;
	uint64_t dev_blocks = sbi->s_bdev->nr_sectors >> (sbi->s_blocksize_bits - SECTOR_SHIFT);
	unsigned int bits = sbi->s_blocksize * 8;

	sbi->s_blocks_per_group = es->s_blocks_per_group;
	sbi->s_inodes_per_group = es->s_inodes_per_group;
	sbi->s_first_data_block = es->s_first_data_block;
	sbi->s_blocks_count = es->s_blocks_count;
	sbi->s_inodes_count = es->s_inodes_count;
	if (es->s_rev_level == EXT2_GOOD_OLD_REV) {
		sbi->s_inode_size = EXT2_GOOD_OLD_INODE_SIZE;
		sbi->s_first_ino = EXT2_GOOD_OLD_FIRST_INO;
	} else {
		sbi->s_inode_size = es->s_inode_size;
		sbi->s_first_ino = es->s_first_ino;
	}
	if (sbi->s_inode_size < EXT2_GOOD_OLD_INODE_SIZE || sbi->s_inode_size > sbi->s_blocksize ||
	    (sbi->s_inode_size & (sbi->s_inode_size - 1))) {
		pr_err("ext2: %s: bad inode size %u\n", name, sbi->s_inode_size);
		return -EIO;
	}
	sbi->s_inodes_per_block = sbi->s_blocksize / sbi->s_inode_size;
	sbi->s_addr_per_block = sbi->s_blocksize / sizeof(uint32_t);
	sbi->s_addr_per_block_bits = sbi->s_blocksize_bits - 2;
	sbi->s_desc_per_block = sbi->s_blocksize / sizeof(struct ext2_group_desc);
	if (sbi->s_first_data_block != (sbi->s_blocksize == EXT2_MIN_BLOCK_SIZE ? 1u : 0u) ||
	    sbi->s_blocks_per_group < 8 || sbi->s_blocks_per_group > bits ||
	    sbi->s_inodes_per_group < sbi->s_inodes_per_block ||
	    sbi->s_inodes_per_group > bits ||
	    sbi->s_inodes_per_group % sbi->s_inodes_per_block ||
	    sbi->s_blocks_count <= sbi->s_first_data_block + 1 ||
	    sbi->s_blocks_count > dev_blocks) {
		pr_err("ext2: %s: corrupt superblock geometry\n", name);
		return -EIO;
	}
	sbi->s_itb_per_group = sbi->s_inodes_per_group / sbi->s_inodes_per_block;
	sbi->s_groups_count = (sbi->s_blocks_count - sbi->s_first_data_block +
			       sbi->s_blocks_per_group - 1) / sbi->s_blocks_per_group;
	sbi->s_gdb_count = (sbi->s_groups_count + sbi->s_desc_per_block - 1) /
			   sbi->s_desc_per_block;
	if ((uint64_t)sbi->s_groups_count * sbi->s_inodes_per_group != sbi->s_inodes_count ||
	    sbi->s_first_ino <= EXT2_ROOT_INO || sbi->s_first_ino >= sbi->s_inodes_count ||
	    sbi->s_first_data_block + 1 + sbi->s_gdb_count > sbi->s_blocks_count) {
		pr_err("ext2: %s: corrupt superblock counts\n", name);
		return -EIO;
	}
	return 0;
}

/* Is the superblock in bh one this driver can mount?  0 or -EINVAL. */
static int check_super(struct block_device *bdev, const struct ext2_super_block *es)
{
	uint32_t unsupported;

	if (es->s_magic != EXT2_SUPER_MAGIC) {
		pr_err("ext2: %s: no ext2 filesystem (bad magic %#x)\n", bdev->name, es->s_magic);
		return -EINVAL;
	}
	if (es->s_log_block_size > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE ||
	    (EXT2_MIN_BLOCK_SIZE << es->s_log_block_size) < bdev->sector_size) {
		pr_err("ext2: %s: unsupported block size (log %u)\n", bdev->name,
		       es->s_log_block_size);
		return -EINVAL;
	}
	if (es->s_rev_level > EXT2_DYNAMIC_REV) {
		pr_err("ext2: %s: unsupported revision %u\n", bdev->name, es->s_rev_level);
		return -EINVAL;
	}
	unsupported = es->s_rev_level == EXT2_GOOD_OLD_REV ? 0 :
		      es->s_feature_incompat & ~EXT2_FEATURE_INCOMPAT_SUPP;
	if (unsupported) {
		pr_err("ext2: %s: unsupported INCOMPAT features %#x, not mounting\n",
		       bdev->name, unsupported);
		return -EINVAL;
	}
	return 0;
}

/* Read the superblock into sbi (held in s_sbh): 0 or -errno. */
static int read_super(struct ext2_sb_info *sbi)
{
	struct block_device *bdev = sbi->s_bdev;
	struct buffer_head *bh;
	unsigned int log;
	int err;

	bh = __bread(bdev, EXT2_SUPERBLOCK_OFFSET / EXT2_MIN_BLOCK_SIZE, EXT2_MIN_BLOCK_SIZE);
	if (!bh) {
		pr_err("ext2: %s: cannot read the superblock\n", bdev->name);
		return -EIO;
	}
	err = check_super(bdev, (struct ext2_super_block *)bh->b_data);
	log = ((struct ext2_super_block *)bh->b_data)->s_log_block_size;
	brelse(bh);
	if (err)
		return err;
	sbi->s_blocksize_bits = EXT2_MIN_BLOCK_LOG_SIZE + log;
	sbi->s_blocksize = 1u << sbi->s_blocksize_bits;
	sbi->s_sbh = __bread(bdev, EXT2_SUPERBLOCK_OFFSET / sbi->s_blocksize, sbi->s_blocksize);
	if (!sbi->s_sbh) {
		pr_err("ext2: %s: cannot read the superblock\n", bdev->name);
		return -EIO;
	}
	sbi->s_es = (struct ext2_super_block *)(sbi->s_sbh->b_data +
						EXT2_SUPERBLOCK_OFFSET % sbi->s_blocksize);
	/* The block may have changed under the 1 KiB alias: check again. */
	err = check_super(bdev, sbi->s_es);
	if (!err && sbi->s_es->s_log_block_size != log)
		err = -EIO;
	return err;
}

static void release_super(struct ext2_sb_info *sbi)
{
	unsigned int i;

	if (sbi->s_group_desc) {
		for (i = 0; i < sbi->s_gdb_count; i++)
			brelse(sbi->s_group_desc[i]);
		kfree(sbi->s_group_desc);
	}
	brelse(sbi->s_sbh);
	invalidate_bdev(sbi->s_bdev);
	kfree(sbi);
}

struct ext2_sb_info *ext2_mount(struct block_device *bdev, int *err)
{
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi;
	struct ext2_super_block *es;
	uint32_t ro;
	unsigned int i;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi) {
		*err = -ENOMEM;
		return NULL;
	}
	sbi->s_bdev = bdev;
	INIT_LIST_HEAD(&sbi->s_inodes);
	*err = read_super(sbi);
	if (*err)
		goto fail;
	es = sbi->s_es;
	*err = read_geometry(sbi, es);
	if (*err)
		goto fail;
	sbi->s_group_desc = kzalloc(sbi->s_gdb_count * sizeof(*sbi->s_group_desc), GFP_KERNEL);
	if (!sbi->s_group_desc) {
		*err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < sbi->s_gdb_count; i++) {
		sbi->s_group_desc[i] = __bread(bdev, sbi->s_first_data_block + 1 + i,
					       sbi->s_blocksize);
		if (!sbi->s_group_desc[i]) {
			pr_err("ext2: %s: cannot read group descriptors\n", bdev->name);
			*err = -EIO;
			goto fail;
		}
	}
	if (!check_descriptors(sbi)) {
		*err = -EIO;
		goto fail;
	}
	if (es->s_rev_level == EXT2_DYNAMIC_REV) {
		sbi->s_filetype = es->s_feature_incompat & EXT2_FEATURE_INCOMPAT_FILETYPE;
		ro = es->s_feature_ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP;
		if (ro) {
			pr_warn("ext2: %s: unknown RO_COMPAT features %#x, mounting read-only\n",
				bdev->name, ro);
			sbi->s_read_only = true;
		}
	}
	if (bdev->read_only)
		sbi->s_read_only = true;
	root = ext2_iget(sbi, EXT2_ROOT_INO, err);
	if (!root)
		goto fail;
	if (!EXT2_S_ISDIR(root->i_raw.i_mode)) {
		pr_err("ext2: %s: the root inode is not a directory\n", bdev->name);
		*err = -EIO;
	}
	ext2_iput(root);
	if (*err)
		goto fail;
	return sbi;
fail:
	release_super(sbi);
	return NULL;
}

/* The first inode from pos on (a position in s_inodes) not being freed,
 * referenced, or NULL. */
static struct ext2_inode_info *hold_next(struct ext2_sb_info *sbi, struct list_head *pos)
{
	struct ext2_inode_info *inode;

	for (; pos != &sbi->s_inodes; pos = pos->next) {
		inode = list_entry(pos, struct ext2_inode_info, i_list);
		if (!inode->i_freeing) {
			inode->i_count++;
			return inode;
		}
	}
	return NULL;
}

/*
 * Writing an inode's pages and the inode sleeps, and another process may
 * put the inode, or the next one, meanwhile.  So each walk holds the
 * inode it writes, and holds the next before it lets go of the current
 * one (a put that was the last writes or frees the inode, and sleeps).
 * Inodes added meanwhile go to the head of the list and are left for the
 * next sync.
 *
 * File data first, every inode's: writing it back may allocate blocks
 * and so change inodes and bitmaps, and it must land after any stale
 * buffer of a block that was metadata before (ext2_writeback_pages).
 * Then the inodes are copied into their inode table buffers, and one
 * sync_blockdev() writes all the metadata at once, so an inode table
 * block holding several changed inodes is written once, and neighbouring
 * blocks go out as merged requests.
 */
int ext2_sync(struct ext2_sb_info *sbi)
{
	struct ext2_inode_info *inode, *next;
	int err = 0, e, pass;

	for (pass = 0; pass < 2; pass++) {
		for (inode = hold_next(sbi, sbi->s_inodes.next); inode; inode = next) {
			e = pass == 0 ? ext2_writeback_pages(inode) : ext2_write_inode(inode);
			if (e && !err)
				err = e;
			next = hold_next(sbi, inode->i_list.next);
			ext2_iput(inode);
		}
	}
	e = sync_blockdev(sbi->s_bdev);
	return err ? err : e;
}

int ext2_unmount(struct ext2_sb_info *sbi)
{
	int err;

	if (!list_empty(&sbi->s_inodes))
		return -EBUSY;
	err = ext2_sync(sbi);
	release_super(sbi);
	return err;
}
