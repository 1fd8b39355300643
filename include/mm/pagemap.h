/*
 * The page cache (Linux's include/linux/pagemap.h and the parts of
 * mm/filemap.c, mm/page-writeback.c and mm/truncate.c it declares, v2.6.28
 * names).  mm/filemap.c implements all of it; the essay on states and
 * invariants is there, the structures are in fs/fs.h.
 *
 * Every function is called from process context, never with a spinlock
 * held, and may allocate with GFP_KERNEL.  Errors are returned as values:
 * -ENOMEM, -EEXIST, -EIO or what a filesystem's operation returned.
 */
#ifndef MM_PAGEMAP_H
#define MM_PAGEMAP_H

#include <fs/fs.h>
#include <fs/uio.h>
#include <mm/gfp.h>
#include <mm/mm.h>

/* Set up an empty mapping of host with operations a_ops. */
void address_space_init(struct address_space *mapping, void *host,
			const struct address_space_operations *a_ops, bool swap_backed);

/*
 * AS_UNEVICTABLE (Linux 2.6.28's "Unevictable LRU Infrastructure"): the
 * pages of such a mapping go to LRU_UNEVICTABLE when reclaim meets them
 * (page_evictable), or at once when they enter the page cache of a
 * swap-backed mapping (add_to_page_cache_lru).  Linux sets it for ramfs
 * inodes (so does Pageturn's ramfs, mm/shmem.c) and for SysV shared
 * memory under SHM_LOCK (Pageturn has no SysV shm); clearing it is followed by
 * scan_mapping_unevictable_pages (mm/swap.h), which moves the mapping's
 * pages back to their evictable lists.  Called with no lock held.
 */
static inline void mapping_set_unevictable(struct address_space *mapping)
{
	mapping->flags |= 1ul << AS_UNEVICTABLE;
}

static inline void mapping_clear_unevictable(struct address_space *mapping)
{
	mapping->flags &= ~(1ul << AS_UNEVICTABLE);
}

/* NULL (an anonymous page's) is evictable. */
static inline bool mapping_unevictable(const struct address_space *mapping)
{
	return mapping && (mapping->flags & (1ul << AS_UNEVICTABLE));
}

/* Drop a reference taken by find_get_page() and friends. */
static inline void page_cache_release(struct page *page)
{
	put_page(page);
}

/*
 * PG_locked, held across a page's I/O.  lock_page() sleeps (uninterruptibly)
 * while another task holds the lock, so it is for process context only, and
 * a page locked twice by the same task deadlocks.  unlock_page() wakes the
 * sleepers; unlocking a page that is not locked is a bug and panics.
 * Whoever slept may find the page gone from its mapping (page->mapping
 * changed): callers that looked the page up check.
 */
void lock_page(struct page *page);
/* Lock page if it is unlocked: true when the caller now holds the lock.
 * Never sleeps. */
bool trylock_page(struct page *page);
void unlock_page(struct page *page);

/* The page at index, with a reference for the caller, or NULL. */
struct page *find_get_page(struct address_space *mapping, pgoff_t index);
/* The same, locked, and still in mapping once locked (it may sleep for the
 * lock; a page that left the cache meanwhile is looked up again). */
struct page *find_lock_page(struct address_space *mapping, pgoff_t index);

/* Up to nr pages at index start or above, in index order, referenced. */
unsigned int find_get_pages(struct address_space *mapping, pgoff_t start, unsigned int nr,
			    struct page **pages);

/*
 * Insert a new page (not on an LRU list, no mapping, flags clean) at index
 * and put it on the inactive file list, or (as Linux 2.6.28 does for
 * shmem) the active anon list with PG_swapbacked if the mapping is
 * swap-backed.  Returns 0 with the page
 * locked and the cache's reference taken (the caller keeps its own), or
 * -EEXIST (a page is there) or -ENOMEM, with the page untouched.
 */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping,
			  pgoff_t index, gfp_t gfp);

/*
 * Take a locked page out of its mapping.  The cache's reference becomes
 * the caller's to drop; the page stays on its LRU list.  PG_dirty must
 * be clear (cancel_dirty_page) and PG_writeback too.
 */
void remove_from_page_cache(struct page *page);

/*
 * Dirty accounting.  set_page_dirty: mark a page in a mapping dirty;
 * true if it was clean (NR_FILE_DIRTY counted).  clear_page_dirty_for_io:
 * called with the page locked just before writepage; true if it was dirty
 * (the count moves off NR_FILE_DIRTY).  cancel_dirty_page: the data will
 * never be written (truncation); the count goes too.
 */
bool set_page_dirty(struct page *page);
bool clear_page_dirty_for_io(struct page *page);
void cancel_dirty_page(struct page *page);

/*
 * The writeback state of a page (Linux's names).  a_ops->writepage is
 * called with the page locked and PG_dirty cleared (clear_page_dirty_for_io)
 * and returns with it still locked; it sets PG_writeback
 * (set_page_writeback, counted in NR_WRITEBACK) when its I/O starts, and
 * end_page_writeback clears it when the I/O ends: before writepage
 * returns if it waits (ext2), later from the bio's completion if not
 * (swap_writepage).  end_page_writeback may run in an interrupt handler;
 * it rotates a page reclaim wrote (PG_reclaim) to the tail of its
 * inactive list and wakes wait_on_page_writeback, which sleeps while
 * PG_writeback is set.
 */
void set_page_writeback(struct page *page);
void end_page_writeback(struct page *page);
void wait_on_page_writeback(struct page *page);

/*
 * Write one locked, dirty page through a_ops->writepage and wait for the
 * write to end.  The page is clean after success and dirty again after a
 * failure, so no data is lost silently.  Returns 0 (also when the page
 * was clean), the writepage error, or -EIO when an asynchronous write
 * failed; the page stays locked.
 */
int write_one_page(struct page *page);

/* Write every dirty page of mapping, lowest index first, and wait for
 * the writes: through a_ops->writepages when the mapping has it, else
 * write_one_page each.  0 or the first error (the other pages are still
 * tried; failed pages stay dirty). */
int filemap_write_and_wait(struct address_space *mapping);

/*
 * Drop every page wholly past byte lstart (dirty data there is discarded)
 * and zero the cached part of the page holding lstart beyond it.  First
 * every PTE mapping that range goes, in every process, private copies of
 * its pages included (unmap_mapping_range), so that an access there
 * faults and finds the file's end: SIGBUS.  Pages leave their LRU list
 * and are freed once the last user lets go.  Process context; sleeps.
 */
void truncate_inode_pages(struct address_space *mapping, uint64_t lstart);

/*
 * Drop the clean, unlocked, unmapped pages of mapping with index in
 * [start, end] (dirty, writeback, mapped and locked pages stay; so does
 * every page of a tmpfs mapping).  The count dropped.  Never sleeps.
 */
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end);

/*
 * read() through the cache: copy bytes at pos, stopping at isize, from the
 * cached pages straight into to (copy_page_to_iter), until to is full,
 * reading missing pages with readpage and sequential runs ahead with a
 * growing window (mapping->ra).  Each page read is marked accessed once
 * per read call.  Returns the byte count (0 at or past isize; short when
 * a copy to user memory faulted), or -errno (-EFAULT for a fault) when
 * nothing was copied.
 */
long filemap_read(struct address_space *mapping, uint64_t pos, struct iov_iter *to,
		  uint64_t isize);

/*
 * A page fault's read (Linux's filemap_fault): the page at index of a file
 * of isize bytes, uptodate and referenced for the caller in *pagep, found
 * in the cache or read (with readahead) as filemap_read does, waiting for
 * another task's read of it if need be; marked accessed.  Returns 0, or
 * VM_FAULT_MAJOR when it had to wait for I/O (counted in PGMAJFAULT); or,
 * with nothing in *pagep, VM_FAULT_SIGBUS for an index beyond the file's
 * last page (the one holding byte isize - 1) or a read error, VM_FAULT_OOM
 * when out of memory.  Process context; may sleep.
 */
int filemap_fault(struct address_space *mapping, pgoff_t index, uint64_t isize,
		  struct page **pagep);

/*
 * write() through the cache (Linux's generic_perform_write): copy all of
 * from to pos, reading a page first when only part of it is written and
 * it is not cached (read-modify-write), calling prepare_write, and
 * dirtying each page.  User memory is faulted in before each page is
 * locked and copied with page faults disabled (see mm/filemap.c).  The
 * caller updates the file size, and nothing sleeps between the last
 * page's unlock and the return, so no writeback locks that page before
 * the size covers its new bytes (it would zero them as past the end;
 * Linux moves i_size in write_end, under the page lock).  Returns the byte count, short if an
 * error or a bad source byte stopped it after some progress, or -errno
 * (-EFAULT when the source could not be read at all).
 */
long generic_perform_write(struct address_space *mapping, struct iov_iter *from, uint64_t pos);

#endif
