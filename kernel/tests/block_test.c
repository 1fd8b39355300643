/*
 * Suite "block": the block layer's checks, the RAM disks and virtio-blk.
 *
 *   bio_checks        every refusal submit_bio() promises (errno, no I/O
 *                     reaching the driver, nothing written), on the first
 *                     command-line RAM disk and on a test device with
 *                     4096-byte sectors that is read-only
 *   ramdisk_roundtrip write across a page of the disk, read it back;
 *                     never-written sectors read as zeroes; counters
 *   virtio_pattern    writes a pattern derived from the sector number to
 *                     every sector of vda, 128 page-sized bios in flight
 *                     at a time (more than the ring has slots, so the
 *                     driver's FIFO is used), reads it all back and
 *                     compares.  The host checks the disk image too
 *                     (tests/qemu/cases.py).  Without a vda it passes with
 *                     a "# skipped" line.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <drivers/blkdev.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <pageturn/boot.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
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

static void bio_setup(struct bio *bio, struct block_device *bdev, sector_t sector,
		      struct page *page, unsigned int offset, unsigned int size)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_bdev = bdev;
	bio->bi_sector = sector;
	bio->bi_page = page;
	bio->bi_offset = offset;
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

static void fake_submit(struct block_device *bdev, struct bio *bio)
{
	(void)bdev;
	fake_submits++;
	bio_endio(bio, 0);
}

static const struct block_device_operations fake_ops = { .submit = fake_submit };

KTEST(block, bio_checks)
{
	struct block_device *rd = test_ramdisk();
	struct block_device fake = {
		.name = "blktest", .sector_size = 4096, .nr_sectors = 64,
		.read_only = true, .ops = &fake_ops,
	};
	struct page *page = alloc_page(GFP_KERNEL);
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

	bio_setup(&bio, rd, 0, page, 0, 0);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* empty */
	bio_setup(&bio, rd, 0, page, 0, 700);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* not whole sectors */
	bio_setup(&bio, rd, 0, page, 512, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* crosses the page */
	bio_setup(&bio, rd, 0, page, PAGE_SIZE, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EINVAL);		/* starts past the page */
	bio_setup(&bio, rd, rd->nr_sectors - 1, page, 0, 2 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EIO);		/* runs off the end */
	bio_setup(&bio, rd, rd->nr_sectors, page, 0, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EIO);		/* starts at the end */
	bio_setup(&bio, rd, ~(sector_t)0, page, 0, 2 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(WRITE, &bio), -EIO);		/* sector + nr wraps */
	bio_setup(&bio, rd, 0, page, 0, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(7, &bio), -EINVAL);		/* neither READ nor WRITE */
	KTEST_EXPECT_EQ(t, rd->writes, writes);

	/* Nothing reached the disk: the start and the end still read as zeroes. */
	bio_setup(&bio, rd, 0, page, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	bio_setup(&bio, rd, rd->nr_sectors - 1, page, PAGE_SIZE - SECTOR_SIZE, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	for (p = page_address(page), i = 0; i < PAGE_SIZE; i++)
		nonzero += p[i] != 0;
	KTEST_EXPECT_EQ(t, nonzero, 0);

	/* 4096-byte sectors, read-only: alignment and -EROFS. */
	KTEST_EXPECT_EQ(t, register_blkdev(&fake), 0);
	KTEST_EXPECT_EQ(t, register_blkdev(&fake), -EEXIST);
	bio_setup(&bio, &fake, 1, page, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(READ, &bio), -EINVAL);		/* misaligned sector */
	bio_setup(&bio, &fake, 8, page, 0, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio(READ, &bio), -EINVAL);		/* not a whole block */
	bio_setup(&bio, &fake, 8, page, 0, PAGE_SIZE);
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
	bio_setup(&bio, rd, first, out, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(WRITE, &bio), 0);
	KTEST_EXPECT(t, bio.bi_done);
	memset(page_address(in), 0xff, PAGE_SIZE);
	bio_setup(&bio, rd, first, in, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	KTEST_EXPECT_EQ(t, count_bad_sectors(page_address(in), first, nr), 0);

	/* Part of a page: sector first + 2 alone, into the middle of in. */
	memset(page_address(in), 0, PAGE_SIZE);
	bio_setup(&bio, rd, first + 2, in, 3 * SECTOR_SIZE, SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, submit_bio_wait(READ, &bio), 0);
	KTEST_EXPECT_EQ(t, count_bad_sectors((char *)page_address(in) + 3 * SECTOR_SIZE,
					     first + 2, 1), 0);

	/* A never-written page of the disk reads as zeroes. */
	memset(page_address(in), 0xff, PAGE_SIZE);
	bio_setup(&bio, rd, 64, in, 0, PAGE_SIZE);
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

/*
 * Run the whole of vda through rw in BATCH-sized waves of page bios.
 * WRITE fills each page with the pattern first; READ counts the sectors
 * that come back wrong into *bad.  Returns how many bios failed.
 */
static unsigned int vda_pass(struct block_device *vda, int rw, struct page **pages,
			     struct bio *bios, unsigned int *bad)
{
	const unsigned int per_bio = SECTORS_PER_PAGE;
	unsigned int i, n, failed = 0;
	sector_t s = 0;

	while (s < vda->nr_sectors) {
		for (n = 0; n < BATCH && s < vda->nr_sectors; n++, s += per_bio) {
			unsigned int nr = MIN((sector_t)per_bio, vda->nr_sectors - s);

			if (rw == WRITE)
				fill_sectors(page_address(pages[n]), s, nr);
			bio_setup(&bios[n], vda, s, pages[n], 0, nr * SECTOR_SIZE);
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
	failed = vda_pass(vda, WRITE, pages, bios, &bad);
	KTEST_EXPECT_EQ(t, failed, 0);
	t1 = ktime_get_ns();
	for (i = 0; i < BATCH; i++)
		memset(page_address(pages[i]), 0, PAGE_SIZE);
	failed = vda_pass(vda, READ, pages, bios, &bad);
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
