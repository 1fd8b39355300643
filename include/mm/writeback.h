/*
 * Periodic writeback of dirty page-cache pages (Linux's
 * mm/page-writeback.c and the flusher threads).
 *
 * Every dirty_writeback_centisecs (5 s, Linux's default), if any page is
 * dirty, the flusher writes back every mounted filesystem.  Pageturn has
 * no kernel threads yet, so the flusher runs from the idle loop; with a
 * scheduler it becomes a thread that sleeps between rounds.  Explicit
 * sync and reclaim's pageout_one() are the other two ways pages get
 * written.
 */
#ifndef MM_WRITEBACK_H
#define MM_WRITEBACK_H

#include <pageturn/types.h>

extern unsigned int dirty_writeback_centisecs;

/* Run a flusher round if one is due; returns true when it wrote. */
bool wb_flusher_poll(void);

/* Rounds run so far (for tests and /proc later). */
extern unsigned long nr_flusher_rounds;

#endif
