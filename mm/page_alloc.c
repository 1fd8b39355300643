/*
 * The page allocator: a binary buddy allocator per zone (Linux v2.6.28
 * mm/page_alloc.c, same names and algorithms).
 *
 * Free memory of a zone is kept as blocks of 2^order pages, order 0 to
 * MAX_ORDER-1 (4 KiB to 4 MiB), one list of blocks per order in
 * zone->free_area[order].  A block of order k starts at a pfn that is a
 * multiple of 2^k; its buddy is the other half of the order k+1 block
 * that holds it, at pfn ^ 2^k.  Freeing a block whose buddy is free and
 * of the same order merges the two, and so on up; allocating splits a
 * larger block in halves (expand) until one of the right order is left.
 *
 * A struct page is in one of these states:
 *
 *   reserved     PG_reserved, _count 1.  Never given to the allocator:
 *                holes, the kernel image, mem_map, boot allocations.
 *                Every page starts here (free_area_init_node).
 *   free head    the first page of a free block: PG_buddy, private = order,
 *                _count 0, lru on free_area[order].free_list.
 *   free tail    any other page of a free block: _count 0, no flags.
 *   allocated    the first page of an allocated block: _count >= 1; the
 *                owner may set flags, mapping, index, private, lru.
 *   tail         any other page of an allocated block: _count 0.
 *
 * Invariants, under zone->lock:
 *   - Only the head of a free block has PG_buddy, and its private is the
 *     block's order.  The block is aligned to its size and lies in the zone.
 *   - The free lists are fully merged: no free block's buddy is a free
 *     block of the same order.
 *   - free_area[k].nr_free is the length of free_area[k].free_list, and
 *     NR_FREE_PAGES of the zone is the sum of nr_free[k] << k.
 *   - A free page has no flags but its zone (and PG_buddy on a head),
 *     _mapcount -1, no mapping, private 0 (the order on a head).
 *   - Every byte of a free page that was ever allocated is PAGE_POISON,
 *     so a stale pointer into freed memory reads 0xaaaa...  Boot memory is
 *     not poisoned: no stale pointer can point into memory never handed
 *     out, and a pass over all RAM at boot would buy nothing.  Nothing
 *     checks the poison on allocation.
 * An allocated block is handed out with _count 1 on its head, _mapcount
 * -1, no flags but the zone, private 0.
 *
 * Which zone: gfp_zone() names the highest zone an allocation may use;
 * its zonelist is that zone and every populated zone below it (GFP_KERNEL:
 * NORMAL, DMA32, DMA).  The first one is the preferred zone, whose index
 * is the classzone for lowmem_reserve: a lower zone gives pages to it only
 * while keeping lowmem_reserve[classzone] extra pages free.
 *
 * When: each zone has watermarks pages_min < pages_low < pages_high,
 * computed from min_free_kbytes (init_per_zone_pages_min).  alloc_pages
 * is Linux 2.6.28's __alloc_pages_internal:
 *   1. Fast path: the first zone of the zonelist above pages_low.
 *   2. None: wake kswapd for every zone of the zonelist, then retry down
 *      to pages_min (half of that for __GFP_HIGH, a quarter less again
 *      for callers that cannot sleep).
 *   3. Still none, and the caller may use the reserves: retry ignoring
 *      watermarks and lowmem_reserve, then fail.  That is a task in
 *      reclaim (PF_MEMALLOC: reclaim needs memory to free memory; kswapd
 *      too), an OOM victim on its way out (PF_MEMDIE), or a caller that
 *      asks with __GFP_MEMALLOC; never an interrupt handler, never with
 *      __GFP_NOMEMALLOC.  A PF_MEMALLOC task never reclaims in turn.
 *   4. A caller that cannot sleep (no __GFP_WAIT) fails here.
 *   5. Direct reclaim: set PF_MEMALLOC, try_to_free_pages, restore the
 *      flag.  Progress: retry at pages_min.
 *   6. No progress (or MAX_RECLAIM_RETRIES rounds in a row whose
 *      progress did not give this allocation its pages), and the caller
 *      may call into filesystems (__GFP_FS) and may retry (no
 *      __GFP_NORETRY): retry once at pages_high, to
 *      catch memory an OOM kill freed meanwhile; an order above
 *      PAGE_ALLOC_COSTLY_ORDER fails; otherwise out_of_memory()
 *      (mm/oom_kill.c) kills a process, or finds one already dying, and
 *      the allocation naps a tick (so the victim runs and exits) and
 *      starts over at 2.
 *   7. Otherwise an order up to PAGE_ALLOC_COSTLY_ORDER without
 *      __GFP_NORETRY naps HZ/50, ended early by a completed write
 *      (congestion_wait, mm/backing-dev.c), and goes back to 5; anything
 *      else fails.
 *   8. Failing is returning NULL with one line, "<comm>: page
 *      allocation failure. order:N, mode:0x..", unless __GFP_NOWARN.
 * Linux 2.6.28 retries forever at 7 and 6; here every loop is bounded,
 * so no allocation hangs the kernel: at most MAX_RECLAIM_RETRIES (16,
 * Linux 4.7's number) reclaims in a row that did not end in a page
 * (then the OOM killer with __GFP_FS, failure without), and at most
 * OOM_WAIT_RETRIES naps while out_of_memory only finds its earlier
 * victim still exiting (it may be stuck).  When out_of_memory finds no
 * victim at all (only init, kernel threads and oom_score_adj -1000 tasks
 * have memory) the allocation fails, where Linux panics ("Out of memory
 * and no killable processes").  The caller sees NULL and hands -ENOMEM
 * up; a page fault tries the OOM killer once more and retries
 * (pagefault_out_of_memory, called from mm/fault.c).
 * The allocator never panics for lack of memory.  It panics for bugs of
 * its callers: freeing a free page, a reserved page, a page still in use
 * (PAGE_FLAGS_CHECK_AT_FREE), a pfn outside every zone, a block of a
 * wrong order.
 *
 * Where Pageturn differs from Linux 2.6.28: one CPU, so no per-CPU lists
 * of order-0 pages (every page goes straight to the buddy lists); no
 * migrate types (one free list per order); bounded retries (above); no
 * __GFP_NOFAIL, __GFP_REPEAT or zonelist OOM lock (one CPU, no
 * preemption: one task at a time runs out_of_memory); the watermark
 * formulas count managed_pages where 2.6.28 counted present_pages (later
 * Linux does the same); a bad page panics where Linux prints and leaks it.
 */
#include <drivers/blkdev.h>
#include <mm/backing-dev.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/oom.h>
#include <mm/page_alloc.h>
#include <mm/rmap.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/irq.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/sysctl.h>
#include <pageturn/time.h>

struct pglist_data contig_page_data;
struct page *mem_map;
unsigned long max_pfn;

unsigned long totalram_pages;
unsigned long totalreserve_pages;

/* Linux's default until init_per_zone_pages_min computes it. */
int min_free_kbytes = 1024;

/*
 * Linux's x86-64 table is { 256 (DMA), 256 (DMA32), 32 (NORMAL) }: the
 * NORMAL entry protects NORMAL from ZONE_MOVABLE, which Pageturn lacks,
 * so only the first two exist here.
 */
int sysctl_lowmem_reserve_ratio[MAX_NR_ZONES - 1] = { 256, 256 };

static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal" };

/* Zone j may hold pfns zone_pfn_limit[j] .. zone_pfn_limit[j + 1] - 1. */
static const unsigned long zone_pfn_limit[MAX_NR_ZONES + 1] = {
	0, MAX_DMA_PFN, MAX_DMA32_PFN, ~0ul
};

#define PAGE_ZONE_BITS (ZONES_MASK << ZONES_PGSHIFT)
#define K(pages) ((pages) << (PAGE_SHIFT - 10))

static inline unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

/* ---- the buddy lists ------------------------------------------------- */

static inline void set_page_order(struct page *page, unsigned int order)
{
	page->private = order;
	SetPageBuddy(page);
}

static inline void rmv_page_order(struct page *page)
{
	ClearPageBuddy(page);
	page->private = 0;
}

static inline unsigned long page_order(const struct page *page)
{
	return page->private;
}

/*
 * The pfn of the buddy of the order-sized block at page_idx, and of the
 * block the two form together.  Linux masks the pfn to its MAX_ORDER block
 * first (page_idx); the full pfn gives the same answers.
 */
static inline unsigned long __find_buddy_index(unsigned long page_idx, unsigned int order)
{
	return page_idx ^ (1ul << order);
}

static inline unsigned long __find_combined_index(unsigned long page_idx, unsigned int order)
{
	return page_idx & ~(1ul << order);
}

/*
 * Is the page at buddy_idx the head of a free block of this order, in the
 * same zone as page?  Then the two merge.  Called with zone->lock held.
 */
static bool page_is_buddy(const struct page *page, unsigned long buddy_idx, unsigned int order)
{
	const struct page *buddy;

	if (!pfn_valid(buddy_idx))
		return false;
	buddy = pfn_to_page(buddy_idx);
	if (page_zonenum(buddy) != page_zonenum(page))
		return false;
	if (!PageBuddy(buddy) || page_order(buddy) != order)
		return false;
	if (page_count(buddy) != 0)
		panic("page_is_buddy: free pfn %lu has _count %d", buddy_idx, page_count(buddy));
	return true;
}

/*
 * Put the checked, unreferenced block of 2^order pages at page on the
 * free lists, merging it with its buddy as long as the buddy is free.
 * New blocks go to the head of their list, so the most recently freed
 * (cache-warm) pages are handed out first.  Called with zone->lock held.
 */
static void __free_one_page(struct page *page, struct zone *zone, unsigned int order)
{
	unsigned long page_idx = page_to_pfn(page);

	__mod_zone_page_state(zone, NR_FREE_PAGES, 1l << order);
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_idx = __find_buddy_index(page_idx, order);
		struct page *buddy;

		if (!page_is_buddy(page, buddy_idx, order))
			break;

		/* Our buddy is free: merge with it and move up one order. */
		buddy = pfn_to_page(buddy_idx);
		list_del(&buddy->lru);
		zone->free_area[order].nr_free--;
		rmv_page_order(buddy);
		page_idx = __find_combined_index(page_idx, order);
		page = pfn_to_page(page_idx);
		order++;
	}
	set_page_order(page, order);
	list_add(&page->lru, &zone->free_area[order].free_list);
	zone->free_area[order].nr_free++;
}

/*
 * Split the block of order high at page, taken off area (the free_area of
 * order high), down to order low: each step puts the upper half back on
 * the list one order down and keeps the lower half.  Called with
 * zone->lock held.
 */
static void expand(struct page *page, unsigned int low, unsigned int high,
		   struct free_area *area)
{
	unsigned long size = 1ul << high;

	while (high > low) {
		area--;
		high--;
		size >>= 1;
		list_add(&page[size].lru, &area->free_list);
		area->nr_free++;
		set_page_order(&page[size], high);
	}
}

/*
 * Take a block of 2^order pages off the zone's free lists: the first
 * block of the smallest order that has one, split down to size.  Returns
 * NULL when no order >= order has a block.  Called with zone->lock held.
 */
static struct page *__rmqueue(struct zone *zone, unsigned int order)
{
	unsigned int current_order;

	for (current_order = order; current_order < MAX_ORDER; current_order++) {
		struct free_area *area = &zone->free_area[current_order];
		struct page *page;

		if (list_empty(&area->free_list))
			continue;
		page = list_first_entry(&area->free_list, struct page, lru);
		list_del(&page->lru);
		rmv_page_order(page);
		area->nr_free--;
		__mod_zone_page_state(zone, NR_FREE_PAGES, -(1l << order));
		expand(page, order, current_order, area);
		return page;
	}
	return NULL;
}

/* ---- checks ---------------------------------------------------------- */

static __noreturn void bad_page(const char *caller, const struct page *page)
{
	const char *why;

	if (PageReserved(page))
		why = "reserved";
	else if (page_mapcount(page))
		why = "still mapped";
	else if (page->mapping)
		why = "still has a mapping";
	else if (page_count(page))
		why = "still referenced";
	else
		why = "flags set";
	panic("%s: bad page pfn %lu (%s): flags %#lx _count %d _mapcount %d mapping %p",
	      caller, page_to_pfn(page), why, page->flags, page->_count, page->_mapcount,
	      (void *)page->mapping);
}

/*
 * The zone of the block of 2^order pages at page.  The block must be a
 * real one: order below MAX_ORDER, pfn aligned to it, every page inside
 * one zone's span.  Anything else is a bug in caller: panic.
 */
static struct zone *block_zone(const char *caller, struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	struct zone *zone;

	if (order >= MAX_ORDER)
		panic("%s: pfn %lu: order %u >= MAX_ORDER", caller, pfn, order);
	if (!pfn_valid(pfn) || page_zonenum(page) >= MAX_NR_ZONES)
		panic("%s: pfn %lu is outside any zone", caller, pfn);
	zone = page_zone(page);
	if (pfn < zone->zone_start_pfn || pfn + (1ul << order) > zone_end_pfn(zone))
		panic("%s: pfn %lu is outside any zone", caller, pfn);
	if (pfn & ((1ul << order) - 1))
		panic("%s: pfn %lu is not aligned to order %u", caller, pfn, order);
	return zone;
}

/*
 * A page being freed must be unused: not mapped, in no mapping, no
 * references, none of PAGE_FLAGS_CHECK_AT_FREE.  An anonymous page keeps
 * its anon_vma in page->mapping until here (mm/rmap.h): that goes first.
 * Then drop what a used page may still carry (PG_referenced,
 * PG_uptodate, PG_dirty, PG_reclaim, PG_swapbacked, private), so a free
 * page carries only its zone.
 */
static void free_pages_check(struct page *page)
{
	if (PageAnon(page))
		page->mapping = NULL;
	if (page_mapcount(page) || page->mapping || page_count(page) ||
	    (page->flags & PAGE_FLAGS_CHECK_AT_FREE))
		bad_page(__func__, page);
	page->flags &= PAGE_ZONE_BITS;
	page->private = 0;
}

/*
 * A page leaving the free lists must be as free_pages_check left it;
 * otherwise something wrote to a free struct page.
 */
static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp_mask)
{
	if (page_mapcount(page) || page->mapping || page_count(page) ||
	    (page->flags & PAGE_FLAGS_CHECK_AT_PREP))
		bad_page(__func__, page);
	set_page_count(page, 1);
	if (gfp_mask & __GFP_ZERO)
		for (unsigned int i = 0; i < (1u << order); i++)
			clear_page(page_address(page + i));
}

/* ---- freeing --------------------------------------------------------- */

/* Give a checked block to the zone's free lists.  Takes zone->lock. */
static void free_one_page(struct zone *zone, struct page *page, unsigned int order)
{
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	count_vm_events(PGFREE, 1ul << order);
	/* A page came back: reclaim may find more (mm/vmscan.c). */
	zone_clear_flag(zone, ZONE_ALL_UNRECLAIMABLE);
	zone->pages_scanned = 0;
	__free_one_page(page, zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

/* The last reference to the block is gone: check, poison and free it. */
static void __free_pages_ok(struct zone *zone, struct page *page, unsigned int order)
{
	unsigned long i;

	for (i = 0; i < (1ul << order); i++)
		free_pages_check(page + i);
	memset(page_address(page), PAGE_POISON, PAGE_SIZE << order);
	free_one_page(zone, page, order);
}

/*
 * Called with interrupts on or off; takes zone->lock when the block is
 * freed.  All checks run before the lock is taken.
 */
void __free_pages(struct page *page, unsigned int order)
{
	struct zone *zone = block_zone(__func__, page, order);

	if (page_count(page) <= 0)
		panic("__free_pages: pfn %lu is not in use (_count %d): a double free?",
		      page_to_pfn(page), page_count(page));
	if (--page->_count == 0)
		__free_pages_ok(zone, page, order);
}

/*
 * An order-0 __free_pages.  A page on an LRU list holds a reference for
 * the list (mm/swap.c), so the last one never goes while it is on a list;
 * dropping the list's reference by mistake panics on PG_lru at free.
 */
void put_page(struct page *page)
{
	__free_pages(page, 0);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr != 0)
		__free_pages(virt_to_page((void *)addr), order);
}

/* Boot only: no other CPU or interrupt handler uses the allocator yet. */
void __free_pages_bootmem(struct page *page, unsigned int order)
{
	struct zone *zone = block_zone(__func__, page, order);
	unsigned long i, nr = 1ul << order;

	for (i = 0; i < nr; i++) {
		struct page *p = page + i;

		if (!PageReserved(p))
			panic("__free_pages_bootmem: pfn %lu is not reserved (freed twice?)",
			      page_to_pfn(p));
		ClearPageReserved(p);
		set_page_count(p, 0);
	}
	zone->managed_pages += nr;
	totalram_pages += nr;
	free_one_page(zone, page, order);
}

/* Boot only.  The range must lie in the zones and be reserved. */
void free_bootmem_range(unsigned long start_pfn, unsigned long end_pfn)
{
	while (start_pfn < end_pfn) {
		unsigned int order = 0;

		while (order < MAX_ORDER - 1 && IS_ALIGNED(start_pfn, 2ul << order) &&
		       start_pfn + (2ul << order) <= end_pfn)
			order++;
		__free_pages_bootmem(pfn_to_page(start_pfn), order);
		start_pfn += 1ul << order;
	}
}

/* ---- allocating ------------------------------------------------------ */

enum zone_type gfp_zone(gfp_t flags)
{
	if (flags & __GFP_DMA)
		return ZONE_DMA;
	if (flags & __GFP_DMA32)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

/*
 * The zonelist.  Linux builds node_zonelists[] at boot; with one node it
 * holds the populated zones from the highest down, and an allocation
 * walks it from the first zone at or below gfp_zone().  Here that is the
 * zone array itself, walked downwards.
 */
static struct zone *first_zones_zonelist(int highest_zoneidx)
{
	for (; highest_zoneidx >= 0; highest_zoneidx--) {
		struct zone *zone = &NODE_DATA(0)->node_zones[highest_zoneidx];

		if (populated_zone(zone))
			return zone;
	}
	return NULL;
}

#define for_each_zone_zonelist(zone, highest_zoneidx) \
	for (zone = first_zones_zonelist(highest_zoneidx); zone != NULL; \
	     zone = first_zones_zonelist((int)zone_idx(zone) - 1))

bool zone_watermark_ok(struct zone *z, int order, unsigned long mark,
		       int classzone_idx, int alloc_flags)
{
	/* free_pages may go negative: that's OK, it fails the test. */
	long min = (long)mark;
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES) - (1l << order) + 1;
	int o;

	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & ALLOC_HARDER)
		min -= min / 4;

	if (free_pages <= min + (long)z->lowmem_reserve[classzone_idx])
		return false;
	for (o = 0; o < order; o++) {
		/* At the next order, this order's pages become unavailable. */
		free_pages -= (long)(z->free_area[o].nr_free << o);

		/* Require fewer higher-order pages to be free. */
		min >>= 1;

		if (free_pages <= min)
			return false;
	}
	return true;
}

/* Take the block from zone and make it an allocated one.  Takes zone->lock. */
static struct page *buffered_rmqueue(struct zone *zone, unsigned int order, gfp_t gfp_mask)
{
	unsigned long flags;
	struct page *page;

	spin_lock_irqsave(&zone->lock, flags);
	page = __rmqueue(zone, order);
	if (page)
		__count_zone_vm_events(PGALLOC, zone, 1ul << order);
	spin_unlock_irqrestore(&zone->lock, flags);
	if (page)
		prep_new_page(page, order, gfp_mask);
	return page;
}

/*
 * One pass over the zonelist: the first zone that passes the watermark
 * alloc_flags name gives the block.
 */
static struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
					   enum zone_type high_zoneidx, int alloc_flags)
{
	int classzone_idx = (int)zone_idx(first_zones_zonelist(high_zoneidx));
	struct zone *zone;

	for_each_zone_zonelist(zone, high_zoneidx) {
		struct page *page;

		if (!(alloc_flags & ALLOC_NO_WATERMARKS)) {
			unsigned long mark;

			if (alloc_flags & ALLOC_WMARK_MIN)
				mark = zone->pages_min;
			else if (alloc_flags & ALLOC_WMARK_LOW)
				mark = zone->pages_low;
			else
				mark = zone->pages_high;
			if (!zone_watermark_ok(zone, order, mark, classzone_idx, alloc_flags))
				continue;
		}
		page = buffered_rmqueue(zone, order, gfp_mask);
		if (page)
			return page;
	}
	return NULL;
}

/*
 * May this allocation go below every watermark (step 3 of the essay)?
 * Linux 2.6.28's test in __alloc_pages_internal, with __GFP_MEMALLOC
 * (Linux 3.6's) as a third way in.
 */
static bool may_use_reserves(gfp_t gfp_mask)
{
	if (gfp_mask & __GFP_NOMEMALLOC)
		return false;
	if (gfp_mask & __GFP_MEMALLOC)
		return true;
	return !in_interrupt() && (current->flags & (PF_MEMALLOC | PF_MEMDIE));
}

/*
 * Direct reclaim as the allocating task: PF_MEMALLOC while it runs, so
 * that what reclaim allocates comes from the reserves and never
 * reclaims again; the flag is then put back as it was.  The pages
 * reclaimed.  May sleep.
 */
static unsigned long __alloc_pages_direct_reclaim(struct zone *preferred_zone, unsigned int order,
						  gfp_t gfp_mask)
{
	unsigned int old_memalloc = current->flags & PF_MEMALLOC;
	unsigned long progress;

	cond_resched();
	current->flags |= PF_MEMALLOC;
	progress = try_to_free_pages(preferred_zone, (int)order, gfp_mask);
	current->flags = (current->flags & ~PF_MEMALLOC) | old_memalloc;
	cond_resched();
	return progress;
}

/*
 * Linux's __alloc_pages_internal, the steps of the essay above.  With
 * __GFP_WAIT: interrupts on, process context, may sleep (reclaim, the
 * OOM killer's victim exiting, naps between retries).  Without: any
 * context, never sleeps.  Nothing is held across a sleep: each retry
 * walks the zones afresh.
 */
struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)
{
	enum zone_type high_zoneidx = gfp_zone(gfp_mask);
	bool wait = gfp_mask & __GFP_WAIT;
	struct zone *preferred_zone = first_zones_zonelist(high_zoneidx);
	unsigned int failed_rounds = 0, oom_waits = 0;
	unsigned long progress;
	struct zone *zone;
	struct page *page;
	int alloc_flags;

	if (order >= MAX_ORDER || preferred_zone == NULL)
		goto nopage;

	page = get_page_from_freelist(gfp_mask, order, high_zoneidx, ALLOC_WMARK_LOW);
	if (page)
		return page;

restart:
	for_each_zone_zonelist(zone, high_zoneidx)
		wakeup_kswapd(zone, (int)order, gfp_mask);

	/*
	 * Dip below pages_low, to pages_min.  Callers that cannot sleep, and
	 * so cannot reclaim, may go a quarter further; __GFP_HIGH callers
	 * (GFP_ATOMIC) half further.
	 */
	alloc_flags = ALLOC_WMARK_MIN;
	if (!wait)
		alloc_flags |= ALLOC_HARDER;
	if (gfp_mask & __GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	page = get_page_from_freelist(gfp_mask, order, high_zoneidx, alloc_flags);
	if (page)
		return page;

rebalance:
	if (may_use_reserves(gfp_mask)) {
		page = get_page_from_freelist(gfp_mask, order, high_zoneidx, ALLOC_NO_WATERMARKS);
		if (page)
			return page;
		goto nopage;
	}
	if (!wait || in_interrupt() || (current->flags & PF_MEMALLOC))
		goto nopage;

	progress = __alloc_pages_direct_reclaim(preferred_zone, order, gfp_mask);
	if (progress) {
		page = get_page_from_freelist(gfp_mask, order, high_zoneidx, alloc_flags);
		if (page)
			return page;
	}
	/*
	 * Reclaim freed nothing, or MAX_RECLAIM_RETRIES rounds in a row
	 * freed nothing this allocation could use (reclaim also reports
	 * progress while its zones are not yet all_unreclaimable):
	 * out of memory.
	 */
	failed_rounds++;
	if ((!progress || failed_rounds > MAX_RECLAIM_RETRIES) &&
	    (gfp_mask & __GFP_FS) && !(gfp_mask & __GFP_NORETRY)) {
		/*
		 * A last try at the high watermark: an OOM kill elsewhere
		 * may have just freed memory, and this one must not kill a
		 * second process for nothing.
		 */
		page = get_page_from_freelist(gfp_mask, order, high_zoneidx, ALLOC_WMARK_HIGH);
		if (page)
			return page;
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			goto nopage;
		switch (out_of_memory(gfp_mask, (int)order)) {
		case OOM_KILLED:
			oom_waits = 0;
			break;
		case OOM_VICTIM_EXITING:
			if (++oom_waits > OOM_WAIT_RETRIES)
				goto nopage;
			break;
		case OOM_NO_VICTIM:
			goto nopage;
		}
		failed_rounds = 0;
		/* Let the victim run and exit, unless it is current. */
		if (!(current->flags & PF_MEMDIE))
			msleep(1000 / HZ);
		goto restart;
	}
	if (failed_rounds > MAX_RECLAIM_RETRIES)
		goto nopage;

	if ((gfp_mask & __GFP_NORETRY) || order > PAGE_ALLOC_COSTLY_ORDER)
		goto nopage;
	congestion_wait(WRITE, HZ / 50);
	goto rebalance;

nopage:
	if (!(gfp_mask & __GFP_NOWARN))
		printk(KERN_WARNING "%s: page allocation failure. order:%u, mode:0x%x\n",
		       in_interrupt() ? "interrupt" : current->comm, order, gfp_mask);
	return NULL;
}

unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order)
{
	struct page *page = alloc_pages(gfp_mask, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp_mask)
{
	return __get_free_pages(gfp_mask | __GFP_ZERO, 0);
}

unsigned long nr_free_pages(void)
{
	return global_page_state(NR_FREE_PAGES);
}

/* ---- boot-time set-up ------------------------------------------------ */

/* Every struct page of the span starts reserved (Linux's memmap_init_zone). */
static void memmap_init_zone(unsigned long size, enum zone_type zone, unsigned long start_pfn)
{
	unsigned long pfn;

	for (pfn = start_pfn; pfn < start_pfn + size; pfn++) {
		struct page *page = pfn_to_page(pfn);

		page->flags = 0;
		set_page_zone(page, zone);
		SetPageReserved(page);
		set_page_count(page, 1);
		page->_mapcount = -1;
		page->mapping = NULL;
		page->index = 0;
		page->private = 0;
		INIT_LIST_HEAD(&page->lru);
	}
}

void free_area_init_node(int nid, const unsigned long zones_size[MAX_NR_ZONES],
			 unsigned long node_start_pfn,
			 const unsigned long zholes_size[MAX_NR_ZONES])
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	unsigned long zone_start_pfn = node_start_pfn;
	int j;

	if (nid != 0)
		panic("free_area_init_node: node %d: Pageturn has only node 0", nid);
	if (mem_map == NULL)
		panic("free_area_init_node: mem_map is not set");

	pgdat->node_start_pfn = node_start_pfn;
	pgdat->node_spanned_pages = 0;
	pgdat->node_present_pages = 0;
	pgdat->nr_zones = 0;
	for (j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *zone = &pgdat->node_zones[j];
		unsigned long size = zones_size[j];
		unsigned int order;
		int l;

		if (zholes_size[j] > size)
			panic("free_area_init_node: zone %s: %lu holes in %lu pages",
			      zone_names[j], zholes_size[j], size);
		if (size && (zone_start_pfn < zone_pfn_limit[j] ||
			     zone_start_pfn + size > zone_pfn_limit[j + 1] ||
			     zone_start_pfn + size > max_pfn))
			panic("free_area_init_node: zone %s pfn %#lx-%#lx is outside pfn %#lx-%#lx or max_pfn %#lx",
			      zone_names[j], zone_start_pfn, zone_start_pfn + size,
			      zone_pfn_limit[j], zone_pfn_limit[j + 1], max_pfn);

		zone->name = zone_names[j];
		zone->zone_pgdat = pgdat;
		spin_lock_init(&zone->lock, "zone->lock");
		zone->zone_start_pfn = zone_start_pfn;
		zone->spanned_pages = size;
		zone->present_pages = size - zholes_size[j];
		zone->managed_pages = 0;
		zone->pages_min = zone->pages_low = zone->pages_high = 0;
		memset(zone->lowmem_reserve, 0, sizeof(zone->lowmem_reserve));
		for (order = 0; order < MAX_ORDER; order++) {
			INIT_LIST_HEAD(&zone->free_area[order].free_list);
			zone->free_area[order].nr_free = 0;
		}
		spin_lock_init(&zone->lru_lock, "zone->lru_lock");
		for_each_lru(l) {
			INIT_LIST_HEAD(&zone->lru[l].list);
			zone->lru[l].nr_scan = 0;
		}
		memset(zone->recent_rotated, 0, sizeof(zone->recent_rotated));
		memset(zone->recent_scanned, 0, sizeof(zone->recent_scanned));
		zone->prev_priority = DEF_PRIORITY;
		zone->pages_scanned = 0;
		memmap_init_zone(size, (enum zone_type)j, zone_start_pfn);

		if (size)
			pgdat->nr_zones = j + 1;
		pgdat->node_spanned_pages += size;
		pgdat->node_present_pages += zone->present_pages;
		zone_start_pfn += size;
	}
}

/* ---- watermarks ------------------------------------------------------ */

/*
 * Exact integer square root: Linux's lib/int_sqrt.c, digit by digit in
 * base 4.  res holds the root found so far (shifted), one the bit being
 * tried.
 */
unsigned long int_sqrt(unsigned long x)
{
	unsigned long op = x, res = 0, one = 1ul << (sizeof(long) * 8 - 2);

	while (one > op)
		one >>= 2;
	while (one != 0) {
		if (op >= res + one) {
			op -= res + one;
			res += 2 * one;
		}
		res >>= 1;
		one >>= 2;
	}
	return res;
}

/*
 * totalreserve_pages: in every zone, pages_high plus its largest
 * lowmem_reserve, at most the zone's managed pages.
 */
static void calculate_totalreserve_pages(void)
{
	unsigned long reserve_pages = 0;
	int i, j;

	for (i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &NODE_DATA(0)->node_zones[i];
		unsigned long max = 0;

		for (j = i; j < MAX_NR_ZONES; j++)
			if (zone->lowmem_reserve[j] > max)
				max = zone->lowmem_reserve[j];
		max += zone->pages_high;
		if (max > zone->managed_pages)
			max = zone->managed_pages;
		reserve_pages += max;
	}
	totalreserve_pages = reserve_pages;
}

/*
 * Split min_free_kbytes between the zones in proportion to their size:
 * pages_min = its share, pages_low = min + share/4, pages_high = min +
 * share/2.  Linux 2.6.28 weighs by present_pages; by managed_pages
 * (Linux since 3.x) pages the allocator can never have, such as the
 * kernel image and mem_map, do not raise a zone's watermarks.
 */
void setup_per_zone_pages_min(void)
{
	unsigned long pages_min = (unsigned long)min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long lowmem_pages = 0;
	struct zone *zone;
	unsigned long flags;

	for_each_zone(zone)
		lowmem_pages += zone->managed_pages;
	if (lowmem_pages == 0)
		panic("setup_per_zone_pages_min: no memory has been freed to the allocator");

	for_each_zone(zone) {
		unsigned long tmp = pages_min * zone->managed_pages / lowmem_pages;

		spin_lock_irqsave(&zone->lock, flags);
		zone->pages_min = tmp;
		zone->pages_low = zone->pages_min + (tmp >> 2);
		zone->pages_high = zone->pages_min + (tmp >> 1);
		spin_unlock_irqrestore(&zone->lock, flags);
	}
	calculate_totalreserve_pages();
}

/*
 * zone[i].lowmem_reserve[j], for each higher zone j: the managed pages of
 * zones i+1..j divided by sysctl_lowmem_reserve_ratio[i] (Linux 2.6.28
 * used present_pages, later Linux managed_pages, as here).
 * lowmem_reserve[i] of zone i itself is 0.
 */
void setup_per_zone_lowmem_reserve(void)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	int j, idx;

	for (j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *zone = &pgdat->node_zones[j];
		unsigned long managed_pages = zone->managed_pages;

		zone->lowmem_reserve[j] = 0;
		idx = j;
		while (idx) {
			struct zone *lower_zone;

			idx--;
			if (sysctl_lowmem_reserve_ratio[idx] < 1)
				sysctl_lowmem_reserve_ratio[idx] = 1;
			lower_zone = &pgdat->node_zones[idx];
			lower_zone->lowmem_reserve[j] =
				managed_pages / (unsigned long)sysctl_lowmem_reserve_ratio[idx];
			managed_pages += lower_zone->managed_pages;
		}
	}
	calculate_totalreserve_pages();
}

/*
 * The target of each zone's anon lists for reclaim (inactive_anon_is_low,
 * mm/vmscan.c): inactive anon at least 1/inactive_ratio of active anon,
 * with Linux 2.6.28's ratio int_sqrt(10 * zone size in GiB), at least 1:
 * 1 up to 100 MiB, 3 at 1 GiB, 10 at 10 GiB.
 */
void setup_per_zone_inactive_ratio(void)
{
	struct zone *zone;

	for_each_zone(zone) {
		unsigned long gb = zone->present_pages >> (30 - PAGE_SHIFT);
		unsigned long ratio = int_sqrt(10 * gb);

		zone->inactive_ratio = ratio ? (unsigned int)ratio : 1;
	}
}

/*
 * min_free_kbytes = sqrt(16 * lowmem in KiB), clamped to [128, 65536]:
 *	16 MiB: 512k	64 MiB: 1024k	256 MiB: 2048k	1 GiB: 4096k
 *	4 GiB: 8192k	8 GiB: 11585k	16 GiB: 16384k
 * Linux 2.6.28 takes lowmem from nr_free_buffer_pages(), the sum of
 * present_pages - pages_high over the zones, with pages_high still 0 at
 * boot.  Pageturn sums managed_pages: the memory the allocator really has.
 */
void init_per_zone_pages_min(void)
{
	unsigned long lowmem_kbytes = 0, kbytes;
	struct zone *zone;

	for_each_zone(zone)
		lowmem_kbytes += K(zone->managed_pages);
	kbytes = int_sqrt(lowmem_kbytes * 16);
	if (kbytes < 128)
		kbytes = 128;
	if (kbytes > 65536)
		kbytes = 65536;
	min_free_kbytes = (int)kbytes;
	setup_per_zone_pages_min();
	setup_per_zone_lowmem_reserve();
	setup_per_zone_inactive_ratio();
}

/*
 * /proc/sys/vm/min_free_kbytes (Linux's min_free_kbytes_sysctl_handler):
 * a value of at least 0 replaces the boot-time one and every zone's
 * watermarks follow it (setup_per_zone_pages_min); lowmem_reserve does
 * not depend on it.  As on Linux there is no upper bound: a value near
 * the memory's size leaves almost nothing to allocate without reclaim.
 */
int min_free_kbytes_sysctl_handler(const struct ctl_table *table, int write, void *buffer,
				   size_t *lenp, loff_t *ppos)
{
	int err = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (err)
		return err;
	if (write)
		setup_per_zone_pages_min();
	return 0;
}

/* ---- reports --------------------------------------------------------- */

/*
 * The memory report of an OOM kill and of boot (Linux's show_free_areas,
 * in its later layout): "Mem-Info:" and the system's page counts; per
 * populated zone its free pages, watermarks and lists in kB and its
 * lowmem_reserve; per zone the free blocks by order,
 * "Node 0 DMA: 1*4kB 2*8kB ... = 1234kB"; the page-cache and RAM totals.
 * Counters are read without locks: a snapshot.
 */
void show_free_areas(void)
{
	struct zone *zone;
	int j;

	printk(KERN_INFO "Mem-Info:\n");
	printk(KERN_INFO "active_anon:%lu inactive_anon:%lu\n active_file:%lu inactive_file:%lu\n"
	       " unevictable:%lu dirty:%lu writeback:%lu\n slab_unreclaimable:%lu\n"
	       " mapped:%lu shmem:%lu pagetables:%lu\n free:%lu\n",
	       global_page_state(NR_ACTIVE_ANON), global_page_state(NR_INACTIVE_ANON),
	       global_page_state(NR_ACTIVE_FILE), global_page_state(NR_INACTIVE_FILE),
	       global_page_state(NR_UNEVICTABLE), global_page_state(NR_FILE_DIRTY),
	       global_page_state(NR_WRITEBACK), global_page_state(NR_SLAB_UNRECLAIMABLE),
	       global_page_state(NR_FILE_MAPPED), global_page_state(NR_SHMEM),
	       global_page_state(NR_PAGETABLE), global_page_state(NR_FREE_PAGES));

	for_each_zone(zone) {
		if (!populated_zone(zone))
			continue;
		printk(KERN_INFO "Node 0 %s free:%lukB min:%lukB low:%lukB high:%lukB "
		       "active_anon:%lukB inactive_anon:%lukB active_file:%lukB inactive_file:%lukB "
		       "unevictable:%lukB writepending:%lukB present:%lukB managed:%lukB\n",
		       zone->name, K(zone_page_state(zone, NR_FREE_PAGES)), K(zone->pages_min),
		       K(zone->pages_low), K(zone->pages_high),
		       K(zone_page_state(zone, NR_ACTIVE_ANON)),
		       K(zone_page_state(zone, NR_INACTIVE_ANON)),
		       K(zone_page_state(zone, NR_ACTIVE_FILE)),
		       K(zone_page_state(zone, NR_INACTIVE_FILE)),
		       K(zone_page_state(zone, NR_UNEVICTABLE)),
		       K(zone_page_state(zone, NR_FILE_DIRTY) + zone_page_state(zone, NR_WRITEBACK)),
		       K(zone->present_pages), K(zone->managed_pages));
		printk(KERN_INFO "lowmem_reserve[]:");
		for (j = 0; j < MAX_NR_ZONES; j++)
			printk(KERN_CONT " %lu", zone->lowmem_reserve[j]);
		printk(KERN_CONT "\n");
	}

	for_each_zone(zone) {
		unsigned long nr[MAX_ORDER], flags, total = 0;
		unsigned int order;

		if (!populated_zone(zone))
			continue;
		spin_lock_irqsave(&zone->lock, flags);
		for (order = 0; order < MAX_ORDER; order++) {
			nr[order] = zone->free_area[order].nr_free;
			total += nr[order] << order;
		}
		spin_unlock_irqrestore(&zone->lock, flags);

		printk(KERN_INFO "Node 0 %s: ", zone->name);
		for (order = 0; order < MAX_ORDER; order++)
			printk(KERN_CONT "%lu*%lukB ", nr[order], K(1ul) << order);
		printk(KERN_CONT "= %lukB\n", K(total));
	}
	printk(KERN_INFO "%lu total pagecache pages\n", global_page_state(NR_FILE_PAGES));
	printk(KERN_INFO "%lu pages RAM\n", totalram_pages);
}

void zone_report(void)
{
	struct zone *zone;
	int j;

	printk(KERN_INFO "zones: min_free_kbytes %d, totalram_pages %lu, totalreserve_pages %lu\n",
	       min_free_kbytes, totalram_pages, totalreserve_pages);
	for_each_zone(zone) {
		if (!zone->spanned_pages) {
			printk(KERN_INFO "  %-6s empty\n", zone->name);
			continue;
		}
		printk(KERN_INFO "  %-6s pfn 0x%08lx-0x%08lx spanned %lu present %lu managed %lu free %lu\n",
		       zone->name, zone->zone_start_pfn, zone_end_pfn(zone), zone->spanned_pages,
		       zone->present_pages, zone->managed_pages, zone_page_state(zone, NR_FREE_PAGES));
		printk(KERN_INFO "  %-6s pages min %lu low %lu high %lu, lowmem_reserve[]:",
		       zone->name, zone->pages_min, zone->pages_low, zone->pages_high);
		for (j = 0; j < MAX_NR_ZONES; j++)
			printk(KERN_CONT " %lu", zone->lowmem_reserve[j]);
		printk(KERN_CONT "\n");
	}
}
