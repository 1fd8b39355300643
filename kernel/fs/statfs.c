/*
 * statfs(2) and fstatfs(2) (Linux's fs/statfs.c).  The VFS fills what it
 * knows of every filesystem (the magic number, a fsid from s_dev, the
 * read-only flag, NAME_MAX) and the filesystem's s_op->statfs adds its
 * counts; without one (proc, devtmpfs, pipefs) they stay 0, as for
 * Linux's simple_statfs.  f_frsize repeats f_bsize.
 */
#include <asm/page.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

int vfs_statfs(struct inode *inode, struct kstatfs *buf)
{
	struct super_block *sb = inode->i_sb;

	memset(buf, 0, sizeof(*buf));
	buf->f_type = sb->s_magic;
	buf->f_bsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	buf->f_fsid = sb->s_dev;
	buf->f_flags = sb->s_flags & SB_RDONLY ? ST_RDONLY : 0;
	return sb->s_op->statfs ? sb->s_op->statfs(sb, buf) : 0;
}

static long do_statfs_native(struct inode *inode, void __user *ubuf)
{
	struct kstatfs st;
	struct statfs buf;
	long err = vfs_statfs(inode, &st);

	if (err)
		return err;
	memset(&buf, 0, sizeof(buf));
	buf.f_type = st.f_type;
	buf.f_bsize = st.f_bsize;
	buf.f_blocks = st.f_blocks;
	buf.f_bfree = st.f_bfree;
	buf.f_bavail = st.f_bavail;
	buf.f_files = st.f_files;
	buf.f_ffree = st.f_ffree;
	buf.f_fsid.val[0] = st.f_fsid;
	buf.f_namelen = st.f_namelen;
	buf.f_frsize = st.f_bsize;
	buf.f_flags = st.f_flags;
	return copy_to_user(ubuf, &buf, sizeof(buf)) ? -EFAULT : 0;
}

long sys_statfs(const char __user *path, void __user *buf)
{
	struct inode *inode;
	long err = user_path_at(AT_FDCWD, path, LOOKUP_FOLLOW, &inode);

	if (err)
		return err;
	err = do_statfs_native(inode, buf);
	iput(inode);
	return err;
}

long sys_fstatfs(unsigned int fd, void __user *buf)
{
	struct file *file = fget_raw(fd);
	long err;

	if (!file)
		return -EBADF;
	err = do_statfs_native(file->f_inode, buf);
	fput(file);
	return err;
}
