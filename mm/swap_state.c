/*
 * The swap cache (Linux's mm/swap_state.c, v2.6.28 names, with one
 * address_space per swap area as Linux has since 4.9): the anonymous
 * pages that have a swap slot, each in the page tree of its area's
 * swapper_spaces[type] at its slot's offset.  A page in it has
 * PG_swapcache and its swp_entry_t in page->private; page->mapping stays
 * the anon_vma it was mapped under (or NULL for a page read from swap and
 * not mapped yet), page->index its linear index: the reverse map works as
 * for any anonymous page.  The cache holds one page reference and one
 * swap_map count of the slot.
 *
 * A page enters the cache two ways:
 *   add_to_swap            reclaim gives a mapped anonymous page a slot
 *                          (shrink_page_list), marks it dirty, and
 *                          try_to_unmap then writes the entry into every
 *                          PTE that mapped it; pageout writes it.
 *   read_swap_cache_async  a fault (or its readahead) finds a swap PTE
 *                          whose slot has no page: a new page is added
 *                          and read (mm/page_io.c), and put on the
 *                          INACTIVE anon list, so that a page swapped in
 *                          once must prove itself before it is kept
 *                          (Linux 2.6.28, the split-LRU series).
 * and leaves it by delete_from_swap_cache: reclaim's __remove_mapping
 * once it is written and unmapped; try_to_free_swap when no swap PTE
 * refers to the slot any more (the last process faulted it in, or exited);
 * a write fault that makes the page its mapper's alone (reuse_swap_page).
 *
 * Anonymous pages on the LRU.  An anonymous page is on an LRU list while
 * a PTE maps it or it is in the swap cache; when neither holds any more
 * (free_swap_cache) it leaves its list and the last put_page frees it.
 *
 * Locking: the cache's page trees change under their tree_lock, always in
 * process context, with the page locked; lookups take a reference under
 * no lock (one CPU; interrupts never change a tree).
 */
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <pageturn/panic.h>
#include <pageturn/radix-tree.h>
#include <uapi/errno.h>

#include "internal.h"

static const struct address_space_operations swap_aops = {
	.writepage = swap_writepage,
};

static struct address_space swapper_spaces[MAX_SWAPFILES];

/* Reads around a faulting slot: 1 << page_cluster slots (Linux's
 * vm.page-cluster, default 3). */
int page_cluster = 3;

void swap_cache_init(void)
{
	unsigned int type;

	for (type = 0; type < MAX_SWAPFILES; type++)
		address_space_init(&swapper_spaces[type], NULL, &swap_aops, true);
}

static struct address_space *swap_address_space(swp_entry_t entry)
{
	return &swapper_spaces[swp_type(entry)];
}

struct address_space *swap_address_space_of(unsigned long entry_val)
{
	return swap_address_space((swp_entry_t){ entry_val });
}

unsigned long total_swapcache_pages(void)
{
	unsigned long n = 0;
	unsigned int type;

	for (type = 0; type < MAX_SWAPFILES; type++)
		n += swapper_spaces[type].nrpages;
	return n;
}

int add_to_swap_cache(struct page *page, swp_entry_t entry, gfp_t gfp)
{
	struct address_space *as = swap_address_space(entry);
	unsigned long flags;
	int err;

	if (!PageLocked(page) || PageSwapCache(page))
		panic("add_to_swap_cache: pfn %lu is not a locked page outside the cache",
		      page_to_pfn(page));
	err = radix_tree_preload(gfp);
	if (err)
		return err;
	spin_lock_irqsave(&as->tree_lock, flags);
	err = radix_tree_insert(&as->page_tree, swp_offset(entry), page);
	if (!err) {
		get_page(page);		/* the cache's reference */
		SetPageSwapCache(page);
		page->private = entry.val;
		as->nrpages++;
	}
	spin_unlock_irqrestore(&as->tree_lock, flags);
	radix_tree_preload_end();
	return err;
}

/* Take a locked page out of the swap cache; the caller drops the cache's
 * reference and slot count (Linux's __delete_from_swap_cache). */
static void __delete_from_swap_cache(struct page *page)
{
	swp_entry_t entry = { page->private };
	struct address_space *as = swap_address_space(entry);
	unsigned long flags;

	if (!PageLocked(page) || !PageSwapCache(page) || PageWriteback(page))
		panic("__delete_from_swap_cache: pfn %lu is not a locked swap-cache page at rest",
		      page_to_pfn(page));
	spin_lock_irqsave(&as->tree_lock, flags);
	radix_tree_delete(&as->page_tree, swp_offset(entry));
	ClearPageSwapCache(page);
	/* A failed write to the slot it leaves no longer concerns it. */
	ClearPageError(page);
	page->private = 0;
	as->nrpages--;
	spin_unlock_irqrestore(&as->tree_lock, flags);
}

void delete_from_swap_cache(struct page *page)
{
	swp_entry_t entry = { page->private };

	__delete_from_swap_cache(page);
	swap_free(entry);
	put_page(page);		/* the cache's reference */
}

int add_to_swap(struct page *page)
{
	swp_entry_t entry;
	int err;

	if (!PageLocked(page) || !PageAnon(page) || PageSwapCache(page))
		panic("add_to_swap: pfn %lu is not a locked anonymous page", page_to_pfn(page));
	entry = get_swap_page();
	if (!entry.val)
		return 0;
	/* No sleeping here (reclaim calls it), and the reserves are left
	 * to whoever needs them more. */
	err = add_to_swap_cache(page, entry, __GFP_HIGH | __GFP_NOMEMALLOC | __GFP_NOWARN);
	if (err) {
		swap_free(entry);
		return 0;
	}
	/* The slot has no copy of the data yet: it must be written. */
	SetPageDirty(page);
	return 1;
}

struct page *lookup_swap_cache(swp_entry_t entry)
{
	return find_get_page(swap_address_space(entry), swp_offset(entry));
}

/*
 * The page of entry's slot, from the cache or a new one being read into
 * it (still locked by the read, which unlocks it), with a reference for
 * the caller; NULL when memory is short or the slot was freed while we
 * slept (the caller's PTE changed: it looks again).  May sleep.
 */
struct page *read_swap_cache_async(swp_entry_t entry, gfp_t gfp)
{
	struct page *page, *new;
	int err;

	for (;;) {
		page = lookup_swap_cache(entry);
		if (page)
			return page;
		new = alloc_page(gfp);
		if (!new)
			return NULL;
		/* The allocation may have slept: the slot may be free now, or
		 * another task may have added the page.  A count for the cache,
		 * taken only while the slot is still in use. */
		if (!swap_duplicate_if_used(entry)) {
			put_page(new);
			return NULL;
		}
		SetPageLocked(new);
		err = add_to_swap_cache(new, entry, gfp & GFP_KERNEL);
		if (!err)
			break;
		ClearPageLocked(new);
		put_page(new);
		swap_free(entry);
		if (err != -EEXIST)
			return NULL;
	}
	SetPageSwapBacked(new);
	lru_cache_add_anon(new);
	swap_readpage(new);
	return new;
}

struct page *swapin_readahead(swp_entry_t entry, gfp_t gfp)
{
	unsigned long nr = 1ul << page_cluster, mask = nr - 1;
	pgoff_t offset = swp_offset(entry), start = offset & ~mask, off;
	struct blk_plug plug;
	struct page *page;

	/* One plug: the reads of neighbouring slots reach the disk as one
	 * request. */
	blk_start_plug(&plug);
	for (off = start; page_cluster && off < start + nr; off++) {
		if (off == offset)
			continue;
		/* Only slots in use are read; others are skipped quietly. */
		page = read_swap_cache_async(swp_entry(swp_type(entry), off), gfp);
		if (page)
			put_page(page);
	}
	page = read_swap_cache_async(entry, gfp);
	blk_finish_plug(&plug);
	return page;
}

void free_swap_cache(struct page *page)
{
	if (page_mapped(page))
		return;
	if (PageSwapCache(page) && trylock_page(page)) {
		try_to_free_swap(page);
		unlock_page(page);
	}
	/* Still in the cache (another PTE holds its slot, or someone holds
	 * the page lock): it stays on its list for reclaim.  A page-cache
	 * page (tmpfs's) is its file's business. */
	if (PageSwapCache(page) || (page->mapping && !PageAnon(page)))
		return;
	if (isolate_lru_page(page) == 0) {
		ClearPageActive(page);
		ClearPageUnevictable(page);
		free_page_mlock(page);
		put_page(page);		/* the list's reference, handed to us */
	}
}
