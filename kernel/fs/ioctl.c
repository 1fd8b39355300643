/*
 * ioctl(2) (Linux's fs/ioctl.c): the requests every file takes are
 * handled here -- FIOCLEX and FIONCLEX set and clear the descriptor's
 * close-on-exec, FIONBIO sets or clears O_NONBLOCK from the int arg
 * points to -- and the rest go to the file's f_op->ioctl (a TTY, a
 * pipe's FIONREAD).  A file without one, or a request it does not know,
 * is -ENOTTY, Linux's "inappropriate ioctl for device".
 */
#include <fs/file.h>
#include <fs/vfs.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/ioctls.h>

long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file = fget(fd);
	long ret = 0;
	int on;

	if (!file)
		return -EBADF;
	switch (cmd) {
	case FIOCLEX:
		set_close_on_exec(fd, true);
		break;
	case FIONCLEX:
		set_close_on_exec(fd, false);
		break;
	case FIONBIO:
		if (copy_from_user(&on, (const int __user *)arg, sizeof(on))) {
			ret = -EFAULT;
			break;
		}
		if (on)
			file->f_flags |= O_NONBLOCK;
		else
			file->f_flags &= ~O_NONBLOCK;
		break;
	default:
		ret = file->f_op && file->f_op->ioctl ? file->f_op->ioctl(file, cmd, arg) : -ENOTTY;
		break;
	}
	fput(file);
	return ret;
}
