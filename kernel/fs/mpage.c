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
 * Holding pages locked while get_block sleeps on an indirect block is
 * safe: nothing get_block waits for waits for these pages.
 */
#include <asm/page.h>
#include <fs/mpage.h>
#include <mm/pagemap.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
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

/* A new bio for up to nr_vecs pages at block, or NULL without memory. */
static struct bio *mpage_alloc(const struct mpage_geometry *geo, sector_t block,
			       unsigned int nr_vecs, bio_end_io_t *end_io)
{
	struct bio *bio = bio_alloc(GFP_KERNEL, MIN(nr_vecs, (unsigned int)BIO_MAX_PAGES));

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
		*biop = mpage_alloc(geo, blocks[0], nr_left, mpage_end_io_read);
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
	struct bio *bio = NULL;
	sector_t last_block = 0;
	struct page *page;
	unsigned int i;

	for (i = 0; i < nr_pages && !list_empty(pages); i++) {
		page = list_first_entry(pages, struct page, lru);
		list_del(&page->lru);
		if (add_to_page_cache_lru(page, mapping, page->index, GFP_KERNEL) == 0)
			do_mpage_readpage(mapping, geo, page, nr_pages - i, &bio, &last_block);
		page_cache_release(page);
	}
	if (bio)
		mpage_bio_submit(READ, bio);
	return 0;
}
