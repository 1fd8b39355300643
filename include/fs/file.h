/*
 * Open file tables (Linux's include/linux/fdtable.h and file.h): a
 * process's descriptors 0..NR_OPEN-1, each naming a struct file (fs/vfs.h)
 * that fork shares and dup duplicates.  kernel/fs/file.c implements it.
 * Process context; there is one CPU and no preemption, so no lock.
 * A kernel thread has no table (current->files NULL): fget finds
 * nothing and the descriptor calls fail with -EBADF.
 */
#ifndef FS_FILE_H
#define FS_FILE_H

#include <fs/vfs.h>

#define NR_OPEN		256	/* descriptors per process (RLIMIT_NOFILE) */

struct files_struct {
	int count;			/* tasks sharing it (CLONE_FILES) */
	struct file *fd[NR_OPEN];	/* held (f_count) */
	uint64_t open_fds[NR_OPEN / 64];	/* taken: installed or reserved */
	uint64_t close_on_exec[NR_OPEN / 64];	/* FD_CLOEXEC bits */
};

/* fork: a table with every open descriptor of old duplicated (another
 * f_count each), close-on-exec bits kept; old NULL (a kernel thread
 * starting init) gives an empty table.  NULL when out of memory. */
struct files_struct *dup_fd(const struct files_struct *old);
/* Drop a user of files; the last closes every descriptor and frees it. */
void put_files_struct(struct files_struct *files);
/* exec: close the descriptors marked close-on-exec. */
void do_close_on_exec(struct files_struct *files);

/* Another reference to a file already held (a VMA, a dup). */
static inline struct file *get_file(struct file *file)
{
	file->f_count++;
	return file;
}

/* current's file for fd, with a reference (fput to drop), or NULL (an
 * O_PATH file counts as not open, as for Linux's fdget). */
struct file *fget(unsigned int fd);
/* The same, O_PATH files included: for fstat, fchdir, fcntl, dup and
 * the *at() calls' dirfd. */
struct file *fget_raw(unsigned int fd);
/* Drop a reference from fget (vfs_close). */
void fput(struct file *file);
/*
 * Reserve the lowest free descriptor >= start for current, close-on-exec
 * when flags has O_CLOEXEC: fd, -EMFILE (none free below current's
 * RLIMIT_NOFILE), -EINVAL (start >= NR_OPEN) or -EBADF (a kernel thread has no table).  Then fd_install
 * it, or put_unused_fd it on failure.
 */
int get_unused_fd_from(unsigned int start, unsigned int flags);
/* Give back a reserved descriptor that was never installed. */
void put_unused_fd(unsigned int fd);
/* Install file (its reference becomes the table's) at the reserved fd,
 * with O_CLOEXEC in flags setting close-on-exec (else clearing it). */
void fd_install(unsigned int fd, struct file *file, unsigned int flags);
/* A new descriptor for file, the lowest free, taking over the
 * reference: fd, or -EMFILE (-EBADF) with the reference still the
 * caller's. */
int get_unused_fd_install(struct file *file, unsigned int flags);
/* close(2)'s work: 0 or -EBADF. */
int close_fd(unsigned int fd);
/* dup2's work: make fd (< current's RLIMIT_NOFILE, else -EBADF) name file, with another
 * reference, closing what it named: fd, or -EBUSY when fd is reserved
 * by an open still running. */
int replace_fd(unsigned int fd, struct file *file, unsigned int flags);
/* FD_CLOEXEC of current's open descriptor fd. */
bool get_close_on_exec(unsigned int fd);
void set_close_on_exec(unsigned int fd, bool on);

/* The per-process root and working directory (fs/vfs.h's fs_struct,
 * kernel/fs/fs_struct.c): a copy of old (NULL: of init_fs) with its
 * own references, users 1; NULL when out of memory.  put_fs_struct
 * drops a user; the last drops the references and frees it. */
struct fs_struct *copy_fs_struct(const struct fs_struct *old);
void put_fs_struct(struct fs_struct *fs);

#endif
