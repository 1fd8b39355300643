/*
 * Building bios (drivers/block/bio.c): bio_alloc's bounds, and
 * bio_add_page against an oracle of the device's queue limits.
 *
 *   test_alloc_bounds   0 and more than BIO_MAX_PAGES segments are
 *                       refused; a bio_init bio is left alone by bio_put
 *   test_limits_table   hand-picked segments at each limit's edge
 *   test_random_oracle  random limits and random segments: every answer
 *                       of bio_add_page matches a model of Linux's rules
 *                       (extend the last segment when the page and offset
 *                       continue it, else a new segment), and the bio
 *                       never exceeds a limit
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <asm/page.h>
#include <drivers/blkdev.h>
#include <mm/mm.h>

#include "fake_machine.h"
#include "kernel_stubs.h"

static struct block_device bdev;

static int setup(void **state)
{
	(void)state;
	memset(&bdev, 0, sizeof(bdev));
	bdev.sector_size = SECTOR_SIZE;
	bdev.nr_sectors = 1 << 20;
	return 0;
}

static void test_alloc_bounds(void **state)
{
	struct bio_vec table[2];
	struct bio *bio, onstack;

	(void)state;
	assert_null(bio_alloc(GFP_KERNEL, 0));
	assert_null(bio_alloc(GFP_KERNEL, BIO_MAX_PAGES + 1));
	bio = bio_alloc(GFP_KERNEL, BIO_MAX_PAGES);
	assert_non_null(bio);
	assert_int_equal(bio->bi_max_vecs, BIO_MAX_PAGES);
	assert_int_equal(bio->bi_vcnt, 0);
	assert_int_equal(bio->bi_size, 0);
	bio_put(bio);		/* AddressSanitizer checks it was one allocation */
	bio_init(&onstack, table, 2);
	bio_put(&onstack);	/* not freed: it is on the stack */
	assert_int_equal(onstack.bi_max_vecs, 2);
}

static void test_limits_table(void **state)
{
	struct page *p0 = alloc_page(GFP_KERNEL), *p1 = alloc_page(GFP_KERNEL);
	struct bio *bio = bio_alloc(GFP_KERNEL, 4);

	(void)state;
	bdev.max_sectors = 16;
	bdev.max_segments = 2;
	bdev.max_segment_size = PAGE_SIZE;
	bio->bi_bdev = &bdev;
	assert_int_equal(bio_add_page(bio, p0, 0, 0), 0);		/* empty */
	assert_int_equal(bio_add_page(bio, p0, 2048, 0), 2048);
	assert_int_equal(bio_add_page(bio, p0, 2048, 2048), 2048);	/* extends to the page */
	assert_int_equal(bio->bi_vcnt, 1);
	assert_int_equal(bio_add_page(bio, p0, 512, 0), 512);		/* same page, new segment */
	assert_int_equal(bio->bi_vcnt, 2);
	assert_int_equal(bio_add_page(bio, p1, 512, 0), 0);		/* max_segments */
	assert_int_equal(bio_add_page(bio, p0, 512, 512), 512);	/* extends the second */
	assert_int_equal(bio_add_page(bio, p0, 3584, 1024), 0);	/* past max_segment_size */
	assert_int_equal(bio_add_page(bio, p0, 3072, 1024), 3072);	/* exactly 16 sectors */
	assert_int_equal(bio->bi_size, 16 * SECTOR_SIZE);
	assert_int_equal(bio_add_page(bio, p1, 512, 0), 0);		/* max_sectors */
	assert_int_equal(bio->bi_vcnt, 2);
	assert_ptr_equal(bio->bi_io_vec[1].bv_page, p0);
	assert_int_equal(bio->bi_io_vec[1].bv_offset, 0);
	assert_int_equal(bio->bi_io_vec[1].bv_len, PAGE_SIZE);
	bio_put(bio);
	__free_page(p0);
	__free_page(p1);
}

/* The model: would a bio of (vcnt, size, last segment) take (page, len, off)? */
struct model {
	unsigned int vcnt, size, last_len, last_off;
	long last_page;
};

static unsigned int model_add(struct model *m, unsigned int max_vecs, long page,
			      unsigned int len, unsigned int off)
{
	if (len == 0 || m->size + len > bdev.max_sectors * SECTOR_SIZE)
		return 0;
	if (m->vcnt && m->last_page == page && m->last_off + m->last_len == off &&
	    m->last_len + len <= bdev.max_segment_size) {
		m->last_len += len;
		m->size += len;
		return len;
	}
	if (m->vcnt >= max_vecs || m->vcnt >= bdev.max_segments || len > bdev.max_segment_size)
		return 0;
	m->vcnt++;
	m->size += len;
	m->last_page = page;
	m->last_off = off;
	m->last_len = len;
	return len;
}

static void test_random_oracle(void **state)
{
	struct page *pages[4];
	unsigned int round, i, k;

	(void)state;
	srand(1234);
	for (i = 0; i < 4; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	for (round = 0; round < 2000; round++) {
		unsigned int max_vecs = 1 + rand() % 8;
		struct bio *bio = bio_alloc(GFP_KERNEL, max_vecs);
		struct model m = { 0 };

		bdev.max_sectors = PAGE_SIZE / SECTOR_SIZE * (1 + rand() % 4);
		bdev.max_segments = 1 + rand() % 6;
		bdev.max_segment_size = PAGE_SIZE << (rand() % 2);
		bio->bi_bdev = &bdev;
		for (k = 0; k < 12; k++) {
			long page = rand() % 2;
			unsigned int off = SECTOR_SIZE * (rand() % 8);
			unsigned int len = SECTOR_SIZE * (rand() % (8 - off / SECTOR_SIZE + 1));
			unsigned int want = model_add(&m, max_vecs, page, len, off);

			assert_int_equal(bio_add_page(bio, pages[page], len, off), want);
			assert_int_equal(bio->bi_vcnt, m.vcnt);
			assert_int_equal(bio->bi_size, m.size);
			assert_true(bio->bi_vcnt <= bdev.max_segments);
			assert_true(bio->bi_size <= bdev.max_sectors * SECTOR_SIZE);
		}
		bio_put(bio);
	}
	for (i = 0; i < 4; i++)
		__free_page(pages[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_alloc_bounds, setup),
		cmocka_unit_test_setup(test_limits_table, setup),
		cmocka_unit_test_setup(test_random_oracle, setup),
	};

	fake_machine_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
