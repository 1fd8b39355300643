/*
 * mount_root: find the root device and mount it, as Linux's
 * prepare_namespace()/mount_root() do, and print Linux's line
 * "VFS: Mounted root (ext2 filesystem) on device ram0."
 *
 * `root=` names the device (Linux accepts /dev/NAME too; so does this).
 * The default, ram0, is the RAM disk serving the first GRUB module: the
 * image `make` builds from rootfs/.  Failure is logged and boot goes on
 * without a root: the tests and the boot report still run.
 */
#include <drivers/blkdev.h>
#include <fs/do_mounts.h>
#include <fs/ext2_fs.h>
#include <pageturn/cmdline.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

BOOT_OPTION(root, "the root device, e.g. root=ram0 (default) or root=/dev/vda");

#define NAME_MAX 255

struct ext2_sb_info *root_ext2;

void mount_root(void)
{
	const char *name = cmdline_get("root");
	struct block_device *bdev;
	int err;

	if (!name || !*name)
		name = "ram0";
	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	bdev = lookup_bdev(name);
	if (!bdev) {
		printk(KERN_ERR "VFS: Cannot open root device \"%s\": no such block device\n", name);
		return;
	}
	root_ext2 = ext2_mount(bdev, &err);
	if (!root_ext2) {
		printk(KERN_ERR "VFS: Cannot mount root device \"%s\" as ext2: error %d\n", name, err);
		return;
	}
	printk(KERN_INFO "VFS: Mounted root (ext2 filesystem) on device %s.\n", name);
}

struct ext2_inode_info *root_path_lookup(const char *path, int *err)
{
	struct ext2_inode_info *dir, *next;
	char component[NAME_MAX + 1];
	uint32_t ino;

	if (!root_ext2) {
		*err = -ENODEV;
		return NULL;
	}
	if (path[0] != '/') {
		*err = -EINVAL;
		return NULL;
	}
	dir = ext2_iget(root_ext2, EXT2_ROOT_INO, err);
	while (dir) {
		size_t len;

		while (*path == '/')
			path++;
		if (!*path)
			return dir;
		len = strchr(path, '/') ? (size_t)(strchr(path, '/') - path) : strlen(path);
		if (len > NAME_MAX) {
			*err = -ENAMETOOLONG;
			break;
		}
		memcpy(component, path, len);
		component[len] = '\0';
		path += len;
		*err = ext2_lookup(dir, component, &ino);
		if (*err)
			break;
		next = ext2_iget(root_ext2, ino, err);
		ext2_iput(dir);
		dir = next;
	}
	if (dir)
		ext2_iput(dir);
	return NULL;
}
