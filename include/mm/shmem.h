/*
 * tmpfs, the RAM filesystem (Linux's include/linux/shmem_fs.h).  The
 * implementation and its essay are in mm/shmem.c.
 */
#ifndef MM_SHMEM_H
#define MM_SHMEM_H

#include <fs/vfs.h>

extern struct file_system_type shmem_fs_type;	/* "tmpfs" */

/* Register "tmpfs" with the VFS; vfs_init() calls it once.  0 or -EBUSY
 * (registered already). */
int shmem_init(void);

/*
 * Apply mount options to the tmpfs whose root is dir, as Linux's
 * `mount -o remount,OPTIONS dir` does: do_mount() has no options
 * argument yet, so a tmpfs is mounted with the defaults and given its
 * options this way.  The one option is size=N (bytes, or with a k, m or
 * g suffix, or N% of RAM; rounded up to whole pages; 0 means no limit).
 * 0, -EINVAL (dir is not the root of a tmpfs, a bad option, or a limit
 * below what the files already use) or a path error.
 */
int shmem_remount(const char *dir, const char *options);

/* The size limit (0: none) and the pages in use of the tmpfs whose root
 * is dir: 0, -EINVAL (not the root of a tmpfs) or a path error. */
int shmem_usage(const char *dir, unsigned long *max_pages, unsigned long *used_pages);

/* The page cache of a tmpfs regular file (Linux's inode->i_mapping, which
 * the VFS inode does not have yet); NULL for any other inode. */
struct address_space *shmem_mapping(struct inode *inode);

#endif
