/*
 * The merge decision (drivers/block/blk-merge.c): may a bio join a
 * request, and what the request looks like after it has.
 *
 *   test_decision_table  one case per rule: adjacent, a gap, an overlap,
 *                        before the request, the other direction, another
 *                        device, max_sectors exactly reached and passed,
 *                        max_segments exactly reached and passed
 *   test_random_oracle   random limits, a request grown by random bios:
 *                        every answer matches a model of Linux's back
 *                        merge, and an accepted bio leaves the request
 *                        within the limits with its sectors, bytes,
 *                        segments and chain updated
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <drivers/blkdev.h>

static struct block_device disk, other;
static struct bio_vec vecs[8];

static int setup(void **state)
{
	(void)state;
	memset(&disk, 0, sizeof(disk));
	memset(&other, 0, sizeof(other));
	disk.sector_size = other.sector_size = SECTOR_SIZE;
	disk.nr_sectors = other.nr_sectors = 1 << 20;
	disk.max_sectors = 16;
	disk.max_segments = 4;
	disk.max_segment_size = 4096;
	return 0;
}

/* A bio as submit_bio() leaves it: rw set, nvec segments of size bytes. */
static void make_bio(struct bio *bio, struct block_device *bdev, int rw, sector_t sector,
		     unsigned int nvec, unsigned int size)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_io_vec = vecs;
	bio->bi_max_vecs = 8;
	bio->bi_bdev = bdev;
	bio->bi_rw = rw;
	bio->bi_sector = sector;
	bio->bi_vcnt = nvec;
	bio->bi_size = size;
}

static void test_decision_table(void **state)
{
	struct bio first, b;
	struct request rq;

	(void)state;
	make_bio(&first, &disk, WRITE, 100, 1, 4 * SECTOR_SIZE);
	blk_rq_bio_prep(&rq, &first);
	assert_int_equal(blk_rq_pos(&rq), 100);
	assert_int_equal(blk_rq_sectors(&rq), 4);

	make_bio(&b, &disk, WRITE, 104, 1, 4 * SECTOR_SIZE);
	assert_true(blk_rq_merge_ok(&rq, &b));			/* adjacent */
	make_bio(&b, &disk, WRITE, 105, 1, 4 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* a gap */
	make_bio(&b, &disk, WRITE, 103, 1, 4 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* overlaps */
	make_bio(&b, &disk, WRITE, 96, 1, 4 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* before: no front merge */
	make_bio(&b, &disk, READ, 104, 1, 4 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* the other direction */
	make_bio(&b, &other, WRITE, 104, 1, 4 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* another device */
	make_bio(&b, &disk, WRITE, 104, 3, 12 * SECTOR_SIZE);
	assert_true(blk_rq_merge_ok(&rq, &b));			/* exactly max_sectors, max_segments */
	make_bio(&b, &disk, WRITE, 104, 1, 13 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* past max_sectors */
	make_bio(&b, &disk, WRITE, 104, 4, 8 * SECTOR_SIZE);
	assert_false(blk_rq_merge_ok(&rq, &b));			/* past max_segments */

	make_bio(&b, &disk, WRITE, 104, 2, 8 * SECTOR_SIZE);
	blk_rq_append_bio(&rq, &b);
	assert_ptr_equal(rq.bio, &first);
	assert_ptr_equal(first.bi_next, &b);
	assert_ptr_equal(rq.biotail, &b);
	assert_null(b.bi_next);
	assert_int_equal(blk_rq_sectors(&rq), 12);
	assert_int_equal(rq.nr_phys_segments, 3);
	assert_int_equal(rq_data_dir(&rq), WRITE);
}

static void test_random_oracle(void **state)
{
	static struct bio bios[64];
	unsigned int round, i;

	(void)state;
	srand(4321);
	for (round = 0; round < 2000; round++) {
		struct request rq;
		sector_t end;
		unsigned int sectors, segs;

		disk.max_sectors = 8 * (1 + rand() % 8);
		disk.max_segments = 1 + rand() % 8;
		make_bio(&bios[0], &disk, rand() % 2, rand() % 1000, 1, SECTOR_SIZE * (1 + rand() % 8));
		blk_rq_bio_prep(&rq, &bios[0]);
		end = bios[0].bi_sector + bios[0].bi_size / SECTOR_SIZE;
		sectors = bios[0].bi_size / SECTOR_SIZE;
		segs = 1;
		for (i = 1; i < 64; i++) {
			struct bio *b = &bios[i];
			unsigned int nvec = 1 + rand() % 3, len = nvec * (1 + rand() % 4);
			sector_t at = rand() % 4 ? end : end + (rand() % 3) - 1;
			int rw = rand() % 8 ? rq_data_dir(&rq) : !rq_data_dir(&rq);
			struct block_device *dev = rand() % 8 ? &disk : &other;
			bool model = dev == &disk && rw == rq_data_dir(&rq) && at == end &&
				     sectors + len <= disk.max_sectors &&
				     segs + nvec <= disk.max_segments;

			make_bio(b, dev, rw, at, nvec, len * SECTOR_SIZE);
			assert_int_equal(blk_rq_merge_ok(&rq, b), model);
			if (!model)
				continue;
			blk_rq_append_bio(&rq, b);
			end += len;
			sectors += len;
			segs += nvec;
			assert_int_equal(blk_rq_pos(&rq) + blk_rq_sectors(&rq), end);
			assert_int_equal(blk_rq_sectors(&rq), sectors);
			assert_int_equal(rq.nr_phys_segments, segs);
			assert_true(blk_rq_sectors(&rq) <= disk.max_sectors);
			assert_true(rq.nr_phys_segments <= disk.max_segments);
			assert_ptr_equal(rq.biotail, b);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_decision_table, setup),
		cmocka_unit_test_setup(test_random_oracle, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
