/*
 * ext2: directories as lists of records (Linux's dir.c).
 *
 * A directory's blocks hold ext2_dir_entry_2 records; rec_len chains them
 * and the last one of a block runs to the block's end.  Every block is
 * checked as a whole when it is read (read_dir_block): each record at
 * least 12 bytes, 4-aligned, inside the block, long enough for its name,
 * and naming an inode number in range.  After that the walks below cannot
 * run off a block or stall on a zero rec_len.  A directory whose size is
 * not a whole number of blocks, or with a hole, is corrupt too.
 *
 * Adding an entry takes the first record with room: an unused one, or the
 * slack at the end of a used one, which is split.  If no block has room,
 * the directory grows by a block holding one empty record.  Deleting an
 * entry merges it into the record before it in the same block (or, first
 * in its block, marks it unused), as Linux does.  The hashed-directory
 * flag is cleared on any change: the driver never maintains the index.
 *
 * Sleeping.  Reading each block sleeps on the disk.  A record found is
 * changed before the next sleep (find_dirent returns with no sleep after
 * the block's read), so it is still what was found; and every change of
 * a directory (ext2_add_link, ext2_delete_entry, ext2_set_link, growing)
 * comes from namei.c with the filesystem's names locked, so the search for
 * room, the decision to grow and the directory's size stay true across
 * the sleeps of one change.  Readers (ext2_lookup, ext2_readdir) take no
 * lock: each sees every block as it was between two changes.
 */
#include <fs/ext2.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define next_dirent(de) \
	((struct ext2_dir_entry_2 *)((char *)(de) + (de)->rec_len))

int ext2_check_name(const char *name)
{
	size_t len = strnlen(name, EXT2_NAME_LEN + 1);

	if (len == 0)
		return -ENOENT;
	if (len > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	if (memchr(name, '/', len))
		return -EINVAL;
	return 0;
}

static unsigned int file_type(const struct ext2_sb_info *sbi, unsigned int mode)
{
	static const uint8_t types[16] = {
		[EXT2_S_IFREG >> 12] = EXT2_FT_REG_FILE,
		[EXT2_S_IFDIR >> 12] = EXT2_FT_DIR,
		[EXT2_S_IFCHR >> 12] = EXT2_FT_CHRDEV,
		[EXT2_S_IFBLK >> 12] = EXT2_FT_BLKDEV,
		[EXT2_S_IFIFO >> 12] = EXT2_FT_FIFO,
		[EXT2_S_IFSOCK >> 12] = EXT2_FT_SOCK,
		[EXT2_S_IFLNK >> 12] = EXT2_FT_SYMLINK,
	};

	return sbi->s_filetype ? types[(mode & EXT2_S_IFMT) >> 12] : EXT2_FT_UNKNOWN;
}

/* The number of blocks of dir, or -EIO for a size that is not whole blocks. */
static long dir_blocks(struct ext2_inode_info *dir)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	uint64_t size = ext2_isize(dir);

	if (size & (sbi->s_blocksize - 1)) {
		pr_err("ext2: %s: directory %u has size %llu, not whole blocks\n",
		       sbi->s_bdev->name, dir->i_ino, (unsigned long long)size);
		return -EIO;
	}
	return size >> sbi->s_blocksize_bits;
}

/* Read block lblk of dir and check every record in it. */
static int read_dir_block(struct ext2_inode_info *dir, uint64_t lblk, struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	unsigned int offs, bs = sbi->s_blocksize;
	uint32_t block;
	int err;

	err = ext2_get_block(dir, lblk, false, &block, NULL);
	if (err)
		return err;
	if (!block) {
		pr_err("ext2: %s: directory %u has a hole at block %llu\n",
		       sbi->s_bdev->name, dir->i_ino, (unsigned long long)lblk);
		return -EIO;
	}
	bh = __bread(sbi->s_bdev, block, bs);
	if (!bh)
		return -EIO;
	for (offs = 0; offs < bs; offs += de->rec_len) {
		de = (struct ext2_dir_entry_2 *)(bh->b_data + offs);
		if (offs + 8 > bs || de->rec_len < EXT2_DIR_REC_LEN(1) || de->rec_len % 4 ||
		    de->rec_len > bs - offs ||
		    (de->inode && (de->name_len == 0 ||
				   EXT2_DIR_REC_LEN(de->name_len) > de->rec_len ||
				   de->inode > sbi->s_inodes_count))) {
			pr_err("ext2: %s: directory %u block %llu: bad entry at offset %u\n",
			       sbi->s_bdev->name, dir->i_ino, (unsigned long long)lblk, offs);
			brelse(bh);
			return -EIO;
		}
	}
	*bhp = bh;
	return 0;
}

static bool name_is(const struct ext2_dir_entry_2 *de, const char *name, size_t len)
{
	return de->inode && de->name_len == len && !memcmp(de->name, name, len);
}

typedef bool (*dirent_match_t)(const struct ext2_dir_entry_2 *de, void *arg);

/*
 * Walk the records of dir, block by block (each checked whole by
 * read_dir_block, so the walk stays inside the block), for the first one
 * match accepts: 0 with *bhp held, *dep the record and *prevp (if not
 * NULL) the one before it in its block (NULL if first); -ENOENT if none
 * matches, or -EIO.
 */
static int find_dirent(struct ext2_inode_info *dir, dirent_match_t match, void *arg,
		       struct buffer_head **bhp, struct ext2_dir_entry_2 **dep,
		       struct ext2_dir_entry_2 **prevp)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	struct ext2_dir_entry_2 *de, *prev, *end;
	struct buffer_head *bh;
	long lblk, n = dir_blocks(dir);
	int err;

	if (n < 0)
		return n;
	for (lblk = 0; lblk < n; lblk++) {
		err = read_dir_block(dir, lblk, &bh);
		if (err)
			return err;
		end = (struct ext2_dir_entry_2 *)(bh->b_data + sbi->s_blocksize);
		for (prev = NULL, de = (struct ext2_dir_entry_2 *)bh->b_data; de < end;
		     prev = de, de = next_dirent(de)) {
			if (match(de, arg)) {
				*bhp = bh;
				*dep = de;
				if (prevp)
					*prevp = prev;
				return 0;
			}
		}
		brelse(bh);
	}
	return -ENOENT;
}

struct name_arg {
	const char *name;
	size_t len;
};

static bool match_name(const struct ext2_dir_entry_2 *de, void *arg)
{
	const struct name_arg *na = arg;

	return name_is(de, na->name, na->len);
}

/* Find name in dir, as find_dirent; -ENOTDIR if dir is no directory. */
static int find_entry(struct ext2_inode_info *dir, const char *name, struct buffer_head **bhp,
		      struct ext2_dir_entry_2 **dep, struct ext2_dir_entry_2 **prevp)
{
	struct name_arg na = { name, strlen(name) };

	if (!EXT2_S_ISDIR(dir->i_raw.i_mode))
		return -ENOTDIR;
	return find_dirent(dir, match_name, &na, bhp, dep, prevp);
}

int ext2_lookup(struct ext2_inode_info *dir, const char *name, uint32_t *ino)
{
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	int err = ext2_check_name(name);

	if (err)
		return err;
	err = find_entry(dir, name, &bh, &de, NULL);
	if (err)
		return err;
	*ino = de->inode;
	brelse(bh);
	return 0;
}

int ext2_readdir(struct ext2_inode_info *dir, uint64_t *pos, ext2_filldir_t filldir, void *ctx)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	unsigned int bs = sbi->s_blocksize, offs;
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	long n = dir_blocks(dir);
	uint64_t lblk;
	int err;

	if (!EXT2_S_ISDIR(dir->i_raw.i_mode))
		return -ENOTDIR;
	if (n < 0)
		return n;
	for (lblk = *pos >> sbi->s_blocksize_bits; lblk < (uint64_t)n; lblk++) {
		err = read_dir_block(dir, lblk, &bh);
		if (err)
			return err;
		for (offs = 0; offs < bs; offs += de->rec_len) {
			de = (struct ext2_dir_entry_2 *)(bh->b_data + offs);
			/* Skip records before *pos (a record boundary, unless
			 * the directory changed since). */
			if ((lblk << sbi->s_blocksize_bits) + offs < *pos)
				continue;
			if (de->inode && filldir(ctx, de->name, de->name_len, de->inode,
						 sbi->s_filetype ? de->file_type : EXT2_FT_UNKNOWN)) {
				brelse(bh);
				return 0;
			}
			*pos = (lblk << sbi->s_blocksize_bits) + offs + de->rec_len;
		}
		brelse(bh);
	}
	return 0;
}

/* Clear the hash index flag and note the change. */
static void dir_changed(struct ext2_inode_info *dir)
{
	dir->i_raw.i_flags &= ~EXT2_INDEX_FL;
	dir->i_raw.i_mtime = dir->i_raw.i_ctime = dir->i_sb->s_es->s_wtime;
	ext2_mark_inode_dirty(dir);
}

/* Grow dir by one block holding a single unused record. */
static int grow_dir(struct ext2_inode_info *dir, uint64_t lblk, struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	int err;

	err = ext2_get_zeroed_block(dir, lblk, &bh);
	if (err)
		return err;
	de = (struct ext2_dir_entry_2 *)bh->b_data;
	de->rec_len = sbi->s_blocksize;
	mark_buffer_dirty(bh);
	ext2_set_isize(dir, (lblk + 1) << sbi->s_blocksize_bits);
	*bhp = bh;
	return 0;
}

struct room_arg {
	unsigned int need;	/* the record length of the new entry */
	unsigned int used;	/* of the record last looked at: what its entry takes */
};

/* Has de room for the new entry: unused, or with slack enough after its own? */
static bool has_room(const struct ext2_dir_entry_2 *de, void *arg)
{
	struct room_arg *ra = arg;

	ra->used = de->inode ? EXT2_DIR_REC_LEN(de->name_len) : 0;
	return de->rec_len >= ra->used + ra->need;
}

int ext2_add_link(struct ext2_inode_info *dir, const char *name, uint32_t ino,
		  unsigned int mode)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	size_t len = strlen(name);
	struct room_arg ra = { EXT2_DIR_REC_LEN(len), 0 };
	struct ext2_dir_entry_2 *de, *tail;
	struct buffer_head *bh;
	int err = find_dirent(dir, has_room, &ra, &bh, &de, NULL);

	if (err == -ENOENT) {
		/* No room: grow by a block (the size is whole blocks, checked). */
		err = grow_dir(dir, ext2_isize(dir) >> sbi->s_blocksize_bits, &bh);
		if (err)
			return err;
		de = (struct ext2_dir_entry_2 *)bh->b_data;
		ra.used = 0;
	} else if (err) {
		return err;
	}
	if (ra.used) {
		tail = (struct ext2_dir_entry_2 *)((char *)de + ra.used);
		tail->rec_len = de->rec_len - ra.used;
		de->rec_len = ra.used;
		de = tail;
	}
	de->inode = ino;
	de->name_len = len;
	de->file_type = file_type(sbi, mode);
	memcpy(de->name, name, len);
	mark_buffer_dirty(bh);
	brelse(bh);
	dir_changed(dir);
	return 0;
}

int ext2_delete_entry(struct ext2_inode_info *dir, const char *name)
{
	struct ext2_dir_entry_2 *de, *prev;
	struct buffer_head *bh;
	int err = find_entry(dir, name, &bh, &de, &prev);

	if (err)
		return err;
	if (prev)
		prev->rec_len += de->rec_len;
	else
		de->inode = 0;
	mark_buffer_dirty(bh);
	brelse(bh);
	dir_changed(dir);
	return 0;
}

int ext2_set_link(struct ext2_inode_info *dir, const char *name, uint32_t ino,
		  unsigned int mode)
{
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	int err = find_entry(dir, name, &bh, &de, NULL);

	if (err)
		return err;
	de->inode = ino;
	de->file_type = file_type(dir->i_sb, mode);
	mark_buffer_dirty(bh);
	brelse(bh);
	dir_changed(dir);
	return 0;
}

int ext2_make_empty(struct ext2_inode_info *inode, uint32_t parent)
{
	struct ext2_sb_info *sbi = inode->i_sb;
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	int err = grow_dir(inode, 0, &bh);

	if (err)
		return err;
	de = (struct ext2_dir_entry_2 *)bh->b_data;
	de->inode = inode->i_ino;
	de->rec_len = EXT2_DIR_REC_LEN(1);
	de->name_len = 1;
	de->file_type = file_type(sbi, EXT2_S_IFDIR);
	memcpy(de->name, ".", 1);
	de = next_dirent(de);
	de->inode = parent;
	de->rec_len = sbi->s_blocksize - EXT2_DIR_REC_LEN(1);
	de->name_len = 2;
	de->file_type = file_type(sbi, EXT2_S_IFDIR);
	memcpy(de->name, "..", 2);
	mark_buffer_dirty(bh);
	brelse(bh);
	return 0;
}

static bool not_dot(const struct ext2_dir_entry_2 *de, void *arg)
{
	(void)arg;
	return de->inode && !name_is(de, ".", 1) && !name_is(de, "..", 2);
}

int ext2_empty_dir(struct ext2_inode_info *inode)
{
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	int err = find_dirent(inode, not_dot, NULL, &bh, &de, NULL);

	if (err == -ENOENT)
		return 1;
	if (err)
		return err;
	brelse(bh);
	return 0;
}
