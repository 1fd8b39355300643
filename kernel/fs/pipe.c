/*
 * Pipes (Linux's fs/pipe.c): pipe(2) and pipe2(2), a byte ring between a
 * read end and a write end.
 *
 * The ring.  A pipe holds up to PIPE_SIZE bytes (16 pages, Linux's
 * default capacity) in a ring of PIPE_DEF_BUFFERS pages, allocated the
 * first time a write reaches them and kept until the pipe goes.  start
 * is the ring offset of the oldest unread byte and len the number
 * unread, so
 *     0 <= len <= PIPE_SIZE, 0 <= start < PIPE_SIZE,
 * and the unread bytes are [start, start + len) modulo PIPE_SIZE.
 *
 * The ends.  Each end is a struct file on the same pipe inode (FMODE_READ
 * or FMODE_WRITE, FMODE_STREAM: no position, so lseek, pread and pwrite
 * are -ESPIPE); readers and writers count the open files of each kind,
 * and the last close of one (release) wakes the other side, which then
 * sees end of file (read returns 0) or a broken pipe (write: SIGPIPE
 * and -EPIPE).  dup and fork share files, so the counts are of files,
 * not descriptors.
 *
 * Blocking.  A reader with nothing to read sleeps on rd_wait until a
 * byte or the last writer's close; a writer sleeps on wr_wait until room
 * or the last reader's close; each side wakes the other's queue after it
 * moves data.  wait_event_interruptible gives -ERESTARTSYS on a signal
 * (a writer that already wrote part returns that count).  O_NONBLOCK
 * makes a wait -EAGAIN instead.  A write of at most PIPE_BUF bytes is
 * atomic: it waits until it fits whole, so writers never interleave
 * inside it; a longer one goes in pieces as room appears.  Pollers sleep
 * on the same two queues (POLLIN with data, POLLOUT with PIPE_BUF free,
 * POLLHUP for a reader without writers, POLLERR for a writer without
 * readers).
 *
 * The inodes.  A pipe's inode belongs to pipefs, a super_block that is
 * never mounted (Linux's pipe_mnt): S_IFIFO | 0600, numbered in turn,
 * i_private the pipe_inode_info.  Its drop_inode always says yes, so the
 * last iput (after the last file's) frees the ring and the inode.
 *
 * One CPU, no preemption: a task runs here undisturbed until it sleeps,
 * and it re-checks the pipe after every sleep.
 */
#include <asm/page.h>
#include <asm/uaccess.h>
#include <drivers/rtc.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <fs/uio.h>
#include <mm/gfp.h>
#include <mm/slab.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>
#include <uapi/ioctls.h>
#include <uapi/magic.h>

#include "internal.h"

#define PIPE_DEF_BUFFERS	16
#define PIPE_SIZE		(PIPE_DEF_BUFFERS * PAGE_SIZE)

struct pipe_inode_info {
	wait_queue_head_t rd_wait;	/* readers waiting for data */
	wait_queue_head_t wr_wait;	/* writers waiting for room */
	char *bufs[PIPE_DEF_BUFFERS];	/* the ring's pages, NULL until written */
	unsigned int start;		/* ring offset of the oldest unread byte */
	unsigned int len;		/* unread bytes */
	unsigned int readers;		/* open read ends */
	unsigned int writers;		/* open write ends */
};

static const struct file_operations pipefifo_fops;
static const struct inode_operations pipe_inode_operations;
static struct file_system_type pipefs_type = { .name = "pipefs" };
static struct super_block pipe_sb;
static uint64_t pipe_ino;

static struct pipe_inode_info *PIPE_I(const struct inode *inode)
{
	return inode->i_private;
}

/* --- pipefs ------------------------------------------------------------------- */

static int pipefs_read_inode(struct inode *inode)
{
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);

	if (!pipe)
		return -ENOMEM;
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	inode->i_private = pipe;
	inode->i_mode = S_IFIFO | S_IRUSR | S_IWUSR;
	inode->i_nlink = 1;
	inode->i_blksize = PAGE_SIZE;
	inode->i_mtime = ktime_get_real_seconds();
	inode->i_op = &pipe_inode_operations;
	inode->i_fop = &pipefifo_fops;
	return 0;
}

static bool pipefs_drop_inode(struct inode *inode)
{
	(void)inode;
	return true;
}

static void pipefs_evict_inode(struct inode *inode)
{
	struct pipe_inode_info *pipe = PIPE_I(inode);
	unsigned int i;

	for (i = 0; i < PIPE_DEF_BUFFERS; i++)
		if (pipe->bufs[i])
			free_pages((unsigned long)pipe->bufs[i], 0);
	kfree(pipe);
}

static const struct super_operations pipefs_sops = {
	.read_inode = pipefs_read_inode,
	.drop_inode = pipefs_drop_inode,
	.evict_inode = pipefs_evict_inode,
};

static const struct inode_operations pipe_inode_operations = {
	.setattr = simple_setattr,
};

/* A new pipe inode, held. */
static int get_pipe_inode(struct inode **res)
{
	if (!pipe_sb.s_op) {
		pipe_sb.s_type = &pipefs_type;
		pipe_sb.s_op = &pipefs_sops;
		pipe_sb.s_magic = PIPEFS_MAGIC;
		pipe_sb.s_dev = get_anon_dev();
		INIT_LIST_HEAD(&pipe_sb.s_inodes);
		mutex_init(&pipe_sb.s_vfs_rename_mutex);
	}
	return iget(&pipe_sb, ++pipe_ino, res);
}

/* --- the ring ------------------------------------------------------------------- */

/*
 * Copy up to n unread bytes (n <= len) to to and consume what was copied,
 * with page faults disabled: nothing sleeps, so the ring cannot change
 * under the copy, and a destination page that is not present stops it
 * with the bytes before it consumed and the rest still unread.  The
 * count copied.
 */
static size_t pipe_copy_to_iter(struct pipe_inode_info *pipe, struct iov_iter *to, size_t n)
{
	size_t done = 0, off, chunk, copied;

	pagefault_disable();
	while (done < n) {
		off = pipe->start % PAGE_SIZE;
		chunk = MIN(n - done, PAGE_SIZE - off);
		copied = copy_to_iter(pipe->bufs[pipe->start / PAGE_SIZE] + off, chunk, to);
		done += copied;
		pipe->len -= copied;
		pipe->start = (pipe->start + copied) % PIPE_SIZE;
		if (copied < chunk)
			break;
	}
	pagefault_enable();
	if (!pipe->len)
		pipe->start = 0;	/* keep using the first pages */
	return done;
}

/*
 * Make sure the ring pages the n bytes after the unread ones will land in
 * are allocated: 0 when they all were, 1 after allocating one (the
 * allocation may sleep: the caller looks at the pipe afresh), -ENOMEM.
 */
static int pipe_grow(struct pipe_inode_info *pipe, size_t n)
{
	unsigned int end = (pipe->start + pipe->len) % PIPE_SIZE, at, page;
	size_t done;
	char *buf;

	for (done = 0; done < n; done += PAGE_SIZE - at % PAGE_SIZE) {
		at = (end + done) % PIPE_SIZE;
		page = at / PAGE_SIZE;
		if (pipe->bufs[page])
			continue;
		buf = (char *)__get_free_pages(GFP_KERNEL, 0);
		if (!buf)
			return -ENOMEM;
		/* Another writer may have filled the slot while we slept. */
		if (pipe->bufs[page])
			free_pages((unsigned long)buf, 0);
		else
			pipe->bufs[page] = buf;
		return 1;
	}
	return 0;
}

/*
 * Copy up to n bytes (n <= PIPE_SIZE - len, their pages allocated) from
 * from into the ring after the unread bytes, with page faults disabled,
 * without committing them (len is unchanged): the count copied, short at
 * a source page that is not present.
 */
static size_t pipe_copy_from_iter(struct pipe_inode_info *pipe, struct iov_iter *from, size_t n)
{
	size_t done = 0, off, chunk, copied;
	unsigned int end;

	pagefault_disable();
	while (done < n) {
		end = (pipe->start + pipe->len + done) % PIPE_SIZE;
		off = end % PAGE_SIZE;
		chunk = MIN(n - done, PAGE_SIZE - off);
		copied = copy_from_iter(pipe->bufs[end / PAGE_SIZE] + off, chunk, from);
		done += copied;
		if (copied < chunk)
			break;
	}
	pagefault_enable();
	return done;
}

/* --- the file operations ------------------------------------------------------------ */

/*
 * Copying to and from user memory.  The ring is shared by every reader
 * and writer and has no lock: the kernel is not preemptive, so what runs
 * without sleeping runs alone.  The copies therefore run with page faults
 * disabled, and a missing page is faulted in afterwards (which sleeps),
 * the pipe being looked at afresh once it is in.  A reader consumes only
 * the bytes that reached its buffer; a writer commits only the bytes it
 * copied, and a write of up to PIPE_BUF bytes only as a whole.  A buffer
 * that cannot be faulted in at all ends the call: the count so far, or
 * -EFAULT.
 */
static long pipe_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct pipe_inode_info *pipe = PIPE_I(file->f_inode);
	size_t done = 0, n, copied;
	int err;

	for (;;) {
		if (!pipe->len) {
			if (done || !pipe->writers)
				break;
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			err = wait_event_interruptible(pipe->rd_wait, pipe->len || !pipe->writers);
			if (err)
				return err;
			continue;
		}
		n = MIN(iov_iter_count(to), pipe->len);
		copied = pipe_copy_to_iter(pipe, to, n);
		done += copied;
		if (copied)
			wake_up(&pipe->wr_wait);
		if (copied == n)
			break;
		if (fault_in_iov_iter_writeable(to, n - copied) == n - copied)
			return done ? (long)done : -EFAULT;
	}
	return done;
}

static long pipe_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct pipe_inode_info *pipe = PIPE_I(file->f_inode);
	size_t total = iov_iter_count(from), done = 0, room, n, copied, left;
	bool faulted = false;
	long err = 0;

	while (iov_iter_count(from)) {
		if (!pipe->readers) {
			send_sig(SIGPIPE, current);
			err = -EPIPE;
			break;
		}
		room = PIPE_SIZE - pipe->len;
		/* Up to PIPE_BUF bytes go in whole or not at all. */
		if (room && (total > PIPE_BUF || room >= total)) {
			n = MIN(room, iov_iter_count(from));
			err = pipe_grow(pipe, n);
			if (err < 0)
				break;
			if (err)
				continue;
			copied = pipe_copy_from_iter(pipe, from, n);
			if (copied < n && total <= PIPE_BUF) {
				iov_iter_revert(from, copied);
				copied = 0;
			}
			if (copied) {
				pipe->len += copied;
				done += copied;
				wake_up(&pipe->rd_wait);
			}
			if (copied < n) {
				/* Fault the rest in; past a byte that cannot be,
				 * the write ends. */
				left = fault_in_iov_iter_readable(from, n - copied);
				if (left) {
					iov_iter_truncate(from, n - copied - left);
					faulted = true;
				}
			}
			continue;
		}
		if (file->f_flags & O_NONBLOCK) {
			err = -EAGAIN;
			break;
		}
		err = wait_event_interruptible(pipe->wr_wait, !pipe->readers ||
					       PIPE_SIZE - pipe->len >= (total > PIPE_BUF ? 1 : total));
		if (err)
			break;
	}
	if (done)
		file->f_inode->i_mtime = ktime_get_real_seconds();
	if (!err && faulted)
		err = -EFAULT;
	return done ? (long)done : err;
}

static unsigned int pipe_poll(struct file *file, struct poll_table_struct *wait)
{
	struct pipe_inode_info *pipe = PIPE_I(file->f_inode);
	unsigned int mask = 0;

	if (file->f_mode & FMODE_READ) {
		poll_wait(file, &pipe->rd_wait, wait);
		if (pipe->len)
			mask |= POLLIN | POLLRDNORM;
		if (!pipe->writers)
			mask |= POLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		poll_wait(file, &pipe->wr_wait, wait);
		if (PIPE_SIZE - pipe->len >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (!pipe->readers)
			mask |= POLLERR;
	}
	return mask;
}

static long pipe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int count = PIPE_I(file->f_inode)->len;

	if (cmd != FIONREAD)
		return -ENOTTY;
	return copy_to_user((int __user *)arg, &count, sizeof(count)) ? -EFAULT : 0;
}

static void pipe_release(struct file *file)
{
	struct pipe_inode_info *pipe = PIPE_I(file->f_inode);

	if (file->f_mode & FMODE_READ)
		pipe->readers--;
	if (file->f_mode & FMODE_WRITE)
		pipe->writers--;
	wake_up(&pipe->rd_wait);
	wake_up(&pipe->wr_wait);
}

static const struct file_operations pipefifo_fops = {
	.open = stream_open,
	.read_iter = pipe_read_iter,
	.write_iter = pipe_write_iter,
	.poll = pipe_poll,
	.ioctl = pipe_ioctl,
	.release = pipe_release,
};

/* --- pipe(2) -------------------------------------------------------------------------- */

int create_pipe_files(struct file **res, unsigned int flags)
{
	struct pipe_inode_info *pipe;
	struct inode *inode;
	int err = get_pipe_inode(&inode);

	if (err)
		return err;
	pipe = PIPE_I(inode);
	ihold(inode);
	err = do_dentry_open(inode, O_RDONLY | (flags & O_NONBLOCK), &res[0]);
	if (err) {
		iput(inode);
		return err;
	}
	pipe->readers = 1;
	err = do_dentry_open(inode, O_WRONLY | (flags & O_NONBLOCK), &res[1]);
	if (err) {
		fput(res[0]);
		return err;
	}
	pipe->writers = 1;
	return 0;
}

long sys_pipe2(int __user *fildes, int flags)
{
	struct file *files[2];
	int fd[2];
	long err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = create_pipe_files(files, flags);
	if (err)
		return err;
	fd[0] = get_unused_fd_from(0, flags);
	if (fd[0] < 0) {
		err = fd[0];
		goto fail_files;
	}
	fd[1] = get_unused_fd_from(0, flags);
	if (fd[1] < 0) {
		err = fd[1];
		goto fail_fd;
	}
	if (copy_to_user(fildes, fd, sizeof(fd))) {
		err = -EFAULT;
		put_unused_fd(fd[1]);
		goto fail_fd;
	}
	fd_install(fd[0], files[0], flags);
	fd_install(fd[1], files[1], flags);
	return 0;
fail_fd:
	put_unused_fd(fd[0]);
fail_files:
	fput(files[0]);
	fput(files[1]);
	return err;
}

long sys_pipe(int __user *fildes)
{
	return sys_pipe2(fildes, 0);
}
