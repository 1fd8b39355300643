/*
 * The name of a directory, and getcwd(2) (Linux's fs/d_path.c).
 *
 * Linux keeps each directory's name and parent in its dentry.  Pageturn
 * has no dentries, so the name is found the Unix V7 way (and /bin/pwd's):
 * climb to the parent with "..", list the parent until the entry with
 * the child's inode number turns up, and repeat up to the root,
 * prepending each name.  A mounted root has no entry in its own
 * filesystem: it is named by its mount point, so the climb first steps
 * from a mounted root to the directory it is mounted on
 * (vfsmount->mnt_mountpoint) and looks that up in its parent.
 *
 * A directory that was removed (dead: IS_DEADDIR) has no path: -ENOENT,
 * as Linux's getcwd gives for a deleted working directory.  So does one
 * whose parent does not list it, or whose parent died, while the walk
 * slept (each step looks ".." up and lists the parent afresh, under
 * that directory's i_mutex, so nothing seen before a sleep is reused).
 */
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

struct find_child {
	uint64_t ino;			/* the child's inode number */
	char name[NAME_MAX + 1];	/* its name, once found */
	unsigned int len;
	bool found;
};

static int match_ino(void *ctx, const char *name, unsigned int name_len, uint64_t ino,
		     unsigned int d_type)
{
	struct find_child *c = ctx;

	(void)d_type;
	if (ino != c->ino || name_len > NAME_MAX || (name[0] == '.' && (name_len == 1 ||
						      (name_len == 2 && name[1] == '.'))))
		return 0;
	memcpy(c->name, name, name_len);
	c->len = name_len;
	c->found = true;
	return 1;
}

/* The name of child (not a mounted root) in directory parent. */
static int name_in_parent(struct inode *parent, struct inode *child, struct find_child *c)
{
	struct file *file;
	int err;

	c->ino = child->i_ino;
	c->found = false;
	ihold(parent);
	err = vfs_open_inode(parent, O_RDONLY | O_DIRECTORY, &file);
	if (err)
		return err;
	err = vfs_readdir(file, match_ino, c);
	vfs_close(file);
	if (!err && !c->found)
		err = -ENOENT;
	return err;
}

long vfs_dir_path(struct inode *dir, char *buf, size_t size)
{
	struct inode *root = current_fs()->root, *cur, *child, *parent;
	struct find_child *c = kmalloc(sizeof(*c), GFP_KERNEL);
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	size_t pos = PATH_MAX - 1, len;
	long err = 0;

	if (!c || !path) {
		kfree(c);
		kfree(path);
		return -ENOMEM;
	}
	path[pos] = '\0';
	cur = dir;
	ihold(cur);
	while (cur != root) {
		child = cur;
		while (child != root && child == child->i_sb->s_root && child->i_sb->s_mount &&
		       child->i_sb->s_mount->mnt_mountpoint)
			child = child->i_sb->s_mount->mnt_mountpoint;
		if (child == root)
			break;
		if (IS_DEADDIR(child) || child == child->i_sb->s_root || !root) {
			err = -ENOENT;
			break;
		}
		err = lookup_step(child, "..", &parent);
		if (!err) {
			err = name_in_parent(parent, child, c);
			if (err)
				iput(parent);
		}
		if (err)
			break;
		if (c->len + 1 > pos) {
			iput(parent);
			err = -ENAMETOOLONG;
			break;
		}
		pos -= c->len;
		memcpy(path + pos, c->name, c->len);
		path[--pos] = '/';
		iput(cur);
		cur = parent;
	}
	iput(cur);
	if (!err && pos == PATH_MAX - 1)
		path[--pos] = '/';
	len = PATH_MAX - 1 - pos;
	if (!err && len + 1 > size)
		err = -ERANGE;
	if (!err)
		memcpy(buf, path + pos, len + 1);
	kfree(path);
	kfree(c);
	return err ? err : (long)len;
}

long sys_getcwd(char __user *buf, unsigned long size)
{
	struct inode *pwd = current_fs()->pwd;
	char *path;
	long len;

	if (!pwd)
		return -ENOENT;
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	len = vfs_dir_path(pwd, path, MIN(size, PATH_MAX));
	if (len >= 0 && copy_to_user(buf, path, len + 1))
		len = -EFAULT;
	kfree(path);
	return len < 0 ? len : len + 1;
}
