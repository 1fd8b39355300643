/*
 * Memory totals, page reclaim's entry points, the LRU lists' and the swap
 * areas' interfaces (Linux's include/linux/swap.h, v2.6.28 names).
 *
 * The page allocator calls reclaim in two places (mm/page_alloc.c):
 *   wakeup_kswapd      when an allocation finds its zones below pages_low
 *   try_to_free_pages  direct reclaim, when they are below pages_min and
 *                      the caller may sleep (__GFP_WAIT)
 * mm/vmscan.c implements both, and kswapd.
 */
#ifndef MM_SWAP_H
#define MM_SWAP_H

#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mmzone.h>
#include <mm/swapops.h>
#include <drivers/blkdev.h>
#include <pageturn/list.h>

struct address_space;
struct vm_area_struct;

/* Pages handed to the page allocator at boot: MemTotal. */
extern unsigned long totalram_pages;
/* Pages the allocator keeps back in every zone (pages_high plus the largest
 * lowmem_reserve): what overcommit and dirty limits may not count on. */
extern unsigned long totalreserve_pages;

/*
 * Tell kswapd that zone is short of free pages for an allocation of this
 * order with gfp_mask (which its trace event shows).  Does nothing if the zone is still above pages_low for it.
 * Called with interrupts on or off, never with zone->lock held.
 */
void wakeup_kswapd(struct zone *zone, int order, gfp_t gfp_mask);

/*
 * Direct reclaim: free pages for an allocation of this order that may use
 * preferred_zone and the populated zones below it (its zonelist).
 * Returns the number of pages reclaimed, 1 if none but the zones may
 * still give some, 0 when every one is unreclaimable (no progress: the
 * OOM killer's cue).  Sleeps: only for __GFP_WAIT allocations, with
 * interrupts on and PF_MEMALLOC set by the caller.
 */
unsigned long try_to_free_pages(struct zone *preferred_zone, int order, gfp_t gfp_mask);

#define DEF_PRIORITY		12	/* a pass scans size >> priority pages of a list */
#define SWAP_CLUSTER_MAX	32	/* pages isolated at a time; a pass's goal */
#define PAGE_ALLOC_COSTLY_ORDER	3	/* above: lumpy reclaim at once, and no OOM kill */

/* vm.swappiness: reclaim's weight for anon pages against file, 0-100. */
extern int vm_swappiness;

/* Start kswapd0 (after the scheduler is up). */
void kswapd_init(void);

/* inactive_ratio of every zone, from its size (at boot). */
void setup_per_zone_inactive_ratio(void);

/* Is a zone's inactive anon list below its target share of the anon pages? */
bool inactive_anon_is_low(struct zone *zone);

/* File pages, and anon pages if swap has room (always under lru=single):
 * what reclaim could free. */
unsigned long zone_reclaimable_pages(struct zone *zone);

/* The anon (percent[0]) and file (percent[1]) shares of a pass over zone. */
void get_scan_ratio(struct zone *zone, int swappiness, unsigned long *percent);

/* The pages the VM manages (set at boot): lru=single's measure of memory. */
extern unsigned long vm_total_pages;

/* lru=single: may the active list scan deactivate mapped pages of zone
 * at priority (Linux 2.6.27's reclaim_mapped)?  1 or 0. */
int calc_reclaim_mapped(struct zone *zone, int priority, int swappiness);

/* ---- swap areas (mm/swapfile.c; docs/swap.md) -------------------------- */

/*
 * The on-disk header in slot 0 of every swap area (Linux's union
 * swap_header, version 1, as mkswap writes it): "SWAPSPACE2" in the last
 * 10 bytes of the page; after 1024 bytes left for a boot block or disk
 * label, the version, the index of the last page (the area has
 * last_page + 1 pages, header included) and a list of bad pages.
 */
union swap_header {
	struct {
		char reserved[PAGE_SIZE - 10];
		char magic[10];
	} magic;
	struct {
		char bootbits[1024];
		uint32_t version;
		uint32_t last_page;
		uint32_t nr_badpages;
		unsigned char sws_uuid[16];
		unsigned char sws_volume[16];
		uint32_t padding[117];
		uint32_t badpages[1];
	} info;
};

/* How many bad pages the header's list has room for (637). */
#define MAX_SWAP_BADPAGES \
	((__builtin_offsetof(union swap_header, magic.magic) - \
	  __builtin_offsetof(union swap_header, info.badpages)) / sizeof(uint32_t))

/* A swap_map count: the users of a slot (swap PTEs, tmpfs entries, and
 * one for the swap cache); 0 is free.  A count that reaches SWAP_MAP_MAX
 * stays there for good; SWAP_MAP_BAD marks a slot never to use (the
 * header, a bad page). */
#define SWAP_MAP_MAX	0x7fff
#define SWAP_MAP_BAD	0x8000

/* swap_info_struct.flags */
enum {
	SWP_USED	= (1 << 0),	/* the type is taken (also while swapon sets it up) */
	SWP_WRITEOK	= (1 << 1),	/* slots may be handed out */
	SWP_ACTIVE	= (SWP_USED | SWP_WRITEOK),
};

/* Slots one area hands out in a row before it looks for a free run again. */
#define SWAPFILE_CLUSTER	256

/*
 * Where a run of an area's pages is on the device: pages
 * [start_page, start_page + nr_pages) of the area are the disk's pages
 * from start_block on (in PAGE_SIZE units).  A block device is one
 * extent; a swap file has one per run of its blocks.
 */
struct swap_extent {
	struct list_head list;
	pgoff_t start_page;
	pgoff_t nr_pages;
	sector_t start_block;
};

struct file;

/* One swap area (Linux's swap_info_struct).  Everything but the
 * extents, which stay put while the area is on, is under swap_lock. */
struct swap_info_struct {
	unsigned long flags;		/* SWP_* */
	int prio;			/* higher is used first */
	struct file *swap_file;		/* the device or file, open */
	struct block_device *bdev;	/* where the I/O goes */
	char *name;			/* its path, as /proc/swaps shows it */
	struct list_head extent_list;	/* struct swap_extent, by start_page */
	unsigned short *swap_map;	/* max counts */
	unsigned long *write_error_map;	/* bit per slot a write failed on: bad once free */
	unsigned int write_errors;	/* failed writes since swapon */
	unsigned int lowest_bit;	/* no free slot below (max: none free) */
	unsigned int highest_bit;	/* no free slot above (0: none free) */
	unsigned int cluster_next;	/* the next slot of the current cluster */
	unsigned int cluster_nr;	/* slots left in it */
	unsigned int pages;		/* usable slots: max - 1 - bad pages */
	unsigned int max;		/* slots, header included */
	unsigned int inuse_pages;	/* slots with a count */
	int next;			/* the next type on swap_list, -1 at the end */
};

/* Swap pages free and in all (the usable slots of the areas that are
 * on); both 0 while none is. */
extern long nr_swap_pages;
extern long total_swap_pages;

/*
 * Is swap more than half used (Linux's vm_swap_full)?  Then swap-in gives
 * a page's slot back rather than keep it as a clean copy.
 */
static inline bool vm_swap_full(void)
{
	return nr_swap_pages * 2 < total_swap_pages;
}

/* A free slot (its count becomes 1) from the areas of the highest
 * priority that has one, equal priorities in turn; val 0 when there is
 * none.  Any context (takes swap_lock). */
swp_entry_t get_swap_page(void);
/* One more user of entry's slot: 1, or 0 (with a console line) if the
 * entry is not in use.  At SWAP_MAP_MAX the count sticks. */
int swap_duplicate(swp_entry_t entry);
/* One user of entry's slot fewer; at 0 the slot is free.  A count at
 * SWAP_MAP_MAX stays.  A bad entry is logged and ignored. */
void swap_free(swp_entry_t entry);
/* The 512-byte sector of the device where slot offset of si is.  Called
 * for a slot in use of an area that is on. */
sector_t map_swap_page(struct swap_info_struct *si, pgoff_t offset);
/* The area of type while the type is used (set up by swapon, on, or going
 * off), else NULL. */
struct swap_info_struct *get_swap_info_struct(unsigned int type);

/*
 * Empty the swap area type of its users so that swapoff can free it
 * (Linux's try_to_unuse): every swap PTE on it is faulted in and the swap
 * cache lets its pages go.  0; -ENOMEM before anything moves when memory
 * could not hold the area's pages; -EINTR (a signal), -EIO (a page could
 * not be read) or -EBUSY (slots left) with the pages read so far in
 * memory.  Called with swapon_mutex held and the area no longer
 * SWP_WRITEOK; may sleep.
 */
int try_to_unuse(unsigned int type);

/* SwapTotal and SwapFree for /proc/meminfo and sysinfo(2), in pages
 * (Linux's si_swapinfo). */
void si_swapinfo(unsigned long *totalswap, unsigned long *freeswap);

/* /proc/swaps (Linux's layout). */
struct seq_file;
void swaps_proc_show(struct seq_file *m);

/* swapon on each device the swap= boot option lists, before init runs.
 * Called by the first process, which has a root and a cwd. */
void swapon_boot(void);

/* Steps of swapon that tests drive too. */
/* The number of slots (last_page + 1) the header h of a device of
 * dev_pages pages gives, or 0 with one console line naming name for a
 * header swapon must refuse. */
unsigned long read_swap_header(const char *name, const union swap_header *h,
			       unsigned long dev_pages);
/* Fill swap_map (maxpages counts, zeroed) from h: slot 0 and each bad
 * page SWAP_MAP_BAD.  The usable slots, or 0 (with a console line: a bad
 * page out of range, or none usable). */
unsigned int setup_swap_map(const char *name, const union swap_header *h,
			    unsigned short *swap_map, unsigned long maxpages);

/* One more user of entry's slot if it is in use: 1, else 0 quietly (the
 * swap cache's readahead asks so of every slot around a fault). */
int swap_duplicate_if_used(swp_entry_t entry);

/*
 * Called with the swap-cache page locked: if no PTE or tmpfs entry refers
 * to its slot any more, take it out of the swap cache and free the slot
 * (the page becomes dirty: memory holds the only copy).  1 if so.  Not
 * while it is being written.
 */
int try_to_free_swap(struct page *page);

/* Called with the anonymous page locked, for a write fault: is the
 * faulting PTE its only user (mapcount plus slot users besides the cache
 * at most 1)?  If so it leaves the swap cache, dirty (its copy on swap is
 * about to be stale).  Linux's reuse_swap_page. */
int reuse_swap_page(struct page *page);

/* Writing a page to entry's slot failed (mm/page_io.c): the slot becomes
 * SWAP_MAP_BAD, never handed out again, once its last user lets it go;
 * until then it stays, since PTEs name it and its page (kept in memory,
 * dirty) is found through it.  Returns the area's failed writes so far,
 * this one included.  Any context. */
unsigned int swap_slot_write_error(swp_entry_t entry);

/* A swap PTE (or tmpfs entry) is gone: drop its count on entry's slot, and
 * if only the swap cache still holds the slot, let the cache's page go too
 * unless it is mapped and swap has room (Linux's free_swap_and_cache).
 * Process context; never sleeps. */
void free_swap_and_cache(swp_entry_t entry);

/* ---- the swap cache (mm/swap_state.c) ---------------------------------- */

/* vm.page-cluster: swap-in reads 1 << page_cluster slots around a fault. */
extern int page_cluster;

/* Set up the swap caches' address_spaces.  Boot, once. */
void swap_cache_init(void);

/* Pages in the swap caches (SwapCached). */
unsigned long total_swapcache_pages(void);

/*
 * Give a locked anonymous page a swap slot: it enters the swap cache and
 * is marked dirty (the slot has no copy yet).  1, or 0 without a free
 * slot or memory for the cache's tree.  Never sleeps.
 */
int add_to_swap(struct page *page);

/*
 * Put a locked page in the swap cache at entry, whose slot count the
 * caller has taken for the cache.  0, -EEXIST (a page is there already)
 * or -ENOMEM (the tree's nodes, allocated with gfp).  Never sleeps unless
 * gfp lets it.
 */
int add_to_swap_cache(struct page *page, swp_entry_t entry, gfp_t gfp);

/* Take a locked, clean, unmapped swap-cache page out of the cache, drop
 * the cache's reference and free its count on the slot (Linux's
 * delete_from_swap_cache). */
void delete_from_swap_cache(struct page *page);

/* The swap cache's page of entry with a reference, or NULL.  Never
 * sleeps. */
struct page *lookup_swap_cache(swp_entry_t entry);

/* The page of entry's slot with a reference: the cache's, or a new one
 * being read (locked until the read ends: lock_page waits for it; not up
 * to date then if the read failed).  NULL without memory or if the slot
 * is not in use.  May sleep.  swapin_readahead also starts reading the
 * slots in use around it (page_cluster). */
struct page *read_swap_cache_async(swp_entry_t entry, gfp_t gfp);
struct page *swapin_readahead(swp_entry_t entry, gfp_t gfp);

/* An anonymous page just lost a PTE: if no PTE maps it any more, let it
 * leave the swap cache (if no slot user is left and its lock is free) and,
 * once out of the cache, its LRU list, so that the last put_page frees
 * it.  Never sleeps. */
void free_swap_cache(struct page *page);

/* ---- swap I/O (mm/page_io.c) ------------------------------------------- */

/* Start writing a locked swap-cache page (dirty cleared, as pageout
 * calls a_ops->writepage) to its slot: PG_writeback is set, and the bio's
 * end clears it, with PG_error and the page dirty again if the write
 * failed (logged once per area).  Returns 0 with the page still locked. */
int swap_writepage(struct address_space *mapping, struct page *page);

/* Start reading a locked swap-cache page from its slot; the read's end
 * sets PG_uptodate (unless it failed) and unlocks the page.  0, or an
 * errno with the page already unlocked and not up to date. */
int swap_readpage(struct page *page);

/* ---- the LRU lists (mm/swap.c, mm/vmscan.c) -------------------------- */

/*
 * Put a page that is on no LRU list (and has no PG_lru) on list lru and
 * take a reference to it for the list.  PG_active and PG_unevictable are
 * first cleared, then set as lru says.  An anon list needs PG_swapbacked,
 * a file list needs it clear (the page would be counted on the wrong list
 * when it leaves): a mismatch panics.  Takes zone->lru_lock.
 */
void lru_cache_add_lru(struct page *page, enum lru_list lru);

/* Linux 2.6.28's wrappers (include/linux/swap.h), by where a page enters. */
/* Swap-in: on probation on the inactive anon list. */
static inline void lru_cache_add_anon(struct page *page)
{
	lru_cache_add_lru(page, LRU_INACTIVE_ANON);
}

/* A new anon fault or COW copy: Linux 2.6.28 starts it active. */
static inline void lru_cache_add_active_anon(struct page *page)
{
	lru_cache_add_lru(page, LRU_ACTIVE_ANON);
}

/* Page-cache read or readahead: inactive, until a second access. */
static inline void lru_cache_add_file(struct page *page)
{
	lru_cache_add_lru(page, LRU_INACTIVE_FILE);
}

static inline void lru_cache_add_active_file(struct page *page)
{
	lru_cache_add_lru(page, LRU_ACTIVE_FILE);
}

/*
 * A software access to page (read(), write(), a page-cache fault):
 *   inactive, unreferenced  ->  inactive, PG_referenced
 *   inactive, referenced    ->  activate_page(), PG_referenced cleared
 *   active, unreferenced    ->  active, PG_referenced
 * A page on no list, or on the unevictable one, only gets PG_referenced.
 * Takes zone->lru_lock when it activates.
 */
void mark_page_accessed(struct page *page);

/*
 * Move page from its inactive list to the matching active one, if it is
 * on an LRU list, inactive and evictable; otherwise do nothing.  Counts
 * PGACTIVATE and one recent_rotated and recent_scanned of its type.
 * Takes zone->lru_lock.
 */
void activate_page(struct page *page);

/*
 * A write that reclaim started (PG_reclaim) has ended: move the page to
 * the tail of its inactive list, where the next scan frees it, if it is
 * there, clean and unlocked.  Counts PGROTATED.  Takes zone->lru_lock;
 * may run in an interrupt handler.
 */
void rotate_reclaimable_page(struct page *page);

/*
 * Take page off whatever LRU list it is on.  The caller holds a reference
 * of its own.  Returns 0 with PG_lru clear, the page on no list and the
 * list's reference now the caller's (PG_active and PG_unevictable are
 * left as they were, for putback_lru_page); -EBUSY if the page was on no
 * LRU list.  Takes zone->lru_lock.
 */
int isolate_lru_page(struct page *page);

/*
 * Reclaim the isolated pages on page_list now, whatever their lists
 * (Linux 5.4's reclaim_pages, for MADV_PAGEOUT): shrink_page_list
 * decides each page's fate as reclaim would (writing dirty ones, swapping
 * anon ones), and those not freed go back to their lists.  The number
 * freed.  May sleep.
 */
unsigned long reclaim_pages(struct list_head *page_list);

/*
 * Give back a page isolate_lru_page took: onto the list page_evictable()
 * and PG_active choose (unevictable, or the active or inactive list of
 * its type), then drop the isolation reference.  Takes zone->lru_lock.
 */
void putback_lru_page(struct page *page);

/*
 * May reclaim evict page (Linux 2.6.28's page_evictable)?  Not if its
 * mapping is AS_UNEVICTABLE, not while it is PG_mlocked, and not if vma
 * (the one it is being mapped into, or NULL) is VM_LOCKED, in which case
 * the page is mlocked now (is_mlocked_vma, mm/internal.h).
 */
bool page_evictable(struct page *page, struct vm_area_struct *vma);

/*
 * A new anonymous page mapped into vma (a fault or a copy-on-write copy):
 * the active anon list, or LRU_UNEVICTABLE, mlocked, if vma is
 * VM_LOCKED (Linux 2.6.28's lru_cache_add_active_or_unevictable).
 */
void lru_cache_add_active_or_unevictable(struct page *page, struct vm_area_struct *vma);

/*
 * After mapping_clear_unevictable: move the pages of mapping that are on
 * LRU_UNEVICTABLE and now evictable to their inactive lists (Linux
 * 2.6.28's rescue scan, run by SHM_UNLOCK there).  Counts every page
 * looked at in unevictable_pgs_scanned, every page moved in _rescued.
 * Process context.
 */
void scan_mapping_unevictable_pages(struct address_space *mapping);

/* Times kswapd would have been woken (no /proc name: Linux has no such
 * counter).  Direct reclaims are counted in the ALLOCSTALL event. */
extern unsigned long nr_kswapd_wakeups;

#endif
