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
#include <fs/devfs.h>
#include <pageturn/printk.h>
#include <pageturn/random.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define MEM_MAJOR	1

static long null_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)len;
	(void)pos;
	return 0;
}

/* Writes to null, zero, random and urandom: taken whole. */
static long sink_write(struct file *file, const void *buf, size_t len, loff_t *pos)
{
	(void)file;
	(void)buf;
	*pos += len;
	return len;
}

static long zero_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	(void)file;
	memset(buf, 0, len);
	*pos += len;
	return len;
}

static long full_write(struct file *file, const void *buf, size_t len, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)pos;
	return len ? -ENOSPC : 0;
}

static long random_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	(void)file;
	get_random_bytes(buf, len);
	*pos += len;
	return len;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = sink_write,
};

static const struct file_operations zero_fops = {
	.read = zero_read,
	.write = sink_write,
};

static const struct file_operations full_fops = {
	.read = zero_read,
	.write = full_write,
};

static const struct file_operations random_fops = {
	.read = random_read,
	.write = sink_write,
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
