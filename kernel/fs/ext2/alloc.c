/*
 * ext2: allocating and freeing blocks and inodes (Linux's balloc.c and
 * ialloc.c in one file).
 *
 * Each group has one block of bitmap for its blocks and one for its
 * inodes; a set bit is in use.  Three counts describe the same facts and
 * must move together, or e2fsck complains: the bitmap bit, the group
 * descriptor's bg_free_*_count (and bg_used_dirs_count), and the
 * superblock's s_free_*_count.
 *
 * Allocation is first fit: from a goal (the block after the previous one
 * of the file, or the start of the inode's group) to the end of its group,
 * then around the other groups.  There is no preallocation and no
 * spreading of directories across groups; both are about speed, not
 * correctness.  A bitmap that disagrees with its free count, or hands out
 * a block of the group's own metadata, is corruption: -EIO.
 *
 * Sleeping.  Reading a bitmap block can sleep on the disk, and another
 * process may allocate or free in the same group meanwhile.  So every
 * decision is taken after the last sleep: the free count is tested again
 * once the bitmap is in, and the bit is found, set (test-and-set, never a
 * toggle) and counted in one stretch of code with no sleep in it; the
 * kernel is one CPU and never preempted, so that stretch is atomic.  A new
 * inode claims its bit before its slot in the inode table is read and
 * initialised (which sleeps), and gives the bit back if that fails: an
 * inode number is never handed out twice.  Freeing tests the bit after
 * the bitmap is read, in the same way.
 */
#include <fs/ext2.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

static bool test_bit(const uint8_t *map, uint32_t bit)
{
	return map[bit / 8] & (1u << (bit % 8));
}

static void set_bit(uint8_t *map, uint32_t bit)
{
	map[bit / 8] |= 1u << (bit % 8);
}

static void clear_bit(uint8_t *map, uint32_t bit)
{
	map[bit / 8] &= ~(1u << (bit % 8));
}

/* The first clear bit in [from, to), or to. */
static uint32_t find_zero(const uint8_t *map, uint32_t from, uint32_t to)
{
	uint32_t bit;

	for (bit = from; bit < to; bit++) {
		if (bit % 8 == 0 && map[bit / 8] == 0xff && bit + 8 <= to) {
			bit += 7;
			continue;
		}
		if (!test_bit(map, bit))
			return bit;
	}
	return to;
}

static uint32_t group_first_block(const struct ext2_sb_info *sbi, unsigned int g)
{
	return sbi->s_first_data_block + g * sbi->s_blocks_per_group;
}

/* Is block one of group g's bitmaps or inode table blocks? */
static bool group_metadata(const struct ext2_group_desc *gd, const struct ext2_sb_info *sbi,
			   uint32_t block)
{
	return block == gd->bg_block_bitmap || block == gd->bg_inode_bitmap ||
	       (block >= gd->bg_inode_table && block < gd->bg_inode_table + sbi->s_itb_per_group);
}

static struct buffer_head *read_bitmap(struct ext2_sb_info *sbi, uint32_t block)
{
	struct buffer_head *bh = __bread(sbi->s_bdev, block, sbi->s_blocksize);

	if (!bh)
		pr_err("ext2: %s: cannot read bitmap block %u\n", sbi->s_bdev->name, block);
	return bh;
}

/*
 * Take one block from group g, searching from bit start: 0 with *block set,
 * or with *block 0 when the group is full.  The free count is tested
 * again after the bitmap is read (a sleep): another process may have
 * taken the group's last block meanwhile.
 */
static int alloc_in_group(struct ext2_sb_info *sbi, unsigned int g, uint32_t start,
			  uint32_t *block)
{
	struct buffer_head *gdbh, *bh;
	struct ext2_group_desc *gd = ext2_group_desc(sbi, g, &gdbh);
	uint32_t first = group_first_block(sbi, g);
	uint32_t n = MIN(sbi->s_blocks_per_group, sbi->s_blocks_count - first);
	uint32_t bit;

	*block = 0;
	if (!gd->bg_free_blocks_count)
		return 0;
	bh = read_bitmap(sbi, gd->bg_block_bitmap);
	if (!bh)
		return -EIO;
	/* From here to the return nothing sleeps: find, set and count. */
	if (!gd->bg_free_blocks_count) {
		brelse(bh);
		return 0;
	}
	bit = find_zero((uint8_t *)bh->b_data, start, n);
	if (bit == n)
		bit = find_zero((uint8_t *)bh->b_data, 0, start);
	if (bit >= n || group_metadata(gd, sbi, first + bit)) {
		pr_err("ext2: %s: group %u block bitmap disagrees with its free count\n",
		       sbi->s_bdev->name, g);
		brelse(bh);
		return -EIO;
	}
	set_bit((uint8_t *)bh->b_data, bit);
	mark_buffer_dirty(bh);
	brelse(bh);
	gd->bg_free_blocks_count--;
	mark_buffer_dirty(gdbh);
	if (sbi->s_es->s_free_blocks_count)
		sbi->s_es->s_free_blocks_count--;
	ext2_sb_dirty(sbi);
	*block = first + bit;
	return 0;
}

int ext2_new_block(struct ext2_sb_info *sbi, uint32_t goal, uint32_t *block)
{
	unsigned int i, g, g0;
	uint32_t start;
	int err;

	if (!ext2_valid_block(sbi, goal))
		goal = sbi->s_first_data_block;
	g0 = (goal - sbi->s_first_data_block) / sbi->s_blocks_per_group;
	for (i = 0; i < sbi->s_groups_count; i++) {
		g = (g0 + i) % sbi->s_groups_count;
		start = i == 0 ? goal - group_first_block(sbi, g) : 0;
		err = alloc_in_group(sbi, g, start, block);
		if (err || *block)
			return err;
	}
	return -ENOSPC;
}

int ext2_free_block(struct ext2_sb_info *sbi, uint32_t block)
{
	struct buffer_head *gdbh, *bh;
	struct ext2_group_desc *gd;
	unsigned int g;
	uint32_t bit;

	if (!ext2_valid_block(sbi, block)) {
		pr_err("ext2: %s: freeing block %u out of range\n", sbi->s_bdev->name, block);
		return -EIO;
	}
	g = (block - sbi->s_first_data_block) / sbi->s_blocks_per_group;
	bit = block - group_first_block(sbi, g);
	gd = ext2_group_desc(sbi, g, &gdbh);
	if (group_metadata(gd, sbi, block)) {
		pr_err("ext2: %s: freeing metadata block %u\n", sbi->s_bdev->name, block);
		return -EIO;
	}
	bh = read_bitmap(sbi, gd->bg_block_bitmap);
	if (!bh)
		return -EIO;
	/* The bit is tested after the read's sleep, and cleared with it. */
	if (!test_bit((uint8_t *)bh->b_data, bit)) {
		pr_err("ext2: %s: freeing free block %u\n", sbi->s_bdev->name, block);
		brelse(bh);
		return -EIO;
	}
	clear_bit((uint8_t *)bh->b_data, bit);
	mark_buffer_dirty(bh);
	brelse(bh);
	gd->bg_free_blocks_count++;
	mark_buffer_dirty(gdbh);
	sbi->s_es->s_free_blocks_count++;
	ext2_sb_dirty(sbi);
	return 0;
}

/* Zero inode ino's slot in the inode table and give it mode, one link. */
static int init_inode(struct ext2_sb_info *sbi, struct ext2_group_desc *gd, uint32_t ino,
		      unsigned int mode)
{
	uint32_t index = (ino - 1) % sbi->s_inodes_per_group;
	uint32_t block = gd->bg_inode_table + index / sbi->s_inodes_per_block;
	struct ext2_inode_large_tail *tail;
	struct buffer_head *bh;
	struct ext2_inode *raw;
	uint32_t now = sbi->s_es->s_wtime;

	bh = __bread(sbi->s_bdev, block, sbi->s_blocksize);
	if (!bh)
		return -EIO;
	raw = (struct ext2_inode *)(bh->b_data +
				    (index % sbi->s_inodes_per_block) * sbi->s_inode_size);
	memset(raw, 0, sbi->s_inode_size);
	raw->i_mode = mode;
	raw->i_links_count = 1;
	raw->i_atime = raw->i_ctime = raw->i_mtime = now;
	if (sbi->s_inode_size > EXT2_GOOD_OLD_INODE_SIZE) {
		/* As mke2fs does: room for the extended timestamps. */
		tail = (struct ext2_inode_large_tail *)(raw + 1);
		tail->i_extra_isize = MIN(32u, sbi->s_inode_size - EXT2_GOOD_OLD_INODE_SIZE);
	}
	mark_buffer_dirty(bh);
	brelse(bh);
	return 0;
}

/*
 * Claim a free inode of group g: set its bit and take it off the counts,
 * all after the bitmap's read (the only sleep), so no other process can
 * claim the same bit.  0 with *bit set; -ENOSPC when the group turned out
 * full meanwhile; -EIO.
 */
static int claim_inode_in_group(struct ext2_sb_info *sbi, unsigned int g, bool is_dir,
				uint32_t *bit)
{
	struct buffer_head *gdbh, *bh;
	struct ext2_group_desc *gd = ext2_group_desc(sbi, g, &gdbh);
	uint32_t start = g == 0 ? sbi->s_first_ino - 1 : 0;

	bh = read_bitmap(sbi, gd->bg_inode_bitmap);
	if (!bh)
		return -EIO;
	/* From here to the return nothing sleeps. */
	if (!gd->bg_free_inodes_count) {
		brelse(bh);
		return -ENOSPC;
	}
	*bit = find_zero((uint8_t *)bh->b_data, start, sbi->s_inodes_per_group);
	if (*bit == sbi->s_inodes_per_group) {
		pr_err("ext2: %s: group %u inode bitmap disagrees with its free count\n",
		       sbi->s_bdev->name, g);
		brelse(bh);
		return -EIO;
	}
	set_bit((uint8_t *)bh->b_data, *bit);
	mark_buffer_dirty(bh);
	brelse(bh);
	gd->bg_free_inodes_count--;
	if (is_dir)
		gd->bg_used_dirs_count++;
	mark_buffer_dirty(gdbh);
	if (sbi->s_es->s_free_inodes_count)
		sbi->s_es->s_free_inodes_count--;
	ext2_sb_dirty(sbi);
	return 0;
}

int ext2_new_inode(struct ext2_inode_info *dir, unsigned int mode, uint32_t *ino)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	struct buffer_head *gdbh;
	struct ext2_group_desc *gd;
	unsigned int i, g;
	uint32_t bit;
	int err;

	for (i = 0; i < sbi->s_groups_count; i++) {
		g = ((dir->i_ino - 1) / sbi->s_inodes_per_group + i) % sbi->s_groups_count;
		gd = ext2_group_desc(sbi, g, &gdbh);
		if (!gd->bg_free_inodes_count)
			continue;
		err = claim_inode_in_group(sbi, g, EXT2_S_ISDIR(mode), &bit);
		if (err == -ENOSPC)
			continue;
		if (err)
			return err;
		/* The bit is ours: initialising the slot may sleep now. */
		*ino = g * sbi->s_inodes_per_group + bit + 1;
		err = init_inode(sbi, gd, *ino, mode);
		if (err)
			ext2_free_inode(sbi, *ino, EXT2_S_ISDIR(mode));
		return err;
	}
	return -ENOSPC;
}

int ext2_free_inode(struct ext2_sb_info *sbi, uint32_t ino, bool is_dir)
{
	struct buffer_head *gdbh, *bh;
	struct ext2_group_desc *gd;
	unsigned int g;
	uint32_t bit;

	if (ino < sbi->s_first_ino || ino > sbi->s_inodes_count) {
		pr_err("ext2: %s: freeing reserved or bad inode %u\n", sbi->s_bdev->name, ino);
		return -EIO;
	}
	g = (ino - 1) / sbi->s_inodes_per_group;
	bit = (ino - 1) % sbi->s_inodes_per_group;
	gd = ext2_group_desc(sbi, g, &gdbh);
	bh = read_bitmap(sbi, gd->bg_inode_bitmap);
	if (!bh)
		return -EIO;
	/* The bit is tested after the read's sleep, and cleared with it. */
	if (!test_bit((uint8_t *)bh->b_data, bit)) {
		pr_err("ext2: %s: freeing free inode %u\n", sbi->s_bdev->name, ino);
		brelse(bh);
		return -EIO;
	}
	clear_bit((uint8_t *)bh->b_data, bit);
	mark_buffer_dirty(bh);
	brelse(bh);
	gd->bg_free_inodes_count++;
	if (is_dir && gd->bg_used_dirs_count)
		gd->bg_used_dirs_count--;
	mark_buffer_dirty(gdbh);
	sbi->s_es->s_free_inodes_count++;
	ext2_sb_dirty(sbi);
	return 0;
}
