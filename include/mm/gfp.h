/*
 * Allocation flags and the page allocator's interface (Linux's
 * include/linux/gfp.h, v2.6.28 names).
 *
 * Zone modifiers pick the highest zone an allocation may use; it falls
 * back to lower zones (NORMAL -> DMA32 -> DMA) while their lowmem_reserve
 * allows.  Action modifiers say what the allocator may do to find memory.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

#include <mm/mmzone.h>

typedef unsigned int gfp_t;

/* Zone modifiers. */
#define __GFP_DMA	0x01u
#define __GFP_DMA32	0x04u
/* Action modifiers. */
#define __GFP_WAIT	0x10u	/* may sleep (and reclaim) */
#define __GFP_HIGH	0x20u	/* may dip below the min watermark (ALLOC_HIGH) */
#define __GFP_IO	0x40u	/* may start I/O */
#define __GFP_FS	0x80u	/* may call into filesystems */
#define __GFP_NOWARN	0x200u	/* no message on failure */
#define __GFP_NORETRY	0x1000u	/* fail rather than retry or call the OOM killer */
#define __GFP_MEMALLOC	0x2000u	/* may use the reserves below pages_min (Linux 3.6's flag) */
#define __GFP_ZERO	0x8000u	/* return zeroed memory */
#define __GFP_NOMEMALLOC 0x10000u /* never the reserves, even for PF_MEMALLOC/PF_MEMDIE */

#define GFP_ATOMIC	(__GFP_HIGH)
#define GFP_NOIO	(__GFP_WAIT)
#define GFP_NOFS	(__GFP_WAIT | __GFP_IO)
#define GFP_KERNEL	(__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_USER	(__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_DMA		(__GFP_DMA)
#define GFP_DMA32	(__GFP_DMA32)

/* The highest zone gfp allows. */
enum zone_type gfp_zone(gfp_t gfp);

/*
 * Allocate 2^order contiguous pages, or return NULL (never panics).  The
 * pages have _count 1 and no flags.  Called with interrupts on or off;
 * with __GFP_WAIT it may sleep (reclaim, the OOM killer, naps between
 * retries: mm/page_alloc.c's opening comment says how long).
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
#define alloc_page(gfp) alloc_pages(gfp, 0)

/* Drop a reference to 2^order pages from alloc_pages; the last one frees
 * them.  Freeing a page that is already free is a kernel bug (panic). */
void __free_pages(struct page *page, unsigned int order);
#define __free_page(page) __free_pages(page, 0)

/* The same by direct-map address. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
#define __get_free_page(gfp) __get_free_pages(gfp, 0)
#define free_page(addr) free_pages(addr, 0)

/* Free pages in all zones. */
unsigned long nr_free_pages(void);

#endif
