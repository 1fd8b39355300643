/*
 * Which LRU list a page belongs on, and the two primitives that move a page
 * onto and off a list (Linux's include/linux/mm_inline.h, v2.6.28).
 *
 * A page's list is a function of three of its flags, nothing else:
 *
 *   PG_unevictable  set:   LRU_UNEVICTABLE, whatever the others say
 *   PG_swapbacked   clear: a file list (LRU_FILE added to the index)
 *   PG_active       set:   an active list (LRU_ACTIVE added to the index)
 *
 * Deciding anon or file from a flag stored in the page, and from that flag
 * alone, is the point of page_is_file_cache().  The answer must be the same
 * when a page leaves its list as when it joined, or the counters of both
 * lists go wrong.  Guessing it from other state (page->mapping, PageAnon,
 * PG_swapcache) does not work: that state changes while the page sits on
 * the list, for instance when an anon page enters the swap cache.
 * PG_swapbacked is set once, before the page first joins a list, and
 * cleared only when the page is freed.
 *
 * add_page_to_lru_list and del_page_from_lru_list change the list and its
 * counter together; they are the only places that touch either, so the
 * counter NR_LRU_BASE + l of a zone is always the number of pages counted
 * on list l: the length of list l under lru=split, and under lru=single
 * the share of its kind on the one inactive or active list that holds
 * both kinds (physical_lru; include/mm/mmzone.h).  The counters never
 * depend on the policy, so /proc/meminfo's Active(anon) and
 * Active(file) mean the same under both.
 * Both are called with zone->lru_lock held (and so interrupts off), and
 * neither touches PG_lru, PG_active or the page's reference count: those
 * are the callers' business (mm/swap.c, mm/vmscan.c).
 */
#ifndef MM_MM_INLINE_H
#define MM_MM_INLINE_H

#include <mm/mm.h>
#include <mm/mmzone.h>
#include <mm/vmstat.h>

/*
 * LRU_FILE if the page belongs on a file list, 0 if on an anon one, so
 * the result can be added to a list index.  Reads PG_swapbacked only.
 */
static inline int page_is_file_cache(const struct page *page)
{
	return PageSwapBacked(page) ? 0 : LRU_FILE;
}

/* The list the page's flags say it belongs on. */
static inline enum lru_list page_lru(const struct page *page)
{
	if (PageUnevictable(page))
		return LRU_UNEVICTABLE;
	return (enum lru_list)(LRU_BASE + page_is_file_cache(page) +
			       (PageActive(page) ? LRU_ACTIVE : 0));
}

/*
 * The list head that holds the pages counted on list l: l itself under
 * lru=split; under lru=single the one inactive or active list
 * (LRU_BASE, LRU_BASE + LRU_ACTIVE) for both kinds of page.
 */
static inline enum lru_list physical_lru(enum lru_list l)
{
	if (lru_single() && !is_unevictable_lru(l))
		return (enum lru_list)(l & ~LRU_FILE);
	return l;
}

/* Put page at the head of list l (counted on l, sitting on
 * physical_lru(l)).  Called with zone->lru_lock held. */
static inline void add_page_to_lru_list(struct zone *zone, struct page *page, enum lru_list l)
{
	list_add(&page->lru, &zone->lru[physical_lru(l)].list);
	__mod_zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l), 1);
}

/* Take page off list l, which it is on.  Called with zone->lru_lock held. */
static inline void del_page_from_lru_list(struct zone *zone, struct page *page, enum lru_list l)
{
	list_del(&page->lru);
	__mod_zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l), -1);
}

#endif
