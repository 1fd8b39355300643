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

/*
 * A tmpfs file of size bytes that no directory names (Linux's
 * shmem_file_setup, for SysV shm segments): open for reading and writing,
 * on the kernel's own tmpfs, which has no size limit (Linux's takes a
 * name for its dentry, and VM_NORESERVE: Pageturn has neither).  0 with
 * the file in *res, -EINVAL (size < 0), -ENOMEM or -EMFILE.  The file's
 * inode and pages go at its last fput.
 */
int shmem_file_setup(loff_t size, struct file **res);

/*
 * SHM_LOCK (lock 1) or SHM_UNLOCK (0) a shmem_file_setup file (Linux's
 * shmem_lock): its mapping becomes unevictable, so every page faulted or
 * read into it from now on goes to the unevictable list, and pages on the
 * anon lists are culled to it when reclaim scans them (with swap on, or
 * under lru=single); unlocking lets
 * reclaim have them again once scan_mapping_unevictable_pages moves them
 * back (the caller's job, as Linux's shmctl does it).
 */
void shmem_lock(struct file *file, int lock);

/*
 * swapoff's part in tmpfs (Linux's shmem_unuse): bring every page of a
 * tmpfs file that is on swap area type back into its file.  0, -ENOMEM
 * or -EIO (a slot could not be read: it stays).  May sleep.
 */
int shmem_unuse(unsigned int type);

/* Add the tmpfs files' swap entries on area type to counts[offset]
 * (offsets below max): the swap ktest's count of slot users.  Never
 * sleeps. */
void shmem_count_swap(unsigned int type, unsigned int *counts, unsigned long max);

#endif
