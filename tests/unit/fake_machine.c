/* The host stand-in machine of fake_machine.h. */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sanitizer/asan_interface.h>

#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/page_alloc.h>
#include <mm/slab.h>
#include <mm/rmap.h>
#include <mm/vmstat.h>
#include <uapi/errno.h>

#include "fake_machine.h"

uintptr_t host_phys_base;
struct page *mem_map;
unsigned long max_pfn;
struct pglist_data contig_page_data;

static unsigned char *fake_mem;
static unsigned int block_order[FAKE_MACHINE_PAGES];	/* order + 1 at a block's head */
static unsigned long pages_in_use;
unsigned long fake_pages_limit = FAKE_MACHINE_PAGES;
gfp_t fake_last_gfp;

static bool block_is_free(unsigned long pfn, unsigned int order)
{
	unsigned long i;

	for (i = 0; i < 1ul << order; i++)
		if (mem_map[pfn + i]._count)
			return false;
	return true;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	unsigned long pfn, i, n = 1ul << order;

	fake_last_gfp = gfp;
	if (order >= MAX_ORDER || pages_in_use + n > fake_pages_limit)
		return NULL;
	for (pfn = 0; pfn + n <= FAKE_MACHINE_PAGES; pfn += n) {
		if (!block_is_free(pfn, order))
			continue;
		for (i = 0; i < n; i++)
			mem_map[pfn + i]._count = 1;
		block_order[pfn] = order + 1;
		pages_in_use += n;
		ASAN_UNPOISON_MEMORY_REGION(page_address(&mem_map[pfn]), n * PAGE_SIZE);
		memset(page_address(&mem_map[pfn]), gfp & __GFP_ZERO ? 0 : 0xaa, n * PAGE_SIZE);
		return &mem_map[pfn];
	}
	return NULL;
}

void __free_pages(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), i, n = 1ul << order;

	assert_true(pfn < FAKE_MACHINE_PAGES);
	assert_int_equal(block_order[pfn], order + 1);
	for (i = 0; i < n; i++) {
		assert_int_equal(page[i].flags & PAGE_FLAGS_CHECK_AT_FREE, 0);
		/* An anonymous page keeps its anon_vma until freed, as
		 * free_pages_check clears it. */
		if (PageAnon(&page[i]))
			page[i].mapping = NULL;
		assert_null(page[i].mapping);
		page[i]._count = 0;
	}
	block_order[pfn] = 0;
	pages_in_use -= n;
	memset(page_address(page), 0xaa, n * PAGE_SIZE);
	ASAN_POISON_MEMORY_REGION(page_address(page), n * PAGE_SIZE);
}

long vm_stat[NR_VM_ZONE_STAT_ITEMS];

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	zone->vm_stat[item] += delta;
	vm_stat[item] += delta;
}

/* --- what the LRU lists and the page cache need (mm/swap.c, mm/vmscan.c,
 * mm/filemap.c) --------------------------------------------------------- */

struct vm_event_state vm_event_states;

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	__mod_zone_page_state(zone, item, delta);
}

void inc_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, 1);
}

void dec_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, -1);
}

/* The kernel's: free at the last reference, flags left as free_pages_check
 * leaves them (only the zone). */
void put_page(struct page *page)
{
	assert_true(page_count(page) > 0);
	if (--page->_count > 0)
		return;
	page->_count = 1;
	__free_pages(page, 0);
	page->flags &= ZONES_MASK << ZONES_PGSHIFT;
}

/* wakeup_kswapd's check; fake memory has no watermarks. */
bool zone_watermark_ok(struct zone *z, int order, unsigned long mark, int classzone_idx,
		       int alloc_flags)
{
	(void)z, (void)order, (void)mark, (void)classzone_idx, (void)alloc_flags;
	return true;
}

unsigned long fake_pages_in_use(void)
{
	return pages_in_use;
}

void fake_memory_init(void)
{
	unsigned long pfn;
	enum lru_list l;

	fake_mem = aligned_alloc(PAGE_SIZE, FAKE_MACHINE_PAGES * PAGE_SIZE);
	mem_map = calloc(FAKE_MACHINE_PAGES, sizeof(*mem_map));
	assert_non_null(fake_mem);
	assert_non_null(mem_map);
	host_phys_base = (uintptr_t)fake_mem;
	max_pfn = FAKE_MACHINE_PAGES;
	/* Free pages are mapped nowhere: _mapcount -1, as the kernel's. */
	for (pfn = 0; pfn < FAKE_MACHINE_PAGES; pfn++) {
		set_page_zone(&mem_map[pfn], ZONE_NORMAL);
		mem_map[pfn]._mapcount = -1;
	}
	contig_page_data.node_zones[ZONE_NORMAL].zone_pgdat = &contig_page_data;
	for_each_lru(l)
		INIT_LIST_HEAD(&contig_page_data.node_zones[ZONE_NORMAL].lru[l].list);
	ASAN_POISON_MEMORY_REGION(fake_mem, FAKE_MACHINE_PAGES * PAGE_SIZE);
}

void fake_machine_init(void)
{
	fake_memory_init();
	kmem_cache_init();
}

/* --- block devices --------------------------------------------------------- */

static void fake_submit(struct block_device *bdev, struct bio *bio)
{
	struct fake_disk *disk = bdev->private;
	off_t pos = (off_t)bio->bi_sector << SECTOR_SHIFT;
	struct bio_vec *bv;
	unsigned int i;
	ssize_t n;

	if (disk->fail_after == 0) {
		bio_endio(bio, -EIO);
		return;
	}
	if (disk->fail_after > 0)
		disk->fail_after--;
	bio_for_each_segment(bv, bio, i) {
		char *data = (char *)page_address(bv->bv_page) + bv->bv_offset;

		if (bio->bi_rw == WRITE)
			n = pwrite(disk->fd, data, bv->bv_len, pos);
		else
			n = pread(disk->fd, data, bv->bv_len, pos);
		if (n != (ssize_t)bv->bv_len) {
			bio_endio(bio, -EIO);
			return;
		}
		pos += n;
	}
	bio_endio(bio, 0);
}

/* The fake disks are driven by fake_submit() below, bio by bio; their
 * ops are never called. */
static const struct block_device_operations fake_ops;

bool fake_disk_open(struct fake_disk *disk, const char *path, bool read_only)
{
	off_t size;

	memset(disk, 0, sizeof(*disk));
	disk->fd = open(path, read_only ? O_RDONLY : O_RDWR);
	if (disk->fd < 0)
		return false;
	size = lseek(disk->fd, 0, SEEK_END);
	snprintf(disk->bdev.name, sizeof(disk->bdev.name), "fake0");
	disk->bdev.sector_size = SECTOR_SIZE;
	disk->bdev.nr_sectors = size >> SECTOR_SHIFT;
	disk->bdev.read_only = read_only;
	disk->bdev.backing_dev_info.ra_pages = VM_MAX_READAHEAD;	/* as register_blkdev() */
	disk->bdev.ops = &fake_ops;
	disk->bdev.private = disk;
	disk->fail_after = -1;
	return true;
}

void fake_disk_close(struct fake_disk *disk)
{
	close(disk->fd);
}

int submit_bio(int rw, struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	sector_t per = bdev->sector_size >> SECTOR_SHIFT;
	struct bio_vec *bv;
	unsigned int i, total = 0;

	if (!bio->bi_vcnt || bio->bi_vcnt > bio->bi_max_vecs || bio->bi_vcnt > blk_max_segments(bdev) ||
	    bio->bi_sector % per)
		return -EINVAL;
	bio_for_each_segment(bv, bio, i) {
		if (!bv->bv_len || bv->bv_len % bdev->sector_size || bv->bv_offset + bv->bv_len > PAGE_SIZE)
			return -EINVAL;
		total += bv->bv_len;
	}
	if (total != bio->bi_size || bio->bi_size > blk_max_sectors(bdev) << SECTOR_SHIFT)
		return -EINVAL;
	if (bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT) > bdev->nr_sectors)
		return -EIO;
	if (rw == WRITE && bdev->read_only)
		return -EROFS;
	bio->bi_rw = rw;
	bio->bi_done = false;
	bio->bi_error = 0;
	if (rw == WRITE) {
		bdev->writes++;
		bdev->sectors_written += bio->bi_size >> SECTOR_SHIFT;
	} else {
		bdev->reads++;
		bdev->sectors_read += bio->bi_size >> SECTOR_SHIFT;
	}
	fake_submit(bdev, bio);
	return 0;
}

/* The fake disks complete every bio inside submit_bio(): nothing is held,
 * so plugs have nothing to do. */
void blk_start_plug(struct blk_plug *plug)
{
	INIT_LIST_HEAD(&plug->list);
}

void blk_finish_plug(struct blk_plug *plug)
{
	(void)plug;
}

void blk_flush_plug(struct blk_plug *plug)
{
	(void)plug;
}

/* The fake devices complete in submit, so there is nothing to wait for. */
int submit_bio_wait(int rw, struct bio *bio)
{
	int err = submit_bio(rw, bio);

	if (err)
		return err;
	assert_true(bio->bi_done);
	return bio->bi_error;
}

void bio_endio(struct bio *bio, int error)
{
	bio->bi_error = error;
	bio->bi_done = true;
	if (error)
		bio->bi_bdev->errors++;
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}
