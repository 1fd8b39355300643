/*
 * SCSI commands between a disk and the transport that carries them
 * (Linux's struct scsi_cmnd and scsi_host_template, reduced): the SCSI
 * disk driver, drivers/scsi/sd.c, turns block requests into command
 * descriptor blocks; a host (usb-storage) carries each to the device and
 * back, then calls scsi_done.
 *
 * A host runs one command at a time per device: sd.c queues a
 * disk's requests and hands over the next only after the last is done.
 * Disks on ATA (ata_piix.c, ahci.c) are not driven through SCSI commands
 * here, but they take their names and numbers from the same counter, as
 * in Linux, where libata presents them as SCSI disks.
 */
#ifndef DRIVERS_SCSI_H
#define DRIVERS_SCSI_H

#include <drivers/blkdev.h>
#include <drivers/scatterlist.h>

/* Operation codes (SPC-4, SBC-3). */
#define TEST_UNIT_READY		0x00
#define REQUEST_SENSE		0x03
#define INQUIRY			0x12
#define READ_CAPACITY		0x25
#define READ_10			0x28
#define WRITE_10		0x2a
#define READ_16			0x88
#define WRITE_16		0x8a
#define SERVICE_ACTION_IN_16	0x9e
#define  SAI_READ_CAPACITY_16	0x10

/* Status bytes. */
#define SAM_STAT_GOOD		0x00
#define SAM_STAT_CHECK_CONDITION 0x02

/* Sense keys. */
#define NOT_READY		0x02
#define MEDIUM_ERROR		0x03
#define UNIT_ATTENTION		0x06

#define SCSI_SENSE_BUFFERSIZE	18	/* fixed-format sense data */
#define SCSI_MAX_CDB		16

/* Direction of a command's data. */
enum dma_data_direction {
	DMA_NONE,
	DMA_TO_DEVICE,			/* a write */
	DMA_FROM_DEVICE,		/* a read */
};

/* Pieces of a command's data buffer: the most sd.c hands a host. */
#define SCSI_MAX_SG		64

struct scsi_device;

struct scsi_cmnd {
	struct scsi_device *device;
	uint8_t cmnd[SCSI_MAX_CDB];
	unsigned int cmd_len;
	enum dma_data_direction sc_data_direction;
	struct scatterlist sg[SCSI_MAX_SG];
	unsigned int nsg;
	unsigned int length;		/* bytes: the sum of sg's */
	/* Set by the host before scsi_done: */
	int result;			/* a SAM_STAT_*, or a negative errno when the
					 * command never completed: -EAGAIN (the
					 * transport failed, the device was reset: try
					 * again), -EIO (it failed for good), -ENODEV
					 * (the device is gone) */
	unsigned int resid;		/* bytes of length not moved */
	uint8_t sense[SCSI_SENSE_BUFFERSIZE];	/* when CHECK CONDITION */
	void (*scsi_done)(struct scsi_cmnd *cmd);	/* process context */
	void *request;			/* sd.c's */
};

/* What a host does: carry cmd to the device and back, then call its
 * scsi_done (later, from the host's own thread).  Any context; must not
 * sleep.  Returns 0, or -EBUSY when a command is already running (a bug
 * of the caller's). */
struct scsi_host_template {
	const char *name;
	int (*queuecommand)(struct scsi_cmnd *cmd);
};

/* A logical unit on a host.  hostdata is the host's. */
struct scsi_device {
	const struct scsi_host_template *host;
	void *hostdata;
	unsigned int host_no;		/* "scsiN" in messages */
	unsigned int lun;
	unsigned int max_sectors;	/* per command, 512-byte sectors */
};

/* drivers/scsi/scsi.c: a new host number, scsi0, scsi1, ...  Boot only. */
unsigned int scsi_new_host_no(void);

/* SCSI disks' device numbers (Linux's SCSI_DISK0_MAJOR): 16 minors a disk,
 * so 16 disks on major 8. */
#define SCSI_DISK0_MAJOR	8
#define SD_MINORS		16
#define SD_MAX_DISKS		16

/*
 * drivers/scsi/scsi.c: name bdev as the next SCSI disk (sda, sdb, ... in
 * the order the drivers find them, as Linux's sd_format_disk_name: the
 * ATA drivers' disks, then USB sticks') and give it its number: 8:0,
 * 8:16, ...  -ENOSPC after SD_MAX_DISKS.  Boot only.
 */
int sd_name_disk(struct block_device *bdev);

/*
 * drivers/scsi/sd.c: look at sdev (INQUIRY, TEST UNIT READY, READ
 * CAPACITY) and, when it is a disk with media, register it as the next
 * sd name; partitions are read by blk_dev_init() as for any disk.
 * Process context.  0, or a negative errno (logged).
 */
int sd_probe(struct scsi_device *sdev);
extern const struct block_device_operations sd_ops;

#endif
