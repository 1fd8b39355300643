/*
 * fake_swap: a machine with no swap area, for unit tests that link
 * reclaim and the swap cache (mm/swap_state.c) without mm/swapfile.c and
 * mm/page_io.c.  The totals are each test's to set (get_scan_ratio reads
 * them); get_swap_page never finds a slot, so add_to_swap fails as it
 * does with swap full, and no swap entry can exist: the calls that need
 * one panic, naming themselves.
 */
#include <mm/swap.h>
#include <pageturn/panic.h>

long nr_swap_pages;
long total_swap_pages;

swp_entry_t get_swap_page(void)
{
	return swp_entry(0, 0);
}

int swap_duplicate_if_used(swp_entry_t entry)
{
	(void)entry;
	return 0;
}

int try_to_free_swap(struct page *page)
{
	(void)page;
	return 0;
}

void swap_free(swp_entry_t entry)
{
	panic("fake swap_free: entry %#lx, but no swap area exists", entry.val);
}

int swap_duplicate(swp_entry_t entry)
{
	panic("fake swap_duplicate: entry %#lx, but no swap area exists", entry.val);
}

void free_swap_and_cache(swp_entry_t entry)
{
	panic("fake free_swap_and_cache: entry %#lx, but no swap area exists", entry.val);
}

int reuse_swap_page(struct page *page)
{
	panic("fake reuse_swap_page: pfn %lu, but no swap area exists", page_to_pfn(page));
}

int swap_writepage(struct address_space *mapping, struct page *page)
{
	(void)mapping;
	panic("fake swap_writepage: pfn %lu, but no swap area exists", page_to_pfn(page));
}

int swap_readpage(struct page *page)
{
	panic("fake swap_readpage: pfn %lu, but no swap area exists", page_to_pfn(page));
}
