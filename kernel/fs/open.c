/*
 * Opening files and changing their attributes (Linux's fs/open.c and
 * fs/attr.c), with the system calls that do it.
 *
 * vfs_open() walks the path (open_namei, which creates the file for
 * O_CREAT), checks the request against the inode (may_open), truncates
 * for O_TRUNC, and do_dentry_open() makes a struct file holding the
 * inode: f_op from i_fop, then f_op->open, which may replace f_op (a
 * character device becomes its driver's, fs/devfs.h) or refuse.  A file
 * is counted so descriptors and processes can share it (dup, fork);
 * vfs_close() drops a reference and the last one calls f_op->release.
 *
 * f_flags keeps the status flags only (Linux drops O_CREAT, O_EXCL,
 * O_NOCTTY and O_TRUNC at open; close-on-exec belongs to the descriptor,
 * so O_CLOEXEC goes too).  An O_PATH open makes a file with no access
 * mode and no f_op: it only names the inode for fstat, fchdir and the
 * *at() calls (fget skips it, fget_raw finds it).
 *
 * Permissions: there is one user, root, and the rules are those of
 * fs/vfs.h: writing needs a write bit and a writable mount; device
 * nodes are writable on a read-only mount, as on Linux; executing needs
 * an execute bit (access(X_OK)); chown accepts only root's ids.
 */
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

/* A device, FIFO or socket: opened for its driver, not its data. */
static bool is_special(const struct inode *inode)
{
	return S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode) || S_ISFIFO(inode->i_mode) ||
	       S_ISSOCK(inode->i_mode);
}

/* May inode be opened with flags?  (Linux's may_open.) */
static int may_open(struct inode *inode, unsigned int flags)
{
	bool special = is_special(inode);
	bool writing = (flags & O_ACCMODE) != O_RDONLY || ((flags & O_TRUNC) && !special);

	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (S_ISDIR(inode->i_mode) && writing)
		return -EISDIR;
	if (!writing)
		return 0;
	if (special)
		return inode->i_mode & S_IWUGO ? 0 : -EACCES;
	return may_write(inode);
}

/* Set the size of inode, a regular file: the checks of truncate(2).
 * -ETXTBSY for an active swap file.  Takes inode->i_mutex. */
static int inode_truncate(struct inode *inode, loff_t length)
{
	int err;

	if (length < 0)
		return -EINVAL;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	err = fsize_check_size(length);
	if (err)
		return err;
	err = may_write(inode);
	if (err)
		return err;
	if (!inode->i_op || !inode->i_op->truncate)
		return -EPERM;
	/* Under the file's i_mutex, as Linux's do_truncate: no write changes
	 * the size or the block map while the filesystem sleeps freeing.  An
	 * active swap file keeps both (swapon mapped its blocks, and sets
	 * S_SWAPFILE under this mutex): -ETXTBSY, as Linux. */
	mutex_lock(&inode->i_mutex);
	err = IS_SWAPFILE(inode) ? -ETXTBSY : inode->i_op->truncate(inode, length);
	mutex_unlock(&inode->i_mutex);
	return err;
}

int do_dentry_open(struct inode *inode, unsigned int flags, struct file **res)
{
	struct file *file;
	int err;

	if (!(flags & O_PATH) && is_special(inode) && !inode->i_fop) {
		iput(inode);
		return -ENXIO;
	}
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		iput(inode);
		return -ENOMEM;
	}
	file->f_inode = inode;
	/* O_NOCTTY stays for f_op->open (a TTY reads it), then goes. */
	file->f_flags = flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC);
	file->f_count = 1;
	if (flags & O_PATH) {
		*res = file;
		return 0;
	}
	file->f_mode = (flags & O_ACCMODE) == O_WRONLY ? FMODE_WRITE :
		       (flags & O_ACCMODE) == O_RDWR ? FMODE_READ | FMODE_WRITE : FMODE_READ;
	file->f_op = inode->i_fop;
	if (file->f_op && file->f_op->open) {
		err = file->f_op->open(inode, file);
		if (err) {
			iput(inode);
			kfree(file);
			return err;
		}
	}
	file->f_flags &= ~O_NOCTTY;
	*res = file;
	return 0;
}

int vfs_open_inode(struct inode *inode, unsigned int flags, struct file **res)
{
	int err = 0;

	if (!(flags & O_PATH)) {
		err = may_open(inode, flags);
		if (!err && (flags & O_TRUNC) && S_ISREG(inode->i_mode))
			err = inode_truncate(inode, 0);
	}
	if (err) {
		iput(inode);
		return err;
	}
	return do_dentry_open(inode, flags, res);
}

/* open(2)'s work from dfd; mode already has the umask applied. */
static int do_filp_open(int dfd, const char *path, unsigned int flags, umode_t mode,
			struct file **res)
{
	struct inode *inode;
	int err;

	if (!res || (flags & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return -EOPNOTSUPP;
	if (flags & O_PATH) {
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
		err = path_lookupat(dfd, path, (flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
					       (flags & O_DIRECTORY ? LOOKUP_DIRECTORY : 0), &inode);
	} else {
		err = open_namei(dfd, path, flags, mode, &inode);
	}
	return err ? err : vfs_open_inode(inode, flags, res);
}

int vfs_open(const char *path, unsigned int flags, umode_t mode, struct file **res)
{
	return do_filp_open(AT_FDCWD, path, flags, mode, res);
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

int stream_open(struct inode *inode, struct file *file)
{
	(void)inode;
	file->f_mode |= FMODE_STREAM;
	return 0;
}

void generic_fillattr(const struct inode *inode, struct kstat *st)
{
	st->ino = inode->i_ino;
	st->mode = inode->i_mode;
	st->nlink = inode->i_nlink;
	st->size = inode->i_size;
	st->blocks = inode->i_blocks;
	st->blksize = inode->i_blksize;
	st->dev = inode->i_sb->s_dev;
	st->rdev = inode->i_rdev;
	st->mtime = inode->i_mtime;
}

int vfs_fstat(struct file *file, struct kstat *st)
{
	if (!file || !st)
		return -EINVAL;
	generic_fillattr(file->f_inode, st);
	return 0;
}

static int stat_at(const char *path, unsigned int flags, struct kstat *st)
{
	struct inode *inode;
	int err;

	if (!st)
		return -EINVAL;
	err = path_lookupat(AT_FDCWD, path, flags, &inode);
	if (err)
		return err;
	generic_fillattr(inode, st);
	iput(inode);
	return 0;
}

int vfs_stat(const char *path, struct kstat *st)
{
	return stat_at(path, LOOKUP_FOLLOW, st);
}

int vfs_lstat(const char *path, struct kstat *st)
{
	return stat_at(path, 0, st);
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
	err = inode_truncate(inode, length);
	iput(inode);
	return err;
}

int simple_setattr(struct inode *inode, const struct iattr *attr)
{
	if (attr->ia_valid & ATTR_MODE)
		inode->i_mode = (inode->i_mode & S_IFMT) | (attr->ia_mode & S_IALLUGO);
	if (attr->ia_valid & ATTR_MTIME)
		inode->i_mtime = attr->ia_mtime;
	return 0;
}

int notify_change(struct inode *inode, const struct iattr *attr)
{
	if (inode->i_sb->s_flags & SB_RDONLY)
		return -EROFS;
	if (!inode->i_op || !inode->i_op->setattr)
		return -EPERM;
	return inode->i_op->setattr(inode, attr);
}

/* --- the system calls ------------------------------------------------------------ */

long sys_openat(int dfd, const char __user *filename, int flags, unsigned int mode)
{
	struct file *file;
	char *path;
	long fd, err;

	if (flags & (O_CREAT | O_TMPFILE))
		mode &= S_IALLUGO & ~current_fs()->umask;
	else
		mode = 0;
	err = getname(filename, &path);
	if (err)
		return err;
	fd = get_unused_fd_from(0, flags);
	if (fd >= 0) {
		err = do_filp_open(dfd, path, flags, mode, &file);
		if (err) {
			put_unused_fd(fd);
			fd = err;
		} else {
			fd_install(fd, file, flags);
		}
	}
	putname(path);
	return fd;
}

long sys_open(const char __user *filename, int flags, unsigned int mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_creat(const char __user *pathname, unsigned int mode)
{
	return sys_openat(AT_FDCWD, pathname, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

long sys_close(unsigned int fd)
{
	return close_fd(fd);
}

/* access(2)'s check of mode (R_OK, W_OK, X_OK) on inode, for root. */
static int may_access(struct inode *inode, int mode)
{
	int err = 0;

	if ((mode & W_OK) && is_special(inode))
		err = inode->i_mode & S_IWUGO ? 0 : -EACCES;
	else if (mode & W_OK)
		err = may_write(inode);
	if (err)
		return err;
	if ((mode & X_OK) && !S_ISDIR(inode->i_mode) &&
	    !(inode->i_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return -EACCES;
	return 0;
}

long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags)
{
	struct inode *inode;
	long err;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(dfd, filename, (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
					  (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &inode);
	if (err)
		return err;
	err = may_access(inode, mode);
	iput(inode);
	return err;
}

long sys_faccessat(int dfd, const char __user *filename, int mode)
{
	return sys_faccessat2(dfd, filename, mode, 0);
}

long sys_access(const char __user *filename, int mode)
{
	return sys_faccessat2(AT_FDCWD, filename, mode, 0);
}

long sys_truncate(const char __user *pathname, long length)
{
	struct inode *inode;
	long err = user_path_at(AT_FDCWD, pathname, LOOKUP_FOLLOW, &inode);

	if (err)
		return err;
	err = inode_truncate(inode, length);
	iput(inode);
	return err;
}

long sys_ftruncate(unsigned int fd, unsigned long length)
{
	struct file *file = fget(fd);
	long err;

	if (!file)
		return -EBADF;
	if ((long)length < 0 || !(file->f_mode & FMODE_WRITE) || !S_ISREG(file->f_inode->i_mode))
		err = -EINVAL;
	else
		err = inode_truncate(file->f_inode, length);
	fput(file);
	return err;
}

long sys_chdir(const char __user *filename)
{
	struct inode *inode;
	long err = user_path_at(AT_FDCWD, filename, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &inode);

	return err ? err : set_fs_pwd(inode);
}

long sys_fchdir(unsigned int fd)
{
	struct file *file = fget_raw(fd);
	struct inode *inode;

	if (!file)
		return -EBADF;
	inode = file->f_inode;
	ihold(inode);
	fput(file);
	return set_fs_pwd(inode);
}

long sys_umask(int mask)
{
	struct fs_struct *fs = current_fs();
	umode_t old = fs->umask;

	fs->umask = mask & (S_IRWXU | S_IRWXG | S_IRWXO);
	return old;
}

static long chmod_inode(struct inode *inode, unsigned int mode)
{
	struct iattr attr = { .ia_valid = ATTR_MODE, .ia_mode = mode & S_IALLUGO };

	return notify_change(inode, &attr);
}

long sys_fchmodat(int dfd, const char __user *filename, unsigned int mode)
{
	struct inode *inode;
	long err = user_path_at(dfd, filename, LOOKUP_FOLLOW, &inode);

	if (err)
		return err;
	err = chmod_inode(inode, mode);
	iput(inode);
	return err;
}

long sys_chmod(const char __user *filename, unsigned int mode)
{
	return sys_fchmodat(AT_FDCWD, filename, mode);
}

long sys_fchmod(unsigned int fd, unsigned int mode)
{
	struct file *file = fget(fd);
	long err;

	if (!file)
		return -EBADF;
	err = chmod_inode(file->f_inode, mode);
	fput(file);
	return err;
}

/* chown(2) for the one user: only root's ids (or -1, "unchanged") are
 * possible, and nothing is stored. */
static long chown_inode(struct inode *inode, unsigned int user, unsigned int group)
{
	if ((user != 0 && user != (unsigned int)-1) || (group != 0 && group != (unsigned int)-1))
		return -EPERM;
	return inode->i_sb->s_flags & SB_RDONLY ? -EROFS : 0;
}

long sys_fchownat(int dfd, const char __user *filename, unsigned int user,
		  unsigned int group, int flag)
{
	struct inode *inode;
	long err;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(dfd, filename, (flag & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
					  (flag & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &inode);
	if (err)
		return err;
	err = chown_inode(inode, user, group);
	iput(inode);
	return err;
}

long sys_chown(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, 0);
}

long sys_lchown(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(unsigned int fd, unsigned int user, unsigned int group)
{
	struct file *file = fget(fd);
	long err;

	if (!file)
		return -EBADF;
	err = chown_inode(file->f_inode, user, group);
	fput(file);
	return err;
}
