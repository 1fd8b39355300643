/*
 * Filesystem types and mounting (Linux's fs/filesystems.c, super.c and
 * namespace.c, reduced to their idea).
 *
 * register_filesystem() puts a file_system_type on a list.  do_mount()
 * makes a super_block, lets the type fill it (for a type on a device,
 * after finding the device and claiming it: bd_claim refuses one that is
 * mounted already or a swap area), and
 * records a vfsmount: the super_block and the directory inode it hides,
 * which the mount holds and marks i_mounted so path walks step into the
 * mounted root (see fs/vfs.h).  The first mount is the root: "/" before
 * anything is mounted; init_fs's root and working directory start there.
 *
 * Each super_block gets a device number of its own for st_dev,
 * MKDEV(0, n) (Linux's anonymous block devices; a filesystem on a block
 * device would use the device's number, which Pageturn's block devices
 * do not have).  MS_RDONLY marks it SB_RDONLY: the VFS refuses to change
 * it (-EROFS, internal.h's may_write), and a remount can flip that.
 *
 * mount(2) ignores its data argument and every flag but MS_RDONLY and
 * MS_REMOUNT; bind and move mounts are -EINVAL.  There is no umount yet,
 * so a mount lives for the rest of the boot.
 */
#include <fs/devfs.h>
#include <fs/vfs.h>
#include <fs/seq_file.h>
#include <fs/proc_fs.h>
#include <mm/shmem.h>
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/mount.h>

#include "internal.h"

static LIST_HEAD(file_systems);
static LIST_HEAD(mounts);
static unsigned int last_anon_dev;

#define ANON_DEV_MAX	((1u << 20) - 1)	/* the largest minor st_dev can say */

uint32_t get_anon_dev(void)
{
	unsigned int minor;

	if (last_anon_dev == ANON_DEV_MAX)
		return 0;
	minor = ++last_anon_dev;
	/* Linux's new_encode_dev of MKDEV(0, minor): 20-bit minors. */
	return (minor & 0xff) | ((minor & ~0xffu) << 12);
}

int register_filesystem(struct file_system_type *fs)
{
	struct file_system_type *p;

	list_for_each_entry(p, &file_systems, fs_list)
		if (strcmp(p->name, fs->name) == 0)
			return -EBUSY;
	list_add_tail(&fs->fs_list, &file_systems);
	return 0;
}

void vfs_init(void)
{
	if (register_filesystem(&ext2_fs_type) || register_filesystem(&proc_fs_type) ||
	    shmem_init() || register_filesystem(&devfs_fs_type) ||
	    register_filesystem(&tracefs_fs_type))
		panic("vfs_init: a filesystem type registered twice");
}

static struct file_system_type *get_fs_type(const char *name)
{
	struct file_system_type *p;

	list_for_each_entry(p, &file_systems, fs_list)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

/* The block device dev_name ("vda" or "/dev/vda"), claimed for sb
 * (bd_claim): 0, -ENOENT, or -EBUSY when it is mounted already or a swap
 * area. */
static int get_bdev(const char *dev_name, struct super_block *sb)
{
	if (!dev_name)
		return -EINVAL;
	if (strncmp(dev_name, "/dev/", 5) == 0)
		dev_name += 5;
	sb->s_bdev = lookup_bdev(dev_name);
	if (!sb->s_bdev)
		return -ENOENT;
	if (bd_claim(sb->s_bdev, sb)) {
		sb->s_bdev = NULL;
		return -EBUSY;
	}
	return 0;
}

/*
 * Where a new mount goes: the directory dir names, held in *res with its
 * i_mutex held (Linux's lock_mount), or NULL for the root mount.  -EBUSY
 * when dir is the root or a mount point, -ENOENT when it was removed:
 * both checked under the lock, which rmdir takes too, and kept until the
 * mount is done (the filesystem's mount sleeps on its disk).
 */
static int get_mountpoint(const char *dir, struct inode **res)
{
	struct inode *inode;
	int err;

	if (!dir)
		return -EINVAL;
	if (!init_fs.root) {
		if (strcmp(dir, "/") != 0)
			return -ENOENT;
		*res = NULL;
		return 0;
	}
	err = path_lookup(dir, &inode);
	if (err)
		return err;
	if (!S_ISDIR(inode->i_mode)) {
		iput(inode);
		return -ENOTDIR;
	}
	mutex_lock(&inode->i_mutex);
	if (IS_DEADDIR(inode))
		err = -ENOENT;
	else if (inode->i_mounted || inode == inode->i_sb->s_root)
		err = -EBUSY;	/* stacking mounts is not supported */
	if (err) {
		mutex_unlock(&inode->i_mutex);
		iput(inode);
		return err;
	}
	*res = inode;
	return 0;
}

/* Write sb back, then refuse changes to it. */
static int sb_make_rdonly(struct super_block *sb)
{
	int err = sb->s_op->sync_fs ? sb->s_op->sync_fs(sb) : 0;

	if (!err)
		sb->s_flags |= SB_RDONLY;
	return err;
}

/* MS_REMOUNT: set the read-only flag of the filesystem whose root dir is. */
static int do_remount(const char *dir, unsigned long flags)
{
	struct inode *inode;
	int err = path_lookup(dir, &inode);

	if (err)
		return err;
	if (inode != inode->i_sb->s_root)
		err = -EINVAL;
	else if (flags & MS_RDONLY)
		err = sb_make_rdonly(inode->i_sb);
	else
		inode->i_sb->s_flags &= ~SB_RDONLY;
	iput(inode);
	return err;
}

/* Fill in a zeroed super block of type with s_flags: 0 or -EMFILE (no
 * anonymous device number left). */
static int init_super(struct super_block *sb, struct file_system_type *type,
		      unsigned long s_flags)
{
	sb->s_type = type;
	sb->s_dev = get_anon_dev();
	sb->s_flags = s_flags;
	INIT_LIST_HEAD(&sb->s_inodes);
	mutex_init(&sb->s_vfs_rename_mutex);
	return sb->s_dev ? 0 : -EMFILE;
}

int kern_mount(struct file_system_type *type, struct super_block **res)
{
	struct super_block *sb = kzalloc(sizeof(*sb), GFP_KERNEL);
	int err = sb ? init_super(sb, type, SB_NOUSER) : -ENOMEM;

	if (!err)
		err = type->mount(sb);
	if (err) {
		kfree(sb);
		return err;
	}
	*res = sb;
	return 0;
}

int do_mount(const char *dev_name, const char *dir, const char *fstype)
{
	return do_mount_flags(dev_name, dir, fstype, 0);
}

int do_mount_flags(const char *dev_name, const char *dir, const char *fstype,
		   unsigned long flags)
{
	struct file_system_type *type;
	struct inode *mountpoint;
	struct super_block *sb;
	struct vfsmount *mnt;
	int err;

	if (flags & MS_REMOUNT)
		return do_remount(dir, flags);
	if (flags & (MS_BIND | MS_MOVE))
		return -EINVAL;
	type = fstype ? get_fs_type(fstype) : NULL;
	if (!type)
		return -ENODEV;
	err = get_mountpoint(dir, &mountpoint);
	if (err)
		return err;
	sb = kzalloc(sizeof(*sb), GFP_KERNEL);
	mnt = kzalloc(sizeof(*mnt), GFP_KERNEL);
	err = sb && mnt ? 0 : -ENOMEM;
	if (!err)
		err = init_super(sb, type, flags & MS_RDONLY ? SB_RDONLY : 0);
	if (!err && (type->fs_flags & FS_REQUIRES_DEV))
		err = get_bdev(dev_name, sb);
	if (!err)
		err = type->mount(sb);
	if (err) {
		if (sb && sb->s_bdev)
			bd_release(sb->s_bdev);
		kfree(mnt);
		kfree(sb);
		if (mountpoint) {
			mutex_unlock(&mountpoint->i_mutex);
			iput(mountpoint);
		}
		return err;
	}
	mnt->mnt_sb = sb;
	mnt->mnt_mountpoint = mountpoint;
	sb->s_mount = mnt;
	list_add_tail(&mnt->mnt_list, &mounts);
	if (mountpoint) {
		mountpoint->i_mounted = true;
		mutex_unlock(&mountpoint->i_mutex);
	} else {
		ihold(sb->s_root);
		init_fs.root = sb->s_root;
		ihold(sb->s_root);
		init_fs.pwd = sb->s_root;
	}
	return 0;
}

int sync_filesystems(void)
{
	struct vfsmount *mnt;
	int err, first = 0;

	list_for_each_entry(mnt, &mounts, mnt_list) {
		const struct super_operations *op = mnt->mnt_sb->s_op;

		if (!op->sync_fs)
			continue;
		err = op->sync_fs(mnt->mnt_sb);
		if (err && !first)
			first = err;
	}
	return first;
}

void iterate_supers(void (*f)(struct super_block *sb, void *arg), void *arg)
{
	struct vfsmount *mnt;

	list_for_each_entry(mnt, &mounts, mnt_list)
		f(mnt->mnt_sb, arg);
}

/* The root of the filesystem mounted on directory mountpoint. */
struct inode *lookup_mnt(struct inode *mountpoint)
{
	struct vfsmount *mnt;

	list_for_each_entry(mnt, &mounts, mnt_list)
		if (mnt->mnt_mountpoint == mountpoint)
			return mnt->mnt_sb->s_root;
	panic("lookup_mnt: inode %lu is marked mounted but has no mount",
	      (unsigned long)mountpoint->i_ino);
}

/* A mount(2) string argument (the device or the type): a kernel copy in
 * *res, NULL for a NULL pointer.  -EFAULT, -ENAMETOOLONG, -ENOMEM. */
static long copy_mount_string(const char __user *str, char **res)
{
	char *buf;
	long len;

	*res = NULL;
	if (!str)
		return 0;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = strncpy_from_user(buf, str, PATH_MAX);
	if (len < 0 || len == PATH_MAX) {
		kfree(buf);
		return len < 0 ? len : -ENAMETOOLONG;
	}
	*res = buf;
	return 0;
}

long sys_mount(const char __user *dev_name, const char __user *dir_name, const char __user *type,
	       unsigned long flags, const void __user *data)
{
	char *dev = NULL, *dir = NULL, *fstype = NULL;
	long err;

	(void)data;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	err = getname(dir_name, &dir);
	if (err)
		return err;
	err = copy_mount_string(dev_name, &dev);
	if (!err)
		err = copy_mount_string(type, &fstype);
	if (!err)
		err = do_mount_flags(dev, dir, fstype, flags);
	kfree(fstype);
	kfree(dev);
	putname(dir);
	return err;
}

/* /proc/filesystems: each registered type, "nodev" when it needs no device. */
void filesystems_proc_show(struct seq_file *m)
{
	struct file_system_type *p;

	list_for_each_entry(p, &file_systems, fs_list)
		seq_printf(m, "%s\t%s\n", (p->fs_flags & FS_REQUIRES_DEV) ? "" : "nodev", p->name);
}
