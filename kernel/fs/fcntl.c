/*
 * dup(2), dup2(2), dup3(2) and fcntl(2) (Linux's fs/fcntl.c and the dup
 * calls of fs/file.c).
 *
 * A duplicate descriptor names the same struct file (another reference),
 * so it shares the position and the status flags; close-on-exec belongs
 * to each descriptor.  F_SETFL changes O_APPEND and O_NONBLOCK only.
 *
 * Record locks are not enforced: F_GETLK always answers F_UNLCK (no
 * conflicting lock) and F_SETLK/F_SETLKW succeed after checking their
 * argument, without recording anything.  Processes that lock against
 * each other therefore run as if each had the lock; with one user and
 * the programs of a shell that is what they expect, but it is not
 * mutual exclusion.
 */
#include <fs/file.h>
#include <fs/vfs.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#define SETFL_MASK	(O_APPEND | O_NONBLOCK)

long sys_dup(unsigned int fildes)
{
	struct file *file = fget_raw(fildes);
	long fd;

	if (!file)
		return -EBADF;
	fd = get_unused_fd_install(file, 0);
	if (fd < 0)
		fput(file);
	return fd;
}

long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
	struct file *file;
	long ret;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd >= NR_OPEN)
		return -EBADF;
	file = fget_raw(oldfd);
	if (!file)
		return -EBADF;
	ret = replace_fd(newfd, file, flags);
	fput(file);
	return ret;
}

long sys_dup2(unsigned int oldfd, unsigned int newfd)
{
	struct file *file;

	if (oldfd == newfd) {
		file = fget_raw(oldfd);
		if (!file)
			return -EBADF;
		fput(file);
		return newfd;
	}
	return sys_dup3(oldfd, newfd, 0);
}

/* F_DUPFD: the lowest free descriptor >= from for file. */
static long dupfd(struct file *file, unsigned long from, unsigned int flags)
{
	long fd;

	if (from >= task_rlimit(current, RLIMIT_NOFILE))
		return -EINVAL;
	fd = get_unused_fd_from(from, flags);
	if (fd >= 0)
		fd_install(fd, get_file(file), flags);
	return fd;
}

/* Check a struct flock (setting: for F_SETLK/F_SETLKW, whose lock type
 * needs the matching access mode): 0 or -errno. */
static long check_flock(struct file *file, const struct flock *fl, bool setting)
{
	if (fl->l_whence != SEEK_SET && fl->l_whence != SEEK_CUR && fl->l_whence != SEEK_END)
		return -EINVAL;
	switch (fl->l_type) {
	case F_RDLCK:
		return setting && !(file->f_mode & FMODE_READ) ? -EBADF : 0;
	case F_WRLCK:
		return setting && !(file->f_mode & FMODE_WRITE) ? -EBADF : 0;
	case F_UNLCK:
		return 0;
	}
	return -EINVAL;
}

/* F_GETLK, F_SETLK, F_SETLKW: see the top of the file. */
static long do_lock(struct file *file, unsigned int cmd, struct flock __user *arg)
{
	struct flock fl;
	long err;

	if (copy_from_user(&fl, arg, sizeof(fl)))
		return -EFAULT;
	err = check_flock(file, &fl, cmd != F_GETLK);
	if (err || cmd != F_GETLK)
		return err;
	if (fl.l_type == F_UNLCK)
		return -EINVAL;
	fl.l_type = F_UNLCK;
	return copy_to_user(arg, &fl, sizeof(fl)) ? -EFAULT : 0;
}

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file = fget_raw(fd);
	long ret = 0;

	if (!file)
		return -EBADF;
	if ((file->f_flags & O_PATH) && cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC &&
	    cmd != F_GETFD && cmd != F_SETFD && cmd != F_GETFL) {
		fput(file);
		return -EBADF;
	}
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ret = dupfd(file, arg, cmd == F_DUPFD_CLOEXEC ? O_CLOEXEC : 0);
		break;
	case F_GETFD:
		ret = get_close_on_exec(fd) ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		set_close_on_exec(fd, arg & FD_CLOEXEC);
		break;
	case F_GETFL:
		ret = file->f_flags;
		break;
	case F_SETFL:
		file->f_flags = (file->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
		break;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
		ret = do_lock(file, cmd, (struct flock __user *)arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	fput(file);
	return ret;
}
