/*
 * Disks and their partitions (Linux's block/genhd.c and the partition
 * half of block/partitions/core.c): reading a disk's table at boot,
 * registering each partition as a block device, and /proc/partitions.
 *
 * A partition is a struct block_device of its own, allocated here and
 * never freed (disks never go away, and no ioctl rereads a table):
 *
 *   name        the disk's and the number, Linux's: vda1, sda5, and
 *               nvme0n1p1 after a digit (partitions/core.c, part_name)
 *   number      major:minor of the disk plus the partition's number, so
 *               vda2 is 254:2 and vdb1 254:17, as Linux assigns them
 *   geometry    nr_sectors from its table entry; sector size, queue
 *               limits, read-only and the readahead window copied from
 *               the disk when it is found
 *   I/O         none of its own: submit_bio() checks a bio against the
 *               partition, then moves it onto the disk (blk-core.c)
 *
 * Only disks whose driver gives them minors > 1 are read (vd, sd: 16
 * numbers, so partitions 1-15; the RAM disks have 1, as brd's default).
 * The table is read by check_partition() through whole pages of the disk
 * (one page allocated for the scan), with the idle task halting or a
 * thread sleeping until each read completes.
 */
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <fs/proc_fs.h>
#include <fs/seq_file.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "partitions/check.h"

/* parsed_partitions' read_page over a disk: ctx is the disk. */
struct part_read_ctx {
	struct block_device *disk;
	struct page *page;
};

static int disk_read_page(void *ctx, uint64_t pos, void *buf, unsigned int len)
{
	struct part_read_ctx *rc = ctx;
	struct bio_vec bv;
	struct bio bio;
	int err;

	bio_init(&bio, &bv, 1);
	bio.bi_bdev = rc->disk;
	bio.bi_sector = pos >> SECTOR_SHIFT;
	if (bio_add_page(&bio, rc->page, len, 0) != len)
		return -EIO;
	err = submit_bio_wait(READ, &bio);
	if (err) {
		printk(KERN_ERR "%s: reading the partition table at byte %lu: error %d\n",
		       rc->disk->name, (unsigned long)pos, err);
		return -EIO;
	}
	memcpy(buf, page_address(rc->page), len);
	return 0;
}

/* Register partition partno of disk; logs why when it cannot. */
static void add_partition(struct block_device *disk, int partno, sector_t start, sector_t len)
{
	struct block_device *part = kzalloc(sizeof(*part), GFP_KERNEL);
	size_t l = strlen(disk->name);
	bool digit = l && disk->name[l - 1] >= '0' && disk->name[l - 1] <= '9';
	int err;

	if (!part) {
		printk(KERN_ERR "%s: out of memory for partition %d\n", disk->name, partno);
		return;
	}
	snprintf(part->name, sizeof(part->name), "%s%s%d", disk->name, digit ? "p" : "", partno);
	part->sector_size = disk->sector_size;
	part->nr_sectors = len;
	part->read_only = disk->read_only;
	part->ops = disk->ops;
	part->private = disk->private;
	part->max_sectors = disk->max_sectors;
	part->max_segments = disk->max_segments;
	part->max_segment_size = disk->max_segment_size;
	part->major = disk->major;
	part->minor = disk->minor + partno;
	part->minors = 1;
	part->backing_dev_info.ra_pages = disk->backing_dev_info.ra_pages;
	part->bd_partno = partno;
	part->bd_contains = disk;
	part->bd_start_sect = start;
	err = register_blkdev(part);
	if (err) {
		printk(KERN_ERR "%s: cannot register partition %d: error %d\n", disk->name, partno, err);
		kfree(part);
		return;
	}
	blk_link_partition(part);
}

void blk_add_partitions(struct block_device *disk)
{
	struct parsed_partitions *state = kmalloc(sizeof(*state), GFP_KERNEL);
	struct part_read_ctx rc = { .disk = disk, .page = alloc_page(GFP_KERNEL) };
	int p, limit = (int)MIN(disk->minors, (unsigned int)DISK_MAX_PARTS);

	if (!state || !rc.page) {
		printk(KERN_ERR "%s: out of memory to read the partition table\n", disk->name);
		goto out;
	}
	parsed_partitions_init(state, disk->name, disk->nr_sectors, disk->sector_size,
			       disk_read_page, &rc);
	state->limit = limit;
	if (check_partition(state) > 0)
		for (p = 1; p < limit; p++)
			if (state->parts[p].size)
				add_partition(disk, p, state->parts[p].from, state->parts[p].size);
out:
	if (rc.page)
		__free_page(rc.page);
	kfree(state);
}

/*
 * /proc/partitions in Linux 6.1's layout (block/genhd.c, show_partition):
 * a header, a blank line, then major, minor, size in KiB and name, each
 * disk followed by its partitions.
 */
void partitions_proc_show(struct seq_file *m)
{
	struct block_device *disk, *part;

	seq_printf(m, "major minor  #blocks  name\n\n");
	for (disk = next_bdev(NULL); disk; disk = next_bdev(disk)) {
		if (disk->bd_partno)
			continue;
		seq_printf(m, "%4u  %7u %10lu %s\n", disk->major, disk->minor,
			   (unsigned long)(disk->nr_sectors >> 1), disk->name);
		for (part = disk->bd_part_next; part; part = part->bd_part_next)
			seq_printf(m, "%4u  %7u %10lu %s\n", part->major, part->minor,
				   (unsigned long)(part->nr_sectors >> 1), part->name);
	}
}
