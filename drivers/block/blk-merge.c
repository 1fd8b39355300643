/*
 * Merging bios into requests (Linux's block/blk-merge.c and the back
 * merge of block/blk-core.c, reduced): the one place that decides
 * whether a bio may join a request, so the plug, the device's queue and
 * the host unit test (tests/unit/test_blk_merge.c) share it.
 *
 * A request only grows at its end (a back merge): the bio must be on the
 * same device, in the same direction, start at the sector where the
 * request ends, and keep the request within the device's max_sectors
 * and max_segments.  Segments are counted as bio_vecs, a bio's own; two
 * bios whose segments happen to touch in memory are not counted as one,
 * which Linux's blk_recount_segments would do.  max_segment_size needs no
 * check: every segment already passed it (bio_check).
 *
 * Nothing here sleeps or takes a lock; the callers hold blk_lock where
 * the request is shared.
 */
#include <drivers/blkdev.h>

bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio)
{
	const struct block_device *bdev = rq->rq_disk;

	if (bio->bi_bdev != bdev || bio->bi_rw != rq_data_dir(rq))
		return false;
	if (blk_rq_pos(rq) + blk_rq_sectors(rq) != bio->bi_sector)
		return false;
	if ((uint64_t)blk_rq_bytes(rq) + bio->bi_size >
	    (uint64_t)blk_max_sectors(bdev) << SECTOR_SHIFT)
		return false;
	return (unsigned int)rq->nr_phys_segments + bio->bi_vcnt <= blk_max_segments(bdev);
}

void blk_rq_bio_prep(struct request *rq, struct bio *bio)
{
	rq->rq_disk = bio->bi_bdev;
	rq->cmd_flags = bio->bi_rw;
	rq->__sector = bio->bi_sector;
	rq->__data_len = bio->bi_size;
	rq->nr_phys_segments = bio->bi_vcnt;
	bio->bi_next = NULL;
	rq->bio = rq->biotail = bio;
}

void blk_rq_append_bio(struct request *rq, struct bio *bio)
{
	bio->bi_next = NULL;
	rq->biotail->bi_next = bio;
	rq->biotail = bio;
	rq->__data_len += bio->bi_size;
	rq->nr_phys_segments += bio->bi_vcnt;
}
