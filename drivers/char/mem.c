/*
 * The memory devices (Linux's drivers/char/mem.c), major 1:
 *
 *   null     1:3   reads end at once; writes vanish (and succeed)
 *   zero     1:5   reads give zeroes; writes vanish
 *   full     1:7   reads give zeroes; writes fail with ENOSPC
 *   random   1:8   reads give get_random_bytes' output; writes are
 *   urandom  1:9   accepted and dropped (Linux mixes them into the pool)
 *
 * None has a position that means anything: the offset moves as for a
 * file (Linux's null_lseek and friends let lseek succeed) and is never
 * read.  random and urandom are the same generator (pageturn/random.h),
 * which never blocks, as Linux's does once seeded.  mem, kmem, port and
 * kmsg are not provided.
 */
#include <asm/page.h>
#include <fs/devfs.h>
#include <fs/uio.h>
#include <pageturn/printk.h>
#include <pageturn/random.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define MEM_MAJOR	1

static long read_iter_null(struct kiocb *iocb, struct iov_iter *to)
{
	(void)iocb;
	(void)to;
	return 0;
}

/* Writes to null, zero, random and urandom: taken whole, the memory never
 * looked at (Linux's write_iter_null). */
static long write_iter_null(struct kiocb *iocb, struct iov_iter *from)
{
	size_t count = iov_iter_count(from);

	iov_iter_advance(from, count);
	iocb->ki_pos += count;
	return count;
}

/*
 * Fill to a page at a time with fill's bytes, stopping at a pending
 * signal (these devices never run dry, and a huge read must stay
 * interruptible) or a fault: the count, or -ERESTARTSYS / -EFAULT when
 * nothing moved.  Linux's read_iter_zero and get_random_bytes_user.
 */
static long read_iter_fill(struct kiocb *iocb, struct iov_iter *to, bool random)
{
	char kbuf[256];
	size_t done = 0, want, n;

	while (iov_iter_count(to)) {
		want = MIN(iov_iter_count(to), random ? sizeof(kbuf) : PAGE_SIZE);
		if (random) {
			get_random_bytes(kbuf, want);
			n = copy_to_iter(kbuf, want, to);
		} else {
			n = iov_iter_zero(want, to);
		}
		done += n;
		if (n < want) {
			if (!done)
				return -EFAULT;
			break;
		}
		if (signal_pending(current)) {
			if (!done)
				return -ERESTARTSYS;
			break;
		}
		cond_resched();
	}
	iocb->ki_pos += done;
	return done;
}

static long read_iter_zero(struct kiocb *iocb, struct iov_iter *to)
{
	return read_iter_fill(iocb, to, false);
}

static long full_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	(void)iocb;
	return iov_iter_count(from) ? -ENOSPC : 0;
}

static long random_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return read_iter_fill(iocb, to, true);
}

static const struct file_operations null_fops = {
	.read_iter = read_iter_null,
	.write_iter = write_iter_null,
};

static const struct file_operations zero_fops = {
	.read_iter = read_iter_zero,
	.write_iter = write_iter_null,
};

static const struct file_operations full_fops = {
	.read_iter = read_iter_zero,
	.write_iter = full_write_iter,
};

static const struct file_operations random_fops = {
	.read_iter = random_read_iter,
	.write_iter = write_iter_null,
};

static const struct {
	const char *name;
	unsigned int minor;
	const struct file_operations *fops;
} devlist[] = {
	{ "null", 3, &null_fops },
	{ "zero", 5, &zero_fops },
	{ "full", 7, &full_fops },
	{ "random", 8, &random_fops },
	{ "urandom", 9, &random_fops },
};

void chr_dev_init(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(devlist); i++) {
		err = devfs_register(devlist[i].name, S_IFCHR | 0666,
				     MKDEV(MEM_MAJOR, devlist[i].minor), devlist[i].fops, NULL);
		if (err)
			printk(KERN_ERR "mem: cannot register /dev/%s: error %d\n",
			       devlist[i].name, err);
	}
}
