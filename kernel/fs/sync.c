/*
 * sync(2), fsync(2) and fdatasync(2) (Linux's fs/sync.c).  Pageturn's
 * filesystems write back whole: ext2's fsync is ext2_sync() of the
 * filesystem, so fdatasync does the same as fsync; tmpfs has nothing to
 * write (0); a file without f_op->fsync (a pipe, a device) is -EINVAL,
 * as on Linux; a block device node's fsync writes the device's dirty
 * buffers.  sync() writes every mounted filesystem, then every block
 * device's dirty buffers (those written through /dev/vdb ... too), and,
 * as Linux's, always succeeds.
 */
#include <fs/devfs.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

long sys_fsync(unsigned int fd)
{
	struct file *file = fget(fd);
	long err;

	if (!file)
		return -EBADF;
	err = vfs_fsync(file);
	fput(file);
	return err;
}

long sys_fdatasync(unsigned int fd)
{
	return sys_fsync(fd);
}

long sys_sync(void)
{
	sync_filesystems();
	sync_bdevs();
	return 0;
}
