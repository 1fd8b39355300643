/*
 * Sleeping locks (Linux's kernel/mutex.c), for one CPU and a kernel
 * without preemption: see include/pageturn/mutex.h for the rules.
 */
#include <pageturn/mutex.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>

void __mutex_init(struct mutex *lock, const char *name)
{
	lock->owner = NULL;
	init_waitqueue_head(&lock->wait);
	lock->name = name;
}

void mutex_lock(struct mutex *lock)
{
	if (lock->owner == current)
		panic("mutex_lock: %s is already held by %s (%d)", lock->name, current->comm,
		      current->pid);
	/* wait_event tests with interrupts off and nothing else runs until
	 * this task sleeps, so the owner it finds NULL is still NULL when
	 * it stores itself. */
	wait_event(lock->wait, lock->owner == NULL);
	lock->owner = current;
}

void mutex_unlock(struct mutex *lock)
{
	if (lock->owner != current)
		panic("mutex_unlock: %s is held by %s, not by %s (%d)", lock->name,
		      lock->owner ? lock->owner->comm : "nobody", current->comm, current->pid);
	lock->owner = NULL;
	wake_up(&lock->wait);
}
