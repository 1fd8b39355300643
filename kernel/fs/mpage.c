/*
 * Multi-page bios (Linux's fs/mpage.c, v2.6.28's do_mpage_readpage and
 * __mpage_writepage, simplified).
 *
 * Reading.  mpage_readpages() walks a readahead batch of new pages in
 * index order.  Each page is added to the page cache (locked) and its
 * blocks are mapped with get_block.  A page is "simple" when its mapped
 * blocks are contiguous on the disk and come first, any holes after them
 * (at the end of the file, or a sparse tail): then the holes are zeroed
 * and the mapped part joins the current bio if it continues it on the
 * disk (its first block follows the bio's last), else a new bio starts.
 * A page that is all holes is zeroed and finished at once.  A page with
 * holes ends its bio (the next page cannot continue it), and so does a
 * bio that bio_add_page() finds full (the device's limits).  Any other
 * page ("confused": a hole before a mapped block, blocks out of order, a
 * get_block error, no memory for a bio) is read alone with a_ops->readpage,
 * after the bio so far has been submitted.
 *
 * Each bio is submitted as soon as it is complete, so the disk works on
 * the first while the next is built.  Its completion (mpage_end_io_read,
 * in the disk's interrupt handler or, for a RAM disk, inside submit_bio)
 * sets PG_uptodate on every page of the bio unless the I/O failed, and
 * unlocks it, which wakes the readers waiting for it (unlock_page's
 * wake_up is interrupt-safe; the flags are atomic, mm/page-flags.h).  A
 * page is never touched by us again once it is in a submitted bio: the
 * completion owns it until it unlocks it.
 *
 * Writing.  mpage_writepages() walks the mapping's pages in index order
 * and takes each dirty one through the states of mm/filemap.c's essay:
 * locked, PG_dirty cleared (clear_page_dirty_for_io).  The end of the
 * file is read then, for each page (the walk sleeps, and a write may grow the file meanwhile:
 * an end read once at the start would clean the pages written past it
 * without writing them, and zero the new bytes of the page it was in).
 * Its blocks below the end of the file are mapped as for a read; when
 * they are all mapped and contiguous the page joins the current bio on
 * the same rules, under writeback from then on (set_page_writeback; the
 * part past the end of the file is zeroed and not written; such a page
 * ends its bio).  Any other
 * page (a hole under data needs a block; blocks out of order) is written
 * alone by a_ops->writepage and finished at once.  The write's completion
 * (mpage_end_io_write, possibly in the interrupt handler) finishes each
 * page of the bio: dirty again if the write failed (no data is dropped;
 * the next writeback tries again), PG_writeback cleared, unlocked, so a
 * page is locked for the whole time its write is in flight and truncation
 * (which locks it) waits for the write.  Completions count down the
 * batch's pending bios and record its first error; mpage_writepages
 * waits for the count to reach zero before it returns.  The batch lives
 * on the caller's stack: on one CPU the interrupt handler that takes the
 * count to zero finishes (wake_up included) before the waiter can run
 * again and return.
 *
 * Both walks run under a plug (blk_start_plug), so their bios are held
 * until the walk ends or the task sleeps (get_block reading an indirect
 * block, lock_page), and bios that continue each other on the disk (a
 * bio ended by the device's limits, by a page past a hole) go to the
 * driver as one request where the limits allow.
 *
 * Holding pages locked while get_block sleeps on an indirect block is
 * safe: nothing get_block waits for waits for these pages (and the plug
 * is flushed before any sleep, so none of our bios is held meanwhile).
 */
#include <asm/page.h>
#include <fs/mpage.h>
#include <mm/pagemap.h>
#include <mm/vmstat.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define MAX_BLOCKS_PER_PAGE (PAGE_SIZE / SECTOR_SIZE)

/* Completion of a read bio: may run in an interrupt handler. */
static void mpage_end_io_read(struct bio *bio)
{
	struct bio_vec *bv;
	unsigned int i;

	bio_for_each_segment(bv, bio, i) {
		if (!bio->bi_error)
			SetPageUptodate(bv->bv_page);
		unlock_page(bv->bv_page);
	}
	bio_put(bio);
}

/* Submit bio; a bio the block layer refuses is completed with its error,
 * so its pages are finished either way.  Returns NULL (no current bio). */
static struct bio *mpage_bio_submit(int rw, struct bio *bio)
{
	int err = submit_bio(rw, bio);

	if (err) {
		pr_err("mpage: %s: %s of %u bytes at sector %lu refused (%d)\n",
		       bio->bi_bdev->name, rw == WRITE ? "write" : "read", bio->bi_size,
		       (unsigned long)bio->bi_sector, err);
		bio->bi_error = err;
		bio->bi_end_io(bio);
	}
	return NULL;
}

/*
 * A new bio for up to nr_vecs pages at block, or NULL without memory.
 * As in Linux 2.6.28, a read's bio is GFP_KERNEL and a write's GFP_NOFS:
 * a writer holds locked pages under writeback, and reclaim must not
 * prune inodes from inside it (see shrink_icache_memory).
 */
static struct bio *mpage_alloc(const struct mpage_geometry *geo, sector_t block,
			       unsigned int nr_vecs, bio_end_io_t *end_io, gfp_t gfp)
{
	struct bio *bio = bio_alloc(gfp, MIN(nr_vecs, (unsigned int)BIO_MAX_PAGES));

	if (!bio)
		return NULL;
	bio->bi_bdev = geo->bdev;
	bio->bi_sector = block << (geo->blkbits - SECTOR_SHIFT);
	bio->bi_end_io = end_io;
	return bio;
}

/*
 * Map page (locked, in the cache, not uptodate) and put it in *biop, or
 * finish it here (see the top).  *last_block is the disk block the
 * current bio ends with; nr_left bounds the size of a new bio.
 */
static void do_mpage_readpage(struct address_space *mapping, const struct mpage_geometry *geo,
			      struct page *page, unsigned int nr_left, struct bio **biop,
			      sector_t *last_block)
{
	unsigned int blocks_per_page = PAGE_SIZE >> geo->blkbits, first_hole = blocks_per_page, i;
	sector_t iblock = (sector_t)page->index << (PAGE_SHIFT - geo->blkbits);
	sector_t blocks[MAX_BLOCKS_PER_PAGE];
	unsigned int length;

	for (i = 0; i < blocks_per_page; i++) {
		if (geo->get_block(mapping, iblock + i, false, &blocks[i]))
			goto confused;
		if (!blocks[i]) {
			if (first_hole == blocks_per_page)
				first_hole = i;
			continue;
		}
		if (first_hole != blocks_per_page)
			goto confused;		/* a mapped block after a hole */
		if (i && blocks[i] != blocks[i - 1] + 1)
			goto confused;		/* not contiguous on the disk */
	}
	if (first_hole == 0) {
		memset(page_address(page), 0, PAGE_SIZE);
		SetPageUptodate(page);
		unlock_page(page);
		return;
	}
	if (first_hole != blocks_per_page)
		memset((char *)page_address(page) + (first_hole << geo->blkbits), 0,
		       PAGE_SIZE - (first_hole << geo->blkbits));

	if (*biop && *last_block + 1 != blocks[0])
		*biop = mpage_bio_submit(READ, *biop);
	length = first_hole << geo->blkbits;
	if (*biop && bio_add_page(*biop, page, length, 0) != length)
		*biop = mpage_bio_submit(READ, *biop);
	if (!*biop) {
		*biop = mpage_alloc(geo, blocks[0], nr_left, mpage_end_io_read, GFP_KERNEL);
		if (!*biop)
			goto confused;
		if (bio_add_page(*biop, page, length, 0) != length) {
			bio_put(*biop);
			*biop = NULL;
			goto confused;
		}
	}
	*last_block = blocks[first_hole - 1];
	if (first_hole != blocks_per_page)
		*biop = mpage_bio_submit(READ, *biop);
	return;

confused:
	if (*biop)
		*biop = mpage_bio_submit(READ, *biop);
	if (mapping->a_ops->readpage(mapping, page) != 0)
		ClearPageUptodate(page);
	unlock_page(page);
}

int mpage_readpages(struct address_space *mapping, struct list_head *pages,
		    unsigned int nr_pages, const struct mpage_geometry *geo)
{
	struct blk_plug plug;
	struct bio *bio = NULL;
	sector_t last_block = 0;
	struct page *page;
	unsigned int i;

	blk_start_plug(&plug);
	for (i = 0; i < nr_pages && !list_empty(pages); i++) {
		page = list_first_entry(pages, struct page, lru);
		list_del(&page->lru);
		if (add_to_page_cache_lru(page, mapping, page->index, GFP_KERNEL) == 0)
			do_mpage_readpage(mapping, geo, page, nr_pages - i, &bio, &last_block);
		page_cache_release(page);
	}
	if (bio)
		mpage_bio_submit(READ, bio);
	blk_finish_plug(&plug);
	return 0;
}

/* ---- writing ---------------------------------------------------------- */

/* The bios of one mpage_writepages call still in flight. */
struct mpage_wb {
	int pending;			/* changed atomically: completions are interrupts */
	int error;			/* the first failure, 0 if none */
	wait_queue_head_t wait;
};

/* Finish the writeback of page (locked, PG_writeback): err 0 or the
 * write's error, after which the page is dirty again.  May run in an
 * interrupt handler. */
static void mpage_end_page_writeback(struct page *page, int err)
{
	if (err)
		set_page_dirty(page);
	end_page_writeback(page);
	unlock_page(page);
}

static void mpage_wb_error(struct mpage_wb *wb, int err)
{
	int none = 0;

	if (err)
		__atomic_compare_exchange_n(&wb->error, &none, err, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
}

/* Completion of a write bio: may run in an interrupt handler. */
static void mpage_end_io_write(struct bio *bio)
{
	struct mpage_wb *wb = bio->bi_private;
	struct bio_vec *bv;
	unsigned int i;

	bio_for_each_segment(bv, bio, i)
		mpage_end_page_writeback(bv->bv_page, bio->bi_error);
	mpage_wb_error(wb, bio->bi_error);
	bio_put(bio);
	__atomic_fetch_sub(&wb->pending, 1, __ATOMIC_SEQ_CST);
	wake_up(&wb->wait);
}

static struct bio *mpage_wb_submit(struct mpage_wb *wb, struct bio *bio)
{
	__atomic_fetch_add(&wb->pending, 1, __ATOMIC_SEQ_CST);
	return mpage_bio_submit(WRITE, bio);
}

/*
 * Write page (locked, PG_dirty cleared, some of it below isize) through
 * *biop, under writeback from when it joins the bio, or alone with
 * writepage (see the top).
 */
static void mpage_writepage(struct address_space *mapping, const struct mpage_geometry *geo,
			    struct mpage_wb *wb, struct page *page, uint64_t isize,
			    unsigned int nr_left, struct bio **biop, sector_t *last_block)
{
	unsigned int blocks_per_page = PAGE_SIZE >> geo->blkbits, nr_blocks, i, length;
	uint64_t pos = (uint64_t)page->index << PAGE_SHIFT;
	sector_t iblock = pos >> geo->blkbits;
	sector_t blocks[MAX_BLOCKS_PER_PAGE];
	int err;

	/* Blocks holding bytes below isize; the rest of the page is zeroed. */
	nr_blocks = MIN((uint64_t)blocks_per_page,
			(isize - pos + (1u << geo->blkbits) - 1) >> geo->blkbits);
	for (i = 0; i < nr_blocks; i++) {
		if (geo->get_block(mapping, iblock + i, false, &blocks[i]) || !blocks[i])
			goto confused;
		if (i && blocks[i] != blocks[i - 1] + 1)
			goto confused;
	}
	if (isize < pos + PAGE_SIZE)
		memset((char *)page_address(page) + (isize - pos), 0, pos + PAGE_SIZE - isize);

	if (*biop && *last_block + 1 != blocks[0])
		*biop = mpage_wb_submit(wb, *biop);
	length = nr_blocks << geo->blkbits;
	if (*biop && bio_add_page(*biop, page, length, 0) != length)
		*biop = mpage_wb_submit(wb, *biop);
	if (!*biop) {
		*biop = mpage_alloc(geo, blocks[0], nr_left, mpage_end_io_write, GFP_NOFS);
		if (!*biop)
			goto confused;
		(*biop)->bi_private = wb;
		if (bio_add_page(*biop, page, length, 0) != length) {
			bio_put(*biop);
			*biop = NULL;
			goto confused;
		}
	}
	set_page_writeback(page);
	*last_block = blocks[nr_blocks - 1];
	if (nr_blocks != blocks_per_page)
		*biop = mpage_wb_submit(wb, *biop);
	return;

confused:
	if (*biop)
		*biop = mpage_wb_submit(wb, *biop);
	err = mapping->a_ops->writepage(mapping, page);
	mpage_wb_error(wb, err);
	if (err)
		set_page_dirty(page);
	unlock_page(page);
}

#define WB_BATCH 16	/* pages looked up at a time */

int mpage_writepages(struct address_space *mapping, const struct mpage_geometry *geo)
{
	struct mpage_wb wb = { .wait = __WAIT_QUEUE_HEAD_INITIALIZER(wb.wait) };
	struct page *pages[WB_BATCH], *page;
	struct blk_plug plug;
	DEFINE_WAIT(wait);
	sector_t last_block = 0;
	struct bio *bio = NULL;
	pgoff_t index = 0;
	unsigned int i, n;
	uint64_t isize;

	blk_start_plug(&plug);
	while ((n = find_get_pages(mapping, index, WB_BATCH, pages)) > 0) {
		index = pages[n - 1]->index + 1;
		for (i = 0; i < n; i++) {
			page = pages[i];
			/* Someone else holds this page: start the bio built so
			 * far before sleeping, so nobody waits on our pages
			 * while we wait on theirs. */
			if (bio && PageLocked(page))
				bio = mpage_wb_submit(&wb, bio);
			lock_page(page);
			if (page->mapping != mapping || !clear_page_dirty_for_io(page)) {
				unlock_page(page);
			} else {
				/* Now, not before the walk: it sleeps, and a write
				 * may have grown the file meanwhile. */
				isize = geo->isize(mapping);
				if ((uint64_t)page->index << PAGE_SHIFT >= isize)
					unlock_page(page);	/* wholly past the end: clean */
				else
					mpage_writepage(mapping, geo, &wb, page, isize, n - i,
							&bio, &last_block);
			}
			page_cache_release(page);
		}
		if (index == 0)		/* wrapped past the last index */
			break;
	}
	if (bio)
		mpage_wb_submit(&wb, bio);
	blk_finish_plug(&plug);
	/* On the queue before the test, so a completion in between still
	 * wakes us (as __lock_page). */
	for (;;) {
		prepare_to_wait(&wb.wait, &wait, TASK_UNINTERRUPTIBLE);
		if (__atomic_load_n(&wb.pending, __ATOMIC_SEQ_CST) == 0)
			break;
		schedule();
	}
	finish_wait(&wb.wait, &wait);
	return wb.error;
}
