/*
 * Page reclaim: turning used pages back into free ones when a zone runs
 * short.  Today only the two entry points the page allocator calls exist,
 * and they reclaim nothing; the LRU lists and the scanner come with the
 * reclaim issue.  What they will do (Linux v2.6.28's mm/vmscan.c):
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
 *
 * The LRU lists reclaim will scan exist already (mm/swap.c builds them;
 * the state of a page is its list, PG_lru, PG_active, PG_referenced):
 *
 *                              +-------------------+
 *         +--------------------| not on an LRU     |<----------------+
 *         |   lru_cache_add_   | (PG_lru clear)    |  removal: drop  |
 *         |   active_anon/file +-------------------+  the reference  |
 *         |                     |                     isolation held |
 *         |   lru_cache_add_anon/file                                |
 *         v                     v                                    |
 *  +------------------+ activate_page, +------------------+          |
 *  | ACTIVE_ANON  (1) |<---------------| INACTIVE_ANON (0)|          |
 *  | ACTIVE_FILE  (3) | mark_page_acc- | INACTIVE_FILE (2)|          |
 *  | PG_lru PG_active | essed twice    | PG_lru           |          |
 *  +------------------+                +------------------+          |
 *     |    ^   (active -> inactive: shrink_active_list,  |    ^      |
 *     |    |    when reclaim scanning comes)             |    |      |
 *     | isolate_lru_page             putback_lru_page    |    |      |
 *     v    |                                             v    |      |
 *  +-------------------------------------------------------------+   |
 *  | isolated: on no list, PG_lru clear, PG_active kept, the     |---+
 *  | list's reference now the isolator's                         |
 *  +-------------------------------------------------------------+
 *        |   ^   putback_lru_page of a page that is !page_evictable
 *        v   |   (PG_mlocked) / isolate_lru_page
 *  +-------------------------------------------------------------+
 *  | UNEVICTABLE (4): PG_lru PG_unevictable, never PG_active     |
 *  +-------------------------------------------------------------+
 *  (a page not on an LRU also enters it directly, with
 *   lru_cache_add_lru(page, LRU_UNEVICTABLE))
 *  (putback of an evictable page goes to its inactive or, if it
 *   kept PG_active, its active list: unevictable pages are rescued)
 *
 * Within a list, mark_page_accessed moves an unreferenced page to
 * PG_referenced; the second call on an inactive page activates it and
 * clears PG_referenced.  Taking a page off for good is isolate_lru_page,
 * clearing PG_active and PG_unevictable, and dropping the reference.
 * Adding is at the head of a list; the scanner will take from the tail.
 */
#include <mm/mm_inline.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <uapi/errno.h>

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

/* ---- isolating pages from the LRU lists ------------------------------- */

/*
 * Linux's page_evictable(page, vma) also asks the mapping (ramfs, SHM_LOCK)
 * and the vma (VM_LOCKED).  There are neither yet: PG_mlocked decides.
 */
bool page_evictable(const struct page *page)
{
	return !PageMlocked(page);
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
 * Called without zone->lru_lock, on a page the caller isolated (no PG_lru).
 * The page goes back through lru_cache_add_lru, which takes a reference
 * for the list; then the isolation reference is dropped, after the lock
 * is released.  Linux retries here when a page put on the unevictable list
 * became evictable meanwhile (a race between CPUs over mlock); on one CPU
 * with no mlock yet nothing can change in between.
 */
void putback_lru_page(struct page *page)
{
	bool active = TestClearPageActive(page);
	enum lru_list lru;

	if (PageLRU(page))
		panic("putback_lru_page: pfn %lu is still on an LRU list", page_to_pfn(page));
	ClearPageUnevictable(page);
	if (page_evictable(page))
		lru = (enum lru_list)(LRU_BASE + page_is_file_cache(page) +
				      (active ? LRU_ACTIVE : 0));
	else
		lru = LRU_UNEVICTABLE;
	lru_cache_add_lru(page, lru);
	put_page(page);		/* the isolation reference */
}
