/*
 * Reading, writing and seeking open files (Linux's fs/read_write.c), for
 * the kernel (vfs_read, vfs_write, vfs_llseek) and for user space (read,
 * write, readv, writev, pread64, pwrite64, preadv, pwritev, lseek,
 * sendfile64).
 *
 * The checks every filesystem would repeat live here: the file was opened
 * for the access (-EBADF), directories are listed, not read (-EISDIR),
 * O_APPEND writes a regular file at its end, a count is cut to
 * MAX_RW_COUNT as Linux does so it fits the return value, a transfer
 * whose end would pass the largest offset is -EINVAL (Linux's
 * rw_verify_area), and files without
 * a position (FMODE_STREAM: pipes, TTYs) refuse lseek and the calls with
 * a position (pread64, pwrite64, preadv, pwritev: -ESPIPE).
 * The filesystem's f_op does the rest at a position: file->f_pos, or the
 * caller's for pread/pwrite, carried in a struct kiocb.
 *
 * Data moves in one call of f_op->read_iter or f_op->write_iter, with an
 * iov_iter (fs/uio.h) over the caller's memory: the user's iovecs for
 * the system calls (read() is a vector of one), a kernel buffer for
 * vfs_read and vfs_write.  The filesystem copies straight between its
 * pages, ring or buffer and that memory, so what these calls mean is the
 * f_op's, as in Linux:
 *   - a regular file moves everything up to end of file (or, writing,
 *     RLIMIT_FSIZE and a full disk); a copy that faults part way ends
 *     the call with the bytes before the fault, the position advanced by
 *     exactly those (-EFAULT when there were none);
 *   - a stream returns what it has: a pipe's bytes, a TTY's line; a
 *     pipe write of up to PIPE_BUF bytes goes in whole; a stream's bytes
 *     are only consumed once they have reached the caller, so a fault
 *     loses nothing;
 *   - devices that never run dry (/dev/zero, /dev/urandom) stop at a
 *     pending signal, a pipe writer when it must wait, each returning
 *     the bytes so far, as Linux's read_iter_zero and pipe_write do.
 * sendfile has no user memory on either side: it moves the data through
 * a kernel buffer of one page, a read then a write per page, and stops
 * between pages at a pending signal unless both files are regular.  Its
 * source may not be a pipe (-EINVAL, as Linux), whose bytes the read
 * would take before the write had them.
 */
#include <asm/page.h>
#include <fs/file.h>
#include <fs/uio.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

#define SENDFILE_CHUNK PAGE_SIZE	/* sendfile's kernel buffer */

/* May file be read (mode FMODE_READ) or written (FMODE_WRITE)? */
static long rw_check(struct file *file, unsigned int mode)
{
	if (!(file->f_mode & mode))
		return -EBADF;
	if (mode == FMODE_READ && S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (!file->f_op || (mode == FMODE_READ ? !file->f_op->read_iter : !file->f_op->write_iter))
		return -EINVAL;
	return 0;
}

/* May count bytes move at pos?  Not past the largest offset on a file
 * with a position (Linux's rw_verify_area): 0 or -EINVAL. */
static long rw_verify_area(const struct file *file, loff_t pos, size_t count)
{
	loff_t end;

	if (file->f_mode & FMODE_STREAM)
		return 0;
	if (pos < 0 || __builtin_add_overflow(pos, (loff_t)count, &end))
		return -EINVAL;
	return 0;
}

/* f_op->read_iter into iter at *pos, checked, advancing *pos. */
static long do_iter_read(struct file *file, struct iov_iter *iter, loff_t *pos)
{
	struct kiocb kiocb = { .ki_filp = file, .ki_pos = *pos };
	long ret = rw_check(file, FMODE_READ);

	if (ret || !iov_iter_count(iter))
		return ret;
	iov_iter_truncate(iter, MAX_RW_COUNT);
	ret = rw_verify_area(file, *pos, iov_iter_count(iter));
	if (ret)
		return ret;
	ret = file->f_op->read_iter(&kiocb, iter);
	*pos = kiocb.ki_pos;
	return ret;
}

/*
 * f_op->write_iter from iter at *pos (a regular file's end with O_APPEND,
 * as Linux's pwrite does too; other files ignore O_APPEND, as Linux's
 * blkdev_write_iter does: a block device's write goes at *pos, never at
 * its node's i_size), checked, advancing *pos; a regular file stops at
 * RLIMIT_FSIZE.  A regular file's write runs under its i_mutex, as
 * Linux's generic_file_write_iter does: the filesystem sleeps while it
 * allocates and while it faults in the caller's memory, and a truncate
 * (which takes the same lock) or another write must not change the size
 * or the block map in between; an O_APPEND write's position is read
 * under it too.  The page fault path never takes an i_mutex, so a fault
 * on a mapping of this very file is served under it (mm/filemap.c's
 * generic_perform_write has the page-lock side of that).
 */
static long do_iter_write(struct file *file, struct iov_iter *iter, loff_t *pos)
{
	struct inode *inode = file->f_inode;
	struct kiocb kiocb = { .ki_filp = file, .ki_pos = *pos };
	long ret = rw_check(file, FMODE_WRITE);
	size_t len;

	if (ret || !iov_iter_count(iter))
		return ret;
	iov_iter_truncate(iter, MAX_RW_COUNT);
	ret = rw_verify_area(file, *pos, iov_iter_count(iter));
	if (ret)
		return ret;
	if (!S_ISREG(inode->i_mode)) {
		ret = file->f_op->write_iter(&kiocb, iter);
	} else {
		mutex_lock(&inode->i_mutex);
		/* Swap I/O owns an active swap file's blocks (Linux 5.4's
		 * generic_write_checks). */
		if (IS_SWAPFILE(inode)) {
			mutex_unlock(&inode->i_mutex);
			return -ETXTBSY;
		}
		if (file->f_flags & O_APPEND)
			kiocb.ki_pos = inode->i_size;
		len = iov_iter_count(iter);
		ret = fsize_check_write(kiocb.ki_pos, &len);
		if (!ret) {
			iov_iter_truncate(iter, len);
			ret = file->f_op->write_iter(&kiocb, iter);
		}
		mutex_unlock(&inode->i_mutex);
	}
	*pos = kiocb.ki_pos;
	return ret;
}

long vfs_read(struct file *file, void *buf, size_t len)
{
	struct kvec kv = { buf, len };
	struct iov_iter iter;

	if (!file || (!buf && len))
		return -EINVAL;
	iov_iter_kvec(&iter, READ, &kv, 1, len);
	return do_iter_read(file, &iter, &file->f_pos);
}

long vfs_write(struct file *file, const void *buf, size_t len)
{
	struct kvec kv = { (void *)buf, len };
	struct iov_iter iter;

	if (!file || (!buf && len))
		return -EINVAL;
	iov_iter_kvec(&iter, WRITE, &kv, 1, len);
	return do_iter_write(file, &iter, &file->f_pos);
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	if (!file)
		return -EINVAL;
	if (file->f_mode & FMODE_STREAM)
		return -ESPIPE;
	if (file->f_op && file->f_op->llseek)
		return file->f_op->llseek(file, offset, whence);
	return generic_file_llseek_size(file, offset, whence, file->f_inode->i_size);
}

loff_t generic_file_llseek_size(struct file *file, loff_t offset, int whence, loff_t eof)
{
	loff_t base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		base = eof;
		break;
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, offset, &base) || base < 0)
		return -EINVAL;
	file->f_pos = base;
	return base;
}

/*
 * Linux's iterate_dir: the directory's i_mutex is held around iterate,
 * so no entry changes while the filesystem reads its entries (ext2
 * sleeps on the disk in the middle), and a directory removed before the
 * lock was taken is found dead under it: -ENOENT, never a listing whose
 * ".." names a parent that may be gone.
 */
int vfs_readdir(struct file *file, filldir_t filldir, void *ctx)
{
	struct inode *inode;
	int err;

	if (!file || !filldir)
		return -EINVAL;
	inode = file->f_inode;
	if (!S_ISDIR(inode->i_mode) || !file->f_op || !file->f_op->iterate)
		return -ENOTDIR;
	mutex_lock(&inode->i_mutex);
	err = IS_DEADDIR(inode) ? -ENOENT : file->f_op->iterate(file, filldir, ctx);
	mutex_unlock(&inode->i_mutex);
	return err;
}

int vfs_fsync(struct file *file)
{
	if (!file)
		return -EINVAL;
	if (!file->f_op || !file->f_op->fsync)
		return -EINVAL;
	return file->f_op->fsync(file);
}

/* --- user buffers -------------------------------------------------------------- */

/* read/write/pread/pwrite of one user buffer; pos NULL: the file's. */
static long rw_user(unsigned int fd, char __user *buf, size_t count, loff_t *pos, bool write)
{
	struct iov_iter iter;
	struct iovec iov;
	struct file *file;
	long ret;

	if (!access_ok(buf, count))
		return -EFAULT;
	file = fget(fd);
	if (!file)
		return -EBADF;
	import_single_range(write ? WRITE : READ, buf, count, &iov, &iter);
	if (pos && (file->f_mode & FMODE_STREAM))
		ret = -ESPIPE;
	else if (write)
		ret = do_iter_write(file, &iter, pos ? pos : &file->f_pos);
	else
		ret = do_iter_read(file, &iter, pos ? pos : &file->f_pos);
	fput(file);
	return ret;
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	return rw_user(fd, buf, count, NULL, false);
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	return rw_user(fd, (char __user *)buf, count, NULL, true);
}

long sys_pread64(unsigned int fd, char __user *buf, size_t count, int64_t pos)
{
	if (pos < 0)
		return -EINVAL;
	return rw_user(fd, buf, count, &pos, false);
}

long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, int64_t pos)
{
	if (pos < 0)
		return -EINVAL;
	return rw_user(fd, (char __user *)buf, count, &pos, true);
}

/* readv/writev/preadv/pwritev; pos NULL: the file's. */
static long rw_vector(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		      loff_t *pos, bool write)
{
	struct iovec fast_iov[UIO_FASTIOV], *iov;
	struct file *file = fget(fd);
	struct iov_iter iter;
	long ret;

	if (!file)
		return -EBADF;
	ret = import_iovec(write ? WRITE : READ, vec, vlen, UIO_FASTIOV, fast_iov, &iov, &iter);
	if (ret >= 0 && pos && (file->f_mode & FMODE_STREAM))
		ret = -ESPIPE;
	else if (ret >= 0)
		ret = write ? do_iter_write(file, &iter, pos ? pos : &file->f_pos) :
			      do_iter_read(file, &iter, pos ? pos : &file->f_pos);
	kfree(iov);
	fput(file);
	return ret;
}

long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return rw_vector(fd, vec, vlen, NULL, false);
}

long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return rw_vector(fd, vec, vlen, NULL, true);
}

/* The position comes in two halves for 32-bit callers; on x86-64 pos_l
 * holds all of it and pos_h is ignored, as Linux's pos_from_hilo gives. */
long sys_preadv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		unsigned long pos_l, unsigned long pos_h)
{
	loff_t pos = (loff_t)pos_l;

	(void)pos_h;
	if (pos < 0)
		return -EINVAL;
	return rw_vector(fd, vec, vlen, &pos, false);
}

long sys_pwritev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h)
{
	loff_t pos = (loff_t)pos_l;

	(void)pos_h;
	if (pos < 0)
		return -EINVAL;
	return rw_vector(fd, vec, vlen, &pos, true);
}

long sys_lseek(unsigned int fd, int64_t offset, unsigned int whence)
{
	struct file *file = fget(fd);
	long ret;

	if (!file)
		return -EBADF;
	ret = vfs_llseek(file, offset, whence);
	fput(file);
	return ret;
}

/* Should sendfile stop before its next page?  When a signal is pending,
 * unless file is a regular file. */
static bool rw_interrupted(const struct file *file)
{
	return signal_pending(current) && !S_ISREG(file->f_inode->i_mode);
}

/* Copy up to count bytes from in (at *pos) to out (at its position),
 * through a kernel buffer a page at a time. */
static long do_sendfile(struct file *in, struct file *out, loff_t *pos, size_t count)
{
	size_t done = 0, want;
	struct iov_iter iter;
	struct kvec kv;
	long n, m = 0;
	char *kbuf;

	if (!(in->f_mode & FMODE_READ) || !(out->f_mode & FMODE_WRITE))
		return -EBADF;
	if (out->f_flags & O_APPEND)
		return -EINVAL;
	/* A pipe's bytes would be gone from it before out took them, and
	 * out may take fewer: Linux's pipes have no splice_read, so it
	 * refuses them here. */
	if (S_ISFIFO(in->f_inode->i_mode))
		return -EINVAL;
	count = MIN(count, MAX_RW_COUNT);
	if (!count)
		return 0;
	kbuf = kmalloc(MIN(count, SENDFILE_CHUNK), GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (done < count) {
		want = MIN(count - done, SENDFILE_CHUNK);
		kv = (struct kvec){ kbuf, want };
		iov_iter_kvec(&iter, READ, &kv, 1, want);
		n = do_iter_read(in, &iter, pos);
		if (n <= 0) {
			m = n;
			break;
		}
		kv = (struct kvec){ kbuf, n };
		iov_iter_kvec(&iter, WRITE, &kv, 1, n);
		m = do_iter_write(out, &iter, &out->f_pos);
		if (m < n && !(in->f_mode & FMODE_STREAM))
			*pos -= n - MAX(m, 0);
		if (m > 0)
			done += m;
		if (m < n || (in->f_mode & FMODE_STREAM) || rw_interrupted(in) ||
		    rw_interrupted(out))
			break;
		cond_resched();
	}
	kfree(kbuf);
	return done ? (long)done : m;
}

long sys_sendfile64(int out_fd, int in_fd, int64_t __user *offset, size_t count)
{
	struct file *in = fget(in_fd), *out = fget(out_fd);
	loff_t pos;
	long ret;

	if (!in || !out) {
		ret = -EBADF;
		goto out;
	}
	if (!offset) {
		ret = do_sendfile(in, out, &in->f_pos, count);
		goto out;
	}
	if (copy_from_user(&pos, offset, sizeof(pos))) {
		ret = -EFAULT;
		goto out;
	}
	if (pos < 0)
		ret = -EINVAL;
	else if (in->f_mode & FMODE_STREAM)
		ret = -ESPIPE;
	else
		ret = do_sendfile(in, out, &pos, count);
	if (ret >= 0 && copy_to_user(offset, &pos, sizeof(pos)))
		ret = -EFAULT;
out:
	if (in)
		fput(in);
	if (out)
		fput(out);
	return ret;
}
