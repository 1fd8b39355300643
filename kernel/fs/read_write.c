/*
 * Reading, writing, seeking and listing open files (Linux's
 * fs/read_write.c and fs/readdir.c).  The checks every filesystem would
 * repeat live here: the file was opened for the access (-EBADF),
 * directories are listed, not read (-EISDIR), O_APPEND writes at the
 * end, a count is cut to MAX_RW_COUNT as Linux does so it fits the
 * return value.  The filesystem's f_op does the rest at file->f_pos.
 */
#include <asm/page.h>
#include <fs/vfs.h>
#include <uapi/errno.h>

#define MAX_RW_COUNT (0x7fffffffu & ~(PAGE_SIZE - 1))	/* Linux's INT_MAX & PAGE_MASK */

long vfs_read(struct file *file, void *buf, size_t len)
{
	if (!file || (!buf && len))
		return -EINVAL;
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (!file->f_op || !file->f_op->read)
		return -EINVAL;
	return file->f_op->read(file, buf, MIN(len, MAX_RW_COUNT), &file->f_pos);
}

long vfs_write(struct file *file, const void *buf, size_t len)
{
	if (!file || (!buf && len))
		return -EINVAL;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!file->f_op || !file->f_op->write)
		return -EINVAL;
	if (file->f_flags & O_APPEND)
		file->f_pos = file->f_inode->i_size;
	return file->f_op->write(file, buf, MIN(len, MAX_RW_COUNT), &file->f_pos);
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t base;

	if (!file)
		return -EINVAL;
	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		base = file->f_inode->i_size;
		break;
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, offset, &base) || base < 0)
		return -EINVAL;
	file->f_pos = base;
	return base;
}

int vfs_readdir(struct file *file, filldir_t filldir, void *ctx)
{
	if (!file || !filldir)
		return -EINVAL;
	if (!S_ISDIR(file->f_inode->i_mode) || !file->f_op || !file->f_op->iterate)
		return -ENOTDIR;
	return file->f_op->iterate(file, filldir, ctx);
}

int vfs_fsync(struct file *file)
{
	if (!file)
		return -EINVAL;
	if (!file->f_op || !file->f_op->fsync)
		return -EINVAL;
	return file->f_op->fsync(file);
}
