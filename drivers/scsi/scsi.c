/*
 * Numbers and names every SCSI host and disk takes from one counter
 * (Linux's scsi_host_alloc numbering and sd.c's sd_index_ida): hosts are
 * scsi0, scsi1, ... and disks sda, sdb, ... in the order they are found.
 * blk_dev_init() starts the drivers in a fixed order (ata_piix, ahci,
 * then USB), so a machine's disks are named the same at every boot.
 * The counters only grow, at boot; a disk that fails after its name was
 * taken leaves a gap, as Linux's does until the index is freed.
 */
#include <drivers/scsi.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

static unsigned int scsi_next_host_no;
static unsigned int sd_next_index;

unsigned int scsi_new_host_no(void)
{
	return scsi_next_host_no++;
}

int sd_name_disk(struct block_device *bdev)
{
	unsigned int index = sd_next_index;

	if (index >= SD_MAX_DISKS)
		return -ENOSPC;
	sd_next_index++;
	snprintf(bdev->name, sizeof(bdev->name), "sd%c", 'a' + index);
	bdev->major = SCSI_DISK0_MAJOR;
	bdev->minor = index * SD_MINORS;
	bdev->minors = SD_MINORS;
	return 0;
}
