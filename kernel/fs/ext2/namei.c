/*
 * ext2: operations on names (Linux's namei.c): create, mknod, symlink,
 * link, unlink, mkdir, rmdir and rename, built from the directory
 * primitives of dir.c and the allocators of alloc.c.
 *
 * Link counts follow Unix: a file has one link per name (link adds one,
 * up to EXT2_LINK_MAX); a directory has one from its parent's entry, one
 * from its own "." and one from each subdirectory's "..", and no other
 * names.  Nothing is freed here: dropping the last link leaves the inode
 * to ext2_iput(), which frees it once nobody holds it.
 *
 * A new inode is complete before its name is added: a directory has its
 * "." and ".." block, a symlink its target (symlink.c), a device node its
 * number in i_block[] (Linux's encodings: the old 8:8 one in i_block[0]
 * when major and minor are both below 256, else the new one in
 * i_block[1]).  So a failure leaves no name to a half-made inode.
 *
 * Each operation checks everything that can fail before it changes the
 * disk where it can.  What can still fail half way (a full disk, an I/O
 * error) leaves the directories consistent, at worst with an unused inode
 * that ext2_iput() then reclaims, as for an unlinked file.
 *
 * rename refuses to move a directory under itself.  It finds out by
 * walking ".." from the target directory up to the root; a walk longer than
 * the inode count means the ".." entries loop, which is corruption (-EIO).
 *
 * Sleeping.  Every call here checks, then sleeps on the disk many times,
 * then changes names as the checks allowed: a name is free (create, link,
 * mkdir), a name names this inode (unlink, rename), a directory is empty
 * (rmdir, rename over it), a directory is not under another (rename).
 * Another process changing names meanwhile would make those checks stale:
 * two files with one name, an unlink dropping the link of the file renamed
 * over its name, a directory removed with a name just made in it, a loop
 * of directories from two crossing renames.  Linux keeps them true with
 * the directories' i_mutex and the filesystem's s_vfs_rename_mutex, held
 * by the VFS; here the calls that change names run one at a time per
 * filesystem (lock_names(), a sleeping lock: s_names_locked and a wait
 * queue), so every check stays true until the change it allowed is made.  Lookups, readdir
 * and file data do not take it: they read a directory block at a time,
 * each block changed only between sleeps.  A directory whose last link
 * went (rmdir, or renamed over) takes no new names: -ENOENT, as on Linux.
 */
#include <fs/ext2.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define EXT2_LINK_MAX 32000

/* Woken when any filesystem's names are unlocked; each waiter looks at its own. */
static DECLARE_WAIT_QUEUE_HEAD(names_wait);

/*
 * One name-changing call at a time per filesystem: wait until no other
 * holds the lock, then take it, with no sleep in between.  Held across
 * the call's sleeps; never taken by anything the call itself calls.
 */
static void lock_names(struct ext2_sb_info *sbi)
{
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait(&names_wait, &wait, TASK_UNINTERRUPTIBLE);
		if (!sbi->s_names_locked)
			break;
		schedule();
	}
	finish_wait(&names_wait, &wait);
	sbi->s_names_locked = true;
}

static void unlock_names(struct ext2_sb_info *sbi)
{
	sbi->s_names_locked = false;
	wake_up(&names_wait);
}

/* Checks common to every operation that adds name to dir (names locked). */
static int may_create(struct ext2_inode_info *dir, const char *name)
{
	uint32_t ino;
	int err;

	if (dir->i_sb->s_read_only)
		return -EROFS;
	if (!EXT2_S_ISDIR(dir->i_raw.i_mode))
		return -ENOTDIR;
	if (dir->i_raw.i_links_count == 0)
		return -ENOENT;
	err = ext2_check_name(name);
	if (err)
		return err;
	err = ext2_lookup(dir, name, &ino);
	if (err == 0)
		return -EEXIST;
	return err == -ENOENT ? 0 : err;
}

static bool is_dot_or_dotdot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/* What a new inode holds besides its mode: a symlink's target, a
 * device's number (st_rdev's encoding). */
struct new_inode_data {
	const char *target;
	uint32_t rdev;
};

/* Store a device number as Linux's ext2_write_inode does. */
static void set_rdev(struct ext2_inode_info *inode, uint32_t rdev)
{
	unsigned int major = (rdev & 0xfff00) >> 8;
	unsigned int minor = (rdev & 0xff) | ((rdev >> 12) & 0xfff00);

	if (major < 256 && minor < 256) {
		inode->i_raw.i_block[0] = (major << 8) | minor;
		inode->i_raw.i_block[1] = 0;
	} else {
		inode->i_raw.i_block[0] = 0;
		inode->i_raw.i_block[1] = rdev;
		inode->i_raw.i_block[2] = 0;
	}
	ext2_mark_inode_dirty(inode);
}

/* Fill the new inode, not linked yet, as its type needs. */
static int init_child(struct ext2_inode_info *dir, struct ext2_inode_info *inode,
		      const struct new_inode_data *data)
{
	switch (inode->i_raw.i_mode & EXT2_S_IFMT) {
	case EXT2_S_IFDIR:
		inode->i_raw.i_links_count = 2;
		return ext2_make_empty(inode, dir->i_ino);
	case EXT2_S_IFLNK:
		return ext2_write_symlink(inode, data->target);
	case EXT2_S_IFCHR:
	case EXT2_S_IFBLK:
		set_rdev(inode, data->rdev);
		return 0;
	default:
		return 0;
	}
}

/* Allocate an inode of mode, fill it (data: NULL for a regular file or
 * directory) and link it as name in dir; the inode is returned held,
 * with *ino its number. */
static int new_child(struct ext2_inode_info *dir, const char *name, unsigned int mode,
		     const struct new_inode_data *data, uint32_t *ino,
		     struct ext2_inode_info **inodep)
{
	struct ext2_inode_info *inode;
	int err;

	err = ext2_new_inode(dir, mode, ino);
	if (err)
		return err;
	inode = ext2_iget(dir->i_sb, *ino, &err);
	if (!inode)
		return err;
	err = init_child(dir, inode, data);
	if (!err)
		err = ext2_add_link(dir, name, *ino, mode);
	if (err) {
		inode->i_raw.i_links_count = 0;
		ext2_iput(inode);
		return err;
	}
	*inodep = inode;
	return 0;
}

static int create_locked(struct ext2_inode_info *dir, const char *name, unsigned int mode,
			 uint32_t *ino)
{
	struct ext2_inode_info *inode;
	int err = may_create(dir, name);

	if (err)
		return err;
	err = new_child(dir, name, EXT2_S_IFREG | (mode & 07777), NULL, ino, &inode);
	if (err)
		return err;
	ext2_iput(inode);
	return 0;
}

static int mknod_locked(struct ext2_inode_info *dir, const char *name, unsigned int mode,
			uint32_t rdev, uint32_t *ino)
{
	struct new_inode_data data = { NULL, rdev };
	struct ext2_inode_info *inode;
	int err;

	switch (mode & EXT2_S_IFMT) {
	case EXT2_S_IFCHR:
	case EXT2_S_IFBLK:
	case EXT2_S_IFIFO:
	case EXT2_S_IFSOCK:
		break;
	default:
		return -EINVAL;
	}
	err = may_create(dir, name);
	if (err)
		return err;
	err = new_child(dir, name, mode & (EXT2_S_IFMT | 07777), &data, ino, &inode);
	if (err)
		return err;
	ext2_iput(inode);
	return 0;
}

static int symlink_locked(struct ext2_inode_info *dir, const char *name, const char *target,
			  uint32_t *ino)
{
	struct new_inode_data data = { target, 0 };
	struct ext2_inode_info *inode;
	size_t len = strlen(target);
	int err;

	if (len == 0)
		return -ENOENT;
	if (len >= dir->i_sb->s_blocksize)
		return -ENAMETOOLONG;
	err = may_create(dir, name);
	if (err)
		return err;
	err = new_child(dir, name, EXT2_S_IFLNK | 0777, &data, ino, &inode);
	if (err)
		return err;
	ext2_iput(inode);
	return 0;
}

static int link_locked(struct ext2_inode_info *dir, const char *name,
		       struct ext2_inode_info *inode)
{
	int err = may_create(dir, name);

	if (err)
		return err;
	if (inode->i_sb != dir->i_sb)
		return -EXDEV;
	if (EXT2_S_ISDIR(inode->i_raw.i_mode))
		return -EPERM;
	if (inode->i_raw.i_links_count == 0)
		return -ENOENT;
	if (inode->i_raw.i_links_count >= EXT2_LINK_MAX)
		return -EMLINK;
	err = ext2_add_link(dir, name, inode->i_ino, inode->i_raw.i_mode);
	if (err)
		return err;
	inode->i_raw.i_links_count++;
	inode->i_raw.i_ctime = inode->i_sb->s_es->s_wtime;
	ext2_mark_inode_dirty(inode);
	return 0;
}

static int mkdir_locked(struct ext2_inode_info *dir, const char *name, unsigned int mode,
			uint32_t *ino)
{
	struct ext2_inode_info *inode;
	int err = may_create(dir, name);

	if (err)
		return err;
	if (dir->i_raw.i_links_count >= EXT2_LINK_MAX)
		return -EMLINK;
	err = new_child(dir, name, EXT2_S_IFDIR | (mode & 07777), NULL, ino, &inode);
	if (err)
		return err;
	dir->i_raw.i_links_count++;
	ext2_mark_inode_dirty(dir);
	ext2_iput(inode);
	return 0;
}

/* Look name up in dir and get its inode, for the removing operations. */
static int get_child(struct ext2_inode_info *dir, const char *name,
		     struct ext2_inode_info **inodep)
{
	uint32_t ino;
	int err;

	if (dir->i_sb->s_read_only)
		return -EROFS;
	err = ext2_lookup(dir, name, &ino);
	if (err)
		return err;
	*inodep = ext2_iget(dir->i_sb, ino, &err);
	return err;
}

static void drop_link(struct ext2_inode_info *inode)
{
	if (inode->i_raw.i_links_count)
		inode->i_raw.i_links_count--;
	inode->i_raw.i_ctime = inode->i_sb->s_es->s_wtime;
	ext2_mark_inode_dirty(inode);
}

static int unlink_locked(struct ext2_inode_info *dir, const char *name)
{
	struct ext2_inode_info *inode;
	int err = get_child(dir, name, &inode);

	if (err)
		return err;
	if (EXT2_S_ISDIR(inode->i_raw.i_mode))
		err = -EISDIR;
	else
		err = ext2_delete_entry(dir, name);
	if (!err)
		drop_link(inode);
	ext2_iput(inode);
	return err;
}

/* Remove the empty directory inode, named name in dir. */
static int remove_dir(struct ext2_inode_info *dir, const char *name, struct ext2_inode_info *inode)
{
	int err = ext2_empty_dir(inode);

	if (err < 0)
		return err;
	if (err == 0)
		return -ENOTEMPTY;
	err = ext2_delete_entry(dir, name);
	if (err)
		return err;
	inode->i_raw.i_links_count = 0;
	ext2_mark_inode_dirty(inode);
	drop_link(dir);
	return 0;
}

static int rmdir_locked(struct ext2_inode_info *dir, const char *name)
{
	struct ext2_inode_info *inode;
	int err;

	if (!strcmp(name, "."))
		return -EINVAL;
	if (!strcmp(name, ".."))
		return -ENOTEMPTY;
	err = get_child(dir, name, &inode);
	if (err)
		return err;
	if (!EXT2_S_ISDIR(inode->i_raw.i_mode))
		err = -ENOTDIR;
	else
		err = remove_dir(dir, name, inode);
	ext2_iput(inode);
	return err;
}

/* Is directory ino dir itself or one of its ancestors?  1, 0 or -EIO. */
static int is_ancestor(struct ext2_inode_info *dir, uint32_t ino)
{
	struct ext2_sb_info *sbi = dir->i_sb;
	struct ext2_inode_info *cur = dir, *up;
	uint32_t steps, parent;
	int err = 0, ret = -EIO;

	cur->i_count++;
	for (steps = 0; steps <= sbi->s_inodes_count; steps++) {
		if (cur->i_ino == ino || cur->i_ino == EXT2_ROOT_INO) {
			ret = cur->i_ino == ino;
			break;
		}
		err = ext2_lookup(cur, "..", &parent);
		up = err ? NULL : ext2_iget(sbi, parent, &err);
		ext2_iput(cur);
		cur = up;
		if (!cur)
			return err;
	}
	if (ret < 0)
		pr_err("ext2: %s: directory loop above inode %u\n", sbi->s_bdev->name, dir->i_ino);
	ext2_iput(cur);
	return ret;
}

/* Checks for rename over an existing target; 0 when it may go. */
static int may_replace(struct ext2_inode_info *src, struct ext2_inode_info *target)
{
	int err;

	if (EXT2_S_ISDIR(src->i_raw.i_mode)) {
		if (!EXT2_S_ISDIR(target->i_raw.i_mode))
			return -ENOTDIR;
		err = ext2_empty_dir(target);
		return err < 0 ? err : err ? 0 : -ENOTEMPTY;
	}
	return EXT2_S_ISDIR(target->i_raw.i_mode) ? -EISDIR : 0;
}

/* Move src's name: point new_name at it (replacing target, if any), fix
 * "..", and drop old_name. */
static int do_rename(struct ext2_inode_info *old_dir, const char *old_name,
		     struct ext2_inode_info *new_dir, const char *new_name,
		     struct ext2_inode_info *src, struct ext2_inode_info *target)
{
	unsigned int mode = src->i_raw.i_mode;
	bool is_dir = EXT2_S_ISDIR(mode);
	int err;

	if (target) {
		err = ext2_set_link(new_dir, new_name, src->i_ino, mode);
		if (err)
			return err;
		if (EXT2_S_ISDIR(target->i_raw.i_mode)) {
			target->i_raw.i_links_count = 0;
			drop_link(new_dir);
		} else {
			drop_link(target);
		}
	} else {
		if (is_dir && new_dir != old_dir && new_dir->i_raw.i_links_count >= EXT2_LINK_MAX)
			return -EMLINK;
		err = ext2_add_link(new_dir, new_name, src->i_ino, mode);
		if (err)
			return err;
	}
	if (is_dir && new_dir != old_dir) {
		err = ext2_set_link(src, "..", new_dir->i_ino, EXT2_S_IFDIR);
		if (err)
			return err;
		drop_link(old_dir);
		new_dir->i_raw.i_links_count++;
		ext2_mark_inode_dirty(new_dir);
	}
	return ext2_delete_entry(old_dir, old_name);
}

static int rename_locked(struct ext2_inode_info *old_dir, const char *old_name,
			 struct ext2_inode_info *new_dir, const char *new_name)
{
	struct ext2_inode_info *src, *target = NULL;
	uint32_t ino;
	int err;

	if (is_dot_or_dotdot(old_name) || is_dot_or_dotdot(new_name))
		return -EINVAL;
	if (!EXT2_S_ISDIR(new_dir->i_raw.i_mode))
		return -ENOTDIR;
	if (new_dir->i_raw.i_links_count == 0)
		return -ENOENT;
	err = ext2_check_name(new_name);
	if (err)
		return err;
	err = get_child(old_dir, old_name, &src);
	if (err)
		return err;
	if (EXT2_S_ISDIR(src->i_raw.i_mode) && new_dir != old_dir) {
		err = is_ancestor(new_dir, src->i_ino);
		if (err > 0)
			err = -EINVAL;
		if (err)
			goto out;
	}
	err = ext2_lookup(new_dir, new_name, &ino);
	if (err == -ENOENT) {
		err = 0;
	} else if (!err) {
		if (ino == src->i_ino)
			goto out;
		target = ext2_iget(new_dir->i_sb, ino, &err);
		if (target)
			err = may_replace(src, target);
	}
	if (!err)
		err = do_rename(old_dir, old_name, new_dir, new_name, src, target);
	if (target)
		ext2_iput(target);
out:
	ext2_iput(src);
	return err;
}

/* ---- the calls, each with the filesystem's names locked ---------------- */

int ext2_create(struct ext2_inode_info *dir, const char *name, unsigned int mode, uint32_t *ino)
{
	int err;

	lock_names(dir->i_sb);
	err = create_locked(dir, name, mode, ino);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_mknod(struct ext2_inode_info *dir, const char *name, unsigned int mode, uint32_t rdev,
	       uint32_t *ino)
{
	int err;

	lock_names(dir->i_sb);
	err = mknod_locked(dir, name, mode, rdev, ino);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_symlink(struct ext2_inode_info *dir, const char *name, const char *target,
		 uint32_t *ino)
{
	int err;

	lock_names(dir->i_sb);
	err = symlink_locked(dir, name, target, ino);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_link(struct ext2_inode_info *dir, const char *name, struct ext2_inode_info *inode)
{
	int err;

	lock_names(dir->i_sb);
	err = link_locked(dir, name, inode);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_unlink(struct ext2_inode_info *dir, const char *name)
{
	int err;

	lock_names(dir->i_sb);
	err = unlink_locked(dir, name);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_mkdir(struct ext2_inode_info *dir, const char *name, unsigned int mode, uint32_t *ino)
{
	int err;

	lock_names(dir->i_sb);
	err = mkdir_locked(dir, name, mode, ino);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_rmdir(struct ext2_inode_info *dir, const char *name)
{
	int err;

	lock_names(dir->i_sb);
	err = rmdir_locked(dir, name);
	unlock_names(dir->i_sb);
	return err;
}

int ext2_rename(struct ext2_inode_info *old_dir, const char *old_name,
		struct ext2_inode_info *new_dir, const char *new_name)
{
	int err;

	lock_names(old_dir->i_sb);
	err = rename_locked(old_dir, old_name, new_dir, new_name);
	unlock_names(old_dir->i_sb);
	return err;
}
