/*
 * Host unit tests for page reclaim: the real mm/vmscan.c, mm/swap.c and
 * mm/filemap.c over the real page allocator on test_lru's fake machine
 * (fake_zones.c: DMA pfn 0-4096, DMA32 up to 64 MiB).  No page is mapped
 * by a process here (fake_rmap.c's page_referenced and try_to_unmap check
 * that), so mm/rmap.c's part is tested in test_rmap.c.
 *
 *   - get_scan_ratio against Linux 2.6.28's formula, written again below
 *     from the reference, over random zones, histories and swappiness;
 *   - inactive_anon_is_low and the inactive_ratio table of 2.6.28's
 *     comment (10 MB: 1, 1 GB: 3, 10 GB: 10, 100 GB: 31, 1 TB: 101);
 *   - try_to_free_pages over a zone holding one page of each kind
 *     shrink_page_list decides on, among clean filler pages: each ends as
 *     2.6.28 says (freed, written then freed, kept, activated, culled),
 *     the writepage calls and the events agree, and every list's length
 *     equals its counter afterwards; a page whose write is left in flight
 *     (as swap's) is kept, rotated to the inactive tail when the write
 *     ends (pgrotated), and freed by the next scan without a second write;
 *   - without swap, anon pages are never isolated; with swap "on" but
 *     no slot to give (add_to_swap fails), they are activated, not freed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fs/fs.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mm_inline.h>
#include <mm/page_alloc.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <mm/slab.h>
#include <uapi/errno.h>

#include "fake_zones.h"
#include "kernel_stubs.h"

#define ZONE(i) (&contig_page_data.node_zones[i])


/* One machine for all the tests (the slab allocator starts once); each
 * test leaves it as it found it. */
static int boot(void **state)
{
	(void)state;
	fake_zones_boot_small();
	kmem_cache_init();
	nr_swap_pages = 0;
	total_swap_pages = 0;
	return 0;
}



static unsigned long list_len(const struct list_head *head)
{
	const struct list_head *p;
	unsigned long n = 0;

	for (p = head->next; p != head; p = p->next)
		n++;
	return n;
}

static void assert_lists_match_counters(void)
{
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int l = 0; l < NR_LRU_LISTS; l++)
			assert_int_equal(list_len(&ZONE(z)->lru[l].list),
					 zone_page_state(ZONE(z), (enum zone_stat_item)(NR_LRU_BASE + l)));
}

/* ---- get_scan_ratio ---------------------------------------------------- */

/* Linux 2.6.28's get_scan_ratio, from the reference: the oracle. */
static void oracle_scan_ratio(unsigned long anon, unsigned long file, unsigned long free,
			      unsigned long high, long swap_free, int swappiness,
			      unsigned long scanned[2], unsigned long rotated[2],
			      unsigned long percent[2])
{
	unsigned long ap, fp;

	if (swap_free <= 0) {
		percent[0] = 0;
		percent[1] = 100;
		return;
	}
	if (file + free <= high) {
		percent[0] = 100;
		percent[1] = 0;
		return;
	}
	if (scanned[0] > anon / 4) {
		scanned[0] /= 2;
		rotated[0] /= 2;
	}
	if (scanned[1] > file / 4) {
		scanned[1] /= 2;
		rotated[1] /= 2;
	}
	ap = (unsigned long)(swappiness + 1) * (scanned[0] + 1) / (rotated[0] + 1);
	fp = (unsigned long)(200 - swappiness + 1) * (scanned[1] + 1) / (rotated[1] + 1);
	percent[0] = 100 * ap / (ap + fp + 1);
	percent[1] = 100 - percent[0];
}

static void test_get_scan_ratio(void **state)
{
	struct zone *zone = ZONE(1);
	long saved[NR_VM_ZONE_STAT_ITEMS];
	unsigned long saved_high = zone->pages_high;

	(void)state;
	memcpy(saved, zone->vm_stat, sizeof(saved));
	srandom(11);
	for (int i = 0; i < 20000; i++) {
		unsigned long aa = random() % 100000, ia = random() % 100000;
		unsigned long af = random() % 100000, inf = random() % 100000;
		unsigned long fr = random() % 5000, scanned[2], rotated[2], want[2], got[2];
		int swappiness = (int)(random() % 101);
		long swap_free = random() % 4 ? 1 + random() % 1000 : 0;

		if (i % 7 == 0)		/* small file lists: the forced anon scan */
			af = inf = random() % 100;
		zone->vm_stat[NR_ACTIVE_ANON] = (long)aa;
		zone->vm_stat[NR_INACTIVE_ANON] = (long)ia;
		zone->vm_stat[NR_ACTIVE_FILE] = (long)af;
		zone->vm_stat[NR_INACTIVE_FILE] = (long)inf;
		zone->vm_stat[NR_FREE_PAGES] = (long)fr;
		zone->pages_high = random() % 400;
		for (int t = 0; t < 2; t++) {
			scanned[t] = zone->recent_scanned[t] = random() % 200000;
			rotated[t] = zone->recent_rotated[t] = random() % (scanned[t] + 1);
		}
		nr_swap_pages = swap_free;
		oracle_scan_ratio(aa + ia, af + inf, fr, zone->pages_high, swap_free, swappiness,
				  scanned, rotated, want);
		get_scan_ratio(zone, swappiness, got);
		assert_int_equal(got[0], want[0]);
		assert_int_equal(got[1], want[1]);
		assert_int_equal(got[0] + got[1], 100);
		if (swap_free > 0 && af + inf + fr > zone->pages_high) {
			/* The halving, as the oracle did it. */
			assert_int_equal(zone->recent_scanned[0], scanned[0]);
			assert_int_equal(zone->recent_rotated[1], rotated[1]);
		}
	}
	/* The reference's worked example: swappiness 60, anon 1000 scanned /
	 * 900 rotated, file 1000 / 100 => ap 67, fp 1397: 4% anon, 96% file. */
	zone->vm_stat[NR_ACTIVE_ANON] = 100000;
	zone->vm_stat[NR_ACTIVE_FILE] = 100000;
	zone->vm_stat[NR_INACTIVE_ANON] = zone->vm_stat[NR_INACTIVE_FILE] = 0;
	zone->recent_scanned[0] = 1000;
	zone->recent_rotated[0] = 900;
	zone->recent_scanned[1] = 1000;
	zone->recent_rotated[1] = 100;
	nr_swap_pages = 1;
	{
		unsigned long got[2];

		get_scan_ratio(zone, 60, got);
		assert_int_equal(got[0], 4);
		assert_int_equal(got[1], 96);
	}
	memcpy(zone->vm_stat, saved, sizeof(saved));
	zone->pages_high = saved_high;
	zone->recent_scanned[0] = zone->recent_scanned[1] = 0;
	zone->recent_rotated[0] = zone->recent_rotated[1] = 0;
	nr_swap_pages = 0;
}

/* ---- the inactive anon target ------------------------------------------ */

static void test_inactive_ratio(void **state)
{
	static const struct { unsigned long mib; unsigned int ratio; } table[] = {
		{ 10, 1 }, { 100, 1 }, { 1024, 3 }, { 10240, 10 }, { 102400, 31 },
		{ 1048576, 101 }, { 10485760, 320 },
	};
	struct zone *zone = ZONE(1);
	unsigned long present = zone->present_pages;
	long saved_a = zone->vm_stat[NR_ACTIVE_ANON], saved_i = zone->vm_stat[NR_INACTIVE_ANON];

	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		zone->present_pages = table[i].mib << (20 - PAGE_SHIFT);
		setup_per_zone_inactive_ratio();
		assert_int_equal(zone->inactive_ratio, table[i].ratio);
	}
	zone->present_pages = present;
	setup_per_zone_inactive_ratio();

	srandom(12);
	for (int i = 0; i < 10000; i++) {
		unsigned long a = random() % 100000, in = random() % 100000;

		zone->inactive_ratio = 1 + random() % 320;
		zone->vm_stat[NR_ACTIVE_ANON] = (long)a;
		zone->vm_stat[NR_INACTIVE_ANON] = (long)in;
		assert_int_equal(inactive_anon_is_low(zone), in * zone->inactive_ratio < a);
	}
	zone->vm_stat[NR_ACTIVE_ANON] = saved_a;
	zone->vm_stat[NR_INACTIVE_ANON] = saved_i;
	setup_per_zone_inactive_ratio();
}

/* ---- shrink_page_list's decisions --------------------------------------- */

/* The kinds of page, one of each at these indexes of the file, among
 * NR_FILLER clean unmapped pages that reclaim may free. */
enum kind {
	DIRTY,		/* written, then freed */
	DIRTY_EIO,	/* its write fails: kept, still dirty */
	DIRTY_ACTIVATE,	/* writepage says AOP_WRITEPAGE_ACTIVATE: activated, dirty */
	DIRTY_ASYNC,	/* its write is left in flight: kept under writeback */
	LOCKED,		/* someone holds its lock: kept */
	WRITEBACK,	/* someone's writeback in flight: kept */
	EXTRA_REF,	/* someone holds a reference: kept */
	MLOCKED,	/* culled to the unevictable list */
	REFERENCED,	/* PG_referenced in a mapped file: activated */
	NR_KINDS
};

#define NR_FILLER 60

static unsigned int nr_writepage[NR_KINDS + 2 * NR_FILLER];

static int fake_writepage(struct address_space *mapping, struct page *page)
{
	(void)mapping;
	nr_writepage[page->index]++;
	if (page->index == DIRTY_EIO)
		return -EIO;
	if (page->index == DIRTY_ACTIVATE)
		return AOP_WRITEPAGE_ACTIVATE;
	set_page_writeback(page);
	/* As swap_writepage: the bio's end will end the writeback. */
	if (page->index != DIRTY_ASYNC)
		end_page_writeback(page);
	return 0;
}

static const struct address_space_operations fake_aops = { .writepage = fake_writepage };

static struct page *new_cache_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page = alloc_page(GFP_KERNEL);

	assert_non_null(page);
	assert_int_equal(add_to_page_cache_lru(page, mapping, index, GFP_KERNEL), 0);
	SetPageUptodate(page);
	unlock_page(page);
	page_cache_release(page);	/* the cache's and the list's are left */
	return page;
}

/* Drop what is left of mapping, as truncation would. */
static void drop_mapping(struct address_space *mapping, pgoff_t n)
{
	for (pgoff_t i = 0; i < n; i++) {
		struct page *page = find_get_page(mapping, i);

		if (!page)
			continue;
		if (PageLocked(page))
			unlock_page(page);
		lock_page(page);
		ClearPageMlocked(page);
		ClearPageWriteback(page);
		cancel_dirty_page(page);
		remove_from_page_cache(page);
		unlock_page(page);
		if (isolate_lru_page(page) == 0) {
			ClearPageActive(page);
			ClearPageUnevictable(page);
			page_cache_release(page);
		}
		page_cache_release(page);	/* the cache's */
		page_cache_release(page);	/* find_get_page's */
	}
}

static void test_shrink_page_list_decisions(void **state)
{
	struct address_space mapping;
	struct list_head fake_vma;
	struct page *page[NR_KINDS];
	unsigned long free0, steal0, cached0, rotated0, ret, left = 0;

	(void)state;
	address_space_init(&mapping, NULL, &fake_aops, false);
	/* Some process maps the file: referenced pages are in use. */
	list_add(&fake_vma, &mapping.i_mmap);
	for (int k = 0; k < NR_KINDS; k++)
		page[k] = new_cache_page(&mapping, (pgoff_t)k);
	for (int i = 0; i < NR_FILLER; i++)
		new_cache_page(&mapping, (pgoff_t)(NR_KINDS + i));

	set_page_dirty(page[DIRTY]);
	set_page_dirty(page[DIRTY_EIO]);
	set_page_dirty(page[DIRTY_ACTIVATE]);
	set_page_dirty(page[DIRTY_ASYNC]);
	assert_true(trylock_page(page[LOCKED]));
	SetPageWriteback(page[WRITEBACK]);
	get_page(page[EXTRA_REF]);
	SetPageMlocked(page[MLOCKED]);
	SetPageReferenced(page[REFERENCED]);

	free0 = nr_free_pages();
	steal0 = fake_vm_event(PGSTEAL_FILE);
	cached0 = global_page_state(NR_FILE_PAGES);
	memset(nr_writepage, 0, sizeof(nr_writepage));
	*fake_current_flags() |= fake_pf_memalloc;
	ret = try_to_free_pages(ZONE(1), 0, GFP_KERNEL);
	*fake_current_flags() &= ~fake_pf_memalloc;

	assert_true(ret >= SWAP_CLUSTER_MAX);
	assert_null(find_get_page(&mapping, DIRTY));
	assert_true(nr_writepage[DIRTY] == 1);
	for (int k = DIRTY_EIO; k < NR_KINDS; k++) {
		struct page *p = find_get_page(&mapping, (pgoff_t)k);

		assert_ptr_equal(p, page[k]);
		page_cache_release(p);
	}
	assert_true(PageDirty(page[DIRTY_EIO]) && nr_writepage[DIRTY_EIO] >= 1);
	assert_true(PageLRU(page[DIRTY_EIO]) && !PageActive(page[DIRTY_EIO]));
	assert_true(PageDirty(page[DIRTY_ACTIVATE]) && PageActive(page[DIRTY_ACTIVATE]));
	assert_true(PageWriteback(page[DIRTY_ASYNC]) && PageReclaim(page[DIRTY_ASYNC]));
	assert_true(PageLRU(page[DIRTY_ASYNC]) && !PageActive(page[DIRTY_ASYNC]));
	assert_int_equal(nr_writepage[DIRTY_ASYNC], 1);
	assert_int_equal(global_page_state(NR_WRITEBACK), 1);
	assert_int_equal(nr_writepage[LOCKED] + nr_writepage[WRITEBACK] + nr_writepage[EXTRA_REF], 0);
	assert_true(PageLRU(page[LOCKED]) && PageLRU(page[WRITEBACK]) && PageLRU(page[EXTRA_REF]));
	assert_true(PageUnevictable(page[MLOCKED]) && PageLRU(page[MLOCKED]));
	assert_int_equal(page_lru(page[MLOCKED]), LRU_UNEVICTABLE);
	assert_true(PageActive(page[REFERENCED]) && !PageReferenced(page[REFERENCED]));
	for (int i = 0; i < NR_FILLER; i++) {
		struct page *p = find_get_page(&mapping, (pgoff_t)(NR_KINDS + i));

		assert_int_equal(nr_writepage[NR_KINDS + i], 0);
		if (p) {
			left++;
			page_cache_release(p);
		}
	}
	/* What reclaim freed: the dirty page and the fillers it took. */
	assert_int_equal(ret, 1 + NR_FILLER - left);
	assert_int_equal(fake_vm_event(PGSTEAL_FILE) - steal0, ret);
	assert_int_equal(cached0 - global_page_state(NR_FILE_PAGES), ret);
	assert_int_equal(nr_free_pages() - free0, ret);
	assert_int_equal(mapping.nrpages, NR_KINDS - 1 + left);
	assert_lists_match_counters();

	/* The write in flight ends: the page goes to its inactive tail, where
	 * the next scan takes it first and frees it, among new clean pages
	 * enough for a scan. */
	for (int i = 0; i < NR_FILLER; i++)
		new_cache_page(&mapping, (pgoff_t)(NR_KINDS + NR_FILLER + i));
	rotated0 = fake_vm_event(PGROTATED);
	end_page_writeback(page[DIRTY_ASYNC]);
	assert_false(PageWriteback(page[DIRTY_ASYNC]) || PageReclaim(page[DIRTY_ASYNC]));
	assert_int_equal(global_page_state(NR_WRITEBACK), 0);
	assert_int_equal(fake_vm_event(PGROTATED) - rotated0, 1);
	assert_ptr_equal(list_entry(page_zone(page[DIRTY_ASYNC])->lru[LRU_INACTIVE_FILE].list.prev,
				    struct page, lru),
			 page[DIRTY_ASYNC]);
	assert_lists_match_counters();
	*fake_current_flags() |= fake_pf_memalloc;
	try_to_free_pages(ZONE(1), 0, GFP_KERNEL);
	*fake_current_flags() &= ~fake_pf_memalloc;
	assert_null(find_get_page(&mapping, DIRTY_ASYNC));
	assert_int_equal(nr_writepage[DIRTY_ASYNC], 1);
	assert_lists_match_counters();

	put_page(page[EXTRA_REF]);
	unlock_page(page[LOCKED]);
	list_del(&fake_vma);
	drop_mapping(&mapping, NR_KINDS + 2 * NR_FILLER);
	assert_lists_match_counters();
	assert_int_equal(global_page_state(NR_FILE_PAGES), 0);
}

/* ---- anonymous pages --------------------------------------------------- */

#define NR_ANON 80

static void test_anon_without_swap(void **state)
{
	struct anon_vma anon_vma;
	struct page *page[NR_ANON];
	unsigned long free0, ret;

	(void)state;
	for (int i = 0; i < NR_ANON; i++) {
		page[i] = alloc_page(GFP_KERNEL);
		assert_non_null(page[i]);
		page[i]->mapping = (struct address_space *)((unsigned long)&anon_vma |
							    PAGE_MAPPING_ANON);
		SetPageSwapBacked(page[i]);
		if (i % 2)
			lru_cache_add_active_anon(page[i]);
		else
			lru_cache_add_anon(page[i]);
	}
	free0 = nr_free_pages();

	/* No swap: the anon lists are not even looked at, and with nothing
	 * else in the zones reclaim reports no progress. */
	*fake_current_flags() |= fake_pf_memalloc;
	ret = try_to_free_pages(ZONE(1), 0, GFP_KERNEL);
	assert_int_equal(ret, 0);
	assert_int_equal(fake_vm_event(PGSCAN_ANON), 0);
	assert_int_equal(fake_vm_event(PGDEACTIVATE), 0);

	/* Swap on, but never a slot (add_to_swap fails): scanned, activated,
	 * never freed. */
	nr_swap_pages = total_swap_pages = 1000;
	ret = try_to_free_pages(ZONE(1), 0, GFP_KERNEL);
	*fake_current_flags() &= ~fake_pf_memalloc;
	nr_swap_pages = total_swap_pages = 0;
	assert_true(ret <= 1);
	assert_true(fake_vm_event(PGSCAN_ANON) > 0);
	assert_int_equal(fake_vm_event(PGSTEAL_ANON), 0);
	assert_true(fake_vm_event(PGACTIVATE) > 0);
	assert_int_equal(nr_free_pages(), free0);
	for (int i = 0; i < NR_ANON; i++)
		assert_true(PageLRU(page[i]) && page_count(page[i]) == 2);
	assert_lists_match_counters();

	for (int i = 0; i < NR_ANON; i++) {
		assert_int_equal(isolate_lru_page(page[i]), 0);
		ClearPageActive(page[i]);
		put_page(page[i]);
		page[i]->mapping = NULL;
		put_page(page[i]);
	}
	assert_int_equal(nr_free_pages(), free0 + NR_ANON);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_scan_ratio),
		cmocka_unit_test(test_inactive_ratio),
		cmocka_unit_test(test_shrink_page_list_decisions),
		cmocka_unit_test(test_anon_without_swap),
	};

	return cmocka_run_group_tests(tests, boot, fake_zones_shutdown);
}
