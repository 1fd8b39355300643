/*
 * Open file tables (Linux's include/linux/fdtable.h and file.h): a
 * process's descriptors 0..NR_OPEN-1, each naming a struct file (fs/vfs.h)
 * that fork shares and dup duplicates.  kernel/fs/file.c implements it.
 * Process context; there is one CPU and no preemption, so no lock.
 */
#ifndef FS_FILE_H
#define FS_FILE_H

#include <fs/vfs.h>

#define NR_OPEN		256	/* descriptors per process (RLIMIT_NOFILE) */

struct files_struct {
	int count;			/* tasks sharing it (CLONE_FILES) */
	struct file *fd[NR_OPEN];	/* held (f_count) */
	uint64_t close_on_exec[NR_OPEN / 64];	/* FD_CLOEXEC bits */
};

/* fork: a table with every open descriptor of old duplicated (another
 * f_count each), close-on-exec bits kept; NULL for an empty table.
 * NULL when out of memory. */
struct files_struct *dup_fd(const struct files_struct *old);
/* Drop a user of files; the last closes every descriptor and frees it. */
void put_files_struct(struct files_struct *files);
/* exec: close the descriptors marked close-on-exec. */
void do_close_on_exec(struct files_struct *files);

/* current's file for fd, with a reference (fput to drop), or NULL. */
struct file *fget(unsigned int fd);
/* Drop a reference from fget (vfs_close). */
void fput(struct file *file);
/* The lowest free descriptor >= start for current: fd or -EMFILE. */
int get_unused_fd_from(unsigned int start, unsigned int flags);
/* Install file (its reference becomes the table's) at fd with O_CLOEXEC
 * in flags setting close-on-exec. */
void fd_install(unsigned int fd, struct file *file, unsigned int flags);
/* A new descriptor for file (reference taken over): fd or -EMFILE. */
int get_unused_fd_install(struct file *file, unsigned int flags);
/* close(2)'s work: 0 or -EBADF. */
int close_fd(unsigned int fd);

/* The per-process root and working directory (fs/vfs.h's fs_struct). */
struct fs_struct *copy_fs_struct(const struct fs_struct *old);
void put_fs_struct(struct fs_struct *fs);

#endif
