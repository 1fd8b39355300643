/*
 * procfs: the "proc" filesystem (Linux's fs/proc/root.c, generic.c and
 * seq_file's seq_read, reduced to a fixed table).
 *
 * One directory (inode 1, mode 0555) lists the files of proc_entries[]
 * (inode 2 on, mode 0444, size 0 as on Linux): meminfo, vmstat and
 * zoneinfo, whose text the show functions of fs/proc_fs.h write into a
 * seq_file.  Everything is read-only: no file has a write bit, so the
 * VFS refuses to open one for writing (-EACCES), and the directory has
 * no create, mkdir or unlink.
 *
 * Reading renders the whole text into a buffer, 1 KiB first and twice as
 * large while the seq_file overflows (Linux's seq_read starts at a page;
 * starting smaller makes every boot's tests grow the buffer: vmstat and
 * zoneinfo need more),
 * and keeps it in file->private_data, so reads in small chunks see one
 * consistent text; a read at offset 0 renders afresh, so lseek(0) then
 * read shows new numbers.  The last close frees the buffer.
 */
#include <fs/proc_fs.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define PROC_ROOT_INO	1
#define PROC_FIRST_BUF	1024	/* bytes tried first for a file's text */

struct proc_entry {
	const char *name;
	void (*show)(struct seq_file *m);
};

static const struct proc_entry proc_entries[] = {
	{ "meminfo", meminfo_proc_show },
	{ "vmstat", vmstat_show },
	{ "zoneinfo", zoneinfo_show },
};

static const struct inode_operations proc_root_inode_operations;
static const struct file_operations proc_root_operations;
static const struct file_operations proc_file_operations;

static int proc_read_inode(struct inode *inode)
{
	inode->i_blksize = 1024;
	if (inode->i_ino == PROC_ROOT_INO) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &proc_root_inode_operations;
		inode->i_fop = &proc_root_operations;
		return 0;
	}
	if (inode->i_ino < 2 || inode->i_ino - 2 >= ARRAY_SIZE(proc_entries))
		return -ENOENT;
	inode->i_mode = S_IFREG | 0444;
	inode->i_nlink = 1;
	inode->i_fop = &proc_file_operations;
	inode->i_private = (void *)&proc_entries[inode->i_ino - 2];
	return 0;
}

static void proc_evict_inode(struct inode *inode)
{
	(void)inode;	/* nothing to release: the entries are static */
}

static const struct super_operations proc_sops = {
	.read_inode = proc_read_inode,
	.evict_inode = proc_evict_inode,
};

static int proc_root_lookup(struct inode *dir, const char *name, struct inode **res)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(proc_entries); i++)
		if (strcmp(proc_entries[i].name, name) == 0)
			return iget(dir->i_sb, i + 2, res);
	return -ENOENT;
}

/*
 * f_pos 0 is ".", 1 is "..", 2 on the entries (entry i has inode i + 2).
 * ".." reports the root itself: which directory it really is depends on
 * the mount, which only the VFS knows.
 */
static int proc_root_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	const char *name;
	loff_t pos;

	for (pos = file->f_pos; pos >= 0 && pos < (loff_t)ARRAY_SIZE(proc_entries) + 2; pos++) {
		name = pos == 0 ? "." : pos == 1 ? ".." : proc_entries[pos - 2].name;
		if (filldir(ctx, name, strlen(name), pos < 2 ? PROC_ROOT_INO : (uint64_t)pos,
			    pos < 2 ? DT_DIR : DT_REG))
			break;
		file->f_pos = pos + 1;
	}
	return 0;
}

static const struct inode_operations proc_root_inode_operations = {
	.lookup = proc_root_lookup,
};

static const struct file_operations proc_root_operations = {
	.iterate = proc_root_iterate,
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

/* Render the file's text into a new seq_file in file->private_data. */
static int proc_render(struct file *file)
{
	const struct proc_entry *e = file->f_inode->i_private;
	struct seq_file *m = kmalloc(sizeof(*m), GFP_KERNEL);
	size_t size;
	char *buf;

	if (!m)
		return -ENOMEM;
	for (size = PROC_FIRST_BUF; size <= KMALLOC_MAX_SIZE; size *= 2) {
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf)
			break;
		seq_init(m, buf, size);
		e->show(m);
		if (!seq_has_overflowed(m)) {
			file->private_data = m;
			return 0;
		}
		kfree(buf);
	}
	kfree(m);
	return -ENOMEM;
}

static long proc_file_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
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
	n = MIN(len, m->count - *pos);
	memcpy(buf, m->buf + *pos, n);
	*pos += n;
	return n;
}

static const struct file_operations proc_file_operations = {
	.read = proc_file_read,
	.release = proc_free_text,
};

static int proc_mount(struct super_block *sb)
{
	sb->s_op = &proc_sops;
	return iget(sb, PROC_ROOT_INO, &sb->s_root);
}

struct file_system_type proc_fs_type = {
	.name = "proc",
	.mount = proc_mount,
};
