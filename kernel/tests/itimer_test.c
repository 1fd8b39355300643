/*
 * Suite "itimer": the real-time interval timer (kernel/signal.c):
 * setitimer/getitimer(ITIMER_REAL) and alarm(2), which is the same
 * timer.  What is checked:
 *   - the values read back: rounded up to whole ticks, the interval as
 *     set, everything zero once disarmed (a zero it_value disarms
 *     whatever the interval), a due timer that has not fired yet as 1
 *     microsecond, a huge time cut but still armed;
 *   - the errors: a negative time, a tv_usec of a second or more, the
 *     timers that do not exist (ITIMER_VIRTUAL, ITIMER_PROF, others);
 *   - alarm's return rounding (to the nearest second, at least 1 when any
 *     time was left), alarm replacing an interval timer;
 *   - the system calls' user side: NULL new value disarms, the old value
 *     copied out, bad pointers -EFAULT;
 *   - the timer firing on real ticks: a kernel thread standing in for a
 *     process (with signal actions, SIGALRM blocked so it stays pending)
 *     arms 20 ms with a 30 ms interval and sees SIGALRM again after each
 *     period, then once more only after the interval is taken away.
 * The cases on the test task itself leave its timer disarmed.
 */
#include <asm/cpu.h>
#include <pageturn/ktest.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/itimer.h>

#include "user_task.h"

static struct itimerval itv(int64_t value_sec, long value_usec, int64_t interval_sec,
			    long interval_usec)
{
	struct itimerval v = {
		.it_interval = { interval_sec, interval_usec },
		.it_value = { value_sec, value_usec },
	};

	return v;
}

KTEST(itimer, values_and_errors)
{
	struct itimerval v, old, zero = itv(0, 0, 0, 0);
	uint64_t flags;

	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &zero, NULL), 0);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT(t, !v.it_value.tv_sec && !v.it_value.tv_usec);
	KTEST_EXPECT(t, !v.it_interval.tv_sec && !v.it_interval.tv_usec);
	/* 15 ms is two ticks; the interval reads back as set. */
	v = itv(0, 15000, 0, 50000);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, &old), 0);
	KTEST_EXPECT(t, !old.it_value.tv_sec && !old.it_value.tv_usec);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT_EQ(t, v.it_value.tv_sec, 0);
	KTEST_EXPECT(t, v.it_value.tv_usec > 0 && v.it_value.tv_usec <= 20000);
	KTEST_EXPECT_EQ(t, v.it_interval.tv_sec, 0);
	KTEST_EXPECT_EQ(t, v.it_interval.tv_usec, 50000);
	/* A microsecond is a tick; an interval is rounded up too. */
	v = itv(0, 1, 0, 15001);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, &old), 0);
	KTEST_EXPECT_EQ(t, old.it_interval.tv_usec, 50000);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT(t, v.it_value.tv_usec > 0 && v.it_value.tv_usec <= 10000);
	KTEST_EXPECT_EQ(t, v.it_interval.tv_usec, 20000);
	/* Due but not fired yet (no tick can come in between): 1 us. */
	flags = local_irq_save();
	current->alarm_jiffies = jiffies;
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	local_irq_restore(flags);
	KTEST_EXPECT(t, v.it_value.tv_sec == 0 && v.it_value.tv_usec == 1);
	/* A zero value disarms, interval or not. */
	v = itv(0, 0, 1, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	KTEST_EXPECT_EQ(t, current->alarm_jiffies, 0);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT(t, !v.it_value.tv_usec && !v.it_interval.tv_sec);
	/* The longest time is cut, and armed. */
	v = itv(INT64_MAX, 999999, 0, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT(t, v.it_value.tv_sec > 1000000000000000l);
	/* Errors change nothing. */
	v = itv(0, 1000000, 0, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), -EINVAL);
	v = itv(-1, 0, 0, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), -EINVAL);
	v = itv(1, 0, 0, -1);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), -EINVAL);
	v = itv(1, 0, 0, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_VIRTUAL, &v, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_PROF, &v, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, do_setitimer(3, &v, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_VIRTUAL, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, do_getitimer(-1, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT(t, v.it_value.tv_sec > 1000000000000000l);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &zero, NULL), 0);
}

KTEST(itimer, alarm_is_the_same_timer)
{
	struct itimerval v;

	/* 2.7 s left rounds to 3; 0.3 s to 1 (never 0 while armed). */
	v = itv(2, 700000, 0, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	KTEST_EXPECT_EQ(t, sys_alarm(0), 3);
	v = itv(0, 300000, 0, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	KTEST_EXPECT_EQ(t, sys_alarm(0), 1);
	KTEST_EXPECT_EQ(t, sys_alarm(0), 0);
	/* alarm arms ITIMER_REAL and clears an interval. */
	v = itv(1, 0, 1, 0);
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	KTEST_EXPECT_EQ(t, sys_alarm(10), 1);
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	KTEST_EXPECT(t, v.it_value.tv_sec == 10 || v.it_value.tv_sec == 9);
	KTEST_EXPECT(t, !v.it_interval.tv_sec && !v.it_interval.tv_usec);
	KTEST_EXPECT_EQ(t, sys_alarm(0), 10);
}

KTEST(itimer, syscalls_user_side)
{
	struct itimerval v = itv(3, 0, 0, 500000), got;
	struct ktest_user u;

	if (!ktest_user_begin(t, &u))
		goto out;
	copy_to_user(ktest_uptr(&u, 0), &v, sizeof(v));
	KTEST_EXPECT_EQ(t, sys_setitimer(ITIMER_REAL, ktest_uptr(&u, 0), NULL), 0);
	KTEST_EXPECT_EQ(t, sys_getitimer(ITIMER_REAL, ktest_uptr(&u, 64)), 0);
	copy_from_user(&got, ktest_uptr(&u, 64), sizeof(got));
	KTEST_EXPECT(t, got.it_value.tv_sec == 3 || got.it_value.tv_sec == 2);
	KTEST_EXPECT_EQ(t, got.it_interval.tv_usec, 500000);
	/* NULL disarms; the old value comes out. */
	KTEST_EXPECT_EQ(t, sys_setitimer(ITIMER_REAL, NULL, ktest_uptr(&u, 64)), 0);
	copy_from_user(&got, ktest_uptr(&u, 64), sizeof(got));
	KTEST_EXPECT(t, got.it_value.tv_sec == 3 || got.it_value.tv_sec == 2);
	KTEST_EXPECT_EQ(t, current->alarm_jiffies, 0);
	/* Bad pointers. */
	KTEST_EXPECT_EQ(t, sys_setitimer(ITIMER_REAL, (void __user *)0x10, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, sys_getitimer(ITIMER_REAL, (void __user *)0x10), -EFAULT);
	KTEST_EXPECT_EQ(t, sys_getitimer(ITIMER_PROF, ktest_uptr(&u, 64)), -EINVAL);
	KTEST_EXPECT_EQ(t, current->alarm_jiffies, 0);
out:
	ktest_user_end(&u);
}

/* The thread that arms a timer on itself and watches SIGALRM come. */
struct alarm_watch {
	struct ktest *t;
	volatile bool done;
};

/* Wait up to ms for SIGALRM to be pending, then take it away. */
static bool sigalrm_within(unsigned int ms)
{
	bool seen;

	while (!(seen = current->pending & sigmask(SIGALRM)) && ms >= 5) {
		msleep(5);
		ms -= 5;
	}
	current->pending &= ~sigmask(SIGALRM);
	return seen;
}

static int alarm_watcher(void *data)
{
	struct alarm_watch *w = data;
	struct ktest *t = w->t;
	struct itimerval v = itv(0, 20000, 0, 30000);
	int i;

	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	for (i = 0; i < 3; i++) {
		KTEST_EXPECT(t, sigalrm_within(500));
		/* Re-armed for the next period. */
		KTEST_EXPECT(t, current->alarm_jiffies > jiffies);
		KTEST_EXPECT(t, current->alarm_jiffies <= jiffies + 3);
	}
	/* Without the interval it fires once more, then is disarmed. */
	KTEST_EXPECT_EQ(t, do_getitimer(ITIMER_REAL, &v), 0);
	v.it_interval.tv_usec = 0;
	KTEST_EXPECT_EQ(t, do_setitimer(ITIMER_REAL, &v, NULL), 0);
	KTEST_EXPECT(t, sigalrm_within(500));
	KTEST_EXPECT_EQ(t, current->alarm_jiffies, 0);
	msleep(50);
	KTEST_EXPECT(t, !(current->pending & sigmask(SIGALRM)));
	current->pending = 0;
	current->alarm_jiffies = 0;
	put_sighand(current->sighand);
	current->sighand = NULL;
	w->done = true;
	return 0;
}

KTEST(itimer, sigalrm_every_interval)
{
	struct alarm_watch w = { t, false };
	struct task_struct *p = kthread_create(alarm_watcher, &w, "itimer-watch");

	KTEST_EXPECT(t, p != NULL);
	if (!p)
		return;
	/* Without a sighand the signal is dropped: the watcher's
	 * expectations fail, and it still ends. */
	p->sighand = copy_sighand(NULL);
	p->blocked = sigmask(SIGALRM);
	KTEST_EXPECT(t, p->sighand != NULL);
	wake_up_process(p);
	while (!w.done)
		msleep(10);
	msleep(10);
}
