/*
 * What the page cache knows of the device under a file (Linux's struct
 * backing_dev_info, reduced to the readahead window).  A block device
 * has one (struct block_device); a filesystem points each of its
 * mappings at its device's, so BLKRASET on the device changes the window
 * of every file on it.  A mapping without one (tmpfs) uses
 * VM_MAX_READAHEAD.
 */
#ifndef MM_BACKING_DEV_H
#define MM_BACKING_DEV_H

/* Readahead windows, in pages: the first window of a sequential reader,
 * and the default largest (Linux's VM_READAHEAD_PAGES, 128 KiB of 4 KiB
 * pages, read_ahead_kb=128). */
#define VM_MIN_READAHEAD	4
#define VM_MAX_READAHEAD	32

struct backing_dev_info {
	unsigned long ra_pages;		/* largest readahead window, pages; 0: none */
};

/* Sleep until a request of direction rw (READ, WRITE) completes on any
 * disk, or timeout ticks pass (mm/backing-dev.c).  Process context, no
 * locks held. */
void congestion_wait(int rw, long timeout);
/* A request of direction rw completed: wake congestion_wait's sleepers.
 * Any context. */
void clear_bdi_congested(int rw);

#endif
