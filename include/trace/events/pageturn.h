/*
 * Pageturn's own tracepoints, in the "pageturn" system: Linux 6.1 has no
 * event for a page written to or read from swap (Linux counts them in
 * pswpout and pswpin, and the block layer's events see the bios), and
 * no periodic sample of the LRU lists and counters (kernel/trace/
 * trace_events.c's sampler writes mm_lru_sample and mm_vmstat_sample).
 */
#ifndef TRACE_EVENTS_PAGETURN_H
#define TRACE_EVENTS_PAGETURN_H

#include <mm/mm.h>
#include <mm/swapops.h>
#include <pageturn/trace.h>

/* swap_writepage writes page, in the swap cache, to its slot. */
static inline void trace_swap_writepage(const struct page *page)
{
	TRACE_EVENT_WRITE(TRACE_PAGETURN_SWAP_WRITEPAGE, page_to_pfn(page),
			  swp_type((swp_entry_t){ page->private }),
			  swp_offset((swp_entry_t){ page->private }));
}

/* swap_readpage starts reading page, in the swap cache, from its slot. */
static inline void trace_swap_readpage(const struct page *page)
{
	TRACE_EVENT_WRITE(TRACE_PAGETURN_SWAP_READPAGE, page_to_pfn(page),
			  swp_type((swp_entry_t){ page->private }),
			  swp_offset((swp_entry_t){ page->private }));
}

#endif
