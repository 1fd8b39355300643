/*
 * struct page: one per physical page frame, in mem_map, indexed by page
 * frame number.  Fields and their meaning follow Linux (v2.6.28
 * include/linux/mm_types.h):
 *
 *   flags      PG_* bits (mm/page-flags.h), zone number in the top bits
 *   _count     references; 0 = free (in the buddy allocator or unused)
 *   _mapcount  page-table entries mapping the page, minus one (-1 = none)
 *   mapping    the address_space of a page-cache page (NULL otherwise)
 *   index      the page's offset in its mapping, in pages
 *   private    buddy order when PG_buddy; swap entry when PG_swapcache
 *   lru        list link: a buddy free list, an LRU list, a slab list
 *
 * The structure must stay at most 64 bytes (1.6 % of RAM in mem_map);
 * today it is 56 bytes, 1.4 %.
 */
#ifndef MM_MM_TYPES_H
#define MM_MM_TYPES_H

#include <pageturn/list.h>
#include <pageturn/types.h>

struct address_space;

typedef unsigned long pgoff_t;

struct page {
	unsigned long flags;
	int _count;
	int _mapcount;
	struct address_space *mapping;
	pgoff_t index;
	unsigned long private;
	struct list_head lru;
};

_Static_assert(sizeof(struct page) <= 64, "struct page must stay within 64 bytes");

#endif
