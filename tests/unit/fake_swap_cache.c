/*
 * fake_swap_cache: an empty swap cache and a machine without processes,
 * for the unit test of mm/swapfile.c without mm/swap_state.c and the
 * page tables.  No page is ever in the cache, so free_swap_and_cache never
 * finds one, and no process has a swap PTE for try_to_unuse to fault in:
 * the calls that would need either panic, naming themselves.  Free memory
 * is fake_free_pages, which the test sets (swapoff asks it).
 */
#include <mm/gfp.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/shmem.h>
#include <mm/swap.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>

#include "fake_swap_cache.h"

unsigned long fake_free_pages = 1ul << 20;
unsigned long totalreserve_pages;
LIST_HEAD(task_list_head);
static struct task_struct fake_task;
struct task_struct *current = &fake_task;

unsigned long nr_free_pages(void)
{
	return fake_free_pages;
}

unsigned long find_swap_pte(struct mm_struct *mm, unsigned int type, unsigned long start,
			    swp_entry_t *entry)
{
	(void)mm;
	(void)type;
	(void)entry;
	panic("fake find_swap_pte: %#lx, but there are no processes", start);
}

int unuse_pte(struct mm_struct *mm, unsigned long addr, swp_entry_t entry,
		   struct page *page)
{
	(void)mm;
	(void)entry;
	(void)page;
	panic("fake unuse_pte: %#lx, but there are no processes", addr);
}

/* The test's files live on fake disks with no page cache to write. */
int filemap_write_and_wait(struct address_space *mapping)
{
	(void)mapping;
	return 0;
}

struct page *read_swap_cache_async(swp_entry_t entry, gfp_t gfp)
{
	(void)gfp;
	panic("fake read_swap_cache_async: %#lx, but there are no processes", entry.val);
}

void mmput(struct mm_struct *mm)
{
	(void)mm;
	panic("fake mmput, but there are no processes");
}

void cond_resched(void)
{
	panic("fake cond_resched, but there are no processes");
}

int shmem_unuse(unsigned int type)
{
	(void)type;
	return 0;	/* no tmpfs file here */
}

void lock_page(struct page *page)
{
	panic("fake lock_page: pfn %lu, but the swap cache is empty", page_to_pfn(page));
}

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

void wait_on_page_writeback(struct page *page)
{
	panic("fake wait_on_page_writeback: pfn %lu, but the swap cache is empty",
	      page_to_pfn(page));
}
