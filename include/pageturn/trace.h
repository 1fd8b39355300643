/*
 * Event tracing (Linux's kernel/trace/: trace_events.c, ring_buffer.c and
 * trace.c, reduced to a fixed table of events and one ring buffer).
 *
 * Every event has a number (enum trace_event_id), a system and a name
 * ("vmscan", "mm_vmscan_kswapd_wake"), and an enable flag.  A tracepoint
 * is an inline function of include/trace/events/SYSTEM.h whose whole cost
 * while its event is off is the test of that flag; when it is on, the
 * event's arguments (at most TRACE_MAX_ARGS unsigned longs) go with the
 * time, pid and comm of current into the ring buffer
 * (kernel/trace/ring_buffer.c).  Writing an event never sleeps,
 * allocates or waits: the buffer is allocated before any event can be
 * enabled, and a full buffer drops its oldest entry (an overrun).  Any
 * context may write, interrupt handlers and holders of zone->lru_lock
 * included: the buffer's own lock is taken with interrupts off and is
 * never held while anything else is taken.
 *
 * Built for host unit tests (HOST_TEST) a tracepoint is nothing at all.
 */
#ifndef PAGETURN_TRACE_H
#define PAGETURN_TRACE_H

#include <pageturn/types.h>

enum trace_event_id {
	TRACE_MM_VMSCAN_KSWAPD_SLEEP,
	TRACE_MM_VMSCAN_KSWAPD_WAKE,
	TRACE_MM_VMSCAN_WAKEUP_KSWAPD,
	TRACE_MM_VMSCAN_DIRECT_RECLAIM_BEGIN,
	TRACE_MM_VMSCAN_DIRECT_RECLAIM_END,
	TRACE_MM_VMSCAN_LRU_ISOLATE,
	TRACE_MM_VMSCAN_WRITEPAGE,
	TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE,
	TRACE_MM_VMSCAN_LRU_SHRINK_ACTIVE,
	TRACE_OOM_SCORE_ADJ_UPDATE,
	TRACE_MARK_VICTIM,
	TRACE_PAGETURN_SWAP_WRITEPAGE,
	TRACE_PAGETURN_SWAP_READPAGE,
	TRACE_PAGETURN_MM_LRU_SAMPLE,
	TRACE_PAGETURN_MM_VMSTAT_SAMPLE,
	NR_TRACE_EVENTS
};

#define TRACE_MAX_ARGS	13	/* mm_vmscan_lru_shrink_inactive's fields */

/* Set by tracefs's enable files (kernel/trace/trace_events.c). */
extern bool trace_event_enabled[NR_TRACE_EVENTS];

/*
 * Record event id with its n arguments (n <= TRACE_MAX_ARGS), stamped
 * with ktime_get_ns() and current's pid and comm, unless tracing_on is 0.
 * Any context; never sleeps.  kernel/trace/ring_buffer.c.
 */
void trace_event_write(enum trace_event_id id, const unsigned long *args, unsigned int n);

/*
 * The timer tick's part (interrupt context, kernel/time.c): the LRU
 * sampler's record every 10 ms while it runs, and the wakeup of
 * trace_pipe readers when the buffer has entries.
 */
void trace_tick(void);

#ifdef HOST_TEST
#define TRACE_EVENT_WRITE(id, ...) ((void)sizeof((const unsigned long[]){ __VA_ARGS__ }))
#else
/* A tracepoint's body: one flag test while the event is off. */
#define TRACE_EVENT_WRITE(id, ...) do { \
	if (unlikely(trace_event_enabled[id])) { \
		const unsigned long __args[] = { __VA_ARGS__ }; \
		trace_event_write(id, __args, ARRAY_SIZE(__args)); \
	} \
} while (0)
#endif

#endif
