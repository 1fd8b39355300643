/*
 * Swap I/O (Linux's mm/page_io.c, v2.6.28): one page to or from its slot
 * on a swap area, by a bio to the area's block device at the sector
 * map_swap_page gives (the device itself, or the blocks of a swap file).
 *
 * Writing is asynchronous, as Linux's: reclaim's pageout() calls
 * swap_writepage with the page locked and PG_dirty cleared;
 * swap_writepage sets PG_writeback, submits the bio and returns, and
 * reclaim unlocks the page and leaves it on the inactive list.  The
 * bio's end (end_swap_bio_write, in the disk's interrupt handler) ends
 * the writeback, which moves the page to the tail of its inactive list
 * (rotate_reclaimable_page), and the next scan frees it.  Until then
 * the page stays in the swap cache, where a fault finds it; whoever
 * would take it out (reuse_swap_page, try_to_free_swap, swapoff) waits
 * for the write or leaves it.  When no bio can be allocated the write
 * uses one on the stack and waits, so swap-out never fails for lack of
 * memory: it runs exactly when memory is short.  A failed write keeps the
 * page dirty with PG_error, logs the area's first failure and marks the
 * slot to retire (swap_slot_write_error); reclaim then activates the page
 * instead of writing it again: the data stays in memory, in the swap
 * cache, where the PTEs' entries find it.
 *
 * Reading is asynchronous too: swap_readpage submits the bio and
 * returns; end_swap_bio_read (the disk's interrupt handler, or inside
 * submit_bio for a RAM disk) sets PG_uptodate unless the read failed (a
 * page unlocked without it is a failed read) and unlocks the page, which
 * wakes whoever waits in lock_page.  Until then the page is the bio's:
 * nobody touches it but through the page lock.
 */
#include <drivers/blkdev.h>
#include <mm/pagemap.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <trace/events/pageturn.h>
#include <uapi/errno.h>

/* The area and sector of a page in the swap cache. */
static struct swap_info_struct *swap_page_sector(struct page *page, sector_t *sector)
{
	swp_entry_t entry = { page->private };
	struct swap_info_struct *si = get_swap_info_struct(swp_type(entry));

	if (!si)
		panic("swap I/O: pfn %lu has swap entry %#lx of no area", page_to_pfn(page),
		      entry.val);
	*sector = map_swap_page(si, swp_offset(entry));
	return si;
}

/*
 * The end of a page's write to swap: in the disk's interrupt handler, or
 * in the writer for a device that completes inside submit_bio (brd) and
 * for the synchronous write below.  A failed write leaves the page dirty
 * with PG_error, so reclaim keeps it in memory (pageout activates it),
 * and marks its slot to retire; the area logs its first failure.
 */
static void end_swap_write(struct page *page, int err, struct swap_info_struct *si,
			   sector_t sector)
{
	if (err) {
		SetPageError(page);
		set_page_dirty(page);
		ClearPageReclaim(page);
		if (swap_slot_write_error((swp_entry_t){ page->private }) == 1)
			printk(KERN_ALERT "Write-error on swap-device (%s:%llu)\n", si->name,
			       (unsigned long long)sector);
	}
	end_page_writeback(page);
}

static void end_swap_bio_write(struct bio *bio)
{
	end_swap_write(bio->bi_io_vec[0].bv_page, bio->bi_error, bio->bi_private,
		       bio->bi_sector);
	bio_put(bio);
}

int swap_writepage(struct address_space *mapping, struct page *page)
{
	struct swap_info_struct *si;
	struct bio_vec vec;
	struct bio *bio, stack_bio;
	sector_t sector;
	int err;

	(void)mapping;
	if (!PageLocked(page) || !PageSwapCache(page))
		panic("swap_writepage: pfn %lu is not a locked swap-cache page", page_to_pfn(page));
	si = swap_page_sector(page, &sector);
	trace_swap_writepage(page);
	set_page_writeback(page);
	count_vm_event(PSWPOUT);
	bio = bio_alloc(GFP_NOIO, 1);
	if (!bio) {
		/* No memory even for reclaim: write with a bio on the stack
		 * and wait, rather than fail a write that frees memory. */
		bio_init(&stack_bio, &vec, 1);
		bio = &stack_bio;
	}
	bio->bi_bdev = si->bdev;
	bio->bi_sector = sector;
	if (bio_add_page(bio, page, PAGE_SIZE, 0) != PAGE_SIZE)
		panic("swap_writepage: a page does not fit a bio of %s", si->name);
	if (bio == &stack_bio) {
		end_swap_write(page, submit_bio_wait(WRITE, bio), si, sector);
		return 0;
	}
	bio->bi_end_io = end_swap_bio_write;
	bio->bi_private = si;
	err = submit_bio(WRITE, bio);
	if (err) {
		bio->bi_error = err;
		end_swap_bio_write(bio);
	}
	return 0;
}

static void end_swap_bio_read(struct bio *bio)
{
	struct page *page = bio->bi_io_vec[0].bv_page;

	if (bio->bi_error) {
		ClearPageUptodate(page);
		printk(KERN_ALERT "Read-error on swap-device (%llu)\n",
		       (unsigned long long)bio->bi_sector);
	} else {
		SetPageUptodate(page);
	}
	unlock_page(page);
	bio_put(bio);
}

int swap_readpage(struct page *page)
{
	struct swap_info_struct *si;
	sector_t sector;
	struct bio *bio;
	int err;

	if (!PageLocked(page) || !PageSwapCache(page) || PageUptodate(page))
		panic("swap_readpage: pfn %lu is not a locked swap-cache page to read",
		      page_to_pfn(page));
	si = swap_page_sector(page, &sector);
	bio = bio_alloc(GFP_NOIO, 1);
	if (!bio) {
		unlock_page(page);
		return -ENOMEM;
	}
	bio->bi_bdev = si->bdev;
	bio->bi_sector = sector;
	bio->bi_end_io = end_swap_bio_read;
	if (bio_add_page(bio, page, PAGE_SIZE, 0) != PAGE_SIZE)
		panic("swap_readpage: a page does not fit a bio of %s", si->name);
	count_vm_event(PSWPIN);
	trace_swap_readpage(page);
	err = submit_bio(READ, bio);
	if (err) {
		bio->bi_error = err;
		end_swap_bio_read(bio);
	}
	return err;
}
