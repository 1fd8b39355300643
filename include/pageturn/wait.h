/*
 * Wait queues (Linux's include/linux/wait.h): a list of tasks sleeping
 * until some condition holds, woken by whoever makes it hold, often an
 * interrupt handler.
 *
 * The rule that keeps a wakeup from being lost: the sleeper puts itself on
 * the queue and sets its state (prepare_to_wait) before it tests the
 * condition, and the waker makes the condition true before wake_up().  A
 * wakeup that comes between the test and schedule() sets the sleeper back
 * to TASK_RUNNING, and schedule() then returns at once.  wait_event() also
 * keeps interrupts disabled from the test to the sleep, so on one CPU no
 * handler runs in between at all.
 *
 * There are no exclusive waiters: wake_up() and wake_up_all() both wake
 * every task on the queue, which tests its condition again.
 */
#ifndef PAGETURN_WAIT_H
#define PAGETURN_WAIT_H

#include <asm/cpu.h>
#include <pageturn/list.h>
#include <pageturn/sched.h>
#include <uapi/errno.h>

typedef struct wait_queue_head {
	struct list_head task_list;
} wait_queue_head_t;

typedef struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
} wait_queue_entry_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) { LIST_HEAD_INIT((name).task_list) }
#define DECLARE_WAIT_QUEUE_HEAD(name) wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

#define DEFINE_WAIT(name) \
	wait_queue_entry_t name = { .task = current, .entry = LIST_HEAD_INIT((name).entry) }

static inline void init_waitqueue_head(wait_queue_head_t *wq)
{
	INIT_LIST_HEAD(&wq->task_list);
}

/* Put wait (current) on wq unless it is there, and set current's state. */
void prepare_to_wait(wait_queue_head_t *wq, wait_queue_entry_t *wait, long state);

/* Set current TASK_RUNNING and take wait off wq. */
void finish_wait(wait_queue_head_t *wq, wait_queue_entry_t *wait);

/* Wake every task on wq.  Any context. */
void wake_up(wait_queue_head_t *wq);
#define wake_up_all(wq) wake_up(wq)

/* Sleep until condition is true; process context.  condition is tested
 * with interrupts disabled, after the task's state is set. */
#define wait_event(wq, condition) do { \
	DEFINE_WAIT(__wait); \
	uint64_t __flags = local_irq_save(); \
	for (;;) { \
		prepare_to_wait(&(wq), &__wait, TASK_UNINTERRUPTIBLE); \
		if (condition) \
			break; \
		schedule(); \
	} \
	finish_wait(&(wq), &__wait); \
	local_irq_restore(__flags); \
} while (0)

/*
 * Sleep until condition is true or a signal is pending: 0, or
 * -ERESTARTSYS when a signal woke it (the syscall is restarted or fails
 * with -EINTR as the signal's SA_RESTART says).  Process context.
 */
#define wait_event_interruptible(wq, condition) ({ \
	DEFINE_WAIT(__wait); \
	int __ret = 0; \
	uint64_t __flags = local_irq_save(); \
	for (;;) { \
		prepare_to_wait(&(wq), &__wait, TASK_INTERRUPTIBLE); \
		if (condition) \
			break; \
		if (signal_pending(current)) { \
			__ret = -ERESTARTSYS; \
			break; \
		} \
		schedule(); \
	} \
	finish_wait(&(wq), &__wait); \
	local_irq_restore(__flags); \
	__ret; })

#endif
