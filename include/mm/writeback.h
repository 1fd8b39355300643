/*
 * Periodic writeback of dirty page-cache pages (Linux's
 * mm/page-writeback.c and the flusher threads).
 *
 * Every dirty_writeback_centisecs (5 s, Linux's default), if any page is
 * dirty, the flusher thread writes back every mounted filesystem.  Explicit
 * sync and reclaim's pageout() (mm/vmscan.c) are the other two ways pages get
 * written.
 */
#ifndef MM_WRITEBACK_H
#define MM_WRITEBACK_H

#include <pageturn/types.h>

extern unsigned int dirty_writeback_centisecs;

/* Start the flusher thread (boot, after the root is mounted). */
void wb_flusher_init(void);

/* Rounds run so far (for tests and /proc later). */
extern unsigned long nr_flusher_rounds;

#endif
