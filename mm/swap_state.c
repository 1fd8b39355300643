/*
 * The swap cache (Linux's mm/swap_state.c, v2.6.28 names): where an
 * anonymous page waits, with a swap slot reserved for it, while reclaim
 * unmaps it and writes it out.
 *
 * Reclaim calls add_to_swap for every anonymous page it wants to evict
 * (mm/vmscan.c, shrink_page_list).  A page can only leave memory once its
 * data has a place on a swap device; without one it is activated and
 * stays.  Pageturn's swap cache holds no pages: add_to_swap gives no
 * slot, even while a swap area is on (mm/swapfile.c, which also keeps
 * nr_swap_pages and total_swap_pages), so the page is activated, as a
 * full swap area would have it on Linux.
 */
#include <mm/swap.h>
#include <pageturn/panic.h>

/* Called with the page locked.  Returns 1 with a slot, 0 without. */
int add_to_swap(struct page *page)
{
	if (!PageLocked(page))
		panic("add_to_swap: pfn %lu is not locked", page_to_pfn(page));
	/* No slot is given (see the top). */
	return 0;
}
