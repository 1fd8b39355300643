/*
 * fake_swap_cache: an empty swap cache, for the unit test of
 * mm/swapfile.c without mm/swap_state.c.  No page is ever in it, so
 * free_swap_and_cache never finds one, and the calls that need a page
 * panic, naming themselves.
 */
#include <mm/pagemap.h>
#include <mm/swap.h>
#include <pageturn/panic.h>

struct page *lookup_swap_cache(swp_entry_t entry)
{
	(void)entry;
	return NULL;
}

void delete_from_swap_cache(struct page *page)
{
	panic("fake delete_from_swap_cache: pfn %lu, but the swap cache is empty",
	      page_to_pfn(page));
}

void free_swap_cache(struct page *page)
{
	panic("fake free_swap_cache: pfn %lu, but the swap cache is empty", page_to_pfn(page));
}

bool trylock_page(struct page *page)
{
	panic("fake trylock_page: pfn %lu, but the swap cache is empty", page_to_pfn(page));
}

void unlock_page(struct page *page)
{
	panic("fake unlock_page: pfn %lu, but the swap cache is empty", page_to_pfn(page));
}
