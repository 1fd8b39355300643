/*
 * Completions (Linux's include/linux/completion.h): "this has happened",
 * told once by one task and waited for by another.
 *
 * A completion belongs to the waiter, usually on its stack, so the task
 * that completes it never has to outlive anything: the waiter's memory
 * stays valid until the waiter has seen done, whatever became of the
 * completer (a vfork child may be reaped and its task_struct reused
 * before its parent runs again).  done counts complete() calls not yet
 * consumed by a wait.
 */
#ifndef PAGETURN_COMPLETION_H
#define PAGETURN_COMPLETION_H

#include <pageturn/wait.h>

struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

/* Mark x done and wake its waiter.  Any context. */
void complete(struct completion *x);

/* Sleep (uninterruptibly: signals stay pending) until x is done.
 * Process context. */
void wait_for_completion(struct completion *x);

#endif
