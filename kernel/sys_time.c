/*
 * Clocks, sleeps and futexes (Linux's kernel/time/posix-timers.c,
 * posix-stubs.c, hrtimer.c's nanosleep, time.c and futex/, reduced).
 *
 * Clocks.  Every clock is read from the TSC-based ktime_get_ns()
 * (nanoseconds since boot, kernel/time.c) or the tick counts:
 *
 *   CLOCK_MONOTONIC, _RAW, CLOCK_BOOTTIME   ktime_get_ns() (no NTP to
 *                                           slew, no suspend to add)
 *   CLOCK_REALTIME                          the CMOS clock's boot time
 *                                           plus that (drivers/rtc.c)
 *   CLOCK_*_COARSE                          the same, cut to the tick
 *   CLOCK_PROCESS_CPUTIME_ID, _THREAD_      the task's utime + stime ticks
 *
 * Resolutions: 1 ns for the TSC clocks, a tick (10 ms) for the coarse
 * and CPU-time ones.  The wall clock cannot be set (no settimeofday), so
 * CLOCK_REALTIME - CLOCK_MONOTONIC never changes after rtc_init().
 *
 * Sleeps.  A sleep is a deadline on CLOCK_MONOTONIC.  sleep_until()
 * sleeps TASK_INTERRUPTIBLE in whole ticks (schedule_timeout_interruptible)
 * and, on every wakeup, compares ktime_get_ns() with the deadline, so it
 * never returns early however the tick and the TSC drift; it overshoots
 * by up to a tick, as a tick-driven kernel must.  The checks and the
 * sleep happen with interrupts off, so a signal sent from an interrupt
 * (Ctrl-C) between the check and the sleep still wakes it.
 *
 * An interrupted sleep: a relative nanosleep or clock_nanosleep returns
 * -EINTR with the time left in *rmtp.  Linux returns
 * -ERESTART_RESTARTBLOCK and, when no handler ran (a stop and continue),
 * transparently sleeps the rest; Pageturn has no restart blocks, so such
 * a sleep ends early with EINTR, which POSIX allows.  An absolute sleep
 * (TIMER_ABSTIME) returns -ERESTARTNOHAND as Linux does: restarting it
 * with the same deadline is exactly right.
 *
 * Futexes.  Processes are single-threaded, but a futex may live in
 * memory two processes share (MAP_SHARED), so waits and wakes are real:
 * a waiter queues a futex_q on its stack on futex_queue and sleeps;
 * FUTEX_WAKE takes matching waiters off and wakes them.  The key is
 * Linux's: (mm, address) for a private futex or a private mapping, the
 * physical address for a shared mapping (the page is the same for every
 * mapper, and a waiter pins it, so that reclaim cannot move its data to
 * another page while it waits).  Queue invariant: a futex_q is on futex_queue exactly while
 * its task waits and nobody has woken it (woken false).  No interrupt
 * handler touches the queue and the kernel is not preemptive, so it
 * needs no lock.
 */
#include <asm/cpu.h>
#include <asm/uaccess.h>
#include <drivers/rtc.h>
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pgtable.h>
#include <pageturn/list.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/time.h>

#define KTIME_MAX		INT64_MAX

/* A valid timespec in ns, saturating at KTIME_MAX (Linux's
 * timespec64_to_ktime). */
static uint64_t timespec_to_ns(const struct timespec *ts)
{
	if ((uint64_t)ts->tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static struct timespec ns_to_timespec(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC };

	return ts;
}

/* CLOCK_MONOTONIC cut to a whole number of ticks. */
static uint64_t ktime_get_coarse_ns(void)
{
	uint64_t ns = ktime_get_ns();

	return ns - ns % TICK_NSEC;
}

/* ktime_get_ns() at boot, on the wall clock. */
static uint64_t realtime_offset(void)
{
	return ktime_get_real_ns() - ktime_get_ns();
}

/* The time on clock which in ns: 0, or -EINVAL for an unknown clock. */
static int clock_get_ns(int which, uint64_t *ns)
{
	switch (which) {
	case CLOCK_REALTIME:
		*ns = ktime_get_real_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_REALTIME_COARSE:
		*ns = realtime_offset() + ktime_get_coarse_ns();
		return 0;
	case CLOCK_MONOTONIC_COARSE:
		*ns = ktime_get_coarse_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = (current->utime + current->stime) * TICK_NSEC;
		return 0;
	default:
		return -EINVAL;
	}
}

/* clock_gettime(2): 0, -EINVAL (unknown clock), -EFAULT. */
long sys_clock_gettime(int which_clock, struct timespec __user *tp)
{
	struct timespec ts;
	uint64_t ns;
	int err = clock_get_ns(which_clock, &ns);

	if (err)
		return err;
	ts = ns_to_timespec(ns);
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* clock_getres(2): the clock's resolution in *tp (if not NULL): 1 ns,
 * or a tick for the coarse and CPU-time clocks.  0, -EINVAL, -EFAULT. */
long sys_clock_getres(int which_clock, struct timespec __user *tp)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 1 };
	uint64_t ns;
	int err = clock_get_ns(which_clock, &ns);

	if (err)
		return err;
	if (which_clock == CLOCK_REALTIME_COARSE || which_clock == CLOCK_MONOTONIC_COARSE ||
	    which_clock == CLOCK_PROCESS_CPUTIME_ID || which_clock == CLOCK_THREAD_CPUTIME_ID)
		ts.tv_nsec = TICK_NSEC;
	if (tp && copy_to_user(tp, &ts, sizeof(ts)))
		return -EFAULT;
	return 0;
}

/* gettimeofday(2): CLOCK_REALTIME in microseconds, and a zero time
 * zone; either pointer may be NULL.  0 or -EFAULT. */
long sys_gettimeofday(struct timeval __user *tv, struct timezone __user *tz)
{
	if (tv) {
		uint64_t ns = ktime_get_real_ns();
		struct timeval t = {
			.tv_sec = ns / NSEC_PER_SEC,
			.tv_usec = ns % NSEC_PER_SEC / NSEC_PER_USEC,
		};

		if (copy_to_user(tv, &t, sizeof(t)))
			return -EFAULT;
	}
	if (tz) {
		struct timezone z = { 0, 0 };

		if (copy_to_user(tz, &z, sizeof(z)))
			return -EFAULT;
	}
	return 0;
}

/* time(2): seconds since the epoch, also stored in *tloc if not NULL
 * (-EFAULT when that fails). */
long sys_time(int64_t __user *tloc)
{
	int64_t t = ktime_get_real_seconds();

	if (tloc && put_user(t, tloc))
		return -EFAULT;
	return t;
}

/* ---- sleeping ------------------------------------------------------------ */

/*
 * Sleep until CLOCK_MONOTONIC reaches deadline (ns; KTIME_MAX: no
 * deadline), a signal is pending or, when woken is not NULL, *woken
 * turns true: 0 (deadline reached or *woken), -EINTR (a signal).  A
 * deadline already past returns 0 even with a signal pending.
 */
static int sleep_until(uint64_t deadline, const volatile bool *woken)
{
	uint64_t flags = local_irq_save();
	uint64_t now;
	long ticks;
	int ret;

	for (;;) {
		now = ktime_get_ns();
		if (now >= deadline || (woken && *woken)) {
			ret = 0;
			break;
		}
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		if (deadline == KTIME_MAX)
			ticks = MAX_SCHEDULE_TIMEOUT;
		else
			ticks = (deadline - now + TICK_NSEC - 1) / TICK_NSEC;
		schedule_timeout_interruptible(ticks);
	}
	local_irq_restore(flags);
	return ret;
}

/*
 * The work of nanosleep and clock_nanosleep: sleep until *rqtp on clock
 * (absolute when flags has TIMER_ABSTIME), else for *rqtp.  0, or on a
 * signal -EINTR with the time left in *rmtp (relative sleeps), or
 * -ERESTARTNOHAND (absolute ones).
 */
static long do_nanosleep(int clock, int flags, const struct timespec __user *rqtp,
			 struct timespec __user *rmtp)
{
	struct timespec ts;
	uint64_t deadline, req, now;

	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	if (!timespec_valid(&ts))
		return -EINVAL;
	req = timespec_to_ns(&ts);
	now = ktime_get_ns();
	if (flags & TIMER_ABSTIME) {
		if (clock == CLOCK_REALTIME)
			req = req > realtime_offset() ? req - realtime_offset() : 0;
		if (sleep_until(req, NULL))
			return -ERESTARTNOHAND;
		return 0;
	}
	deadline = req >= KTIME_MAX - now ? KTIME_MAX : now + req;
	if (!sleep_until(deadline, NULL))
		return 0;
	if (rmtp) {
		now = ktime_get_ns();
		ts = ns_to_timespec(deadline > now ? deadline - now : 0);
		if (copy_to_user(rmtp, &ts, sizeof(ts)))
			return -EFAULT;
	}
	return -EINTR;
}

/* nanosleep(2): a relative sleep on CLOCK_MONOTONIC (do_nanosleep). */
long sys_nanosleep(const struct timespec __user *rqtp, struct timespec __user *rmtp)
{
	return do_nanosleep(CLOCK_MONOTONIC, 0, rqtp, rmtp);
}

/* Sleeps on CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME; the
 * CPU-time clocks and the others are -EINVAL. */
long sys_clock_nanosleep(int which_clock, int flags, const struct timespec __user *rqtp,
			 struct timespec __user *rmtp)
{
	if (which_clock != CLOCK_REALTIME && which_clock != CLOCK_MONOTONIC &&
	    which_clock != CLOCK_BOOTTIME)
		return -EINVAL;
	return do_nanosleep(which_clock, flags, rqtp, rmtp);
}

/* ---- futexes ---------------------------------------------------------------- */

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK		(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY	0xffffffffu

/* What a futex word is, whichever address a process sees it at. */
struct futex_key {
	struct mm_struct *mm;	/* NULL for a shared mapping */
	unsigned long addr;	/* the user address, or the physical one if mm is NULL */
};

struct futex_q {
	struct list_head list;		/* on futex_queue while waiting */
	struct task_struct *task;
	struct futex_key key;
	uint32_t bitset;		/* FUTEX_WAKE_BITSET wakes it if they share a bit */
	volatile bool woken;
};

static LIST_HEAD(futex_queue);

/*
 * The key of the futex word at uaddr of current, whose page the caller
 * has faulted in (get_user).  0, -EINVAL (not 4-byte aligned), -EFAULT.
 */
static int get_futex_key(uint32_t __user *uaddr, bool private, struct futex_key *key)
{
	unsigned long addr = (unsigned long)uaddr;
	struct vm_area_struct *vma;
	phys_addr_t pa;

	if (addr % sizeof(uint32_t))
		return -EINVAL;
	key->mm = current->mm;
	key->addr = addr;
	if (private)
		return 0;
	vma = find_vma(current->mm, addr);
	if (!vma || vma->vm_start > addr)
		return -EFAULT;
	if (!(vma->vm_flags & VM_SHARED))
		return 0;
	if (pt_lookup(current->mm->pgd, addr, &pa, NULL, NULL))
		return -EFAULT;
	key->mm = NULL;
	key->addr = pa;
	return 0;
}

/*
 * FUTEX_WAIT(_BITSET): if *uaddr still holds val, sleep until a
 * FUTEX_WAKE for it (0), the deadline on CLOCK_MONOTONIC (-ETIMEDOUT),
 * or a signal (-ERESTARTSYS without a timeout, else -EINTR, as Linux's
 * user-visible result); -EAGAIN at once when *uaddr differs.  The value
 * is compared after queueing: reading it may sleep on a fault, and a
 * FUTEX_WAKE in that time must not be lost.
 */
static long futex_wait(uint32_t __user *uaddr, bool private, uint32_t val, uint64_t deadline,
		       uint32_t bitset)
{
	struct futex_q q = { .task = current, .bitset = bitset, .woken = false };
	struct page *pinned = NULL;
	uint32_t uval;
	long err;

	if (!bitset)
		return -EINVAL;
	if (get_user(uval, uaddr))
		return -EFAULT;
	err = get_futex_key(uaddr, private, &q.key);
	if (err)
		return err;
	/* A shared futex is its physical address: the page is pinned while
	 * we wait, so reclaim never frees or replaces it (an unmapped page
	 * stays in the swap or page cache, where a waker's fault finds the
	 * same page).  Linux keys it by the page and offset instead. */
	if (!q.key.mm) {
		pinned = pfn_to_page(q.key.addr >> PAGE_SHIFT);
		get_page(pinned);
	}
	list_add_tail(&q.list, &futex_queue);
	err = get_user(uval, uaddr) ? -EFAULT : uval != val ? -EAGAIN : 0;
	if (err) {
		if (!q.woken)
			list_del(&q.list);
		goto out;
	}
	err = sleep_until(deadline, &q.woken);
	if (q.woken) {
		err = 0;
		goto out;
	}
	list_del(&q.list);
	if (err)
		err = deadline == KTIME_MAX ? -ERESTARTSYS : -EINTR;
	else
		err = -ETIMEDOUT;
out:
	if (pinned)
		put_page(pinned);
	return err;
}

/* FUTEX_WAKE(_BITSET): wake up to nr waiters on uaddr's futex whose
 * bitset shares a bit with bitset; the number woken. */
static long futex_wake(uint32_t __user *uaddr, bool private, uint32_t nr, uint32_t bitset)
{
	struct futex_q *q, *n;
	struct futex_key key;
	uint32_t uval;
	long woken = 0;
	int err;

	if (!bitset)
		return -EINVAL;
	/* Fault the page in: a shared futex's key is its physical address. */
	if (copy_from_user(&uval, uaddr, sizeof(uval)))
		return -EFAULT;
	err = get_futex_key(uaddr, private, &key);
	if (err)
		return err;
	list_for_each_entry_safe(q, n, &futex_queue, list) {
		if ((uint32_t)woken >= nr)
			break;
		if (q->key.mm != key.mm || q->key.addr != key.addr || !(q->bitset & bitset))
			continue;
		list_del_init(&q->list);
		q->woken = true;
		wake_up_process(q->task);
		woken++;
	}
	return woken;
}

/*
 * futex(2): FUTEX_WAIT (utime relative), FUTEX_WAIT_BITSET (utime an
 * absolute time on CLOCK_MONOTONIC, or CLOCK_REALTIME with
 * FUTEX_CLOCK_REALTIME), FUTEX_WAKE and FUTEX_WAKE_BITSET; NULL utime
 * waits without a deadline.  The requeue, wake-op and priority-
 * inheritance operations are -ENOSYS.
 */
long sys_futex(uint32_t __user *uaddr, int op, uint32_t val, const struct timespec __user *utime,
	       uint32_t __user *uaddr2, uint32_t val3)
{
	bool private = op & FUTEX_PRIVATE_FLAG;
	int cmd = op & FUTEX_CMD_MASK;
	uint64_t deadline = KTIME_MAX;
	struct timespec ts;

	(void)uaddr2;
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		if (utime) {
			if (copy_from_user(&ts, utime, sizeof(ts)))
				return -EFAULT;
			if (!timespec_valid(&ts))
				return -EINVAL;
			deadline = timespec_to_ns(&ts);
			if (cmd == FUTEX_WAIT)
				deadline = deadline >= KTIME_MAX - ktime_get_ns() ?
					   KTIME_MAX - 1 : ktime_get_ns() + deadline;
			else if (op & FUTEX_CLOCK_REALTIME)
				deadline = deadline > realtime_offset() ? deadline - realtime_offset() : 0;
		}
		return futex_wait(uaddr, private, val, deadline,
				  cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : val3);
	case FUTEX_WAKE:
		return futex_wake(uaddr, private, val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, private, val, val3);
	default:
		return -ENOSYS;
	}
}
