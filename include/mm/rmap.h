/*
 * What a page is to the page tables that map it (Linux's PageAnon and
 * page_mapped, include/linux/mm.h, v2.6.28).  mm/memory.c keeps the
 * counts; the essay there explains them.
 *
 * Two kinds of page are mapped into user space:
 *
 *   anonymous   memory with no file behind it: a process's heap, stack,
 *               MAP_ANONYMOUS mappings and its private copies of file
 *               pages.  It has PG_swapbacked (it lives on the anon LRU
 *               lists) and no mapping: page->mapping is NULL.
 *   file        a page-cache page: page->mapping is its file's
 *               address_space.  A tmpfs page is a file page too, although
 *               it has PG_swapbacked.
 *
 * So the rule is: anonymous iff PG_swapbacked and mapping == NULL.  (Linux
 * marks anonymous pages with a tagged page->mapping pointing at their
 * anon_vma; Pageturn has no reverse map yet, so nothing is stored there.
 * Without one, truncation cannot unmap a page as Linux does: a page-cache
 * page truncated while still mapped loses its mapping but stays mapped,
 * and a tmpfs page then also loses PG_swapbacked (mm/filemap.c), so it
 * still counts as a file page until its last mapping goes.)
 *
 * page->_mapcount counts the page-table entries mapping the page, in every
 * address space, minus one: -1 when it is mapped nowhere.
 */
#ifndef MM_RMAP_H
#define MM_RMAP_H

#include <mm/mm.h>

static inline bool PageAnon(const struct page *page)
{
	return PageSwapBacked(page) && page->mapping == NULL;
}

/* Is the page mapped by at least one page-table entry? */
static inline bool page_mapped(const struct page *page)
{
	return page->_mapcount >= 0;
}

#endif
