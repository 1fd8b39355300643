/*
 * The swap cache (Linux's mm/swap_state.c, v2.6.28 names): where an
 * anonymous page waits, with a swap slot reserved for it, while reclaim
 * unmaps it and writes it out.
 *
 * Reclaim calls add_to_swap for every anonymous page it wants to evict
 * (mm/vmscan.c, shrink_page_list).  A page can only leave memory once its
 * data has a place on a swap device; without one it is activated and
 * stays.  Pageturn has no swap devices yet: no area is ever switched on,
 * total_swap_pages and nr_swap_pages stay 0, and add_to_swap finds no
 * free slot.  The same state is what a full swap area gives on Linux.
 */
#include <mm/swap.h>
#include <pageturn/panic.h>

long nr_swap_pages;
long total_swap_pages;

/* Called with the page locked.  Returns 1 with a slot, 0 without. */
int add_to_swap(struct page *page)
{
	if (!PageLocked(page))
		panic("add_to_swap: pfn %lu is not locked", page_to_pfn(page));
	/* No area is on (see the top): there is no slot to give. */
	return 0;
}
