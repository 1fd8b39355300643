/*
 * Suite "swap": the swap areas' counts against their users.
 *
 *   map_matches_ptes  for every area that is on, each slot's swap_map
 *                     count equals the swap PTEs naming it in every
 *                     address space and the tmpfs files' swap entries
 *                     naming it, plus one if the swap cache holds a
 *                     page for it (and that page says so: PG_swapcache,
 *                     page->private the slot's entry); the area's
 *                     inuse_pages counts its used slots; and over all
 *                     areas SwapFree + used == SwapTotal.  The QEMU cases
 *                     that swap run it when init powers off
 *                     (test_at_poweroff), after the user programs.
 *
 * The walk sleeps nowhere (pt_walk, the task list, lookup_swap_cache), so
 * it sees one consistent picture; the count table is allocated first.
 */
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pgtable.h>
#include <mm/shmem.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>

/* Add the swap PTEs of mm naming area type to counts[offset]. */
static void count_swap_ptes(struct mm_struct *mm, unsigned int type, unsigned int *counts,
			    unsigned long max)
{
	unsigned long addr = 0;
	swp_entry_t e;

	while ((addr = find_swap_pte(mm, type, addr, &e)) != -1ul) {
		if (swp_offset(e) < max)
			counts[swp_offset(e)]++;
		addr += PAGE_SIZE;
	}
}

/* Has an earlier task on the list the same mm (vfork, CLONE_VM)? */
static bool mm_seen_before(struct task_struct *p)
{
	struct task_struct *q;

	list_for_each_entry(q, &task_list_head, tasks) {
		if (q == p)
			return false;
		if (q->mm == p->mm)
			return true;
	}
	return false;
}

/* The problems found in area type (printed), 0 if none. */
static int check_area(struct swap_info_struct *si, unsigned int type, unsigned long *inuse)
{
	unsigned int *counts = kzalloc(si->max * sizeof(*counts), GFP_KERNEL);
	struct task_struct *p;
	unsigned long offset, used = 0;
	int problems = 0;

	if (!counts) {
		printk(KERN_ERR "    # swap: no memory to check %s\n", si->name);
		return 1;
	}
	list_for_each_entry(p, &task_list_head, tasks)
		if (p->mm && !mm_seen_before(p))
			count_swap_ptes(p->mm, type, counts, si->max);
	shmem_count_swap(type, counts, si->max);
	for (offset = 0; offset < si->max; offset++) {
		unsigned int map = si->swap_map[offset], want = counts[offset];
		struct page *page;

		if (map == SWAP_MAP_BAD)
			continue;
		page = lookup_swap_cache(swp_entry(type, offset));
		if (page) {
			if (!PageSwapCache(page) || page->private != swp_entry(type, offset).val) {
				printk(KERN_ERR "    # swap: %s slot %lu: cache page pfn %lu is not its\n",
				       si->name, offset, page_to_pfn(page));
				problems++;
			}
			want++;
			put_page(page);
		}
		if (map)
			used++;
		if (map != want && map != SWAP_MAP_MAX && problems++ < 10)
			printk(KERN_ERR "    # swap: %s slot %lu: swap_map %u, %u users found\n",
			       si->name, offset, map, want);
	}
	if (used != si->inuse_pages) {
		printk(KERN_ERR "    # swap: %s: %lu slots used, inuse_pages %u\n", si->name, used,
		       si->inuse_pages);
		problems++;
	}
	*inuse += used;
	kfree(counts);
	return problems;
}

KTEST(swap, map_matches_ptes)
{
	unsigned long total, free, inuse = 0;
	unsigned int type, areas = 0;
	int problems = 0;

	for (type = 0; type < MAX_SWAPFILES; type++) {
		struct swap_info_struct *si = get_swap_info_struct(type);

		if (!si)
			continue;
		areas++;
		problems += check_area(si, type, &inuse);
	}
	si_swapinfo(&total, &free);
	printk(KERN_INFO "    # swap: %u areas, %lu of %lu pages used, %lu in the swap cache\n",
	       areas, inuse, total, total_swapcache_pages());
	KTEST_EXPECT_EQ(t, problems, 0);
	KTEST_EXPECT_EQ(t, free + inuse, total);
}
