/*
 * Zones and the node that holds them (Linux's include/linux/mmzone.h).
 *
 * Physical memory is split by what devices can reach:
 *   ZONE_DMA     0 - 16 MiB   (ISA DMA)
 *   ZONE_DMA32   16 MiB - 4 GiB (32-bit DMA)
 *   ZONE_NORMAL  4 GiB and up
 * Each zone has its own buddy allocator (free_area[0..MAX_ORDER-1]), its
 * watermarks pages_min/low/high and lowmem_reserve[], and counters.
 * Pageturn has one node, contig_page_data (NODE_DATA(0)).
 *
 * Each zone also keeps its pages in use on LRU lists (Rik van Riel's split
 * LRU, Linux 2.6.28): anon and file pages apart, each split into active and
 * inactive, plus one list of pages reclaim must not touch.  See enum
 * lru_list below, include/mm/mm_inline.h and mm/swap.c.
 *
 * Page counts, as Linux defines them:
 *   spanned_pages  pfns from zone_start_pfn to the zone's end, holes included
 *   present_pages  pages of RAM in that span (holes excluded)
 *   managed_pages  present pages handed to the buddy allocator (the kernel
 *                  image, mem_map and other boot reservations excluded)
 */
#ifndef MM_MMZONE_H
#define MM_MMZONE_H

#include <mm/mm_types.h>
#include <pageturn/spinlock.h>

#define MAX_ORDER 11		/* orders 0..10: blocks of 1 page .. 4 MiB */
#define MAX_ORDER_NR_PAGES (1ul << (MAX_ORDER - 1))
/* Above this order an allocation is "costly": it gives up rather than
 * retry or call the OOM killer (Linux's value). */
#define PAGE_ALLOC_COSTLY_ORDER 3

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES
};

#define MAX_DMA_PFN   ((16ul << 20) >> 12)	/* 16 MiB */
#define MAX_DMA32_PFN ((4ul << 30) >> 12)	/* 4 GiB */

/*
 * Per-zone counters (Linux's enum zone_stat_item); later subsystems add theirs.
 * The five LRU counters mirror enum lru_list: the counter of list l is
 * NR_LRU_BASE + l, so their order must match it exactly.
 */
enum zone_stat_item {
	NR_FREE_PAGES,
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE,	/* must match enum lru_list */
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_MLOCK,			/* pages with PG_mlocked (mm/mlock.c) */
	NR_ANON_PAGES,			/* mapped anonymous pages (mm/memory.c) */
	NR_FILE_MAPPED,			/* page-cache pages mapped by page tables */
	NR_FILE_PAGES,			/* in the page cache (mm/filemap.c) */
	NR_FILE_DIRTY,			/* page-cache pages with PG_dirty */
	NR_WRITEBACK,			/* pages with PG_writeback */
	NR_SLAB_UNRECLAIMABLE,
	NR_PAGETABLE,
	NR_VMSCAN_WRITE,		/* pages reclaim wrote out (mm/vmscan.c pageout) */
	NR_SHMEM,			/* tmpfs pages in the page cache (mm/filemap.c) */
	NR_VM_ZONE_STAT_ITEMS
};

/*
 * The LRU lists of a zone, numbered so that the index is arithmetic:
 *
 *   list = LRU_BASE + (active ? LRU_ACTIVE : 0) + (file ? LRU_FILE : 0)
 *
 * so an active list is LRU_ACTIVE above its inactive one and a file list
 * LRU_FILE above its anon one.  Anon means swap-backed (PG_swapbacked):
 * anonymous memory and tmpfs; file means backed by a file on a disk.
 * LRU_UNEVICTABLE holds pages reclaim cannot free (PG_mlocked, or in an
 * AS_UNEVICTABLE mapping: page_evictable), kept off the other lists so
 * scans never see them; it is neither anon nor file, active nor inactive.  Never reorder: the zone counters
 * NR_LRU_BASE + l and the arithmetic above rely on these values.
 */
#define LRU_BASE   0
#define LRU_ACTIVE 1
#define LRU_FILE   2

enum lru_list {
	LRU_INACTIVE_ANON = LRU_BASE,
	LRU_ACTIVE_ANON = LRU_BASE + LRU_ACTIVE,
	LRU_INACTIVE_FILE = LRU_BASE + LRU_FILE,
	LRU_ACTIVE_FILE = LRU_BASE + LRU_FILE + LRU_ACTIVE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

_Static_assert(NR_INACTIVE_ANON - NR_LRU_BASE == LRU_INACTIVE_ANON &&
	       NR_ACTIVE_ANON - NR_LRU_BASE == LRU_ACTIVE_ANON &&
	       NR_INACTIVE_FILE - NR_LRU_BASE == LRU_INACTIVE_FILE &&
	       NR_ACTIVE_FILE - NR_LRU_BASE == LRU_ACTIVE_FILE &&
	       NR_UNEVICTABLE - NR_LRU_BASE == LRU_UNEVICTABLE,
	       "the LRU counters must follow enum lru_list");

/*
 * Which reclaim policy runs (the boot option lru=, chosen before any page
 * joins a list and fixed afterwards; Linux has no such switch):
 *
 *   LRU_POLICY_SPLIT   the lists above, as Linux 2.6.28 keeps them;
 *   LRU_POLICY_SINGLE  the policy the split replaced, Linux 2.6.27's: one
 *                      inactive list, zone->lru[LRU_BASE], and one active
 *                      list, zone->lru[LRU_BASE + LRU_ACTIVE], each
 *                      holding both kinds of page; the file lists stay
 *                      empty.  The counters stay per kind all the same:
 *                      NR_LRU_BASE + l counts the pages page_lru() puts
 *                      on list l, whichever list head they sit on
 *                      (physical_lru, include/mm/mm_inline.h).
 */
enum lru_policy {
	LRU_POLICY_SPLIT,
	LRU_POLICY_SINGLE,
};

extern enum lru_policy lru_policy;

static inline bool lru_single(void)
{
	return lru_policy == LRU_POLICY_SINGLE;
}

#define for_each_lru(l) for (l = 0; l < NR_LRU_LISTS; l++)
/* The four lists reclaim scans: every list but LRU_UNEVICTABLE. */
#define for_each_evictable_lru(l) for (l = 0; l <= LRU_ACTIVE_FILE; l++)

static inline bool is_file_lru(enum lru_list l)
{
	return l == LRU_INACTIVE_FILE || l == LRU_ACTIVE_FILE;
}

static inline bool is_active_lru(enum lru_list l)
{
	return l == LRU_ACTIVE_ANON || l == LRU_ACTIVE_FILE;
}

static inline bool is_unevictable_lru(enum lru_list l)
{
	return l == LRU_UNEVICTABLE;
}

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;		/* blocks of this order */
};

struct pglist_data;

struct zone {
	/* Watermarks, in pages: kswapd wakes below low and sleeps at high;
	 * below min only reclaimers and atomic allocations go. */
	unsigned long pages_min, pages_low, pages_high;
	/* Pages kept free against allocations that could use a higher zone. */
	unsigned long lowmem_reserve[MAX_NR_ZONES];

	spinlock_t lock;		/* protects free_area */
	struct free_area free_area[MAX_ORDER];

	/*
	 * The LRU lists, under lru_lock (taken with interrupts off, never
	 * inside zone->lru_lock or the other way round).  A page counted on
	 * list l has PG_lru, PG_active iff is_active_lru(l), PG_unevictable
	 * iff l is LRU_UNEVICTABLE, and sits on lru[physical_lru(l)]: under
	 * lru=split that is lru[l] and vm_stat[NR_LRU_BASE + l] is its
	 * length; under lru=single the one inactive (active) list's length
	 * is the sum of the anon and file inactive (active) counters.
	 * nr_scan is what shrink_zone owes the list: scan targets too small
	 * for a batch of SWAP_CLUSTER_MAX, carried to the next call (under
	 * lru=single, 2.6.27's nr_scan_inactive and nr_scan_active are
	 * lru[LRU_BASE].nr_scan and lru[LRU_BASE + LRU_ACTIVE].nr_scan).
	 */
	spinlock_t lru_lock;
	struct {
		struct list_head list;
		unsigned long nr_scan;
	} lru[NR_LRU_LISTS];
	/*
	 * Reclaim's evidence for balancing anon against file (index 0 anon,
	 * 1 file): pages that entered or were scanned on the lists, and those
	 * of them found in use and put on (or kept on) an active list.
	 * get_scan_ratio halves both when they grow large.
	 */
	unsigned long recent_rotated[2];
	unsigned long recent_scanned[2];
	/* Pages scanned since a page of the zone was last freed. */
	unsigned long pages_scanned;
	unsigned long flags;		/* ZONE_ALL_UNRECLAIMABLE (mm/vmscan.c) */
	/* The priority the last reclaim of the zone got down to (DEF_PRIORITY
	 * at boot and after easy passes), as Linux 2.6.27 and 2.6.28 keep it:
	 * lru=single's calc_reclaim_mapped reads it, /proc/zoneinfo shows it. */
	int prev_priority;
	/* Target of active/inactive anon pages: inactive_anon_is_low. */
	unsigned int inactive_ratio;

	long vm_stat[NR_VM_ZONE_STAT_ITEMS];

	struct pglist_data *zone_pgdat;
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	unsigned long present_pages;
	unsigned long managed_pages;
	const char *name;
};

/* zone->flags bits. */
enum zone_flags {
	ZONE_ALL_UNRECLAIMABLE,		/* reclaim scanned 6x its pages for nothing */
};

static inline bool zone_is_all_unreclaimable(const struct zone *zone)
{
	return zone->flags & (1ul << ZONE_ALL_UNRECLAIMABLE);
}

static inline void zone_set_flag(struct zone *zone, enum zone_flags flag)
{
	zone->flags |= 1ul << flag;
}

static inline void zone_clear_flag(struct zone *zone, enum zone_flags flag)
{
	zone->flags &= ~(1ul << flag);
}

struct task_struct;

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	int nr_zones;
	unsigned long node_start_pfn;
	unsigned long node_present_pages;
	unsigned long node_spanned_pages;
	/* kswapd (mm/vmscan.c, where it sleeps on kswapd_wait): the thread,
	 * and the largest order an allocation woke it for since it looked. */
	struct task_struct *kswapd;
	int kswapd_max_order;
} pg_data_t;

extern struct pglist_data contig_page_data;
#define NODE_DATA(nid) (&contig_page_data)

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

static inline enum zone_type zone_idx(const struct zone *zone)
{
	return (enum zone_type)(zone - zone->zone_pgdat->node_zones);
}

#define for_each_zone(zone) \
	for (zone = NODE_DATA(0)->node_zones; \
	     zone < NODE_DATA(0)->node_zones + MAX_NR_ZONES; zone++)

#endif
