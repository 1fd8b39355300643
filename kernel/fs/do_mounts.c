/*
 * mount_root: find the root device and mount it through the VFS, as
 * Linux's prepare_namespace()/mount_root() do, and print Linux's line
 * "VFS: Mounted root (ext2 filesystem) on device ram0."
 *
 * `root=` names the device (Linux accepts /dev/NAME too; so does this).
 * The default, ram0, is the RAM disk serving the first GRUB module: the
 * image `make` builds from rootfs/.  Failure is logged and boot goes on
 * without a root: the tests and the boot report still run.
 *
 * Then the mount points every Linux system expects: /proc, /tmp and /dev
 * are made when the image lacks them (git cannot keep empty directories
 * in rootfs/).  Mounting proc, tmpfs and devtmpfs on them is init's job,
 * as on Linux (mount(2)).  When the command line runs in-kernel tests
 * (`test=`), no init will run, so the kernel mounts proc on /proc and a
 * tmpfs of the default size (half of RAM) on /tmp itself: the suites
 * expect them.
 */
#include <asm/page.h>
#include <fs/do_mounts.h>
#include <fs/vfs.h>
#include <mm/shmem.h>
#include <pageturn/cmdline.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

BOOT_OPTION(root, "the root device, e.g. root=ram0 (default) or root=/dev/vda");

/* Make directory path unless it exists: 0 or -errno, logged. */
static int ensure_dir(const char *path)
{
	int err = vfs_mkdir(path, 0755);

	if (err == -EEXIST)
		return 0;
	if (err)
		printk(KERN_ERR "VFS: cannot create %s: error %d\n", path, err);
	else
		printk(KERN_INFO "VFS: created %s on the root filesystem\n", path);
	return err;
}

/* Mount a tmpfs on /tmp and log its size limit. */
static void mount_tmp(void)
{
	unsigned long max_pages, used_pages;
	int err = do_mount("none", "/tmp", "tmpfs");

	if (!err)
		err = shmem_usage("/tmp", &max_pages, &used_pages);
	if (err) {
		printk(KERN_ERR "VFS: cannot mount tmpfs on /tmp: error %d\n", err);
		return;
	}
	printk(KERN_INFO "tmpfs: mounted on /tmp, size limit %lu MiB\n",
	       max_pages >> (20 - PAGE_SHIFT));
}

void mount_root(void)
{
	const char *name = cmdline_get("root");
	bool tests = cmdline_has("test");
	int err;

	vfs_init();
	if (!name || !*name)
		name = "ram0";
	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	err = do_mount(name, "/", "ext2");
	if (err) {
		printk(KERN_ERR "VFS: Cannot mount root device \"%s\" as ext2: error %d\n", name, err);
		return;
	}
	printk(KERN_INFO "VFS: Mounted root (ext2 filesystem) on device %s.\n", name);

	if (!ensure_dir("/proc") && tests) {
		err = do_mount("proc", "/proc", "proc");
		if (err)
			printk(KERN_ERR "VFS: cannot mount proc on /proc: error %d\n", err);
	}
	if (!ensure_dir("/tmp") && tests)
		mount_tmp();
	ensure_dir("/dev");
}
