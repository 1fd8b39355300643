/*
 * Page reclaim: turning used pages back into free ones when a zone runs
 * short.  Today only the two entry points the page allocator calls exist,
 * and they reclaim nothing; the LRU lists and the scanner come with the
 * reclaim issue.  What they will do (Linux v2.6.28, reclaim-reference.md
 * sections 1.6 and 4):
 *
 *   wakeup_kswapd      An allocation found a zone below pages_low.  kswapd,
 *                      a kernel thread per node, wakes and frees pages in
 *                      the background (balance_pgdat) until every zone is
 *                      above pages_high, then sleeps again.  The allocation
 *                      itself goes on, down to pages_min.
 *
 *   try_to_free_pages  Direct reclaim.  The zones are below pages_min and
 *                      the caller may sleep: it scans the LRU lists of its
 *                      own zonelist and frees pages itself, then retries.
 *                      No progress at all leads to the OOM killer.
 *
 * State today: nr_kswapd_wakeups counts the wake-ups kswapd would get (a
 * zone really below pages_low), and ALLOCSTALL counts direct reclaims, so
 * a test can see that the allocator reaches both hooks.  Nothing else
 * changes: try_to_free_pages returns 0, "no progress", and the allocation
 * fails instead of retrying forever.
 */
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>

unsigned long nr_kswapd_wakeups;

/*
 * Linux's test, without the thread: a zone still above pages_low for this
 * order (for any classzone, no allocation flags) does not wake kswapd.
 */
void wakeup_kswapd(struct zone *zone, int order)
{
	if (!populated_zone(zone))
		return;
	if (zone_watermark_ok(zone, order, zone->pages_low, 0, 0))
		return;
	nr_kswapd_wakeups++;
}

unsigned long try_to_free_pages(struct zone *preferred_zone, int order, gfp_t gfp_mask)
{
	(void)preferred_zone;
	(void)order;
	(void)gfp_mask;
	count_vm_event(ALLOCSTALL);
	return 0;
}
