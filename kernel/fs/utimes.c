/*
 * utimensat(2) (Linux's fs/utimes.c).  An inode keeps one time, i_mtime
 * (fs/vfs.h): the modification time is set (to the given seconds, or to
 * the wall clock for UTIME_NOW and a NULL times), the access time is
 * checked and dropped.  Nanoseconds are dropped too.  With a NULL
 * filename the call works on dfd itself, as Linux's does (futimens).
 */
#include <drivers/rtc.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/time.h>

#include "internal.h"

static bool nsec_valid(long nsec)
{
	return (nsec >= 0 && nsec < NSEC_PER_SEC) || nsec == UTIME_NOW || nsec == UTIME_OMIT;
}

long sys_utimensat(int dfd, const char __user *filename, const struct timespec __user *utimes,
		   int flags)
{
	struct iattr attr = { .ia_valid = ATTR_MTIME, .ia_mtime = ktime_get_real_seconds() };
	struct timespec times[2];
	struct inode *inode;
	struct file *file;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (utimes) {
		if (copy_from_user(times, utimes, sizeof(times)))
			return -EFAULT;
		if (!nsec_valid(times[0].tv_nsec) || !nsec_valid(times[1].tv_nsec))
			return -EINVAL;
		if (times[1].tv_nsec == UTIME_OMIT)
			attr.ia_valid = 0;
		else if (times[1].tv_nsec != UTIME_NOW)
			attr.ia_mtime = times[1].tv_sec;
	}
	if (!filename && dfd != AT_FDCWD) {
		if (flags & AT_SYMLINK_NOFOLLOW)
			return -EINVAL;
		file = fget_raw(dfd);
		if (!file)
			return -EBADF;
		inode = file->f_inode;
		ihold(inode);
		fput(file);
	} else {
		err = user_path_at(dfd, filename, (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
						  (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &inode);
		if (err)
			return err;
	}
	err = attr.ia_valid ? notify_change(inode, &attr) : 0;
	iput(inode);
	return err;
}
