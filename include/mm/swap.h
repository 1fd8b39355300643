/*
 * Memory totals and page reclaim's entry points (Linux's
 * include/linux/swap.h, v2.6.28 names).
 *
 * The page allocator calls reclaim in two places (mm/page_alloc.c):
 *   wakeup_kswapd      when an allocation finds its zones below pages_low
 *   try_to_free_pages  direct reclaim, when they are below pages_min and
 *                      the caller may sleep (__GFP_WAIT)
 * mm/vmscan.c implements both, and kswapd.
 */
#ifndef MM_SWAP_H
#define MM_SWAP_H

#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mmzone.h>

struct address_space;
struct vm_area_struct;

/* Pages handed to the page allocator at boot: MemTotal. */
extern unsigned long totalram_pages;
/* Pages the allocator keeps back in every zone (pages_high plus the largest
 * lowmem_reserve): what overcommit and dirty limits may not count on. */
extern unsigned long totalreserve_pages;

/*
 * Tell kswapd that zone is short of free pages for an allocation of this
 * order.  Does nothing if the zone is still above pages_low for it.
 * Called with interrupts on or off, never with zone->lock held.
 */
void wakeup_kswapd(struct zone *zone, int order);

/*
 * Direct reclaim: free pages for an allocation of this order that may use
 * preferred_zone and the populated zones below it (its zonelist).
 * Returns the number of pages reclaimed, 1 if none but the zones may
 * still give some, 0 when every one is unreclaimable (no progress: the
 * OOM killer's cue).  Sleeps: only for __GFP_WAIT allocations, with
 * interrupts on and PF_MEMALLOC set by the caller.
 */
unsigned long try_to_free_pages(struct zone *preferred_zone, int order, gfp_t gfp_mask);

#define DEF_PRIORITY		12	/* a pass scans size >> priority pages of a list */
#define SWAP_CLUSTER_MAX	32	/* pages isolated at a time; a pass's goal */
#define PAGE_ALLOC_COSTLY_ORDER	3	/* above: lumpy reclaim at once, and no OOM kill */

/* vm.swappiness: reclaim's weight for anon pages against file, 0-100. */
extern int vm_swappiness;

/* Start kswapd0 (after the scheduler is up). */
void kswapd_init(void);

/* inactive_ratio of every zone, from its size (at boot). */
void setup_per_zone_inactive_ratio(void);

/* Is a zone's inactive anon list below its target share of the anon pages? */
bool inactive_anon_is_low(struct zone *zone);

/* File pages, and anon pages if swap has room (always under lru=single):
 * what reclaim could free. */
unsigned long zone_reclaimable_pages(struct zone *zone);

/* The anon (percent[0]) and file (percent[1]) shares of a pass over zone. */
void get_scan_ratio(struct zone *zone, int swappiness, unsigned long *percent);

/* The pages the VM manages (set at boot): lru=single's measure of memory. */
extern unsigned long vm_total_pages;

/* lru=single: may the active list scan deactivate mapped pages of zone
 * at priority (Linux 2.6.27's reclaim_mapped)?  1 or 0. */
int calc_reclaim_mapped(struct zone *zone, int priority, int swappiness);

/* ---- swap (mm/swap_state.c) ------------------------------------------ */

/* Swap pages free and in all; both 0 while no swap area is on. */
extern long nr_swap_pages;
extern long total_swap_pages;

/* Give a locked anonymous page a swap slot; 0 if there is none. */
int add_to_swap(struct page *page);

/* ---- the LRU lists (mm/swap.c, mm/vmscan.c) -------------------------- */

/*
 * Put a page that is on no LRU list (and has no PG_lru) on list lru and
 * take a reference to it for the list.  PG_active and PG_unevictable are
 * first cleared, then set as lru says.  An anon list needs PG_swapbacked,
 * a file list needs it clear (the page would be counted on the wrong list
 * when it leaves): a mismatch panics.  Takes zone->lru_lock.
 */
void lru_cache_add_lru(struct page *page, enum lru_list lru);

/* Linux 2.6.28's wrappers (include/linux/swap.h), by where a page enters. */
/* Swap-in: on probation on the inactive anon list. */
static inline void lru_cache_add_anon(struct page *page)
{
	lru_cache_add_lru(page, LRU_INACTIVE_ANON);
}

/* A new anon fault or COW copy: Linux 2.6.28 starts it active. */
static inline void lru_cache_add_active_anon(struct page *page)
{
	lru_cache_add_lru(page, LRU_ACTIVE_ANON);
}

/* Page-cache read or readahead: inactive, until a second access. */
static inline void lru_cache_add_file(struct page *page)
{
	lru_cache_add_lru(page, LRU_INACTIVE_FILE);
}

static inline void lru_cache_add_active_file(struct page *page)
{
	lru_cache_add_lru(page, LRU_ACTIVE_FILE);
}

/*
 * A software access to page (read(), write(), a page-cache fault):
 *   inactive, unreferenced  ->  inactive, PG_referenced
 *   inactive, referenced    ->  activate_page(), PG_referenced cleared
 *   active, unreferenced    ->  active, PG_referenced
 * A page on no list, or on the unevictable one, only gets PG_referenced.
 * Takes zone->lru_lock when it activates.
 */
void mark_page_accessed(struct page *page);

/*
 * Move page from its inactive list to the matching active one, if it is
 * on an LRU list, inactive and evictable; otherwise do nothing.  Counts
 * PGACTIVATE and one recent_rotated and recent_scanned of its type.
 * Takes zone->lru_lock.
 */
void activate_page(struct page *page);

/*
 * Take page off whatever LRU list it is on.  The caller holds a reference
 * of its own.  Returns 0 with PG_lru clear, the page on no list and the
 * list's reference now the caller's (PG_active and PG_unevictable are
 * left as they were, for putback_lru_page); -EBUSY if the page was on no
 * LRU list.  Takes zone->lru_lock.
 */
int isolate_lru_page(struct page *page);

/*
 * Give back a page isolate_lru_page took: onto the list page_evictable()
 * and PG_active choose (unevictable, or the active or inactive list of
 * its type), then drop the isolation reference.  Takes zone->lru_lock.
 */
void putback_lru_page(struct page *page);

/*
 * May reclaim evict page (Linux 2.6.28's page_evictable)?  Not if its
 * mapping is AS_UNEVICTABLE, not while it is PG_mlocked, and not if vma
 * (the one it is being mapped into, or NULL) is VM_LOCKED, in which case
 * the page is mlocked now (is_mlocked_vma, mm/internal.h).
 */
bool page_evictable(struct page *page, struct vm_area_struct *vma);

/*
 * A new anonymous page mapped into vma (a fault or a copy-on-write copy):
 * the active anon list, or LRU_UNEVICTABLE, mlocked, if vma is
 * VM_LOCKED (Linux 2.6.28's lru_cache_add_active_or_unevictable).
 */
void lru_cache_add_active_or_unevictable(struct page *page, struct vm_area_struct *vma);

/*
 * After mapping_clear_unevictable: move the pages of mapping that are on
 * LRU_UNEVICTABLE and now evictable to their inactive lists (Linux
 * 2.6.28's rescue scan, run by SHM_UNLOCK there).  Counts every page
 * looked at in unevictable_pgs_scanned, every page moved in _rescued.
 * Process context.
 */
void scan_mapping_unevictable_pages(struct address_space *mapping);

/* Times kswapd would have been woken (no /proc name: Linux has no such
 * counter).  Direct reclaims are counted in the ALLOCSTALL event. */
extern unsigned long nr_kswapd_wakeups;

#endif
