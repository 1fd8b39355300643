/*
 * The page cache: file data in RAM, found by (mapping, index) (Linux's
 * mm/filemap.c, with the pieces of mm/page-writeback.c, mm/truncate.c and
 * mm/readahead.c it needs, v2.6.28 names).
 *
 * A page of a file is in one of these states; the flags say which:
 *
 *   absent      not in mapping->page_tree.
 *   reading     in the tree, PG_locked, not PG_uptodate: add_to_page_cache_lru
 *               put it there and a_ops->readpage is filling it, or its
 *               read is in flight after a_ops->readpages (readahead),
 *               whose completion sets PG_uptodate and unlocks it, in the
 *               disk's interrupt handler.
 *   failed      in the tree, unlocked, not PG_uptodate: a readpages read
 *               failed.  Whoever wants the data locks the page and reads
 *               it again with readpage, which gives the error; a failed
 *               readpage takes the page out of the tree at once.
 *   clean       PG_uptodate: the same bytes as the backing store.
 *   dirty       PG_uptodate, PG_dirty: newer than the backing store;
 *               counted in NR_FILE_DIRTY (set_page_dirty).
 *   writeback   PG_writeback, PG_locked: write_one_page cleared PG_dirty
 *               (clear_page_dirty_for_io) and a_ops->writepage is writing
 *               it (set_page_writeback .. end_page_writeback); counted in
 *               NR_WRITEBACK.  Clean after, dirty again if the write
 *               failed.  A file's writepage waits for its I/O, so a file
 *               page is locked for all of it; swap's does not
 *               (mm/page_io.c), and a page reclaim wrote to swap may be
 *               unlocked and under writeback until its bio ends.
 *   truncated   out of the tree, off its LRU list, freed when the last
 *               user drops its reference (a page table mapping it is one:
 *               see delete_from_page_cache).
 *
 * Every page in the tree holds a reference for the cache (dropped by the
 * remover) and is counted in NR_FILE_PAGES.  It is also on an LRU list,
 * which holds a reference of its own (mm/swap.c): a file mapping's pages
 * start on the inactive file list, a swap-backed mapping's (tmpfs) get
 * PG_swapbacked and start on the active anon list, as in Linux 2.6.28.
 * read() and write() call mark_page_accessed, so a page used twice moves
 * to the active list, and a page read once by a streaming read stays
 * inactive for reclaim to take first.  A read() marks each page it copies
 * from once, and not again when it continues in the page where the last
 * read() stopped (Linux's prev_index/prev_offset test), so reading a file
 * in small pieces counts as one access per page.
 *
 * Locking.  PG_locked excludes truncation, writeback and a second reader
 * while a page's I/O is in flight.  I/O sleeps and other tasks run
 * meanwhile, so lock_page of a locked page sleeps until unlock_page wakes
 * it (one wait queue, page_wait, serves every page: few tasks ever wait at
 * once, and each woken one tests its own page again).  Whoever sleeps for
 * a page lock may find, once it holds it, that the page left the cache
 * meanwhile (truncated, or its read failed): page->mapping is then no
 * longer the mapping it was found in, and every caller that locks a page
 * it looked up checks that.  A page in the tree that is not uptodate is
 * being filled by the task holding its lock (readpage, or write() of a
 * new page); read() and the page fault wait for that lock
 * (find_get_uptodate_page) and then see the result.
 *
 * There is one CPU and the kernel is not preemptive, so code that does not
 * sleep runs alone.  The radix tree (kernel/lib/radix-tree.c) is changed
 * only under mapping->tree_lock, and nothing sleeps or allocates with
 * __GFP_WAIT while holding it: add_to_page_cache_lru preloads the tree's
 * nodes first (radix_tree_preload), so reclaim, which may run inside any
 * sleeping allocation and take pages of this same mapping out of the
 * cache, never finds the tree half changed (a reclaim that did would
 * take tree_lock again, and the lock's recursion check panics).
 * Lookups need no lock: nothing changes the tree while they run.
 * Interrupt handlers never touch the tree; what they do to the page
 * cache is finish I/O: a read that readpages started (set PG_uptodate,
 * unlock_page), a file write of mpage_writepages, and a write to swap
 * (end_page_writeback, which may move the page within its inactive list
 * under lru_lock, always taken with interrupts off).  That is why the
 * page flag updates are atomic (mm/page-flags.h) and unlock_page's and
 * end_page_writeback's wake_up is interrupt-safe.  The zone counters are
 * updated with the interrupt-safe mod_zone_page_state.
 *
 * Page faults (filemap_fault) find or read pages as read() does, through
 * the same code, and leave them on their LRU list: a mapped page is not
 * promoted by its mapping, only marked accessed once per fault.
 *
 * Copies to and from user memory.  read() (filemap_read) copies from each
 * page straight into the caller's iov_iter holding only a reference, so a
 * fault in the destination may sleep and read pages, of this file too.
 * write() (generic_perform_write) copies into a locked page, and the
 * page fault path locks a page that is not uptodate (find_get_uptodate_page
 * waits for its reader): a source buffer that maps the very page being
 * written would fault on a page this task holds locked and never wake.
 * So, as Linux does, the source is faulted in before the page is locked,
 * the copy runs with page faults disabled (copy_page_from_iter_atomic),
 * and a copy cut short because reclaim took a source page in between is
 * retried from the fault-in.  A source that cannot be faulted in ends
 * the write with the bytes before it.  No i_mutex is taken on the fault
 * path, so the writer's i_mutex is no hazard.
 *
 * Readahead (Linux's on-demand readahead, simplified).  A miss is
 * sequential when it is at page 0, in the page after the previous read's,
 * or exactly where the last window ended.  A sequential miss reads a
 * window of pages from the missing one on, VM_MIN_READAHEAD pages (the
 * synchronous half: the reader needs its first page); a random miss reads
 * its page alone and closes the window.  The first page read ahead of a
 * window gets PG_readahead, and so does the first page of every later
 * window: a reader reaching a page so marked clears the mark and starts
 * the next window at once, twice the previous one up to the mapping's
 * backing_dev_info->ra_pages (VM_MAX_READAHEAD without one), never past
 * the end of the file (the asynchronous half: the reader does not wait
 * for it, and the disk reads one window ahead while it copies the
 * current one).  A window's reads all start at once (a_ops->readpages,
 * which for ext2 builds multi-page bios: fs/mpage.c), and a reader waits
 * for the page it needs alone.  Pages read ahead of demand are counted in
 * ra->nr_readahead; Linux has no counter for them.
 */
#include <drivers/blkdev.h>
#include <fs/uio.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#include "internal.h"

/* ---- the mapping and its pages ---------------------------------------- */

void address_space_init(struct address_space *mapping, void *host,
			const struct address_space_operations *a_ops, bool swap_backed)
{
	memset(mapping, 0, sizeof(*mapping));
	spin_lock_init(&mapping->tree_lock, "tree_lock");
	INIT_RADIX_TREE(&mapping->page_tree, GFP_ATOMIC);
	mapping->host = host;
	mapping->a_ops = a_ops;
	if (swap_backed)
		mapping->flags |= 1ul << AS_SWAPBACKED;
	mapping->ra.prev_pos = ~0ull;
	spin_lock_init(&mapping->i_mmap_lock, "i_mmap_lock");
	INIT_LIST_HEAD(&mapping->i_mmap);
}

/* Where lock_page sleeps for any page (Linux hashes pages to a table of
 * queues, page_waitqueue(); with few tasks one queue is enough). */
static DECLARE_WAIT_QUEUE_HEAD(page_wait);

bool trylock_page(struct page *page)
{
	return !TestSetPageLocked(page);
}

/*
 * The page is locked by someone else: sleep until we hold it.  The task is
 * on the queue and not running before it tests the bit, so an unlock_page
 * between the test and schedule() makes it runnable again and the wakeup
 * is not lost.  Interrupt handlers never take page locks, so interrupts
 * may stay on (Linux's __lock_page).
 */
static void __lock_page(struct page *page)
{
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait(&page_wait, &wait, TASK_UNINTERRUPTIBLE);
		if (trylock_page(page))
			break;
		schedule();
	}
	finish_wait(&page_wait, &wait);
}

void lock_page(struct page *page)
{
	if (!trylock_page(page))
		__lock_page(page);
}

void unlock_page(struct page *page)
{
	if (!TestClearPageLocked(page))
		panic("unlock_page: pfn %lu is not locked", page_to_pfn(page));
	wake_up(&page_wait);
}

struct page *find_get_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page = radix_tree_lookup(&mapping->page_tree, index);

	if (page)
		get_page(page);
	return page;
}

struct page *find_lock_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page;

	for (;;) {
		page = find_get_page(mapping, index);
		if (!page)
			return NULL;
		lock_page(page);
		if (page->mapping == mapping)
			return page;
		/* It left the cache while we slept for the lock: look again. */
		unlock_page(page);
		page_cache_release(page);
	}
}

unsigned int find_get_pages(struct address_space *mapping, pgoff_t start,
				   unsigned int nr, struct page **pages)
{
	unsigned int i, n;

	n = radix_tree_gang_lookup(&mapping->page_tree, (void **)pages, start, nr);
	for (i = 0; i < n; i++)
		get_page(pages[i]);
	return n;
}

/*
 * Insert a new page at index, locked, and put it on its LRU list (Linux's
 * add_to_page_cache_locked and lru_cache_add).  The tree's nodes are
 * preloaded with gfp, which may sleep and reclaim, before tree_lock is
 * taken; the insert itself only takes preloaded nodes (the tree's mask is
 * GFP_ATOMIC), so reclaim never reaches this mapping's tree while it is
 * being changed.  0, -EEXIST or -ENOMEM.
 */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping,
			  pgoff_t index, gfp_t gfp)
{
	unsigned long flags;
	int err;

	if (PageLRU(page) || page->mapping || PageLocked(page))
		panic("add_to_page_cache_lru: pfn %lu is not a new page", page_to_pfn(page));
	err = radix_tree_preload(gfp);
	if (err)
		return err;
	spin_lock_irqsave(&mapping->tree_lock, flags);
	err = radix_tree_insert(&mapping->page_tree, index, page);
	if (!err) {
		SetPageLocked(page);
		get_page(page);			/* the cache's reference */
		page->mapping = mapping;
		page->index = index;
		mapping->nrpages++;
	}
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	radix_tree_preload_end();
	if (err)
		return err;
	inc_zone_page_state(page, NR_FILE_PAGES);
	if (mapping_cap_swap_backed(mapping)) {
		inc_zone_page_state(page, NR_SHMEM);
		SetPageSwapBacked(page);
		/* A ramfs page can never leave: straight to the unevictable
		 * list, since without swap reclaim never scans the anon lists
		 * where it would otherwise wait to be culled. */
		if (mapping_unevictable(mapping)) {
			lru_cache_add_lru(page, LRU_UNEVICTABLE);
			count_vm_event(UNEVICTABLE_PGCULLED);
		} else {
			lru_cache_add_active_anon(page);
		}
	} else {
		lru_cache_add_file(page);
	}
	return 0;
}

/* Called with the page locked. */
void remove_from_page_cache(struct page *page)
{
	struct address_space *mapping = page->mapping;
	unsigned long flags;

	if (!PageLocked(page) || !mapping || PageDirty(page) || PageWriteback(page))
		panic("remove_from_page_cache: pfn %lu is not a locked, clean cache page",
		      page_to_pfn(page));
	spin_lock_irqsave(&mapping->tree_lock, flags);
	radix_tree_delete(&mapping->page_tree, page->index);
	page->mapping = NULL;
	mapping->nrpages--;
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	dec_zone_page_state(page, NR_FILE_PAGES);
	if (mapping_cap_swap_backed(mapping))
		dec_zone_page_state(page, NR_SHMEM);
}

/*
 * Take a locked page that no page table maps out of the cache for good
 * (Linux's truncate_complete_page): its dirty data is dropped, its
 * PG_mlocked cleared (a locked VMA that mapped it was unmapped), it leaves
 * its LRU list, and the list's and the cache's references go.  Returns
 * with the page unlocked; the caller still holds its own reference, whose
 * release frees the page.  If someone else has isolated the page
 * (reclaim), the list's reference is theirs, and putting the page back
 * leaves a page with no mapping on the LRU for reclaim to free.
 */
static void delete_from_page_cache(struct page *page)
{
	if (page_mapped(page))
		panic("delete_from_page_cache: pfn %lu is still mapped", page_to_pfn(page));
	cancel_dirty_page(page);
	clear_page_mlock(page);
	remove_from_page_cache(page);
	unlock_page(page);
	if (isolate_lru_page(page) == 0) {
		ClearPageActive(page);
		ClearPageUnevictable(page);
		page_cache_release(page);	/* the list's reference */
	}
	page_cache_release(page);		/* the cache's reference */
}

/* ---- dirty pages and writeback ---------------------------------------- */

/*
 * Linux counts dirty pages only where the backing device writes them back
 * (mapping_cap_account_dirty); swap-backed pages are written by reclaim,
 * not writeback, and are not counted.
 */
static bool mapping_cap_account_dirty(const struct address_space *mapping)
{
	return mapping && !mapping_cap_swap_backed(mapping);
}

bool set_page_dirty(struct page *page)
{
	if (TestSetPageDirty(page))
		return false;
	if (mapping_cap_account_dirty(page_mapping(page)))
		inc_zone_page_state(page, NR_FILE_DIRTY);
	return true;
}

/* Called with the page locked. */
bool clear_page_dirty_for_io(struct page *page)
{
	struct address_space *mapping = page_mapping(page);

	if (!mapping_cap_account_dirty(mapping))
		return TestClearPageDirty(page);
	/* Stores through shared mappings since the page was last dirtied
	 * count, and later ones will fault and dirty it again. */
	if (page_mkclean(page))
		set_page_dirty(page);
	if (!TestClearPageDirty(page))
		return false;
	dec_zone_page_state(page, NR_FILE_DIRTY);
	return true;
}

/* Called with the page locked, before it leaves its mapping. */
void cancel_dirty_page(struct page *page)
{
	clear_page_dirty_for_io(page);
}

void set_page_writeback(struct page *page)
{
	if (TestSetPageWriteback(page))
		panic("set_page_writeback: pfn %lu is under writeback already", page_to_pfn(page));
	inc_zone_page_state(page, NR_WRITEBACK);
}

/* May run in the disk's interrupt handler: the flag updates are atomic,
 * the counter and rotate_reclaimable_page turn interrupts off, and the
 * wake_up is interrupt-safe. */
void end_page_writeback(struct page *page)
{
	if (TestClearPageReclaim(page))
		rotate_reclaimable_page(page);
	if (!TestClearPageWriteback(page))
		panic("end_page_writeback: pfn %lu is not under writeback", page_to_pfn(page));
	dec_zone_page_state(page, NR_WRITEBACK);
	wake_up(&page_wait);
}

/* As __lock_page: on the queue before the test, so an end_page_writeback
 * in between is not lost. */
void wait_on_page_writeback(struct page *page)
{
	DEFINE_WAIT(wait);

	while (PageWriteback(page)) {
		prepare_to_wait(&page_wait, &wait, TASK_UNINTERRUPTIBLE);
		if (PageWriteback(page))
			schedule();
	}
	finish_wait(&page_wait, &wait);
}

/* Called with the page locked. */
int write_one_page(struct page *page)
{
	struct address_space *mapping = page_mapping(page);
	int err;

	if (!PageLocked(page))
		panic("write_one_page: pfn %lu is not locked", page_to_pfn(page));
	/* A write reclaim started may still be in flight. */
	wait_on_page_writeback(page);
	if (!clear_page_dirty_for_io(page))
		return 0;
	err = mapping->a_ops->writepage(mapping, page);
	if (err) {
		set_page_dirty(page);
		return err;
	}
	/* An asynchronous writepage's bio ends the writeback; its failure
	 * leaves the page dirty again with PG_error set. */
	wait_on_page_writeback(page);
	if (TestClearPageError(page))
		return -EIO;
	return 0;
}

#define PAGEVEC_SIZE 14		/* pages looked up at a time, as Linux's pagevec */

int filemap_write_and_wait(struct address_space *mapping)
{
	struct page *pages[PAGEVEC_SIZE];
	pgoff_t index = 0;
	unsigned int i, n;
	int err = 0, e;

	if (mapping->a_ops->writepages)
		return mapping->a_ops->writepages(mapping);
	while ((n = find_get_pages(mapping, index, PAGEVEC_SIZE, pages)) > 0) {
		index = pages[n - 1]->index + 1;
		for (i = 0; i < n; i++) {
			lock_page(pages[i]);
			if (pages[i]->mapping == mapping) {
				e = write_one_page(pages[i]);
				if (e && !err)
					err = e;
			}
			unlock_page(pages[i]);
			page_cache_release(pages[i]);
		}
		if (index == 0)		/* wrapped past the last index */
			break;
	}
	return err;
}

void truncate_inode_pages(struct address_space *mapping, uint64_t lstart)
{
	pgoff_t start = (lstart + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned int partial = lstart & (PAGE_SIZE - 1);
	struct page *pages[PAGEVEC_SIZE], *page;
	pgoff_t index = start;
	unsigned int i, n;

	unmap_mapping_range(mapping, (uint64_t)start << PAGE_SHIFT, 0);
	while ((n = find_get_pages(mapping, index, PAGEVEC_SIZE, pages)) > 0) {
		index = pages[n - 1]->index + 1;
		for (i = 0; i < n; i++) {
			page = pages[i];
			lock_page(page);
			if (page->mapping != mapping) {
				unlock_page(page);
			} else {
				/* Mapped again while we slept for the lock. */
				if (page_mapped(page))
					unmap_mapping_range(mapping,
							    (uint64_t)page->index << PAGE_SHIFT,
							    PAGE_SIZE);
				delete_from_page_cache(page);
			}
			page_cache_release(page);
		}
		if (index == 0)
			break;
	}
	/* Private copies a fault made while we slept (Linux's
	 * truncate_pagecache unmaps twice for them). */
	unmap_mapping_range(mapping, (uint64_t)start << PAGE_SHIFT, 0);
	if (partial) {
		page = find_lock_page(mapping, lstart >> PAGE_SHIFT);
		if (page) {
			memset((char *)page_address(page) + partial, 0, PAGE_SIZE - partial);
			unlock_page(page);
			page_cache_release(page);
		}
	}
}

/*
 * Linux's invalidate_mapping_pages (for drop_caches): drop the pages of
 * mapping with index in [start, end] that nothing needs -- unlocked
 * (trylock_page: a locked page is being read, written or truncated),
 * clean, not under writeback and mapped by no page table.  A tmpfs
 * mapping (swap-backed) keeps all its pages: they are the only copy of
 * its data.  Returns the pages dropped.  Never sleeps: a caller walking
 * a list of inodes may rely on the list not changing under it.
 */
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	struct page *pages[PAGEVEC_SIZE], *page;
	unsigned long dropped = 0;
	pgoff_t index = start;
	unsigned int i, n;

	if (mapping_cap_swap_backed(mapping))
		return 0;
	while (index <= end && (n = find_get_pages(mapping, index, PAGEVEC_SIZE, pages)) > 0) {
		index = pages[n - 1]->index + 1;
		for (i = 0; i < n; i++) {
			page = pages[i];
			if (page->index <= end && trylock_page(page)) {
				if (page->mapping == mapping && !PageDirty(page) &&
				    !PageWriteback(page) && !page_mapped(page)) {
					delete_from_page_cache(page);
					dropped++;
				} else {
					unlock_page(page);
				}
			}
			page_cache_release(page);
		}
		if (index == 0)		/* wrapped past the last index */
			break;
	}
	return dropped;
}

/* ---- read() and write() ----------------------------------------------- */

/*
 * Read page index into the cache with readpage: a new page, locked while
 * readpage fills it.  0 with *pagep uptodate, unlocked and referenced for
 * the caller, or -errno (-EEXIST: another task added the page first) with
 * nothing left in the cache.
 */
static int read_one_page(struct address_space *mapping, pgoff_t index, struct page **pagep)
{
	struct page *page = alloc_page(GFP_KERNEL);
	int err;

	if (!page)
		return -ENOMEM;
	err = add_to_page_cache_lru(page, mapping, index, GFP_KERNEL);
	if (err) {
		page_cache_release(page);
		return err;
	}
	err = mapping->a_ops->readpage(mapping, page);
	if (err) {
		delete_from_page_cache(page);
		page_cache_release(page);
		return err;
	}
	unlock_page(page);
	*pagep = page;
	return 0;
}

/*
 * Start reading the nr_pages new pages on list pages (see readpages in
 * fs/fs.h): all at once through a_ops->readpages when the mapping has
 * it, or else one after the other with readpage, a page whose read fails
 * leaving the cache again.  The window's bios go out under a plug
 * (Linux's read_pages), so those that continue each other on the disk
 * become one request.
 */
static void read_pages(struct address_space *mapping, struct list_head *pages,
		       unsigned int nr_pages)
{
	struct blk_plug plug;
	struct page *page;

	if (mapping->a_ops->readpages) {
		blk_start_plug(&plug);
		mapping->a_ops->readpages(mapping, pages, nr_pages);
		blk_finish_plug(&plug);
		return;
	}
	while (!list_empty(pages)) {
		page = list_first_entry(pages, struct page, lru);
		list_del(&page->lru);
		if (add_to_page_cache_lru(page, mapping, page->index, GFP_KERNEL) == 0) {
			if (mapping->a_ops->readpage(mapping, page) == 0)
				unlock_page(page);
			else
				delete_from_page_cache(page);
		}
		page_cache_release(page);
	}
}

/*
 * Start reads of the pages of [index, index + nr) that are not cached,
 * stopping at page last (the file's last), as one batch (Linux's
 * __do_page_cache_readahead); the new page at index mark, if there is
 * one, gets PG_readahead.  Allocation may sleep, and another task may add
 * one of the pages meanwhile: readpages then drops ours.  Returns the
 * number of pages whose read was started.
 */
static unsigned int do_page_cache_readahead(struct address_space *mapping, pgoff_t index,
					    unsigned int nr, pgoff_t last, pgoff_t mark)
{
	LIST_HEAD(pages);
	struct page *page;
	unsigned int n = 0;
	pgoff_t i;

	for (i = index; i < index + nr && i <= last; i++) {
		if (radix_tree_lookup(&mapping->page_tree, i))
			continue;
		page = alloc_page(GFP_KERNEL);
		if (!page)
			break;
		page->index = i;
		if (i == mark)
			SetPageReadahead(page);
		list_add_tail(&page->lru, &pages);
		n++;
	}
	if (n)
		read_pages(mapping, &pages, n);
	return n;
}

/* The largest readahead window of mapping, in pages. */
static unsigned int max_readahead(const struct address_space *mapping)
{
	return mapping->backing_dev_info ? mapping->backing_dev_info->ra_pages : VM_MAX_READAHEAD;
}

/*
 * Page index is not cached: start its read, and, if the miss is
 * sequential, the reads of the rest of a first window after it, marking
 * the page after index (see the top of the file), all as one batch.
 * prev_index is the page the reader touched last.  The caller then waits
 * for page index alone.
 */
static void page_cache_sync_readahead(struct address_space *mapping, pgoff_t index,
				      pgoff_t prev_index, uint64_t isize)
{
	struct file_ra_state *ra = &mapping->ra;
	unsigned int max = max_readahead(mapping), started;

	if (ra->size && index == ra->start + ra->size)
		ra->size = MIN(2 * ra->size, max);
	else if (index == 0 || index == prev_index + 1)
		ra->size = MIN((unsigned int)VM_MIN_READAHEAD, max);
	else
		ra->size = 0;
	ra->start = index;

	started = do_page_cache_readahead(mapping, index, MAX(ra->size, 1u),
					  (isize - 1) >> PAGE_SHIFT, index + 1);
	if (started > 1)
		ra->nr_readahead += started - 1;
}

/*
 * The reader reached page index, which was marked PG_readahead (the mark
 * is cleared): start the window after the latest one, twice its size up
 * to the maximum, and mark its first page.  A mark left from a window
 * that is no longer the latest (the reader jumped) starts nothing.
 */
static void page_cache_async_readahead(struct address_space *mapping, pgoff_t index,
				       uint64_t isize)
{
	struct file_ra_state *ra = &mapping->ra;
	pgoff_t start = ra->start + ra->size;

	if (!ra->size || index < ra->start || index >= start)
		return;
	ra->start = start;
	ra->size = MIN(2 * ra->size, max_readahead(mapping));
	if (ra->size)
		ra->nr_readahead += do_page_cache_readahead(mapping, start, ra->size,
							    (isize - 1) >> PAGE_SHIFT, start);
}

/*
 * The uptodate page at index, referenced for the caller, in *pagep: found
 * in the cache (where a PG_readahead mark on it starts the next window),
 * or read with page_cache_sync_readahead (prev_index and isize as there)
 * when it is missing.  A page whose read is in flight
 * (here or by another task) is waited for; one whose read failed is read
 * again here with readpage, for its error.  *major says whether the page
 * had to wait for I/O.  Returns 0 or the read's -errno.  The common part
 * of read() and the page fault.
 */
static int find_get_uptodate_page(struct address_space *mapping, pgoff_t index,
				  pgoff_t prev_index, uint64_t isize, struct page **pagep,
				  bool *major)
{
	struct page *page;
	int err;

	*major = false;
	for (;;) {
		page = find_get_page(mapping, index);
		if (!page) {
			*major = true;
			page_cache_sync_readahead(mapping, index, prev_index, isize);
			page = find_get_page(mapping, index);
		}
		if (!page) {
			/* Readahead could not add it (out of memory, or its
			 * read failed and it left): read it alone. */
			err = read_one_page(mapping, index, &page);
			if (err == -EEXIST)
				continue;	/* another task added it while we allocated */
			if (err)
				return err;
			break;
		}
		if (TestClearPageReadahead(page))
			page_cache_async_readahead(mapping, index, isize);
		if (PageUptodate(page))
			break;
		/* Being read: its reader unlocks it when the read is over. */
		*major = true;
		lock_page(page);
		if (page->mapping != mapping) {
			/* It left the cache while we slept: look again. */
			unlock_page(page);
			page_cache_release(page);
			continue;
		}
		if (!PageUptodate(page)) {
			/* Its read failed: try once more, for the error. */
			err = mapping->a_ops->readpage(mapping, page);
			if (err) {
				delete_from_page_cache(page);
				page_cache_release(page);
				return err;
			}
		}
		unlock_page(page);
		break;
	}
	*pagep = page;
	return 0;
}

long filemap_read(struct address_space *mapping, uint64_t pos, struct iov_iter *to,
		  uint64_t isize)
{
	struct file_ra_state *ra = &mapping->ra;
	pgoff_t prev_index = ra->prev_pos >> PAGE_SHIFT, index;
	unsigned int prev_offset = ra->prev_pos & (PAGE_SIZE - 1), offset;
	struct page *page;
	size_t done = 0, len, n, copied;
	bool major;
	int err = 0;

	if (pos >= isize)
		return 0;
	len = MIN(iov_iter_count(to), isize - pos);
	while (done < len) {
		index = (pos + done) >> PAGE_SHIFT;
		offset = (pos + done) & (PAGE_SIZE - 1);
		n = MIN(PAGE_SIZE - offset, len - done);
		err = find_get_uptodate_page(mapping, index, prev_index, isize, &page, &major);
		if (err)
			break;
		/* A sequential read touching a page again is one access. */
		if (prev_index != index || offset != prev_offset)
			mark_page_accessed(page);
		prev_index = index;
		/* No lock is held: a fault on the destination may sleep, even
		 * to read this file's pages.  The reference keeps the page. */
		copied = copy_page_to_iter(page, offset, n, to);
		page_cache_release(page);
		done += copied;
		prev_offset = (offset + copied) & (PAGE_SIZE - 1);
		if (copied < n) {
			err = -EFAULT;
			break;
		}
		cond_resched();
	}
	ra->prev_pos = ((uint64_t)prev_index << PAGE_SHIFT) | prev_offset;
	return done ? (long)done : err;
}

/*
 * Readahead for faults is read()'s: a fault one page after the previous
 * fault or read, or where the last window ended, reads the next window.
 * prev_pos is left at the start of the faulting page, as Linux's
 * filemap_fault leaves it.
 */
int filemap_fault(struct address_space *mapping, pgoff_t index, uint64_t isize,
		  struct page **pagep)
{
	struct file_ra_state *ra = &mapping->ra;
	struct page *page;
	bool major;
	int err;

	if (index >= (isize + PAGE_SIZE - 1) >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	err = find_get_uptodate_page(mapping, index, ra->prev_pos >> PAGE_SHIFT, isize, &page,
				     &major);
	if (err)
		return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	ra->prev_pos = (uint64_t)index << PAGE_SHIFT;
	mark_page_accessed(page);
	if (major)
		count_vm_event(PGMAJFAULT);
	*pagep = page;
	return major ? VM_FAULT_MAJOR : 0;
}

long generic_perform_write(struct address_space *mapping, struct iov_iter *from, uint64_t pos)
{
	const struct address_space_operations *a_ops = mapping->a_ops;
	size_t done = 0, bytes, copied;
	unsigned int offset;
	struct page *page;
	pgoff_t index;
	int err = 0;

	while (iov_iter_count(from)) {
		/* Yield here, never between the last page's unlock and our
		 * return: see the contract in mm/pagemap.h. */
		cond_resched();
		index = pos >> PAGE_SHIFT;
		offset = pos & (PAGE_SIZE - 1);
		bytes = MIN(PAGE_SIZE - offset, iov_iter_count(from));
		/* Fault the source in now, while no page is locked; a source
		 * that is bad part way is written up to the bad byte. */
		bytes -= fault_in_iov_iter_readable(from, bytes);
		if (!bytes) {
			err = -EFAULT;
			break;
		}
		page = find_lock_page(mapping, index);
		if (!page) {
			page = alloc_page(GFP_KERNEL);
			if (!page) {
				err = -ENOMEM;
				break;
			}
			err = add_to_page_cache_lru(page, mapping, index, GFP_KERNEL);
			if (err) {
				page_cache_release(page);
				break;
			}
		}
		copied = 0;
		if (!PageUptodate(page) && bytes == PAGE_SIZE) {
			/* A new page written whole needs no read, but only a
			 * whole copy makes it the file's: copy first, and if
			 * the copy came up short, read the page after all
			 * (prepare_write has allocated nothing yet, so the read
			 * finds the file's bytes) and try again. */
			copied = copy_page_from_iter_atomic(page, 0, PAGE_SIZE, from);
			if (copied < PAGE_SIZE) {
				iov_iter_revert(from, copied);
				copied = 0;
				err = a_ops->readpage(mapping, page);
			} else if (a_ops->prepare_write) {
				err = a_ops->prepare_write(mapping, page, 0, PAGE_SIZE);
				if (err)
					iov_iter_revert(from, copied);
			}
		} else {
			/* Read-modify-write: the bytes not written must be the
			 * file's. */
			if (!PageUptodate(page))
				err = a_ops->readpage(mapping, page);
			if (!err && a_ops->prepare_write)
				err = a_ops->prepare_write(mapping, page, offset, offset + bytes);
			if (!err)
				copied = copy_page_from_iter_atomic(page, offset, bytes, from);
		}
		if (err) {
			if (PageUptodate(page))
				unlock_page(page);
			else
				delete_from_page_cache(page);
			page_cache_release(page);
			break;
		}
		/* Dirty even when nothing was copied: prepare_write may have
		 * put a new block under the page, which must get its bytes. */
		SetPageUptodate(page);
		set_page_dirty(page);
		mark_page_accessed(page);
		unlock_page(page);
		page_cache_release(page);
		pos += copied;
		done += copied;
	}
	return done ? (long)done : err;
}
