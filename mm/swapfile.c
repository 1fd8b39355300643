/*
 * Swap areas (Linux's mm/swapfile.c, v2.6.28): the devices and files
 * anonymous pages can be written to, and the allocator of their slots.
 *
 * An area is a block device or a regular file that mkswap formatted: a
 * page of header (union swap_header, mm/swap.h) and then slots of one
 * page each.  swapon(2) gives it a type, the index of its
 * swap_info_struct in swap_info[], and a swap entry (mm/swapops.h) names
 * a slot as type and offset.  States of an area's type:
 *
 *   free       flags 0: swapon may take it.
 *   setting up SWP_USED: swapon holds it while it reads the header and
 *              maps the file; nothing else looks at it.
 *   on         SWP_ACTIVE: on swap_list, its usable slots counted in
 *              nr_swap_pages and total_swap_pages; get_swap_page hands
 *              slots out.
 *   going off  SWP_USED: swapoff took it off swap_list and out of the
 *              counts, and empties it (try_to_unuse); if that fails it
 *              goes back on, else it is free again.
 *
 * The slot map.  swap_map[offset] counts the users of a slot: each swap
 * PTE and tmpfs entry naming it, and one for the page in the swap cache.
 * 0 is free.  SWAP_MAP_BAD marks slot 0 (the header) and the header's
 * bad pages, which are never handed out.  A count that reaches
 * SWAP_MAP_MAX stays there (the slot is never freed again; Linux logs
 * "swap_dup: swap entry overflow").  Invariants, under swap_lock, for an
 * area that is on:
 *   - inuse_pages is the number of slots with a count in 1..SWAP_MAP_MAX,
 *     pages the number not SWAP_MAP_BAD, and inuse_pages <= pages;
 *   - every free slot lies in [lowest_bit, highest_bit]; when none is
 *     free, lowest_bit is max and highest_bit 0;
 *   - nr_swap_pages is the sum of pages - inuse_pages over the areas that
 *     are on, total_swap_pages the sum of their pages.
 *
 * Slot allocation (scan_swap_map, the 2.6.28 "cluster" allocator): an
 * area hands out SWAPFILE_CLUSTER (256) slots in a row from
 * cluster_next, so that pages reclaim writes together lie together on
 * the disk.  When that run is used up it looks from lowest_bit for 256
 * free slots in a row (an unaligned window) and starts the next run
 * there; if there is no such window, or fewer than 256 slots are free,
 * it takes the first free slot from cluster_next on, wrapping round to
 * lowest_bit.  Linux drops swap_lock during the scans every
 * LATENCY_LIMIT probes; Pageturn runs on one CPU and never preempts the
 * kernel, so its scans hold the lock throughout.
 *
 * Priorities.  swap_list links the areas that are on, highest priority
 * first (swap_info[].next, -1 at the end); swap_list.next is where
 * get_swap_page starts.  It takes slots from the first area with one
 * among those of the highest priority, rotating among equals, and goes
 * to lower priorities only when all of those are full.  swapon without
 * SWAP_FLAG_PREFER gives priorities -1, -2, ... in order (least_priority),
 * and swapoff of such an area moves those after it up by one.
 *
 * Where the slots are (swap extents, map_swap_page): a block device is
 * one extent, slot n at byte n * PAGE_SIZE.  A swap file on ext2 is
 * mapped once, at swapon, through its filesystem's bmap: each page of the
 * file must be a run of whole blocks starting on a page boundary of the
 * disk, and consecutive pages on consecutive disk pages join one extent.
 * A file with a hole, or a page whose blocks are not such a run, is
 * refused (-EINVAL), so every slot has its place on the disk and I/O to
 * swap never needs the filesystem.
 *
 * Exclusive use.  A block device is claimed (bd_claim): a mounted device
 * or one already in use as swap is -EBUSY, and mount refuses a swap
 * device.  A swap file's inode gets S_SWAPFILE: a second swapon of it is
 * -EBUSY and its size may not change.  swapoff gives both back.
 *
 * Locks and sleeping.  swap_lock (a spinlock) guards swap_info[]'s flags,
 * maps, counts and swap_list.  swapon_mutex serialises swapon, swapoff
 * and /proc/swaps; swapon and swapoff sleep under it (reading the header,
 * bmap, allocations), and since only they change which types are used,
 * the swap_info_struct they hold stays theirs across those sleeps.
 */
#include <asm/page.h>
#include <asm/uaccess.h>
#include <drivers/blkdev.h>
#include <fs/buffer_head.h>
#include <fs/devfs.h>
#include <fs/fs.h>
#include <fs/seq_file.h>
#include <fs/vfs.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/pgtable.h>
#include <mm/rmap.h>
#include <mm/shmem.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/cmdline.h>
#include <pageturn/mutex.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/fcntl.h>
#include <uapi/swap.h>

long nr_swap_pages;
long total_swap_pages;

static DEFINE_SPINLOCK(swap_lock);
static DEFINE_MUTEX(swapon_mutex);

static struct swap_info_struct swap_info[MAX_SWAPFILES];
static unsigned int nr_swapfiles;	/* types ever used: swap_info[0..nr_swapfiles) */
static int least_priority;		/* the last priority swapon chose itself */

/* The areas that are on, by priority (Linux's struct swap_list_t). */
static struct {
	int head;	/* the highest priority's first area, -1 if none */
	int next;	/* where get_swap_page looks first */
} swap_list = { -1, -1 };

static const char Bad_file[] = "Bad swap file entry ";
static const char Unused_file[] = "Unused swap file entry ";
static const char Bad_offset[] = "Bad swap offset entry ";
static const char Unused_offset[] = "Unused swap offset entry ";

BOOT_OPTION(swap, "block devices to use as swap from boot, e.g. swap=vdb or swap=vdb,vdc (Pageturn's own)");

/* Is p a swap file (not a block device)? */
static bool swap_is_file(const struct swap_info_struct *p)
{
	return p->swap_file && S_ISREG(p->swap_file->f_inode->i_mode);
}

/* ---- slot allocation ------------------------------------------------------ */

/* Called with swap_lock held.  A free slot of si (its count now 1), or 0
 * if si has none. */
static unsigned long scan_swap_map(struct swap_info_struct *si)
{
	unsigned long offset, last_in_cluster;

	if (!si->cluster_nr) {
		si->cluster_nr = SWAPFILE_CLUSTER - 1;
		if (si->pages - si->inuse_pages < SWAPFILE_CLUSTER)
			goto lowest;
		/* Locate the first empty (unaligned) cluster. */
		offset = si->lowest_bit;
		last_in_cluster = offset + SWAPFILE_CLUSTER - 1;
		for (; last_in_cluster <= si->highest_bit; offset++) {
			if (si->swap_map[offset])
				last_in_cluster = offset + SWAPFILE_CLUSTER;
			else if (offset == last_in_cluster) {
				si->cluster_next = offset - SWAPFILE_CLUSTER + 1;
				goto cluster;
			}
		}
		goto lowest;
	}
	si->cluster_nr--;
cluster:
	offset = si->cluster_next;
	if (offset > si->highest_bit)
lowest:
		offset = si->lowest_bit;
checks:
	if (!(si->flags & SWP_WRITEOK) || !si->highest_bit)
		return 0;
	if (!si->swap_map[offset]) {
		if (offset == si->lowest_bit)
			si->lowest_bit++;
		if (offset == si->highest_bit)
			si->highest_bit--;
		si->inuse_pages++;
		if (si->inuse_pages == si->pages) {
			si->lowest_bit = si->max;
			si->highest_bit = 0;
		}
		si->swap_map[offset] = 1;
		si->cluster_next = offset + 1;
		return offset;
	}
	while (++offset <= si->highest_bit)
		if (!si->swap_map[offset])
			goto checks;
	goto lowest;
}

swp_entry_t get_swap_page(void)
{
	struct swap_info_struct *si;
	unsigned long offset;
	int type, next, wrapped = 0;
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	if (nr_swap_pages <= 0)
		goto noswap;
	nr_swap_pages--;
	for (type = swap_list.next; type >= 0 && wrapped < 2; type = next) {
		si = &swap_info[type];
		next = si->next;
		if (next < 0 || (!wrapped && si->prio != swap_info[next].prio)) {
			next = swap_list.head;
			wrapped++;
		}
		if (!si->highest_bit || !(si->flags & SWP_WRITEOK))
			continue;
		swap_list.next = next;
		offset = scan_swap_map(si);
		if (offset) {
			spin_unlock_irqrestore(&swap_lock, flags);
			return swp_entry(type, offset);
		}
		next = swap_list.next;
	}
	nr_swap_pages++;
noswap:
	spin_unlock_irqrestore(&swap_lock, flags);
	return swp_entry(0, 0);
}

/* Called with swap_lock held.  The area of entry if the entry names a
 * slot in use, else NULL with a console line saying what is wrong. */
static struct swap_info_struct *swap_entry_info(swp_entry_t entry, const char *who)
{
	struct swap_info_struct *p;
	unsigned long offset = swp_offset(entry);
	unsigned int type = swp_type(entry);

	if (!entry.val)
		goto out;
	if (type >= nr_swapfiles) {
		printk(KERN_ERR "%s: %s%016lx\n", who, Bad_file, entry.val);
		goto out;
	}
	p = &swap_info[type];
	if (!(p->flags & SWP_USED)) {
		printk(KERN_ERR "%s: %s%016lx\n", who, Unused_file, entry.val);
		goto out;
	}
	if (offset >= p->max || p->swap_map[offset] == SWAP_MAP_BAD) {
		printk(KERN_ERR "%s: %s%016lx\n", who, Bad_offset, entry.val);
		goto out;
	}
	if (!p->swap_map[offset]) {
		printk(KERN_ERR "%s: %s%016lx\n", who, Unused_offset, entry.val);
		goto out;
	}
	return p;
out:
	return NULL;
}

/* Called with swap_lock held, for a slot in use.  Returns the new count. */
static int swap_entry_free(struct swap_info_struct *p, unsigned long offset)
{
	int count = p->swap_map[offset];

	if (count < SWAP_MAP_MAX) {
		count--;
		p->swap_map[offset] = count;
		if (!count && p->write_error_map &&
		    (p->write_error_map[offset / 64] & (1ul << (offset % 64)))) {
			/* Retired for good: a bad page, out of every count. */
			p->swap_map[offset] = SWAP_MAP_BAD;
			p->pages--;
			if (p->flags & SWP_WRITEOK)
				total_swap_pages--;
			p->inuse_pages--;
		} else if (!count) {
			if (offset < p->lowest_bit)
				p->lowest_bit = offset;
			if (offset > p->highest_bit)
				p->highest_bit = offset;
			if (swap_list.next >= 0 && p->prio > swap_info[swap_list.next].prio)
				swap_list.next = p - swap_info;
			if (p->flags & SWP_WRITEOK)
				nr_swap_pages++;
			p->inuse_pages--;
		}
	}
	return count;
}

void swap_free(swp_entry_t entry)
{
	struct swap_info_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	p = swap_entry_info(entry, "swap_free");
	if (p)
		swap_entry_free(p, swp_offset(entry));
	spin_unlock_irqrestore(&swap_lock, flags);
}

int swap_duplicate(swp_entry_t entry)
{
	static unsigned int swap_overflow;
	struct swap_info_struct *p;
	unsigned long offset = swp_offset(entry), flags;
	int result = 0;

	spin_lock_irqsave(&swap_lock, flags);
	p = swap_entry_info(entry, "swap_dup");
	if (p) {
		if (p->swap_map[offset] < SWAP_MAP_MAX - 1) {
			p->swap_map[offset]++;
		} else if (p->swap_map[offset] < SWAP_MAP_MAX) {
			if (swap_overflow++ < 5)
				printk(KERN_WARNING "swap_dup: swap entry overflow\n");
			p->swap_map[offset] = SWAP_MAP_MAX;
		}
		result = 1;
	}
	spin_unlock_irqrestore(&swap_lock, flags);
	return result;
}

struct swap_info_struct *get_swap_info_struct(unsigned int type)
{
	struct swap_info_struct *p = NULL;
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	if (type < nr_swapfiles && (swap_info[type].flags & SWP_USED) && swap_info[type].swap_map)
		p = &swap_info[type];
	spin_unlock_irqrestore(&swap_lock, flags);
	return p;
}

void si_swapinfo(unsigned long *totalswap, unsigned long *freeswap)
{
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	*totalswap = total_swap_pages;
	*freeswap = nr_swap_pages;
	spin_unlock_irqrestore(&swap_lock, flags);
}

/* ---- the swap cache's slots ---------------------------------------------- */

int swap_duplicate_if_used(swp_entry_t entry)
{
	unsigned long offset = swp_offset(entry), flags;
	unsigned int type = swp_type(entry);
	struct swap_info_struct *p;
	int ret = 0;

	spin_lock_irqsave(&swap_lock, flags);
	p = type < nr_swapfiles ? &swap_info[type] : NULL;
	if (p && (p->flags & SWP_USED) && p->swap_map && offset < p->max &&
	    p->swap_map[offset] && p->swap_map[offset] != SWAP_MAP_BAD) {
		if (p->swap_map[offset] < SWAP_MAP_MAX)
			p->swap_map[offset]++;
		ret = 1;
	}
	spin_unlock_irqrestore(&swap_lock, flags);
	return ret;
}

/* The users of a swap-cache page's slot besides the cache itself: the swap
 * PTEs and tmpfs entries that still refer to it (Linux's page_swapcount). */
static int page_swapcount(struct page *page)
{
	swp_entry_t entry = { page->private };
	struct swap_info_struct *p;
	unsigned long flags;
	int count = 0;

	spin_lock_irqsave(&swap_lock, flags);
	p = swap_entry_info(entry, "page_swapcount");
	if (p)
		count = p->swap_map[swp_offset(entry)] - 1;
	spin_unlock_irqrestore(&swap_lock, flags);
	return count;
}

unsigned int swap_slot_write_error(swp_entry_t entry)
{
	unsigned long offset = swp_offset(entry), flags;
	struct swap_info_struct *p;
	unsigned int n = 0;

	spin_lock_irqsave(&swap_lock, flags);
	p = swap_entry_info(entry, "swap_slot_write_error");
	if (p) {
		p->write_error_map[offset / 64] |= 1ul << (offset % 64);
		n = ++p->write_errors;
	}
	spin_unlock_irqrestore(&swap_lock, flags);
	return n;
}

int try_to_free_swap(struct page *page)
{
	if (!PageLocked(page))
		panic("try_to_free_swap: pfn %lu is not locked", page_to_pfn(page));
	if (!PageSwapCache(page) || PageWriteback(page) || page_swapcount(page))
		return 0;
	delete_from_swap_cache(page);
	/* Its data is only in memory now: reclaim must write it again. */
	SetPageDirty(page);
	return 1;
}

int reuse_swap_page(struct page *page)
{
	int count;

	if (!PageLocked(page))
		panic("reuse_swap_page: pfn %lu is not locked", page_to_pfn(page));
	count = page_mapcount(page);
	if (count <= 1 && PageSwapCache(page)) {
		count += page_swapcount(page);
		if (count == 1 && !PageWriteback(page)) {
			/* The one user keeps its own count on the slot, which it
			 * drops; the cache's copy goes now. */
			delete_from_swap_cache(page);
			SetPageDirty(page);
		}
	}
	return count <= 1;
}

void free_swap_and_cache(swp_entry_t entry)
{
	struct swap_info_struct *p;
	struct page *page = NULL;
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	p = swap_entry_info(entry, "free_swap_and_cache");
	if (p && swap_entry_free(p, swp_offset(entry)) == 1)
		page = lookup_swap_cache(entry);	/* never sleeps */
	spin_unlock_irqrestore(&swap_lock, flags);
	if (!page)
		return;
	/* Only the cache holds the slot now: unless the page is mapped and
	 * swap has room, it need not keep it.  A locked page is someone
	 * else's business (a fault mapping it, reclaim writing it). */
	if (trylock_page(page)) {
		if (!page_mapped(page) || vm_swap_full())
			try_to_free_swap(page);
		unlock_page(page);
	}
	free_swap_cache(page);
	put_page(page);
}

/* ---- extents -------------------------------------------------------------- */

sector_t map_swap_page(struct swap_info_struct *si, pgoff_t offset)
{
	struct swap_extent *se;

	list_for_each_entry(se, &si->extent_list, list)
		if (offset >= se->start_page && offset < se->start_page + se->nr_pages)
			return (se->start_block + (offset - se->start_page)) << (PAGE_SHIFT - SECTOR_SHIFT);
	panic("map_swap_page: slot %lu of an area of %u has no extent", offset, si->max);
}

static void destroy_swap_extents(struct swap_info_struct *si)
{
	struct swap_extent *se, *tmp;

	list_for_each_entry_safe(se, tmp, &si->extent_list, list) {
		list_del(&se->list);
		kfree(se);
	}
}

/* Pages [start_page, start_page + nr) of si are the disk pages from
 * start_block on: grow the last extent, or add one.  0 or -ENOMEM. */
static int add_swap_extent(struct swap_info_struct *si, pgoff_t start_page, pgoff_t nr,
			   sector_t start_block)
{
	struct swap_extent *se;

	if (!list_empty(&si->extent_list)) {
		se = list_entry(si->extent_list.prev, struct swap_extent, list);
		if (se->start_block + se->nr_pages == start_block) {
			se->nr_pages += nr;
			return 0;
		}
	}
	se = kmalloc(sizeof(*se), GFP_KERNEL);
	if (!se)
		return -ENOMEM;
	se->start_page = start_page;
	se->nr_pages = nr;
	se->start_block = start_block;
	list_add_tail(&se->list, &si->extent_list);
	return 0;
}

/*
 * Map the swap file of si, slots [0, si->max), through its filesystem's
 * bmap (Linux's generic_swapfile_activate, refusing where Linux would
 * skip a page).  The number of extents, or -EINVAL (a hole, a page that
 * is not one aligned run of blocks, no bmap) with a console line, or
 * -ENOMEM.  May sleep.
 */
static int setup_file_extents(struct swap_info_struct *si, struct inode *inode)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned int blksize = inode->i_blksize, per_page, i;
	struct swap_extent *se;
	uint64_t first, block;
	pgoff_t page;
	int err, n = 0;

	if (!mapping || !mapping->a_ops->bmap || !blksize || blksize > PAGE_SIZE ||
	    (blksize & (blksize - 1)) || !inode->i_sb->s_bdev) {
		printk(KERN_ERR "swapon %s: its filesystem cannot map a swap file\n", si->name);
		return -EINVAL;
	}
	per_page = PAGE_SIZE / blksize;
	for (page = 0; page < si->max; page++) {
		first = mapping->a_ops->bmap(mapping, page * per_page);
		for (i = 0; i < per_page; i++) {
			block = i ? mapping->a_ops->bmap(mapping, page * per_page + i) : first;
			if (!block) {
				printk(KERN_ERR "swapon %s: swapfile has holes\n", si->name);
				return -EINVAL;
			}
			if ((i == 0 && (first & (per_page - 1))) || block != first + i) {
				printk(KERN_ERR "swapon %s: page %lu of the file is not one page-aligned run of blocks\n",
				       si->name, page);
				return -EINVAL;
			}
		}
		err = add_swap_extent(si, page, 1, first / per_page);
		if (err)
			return err;
	}
	list_for_each_entry(se, &si->extent_list, list)
		n++;
	return n;
}

/* ---- the header ----------------------------------------------------------- */

_Static_assert(sizeof(union swap_header) == PAGE_SIZE, "the header is one page");
_Static_assert(__builtin_offsetof(union swap_header, info.badpages) == 1536,
	       "badpages[] starts where mkswap writes it");
_Static_assert(MAX_SWAP_BADPAGES == 637, "Linux's MAX_SWAP_BADPAGES");

unsigned long read_swap_header(const char *name, const union swap_header *h,
			       unsigned long dev_pages)
{
	/* The largest offset a swap PTE can hold, plus one (Linux's trick:
	 * encode ~0 and see what comes back). */
	unsigned long maxpages = swp_offset(pte_to_swp_entry(swp_entry_to_pte(swp_entry(0, ~0ul)))) + 1;
	unsigned long last_page;

	if (memcmp(h->magic.magic, "SWAPSPACE2", 10) != 0) {
		if (memcmp(h->magic.magic, "SWAP-SPACE", 10) == 0)
			printk(KERN_ERR "swapon %s: version 0 swap is no longer supported. Use mkswap -v1\n",
			       name);
		else
			printk(KERN_ERR "swapon %s: Unable to find swap-space signature\n", name);
		return 0;
	}
	if (h->info.version != 1) {
		printk(KERN_WARNING "swapon %s: Unable to handle swap header version %u\n", name,
		       h->info.version);
		return 0;
	}
	last_page = h->info.last_page;
	if (last_page + 1 > dev_pages) {
		printk(KERN_WARNING "swapon %s: Swap area shorter than signature indicates (%lu pages, header says %lu)\n",
		       name, dev_pages, last_page + 1);
		return 0;
	}
	if (h->info.nr_badpages > MAX_SWAP_BADPAGES) {
		printk(KERN_WARNING "swapon %s: %u bad pages, more than the header holds (%zu)\n", name,
		       h->info.nr_badpages, (size_t)MAX_SWAP_BADPAGES);
		return 0;
	}
	/* The slot map is one kmalloc. */
	maxpages = MIN(maxpages, KMALLOC_MAX_SIZE / sizeof(unsigned short));
	if (last_page + 1 > maxpages)
		printk(KERN_WARNING "swapon %s: using the first %lu of its %lu pages\n", name, maxpages,
		       last_page + 1);
	return MIN(maxpages, last_page + 1);
}

unsigned int setup_swap_map(const char *name, const union swap_header *h,
			    unsigned short *swap_map, unsigned long maxpages)
{
	unsigned int i, bad = 0;
	uint32_t page_nr;

	for (i = 0; i < h->info.nr_badpages; i++) {
		page_nr = h->info.badpages[i];
		if (page_nr == 0 || page_nr >= h->info.last_page) {
			printk(KERN_WARNING "swapon %s: bad page %u is outside the area\n", name, page_nr);
			return 0;
		}
		if (page_nr < maxpages && swap_map[page_nr] != SWAP_MAP_BAD) {
			swap_map[page_nr] = SWAP_MAP_BAD;
			bad++;
		}
	}
	swap_map[0] = SWAP_MAP_BAD;
	if (maxpages - 1 - bad == 0) {
		printk(KERN_WARNING "swapon %s: Empty swap-file\n", name);
		return 0;
	}
	return maxpages - 1 - bad;
}

/* ---- swapon and swapoff --------------------------------------------------- */

/* Take a free type: SWP_USED, everything else cleared.  NULL when all
 * MAX_SWAPFILES are in use. */
static struct swap_info_struct *alloc_swap_info(void)
{
	struct swap_info_struct *p = NULL;
	unsigned int type;
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	for (type = 0; type < nr_swapfiles; type++)
		if (!(swap_info[type].flags & SWP_USED))
			break;
	if (type < MAX_SWAPFILES) {
		if (type == nr_swapfiles)
			nr_swapfiles++;
		p = &swap_info[type];
		memset(p, 0, sizeof(*p));
		INIT_LIST_HEAD(&p->extent_list);
		p->flags = SWP_USED;
		p->next = -1;
	}
	spin_unlock_irqrestore(&swap_lock, flags);
	return p;
}

/* Give a type swapon set up, or swapoff emptied, back. */
static void free_swap_info(struct swap_info_struct *p)
{
	unsigned short *map = p->swap_map;
	unsigned long flags;

	destroy_swap_extents(p);
	kfree(p->name);
	spin_lock_irqsave(&swap_lock, flags);
	p->swap_map = NULL;
	p->flags = 0;
	spin_unlock_irqrestore(&swap_lock, flags);
	kfree(map);
	kfree(p->write_error_map);
	p->write_error_map = NULL;
}

/* Called with swap_lock held.  Link p into swap_list by its priority
 * and count its free and usable slots: the area is on. */
static void insert_swap_info(struct swap_info_struct *p)
{
	int i, prev = -1;

	for (i = swap_list.head; i >= 0; i = swap_info[i].next) {
		if (p->prio >= swap_info[i].prio)
			break;
		prev = i;
	}
	p->next = i;
	if (prev < 0)
		swap_list.head = swap_list.next = p - swap_info;
	else
		swap_info[prev].next = p - swap_info;
	nr_swap_pages += p->pages - p->inuse_pages;
	total_swap_pages += p->pages;
	p->flags = SWP_ACTIVE;
}

/* Called with swapon_mutex held, for an area swapon set up (swap_map,
 * max and pages): every usable slot free, the area on with priority
 * prio. */
static void enable_swap_info(struct swap_info_struct *p, int prio)
{
	unsigned long flags;

	spin_lock_irqsave(&swap_lock, flags);
	p->prio = prio;
	p->lowest_bit = 1;
	p->highest_bit = p->max - 1;
	p->cluster_next = 1;
	p->cluster_nr = 0;
	p->inuse_pages = 0;
	insert_swap_info(p);
	spin_unlock_irqrestore(&swap_lock, flags);
}

/* An absolute path for the name swapon was given, as /proc/swaps shows
 * it (the name itself when the working directory has no path): kmalloc'd,
 * or NULL.  May sleep. */
static char *swap_path(const char *name)
{
	char *buf, *path = NULL;
	long len;

	if (name[0] == '/')
		return kstrdup(name, GFP_KERNEL);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return NULL;
	len = vfs_dir_path(current_fs()->pwd, buf, PATH_MAX);
	if (len <= 0) {
		path = kstrdup(name, GFP_KERNEL);
	} else {
		len = strlen(buf);
		if (len > 1)
			buf[len++] = '/';
		if ((size_t)len + strlen(name) < PATH_MAX) {
			memcpy(buf + len, name, strlen(name) + 1);
			path = kstrdup(buf, GFP_KERNEL);
		}
	}
	kfree(buf);
	return path;
}

/* Read page 0 of the area into h: 0 or -errno.  A device's through a
 * bio, after its dirty buffers are written (mkswap wrote the header
 * through the node: the buffer cache); a file's through the file. */
static int read_header_page(struct swap_info_struct *p, union swap_header *h)
{
	struct bio_vec bv;
	struct bio bio;
	long n;
	int err;

	if (!swap_is_file(p)) {
		err = sync_blockdev(p->bdev);
		if (err)
			return err;
		bio_init(&bio, &bv, 1);
		bio.bi_bdev = p->bdev;
		bio.bi_sector = 0;
		bio_add_page(&bio, virt_to_page(h), PAGE_SIZE, 0);
		return submit_bio_wait(READ, &bio);
	}
	/* Swap I/O goes to the file's blocks past its page cache: dirty pages
	 * are written first, or their writeback would land on slots later
	 * (and writes are refused while it is swap: S_SWAPFILE). */
	err = filemap_write_and_wait(p->swap_file->f_inode->i_mapping);
	if (err)
		return err;
	if (vfs_llseek(p->swap_file, 0, SEEK_SET) < 0)
		return -EINVAL;
	n = vfs_read(p->swap_file, h, PAGE_SIZE);
	if (n < 0)
		return n;
	return n == PAGE_SIZE ? 0 : -EINVAL;
}

/*
 * The rest of swapon, for the area p that the caller took (SWP_USED),
 * with its device claimed or its file marked S_SWAPFILE, and p->bdev,
 * p->name and, for a file, p->swap_file set: read and check the header,
 * set up the slot map and the extents, and turn the area on.  On an
 * error the caller gives everything back (the maps here go with
 * free_swap_info).  Called with swapon_mutex held; sleeps.
 */
static long swapon_setup(struct swap_info_struct *p, unsigned long dev_pages, int swap_flags)
{
	union swap_header *h;
	struct page *page;
	unsigned long maxpages;
	unsigned int nr_good;
	int prio, nr_extents = 1;
	long err;

	if (dev_pages < 2) {
		printk(KERN_ERR "swapon %s: too small for a swap area (%lu pages)\n", p->name,
		       dev_pages);
		return -EINVAL;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	h = page_address(page);
	err = read_header_page(p, h);
	if (err) {
		printk(KERN_ERR "swapon %s: cannot read its first page (error %ld)\n", p->name, err);
		goto out;
	}
	err = -EINVAL;
	maxpages = read_swap_header(p->name, h, dev_pages);
	if (!maxpages)
		goto out;
	if (h->info.nr_badpages && swap_is_file(p)) {
		printk(KERN_ERR "swapon %s: a swap file may not list bad pages\n", p->name);
		goto out;
	}
	err = -ENOMEM;
	p->swap_map = kzalloc(maxpages * sizeof(unsigned short), GFP_KERNEL);
	p->write_error_map = kzalloc((maxpages + 63) / 64 * sizeof(unsigned long), GFP_KERNEL);
	if (!p->swap_map || !p->write_error_map)
		goto out;
	err = -EINVAL;
	nr_good = setup_swap_map(p->name, h, p->swap_map, maxpages);
	if (!nr_good)
		goto out;
	p->max = maxpages;
	p->pages = nr_good;
	if (!swap_is_file(p)) {
		err = add_swap_extent(p, 0, maxpages, 0);
	} else {
		err = setup_file_extents(p, p->swap_file->f_inode);
		if (err > 0) {
			nr_extents = err;
			err = 0;
		}
	}
	if (err)
		goto out;

	if (swap_flags & SWAP_FLAG_PREFER)
		prio = (swap_flags & SWAP_FLAG_PRIO_MASK) >> SWAP_FLAG_PRIO_SHIFT;
	else
		prio = --least_priority;
	enable_swap_info(p, prio);
	printk(KERN_INFO "Adding %uk swap on %s.  Priority:%d extents:%d across:%luk\n",
	       nr_good << (PAGE_SHIFT - 10), p->name, p->prio, nr_extents,
	       maxpages << (PAGE_SHIFT - 10));
out:
	__free_page(page);
	return err;
}

/* Give back what swapon took for p (the claim or S_SWAPFILE, the file)
 * and free the type.  Called with swapon_mutex held. */
static void release_swap_area(struct swap_info_struct *p)
{
	struct inode *inode;

	if (swap_is_file(p)) {
		inode = p->swap_file->f_inode;
		mutex_lock(&inode->i_mutex);
		inode->i_flags &= ~S_SWAPFILE;
		mutex_unlock(&inode->i_mutex);
	} else if (p->bdev) {
		bd_release(p->bdev);
	}
	if (p->swap_file)
		vfs_close(p->swap_file);
	free_swap_info(p);
}

/* Start a swapon: swapon_mutex taken and a free type's area, or NULL
 * (the mutex dropped) when MAX_SWAPFILES areas are on. */
static struct swap_info_struct *swapon_begin(void)
{
	struct swap_info_struct *p;

	mutex_lock(&swapon_mutex);
	p = alloc_swap_info();
	if (!p)
		mutex_unlock(&swapon_mutex);
	return p;
}

/* End a swapon begun by swapon_begin: on error give back all p holds. */
static long swapon_end(struct swap_info_struct *p, long err)
{
	if (err)
		release_swap_area(p);
	mutex_unlock(&swapon_mutex);
	return err;
}

/* Make bdev area p's, exclusively: -EBUSY (logged) if it is mounted or
 * swap already. */
static long swapon_claim_bdev(struct swap_info_struct *p, struct block_device *bdev)
{
	long err = bd_claim(bdev, p);

	if (err) {
		printk(KERN_ERR "swapon %s: the device is in use (mounted, or swap already)\n",
		       p->name);
		return err;
	}
	p->bdev = bdev;
	return 0;
}

/*
 * swapon(2)'s work on a kernel path name.  Nothing is written to the
 * device or file.  Errors: the path's; -EINVAL (not a block device or
 * regular file, too small, a header swapon refuses, a swap file with bad
 * pages or that cannot be mapped), -EBUSY (in use: mounted, or swap
 * already), -EPERM (MAX_SWAPFILES areas on, as Linux), -ENOMEM.
 */
static long do_swapon(const char *name, int swap_flags)
{
	struct swap_info_struct *p;
	struct inode *inode;
	unsigned long dev_pages = 0;
	long err;

	p = swapon_begin();
	if (!p)
		return -EPERM;
	/* p is ours until we free or enable it: only swapon and swapoff
	 * change a type's state, both under swapon_mutex (see the top). */
	err = -ENOMEM;
	p->name = swap_path(name);
	if (!p->name)
		goto bad;
	err = vfs_open(name, O_RDWR | O_LARGEFILE, 0, &p->swap_file);
	if (err) {
		p->swap_file = NULL;
		goto bad;
	}
	inode = p->swap_file->f_inode;
	err = -EINVAL;
	if (S_ISBLK(inode->i_mode)) {
		if (!file_bdev(p->swap_file))
			goto bad;
		err = swapon_claim_bdev(p, file_bdev(p->swap_file));
		if (err)
			goto bad;
		dev_pages = p->bdev->nr_sectors >> (PAGE_SHIFT - SECTOR_SHIFT);
	} else if (S_ISREG(inode->i_mode)) {
		mutex_lock(&inode->i_mutex);
		if (IS_SWAPFILE(inode)) {
			mutex_unlock(&inode->i_mutex);
			printk(KERN_ERR "swapon %s: the file is swap already\n", p->name);
			vfs_close(p->swap_file);
			p->swap_file = NULL;
			err = -EBUSY;
			goto bad;
		}
		inode->i_flags |= S_SWAPFILE;
		mutex_unlock(&inode->i_mutex);
		p->bdev = inode->i_sb->s_bdev;
		dev_pages = inode->i_size >> PAGE_SHIFT;
	} else {
		printk(KERN_ERR "swapon %s: not a block device or regular file\n", p->name);
		vfs_close(p->swap_file);
		p->swap_file = NULL;
		goto bad;
	}
	err = swapon_setup(p, dev_pages, swap_flags);
bad:
	return swapon_end(p, err);
}

long sys_swapon(const char __user *specialfile, int swap_flags)
{
	char *name;
	long err;

	if (swap_flags & ~SWAP_FLAGS_VALID)
		return -EINVAL;
	err = getname(specialfile, &name);
	if (err)
		return err;
	err = do_swapon(name, swap_flags);
	putname(name);
	return err;
}

/*
 * Bring every page of mm that is on area type back (Linux's unuse_mm):
 * for each swap PTE on it, the slot's page from the swap cache or read,
 * locked (which waits for the read), then mapped by unuse_pte, which
 * looks the VMA and the PTE up again: mm's owner may have changed either
 * while we slept, so nothing of them is kept across a sleep.  0, -ENOMEM,
 * or -EIO when a page could not be read (the slot stays, and so does the
 * area).
 */
static int unuse_mm(struct mm_struct *mm, unsigned int type)
{
	unsigned long addr = 0;
	swp_entry_t entry, now;
	struct page *page;
	int ret;

	while ((addr = find_swap_pte(mm, type, addr, &entry)) != -1ul) {
		page = lookup_swap_cache(entry);
		if (!page)
			page = read_swap_cache_async(entry, GFP_USER);
		if (!page) {
			/* No memory, unless the PTE changed while we slept. */
			if (find_swap_pte(mm, type, addr, &now) == addr && now.val == entry.val)
				return -ENOMEM;
			continue;
		}
		lock_page(page);
		ret = 0;
		if (PageSwapCache(page) && page->private == entry.val)
			ret = PageUptodate(page) ? unuse_pte(mm, addr, entry, page) : -EIO;
		unlock_page(page);
		put_page(page);
		if (ret < 0)
			return ret;
		cond_resched();
	}
	return 0;
}

/*
 * Could memory hold the pages of the area being switched off?  Linux asks
 * its overcommit heuristic (__vm_enough_memory): free pages, the page
 * cache that is not tmpfs's, and the free slots of the other areas (this
 * one is out of nr_swap_pages already), less the reserves.
 */
static bool enough_memory_for(unsigned long pages)
{
	unsigned long avail = nr_free_pages() + global_page_state(NR_FILE_PAGES) -
			      global_page_state(NR_SHMEM) + (unsigned long)MAX(nr_swap_pages, 0);

	return avail > totalreserve_pages && avail - totalreserve_pages >= pages;
}

/*
 * Linux 2.6.28 walks the slots and, for each, every mm on mmlist.
 * Pageturn walks the processes instead: each mm that has a swap PTE on the
 * area (held by mm_users across the faults, since its owner may exit
 * meanwhile) is faulted in whole, then the task list is looked at afresh,
 * as it may have changed while we slept.  Last the swap cache's own pages
 * are let go (try_to_free_swap): their slots are then free.  -ENOMEM up
 * front when memory could not hold the area's pages (nothing has moved
 * then), -EINTR on a signal, -EIO if a page could not be read.
 */
#define UNUSE_PASSES	3

static int unuse_pass(struct swap_info_struct *si, unsigned int type);

int try_to_unuse(unsigned int type)
{
	struct swap_info_struct *si = &swap_info[type];
	int err = 0, pass;

	if (!enough_memory_for(si->inuse_pages))
		return -ENOMEM;
	/* A slot may be between owners while we pass (a readahead holding its
	 * count before its page is in the cache, an exec's new mm not yet a
	 * task's): a few passes see it settle. */
	for (pass = 0; pass < UNUSE_PASSES && si->inuse_pages; pass++) {
		err = unuse_pass(si, type);
		if (err)
			return err;
	}
	if (si->inuse_pages) {
		printk(KERN_ERR "swapoff %s: %u slots still in use\n", si->name, si->inuse_pages);
		err = -EBUSY;
	}
	return err;
}

/* One pass of try_to_unuse over the processes, tmpfs and the swap cache. */
static int unuse_pass(struct swap_info_struct *si, unsigned int type)
{
	struct task_struct *p;
	struct mm_struct *mm;
	swp_entry_t entry;
	unsigned long offset;
	int err;

	for (;;) {
		mm = NULL;
		list_for_each_entry(p, &task_list_head, tasks)
			if (p->mm && p->mm->swap_ents &&
			    find_swap_pte(p->mm, type, 0, &entry) != -1ul) {
				mm = p->mm;
				mm->mm_users++;
				break;
			}
		if (!mm)
			break;
		err = unuse_mm(mm, type);
		mmput(mm);
		if (err)
			return err;
		if (signal_pending(current))
			return -EINTR;
	}
	err = shmem_unuse(type);
	if (err)
		return err;
	for (offset = 1; offset < si->max && si->inuse_pages; offset++) {
		struct page *page;

		if (!si->swap_map[offset] || si->swap_map[offset] == SWAP_MAP_BAD)
			continue;
		page = lookup_swap_cache(swp_entry(type, offset));
		if (!page)
			continue;
		lock_page(page);
		/* A write reclaim started must end before the slot is let go
		 * (and the device with it). */
		wait_on_page_writeback(page);
		/* The sleeps may have let the page leave meanwhile. */
		if (PageSwapCache(page) && page->private == swp_entry(type, offset).val)
			try_to_free_swap(page);
		unlock_page(page);
		free_swap_cache(page);
		put_page(page);
		cond_resched();
	}
	return 0;
}

/* Is the area p the one the open file names: the same device, or the
 * same swap file? */
static bool swap_area_is(struct swap_info_struct *p, struct file *file)
{
	struct block_device *bdev = file_bdev(file);

	if (bdev)
		return !swap_is_file(p) && p->bdev == bdev;
	return swap_is_file(p) && p->swap_file->f_inode == file->f_inode;
}

/* swapoff(2)'s work on a kernel path name: -EINVAL when it names no
 * area that is on, try_to_unuse's errors (the area is then on again),
 * the path's errors. */
static long do_swapoff(const char *name)
{
	struct swap_info_struct *p = NULL;
	struct file *file;
	unsigned long flags;
	int type, prev, i;
	long err;

	err = vfs_open(name, O_RDWR | O_LARGEFILE, 0, &file);
	if (err)
		return err;
	mutex_lock(&swapon_mutex);
	spin_lock_irqsave(&swap_lock, flags);
	prev = -1;
	for (type = swap_list.head; type >= 0; type = swap_info[type].next) {
		if (swap_area_is(&swap_info[type], file)) {
			p = &swap_info[type];
			break;
		}
		prev = type;
	}
	if (!p) {
		spin_unlock_irqrestore(&swap_lock, flags);
		err = -EINVAL;
		goto out;
	}
	/* Off the list and out of the counts: no slot is handed out now. */
	if (prev < 0)
		swap_list.head = p->next;
	else
		swap_info[prev].next = p->next;
	swap_list.next = swap_list.head;
	if (p->prio < 0) {
		for (i = p->next; i >= 0; i = swap_info[i].next)
			swap_info[i].prio = p->prio--;
		least_priority++;
	}
	nr_swap_pages -= p->pages - p->inuse_pages;
	total_swap_pages -= p->pages;
	p->flags &= ~SWP_WRITEOK;
	spin_unlock_irqrestore(&swap_lock, flags);

	err = try_to_unuse(type);
	if (err) {
		/* Back on, last among those whose priority swapon chose. */
		spin_lock_irqsave(&swap_lock, flags);
		if (p->prio < 0)
			p->prio = --least_priority;
		insert_swap_info(p);
		spin_unlock_irqrestore(&swap_lock, flags);
		goto out;
	}
	printk(KERN_INFO "Removing %uk swap on %s\n", p->pages << (PAGE_SHIFT - 10), p->name);
	release_swap_area(p);
out:
	mutex_unlock(&swapon_mutex);
	vfs_close(file);
	return err;
}

long sys_swapoff(const char __user *specialfile)
{
	char *name;
	long err;

	err = getname(specialfile, &name);
	if (err)
		return err;
	err = do_swapoff(name);
	putname(name);
	return err;
}

/* ---- /proc/swaps and the boot option -------------------------------------- */

/* seq_path's escaping: these characters as \ooo. */
static int seq_escaped(struct seq_file *m, const char *s, const char *esc)
{
	int len = 0;

	for (; *s; s++) {
		if (strchr(esc, *s)) {
			seq_printf(m, "\\%03o", (unsigned char)*s);
			len += 4;
		} else {
			seq_printf(m, "%c", *s);
			len++;
		}
	}
	return len;
}

void swaps_proc_show(struct seq_file *m)
{
	struct swap_info_struct *p;
	unsigned int type, pages, inuse;
	unsigned long flags;
	bool blk;
	int len, prio;

	mutex_lock(&swapon_mutex);
	seq_puts(m, "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n");
	for (type = 0; type < nr_swapfiles; type++) {
		p = &swap_info[type];
		spin_lock_irqsave(&swap_lock, flags);
		if (!(p->flags & SWP_USED) || !p->swap_map || !(p->flags & SWP_WRITEOK)) {
			spin_unlock_irqrestore(&swap_lock, flags);
			continue;
		}
		pages = p->pages;
		inuse = p->inuse_pages;
		prio = p->prio;
		spin_unlock_irqrestore(&swap_lock, flags);
		blk = !swap_is_file(p);
		len = seq_escaped(m, p->name, " \t\n\\");
		seq_printf(m, "%*s%s\t%u\t%u\t%d\n", len < 40 ? 40 - len : 1, " ",
			   blk ? "partition" : "file\t", pages << (PAGE_SHIFT - 10),
			   inuse << (PAGE_SHIFT - 10), prio);
	}
	mutex_unlock(&swapon_mutex);
}

/* swapon of the block device called name ("vdb") by the kernel itself:
 * like do_swapon's, without a file (/dev is not mounted yet). */
static long swapon_bdev(const char *name)
{
	struct swap_info_struct *p;
	struct block_device *bdev = lookup_bdev(name);
	long err;

	if (!bdev)
		return -ENOENT;
	p = swapon_begin();
	if (!p)
		return -EPERM;
	err = -ENOMEM;
	p->name = kmalloc(strlen(name) + 6, GFP_KERNEL);
	if (!p->name)
		goto bad;
	memcpy(p->name, "/dev/", 5);
	memcpy(p->name + 5, name, strlen(name) + 1);
	err = swapon_claim_bdev(p, bdev);
	if (!err)
		err = swapon_setup(p, bdev->nr_sectors >> (PAGE_SHIFT - SECTOR_SHIFT), 0);
bad:
	return swapon_end(p, err);
}

void swapon_boot(void)
{
	const char *opt = cmdline_get("swap"), *end;
	char name[sizeof(((struct block_device *)0)->name)];
	size_t n;
	long err;

	while (opt && *opt) {
		end = strchr(opt, ',');
		n = end ? (size_t)(end - opt) : strlen(opt);
		if (n >= 5 && strncmp(opt, "/dev/", 5) == 0) {
			opt += 5;
			n -= 5;
		}
		if (n && n < sizeof(name)) {
			memcpy(name, opt, n);
			name[n] = '\0';
			err = swapon_bdev(name);
			if (err)
				printk(KERN_ERR "swap=: swapon /dev/%s failed (error %ld)\n", name, err);
		} else if (n) {
			printk(KERN_ERR "swap=: %.*s is no block device name\n", (int)n, opt);
		}
		opt += n;
		if (*opt == ',')
			opt++;
	}
}
