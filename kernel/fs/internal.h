/*
 * What the VFS's own files (the .c files of kernel/fs) share and nothing else needs
 * (Linux's fs/internal.h).
 */
#ifndef KERNEL_FS_INTERNAL_H
#define KERNEL_FS_INTERNAL_H

#include <asm/uaccess.h>
#include <fs/vfs.h>
#include <pageturn/resource.h>
#include <pageturn/signal.h>
#include <uapi/errno.h>

/* super.c: the root of the filesystem mounted on mountpoint (i_mounted). */
struct inode *lookup_mnt(struct inode *mountpoint);
/* super.c: a device number for a filesystem without a device, major
 * 0 and minor n counting from 1 in st_dev's encoding (Linux's
 * get_anon_bdev); 0 when all 2^20 - 1 are taken. */
uint32_t get_anon_dev(void);

/* namei.c: the directory holding the last component of path (relative
 * paths from dfd, AT_FDCWD: the working directory), held in *dir, and
 * that component in name ("." when there is none: "/"); symlinks before
 * it are followed. */
int path_parentat(int dfd, const char *path, struct inode **dir, char name[NAME_MAX + 1],
		  bool *trailing_slash);
/* Step from directory dir (still held by the caller) to its component
 * name, which may be "." or "..", crossing mounts: held in *res. */
int lookup_step(struct inode *dir, const char *name, struct inode **res);
/* Run fn on the parent directory of path (held, and its i_mutex held,
 * across the call) and the last component, with whether path ends in a
 * slash. */
int on_parentat(int dfd, const char *path,
		int (*fn)(struct inode *dir, const char *name, bool trailing, void *arg),
		void *arg);
/* open(2)'s walk, creating with O_CREAT: the inode to open, held. */
int open_namei(int dfd, const char *path, unsigned int flags, umode_t mode, struct inode **res);
/* path_lookupat for a user path (LOOKUP_EMPTY lets "" through). */
int user_path_at(int dfd, const char __user *name, unsigned int flags, struct inode **res);
/* Make directory dir (reference taken over) the working directory. */
int set_fs_pwd(struct inode *dir);
int vfs_mkdirat(int dfd, const char *path, umode_t mode);
int vfs_rmdirat(int dfd, const char *path);
int vfs_unlinkat(int dfd, const char *path);
int vfs_renameat(int olddfd, const char *oldpath, int newdfd, const char *newpath);
int vfs_readlinkat(int dfd, const char *path, char *buf, size_t len);
/* vfs_mknod, vfs_symlink from dfd; vfs_link_inode gives the inode old
 * (held by the caller, who keeps the reference) the name newpath. */
int vfs_mknodat(int dfd, const char *path, umode_t mode, uint32_t dev);
int vfs_symlinkat(const char *target, int newdfd, const char *newpath);
int vfs_link_inode(struct inode *old, int newdfd, const char *newpath);

/* open.c: a new struct file for inode (reference taken over), f_op from
 * i_fop and f_op->open run; the flags stored as F_GETFL shows them. */
int do_dentry_open(struct inode *inode, unsigned int flags, struct file **res);

/* Writing needs a write bit in the mode (the one user, root, is held to
 * it anyway: see fs/vfs.h) and a writable mount. */
static inline int may_write(const struct inode *inode)
{
	if (inode->i_sb->s_flags & SB_RDONLY)
		return -EROFS;
	return inode->i_mode & S_IWUGO ? 0 : -EACCES;
}

/*
 * RLIMIT_FSIZE, as Linux checks it for regular files: a write at or past
 * the limit, or a truncate to a size past it, sends the caller SIGXFSZ
 * and fails with -EFBIG; a write that would cross it is cut short to end
 * there (*len shrinks).  Kernel threads have no limit.
 */
static inline int fsize_check_size(loff_t size)
{
	unsigned long limit = task_rlimit(current, RLIMIT_FSIZE);

	if (limit != RLIM_INFINITY && (uint64_t)size > limit) {
		send_sig(SIGXFSZ, current);
		return -EFBIG;
	}
	return 0;
}

static inline int fsize_check_write(loff_t pos, size_t *len)
{
	unsigned long limit = task_rlimit(current, RLIMIT_FSIZE);

	if (limit == RLIM_INFINITY || !*len)
		return 0;
	if ((uint64_t)pos >= limit) {
		send_sig(SIGXFSZ, current);
		return -EFBIG;
	}
	if (*len > limit - (uint64_t)pos)
		*len = limit - (uint64_t)pos;
	return 0;
}

#endif
