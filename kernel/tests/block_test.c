/*
 * Suite "block": the block layer's checks, the RAM disks and virtio-blk.
 *
 *   bio_checks        every refusal submit_bio() promises (errno, no I/O
 *                     reaching the driver, nothing written), on the first
 *                     command-line RAM disk and on a test device with
 *                     4096-byte sectors that is read-only
 *   ramdisk_roundtrip write across a page of the disk, read it back;
 *                     never-written sectors read as zeroes; counters
 *   bio_limits        bio_alloc() bounds, bio_add_page() extending a
 *                     segment and refusing past max_segments and
 *                     max_sectors; submit_bio() refusing multi-segment
 *                     bios of a bad shape
 *   ramdisk_segments  one write of three segments in three pages, read
 *                     back through two other segments, as one I/O each
 *   plug_merge        under a plug, eight page writes to the RAM disk in
 *                     reverse order, one write elsewhere and one read are
 *                     held until blk_finish_plug(), then go as three
 *                     requests (the eight sorted and merged: 7 merges);
 *                     the data read back in one bio is the pattern
 *   request_error     a driver that fails every request: bios merged into
 *                     one request (up to max_segments; the next starts a
 *                     second) each complete with -EIO, once
 *   virtio_pattern    writes a pattern derived from the sector number to
 *                     every sector of vda, 128 page-sized bios in flight
 *                     at a time (more than the ring has slots, so the
 *                     driver's FIFO is used), reads it all back and
 *                     compares.  The host checks the disk image too
 *                     (tests/qemu/cases.py).  Without a vda it passes with
 *                     a "# skipped" line.
 *   virtio_segments   reads the pattern back in bios of as many pages as
 *                     the disk's limits allow (bio_add_page until it
 *                     refuses), several in flight, checks every sector
 *                     and that each request carried max_sectors.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <pageturn/boot.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

#define PATTERN_MULT	0x9e3779b97f4a7c15ull
#define WORDS_PER_SECTOR (SECTOR_SIZE / sizeof(uint64_t))
#define BATCH		128	/* bios in flight in virtio_pattern */
#define SECTORS_PER_PAGE (PAGE_SIZE / SECTOR_SIZE)
#define PAGES_FOR(sectors) (((sectors) + SECTORS_PER_PAGE - 1) / SECTORS_PER_PAGE)

/* Word w of sector s as virtio_pattern writes it (cases.py knows it too). */
static uint64_t sector_pattern(sector_t s, unsigned int w)
{
	return (s + 1) * PATTERN_MULT ^ w;
}

static void fill_sectors(void *buf, sector_t first, unsigned int nr)
{
	uint64_t *p = buf;
	unsigned int i, w;

	for (i = 0; i < nr; i++)
		for (w = 0; w < WORDS_PER_SECTOR; w++)
			*p++ = sector_pattern(first + i, w);
}

/* Sectors of buf that differ from the pattern of first.. */
static unsigned int count_bad_sectors(const void *buf, sector_t first, unsigned int nr)
{
	const uint64_t *p = buf;
	unsigned int i, w, bad = 0;

	for (i = 0; i < nr; i++) {
		bool ok = true;

		for (w = 0; w < WORDS_PER_SECTOR; w++)
			ok &= *p++ == sector_pattern(first + i, w);
		bad += !ok;
	}
	return bad;
}

/* A bio of one segment, set by hand (not bio_add_page) so that bad
 * shapes can be built too. */
static void bio_setup(struct bio *bio, struct bio_vec *bv, struct block_device *bdev,
		      sector_t sector, struct page *page, unsigned int offset, unsigned int size)
{
	bio_init(bio, bv, 1);
	bio->bi_bdev = bdev;
	bio->bi_sector = sector;
	*bv = (struct bio_vec){ .bv_page = page, .bv_len = size, .bv_offset = offset };
	bio->bi_vcnt = 1;
	bio->bi_size = size;
}

/* Halt until bio completes (interrupts on, as submit_bio_wait does). */
static void wait_for_bio(struct bio *bio)
{
	uint64_t flags = local_irq_save();

	while (!*(volatile bool *)&bio->bi_done) {
		__asm__ volatile("sti; hlt" ::: "memory");
		cli();
	}
	local_irq_restore(flags);
}

/* The first command-line RAM disk: after the boot-module ones. */
static struct block_device *test_ramdisk(void)
{
	char name[16];

	snprintf(name, sizeof(name), "ram%u", boot_info.nr_modules);
	return lookup_bdev(name);
}

/* A driver that must never be called: bio_checks' second device. */
static unsigned int fake_submits;

static void fake_queue_rq(struct block_device *bdev, struct request *rq)
{
	(void)bdev;
	fake_submits++;
	blk_end_request_all(rq, 0);
}

static const struct block_device_operations fake_ops = { .queue_rq = fake_queue_rq };

KTEST(block, bio_checks)
{
	struct block_device *rd = test_ramdisk();
	struct block_device fake = {
		.name = "blktest", .sector_size = 4096, .nr_sectors = 64,
		.read_only = true, .ops = &fake_ops,
	};
	struct page *page = alloc_page(GFP_KERNEL);
	struct bio_vec bv;
	struct bio bio;
	uint64_t writes;
	const uint8_t *p;
	unsigned int i, nonzero = 0;

	KTEST_EXPECT(t, rd != NULL);
	KTEST_EXPECT(t, page != NULL);
	if (!rd || !page)
		goto out;
	writes = rd->writes;
	memset(page_address(page), 0xa5, PAGE_SIZE);

	bio_setup(&bio, &bv, rd, 0, page, 0, 0);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* empty */
	bio_setup(&bio, &bv, rd, 0, page, 0, 700);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* not whole sectors */
	bio_setup(&bio, &bv, rd, 0, page, 512, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* crosses the page */
	bio_setup(&bio, &bv, rd, 0, page, PAGE_SIZE, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* starts past the page */
	bio_setup(&bio, &bv, rd, rd->nr_sectors - 1, page, 0, 2 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EIO);		/* runs off the end */
	bio_setup(&bio, &bv, rd, rd->nr_sectors, page, 0, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EIO);		/* starts at the end */
	bio_setup(&bio, &bv, rd, ~(sector_t)0, page, 0, 2 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EIO);		/* sector + nr wraps */
	bio_setup(&bio, &bv, rd, 0, page, 0, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(7, &bio), -EINVAL);		/* neither READ nor WRITE */
	KTEST_EXPECT_EQ(t, rd->writes, writes);

	/* Nothing reached the disk: the start and the end still read as zeroes. */
	bio_setup(&bio, &bv, rd, 0, page, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	bio_setup(&bio, &bv, rd, rd->nr_sectors - 1, page, PAGE_SIZE - SECTOR_SIZE, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	for (p = page_address(page), i = 0; i < PAGE_SIZE; i++)
		nonzero += p[i] != 0;
	KTEST_EXPECT_EQ(t, nonzero, 0);

	/* 4096-byte sectors, read-only: alignment and -EROFS. */
	KTEST_EXPECT_EQ(t, register_blkdev(&fake), 0);
	KTEST_EXPECT_EQ(t, register_blkdev(&fake), -EEXIST);
	bio_setup(&bio, &bv, &fake, 1, page, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(READ, &bio), -EINVAL);		/* misaligned sector */
	bio_setup(&bio, &bv, &fake, 8, page, 0, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(READ, &bio), -EINVAL);		/* not a whole block */
	bio_setup(&bio, &bv, &fake, 8, page, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EROFS);
	KTEST_EXPECT_EQ(t, fake_submits, 0);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);		/* and a good one passes */
	KTEST_EXPECT_EQ(t, fake_submits, 1);
	KTEST_EXPECT_EQ(t, fake.reads, 1);
	KTEST_EXPECT_EQ(t, fake.sectors_read, PAGE_SIZE / SECTOR_SIZE);
	unregister_blkdev(&fake);
	KTEST_EXPECT(t, lookup_bdev("blktest") == NULL);
out:
	if (page)
		__free_page(page);
}

KTEST(block, ramdisk_roundtrip)
{
	struct block_device *rd = test_ramdisk();
	struct page *out = alloc_page(GFP_KERNEL), *in = alloc_page(GFP_KERNEL);
	/* 8 sectors from here straddle disk pages 128 and 129, away from
	 * what bio_checks reads. */
	const sector_t first = 128 * SECTORS_PER_PAGE + 7;
	const unsigned int nr = SECTORS_PER_PAGE;
	uint64_t reads, writes, sectors_written;
	struct bio_vec bv;
	struct bio bio;
	const uint8_t *p;
	unsigned int i, nonzero = 0;

	KTEST_EXPECT(t, rd != NULL && out != NULL && in != NULL);
	if (!rd || !out || !in)
		goto out;
	KTEST_EXPECT(t, rd->nr_sectors >= first + 2 * SECTORS_PER_PAGE);
	if (rd->nr_sectors < first + 2 * SECTORS_PER_PAGE)
		goto out;
	reads = rd->reads;
	writes = rd->writes;
	sectors_written = rd->sectors_written;

	fill_sectors(page_address(out), first, nr);
	bio_setup(&bio, &bv, rd, first, out, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(WRITE, &bio), 0);
	KTEST_EXPECT(t, bio.bi_done);
	memset(page_address(in), 0xff, PAGE_SIZE);
	bio_setup(&bio, &bv, rd, first, in, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	KTEST_EXPECT_EQ(t, count_bad_sectors(page_address(in), first, nr), 0);

	/* Part of a page: sector first + 2 alone, into the middle of in. */
	memset(page_address(in), 0, PAGE_SIZE);
	bio_setup(&bio, &bv, rd, first + 2, in, 3 * SECTOR_SIZE, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	KTEST_EXPECT_EQ(t, count_bad_sectors((char *)page_address(in) + 3 * SECTOR_SIZE,
					     first + 2, 1), 0);

	/* A never-written page of the disk reads as zeroes. */
	memset(page_address(in), 0xff, PAGE_SIZE);
	bio_setup(&bio, &bv, rd, 64, in, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	for (p = page_address(in), i = 0; i < PAGE_SIZE; i++)
		nonzero += p[i] != 0;
	KTEST_EXPECT_EQ(t, nonzero, 0);

	KTEST_EXPECT_EQ(t, rd->writes, writes + 1);
	KTEST_EXPECT_EQ(t, rd->sectors_written, sectors_written + nr);
	KTEST_EXPECT_EQ(t, rd->reads, reads + 3);
	KTEST_EXPECT_EQ(t, rd->errors, 0);
out:
	if (out)
		__free_page(out);
	if (in)
		__free_page(in);
}

KTEST(block, bio_limits)
{
	struct block_device fake = {
		.name = "blklim", .sector_size = SECTOR_SIZE, .nr_sectors = 64,
		.max_sectors = 12, .max_segments = 3, .max_segment_size = PAGE_SIZE,
		.ops = &fake_ops,
	};
	struct page *pages[4] = { 0 };
	struct bio *bio;
	struct bio_vec bv[4];
	struct bio hand;
	unsigned int i, submits = fake_submits;

	KTEST_EXPECT(t, bio_alloc(GFP_KERNEL, 0) == NULL);
	KTEST_EXPECT(t, bio_alloc(GFP_KERNEL, BIO_MAX_PAGES + 1) == NULL);
	KTEST_EXPECT_EQ(t, blk_init_queue(&fake), 0);	/* not registered: limits below a page */
	bio = bio_alloc(GFP_KERNEL, 8);
	for (i = 0; i < 4; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	KTEST_EXPECT(t, bio && pages[0] && pages[1] && pages[2] && pages[3]);
	if (!bio || !pages[0] || !pages[1] || !pages[2] || !pages[3])
		goto out;
	bio->bi_bdev = &fake;
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[0], 1024, 0), 1024);
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[0], 1024, 1024), 1024);	/* extends */
	KTEST_EXPECT_EQ(t, bio->bi_vcnt, 1);
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[1], 2048, 0), 2048);
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[2], 512, 512), 512);
	KTEST_EXPECT_EQ(t, bio->bi_vcnt, 3);
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[3], 512, 0), 0);		/* max_segments */
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[2], 2048, 1024), 0);	/* max_sectors */
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[2], 1536, 1024), 1536);	/* exactly 12 */
	KTEST_EXPECT_EQ(t, bio->bi_size, 12 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, bio_add_page(bio, pages[2], 512, 0), 0);
	KTEST_EXPECT_EQ(t, submit_bio(READ, bio), 0);
	KTEST_EXPECT_EQ(t, fake_submits, submits + 1);
	KTEST_EXPECT_EQ(t, bio->bi_error, 0);

	/* Shapes only a hand-built bio can have. */
	bio_init(&hand, bv, 4);
	hand.bi_bdev = &fake;
	for (i = 0; i < 4; i++)
		bv[i] = (struct bio_vec){ .bv_page = pages[i], .bv_len = SECTOR_SIZE };
	hand.bi_vcnt = 4;
	hand.bi_size = 4 * SECTOR_SIZE;
	KTEST_EXPECT_EQ(t, submit_bio(READ, &hand), -EINVAL);		/* 4 > max_segments */
	hand.bi_vcnt = 2;
	KTEST_EXPECT_EQ(t, submit_bio(READ, &hand), -EINVAL);		/* bi_size is not the sum */
	hand.bi_size = 2 * SECTOR_SIZE;
	bv[1].bv_len = 700;
	hand.bi_size = SECTOR_SIZE + 700;
	KTEST_EXPECT_EQ(t, submit_bio(READ, &hand), -EINVAL);		/* not whole sectors */
	bv[1].bv_len = SECTOR_SIZE;
	bv[1].bv_offset = PAGE_SIZE - 256;
	hand.bi_size = 2 * SECTOR_SIZE;
	KTEST_EXPECT_EQ(t, submit_bio(READ, &hand), -EINVAL);		/* crosses its page */
	bv[1].bv_offset = 0;
	bv[1].bv_page = NULL;
	KTEST_EXPECT_EQ(t, submit_bio(READ, &hand), -EINVAL);		/* no page */
	bv[1].bv_page = pages[1];
	hand.bi_sector = 63;
	KTEST_EXPECT_EQ(t, submit_bio(READ, &hand), -EIO);		/* off the end */
	hand.bi_sector = 0;
	KTEST_EXPECT_EQ(t, fake_submits, submits + 1);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &hand), 0);		/* and the right shape passes */
	KTEST_EXPECT_EQ(t, fake_submits, submits + 2);
out:
	if (bio)
		bio_put(bio);
	for (i = 0; i < 4; i++)
		if (pages[i])
			__free_page(pages[i]);
	blk_cleanup_queue(&fake);
}

KTEST(block, ramdisk_segments)
{
	struct block_device *rd = test_ramdisk();
	const sector_t first = 300 * SECTORS_PER_PAGE;
	struct page *pg[5] = { 0 };
	struct bio_vec bv[3];
	struct bio bio;
	uint64_t reads, writes;
	char *a, *b, *c;
	unsigned int i;

	for (i = 0; i < 5; i++)
		pg[i] = alloc_page(GFP_KERNEL);
	KTEST_EXPECT(t, rd && pg[0] && pg[1] && pg[2] && pg[3] && pg[4]);
	if (!rd || !pg[0] || !pg[1] || !pg[2] || !pg[3] || !pg[4])
		goto out;
	KTEST_EXPECT(t, rd->nr_sectors >= first + 2 * SECTORS_PER_PAGE);
	if (rd->nr_sectors < first + 2 * SECTORS_PER_PAGE)
		goto out;
	reads = rd->reads;
	writes = rd->writes;
	a = page_address(pg[0]);
	b = page_address(pg[1]);
	c = page_address(pg[2]);
	fill_sectors(a + 512, first, 2);
	fill_sectors(b, first + 2, SECTORS_PER_PAGE);
	fill_sectors(c + 2048, first + 2 + SECTORS_PER_PAGE, 4);
	bio_init(&bio, bv, 3);
	bio.bi_bdev = rd;
	bio.bi_sector = first;
	KTEST_EXPECT_EQ(t, bio_add_page(&bio, pg[0], 1024, 512), 1024);
	KTEST_EXPECT_EQ(t, bio_add_page(&bio, pg[1], PAGE_SIZE, 0), PAGE_SIZE);
	KTEST_EXPECT_EQ(t, bio_add_page(&bio, pg[2], 2048, 2048), 2048);
	KTEST_EXPECT_EQ(t, submit_bio_wait(WRITE, &bio), 0);

	memset(page_address(pg[3]), 0xff, PAGE_SIZE);
	memset(page_address(pg[4]), 0xff, PAGE_SIZE);
	bio_init(&bio, bv, 2);
	bio.bi_bdev = rd;
	bio.bi_sector = first;
	KTEST_EXPECT_EQ(t, bio_add_page(&bio, pg[3], PAGE_SIZE, 0), PAGE_SIZE);
	KTEST_EXPECT_EQ(t, bio_add_page(&bio, pg[4], 3072, 0), 3072);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	KTEST_EXPECT_EQ(t, count_bad_sectors(page_address(pg[3]), first, SECTORS_PER_PAGE), 0);
	KTEST_EXPECT_EQ(t, count_bad_sectors(page_address(pg[4]), first + SECTORS_PER_PAGE, 6), 0);
	KTEST_EXPECT_EQ(t, rd->writes, writes + 1);
	KTEST_EXPECT_EQ(t, rd->reads, reads + 1);
out:
	for (i = 0; i < 5; i++)
		if (pg[i])
			__free_page(pg[i]);
}

#define PLUG_PAGES 8

KTEST(block, plug_merge)
{
	struct block_device *rd = test_ramdisk();
	const sector_t first = 400 * SECTORS_PER_PAGE, apart = first + 20 * SECTORS_PER_PAGE;
	uint64_t reads, writes, rmerges, wmerges;
	struct page *pg[PLUG_PAGES + 2] = { 0 };
	struct bio bios[PLUG_PAGES + 2], back;
	struct bio_vec bv[PLUG_PAGES + 2], back_bv[PLUG_PAGES];
	struct blk_plug plug;
	unsigned int i, held = 0, bad = 0;

	for (i = 0; i < PLUG_PAGES + 2; i++)
		pg[i] = alloc_page(GFP_KERNEL);
	for (i = 0; i < PLUG_PAGES + 2; i++)
		KTEST_EXPECT(t, pg[i] != NULL);
	KTEST_EXPECT(t, rd && rd->nr_sectors > apart + SECTORS_PER_PAGE);
	if (!rd || rd->nr_sectors <= apart + SECTORS_PER_PAGE)
		goto out;
	for (i = 0; i < PLUG_PAGES + 2; i++)
		if (!pg[i])
			goto out;
	reads = rd->reads;
	writes = rd->writes;
	rmerges = rd->read_merges;
	wmerges = rd->write_merges;

	blk_start_plug(&plug);
	for (i = PLUG_PAGES; i-- > 0;) {
		fill_sectors(page_address(pg[i]), first + i * SECTORS_PER_PAGE, SECTORS_PER_PAGE);
		bio_setup(&bios[i], &bv[i], rd, first + i * SECTORS_PER_PAGE, pg[i], 0, PAGE_SIZE);
		KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bios[i]), 0);
	}
	fill_sectors(page_address(pg[PLUG_PAGES]), apart, SECTORS_PER_PAGE);
	bio_setup(&bios[PLUG_PAGES], &bv[PLUG_PAGES], rd, apart, pg[PLUG_PAGES], 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bios[PLUG_PAGES]), 0);
	bio_setup(&bios[PLUG_PAGES + 1], &bv[PLUG_PAGES + 1], rd, apart + SECTORS_PER_PAGE,
		  pg[PLUG_PAGES + 1], 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(READ, &bios[PLUG_PAGES + 1]), 0);
	for (i = 0; i < PLUG_PAGES + 2; i++)
		held += !bios[i].bi_done;
	KTEST_EXPECT_EQ(t, held, PLUG_PAGES + 2);	/* a RAM disk would have finished them */
	blk_finish_plug(&plug);
	KTEST_EXPECT(t, current->plug == NULL);
	for (i = 0; i < PLUG_PAGES + 2; i++) {
		wait_for_bio(&bios[i]);
		KTEST_EXPECT_EQ(t, bios[i].bi_error, 0);
	}
	KTEST_EXPECT_EQ(t, rd->writes, writes + 2);
	KTEST_EXPECT_EQ(t, rd->write_merges, wmerges + PLUG_PAGES - 1);
	KTEST_EXPECT_EQ(t, rd->reads, reads + 1);
	KTEST_EXPECT_EQ(t, rd->read_merges, rmerges);

	for (i = 0; i < PLUG_PAGES; i++)
		memset(page_address(pg[i]), 0, PAGE_SIZE);
	bio_init(&back, back_bv, PLUG_PAGES);
	back.bi_bdev = rd;
	back.bi_sector = first;
	for (i = 0; i < PLUG_PAGES; i++)
		KTEST_EXPECT_EQ(t, bio_add_page(&back, pg[i], PAGE_SIZE, 0), PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &back), 0);
	for (i = 0; i < PLUG_PAGES; i++)
		bad += count_bad_sectors(page_address(pg[i]), first + i * SECTORS_PER_PAGE,
					 SECTORS_PER_PAGE);
	KTEST_EXPECT_EQ(t, bad, 0);
out:
	for (i = 0; i < PLUG_PAGES + 2; i++)
		if (pg[i])
			__free_page(pg[i]);
}

/* request_error's driver: fails every request, counting them. */
static unsigned int failed_requests;

static void failing_queue_rq(struct block_device *bdev, struct request *rq)
{
	(void)bdev;
	failed_requests++;
	blk_end_request_all(rq, -EIO);
}

static const struct block_device_operations failing_ops = { .queue_rq = failing_queue_rq };
static unsigned int end_io_calls;

static void count_end_io(struct bio *bio)
{
	(void)bio;
	end_io_calls++;
}

KTEST(block, request_error)
{
	struct block_device bad = {
		.name = "blkfail", .sector_size = SECTOR_SIZE, .nr_sectors = 64,
		.max_sectors = 64, .max_segments = 3, .max_segment_size = PAGE_SIZE,
		.ops = &failing_ops,
	};
	struct page *page = alloc_page(GFP_KERNEL);
	struct bio bios[4];
	struct bio_vec bv[4];
	struct blk_plug plug;
	unsigned int i;

	KTEST_EXPECT(t, page != NULL);
	if (!page)
		return;
	KTEST_EXPECT_EQ(t, blk_init_queue(&bad), 0);
	failed_requests = end_io_calls = 0;
	blk_start_plug(&plug);
	for (i = 0; i < 4; i++) {
		bio_setup(&bios[i], &bv[i], &bad, 8 * i, page, 0, PAGE_SIZE);
		bios[i].bi_end_io = count_end_io;
		KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bios[i]), 0);
	}
	blk_finish_plug(&plug);
	KTEST_EXPECT_EQ(t, failed_requests, 2);	/* 3 bios at max_segments, then 1 */
	KTEST_EXPECT_EQ(t, end_io_calls, 4);
	for (i = 0; i < 4; i++) {
		KTEST_EXPECT(t, bios[i].bi_done);
		KTEST_EXPECT_EQ(t, bios[i].bi_error, -EIO);
	}
	KTEST_EXPECT_EQ(t, bad.errors, 2);
	KTEST_EXPECT_EQ(t, bad.write_merges, 2);
	blk_cleanup_queue(&bad);
	__free_page(page);
}

/*
 * Run the whole of vda through rw in BATCH-sized waves of page bios.
 * WRITE fills each page with the pattern first; READ counts the sectors
 * that come back wrong into *bad.  Returns how many bios failed.
 */
static unsigned int vda_pass(struct block_device *vda, int rw, struct page **pages,
			     struct bio *bios, struct bio_vec *bvs, unsigned int *bad)
{
	const unsigned int per_bio = SECTORS_PER_PAGE;
	unsigned int i, n, failed = 0;
	sector_t s = 0;

	while (s < vda->nr_sectors) {
		for (n = 0; n < BATCH && s < vda->nr_sectors; n++, s += per_bio) {
			unsigned int nr = MIN((sector_t)per_bio, vda->nr_sectors - s);

			if (rw == WRITE)
				fill_sectors(page_address(pages[n]), s, nr);
			bio_setup(&bios[n], &bvs[n], vda, s, pages[n], 0, nr * SECTOR_SIZE);
			if (submit_bio(rw, &bios[n])) {
				bios[n].bi_done = true;		/* never started */
				bios[n].bi_error = -EIO;
			}
		}
		for (i = 0; i < n; i++) {
			wait_for_bio(&bios[i]);
			failed += bios[i].bi_error != 0;
			if (rw == READ)
				*bad += count_bad_sectors(page_address(pages[i]), bios[i].bi_sector,
							  bios[i].bi_size / SECTOR_SIZE);
		}
	}
	return failed;
}

KTEST(block, virtio_pattern)
{
	struct block_device *vda = lookup_bdev("vda");
	static struct page *pages[BATCH];
	static struct bio bios[BATCH];
	static struct bio_vec bvs[BATCH];
	uint64_t writes, reads, t0, t1, t2;
	unsigned int i, bad = 0, failed;

	if (!vda) {
		printk(KERN_INFO "        # skipped: no vda\n");
		return;
	}
	KTEST_EXPECT(t, !vda->read_only);
	KTEST_EXPECT_EQ(t, vda->sector_size, SECTOR_SIZE);
	for (i = 0; i < BATCH; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_EXPECT(t, pages[i] != NULL);
		if (!pages[i])
			goto out;
	}
	writes = vda->writes;
	reads = vda->reads;

	t0 = ktime_get_ns();
	failed = vda_pass(vda, WRITE, pages, bios, bvs, &bad);
	KTEST_EXPECT_EQ(t, failed, 0);
	t1 = ktime_get_ns();
	for (i = 0; i < BATCH; i++)
		memset(page_address(pages[i]), 0, PAGE_SIZE);
	failed = vda_pass(vda, READ, pages, bios, bvs, &bad);
	KTEST_EXPECT_EQ(t, failed, 0);
	t2 = ktime_get_ns();
	KTEST_EXPECT_EQ(t, bad, 0);

	KTEST_EXPECT_EQ(t, vda->writes - writes, PAGES_FOR(vda->nr_sectors));
	KTEST_EXPECT_EQ(t, vda->reads - reads, PAGES_FOR(vda->nr_sectors));
	KTEST_EXPECT_EQ(t, vda->errors, 0);
	printk(KERN_INFO "block: vda: %lu sectors written and read back, %u mismatches; "
	       "write %lu ms, read %lu ms\n", vda->nr_sectors, bad,
	       (t1 - t0) / 1000000, (t2 - t1) / 1000000);
out:
	for (i = 0; i < BATCH; i++)
		if (pages[i]) {
			__free_page(pages[i]);
			pages[i] = NULL;
		}
}

#define SEG_BIOS	4	/* big bios in flight in virtio_segments */

KTEST(block, virtio_segments)
{
	struct block_device *vda = lookup_bdev("vda");
	unsigned int per_bio, nr_pages, i, j, n, bad = 0, failed = 0;
	static struct page *pages[SEG_BIOS * BLK_DEF_MAX_SECTORS / SECTORS_PER_PAGE];
	struct bio *bios[SEG_BIOS] = { 0 };
	uint64_t reads, requests = 0;
	sector_t s = 0;

	if (!vda) {
		printk(KERN_INFO "        # skipped: no vda\n");
		return;
	}
	per_bio = MIN(vda->max_sectors, vda->max_segments * SECTORS_PER_PAGE) / SECTORS_PER_PAGE;
	KTEST_EXPECT(t, per_bio > 1);
	nr_pages = SEG_BIOS * per_bio;
	for (i = 0; i < nr_pages; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_EXPECT(t, pages[i] != NULL);
		if (!pages[i])
			goto out;
	}
	reads = vda->reads;
	while (s < vda->nr_sectors) {
		for (n = 0; n < SEG_BIOS && s < vda->nr_sectors; n++) {
			struct bio *bio = bio_alloc(GFP_KERNEL, per_bio);

			KTEST_EXPECT(t, bio != NULL);
			if (!bio)
				goto out;
			bios[n] = bio;
			bio->bi_bdev = vda;
			bio->bi_sector = s;
			for (j = 0; j < per_bio && s < vda->nr_sectors; j++) {
				unsigned int len = MIN((sector_t)SECTORS_PER_PAGE, vda->nr_sectors - s);
				struct page *page = pages[n * per_bio + j];

				memset(page_address(page), 0, PAGE_SIZE);
				if (!bio_add_page(bio, page, len * SECTOR_SIZE, 0))
					break;
				s += len;
			}
			if (submit_bio(READ, bio)) {
				bio->bi_done = true;
				bio->bi_error = -EIO;
			}
			requests++;
		}
		for (i = 0; i < n; i++) {
			sector_t at = bios[i]->bi_sector;
			struct bio_vec *bv;

			wait_for_bio(bios[i]);
			failed += bios[i]->bi_error != 0;
			bio_for_each_segment(bv, bios[i], j) {
				bad += count_bad_sectors(page_address(bv->bv_page), at,
							 bv->bv_len / SECTOR_SIZE);
				at += bv->bv_len / SECTOR_SIZE;
			}
			bio_put(bios[i]);
			bios[i] = NULL;
		}
	}
	KTEST_EXPECT_EQ(t, failed, 0);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_EQ(t, vda->reads - reads, requests);
	KTEST_EXPECT_EQ(t, requests, (vda->nr_sectors + per_bio * SECTORS_PER_PAGE - 1) /
				     (per_bio * SECTORS_PER_PAGE));
	printk(KERN_INFO "block: vda: read back in %lu requests of up to %u pages\n",
	       (unsigned long)requests, per_bio);
out:
	for (i = 0; i < SEG_BIOS; i++)
		if (bios[i])
			bio_put(bios[i]);
	for (i = 0; i < nr_pages; i++)
		if (pages[i]) {
			__free_page(pages[i]);
			pages[i] = NULL;
		}
}
