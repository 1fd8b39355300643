/*
 * What the VFS's own files (kernel/fs/{super,inode,namei,open,
 * read_write}.c) share and nothing else needs (Linux's fs/internal.h).
 */
#ifndef KERNEL_FS_INTERNAL_H
#define KERNEL_FS_INTERNAL_H

#include <fs/vfs.h>
#include <uapi/errno.h>

/* super.c: the root of the filesystem mounted on mountpoint (i_mounted). */
struct inode *lookup_mnt(struct inode *mountpoint);

/* namei.c: the directory holding the last component of path, held in
 * *dir, and that component in name ("." when there is none: "/"). */
int path_parent(const char *path, struct inode **dir, char name[NAME_MAX + 1],
		bool *trailing_slash);
/* Step from directory dir (still held by the caller) to its component
 * name, which may be "." or "..", crossing mounts: held in *res. */
int lookup_step(struct inode *dir, const char *name, struct inode **res);
/* Run fn on the parent directory of path (held across the call) and the
 * last component, with whether path ends in a slash (kernel/fs/namei.c). */
int on_parent(const char *path,
	      int (*fn)(struct inode *dir, const char *name, bool trailing, void *arg),
	      void *arg);

/* Writing needs a write bit in the mode (there are no users yet). */
static inline int may_write(const struct inode *inode)
{
	return inode->i_mode & S_IWUGO ? 0 : -EACCES;
}

#endif
