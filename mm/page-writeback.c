/*
 * The periodic flusher (see mm/writeback.h).
 *
 * State: when the next round is due, in jiffies.  A round that finds no
 * dirty page does nothing but schedule the next; a round that finds some
 * syncs every mounted filesystem (sync_filesystems), which writes their
 * dirty pages and then their metadata.  Linux's flusher writes only pages
 * dirty for longer than dirty_expire_centisecs (30 s) and throttles
 * writers above dirty_ratio; Pageturn writes everything each round and
 * does not throttle.
 *
 * Called only from the idle loop (interrupts on, nothing else running),
 * never from interrupt context: writeback waits for I/O.
 */
#include <fs/vfs.h>
#include <mm/vmstat.h>
#include <mm/writeback.h>
#include <pageturn/time.h>

unsigned int dirty_writeback_centisecs = 500;
unsigned long nr_flusher_rounds;
static uint64_t next_round;

bool wb_flusher_poll(void)
{
	if (jiffies < next_round)
		return false;
	next_round = jiffies + (uint64_t)dirty_writeback_centisecs * HZ / 100;
	if (!global_page_state(NR_FILE_DIRTY))
		return false;
	nr_flusher_rounds++;
	sync_filesystems();
	return true;
}
