/*
 * VM statistics (Linux's include/linux/vmstat.h, v2.6.28 names).
 *
 * Two kinds of counter:
 *
 *   zone counters   enum zone_stat_item (mm/mmzone.h): how many pages are
 *                   in some state right now (NR_FREE_PAGES, ...).  Kept per
 *                   zone in zone->vm_stat[] and, in step, summed over all
 *                   zones in the global vm_stat[].  They go up and down and
 *                   are exact: /proc/zoneinfo and /proc/meminfo read them.
 *
 *   events          enum vm_event_item below: how many times something
 *                   happened since boot (pages allocated, direct reclaims).
 *                   They only go up.  /proc/vmstat prints them after the
 *                   zone counters, under the names in vmstat_text[].
 *
 * Only counters Linux has are here, under Linux's names, so tools written
 * for Linux read them unchanged.  Per-zone events come in one entry per
 * zone, in zone order (FOR_ALL_ZONES), so an event for a zone is found by
 * arithmetic on the zone index (__count_zone_vm_events).
 *
 * Pageturn runs on one CPU, so there are no per-CPU deltas to fold: a
 * counter is one word.  The __ variants of the zone counters are for
 * callers that already run with interrupts off (under zone->lock, say);
 * the others turn interrupts off around the update themselves.
 */
#ifndef MM_VMSTAT_H
#define MM_VMSTAT_H

#include <mm/mm.h>
#include <mm/mmzone.h>

#define FOR_ALL_ZONES(x) x##_DMA, x##_DMA32, x##_NORMAL

enum vm_event_item {
	PSWPIN,			/* pages read from swap */
	PSWPOUT,		/* pages written to swap */
	FOR_ALL_ZONES(PGALLOC),	/* pages allocated from each zone */
	PGFREE,			/* pages freed (boot memory included, as Linux) */
	PGACTIVATE,		/* inactive -> active moves (activate_page, reclaim) */
	PGDEACTIVATE,		/* active -> inactive moves (reclaim) */
	PGFAULT,		/* page faults handled (handle_mm_fault) */
	PGMAJFAULT,		/* of them, faults that waited for a read */
	FOR_ALL_ZONES(PGREFILL),	/* pages reclaim took off an active list */
	FOR_ALL_ZONES(PGSTEAL),		/* pages reclaim freed */
	FOR_ALL_ZONES(PGSCAN_KSWAPD),	/* inactive pages kswapd isolated */
	FOR_ALL_ZONES(PGSCAN_DIRECT),	/* inactive pages direct reclaim isolated */
	PGINODESTEAL,		/* page-cache pages freed with unused inodes (prune_icache) */
	SLABS_SCANNED,		/* objects shrink_slab asked the shrinkers to scan */
	KSWAPD_STEAL,		/* pages kswapd freed */
	KSWAPD_INODESTEAL,	/* PGINODESTEAL's pages when kswapd pruned them */
	PAGEOUTRUN,		/* balance_pgdat runs */
	ALLOCSTALL,		/* entries into direct reclaim */
	PGROTATED,		/* pages moved to an inactive tail after writeback */
	/* The unevictable list (Linux 2.6.28, mm/mlock.c and mm/vmscan.c): */
	UNEVICTABLE_PGCULLED,	/* pages put on it by putback_lru_page */
	UNEVICTABLE_PGSCANNED,	/* pages scan_mapping_unevictable_pages looked at */
	UNEVICTABLE_PGRESCUED,	/* pages moved from it to an evictable list */
	UNEVICTABLE_PGMLOCKED,	/* PG_mlocked set */
	UNEVICTABLE_PGMUNLOCKED,	/* PG_mlocked cleared by munlock */
	UNEVICTABLE_PGCLEARED,	/* PG_mlocked cleared by COW or truncation */
	UNEVICTABLE_PGSTRANDED,	/* munlocked pages left on it (isolated elsewhere) */
	UNEVICTABLE_MLOCKFREED,	/* pages freed with PG_mlocked still set */
	DROP_PAGECACHE,		/* writes to drop_caches that dropped the page cache */
	DROP_SLAB,		/* ... that dropped the unused inodes and free slabs */
	PGSCAN_ANON,		/* inactive anon pages isolated (Linux 5.8's names) */
	PGSCAN_FILE,		/* inactive file pages isolated */
	PGSTEAL_ANON,		/* anon pages reclaim freed */
	PGSTEAL_FILE,		/* file pages reclaim freed */
	OOM_KILL,		/* processes the OOM killer killed (mm/oom_kill.c) */
	NR_VM_EVENT_ITEMS
};

/* Names for /proc/vmstat: the zone counters, then the events, in enum order. */
extern const char *const vmstat_text[NR_VM_ZONE_STAT_ITEMS + NR_VM_EVENT_ITEMS];

/* ---- events ---------------------------------------------------------- */

struct vm_event_state {
	unsigned long event[NR_VM_EVENT_ITEMS];
};

extern struct vm_event_state vm_event_states;

/*
 * An increment of one word.  As in Linux these are statistics, not
 * locks: an interrupt handler counting the same event in the middle of
 * the read-modify-write could lose one count.  No event is counted from
 * interrupt context today, so in practice they are exact.
 */
static inline void count_vm_events(enum vm_event_item item, unsigned long delta)
{
	vm_event_states.event[item] += delta;
}

static inline void count_vm_event(enum vm_event_item item)
{
	count_vm_events(item, 1);
}

/* Count a per-zone event (item is the bare name: PGALLOC, not PGALLOC_DMA). */
#define __count_zone_vm_events(item, zone, delta) \
	count_vm_events((enum vm_event_item)(item##_NORMAL - ZONE_NORMAL + zone_idx(zone)), delta)

/* Copy every event counter into ret[NR_VM_EVENT_ITEMS]. */
void all_vm_events(unsigned long *ret);

/* ---- zone counters --------------------------------------------------- */

extern long vm_stat[NR_VM_ZONE_STAT_ITEMS];

/* Add delta to a zone's counter and the global one.  Interrupts off. */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
/* The same for the zone that holds page, by one.  Interrupts off. */
void __inc_zone_page_state(struct page *page, enum zone_stat_item item);
void __dec_zone_page_state(struct page *page, enum zone_stat_item item);

/* The same, callable with interrupts on or off. */
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void inc_zone_page_state(struct page *page, enum zone_stat_item item);
void dec_zone_page_state(struct page *page, enum zone_stat_item item);

static inline unsigned long zone_page_state(const struct zone *zone, enum zone_stat_item item)
{
	return (unsigned long)zone->vm_stat[item];
}

static inline unsigned long global_page_state(enum zone_stat_item item)
{
	return (unsigned long)vm_stat[item];
}

#endif
