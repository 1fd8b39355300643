/*
 * Sleeping locks (Linux's include/linux/mutex.h): a mutex is held by one
 * task at a time, and a task that wants it while another holds it sleeps
 * until it is free, so a holder may sleep too (disk I/O, an allocation).
 *
 * The rules, checked where they can be:
 *   - only the owner unlocks (panic otherwise: a kernel bug);
 *   - a task never takes a mutex it holds (panic: it would wait for
 *     itself forever);
 *   - mutexes are taken in one documented order wherever two are held at
 *     once (the VFS's order is at the top of kernel/fs/namei.c), and never
 *     in interrupt context or with interrupts disabled.
 *   - every pointer held across a possible sleep is re-validated after
 *     it: whatever the mutex does not protect may have changed while the
 *     task slept in mutex_lock, or in the I/O it did while holding it.
 *
 * Pageturn has one CPU and a kernel that switches tasks only where one
 * sleeps (kernel/sched.c), so the owner field needs no atomic update:
 * between the test that finds a mutex free and the store that takes it,
 * no other task runs.  Sleepers wait on the mutex's own wait queue,
 * wait_list (Linux's, kept in the mutex so that this header needs only
 * list.h); an unlock wakes all of them, and the first to run takes the
 * mutex while the others go back to sleep (no fairness, no optimistic
 * spinning).  Only mutex_unlock wakes them, in process context.
 */
#ifndef PAGETURN_MUTEX_H
#define PAGETURN_MUTEX_H

#include <pageturn/list.h>
#include <pageturn/types.h>

struct task_struct;

struct mutex {
	struct task_struct *owner;	/* the holder; NULL when free */
	struct list_head wait_list;	/* struct mutex_waiter: tasks in mutex_lock */
	const char *name;		/* for panic messages */
};

#define __MUTEX_INITIALIZER(n) { NULL, LIST_HEAD_INIT((n).wait_list), #n }
#define DEFINE_MUTEX(n) struct mutex n = __MUTEX_INITIALIZER(n)

/* Set up a free mutex; name appears in panic messages. */
void __mutex_init(struct mutex *lock, const char *name);
#define mutex_init(lock) __mutex_init((lock), #lock)

/* Take lock, sleeping (uninterruptibly) while another task holds it.
 * Process context, interrupts enabled; panics if current holds it. */
void mutex_lock(struct mutex *lock);

/* Release lock, which current must hold (panic otherwise), and wake its
 * sleepers. */
void mutex_unlock(struct mutex *lock);

static inline bool mutex_is_locked(const struct mutex *lock)
{
	return lock->owner != NULL;
}

#endif
