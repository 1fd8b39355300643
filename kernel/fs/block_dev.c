/*
 * Block device nodes (Linux's fs/block_dev.c and block/ioctl.c, reduced):
 * /dev/ram0, /dev/vda, ... and any block special file made with mknod.
 *
 * blk_dev_init() registers a devfs node (S_IFBLK, 0660) for every block
 * device whose number fits the 8:8 encoding (minor below 256: ram0..255,
 * vda..vdp).  Opening an S_IFBLK inode goes through def_blk_fops: the
 * open finds the registered device with the inode's number (-ENXIO when
 * there is none) and keeps it in file->private_data.  Devices never go
 * away (drivers/block/blk-core.c), so the pointer stays good.
 *
 * What an open device does: the ioctls of uapi/blkdev.h (others are
 * -ENOTTY).  BLKFLSBUF writes the device's dirty buffers back; unlike
 * Linux's it drops none of the clean ones.  read() and write() of the node itself are not implemented
 * and give -EINVAL (the VFS's answer for a file without them).
 *
 * The readahead window (BLKRAGET, BLKRASET) is the device's
 * backing_dev_info.ra_pages, which every file on a filesystem mounted
 * from the device uses (mm/backing-dev.h); the ioctls speak 512-byte
 * sectors, as Linux's: blockdev --setra 512 asks for 256 KiB.  A window
 * above BLK_RA_MAX_SECTORS is -EINVAL (Linux takes any value; a window
 * that large would only pin memory here).  There is no privilege model,
 * so BLKRASET and BLKFLSBUF need none.
 */
#include <asm/page.h>
#include <asm/uaccess.h>
#include <drivers/blkdev.h>
#include <fs/buffer_head.h>
#include <fs/devfs.h>
#include <pageturn/printk.h>
#include <uapi/blkdev.h>
#include <uapi/errno.h>

#define BLK_RA_MAX_SECTORS	(32u << (20 - SECTOR_SHIFT))	/* 32 MiB */

static struct block_device *bdev_by_rdev(uint32_t rdev)
{
	struct block_device *bdev;

	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev))
		if (MKDEV(bdev->major, bdev->minor) == rdev && bdev->minor < 256)
			return bdev;
	return NULL;
}

static int blkdev_open(struct inode *inode, struct file *file)
{
	struct block_device *bdev = bdev_by_rdev(inode->i_rdev);

	if (!bdev)
		return -ENXIO;
	file->private_data = bdev;
	return 0;
}

static long blkdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct block_device *bdev = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case BLKROGET:
		return put_user((int)bdev->read_only, (int __user *)argp);
	case BLKGETSIZE:
		return put_user((unsigned long)bdev->nr_sectors, (unsigned long __user *)argp);
	case BLKGETSIZE64:
		return put_user((uint64_t)bdev->nr_sectors << SECTOR_SHIFT, (uint64_t __user *)argp);
	case BLKSSZGET:
		return put_user((int)bdev->sector_size, (int __user *)argp);
	case BLKRAGET:
		return put_user((long)(bdev->backing_dev_info.ra_pages * (PAGE_SIZE / SECTOR_SIZE)),
				(long __user *)argp);
	case BLKRASET:
		if (arg > BLK_RA_MAX_SECTORS)
			return -EINVAL;
		bdev->backing_dev_info.ra_pages = arg / (PAGE_SIZE / SECTOR_SIZE);
		return 0;
	case BLKFLSBUF:
		return sync_blockdev(bdev);
	default:
		return -ENOTTY;
	}
}

const struct file_operations def_blk_fops = {
	.open = blkdev_open,
	.ioctl = blkdev_ioctl,
};

void blkdev_register_nodes(void)
{
	struct block_device *bdev;
	int err;

	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev)) {
		if (bdev->minor >= 256) {
			printk(KERN_WARNING "blk: %s: minor %u does not fit /dev's 8:8 numbers, no node\n",
			       bdev->name, bdev->minor);
			continue;
		}
		err = devfs_register(bdev->name, S_IFBLK | 0660, MKDEV(bdev->major, bdev->minor),
				     &def_blk_fops, NULL);
		if (err)
			printk(KERN_ERR "blk: no /dev/%s (error %d)\n", bdev->name, err);
	}
}
