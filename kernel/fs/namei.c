/*
 * Paths (Linux's fs/namei.c without dentries or permissions beyond the
 * write bit), and the system calls that change names.
 *
 * A walk (struct nameidata) holds one inode, the directory it stands in,
 * and a pointer to the rest of the path.  link_path_walk() takes the path
 * apart at slashes and steps through every component but the last, which
 * it leaves in nd->last ("." when the path has none, e.g. "/") for the
 * caller: a lookup steps into it too, a namespace operation (mkdir,
 * unlink, rename, open with O_CREAT) works on it in nd->dir.
 * lookup_step() is one move:
 *
 *   "."   stays;
 *   ".."  first climbs out of mounted roots (the root of a mounted
 *         filesystem -> the directory it is mounted on, repeatedly), then
 *         asks the filesystem for ".." unless it stands at a root, where
 *         ".." stays: /.. is /, and /proc/.. is / too;
 *   name  asks the directory's lookup, then descends into whatever is
 *         mounted on the result (lookup_one).
 *
 * Symbolic links.  A component that turns out to be a symlink is
 * followed (follow_link) by rewriting the rest of the walk: the new path
 * is the link's target followed by whatever came after the link, and the
 * walk goes on from the link's directory, or from the root when the
 * target is absolute.  The rewritten path lives in one of two PATH_MAX
 * buffers, allocated on the first link and used in turn (the new path is
 * built from the old rest, which is in the other).  A link in the middle
 * is always followed; a link at the end only when the caller asks
 * (LOOKUP_FOLLOW: stat, open without O_NOFOLLOW) or when a slash follows
 * it; at most MAXSYMLINKS (40) per walk, then -ELOOP.  A target and the
 * rest longer than a path together is -ENAMETOOLONG, which Linux, walking
 * them separately, would not say; an empty target is -ENOENT as on Linux.
 *
 * Where a walk starts: an absolute path at current_fs()->root, a relative
 * one at current_fs()->pwd or, for the *at() calls, at the directory open
 * as dirfd.  ".." never climbs above current_fs()->root.
 *
 * The namespace operations walk to the parent directory and look the
 * last name up there *without* crossing mounts or following links, so a
 * mount point is recognised (-EBUSY) rather than the filesystem mounted
 * on it removed, and unlink removes a link, not its target.
 *
 * Making a name (mknod, symlink, link; Linux's filename_create) has one
 * set of checks, in this order: a name that exists - a dangling symlink,
 * ".", "..", or "/" too - is -EEXIST; a missing name followed by a slash
 * asked for a directory, which these calls do not make: -ENOENT; then
 * the directory must be writable (-EROFS, -EACCES).  A hard link also
 * needs its inode on the new name's filesystem (-EXDEV), no directory
 * (-EPERM) and with links left (-ENOENT: an unlinked file still open);
 * link(2) does not follow a symlink it names, linkat follows it with
 * AT_SYMLINK_FOLLOW and takes dirfd's own inode with AT_EMPTY_PATH.
 *
 * Locking (Linux 2.6.28's i_mutex rules; fs/vfs.h says what each lock
 * covers).  Filesystems sleep (ext2 waits for its disk), so without a
 * lock "look the name up, check, make it" would race with another task
 * doing the same or removing the directory.  The locks and their order,
 * outermost first:
 *
 *   sb->s_vfs_rename_mutex      rename between two directories only
 *     dir->i_mutex              the parent(s) whose entries change; for
 *                               rename both, the ancestor first, else
 *                               old_dir first (lock_rename)
 *       victim->i_mutex         the child: rmdir's and unlink's victim,
 *                               link's source inode, rename's source and
 *                               target (both: in address order)
 *
 * so a task only ever waits for a lock below the ones it holds: parents
 * before children, directories before the non-directories in them.  A
 * path walk holds no lock between its steps and one directory's i_mutex
 * during each lookup (lookup_one, step_up).  Where they are taken:
 *
 *   walk step, ".."           the directory looked in
 *   open(O_CREAT), mkdir,     the parent, around the lookup of the last
 *   mknod, symlink            name and the create (on_parentat)
 *   link                      the new parent, then the source inode
 *   unlink, rmdir             the parent, then the victim; rmdir sets
 *                             S_DEAD on it after the filesystem removed it
 *   rename                    lock_rename, then the source and the target
 *                             if any (lock_two_children), checked for
 *                             mounts under them; a directory target is
 *                             marked S_DEAD
 *   getdents64, d_path        the directory read (vfs_readdir)
 *   write, truncate           a regular file alone (read_write.c, open.c)
 *
 * A lock is taken after a sleep may already have changed things (the
 * walk slept, mutex_lock slept), so every pointer held across a possible
 * sleep is re-validated after it, under the lock: the directory may have
 * died (IS_DEADDIR), a name may have come or gone (it is looked up again
 * under the lock, never reused from before it).
 *
 * Dead directories (fs/vfs.h): nothing is looked up in one, ".." neither
 * (Linux, having dentries, still climbs to the parent: here the parent
 * may be gone, so -ENOENT), and nothing is made in one (may_create):
 * -ENOENT, on every filesystem.
 */
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
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

/*
 * Called with dir->i_mutex held.  The child name of dir as it is on dir's
 * filesystem (mounts not crossed), held in *res; -ENOENT in a dead
 * directory (Linux's __lookup_hash).
 */
static int lookup_here(struct inode *dir, const char *name, struct inode **res)
{
	if (!dir->i_op || !dir->i_op->lookup)
		return -ENOTDIR;
	if (IS_DEADDIR(dir))
		return -ENOENT;
	return dir->i_op->lookup(dir, name, res);
}

/* Replace *inode (held) by the roots of the filesystems mounted on it. */
static void follow_mount(struct inode **inode)
{
	struct inode *root;

	while ((*inode)->i_mounted) {
		root = lookup_mnt(*inode);
		ihold(root);
		iput(*inode);
		*inode = root;
	}
}

/* lookup_here under dir->i_mutex (a walk's step, Linux's real_lookup). */
static int lookup_locked(struct inode *dir, const char *name, struct inode **res)
{
	int err;

	mutex_lock(&dir->i_mutex);
	err = lookup_here(dir, name, res);
	mutex_unlock(&dir->i_mutex);
	return err;
}

/* The child name of directory dir (a real name), held, with mounts
 * crossed. */
static int lookup_one(struct inode *dir, const char *name, struct inode **res)
{
	int err = lookup_locked(dir, name, res);

	if (!err)
		follow_mount(res);
	return err;
}

/* The parent of directory dir, held in *res; -ENOENT when dir is dead. */
static int step_up(struct inode *dir, struct inode **res)
{
	struct inode *root = current_fs()->root, *cur = dir;

	while (cur != root && cur == cur->i_sb->s_root && cur->i_sb->s_mount &&
	       cur->i_sb->s_mount->mnt_mountpoint)
		cur = cur->i_sb->s_mount->mnt_mountpoint;
	if (cur == root || cur == cur->i_sb->s_root) {
		ihold(cur);
		*res = cur;
		return 0;
	}
	return lookup_locked(cur, "..", res);
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

/* --- the walk ------------------------------------------------------------------ */

struct nameidata {
	struct inode *dir;		/* where the walk stands: held */
	const char *p;			/* the rest of the path */
	char *link_buf[2];		/* rewritten paths (symlinks), PATH_MAX each */
	int cur;			/* the link_buf p lies in; -1: the caller's path */
	unsigned int nr_links;		/* symlinks followed */
	char last[NAME_MAX + 1];	/* the last component; "." when there is none */
	bool trailing;			/* a slash follows the last component */
};

/*
 * Start a walk of path: at the root for an absolute path, else at the
 * directory open as dfd or (AT_FDCWD) the working directory.  With
 * LOOKUP_EMPTY, "" is allowed and dfd may name any file.
 */
static int path_init(struct nameidata *nd, int dfd, const char *path, unsigned int flags)
{
	struct fs_struct *fs = current_fs();
	struct file *file;
	struct inode *start;

	nd->dir = NULL;
	nd->p = path;
	nd->link_buf[0] = nd->link_buf[1] = NULL;
	nd->cur = -1;
	nd->nr_links = 0;
	if (!path)
		return -EINVAL;
	if (!*path && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return -ENAMETOOLONG;
	if (*path == '/' || dfd == AT_FDCWD) {
		start = *path == '/' ? fs->root : fs->pwd;
		if (!start)
			return -ENOENT;
		ihold(start);
	} else {
		file = fget_raw(dfd);
		if (!file)
			return -EBADF;
		start = file->f_inode;
		ihold(start);
		fput(file);
		if (*path && !S_ISDIR(start->i_mode)) {
			iput(start);
			return -ENOTDIR;
		}
	}
	nd->dir = start;
	return 0;
}

/* End a walk: the buffers go, and the directory if still held. */
static void path_cleanup(struct nameidata *nd)
{
	kfree(nd->link_buf[0]);
	kfree(nd->link_buf[1]);
	if (nd->dir)
		iput(nd->dir);
	nd->dir = NULL;
}

/*
 * The symlink link was met where nd->p now points (just past its name):
 * continue with its target, then the rest.  An absolute target moves the
 * walk to the root.
 */
static int follow_link(struct nameidata *nd, struct inode *link)
{
	int next = nd->cur == 0 ? 1 : 0;
	struct inode *root;
	size_t rest;
	char *buf;
	int n;

	if (++nd->nr_links > MAXSYMLINKS)
		return -ELOOP;
	if (!link->i_op || !link->i_op->readlink)
		return -EINVAL;
	if (!nd->link_buf[next]) {
		nd->link_buf[next] = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!nd->link_buf[next])
			return -ENOMEM;
	}
	buf = nd->link_buf[next];
	n = link->i_op->readlink(link, buf, PATH_MAX - 1);
	if (n < 0)
		return n;
	if (n == 0)
		return -ENOENT;
	rest = strlen(nd->p);
	if (n + rest >= PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(buf + n, nd->p, rest + 1);
	nd->p = buf;
	nd->cur = next;
	if (*buf == '/') {
		root = current_fs()->root;
		ihold(root);
		iput(nd->dir);
		nd->dir = root;
	}
	return 0;
}

/*
 * Walk every component of nd->p but the last, following symlinks; the
 * last goes to nd->last (with nd->trailing) and nd->p points just past
 * it.  nd->dir need not be a directory on return ("file/x"): the step
 * into the last component says -ENOTDIR.
 */
static int link_path_walk(struct nameidata *nd)
{
	struct inode *next;
	const char *rest;
	size_t len;
	int err;

	nd->trailing = false;
	nd->last[0] = '.';
	nd->last[1] = '\0';
	for (;;) {
		while (*nd->p == '/')
			nd->p++;
		if (!*nd->p)
			return 0;
		for (len = 0; nd->p[len] && nd->p[len] != '/'; len++)
			;
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(nd->last, nd->p, len);
		nd->last[len] = '\0';
		nd->p += len;
		for (rest = nd->p; *rest == '/'; rest++)
			;
		nd->trailing = rest != nd->p;
		if (!*rest)
			return 0;
		err = lookup_step(nd->dir, nd->last, &next);
		if (err)
			return err;
		if (S_ISLNK(next->i_mode)) {
			err = follow_link(nd, next);
			iput(next);
			if (err)
				return err;
			continue;
		}
		iput(nd->dir);
		nd->dir = next;
	}
}

/* Walk to the last component and step into it: held in *res. */
static int walk_last(struct nameidata *nd, unsigned int flags, struct inode **res)
{
	struct inode *inode;
	int err;

	for (;;) {
		err = link_path_walk(nd);
		if (err)
			return err;
		err = lookup_step(nd->dir, nd->last, &inode);
		if (err)
			return err;
		if (!S_ISLNK(inode->i_mode) || !((flags & LOOKUP_FOLLOW) || nd->trailing))
			break;
		err = follow_link(nd, inode);
		iput(inode);
		if (err)
			return err;
	}
	if ((nd->trailing || (flags & LOOKUP_DIRECTORY)) && !S_ISDIR(inode->i_mode)) {
		iput(inode);
		return -ENOTDIR;
	}
	*res = inode;
	return 0;
}

int path_lookupat(int dfd, const char *path, unsigned int flags, struct inode **res)
{
	struct nameidata nd;
	int err = path_init(&nd, dfd, path, flags);

	if (!err && !*path) {
		/* LOOKUP_EMPTY: the start itself. */
		*res = nd.dir;
		nd.dir = NULL;
	} else if (!err) {
		err = walk_last(&nd, flags, res);
	}
	path_cleanup(&nd);
	return err;
}

int path_lookup(const char *path, struct inode **res)
{
	return path_lookupat(AT_FDCWD, path, LOOKUP_FOLLOW, res);
}

int path_parentat(int dfd, const char *path, struct inode **dir, char name[NAME_MAX + 1],
		  bool *trailing_slash)
{
	struct nameidata nd;
	int err = path_init(&nd, dfd, path, 0);

	if (!err)
		err = link_path_walk(&nd);
	if (!err && !S_ISDIR(nd.dir->i_mode))
		err = -ENOTDIR;
	if (!err) {
		memcpy(name, nd.last, NAME_MAX + 1);
		*trailing_slash = nd.trailing;
		*dir = nd.dir;
		nd.dir = NULL;
	}
	path_cleanup(&nd);
	return err;
}

int on_parentat(int dfd, const char *path,
		int (*fn)(struct inode *dir, const char *name, bool trailing, void *arg),
		void *arg)
{
	char name[NAME_MAX + 1];
	struct inode *dir;
	bool trailing;
	int err = path_parentat(dfd, path, &dir, name, &trailing);

	if (err)
		return err;
	mutex_lock(&dir->i_mutex);
	err = fn(dir, name, trailing, arg);
	mutex_unlock(&dir->i_mutex);
	iput(dir);
	return err;
}

/*
 * Called with dir->i_mutex held.  May a name be made in dir (Linux's
 * may_create)?  -ENOENT when dir is dead: whatever the caller saw before
 * it took the lock, dir may have been removed since.
 */
static int may_create(struct inode *dir)
{
	if (IS_DEADDIR(dir))
		return -ENOENT;
	return may_write(dir);
}

/*
 * Called with dir->i_mutex held.  Is name (neither "." nor "..") free in
 * dir?  0, -EEXIST, or the lookup's error.
 */
static int name_is_free(struct inode *dir, const char *name)
{
	struct inode *inode;
	int err = lookup_here(dir, name, &inode);

	if (!err) {
		iput(inode);
		return -EEXIST;
	}
	return err == -ENOENT ? 0 : err;
}

/*
 * Called with dir->i_mutex held.  open(O_CREAT)'s last step: the existing
 * name (mounts crossed) in *res, or a new regular file of mode made there
 * (*created set).
 */
static int lookup_create(struct inode *dir, const char *name, umode_t mode, struct inode **res,
			 bool *created)
{
	int err = lookup_here(dir, name, res);

	*created = false;
	if (!err) {
		follow_mount(res);
		return 0;
	}
	if (err != -ENOENT)
		return err;
	err = may_create(dir);
	if (!err)
		err = dir->i_op->create ? dir->i_op->create(dir, name, mode & S_IALLUGO, res) :
		      -EACCES;
	*created = !err;
	return err;
}

/*
 * open(2)'s walk (Linux's path_openat/do_last): the inode to open, held.
 * Without O_CREAT it is a lookup (symlinks at the end followed unless
 * O_NOFOLLOW, which makes one -ELOOP).  With O_CREAT the last name is
 * made as a regular file of mode (umask already applied) when missing,
 * under the directory's i_mutex: an existing one is -EEXIST under
 * O_EXCL, a symlink is followed (so a dangling link's target is created,
 * as on Linux) unless O_EXCL or O_NOFOLLOW (-ELOOP), and a directory or
 * a trailing slash is -EISDIR.
 */
int open_namei(int dfd, const char *path, unsigned int flags, umode_t mode, struct inode **res)
{
	unsigned int lflags = (flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
			      (flags & O_DIRECTORY ? LOOKUP_DIRECTORY : 0);
	struct nameidata nd;
	struct inode *inode, *dir;
	bool created;
	int err = path_init(&nd, dfd, path, 0);

	if (err)
		goto out;
	if (!(flags & O_CREAT)) {
		err = walk_last(&nd, lflags, &inode);
		if (!err && S_ISLNK(inode->i_mode)) {
			iput(inode);
			err = -ELOOP;
		}
		if (!err)
			*res = inode;
		goto out;
	}
	for (;;) {
		err = link_path_walk(&nd);
		if (!err && nd.trailing)
			err = -EISDIR;
		if (err)
			goto out;
		dir = nd.dir;
		if (is_dot_or_dotdot(nd.last)) {
			err = lookup_step(dir, nd.last, &inode);
			created = false;
		} else {
			mutex_lock(&dir->i_mutex);
			err = lookup_create(dir, nd.last, mode, &inode, &created);
			mutex_unlock(&dir->i_mutex);
		}
		if (err)
			goto out;
		if (created) {
			*res = inode;
			goto out;
		}
		if (flags & O_EXCL)
			err = -EEXIST;
		else if (!S_ISLNK(inode->i_mode))
			break;
		else if (flags & O_NOFOLLOW)
			err = -ELOOP;
		else
			err = follow_link(&nd, inode);
		iput(inode);
		if (err)
			goto out;
	}
	if (S_ISDIR(inode->i_mode)) {
		iput(inode);
		err = -EISDIR;
	} else {
		*res = inode;
	}
out:
	path_cleanup(&nd);
	return err;
}

/* --- the namespace operations ------------------------------------------------- */

/* Called with dir->i_mutex held (on_parentat). */
static int mkdir_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	umode_t mode = *(umode_t *)arg;
	int err = is_dot_or_dotdot(name) ? -EEXIST : name_is_free(dir, name);

	(void)trailing;
	if (!err)
		err = may_create(dir);
	if (!err)
		err = dir->i_op->mkdir ? dir->i_op->mkdir(dir, name, mode & S_IALLUGO) : -EPERM;
	return err;
}

int vfs_mkdirat(int dfd, const char *path, umode_t mode)
{
	return on_parentat(dfd, path, mkdir_in, &mode);
}

int vfs_mkdir(const char *path, umode_t mode)
{
	return vfs_mkdirat(AT_FDCWD, path, mode);
}

/*
 * Called with dir->i_mutex held (on_parentat).  Remove name from dir: a
 * directory if *(bool *)arg (rmdir), else not (unlink).  The victim's
 * i_mutex is held around the filesystem's operation, and a removed
 * directory is marked dead under it, so nothing is made in it once its
 * lock is free (Linux's vfs_rmdir).
 */
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
	if (victim == dir) {
		/* A corrupt entry naming its own directory: as "." */
		iput(victim);
		return want_dir ? -EINVAL : -EISDIR;
	}
	mutex_lock(&victim->i_mutex);
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
	if (!err && want_dir)
		victim->i_flags |= S_DEAD;
	mutex_unlock(&victim->i_mutex);
	iput(victim);
	return err;
}

int vfs_rmdirat(int dfd, const char *path)
{
	bool want_dir = true;

	return on_parentat(dfd, path, remove_in, &want_dir);
}

int vfs_unlinkat(int dfd, const char *path)
{
	bool want_dir = false;

	return on_parentat(dfd, path, remove_in, &want_dir);
}

int vfs_rmdir(const char *path)
{
	return vfs_rmdirat(AT_FDCWD, path);
}

int vfs_unlink(const char *path)
{
	return vfs_unlinkat(AT_FDCWD, path);
}

/* The deepest tree a rename's ancestor walk climbs before it calls the
 * ".." entries a loop (only a corrupt filesystem has one).  Relative
 * mkdir and chdir build trees far deeper than PATH_MAX allows a path to
 * name, so the bound is a count of directories no real tree reaches. */
#define MAX_DIR_DEPTH	(1 << 20)

/*
 * Called with dir's super_block's s_vfs_rename_mutex held, so no
 * directory moves meanwhile.  Is ancestor a proper ancestor of dir?  If
 * so, 1 and the child of ancestor on the way down to dir (which may be
 * dir) held in *trap; 0 if not (the root reached, or a dead directory on
 * the way, which has no parent); -EIO for a loop.  Climbs with the
 * filesystem's "..", one directory's i_mutex at a time.
 */
static int find_ancestor(struct inode *dir, struct inode *ancestor, struct inode **trap)
{
	struct inode *cur = dir, *up;
	int depth, err;

	ihold(cur);
	for (depth = 0; depth < MAX_DIR_DEPTH; depth++) {
		if (cur == cur->i_sb->s_root) {
			iput(cur);
			return 0;
		}
		err = lookup_locked(cur, "..", &up);
		if (err) {
			iput(cur);
			return err == -ENOENT ? 0 : err;
		}
		if (up == ancestor) {
			iput(up);
			*trap = cur;
			return 1;
		}
		iput(cur);
		cur = up;
		cond_resched();
	}
	iput(cur);
	return -EIO;
}

/*
 * Lock the two parents of a rename (Linux's lock_rename): one i_mutex
 * when they are the same directory; else the super_block's
 * s_vfs_rename_mutex, then the ancestor's i_mutex before the
 * descendant's, or old_dir's before new_dir's when neither is the
 * other's ancestor.  *trap is NULL, or held: the child of the ancestor
 * on the way to the other parent, which must be neither the source
 * (moving a directory under itself) nor the target (removing a
 * directory above the source).  0, or the walk's error with nothing
 * locked.
 */
static int lock_rename(struct inode *old_dir, struct inode *new_dir, struct inode **trap)
{
	struct mutex *rename_mutex = &old_dir->i_sb->s_vfs_rename_mutex;
	int ret;

	*trap = NULL;
	if (old_dir == new_dir) {
		mutex_lock(&old_dir->i_mutex);
		return 0;
	}
	mutex_lock(rename_mutex);
	ret = find_ancestor(new_dir, old_dir, trap);
	if (ret > 0) {
		mutex_lock(&old_dir->i_mutex);
		mutex_lock(&new_dir->i_mutex);
		return 0;
	}
	if (ret == 0)
		ret = find_ancestor(old_dir, new_dir, trap);
	if (ret < 0) {
		mutex_unlock(rename_mutex);
		return ret;
	}
	if (ret > 0) {
		mutex_lock(&new_dir->i_mutex);
		mutex_lock(&old_dir->i_mutex);
	} else {
		mutex_lock(&old_dir->i_mutex);
		mutex_lock(&new_dir->i_mutex);
	}
	return 0;
}

/* Undo lock_rename. */
static void unlock_rename(struct inode *old_dir, struct inode *new_dir, struct inode *trap)
{
	mutex_unlock(&old_dir->i_mutex);
	if (old_dir == new_dir)
		return;
	mutex_unlock(&new_dir->i_mutex);
	mutex_unlock(&old_dir->i_sb->s_vfs_rename_mutex);
	if (trap)
		iput(trap);
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

/*
 * Lock rename's source and its target (NULL: none), two children of the
 * locked parents, in address order: the only place two such locks are
 * held, so no other order can meet it.
 */
static void lock_two_children(struct inode *a, struct inode *b)
{
	if (b && b < a) {
		struct inode *t = a;

		a = b;
		b = t;
	}
	mutex_lock(&a->i_mutex);
	if (b)
		mutex_lock(&b->i_mutex);
}

static void unlock_two_children(struct inode *a, struct inode *b)
{
	if (b)
		mutex_unlock(&b->i_mutex);
	mutex_unlock(&a->i_mutex);
}

/*
 * Called with both parents locked (lock_rename) and trap as it gave it.
 * Move old_name in old_dir to new_name in new_dir (Linux's vfs_rename):
 * both names are looked up here, under the locks; the source's and the
 * target's i_mutex are held around the checks of them (a mount point,
 * the types) and the filesystem's rename, and a directory it replaced is
 * marked dead under it.
 */
static int rename_locked(struct inode *old_dir, const char *old_name, bool old_slash,
			 struct inode *new_dir, const char *new_name, bool new_slash,
			 struct inode *trap)
{
	struct inode *src, *target;
	int err = lookup_here(old_dir, old_name, &src);

	if (err)
		return err;
	err = lookup_here(new_dir, new_name, &target);
	if (err == -ENOENT) {
		target = NULL;
		err = 0;
	}
	if (err) {
		iput(src);
		return err;
	}
	/* A parent itself in place of src or target is only possible from
	 * a corrupt directory entry naming its own directory: refused like
	 * the trap, before its i_mutex could be taken twice. */
	if (src == trap || src == new_dir)
		err = -EINVAL;
	else if (target && (target == trap || target == old_dir || target == new_dir))
		err = -ENOTEMPTY;
	if (!err && src != target) {
		err = may_write(old_dir);
		if (!err)
			err = target ? may_write(new_dir) : may_create(new_dir);
		if (!err) {
			lock_two_children(src, target);
			/* Under their locks: a mount on either (which holds the
			 * mount point's i_mutex until it is marked) is done or
			 * not begun. */
			err = may_rename(src, old_slash, target, new_slash);
			if (!err)
				err = old_dir->i_op->rename ?
				      old_dir->i_op->rename(old_dir, old_name, src, new_dir, new_name,
							    target) : -EPERM;
			if (!err && target && S_ISDIR(target->i_mode))
				target->i_flags |= S_DEAD;
			unlock_two_children(src, target);
		}
	} else if (!err) {
		err = may_rename(src, old_slash, target, new_slash);
	}
	if (target)
		iput(target);
	iput(src);
	return err;
}

int vfs_renameat(int olddfd, const char *oldpath, int newdfd, const char *newpath)
{
	char old_name[NAME_MAX + 1], new_name[NAME_MAX + 1];
	struct inode *old_dir, *new_dir, *trap;
	bool old_slash, new_slash;
	int err = path_parentat(olddfd, oldpath, &old_dir, old_name, &old_slash);

	if (err)
		return err;
	err = path_parentat(newdfd, newpath, &new_dir, new_name, &new_slash);
	if (err) {
		iput(old_dir);
		return err;
	}
	if (is_dot_or_dotdot(old_name) || is_dot_or_dotdot(new_name))
		err = -EBUSY;
	else if (old_dir->i_sb != new_dir->i_sb)
		err = -EXDEV;
	else
		err = lock_rename(old_dir, new_dir, &trap);
	if (!err) {
		err = rename_locked(old_dir, old_name, old_slash, new_dir, new_name, new_slash,
				    trap);
		unlock_rename(old_dir, new_dir, trap);
	}
	iput(new_dir);
	iput(old_dir);
	return err;
}

int vfs_rename(const char *oldpath, const char *newpath)
{
	return vfs_renameat(AT_FDCWD, oldpath, AT_FDCWD, newpath);
}

/* --- making names: mknod, symlink, link ----------------------------------------- */

/* Called with dir->i_mutex held.  The checks before name is made in dir
 * (see the top of the file). */
static int may_create_in(struct inode *dir, const char *name, bool trailing)
{
	int err = is_dot_or_dotdot(name) ? -EEXIST : name_is_free(dir, name);

	if (err)
		return err;
	if (trailing)
		return -ENOENT;
	return may_create(dir);
}

/* The type check mknod(2) makes before anything else (Linux's may_mknod). */
static int may_mknod(umode_t mode)
{
	switch (mode & S_IFMT) {
	case 0:
	case S_IFREG:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		return 0;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
}

struct mknod_args {
	umode_t mode;
	uint32_t dev;
};

/* Called with dir->i_mutex held (on_parentat). */
static int mknod_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	const struct mknod_args *a = arg;
	umode_t type = a->mode & S_IFMT, perm = a->mode & S_IALLUGO;
	struct inode *inode;
	int err = may_create_in(dir, name, trailing);

	if (err)
		return err;
	if (type == 0 || type == S_IFREG) {
		if (!dir->i_op->create)
			return -EACCES;
		err = dir->i_op->create(dir, name, perm, &inode);
		if (!err)
			iput(inode);
		return err;
	}
	if (!dir->i_op->mknod)
		return -EPERM;
	return dir->i_op->mknod(dir, name, type | perm,
				type == S_IFCHR || type == S_IFBLK ? a->dev : 0);
}

int vfs_mknodat(int dfd, const char *path, umode_t mode, uint32_t dev)
{
	struct mknod_args a = { mode, dev };
	int err = may_mknod(mode);

	return err ? err : on_parentat(dfd, path, mknod_in, &a);
}

int vfs_mknod(const char *path, umode_t mode, uint32_t dev)
{
	return vfs_mknodat(AT_FDCWD, path, mode, dev);
}

/* Called with dir->i_mutex held (on_parentat). */
static int symlink_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	int err = may_create_in(dir, name, trailing);

	if (err)
		return err;
	return dir->i_op->symlink ? dir->i_op->symlink(dir, name, arg) : -EPERM;
}

int vfs_symlinkat(const char *target, int newdfd, const char *newpath)
{
	if (!target)
		return -EINVAL;
	if (!*target)
		return -ENOENT;
	if (strnlen(target, PATH_MAX) == PATH_MAX)
		return -ENAMETOOLONG;
	return on_parentat(newdfd, newpath, symlink_in, (void *)target);
}

int vfs_symlink(const char *target, const char *path)
{
	return vfs_symlinkat(target, AT_FDCWD, path);
}

/*
 * Called with dir->i_mutex held (on_parentat).  The source inode's
 * i_mutex is held around the filesystem's link, so its link count cannot
 * drop to 0 (unlink takes it too) between the check and the new name
 * (Linux's vfs_link).
 */
static int link_in(struct inode *dir, const char *name, bool trailing, void *arg)
{
	struct inode *old = arg;
	int err = may_create_in(dir, name, trailing);

	if (err)
		return err;
	if (old->i_sb != dir->i_sb)
		return -EXDEV;
	if (S_ISDIR(old->i_mode) || !dir->i_op->link)
		return -EPERM;
	mutex_lock(&old->i_mutex);
	err = old->i_nlink ? dir->i_op->link(old, dir, name) : -ENOENT;
	mutex_unlock(&old->i_mutex);
	return err;
}

int vfs_link_inode(struct inode *old, int newdfd, const char *newpath)
{
	return on_parentat(newdfd, newpath, link_in, old);
}

int vfs_link(const char *oldpath, const char *newpath)
{
	struct inode *old;
	int err = path_lookupat(AT_FDCWD, oldpath, 0, &old);

	if (err)
		return err;
	err = vfs_link_inode(old, AT_FDCWD, newpath);
	iput(old);
	return err;
}

/* Make dir (held; the reference is taken over) current's working
 * directory, or -ENOTDIR. */
int set_fs_pwd(struct inode *dir)
{
	struct fs_struct *fs = current_fs();

	if (!S_ISDIR(dir->i_mode)) {
		iput(dir);
		return -ENOTDIR;
	}
	if (fs->pwd)
		iput(fs->pwd);
	fs->pwd = dir;
	return 0;
}

int vfs_chdir(const char *path)
{
	struct inode *inode;
	int err = path_lookup(path, &inode);

	return err ? err : set_fs_pwd(inode);
}

int vfs_readlinkat(int dfd, const char *path, char *buf, size_t len)
{
	struct inode *inode;
	int err = path_lookupat(dfd, path, 0, &inode);

	if (err)
		return err;
	if (!S_ISLNK(inode->i_mode) || !inode->i_op || !inode->i_op->readlink)
		err = -EINVAL;
	else
		err = inode->i_op->readlink(inode, buf, len);
	iput(inode);
	return err;
}

int vfs_readlink(const char *path, char *buf, size_t len)
{
	return vfs_readlinkat(AT_FDCWD, path, buf, len);
}

/* --- user paths ------------------------------------------------------------------ */

int user_path_at(int dfd, const char __user *name, unsigned int flags, struct inode **res)
{
	char *path;
	char c;
	long err;

	if ((flags & LOOKUP_EMPTY) && copy_from_user(&c, name, 1) == 0 && c == '\0')
		return path_lookupat(dfd, "", flags, res);
	err = getname(name, &path);
	if (err)
		return err;
	err = path_lookupat(dfd, path, flags, res);
	putname(path);
	return err;
}

/* Run fn(dfd, path) on a path from user space. */
static long with_user_path(int dfd, const char __user *name, int (*fn)(int dfd, const char *path))
{
	char *path;
	long err = getname(name, &path);

	if (err)
		return err;
	err = fn(dfd, path);
	putname(path);
	return err;
}

long sys_mkdirat(int dfd, const char __user *pathname, unsigned int mode)
{
	char *path;
	long err = getname(pathname, &path);

	if (err)
		return err;
	err = vfs_mkdirat(dfd, path, mode & (S_IRWXU | S_IRWXG | S_IRWXO | S_ISVTX) &
				     ~current_fs()->umask);
	putname(path);
	return err;
}

long sys_mkdir(const char __user *pathname, unsigned int mode)
{
	return sys_mkdirat(AT_FDCWD, pathname, mode);
}

long sys_rmdir(const char __user *pathname)
{
	return with_user_path(AT_FDCWD, pathname, vfs_rmdirat);
}

long sys_unlink(const char __user *pathname)
{
	return with_user_path(AT_FDCWD, pathname, vfs_unlinkat);
}

long sys_unlinkat(int dfd, const char __user *pathname, int flag)
{
	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	return with_user_path(dfd, pathname, flag & AT_REMOVEDIR ? vfs_rmdirat : vfs_unlinkat);
}

long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
		   const char __user *newname, unsigned int flags)
{
	char *oldpath, *newpath;
	long err;

	if (flags)
		return -EINVAL;
	err = getname(oldname, &oldpath);
	if (err)
		return err;
	err = getname(newname, &newpath);
	if (!err) {
		err = vfs_renameat(olddfd, oldpath, newdfd, newpath);
		putname(newpath);
	}
	putname(oldpath);
	return err;
}

long sys_renameat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname)
{
	return sys_renameat2(olddfd, oldname, newdfd, newname, 0);
}

long sys_rename(const char __user *oldname, const char __user *newname)
{
	return sys_renameat2(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

long sys_mknodat(int dfd, const char __user *filename, unsigned int mode, unsigned int dev)
{
	umode_t m = (mode & S_IFMT) | (mode & S_IALLUGO & ~current_fs()->umask);
	char *path;
	long err = may_mknod(mode);

	if (err)
		return err;
	err = getname(filename, &path);
	if (err)
		return err;
	err = vfs_mknodat(dfd, path, m, dev);
	putname(path);
	return err;
}

long sys_mknod(const char __user *filename, unsigned int mode, unsigned int dev)
{
	return sys_mknodat(AT_FDCWD, filename, mode, dev);
}

long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname)
{
	char *target, *path;
	long err = getname(oldname, &target);

	if (err)
		return err;
	err = getname(newname, &path);
	if (!err) {
		err = vfs_symlinkat(target, newdfd, path);
		putname(path);
	}
	putname(target);
	return err;
}

long sys_symlink(const char __user *oldname, const char __user *newname)
{
	return sys_symlinkat(oldname, AT_FDCWD, newname);
}

long sys_linkat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname,
		int flags)
{
	struct inode *old;
	char *path;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(olddfd, oldname, (flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0) |
					    (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &old);
	if (err)
		return err;
	err = getname(newname, &path);
	if (!err) {
		err = vfs_link_inode(old, newdfd, path);
		putname(path);
	}
	iput(old);
	return err;
}

long sys_link(const char __user *oldname, const char __user *newname)
{
	return sys_linkat(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}
