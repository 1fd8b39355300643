/*
 * Opening files and their attributes (Linux's fs/open.c and fs/stat.c).
 *
 * vfs_open() resolves the path (creating the file for O_CREAT), checks
 * the request against the inode (Linux's may_open), truncates for
 * O_TRUNC, and returns a struct file holding the inode.  A struct file is
 * counted so descriptors can share one later (dup, fork); vfs_close()
 * drops a reference and the last one releases it.
 */
#include <fs/vfs.h>
#include <mm/slab.h>
#include <uapi/errno.h>

#include "internal.h"

static int do_truncate(struct inode *inode, loff_t size)
{
	if (!inode->i_op || !inode->i_op->truncate)
		return -EPERM;
	return inode->i_op->truncate(inode, size);
}

struct create_args {
	unsigned int flags;
	umode_t mode;
	struct inode **res;
};

static int create_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	struct create_args *c = arg;
	int err = lookup_step(dir, name, c->res);

	if (!err) {
		if (c->flags & O_EXCL)
			err = -EEXIST;
		else if (S_ISDIR((*c->res)->i_mode))
			err = -EISDIR;
		if (err)
			iput(*c->res);
	} else if (err == -ENOENT) {
		if (trailing)
			err = -EISDIR;
		else
			err = may_write(dir);
		if (!err)
			err = dir->i_op->create ?
			      dir->i_op->create(dir, name, c->mode & S_IALLUGO, c->res) : -EACCES;
	}
	return err;
}

/* The inode for an O_CREAT open of path, made if missing, held. */
static int open_create(const char *path, unsigned int flags, umode_t mode, struct inode **res)
{
	struct create_args c = { flags, mode, res };

	return on_parent(path, create_in, &c);
}

/* May inode be opened with flags? (Linux's may_open.) */
static int may_open(struct inode *inode, unsigned int flags)
{
	bool writing = (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);

	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (S_ISDIR(inode->i_mode) && writing)
		return -EISDIR;
	return writing ? may_write(inode) : 0;
}

int vfs_open(const char *path, unsigned int flags, umode_t mode, struct file **res)
{
	struct inode *inode;
	struct file *file;
	int err;

	if (!res || (flags & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	if (flags & O_CREAT)
		err = open_create(path, flags, mode, &inode);
	else
		err = path_lookup(path, &inode);
	if (err)
		return err;
	err = may_open(inode, flags);
	if (!err && (flags & O_TRUNC) && S_ISREG(inode->i_mode))
		err = do_truncate(inode, 0);
	file = err ? NULL : kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		iput(inode);
		return err ? err : -ENOMEM;
	}
	file->f_inode = inode;
	file->f_flags = flags;
	file->f_mode = (flags & O_ACCMODE) == O_WRONLY ? FMODE_WRITE :
		       (flags & O_ACCMODE) == O_RDWR ? FMODE_READ | FMODE_WRITE : FMODE_READ;
	file->f_op = inode->i_fop;
	file->f_count = 1;
	*res = file;
	return 0;
}

int vfs_close(struct file *file)
{
	if (!file)
		return -EINVAL;
	if (--file->f_count)
		return 0;
	if (file->f_op && file->f_op->release)
		file->f_op->release(file);
	iput(file->f_inode);
	kfree(file);
	return 0;
}

static void fill_stat(const struct inode *inode, struct kstat *st)
{
	st->ino = inode->i_ino;
	st->mode = inode->i_mode;
	st->nlink = inode->i_nlink;
	st->size = inode->i_size;
	st->blocks = inode->i_blocks;
	st->blksize = inode->i_blksize;
}

int vfs_fstat(struct file *file, struct kstat *st)
{
	if (!file || !st)
		return -EINVAL;
	fill_stat(file->f_inode, st);
	return 0;
}

int vfs_stat(const char *path, struct kstat *st)
{
	struct inode *inode;
	int err;

	if (!st)
		return -EINVAL;
	err = path_lookup(path, &inode);
	if (err)
		return err;
	fill_stat(inode, st);
	iput(inode);
	return 0;
}

int vfs_truncate(const char *path, loff_t length)
{
	struct inode *inode;
	int err;

	if (length < 0)
		return -EINVAL;
	err = path_lookup(path, &inode);
	if (err)
		return err;
	if (S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (!S_ISREG(inode->i_mode))
		err = -EINVAL;
	else
		err = may_write(inode);
	if (!err)
		err = do_truncate(inode, length);
	iput(inode);
	return err;
}
