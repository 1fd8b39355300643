/*
 * fake_wait: the task and sleeping calls of pageturn/sched.h and
 * pageturn/wait.h that mm/filemap.c and mm/memory.c make, for host unit
 * tests.  A test is one thread: nothing could ever wake a sleeper.
 *
 *  - current is fake_task, a zeroed task (pid 1, "host-test") whose
 *    fields (min_flt, maj_flt, mm) the code under test reads and writes.
 *  - prepare_to_wait/finish_wait only set current's state; they do not
 *    queue the entry, so a test that longjmps out of a sleep (see
 *    schedule) leaves no dangling stack entry on a queue.  wake_up wakes
 *    nobody, as nobody can be asleep.
 *  - schedule() with current not TASK_RUNNING would sleep forever: it
 *    panics (kernel_stubs.c), which a test may expect.  The only sleeper
 *    the page cache and the fault code have is lock_page of a page that
 *    is already locked, so the message says so.
 *  - cond_resched and yield do nothing, msleep and congestion_wait only
 *    count their calls in fake_naps; kthread_create makes no thread (no
 *    test starts kswapd).
 */
#include <stddef.h>
#include <stdint.h>

#include <mm/backing-dev.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>
#include <pageturn/wait.h>

static struct task_struct fake_task = { .pid = 1, .comm = "host-test" };
struct task_struct *current = &fake_task;


void prepare_to_wait(wait_queue_head_t *wq, wait_queue_entry_t *wait, long state)
{
	(void)wq;
	(void)wait;
	set_current_state(state);
}

void finish_wait(wait_queue_head_t *wq, wait_queue_entry_t *wait)
{
	(void)wq;
	(void)wait;
	set_current_state(TASK_RUNNING);
}

void wake_up(wait_queue_head_t *wq)
{
	(void)wq;
}

void schedule(void)
{
	if (current->state != TASK_RUNNING) {
		current->state = TASK_RUNNING;
		panic("schedule: %s would sleep forever: nothing on the host can wake it "
		      "(lock_page of a page already locked?)", current->comm);
	}
}

void cond_resched(void)
{
}

struct task_struct *kthread_create(int (*fn)(void *data), void *data, const char *name)
{
	(void)fn;
	(void)data;
	(void)name;
	return NULL;
}

bool wake_up_process(struct task_struct *p)
{
	(void)p;
	return false;
}

unsigned long fake_naps;

void msleep(unsigned int ms)
{
	(void)ms;
	fake_naps++;
}

void congestion_wait(int rw, long timeout)
{
	(void)rw;
	(void)timeout;
	fake_naps++;
}

void yield(void)
{
}
