/*
 * The block layer's interface (Linux names, simplified): block devices are
 * registered by name ("ram0", "vda"), and all I/O is a struct bio: one
 * contiguous run of sectors on the device, to or from a list of segments
 * in memory (struct bio_vec: part of one page each), submitted with
 * submit_bio() and finished by bio_endio() when the driver ends the
 * request it went in.
 *
 * Users above (the buffer cache, filesystems, swap) see only this header;
 * they never touch a driver.  Drivers see only the requests they are
 * handed: they never touch LRU lists, zones or page flags.
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
 *
 * A driver is handed a struct request: one or more bios that continue
 * each other on the disk, chained by bi_next, within the device's limits
 * (drivers/block/blk-core.c merges them).  A task that is about to submit
 * many bios brackets them with blk_start_plug()/blk_finish_plug(): they
 * are held until the plug is finished or the task sleeps, then sorted and
 * merged into as few requests as the limits allow.
 *
 * Partitions (drivers/block/genhd.c): a disk registered with minors > 1
 * has its MBR or GPT read at boot, and each partition found becomes a
 * block device of its own ("vda1", the next minor numbers), usable as a
 * disk: submit_bio() checks a bio against the partition's bounds, then
 * hands it to the disk, moved by the partition's start (Linux's
 * blk_partition_remap: bi_bdev and bi_sector name the disk from then on).
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
/* Requests per device (Linux's BLKDEV_MAX_RQ, the default nr_requests):
 * bios wait on the device's queue while all are in flight. */
#define BLKDEV_MAX_RQ		128

struct bio;
struct block_device;
struct request;

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
	struct bio *bi_next;		/* the next bio of its request */
	struct list_head bi_queue;	/* on a plug or the device's queue */
	struct bio_vec bi_inline_vecs[];	/* bio_alloc()'s table */
};

#define bio_for_each_segment(bvl, bio, i) \
	for ((i) = 0, (bvl) = (bio)->bi_io_vec; (i) < (bio)->bi_vcnt; (i)++, (bvl)++)

/*
 * A request (Linux's struct request, reduced): bios that continue each
 * other on the disk, all reads or all writes, together within the
 * device's max_sectors and max_segments.  The driver does the I/O of
 * every segment of every bio (rq_for_each_segment), then calls
 * blk_end_request_all() once, which completes each bio with the same
 * result and takes the request back.
 */
struct request {
	struct block_device *rq_disk;
	int cmd_flags;			/* READ or WRITE (rq_data_dir) */
	sector_t __sector;		/* first 512-byte sector (blk_rq_pos) */
	unsigned int __data_len;	/* bytes, all bios (blk_rq_bytes) */
	unsigned short nr_phys_segments; /* bio_vecs, all bios */
	struct bio *bio, *biotail;	/* the chain, in sector order */
	struct list_head queuelist;	/* the device's free list, or the driver's */
	int errors;			/* the driver's, for the result until it ends rq */
};

static inline int rq_data_dir(const struct request *rq) { return rq->cmd_flags; }
static inline sector_t blk_rq_pos(const struct request *rq) { return rq->__sector; }
static inline unsigned int blk_rq_bytes(const struct request *rq) { return rq->__data_len; }
static inline unsigned int blk_rq_sectors(const struct request *rq) { return rq->__data_len >> SECTOR_SHIFT; }

/* Every segment of every bio of a request, in sector order. */
struct req_iterator {
	struct bio *bio;
	unsigned int i;
};

#define __rq_for_each_bio(_bio, rq) \
	for ((_bio) = (rq)->bio; (_bio); (_bio) = (_bio)->bi_next)
#define rq_for_each_segment(bvl, rq, iter) \
	__rq_for_each_bio((iter).bio, rq) bio_for_each_segment(bvl, (iter).bio, (iter).i)

/*
 * Per-task plugging (Linux's struct blk_plug, current->plug): bios
 * submitted while a plug is on are held on its list.  blk_finish_plug(),
 * or the task going to sleep in schedule(), dispatches them.
 */
struct blk_plug {
	struct list_head list;		/* held bios, by bi_queue, in submission order */
};

struct block_device_operations {
	/* Start the I/O of rq; complete it later (or now) with
	 * blk_end_request_all().  The block layer has already checked every
	 * bio's range and alignment and kept rq within the limits.  Called
	 * with interrupts on or off; must not sleep. */
	void (*queue_rq)(struct block_device *bdev, struct request *rq);
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
	/* Who uses the device exclusively: the super_block mounted from it
	 * or the swap area on it; NULL if nobody (kernel/fs/block_dev.c's
	 * bd_claim, under its lock). */
	void *bd_holder;
	/*
	 * A whole disk: bd_partno 0, bd_contains itself (set by
	 * register_blkdev), minors the numbers it owns from minor on (0 or
	 * 1: its partitions are not looked for).  A partition: bd_partno
	 * N > 0, bd_contains its disk, of which it is the nr_sectors from
	 * bd_start_sect; it has no queue.  bd_part_next chains a disk's
	 * partitions by number, from the disk, under blk_lock.
	 */
	unsigned int minors;
	unsigned int bd_partno;
	struct block_device *bd_contains;
	sector_t bd_start_sect;
	struct block_device *bd_part_next;
	/* The readahead window of files on it (BLKRASET); VM_MAX_READAHEAD
	 * unless the driver set one. */
	struct backing_dev_info backing_dev_info;
	struct list_head list;		/* all block devices */
	/* The request queue (blk-core.c), under blk_lock: bios waiting
	 * for a request, oldest first; requests not in flight. */
	struct list_head queue;
	struct list_head rq_free;
	struct request *rq_pool;	/* BLKDEV_MAX_RQ of them */
	bool queue_running;		/* blk_run_queue() is dispatching */
	/* Counters, as /proc/diskstats shows them: completed requests,
	 * bios merged into a request, sectors, failed requests. */
	uint64_t reads, writes, sectors_read, sectors_written, errors;
	uint64_t read_merges, write_merges;
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
 * -EEXIST when the name is taken, -ENOMEM.  A partition (bd_partno set)
 * is registered by genhd.c, never by a driver. */
int register_blkdev(struct block_device *bdev);
/* Called when no bio of bdev is held or in flight. */
void unregister_blkdev(struct block_device *bdev);
/* A device's request queue and its requests, which register_blkdev()
 * sets up and unregister_blkdev() frees (Linux's names; a device used
 * without registering, as a test's, calls them itself).  -ENOMEM. */
int blk_init_queue(struct block_device *bdev);
void blk_cleanup_queue(struct block_device *bdev);
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

/* A bio is done (error 0 or -EIO): sets bi_error and bi_done, calls
 * bi_end_io.  Drivers call blk_end_request_all() instead. */
void bio_endio(struct bio *bio, int error);

/* Called by a driver when rq is done (error 0 or -EIO): every bio of it
 * is completed with error, and rq goes back to the device.  May be called
 * from an interrupt handler or inside queue_rq. */
void blk_end_request_all(struct request *rq, int error);

/*
 * Plugging: blk_start_plug() makes plug the task's unless it already has
 * one (then the outer plug holds everything); blk_finish_plug() dispatches
 * the held bios and takes plug off if it is the task's.  blk_flush_plug()
 * dispatches them now (schedule() does, before a task sleeps).
 */
void blk_start_plug(struct blk_plug *plug);
void blk_finish_plug(struct blk_plug *plug);
void blk_flush_plug(struct blk_plug *plug);

/* The merge decision (drivers/block/blk-merge.c, Linux's blk_rq_merge_ok
 * and ll_back_merge_fn): may bio be appended to rq? */
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio);
/* Make rq a request of bio alone (Linux's blk_rq_bio_prep). */
void blk_rq_bio_prep(struct request *rq, struct bio *bio);
/* Append bio to rq, which blk_rq_merge_ok() allowed. */
void blk_rq_append_bio(struct request *rq, struct bio *bio);


/* Start the block layer: the ramdisks and the drivers found on PCI, then
 * the partitions of their disks. */
void blk_dev_init(void);

/* Read disk's partition table and register its partitions (genhd.c);
 * logs what it found or refused.  Process context: sleeps on the I/O. */
void blk_add_partitions(struct block_device *disk);
/* Link part, registered, at its place in its disk's bd_part_next chain
 * (blk-core.c, under blk_lock). */
void blk_link_partition(struct block_device *part);

#endif
