/*
 * mem_map and the conversions between a struct page, its page frame
 * number and its direct-map address (Linux's FLATMEM model: one array
 * covering pfn 0 .. max_pfn - 1, holes included).
 */
#ifndef MM_MM_H
#define MM_MM_H

#include <asm/page.h>
#include <mm/mmzone.h>
#include <mm/page-flags.h>

extern struct page *mem_map;
extern unsigned long max_pfn;		/* one past the highest RAM pfn */

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < max_pfn;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

static inline void *page_address(const struct page *page)
{
	return phys_to_virt(page_to_phys(page));
}

static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(virt_to_phys(addr) >> PAGE_SHIFT);
}

static inline enum zone_type page_zonenum(const struct page *page)
{
	return (enum zone_type)((page->flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

static inline void set_page_zone(struct page *page, enum zone_type zone)
{
	page->flags &= ~(ZONES_MASK << ZONES_PGSHIFT);
	page->flags |= (unsigned long)zone << ZONES_PGSHIFT;
}

static inline struct zone *page_zone(const struct page *page)
{
	return &NODE_DATA(0)->node_zones[page_zonenum(page)];
}

static inline int page_count(const struct page *page) { return page->_count; }
static inline void set_page_count(struct page *page, int v) { page->_count = v; }
static inline void get_page(struct page *page) { page->_count++; }
static inline int page_mapcount(const struct page *page) { return page->_mapcount + 1; }

/* Drop a reference to an order-0 page; the last one frees it.  (There are
 * no compound pages: blocks of higher order go back with __free_pages.) */
void put_page(struct page *page);

#endif
