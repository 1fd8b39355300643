/*
 * stat(2) and friends, readlink(2) (Linux's fs/stat.c).
 *
 * The VFS describes an inode in a struct kstat (generic_fillattr); the
 * system calls turn it into x86-64's struct stat.  There is one user:
 * st_uid and st_gid are 0.  One time is kept per inode (i_mtime), so
 * st_atime and st_ctime repeat st_mtime; nanoseconds are 0.
 */
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

static long cp_new_stat(const struct kstat *st, struct stat __user *statbuf)
{
	struct stat tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.st_dev = st->dev;
	tmp.st_ino = st->ino;
	tmp.st_nlink = st->nlink;
	tmp.st_mode = st->mode;
	tmp.st_rdev = st->rdev;
	tmp.st_size = st->size;
	tmp.st_blksize = st->blksize;
	tmp.st_blocks = st->blocks;
	tmp.st_atime = tmp.st_mtime = tmp.st_ctime = st->mtime;
	return copy_to_user(statbuf, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

long sys_newfstatat(int dfd, const char __user *filename, struct stat __user *statbuf, int flag)
{
	struct inode *inode;
	struct kstat st;
	long err;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	err = user_path_at(dfd, filename, (flag & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
					  (flag & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &inode);
	if (err)
		return err;
	generic_fillattr(inode, &st);
	iput(inode);
	return cp_new_stat(&st, statbuf);
}

long sys_stat(const char __user *filename, struct stat __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, 0);
}

long sys_lstat(const char __user *filename, struct stat __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

long sys_fstat(unsigned int fd, struct stat __user *statbuf)
{
	struct file *file = fget_raw(fd);
	struct kstat st;

	if (!file)
		return -EBADF;
	generic_fillattr(file->f_inode, &st);
	fput(file);
	return cp_new_stat(&st, statbuf);
}

long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf, int bufsiz)
{
	char *path, *target;
	long err;

	if (bufsiz <= 0)
		return -EINVAL;
	err = getname(pathname, &path);
	if (err)
		return err;
	target = kmalloc(PATH_MAX, GFP_KERNEL);
	err = target ? vfs_readlinkat(dfd, path, target, MIN(bufsiz, PATH_MAX)) : -ENOMEM;
	if (err > 0 && copy_to_user(buf, target, err))
		err = -EFAULT;
	kfree(target);
	putname(path);
	return err;
}

long sys_readlink(const char __user *path, char __user *buf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, path, buf, bufsiz);
}
