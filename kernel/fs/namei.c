/*
 * Paths (Linux's fs/namei.c without dentries, symlinks or permissions).
 *
 * walk() takes a path apart at slashes and steps from the root or the
 * working directory one component at a time, holding only the inode it
 * is at.  lookup_step() is one move:
 *
 *   "."   stays;
 *   ".."  first climbs out of mounted roots (the root of a mounted
 *         filesystem -> the directory it is mounted on, repeatedly), then
 *         asks the filesystem for ".." unless it stands at a root, where
 *         ".." stays: /.. is /, and /proc/.. is / too;
 *   name  asks the directory's lookup, then descends into whatever is
 *         mounted on the result (lookup_one).
 *
 * The namespace operations walk to the parent directory and keep the
 * last component as a name (path_parent), then look the victim up there
 * *without* crossing mounts, so a mount point is recognised (-EBUSY)
 * rather than the filesystem mounted on it being removed.
 */
#include <fs/vfs.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "internal.h"

static bool is_dot(const char *name)
{
	return name[0] == '.' && name[1] == '\0';
}

static bool is_dot_or_dotdot(const char *name)
{
	return is_dot(name) || (name[0] == '.' && name[1] == '.' && name[2] == '\0');
}

/* The child name of dir (a real name), held, with mounts crossed. */
static int lookup_one(struct inode *dir, const char *name, struct inode **res)
{
	struct inode *inode, *root;
	int err;

	if (!S_ISDIR(dir->i_mode) || !dir->i_op || !dir->i_op->lookup)
		return -ENOTDIR;
	err = dir->i_op->lookup(dir, name, &inode);
	if (err)
		return err;
	while (inode->i_mounted) {
		root = lookup_mnt(inode);
		ihold(root);
		iput(inode);
		inode = root;
	}
	*res = inode;
	return 0;
}

/* The child name of dir as it is on dir's filesystem (mounts not
 * crossed), held in *res. */
static int lookup_here(struct inode *dir, const char *name, struct inode **res)
{
	if (!dir->i_op || !dir->i_op->lookup)
		return -ENOTDIR;
	return dir->i_op->lookup(dir, name, res);
}

/* The parent of directory dir, held in *res. */
static int step_up(struct inode *dir, struct inode **res)
{
	struct inode *cur = dir;

	while (cur != init_fs.root && cur == cur->i_sb->s_root &&
	       cur->i_sb->s_mount->mnt_mountpoint)
		cur = cur->i_sb->s_mount->mnt_mountpoint;
	if (cur == init_fs.root || cur == cur->i_sb->s_root) {
		ihold(cur);
		*res = cur;
		return 0;
	}
	return lookup_here(cur, "..", res);
}

int lookup_step(struct inode *dir, const char *name, struct inode **res)
{
	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (is_dot(name)) {
		ihold(dir);
		*res = dir;
		return 0;
	}
	if (!is_dot_or_dotdot(name))
		return lookup_one(dir, name, res);
	return step_up(dir, res);
}

/*
 * Walk path.  Without want_parent: the inode it names, held in *res.
 * With it: stop before the last component, which goes to name ("." for a
 * path of slashes only), and return its directory.  *trailing tells
 * whether the last component was followed by a slash.
 */
static int walk(const char *path, bool want_parent, struct inode **res,
		char name[NAME_MAX + 1], bool *trailing)
{
	struct inode *dir, *next;
	const char *p = path, *rest;
	size_t len;
	int err;

	if (!path)
		return -EINVAL;
	if (!*path)
		return -ENOENT;
	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return -ENAMETOOLONG;
	dir = *path == '/' ? init_fs.root : init_fs.pwd;
	if (!dir)
		return -ENOENT;
	ihold(dir);
	*trailing = false;
	name[0] = '.';
	name[1] = '\0';
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		for (len = 0; p[len] && p[len] != '/'; len++)
			;
		if (len > NAME_MAX) {
			err = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		for (rest = p; *rest == '/'; rest++)
			;
		*trailing = rest != p;
		if (want_parent && !*rest)
			break;
		err = lookup_step(dir, name, &next);
		if (err)
			goto fail;
		iput(dir);
		dir = next;
	}
	err = 0;
	if (want_parent || *trailing)
		err = S_ISDIR(dir->i_mode) ? 0 : -ENOTDIR;
	if (err)
		goto fail;
	*res = dir;
	return 0;
fail:
	iput(dir);
	return err;
}

int path_lookup(const char *path, struct inode **res)
{
	char name[NAME_MAX + 1];
	bool trailing;

	return walk(path, false, res, name, &trailing);
}

int path_parent(const char *path, struct inode **dir, char name[NAME_MAX + 1],
		bool *trailing_slash)
{
	return walk(path, true, dir, name, trailing_slash);
}

/*
 * Run fn on the parent directory of path (held across the call) and the
 * last component of path, with whether path ends in a slash.
 */
int on_parent(const char *path,
		     int (*fn)(struct inode *dir, const char *name, bool trailing, void *arg),
		     void *arg)
{
	char name[NAME_MAX + 1];
	struct inode *dir;
	bool trailing;
	int err = path_parent(path, &dir, name, &trailing);

	if (err)
		return err;
	err = fn(dir, name, trailing, arg);
	iput(dir);
	return err;
}

static int mkdir_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	umode_t mode = *(umode_t *)arg;
	struct inode *inode;
	int err = lookup_step(dir, name, &inode);

	(void)trailing;
	if (!err) {
		iput(inode);
		err = -EEXIST;
	} else if (err == -ENOENT) {
		err = may_write(dir);
		if (!err)
			err = dir->i_op->mkdir ? dir->i_op->mkdir(dir, name, mode & S_IALLUGO) : -EPERM;
	}
	return err;
}

int vfs_mkdir(const char *path, umode_t mode)
{
	return on_parent(path, mkdir_in, &mode);
}

/* Remove name from dir: a directory if *(bool *)arg (rmdir), else not (unlink). */
static int remove_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	bool want_dir = *(bool *)arg;
	int (*op)(struct inode *, const char *, struct inode *);
	struct inode *victim;
	int err;

	if (is_dot_or_dotdot(name))
		return !want_dir ? -EISDIR : is_dot(name) ? -EINVAL : -ENOTEMPTY;
	err = lookup_here(dir, name, &victim);
	if (err)
		return err;
	if (want_dir && !S_ISDIR(victim->i_mode))
		err = -ENOTDIR;
	else if (want_dir && victim->i_mounted)
		err = -EBUSY;
	else if (!want_dir && S_ISDIR(victim->i_mode))
		err = -EISDIR;
	else if (!want_dir && trailing)
		err = -ENOTDIR;
	else
		err = may_write(dir);
	if (!err) {
		op = want_dir ? dir->i_op->rmdir : dir->i_op->unlink;
		err = op ? op(dir, name, victim) : -EPERM;
	}
	iput(victim);
	return err;
}

int vfs_rmdir(const char *path)
{
	bool want_dir = true;

	return on_parent(path, remove_in, &want_dir);
}

int vfs_unlink(const char *path)
{
	bool want_dir = false;

	return on_parent(path, remove_in, &want_dir);
}

/* Can src (named with a trailing slash or not) replace target (NULL:
 * nothing there)? */
static int may_rename(struct inode *src, bool src_slash, struct inode *target, bool target_slash)
{
	if (src->i_mounted || (target && target->i_mounted))
		return -EBUSY;
	if (!S_ISDIR(src->i_mode) && (src_slash || target_slash))
		return -ENOTDIR;
	if (!target)
		return 0;
	if (S_ISDIR(src->i_mode) && !S_ISDIR(target->i_mode))
		return -ENOTDIR;
	if (!S_ISDIR(src->i_mode) && S_ISDIR(target->i_mode))
		return -EISDIR;
	return 0;
}

int vfs_rename(const char *oldpath, const char *newpath)
{
	char old_name[NAME_MAX + 1], new_name[NAME_MAX + 1];
	struct inode *old_dir, *new_dir, *src, *target = NULL;
	bool old_slash, new_slash;
	int err = path_parent(oldpath, &old_dir, old_name, &old_slash);

	if (err)
		return err;
	err = path_parent(newpath, &new_dir, new_name, &new_slash);
	if (err) {
		iput(old_dir);
		return err;
	}
	if (is_dot_or_dotdot(old_name) || is_dot_or_dotdot(new_name))
		err = -EBUSY;
	else if (old_dir->i_sb != new_dir->i_sb)
		err = -EXDEV;
	else
		err = lookup_here(old_dir, old_name, &src);
	if (err)
		goto out;
	err = lookup_here(new_dir, new_name, &target);
	if (err == -ENOENT) {
		target = NULL;
		err = 0;
	}
	if (!err)
		err = may_rename(src, old_slash, target, new_slash);
	if (!err && src != target) {
		err = may_write(old_dir);
		if (!err)
			err = may_write(new_dir);
		if (!err)
			err = old_dir->i_op->rename ?
			      old_dir->i_op->rename(old_dir, old_name, src, new_dir, new_name, target) :
			      -EPERM;
	}
	if (target)
		iput(target);
	iput(src);
out:
	iput(new_dir);
	iput(old_dir);
	return err;
}

int vfs_chdir(const char *path)
{
	struct inode *inode;
	int err = path_lookup(path, &inode);

	if (err)
		return err;
	if (!S_ISDIR(inode->i_mode)) {
		iput(inode);
		return -ENOTDIR;
	}
	iput(init_fs.pwd);
	init_fs.pwd = inode;
	return 0;
}
