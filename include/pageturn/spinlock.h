/*
 * spinlock_t, with Linux's names.  Pageturn runs on one CPU, so taking a
 * lock means disabling interrupts (spin_lock_irqsave); the locked flag
 * catches recursion, which on one CPU would be a deadlock: a kernel bug.
 * Built for host unit tests (HOST_TEST) only the flag is kept.
 */
#ifndef PAGETURN_SPINLOCK_H
#define PAGETURN_SPINLOCK_H

#include <pageturn/panic.h>
#include <pageturn/types.h>
#ifndef HOST_TEST
#include <asm/cpu.h>
#endif

typedef struct {
	bool locked;
	const char *name;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(n) { false, #n }
#define DEFINE_SPINLOCK(n) spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

static inline void spin_lock_init(spinlock_t *lock, const char *name)
{
	lock->locked = false;
	lock->name = name;
}

static inline void __spin_acquire(spinlock_t *lock)
{
	if (lock->locked)
		panic("spin_lock: recursive locking of %s", lock->name ? lock->name : "a lock");
	lock->locked = true;
}

#ifdef HOST_TEST
#define spin_lock_irqsave(lock, flags) do { (flags) = 0; __spin_acquire(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) do { (void)(flags); (lock)->locked = false; } while (0)
#else
#define spin_lock_irqsave(lock, flags) do { (flags) = local_irq_save(); __spin_acquire(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) do { (lock)->locked = false; local_irq_restore(flags); } while (0)
#endif

static inline bool spin_is_locked(const spinlock_t *lock)
{
	return lock->locked;
}

#endif
