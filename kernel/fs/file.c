/*
 * Open file tables (Linux's fs/file.c, with a fixed-size table).
 *
 * A process's files_struct maps descriptors 0..NR_OPEN-1 to struct files.
 * A descriptor is in one of three states, told by its bit in open_fds and
 * its fd[] slot:
 *
 *   free       open_fds clear, fd[] NULL
 *   reserved   open_fds set, fd[] NULL: get_unused_fd_from() took it for
 *              an open that is still running (it may sleep on the disk);
 *              nobody else can take it; fd_install() or put_unused_fd()
 *              ends this state
 *   installed  open_fds set, fd[] holds one reference (f_count) to the file
 *
 * close_on_exec bits are meaningful only for taken descriptors; freeing
 * one clears its bit.  Several descriptors (dup) and several tables
 * (fork's dup_fd) may name one struct file: each holds a reference, and
 * the last fput() releases the file (vfs_close), which is when a pipe end
 * or a TTY sees its last close.  Tables are shared by tasks only with
 * CLONE_FILES (count).
 *
 * New descriptors are only taken below the caller's RLIMIT_NOFILE soft
 * limit (at most NR_OPEN, Linux's nr_open): a search that finds none
 * free there is -EMFILE, and dup2 to a descriptor at or above the limit
 * is -EBADF, as on Linux.  Descriptors already open above a lowered
 * limit stay usable and can be closed.
 *
 * A kernel thread has no table (current->files NULL): fget() gives NULL
 * and the descriptor calls -EBADF.  One CPU, no preemption: no lock.
 */
#include <fs/file.h>
#include <mm/slab.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

static bool fd_is_set(const uint64_t *map, unsigned int fd)
{
	return map[fd / 64] & (1ull << (fd % 64));
}

static void fd_set_bit(uint64_t *map, unsigned int fd, bool on)
{
	if (on)
		map[fd / 64] |= 1ull << (fd % 64);
	else
		map[fd / 64] &= ~(1ull << (fd % 64));
}

struct files_struct *dup_fd(const struct files_struct *old)
{
	struct files_struct *files = kzalloc(sizeof(*files), GFP_KERNEL);
	unsigned int fd;

	if (!files)
		return NULL;
	files->count = 1;
	if (!old)
		return files;
	for (fd = 0; fd < NR_OPEN; fd++) {
		/* A reserved descriptor belongs to an open in the parent:
		 * the child gets it free. */
		if (!old->fd[fd])
			continue;
		files->fd[fd] = get_file(old->fd[fd]);
		fd_set_bit(files->open_fds, fd, true);
		fd_set_bit(files->close_on_exec, fd, fd_is_set(old->close_on_exec, fd));
	}
	return files;
}

/* Empty slot fd of files and drop its file (which may sleep in release). */
static void close_slot(struct files_struct *files, unsigned int fd)
{
	struct file *file = files->fd[fd];

	files->fd[fd] = NULL;
	fd_set_bit(files->open_fds, fd, false);
	fd_set_bit(files->close_on_exec, fd, false);
	if (file)
		fput(file);
}

void put_files_struct(struct files_struct *files)
{
	unsigned int fd;

	if (!files || --files->count > 0)
		return;
	for (fd = 0; fd < NR_OPEN; fd++)
		if (files->fd[fd])
			close_slot(files, fd);
	kfree(files);
}

void do_close_on_exec(struct files_struct *files)
{
	unsigned int fd;

	for (fd = 0; fd < NR_OPEN; fd++)
		if (files->fd[fd] && fd_is_set(files->close_on_exec, fd))
			close_slot(files, fd);
}

struct file *fget_raw(unsigned int fd)
{
	struct files_struct *files = current->files;

	if (!files || fd >= NR_OPEN || !files->fd[fd])
		return NULL;
	return get_file(files->fd[fd]);
}

struct file *fget(unsigned int fd)
{
	struct file *file = fget_raw(fd);

	if (file && (file->f_flags & O_PATH)) {
		fput(file);
		return NULL;
	}
	return file;
}

void fput(struct file *file)
{
	vfs_close(file);
}

/* The descriptors current may take: those below this (Linux's
 * rlimit(RLIMIT_NOFILE); do_prlimit keeps it within NR_OPEN). */
static unsigned int nofile_limit(void)
{
	return MIN(task_rlimit(current, RLIMIT_NOFILE), NR_OPEN);
}

int get_unused_fd_from(unsigned int start, unsigned int flags)
{
	struct files_struct *files = current->files;
	unsigned int fd, end;

	if (!files)
		return -EBADF;
	if (start >= NR_OPEN)
		return -EINVAL;
	end = nofile_limit();
	for (fd = start; fd < end; fd++) {
		if (fd_is_set(files->open_fds, fd))
			continue;
		fd_set_bit(files->open_fds, fd, true);
		fd_set_bit(files->close_on_exec, fd, flags & O_CLOEXEC);
		return fd;
	}
	return -EMFILE;
}

void put_unused_fd(unsigned int fd)
{
	struct files_struct *files = current->files;

	fd_set_bit(files->open_fds, fd, false);
	fd_set_bit(files->close_on_exec, fd, false);
}

void fd_install(unsigned int fd, struct file *file, unsigned int flags)
{
	struct files_struct *files = current->files;

	files->fd[fd] = file;
	fd_set_bit(files->close_on_exec, fd, flags & O_CLOEXEC);
}

int get_unused_fd_install(struct file *file, unsigned int flags)
{
	int fd = get_unused_fd_from(0, flags);

	if (fd >= 0)
		fd_install(fd, file, flags);
	return fd;
}

int close_fd(unsigned int fd)
{
	struct files_struct *files = current->files;

	if (!files || fd >= NR_OPEN || !files->fd[fd])
		return -EBADF;
	close_slot(files, fd);
	return 0;
}

bool get_close_on_exec(unsigned int fd)
{
	return fd_is_set(current->files->close_on_exec, fd);
}

void set_close_on_exec(unsigned int fd, bool on)
{
	fd_set_bit(current->files->close_on_exec, fd, on);
}

int replace_fd(unsigned int fd, struct file *file, unsigned int flags)
{
	struct files_struct *files = current->files;
	struct file *old;

	if (!files || fd >= nofile_limit())
		return -EBADF;
	/* Linux's do_dup2: a descriptor reserved by an open still running
	 * (another task sharing the table) cannot be replaced. */
	if (!files->fd[fd] && fd_is_set(files->open_fds, fd))
		return -EBUSY;
	old = files->fd[fd];
	files->fd[fd] = get_file(file);
	fd_set_bit(files->open_fds, fd, true);
	fd_set_bit(files->close_on_exec, fd, flags & O_CLOEXEC);
	if (old)
		fput(old);
	return fd;
}
