/*
 * ext2 under the VFS: the "ext2" file_system_type, mapping the VFS's
 * operations onto the ext2 driver's API (fs/ext2.h).  Linux keeps this in
 * fs/ext2/ itself; here the driver stays VFS-free and this file is the
 * only one that knows both.
 *
 * A VFS inode's i_private is the driver's ext2_inode_info, taken with
 * ext2_iget when the VFS reads the inode and released with ext2_iput
 * when the VFS evicts it -- at the last iput only for an unlinked file;
 * an unused inode with links stays cached, holding the ext2 inode and so
 * its page cache, which ext2_sync still writes back, until prune_icache
 * or drop_caches (fs/inode.c); the super_block's s_fs_info is the driver's
 * ext2_sb_info.  The driver keeps the authoritative attributes (in the
 * on-disk inode it holds); after every operation that can change them,
 * ext2_update_attrs() copies mode, link count, size, blocks and mtime
 * into each VFS inode involved, so stat() and the VFS's own checks see
 * the truth.
 *
 * A regular file's i_mapping is the driver inode's page cache (for mmap).
 * Creating a file, symlink or node and writing a file set the mtime from
 * the wall clock.  A symlink reads its target with ext2_readlink and is
 * made by ext2_symlink; link adds a name with ext2_link, updating the
 * link count the VFS inode shows; chmod and utimensat go through
 * ext2_set_mode/ext2_set_mtime, written back with the inode.  Device
 * nodes (made by ext2_mknod) get their number from i_block (Linux's
 * encodings: the old 8:8 one in i_block[0], else the new one in
 * i_block[1]) and the VFS's init_special_inode; FIFOs and sockets load
 * but cannot be opened.
 */
#include <drivers/rtc.h>
#include <fs/ext2.h>
#include <fs/devfs.h>
#include <fs/vfs.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

static const struct inode_operations ext2_dir_inode_operations;
static const struct inode_operations ext2_file_inode_operations;
static const struct inode_operations ext2_symlink_inode_operations;
static const struct inode_operations ext2_special_inode_operations;
static const struct file_operations ext2_dir_operations;
static const struct file_operations ext2_file_operations;

static struct ext2_inode_info *EXT2_I(const struct inode *inode)
{
	return inode->i_private;
}

static struct ext2_sb_info *EXT2_SB(const struct super_block *sb)
{
	return sb->s_fs_info;
}

static void ext2_update_attrs(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	inode->i_mode = ei->i_raw.i_mode;
	inode->i_nlink = ei->i_raw.i_links_count;
	inode->i_size = ext2_isize(ei);
	inode->i_blocks = ei->i_raw.i_blocks;
	inode->i_mtime = ei->i_raw.i_mtime;
}

/* A device inode's number, from i_block as Linux's ext2 stores it. */
static uint32_t ext2_rdev(const struct ext2_inode_info *ei)
{
	uint32_t old = ei->i_raw.i_block[0], dev = ei->i_raw.i_block[1];
	unsigned int major, minor;

	if (old) {
		major = (old >> 8) & 0xff;
		minor = old & 0xff;
	} else {
		major = (dev & 0xfff00) >> 8;
		minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
	}
	/* devfs numbers are 8:8; larger ones cannot name a driver here. */
	return major > 0xff || minor > 0xff ? MKDEV(0xff, 0xff) : MKDEV(major, minor);
}

/* --- super_operations ------------------------------------------------------ */

static int ext2_vfs_read_inode(struct inode *inode)
{
	struct ext2_inode_info *ei;
	int err;

	if (inode->i_ino > UINT32_MAX)
		return -ENOENT;
	ei = ext2_iget(EXT2_SB(inode->i_sb), inode->i_ino, &err);
	if (!ei)
		return err;
	inode->i_private = ei;
	inode->i_blksize = EXT2_SB(inode->i_sb)->s_blocksize;
	ext2_update_attrs(inode);
	if (S_ISDIR(inode->i_mode)) {
		inode->i_op = &ext2_dir_inode_operations;
		inode->i_fop = &ext2_dir_operations;
	} else if (S_ISREG(inode->i_mode)) {
		inode->i_op = &ext2_file_inode_operations;
		inode->i_fop = &ext2_file_operations;
		inode->i_mapping = &ei->i_mapping;
	} else if (S_ISLNK(inode->i_mode)) {
		inode->i_op = &ext2_symlink_inode_operations;
	} else {
		inode->i_op = &ext2_special_inode_operations;
		init_special_inode(inode, inode->i_mode,
				   S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode) ? ext2_rdev(ei) : 0);
	}
	return 0;
}

static void ext2_vfs_evict_inode(struct inode *inode)
{
	ext2_iput(EXT2_I(inode));
}

static int ext2_vfs_sync_fs(struct super_block *sb)
{
	return ext2_sync(sb->s_fs_info);
}

/* The counts of the on-disk superblock, which the allocators keep
 * current.  f_blocks is the whole volume, metadata included (Linux
 * subtracts the metadata's overhead). */
static int ext2_vfs_statfs(struct super_block *sb, struct kstatfs *buf)
{
	const struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext2_super_block *es = sbi->s_es;

	buf->f_bsize = sbi->s_blocksize;
	buf->f_blocks = es->s_blocks_count;
	buf->f_bfree = es->s_free_blocks_count;
	buf->f_bavail = es->s_free_blocks_count > es->s_r_blocks_count ?
			es->s_free_blocks_count - es->s_r_blocks_count : 0;
	buf->f_files = es->s_inodes_count;
	buf->f_ffree = es->s_free_inodes_count;
	buf->f_namelen = EXT2_NAME_LEN;
	return 0;
}

static const struct super_operations ext2_sops = {
	.read_inode = ext2_vfs_read_inode,
	.evict_inode = ext2_vfs_evict_inode,
	.sync_fs = ext2_vfs_sync_fs,
	.statfs = ext2_vfs_statfs,
};

/* --- inode_operations ------------------------------------------------------ */

static int ext2_vfs_lookup(struct inode *dir, const char *name, struct inode **res)
{
	uint32_t ino;
	int err = ext2_lookup(EXT2_I(dir), name, &ino);

	return err ? err : iget(dir->i_sb, ino, res);
}

/* The inode ino just made in dir (err: how the making went), held in
 * *res with its mtime set from the wall clock; dir's attributes are
 * brought up to date either way. */
static int ext2_vfs_new_inode(struct inode *dir, int err, uint32_t ino, struct inode **res)
{
	ext2_update_attrs(dir);
	if (!err)
		err = iget(dir->i_sb, ino, res);
	if (!err) {
		ext2_set_mtime(EXT2_I(*res), ktime_get_real_seconds());
		ext2_update_attrs(*res);
	}
	return err;
}

static int ext2_vfs_create(struct inode *dir, const char *name, umode_t mode, struct inode **res)
{
	uint32_t ino = 0;
	int err = ext2_create(EXT2_I(dir), name, mode, &ino);

	return ext2_vfs_new_inode(dir, err, ino, res);
}

static int ext2_vfs_mknod(struct inode *dir, const char *name, umode_t mode, uint32_t dev)
{
	struct inode *inode;
	uint32_t ino = 0;
	int err = ext2_mknod(EXT2_I(dir), name, mode, dev, &ino);

	err = ext2_vfs_new_inode(dir, err, ino, &inode);
	if (!err)
		iput(inode);
	return err;
}

static int ext2_vfs_symlink(struct inode *dir, const char *name, const char *target)
{
	struct inode *inode;
	uint32_t ino = 0;
	int err = ext2_symlink(EXT2_I(dir), name, target, &ino);

	err = ext2_vfs_new_inode(dir, err, ino, &inode);
	if (!err)
		iput(inode);
	return err;
}

static int ext2_vfs_link(struct inode *old, struct inode *dir, const char *name)
{
	int err = ext2_link(EXT2_I(dir), name, EXT2_I(old));

	ext2_update_attrs(dir);
	ext2_update_attrs(old);
	return err;
}

static int ext2_vfs_mkdir(struct inode *dir, const char *name, umode_t mode)
{
	uint32_t ino;
	int err = ext2_mkdir(EXT2_I(dir), name, mode, &ino);

	ext2_update_attrs(dir);
	return err;
}

static int ext2_vfs_rmdir(struct inode *dir, const char *name, struct inode *victim)
{
	int err = ext2_rmdir(EXT2_I(dir), name);

	ext2_update_attrs(dir);
	ext2_update_attrs(victim);
	return err;
}

static int ext2_vfs_unlink(struct inode *dir, const char *name, struct inode *victim)
{
	int err = ext2_unlink(EXT2_I(dir), name);

	ext2_update_attrs(dir);
	ext2_update_attrs(victim);
	return err;
}

static int ext2_vfs_rename(struct inode *old_dir, const char *old_name, struct inode *src,
			   struct inode *new_dir, const char *new_name, struct inode *target)
{
	int err = ext2_rename(EXT2_I(old_dir), old_name, EXT2_I(new_dir), new_name);

	ext2_update_attrs(old_dir);
	ext2_update_attrs(new_dir);
	ext2_update_attrs(src);
	if (target)
		ext2_update_attrs(target);
	return err;
}

/*
 * A shrinking truncation lowers the size page faults see (inode->i_size)
 * first, as Linux's vmtruncate does: ext2_truncate sleeps on the disk
 * after it unmapped and dropped the pages past the end, and a fault then
 * must not read a page there back in and map it.  ext2_update_attrs
 * puts back the size ext2 ended with, the old one if it failed.
 */
static int ext2_vfs_truncate(struct inode *inode, loff_t size)
{
	int err;

	if (size < inode->i_size)
		inode->i_size = size;
	err = ext2_truncate(EXT2_I(inode), size);
	ext2_update_attrs(inode);
	return err;
}

static int ext2_vfs_readlink(struct inode *inode, char *buf, size_t len)
{
	return ext2_readlink(EXT2_I(inode), buf, len);
}

static int ext2_vfs_setattr(struct inode *inode, const struct iattr *attr)
{
	int err = 0;

	if (attr->ia_valid & ATTR_MODE)
		err = ext2_set_mode(EXT2_I(inode), attr->ia_mode);
	if (!err && (attr->ia_valid & ATTR_MTIME))
		err = ext2_set_mtime(EXT2_I(inode), attr->ia_mtime);
	ext2_update_attrs(inode);
	return err;
}

static const struct inode_operations ext2_dir_inode_operations = {
	.lookup = ext2_vfs_lookup,
	.create = ext2_vfs_create,
	.mknod = ext2_vfs_mknod,
	.symlink = ext2_vfs_symlink,
	.link = ext2_vfs_link,
	.mkdir = ext2_vfs_mkdir,
	.rmdir = ext2_vfs_rmdir,
	.unlink = ext2_vfs_unlink,
	.rename = ext2_vfs_rename,
	.setattr = ext2_vfs_setattr,
};

static const struct inode_operations ext2_file_inode_operations = {
	.truncate = ext2_vfs_truncate,
	.setattr = ext2_vfs_setattr,
};

static const struct inode_operations ext2_symlink_inode_operations = {
	.readlink = ext2_vfs_readlink,
	.setattr = ext2_vfs_setattr,
};

static const struct inode_operations ext2_special_inode_operations = {
	.setattr = ext2_vfs_setattr,
};

/* --- file_operations -------------------------------------------------------- */

static long ext2_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	long n;

	if (iocb->ki_pos < 0)
		return -EINVAL;
	n = ext2_read(EXT2_I(iocb->ki_filp->f_inode), iocb->ki_pos, to);
	if (n > 0)
		iocb->ki_pos += n;
	return n;
}

/* Called with the inode's i_mutex held. */
static long ext2_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = iocb->ki_filp->f_inode;
	long n;

	if (iocb->ki_pos < 0)
		return -EINVAL;
	n = ext2_write(EXT2_I(inode), iocb->ki_pos, from);
	if (n > 0) {
		iocb->ki_pos += n;
		ext2_set_mtime(EXT2_I(inode), ktime_get_real_seconds());
	}
	ext2_update_attrs(inode);
	return n;
}

static int ext2_vfs_fsync(struct file *file)
{
	return ext2_sync(EXT2_SB(file->f_inode->i_sb));
}

struct ext2_filldir_ctx {
	filldir_t filldir;
	void *ctx;
};

static int ext2_vfs_filldir(void *ctx, const char *name, unsigned int name_len,
			    uint32_t ino, unsigned int file_type)
{
	static const unsigned char dt[EXT2_FT_MAX] = {
		[EXT2_FT_UNKNOWN] = DT_UNKNOWN, [EXT2_FT_REG_FILE] = DT_REG,
		[EXT2_FT_DIR] = DT_DIR, [EXT2_FT_CHRDEV] = DT_CHR,
		[EXT2_FT_BLKDEV] = DT_BLK, [EXT2_FT_FIFO] = DT_FIFO,
		[EXT2_FT_SOCK] = DT_SOCK, [EXT2_FT_SYMLINK] = DT_LNK,
	};
	struct ext2_filldir_ctx *c = ctx;

	return c->filldir(c->ctx, name, name_len, ino,
			  file_type < EXT2_FT_MAX ? dt[file_type] : DT_UNKNOWN);
}

static int ext2_vfs_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	struct ext2_filldir_ctx c = { filldir, ctx };
	uint64_t pos;
	int err;

	if (file->f_pos < 0)
		return -EINVAL;
	pos = file->f_pos;
	err = ext2_readdir(EXT2_I(file->f_inode), &pos, ext2_vfs_filldir, &c);
	file->f_pos = pos;
	return err;
}

static const struct file_operations ext2_file_operations = {
	.read_iter = ext2_file_read_iter,
	.write_iter = ext2_file_write_iter,
	.fsync = ext2_vfs_fsync,
};

static const struct file_operations ext2_dir_operations = {
	.iterate = ext2_vfs_iterate,
	.fsync = ext2_vfs_fsync,
};

/* --- the type ---------------------------------------------------------------- */

static int ext2_vfs_mount(struct super_block *sb)
{
	struct ext2_sb_info *sbi;
	int err;

	sbi = ext2_mount(sb->s_bdev, &err);
	if (!sbi)
		return err;
	sb->s_fs_info = sbi;
	sb->s_op = &ext2_sops;
	sb->s_magic = EXT2_SUPER_MAGIC;
	if (sbi->s_read_only)
		sb->s_flags |= SB_RDONLY;
	err = iget(sb, EXT2_ROOT_INO, &sb->s_root);
	if (!err && !S_ISDIR(sb->s_root->i_mode)) {
		printk(KERN_ERR "EXT2-fs (%s): corrupt root inode, run e2fsck\n", sb->s_bdev->name);
		iput(sb->s_root);
		err = -EINVAL;
	}
	if (err)
		ext2_unmount(sbi);
	return err;
}

struct file_system_type ext2_fs_type = {
	.name = "ext2",
	.fs_flags = FS_REQUIRES_DEV,
	.mount = ext2_vfs_mount,
};
