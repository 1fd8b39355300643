/*
 * Page flags: one bit each in page->flags, with Linux's names.  The zone a
 * page belongs to is kept in the top bits of the same word (ZONES_SHIFT).
 *
 * Accessors, generated as Linux's PAGEFLAG() macros do:
 *   PageLRU(page)  SetPageLRU(page)  ClearPageLRU(page)
 *   TestSetPageLRU(page)  TestClearPageLRU(page)
 * Each update is one atomic read-modify-write of page->flags (Linux's
 * set_bit/test_and_set_bit), because a read's completion sets
 * PG_uptodate and clears PG_locked from the disk's interrupt handler
 * (fs/mpage.c) while process context may be changing other bits of the
 * same page, such as PG_referenced or PG_lru.
 */
#ifndef MM_PAGE_FLAGS_H
#define MM_PAGE_FLAGS_H

#include <mm/mm_types.h>

enum pageflags {
	PG_locked,		/* page lock: I/O in progress, truncation excluded */
	PG_error,		/* the page's last write failed (set by a write's end) */
	PG_referenced,		/* one software-observed access (second chance) */
	PG_uptodate,		/* contents valid */
	PG_dirty,		/* contents newer than the backing store */
	PG_lru,			/* on a zone LRU list */
	PG_active,		/* on an active LRU list */
	PG_slab,		/* owned by the slab allocator */
	PG_reserved,		/* never given to the page allocator */
	PG_private,		/* page->private holds filesystem data */
	PG_writeback,		/* write I/O in flight */
	PG_swapcache,		/* in the swap cache; page->private = swap entry */
	PG_reclaim,		/* reclaim wrote it: rotate to the inactive tail after I/O */
	PG_buddy,		/* free, in the buddy allocator; page->private = order */
	PG_swapbacked,		/* backed by RAM or swap: lives on the anon LRU */
	PG_unevictable,		/* on LRU_UNEVICTABLE */
	PG_mlocked,		/* mapped by a VM_LOCKED vma */
	PG_readahead,		/* page cache: reaching it starts the next readahead window */
	__NR_PAGEFLAGS
};

#define ZONES_SHIFT	2
#define ZONES_PGSHIFT	(64 - ZONES_SHIFT)
#define ZONES_MASK	((1ul << ZONES_SHIFT) - 1)

#define PAGEFLAG(uname, lname) \
static inline bool Page##uname(const struct page *page) \
	{ return page->flags & (1ul << PG_##lname); } \
static inline void SetPage##uname(struct page *page) \
	{ __atomic_fetch_or(&page->flags, 1ul << PG_##lname, __ATOMIC_SEQ_CST); } \
static inline void ClearPage##uname(struct page *page) \
	{ __atomic_fetch_and(&page->flags, ~(1ul << PG_##lname), __ATOMIC_SEQ_CST); } \
static inline bool TestSetPage##uname(struct page *page) \
	{ return __atomic_fetch_or(&page->flags, 1ul << PG_##lname, __ATOMIC_SEQ_CST) & \
		 (1ul << PG_##lname); } \
static inline bool TestClearPage##uname(struct page *page) \
	{ return __atomic_fetch_and(&page->flags, ~(1ul << PG_##lname), __ATOMIC_SEQ_CST) & \
		 (1ul << PG_##lname); }

PAGEFLAG(Locked, locked)
PAGEFLAG(Error, error)
PAGEFLAG(Referenced, referenced)
PAGEFLAG(Uptodate, uptodate)
PAGEFLAG(Dirty, dirty)
PAGEFLAG(LRU, lru)
PAGEFLAG(Active, active)
PAGEFLAG(Slab, slab)
PAGEFLAG(Reserved, reserved)
PAGEFLAG(Private, private)
PAGEFLAG(Writeback, writeback)
PAGEFLAG(SwapCache, swapcache)
PAGEFLAG(Reclaim, reclaim)
PAGEFLAG(Buddy, buddy)
PAGEFLAG(SwapBacked, swapbacked)
PAGEFLAG(Unevictable, unevictable)
PAGEFLAG(Mlocked, mlocked)
PAGEFLAG(Readahead, readahead)

/* Flags that must be clear when a page is freed (Linux's
 * PAGE_FLAGS_CHECK_AT_FREE) and when it is handed out (..._AT_PREP). */
#define PAGE_FLAGS_CHECK_AT_FREE \
	((1ul << PG_lru) | (1ul << PG_locked) | (1ul << PG_private) | \
	 (1ul << PG_writeback) | (1ul << PG_reserved) | (1ul << PG_slab) | \
	 (1ul << PG_swapcache) | (1ul << PG_active) | (1ul << PG_buddy) | \
	 (1ul << PG_unevictable) | (1ul << PG_mlocked))
#define PAGE_FLAGS_CHECK_AT_PREP \
	(((1ul << __NR_PAGEFLAGS) - 1) & ~(1ul << PG_uptodate))

#endif
