/*
 * Swap I/O (Linux's mm/page_io.c, v2.6.28): one page to or from its slot
 * on a swap area, by a bio to the area's block device at the sector
 * map_swap_page gives (the device itself, or the blocks of a swap file).
 *
 * Writing is reclaim's pageout() through write_one_page, as for any
 * page-cache page: the page is locked, PG_dirty cleared and PG_writeback
 * set around swap_writepage, which waits for its bio (Pageturn's
 * writepage is synchronous).  The bio lives on the stack, so swap-out
 * allocates nothing: it runs exactly when memory is short.  A failed
 * write returns -EIO (logged once per area) and marks the slot to retire
 * (swap_slot_write_error); write_one_page dirties the page again and
 * reclaim activates it: the data stays in memory, in the swap cache,
 * where the PTEs' entries find it.
 *
 * Reading is asynchronous, as Linux's: swap_readpage submits the bio and
 * returns; end_swap_bio_read (the disk's interrupt handler, or inside
 * submit_bio for a RAM disk) sets PG_uptodate unless the read failed (a
 * page unlocked without it is a failed read) and unlocks the page, which wakes whoever waits in lock_page.  Until then
 * the page is the bio's: nobody touches it but through the page lock.
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

int swap_writepage(struct address_space *mapping, struct page *page)
{
	struct swap_info_struct *si;
	struct bio_vec vec;
	struct bio bio;
	sector_t sector;
	int err;

	(void)mapping;
	if (!PageLocked(page) || !PageSwapCache(page))
		panic("swap_writepage: pfn %lu is not a locked swap-cache page", page_to_pfn(page));
	si = swap_page_sector(page, &sector);
	trace_swap_writepage(page);
	bio_init(&bio, &vec, 1);
	bio.bi_bdev = si->bdev;
	bio.bi_sector = sector;
	if (bio_add_page(&bio, page, PAGE_SIZE, 0) != PAGE_SIZE)
		panic("swap_writepage: a page does not fit a bio of %s", si->name);
	err = submit_bio_wait(WRITE, &bio);
	if (err) {
		if (swap_slot_write_error((swp_entry_t){ page->private }) == 1)
			printk(KERN_ALERT "Write-error on swap-device (%s:%llu)\n", si->name,
			       (unsigned long long)sector);
		return -EIO;
	}
	count_vm_event(PSWPOUT);
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
