/*
 * Block device nodes (Linux's fs/block_dev.c and block/ioctl.c, reduced):
 * /dev/ram0, /dev/vda, ... and any block special file made with mknod.
 *
 * blk_dev_init() registers a devfs node (S_IFBLK, 0660) for every block
 * device whose number fits the 8:8 encoding (minor below 256: ram0..255,
 * vda..vdp, sda..sdp and their partitions).  Opening an S_IFBLK inode goes through def_blk_fops: the
 * open finds the registered device with the inode's number (-ENXIO when
 * there is none) and keeps it in file->private_data.  Devices never go
 * away (drivers/block/blk-core.c), so the pointer stays good.
 *
 * What an open device does: the ioctls of uapi/blkdev.h (others are
 * -ENOTTY).  BLKFLSBUF writes the device's dirty buffers back; unlike
 * Linux's it drops none of the clean ones.
 *
 * read() and write() (Linux 6.1's blkdev_read_iter/blkdev_write_iter
 * semantics) move bytes at any offset and length through the buffer
 * cache, in buffers of blkdev_block_size() bytes: a block written whole
 * is not read first, a partial one is.  A read at or past the end of the
 * device returns 0 and one that runs past it is cut there; a write at or
 * past the end is -ENOSPC and one that runs past it is cut; a write to a
 * read-only device is -EPERM (Linux 6.1's answer; the open succeeds).
 * Written bytes are dirty buffers until fsync(), sync(), BLKFLSBUF or the
 * buffer cache's own shrinking writes them.  lseek's SEEK_END is the size
 * of the device; O_APPEND changes nothing (kernel/fs/read_write.c).  The
 * device may be mounted meanwhile, and both ways go through the one buffer
 * cache, which is keyed by size: when blkdev_block_size() is the
 * filesystem's block size the node's buffers are the filesystem's (a write
 * here changes its metadata under it; it must cope, as Linux's must), and
 * otherwise they are other buffers, whose cached bytes do not follow what
 * the filesystem writes afterwards.  There is no mmap (the VFS answers
 * -ENODEV; Linux maps the device's page cache).
 *
 * The readahead window (BLKRAGET, BLKRASET) is the device's
 * backing_dev_info.ra_pages, which every file on a filesystem mounted
 * from the device uses (mm/backing-dev.h); the ioctls speak 512-byte
 * sectors, as Linux's: blockdev --setra 512 asks for 256 KiB.  A window
 * above BLK_RA_MAX_SECTORS is -EINVAL (Linux takes any value; a window
 * that large would only pin memory here).  There is no privilege model,
 * so BLKRASET and BLKFLSBUF need none.
 *
 * Exclusive use (Linux 2.6.28's bd_claim): a mount and a swap area each
 * claim their device, and a device someone holds is -EBUSY for the
 * other, and so are its disk and its partitions (which share its
 * sectors); the node still reads and writes (as root's does on Linux).
 */
#include <asm/page.h>
#include <asm/uaccess.h>
#include <drivers/blkdev.h>
#include <fs/buffer_head.h>
#include <fs/devfs.h>
#include <fs/uio.h>
#include <fs/vfs.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
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

/* The size of the buffers read() and write() use: a page, or the largest
 * power of two below it that divides the device's capacity. */
static unsigned int blkdev_block_size(const struct block_device *bdev)
{
	unsigned int size = PAGE_SIZE;

	while (size > bdev->sector_size && ((bdev->nr_sectors << SECTOR_SHIFT) & (size - 1)))
		size >>= 1;
	return size;
}

static loff_t bdev_size(const struct block_device *bdev)
{
	return (loff_t)(bdev->nr_sectors << SECTOR_SHIFT);
}

static long blkdev_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct block_device *bdev = iocb->ki_filp->private_data;
	unsigned int bs = blkdev_block_size(bdev);
	loff_t size = bdev_size(bdev);
	long done = 0;

	if (iocb->ki_pos >= size)
		return 0;
	iov_iter_truncate(to, size - iocb->ki_pos);
	while (iov_iter_count(to)) {
		unsigned int off = iocb->ki_pos & (bs - 1);
		size_t n = MIN((size_t)(bs - off), iov_iter_count(to)), copied;
		struct buffer_head *bh = __bread(bdev, iocb->ki_pos / bs, bs);

		if (!bh)
			return done ? done : -EIO;
		copied = copy_to_iter(bh->b_data + off, n, to);
		brelse(bh);
		iocb->ki_pos += copied;
		done += copied;
		if (copied != n)
			return done ? done : -EFAULT;
	}
	return done;
}

/*
 * A block the write covers whole is taken with __getblk, not read; if
 * the copy into it comes up short and it held no valid data, it is left
 * not up to date and clean (the next reader reads the disk).
 *
 * The copy must not sleep: a buffer that is not up to date has no lock
 * while we fill it, and a reader sleeping in between would read the disk
 * over the bytes copied so far.  So, as generic_perform_write, the source
 * is faulted in first (a source bad part way is written up to the bad
 * byte), and the copy runs with page faults disabled; nothing else runs
 * during a copy that does not sleep (one CPU, no preemption).  A copy
 * cut short all the same (the source went away while __bread slept) is
 * retried from the fault-in.
 */
static long blkdev_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct block_device *bdev = iocb->ki_filp->private_data;
	unsigned int bs = blkdev_block_size(bdev);
	loff_t size = bdev_size(bdev);
	long done = 0;

	if (bdev->read_only)
		return -EPERM;
	if (!iov_iter_count(from))
		return 0;
	if (iocb->ki_pos >= size)
		return -ENOSPC;
	iov_iter_truncate(from, size - iocb->ki_pos);
	while (iov_iter_count(from)) {
		unsigned int off = iocb->ki_pos & (bs - 1);
		size_t n = MIN((size_t)(bs - off), iov_iter_count(from)), copied;
		sector_t block = iocb->ki_pos / bs;
		struct buffer_head *bh;

		n -= fault_in_iov_iter_readable(from, n);
		if (!n)
			return done ? done : -EFAULT;
		bh = n == bs ? __getblk(bdev, block, bs) : __bread(bdev, block, bs);
		if (!bh)
			return done ? done : (n == bs ? -ENOMEM : -EIO);
		copied = copy_page_from_iter_atomic(bh->b_page, off, n, from);
		if (copied != n && !buffer_uptodate(bh)) {
			iov_iter_revert(from, copied);
			copied = 0;
		}
		if (copied)
			mark_buffer_dirty(bh);
		brelse(bh);
		iocb->ki_pos += copied;
		done += copied;
	}
	return done;
}

static int blkdev_fsync(struct file *file)
{
	return sync_blockdev(file->private_data);
}

/* lseek with SEEK_END at the size of the device (Linux's block_llseek). */
static loff_t blkdev_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_file_llseek_size(file, offset, whence, bdev_size(file->private_data));
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
	.read_iter = blkdev_read_iter,
	.write_iter = blkdev_write_iter,
	.fsync = blkdev_fsync,
	.llseek = blkdev_llseek,
	.ioctl = blkdev_ioctl,
};

/* sync(2)'s part: every device's dirty buffers, those written through
 * the nodes included (Linux's sync_bdevs). */
void sync_bdevs(void)
{
	struct block_device *bdev;

	for (bdev = next_bdev(NULL); bdev; bdev = next_bdev(bdev))
		sync_blockdev(bdev);
}

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

/* ---- exclusive use (Linux 2.6.28's bd_claim) ------------------------------ */

static DEFINE_SPINLOCK(bdev_claim_lock);

/* Is a device that shares sectors with bdev held: bdev itself, its disk
 * if it is a partition, or one of its partitions if it is a disk?  Called
 * with bdev_claim_lock held. */
static bool bd_overlap_held(const struct block_device *bdev)
{
	const struct block_device *part;

	if (bdev->bd_holder)
		return true;
	if (bdev->bd_partno)
		return bdev->bd_contains && bdev->bd_contains->bd_holder;
	for (part = bdev->bd_part_next; part; part = part->bd_part_next)
		if (part->bd_holder)
			return true;
	return false;
}

int bd_claim(struct block_device *bdev, void *holder)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&bdev_claim_lock, flags);
	if (bd_overlap_held(bdev))
		err = -EBUSY;
	else
		bdev->bd_holder = holder;
	spin_unlock_irqrestore(&bdev_claim_lock, flags);
	return err;
}

void bd_release(struct block_device *bdev)
{
	unsigned long flags;

	spin_lock_irqsave(&bdev_claim_lock, flags);
	bdev->bd_holder = NULL;
	spin_unlock_irqrestore(&bdev_claim_lock, flags);
}

struct block_device *file_bdev(struct file *file)
{
	return file->f_op == &def_blk_fops ? file->private_data : NULL;
}
