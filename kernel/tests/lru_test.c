/*
 * Suite "lru": the zone LRU lists (mm/swap.c, mm/vmscan.c) on real pages.
 * bookkeeping allocates pages from the page allocator, makes half of them
 * swap-backed (anon) and half file, adds them to the inactive lists,
 * accesses a quarter of them twice so they move to the active lists, and
 * checks every zone's counters and lists against what it did.  Then it
 * isolates every page and puts it back, and finally takes them all off and
 * frees them: the LRU counters, the reference counts and the number of
 * free pages must all come back to where they started.
 */
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mm_inline.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

#define LRU_TEST_PAGES 256

static struct page *lru_pages[LRU_TEST_PAGES];

static bool page_on_list(struct page *page, enum lru_list l)
{
	struct page *p;

	list_for_each_entry(p, &page_zone(page)->lru[physical_lru(l)].list, lru)
		if (p == page)
			return true;
	return false;
}

static unsigned long lru_count(struct zone *zone, enum lru_list l)
{
	return zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l));
}

/* Every zone counter is base plus the test pages counted on its list, and
 * every list head holds as many pages as the counters of the lists it
 * holds (its own under lru=split; under lru=single the one inactive or
 * active list holds both kinds). */
static void check_lists(struct ktest *t, unsigned long base[MAX_NR_ZONES][NR_LRU_LISTS],
			unsigned int n)
{
	unsigned long want[MAX_NR_ZONES][NR_LRU_LISTS];
	struct zone *zone;
	enum lru_list l;
	unsigned int i;

	for_each_zone(zone)
		for_each_lru(l)
			want[zone_idx(zone)][l] = base[zone_idx(zone)][l];
	for (i = 0; i < n; i++) {
		struct page *page = lru_pages[i];

		KTEST_EXPECT(t, PageLRU(page));
		KTEST_EXPECT(t, page_on_list(page, page_lru(page)));
		KTEST_EXPECT_EQ(t, page_count(page), 2);
		want[page_zonenum(page)][page_lru(page)]++;
	}
	for_each_zone(zone)
		for_each_lru(l) {
			struct list_head *p;
			unsigned long len = 0, counted = 0;
			enum lru_list c;

			list_for_each(p, &zone->lru[l].list)
				len++;
			for_each_lru(c)
				if (physical_lru(c) == l)
					counted += lru_count(zone, c);
			KTEST_EXPECT_EQ(t, counted, len);
			KTEST_EXPECT_EQ(t, lru_count(zone, l), want[zone_idx(zone)][l]);
		}
}

KTEST(lru, bookkeeping)
{
	unsigned long base[MAX_NR_ZONES][NR_LRU_LISTS];
	unsigned long free_before = nr_free_pages();
	unsigned long ev[NR_VM_EVENT_ITEMS], activations_before, active = 0;
	struct zone *zone;
	enum lru_list l;
	unsigned int i, n;

	all_vm_events(ev);
	activations_before = ev[PGACTIVATE];
	for_each_zone(zone)
		for_each_lru(l)
			base[zone_idx(zone)][l] = lru_count(zone, l);

	for (n = 0; n < LRU_TEST_PAGES; n++) {
		struct page *page = alloc_page(GFP_KERNEL | __GFP_NOWARN);

		if (!page)
			break;
		lru_pages[n] = page;
		if (n % 2) {
			SetPageSwapBacked(page);
			lru_cache_add_anon(page);
		} else {
			lru_cache_add_file(page);
		}
	}
	KTEST_EXPECT_EQ(t, n, LRU_TEST_PAGES);
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, page_lru(lru_pages[i]),
				i % 2 ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE);
	check_lists(t, base, n);

	/* Two accesses promote a page; one only marks it. */
	for (i = 0; i < n; i++) {
		if (i % 4 < 2) {
			mark_page_accessed(lru_pages[i]);
			mark_page_accessed(lru_pages[i]);
			KTEST_EXPECT(t, PageActive(lru_pages[i]));
			KTEST_EXPECT(t, !PageReferenced(lru_pages[i]));
			active++;
		} else if (i % 4 == 2) {
			mark_page_accessed(lru_pages[i]);
			KTEST_EXPECT(t, !PageActive(lru_pages[i]));
			KTEST_EXPECT(t, PageReferenced(lru_pages[i]));
		}
	}
	all_vm_events(ev);
	KTEST_EXPECT_EQ(t, ev[PGACTIVATE] - activations_before, active);
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, page_lru(lru_pages[i]),
				LRU_BASE + page_is_file_cache(lru_pages[i]) +
				(i % 4 < 2 ? LRU_ACTIVE : 0));
	check_lists(t, base, n);

	/* Isolate everything: the lists are back to their base; then put back. */
	for (i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, isolate_lru_page(lru_pages[i]), 0);
		KTEST_EXPECT(t, !PageLRU(lru_pages[i]));
		KTEST_EXPECT_EQ(t, isolate_lru_page(lru_pages[i]), -EBUSY);
	}
	for_each_zone(zone)
		for_each_lru(l)
			KTEST_EXPECT_EQ(t, lru_count(zone, l), base[zone_idx(zone)][l]);
	for (i = 0; i < n; i++)
		putback_lru_page(lru_pages[i]);
	check_lists(t, base, n);
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, page_lru(lru_pages[i]),
				LRU_BASE + page_is_file_cache(lru_pages[i]) +
				(i % 4 < 2 ? LRU_ACTIVE : 0));

	/* Remove: isolate, clear what isolation keeps, drop the list's reference. */
	for (i = 0; i < n; i++) {
		struct page *page = lru_pages[i];

		KTEST_EXPECT_EQ(t, isolate_lru_page(page), 0);
		ClearPageActive(page);
		ClearPageUnevictable(page);
		put_page(page);
		KTEST_EXPECT_EQ(t, page_count(page), 1);
		__free_page(page);
	}
	for_each_zone(zone)
		for_each_lru(l)
			KTEST_EXPECT_EQ(t, lru_count(zone, l), base[zone_idx(zone)][l]);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
	printk(KERN_INFO "lru: %u pages added, %lu activated, isolated, put back and freed\n",
	       n, active);
}
