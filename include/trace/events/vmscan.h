/*
 * The vmscan tracepoints (Linux's include/trace/events/vmscan.h): the
 * same event names and printed fields as Linux 6.1, with Pageturn's
 * arguments.  Each is one flag test while off (pageturn/trace.h); the
 * text is made when the buffer is read (kernel/trace/trace_output.c).
 * Pageturn has one node: nid is always 0.
 */
#ifndef TRACE_EVENTS_VMSCAN_H
#define TRACE_EVENTS_VMSCAN_H

#include <mm/mm_inline.h>
#include <mm/mmzone.h>
#include <pageturn/trace.h>

/* kswapd goes to sleep. */
static inline void trace_mm_vmscan_kswapd_sleep(int nid)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_KSWAPD_SLEEP, nid);
}

/* kswapd wakes to balance the node for order; zid is the highest zone. */
static inline void trace_mm_vmscan_kswapd_wake(int nid, int zid, int order)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_KSWAPD_WAKE, nid, zid, order);
}

/* An allocation of order (gfp_flags) wakes a sleeping kswapd for zone. */
static inline void trace_mm_vmscan_wakeup_kswapd(const struct zone *zone, int order,
						 gfp_t gfp_flags)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_WAKEUP_KSWAPD, 0, zone_idx(zone), order, gfp_flags);
}

static inline void trace_mm_vmscan_direct_reclaim_begin(int order, gfp_t gfp_flags)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_DIRECT_RECLAIM_BEGIN, order, gfp_flags);
}

static inline void trace_mm_vmscan_direct_reclaim_end(unsigned long nr_reclaimed)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_DIRECT_RECLAIM_END, nr_reclaimed);
}

/*
 * isolate_lru_pages took nr_taken of the nr_scanned pages it looked at
 * (nr_requested asked) from list lru of zone; mode is Pageturn's
 * ISOLATE_INACTIVE (0), ISOLATE_ACTIVE (1) or ISOLATE_BOTH (2), the
 * values Linux had when it added this event.  Pageturn skips no pages.
 */
static inline void trace_mm_vmscan_lru_isolate(const struct zone *zone, int order,
					       unsigned long nr_requested,
					       unsigned long nr_scanned, unsigned long nr_taken,
					       int mode, int lru)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_LRU_ISOLATE, mode, zone_idx(zone), order, nr_requested,
			  nr_scanned, 0, nr_taken, lru);
}

/* pageout() wrote page for reclaim (Linux 6.1: mm_vmscan_write_folio). */
static inline void trace_mm_vmscan_writepage(const struct page *page)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_WRITEPAGE, page_to_pfn(page), page_is_file_cache(page));
}

/*
 * shrink_inactive_list scanned nr_scanned pages of zone's inactive list
 * (file: 0 anon, 1 file, LRU_ANY_TYPE both under lru=single) and freed
 * nr_reclaimed.  Linux's reclaim_stat fields Pageturn does not count
 * print as 0.
 */
static inline void trace_mm_vmscan_lru_shrink_inactive(unsigned long nr_scanned,
						       unsigned long nr_reclaimed,
						       int priority, int file)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE, 0, nr_scanned, nr_reclaimed,
			  0, 0, 0, 0, 0, 0, 0, 0, priority, file);
}

/*
 * shrink_active_list took nr_taken pages off an active list and moved
 * nr_deactivated of them to the inactive list; nr_referenced were
 * referenced (rotated).  nr_active: the rest (kept active, culled to
 * the unevictable list, or freed).
 */
static inline void trace_mm_vmscan_lru_shrink_active(unsigned long nr_taken,
						     unsigned long nr_deactivated,
						     unsigned long nr_referenced,
						     int priority, int file)
{
	TRACE_EVENT_WRITE(TRACE_MM_VMSCAN_LRU_SHRINK_ACTIVE, 0, nr_taken,
			  nr_taken - nr_deactivated, nr_deactivated, nr_referenced, priority, file);
}

#endif
