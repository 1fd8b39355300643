/*
 * fake_machine: a host stand-in for the machine below the kernel code a
 * unit test links (tests/unit/fake_machine.c).
 *
 *  - "physical memory": FAKE_MACHINE_PAGES pages at host_phys_base with a
 *    mem_map, all in ZONE_NORMAL, handed out as naturally aligned blocks by
 *    a first-fit alloc_pages(), up to a limit a test can lower to make it
 *    run dry.  __free_pages() checks what Linux's free_pages_check() does
 *    (no PAGE_FLAGS_CHECK_AT_FREE flag, no mapping), fills the pages with
 *    0xaa and poisons them for AddressSanitizer, so touching a page after
 *    giving it back is a test failure.  fake_machine_init() also starts the
 *    real slab allocator (mm/slab.c) on top, so kmalloc works.
 *  - the rest of the kernel the LRU lists and the page cache lean on:
 *    ZONE_NORMAL's LRU lists, put_page() with the kernel's semantics, the
 *    irq-safe zone counter updates, the event counters, and a watermark
 *    check that always passes (wakeup_kswapd's; reclaim never runs).
 *  - block devices backed by host files: I/O is synchronous pread/pwrite
 *    through the submit_bio()/submit_bio_wait()/bio_endio() of blkdev.h,
 *    with the block layer's range and alignment checks.  A device can be
 *    told to fail every I/O after a number of them.
 */
#ifndef TESTS_UNIT_FAKE_MACHINE_H
#define TESTS_UNIT_FAKE_MACHINE_H

#include <drivers/blkdev.h>
#include <mm/gfp.h>

#define FAKE_MACHINE_PAGES 32768		/* 128 MiB: test_ext2 reads an 80 MiB file through the
					 * page cache, and there is no reclaim yet */

/* Fake physical memory, every page free; the slab allocator is not started. */
void fake_memory_init(void);
/* fake_memory_init(), then kmem_cache_init(). */
void fake_machine_init(void);
/* Pages currently allocated. */
unsigned long fake_pages_in_use(void);
/* alloc_pages() fails rather than take fake_pages_in_use() past this;
 * FAKE_MACHINE_PAGES unless a test lowers it (and puts it back). */
extern unsigned long fake_pages_limit;
/* The gfp mask of the latest alloc_pages() call, successful or not. */
extern gfp_t fake_last_gfp;

struct fake_disk {
	struct block_device bdev;
	int fd;
	long fail_after;		/* I/Os left before all fail; -1: never */
};

/* Open path as a device of 512-byte sectors; false if it cannot be opened. */
bool fake_disk_open(struct fake_disk *disk, const char *path, bool read_only);
void fake_disk_close(struct fake_disk *disk);

#endif
