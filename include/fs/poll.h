/*
 * Waiting for several files at once (Linux's include/linux/poll.h):
 * poll(2) asks each file's f_op->poll which events are ready, passing a
 * poll_table in which the file registers the wait queues that a change
 * will be announced on (poll_wait).  If nothing is ready, poll sleeps
 * until one of those queues is woken, a signal comes or the time runs
 * out, then asks again.  kernel/fs/select.c implements it.
 */
#ifndef FS_POLL_H
#define FS_POLL_H

#include <fs/vfs.h>
#include <pageturn/wait.h>
#include <uapi/poll.h>

/* One wait queue a poller sits on: current on wq. */
struct poll_table_entry {
	wait_queue_head_t *wq;
	wait_queue_entry_t wait;
};

/* A page of entries, chained. */
struct poll_table_page {
	struct poll_table_page *next;
	unsigned int nr;
	struct poll_table_entry entries[];
};

typedef struct poll_table_struct {
	struct poll_table_page *table;
	int error;		/* -ENOMEM: an entry could not be added */
} poll_table;

/*
 * For f_op->poll: put current on wq for the poll in progress (pt NULL:
 * the caller only asks, nothing to do).  The entry stays on wq until the
 * poll ends, so any wake_up(wq) until then wakes the poller.  Process
 * context; may allocate.
 */
void poll_wait(struct file *filp, wait_queue_head_t *wq, poll_table *pt);

#endif
