/*
 * The page cache's view of a file: struct address_space and its operations
 * (Linux's include/linux/fs.h, v2.6.28 names).  The VFS objects (struct
 * inode, struct file, struct super_block) are in fs/vfs.h; a filesystem
 * embeds an address_space in its own in-core inode (ext2_inode_info, the
 * tmpfs inode) and points host at it.
 *
 * An address_space holds the cached pages of one file, found by their
 * offset in the file in pages (page->index), in page_tree: a radix tree
 * (kernel/lib/radix-tree.c) whose slots hold struct pages.  Its mask is
 * GFP_ATOMIC: add_to_page_cache_lru preloads nodes before it takes
 * tree_lock, so reclaim never runs inside a change to the tree.
 * A hash table would look pages up as fast, but truncation and writeback
 * walk a file's pages in index order, which the tree gives for free.
 *
 * Invariants (mm/filemap.c keeps them):
 *   - page_tree holds page at page->index iff page->mapping == this
 *     mapping; nrpages is the number of pages in the tree.
 *   - Each page in the tree holds one reference for the cache, is on an
 *     LRU list (or isolated by someone holding their own reference), and
 *     has PG_swapbacked iff the mapping is swap-backed.
 *   - A page in the tree without PG_uptodate is locked (being read), or
 *     its read failed: whoever wants its data locks it and reads it again
 *     (mm/filemap.c, find_get_uptodate_page).
 */
#ifndef FS_FS_H
#define FS_FS_H

#include <mm/backing-dev.h>
#include <mm/mm_types.h>
#include <pageturn/list.h>
#include <pageturn/radix-tree.h>
#include <pageturn/spinlock.h>
#include <pageturn/types.h>

/*
 * Sequential readahead state (Linux's struct file_ra_state, which lives in
 * struct file; here one per address_space, shared by all opens of a file).
 *   start, size   the latest window read ahead: pages [start, start + size)
 *   prev_pos      the byte just past the latest read, -1 before any: a
 *                 read starting there, or at its page's successor, is
 *                 sequential; one starting at byte 0 of a fresh file too
 *   nr_readahead  pages read ahead of demand since the mapping was set up
 *                 (Linux has no counter for this: it is the test's)
 */
struct file_ra_state {
	pgoff_t start;
	unsigned int size;
	uint64_t prev_pos;
	unsigned long nr_readahead;
};


struct address_space;

/*
 * What a filesystem does for the page cache.  readpage and writepage are
 * synchronous: they return when the I/O is done, and the page stays
 * locked throughout (the caller unlocks it).  readpages and writepages
 * start I/O on many pages at once and finish each page when its I/O
 * completes, possibly in an interrupt handler, as Linux's do.
 *
 *   readpage       Called with the page locked, in the cache and not
 *                  uptodate.  Fill it from the backing store (holes as
 *                  zeroes) and set PG_uptodate; 0 or -EIO (then the page
 *                  is not uptodate).
 *   readpages      Optional (readahead).  pages is a list, linked by
 *                  page->lru, of nr_pages new pages (not in any cache,
 *                  unlocked, page->index set, one reference each, which
 *                  readpages drops).  Add each to mapping
 *                  (add_to_page_cache_lru: a page whose index is taken
 *                  meanwhile is just dropped) and start its read; when the
 *                  read ends the page is unlocked, with PG_uptodate set
 *                  if it succeeded.  Returns once every read has started.
 *   writepage      Called with the page locked, uptodate and PG_dirty
 *                  just cleared; returns with it still locked.  Write it
 *                  to the backing store, allocating what it needs, with
 *                  PG_writeback set from when the I/O starts
 *                  (set_page_writeback) to when it ends
 *                  (end_page_writeback, mm/pagemap.h): before returning,
 *                  or from the bio's completion for a writepage that does
 *                  not wait (swap's).  0 or -errno (then no writeback is
 *                  left in flight).  Or AOP_WRITEPAGE_ACTIVATE: the page
 *                  cannot be written now and must stay (tmpfs without
 *                  swap); like an error it leaves the page dirty (the
 *                  caller dirties it again), and reclaim puts it back on
 *                  the active list, as Linux does.
 *   writepages     Optional.  Write every dirty page of the mapping and
 *                  wait for the writes (what filemap_write_and_wait does
 *                  with writepage): 0 or the first error, each failed
 *                  page left dirty.
 *   prepare_write  Optional.  Called with the page locked and uptodate or
 *                  about to be overwritten in [from, to), before write()
 *                  copies into that range: reserve the backing store the
 *                  range needs, so that -ENOSPC comes from write() and not
 *                  later from writeback (Linux 2.6.28's prepare_write).
 */
struct address_space_operations {
	int (*readpage)(struct address_space *mapping, struct page *page);
	int (*readpages)(struct address_space *mapping, struct list_head *pages,
			 unsigned int nr_pages);
	int (*writepage)(struct address_space *mapping, struct page *page);
	int (*writepages)(struct address_space *mapping);
	int (*prepare_write)(struct address_space *mapping, struct page *page,
			     unsigned int from, unsigned int to);
	/* Optional (Linux's bmap): the disk block holding file block block,
	 * both in the filesystem's blocks (the inode's i_blksize bytes), or
	 * 0 for a hole or a block past the end.  swapon maps a swap file
	 * with it.  May sleep (it reads indirect blocks). */
	uint64_t (*bmap)(struct address_space *mapping, uint64_t block);
};

/* writepage's "keep this page in memory and active" (Linux's value). */
#define AOP_WRITEPAGE_ACTIVATE	0x80000

/* mapping->flags bits */
enum mapping_flags {
	AS_SWAPBACKED,		/* pages live in RAM or swap (tmpfs): anon LRU */
	AS_UNEVICTABLE,		/* reclaim may not evict its pages (Linux's ramfs, SHM_LOCK) */
};

struct address_space {
	void *host;				/* the in-core inode owning it */
	spinlock_t tree_lock;			/* held while page_tree changes */
	struct radix_tree_root page_tree;	/* index -> struct page */
	unsigned long nrpages;
	const struct address_space_operations *a_ops;
	unsigned long flags;			/* AS_* bits */
	struct file_ra_state ra;		/* until struct file exists */
	struct backing_dev_info *backing_dev_info;	/* NULL: VM_MAX_READAHEAD */
	spinlock_t i_mmap_lock;			/* guards i_mmap */
	struct list_head i_mmap;		/* VMAs mapping it, by vma->shared (mm/rmap.c) */
};

/*
 * Linux asks the backing device (BDI_CAP_SWAP_BACKED); Pageturn has no
 * backing_dev_info yet, so the mapping carries the answer.
 */
static inline bool mapping_cap_swap_backed(const struct address_space *mapping)
{
	return mapping->flags & (1ul << AS_SWAPBACKED);
}

#endif
