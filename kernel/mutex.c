/*
 * Sleeping locks (Linux's kernel/mutex.c), for one CPU and a kernel
 * without preemption: see include/pageturn/mutex.h for the rules.
 */
#include <pageturn/mutex.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>

/* One task sleeping in mutex_lock, on the mutex's wait_list. */
struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

void __mutex_init(struct mutex *lock, const char *name)
{
	lock->owner = NULL;
	INIT_LIST_HEAD(&lock->wait_list);
	lock->name = name;
}

void mutex_lock(struct mutex *lock)
{
	struct mutex_waiter waiter = { .task = current };

	if (lock->owner == current)
		panic("mutex_lock: %s is already held by %s (%d)", lock->name, current->comm,
		      current->pid);
	/* Nothing else runs between the test and schedule(), and only
	 * mutex_unlock wakes a waiter, so no wakeup is lost; a task woken
	 * for another reason tests again. */
	while (lock->owner) {
		list_add_tail(&waiter.list, &lock->wait_list);
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
		list_del(&waiter.list);
	}
	lock->owner = current;
}

void mutex_unlock(struct mutex *lock)
{
	struct mutex_waiter *waiter;

	if (lock->owner != current)
		panic("mutex_unlock: %s is held by %s, not by %s (%d)", lock->name,
		      lock->owner ? lock->owner->comm : "nobody", current->comm, current->pid);
	lock->owner = NULL;
	list_for_each_entry(waiter, &lock->wait_list, list)
		wake_up_process(waiter->task);
}
