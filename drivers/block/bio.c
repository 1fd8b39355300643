/*
 * Bios (Linux's block/bio.c, reduced): allocating them and adding
 * segments within the device's limits.
 *
 * A bio from bio_alloc() is one kmalloc: the struct and, after it, its
 * table of bi_max_vecs segments (bi_inline_vecs); bi_alloced says that
 * bio_put() frees it.  A bio set up by bio_init() lives where its caller
 * put it (often the stack) over the caller's table, and bio_put() leaves
 * it alone.
 *
 * bio_add_page() is the one place the device's limits are applied while
 * a bio is built: after every successful call the bio has at most
 * max_segments segments, each at most max_segment_size bytes, and at most
 * max_sectors sectors in all.  submit_bio() checks the same again
 * (blk-core.c), for bios built by hand.
 *
 * Nothing here sleeps except bio_alloc() as its gfp allows; bio_put() may
 * be called from an interrupt handler (kfree is interrupt-safe).
 */
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <mm/slab.h>
#include <pageturn/string.h>

void bio_init(struct bio *bio, struct bio_vec *table, unsigned short max_vecs)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_io_vec = table;
	bio->bi_max_vecs = max_vecs;
	INIT_LIST_HEAD(&bio->bi_queue);
}

struct bio *bio_alloc(gfp_t gfp, unsigned int nr_vecs)
{
	struct bio *bio;

	if (nr_vecs == 0 || nr_vecs > BIO_MAX_PAGES)
		return NULL;
	bio = kmalloc(sizeof(*bio) + nr_vecs * sizeof(struct bio_vec), gfp);
	if (!bio)
		return NULL;
	bio_init(bio, bio->bi_inline_vecs, nr_vecs);
	bio->bi_alloced = true;
	return bio;
}

void bio_put(struct bio *bio)
{
	if (bio->bi_alloced)
		kfree(bio);
}

unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len,
			  unsigned int offset)
{
	const struct block_device *bdev = bio->bi_bdev;
	struct bio_vec *prev = bio->bi_vcnt ? &bio->bi_io_vec[bio->bi_vcnt - 1] : NULL;

	if (len == 0 || (uint64_t)bio->bi_size + len >
	    (uint64_t)blk_max_sectors(bdev) << SECTOR_SHIFT)
		return 0;
	if (prev && prev->bv_page == page && prev->bv_offset + prev->bv_len == offset &&
	    prev->bv_len + len <= blk_max_segment_size(bdev)) {
		prev->bv_len += len;
		bio->bi_size += len;
		return len;
	}
	if (bio->bi_vcnt >= bio->bi_max_vecs || bio->bi_vcnt >= blk_max_segments(bdev) ||
	    len > blk_max_segment_size(bdev))
		return 0;
	bio->bi_io_vec[bio->bi_vcnt++] = (struct bio_vec){
		.bv_page = page, .bv_len = len, .bv_offset = offset,
	};
	bio->bi_size += len;
	return len;
}
