/*
 * Waiting for the disks: congestion_wait and clear_bdi_congested, as in
 * Linux 2.6.28's mm/backing-dev.c.
 *
 * Reclaim that makes slow progress, and an allocation that must try
 * again, give the disks time to finish what reclaim wrote: pages under
 * writeback cannot be freed until their write ends.  congestion_wait(rw,
 * timeout) sleeps until a request of direction rw completes, or timeout
 * ticks pass.  Linux 2.6.28 wakes its waiters whenever a request is freed
 * while its queue is below the congestion threshold, so in practice at
 * the next completion; Pageturn's queues keep no congestion state (a bio
 * waits for a free request instead), so every completed request wakes
 * them.  The block layer calls clear_bdi_congested after it has ended
 * the request's bios, so the pages it wrote already show as written.
 *
 * A sleeper goes on the queue, with its state set, before it sleeps, so
 * a completion in between is not lost.  With nothing in flight it sleeps
 * out the whole timeout, as Linux's does: the page allocator's retry
 * relies on that pause to let tasks that are about to free memory (an
 * exit, a read finishing) run before it counts another failed round.
 */
#include <drivers/blkdev.h>
#include <mm/backing-dev.h>
#include <pageturn/sched.h>
#include <pageturn/wait.h>

static wait_queue_head_t congestion_wqh[2] = {
	__WAIT_QUEUE_HEAD_INITIALIZER(congestion_wqh[READ]),
	__WAIT_QUEUE_HEAD_INITIALIZER(congestion_wqh[WRITE]),
};

void congestion_wait(int rw, long timeout)
{
	DEFINE_WAIT(wait);

	prepare_to_wait(&congestion_wqh[rw], &wait, TASK_UNINTERRUPTIBLE);
	schedule_timeout(timeout);
	finish_wait(&congestion_wqh[rw], &wait);
}

void clear_bdi_congested(int rw)
{
	wake_up(&congestion_wqh[rw]);
}
