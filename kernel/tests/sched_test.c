/*
 * Suite "sched": kernel threads and the scheduler.  The tests run as the
 * idle task (kmain, pid 0), which is on the run queue like any task when it
 * yields, so `while (!done) yield();` lets the threads run.  Threads that
 * interleave through yield() show the round-robin order; one spinning on
 * cond_resched() shows the tick's time slice; a wait queue, a mutex held
 * across a sleep, msleep and the freeing of exited threads' stacks are
 * checked, and crash.
 * kthread_stack_overflow shows a thread's guard page.
 */
#include <mm/gfp.h>
#include <pageturn/ktest.h>
#include <pageturn/mutex.h>
#include <pageturn/sched.h>
#include <pageturn/time.h>
#include <pageturn/wait.h>

#define ROUNDS 5

static char order[2 * ROUNDS + 1];
static unsigned int order_len, nr_done;

static int yield_thread(void *data)
{
	unsigned int i;

	for (i = 0; i < ROUNDS; i++) {
		order[order_len++] = *(const char *)data;
		yield();
	}
	nr_done++;
	return 0;
}

static void run_until_done(unsigned int n)
{
	while (nr_done < n)
		yield();
}

KTEST(sched, yield_interleaves_round_robin)
{
	struct task_struct *a = kthread_create(yield_thread, "A", "yield-a");
	struct task_struct *b = kthread_create(yield_thread, "B", "yield-b");

	KTEST_EXPECT(t, a && b);
	if (!a || !b)
		return;
	order_len = nr_done = 0;
	wake_up_process(a);
	wake_up_process(b);
	run_until_done(2);
	order[order_len] = '\0';
	KTEST_EXPECT_STREQ(t, order, "ABABABABAB");
}

static volatile bool other_ran;

static int spin_thread(void *data)
{
	uint64_t deadline = jiffies + 10 * SCHED_TIMESLICE;

	*(uint64_t *)data = jiffies;
	while (!other_ran && jiffies < deadline)
		cond_resched();
	*(uint64_t *)data = jiffies - *(uint64_t *)data;
	nr_done++;
	return 0;
}

static int flag_thread(void *data)
{
	(void)data;
	other_ran = true;
	nr_done++;
	return 0;
}

KTEST(sched, tick_ends_time_slice_at_cond_resched)
{
	uint64_t spun = 0;
	struct task_struct *spin = kthread_create(spin_thread, &spun, "spin");
	struct task_struct *flag = kthread_create(flag_thread, NULL, "flag");

	KTEST_EXPECT(t, spin && flag);
	if (!spin || !flag)
		return;
	other_ran = false;
	nr_done = 0;
	wake_up_process(spin);
	wake_up_process(flag);
	run_until_done(2);
	KTEST_EXPECT(t, other_ran);
	KTEST_EXPECT(t, spun <= 2 * SCHED_TIMESLICE);
}

static DECLARE_WAIT_QUEUE_HEAD(test_wq);
static volatile bool wq_cond;

static int waiter_thread(void *data)
{
	(void)data;
	wait_event(test_wq, wq_cond);
	nr_done++;
	return 0;
}

KTEST(sched, wait_queue_wakes_sleeper)
{
	struct task_struct *w = kthread_create(waiter_thread, NULL, "waiter");

	KTEST_EXPECT(t, w != NULL);
	if (!w)
		return;
	wq_cond = false;
	nr_done = 0;
	wake_up_process(w);
	yield();
	yield();
	KTEST_EXPECT_EQ(t, w->state, TASK_UNINTERRUPTIBLE);
	KTEST_EXPECT_EQ(t, nr_done, 0);
	wq_cond = true;
	wake_up(&test_wq);
	run_until_done(1);
	KTEST_EXPECT_EQ(t, nr_done, 1);
}

static DEFINE_MUTEX(test_mutex);
static unsigned int inside, overlaps;

/* Take test_mutex and sleep holding it: nobody else may be inside. */
static int mutex_thread(void *data)
{
	(void)data;
	mutex_lock(&test_mutex);
	if (inside++)
		overlaps++;
	msleep(5);
	inside--;
	mutex_unlock(&test_mutex);
	nr_done++;
	return 0;
}

KTEST(sched, mutex_excludes_across_sleeps)
{
	struct task_struct *a = kthread_create(mutex_thread, NULL, "mutex-a");
	struct task_struct *b = kthread_create(mutex_thread, NULL, "mutex-b");

	KTEST_EXPECT(t, a && b);
	if (!a || !b)
		return;
	nr_done = inside = overlaps = 0;
	mutex_lock(&test_mutex);
	wake_up_process(a);
	wake_up_process(b);
	yield();
	yield();
	KTEST_EXPECT_EQ(t, a->state, TASK_UNINTERRUPTIBLE);
	KTEST_EXPECT_EQ(t, b->state, TASK_UNINTERRUPTIBLE);
	KTEST_EXPECT_EQ(t, nr_done, 0);
	KTEST_EXPECT(t, test_mutex.owner == current);
	mutex_unlock(&test_mutex);
	run_until_done(2);
	KTEST_EXPECT_EQ(t, overlaps, 0);
	KTEST_EXPECT(t, !mutex_is_locked(&test_mutex));
}

static uint64_t thread_slept;

static int sleeper_thread(void *data)
{
	uint64_t j = jiffies;

	(void)data;
	msleep(50);
	thread_slept = jiffies - j;
	nr_done++;
	return 0;
}

KTEST(sched, msleep_is_woken_by_the_tick)
{
	struct task_struct *s = kthread_create(sleeper_thread, NULL, "sleeper");
	uint64_t j = jiffies;

	msleep(50);
	KTEST_EXPECT(t, jiffies - j >= 5);
	KTEST_EXPECT(t, s != NULL);
	if (!s)
		return;
	nr_done = 0;
	wake_up_process(s);
	run_until_done(1);
	KTEST_EXPECT(t, thread_slept >= 5);
}

static int short_thread(void *data)
{
	(void)data;
	nr_done++;
	return 0;
}

static unsigned int spawn_batch(unsigned int n)
{
	struct task_struct *p;
	unsigned int i, made = 0;

	nr_done = 0;
	for (i = 0; i < n; i++) {
		p = kthread_create(short_thread, NULL, "short");
		if (p) {
			wake_up_process(p);
			made++;
		}
	}
	run_until_done(made);
	yield();
	return made;
}

KTEST(sched, exited_threads_are_freed)
{
	unsigned long threads = nr_threads, free_before;

	/* The first batch may split direct-map pages for guard pages: table
	 * pages that stay.  The second reuses the same blocks. */
	spawn_batch(32);
	free_before = nr_free_pages();
	KTEST_EXPECT_EQ(t, spawn_batch(32), 32);
	KTEST_EXPECT_EQ(t, nr_threads, threads);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
}

/* Recurse until the thread's stack runs into its guard page. */
__noinline unsigned long crash_kthread_stack_overflow_victim(unsigned long depth)
{
	volatile uint8_t frame[512];

	frame[0] = (uint8_t)depth;
	if (depth > (1ul << 30))
		return frame[0];
	return crash_kthread_stack_overflow_victim(depth + 1) + frame[0];
}

static int overflow_thread(void *data)
{
	(void)data;
	return (int)crash_kthread_stack_overflow_victim(0);
}

KTEST_CRASHER(crash, kthread_stack_overflow)
{
	struct task_struct *p = kthread_create(overflow_thread, NULL, "overflow");

	KTEST_EXPECT(t, p != NULL);
	if (!p)
		return;
	wake_up_process(p);
	yield();
}
