/*
 * Host unit tests for the LRU lists: mm/swap.c (adding, mark_page_accessed,
 * activate_page), mm/vmscan.c (isolate_lru_page, putback_lru_page) and
 * include/mm/mm_inline.h (page_is_file_cache, page_lru, the list and
 * counter primitives).
 *
 * The fake machine is test_page_alloc's "small" one: DMA pfn 0-4096 with
 * holes at pfn 0 and 4000-4095, DMA32 from 16 to 64 MiB.  mem_map is
 * calloc'd, physical memory one MAP_NORESERVE mapping, and the pages the
 * tests put on LRU lists come from the real allocator (mm/page_alloc.c),
 * half from each zone, so that the zone of a page matters.
 *
 * The real mm/vmscan.c is linked, so wakeup_kswapd and try_to_free_pages
 * are its own (they need no stubs; the allocations here never get near
 * the watermarks).  panic() and printk() are kernel_stubs.c's.
 *
 * test_random_ops is the main test: tens of thousands of random
 * operations, with a fixed seed, each followed by a full comparison of
 * every zone's lists, counters and page flags against an oracle that
 * models the lists as arrays.
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
#include <mm/mm_inline.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <uapi/errno.h>

#include "fake_zones.h"
#include "kernel_stubs.h"

#define ZONE(i) (&contig_page_data.node_zones[i])

/* ---- the fake machine -------------------------------------------------- */

static unsigned long free_at_boot;

static int boot(void **state)
{
	(void)state;
	fake_zones_boot_small();
	free_at_boot = nr_free_pages();
	return 0;
}


/* ---- helpers ----------------------------------------------------------- */


static unsigned long nr_lru(int zone, enum lru_list l)
{
	return zone_page_state(ZONE(zone), (enum zone_stat_item)(NR_LRU_BASE + l));
}

static unsigned long list_len(const struct list_head *head)
{
	const struct list_head *p;
	unsigned long n = 0;

	for (p = head->next; p != head; p = p->next)
		n++;
	return n;
}

/* Is page on list l of its zone? */
static bool on_list(const struct page *page, enum lru_list l)
{
	const struct list_head *head = &page_zone(page)->lru[l].list, *p;

	for (p = head->next; p != head; p = p->next)
		if (p == &page->lru)
			return true;
	return false;
}

/* A page from zone: DMA or DMA32. */
static struct page *get_test_page(int zone)
{
	struct page *page = alloc_page(zone == ZONE_DMA ? GFP_DMA : GFP_KERNEL);

	assert_non_null(page);
	assert_int_equal(page_zonenum(page), zone);
	return page;
}

/* Take page off its list for good: isolate, clear what isolation keeps, drop the list's reference. */
static void remove_from_lru(struct page *page)
{
	assert_int_equal(isolate_lru_page(page), 0);
	ClearPageActive(page);
	ClearPageUnevictable(page);
	put_page(page);
}

static void assert_lru_empty(void)
{
	enum lru_list l;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++)
		for_each_lru(l) {
			assert_int_equal(nr_lru(z, l), 0);
			assert_int_equal(list_len(&ZONE(z)->lru[l].list), 0);
		}
}

/* ---- the index arithmetic --------------------------------------------- */

static void test_index_arithmetic(void **state)
{
	enum lru_list l;
	int n = 0;

	(void)state;
	assert_int_equal(LRU_BASE, 0);
	assert_int_equal(LRU_ACTIVE, 1);
	assert_int_equal(LRU_FILE, 2);
	assert_int_equal(LRU_INACTIVE_ANON, LRU_BASE);
	assert_int_equal(LRU_ACTIVE_ANON, LRU_BASE + LRU_ACTIVE);
	assert_int_equal(LRU_INACTIVE_FILE, LRU_BASE + LRU_FILE);
	assert_int_equal(LRU_ACTIVE_FILE, LRU_FILE + LRU_ACTIVE);
	assert_int_equal(LRU_UNEVICTABLE, 4);
	assert_int_equal(NR_LRU_LISTS, 5);

	assert_int_equal(NR_FREE_PAGES, 0);
	assert_int_equal(NR_LRU_BASE, NR_INACTIVE_ANON);
	assert_int_equal(NR_LRU_BASE + LRU_INACTIVE_ANON, NR_INACTIVE_ANON);
	assert_int_equal(NR_LRU_BASE + LRU_ACTIVE_ANON, NR_ACTIVE_ANON);
	assert_int_equal(NR_LRU_BASE + LRU_INACTIVE_FILE, NR_INACTIVE_FILE);
	assert_int_equal(NR_LRU_BASE + LRU_ACTIVE_FILE, NR_ACTIVE_FILE);
	assert_int_equal(NR_LRU_BASE + LRU_UNEVICTABLE, NR_UNEVICTABLE);

	assert_false(is_file_lru(LRU_INACTIVE_ANON));
	assert_false(is_file_lru(LRU_ACTIVE_ANON));
	assert_true(is_file_lru(LRU_INACTIVE_FILE));
	assert_true(is_file_lru(LRU_ACTIVE_FILE));
	assert_false(is_file_lru(LRU_UNEVICTABLE));
	assert_false(is_active_lru(LRU_INACTIVE_ANON));
	assert_true(is_active_lru(LRU_ACTIVE_ANON));
	assert_false(is_active_lru(LRU_INACTIVE_FILE));
	assert_true(is_active_lru(LRU_ACTIVE_FILE));
	assert_false(is_active_lru(LRU_UNEVICTABLE));

	for_each_lru(l)
		n++;
	assert_int_equal(n, NR_LRU_LISTS);
	n = 0;
	for_each_evictable_lru(l) {
		assert_int_not_equal(l, LRU_UNEVICTABLE);
		n++;
	}
	assert_int_equal(n, 4);

	assert_string_equal(vmstat_text[NR_FREE_PAGES], "nr_free_pages");
	assert_string_equal(vmstat_text[NR_INACTIVE_ANON], "nr_inactive_anon");
	assert_string_equal(vmstat_text[NR_ACTIVE_ANON], "nr_active_anon");
	assert_string_equal(vmstat_text[NR_INACTIVE_FILE], "nr_inactive_file");
	assert_string_equal(vmstat_text[NR_ACTIVE_FILE], "nr_active_file");
	assert_string_equal(vmstat_text[NR_UNEVICTABLE], "nr_unevictable");
	assert_string_equal(vmstat_text[NR_VM_ZONE_STAT_ITEMS + PGACTIVATE], "pgactivate");
}

/* Only the flags that exist, not the zone bits. */
#define ALL_FLAGS ((1ul << __NR_PAGEFLAGS) - 1)

static void test_page_is_file_cache_reads_swapbacked_only(void **state)
{
	struct page page;
	unsigned long other = ALL_FLAGS & ~(1ul << PG_swapbacked);
	unsigned long f;
	int i;

	(void)state;
	srandom(4);
	for (i = 0; i < 20000; i++) {
		f = (unsigned long)random() * 65599ul ^ (unsigned long)random();
		memset(&page, 0, sizeof(page));
		page.flags = f & other;
		assert_int_equal(page_is_file_cache(&page), LRU_FILE);
		page.flags |= 1ul << PG_swapbacked;
		assert_int_equal(page_is_file_cache(&page), 0);
	}
	/* Each other flag alone, and every flag at once. */
	for (i = 0; i < __NR_PAGEFLAGS; i++) {
		if (i == PG_swapbacked)
			continue;
		memset(&page, 0, sizeof(page));
		page.flags = 1ul << i;
		assert_int_equal(page_is_file_cache(&page), LRU_FILE);
	}
	page.flags = ~0ul;
	assert_int_equal(page_is_file_cache(&page), 0);
	page.flags = ~(1ul << PG_swapbacked);
	assert_int_equal(page_is_file_cache(&page), LRU_FILE);
}

static void test_page_lru(void **state)
{
	struct page page;
	int sb, act, unev;

	(void)state;
	for (sb = 0; sb < 2; sb++)
		for (act = 0; act < 2; act++)
			for (unev = 0; unev < 2; unev++) {
				memset(&page, 0, sizeof(page));
				if (sb)
					SetPageSwapBacked(&page);
				if (act)
					SetPageActive(&page);
				if (unev)
					SetPageUnevictable(&page);
				SetPageReferenced(&page);
				SetPageDirty(&page);
				if (unev)
					assert_int_equal(page_lru(&page), LRU_UNEVICTABLE);
				else
					assert_int_equal(page_lru(&page), LRU_BASE +
							 (sb ? 0 : LRU_FILE) + (act ? LRU_ACTIVE : 0));
			}
}

/* ---- single behaviours -------------------------------------------------- */

static void test_add_each_list(void **state)
{
	struct page *p[5];
	int i;

	(void)state;
	for (i = 0; i < 5; i++)
		p[i] = get_test_page(ZONE_DMA32);
	SetPageSwapBacked(p[0]);
	SetPageSwapBacked(p[1]);
	SetPageMlocked(p[4]);
	lru_cache_add_anon(p[0]);
	lru_cache_add_active_anon(p[1]);
	lru_cache_add_file(p[2]);
	lru_cache_add_active_file(p[3]);
	lru_cache_add_lru(p[4], LRU_UNEVICTABLE);

	for (i = 0; i < 5; i++) {
		assert_true(PageLRU(p[i]));
		assert_int_equal(page_lru(p[i]), i);
		assert_true(on_list(p[i], (enum lru_list)i));
		assert_int_equal(nr_lru(ZONE_DMA32, (enum lru_list)i), 1);
		assert_int_equal(page_count(p[i]), 2);
		assert_int_equal(PageActive(p[i]), is_active_lru((enum lru_list)i));
		assert_int_equal(PageUnevictable(p[i]), i == LRU_UNEVICTABLE);
	}
	assert_int_equal(global_page_state(NR_ACTIVE_FILE), 1);
	assert_int_equal(nr_lru(ZONE_DMA, LRU_ACTIVE_FILE), 0);
	/* Linux's bookkeeping for get_scan_ratio: all four evictable adds are
	 * scanned, the two active ones rotated. */
	assert_int_equal(ZONE(ZONE_DMA32)->recent_scanned[0], 2);
	assert_int_equal(ZONE(ZONE_DMA32)->recent_scanned[1], 2);
	assert_int_equal(ZONE(ZONE_DMA32)->recent_rotated[0], 1);
	assert_int_equal(ZONE(ZONE_DMA32)->recent_rotated[1], 1);
	assert_false(spin_is_locked(&ZONE(ZONE_DMA32)->lru_lock));

	for (i = 0; i < 5; i++) {
		remove_from_lru(p[i]);
		ClearPageMlocked(p[i]);
		assert_int_equal(page_count(p[i]), 1);
		__free_page(p[i]);
	}
	assert_lru_empty();
	assert_int_equal(nr_free_pages(), free_at_boot);
}

/* New pages go at the head: the tail is the oldest. */
static void test_add_at_head(void **state)
{
	struct page *p[3];
	struct list_head *head = &ZONE(ZONE_DMA)->lru[LRU_INACTIVE_FILE].list;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		p[i] = get_test_page(ZONE_DMA);
		lru_cache_add_file(p[i]);
	}
	assert_ptr_equal(head->next, &p[2]->lru);
	assert_ptr_equal(head->prev, &p[0]->lru);
	for (i = 0; i < 3; i++) {
		remove_from_lru(p[i]);
		__free_page(p[i]);
	}
	assert_int_equal(nr_free_pages(), free_at_boot);
}

static void test_mark_page_accessed_twice_activates(void **state)
{
	struct page *file = get_test_page(ZONE_DMA), *anon = get_test_page(ZONE_DMA32);

	(void)state;
	SetPageSwapBacked(anon);
	lru_cache_add_file(file);
	lru_cache_add_anon(anon);

	mark_page_accessed(file);
	assert_true(PageReferenced(file));
	assert_false(PageActive(file));
	assert_true(on_list(file, LRU_INACTIVE_FILE));
	assert_int_equal(fake_vm_event(PGACTIVATE), 0);

	mark_page_accessed(file);
	assert_false(PageReferenced(file));
	assert_true(PageActive(file));
	assert_true(on_list(file, LRU_ACTIVE_FILE));
	assert_int_equal(nr_lru(ZONE_DMA, LRU_INACTIVE_FILE), 0);
	assert_int_equal(nr_lru(ZONE_DMA, LRU_ACTIVE_FILE), 1);
	assert_int_equal(fake_vm_event(PGACTIVATE), 1);
	assert_int_equal(ZONE(ZONE_DMA)->recent_rotated[1], 1);
	assert_int_equal(ZONE(ZONE_DMA)->recent_scanned[1], 2);

	/* Active: the third access only sets PG_referenced, the fourth nothing. */
	mark_page_accessed(file);
	assert_true(PageReferenced(file));
	mark_page_accessed(file);
	assert_true(PageReferenced(file));
	assert_true(PageActive(file));
	assert_int_equal(fake_vm_event(PGACTIVATE), 1);

	mark_page_accessed(anon);
	mark_page_accessed(anon);
	assert_true(on_list(anon, LRU_ACTIVE_ANON));
	assert_int_equal(nr_lru(ZONE_DMA32, LRU_ACTIVE_ANON), 1);
	assert_int_equal(ZONE(ZONE_DMA32)->recent_rotated[0], 1);
	assert_int_equal(fake_vm_event(PGACTIVATE), 2);

	/* activate_page of an active page changes nothing. */
	activate_page(anon);
	assert_int_equal(fake_vm_event(PGACTIVATE), 2);

	remove_from_lru(file);
	remove_from_lru(anon);
	ClearPageReferenced(file);
	__free_page(file);
	__free_page(anon);
	assert_int_equal(nr_free_pages(), free_at_boot);
}

/* A page not on a list only collects PG_referenced: nothing to activate. */
static void test_mark_page_accessed_off_lru(void **state)
{
	struct page *page = get_test_page(ZONE_DMA);

	(void)state;
	mark_page_accessed(page);
	mark_page_accessed(page);
	mark_page_accessed(page);
	assert_true(PageReferenced(page));
	assert_false(PageActive(page));
	assert_false(PageLRU(page));
	activate_page(page);
	assert_false(PageActive(page));
	assert_int_equal(fake_vm_event(PGACTIVATE), 0);
	__free_page(page);
}

static void test_isolate_not_on_lru(void **state)
{
	struct page *page = get_test_page(ZONE_DMA);

	(void)state;
	assert_int_equal(isolate_lru_page(page), -EBUSY);
	assert_int_equal(page_count(page), 1);
	lru_cache_add_file(page);
	assert_int_equal(isolate_lru_page(page), 0);
	assert_false(PageLRU(page));
	assert_int_equal(page_count(page), 2);	/* the list's reference, now ours */
	assert_int_equal(nr_lru(ZONE_DMA, LRU_INACTIVE_FILE), 0);
	assert_int_equal(isolate_lru_page(page), -EBUSY);
	putback_lru_page(page);
	assert_true(on_list(page, LRU_INACTIVE_FILE));
	assert_int_equal(page_count(page), 2);
	remove_from_lru(page);
	assert_int_equal(page_count(page), 1);
	__free_page(page);
	assert_int_equal(nr_free_pages(), free_at_boot);
}

/* putback keeps an active page active and culls an mlocked one. */
static void test_putback(void **state)
{
	struct page *page = get_test_page(ZONE_DMA32);

	(void)state;
	SetPageSwapBacked(page);
	lru_cache_add_active_anon(page);
	assert_int_equal(isolate_lru_page(page), 0);
	assert_true(PageActive(page));		/* kept for putback */
	putback_lru_page(page);
	assert_true(on_list(page, LRU_ACTIVE_ANON));

	SetPageMlocked(page);
	assert_int_equal(isolate_lru_page(page), 0);
	putback_lru_page(page);
	assert_true(on_list(page, LRU_UNEVICTABLE));
	assert_true(PageUnevictable(page));
	assert_false(PageActive(page));
	assert_int_equal(nr_lru(ZONE_DMA32, LRU_UNEVICTABLE), 1);
	assert_int_equal(nr_lru(ZONE_DMA32, LRU_ACTIVE_ANON), 0);
	/* No promotion on the unevictable list. */
	SetPageReferenced(page);
	mark_page_accessed(page);
	assert_true(on_list(page, LRU_UNEVICTABLE));
	activate_page(page);
	assert_true(on_list(page, LRU_UNEVICTABLE));
	assert_int_equal(fake_vm_event(PGACTIVATE), 0);

	/* munlock: rescued to the inactive list of its type. */
	ClearPageMlocked(page);
	assert_int_equal(isolate_lru_page(page), 0);
	putback_lru_page(page);
	assert_true(on_list(page, LRU_INACTIVE_ANON));
	assert_false(PageUnevictable(page));
	assert_int_equal(page_count(page), 2);

	remove_from_lru(page);
	ClearPageReferenced(page);
	__free_page(page);
	assert_lru_empty();
	assert_int_equal(nr_free_pages(), free_at_boot);
}

static void test_bugs_panic(void **state)
{
	struct page *page = get_test_page(ZONE_DMA);

	(void)state;
	SetPageSwapBacked(page);
	expect_panic(lru_cache_add_file(page), "swap-backed");
	assert_false(PageLRU(page));
	ClearPageSwapBacked(page);
	expect_panic(lru_cache_add_active_anon(page), "file");
	lru_cache_add_file(page);
	expect_panic(lru_cache_add_file(page), "already on an LRU list");
	assert_int_equal(nr_lru(ZONE_DMA, LRU_INACTIVE_FILE), 1);
	expect_panic(putback_lru_page(page), "still on an LRU list");
	/* Dropping the list's reference frees a page on a list: caught at free. */
	put_page(page);
	expect_panic(put_page(page), "free_pages_check: bad page");
}

/* ---- the random workload against an oracle ------------------------------ */

#define NPAGES 96
#define NOPS 60000

enum where { OFF, ON, ISOLATED };

struct model {
	struct page *page;
	enum where where;
	enum lru_list lru;		/* ON: the list; ISOLATED: the list it left */
};

static struct model pm[NPAGES];
/* The lists as the oracle sees them, head first. */
static int olist[MAX_NR_ZONES][NR_LRU_LISTS][NPAGES];
static int olen[MAX_NR_ZONES][NR_LRU_LISTS];
static unsigned long o_scanned[MAX_NR_ZONES][2], o_rotated[MAX_NR_ZONES][2];
static unsigned long o_activate;

static int zone_of(int i)
{
	return page_zonenum(pm[i].page);
}

static void o_add(int i, enum lru_list l)
{
	int z = zone_of(i);

	memmove(&olist[z][l][1], &olist[z][l][0], olen[z][l] * sizeof(int));
	olist[z][l][0] = i;
	olen[z][l]++;
	pm[i].where = ON;
	pm[i].lru = l;
}

static void o_del(int i)
{
	int z = zone_of(i), l = pm[i].lru, k;

	for (k = 0; k < olen[z][l]; k++)
		if (olist[z][l][k] == i)
			break;
	assert_true(k < olen[z][l]);
	memmove(&olist[z][l][k], &olist[z][l][k + 1], (olen[z][l] - k - 1) * sizeof(int));
	olen[z][l]--;
}

/* An add of page i to l, as lru_cache_add_lru promises. */
static void o_added(int i, enum lru_list l)
{
	int z = zone_of(i);

	o_add(i, l);
	if (l != LRU_UNEVICTABLE) {
		o_scanned[z][is_file_lru(l)]++;
		if (is_active_lru(l))
			o_rotated[z][is_file_lru(l)]++;
	}
}

static void o_activated(int i)
{
	int z = zone_of(i), file = is_file_lru(pm[i].lru);

	o_del(i);
	o_add(i, (enum lru_list)(pm[i].lru + LRU_ACTIVE));
	o_activate++;
	o_scanned[z][file]++;
	o_rotated[z][file]++;
}

static int page_index(const struct page *page)
{
	int i;

	for (i = 0; i < NPAGES; i++)
		if (pm[i].page == page)
			return i;
	fail_msg("pfn %lu on an LRU list is not a test page", page_to_pfn(page));
	return -1;
}

static void check_all(void)
{
	long global[NR_LRU_LISTS] = { 0 };
	int seen[NPAGES] = { 0 };
	enum lru_list l;
	int z, i;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = ZONE(z);

		assert_false(spin_is_locked(&zone->lru_lock));
		for_each_lru(l) {
			const struct list_head *head = &zone->lru[l].list, *p;
			int k = 0;

			for (p = head->next; p != head; p = p->next, k++) {
				const struct page *page = list_entry(p, struct page, lru);

				i = page_index(page);
				assert_true(k < olen[z][l]);
				assert_int_equal(olist[z][l][k], i);
				assert_int_equal(seen[i], 0);	/* on one list only */
				seen[i] = 1;
				assert_int_equal(page_zonenum(page), z);
			}
			assert_int_equal(k, olen[z][l]);
			assert_int_equal(zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l)), k);
			global[l] += k;
		}
		assert_int_equal(zone->recent_scanned[0], o_scanned[z][0]);
		assert_int_equal(zone->recent_scanned[1], o_scanned[z][1]);
		assert_int_equal(zone->recent_rotated[0], o_rotated[z][0]);
		assert_int_equal(zone->recent_rotated[1], o_rotated[z][1]);
	}
	for_each_lru(l)
		assert_int_equal(global_page_state((enum zone_stat_item)(NR_LRU_BASE + l)), global[l]);
	assert_int_equal(fake_vm_event(PGACTIVATE), o_activate);

	for (i = 0; i < NPAGES; i++) {
		struct page *page = pm[i].page;

		assert_int_equal(seen[i], pm[i].where == ON);
		assert_int_equal(PageLRU(page), pm[i].where == ON);
		assert_int_equal(page_count(page), pm[i].where == OFF ? 1 : 2);
		if (pm[i].where == ON) {
			assert_int_equal(page_lru(page), pm[i].lru);
			assert_int_equal(PageActive(page), is_active_lru(pm[i].lru));
			assert_int_equal(PageUnevictable(page), pm[i].lru == LRU_UNEVICTABLE);
			if (pm[i].lru != LRU_UNEVICTABLE)
				assert_int_equal(page_is_file_cache(page),
						 is_file_lru(pm[i].lru) ? LRU_FILE : 0);
		}
		if (pm[i].where == ISOLATED)
			assert_int_equal(PageActive(page), is_active_lru(pm[i].lru));
		if (pm[i].where == OFF)
			assert_false(PageActive(page) || PageUnevictable(page));
	}
}

/* Flip random flags other than PG_swapbacked: page_is_file_cache must not move. */
static void check_file_cache_flag_only(struct page *page)
{
	unsigned long saved = page->flags;
	int expect = PageSwapBacked(page) ? 0 : LRU_FILE;
	int k;

	for (k = 0; k < 4; k++) {
		page->flags ^= ((unsigned long)random() & ALL_FLAGS) & ~(1ul << PG_swapbacked);
		assert_int_equal(page_is_file_cache(page), expect);
	}
	page->flags = saved;
}

static void test_random_ops(void **state)
{
	unsigned long counts[7] = { 0 };
	int i, op;

	(void)state;
	memset(olen, 0, sizeof(olen));
	memset(o_scanned, 0, sizeof(o_scanned));
	memset(o_rotated, 0, sizeof(o_rotated));
	o_activate = 0;
	for (i = 0; i < NPAGES; i++) {
		pm[i].page = get_test_page(i & 1 ? ZONE_DMA32 : ZONE_DMA);
		pm[i].where = OFF;
		if (i % 4 < 2)
			SetPageSwapBacked(pm[i].page);
	}

	srandom(20081220);
	for (op = 0; op < NOPS; op++) {
		struct model *m = &pm[random() % NPAGES];
		struct page *page = m->page;
		int idx = (int)(m - pm);
		int r = random() % 100;

		if (r < 22) {			/* add */
			enum lru_list l;
			int file;

			if (m->where != OFF)
				continue;
			if (random() % 2) {	/* its type may change while off the lists */
				if (PageSwapBacked(page))
					ClearPageSwapBacked(page);
				else
					SetPageSwapBacked(page);
			}
			file = page_is_file_cache(page) ? 1 : 0;
			switch (random() % 9) {
			case 0:
				l = LRU_UNEVICTABLE;
				SetPageMlocked(page);
				lru_cache_add_lru(page, l);
				break;
			case 1: case 2:
				l = file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
				if (file)
					lru_cache_add_file(page);
				else
					lru_cache_add_anon(page);
				break;
			case 3: case 4:
				l = file ? LRU_ACTIVE_FILE : LRU_ACTIVE_ANON;
				if (file)
					lru_cache_add_active_file(page);
				else
					lru_cache_add_active_anon(page);
				break;
			default:
				l = (enum lru_list)(LRU_BASE + (file ? LRU_FILE : 0) + random() % 2);
				if (random() % 2)	/* a stale PG_active is cleared first */
					SetPageActive(page);
				lru_cache_add_lru(page, l);
				break;
			}
			o_added(idx, l);
			counts[0]++;
		} else if (r < 44) {		/* mark_page_accessed */
			bool ref = PageReferenced(page);

			mark_page_accessed(page);
			if (m->where == ON && !is_active_lru(m->lru) && m->lru != LRU_UNEVICTABLE && ref) {
				o_activated(idx);
				assert_false(PageReferenced(page));
			} else {
				assert_true(PageReferenced(page));
			}
			counts[1]++;
		} else if (r < 52) {		/* activate_page */
			activate_page(page);
			if (m->where == ON && !is_active_lru(m->lru) && m->lru != LRU_UNEVICTABLE)
				o_activated(idx);
			counts[2]++;
		} else if (r < 66) {		/* isolate_lru_page */
			int ret = isolate_lru_page(page);

			if (m->where == ON) {
				assert_int_equal(ret, 0);
				o_del(idx);
				m->where = ISOLATED;
			} else {
				assert_int_equal(ret, -EBUSY);
			}
			counts[3]++;
		} else if (r < 80) {		/* putback_lru_page */
			enum lru_list l;

			if (m->where != ISOLATED)
				continue;
			if (PageMlocked(page))
				l = LRU_UNEVICTABLE;
			else
				l = (enum lru_list)(LRU_BASE + page_is_file_cache(page) +
						    (is_active_lru(m->lru) ? LRU_ACTIVE : 0));
			putback_lru_page(page);
			o_added(idx, l);
			counts[4]++;
		} else if (r < 90) {		/* removal, from a list or isolated */
			if (m->where == OFF)
				continue;
			if (m->where == ON) {
				assert_int_equal(isolate_lru_page(page), 0);
				o_del(idx);
			}
			ClearPageActive(page);
			ClearPageUnevictable(page);
			put_page(page);
			m->where = OFF;
			counts[5]++;
		} else {			/* mlock / munlock: read only at putback */
			if (PageMlocked(page))
				ClearPageMlocked(page);
			else
				SetPageMlocked(page);
			counts[6]++;
		}
		check_file_cache_flag_only(page);
		check_all();
	}
	for (i = 0; i < 7; i++)
		assert_true(counts[i] > 1000);
	assert_true(o_activate > 1000);

	/* Take everything off; every count returns to the allocator's 1. */
	for (i = 0; i < NPAGES; i++) {
		struct page *page = pm[i].page;

		if (pm[i].where == ON) {
			assert_int_equal(isolate_lru_page(page), 0);
			o_del(i);
		}
		if (pm[i].where != OFF) {
			ClearPageActive(page);
			ClearPageUnevictable(page);
			put_page(page);
			pm[i].where = OFF;
		}
		check_all();
	}
	assert_lru_empty();
	for (i = 0; i < NPAGES; i++) {
		ClearPageMlocked(pm[i].page);
		ClearPageReferenced(pm[i].page);
		assert_int_equal(page_count(pm[i].page), 1);
		__free_page(pm[i].page);
	}
	assert_int_equal(nr_free_pages(), free_at_boot);
	printf("# random_ops: add %lu, accessed %lu, activate %lu, isolate %lu, putback %lu, "
	       "remove %lu, mlock flips %lu; %lu activations\n", counts[0], counts[1], counts[2],
	       counts[3], counts[4], counts[5], counts[6], o_activate);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_arithmetic),
		cmocka_unit_test(test_page_is_file_cache_reads_swapbacked_only),
		cmocka_unit_test(test_page_lru),
		cmocka_unit_test_setup_teardown(test_add_each_list, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_add_at_head, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_mark_page_accessed_twice_activates, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_mark_page_accessed_off_lru, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_isolate_not_on_lru, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_putback, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_bugs_panic, boot, fake_zones_shutdown),
		cmocka_unit_test_setup_teardown(test_random_ops, boot, fake_zones_shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
