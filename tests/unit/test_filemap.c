/*
 * Host unit tests for the page cache (mm/filemap.c) with the real LRU code
 * (mm/swap.c, mm/vmscan.c) and slab (mm/slab.c) on the fake machine of
 * fake_machine.c.
 *
 * The file under test is a fake address_space: readpage copies from a host
 * buffer (zeroes past its end) and counts its calls, writepage copies back
 * and checks that the page is under writeback, and either can be told to
 * fail.  Counters are read per zone: every fake page is in ZONE_NORMAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <mm/mm.h>
#include <mm/mm_inline.h>
#include <mm/pagemap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <uapi/errno.h>

#include "fake_machine.h"
#include "kernel_stubs.h"

#define ZONE (&contig_page_data.node_zones[ZONE_NORMAL])

static unsigned long zstat(enum zone_stat_item item)
{
	return zone_page_state(ZONE, item);
}

/* ---- the fake file ------------------------------------------------------ */

#define FILE_PAGES 128
static unsigned char backing[FILE_PAGES * PAGE_SIZE];
static unsigned int nr_readpage, nr_writepage;
static bool fail_read, fail_write;

static int fake_readpage(struct address_space *mapping, struct page *page)
{
	uint64_t pos = (uint64_t)page->index << PAGE_SHIFT;

	(void)mapping;
	assert_true(PageLocked(page));
	assert_false(PageUptodate(page));
	nr_readpage++;
	if (fail_read)
		return -EIO;
	memset(page_address(page), 0, PAGE_SIZE);
	if (pos < sizeof(backing))
		memcpy(page_address(page), backing + pos, PAGE_SIZE);
	SetPageUptodate(page);
	return 0;
}

static int fake_writepage(struct address_space *mapping, struct page *page)
{
	(void)mapping;
	assert_true(PageLocked(page));
	assert_false(PageWriteback(page));
	assert_false(PageDirty(page));
	set_page_writeback(page);
	assert_int_equal(zstat(NR_WRITEBACK), 1);
	nr_writepage++;
	if (!fail_write)
		memcpy(backing + ((uint64_t)page->index << PAGE_SHIFT), page_address(page),
		       PAGE_SIZE);
	end_page_writeback(page);
	return fail_write ? -EIO : 0;
}

static const struct address_space_operations fake_aops = {
	.readpage = fake_readpage,
	.writepage = fake_writepage,
};

static struct address_space mapping;

/* filemap_read and generic_perform_write with a kernel buffer. */
static long read_buf(struct address_space *m, uint64_t pos, void *buf, size_t len, uint64_t isize)
{
	struct kvec kv = { buf, len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, READ, &kv, 1, len);
	return filemap_read(m, pos, &iter, isize);
}

static long write_buf(struct address_space *m, uint64_t pos, const void *buf, size_t len)
{
	struct kvec kv = { (void *)buf, len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, WRITE, &kv, 1, len);
	return generic_perform_write(m, &iter, pos);
}

static unsigned char pattern(uint64_t i)
{
	return (unsigned char)((i * 2654435761u) >> 11);
}

static int machine(void **state)
{
	(void)state;
	fake_machine_init();
	return 0;
}

static int setup(void **state)
{
	uint64_t i;

	(void)state;
	for (i = 0; i < sizeof(backing); i++)
		backing[i] = pattern(i);
	nr_readpage = nr_writepage = 0;
	fail_read = fail_write = false;
	address_space_init(&mapping, NULL, &fake_aops, false);
	return 0;
}

/* Every test ends with the cache empty and every counter back at zero. */
static int teardown(void **state)
{
	(void)state;
	truncate_inode_pages(&mapping, 0);
	assert_int_equal(mapping.nrpages, 0);
	assert_null(mapping.page_tree.rnode);
	assert_int_equal(zstat(NR_FILE_PAGES), 0);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	assert_int_equal(zstat(NR_WRITEBACK), 0);
	assert_int_equal(zstat(NR_INACTIVE_FILE) + zstat(NR_ACTIVE_FILE), 0);
	assert_int_equal(zstat(NR_INACTIVE_ANON) + zstat(NR_ACTIVE_ANON), 0);
	return 0;
}

/* Empty the radix tree's preload pool, which keeps its nodes between
 * inserts, and give the kmalloc caches' empty slabs back: counting pages
 * in use then sees no tree node. */
static void settle_slab(void)
{
	struct cache_sizes *cs;

	radix_tree_preload_drain();
	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
}

static struct page *add(struct address_space *m, pgoff_t index)
{
	struct page *page = alloc_page(GFP_KERNEL);

	assert_non_null(page);
	assert_int_equal(add_to_page_cache_lru(page, m, index, GFP_KERNEL), 0);
	assert_true(PageLocked(page));
	SetPageUptodate(page);
	unlock_page(page);
	page_cache_release(page);
	return page;
}

static void test_find_add_remove(void **state)
{
	pgoff_t far = 5ul << 20;
	struct page *page, *other;
	unsigned long in_use;

	(void)state;
	/* Warm the slab cache the tree's nodes come from. */
	add(&mapping, far);
	truncate_inode_pages(&mapping, 0);
	settle_slab();
	in_use = fake_pages_in_use();
	page = add(&mapping, 5);
	assert_ptr_equal(page->mapping, &mapping);
	assert_int_equal(page->index, 5);
	assert_int_equal(page_count(page), 2);		/* the cache and the LRU list */
	assert_ptr_equal(find_get_page(&mapping, 5), page);
	page_cache_release(page);
	assert_null(find_get_page(&mapping, 4));
	assert_null(find_get_page(&mapping, 5 + RADIX_TREE_MAP_SIZE));

	other = alloc_page(GFP_KERNEL);
	assert_int_equal(add_to_page_cache_lru(other, &mapping, 5, GFP_KERNEL), -EEXIST);
	assert_false(PageLocked(other));
	/* An index four levels up grows the tree; both stay found. */
	assert_int_equal(add_to_page_cache_lru(other, &mapping, far, GFP_KERNEL), 0);
	unlock_page(other);
	assert_int_equal(mapping.page_tree.height, 4);
	assert_int_equal(mapping.nrpages, 2);
	assert_int_equal(zstat(NR_FILE_PAGES), 2);
	assert_ptr_equal(find_get_page(&mapping, far), other);
	page_cache_release(other);

	/* Removing leaves the page on its list, for its holder to take off. */
	page = find_lock_page(&mapping, 5);
	remove_from_page_cache(page);
	unlock_page(page);
	assert_null(page->mapping);
	assert_null(find_get_page(&mapping, 5));
	assert_int_equal(mapping.nrpages, 1);
	assert_int_equal(zstat(NR_FILE_PAGES), 1);
	assert_int_equal(isolate_lru_page(page), 0);
	page_cache_release(page);	/* the list's */
	page_cache_release(page);	/* the cache's, now the remover's */
	page_cache_release(page);	/* find_lock_page's */
	lock_page(other);
	expect_panic(lock_page(other), "already locked");
	unlock_page(other);
	page_cache_release(other);	/* alloc_page's */
	truncate_inode_pages(&mapping, 0);
	settle_slab();
	assert_int_equal(fake_pages_in_use(), in_use);
}

static void test_swapbacked_mapping(void **state)
{
	struct address_space shm;
	struct page *file, *anon;

	(void)state;
	address_space_init(&shm, NULL, &fake_aops, true);
	file = add(&mapping, 0);
	anon = add(&shm, 0);
	assert_false(PageSwapBacked(file));
	assert_true(PageSwapBacked(anon));
	assert_int_equal(page_lru(file), LRU_INACTIVE_FILE);
	assert_int_equal(page_lru(anon), LRU_ACTIVE_ANON);	/* 2.6.28: shmem starts active */
	assert_int_equal(zstat(NR_INACTIVE_FILE), 1);
	assert_int_equal(zstat(NR_ACTIVE_ANON), 1);
	assert_int_equal(zstat(NR_FILE_PAGES), 2);
	/* Swap-backed pages are not counted dirty: reclaim writes them. */
	assert_true(set_page_dirty(anon));
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	truncate_inode_pages(&shm, 0);
	assert_int_equal(shm.nrpages, 0);
}

static void test_read_twice_activates(void **state)
{
	static unsigned char buf[10 * PAGE_SIZE];
	struct page *page;

	(void)state;
	assert_int_equal(read_buf(&mapping, 0, buf, sizeof(buf), sizeof(buf)), sizeof(buf));
	assert_memory_equal(buf, backing, sizeof(buf));
	assert_int_equal(zstat(NR_INACTIVE_FILE), 10);
	assert_int_equal(zstat(NR_ACTIVE_FILE), 0);
	page = find_get_page(&mapping, 3);
	assert_true(PageReferenced(page));
	page_cache_release(page);
	assert_int_equal(read_buf(&mapping, 0, buf, sizeof(buf), sizeof(buf)), sizeof(buf));
	assert_int_equal(zstat(NR_INACTIVE_FILE), 0);
	assert_int_equal(zstat(NR_ACTIVE_FILE), 10);
	assert_int_equal(nr_readpage, 10);
	/* Past the end: nothing; up to it: a short count. */
	assert_int_equal(read_buf(&mapping, sizeof(buf), buf, 1, sizeof(buf)), 0);
	assert_int_equal(read_buf(&mapping, 100, buf, PAGE_SIZE, 300), 200);
}

/* A file read in small pieces is one access per page, not one per piece. */
static void test_small_reads_mark_once(void **state)
{
	unsigned char buf[100];
	unsigned int i;
	struct page *page;

	(void)state;
	for (i = 0; i < PAGE_SIZE / 100; i++)
		assert_int_equal(read_buf(&mapping, i * 100, buf, 100, 2 * PAGE_SIZE), 100);
	page = find_get_page(&mapping, 0);
	assert_true(PageReferenced(page));
	assert_false(PageActive(page));
	/* Starting over at byte 0 is a new access: the page is promoted. */
	assert_int_equal(read_buf(&mapping, 0, buf, 100, 2 * PAGE_SIZE), 100);
	assert_true(PageActive(page));
	page_cache_release(page);
}

static void test_dirty_writeback_clean(void **state)
{
	unsigned char buf[2 * PAGE_SIZE];
	struct page *page;

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(write_buf(&mapping, 0, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(nr_readpage, 0);		/* whole pages: nothing to read */
	assert_int_equal(zstat(NR_FILE_DIRTY), 2);
	assert_int_equal(zstat(NR_WRITEBACK), 0);
	/* Writing a dirty page again does not count it twice. */
	assert_int_equal(write_buf(&mapping, 10, buf, 10), 10);
	assert_int_equal(zstat(NR_FILE_DIRTY), 2);
	assert_int_equal(filemap_write_and_wait(&mapping), 0);
	assert_int_equal(nr_writepage, 2);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	assert_int_equal(zstat(NR_WRITEBACK), 0);
	assert_memory_equal(backing, buf, sizeof(buf));
	assert_int_equal(filemap_write_and_wait(&mapping), 0);
	assert_int_equal(nr_writepage, 2);		/* clean pages are not written */

	/* A failed write leaves the page dirty; write_one_page too. */
	assert_int_equal(write_buf(&mapping, 0, "x", 1), 1);
	fail_write = true;
	assert_int_equal(filemap_write_and_wait(&mapping), -EIO);
	assert_int_equal(zstat(NR_FILE_DIRTY), 1);
	page = find_lock_page(&mapping, 0);
	assert_true(PageDirty(page));
	assert_int_equal(write_one_page(page), -EIO);
	assert_true(PageDirty(page));
	fail_write = false;
	assert_int_equal(write_one_page(page), 0);
	assert_false(PageDirty(page) || PageWriteback(page));
	assert_int_equal(backing[0], 'x');
	unlock_page(page);
	page_cache_release(page);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
}

static void test_partial_page_writes(void **state)
{
	unsigned char buf[3 * PAGE_SIZE];

	(void)state;
	/* 10 bytes in the middle of page 1, then a run across pages 2 and 3. */
	assert_int_equal(write_buf(&mapping, PAGE_SIZE + 100, "0123456789", 10), 10);
	assert_int_equal(nr_readpage, 1);
	memset(buf, 0xee, PAGE_SIZE);
	assert_int_equal(write_buf(&mapping, 3 * PAGE_SIZE - 50, buf, 100), 100);
	assert_int_equal(nr_readpage, 3);
	assert_int_equal(read_buf(&mapping, PAGE_SIZE, buf, sizeof(buf), 10 * PAGE_SIZE),
			 sizeof(buf));
	assert_memory_equal(buf, backing + PAGE_SIZE, 100);
	assert_memory_equal(buf + 100, "0123456789", 10);
	assert_memory_equal(buf + 110, backing + PAGE_SIZE + 110, 2 * PAGE_SIZE - 160);
	assert_int_equal(buf[2 * PAGE_SIZE - 50], 0xee);
	assert_int_equal(buf[2 * PAGE_SIZE + 49], 0xee);
	assert_memory_equal(buf + 2 * PAGE_SIZE + 50, backing + 3 * PAGE_SIZE + 50, PAGE_SIZE - 50);
	assert_int_equal(zstat(NR_FILE_DIRTY), 3);
	/* A read error during read-modify-write: nothing written, nothing cached. */
	fail_read = true;
	assert_int_equal(write_buf(&mapping, 7 * PAGE_SIZE + 1, "x", 1), -EIO);
	assert_null(find_get_page(&mapping, 7));
	fail_read = false;
	assert_int_equal(filemap_write_and_wait(&mapping), 0);
}

static void test_truncate(void **state)
{
	unsigned char buf[5 * PAGE_SIZE];
	struct page *page;

	(void)state;
	assert_int_equal(read_buf(&mapping, 0, buf, sizeof(buf), sizeof(buf)), sizeof(buf));
	assert_int_equal(write_buf(&mapping, 3 * PAGE_SIZE, buf, 10), 10);
	assert_int_equal(write_buf(&mapping, 2 * PAGE_SIZE, buf, 10), 10);
	assert_int_equal(zstat(NR_FILE_DIRTY), 2);
	truncate_inode_pages(&mapping, 2 * PAGE_SIZE + 1000);
	assert_int_equal(mapping.nrpages, 3);
	assert_int_equal(zstat(NR_FILE_PAGES), 3);
	assert_int_equal(zstat(NR_FILE_DIRTY), 1);		/* page 3's data is gone */
	assert_int_equal(zstat(NR_INACTIVE_FILE) + zstat(NR_ACTIVE_FILE), 3);
	assert_null(find_get_page(&mapping, 3));
	page = find_get_page(&mapping, 2);
	assert_memory_equal(page_address(page), buf, 10);
	assert_int_equal(((unsigned char *)page_address(page))[999], backing[2 * PAGE_SIZE + 999]);
	assert_int_equal(((unsigned char *)page_address(page))[1000], 0);
	assert_int_equal(((unsigned char *)page_address(page))[PAGE_SIZE - 1], 0);
	page_cache_release(page);
	truncate_inode_pages(&mapping, 0);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	assert_int_equal(nr_writepage, 0);
}

static void test_sequential_readahead(void **state)
{
	unsigned char buf[PAGE_SIZE];
	uint64_t size = 100 * PAGE_SIZE, pos;
	unsigned int misses = 0, before;

	(void)state;
	for (pos = 0; pos < size; pos += PAGE_SIZE) {
		before = nr_readpage;
		assert_int_equal(read_buf(&mapping, pos, buf, PAGE_SIZE, size), PAGE_SIZE);
		assert_memory_equal(buf, backing + pos, PAGE_SIZE);
		if (nr_readpage != before) {
			/* Windows of 4, 8, 16, 32, 32, then the 8 pages left,
			 * each started on reaching the first page read ahead
			 * of the one before (PG_readahead). */
			static const unsigned int window[] = { 4, 8, 16, 32, 32, 8 };

			assert_true(misses < ARRAY_SIZE(window));
			assert_int_equal(nr_readpage - before, window[misses]);
			misses++;
		}
	}
	assert_int_equal(misses, 6);
	assert_int_equal(nr_readpage, 100);
	/* One demand read: every later window started from a marked page. */
	assert_int_equal(mapping.ra.nr_readahead, 99);
	assert_int_equal(mapping.ra.size, VM_MAX_READAHEAD);
}

static void test_random_reads_no_readahead(void **state)
{
	static const pgoff_t order[] = { 50, 10, 70, 30, 90, 11 + 1, 60 };
	unsigned char buf[64];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(order); i++)
		assert_int_equal(read_buf(&mapping, order[i] * PAGE_SIZE + 8, buf, sizeof(buf),
					      FILE_PAGES * PAGE_SIZE), sizeof(buf));
	assert_int_equal(nr_readpage, ARRAY_SIZE(order));
	assert_int_equal(mapping.ra.nr_readahead, 0);
	assert_int_equal(mapping.nrpages, ARRAY_SIZE(order));
	/* The page after the last one read is sequential again. */
	assert_int_equal(read_buf(&mapping, 61 * PAGE_SIZE, buf, sizeof(buf),
				      FILE_PAGES * PAGE_SIZE), sizeof(buf));
	assert_int_equal(mapping.ra.nr_readahead, VM_MIN_READAHEAD - 1);
}

static void test_read_error(void **state)
{
	unsigned char buf[64];

	(void)state;
	fail_read = true;
	assert_int_equal(read_buf(&mapping, 5 * PAGE_SIZE, buf, sizeof(buf), 1 << 20), -EIO);
	assert_null(find_get_page(&mapping, 5));
	assert_int_equal(mapping.nrpages, 0);
	assert_int_equal(zstat(NR_FILE_PAGES), 0);
	/* A failure reading ahead only shortens the window. */
	fail_read = false;
	assert_int_equal(read_buf(&mapping, 0, buf, sizeof(buf), 1 << 20), sizeof(buf));
	assert_int_equal(mapping.nrpages, VM_MIN_READAHEAD);
	/* Copied bytes are returned even when a later page fails. */
	fail_read = true;
	assert_int_equal(read_buf(&mapping, 4 * PAGE_SIZE - 10, buf, sizeof(buf), 1 << 20), 10);
	assert_int_equal(mapping.nrpages, VM_MIN_READAHEAD);
	fail_read = false;
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_find_add_remove),
		T(test_swapbacked_mapping),
		T(test_read_twice_activates),
		T(test_small_reads_mark_once),
		T(test_dirty_writeback_clean),
		T(test_partial_page_writes),
		T(test_truncate),
		T(test_sequential_readahead),
		T(test_random_reads_no_readahead),
		T(test_read_error),
	};

	return cmocka_run_group_tests(tests, machine, NULL);
}
