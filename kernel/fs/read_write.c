/*
 * Reading, writing and seeking open files (Linux's fs/read_write.c), for
 * the kernel (vfs_read, vfs_write, vfs_llseek) and for user space (read,
 * write, readv, writev, pread64, pwrite64, lseek, sendfile64).
 *
 * The checks every filesystem would repeat live here: the file was opened
 * for the access (-EBADF), directories are listed, not read (-EISDIR),
 * O_APPEND writes at the end, a count is cut to MAX_RW_COUNT as Linux
 * does so it fits the return value, and files without a position
 * (FMODE_STREAM: pipes, TTYs) refuse lseek, pread and pwrite (-ESPIPE).
 * The filesystem's f_op does the rest at a position: file->f_pos, or the
 * caller's for pread/pwrite.
 *
 * f_op->read and f_op->write take kernel buffers.  The system calls
 * therefore move data through a bounce buffer of one page: a user vector
 * (struct uio over the iovecs; read() is a vector of one) is filled from
 * or copied into it a chunk at a time.  Two rules make the chunks behave
 * as one call:
 *   - a stream gets one f_op call per read: the driver returns what it
 *     has (a pipe's bytes, a TTY's line), and asking again could block
 *     although data was returned.  Other files are read chunk after
 *     chunk until a short one (end of file);
 *   - writes go chunk after chunk until one is short or fails; a chunk
 *     is PIPE_BUF bytes, so a write of up to PIPE_BUF bytes reaches a
 *     pipe in one f_op call and stays atomic.
 * An error after some bytes moved returns the count (a signal during a
 * long pipe write, -EFAULT half way), as Linux does.  So does a signal:
 * a transfer to or from anything but a regular file (/dev/zero, which
 * never ends, a pipe) stops between chunks when one is pending, as
 * Linux's read_iter_zero and pipe_write do; a regular file's transfer
 * ends by itself (end of file, RLIMIT_FSIZE).  A fault copying
 * file data out undoes the position for the bytes not delivered, except
 * on streams, whose data is gone (Linux copies a pipe's data to user
 * space directly and loses nothing; the bounce buffer can).
 */
#include <asm/page.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/uio.h>

#include "internal.h"

#define MAX_RW_COUNT (0x7fffffffu & ~(PAGE_SIZE - 1))	/* Linux's INT_MAX & PAGE_MASK */
#define RW_CHUNK PAGE_SIZE				/* the bounce buffer */

_Static_assert(RW_CHUNK >= PIPE_BUF, "a write of PIPE_BUF bytes must reach a pipe in one call");

/* Should a transfer to or from file stop before its next chunk?  When a
 * signal is pending, unless file is a regular file. */
static bool rw_interrupted(const struct file *file)
{
	return signal_pending(current) && !S_ISREG(file->f_inode->i_mode);
}

/* May file be read (mode FMODE_READ) or written (FMODE_WRITE)? */
static long rw_check(struct file *file, unsigned int mode)
{
	if (!(file->f_mode & mode))
		return -EBADF;
	if (mode == FMODE_READ && S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (!file->f_op || (mode == FMODE_READ ? !file->f_op->read : !file->f_op->write))
		return -EINVAL;
	return 0;
}

/* f_op->read at *pos, checked. */
static long file_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	long err = rw_check(file, FMODE_READ);

	if (err)
		return err;
	return file->f_op->read(file, buf, MIN(len, MAX_RW_COUNT), pos);
}

/*
 * f_op->write at *pos (the end with O_APPEND, as Linux's pwrite does
 * too), checked; a regular file stops at RLIMIT_FSIZE.  A regular file's
 * write runs under its i_mutex, as Linux's generic_file_aio_write does:
 * the filesystem sleeps while it allocates, and a truncate (which takes
 * the same lock) or another write must not change the size or the block
 * map in between; an O_APPEND write's position is read under it too.
 * buf is a kernel buffer: no user page is faulted in under the lock.
 */
static long file_write(struct file *file, const void *buf, size_t len, loff_t *pos)
{
	struct inode *inode = file->f_inode;
	long err = rw_check(file, FMODE_WRITE);

	if (err)
		return err;
	if (!S_ISREG(inode->i_mode)) {
		if (file->f_flags & O_APPEND)
			*pos = inode->i_size;
		return file->f_op->write(file, buf, MIN(len, MAX_RW_COUNT), pos);
	}
	mutex_lock(&inode->i_mutex);
	if (file->f_flags & O_APPEND)
		*pos = inode->i_size;
	err = fsize_check_write(*pos, &len);
	if (!err)
		err = file->f_op->write(file, buf, MIN(len, MAX_RW_COUNT), pos);
	mutex_unlock(&inode->i_mutex);
	return err;
}

long vfs_read(struct file *file, void *buf, size_t len)
{
	if (!file || (!buf && len))
		return -EINVAL;
	return file_read(file, buf, len, &file->f_pos);
}

long vfs_write(struct file *file, const void *buf, size_t len)
{
	if (!file || (!buf && len))
		return -EINVAL;
	return file_write(file, buf, len, &file->f_pos);
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t base;

	if (!file)
		return -EINVAL;
	if (file->f_mode & FMODE_STREAM)
		return -ESPIPE;
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

/* A user vector and how far it has been consumed. */
struct uio {
	const struct iovec *iov;
	unsigned long nr;
	unsigned long idx;	/* the current entry */
	size_t off;		/* bytes of it consumed */
	size_t left;		/* bytes in the whole vector still to go */
};

/* Copy n bytes between kbuf and the vector (out: to user space), moving
 * on: 0 or -EFAULT (the vector then stands where the fault was). */
static long uio_copy(struct uio *u, char *kbuf, size_t n, bool out)
{
	while (n) {
		const struct iovec *v = &u->iov[u->idx];
		size_t len = MIN(n, v->iov_len - u->off);
		char __user *ubuf = (char __user *)v->iov_base + u->off;

		if (len && (out ? copy_to_user(ubuf, kbuf, len) : copy_from_user(kbuf, ubuf, len)))
			return -EFAULT;
		kbuf += len;
		n -= len;
		u->left -= len;
		u->off += len;
		if (u->off == v->iov_len) {
			u->idx++;
			u->off = 0;
		}
	}
	return 0;
}

/* Fault in the next n bytes of the vector for writing, without moving
 * on: 0 or -EFAULT. */
static long uio_fault_in(const struct uio *u, size_t n)
{
	unsigned long idx = u->idx;
	size_t off = u->off;

	while (n && idx < u->nr) {
		const struct iovec *v = &u->iov[idx];
		size_t len = MIN(n, v->iov_len - off);

		if (fault_in_writeable((char __user *)v->iov_base + off, len))
			return -EFAULT;
		n -= len;
		idx++;
		off = 0;
	}
	return 0;
}

/* Set up a uio over the user vector vec[vlen], copied into *kvec (kfree
 * it): -EINVAL (too many entries, a total past SSIZE_MAX), -EFAULT, or
 * 0 with the total cut to MAX_RW_COUNT. */
static long uio_import(struct uio *u, const struct iovec __user *vec, unsigned long vlen,
		       struct iovec **kvec)
{
	size_t total = 0;
	unsigned long i;

	*kvec = NULL;
	if (vlen > UIO_MAXIOV)
		return -EINVAL;
	if (vlen) {
		*kvec = kmalloc(vlen * sizeof(**kvec), GFP_KERNEL);
		if (!*kvec)
			return -ENOMEM;
		if (copy_from_user(*kvec, vec, vlen * sizeof(**kvec)))
			return -EFAULT;
	}
	for (i = 0; i < vlen; i++) {
		if ((long)(*kvec)[i].iov_len < 0 ||
		    __builtin_add_overflow(total, (*kvec)[i].iov_len, &total) || (long)total < 0)
			return -EINVAL;
		if (!access_ok((*kvec)[i].iov_base, (*kvec)[i].iov_len))
			return -EFAULT;
	}
	u->iov = *kvec;
	u->nr = vlen;
	u->idx = 0;
	u->off = 0;
	u->left = MIN(total, MAX_RW_COUNT);
	return 0;
}

/* Read into the vector from *pos: the count, or -errno if none. */
static long do_read_uio(struct file *file, struct uio *u, loff_t *pos)
{
	size_t done = 0, want;
	char *kbuf;
	long n = rw_check(file, FMODE_READ);

	if (n || !u->left)
		return n;
	kbuf = kmalloc(MIN(u->left, RW_CHUNK), GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (u->left) {
		want = MIN(u->left, RW_CHUNK);
		/* A stream's bytes cannot be put back: make sure they can
		 * be delivered before taking them. */
		if ((file->f_mode & FMODE_STREAM) && uio_fault_in(u, want)) {
			n = -EFAULT;
			break;
		}
		n = file_read(file, kbuf, want, pos);
		if (n <= 0)
			break;
		if (uio_copy(u, kbuf, n, true)) {
			if (!(file->f_mode & FMODE_STREAM))
				*pos -= n;
			n = -EFAULT;
			break;
		}
		done += n;
		if ((size_t)n < want || (file->f_mode & FMODE_STREAM) || rw_interrupted(file))
			break;
		cond_resched();
	}
	kfree(kbuf);
	return done ? (long)done : n;
}

/* Write the vector at *pos: the count, or -errno if none. */
static long do_write_uio(struct file *file, struct uio *u, loff_t *pos)
{
	size_t done = 0, want;
	char *kbuf;
	long n = rw_check(file, FMODE_WRITE);

	if (n || !u->left)
		return n;
	kbuf = kmalloc(MIN(u->left, RW_CHUNK), GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (u->left) {
		want = MIN(u->left, RW_CHUNK);
		if (uio_copy(u, kbuf, want, false)) {
			n = -EFAULT;
			break;
		}
		n = file_write(file, kbuf, want, pos);
		if (n <= 0)
			break;
		done += n;
		if ((size_t)n < want || rw_interrupted(file))
			break;
		cond_resched();
	}
	kfree(kbuf);
	return done ? (long)done : n;
}

/* read/write/pread/pwrite of one user buffer; pos NULL: the file's. */
static long rw_user(unsigned int fd, char __user *buf, size_t count, loff_t *pos, bool write)
{
	struct iovec iov = { buf, count };
	struct uio u = { &iov, 1, 0, 0, MIN(count, MAX_RW_COUNT) };
	struct file *file;
	long ret;

	if (!access_ok(buf, count))
		return -EFAULT;
	file = fget(fd);
	if (!file)
		return -EBADF;
	if (pos && (file->f_mode & FMODE_STREAM))
		ret = -ESPIPE;
	else if (write)
		ret = do_write_uio(file, &u, pos ? pos : &file->f_pos);
	else
		ret = do_read_uio(file, &u, pos ? pos : &file->f_pos);
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

static long rw_vector(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		      bool write)
{
	struct file *file = fget(fd);
	struct iovec *kvec;
	struct uio u;
	long ret;

	if (!file)
		return -EBADF;
	ret = uio_import(&u, vec, vlen, &kvec);
	if (!ret)
		ret = write ? do_write_uio(file, &u, &file->f_pos) :
			      do_read_uio(file, &u, &file->f_pos);
	kfree(kvec);
	fput(file);
	return ret;
}

long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return rw_vector(fd, vec, vlen, false);
}

long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return rw_vector(fd, vec, vlen, true);
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

/* Copy up to count bytes from in (at *pos) to out (at its position). */
static long do_sendfile(struct file *in, struct file *out, loff_t *pos, size_t count)
{
	size_t done = 0, want;
	long n, m = 0;
	char *kbuf;

	if (!(in->f_mode & FMODE_READ) || !(out->f_mode & FMODE_WRITE))
		return -EBADF;
	if (out->f_flags & O_APPEND)
		return -EINVAL;
	count = MIN(count, MAX_RW_COUNT);
	if (!count)
		return 0;
	kbuf = kmalloc(MIN(count, RW_CHUNK), GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (done < count) {
		want = MIN(count - done, RW_CHUNK);
		n = file_read(in, kbuf, want, pos);
		if (n <= 0) {
			m = n;
			break;
		}
		m = file_write(out, kbuf, n, &out->f_pos);
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
