/*
 * procfs: the "proc" filesystem (Linux's fs/proc/root.c, generic.c,
 * inode.c and seq_file's seq_read, reduced to tables).
 *
 * The tree:
 *
 *   /proc             inode 1, S_IFDIR | 0555: proc_root_entries[] (the
 *                     system's files, and "self"), then one directory per
 *                     task (base.c), named by its pid, in pid order
 *   /proc/<file>      inode 2 + i, S_IFREG | 0444, size 0 (as on Linux)
 *   /proc/self        a symbolic link to the caller's pid (-ENOENT for
 *                     the idle task, which has no directory)
 *   /proc/sys         S_IFDIR | 0555: the sysctl tables (proc_sysctl.c)
 *   /proc/PID/...     base.c
 *
 * Inode numbers encode everything (internal.h), so read_inode builds any
 * inode from its number alone and an inode never points at a task: the
 * task is looked up by pid whenever a file is read or a link followed,
 * and a file whose task has gone reads as -ESRCH.  The last iput of a
 * procfs inode always evicts it (drop_inode), so the inode cache never
 * keeps one past its task.
 *
 * Everything but /proc/sys and /proc/PID/oom_score_adj is read-only:
 * no other file has a write bit, so the VFS refuses to open one for
 * writing (-EACCES), and no directory has create, mkdir or unlink.  A
 * write is one call of the entry's write_task with the bytes written
 * (the first PROC_WRITE_MAX of them), its task looked up afresh; it
 * consumes the whole write, as Linux's oom_score_adj_write does.
 *
 * Reading renders the whole text into a buffer, 1 KiB first and twice as
 * large while the seq_file overflows (Linux's seq_read starts at a page;
 * starting smaller makes every boot's tests grow the buffer: vmstat and
 * zoneinfo need more), and keeps it in file->private_data, so reads in
 * small chunks see one consistent text; a read at offset 0 renders
 * afresh, so lseek(0) then read shows new numbers.  The last close frees
 * the buffer.  A /proc/PID file's task is looked up again for each
 * attempt, since allocating the buffer may sleep.
 *
 * Directory positions: in /proc, 0 is ".", 1 "..", 2 + i entry i, and
 * PROC_ROOT_PID_POS + pid the directory of pid, so a listing resumed
 * after tasks came and went continues at the next pid, never repeating
 * one or skipping a task that lived throughout.
 */
#include <drivers/rtc.h>
#include <fs/uio.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <pageturn/cmdline.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>
#include <uapi/magic.h>

#include "internal.h"

#define PROC_FIRST_BUF	1024	/* bytes tried first for a file's text */
#define PROC_NUMBUF	13	/* a pid in decimal, with its NUL */

static int proc_self_readlink(struct task_struct *task, char *buf, size_t len);

static const struct proc_entry proc_root_entries[] = {
	{ "meminfo", S_IFREG | 0444, .show = meminfo_proc_show },
	{ "vmstat", S_IFREG | 0444, .show = vmstat_show },
	{ "zoneinfo", S_IFREG | 0444, .show = zoneinfo_show },
	{ "stat", S_IFREG | 0444, .show = stat_proc_show },
	{ "uptime", S_IFREG | 0444, .show = uptime_proc_show },
	{ "loadavg", S_IFREG | 0444, .show = loadavg_proc_show },
	{ "cmdline", S_IFREG | 0444, .show = cmdline_proc_show },
	{ "version", S_IFREG | 0444, .show = version_proc_show },
	{ "filesystems", S_IFREG | 0444, .show = filesystems_proc_show },
	{ "mounts", S_IFREG | 0444, .show = mounts_proc_show },
	{ "diskstats", S_IFREG | 0444, .show = diskstats_show },
	{ "partitions", S_IFREG | 0444, .show = partitions_proc_show },
	{ "swaps", S_IFREG | 0444, .show = swaps_proc_show },
	{ .name = "sys", .mode = S_IFDIR | 0555 },
	{ "self", S_IFLNK | 0777, .readlink = proc_self_readlink },
};

#define PROC_ROOT_PID_POS	((loff_t)ARRAY_SIZE(proc_root_entries) + 2)

static const struct inode_operations proc_root_inode_operations;
static const struct file_operations proc_root_operations;
static const struct inode_operations proc_link_inode_operations;
static const struct file_operations proc_file_operations;

void proc_init_entry_inode(struct inode *inode, const struct proc_entry *e)
{
	inode->i_mode = e->mode;
	inode->i_nlink = 1;
	inode->i_private = (void *)e;
	if (S_ISDIR(e->mode))
		proc_sys_init_root(inode);
	else if (S_ISLNK(e->mode))
		inode->i_op = &proc_link_inode_operations;
	else
		inode->i_fop = &proc_file_operations;
}

static int proc_read_inode(struct inode *inode)
{
	inode->i_blksize = 1024;
	inode->i_mtime = ktime_get_real_seconds();
	if (inode->i_ino == PROC_ROOT_INO) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &proc_root_inode_operations;
		inode->i_fop = &proc_root_operations;
		return 0;
	}
	if (proc_ino_is_pid(inode->i_ino))
		return proc_pid_read_inode(inode);
	if (proc_ino_is_sys(inode->i_ino))
		return proc_sys_read_inode(inode);
	if (inode->i_ino < 2 || inode->i_ino - 2 >= ARRAY_SIZE(proc_root_entries))
		return -ENOENT;
	proc_init_entry_inode(inode, &proc_root_entries[inode->i_ino - 2]);
	return 0;
}

/* Never keep an unused procfs inode: what it describes may change. */
static bool proc_drop_inode(struct inode *inode)
{
	(void)inode;
	return true;
}

static void proc_evict_inode(struct inode *inode)
{
	(void)inode;	/* nothing to release: the entries are static */
}

static const struct super_operations proc_sops = {
	.read_inode = proc_read_inode,
	.drop_inode = proc_drop_inode,
	.evict_inode = proc_evict_inode,
};

/* A directory name that is a pid: decimal, no sign, no leading zero
 * (Linux's name_to_int); -1 otherwise. */
static int name_to_pid(const char *name)
{
	long pid = 0;

	if (name[0] == '0' && name[1])
		return -1;
	do {
		if (*name < '0' || *name > '9')
			return -1;
		pid = pid * 10 + (*name - '0');
		if (pid > INT32_MAX)
			return -1;
	} while (*++name);
	return pid;
}

static int proc_root_lookup(struct inode *dir, const char *name, struct inode **res)
{
	size_t i;
	int pid;

	for (i = 0; i < ARRAY_SIZE(proc_root_entries); i++)
		if (strcmp(proc_root_entries[i].name, name) == 0)
			return iget(dir->i_sb, i + 2, res);
	pid = name_to_pid(name);
	if (pid < 0 || !proc_find_task(pid))
		return -ENOENT;
	return iget(dir->i_sb, proc_pid_ino(pid, 0), res);
}

static unsigned int dt_type(umode_t mode)
{
	return (mode & S_IFMT) >> 12;
}

static int proc_root_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	char name[PROC_NUMBUF];
	const struct proc_entry *e;
	loff_t pos;
	int pid;

	for (pos = file->f_pos; pos >= 0 && pos < PROC_ROOT_PID_POS; pos++) {
		if (pos < 2) {
			if (filldir(ctx, pos ? ".." : ".", pos + 1, PROC_ROOT_INO, DT_DIR))
				return 0;
		} else {
			e = &proc_root_entries[pos - 2];
			if (filldir(ctx, e->name, strlen(e->name), pos, dt_type(e->mode)))
				return 0;
		}
		file->f_pos = pos + 1;
	}
	if (file->f_pos < PROC_ROOT_PID_POS || file->f_pos - PROC_ROOT_PID_POS > INT32_MAX)
		return 0;
	for (pid = proc_next_pid(file->f_pos - PROC_ROOT_PID_POS); pid >= 0;
	     pid = proc_next_pid(pid + 1)) {
		snprintf(name, sizeof(name), "%d", pid);
		if (filldir(ctx, name, strlen(name), proc_pid_ino(pid, 0), DT_DIR))
			return 0;
		file->f_pos = PROC_ROOT_PID_POS + pid + 1;
	}
	return 0;
}

static const struct inode_operations proc_root_inode_operations = {
	.lookup = proc_root_lookup,
};

static const struct file_operations proc_root_operations = {
	.iterate = proc_root_iterate,
};

/* /proc/self: the caller's pid, as text. */
static int proc_self_readlink(struct task_struct *task, char *buf, size_t len)
{
	char name[PROC_NUMBUF];
	size_t n;

	(void)task;
	if (!current->tgid)
		return -ENOENT;
	n = MIN(len, (size_t)snprintf(name, sizeof(name), "%d", current->tgid));
	memcpy(buf, name, n);
	return n;
}

static int proc_readlink(struct inode *inode, char *buf, size_t len)
{
	const struct proc_entry *e = inode->i_private;
	struct task_struct *task = NULL;

	if (proc_ino_is_pid(inode->i_ino)) {
		task = proc_find_task(proc_ino_pid(inode->i_ino));
		if (!task)
			return -ENOENT;
	}
	return e->readlink(task, buf, len);
}

static const struct inode_operations proc_link_inode_operations = {
	.readlink = proc_readlink,
};

static void proc_free_text(struct file *file)
{
	struct seq_file *m = file->private_data;

	if (m) {
		kfree(m->buf);
		kfree(m);
		file->private_data = NULL;
	}
}

/* Write the file's text into m: 0 or -errno (-ESRCH: its task is gone). */
static int proc_show(struct inode *inode, struct seq_file *m)
{
	const struct proc_entry *e = inode->i_private;
	struct task_struct *task;

	if (!e->show_task) {
		e->show(m);
		return 0;
	}
	task = proc_find_task(proc_ino_pid(inode->i_ino));
	return task ? e->show_task(m, task) : -ESRCH;
}

/* Render the file's text into a new seq_file in file->private_data. */
static int proc_render(struct file *file)
{
	struct seq_file *m = kmalloc(sizeof(*m), GFP_KERNEL);
	size_t size;
	char *buf;
	int err = -ENOMEM;

	if (!m)
		return -ENOMEM;
	for (size = PROC_FIRST_BUF; size <= KMALLOC_MAX_SIZE; size *= 2) {
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf)
			break;
		seq_init(m, buf, size);
		err = proc_show(file->f_inode, m);
		if (!err && !seq_has_overflowed(m)) {
			file->private_data = m;
			return 0;
		}
		kfree(buf);
		if (err)
			break;
		err = -ENOMEM;
	}
	kfree(m);
	return err;
}

static long proc_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	loff_t *pos = &iocb->ki_pos;
	struct seq_file *m;
	size_t n;
	int err;

	if (*pos < 0)
		return -EINVAL;
	if (*pos == 0 || !file->private_data) {
		proc_free_text(file);
		err = proc_render(file);
		if (err)
			return err;
	}
	m = file->private_data;
	if ((uint64_t)*pos >= m->count)
		return 0;
	n = copy_to_iter(m->buf + *pos, MIN(iov_iter_count(to), m->count - *pos), to);
	*pos += n;
	return n ? (long)n : -EFAULT;
}

static long proc_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	const struct proc_entry *e = iocb->ki_filp->f_inode->i_private;
	size_t count = iov_iter_count(from), len = MIN(count, (size_t)PROC_WRITE_MAX);
	char buf[PROC_WRITE_MAX + 1];
	struct task_struct *task;
	int err;

	if (!e->write_task)
		return -EINVAL;
	if (copy_from_iter(buf, len, from) != len)
		return -EFAULT;
	buf[len] = '\0';
	/* Copying may have slept: find the task only now. */
	task = proc_find_task(proc_ino_pid(iocb->ki_filp->f_inode->i_ino));
	if (!task)
		return -ESRCH;
	err = e->write_task(task, buf, len);
	return err ? err : (long)count;
}

static const struct file_operations proc_file_operations = {
	.read_iter = proc_file_read_iter,
	.write_iter = proc_file_write_iter,
	.release = proc_free_text,
};

/* /proc/cmdline: the kernel command line GRUB passed, and a newline. */
void cmdline_proc_show(struct seq_file *m)
{
	seq_printf(m, "%s\n", boot_cmdline_raw());
}

/* A path in /proc/mounts, with space, tab, newline and backslash as
 * octal escapes (Linux's mangle), so the fields stay apart. */
static void seq_put_mangled(struct seq_file *m, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
			seq_printf(m, "\\%03o", (unsigned char)*s);
		else
			seq_printf(m, "%c", *s);
	}
}

static void show_mount(struct super_block *sb, void *arg)
{
	struct seq_file *m = arg;
	struct inode *mountpoint = sb->s_mount ? sb->s_mount->mnt_mountpoint : NULL;
	char *path = NULL;

	if (mountpoint) {
		path = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!path || vfs_dir_path(mountpoint, path, PATH_MAX) < 0) {
			/* Not reachable from the reader's root: not listed,
			 * as Linux leaves out mounts outside a chroot. */
			kfree(path);
			return;
		}
	}
	if (sb->s_bdev)
		seq_printf(m, "/dev/%s ", sb->s_bdev->name);
	else
		seq_printf(m, "%s ", sb->s_type->name);
	seq_put_mangled(m, path ? path : "/");
	seq_printf(m, " %s %s 0 0\n", sb->s_type->name, sb->s_flags & SB_RDONLY ? "ro" : "rw");
	kfree(path);
}

/*
 * /proc/mounts, Linux's format: "device mountpoint type options 0 0",
 * one line per mount in mount order.  Pageturn does not keep the device
 * name mount(2) was given: a filesystem on a block device shows
 * /dev/<its name>, one without shows its type's name (proc, tmpfs), as
 * those are mounted.  The options are rw or ro.
 */
void mounts_proc_show(struct seq_file *m)
{
	iterate_supers(show_mount, m);
}

static int proc_mount(struct super_block *sb)
{
	sb->s_op = &proc_sops;
	sb->s_magic = PROC_SUPER_MAGIC;
	return iget(sb, PROC_ROOT_INO, &sb->s_root);
}

struct file_system_type proc_fs_type = {
	.name = "proc",
	.mount = proc_mount,
};
