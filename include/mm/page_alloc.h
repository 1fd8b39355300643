/*
 * The page allocator's interface to the rest of mm/: setting it up at
 * boot, the watermarks, and the watermark test kswapd shares with it.
 * Allocating and freeing pages is in mm/gfp.h.
 *
 * Boot, in this order (mm/init.c):
 *
 *   1. max_pfn = one past the highest RAM pfn;
 *      mem_map = max_pfn zeroed struct pages.
 *   2. free_area_init_node(0, zones_size, node_start_pfn, zholes_size):
 *      zones laid out, every struct page of every zone marked PG_reserved.
 *   3. free_bootmem_range(start_pfn, end_pfn) for every range of free RAM
 *      (or __free_pages_bootmem block by block).  Pages never freed stay
 *      reserved for good: holes, the kernel image, mem_map itself.
 *      Allocation works from here on.
 *   4. init_per_zone_pages_min(): min_free_kbytes, the watermarks,
 *      lowmem_reserve, totalreserve_pages.  Until then the watermarks are 0.
 *   5. zone_report(), show_free_areas() to print the result, if wanted.
 */
#ifndef MM_PAGE_ALLOC_H
#define MM_PAGE_ALLOC_H

#include <mm/mmzone.h>

/* Every byte of a page freed to the allocator (Linux's PAGE_POISON,
 * include/linux/poison.h; slab's freed objects use POISON_FREE, 0x6b). */
#define PAGE_POISON 0xaa

/* alloc_flags for zone_watermark_ok and the allocator (Linux's values). */
#define ALLOC_NO_WATERMARKS	0x01	/* don't check watermarks at all */
#define ALLOC_WMARK_MIN		0x02	/* use pages_min */
#define ALLOC_WMARK_LOW		0x04	/* use pages_low */
#define ALLOC_WMARK_HIGH	0x08	/* use pages_high */
#define ALLOC_HARDER		0x10	/* may go a quarter below the mark (!__GFP_WAIT) */
#define ALLOC_HIGH		0x20	/* may go half below the mark (__GFP_HIGH) */

/* The free memory the allocator keeps back, in KiB (/proc/sys/vm/min_free_kbytes). */
extern int min_free_kbytes;
/* lowmem_reserve divisors: zone i keeps (pages of zones i+1..j) / ratio[i]
 * back from allocations whose preferred zone is j. */
extern int sysctl_lowmem_reserve_ratio[MAX_NR_ZONES - 1];

/*
 * Lay out node nid (only 0 exists) at boot.  Zone i spans zones_size[i]
 * pfns, holes included, right after zone i-1; zone 0 starts at
 * node_start_pfn.  zholes_size[i] of those pfns are not RAM, so
 * present_pages = zones_size[i] - zholes_size[i].  Each zone must lie in
 * its physical range (DMA below 16 MiB, DMA32 below 4 GiB, NORMAL above
 * 4 GiB) and the node must end at or below max_pfn; anything else is a
 * bug in the caller and panics.  Every struct page in the zones becomes
 * reserved (_count 1, _mapcount -1, PG_reserved, its zone set); the free
 * lists start empty.  Requires mem_map and max_pfn set, and runs once.
 */
void free_area_init_node(int nid, const unsigned long zones_size[MAX_NR_ZONES],
			 unsigned long node_start_pfn,
			 const unsigned long zholes_size[MAX_NR_ZONES]);

/*
 * Give the 2^order reserved pages at page, a block aligned to its size
 * inside one zone, to the allocator for good: they become free pages and
 * count in zone->managed_pages and totalram_pages.  Boot memory is not
 * poisoned.  Panics if a page is not reserved (given twice).
 */
void __free_pages_bootmem(struct page *page, unsigned int order);

/* The same for every pfn in [start_pfn, end_pfn), in the largest aligned blocks. */
void free_bootmem_range(unsigned long start_pfn, unsigned long end_pfn);

/*
 * Set min_free_kbytes from the memory the allocator manages, then the
 * watermarks and lowmem_reserve of every zone.  Once at boot, after the
 * boot memory has been freed.
 */
void init_per_zone_pages_min(void);

/* Recompute pages_min/low/high (after min_free_kbytes changes). */
void setup_per_zone_pages_min(void);
/* Recompute lowmem_reserve[] (after sysctl_lowmem_reserve_ratio changes). */
void setup_per_zone_lowmem_reserve(void);

/*
 * May zone z give an order-sized block and stay above mark (pages_min,
 * _low or _high), plus the lowmem_reserve an allocation whose preferred
 * zone is classzone_idx must leave?  alloc_flags: ALLOC_HIGH, ALLOC_HARDER.
 * Reads the counters without zone->lock: the answer is a snapshot.
 */
bool zone_watermark_ok(struct zone *z, int order, unsigned long mark,
		       int classzone_idx, int alloc_flags);

/* floor(sqrt(x)), exact for every unsigned long. */
unsigned long int_sqrt(unsigned long x);

/* Print the memory report: "Mem-Info:", the page counts, each zone's
 * watermarks and lists, its free blocks by order (Linux's
 * show_free_areas; the OOM killer's report shows it). */
void show_free_areas(void);
/* Print each zone's span, page counts, watermarks and lowmem_reserve. */
void zone_report(void);

#endif
