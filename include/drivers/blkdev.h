/*
 * The block layer's interface (Linux names, simplified): block devices are
 * registered by name ("ram0", "vda"), and all I/O is a struct bio: one
 * contiguous run of sectors on the device, to or from a list of segments
 * in memory (struct bio_vec: part of one page each), submitted with
 * submit_bio() and finished by the driver calling bio_endio().
 *
 * Users above (the buffer cache, filesystems, swap) see only this header;
 * they never touch a driver.  Drivers see only the bio they are handed:
 * they never touch LRU lists, zones or page flags.
 *
 * Building a bio: bio_alloc() (or bio_init() over a caller's bio_vec
 * table, for a bio on the stack), then bio_add_page() for each segment in
 * sector order.  bio_add_page() refuses a segment that would take the bio
 * past the device's limits (max_sectors, max_segments, max_segment_size,
 * Linux's queue limits), so a bio that was built that way is always one
 * the driver can take as one request.  The submitter then starts a new
 * bio for the rest.
 *
 * Sectors are always 512 bytes in bi_sector (Linux's convention); a device
 * may have a larger logical block size (sector_size), and then every
 * segment must be a multiple of it and the bio aligned to it.
 */
#ifndef DRIVERS_BLKDEV_H
#define DRIVERS_BLKDEV_H

#include <mm/backing-dev.h>
#include <mm/gfp.h>
#include <mm/mm_types.h>
#include <pageturn/list.h>
#include <pageturn/types.h>

typedef uint64_t sector_t;

#define SECTOR_SHIFT 9
#define SECTOR_SIZE  (1u << SECTOR_SHIFT)

#define READ  0
#define WRITE 1

/* Default queue limits (Linux's BLK_DEF_MAX_SECTORS of v2.6.28,
 * BLK_MAX_SEGMENTS, BLK_MAX_SEGMENT_SIZE): what a driver that sets none
 * gets.  BIO_MAX_PAGES bounds bio_alloc(). */
#define BLK_DEF_MAX_SECTORS	1024
#define BLK_MAX_SEGMENTS	128
#define BLK_MAX_SEGMENT_SIZE	65536
#define BIO_MAX_PAGES		256

struct bio;
struct block_device;

typedef void (bio_end_io_t)(struct bio *bio);

/* One segment: bv_len bytes at bv_offset in bv_page (within the page). */
struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

struct bio {
	struct block_device *bi_bdev;
	sector_t bi_sector;		/* first 512-byte sector */
	int bi_rw;			/* READ or WRITE */
	unsigned int bi_size;		/* bytes: the sum of the segments' bv_len */
	unsigned short bi_vcnt;		/* segments in bi_io_vec */
	unsigned short bi_max_vecs;	/* room in bi_io_vec */
	struct bio_vec *bi_io_vec;	/* the segments, in sector order */
	int bi_error;			/* 0 or -EIO, set by bio_endio() */
	bool bi_done;			/* set by bio_endio() */
	bool bi_alloced;		/* from bio_alloc(): bio_put() frees it */
	bio_end_io_t *bi_end_io;	/* called on completion (may be in an interrupt) */
	void *bi_private;
	struct list_head bi_queue;	/* the driver's request queue */
	struct bio_vec bi_inline_vecs[];	/* bio_alloc()'s table */
};

#define bio_for_each_segment(bvl, bio, i) \
	for ((i) = 0, (bvl) = (bio)->bi_io_vec; (i) < (bio)->bi_vcnt; (i)++, (bvl)++)

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
	/* Queue limits, set by the driver before register_blkdev() (0: the
	 * BLK_* defaults above).  A bio never exceeds them. */
	unsigned int max_sectors;	/* 512-byte sectors per request */
	unsigned int max_segments;	/* bio_vecs per request */
	unsigned int max_segment_size;	/* bytes per bio_vec */
	unsigned int major, minor;	/* the device number (docs/fs.md) */
	/* The readahead window of files on it (BLKRASET); VM_MAX_READAHEAD
	 * unless the driver set one. */
	struct backing_dev_info backing_dev_info;
	struct list_head list;		/* all block devices */
	/* Counters, as /proc/diskstats shows them: completed requests
	 * (bios), sectors, failed requests. */
	uint64_t reads, writes, sectors_read, sectors_written, errors;
};

/* A device's limits: the driver's, or the defaults where it set none. */
static inline unsigned int blk_max_sectors(const struct block_device *bdev)
{
	return bdev->max_sectors ? bdev->max_sectors : BLK_DEF_MAX_SECTORS;
}

static inline unsigned int blk_max_segments(const struct block_device *bdev)
{
	return bdev->max_segments ? bdev->max_segments : BLK_MAX_SEGMENTS;
}

static inline unsigned int blk_max_segment_size(const struct block_device *bdev)
{
	return bdev->max_segment_size ? bdev->max_segment_size : BLK_MAX_SEGMENT_SIZE;
}

/* Make a device known by its name.  -EINVAL for a bad geometry or name,
 * -EEXIST when the name is taken. */
int register_blkdev(struct block_device *bdev);
void unregister_blkdev(struct block_device *bdev);
struct block_device *lookup_bdev(const char *name);
/* Iterate over devices: pass NULL first. */
struct block_device *next_bdev(struct block_device *prev);

/* Set up bio over the caller's table of max_vecs segments, empty. */
void bio_init(struct bio *bio, struct bio_vec *table, unsigned short max_vecs);

/*
 * A new empty bio with room for nr_vecs segments (at most BIO_MAX_PAGES),
 * or NULL when memory is short; it may sleep as gfp allows.  bio_put()
 * frees it (and does nothing to a bio_init() one).  Interrupt context may
 * call bio_put() (a bi_end_io does).
 */
struct bio *bio_alloc(gfp_t gfp, unsigned int nr_vecs);
void bio_put(struct bio *bio);

/*
 * Append len bytes at offset in page as the next segment of bio (whose
 * bi_bdev is set).  Returns len, or 0 when the segment does not fit:
 * the table is full, or the bio would exceed bi_bdev's max_sectors,
 * max_segments or max_segment_size.  A segment that continues the last
 * one in the same page extends it.  The segment's own shape (sector
 * multiples, within the page) is checked by submit_bio().
 */
unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len,
			  unsigned int offset);

/*
 * Submit a bio.  Returns 0 when it was queued (completion follows through
 * bi_end_io), or -EINVAL (empty, a segment misaligned, not whole sectors
 * or crossing its page, bi_size not their sum, past the device's limits),
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
