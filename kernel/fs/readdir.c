/*
 * getdents64(2) (Linux's fs/readdir.c).
 *
 * The filesystem's iterate calls a filldir for each entry from f_pos on
 * and stops at the first one filldir refuses, which it does not consume
 * (fs/vfs.h).  getdents64 lets each iterate call consume exactly one
 * entry (filldir refuses the second), so after each call f_pos is the
 * position just past that entry: the entry's d_off, which lseek takes to
 * resume there (telldir/seekdir).  Records are built in a bounce buffer
 * of at most a page, then copied out in one go; a call returns the
 * entries that fit, 0 at the end, and -EINVAL when not even the next
 * entry fits in count.
 */
#include <asm/page.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/dirent.h>
#include <uapi/errno.h>

struct getdents_ctx {
	char *buf;
	size_t size;			/* of buf */
	size_t used;			/* bytes of records in buf */
	struct linux_dirent64 *last;	/* the record this iterate call added, or NULL */
	bool full;			/* an entry did not fit */
};

static int filldir64(void *ctx, const char *name, unsigned int name_len, uint64_t ino,
		     unsigned int d_type)
{
	struct getdents_ctx *c = ctx;
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + name_len + 1, 8);
	struct linux_dirent64 *de;

	if (c->last)
		return 1;	/* one entry per iterate call */
	if (c->used + reclen > c->size) {
		c->full = true;
		return 1;
	}
	de = (struct linux_dirent64 *)(c->buf + c->used);
	memset(de, 0, reclen);
	de->d_ino = ino;
	de->d_reclen = reclen;
	de->d_type = d_type;
	memcpy(de->d_name, name, name_len);
	c->used += reclen;
	c->last = de;
	return 0;
}

long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count)
{
	struct getdents_ctx c = { .size = MIN(count, PAGE_SIZE) };
	struct file *file;
	long err;

	if (!access_ok(dirent, count))
		return -EFAULT;
	file = fget(fd);
	if (!file)
		return -EBADF;
	c.buf = kmalloc(MAX(c.size, 1), GFP_KERNEL);
	err = c.buf ? 0 : -ENOMEM;
	while (!err) {
		c.last = NULL;
		err = vfs_readdir(file, filldir64, &c);
		if (err || !c.last)
			break;
		c.last->d_off = file->f_pos;
		cond_resched();
	}
	if (c.used)
		err = 0;	/* what was gathered before an error still counts */
	else if (!err && c.full)
		err = -EINVAL;
	if (!err && c.used && copy_to_user(dirent, c.buf, c.used))
		err = -EFAULT;
	kfree(c.buf);
	fput(file);
	return err ? err : (long)c.used;
}
