/*
 * Suite "mm": the physical memory manager against the memory map it was
 * built from.  all_pages_pattern takes every free page, writes a pattern
 * unique to each, verifies them all, frees them and checks that the free
 * counts come back exactly.  Crash cases: writing to kernel text (W^X)
 * and overflowing the boot stack into its guard page.
 */
#include <asm/page.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <pageturn/boot.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>

#define PATTERN_MULT 0x9e3779b97f4a7c15ull

static uint64_t pattern(unsigned long pfn, unsigned int word)
{
	return (pfn + 1) * PATTERN_MULT ^ word;
}

KTEST(mm, all_pages_pattern)
{
	unsigned long free_before = nr_free_pages(), zone_free[MAX_NR_ZONES];
	unsigned long taken = 0, bad = 0;
	LIST_HEAD(pages);
	struct page *page, *next;
	struct zone *zone;
	unsigned int w;

	for_each_zone(zone)
		zone_free[zone_idx(zone)] = zone->vm_stat[NR_FREE_PAGES];

	while ((page = alloc_pages(GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOWARN, 0))) {
		uint64_t *p = page_address(page);

		for (w = 0; w < PAGE_SIZE / 8; w++)
			p[w] = pattern(page_to_pfn(page), w);
		list_add(&page->lru, &pages);
		taken++;
	}
	KTEST_EXPECT_EQ(t, nr_free_pages(), 0);
	KTEST_EXPECT_EQ(t, taken, free_before);

	list_for_each_entry(page, &pages, lru) {
		const uint64_t *p = page_address(page);

		for (w = 0; w < PAGE_SIZE / 8; w++)
			if (p[w] != pattern(page_to_pfn(page), w))
				bad++;
	}
	KTEST_EXPECT_EQ(t, bad, 0);

	list_for_each_entry_safe(page, next, &pages, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
	for_each_zone(zone)
		KTEST_EXPECT_EQ(t, zone->vm_stat[NR_FREE_PAGES], zone_free[zone_idx(zone)]);
	printk(KERN_INFO "mm: wrote and verified %lu pages (%lu MiB)\n", taken, taken >> 8);
}

KTEST(mm, zones_match_memory_map)
{
	unsigned long present = 0, map_pages = 0;
	struct zone *zone;
	unsigned int i;

	for (i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		uint64_t start = ALIGN_UP(e->addr, PAGE_SIZE);
		uint64_t end = ALIGN_DOWN(e->addr + e->len, PAGE_SIZE);

		if (e->type == MB2_MEMORY_AVAILABLE && end > start)
			map_pages += (end - start) >> PAGE_SHIFT;
	}
	for_each_zone(zone) {
		KTEST_EXPECT(t, zone->managed_pages <= zone->present_pages);
		KTEST_EXPECT(t, zone->present_pages <= zone->spanned_pages);
		present += zone->present_pages;
	}
	KTEST_EXPECT_EQ(t, present, map_pages);
	zone = NODE_DATA(0)->node_zones;
	KTEST_EXPECT(t, zone[ZONE_DMA].zone_start_pfn + zone[ZONE_DMA].spanned_pages <= MAX_DMA_PFN);
	if (zone[ZONE_DMA32].spanned_pages) {
		KTEST_EXPECT(t, zone[ZONE_DMA32].zone_start_pfn >= MAX_DMA_PFN);
		KTEST_EXPECT(t, zone[ZONE_DMA32].zone_start_pfn + zone[ZONE_DMA32].spanned_pages <= MAX_DMA32_PFN);
	}
	if (zone[ZONE_NORMAL].spanned_pages)
		KTEST_EXPECT(t, zone[ZONE_NORMAL].zone_start_pfn >= MAX_DMA32_PFN);
}

KTEST(mm, watermarks_ordered)
{
	struct zone *zone;

	for_each_zone(zone) {
		if (!populated_zone(zone))
			continue;
		KTEST_EXPECT(t, zone->pages_min <= zone->pages_low);
		KTEST_EXPECT(t, zone->pages_low <= zone->pages_high);
		KTEST_EXPECT(t, zone->pages_high < zone->managed_pages);
	}
}

KTEST(mm, order_ten_block)
{
	struct page *page = alloc_pages(GFP_KERNEL, MAX_ORDER - 1);
	unsigned long before;

	KTEST_EXPECT(t, page != NULL);
	if (!page)
		return;
	KTEST_EXPECT_EQ(t, page_to_pfn(page) % MAX_ORDER_NR_PAGES, 0);
	before = nr_free_pages();
	__free_pages(page, MAX_ORDER - 1);
	KTEST_EXPECT_EQ(t, nr_free_pages(), before + MAX_ORDER_NR_PAGES);
}

extern char __text_start[];

/* The kernel maps its text read-only: this write must fault. */
__noinline void crash_write_kernel_text_victim(void)
{
	*(volatile uint8_t *)__text_start = 0xcc;
}

/* Recurse until the stack runs into its guard page.  The depth limit is
 * far beyond any kernel stack, and keeps the recursion finite for gcc. */
__noinline unsigned long crash_stack_overflow_victim(unsigned long depth)
{
	volatile uint8_t frame[512];

	frame[0] = (uint8_t)depth;
	if (depth > (1ul << 30))
		return frame[0];
	return crash_stack_overflow_victim(depth + 1) + frame[0];
}

KTEST_CRASHER(crash, write_kernel_text) { (void)t; crash_write_kernel_text_victim(); }
KTEST_CRASHER(crash, stack_overflow) { (void)t; crash_stack_overflow_victim(0); }
