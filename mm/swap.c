/*
 * Putting pages on the LRU lists and promoting them there (Linux's
 * mm/swap.c, v2.6.28, the split anon/file LRU of Rik van Riel).
 *
 * Every zone keeps the pages in use that reclaim may one day want back on
 * five lists (enum lru_list, mm/mmzone.h): inactive and active anon,
 * inactive and active file, and unevictable.  Anon and file are kept apart
 * because they cost different amounts to evict (an anon page must be
 * written to swap, a clean file page is simply dropped) and are used in
 * different patterns (a streaming read touches file pages once), so the
 * scanner wants to aim at each separately; one mixed list makes it wade
 * through many anon pages to find the file pages worth freeing.
 *
 * Within a type, active and inactive give each page a second chance.  A
 * page joins an inactive list (new file pages, swapped-in pages) or the
 * active list (new anon faults, as Linux 2.6.28 does).  mark_page_accessed
 * records software accesses with PG_referenced: the second access moves an
 * inactive page to its active list (activate_page).  Reclaim takes pages
 * from the tail of the inactive lists, so a page used once leaves soon and
 * a page used twice stays.  Mapped pages are not tracked here: the CPU
 * marks their PTEs accessed and reclaim will read that through rmap.
 *
 * State and invariants (under zone->lru_lock):
 *   - A page on list l of its zone has PG_lru, has PG_active iff
 *     is_active_lru(l), has PG_unevictable iff l is LRU_UNEVICTABLE, and
 *     page_lru(page) == l.  A page is on at most one list.
 *   - vm_stat[NR_LRU_BASE + l] of the zone is the length of list l.
 *   - A page on a list holds one reference for the list, taken when it is
 *     added.  isolate_lru_page hands that reference to the isolator, and
 *     putback_lru_page gives it back.  So a page can never be freed while
 *     it is on a list (and free_pages_check panics on PG_lru if the list's
 *     reference is dropped by mistake).  The total count matches Linux's,
 *     where the list holds no reference but an isolated page has an extra
 *     one: in both, an isolated page has one more reference than its users.
 *   - recent_scanned[file] counts pages added to the evictable lists of a
 *     type, recent_rotated[file] those added active or activated: the
 *     scanner's measure of how much of each type is in use.
 *
 * Under lru=single (include/mm/mmzone.h) the same calls put both kinds of
 * page on one inactive and one active list per zone, as Linux 2.6.27
 * did; the counters and every rule above stay per kind, and only the
 * list head a page sits on changes (physical_lru, mm_inline.h).
 *
 * Where Pageturn differs from Linux 2.6.28: Linux gathers pages in per-CPU
 * pagevecs of 14 and adds each batch under one lru_lock, to take the lock
 * less often when many CPUs fault at once.  Pageturn has one CPU and takes
 * lru_lock for each page, so a page is on its list as soon as the call
 * returns: there is no pagevec to drain and no window in which a new page
 * is neither on a list nor isolatable (Linux fixed the visible effect of
 * that window in mark_page_accessed only in v3.12).  Linux adds unevictable
 * pages through a separate function (add_page_to_unevictable_list, which
 * bypasses the pagevecs); here lru_cache_add_lru(page, LRU_UNEVICTABLE)
 * does it.  The memory controller's lists do not exist.
 *
 * The unevictable list (Linux 2.6.28, Lee Schermerhorn and Rik van Riel's
 * "Unevictable LRU Infrastructure", Nick Piggin's "mlock: mlocked pages
 * are unevictable").  A page reclaim cannot evict, because it is mlocked
 * (mm/mlock.c) or its mapping is AS_UNEVICTABLE, sits on LRU_UNEVICTABLE,
 * which reclaim never scans, instead of being found again and again on
 * the evictable lists.  It gets there when it enters: a new anonymous
 * page of a locked VMA (lru_cache_add_active_or_unevictable); when mlock
 * isolates it and puts it back; or lazily, when reclaim meets it on an
 * evictable list and culls it (shrink_page_list, shrink_active_list:
 * putback_lru_page decides by page_evictable).  It leaves when munlock or
 * scan_mapping_unevictable_pages rescues it to an evictable list, or
 * when it is freed.
 */
#include <mm/mm.h>
#include <mm/mm_inline.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>

/* Set by the boot option lru= (mm/init.c) before any page is listed. */
enum lru_policy lru_policy = LRU_POLICY_SPLIT;

/* Called without zone->lru_lock; takes it. */
void lru_cache_add_lru(struct page *page, enum lru_list lru)
{
	struct zone *zone = page_zone(page);
	uint64_t flags;

	if ((unsigned int)lru >= NR_LRU_LISTS)
		panic("lru_cache_add_lru: pfn %lu: no LRU list %d", page_to_pfn(page), lru);
	if (PageLRU(page))
		panic("lru_cache_add_lru: pfn %lu is already on an LRU list", page_to_pfn(page));
	if (!is_unevictable_lru(lru) &&
	    is_file_lru(lru) != (page_is_file_cache(page) == LRU_FILE))
		panic("lru_cache_add_lru: pfn %lu is %s but list %d is %s", page_to_pfn(page),
		      PageSwapBacked(page) ? "swap-backed" : "file", lru,
		      is_file_lru(lru) ? "file" : "anon");
	ClearPageActive(page);
	ClearPageUnevictable(page);

	get_page(page);			/* the list's reference */
	spin_lock_irqsave(&zone->lru_lock, flags);
	SetPageLRU(page);
	if (is_unevictable_lru(lru)) {
		SetPageUnevictable(page);
	} else {
		int file = is_file_lru(lru);

		zone->recent_scanned[file]++;
		if (is_active_lru(lru)) {
			SetPageActive(page);
			zone->recent_rotated[file]++;
		}
	}
	add_page_to_lru_list(zone, page, lru);
	spin_unlock_irqrestore(&zone->lru_lock, flags);
}

/* Called without zone->lru_lock; takes it. */
void lru_cache_add_active_or_unevictable(struct page *page, struct vm_area_struct *vma)
{
	if (page_evictable(page, vma))
		lru_cache_add_lru(page, (enum lru_list)(LRU_ACTIVE + page_is_file_cache(page)));
	else
		lru_cache_add_lru(page, LRU_UNEVICTABLE);
}

/* Called without zone->lru_lock; takes it. */
void activate_page(struct page *page)
{
	struct zone *zone = page_zone(page);
	uint64_t flags;

	spin_lock_irqsave(&zone->lru_lock, flags);
	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
		int file = page_is_file_cache(page);
		enum lru_list lru = (enum lru_list)(LRU_BASE + file);

		del_page_from_lru_list(zone, page, lru);
		SetPageActive(page);
		add_page_to_lru_list(zone, page, (enum lru_list)(lru + LRU_ACTIVE));
		count_vm_event(PGACTIVATE);
		zone->recent_rotated[!!file]++;
		zone->recent_scanned[!!file]++;
	}
	spin_unlock_irqrestore(&zone->lru_lock, flags);
}

/*
 * Called from end_page_writeback, often in the disk's interrupt handler
 * (lru_lock is always taken with interrupts off, so it cannot be held
 * here).  Reclaim chose this page and started its write; now that the
 * write is done, put the page where reclaim looks first, so the next scan
 * frees it instead of the pages that are still in use.  Only a page that
 * is clean, unlocked, inactive and on its list moves: one that reclaim
 * still holds locked (the write ended before pageout returned) is freed
 * by reclaim itself, and one made dirty or active meanwhile is in use.
 */
void rotate_reclaimable_page(struct page *page)
{
	struct zone *zone = page_zone(page);
	uint64_t flags;

	if (PageLocked(page) || PageDirty(page) || PageActive(page) || PageUnevictable(page))
		return;
	spin_lock_irqsave(&zone->lru_lock, flags);
	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
		list_move_tail(&page->lru, &zone->lru[physical_lru(page_lru(page))].list);
		count_vm_event(PGROTATED);
	}
	spin_unlock_irqrestore(&zone->lru_lock, flags);
}

/*
 * Called without zone->lru_lock.  The flag tests outside the lock are
 * safe on one CPU: the one thing an interrupt handler does to the lists
 * (rotate_reclaimable_page) moves a page within its inactive list and
 * changes none of these flags; activate_page checks again under the lock
 * in any case.
 */
void mark_page_accessed(struct page *page)
{
	if (!PageActive(page) && !PageUnevictable(page) &&
	    PageReferenced(page) && PageLRU(page)) {
		activate_page(page);
		ClearPageReferenced(page);
	} else if (!PageReferenced(page)) {
		SetPageReferenced(page);
	}
}
