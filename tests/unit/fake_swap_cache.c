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
#include <mm/pgtable.h>
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

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	(void)mm;
	panic("fake find_vma: %#lx, but there are no processes", addr);
}

int handle_mm_fault(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long address,
		    unsigned int flags)
{
	(void)mm;
	(void)vma;
	(void)flags;
	panic("fake handle_mm_fault: %#lx, but there are no processes", address);
}

void mmput(struct mm_struct *mm)
{
	(void)mm;
	panic("fake mmput, but there are no processes");
}

pte_t *pt_walk(pte_t *pgd, unsigned long addr, uint64_t prot, const struct pt_allocator *alloc,
	       enum pg_level *level)
{
	(void)pgd;
	(void)prot;
	(void)alloc;
	(void)level;
	panic("fake pt_walk: %#lx, but there are no processes", addr);
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
