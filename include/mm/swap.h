/*
 * Memory totals and page reclaim's entry points (Linux's
 * include/linux/swap.h, v2.6.28 names).
 *
 * The page allocator calls reclaim in two places (mm/page_alloc.c):
 *   wakeup_kswapd      when an allocation finds its zones below pages_low
 *   try_to_free_pages  direct reclaim, when they are below pages_min and
 *                      the caller may sleep (__GFP_WAIT)
 * mm/vmscan.c implements both.  Until reclaim exists they reclaim nothing.
 */
#ifndef MM_SWAP_H
#define MM_SWAP_H

#include <mm/gfp.h>
#include <mm/mmzone.h>

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
 * Returns the number of pages reclaimed; 0 means no progress.  May sleep:
 * only for __GFP_WAIT allocations, with interrupts on.
 */
unsigned long try_to_free_pages(struct zone *preferred_zone, int order, gfp_t gfp_mask);

/* Times kswapd would have been woken (no /proc name: Linux has no such
 * counter).  Direct reclaims are counted in the ALLOCSTALL event. */
extern unsigned long nr_kswapd_wakeups;

#endif
