/*
 * Host unit tests for lru=single, the policy the split LRU replaced (Linux
 * 2.6.27's), on the same fake machine as test_vmscan (fake_zones.c: DMA
 * pfn 0-4096, DMA32 up to 64 MiB).  mm/vmscan.c is included, not linked,
 * so that its static functions (calc_reclaim_mapped's helpers,
 * shrink_active_list, shrink_zone) can be called one at a time; the rmap
 * below is a fake in which a test decides which pages are mapped (their
 * _mapcount) and which are referenced.
 *
 *   - both kinds of page on one inactive and one active list, the file
 *     lists empty, the counters per kind: 40,000 random operations
 *     (add, mark_page_accessed, isolate and put back, take off) checked
 *     against an oracle, with every list walked;
 *   - calc_reclaim_mapped against 2.6.27's formula, written again below,
 *     over random zones, mapped amounts, priorities and swappiness, and a
 *     few cases worked by hand;
 *   - shrink_active_list's decision for each kind of page, with
 *     reclaim_mapped off and on, with and without swap;
 *   - shrink_zone's nr_scan accumulation, (size >> priority) + 1 per
 *     call, against an oracle;
 *   - try_to_free_pages over mapped anon and file pages without swap:
 *     file pages freed, no anon page freed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* Before any other host header: the kernel's own (sched.h's sigset_t)
 * would clash with libc's. */
#include "../../mm/vmscan.c"

#include <mm/page_alloc.h>
#include <mm/slab.h>

#include "fake_zones.h"
#include "kernel_stubs.h"

#define ZONE(i) (&contig_page_data.node_zones[i])

/* xorshift64: the tests' random numbers, reproducible from a seed. */
static uint64_t rnd_state;

static void srnd(uint64_t seed)
{
	rnd_state = seed * 0x9e3779b97f4a7c15ull + 1;
}

static unsigned long rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned long)(rnd_state >> 1);
}


/* ---- the fake rmap ------------------------------------------------------ */

/* Pages whose next page_referenced() finds a young PTE. */
#define MAX_YOUNG 64
static struct page *young[MAX_YOUNG];
static int nr_young;

static void make_young(struct page *page)
{
	assert_true(nr_young < MAX_YOUNG);
	young[nr_young++] = page;
}

/* Test and clear, as ptep_clear_flush_young does for the real PTEs. */
int page_referenced(struct page *page, int is_locked)
{
	(void)is_locked;
	for (int i = 0; i < nr_young; i++)
		if (young[i] == page) {
			young[i] = young[--nr_young];
			return 1;
		}
	return 0;
}

/* The fake mapping holds no page reference: unmapping is _mapcount alone. */
int try_to_unmap(struct page *page, int migration)
{
	(void)migration;
	page->_mapcount = -1;
	return SWAP_SUCCESS;
}

/* No VMA here is VM_LOCKED, and writeback has no PTE to clean. */
int try_to_munlock(struct page *page)
{
	(void)page;
	return SWAP_SUCCESS;
}

int page_mkclean(struct page *page)
{
	(void)page;
	return 0;
}

void unmap_mapping_range(struct address_space *mapping, uint64_t holebegin, uint64_t holelen)
{
	(void)mapping;
	(void)holebegin;
	(void)holelen;
}

/* ---- the machine -------------------------------------------------------- */

static int boot(void **state)
{
	(void)state;
	fake_zones_boot_small();
	kmem_cache_init();
	nr_swap_pages = 0;
	total_swap_pages = 0;
	lru_policy = LRU_POLICY_SINGLE;
	vm_total_pages = totalram_pages;
	return 0;
}



static unsigned long lru_counter(struct zone *zone, enum lru_list l)
{
	return zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l));
}

/*
 * The lru=single invariants, by walking every list of every zone: the file
 * list heads are empty; the inactive (active) list holds exactly the pages
 * the two inactive (active) counters count, kind by kind; every page on
 * it has PG_lru, and PG_active iff it is the active list; the unevictable
 * list is its counter's length.
 */
static void check_single_lists(void)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = ZONE(z);

		assert_true(list_empty(&zone->lru[LRU_INACTIVE_FILE].list));
		assert_true(list_empty(&zone->lru[LRU_ACTIVE_FILE].list));
		for (int active = 0; active <= 1; active++) {
			unsigned long n[2] = { 0, 0 };
			struct page *page;

			list_for_each_entry(page, &zone->lru[LRU_BASE + active].list, lru) {
				assert_true(PageLRU(page));
				assert_int_equal(!!PageActive(page), active);
				assert_false(PageUnevictable(page));
				assert_ptr_equal(page_zone(page), zone);
				n[!!page_is_file_cache(page)]++;
			}
			assert_int_equal(n[0], lru_counter(zone, (enum lru_list)(LRU_BASE + active)));
			assert_int_equal(n[1], lru_counter(zone, (enum lru_list)(LRU_BASE + LRU_FILE +
										active)));
		}
		{
			unsigned long n = 0;
			struct page *page;

			list_for_each_entry(page, &zone->lru[LRU_UNEVICTABLE].list, lru) {
				assert_true(PageLRU(page) && PageUnevictable(page));
				n++;
			}
			assert_int_equal(n, lru_counter(zone, LRU_UNEVICTABLE));
		}
	}
}

static bool on_list_head(struct page *page, enum lru_list head)
{
	struct page *p;

	list_for_each_entry(p, &page_zone(page)->lru[head].list, lru)
		if (p == page)
			return true;
	return false;
}

/* Take a listed page off its list and free it (count 2: ours and the list's). */
static void free_listed(struct page *page)
{
	assert_int_equal(isolate_lru_page(page), 0);
	ClearPageActive(page);
	ClearPageUnevictable(page);
	ClearPageMlocked(page);
	put_page(page);			/* the list's */
	page->mapping = NULL;
	page->_mapcount = -1;
	ClearPageReferenced(page);
	put_page(page);			/* ours */
}

/* ---- the lists ---------------------------------------------------------- */

#define NR_RANDOM_PAGES 200

/* The oracle's view of a page: which list it is counted on (-1: none) and
 * whether PG_referenced is set. */
struct oracle_page {
	int lru;
	bool referenced;
};

static void test_lists_hold_both_kinds(void **state)
{
	struct page *page[NR_RANDOM_PAGES];
	struct oracle_page o[NR_RANDOM_PAGES];
	unsigned long free0 = nr_free_pages(), activations0 = fake_vm_event(PGACTIVATE), activations = 0;

	(void)state;
	for (int i = 0; i < NR_RANDOM_PAGES; i++) {
		page[i] = alloc_page(GFP_KERNEL);
		assert_non_null(page[i]);
		if (i % 2)
			SetPageSwapBacked(page[i]);
		o[i].lru = -1;
		o[i].referenced = false;
	}
	srnd(27);
	for (int step = 0; step < 40000; step++) {
		int i = (int)(rnd() % NR_RANDOM_PAGES);
		struct page *p = page[i];
		int file = page_is_file_cache(p);

		switch (rnd() % 4) {
		case 0:		/* onto a list, inactive or active */
			if (o[i].lru >= 0)
				break;
			o[i].lru = LRU_BASE + file + (rnd() % 2 ? LRU_ACTIVE : 0);
			lru_cache_add_lru(p, (enum lru_list)o[i].lru);
			break;
		case 1:		/* a software access */
			mark_page_accessed(p);
			if (o[i].lru >= 0 && !is_active_lru((enum lru_list)o[i].lru) &&
			    o[i].referenced) {
				o[i].lru += LRU_ACTIVE;
				o[i].referenced = false;
				activations++;
			} else if (!o[i].referenced) {
				o[i].referenced = true;
			}
			break;
		case 2:		/* isolated and put back */
			if (o[i].lru < 0) {
				assert_int_equal(isolate_lru_page(p), -EBUSY);
				break;
			}
			get_page(p);
			assert_int_equal(isolate_lru_page(p), 0);
			assert_false(PageLRU(p));
			put_page(p);
			putback_lru_page(p);
			break;
		case 3:		/* taken off for good */
			if (o[i].lru < 0)
				break;
			assert_int_equal(isolate_lru_page(p), 0);
			ClearPageActive(p);
			put_page(p);
			o[i].lru = -1;
			break;
		}
		if (o[i].lru >= 0) {
			assert_int_equal(page_lru(p), o[i].lru);
			assert_true(on_list_head(p, physical_lru((enum lru_list)o[i].lru)));
		}
		assert_int_equal(!!PageReferenced(p), o[i].referenced);
		if (step % 500 == 0) {
			unsigned long want[NR_LRU_LISTS] = { 0 };

			for (int k = 0; k < NR_RANDOM_PAGES; k++)
				if (o[k].lru >= 0)
					want[o[k].lru]++;
			for (int l = 0; l < NR_LRU_LISTS; l++)
				assert_int_equal(lru_counter(ZONE(1), (enum lru_list)l) +
						 lru_counter(ZONE(0), (enum lru_list)l), want[l]);
			check_single_lists();
		}
	}
	check_single_lists();
	assert_int_equal(fake_vm_event(PGACTIVATE) - activations0, activations);
	/* Both kinds really shared the lists. */
	for (int i = 0; i < NR_RANDOM_PAGES; i++) {
		if (o[i].lru >= 0)
			free_listed(page[i]);
		else
			put_page(page[i]);
	}
	check_single_lists();
	assert_int_equal(nr_free_pages(), free0);
}

/* ---- calc_reclaim_mapped ------------------------------------------------- */

/* Linux 2.6.27's calc_reclaim_mapped, from its source: the oracle. */
static int oracle_reclaim_mapped(unsigned long active, unsigned long inactive,
				 unsigned long pages_scanned, int prev_priority, int priority,
				 unsigned long mapped, unsigned long total, int swappiness,
				 int global_swappiness)
{
	long mapped_ratio, distress, swap_tendency, imbalance;

	if (pages_scanned >= (active + inactive) * 3)
		return 1;
	distress = 100 >> (prev_priority < priority ? prev_priority : priority);
	mapped_ratio = (long)(mapped * 100 / total);
	swap_tendency = mapped_ratio / 2 + distress + swappiness;
	imbalance = (long)(active / (inactive + 1));
	imbalance = imbalance * (global_swappiness + 1) / 100;
	imbalance = imbalance * mapped_ratio / 100;
	return swap_tendency + imbalance >= 100;
}

struct reclaim_mapped_case {
	unsigned long aa, ia, af, inf, scanned, file_mapped, anon_pages, total;
	int prev_priority, priority, swappiness;
	int want;
};

static void set_zone_for(struct zone *zone, const struct reclaim_mapped_case *c)
{
	zone->vm_stat[NR_ACTIVE_ANON] = (long)c->aa;
	zone->vm_stat[NR_INACTIVE_ANON] = (long)c->ia;
	zone->vm_stat[NR_ACTIVE_FILE] = (long)c->af;
	zone->vm_stat[NR_INACTIVE_FILE] = (long)c->inf;
	zone->pages_scanned = c->scanned;
	zone->prev_priority = c->prev_priority;
	vm_stat[NR_FILE_MAPPED] = (long)c->file_mapped;
	vm_stat[NR_ANON_PAGES] = (long)c->anon_pages;
	vm_total_pages = c->total;
	vm_swappiness = c->swappiness;
}

static void test_calc_reclaim_mapped(void **state)
{
	/* Worked by hand from the formula. */
	static const struct reclaim_mapped_case cases[] = {
		/* nothing mapped, no trouble, swappiness 60: 0 + 0 + 60 */
		{ 500, 500, 500, 500, 0, 0, 0, 10000, 12, 12, 60, 0 },
		/* priority 0: distress 100 */
		{ 500, 500, 500, 500, 0, 0, 0, 10000, 12, 0, 60, 1 },
		/* an earlier reclaim got to priority 1: distress 50, 50 + 60 */
		{ 500, 500, 500, 500, 0, 0, 0, 10000, 1, 12, 60, 1 },
		/* swappiness 100 needs nothing else */
		{ 500, 500, 500, 500, 0, 0, 0, 10000, 12, 12, 100, 1 },
		/* 50% mapped: 25 + 0 + 60 = 85, no imbalance (2000 / 1001 = 1,
		 * * 61 / 100 = 0) */
		{ 1000, 500, 1000, 500, 0, 2500, 2500, 10000, 12, 12, 60, 0 },
		/* the same with active 100 x inactive: 2000 / 21 = 95, * 61 / 100
		 * = 57, * 50 / 100 = 28: 85 + 28 = 113 */
		{ 1000, 10, 1000, 10, 0, 2500, 2500, 10000, 12, 12, 60, 1 },
		/* near OOM: scanned 3 x the LRU pages */
		{ 500, 500, 500, 500, 6000, 0, 0, 10000, 12, 12, 0, 1 },
		{ 500, 500, 500, 500, 5999, 0, 0, 10000, 12, 12, 0, 0 },
	};
	struct zone *zone = ZONE(1);
	long saved[NR_VM_ZONE_STAT_ITEMS], saved_global[NR_VM_ZONE_STAT_ITEMS];
	unsigned long saved_total = vm_total_pages;
	int saved_prev = zone->prev_priority, saved_swappiness = vm_swappiness;

	(void)state;
	memcpy(saved, zone->vm_stat, sizeof(saved));
	memcpy(saved_global, vm_stat, sizeof(saved_global));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_zone_for(zone, &cases[i]);
		assert_int_equal(calc_reclaim_mapped(zone, cases[i].priority, cases[i].swappiness),
				 cases[i].want);
	}

	srnd(2627);
	for (int i = 0; i < 50000; i++) {
		struct reclaim_mapped_case c;
		int sc_swappiness;

		c.aa = rnd() % 200000;
		c.ia = rnd() % (rnd() % 8 ? 200000 : 50);
		c.af = rnd() % 200000;
		c.inf = rnd() % (rnd() % 8 ? 200000 : 50);
		c.scanned = rnd() % 4 ? rnd() % 100000 :
			    (c.aa + c.ia + c.af + c.inf) * 3 - 1 + (unsigned long)(rnd() % 3);
		c.total = 1000 + rnd() % 4000000;
		c.file_mapped = rnd() % (c.total / 2 + 1);
		c.anon_pages = rnd() % (c.total / 2 + 1);
		c.prev_priority = (int)(rnd() % (DEF_PRIORITY + 1));
		c.priority = (int)(rnd() % (DEF_PRIORITY + 1));
		c.swappiness = (int)(rnd() % 101);
		sc_swappiness = rnd() % 4 ? c.swappiness : (int)(rnd() % 101);
		set_zone_for(zone, &c);
		assert_int_equal(calc_reclaim_mapped(zone, c.priority, sc_swappiness),
				 oracle_reclaim_mapped(c.aa + c.af, c.ia + c.inf, c.scanned,
						       c.prev_priority, c.priority,
						       c.file_mapped + c.anon_pages, c.total,
						       sc_swappiness, c.swappiness));
	}
	memcpy(zone->vm_stat, saved, sizeof(saved));
	memcpy(vm_stat, saved_global, sizeof(saved_global));
	vm_total_pages = saved_total;
	zone->prev_priority = saved_prev;
	zone->pages_scanned = 0;
	vm_swappiness = saved_swappiness;
}

/* ---- shrink_active_list's decisions -------------------------------------- */

enum kind {
	FILE_UNMAPPED_REF,	/* unmapped, PG_referenced: deactivated all the same */
	FILE_MAPPED_REF,	/* mapped, young PTE: stays */
	FILE_MAPPED,		/* mapped, not young: goes iff reclaim_mapped */
	ANON_MAPPED,		/* anonymous, mapped, not young: stays without swap */
	ANON_MAPPED_REF,	/* anonymous, young: stays */
	TMPFS_UNMAPPED,		/* swap-backed but not anonymous, unmapped: goes */
	MLOCKED,		/* culled to the unevictable list */
	NR_KINDS
};

static struct anon_vma fake_anon_vma;
static struct address_space fake_file;

static struct page *new_active_page(enum kind k)
{
	struct page *page = alloc_page(GFP_KERNEL);

	assert_non_null(page);
	page->index = k;
	switch (k) {
	case ANON_MAPPED:
	case ANON_MAPPED_REF:
		page->mapping = (struct address_space *)((unsigned long)&fake_anon_vma |
							 PAGE_MAPPING_ANON);
		SetPageSwapBacked(page);
		break;
	case TMPFS_UNMAPPED:
		SetPageSwapBacked(page);
		break;
	default:
		page->mapping = &fake_file;
		break;
	}
	if (k != FILE_UNMAPPED_REF && k != TMPFS_UNMAPPED)
		page->_mapcount = 0;
	if (k == FILE_UNMAPPED_REF)
		SetPageReferenced(page);
	if (k == FILE_MAPPED_REF || k == ANON_MAPPED_REF)
		make_young(page);
	if (k == MLOCKED)
		SetPageMlocked(page);
	lru_cache_add_lru(page, (enum lru_list)(LRU_ACTIVE + page_is_file_cache(page)));
	return page;
}

/* Run shrink_active_list over one page of each kind; want_active[k] says
 * whether kind k should still be active afterwards. */
static void active_list_round(int swappiness, long swap, const bool want_active[NR_KINDS],
			      int want_reclaim_mapped)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_writepage = 1,
		.may_swap = 1,
		.swap_cluster_max = SWAP_CLUSTER_MAX,
		.swappiness = swappiness,
	};
	struct zone *zone = ZONE(1);
	struct page *page[NR_KINDS];
	unsigned long refill0 = fake_vm_event(PGREFILL_DMA32), deact0 = fake_vm_event(PGDEACTIVATE);
	unsigned long rotated0[2], moved = 0, kept[2] = { 0, 0 };

	total_swap_pages = nr_swap_pages = swap;
	zone->prev_priority = DEF_PRIORITY;
	zone->pages_scanned = 0;
	for (int k = 0; k < NR_KINDS; k++)
		page[k] = new_active_page((enum kind)k);
	rotated0[0] = zone->recent_rotated[0];
	rotated0[1] = zone->recent_rotated[1];
	assert_int_equal(calc_reclaim_mapped(zone, DEF_PRIORITY, swappiness), want_reclaim_mapped);

	shrink_active_list(NR_KINDS, zone, &sc, DEF_PRIORITY, LRU_ANY_TYPE);

	assert_int_equal(fake_vm_event(PGREFILL_DMA32) - refill0, NR_KINDS);
	for (int k = 0; k < NR_KINDS; k++) {
		struct page *p = page[k];

		assert_true(PageLRU(p));
		if (k == MLOCKED) {
			assert_true(PageUnevictable(p));
			continue;
		}
		assert_int_equal(!!PageActive(p), want_active[k]);
		assert_true(on_list_head(p, want_active[k] ? LRU_BASE + LRU_ACTIVE : LRU_BASE));
		if (want_active[k])
			kept[!!page_is_file_cache(p)]++;
		else
			moved++;
	}
	/* 2.6.27 tests PG_referenced only through page_referenced, which
	 * an unmapped page never reaches: the flag is left for the
	 * inactive list's scan. */
	assert_true(PageReferenced(page[FILE_UNMAPPED_REF]));
	assert_int_equal(fake_vm_event(PGDEACTIVATE) - deact0, moved);
	assert_int_equal(zone->recent_rotated[0] - rotated0[0], kept[0]);
	assert_int_equal(zone->recent_rotated[1] - rotated0[1], kept[1]);
	check_single_lists();

	for (int k = 0; k < NR_KINDS; k++)
		free_listed(page[k]);
	nr_young = 0;
	total_swap_pages = nr_swap_pages = 0;
	check_single_lists();
}

static void test_shrink_active_list(void **state)
{
	/* Nothing mapped system-wide, no trouble, swappiness 0: no
	 * reclaim_mapped, so every mapped page stays. */
	static const bool off[NR_KINDS] = {
		[FILE_MAPPED_REF] = true, [FILE_MAPPED] = true,
		[ANON_MAPPED] = true, [ANON_MAPPED_REF] = true,
	};
	/* swappiness 100: reclaim_mapped; referenced pages and, without
	 * swap, anonymous ones stay. */
	static const bool on[NR_KINDS] = {
		[FILE_MAPPED_REF] = true, [ANON_MAPPED] = true, [ANON_MAPPED_REF] = true,
	};
	/* The same with swap: the unreferenced anonymous page goes too. */
	static const bool on_swap[NR_KINDS] = {
		[FILE_MAPPED_REF] = true, [ANON_MAPPED_REF] = true,
	};
	int saved = vm_swappiness;

	(void)state;
	address_space_init(&fake_file, NULL, NULL, false);
	vm_swappiness = 0;
	active_list_round(0, 0, off, 0);
	vm_swappiness = 100;
	active_list_round(100, 0, on, 1);
	active_list_round(100, 1000, on_swap, 1);
	vm_swappiness = saved;
}

/* ---- shrink_zone's accumulation ------------------------------------------ */

/* Unmapped page-cache pages of one file: all reclaim may free. */
static const struct address_space_operations no_aops;

static struct page *new_cache_page(struct address_space *mapping, pgoff_t index, bool active)
{
	struct page *page = alloc_page(GFP_KERNEL);

	assert_non_null(page);
	assert_int_equal(add_to_page_cache_lru(page, mapping, index, GFP_KERNEL), 0);
	SetPageUptodate(page);
	unlock_page(page);
	if (active)
		activate_page(page);
	page_cache_release(page);	/* the cache's and the list's are left */
	return page;
}

static void drop_mapping(struct address_space *mapping, pgoff_t n)
{
	for (pgoff_t i = 0; i < n; i++) {
		struct page *page = find_get_page(mapping, i);

		if (!page)
			continue;
		lock_page(page);
		remove_from_page_cache(page);
		unlock_page(page);
		if (isolate_lru_page(page) == 0) {
			ClearPageActive(page);
			page_cache_release(page);
		}
		page_cache_release(page);	/* the cache's */
		page_cache_release(page);	/* find_get_page's */
	}
}

static void test_shrink_zone_accumulates(void **state)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_writepage = 1,
		.may_swap = 1,
		.swap_cluster_max = SWAP_CLUSTER_MAX,
		.swappiness = 60,
	};
	struct address_space mapping;
	struct zone *zone = ZONE(1);
	unsigned long want_a = 0, want_i = 0, scans = 0, refills = 0;
	const pgoff_t n = 3000;

	(void)state;
	address_space_init(&mapping, NULL, &no_aops, false);
	for (pgoff_t i = 0; i < n; i++)
		new_cache_page(&mapping, i, i % 3 == 0);
	zone->lru[LRU_BASE].nr_scan = zone->lru[LRU_BASE + LRU_ACTIVE].nr_scan = 0;
	check_single_lists();

	/* The oracle: before each call, each list is owed (size >> p) + 1
	 * more; at SWAP_CLUSTER_MAX the debt is paid in full and cleared. */
	for (int call = 0; call < 400; call++) {
		int priority = call < 300 ? DEF_PRIORITY : DEF_PRIORITY - 4;
		unsigned long a = lru_counter(zone, LRU_ACTIVE_ANON) + lru_counter(zone, LRU_ACTIVE_FILE);
		unsigned long in = lru_counter(zone, LRU_INACTIVE_ANON) +
				   lru_counter(zone, LRU_INACTIVE_FILE);
		unsigned long refill0 = fake_vm_event(PGREFILL_DMA32), scan0 = fake_vm_event(PGSCAN_FILE);

		want_a += (a >> priority) + 1;
		want_i += (in >> priority) + 1;
		shrink_zone(priority, zone, &sc);
		if (want_a >= SWAP_CLUSTER_MAX) {
			assert_int_equal(fake_vm_event(PGREFILL_DMA32) - refill0, MIN(want_a, a));
			want_a = 0;
			refills++;
		} else {
			assert_int_equal(fake_vm_event(PGREFILL_DMA32), refill0);
		}
		if (want_i >= SWAP_CLUSTER_MAX) {
			assert_true(fake_vm_event(PGSCAN_FILE) > scan0);
			want_i = 0;
			scans++;
		} else {
			assert_int_equal(fake_vm_event(PGSCAN_FILE), scan0);
		}
		assert_int_equal(zone->lru[LRU_BASE + LRU_ACTIVE].nr_scan, want_a);
		assert_int_equal(zone->lru[LRU_BASE].nr_scan, want_i);
		assert_int_equal(zone->lru[LRU_ACTIVE_FILE].nr_scan, 0);
		assert_int_equal(zone->lru[LRU_INACTIVE_FILE].nr_scan, 0);
	}
	/* 300 calls at priority 12 on lists below 4096 pages: one batch
	 * every 32 calls for each list; the rest at 8 come faster. */
	assert_true(refills >= 9 && scans >= 9);
	check_single_lists();
	zone->lru[LRU_BASE].nr_scan = zone->lru[LRU_BASE + LRU_ACTIVE].nr_scan = 0;
	drop_mapping(&mapping, n);
	check_single_lists();
	assert_int_equal(global_page_state(NR_FILE_PAGES), 0);
}

/* ---- a whole reclaim ---------------------------------------------------- */

#define NR_ANON 64
#define NR_FILE 400

static void test_try_to_free_pages_without_swap(void **state)
{
	struct address_space mapping;
	struct page *anon[NR_ANON];
	unsigned long free0, ret, steal_anon0 = fake_vm_event(PGSTEAL_ANON), steal_file0 = fake_vm_event(PGSTEAL_FILE);
	unsigned long left = 0;

	(void)state;
	address_space_init(&mapping, NULL, &no_aops, false);
	for (int i = 0; i < NR_ANON; i++) {
		anon[i] = alloc_page(GFP_KERNEL);
		assert_non_null(anon[i]);
		anon[i]->mapping = (struct address_space *)((unsigned long)&fake_anon_vma |
							    PAGE_MAPPING_ANON);
		anon[i]->_mapcount = 0;
		SetPageSwapBacked(anon[i]);
		lru_cache_add_lru(anon[i], i % 4 ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON);
	}
	for (pgoff_t i = 0; i < NR_FILE; i++)
		new_cache_page(&mapping, i, i % 2 == 0);
	free0 = nr_free_pages();
	/* What the scanned pages are measured against counts anon pages,
	 * swap or not: this policy's scans go through them. */
	assert_int_equal(zone_reclaimable_pages(ZONE(1)), zone_lru_pages(ZONE(1)));
	assert_true(zone_lru_pages(ZONE(1)) >= NR_ANON + NR_FILE);

	current->flags |= PF_MEMALLOC;
	ret = try_to_free_pages(ZONE(1), 0, GFP_KERNEL);
	current->flags &= ~PF_MEMALLOC;

	assert_true(ret >= SWAP_CLUSTER_MAX);
	assert_int_equal(fake_vm_event(PGSTEAL_ANON), steal_anon0);
	assert_int_equal(fake_vm_event(PGSTEAL_FILE) - steal_file0, ret);
	assert_int_equal(nr_free_pages() - free0, ret);
	for (pgoff_t i = 0; i < NR_FILE; i++) {
		struct page *p = find_get_page(&mapping, i);

		if (p) {
			left++;
			page_cache_release(p);
		}
	}
	assert_int_equal(left, NR_FILE - ret);
	/* No anon page went anywhere: each is still listed, and those the
	 * scan met on the inactive list were activated (add_to_swap fails). */
	for (int i = 0; i < NR_ANON; i++) {
		assert_true(PageLRU(anon[i]) && page_count(anon[i]) == 2);
		if (i % 4)
			assert_true(PageActive(anon[i]));
	}
	check_single_lists();

	for (int i = 0; i < NR_ANON; i++)
		free_listed(anon[i]);
	drop_mapping(&mapping, NR_FILE);
	check_single_lists();
	assert_int_equal(global_page_state(NR_FILE_PAGES), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_hold_both_kinds),
		cmocka_unit_test(test_calc_reclaim_mapped),
		cmocka_unit_test(test_shrink_active_list),
		cmocka_unit_test(test_shrink_zone_accumulates),
		cmocka_unit_test(test_try_to_free_pages_without_swap),
	};

	return cmocka_run_group_tests(tests, boot, fake_zones_shutdown);
}
