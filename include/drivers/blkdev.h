/*
 * The block layer's interface (Linux names, simplified): block devices are
 * registered by name ("ram0", "vda"), and all I/O is a struct bio, one
 * contiguous run of sectors to or from part of one page, submitted with
 * submit_bio() and finished by the driver calling bio_endio().
 *
 * Users above (the buffer cache, filesystems, swap) see only this header;
 * they never touch a driver.  Drivers see only the bio they are handed:
 * they never touch LRU lists, zones or page flags.
 *
 * Sectors are always 512 bytes in bi_sector (Linux's convention); a device
 * may have a larger logical block size (sector_size), and then every bio
 * must be aligned to it.
 */
#ifndef DRIVERS_BLKDEV_H
#define DRIVERS_BLKDEV_H

#include <mm/mm_types.h>
#include <pageturn/list.h>
#include <pageturn/types.h>

typedef uint64_t sector_t;

#define SECTOR_SHIFT 9
#define SECTOR_SIZE  (1u << SECTOR_SHIFT)

#define READ  0
#define WRITE 1

struct bio;
struct block_device;

typedef void (bio_end_io_t)(struct bio *bio);

struct bio {
	struct block_device *bi_bdev;
	sector_t bi_sector;		/* first 512-byte sector */
	int bi_rw;			/* READ or WRITE */
	struct page *bi_page;		/* the data: part of one page */
	unsigned int bi_offset;		/* bytes into the page */
	unsigned int bi_size;		/* bytes, a multiple of the sector size */
	int bi_error;			/* 0 or -EIO, set by bio_endio() */
	bool bi_done;			/* set by bio_endio() */
	bio_end_io_t *bi_end_io;	/* called on completion (may be in an interrupt) */
	void *bi_private;
	struct list_head bi_queue;	/* the driver's request queue */
};

struct block_device_operations {
	/* Start the I/O; complete it later (or now) with bio_endio().  The
	 * block layer has already checked the range and alignment. */
	void (*submit)(struct block_device *bdev, struct bio *bio);
};

struct block_device {
	char name[16];
	unsigned int sector_size;	/* logical block size, bytes (512, 4096) */
	sector_t nr_sectors;		/* capacity, in 512-byte sectors */
	bool read_only;
	const struct block_device_operations *ops;
	void *private;			/* the driver's */
	struct list_head list;		/* all block devices */
	/* Counters, as /proc/diskstats will show them. */
	uint64_t reads, writes, sectors_read, sectors_written, errors;
};

/* Make a device known by its name.  -EINVAL for a bad geometry or name,
 * -EEXIST when the name is taken. */
int register_blkdev(struct block_device *bdev);
void unregister_blkdev(struct block_device *bdev);
struct block_device *lookup_bdev(const char *name);
/* Iterate over devices: pass NULL first. */
struct block_device *next_bdev(struct block_device *prev);

/*
 * Submit a bio.  Returns 0 when it was queued (completion follows through
 * bi_end_io), or -EINVAL (misaligned, empty, or crossing a page),
 * -EIO (beyond the end of the device), -EROFS (write to a read-only
 * device) without calling bi_end_io.
 */
int submit_bio(int rw, struct bio *bio);

/* Submit and wait for completion; returns 0 or a negative errno. */
int submit_bio_wait(int rw, struct bio *bio);

/* Called by a driver when a bio is done (error 0 or -EIO). */
void bio_endio(struct bio *bio, int error);

/* Start the block layer: the ramdisks and the drivers found on PCI. */
void blk_dev_init(void);

#endif
