/*
 * The periodic flusher (see mm/writeback.h).
 *
 * A kernel thread, "flush", sleeps dirty_writeback_centisecs and then runs
 * a round.  A round that finds no dirty page does nothing; a round that
 * finds some syncs every mounted filesystem (sync_filesystems), which
 * writes their dirty pages and then their metadata.  Linux's flusher
 * writes only pages dirty for longer than dirty_expire_centisecs (30 s)
 * and throttles writers above dirty_ratio; Pageturn writes everything each
 * round and does not throttle.  A new period takes effect after the
 * current sleep.
 *
 * Between rounds the thread sleeps TASK_INTERRUPTIBLE, as Linux's
 * flusher threads do: it is idle, not waiting for I/O, so ps and /proc
 * show it as S (sleeping), not D (disk sleep).  Only the timer wakes it
 * (a kernel thread gets no signals); should anything else wake it early,
 * it sleeps out the rest of the period.
 *
 * The thread runs only when the others sleep or yield (no preemption in
 * the kernel), and its writes sleep in submit_bio_wait().
 */
#include <fs/vfs.h>
#include <mm/vmstat.h>
#include <mm/writeback.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>
#include <pageturn/time.h>

unsigned int dirty_writeback_centisecs = 500;
unsigned long nr_flusher_rounds;

/* Sleep centisecs (at least, as msleep: rounded up to ticks, plus the
 * tick under way), interruptibly. */
static void flusher_sleep(unsigned int centisecs)
{
	long left = ((long)centisecs * HZ + 99) / 100 + 1;

	while (left > 0)
		left = schedule_timeout_interruptible(left);
}

static int flusher_thread(void *data)
{
	(void)data;
	for (;;) {
		flusher_sleep(dirty_writeback_centisecs);
		if (!global_page_state(NR_FILE_DIRTY))
			continue;
		nr_flusher_rounds++;
		sync_filesystems();
	}
	return 0;
}

void wb_flusher_init(void)
{
	struct task_struct *flusher = kthread_create(flusher_thread, NULL, "flush");

	if (!flusher)
		panic("writeback: cannot create the flusher thread");
	wake_up_process(flusher);
}
