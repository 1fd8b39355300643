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

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES
};

#define MAX_DMA_PFN   ((16ul << 20) >> 12)	/* 16 MiB */
#define MAX_DMA32_PFN ((4ul << 30) >> 12)	/* 4 GiB */

/* Per-zone counters (Linux's enum zone_stat_item); later subsystems add theirs. */
enum zone_stat_item {
	NR_FREE_PAGES,
	NR_SLAB_UNRECLAIMABLE,
	NR_PAGETABLE,
	NR_VM_ZONE_STAT_ITEMS
};

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

	long vm_stat[NR_VM_ZONE_STAT_ITEMS];

	struct pglist_data *zone_pgdat;
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	unsigned long present_pages;
	unsigned long managed_pages;
	const char *name;
};

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	int nr_zones;
	unsigned long node_start_pfn;
	unsigned long node_present_pages;
	unsigned long node_spanned_pages;
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
