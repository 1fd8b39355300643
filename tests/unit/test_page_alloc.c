/*
 * Host unit tests for the page allocator (mm/page_alloc.c) and the VM
 * counters (mm/vmstat.c).
 *
 * The fake machine.  Each test boots one with boot_machine() (on
 * fake_zones.c's mapping): mem_map is a calloc'd array of max_pfn struct pages, and "physical memory" is one
 * anonymous mmap of max_pfn pages with MAP_NORESERVE at host_phys_base, so
 * page_address() works for every pfn while only the pages a test touches
 * (allocated, zeroed or poisoned ones) cost host memory.  That lets a
 * machine span past 4 GiB, to have a NORMAL zone, with a little RAM in
 * each zone.  The layouts:
 *
 *   dma_only   DMA pfn 0-4096, all RAM: four order-10 blocks.
 *   small      DMA with holes at pfn 0 and 4000-4095, DMA32 16-64 MiB.
 *   three      as small but 32 MiB of DMA32 in a span to 4 GiB, and 6000
 *              pages of NORMAL from 4 GiB (mem_map: about 60 MiB of host memory).
 *   offset     the node starts at pfn 16: pfns 0-15 are in no zone.
 *
 * Reclaim is not linked in: the test defines wakeup_kswapd and
 * try_to_free_pages as stubs that count their calls (and, when a test
 * asks, free pages the test holds, to play a reclaim that made progress).
 * panic() and printk() are the shared stubs of kernel_stubs.c: panic()
 * longjmps back into expect_panic(); printk() appends to log_buf.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>

#include "fake_wait.h"
#include "fake_zones.h"
#include "kernel_stubs.h"

#define ZONE(i) (&contig_page_data.node_zones[i])

/* ---- reclaim stubs ----------------------------------------------------- */

/* mm/swap.c's, not linked here: /proc/zoneinfo reads it (lru=split). */
enum lru_policy lru_policy = LRU_POLICY_SPLIT;

static unsigned long kswapd_calls[MAX_NR_ZONES];
static unsigned long reclaim_calls;
static struct zone *reclaim_preferred;
static unsigned long (*reclaim_hook)(void);

void wakeup_kswapd(struct zone *zone, int order, gfp_t gfp_mask)
{
	(void)order;
	(void)gfp_mask;
	kswapd_calls[zone_idx(zone)]++;
}

unsigned long try_to_free_pages(struct zone *preferred_zone, int order, gfp_t gfp_mask)
{
	(void)order;
	(void)gfp_mask;
	reclaim_calls++;
	reclaim_preferred = preferred_zone;
	return reclaim_hook ? reclaim_hook() : 0;
}

static unsigned long all_kswapd_calls(void)
{
	return kswapd_calls[0] + kswapd_calls[1] + kswapd_calls[2];
}

/* ---- fake machines ----------------------------------------------------- */

struct ram_range {
	unsigned long start, end;	/* pfns */
};

struct machine {
	unsigned long node_start_pfn;
	unsigned long zones_size[MAX_NR_ZONES];
	int nr_ram;
	struct ram_range ram[4];
};

#define NORMAL_START MAX_DMA32_PFN

static const struct machine dma_only = { 0, { 4096, 0, 0 }, 1, { { 0, 4096 } } };
static const struct machine small = {
	0, { 4096, 12288, 0 }, 2, { { 1, 4000 }, { 4096, 16384 } }
};
static const struct machine three = {
	0, { 4096, MAX_DMA32_PFN - 4096, 6000 }, 3,
	{ { 1, 4000 }, { 4096, 4096 + 8192 }, { NORMAL_START, NORMAL_START + 6000 } }
};
static const struct machine offset = { 16, { 4096 - 16, 0, 0 }, 1, { { 16, 4096 } } };

static const struct machine *booted;
static unsigned long boot_nr_free[MAX_NR_ZONES][MAX_ORDER];

static void reset_globals(void)
{
	fake_zones_reset();
	memset(kswapd_calls, 0, sizeof(kswapd_calls));
	reclaim_calls = 0;
	reclaim_preferred = NULL;
	reclaim_hook = NULL;
}

static unsigned long zone_start(const struct machine *m, int j)
{
	unsigned long pfn = m->node_start_pfn;
	int i;

	for (i = 0; i < j; i++)
		pfn += m->zones_size[i];
	return pfn;
}

/* RAM pages of m in [start, end). */
static unsigned long ram_in(const struct machine *m, unsigned long start, unsigned long end)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < m->nr_ram; i++) {
		unsigned long s = MAX(start, m->ram[i].start), e = MIN(end, m->ram[i].end);

		if (s < e)
			n += e - s;
	}
	return n;
}

static void boot_machine(const struct machine *m)
{
	unsigned long zholes[MAX_NR_ZONES];
	int i, j;

	reset_globals();
	booted = m;
	fake_zones_map(zone_start(m, MAX_NR_ZONES));

	for (j = 0; j < MAX_NR_ZONES; j++)
		zholes[j] = m->zones_size[j] -
			ram_in(m, zone_start(m, j), zone_start(m, j) + m->zones_size[j]);
	free_area_init_node(0, m->zones_size, m->node_start_pfn, zholes);
	for (i = 0; i < m->nr_ram; i++)
		free_bootmem_range(m->ram[i].start, m->ram[i].end);
	init_per_zone_pages_min();

	for (j = 0; j < MAX_NR_ZONES; j++)
		for (i = 0; i < MAX_ORDER; i++)
			boot_nr_free[j][i] = ZONE(j)->free_area[i].nr_free;
}

static int boot_dma_only(void **state) { (void)state; boot_machine(&dma_only); return 0; }
static int boot_small(void **state) { (void)state; boot_machine(&small); return 0; }
static int boot_three(void **state) { (void)state; boot_machine(&three); return 0; }
static int boot_offset(void **state) { (void)state; boot_machine(&offset); return 0; }

static int no_machine(void **state)
{
	(void)state;
	reset_globals();
	booted = NULL;
	return 0;
}

static int shutdown(void **state)
{
	(void)state;
	if (booted) {
		fake_zones_unmap();
		booted = NULL;
	}
	return 0;
}

/* ---- helpers ----------------------------------------------------------- */

static unsigned long zfree(int j)
{
	return zone_page_state(ZONE(j), NR_FREE_PAGES);
}


static unsigned long pfn_of(const struct page *page)
{
	return page_to_pfn(page);
}

/* Is every byte of the block at page equal to byte? */
static bool block_is(const struct page *page, unsigned int order, unsigned char byte)
{
	static unsigned char ref[PAGE_SIZE];
	const unsigned char *p = page_address(page);
	size_t i;

	memset(ref, byte, PAGE_SIZE);
	for (i = 0; i < (1ul << order); i++)
		if (memcmp(p + i * PAGE_SIZE, ref, PAGE_SIZE) != 0)
			return false;
	return true;
}

/* The state alloc_pages promises for a block it hands out. */
static void assert_fresh_block(const struct page *page, unsigned int order)
{
	unsigned long i;

	assert_int_equal(page_count(page), 1);
	for (i = 0; i < (1ul << order); i++) {
		const struct page *p = page + i;

		if (i)
			assert_int_equal(page_count(p), 0);
		assert_int_equal(p->_mapcount, -1);
		assert_null(p->mapping);
		assert_int_equal(p->private, 0);
		assert_int_equal(p->flags, (unsigned long)page_zonenum(page) << ZONES_PGSHIFT);
	}
}

/*
 * Free-area counts of the canonical (fully merged) buddy state of free
 * pfns [start, end): its greedy split into the largest aligned blocks.
 */
static void add_greedy_blocks(unsigned long nr_free[MAX_ORDER], unsigned long start, unsigned long end)
{
	while (start < end) {
		unsigned int order = MAX_ORDER - 1;

		while (start % (1ul << order) || start + (1ul << order) > end)
			order--;
		nr_free[order]++;
		start += 1ul << order;
	}
}

static void expected_boot_free_area(const struct machine *m, unsigned long nr_free[MAX_NR_ZONES][MAX_ORDER])
{
	int i, j;

	memset(nr_free, 0, sizeof(unsigned long) * MAX_NR_ZONES * MAX_ORDER);
	for (j = 0; j < MAX_NR_ZONES; j++) {
		unsigned long zs = zone_start(m, j), ze = zs + m->zones_size[j];

		for (i = 0; i < m->nr_ram; i++) {
			unsigned long s = MAX(zs, m->ram[i].start), e = MIN(ze, m->ram[i].end);

			if (s < e)
				add_greedy_blocks(nr_free[j], s, e);
		}
	}
}

/*
 * Walk every free list and check the invariants of the essay in
 * page_alloc.c: heads marked with their order, aligned, inside their zone,
 * no page in two blocks or in a block and allocated (allocated[pfn] != 0),
 * fully merged, counts consistent.
 */
static void check_free_lists(const unsigned char *allocated)
{
	unsigned char *seen = calloc(max_pfn, 1);
	unsigned long global = 0;
	int j;

	assert_non_null(seen);
	for (j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *zone = ZONE(j);
		unsigned long zone_total = 0;
		unsigned int order;

		for (order = 0; order < MAX_ORDER; order++) {
			struct page *page;
			unsigned long count = 0;

			list_for_each_entry(page, &zone->free_area[order].free_list, lru) {
				unsigned long pfn = pfn_of(page), i, buddy = pfn ^ (1ul << order);

				assert_true(PageBuddy(page));
				assert_int_equal(page->private, order);
				assert_int_equal(page_count(page), 0);
				assert_int_equal(pfn % (1ul << order), 0);
				assert_true(pfn >= zone->zone_start_pfn);
				assert_true(pfn + (1ul << order) <= zone->zone_start_pfn + zone->spanned_pages);
				for (i = 0; i < (1ul << order); i++) {
					struct page *p = page + i;

					assert_false(seen[pfn + i]);
					seen[pfn + i] = 1;
					if (allocated)
						assert_false(allocated[pfn + i]);
					assert_int_equal(page_zonenum(p), j);
					assert_int_equal(p->_mapcount, -1);
					if (i) {
						assert_int_equal(p->flags, (unsigned long)j << ZONES_PGSHIFT);
						assert_int_equal(page_count(p), 0);
					}
				}
				if (order < MAX_ORDER - 1 && pfn_valid(buddy))
					assert_false(PageBuddy(pfn_to_page(buddy)) &&
						     pfn_to_page(buddy)->private == order);
				count++;
			}
			assert_int_equal(count, zone->free_area[order].nr_free);
			zone_total += count << order;
		}
		assert_int_equal(zone_total, zfree(j));
		global += zone_total;
	}
	assert_int_equal(global, global_page_state(NR_FREE_PAGES));
	assert_int_equal(global, nr_free_pages());
	free(seen);
}

static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* The alloc_flags of alloc_pages' min-watermark pass for gfp. */
static int min_pass_flags(gfp_t gfp)
{
	int flags = 0;

	if (!(gfp & __GFP_WAIT))
		flags |= ALLOC_HARDER;
	if (gfp & __GFP_HIGH)
		flags |= ALLOC_HIGH;
	return flags;
}

/* pages_min as alloc_flags lower it (reference section 1.5). */
static long lowered_min(unsigned long mark, int flags)
{
	long min = (long)mark;

	if (flags & ALLOC_HIGH)
		min -= min / 2;
	if (flags & ALLOC_HARDER)
		min -= min / 4;
	return min;
}

/* ---- int_sqrt and watermarks ------------------------------------------ */

static void test_int_sqrt(void **state)
{
	unsigned long x, i;

	(void)state;
	for (x = 0; x < 200000; x++) {
		unsigned long r = int_sqrt(x);

		assert_true(r * r <= x && (r + 1) * (r + 1) > x);
	}
	rnd_state = 42;
	for (i = 0; i < 100000; i++) {
		unsigned long r;
		unsigned __int128 r2, r12;

		x = rnd() >> (rnd() % 64);
		r = int_sqrt(x);
		r2 = (unsigned __int128)r * r;
		r12 = (unsigned __int128)(r + 1) * (r + 1);
		assert_true(r2 <= x && r12 > x);
	}
	assert_int_equal(int_sqrt(~0ul), 0xfffffffful);
	assert_int_equal(int_sqrt(0xfffffffe00000001ul), 0xfffffffful);
	assert_int_equal(int_sqrt(0xfffffffe00000000ul), 0xfffffffeul);
}

/* Zones with these managed (and present) page counts, nothing else. */
static void fake_zones(unsigned long dma, unsigned long dma32, unsigned long normal)
{
	const unsigned long pages[MAX_NR_ZONES] = { dma, dma32, normal };
	int j;

	for (j = 0; j < MAX_NR_ZONES; j++) {
		ZONE(j)->zone_pgdat = &contig_page_data;
		ZONE(j)->present_pages = pages[j];
		ZONE(j)->managed_pages = pages[j];
	}
}

/* min_free_kbytes of a machine with this much RAM (MiB), laid out like a PC. */
static int min_free_kbytes_for(unsigned long mib)
{
	unsigned long pages = mib << (20 - PAGE_SHIFT);
	unsigned long dma = MIN(pages, MAX_DMA_PFN);
	unsigned long dma32 = MIN(pages, MAX_DMA32_PFN) - dma;

	reset_globals();
	fake_zones(dma, dma32, pages - dma - dma32);
	init_per_zone_pages_min();
	return min_free_kbytes;
}

static void test_min_free_kbytes(void **state)
{
	(void)state;
	/* The reference's table (Linux's comment in init_per_zone_pages_min). */
	assert_int_equal(min_free_kbytes_for(16), 512);
	assert_int_equal(min_free_kbytes_for(64), 1024);
	assert_int_equal(min_free_kbytes_for(256), 2048);
	assert_int_equal(min_free_kbytes_for(1024), 4096);
	assert_int_equal(min_free_kbytes_for(4096), 8192);
	/*
	 * The reference and Linux's comment say 11584k for 8 GiB, twice the
	 * 5792k of 2 GiB.  The formula gives int_sqrt(8388608 * 16) =
	 * floor(11585.24) = 11585, and so does Linux's own int_sqrt.
	 */
	assert_int_equal(min_free_kbytes_for(8192), 11585);
	assert_int_equal(min_free_kbytes_for(16384), 16384);
	assert_int_equal(min_free_kbytes_for(32), 724);
	assert_int_equal(min_free_kbytes_for(2048), 5792);
	/* Clamped to [128, 65536]: the cap is reached at 256 GiB. */
	assert_int_equal(min_free_kbytes_for(1), 128);
	assert_int_equal(min_free_kbytes_for(2), 181);
	assert_int_equal(min_free_kbytes_for(256 * 1024), 65536);
	assert_int_equal(min_free_kbytes_for(1024 * 1024), 65536);
	reset_globals();
	fake_zones(128, 0, 0);	/* 512 KiB: int_sqrt(8192) = 90 */
	init_per_zone_pages_min();
	assert_int_equal(min_free_kbytes, 128);
}

static void assert_marks(int j, unsigned long min, unsigned long low, unsigned long high)
{
	assert_int_equal(ZONE(j)->pages_min, min);
	assert_int_equal(ZONE(j)->pages_low, low);
	assert_int_equal(ZONE(j)->pages_high, high);
}

static void assert_reserve(int j, unsigned long r0, unsigned long r1, unsigned long r2)
{
	assert_int_equal(ZONE(j)->lowmem_reserve[0], r0);
	assert_int_equal(ZONE(j)->lowmem_reserve[1], r1);
	assert_int_equal(ZONE(j)->lowmem_reserve[2], r2);
}

/* The reference's worked 8 GiB example (section 1.4). */
static void test_worked_example_8g(void **state)
{
	(void)state;
	fake_zones(4000, 880000, 1179648);
	init_per_zone_pages_min();
	assert_int_equal(min_free_kbytes, 11492);	/* int_sqrt(8254592 * 16) */
	assert_marks(ZONE_DMA, 5, 6, 7);
	assert_marks(ZONE_DMA32, 1225, 1531, 1837);
	assert_marks(ZONE_NORMAL, 1642, 2052, 2463);
	/* The reference's fourth column is ZONE_MOVABLE, absent here. */
	assert_reserve(ZONE_DMA, 0, 3437, 8045);
	assert_reserve(ZONE_DMA32, 0, 0, 4608);
	assert_reserve(ZONE_NORMAL, 0, 0, 0);
	/* Per zone, pages_high plus the largest reserve, at most the zone (DMA: 4000). */
	assert_int_equal(totalreserve_pages, 4000 + (1837 + 4608) + 2463);
}

/*
 * The formulas weigh zones by managed_pages (Linux 2.6.28: present_pages).
 * With managed = present the example above is reproduced exactly; here
 * the kernel image and mem_map take 2000 DMA and 80000 DMA32 pages.
 */
static void test_watermarks_use_managed_pages(void **state)
{
	(void)state;
	fake_zones(4000, 880000, 1179648);
	ZONE(ZONE_DMA)->managed_pages = 2000;
	ZONE(ZONE_DMA32)->managed_pages = 800000;
	init_per_zone_pages_min();
	/* lowmem = 1981648 pages: int_sqrt(7926592 * 16) = 11261k = 2815 pages */
	assert_int_equal(min_free_kbytes, 11261);
	assert_marks(ZONE_DMA, 2815 * 2000 / 1981648, 2, 3);
	assert_marks(ZONE_DMA32, 1136, 1136 + 284, 1136 + 568);
	assert_marks(ZONE_NORMAL, 1675, 1675 + 418, 1675 + 837);
	assert_reserve(ZONE_DMA, 0, 800000 / 256, (800000 + 1179648) / 256);
	assert_reserve(ZONE_DMA32, 0, 0, 1179648 / 256);

	/* present_pages plays no part. */
	ZONE(ZONE_DMA32)->present_pages = 1;
	setup_per_zone_pages_min();
	setup_per_zone_lowmem_reserve();
	assert_marks(ZONE_DMA32, 1136, 1136 + 284, 1136 + 568);
	assert_reserve(ZONE_DMA, 0, 800000 / 256, (800000 + 1179648) / 256);
}

static void test_lowmem_reserve_ratio(void **state)
{
	(void)state;
	fake_zones(4000, 880000, 1179648);
	sysctl_lowmem_reserve_ratio[0] = 32;
	sysctl_lowmem_reserve_ratio[1] = 0;	/* taken as 1, as Linux does */
	setup_per_zone_lowmem_reserve();
	assert_int_equal(sysctl_lowmem_reserve_ratio[1], 1);
	assert_reserve(ZONE_DMA, 0, 880000 / 32, (880000 + 1179648) / 32);
	assert_reserve(ZONE_DMA32, 0, 0, 1179648);
	/* A 2 GiB machine: NORMAL empty, so nothing is kept from it. */
	reset_globals();
	fake_zones(4096, 520192, 0);
	init_per_zone_pages_min();
	assert_reserve(ZONE_DMA, 0, 520192 / 256, 520192 / 256);
	assert_reserve(ZONE_DMA32, 0, 0, 0);
}

/* The watermarks of the booted machines, from their managed pages. */
static void test_boot_watermarks(void **state)
{
	(void)state;
	/* three: managed DMA 3999, DMA32 8192, NORMAL 6000 = 18191 pages. */
	assert_int_equal(ZONE(ZONE_DMA)->managed_pages, 3999);
	assert_int_equal(ZONE(ZONE_DMA32)->managed_pages, 8192);
	assert_int_equal(ZONE(ZONE_NORMAL)->managed_pages, 6000);
	assert_int_equal(totalram_pages, 18191);
	assert_int_equal(min_free_kbytes, 1078);	/* int_sqrt(72764 * 16) */
	assert_marks(ZONE_DMA, 59, 59 + 14, 59 + 29);	/* 269 * 3999 / 18191 */
	assert_marks(ZONE_DMA32, 121, 121 + 30, 121 + 60);
	assert_marks(ZONE_NORMAL, 88, 88 + 22, 88 + 44);
	assert_reserve(ZONE_DMA, 0, 32, 55);
	assert_reserve(ZONE_DMA32, 0, 0, 23);
	assert_reserve(ZONE_NORMAL, 0, 0, 0);
}

static void test_zone_watermark_ok(void **state)
{
	struct zone *z = ZONE(ZONE_DMA32);

	(void)state;
	fake_zones(0, 1000, 1000);
	z->vm_stat[NR_FREE_PAGES] = 100;

	/* Order 0: free must stay strictly above the mark. */
	assert_true(zone_watermark_ok(z, 0, 99, ZONE_DMA32, 0));
	assert_false(zone_watermark_ok(z, 0, 100, ZONE_DMA32, 0));
	/* ALLOC_HIGH halves the mark, ALLOC_HARDER takes a quarter off. */
	assert_true(zone_watermark_ok(z, 0, 198, ZONE_DMA32, ALLOC_HIGH));	/* 198 - 99 = 99 */
	assert_false(zone_watermark_ok(z, 0, 199, ZONE_DMA32, ALLOC_HIGH));	/* 199 - 99 = 100 */
	assert_true(zone_watermark_ok(z, 0, 132, ZONE_DMA32, ALLOC_HARDER));	/* 132 - 33 = 99 */
	assert_false(zone_watermark_ok(z, 0, 133, ZONE_DMA32, ALLOC_HARDER));	/* 133 - 33 = 100 */
	/* Both (GFP_ATOMIC): 0.375 of the mark.  264 -> 132 -> 99; 266 -> 133 -> 100. */
	assert_true(zone_watermark_ok(z, 0, 264, ZONE_DMA32, ALLOC_HIGH | ALLOC_HARDER));
	assert_false(zone_watermark_ok(z, 0, 266, ZONE_DMA32, ALLOC_HIGH | ALLOC_HARDER));

	/* lowmem_reserve of the classzone is added to the mark. */
	z->lowmem_reserve[ZONE_NORMAL] = 30;
	assert_true(zone_watermark_ok(z, 0, 69, ZONE_DMA32, 0));
	assert_false(zone_watermark_ok(z, 0, 70, ZONE_NORMAL, 0));
	assert_true(zone_watermark_ok(z, 0, 69, ZONE_NORMAL, 0));
	/* ALLOC_HIGH lowers the mark, not the reserve: 139 -> 70 + 30; 138 -> 69 + 30. */
	assert_false(zone_watermark_ok(z, 0, 139, ZONE_NORMAL, ALLOC_HIGH));
	assert_true(zone_watermark_ok(z, 0, 138, ZONE_NORMAL, ALLOC_HIGH));
	z->lowmem_reserve[ZONE_NORMAL] = 0;

	/*
	 * The order loop.  100 free pages: 80 at order 0, 6 order-1 blocks,
	 * 2 order-2 blocks.  Order 2, mark 10: 97 > 10; without order 0,
	 * 17 > 5; without order 1 as well, 5 > 2.
	 */
	z->free_area[0].nr_free = 80;
	z->free_area[1].nr_free = 6;
	z->free_area[2].nr_free = 2;
	assert_true(zone_watermark_ok(z, 2, 10, ZONE_DMA32, 0));
	/* 84 / 6 / 1: the order-2 block exists, but 97 - 84 - 12 = 1 <= 2. */
	z->free_area[0].nr_free = 84;
	z->free_area[2].nr_free = 1;
	assert_false(zone_watermark_ok(z, 2, 10, ZONE_DMA32, 0));
	/* Order 1 fails at the first step: 99 > 30, then 99 - 84 = 15 <= 30 >> 1. */
	assert_false(zone_watermark_ok(z, 1, 30, ZONE_DMA32, 0));
	assert_true(zone_watermark_ok(z, 1, 29, ZONE_DMA32, 0));	/* 15 > 14 */
	/* Order 0 ignores the lists. */
	assert_true(zone_watermark_ok(z, 0, 98, ZONE_DMA32, 0));

	/* free_pages goes negative and must fail, not wrap around. */
	memset(z->free_area, 0, sizeof(z->free_area));
	z->vm_stat[NR_FREE_PAGES] = 0;
	assert_false(zone_watermark_ok(z, 3, 0, ZONE_DMA32, 0));
	assert_false(zone_watermark_ok(z, 0, 0, ZONE_DMA32, 0));
	z->vm_stat[NR_FREE_PAGES] = 1;
	z->free_area[0].nr_free = 1;
	assert_true(zone_watermark_ok(z, 0, 0, ZONE_DMA32, 0));
	assert_false(zone_watermark_ok(z, 1, 0, ZONE_DMA32, 0));
	/* An order-10 block with no mark: every step leaves 1 > 0. */
	z->free_area[0].nr_free = 0;
	z->free_area[10].nr_free = 1;
	z->vm_stat[NR_FREE_PAGES] = 1024;
	assert_true(zone_watermark_ok(z, 10, 0, ZONE_DMA32, 0));
	assert_false(zone_watermark_ok(z, 10, 1, ZONE_DMA32, 0));	/* 1 <= 1 */
}

/* ---- boot state -------------------------------------------------------- */

static void test_boot_layout(void **state)
{
	unsigned long expect[MAX_NR_ZONES][MAX_ORDER];
	int j, o;

	(void)state;
	assert_string_equal(ZONE(0)->name, "DMA");
	assert_string_equal(ZONE(1)->name, "DMA32");
	assert_string_equal(ZONE(2)->name, "Normal");
	assert_int_equal(ZONE(ZONE_DMA32)->zone_start_pfn, 4096);
	assert_int_equal(ZONE(ZONE_DMA32)->spanned_pages, MAX_DMA32_PFN - 4096);
	assert_int_equal(ZONE(ZONE_DMA32)->present_pages, 8192);
	assert_int_equal(ZONE(ZONE_NORMAL)->zone_start_pfn, NORMAL_START);
	assert_int_equal(ZONE(ZONE_DMA)->present_pages, 3999);
	assert_int_equal(contig_page_data.nr_zones, 3);
	assert_int_equal(contig_page_data.node_spanned_pages, max_pfn);
	assert_int_equal(contig_page_data.node_present_pages, 18191);

	/* Holes and the unused span stay reserved, with a zone. */
	assert_true(PageReserved(pfn_to_page(0)));
	assert_int_equal(page_count(pfn_to_page(0)), 1);
	assert_int_equal(pfn_to_page(0)->_mapcount, -1);
	assert_true(PageReserved(pfn_to_page(4000)));
	assert_true(PageReserved(pfn_to_page(NORMAL_START - 1)));
	assert_int_equal(page_zonenum(pfn_to_page(NORMAL_START - 1)), ZONE_DMA32);
	assert_int_equal(page_zonenum(pfn_to_page(NORMAL_START)), ZONE_NORMAL);
	assert_false(PageReserved(pfn_to_page(1)));

	/* Free memory merged into the largest aligned blocks. */
	expected_boot_free_area(&three, expect);
	for (j = 0; j < MAX_NR_ZONES; j++)
		for (o = 0; o < MAX_ORDER; o++)
			assert_int_equal(ZONE(j)->free_area[o].nr_free, expect[j][o]);
	assert_int_equal(ZONE(ZONE_DMA32)->free_area[MAX_ORDER - 1].nr_free, 8);
	assert_int_equal(zfree(ZONE_DMA), 3999);
	assert_int_equal(nr_free_pages(), 18191);
	check_free_lists(NULL);

	/* Boot frees count as pgfree, as in Linux; nothing allocated yet. */
	assert_int_equal(fake_vm_event(PGFREE), 18191);
	assert_int_equal(fake_vm_event(PGALLOC_DMA) + fake_vm_event(PGALLOC_DMA32) + fake_vm_event(PGALLOC_NORMAL), 0);
}

static void test_bad_layouts_panic(void **state)
{
	const unsigned long none[MAX_NR_ZONES] = { 0, 0, 0 };
	const unsigned long dma_too_big[MAX_NR_ZONES] = { 4097, 0, 0 };
	const unsigned long normal_too_low[MAX_NR_ZONES] = { 4096, 0, 100 };
	const unsigned long holes[MAX_NR_ZONES] = { 10, 0, 0 };
	const unsigned long dma_small[MAX_NR_ZONES] = { 5, 0, 0 };
	static struct page pages[8192];

	(void)state;
	mem_map = pages;
	max_pfn = 8192;
	expect_panic(free_area_init_node(1, dma_only.zones_size, 0, none), "node 1");
	expect_panic(free_area_init_node(0, dma_too_big, 0, none), "zone DMA");
	expect_panic(free_area_init_node(0, normal_too_low, 0, none), "zone Normal");
	expect_panic(free_area_init_node(0, dma_small, 0, holes), "holes");
	max_pfn = 2048;
	expect_panic(free_area_init_node(0, dma_only.zones_size, 0, none), "max_pfn");
	mem_map = NULL;
	max_pfn = 0;
	expect_panic(free_area_init_node(0, dma_only.zones_size, 0, none), "mem_map");
}

/* ---- split and merge --------------------------------------------------- */

static void assert_nr_free(int j, const unsigned long expect[MAX_ORDER])
{
	int o;

	for (o = 0; o < MAX_ORDER; o++)
		if (ZONE(j)->free_area[o].nr_free != expect[o])
			fail_msg("zone %d order %d: %lu free blocks, expected %lu", j, o,
				 ZONE(j)->free_area[o].nr_free, expect[o]);
}

static void test_split(void **state)
{
	const unsigned long all_max[MAX_ORDER] = { [10] = 4 };
	const unsigned long split[MAX_ORDER] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3 };
	struct page *page;
	int o;

	(void)state;
	assert_nr_free(ZONE_DMA, all_max);

	/* The block freed last (LIFO), pfn 3072, is split; its first page is ours. */
	page = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(page);
	assert_int_equal(pfn_of(page), 3072);
	assert_fresh_block(page, 0);
	assert_nr_free(ZONE_DMA, split);
	for (o = 0; o < MAX_ORDER - 1; o++) {
		struct page *half = pfn_to_page(3072 + (1ul << o));

		assert_true(PageBuddy(half));
		assert_int_equal(half->private, o);
		assert_ptr_equal(list_first_entry(&ZONE(0)->free_area[o].free_list, struct page, lru), half);
	}
	assert_int_equal(zfree(ZONE_DMA), 4095);
	check_free_lists(NULL);

	/* An order-3 request takes the order-3 block at 3080 whole. */
	page = alloc_pages(GFP_KERNEL, 3);
	assert_int_equal(pfn_of(page), 3080);
	assert_fresh_block(page, 3);
	assert_int_equal(ZONE(0)->free_area[3].nr_free, 0);
	/* Order 2 next splits nothing either; order 3 again splits the order-4 block. */
	page = alloc_pages(GFP_KERNEL, 3);
	assert_int_equal(pfn_of(page), 3088);
	assert_int_equal(ZONE(0)->free_area[4].nr_free, 0);
	assert_int_equal(ZONE(0)->free_area[3].nr_free, 1);
	assert_true(PageBuddy(pfn_to_page(3096)));
	assert_int_equal(zfree(ZONE_DMA), 4096 - 17);
	check_free_lists(NULL);
}

static void test_merge(void **state)
{
	const unsigned long all_max[MAX_ORDER] = { [10] = 4 };
	struct page *p[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		p[i] = alloc_pages(GFP_KERNEL, 0);
		assert_int_equal(pfn_of(p[i]), 3072 + i);
	}
	/* 3073 and 3074 are neighbours but not buddies: no merge. */
	__free_pages(p[1], 0);
	__free_pages(p[2], 0);
	assert_int_equal(ZONE(0)->free_area[0].nr_free, 2);
	assert_int_equal(ZONE(0)->free_area[1].nr_free, 0);
	check_free_lists(NULL);

	/* 3072 + 3073 merge into an order-1 block at 3072. */
	__free_pages(p[0], 0);
	assert_int_equal(ZONE(0)->free_area[0].nr_free, 1);
	assert_int_equal(ZONE(0)->free_area[1].nr_free, 1);
	assert_true(PageBuddy(p[0]));
	assert_int_equal(p[0]->private, 1);
	assert_false(PageBuddy(p[1]));

	/* 3075 completes everything back to the order-10 block. */
	__free_pages(p[3], 0);
	assert_nr_free(ZONE_DMA, all_max);
	assert_true(PageBuddy(pfn_to_page(3072)));
	assert_int_equal(pfn_to_page(3072)->private, 10);
	for (i = 1; i < 1024; i++)
		assert_false(PageBuddy(pfn_to_page(3072 + i)));
	assert_int_equal(zfree(ZONE_DMA), 4096);
	check_free_lists(NULL);
}

/* A free buddy of another order is not a buddy. */
static void test_no_merge_across_orders(void **state)
{
	struct page *a, *b, *c;

	(void)state;
	a = alloc_pages(GFP_KERNEL, 1);		/* 3072-3073 */
	b = alloc_pages(GFP_KERNEL, 0);		/* splits 3074-3075: 3074 */
	c = alloc_pages(GFP_KERNEL, 0);		/* 3075 */
	assert_int_equal(pfn_of(a), 3072);
	assert_int_equal(pfn_of(b), 3074);
	assert_int_equal(pfn_of(c), 3075);

	__free_pages(b, 0);			/* order 0 at 3074, buddy 3075 in use */
	__free_pages(a, 1);			/* buddy of 3072/1 is 3074, but of order 0 */
	assert_int_equal(ZONE(0)->free_area[0].nr_free, 1);
	assert_int_equal(ZONE(0)->free_area[1].nr_free, 1);
	assert_int_equal(pfn_to_page(3072)->private, 1);
	assert_int_equal(pfn_to_page(3074)->private, 0);
	check_free_lists(NULL);

	__free_page(c);
	assert_int_equal(ZONE(0)->free_area[10].nr_free, 4);
	check_free_lists(NULL);
}

/* Merging stops at the zone's edge and at holes. */
static void test_no_merge_across_holes(void **state)
{
	struct page *page;

	(void)state;
	/* small: DMA RAM is pfn 1-3999; pfn 0 is a hole, its buddy pfn 1 stays order 0. */
	assert_true(PageBuddy(pfn_to_page(1)));
	assert_int_equal(pfn_to_page(1)->private, 0);
	assert_int_equal(ZONE(ZONE_DMA)->free_area[0].nr_free, 1);
	page = alloc_pages(GFP_DMA, 0);
	assert_int_equal(pfn_of(page), 1);
	__free_pages(page, 0);
	assert_true(PageBuddy(pfn_to_page(1)));
	assert_int_equal(pfn_to_page(1)->private, 0);
	/* The last DMA block (3968-3999) never merges into DMA32 at 4096. */
	assert_true(PageBuddy(pfn_to_page(3968)));
	assert_int_equal(pfn_to_page(3968)->private, 5);
	check_free_lists(NULL);
}

/* ---- contents: poison and zero ---------------------------------------- */

static void test_poison_on_free(void **state)
{
	struct page *page;
	unsigned long addr;

	(void)state;
	page = alloc_pages(GFP_KERNEL, 2);
	memset(page_address(page), 0x5c, 4 * PAGE_SIZE);
	__free_pages(page, 2);
	assert_true(block_is(page, 2, PAGE_POISON));

	addr = __get_free_pages(GFP_KERNEL, 0);
	assert_true(addr != 0);
	memset((void *)addr, 0x11, PAGE_SIZE);
	free_pages(addr, 0);
	assert_true(block_is(virt_to_page((void *)addr), 0, PAGE_POISON));
}

static void test_gfp_zero(void **state)
{
	struct page *page, *again;
	unsigned long addr;

	(void)state;
	page = alloc_pages(GFP_KERNEL, 3);
	memset(page_address(page), 0x77, 8 * PAGE_SIZE);
	__free_pages(page, 3);
	assert_true(block_is(page, 3, PAGE_POISON));

	/* LIFO: the same block comes back, poisoned, then zeroed. */
	again = alloc_pages(GFP_KERNEL, 3);
	assert_ptr_equal(again, page);
	assert_true(block_is(again, 3, PAGE_POISON));
	__free_pages(again, 3);
	again = alloc_pages(GFP_KERNEL | __GFP_ZERO, 3);
	assert_ptr_equal(again, page);
	assert_true(block_is(again, 3, 0));
	assert_fresh_block(again, 3);
	__free_pages(again, 3);

	addr = get_zeroed_page(GFP_KERNEL);
	assert_true(addr != 0);
	assert_true(block_is(virt_to_page((void *)addr), 0, 0));
	free_page(addr);
}

/* ---- references and bugs ---------------------------------------------- */

static void test_put_page_counts(void **state)
{
	struct page *page;
	unsigned long before;

	(void)state;
	page = alloc_page(GFP_KERNEL);
	before = nr_free_pages();
	get_page(page);
	put_page(page);
	assert_int_equal(page_count(page), 1);
	assert_int_equal(nr_free_pages(), before);
	put_page(page);
	assert_int_equal(nr_free_pages(), before + 1);
	assert_true(PageBuddy(page) || page_count(page) == 0);

	/* Flags a used page may keep are dropped at free. */
	page = alloc_page(GFP_KERNEL);
	SetPageDirty(page);
	SetPageReferenced(page);
	SetPageUptodate(page);
	SetPageSwapBacked(page);
	page->private = 1234;
	__free_page(page);
	page = alloc_page(GFP_KERNEL);
	assert_fresh_block(page, 0);
	__free_page(page);
	check_free_lists(NULL);
}

static void test_double_free_panics(void **state)
{
	struct page *page, *pair;

	(void)state;
	page = alloc_page(GFP_KERNEL);
	__free_page(page);
	expect_panic(__free_page(page), "double free");
	assert_non_null(strstr(panic_msg, "__free_pages"));
	assert_non_null(strstr(panic_msg, "pfn 3072"));

	/* The tail of an allocated block has no reference of its own. */
	pair = alloc_pages(GFP_KERNEL, 1);
	expect_panic(__free_page(pair + 1), "double free");
}

static void test_free_reserved_panics(void **state)
{
	(void)state;
	/* small: pfn 0 and 4000 are holes, reserved since boot. */
	expect_panic(__free_page(pfn_to_page(0)), "reserved");
	assert_non_null(strstr(panic_msg, "free_pages_check: bad page pfn 0"));
	expect_panic(__free_page(pfn_to_page(4000)), "pfn 4000 (reserved)");
	/* Giving boot memory twice. */
	expect_panic(__free_pages_bootmem(pfn_to_page(5000), 0), "not reserved");
}

static void test_free_bad_blocks_panic(void **state)
{
	struct page *page;
	char msg[64];

	(void)state;
	page = alloc_pages(GFP_KERNEL, 1);
	expect_panic(__free_pages(page, MAX_ORDER), "MAX_ORDER");
	expect_panic(__free_pages(page + 1, 1), "not aligned to order 1");
	snprintf(msg, sizeof(msg), "pfn %lu ", pfn_of(page + 1));
	assert_non_null(strstr(panic_msg, msg));
	expect_panic(__free_page(pfn_to_page(max_pfn)), "outside any zone");
	expect_panic(__free_page(pfn_to_page(max_pfn + 1000)), "outside any zone");
	/* three: NORMAL ends at pfn 6000 past 4 GiB, so 5984 + 32 pages overrun it. */
	expect_panic(__free_pages(pfn_to_page(NORMAL_START + 5984), 5), "outside any zone");

	page = alloc_page(GFP_KERNEL);
	SetPageLRU(page);
	expect_panic(__free_page(page), "flags set");
	assert_non_null(strstr(panic_msg, "free_pages_check"));

	page = alloc_page(GFP_KERNEL);
	page->_mapcount = 0;
	expect_panic(__free_page(page), "still mapped");

	page = alloc_page(GFP_KERNEL);
	page->mapping = (struct address_space *)page;
	expect_panic(__free_page(page), "mapping");

	/* A tail page still referenced when its block is freed. */
	page = alloc_pages(GFP_KERNEL, 2);
	set_page_count(page + 3, 1);
	expect_panic(__free_pages(page, 2), "still referenced");
}

static void test_free_outside_zones_panics(void **state)
{
	(void)state;
	/* offset: the node starts at pfn 16; pfns 0-15 belong to no zone. */
	assert_int_equal(ZONE(ZONE_DMA)->zone_start_pfn, 16);
	expect_panic(__free_page(pfn_to_page(3)), "pfn 3 is outside any zone");
	expect_panic(__free_pages_bootmem(pfn_to_page(15), 0), "outside any zone");
	/* The first block is pfn 16-31: order 4. */
	assert_int_equal(ZONE(ZONE_DMA)->free_area[4].nr_free, 1);
	assert_int_equal(zfree(ZONE_DMA), 4096 - 16);
	check_free_lists(NULL);
}

/* ---- zones, fallback and the slow path -------------------------------- */

static void test_gfp_zone(void **state)
{
	(void)state;
	assert_int_equal(gfp_zone(GFP_KERNEL), ZONE_NORMAL);
	assert_int_equal(gfp_zone(GFP_ATOMIC), ZONE_NORMAL);
	assert_int_equal(gfp_zone(GFP_DMA32), ZONE_DMA32);
	assert_int_equal(gfp_zone(GFP_DMA), ZONE_DMA);
	assert_int_equal(gfp_zone(GFP_KERNEL | __GFP_DMA32), ZONE_DMA32);
	assert_int_equal(gfp_zone(__GFP_DMA | __GFP_DMA32), ZONE_DMA);
}

/*
 * GFP_KERNEL order-0 pages until the allocator gives up.  Expected, zone
 * by zone (reference section 1.6):
 *   fast path: NORMAL down to low, DMA32 down to low + reserve[NORMAL],
 *              DMA down to low + reserve[NORMAL]; kswapd never woken.
 *   min pass:  each further allocation wakes kswapd for all three zones,
 *              then takes NORMAL to min, DMA32 and DMA to min + reserve.
 *   failure:   kswapd woken once more, direct reclaim once, NULL.
 */
static void test_fallback_and_slow_path(void **state)
{
	unsigned long low_stop[MAX_NR_ZONES], min_stop[MAX_NR_ZONES];
	unsigned long fast[MAX_NR_ZONES] = { 0 }, slow[MAX_NR_ZONES] = { 0 };
	unsigned long slow_allocs = 0, allocs = 0;
	struct page *page;
	int j, last_zone = ZONE_NORMAL;
	bool in_slow = false;

	(void)state;
	for (j = 0; j < MAX_NR_ZONES; j++) {
		low_stop[j] = ZONE(j)->pages_low + ZONE(j)->lowmem_reserve[ZONE_NORMAL];
		min_stop[j] = ZONE(j)->pages_min + ZONE(j)->lowmem_reserve[ZONE_NORMAL];
	}

	while ((page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)) != NULL) {
		int z = page_zonenum(page);

		allocs++;
		if (all_kswapd_calls()) {
			if (!in_slow) {
				/* The first slow allocation: every zone was at its low stop. */
				for (j = 0; j < MAX_NR_ZONES; j++)
					assert_int_equal(zfree(j) + (j == z), low_stop[j]);
				in_slow = true;
			}
			slow[z]++;
			slow_allocs++;
			assert_int_equal(kswapd_calls[0], slow_allocs);
			assert_int_equal(kswapd_calls[1], slow_allocs);
			assert_int_equal(kswapd_calls[2], slow_allocs);
		} else {
			/* Fast path: zones are used in zonelist order, never going back up. */
			assert_true(z <= last_zone);
			last_zone = z;
			fast[z]++;
		}
	}
	assert_true(in_slow);
	for (j = 0; j < MAX_NR_ZONES; j++) {
		assert_int_equal(fast[j], ZONE(j)->managed_pages - low_stop[j]);
		assert_int_equal(slow[j], low_stop[j] - min_stop[j]);
		assert_int_equal(zfree(j), min_stop[j]);
		assert_int_equal(kswapd_calls[j], slow_allocs + 1);
	}
	/* three: NORMAL stops at 88, DMA32 at 121 + 23, DMA at 59 + 55. */
	assert_int_equal(zfree(ZONE_NORMAL), 88);
	assert_int_equal(zfree(ZONE_DMA32), 144);
	assert_int_equal(zfree(ZONE_DMA), 114);
	assert_int_equal(reclaim_calls, 1);
	assert_ptr_equal(reclaim_preferred, ZONE(ZONE_NORMAL));
	assert_int_equal(log_count("page allocation failure"), 0);	/* __GFP_NOWARN */

	assert_int_equal(fake_vm_event(PGALLOC_NORMAL), 6000 - 88);
	assert_int_equal(fake_vm_event(PGALLOC_DMA32), 8192 - 144);
	assert_int_equal(fake_vm_event(PGALLOC_DMA), 3999 - 114);
	assert_int_equal(allocs, 18191 - 88 - 144 - 114);

	/* GFP_ATOMIC (ALLOC_HIGH | ALLOC_HARDER) goes on to 0.375 of min. */
	reclaim_calls = 0;
	while (alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0) != NULL)
		;
	for (j = 0; j < MAX_NR_ZONES; j++)
		assert_int_equal(zfree(j), (unsigned long)lowered_min(ZONE(j)->pages_min,
					   ALLOC_HIGH | ALLOC_HARDER) + ZONE(j)->lowmem_reserve[ZONE_NORMAL]);
	assert_int_equal(zfree(ZONE_NORMAL), 33);		/* 88 -> 44 -> 33 */
	assert_int_equal(reclaim_calls, 0);			/* cannot sleep: no direct reclaim */

	/* A failure without __GFP_NOWARN says so, once. */
	assert_null(alloc_pages(GFP_KERNEL, 0));
	assert_int_equal(log_count("host-test: page allocation failure. order:0, mode:0xd0\n"), 1);
	assert_int_equal(reclaim_calls, 1);
	/* Each GFP_KERNEL failure asked the OOM killer once (it found nobody). */
	assert_int_equal(oom_calls, 2);
	check_free_lists(NULL);
}

/* GFP_DMA uses DMA only, GFP_DMA32 never NORMAL; each is its own classzone. */
static void test_zone_constraints(void **state)
{
	struct page *page;
	unsigned long n = 0;

	(void)state;
	while ((page = alloc_pages(GFP_DMA | __GFP_NOWARN, 0)) != NULL) {
		assert_true(pfn_of(page) < MAX_DMA_PFN);
		n++;
	}
	/* No __GFP_WAIT: ALLOC_HARDER, 59 -> 45; classzone DMA has no reserve. */
	assert_int_equal(zfree(ZONE_DMA), 45);
	assert_int_equal(n, 3999 - 45);
	assert_int_equal(zfree(ZONE_DMA32), 8192);
	assert_int_equal(zfree(ZONE_NORMAL), 6000);
	assert_true(kswapd_calls[ZONE_DMA] > 0);
	assert_int_equal(kswapd_calls[ZONE_DMA32] + kswapd_calls[ZONE_NORMAL], 0);
	assert_int_equal(reclaim_calls, 0);

	/*
	 * GFP_DMA32 | __GFP_WAIT: DMA32 to min; DMA is already below its stop.
	 * Without __GFP_FS no OOM killer: reclaim is retried, a nap between
	 * two, until MAX_RECLAIM_RETRIES in a row made no progress.
	 */
	while ((page = alloc_pages(GFP_DMA32 | __GFP_WAIT | __GFP_NOWARN, 0)) != NULL)
		assert_int_equal(page_zonenum(page), ZONE_DMA32);
	assert_int_equal(zfree(ZONE_DMA32), 121);
	assert_int_equal(zfree(ZONE_NORMAL), 6000);
	assert_int_equal(kswapd_calls[ZONE_NORMAL], 0);
	assert_int_equal(reclaim_calls, 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(fake_naps, MAX_RECLAIM_RETRIES);
	assert_int_equal(oom_calls, 0);
	assert_ptr_equal(reclaim_preferred, ZONE(ZONE_DMA32));
	check_free_lists(NULL);
}

/* A GFP_DMA32 request on a fresh machine takes DMA only while DMA keeps its reserve. */
static void test_dma32_falls_back_to_dma(void **state)
{
	unsigned long from_dma = 0;
	struct page *page;

	(void)state;
	/* small: DMA 3999 pages, DMA32 12288; preferred zone DMA32. */
	while ((page = alloc_pages(GFP_NOIO | __GFP_DMA32 | __GFP_NOWARN, 0)) != NULL)
		from_dma += page_zonenum(page) == ZONE_DMA;
	assert_int_equal(zfree(ZONE_DMA32), ZONE(ZONE_DMA32)->pages_min);
	assert_int_equal(zfree(ZONE_DMA), ZONE(ZONE_DMA)->pages_min +
			 ZONE(ZONE_DMA)->lowmem_reserve[ZONE_DMA32]);
	assert_int_equal(ZONE(ZONE_DMA)->lowmem_reserve[ZONE_DMA32], 12288 / 256);
	assert_int_equal(from_dma, 3999 - zfree(ZONE_DMA));
}

static unsigned long held_nr;
static struct page *held[64];

/* Direct reclaim that frees the pages the test holds. */
static unsigned long reclaim_held(void)
{
	unsigned long n = held_nr;

	while (held_nr)
		__free_page(held[--held_nr]);
	return n;
}

static void test_direct_reclaim_progress(void **state)
{
	struct page *page;

	(void)state;
	while ((page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)) != NULL)
		if (held_nr < ARRAY_SIZE(held) && page_zonenum(page) == ZONE_NORMAL)
			held[held_nr++] = page;
	assert_int_equal(held_nr, ARRAY_SIZE(held));
	assert_int_equal(reclaim_calls, 1);

	/* Reclaim now makes progress: the retry at min succeeds. */
	reclaim_hook = reclaim_held;
	page = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(page);
	assert_int_equal(reclaim_calls, 2);
	assert_int_equal(page_zonenum(page), ZONE_NORMAL);
	assert_int_equal(zfree(ZONE_NORMAL), 88 + 63);

	/* An atomic allocation never reclaims, even when it fails. */
	reclaim_hook = NULL;
	while (alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0) != NULL)
		;
	assert_int_equal(reclaim_calls, 2);
	assert_int_equal(log_count("page allocation failure"), 0);
}

/*
 * The hooks are reached only when the fast path fails: while some zone of
 * the zonelist is above pages_low for the order, kswapd is left alone.
 */
static void test_kswapd_only_below_low(void **state)
{
	struct page *page;
	unsigned long i, n;

	(void)state;
	/* NORMAL has 6000 - 110 pages above low: all without waking kswapd. */
	n = zfree(ZONE_NORMAL) - ZONE(ZONE_NORMAL)->pages_low;
	for (i = 0; i < n; i++) {
		page = alloc_pages(GFP_KERNEL, 0);
		assert_int_equal(page_zonenum(page), ZONE_NORMAL);
	}
	/* DMA32 is next in the zonelist, still above low: no wake-up. */
	page = alloc_pages(GFP_KERNEL, 0);
	assert_int_equal(page_zonenum(page), ZONE_DMA32);
	assert_int_equal(all_kswapd_calls(), 0);

	/*
	 * Order 10: NORMAL (110 pages free) fails, DMA32 gives its 7 whole
	 * order-10 blocks and DMA its 2 (1024 and 2048), all on the fast path.
	 * The tenth request fails everywhere: kswapd for every zone of the
	 * zonelist, then direct reclaim.
	 */
	n = 0;
	while ((page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 10)) != NULL) {
		assert_int_equal(all_kswapd_calls(), 0);
		assert_int_equal(page_zonenum(page), n < 7 ? ZONE_DMA32 : ZONE_DMA);
		n++;
	}
	assert_int_equal(n, 9);
	assert_int_equal(kswapd_calls[ZONE_NORMAL], 1);
	assert_int_equal(kswapd_calls[ZONE_DMA32], 1);
	assert_int_equal(kswapd_calls[ZONE_DMA], 1);
	assert_int_equal(reclaim_calls, 1);
	assert_int_equal(zfree(ZONE_NORMAL), 110);
}

/*
 * Reclaim's own allocations (__GFP_MEMALLOC) pass every watermark and
 * reserve after the min pass fails, take the last page of their zonelist,
 * and never enter direct reclaim themselves.
 */
static void test_memalloc_ignores_watermarks(void **state)
{
	unsigned long n = 0;
	struct page *page;

	(void)state;
	while ((page = alloc_pages(GFP_DMA | __GFP_WAIT | __GFP_MEMALLOC | __GFP_NOWARN, 0)) != NULL) {
		assert_int_equal(page_zonenum(page), ZONE_DMA);
		n++;
	}
	assert_int_equal(n, 3999);
	assert_int_equal(zfree(ZONE_DMA), 0);
	assert_int_equal(zfree(ZONE_DMA32), 8192);
	assert_int_equal(reclaim_calls, 0);
	assert_true(kswapd_calls[ZONE_DMA] > 0);

	/* GFP_KERNEL drains NORMAL and DMA32 to 0, reserves included. */
	n = 0;
	while (alloc_pages(GFP_KERNEL | __GFP_MEMALLOC, 0) != NULL)
		n++;
	assert_int_equal(n, 8192 + 6000);
	assert_int_equal(nr_free_pages(), 0);
	assert_int_equal(reclaim_calls, 0);
	assert_int_equal(log_count("page allocation failure. order:0, mode:0x20d0\n"), 1);
	check_free_lists(NULL);
}

/* Fill the machine with GFP_ATOMIC pages, down to its atomic floor, and
 * hold the first ARRAY_SIZE(held) of them for reclaim_held/free_held. */
static void drain_holding(void)
{
	struct page *page;

	held_nr = 0;	/* what an earlier test held went with its machine */
	while ((page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0)) != NULL)
		if (held_nr < ARRAY_SIZE(held))
			held[held_nr++] = page;
	assert_int_equal(held_nr, ARRAY_SIZE(held));
}

/* The OOM killer's victim exits: its pages come back. */
static void free_held(void)
{
	reclaim_held();
}

/*
 * No progress, __GFP_FS, order <= 3: the OOM killer.  Nobody to kill:
 * the allocation fails at once.  A kill: a nap for the victim, then the
 * allocation starts over and gets the victim's memory.  A victim that
 * does not go away: OOM_WAIT_RETRIES naps, then failure.
 */
static void test_oom_killer_paths(void **state)
{
	struct page *page;

	(void)state;
	drain_holding();
	reclaim_calls = 0;

	assert_null(alloc_pages(GFP_KERNEL, 0));
	assert_int_equal(reclaim_calls, 1);
	assert_int_equal(oom_calls, 1);
	assert_int_equal(fake_naps, 0);
	assert_int_equal(log_count("host-test: page allocation failure. order:0"), 1);

	oom_answer = OOM_KILLED;
	oom_free_hook = free_held;
	page = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(page);
	assert_int_equal(oom_calls, 2);
	assert_int_equal(fake_naps, 1);
	assert_int_equal(reclaim_calls, 2);
	__free_page(page);
	drain_holding();

	oom_answer = OOM_VICTIM_EXITING;
	oom_calls = fake_naps = reclaim_calls = 0;
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0));
	assert_int_equal(oom_calls, OOM_WAIT_RETRIES + 1);
	assert_int_equal(fake_naps, OOM_WAIT_RETRIES);
	assert_int_equal(reclaim_calls, OOM_WAIT_RETRIES + 1);

	/* Costly orders and __GFP_NORETRY never call it, nor retry. */
	oom_calls = fake_naps = reclaim_calls = 0;
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGE_ALLOC_COSTLY_ORDER + 1));
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0));
	assert_int_equal(oom_calls, 0);
	assert_int_equal(fake_naps, 0);
	assert_int_equal(reclaim_calls, 2);
}

/* Reclaim that says "maybe" (1) but frees nothing: reclaim's answer
 * while its zones are not yet all_unreclaimable. */
static unsigned long reclaim_says_maybe(void)
{
	return 1;
}

/*
 * Reported progress that never gives the allocation a page ends too:
 * after MAX_RECLAIM_RETRIES more rounds, the OOM killer (__GFP_FS) or
 * failure (without).
 */
static void test_progress_without_pages_is_bounded(void **state)
{
	(void)state;
	drain_holding();
	reclaim_calls = 0;
	reclaim_hook = reclaim_says_maybe;
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0));
	assert_int_equal(reclaim_calls, MAX_RECLAIM_RETRIES + 1);
	assert_int_equal(oom_calls, 1);
	assert_int_equal(fake_naps, MAX_RECLAIM_RETRIES);

	reclaim_calls = oom_calls = fake_naps = 0;
	assert_null(alloc_pages(GFP_NOFS | __GFP_NOWARN, 0));
	assert_int_equal(reclaim_calls, MAX_RECLAIM_RETRIES + 1);
	assert_int_equal(oom_calls, 0);
}

static unsigned int flags_in_reclaim;

static unsigned long reclaim_sees_flags(void)
{
	flags_in_reclaim = *fake_current_flags();
	return 0;
}

/*
 * Direct reclaim runs with PF_MEMALLOC, which is cleared again after; a
 * fake_pf_memalloc or fake_pf_memdie task takes the reserves and never reclaims,
 * except in an interrupt handler or with __GFP_NOMEMALLOC.
 */
static void test_reserves_for_memalloc_and_memdie(void **state)
{
	unsigned long n = 0;

	(void)state;
	drain_holding();
	reclaim_calls = 0;
	reclaim_hook = reclaim_sees_flags;
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0));
	assert_int_equal(flags_in_reclaim, fake_pf_memalloc);
	assert_int_equal(*fake_current_flags(), 0);
	assert_int_equal(reclaim_calls, 1);

	/* Interrupt context or __GFP_NOMEMALLOC: no reserves, no reclaim. */
	*fake_current_flags() = fake_pf_memalloc;
	hardirq_count = 1;
	assert_null(alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0));
	hardirq_count = 0;
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOMEMALLOC | __GFP_NOWARN, 0));
	assert_int_equal(reclaim_calls, 1);

	/* PF_MEMALLOC: the reserves, then failure without reclaim. */
	while (alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0) != NULL)
		n++;
	assert_true(n > 0);
	assert_int_equal(nr_free_pages(), 0);
	assert_int_equal(reclaim_calls, 1);
	assert_int_equal(*fake_current_flags(), fake_pf_memalloc);

	/* PF_MEMDIE: the victim gets what the victim's exit freed, too. */
	*fake_current_flags() = fake_pf_memdie;
	reclaim_held();
	n = 0;
	while (alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0) != NULL)
		n++;
	assert_int_equal(n, ARRAY_SIZE(held));
	assert_int_equal(reclaim_calls, 1);
	assert_int_equal(oom_calls, 0);
}

static void test_order_too_large(void **state)
{
	unsigned long free_before = nr_free_pages();

	(void)state;
	assert_null(alloc_pages(GFP_KERNEL, MAX_ORDER));
	assert_int_equal(log_count("page allocation failure. order:11"), 1);
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 20));
	assert_int_equal(log_count("page allocation failure"), 1);
	assert_int_equal(__get_free_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER), 0);
	assert_int_equal(all_kswapd_calls() + reclaim_calls, 0);
	assert_int_equal(nr_free_pages(), free_before);
	assert_int_equal(fake_vm_event(PGALLOC_DMA), 0);
}

/* ---- a random workload against an oracle ------------------------------ */

#define MAX_LIVE 4096

struct live_block {
	struct page *page;
	unsigned int order;
};

static unsigned int random_order(void)
{
	unsigned int r = rnd() % 100;

	if (r < 50)
		return 0;
	if (r < 85)
		return 1 + rnd() % 3;
	return 4 + rnd() % (MAX_ORDER - 4);
}

static void test_random_workload(void **state)
{
	static const gfp_t gfps[] = {
		GFP_KERNEL, GFP_KERNEL | __GFP_ZERO, GFP_DMA32, GFP_DMA,
		GFP_ATOMIC, GFP_NOIO, 0, GFP_DMA | __GFP_WAIT,
	};
	static struct live_block live[MAX_LIVE];
	unsigned long expect[MAX_NR_ZONES][MAX_ORDER];
	unsigned long in_use[MAX_NR_ZONES] = { 0 }, allocated[MAX_NR_ZONES] = { 0 };
	unsigned long freed_pages = 0, failures = 0, nr_live = 0, op;
	unsigned char *owner = calloc(max_pfn, 1);
	int j, o;

	(void)state;
	assert_non_null(owner);
	rnd_state = 0x9e3779b97f4a7c15ull;
	for (op = 0; op < 12000; op++) {
		if (nr_live == MAX_LIVE || (nr_live && rnd() % 100 < 45)) {
			unsigned long k = rnd() % nr_live, pfn, i;
			struct live_block b = live[k];

			live[k] = live[--nr_live];
			pfn = pfn_of(b.page);
			for (i = 0; i < (1ul << b.order); i++) {
				assert_int_equal(owner[pfn + i], 1);
				owner[pfn + i] = 0;
			}
			in_use[page_zonenum(b.page)] -= 1ul << b.order;
			freed_pages += 1ul << b.order;
			__free_pages(b.page, b.order);
			assert_true(block_is(b.page, b.order, PAGE_POISON));
		} else {
			gfp_t gfp = gfps[rnd() % ARRAY_SIZE(gfps)] | __GFP_NOWARN;
			unsigned int order = random_order();
			struct page *page = alloc_pages(gfp, order);
			unsigned long pfn, i;
			int z;

			if (page == NULL) {
				/* Legitimate only if no zone of the zonelist passes min. */
				failures++;
				for (j = gfp_zone(gfp); j >= 0; j--)
					assert_false(zone_watermark_ok(ZONE(j), (int)order,
								       ZONE(j)->pages_min, gfp_zone(gfp),
								       min_pass_flags(gfp)));
				continue;
			}
			z = page_zonenum(page);
			pfn = pfn_of(page);
			assert_true(z <= (int)gfp_zone(gfp));
			assert_int_equal(pfn % (1ul << order), 0);
			assert_true(pfn >= ZONE(z)->zone_start_pfn);
			assert_true(pfn + (1ul << order) <= ZONE(z)->zone_start_pfn + ZONE(z)->spanned_pages);
			assert_fresh_block(page, order);
			for (i = 0; i < (1ul << order); i++) {
				assert_int_equal(owner[pfn + i], 0);
				owner[pfn + i] = 1;
			}
			if (gfp & __GFP_ZERO)
				assert_true(block_is(page, order, 0));
			memset(page_address(page), 0x10 + (int)order, PAGE_SIZE << order);
			in_use[z] += 1ul << order;
			allocated[z] += 1ul << order;
			live[nr_live].page = page;
			live[nr_live].order = order;
			nr_live++;
		}
		for (j = 0; j < MAX_NR_ZONES; j++)
			assert_int_equal(zfree(j), ZONE(j)->managed_pages - in_use[j]);
		if (op % 1000 == 0)
			check_free_lists(owner);
	}
	/* The workload reached both full and failing states. */
	assert_true(failures > 100);
	assert_true(reclaim_calls > 0 && all_kswapd_calls() > 0);
	check_free_lists(owner);

	while (nr_live) {
		nr_live--;
		freed_pages += 1ul << live[nr_live].order;
		__free_pages(live[nr_live].page, live[nr_live].order);
	}
	memset(owner, 0, max_pfn);
	check_free_lists(owner);

	/* Everything merged back into the boot blocks. */
	expected_boot_free_area(&three, expect);
	for (j = 0; j < MAX_NR_ZONES; j++)
		for (o = 0; o < MAX_ORDER; o++) {
			assert_int_equal(ZONE(j)->free_area[o].nr_free, expect[j][o]);
			assert_int_equal(ZONE(j)->free_area[o].nr_free, boot_nr_free[j][o]);
		}
	assert_int_equal(nr_free_pages(), totalram_pages);
	assert_int_equal(fake_vm_event(PGALLOC_DMA), allocated[ZONE_DMA]);
	assert_int_equal(fake_vm_event(PGALLOC_DMA32), allocated[ZONE_DMA32]);
	assert_int_equal(fake_vm_event(PGALLOC_NORMAL), allocated[ZONE_NORMAL]);
	assert_int_equal(fake_vm_event(PGFREE), totalram_pages + freed_pages);
	assert_int_equal(freed_pages, allocated[0] + allocated[1] + allocated[2]);
	free(owner);
}

/* ---- counters and reports ---------------------------------------------- */

static void test_vmstat_counters(void **state)
{
	struct page *page;

	(void)state;
	assert_string_equal(vmstat_text[NR_FREE_PAGES], "nr_free_pages");
	assert_string_equal(vmstat_text[NR_PAGETABLE], "nr_page_table_pages");
	assert_string_equal(vmstat_text[NR_VM_ZONE_STAT_ITEMS + PGALLOC_DMA], "pgalloc_dma");
	assert_string_equal(vmstat_text[NR_VM_ZONE_STAT_ITEMS + PGALLOC_DMA32], "pgalloc_dma32");
	assert_string_equal(vmstat_text[NR_VM_ZONE_STAT_ITEMS + PGALLOC_NORMAL], "pgalloc_normal");
	assert_string_equal(vmstat_text[NR_VM_ZONE_STAT_ITEMS + PGFREE], "pgfree");
	assert_string_equal(vmstat_text[NR_VM_ZONE_STAT_ITEMS + ALLOCSTALL], "allocstall");

	/* Zone and global counters move together. */
	page = alloc_pages(GFP_DMA32, 3);
	assert_int_equal(fake_vm_event(PGALLOC_DMA32), 8);
	inc_zone_page_state(page, NR_PAGETABLE);
	__inc_zone_page_state(page, NR_PAGETABLE);
	__dec_zone_page_state(page, NR_PAGETABLE);
	mod_zone_page_state(ZONE(ZONE_DMA), NR_PAGETABLE, 5);
	__mod_zone_page_state(ZONE(ZONE_NORMAL), NR_PAGETABLE, 2);
	dec_zone_page_state(page, NR_PAGETABLE);
	inc_zone_page_state(page, NR_PAGETABLE);
	assert_int_equal(zone_page_state(ZONE(ZONE_DMA32), NR_PAGETABLE), 1);
	assert_int_equal(zone_page_state(ZONE(ZONE_DMA), NR_PAGETABLE), 5);
	assert_int_equal(global_page_state(NR_PAGETABLE), 8);
	assert_int_equal(global_page_state(NR_FREE_PAGES),
			 zfree(ZONE_DMA) + zfree(ZONE_DMA32) + zfree(ZONE_NORMAL));

	__count_zone_vm_events(PGALLOC, ZONE(ZONE_NORMAL), 3);
	count_vm_event(ALLOCSTALL);
	count_vm_events(ALLOCSTALL, 2);
	assert_int_equal(fake_vm_event(PGALLOC_NORMAL), 3);
	assert_int_equal(fake_vm_event(ALLOCSTALL), 3);
	__free_pages(page, 3);
	assert_int_equal(fake_vm_event(PGFREE), 18191 + 8);
}

static void test_show_free_areas(void **state)
{
	(void)state;
	show_free_areas();
	assert_non_null(strstr(log_buf, "Mem-Info:\n"));
	assert_non_null(strstr(log_buf, "active_anon:0 inactive_anon:0\n active_file:0 "
				       "inactive_file:0\n unevictable:0 dirty:0 writeback:0\n"));
	assert_non_null(strstr(log_buf, " free:4096\n"));
	assert_non_null(strstr(log_buf, "Node 0 DMA free:16384kB min:512kB low:640kB high:768kB "
				       "active_anon:0kB inactive_anon:0kB active_file:0kB "
				       "inactive_file:0kB unevictable:0kB writepending:0kB "
				       "present:16384kB managed:16384kB\n"));
	assert_non_null(strstr(log_buf, "lowmem_reserve[]: 0 0 0\n"));
	assert_non_null(strstr(log_buf, "Node 0 DMA: 0*4kB 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB "
				       "0*256kB 0*512kB 0*1024kB 0*2048kB 4*4096kB = 16384kB\n"));
	assert_non_null(strstr(log_buf, "4096 pages RAM\n"));
	/* One zone line and one free-block line: empty zones are skipped. */
	assert_int_equal(log_count("Node 0 "), 2);

	log_clear();
	zone_report();
	assert_non_null(strstr(log_buf, "min_free_kbytes 512, totalram_pages 4096, totalreserve_pages 192\n"));
	assert_non_null(strstr(log_buf, "DMA    pfn 0x00000000-0x00001000 spanned 4096 present 4096 "
				       "managed 4096 free 4096\n"));
	assert_non_null(strstr(log_buf, "DMA    pages min 128 low 160 high 192, lowmem_reserve[]: 0 0 0\n"));
	assert_non_null(strstr(log_buf, "Normal empty\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_int_sqrt, no_machine),
		cmocka_unit_test_setup(test_min_free_kbytes, no_machine),
		cmocka_unit_test_setup(test_worked_example_8g, no_machine),
		cmocka_unit_test_setup(test_watermarks_use_managed_pages, no_machine),
		cmocka_unit_test_setup(test_lowmem_reserve_ratio, no_machine),
		cmocka_unit_test_setup(test_zone_watermark_ok, no_machine),
		cmocka_unit_test_setup(test_gfp_zone, no_machine),
		cmocka_unit_test_setup_teardown(test_bad_layouts_panic, no_machine, shutdown),
		cmocka_unit_test_setup_teardown(test_boot_watermarks, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_boot_layout, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_split, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_merge, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_no_merge_across_orders, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_no_merge_across_holes, boot_small, shutdown),
		cmocka_unit_test_setup_teardown(test_poison_on_free, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_gfp_zero, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_put_page_counts, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_double_free_panics, boot_dma_only, shutdown),
		cmocka_unit_test_setup_teardown(test_free_reserved_panics, boot_small, shutdown),
		cmocka_unit_test_setup_teardown(test_free_bad_blocks_panic, boot_small, shutdown),
		cmocka_unit_test_setup_teardown(test_free_outside_zones_panics, boot_offset, shutdown),
		cmocka_unit_test_setup_teardown(test_fallback_and_slow_path, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_zone_constraints, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_dma32_falls_back_to_dma, boot_small, shutdown),
		cmocka_unit_test_setup_teardown(test_direct_reclaim_progress, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_kswapd_only_below_low, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_memalloc_ignores_watermarks, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_oom_killer_paths, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_progress_without_pages_is_bounded, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_reserves_for_memalloc_and_memdie, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_order_too_large, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_random_workload, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_vmstat_counters, boot_three, shutdown),
		cmocka_unit_test_setup_teardown(test_show_free_areas, boot_dma_only, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
