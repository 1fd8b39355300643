/*
 * Page reclaim: turning pages in use back into free ones when a zone runs
 * short (Linux v2.6.28's mm/vmscan.c, the split anon/file LRU of Rik van
 * Riel's series, with its names and function boundaries).
 *
 * Who reclaims.  The allocator (mm/page_alloc.c) wakes kswapd, a kernel
 * thread, when a zone falls below pages_low (wakeup_kswapd); kswapd frees
 * pages in the background (balance_pgdat) until every zone is above
 * pages_high, then sleeps.  An allocation that finds a zone below
 * pages_min reclaims for itself (try_to_free_pages, "direct reclaim")
 * before it retries.  Each priority's scan of the lists is followed by
 * shrink_slab (mm/shrinker.c), so the slab caches give back objects in
 * proportion to the LRU pages scanned.  Both set PF_MEMALLOC while they reclaim: their own
 * allocations (a bio for pageout, a block for ext2_writepage) may use the
 * reserves below pages_min and never recurse into reclaim.
 *
 * How hard.  A pass works at a priority, DEF_PRIORITY (12) down to 0: at
 * priority p, shrink_zone scans size >> p pages of each list, so the
 * first pass looks at 1/4096 of the memory and the last at all of it.
 * Amounts too small for a batch of SWAP_CLUSTER_MAX (32) wait in
 * zone->lru[l].nr_scan for the next call.  A pass stops as soon as it has
 * freed SWAP_CLUSTER_MAX pages.
 *
 * Which pages.  get_scan_ratio splits each pass between anon and file in
 * proportion to how cheap each type looks to reclaim: pages scanned per
 * page found in use (recent_scanned / recent_rotated), weighted by
 * swappiness (anon) against 200 - swappiness (file).  Without swap anon
 * pages cannot go anywhere, and the anon lists are not scanned at all.
 *
 * The life of a page, as its lists tell it (mm/swap.c puts pages on them):
 *
 *   ACTIVE ---- shrink_active_list: every page goes to the inactive list;
 *     ^         a referenced mapped page only counts as "rotated" for
 *     |         get_scan_ratio (Linux 2.6.28; 2.6.31 kept executable
 *     |         ones active)
 *     |                     v
 *     +---- activate --- INACTIVE ---- shrink_inactive_list isolates a
 *       (referenced and mapped,        batch from the tail and hands it to
 *        or mark_page_accessed         shrink_page_list, which decides per
 *        twice, or no swap for         page: keep (locked, writeback, hot
 *        an anon page)                 and dirty), activate, cull to
 *                                      UNEVICTABLE (!page_evictable:
 *                                      mlocked, or try_to_unmap found a
 *                                      locked VMA), or unmap, write if
 *                                      dirty, and free (an anon page
 *                                      first gets a swap slot, add_to_swap,
 *                                      whose entry try_to_unmap leaves in
 *                                      its PTEs; it is written by
 *                                      swap_writepage and freed from the
 *                                      swap cache).  UNEVICTABLE is
 *                                      never scanned; munlock and
 *                                      scan_mapping_unevictable_pages
 *                                      rescue pages from it (mm/mlock.c).
 *
 * The policy the split replaced (lru=single, include/mm/mmzone.h).  Linux
 * 2.6.27 kept one active and one inactive list per zone for both kinds
 * of page, and so does Pageturn when booted with lru=single; only the
 * policy differs, everything else in this file is shared.  shrink_zone
 * then is 2.6.27's (shrink_zone_single): each list is owed (size >>
 * priority) + 1 pages per pass, no anon/file split.  Its active list scan
 * deactivates unmapped pages, but keeps a mapped one unless
 * calc_reclaim_mapped says mapped memory may go (reclaim in distress,
 * much memory mapped, swappiness high, or the active list far larger
 * than the inactive), and even then keeps it if it was referenced or is
 * anonymous with no swap at all.  So a scan wades through mapped pages,
 * anon ones above all, that it will not deactivate: the cost the split
 * lists were made to avoid (docs/reclaim.md compares the two).
 *
 * A page taken off its list by isolate_lru_pages (or isolate_lru_page) is
 * "isolated": no PG_lru, and the list's reference is now the isolator's
 * (mm/swap.c).  Isolated pages are on the isolator's private list and are
 * touched by it alone.  Everything that can sleep (page_referenced's
 * trylock, writing a page, cond_resched) runs on isolated pages, never
 * under lru_lock.  When the isolator is done, each page is freed or put
 * back with putback_lru_page (or the batch equivalents here), which also
 * frees a page whose every user left while it was isolated.
 *
 * When a page may be freed.  A page cache page has one reference for the
 * cache; isolated, one more for us: page_count == 2 and no PTE.  Anything
 * else (a read() copying from it, a fault about to map it) holds a
 * reference of its own, and __remove_mapping then keeps the page.  The
 * test and the removal run without sleeping on one CPU with no
 * preemption, and interrupt handlers never take page references, so
 * nothing can take a reference in between (Linux freezes the count with
 * an atomic compare-and-exchange to close the same window on SMP).
 *
 * Zones that cannot be reclaimed.  zone->pages_scanned counts the pages
 * scanned since a page of the zone was last freed (the allocator zeroes
 * it).  Six times the zone's reclaimable pages scanned for nothing marks
 * the zone all_unreclaimable; later passes skip it except at
 * DEF_PRIORITY, and a free clears the mark.  try_to_free_pages reports
 * no progress, which is what sends the allocator to the OOM killer, only
 * when it freed nothing and every zone it may use is unreclaimable in
 * that sense (Linux 2.6.36's all_unreclaimable test; 2.6.28 trusted
 * kswapd's flag alone and could loop, or kill too early).  A zone with
 * writes in flight is never marked (zone_reclaimable).
 *
 * Where Pageturn differs from Linux 2.6.28:
 *   - a file's writepage is synchronous (ext2 waits for its bios), so
 *     pageout() returns with a file page written and shrink_page_list
 *     frees it in the same pass; only swap's writes are asynchronous, as
 *     in Linux: the page waits on the inactive list, under writeback,
 *     until its bio's end rotates it to the tail (pgrotated).  Every
 *     writepage returns with the page still locked, where Linux's unlocks
 *     it.  There is no second, synchronous lumpy pass.
 *   - under lru=split, without swap configured (total_swap_pages 0) the
 *     anon lists are neither scanned nor aged, at any priority (2.6.28
 *     still deactivated anon pages, and at priority 0 scanned them all
 *     only to activate them again; see Linux 2.6.31's "vmscan: don't
 *     shrink active anon list without swap" and its later fix to test
 *     total_swap_pages).
 *   - kswapd goes back to sleep after a pass that freed nothing, instead
 *     of starting over at DEF_PRIORITY forever (Linux 4.12's
 *     kswapd_failures, in its simplest form): the next allocation below
 *     pages_low wakes it again.
 *   - under lru=split a zone's reclaimable pages count anon only with
 *     swap (Linux 2.6.34's zone_reclaimable_pages; 2.6.28 counted every
 *     LRU page, as lru=single does).
 *   - no memory controller, no laptop mode, no swap token, no pagevecs.
 */
#include <drivers/blkdev.h>
#include <fs/fs.h>
#include <fs/vfs.h>
#include <mm/mm_inline.h>
#include <mm/page_alloc.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/shrinker.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/time.h>
#include <pageturn/wait.h>
#include <trace/events/vmscan.h>
#include <uapi/errno.h>

#include "internal.h"

int vm_swappiness = 60;
/* The pages the VM manages, set at boot (Linux 2.6.27's vm_total_pages):
 * calc_reclaim_mapped's measure of how much of memory is mapped. */
unsigned long vm_total_pages;
unsigned long nr_kswapd_wakeups;

/* Where kswapd sleeps: Linux's pgdat->kswapd_wait, for Pageturn's one node
 * (kept here so mm/mmzone.h stays free of the scheduler's headers). */
static DECLARE_WAIT_QUEUE_HEAD(kswapd_wait);

#define lru_to_page(head) (list_entry((head)->prev, struct page, lru))

struct scan_control {
	/* Pages looked at by shrink_page_list (mapped ones count twice, to
	 * press the slab caches harder when mapped pages are scanned). */
	unsigned long nr_scanned;
	/* Pages freed so far. */
	unsigned long nr_reclaimed;
	/* What the allocation that reclaims allows: __GFP_IO, __GFP_FS. */
	gfp_t gfp_mask;
	/* May dirty pages be written? */
	int may_writepage;
	/* May mapped pages be unmapped (and anon pages swapped)? */
	int may_swap;
	/* Pages to isolate at a time. */
	unsigned long swap_cluster_max;
	int swappiness;
	/* Output of shrink_zones: no zone was scanned. */
	int all_unreclaimable;
	/* The order of the allocation reclaim works for. */
	int order;
};

static bool current_is_kswapd(void)
{
	return current->flags & PF_KSWAPD;
}

/*
 * Reclaim that scanned without freeing enough gives the disks time to
 * finish what it wrote (congestion_wait: until a write request completes,
 * at most timeout).  With no write in flight nothing would end the wait
 * early and waiting frees nothing, so it only lets the other tasks run.
 */
static void reclaim_congestion_wait(long timeout)
{
	if (global_page_state(NR_WRITEBACK))
		congestion_wait(WRITE, timeout);
	else
		yield();
}

/* ---- what can be reclaimed -------------------------------------------- */

bool page_evictable(struct page *page, struct vm_area_struct *vma)
{
	if (mapping_unevictable(page_mapping(page)))
		return false;
	if (PageMlocked(page) || (vma && is_mlocked_vma(vma, page)))
		return false;
	return true;
}

/* A mapping some process maps (Linux's mapping_mapped). */
static bool mapping_mapped(struct address_space *mapping)
{
	return !list_empty(&mapping->i_mmap);
}

/*
 * Is the page in use by a process, so that its accessed bits mean
 * something?  Mapped now, or its file is mapped somewhere (Linux's
 * page_mapping_inuse).
 */
static bool page_mapping_inuse(struct page *page)
{
	struct address_space *mapping;

	if (page_mapped(page) || PageSwapCache(page))
		return true;
	mapping = page_mapping(page);
	return mapping && mapping_mapped(mapping);
}

/*
 * Linux 2.6.28's page_referenced counts PG_referenced (test and clear) as
 * one reference besides the young PTEs; Pageturn's rmap counts the PTEs
 * alone (mm/rmap.c), so the two halves are joined here.
 */
static int page_referenced_all(struct page *page, int is_locked)
{
	int referenced = TestClearPageReferenced(page) ? 1 : 0;

	return referenced + page_referenced(page, is_locked);
}

/*
 * The pages reclaim could free in a zone, the measure of how much
 * scanning is too much (zone_reclaimable): file pages always, anon pages
 * when swap has room for them.  Under lru=single anon pages count
 * always, as in Linux 2.6.27's 6 x (active + inactive): that policy's
 * scans go through them with or without swap, so they must count in
 * what the scanned pages are measured against.
 */
unsigned long zone_reclaimable_pages(struct zone *zone)
{
	unsigned long nr = zone_page_state(zone, NR_ACTIVE_FILE) +
			   zone_page_state(zone, NR_INACTIVE_FILE);

	if (nr_swap_pages > 0 || lru_single())
		nr += zone_page_state(zone, NR_ACTIVE_ANON) + zone_page_state(zone, NR_INACTIVE_ANON);
	return nr;
}

/* Pages on the four evictable lists (Linux 2.6.28's zone_lru_pages): the
 * measure shrink_slab weighs the LRU scan against. */
static unsigned long zone_lru_pages(struct zone *zone)
{
	return zone_page_state(zone, NR_ACTIVE_ANON) + zone_page_state(zone, NR_INACTIVE_ANON) +
	       zone_page_state(zone, NR_ACTIVE_FILE) + zone_page_state(zone, NR_INACTIVE_FILE);
}

/*
 * Scanned six times its reclaimable pages since the last free: give up.
 * Not while writes are in flight in the zone, though: its pages under
 * writeback (reclaim's own swap writes, which a slow disk keeps in flight
 * by the thousand) are freeable once their writes end, and declaring the
 * zone unreclaimable meanwhile would send the allocator to the OOM
 * killer with swap nearly empty.  A write that never ends still cannot
 * hang an allocation: the allocator bounds its rounds (mm/page_alloc.c).
 */
static bool zone_reclaimable(struct zone *zone)
{
	return zone_page_state(zone, NR_WRITEBACK) ||
	       zone->pages_scanned < zone_reclaimable_pages(zone) * 6;
}

/*
 * The target of the anon lists: keep inactive anon at least 1/ratio of
 * active anon, where the ratio grows with the square root of the zone's
 * size (setup_per_zone_inactive_ratio), so pages get time to be
 * referenced again on the inactive list without the list growing huge.
 */
bool inactive_anon_is_low(struct zone *zone)
{
	unsigned long active = zone_page_state(zone, NR_ACTIVE_ANON);
	unsigned long inactive = zone_page_state(zone, NR_INACTIVE_ANON);

	return inactive * zone->inactive_ratio < active;
}

/* ---- isolating pages from the LRU lists ------------------------------- */

/* isolate_lru_pages modes (Linux's). */
#define ISOLATE_INACTIVE 0	/* inactive pages of the list's type */
#define ISOLATE_ACTIVE   1	/* active pages of the list's type */
#define ISOLATE_BOTH     2	/* any evictable page (lumpy reclaim) */

/*
 * The "file" argument of the scanning functions: 0 anon, 1 file, or
 * LRU_ANY_TYPE for lru=single's lists, which hold both kinds.
 */
#define LRU_ANY_TYPE (-1)

/* The list a scan of type file works on: its inactive list, or with
 * active its active list. */
static enum lru_list scan_lru(int file, int active)
{
	int l = LRU_BASE + (active ? LRU_ACTIVE : 0);

	if (file != LRU_ANY_TYPE && file)
		l += LRU_FILE;
	return (enum lru_list)l;
}

/*
 * May page be isolated in this mode from a list of type file (any type
 * for LRU_ANY_TYPE)?  Called with zone->lru_lock held.  Returns 0, or -EINVAL for a page that does
 * not fit the mode (or is not on a list at all), -EBUSY for one whose
 * count says it is being freed (which cannot happen here: a listed page
 * holds the list's reference; kept for Linux's shape and as a check).
 */
static int __isolate_lru_page(struct page *page, int mode, int file)
{
	if (!PageLRU(page))
		return -EINVAL;
	if (mode != ISOLATE_BOTH && (!PageActive(page) != !mode))
		return -EINVAL;
	if (mode != ISOLATE_BOTH && file != LRU_ANY_TYPE &&
	    (!page_is_file_cache(page) != !file))
		return -EINVAL;
	if (PageUnevictable(page))
		return -EINVAL;
	if (page_count(page) <= 0)
		return -EBUSY;
	return 0;
}

/*
 * Move up to nr_to_scan pages from the tail of list l (src) to dst, taking
 * each off its list (the counter of its kind follows) with its reference.
 * Pages that do not fit the mode go back to the head of src.  For order
 * > 0 (lumpy reclaim, Linux 2.6.23, and seed patch 8/10 for the split
 * lists), every other page of the naturally aligned block of 2^order
 * pages around each page taken is taken too, whatever list it is on, so
 * that freeing them all frees the block.  *scanned gets the pages looked at from src.
 * Called with zone->lru_lock held.
 */
static unsigned long isolate_lru_pages(unsigned long nr_to_scan, struct zone *zone,
				       enum lru_list l, struct list_head *dst,
				       unsigned long *scanned, int order, int mode, int file)
{
	struct list_head *src = &zone->lru[l].list;
	unsigned long nr_taken = 0, scan;

	for (scan = 0; scan < nr_to_scan && !list_empty(src); scan++) {
		struct page *page = lru_to_page(src);
		unsigned long pfn, end_pfn, page_pfn;

		if (__isolate_lru_page(page, mode, file) != 0) {
			list_move(&page->lru, src);
			continue;
		}
		ClearPageLRU(page);
		del_page_from_lru_list(zone, page, page_lru(page));
		list_add(&page->lru, dst);
		nr_taken++;

		if (!order)
			continue;
		page_pfn = page_to_pfn(page);
		pfn = page_pfn & ~((1ul << order) - 1);
		end_pfn = pfn + (1ul << order);
		for (; pfn < end_pfn; pfn++) {
			struct page *cursor;

			if (pfn == page_pfn)
				continue;
			if (!pfn_valid(pfn))
				break;
			cursor = pfn_to_page(pfn);
			if (page_zone(cursor) != zone)
				continue;
			if (__isolate_lru_page(cursor, mode, file) != 0)
				continue;
			ClearPageLRU(cursor);
			del_page_from_lru_list(zone, cursor, page_lru(cursor));
			list_add(&cursor->lru, dst);
			nr_taken++;
			scan++;
		}
	}
	trace_mm_vmscan_lru_isolate(zone, order, nr_to_scan, scan, nr_taken, mode, l);
	*scanned = scan;
	return nr_taken;
}

/*
 * Clear PG_active on every page of a freshly isolated list, counting the
 * pages per list they came from.  Returns how many were active.
 */
static unsigned long clear_active_flags(struct list_head *page_list, unsigned long *count)
{
	unsigned long nr_active = 0;
	struct page *page;

	list_for_each_entry(page, page_list, lru) {
		enum lru_list l = (enum lru_list)(LRU_BASE + page_is_file_cache(page));

		if (PageActive(page)) {
			l = (enum lru_list)(l + LRU_ACTIVE);
			ClearPageActive(page);
			nr_active++;
		}
		count[l]++;
	}
	return nr_active;
}

/*
 * Called without zone->lru_lock; takes it.  The caller holds a reference,
 * so the page cannot be freed under us: where Linux needs
 * get_page_unless_zero to skip a page already on its way to the free
 * lists, here the list's own reference rules that out (the count of a
 * page on a list is at least 1), and that reference passes to the caller.
 */
int isolate_lru_page(struct page *page)
{
	struct zone *zone;
	uint64_t flags;
	int ret = -EBUSY;

	if (!PageLRU(page))
		return ret;
	zone = page_zone(page);
	spin_lock_irqsave(&zone->lru_lock, flags);
	if (PageLRU(page)) {
		if (page_count(page) <= 0)
			panic("isolate_lru_page: pfn %lu is on an LRU list with _count %d",
			      page_to_pfn(page), page_count(page));
		ClearPageLRU(page);
		del_page_from_lru_list(zone, page, page_lru(page));
		ret = 0;
	}
	spin_unlock_irqrestore(&zone->lru_lock, flags);
	return ret;
}

/*
 * An isolated page nobody else holds (page_count 1, the isolation
 * reference): its process exited or its file was truncated while we had
 * it.  Free it.
 */
static bool free_orphan(struct page *page)
{
	if (page_count(page) != 1)
		return false;
	ClearPageActive(page);
	ClearPageUnevictable(page);
	free_page_mlock(page);
	put_page(page);
	return true;
}

/*
 * Called without zone->lru_lock, on a page the caller isolated (no PG_lru).
 * The page goes back through lru_cache_add_lru, which takes a reference
 * for the list; then the isolation reference is dropped, after the lock
 * is released.  A page whose users all left meanwhile is freed instead.
 * A move from an evictable list to LRU_UNEVICTABLE counts as
 * unevictable_pgs_culled, the other way as _rescued.  Linux retries here
 * when a page put on the unevictable list became evictable meanwhile (a
 * race between CPUs over mlock); on one CPU nothing can change in
 * between.
 */
void putback_lru_page(struct page *page)
{
	bool active = TestClearPageActive(page);
	bool was_unevictable;
	enum lru_list lru;

	if (PageLRU(page))
		panic("putback_lru_page: pfn %lu is still on an LRU list", page_to_pfn(page));
	if (free_orphan(page))
		return;
	was_unevictable = TestClearPageUnevictable(page);
	if (page_evictable(page, NULL))
		lru = (enum lru_list)(LRU_BASE + page_is_file_cache(page) +
				      (active ? LRU_ACTIVE : 0));
	else
		lru = LRU_UNEVICTABLE;
	lru_cache_add_lru(page, lru);
	if (was_unevictable && lru != LRU_UNEVICTABLE)
		count_vm_event(UNEVICTABLE_PGRESCUED);
	else if (!was_unevictable && lru == LRU_UNEVICTABLE)
		count_vm_event(UNEVICTABLE_PGCULLED);
	put_page(page);		/* the isolation reference */
}

/*
 * page, on LRU_UNEVICTABLE, may have become evictable: move it to its
 * inactive list if so (Linux's check_move_unevictable_page).  Called with
 * zone->lru_lock held.
 */
static void check_move_unevictable_page(struct page *page, struct zone *zone)
{
	enum lru_list l;

	if (!page_evictable(page, NULL))
		return;
	ClearPageUnevictable(page);
	l = (enum lru_list)(LRU_INACTIVE_ANON + page_is_file_cache(page));
	del_page_from_lru_list(zone, page, LRU_UNEVICTABLE);
	add_page_to_lru_list(zone, page, l);
	count_vm_event(UNEVICTABLE_PGRESCUED);
}

void scan_mapping_unevictable_pages(struct address_space *mapping)
{
	struct page *pages[16];
	pgoff_t next = 0;
	unsigned int i, n;
	uint64_t flags;

	/* Every page in the mapping's tree (mapping->host need not be a VFS
	 * inode, so its size is not read). */
	while ((n = find_get_pages(mapping, next, ARRAY_SIZE(pages), pages))) {
		for (i = 0; i < n; i++) {
			struct page *page = pages[i];
			struct zone *zone = page_zone(page);

			next = MAX(next, page->index + 1);
			spin_lock_irqsave(&zone->lru_lock, flags);
			if (PageLRU(page) && PageUnevictable(page))
				check_move_unevictable_page(page, zone);
			spin_unlock_irqrestore(&zone->lru_lock, flags);
			page_cache_release(page);
		}
		count_vm_events(UNEVICTABLE_PGSCANNED, n);
	}
}

/*
 * Put a reclaim batch back: each page at the head of the list its flags
 * name, keeping the isolation reference as the list's again; orphans are
 * freed and unevictable pages go through putback_lru_page.  Pages put
 * back active count as rotated.  Called without zone->lru_lock.
 */
static void putback_pages(struct zone *zone, struct list_head *page_list)
{
	uint64_t flags;

	while (!list_empty(page_list)) {
		struct page *page = lru_to_page(page_list);

		list_del(&page->lru);
		if (free_orphan(page))
			continue;
		if (!page_evictable(page, NULL)) {
			putback_lru_page(page);
			continue;
		}
		spin_lock_irqsave(&zone->lru_lock, flags);
		SetPageLRU(page);
		add_page_to_lru_list(zone, page, page_lru(page));
		if (PageActive(page))
			zone->recent_rotated[!!page_is_file_cache(page)]++;
		spin_unlock_irqrestore(&zone->lru_lock, flags);
	}
}

/* ---- writing and freeing one page ------------------------------------- */

typedef enum {
	PAGE_KEEP,	/* cannot write it now: leave it on the inactive list */
	PAGE_ACTIVATE,	/* its owner cannot write it: move it to the active list */
	PAGE_SUCCESS,	/* written */
	PAGE_CLEAN,	/* it was clean already */
} pageout_t;

/*
 * Write a dirty page for reclaim (Linux's pageout).  Called with the page
 * locked, isolated and unmapped; returns with it still locked.  A file's
 * writepage waits for its I/O; swap_writepage does not: PAGE_SUCCESS with
 * PG_writeback still set means the write is in flight, and PG_reclaim
 * asks its end to rotate the page to the inactive tail
 * (rotate_reclaimable_page), where the next scan frees it.
 *
 * The write may sleep.  The page lock keeps the page in its mapping
 * across it (truncation and the inode's eviction lock the page first), so
 * the mapping is still the page's when this returns; a fault may map the
 * page again meanwhile, which __remove_mapping's count test then sees.
 */
static pageout_t pageout(struct page *page, struct address_space *mapping)
{
	int err;

	/* Someone else holds it (a read() copying, a fault mapping it): writing
	 * it would not free it.  2 = the cache's reference and ours. */
	if (page_count(page) != 2 || !mapping)
		return PAGE_KEEP;
	if (!mapping->a_ops->writepage)
		return PAGE_ACTIVATE;
	/* Its write to this slot failed: the slot retires once its users let
	 * it go, and the page stays in memory till then. */
	if (PageSwapCache(page) && PageError(page))
		return PAGE_ACTIVATE;
	if (!clear_page_dirty_for_io(page))
		return PAGE_CLEAN;
	SetPageReclaim(page);
	err = mapping->a_ops->writepage(mapping, page);
	if (err) {
		ClearPageReclaim(page);
		set_page_dirty(page);
		/* A swap-backed page its owner cannot write (no slot, locked
		 * tmpfs) is in use; a file page may be written next time. */
		return err == AOP_WRITEPAGE_ACTIVATE ? PAGE_ACTIVATE : PAGE_KEEP;
	}
	if (!PageWriteback(page))
		ClearPageReclaim(page);		/* the write is over already */
	if (PageSwapCache(page) && PageError(page))
		return PAGE_ACTIVATE;		/* ... and failed */
	trace_mm_vmscan_writepage(page);
	inc_zone_page_state(page, NR_VMSCAN_WRITE);
	return PAGE_SUCCESS;
}

/*
 * Take a locked, isolated, clean, unmapped page out of its mapping if we
 * hold the only references but the cache's (Linux's __remove_mapping).
 * On success the cache's reference is dropped and the page is ours alone.
 */
static int __remove_mapping(struct address_space *mapping, struct page *page)
{
	if (page_count(page) != 2 || PageDirty(page) || page_mapped(page) ||
	    page_mapping(page) != mapping)
		return 0;
	if (PageSwapCache(page)) {
		delete_from_swap_cache(page);	/* the slot and the cache's reference */
		return 1;
	}
	remove_from_page_cache(page);
	page_cache_release(page);	/* the cache's reference */
	return 1;
}

/*
 * Decide the fate of each page of page_list, isolated from the inactive
 * lists, in Linux 2.6.28's order.  Freed pages leave the list; the others
 * stay on it, PG_active set on those to activate, for the caller to put
 * back.  Returns the number freed.
 */
static unsigned long shrink_page_list(struct list_head *page_list, struct scan_control *sc)
{
	LIST_HEAD(ret_pages);
	unsigned long nr_reclaimed = 0, pgactivate = 0;

	while (!list_empty(page_list)) {
		struct page *page = lru_to_page(page_list);
		struct address_space *mapping;
		int may_enter_fs, referenced;

		list_del(&page->lru);
		if (free_orphan(page)) {
			nr_reclaimed++;
			continue;
		}
		if (!trylock_page(page))
			goto keep;
		sc->nr_scanned++;

		if (!page_evictable(page, NULL))
			goto cull_mlocked;
		if (!sc->may_swap && page_mapped(page))
			goto keep_locked;
		/* Double the slab pressure for mapped and swap cache pages. */
		if (page_mapped(page) || PageSwapCache(page))
			sc->nr_scanned++;

		may_enter_fs = (sc->gfp_mask & __GFP_FS) ||
			       (PageSwapCache(page) && (sc->gfp_mask & __GFP_IO));

		/* Its write is in flight (ours from an earlier pass, or
		 * someone's writepages): not ours to wait for. */
		if (PageWriteback(page))
			goto keep_locked;

		/* Every PTE and tmpfs entry naming its slot let go while its
		 * write was in flight (an exit, a munmap): nobody can reach
		 * the data.  Let the slot go rather than write it again (or,
		 * were that write the one that failed, keep the page for good),
		 * and free the page unless someone still holds it. */
		if (PageSwapCache(page) && !page_mapped(page) && try_to_free_swap(page)) {
			unlock_page(page);
			if (!free_orphan(page))
				goto keep;
			count_vm_event(PGSTEAL_ANON);
			nr_reclaimed++;
			continue;
		}

		referenced = page_referenced_all(page, 1);
		/* In active use (and not lumpy reclaim's victim): activate it. */
		if (sc->order <= PAGE_ALLOC_COSTLY_ORDER && referenced && page_mapping_inuse(page))
			goto activate_locked;

		/* Anonymous memory needs a place in swap first. */
		if (PageAnon(page) && !PageSwapCache(page)) {
			if (!(sc->gfp_mask & __GFP_IO))
				goto keep_locked;
			/* Mapped in a locked VMA, it must stay: cull it. */
			if (try_to_munlock(page) == SWAP_MLOCK)
				goto cull_mlocked;
			if (!add_to_swap(page))
				goto activate_locked;
			may_enter_fs = 1;
		}

		mapping = page_mapping(page);
		/* Take it from every process, moving their dirty bits to it. */
		if (page_mapped(page) && mapping) {
			switch (try_to_unmap(page, 0)) {
			case SWAP_FAIL:
				goto activate_locked;
			case SWAP_AGAIN:
				goto keep_locked;
			case SWAP_MLOCK:
				goto cull_mlocked;
			case SWAP_SUCCESS:
				break;
			}
		}

		if (PageDirty(page)) {
			/* A hot dirty page would be dirtied again soon. */
			if (sc->order <= PAGE_ALLOC_COSTLY_ORDER && referenced)
				goto keep_locked;
			if (!may_enter_fs || !sc->may_writepage)
				goto keep_locked;
			switch (pageout(page, mapping)) {
			case PAGE_KEEP:
				goto keep_locked;
			case PAGE_ACTIVATE:
				goto activate_locked;
			case PAGE_SUCCESS:
				/* Still in flight (its end rotates it to the tail
				 * for the next scan), or dirtied by a write() or
				 * fault while the write slept. */
				if (PageDirty(page) || PageWriteback(page))
					goto keep_locked;
				mapping = page_mapping(page);
				break;
			case PAGE_CLEAN:
				break;
			}
		}

		if (!mapping || !__remove_mapping(mapping, page))
			goto keep_locked;

		unlock_page(page);
		count_vm_event(page_is_file_cache(page) ? PGSTEAL_FILE : PGSTEAL_ANON);
		if (!free_orphan(page))
			panic("shrink_page_list: pfn %lu still has _count %d after leaving its mapping",
			      page_to_pfn(page), page_count(page));
		nr_reclaimed++;
		continue;

cull_mlocked:
		unlock_page(page);
		putback_lru_page(page);
		continue;

activate_locked:
		SetPageActive(page);
		pgactivate++;
keep_locked:
		unlock_page(page);
keep:
		list_add(&page->lru, &ret_pages);
	}
	list_splice(&ret_pages, page_list);
	count_vm_events(PGACTIVATE, pgactivate);
	return nr_reclaimed;
}

unsigned long reclaim_pages(struct list_head *page_list)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_writepage = 1,
		.may_swap = 1,
		.swap_cluster_max = SWAP_CLUSTER_MAX,
		.swappiness = vm_swappiness,
	};
	unsigned int old_memalloc = current->flags & PF_MEMALLOC;
	unsigned long nr;

	/* As any reclaimer (Linux 5.4's memalloc_noreclaim_save): what it
	 * allocates, a bio for a swap write above all, comes from the
	 * reserves and never reclaims in turn with pages locked here. */
	current->flags |= PF_MEMALLOC;
	nr = shrink_page_list(page_list, &sc);
	current->flags = (current->flags & ~PF_MEMALLOC) | old_memalloc;
	while (!list_empty(page_list)) {
		struct page *page = lru_to_page(page_list);

		list_del(&page->lru);
		putback_lru_page(page);
	}
	return nr;
}

/* ---- the lists -------------------------------------------------------- */

/*
 * Isolate up to max_scan pages from the tail of the inactive list of type
 * file (lru=single's one inactive list for LRU_ANY_TYPE), in batches of
 * swap_cluster_max, and try to free them.  Lumpy reclaim takes whole
 * blocks from any list for costly orders, or for any order > 0 once the
 * priority has fallen (Linux 2.6.28's rule).  Returns the number freed.
 */
static unsigned long shrink_inactive_list(unsigned long max_scan, struct zone *zone,
					  struct scan_control *sc, int priority, int file)
{
	unsigned long nr_scanned = 0, nr_reclaimed = 0;
	int mode = ISOLATE_INACTIVE;
	uint64_t flags;

	if (sc->order > PAGE_ALLOC_COSTLY_ORDER)
		mode = ISOLATE_BOTH;
	else if (sc->order && priority < DEF_PRIORITY - 2)
		mode = ISOLATE_BOTH;

	do {
		LIST_HEAD(page_list);
		unsigned long count[NR_LRU_LISTS] = { 0 };
		unsigned long nr_taken, nr_scan, nr_active, nr_freed;

		spin_lock_irqsave(&zone->lru_lock, flags);
		nr_taken = isolate_lru_pages(sc->swap_cluster_max, zone, scan_lru(file, 0),
					     &page_list, &nr_scan, sc->order, mode, file);
		nr_active = clear_active_flags(&page_list, count);
		zone->pages_scanned += nr_scan;
		zone->recent_scanned[0] += count[LRU_INACTIVE_ANON] + count[LRU_ACTIVE_ANON];
		zone->recent_scanned[1] += count[LRU_INACTIVE_FILE] + count[LRU_ACTIVE_FILE];
		spin_unlock_irqrestore(&zone->lru_lock, flags);
		count_vm_events(PGDEACTIVATE, nr_active);

		nr_scanned += nr_scan;
		nr_freed = shrink_page_list(&page_list, sc);
		nr_reclaimed += nr_freed;

		if (current_is_kswapd()) {
			__count_zone_vm_events(PGSCAN_KSWAPD, zone, nr_scan);
			count_vm_events(KSWAPD_STEAL, nr_freed);
		} else {
			__count_zone_vm_events(PGSCAN_DIRECT, zone, nr_scan);
		}
		__count_zone_vm_events(PGSTEAL, zone, nr_freed);
		if (file == LRU_ANY_TYPE) {
			/* One list, both kinds: count each by what was taken. */
			count_vm_events(PGSCAN_ANON, count[LRU_INACTIVE_ANON] + count[LRU_ACTIVE_ANON]);
			count_vm_events(PGSCAN_FILE, count[LRU_INACTIVE_FILE] + count[LRU_ACTIVE_FILE]);
		} else {
			count_vm_events(file ? PGSCAN_FILE : PGSCAN_ANON, nr_scan);
		}

		putback_pages(zone, &page_list);
		if (nr_taken == 0)
			break;
		cond_resched();
	} while (nr_scanned < max_scan);
	trace_mm_vmscan_lru_shrink_inactive(nr_scanned, nr_reclaimed, priority, file);
	return nr_reclaimed;
}

/* Scanned three times its LRU pages since a page was last freed (Linux
 * 2.6.27's zone_is_near_oom). */
static bool zone_is_near_oom(struct zone *zone)
{
	return zone->pages_scanned >= zone_lru_pages(zone) * 3;
}

/*
 * Should lru=single's active list scan deactivate mapped pages?  Linux
 * 2.6.27's calc_reclaim_mapped, the rule the split LRU replaced:
 *
 *   distress      = 100 >> min(prev_priority, priority)   0: no trouble,
 *                                                          100: great trouble
 *   mapped_ratio  = (NR_FILE_MAPPED + NR_ANON_PAGES) * 100 / vm_total_pages
 *   swap_tendency = mapped_ratio / 2 + distress + swappiness
 *   imbalance     = active / (inactive + 1) * (vm_swappiness + 1) / 100
 *                   * mapped_ratio / 100       (each step rounded down)
 *   reclaim_mapped  iff  swap_tendency + imbalance >= 100
 *
 * so mapped memory is left alone until reclaim is in trouble, much of
 * memory is mapped, or the active list dwarfs the inactive one; a zone
 * near OOM always says yes.  swappiness is the scan's (sc->swappiness),
 * the imbalance term reads the global vm_swappiness, as 2.6.27 does.
 */
int calc_reclaim_mapped(struct zone *zone, int priority, int swappiness)
{
	long mapped_ratio, distress, swap_tendency, imbalance;

	if (zone_is_near_oom(zone))
		return 1;
	distress = 100 >> MIN(zone->prev_priority, priority);
	mapped_ratio = (long)((global_page_state(NR_FILE_MAPPED) +
			       global_page_state(NR_ANON_PAGES)) * 100 / vm_total_pages);
	swap_tendency = mapped_ratio / 2 + distress + swappiness;

	imbalance = (long)((zone_page_state(zone, NR_ACTIVE_ANON) +
			    zone_page_state(zone, NR_ACTIVE_FILE)) /
			   (zone_page_state(zone, NR_INACTIVE_ANON) +
			    zone_page_state(zone, NR_INACTIVE_FILE) + 1));
	imbalance *= vm_swappiness + 1;
	imbalance /= 100;
	imbalance *= mapped_ratio;
	imbalance /= 100;
	swap_tendency += imbalance;
	return swap_tendency >= 100;
}

/*
 * Move up to nr_pages pages from the tail of the active list of type file
 * (lru=single's one active list for LRU_ANY_TYPE) to the inactive list of
 * their kind, or keep them active, as the policy says:
 *
 *   lru=split (Linux 2.6.28): every page goes.  A mapped page found
 *     referenced counts as rotated, which is what get_scan_ratio weighs,
 *     but is deactivated like the rest and must prove itself again on
 *     the inactive list.
 *   lru=single (Linux 2.6.27): an unmapped page goes; a mapped page stays
 *     unless reclaim_mapped (calc_reclaim_mapped), and even then if it is
 *     anonymous with no swap at all or was referenced.  The pages kept
 *     count as rotated.
 *
 * Mlocked pages are culled to the unevictable list under both.
 */
static void shrink_active_list(unsigned long nr_pages, struct zone *zone,
			       struct scan_control *sc, int priority, int file)
{
	LIST_HEAD(l_hold);
	LIST_HEAD(l_active);
	LIST_HEAD(l_inactive);
	unsigned long pgscanned, pgmoved, scanned[2] = { 0, 0 }, rotated[2] = { 0, 0 };
	int reclaim_mapped = 0;
	uint64_t flags;

	if (file == LRU_ANY_TYPE && sc->may_swap)
		reclaim_mapped = calc_reclaim_mapped(zone, priority, sc->swappiness);

	spin_lock_irqsave(&zone->lru_lock, flags);
	isolate_lru_pages(nr_pages, zone, scan_lru(file, 1), &l_hold, &pgscanned, sc->order,
			  ISOLATE_ACTIVE, file);
	zone->pages_scanned += pgscanned;
	spin_unlock_irqrestore(&zone->lru_lock, flags);
	__count_zone_vm_events(PGREFILL, zone, pgscanned);

	while (!list_empty(&l_hold)) {
		struct page *page = lru_to_page(&l_hold);
		int type = !!page_is_file_cache(page);

		cond_resched();
		list_del(&page->lru);
		scanned[type]++;
		if (!page_evictable(page, NULL)) {
			putback_lru_page(page);
			continue;
		}
		if (file == LRU_ANY_TYPE) {
			if (page_mapped(page) &&
			    (!reclaim_mapped || (total_swap_pages == 0 && PageAnon(page)) ||
			     page_referenced_all(page, 0))) {
				rotated[type]++;
				list_add(&page->lru, &l_active);
				continue;
			}
		} else if (page_mapping_inuse(page) && page_referenced_all(page, 0)) {
			/* page_referenced_all clears PG_referenced only for pages in use. */
			rotated[type]++;
		}
		list_add(&page->lru, &l_inactive);
	}

	pgmoved = 0;
	spin_lock_irqsave(&zone->lru_lock, flags);
	zone->recent_scanned[0] += scanned[0];
	zone->recent_scanned[1] += scanned[1];
	zone->recent_rotated[0] += rotated[0];
	zone->recent_rotated[1] += rotated[1];
	while (!list_empty(&l_inactive)) {
		struct page *page = lru_to_page(&l_inactive);

		list_del(&page->lru);
		if (page_count(page) == 1) {	/* orphan: free it below */
			list_add(&page->lru, &l_hold);
			continue;
		}
		ClearPageActive(page);
		SetPageLRU(page);
		add_page_to_lru_list(zone, page, page_lru(page));
		pgmoved++;
	}
	while (!list_empty(&l_active)) {
		struct page *page = lru_to_page(&l_active);

		list_del(&page->lru);
		if (page_count(page) == 1) {
			list_add(&page->lru, &l_hold);
			continue;
		}
		SetPageLRU(page);
		add_page_to_lru_list(zone, page, page_lru(page));
	}
	spin_unlock_irqrestore(&zone->lru_lock, flags);
	count_vm_events(PGDEACTIVATE, pgmoved);
	trace_mm_vmscan_lru_shrink_active(pgscanned, pgmoved, rotated[0] + rotated[1], priority, file);
	putback_pages(zone, &l_hold);
}

/*
 * Linux 2.6.28's shrink_list: the active file list is always aged; the
 * active anon list only when the inactive anon list is below its target
 * (otherwise its share scans the inactive anon list: 2.6.28's quirk).
 */
static unsigned long shrink_list(enum lru_list l, unsigned long nr_to_scan, struct zone *zone,
				 struct scan_control *sc, int priority)
{
	int file = is_file_lru(l);

	if (l == LRU_ACTIVE_FILE) {
		shrink_active_list(nr_to_scan, zone, sc, priority, file);
		return 0;
	}
	if (l == LRU_ACTIVE_ANON && inactive_anon_is_low(zone)) {
		shrink_active_list(nr_to_scan, zone, sc, priority, file);
		return 0;
	}
	return shrink_inactive_list(nr_to_scan, zone, sc, priority, file);
}

/*
 * How much of a pass goes to anon (percent[0]) and file (percent[1])
 * pages (Linux 2.6.28's get_scan_ratio).  The pressure on a type is
 * inversely proportional to the share of its scanned pages that turned
 * out to be in use, weighted by swappiness for anon and 200 - swappiness
 * for file.  recent_scanned and recent_rotated are halved when a type's
 * scans exceed a quarter of its pages, so old history fades.
 */
void get_scan_ratio(struct zone *zone, int swappiness, unsigned long *percent)
{
	unsigned long anon, file, free, anon_prio, file_prio, ap, fp;
	uint64_t flags;

	anon = zone_page_state(zone, NR_ACTIVE_ANON) + zone_page_state(zone, NR_INACTIVE_ANON);
	file = zone_page_state(zone, NR_ACTIVE_FILE) + zone_page_state(zone, NR_INACTIVE_FILE);
	free = zone_page_state(zone, NR_FREE_PAGES);

	/* No free swap: no use scanning anon pages. */
	if (nr_swap_pages <= 0) {
		percent[0] = 0;
		percent[1] = 100;
		return;
	}
	/* Too few file pages to make a difference: go for anon. */
	if (file + free <= zone->pages_high) {
		percent[0] = 100;
		percent[1] = 0;
		return;
	}

	spin_lock_irqsave(&zone->lru_lock, flags);
	if (zone->recent_scanned[0] > anon / 4) {
		zone->recent_scanned[0] /= 2;
		zone->recent_rotated[0] /= 2;
	}
	if (zone->recent_scanned[1] > file / 4) {
		zone->recent_scanned[1] /= 2;
		zone->recent_rotated[1] /= 2;
	}
	anon_prio = (unsigned long)swappiness;
	file_prio = 200 - (unsigned long)swappiness;
	ap = (anon_prio + 1) * (zone->recent_scanned[0] + 1) / (zone->recent_rotated[0] + 1);
	fp = (file_prio + 1) * (zone->recent_scanned[1] + 1) / (zone->recent_rotated[1] + 1);
	spin_unlock_irqrestore(&zone->lru_lock, flags);

	percent[0] = 100 * ap / (ap + fp + 1);
	percent[1] = 100 - percent[0];
}

/*
 * One pass over a zone at priority under lru=single (Linux 2.6.27's
 * shrink_zone): each of the two lists is owed (size >> priority) + 1
 * pages, the 1 "just to make sure that the kernel will slowly sift
 * through the active list" however small the shift makes it; what is
 * below a batch waits in nr_scan.  Then batches of swap_cluster_max,
 * from the active and the inactive list in turn, each over both kinds
 * of page.  Returns pages freed.
 */
static unsigned long shrink_zone_single(int priority, struct zone *zone, struct scan_control *sc)
{
	unsigned long swap_cluster_max = sc->swap_cluster_max;
	unsigned long nr_active, nr_inactive, nr_to_scan, nr_reclaimed = 0;
	unsigned long *nr_scan_active = &zone->lru[LRU_BASE + LRU_ACTIVE].nr_scan;
	unsigned long *nr_scan_inactive = &zone->lru[LRU_BASE].nr_scan;

	*nr_scan_active += ((zone_page_state(zone, NR_ACTIVE_ANON) +
			     zone_page_state(zone, NR_ACTIVE_FILE)) >> priority) + 1;
	nr_active = *nr_scan_active;
	*nr_scan_inactive += ((zone_page_state(zone, NR_INACTIVE_ANON) +
			       zone_page_state(zone, NR_INACTIVE_FILE)) >> priority) + 1;
	nr_inactive = *nr_scan_inactive;
	if (nr_inactive >= swap_cluster_max)
		*nr_scan_inactive = 0;
	else
		nr_inactive = 0;
	if (nr_active >= swap_cluster_max)
		*nr_scan_active = 0;
	else
		nr_active = 0;

	while (nr_active || nr_inactive) {
		if (nr_active) {
			nr_to_scan = MIN(nr_active, swap_cluster_max);
			nr_active -= nr_to_scan;
			shrink_active_list(nr_to_scan, zone, sc, priority, LRU_ANY_TYPE);
		}
		if (nr_inactive) {
			nr_to_scan = MIN(nr_inactive, swap_cluster_max);
			nr_inactive -= nr_to_scan;
			nr_reclaimed += shrink_inactive_list(nr_to_scan, zone, sc, priority,
							     LRU_ANY_TYPE);
		}
	}
	return nr_reclaimed;
}

/*
 * One pass over a zone at priority under lru=split (Linux 2.6.28's
 * shrink_zone): work out each list's share, carry what is too small for a
 * batch in nr_scan, and scan in batches of swap_cluster_max, round robin,
 * until the inactive anon and both file lists have had theirs.  Then age
 * the active anon list if the inactive one is below its target.  Returns
 * pages freed.
 */
static unsigned long shrink_zone_split(int priority, struct zone *zone, struct scan_control *sc)
{
	unsigned long nr[NR_LRU_LISTS], percent[2], nr_reclaimed = 0;
	unsigned long swap_cluster_max = sc->swap_cluster_max;
	enum lru_list l;

	get_scan_ratio(zone, sc->swappiness, percent);
	for_each_evictable_lru(l) {
		int file = is_file_lru(l);
		unsigned long scan = zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l));

		/* Without swap there is nowhere for anon pages to go. */
		if (!file && total_swap_pages <= 0) {
			nr[l] = 0;
			continue;
		}
		if (priority) {
			scan >>= priority;
			scan = scan * percent[file] / 100;
		}
		zone->lru[l].nr_scan += scan;
		nr[l] = zone->lru[l].nr_scan;
		if (nr[l] >= swap_cluster_max)
			zone->lru[l].nr_scan = 0;
		else
			nr[l] = 0;
	}

	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		for_each_evictable_lru(l) {
			if (nr[l]) {
				unsigned long nr_to_scan = MIN(nr[l], swap_cluster_max);

				nr[l] -= nr_to_scan;
				nr_reclaimed += shrink_list(l, nr_to_scan, zone, sc, priority);
			}
		}
	}

	/* Even when no anon page was to be evicted, keep the anon lists'
	 * active/inactive balance (only with swap: see the top). */
	if (total_swap_pages > 0 && inactive_anon_is_low(zone))
		shrink_active_list(SWAP_CLUSTER_MAX, zone, sc, priority, 0);
	return nr_reclaimed;
}

/*
 * One pass over a zone at priority, by the policy lru= chose, under a
 * block plug (as Linux since 3.1: "vmscan: add block plug for page
 * reclaim"): the swap and file writes pageout() starts in
 * the pass are held and dispatched together, when the pass ends or when
 * the reclaimer sleeps, so pages given neighbouring swap slots
 * (scan_swap_map hands them out in runs) reach the disk as one request
 * instead of one request each.  Nothing in the pass waits for I/O without
 * sleeping, and schedule() flushes the plug before every sleep, so no
 * reclaimer waits on a write it holds back itself.  Returns pages freed.
 */
static unsigned long shrink_zone(int priority, struct zone *zone, struct scan_control *sc)
{
	struct blk_plug plug;
	unsigned long nr_reclaimed;

	blk_start_plug(&plug);
	if (lru_single())
		nr_reclaimed = shrink_zone_single(priority, zone, sc);
	else
		nr_reclaimed = shrink_zone_split(priority, zone, sc);
	blk_finish_plug(&plug);
	return nr_reclaimed;
}

/* Record that reclaim scanned zone at priority (Linux's
 * note_zone_scanning_priority): prev_priority keeps the lowest. */
static void note_zone_scanning_priority(struct zone *zone, int priority)
{
	if (priority < zone->prev_priority)
		zone->prev_priority = priority;
}

/* ---- direct reclaim --------------------------------------------------- */

/* The zones an allocation preferring preferred_zone may use: it and every
 * populated zone below it, as the allocator's zonelist. */
#define for_each_zone_below(zone, preferred_zone) \
	for (zone = (preferred_zone); zone >= (preferred_zone)->zone_pgdat->node_zones; zone--) \
		if (populated_zone(zone))

/*
 * One pass over the zones at priority.  A zone already found unreclaimable
 * is left to kswapd, except in the first, gentlest pass.
 */
static void shrink_zones(int priority, struct zone *preferred_zone, struct scan_control *sc)
{
	struct zone *zone;

	sc->all_unreclaimable = 1;
	for_each_zone_below(zone, preferred_zone) {
		note_zone_scanning_priority(zone, priority);
		if (zone_is_all_unreclaimable(zone) && priority != DEF_PRIORITY)
			continue;
		sc->all_unreclaimable = 0;
		sc->nr_reclaimed += shrink_zone(priority, zone, sc);
	}
}

/* Is there no zone left worth scanning (Linux 2.6.36's all_unreclaimable)? */
static bool all_unreclaimable(struct zone *preferred_zone)
{
	struct zone *zone;

	for_each_zone_below(zone, preferred_zone)
		if (!zone_is_all_unreclaimable(zone) && zone_reclaimable(zone))
			return false;
	return true;
}

static unsigned long do_try_to_free_pages(struct zone *preferred_zone, struct scan_control *sc)
{
	unsigned long lru_pages = 0;
	struct zone *zone;
	int priority;

	count_vm_event(ALLOCSTALL);
	for_each_zone_below(zone, preferred_zone)
		lru_pages += zone_lru_pages(zone);
	for (priority = DEF_PRIORITY; priority >= 0; priority--) {
		sc->nr_scanned = 0;
		shrink_zones(priority, preferred_zone, sc);
		/* The slab caches get pressure in proportion to the LRU scan. */
		shrink_slab(sc->nr_scanned, sc->gfp_mask, lru_pages);
		if (sc->nr_reclaimed >= sc->swap_cluster_max)
			break;
		/* Writing is always allowed here (no laptop mode): Linux also
		 * wakes the flusher once 1.5 batches were scanned; Pageturn's
		 * flusher runs on its own timer. */
		if (sc->nr_scanned && priority < DEF_PRIORITY - 2)
			reclaim_congestion_wait(HZ / 10);
	}
	/* The next reclaimer of these zones starts out knowing how deep this
	 * one had to go: lru=single's distress reads it (Linux 2.6.28 and
	 * 2.6.27 alike). */
	if (priority < 0)
		priority = 0;
	for_each_zone_below(zone, preferred_zone)
		zone->prev_priority = priority;

	if (sc->nr_reclaimed)
		return sc->nr_reclaimed;
	/* Nothing freed, but a zone may still give something: let the
	 * allocator retry rather than kill. */
	return all_unreclaimable(preferred_zone) ? 0 : 1;
}

/*
 * Direct reclaim for an allocation of 2^order pages that may use
 * preferred_zone and the zones below it.  Called by the allocator with
 * PF_MEMALLOC set, interrupts on; sleeps.  Returns the pages freed, 1
 * when nothing was freed but the zones may still give some, or 0 when
 * every zone is unreclaimable (the allocator's cue for the OOM killer).
 */
unsigned long try_to_free_pages(struct zone *preferred_zone, int order, gfp_t gfp_mask)
{
	struct scan_control sc = {
		.gfp_mask = gfp_mask,
		.may_writepage = 1,
		.may_swap = 1,
		.swap_cluster_max = SWAP_CLUSTER_MAX,
		.swappiness = vm_swappiness,
		.order = order,
	};
	unsigned long nr_reclaimed;

	if (!(current->flags & PF_MEMALLOC))
		panic("try_to_free_pages: called without PF_MEMALLOC");
	trace_mm_vmscan_direct_reclaim_begin(order, gfp_mask);
	nr_reclaimed = do_try_to_free_pages(preferred_zone, &sc);
	trace_mm_vmscan_direct_reclaim_end(nr_reclaimed);
	return nr_reclaimed;
}

/* ---- kswapd ----------------------------------------------------------- */

/*
 * Free pages until every zone is above pages_high for order (Linux
 * 2.6.28's balance_pgdat).  Each priority first finds the highest zone
 * that needs work (ageing the anon lists on the way), then shrinks the
 * zones from the lowest up to it, since the allocator takes from the
 * highest first.  A zone with more than 8 x pages_high free is left
 * alone.  Returns the pages freed.
 */
static unsigned long balance_pgdat(pg_data_t *pgdat, int order)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_swap = 1,
		.swap_cluster_max = SWAP_CLUSTER_MAX,
		.swappiness = vm_swappiness,
		.order = order,
	};
	int temp_priority[MAX_NR_ZONES];
	unsigned long total_scanned;
	int all_zones_ok, priority, i;

loop_again:
	total_scanned = 0;
	sc.nr_reclaimed = 0;
	sc.may_writepage = 1;
	count_vm_event(PAGEOUTRUN);
	for (i = 0; i < MAX_NR_ZONES; i++)
		temp_priority[i] = DEF_PRIORITY;

	for (priority = DEF_PRIORITY; priority >= 0; priority--) {
		unsigned long lru_pages = 0;
		int end_zone = 0;

		all_zones_ok = 1;
		/* The highest zone below its high watermark. */
		for (i = MAX_NR_ZONES - 1; i >= 0; i--) {
			struct zone *zone = pgdat->node_zones + i;

			if (!populated_zone(zone))
				continue;
			if (zone_is_all_unreclaimable(zone) && priority != DEF_PRIORITY)
				continue;
			/* Background ageing of the anon lists, so their pages get
			 * a chance to be referenced before reclaim comes (the
			 * split lists only: 2.6.27 had no anon target). */
			if (!lru_single() && total_swap_pages > 0 && inactive_anon_is_low(zone))
				shrink_active_list(SWAP_CLUSTER_MAX, zone, &sc, priority, 0);
			if (!zone_watermark_ok(zone, order, zone->pages_high, 0, 0)) {
				end_zone = i;
				break;
			}
		}
		if (i < 0)
			goto out;
		for (i = 0; i <= end_zone; i++)
			lru_pages += zone_lru_pages(pgdat->node_zones + i);

		for (i = 0; i <= end_zone; i++) {
			struct zone *zone = pgdat->node_zones + i;
			unsigned long nr_slab;

			if (!populated_zone(zone))
				continue;
			if (zone_is_all_unreclaimable(zone) && priority != DEF_PRIORITY)
				continue;
			if (!zone_watermark_ok(zone, order, zone->pages_high, end_zone, 0))
				all_zones_ok = 0;
			temp_priority[i] = priority;
			sc.nr_scanned = 0;
			note_zone_scanning_priority(zone, priority);
			/* Equal pressure on every zone, unless one has plenty free. */
			if (!zone_watermark_ok(zone, order, 8 * zone->pages_high, end_zone, 0))
				sc.nr_reclaimed += shrink_zone(priority, zone, &sc);
			nr_slab = shrink_slab(sc.nr_scanned, GFP_KERNEL, lru_pages);
			total_scanned += sc.nr_scanned;
			if (zone_is_all_unreclaimable(zone))
				continue;
			/* Nothing came from the slab caches either: give up on it. */
			if (nr_slab == 0 && !zone_reclaimable(zone))
				zone_set_flag(zone, ZONE_ALL_UNRECLAIMABLE);
		}
		if (all_zones_ok)
			break;
		if (total_scanned && priority < DEF_PRIORITY - 2)
			reclaim_congestion_wait(HZ / 10);
		/* Enough for now: don't let the priority fall while the
		 * allocators are also freeing. */
		if (sc.nr_reclaimed >= SWAP_CLUSTER_MAX)
			break;
	}
out:
	for (i = 0; i < MAX_NR_ZONES; i++)
		pgdat->node_zones[i].prev_priority = temp_priority[i];
	if (!all_zones_ok && sc.nr_reclaimed) {
		cond_resched();
		/* A high-order request that cannot be met: settle for order 0. */
		if (sc.nr_reclaimed < SWAP_CLUSTER_MAX)
			order = sc.order = 0;
		goto loop_again;
	}
	return sc.nr_reclaimed;
}

/*
 * The kswapd thread (one per node; Pageturn has node 0): sleep until an
 * allocation wakes it, balance the node, sleep again.  An allocation of a
 * larger order while it worked makes it go round at once.  PF_MEMALLOC:
 * its allocations may use the reserves; PF_SWAPWRITE: it may write pages.
 */
static int kswapd(void *data)
{
	pg_data_t *pgdat = data;
	int order = 0;

	current->flags |= PF_MEMALLOC | PF_SWAPWRITE | PF_KSWAPD;
	for (;;) {
		DEFINE_WAIT(wait);
		int new_order;
		uint64_t flags = local_irq_save();

		prepare_to_wait(&kswapd_wait, &wait, TASK_INTERRUPTIBLE);
		new_order = pgdat->kswapd_max_order;
		pgdat->kswapd_max_order = 0;
		if (order < new_order) {
			order = new_order;
		} else {
			trace_mm_vmscan_kswapd_sleep(0);
			schedule();
			order = pgdat->kswapd_max_order;
		}
		finish_wait(&kswapd_wait, &wait);
		local_irq_restore(flags);
		trace_mm_vmscan_kswapd_wake(0, MAX_NR_ZONES - 1, order);
		balance_pgdat(pgdat, order);
	}
	return 0;
}

/*
 * An allocation found zone below pages_low for order.  Any context: the
 * allocation itself goes on.  Records the order and wakes kswapd if it
 * sleeps (Linux's wakeup_kswapd).
 */
void wakeup_kswapd(struct zone *zone, int order, gfp_t gfp_mask)
{
	pg_data_t *pgdat = zone->zone_pgdat;

	if (!populated_zone(zone))
		return;
	if (zone_watermark_ok(zone, order, zone->pages_low, 0, 0))
		return;
	if (pgdat->kswapd_max_order < order)
		pgdat->kswapd_max_order = order;
	nr_kswapd_wakeups++;
	if (!pgdat->kswapd || list_empty(&kswapd_wait.task_list))
		return;
	trace_mm_vmscan_wakeup_kswapd(zone, order, gfp_mask);
	wake_up(&kswapd_wait);
}

/* Start kswapd0. */
void kswapd_init(void)
{
	pg_data_t *pgdat = NODE_DATA(0);

	pgdat->kswapd = kthread_create(kswapd, pgdat, "kswapd0");
	if (!pgdat->kswapd)
		panic("kswapd_init: cannot create kswapd0");
	wake_up_process(pgdat->kswapd);
}
