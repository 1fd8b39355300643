/*
 * /proc/sys (Linux's fs/proc/proc_sysctl.c): the sysctl tables of
 * kernel/sysctl.c as directories and files.
 *
 * The tree is the tables': /proc/sys lists the rows of
 * sysctl_base_table, each a directory (S_IFDIR | its mode) listing the
 * rows of its child table, each a file (S_IFREG | its mode, size 0).
 * Inode numbers encode the row, so read_inode builds any inode from its
 * number: /proc/sys is an entry of /proc (root.c), directory d of the
 * base table is PROC_SYS_INO_BASE + d * PROC_SYS_SLOTS, and file j of
 * its table that number + 1 + j.
 *
 * Permissions are Linux's test_perm for root, which everyone is: the
 * owner's bits of the row's mode decide, so a 0200 file (drop_caches)
 * cannot be opened for reading, even by root (-EACCES).
 *
 * A read or a write is one call of the row's proc_handler (Linux's
 * proc_sys_call_handler) on a kernel buffer: a write's bytes are copied
 * in and NUL-terminated first (at most PAGE_SIZE - 1 of them, all the
 * handlers look at), a read's text is copied out after.  The handler
 * moves the file position; what it consumed or produced is the call's
 * result.  Nothing is kept between calls.
 */
#include <asm/page.h>
#include <fs/uio.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <pageturn/sysctl.h>
#include <uapi/errno.h>
#include <uapi/fcntl.h>

#include "internal.h"

#define PROC_SYS_INO_BASE	0x8000ul	/* below PROC_PID_INO_BASE */
#define PROC_SYS_SLOTS		256		/* numbers per directory */

_Static_assert(PROC_SYS_INO_BASE + 16 * PROC_SYS_SLOTS <= PROC_PID_INO_BASE,
	       "/proc/sys's inode numbers must stay below /proc/PID's");

static const struct inode_operations proc_sys_dir_inode_operations;
static const struct file_operations proc_sys_dir_operations;
static const struct inode_operations proc_sys_file_inode_operations;
static const struct file_operations proc_sys_file_operations;

/* The inode number of /proc/sys itself (an entry of /proc). */
static uint64_t proc_sys_root_ino;

static size_t table_rows(const struct ctl_table *table)
{
	size_t n = 0;

	while (table[n].procname)
		n++;
	return n;
}

/* The table a directory lists, and the inode number of its row j. */
static const struct ctl_table *dir_table(const struct inode *dir)
{
	const struct ctl_table *row = dir->i_private;

	return row ? row->child : sysctl_base_table;
}

static uint64_t row_ino(const struct inode *dir, size_t j)
{
	if (dir->i_ino == proc_sys_root_ino)
		return PROC_SYS_INO_BASE + j * PROC_SYS_SLOTS;
	return dir->i_ino + 1 + j;
}

static void init_dir(struct inode *inode, const struct ctl_table *row, umode_t mode)
{
	inode->i_mode = S_IFDIR | mode;
	inode->i_nlink = 2;
	inode->i_private = (void *)row;
	inode->i_op = &proc_sys_dir_inode_operations;
	inode->i_fop = &proc_sys_dir_operations;
}

void proc_sys_init_root(struct inode *inode)
{
	proc_sys_root_ino = inode->i_ino;
	init_dir(inode, NULL, 0555);
}

bool proc_ino_is_sys(uint64_t ino)
{
	return ino >= PROC_SYS_INO_BASE && ino < PROC_PID_INO_BASE;
}

int proc_sys_read_inode(struct inode *inode)
{
	uint64_t d = (inode->i_ino - PROC_SYS_INO_BASE) / PROC_SYS_SLOTS;
	uint64_t slot = (inode->i_ino - PROC_SYS_INO_BASE) % PROC_SYS_SLOTS;
	const struct ctl_table *dir, *row;

	if (d >= table_rows(sysctl_base_table))
		return -ENOENT;
	dir = &sysctl_base_table[d];
	if (slot == 0) {
		init_dir(inode, dir, dir->mode);
		return 0;
	}
	if (slot - 1 >= table_rows(dir->child))
		return -ENOENT;
	row = &dir->child[slot - 1];
	inode->i_mode = S_IFREG | row->mode;
	inode->i_nlink = 1;
	inode->i_private = (void *)row;
	inode->i_op = &proc_sys_file_inode_operations;
	inode->i_fop = &proc_sys_file_operations;
	return 0;
}

static int proc_sys_lookup(struct inode *dir, const char *name, struct inode **res)
{
	const struct ctl_table *table = dir_table(dir);
	size_t j;

	for (j = 0; table[j].procname; j++)
		if (strcmp(table[j].procname, name) == 0)
			return iget(dir->i_sb, row_ino(dir, j), res);
	return -ENOENT;
}

/* Positions: 0 ".", 1 "..", 2 + j row j. */
static int proc_sys_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	struct inode *dir = file->f_inode;
	const struct ctl_table *table = dir_table(dir);
	size_t rows = table_rows(table);
	uint64_t parent = dir->i_ino == proc_sys_root_ino ? PROC_ROOT_INO : proc_sys_root_ino;
	const struct ctl_table *row;
	loff_t pos;

	for (pos = file->f_pos; pos >= 0 && (uint64_t)pos < rows + 2; pos++) {
		if (pos < 2) {
			if (filldir(ctx, pos ? ".." : ".", pos + 1, pos ? parent : dir->i_ino,
				    DT_DIR))
				return 0;
		} else {
			row = &table[pos - 2];
			if (filldir(ctx, row->procname, strlen(row->procname),
				    row_ino(dir, pos - 2), row->child ? DT_DIR : DT_REG))
				return 0;
		}
		file->f_pos = pos + 1;
	}
	return 0;
}

static const struct inode_operations proc_sys_dir_inode_operations = {
	.lookup = proc_sys_lookup,
};

static const struct file_operations proc_sys_dir_operations = {
	.iterate = proc_sys_iterate,
};

/*
 * Linux's proc_sys_setattr takes a size change and does nothing with it:
 * so a shell's "echo 3 > file", which opens with O_TRUNC, and
 * truncate(2) succeed.
 */
static int proc_sys_truncate(struct inode *inode, loff_t size)
{
	(void)inode;
	(void)size;
	return 0;
}

static const struct inode_operations proc_sys_file_inode_operations = {
	.truncate = proc_sys_truncate,
};

/* Linux's proc_sys_permission for root: the owner's bits of the mode. */
static int proc_sys_open(struct inode *inode, struct file *file)
{
	umode_t need = 0;

	if (file->f_mode & FMODE_READ)
		need |= S_IRUSR;
	if (file->f_mode & FMODE_WRITE)
		need |= S_IWUSR;
	return (inode->i_mode & need) == need ? 0 : -EACCES;
}

/* Linux's proc_sys_call_handler: one call of the row's handler. */
static long proc_sys_call_handler(struct kiocb *iocb, struct iov_iter *iter, int write)
{
	const struct ctl_table *table = iocb->ki_filp->f_inode->i_private;
	size_t count = iov_iter_count(iter);
	size_t size = MIN(count, (size_t)PAGE_SIZE - 1);
	char *kbuf = kmalloc(size + 1, GFP_KERNEL);
	long err;

	if (!kbuf)
		return -ENOMEM;
	memset(kbuf, 0, size + 1);
	err = -EFAULT;
	if (write && copy_from_iter(kbuf, size, iter) != size)
		goto out;
	if (!write)
		count = size;
	err = table->proc_handler(table, write, kbuf, &count, &iocb->ki_pos);
	if (err)
		goto out;
	err = count;
	if (!write && copy_to_iter(kbuf, count, iter) != count)
		err = -EFAULT;
out:
	kfree(kbuf);
	return err;
}

static long proc_sys_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return proc_sys_call_handler(iocb, to, 0);
}

static long proc_sys_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	return proc_sys_call_handler(iocb, from, 1);
}

static const struct file_operations proc_sys_file_operations = {
	.open = proc_sys_open,
	.read_iter = proc_sys_read_iter,
	.write_iter = proc_sys_write_iter,
};
