/*
 * Tasks and the scheduler (Linux's include/linux/sched.h and
 * kernel/kthread.c names), for one CPU.  kernel/sched.c explains the
 * design: kernel threads, a round-robin run queue, and no preemption
 * inside the kernel (CONFIG_PREEMPT_NONE).
 */
#ifndef PAGETURN_SCHED_H
#define PAGETURN_SCHED_H

#include <asm/page.h>
#include <pageturn/list.h>
#include <pageturn/types.h>

/* Task states (Linux's values). */
#define TASK_RUNNING		0	/* running, or on the run queue */
#define TASK_INTERRUPTIBLE	1	/* asleep; no signals yet, so as below */
#define TASK_UNINTERRUPTIBLE	2	/* asleep until wake_up_process() */
#define TASK_DEAD		64	/* exited; freed by the next task */

#define TASK_COMM_LEN	16
#define THREAD_ORDER	2			/* a kernel stack: 4 pages... */
#define THREAD_SIZE	(PAGE_SIZE << THREAD_ORDER)	/* ...of which the lowest is the guard */
#define SCHED_TIMESLICE	10			/* ticks before need_resched */

struct task_struct {
	uint64_t thread_rsp;		/* saved rsp while switched out: offset 0, see switch.asm */
	int pid;
	char comm[TASK_COMM_LEN];
	volatile long state;
	void *stack;			/* lowest address of the stack block (guard page), or NULL */
	uint64_t stack_top;		/* TSS.RSP0 while this task runs */
	struct list_head run_list;	/* on the run queue; empty when not queued */
	struct list_head timer_list;	/* on the msleep list; empty when not sleeping there */
	uint64_t wakeup_jiffies;	/* msleep: when timer_list ends */
	unsigned int time_slice;	/* ticks left */
	volatile bool need_resched;	/* switch at the next explicit point */
	int (*threadfn)(void *data);
	void *data;
};

/* The running task; &init_task (pid 0, "swapper": kmain) at boot. */
extern struct task_struct *current;
extern struct task_struct init_task;

#define set_current_state(s) (current->state = (s))

/* Give up the CPU: run the next task on the run queue, round-robin.
 * current goes back on the queue when its state is TASK_RUNNING, else
 * sleeps until wake_up_process().  Process context only; returns with
 * the interrupt flag as it was. */
void schedule(void);

/* schedule() with current staying runnable: let the others run once. */
void yield(void);

/* schedule() if the tick said current's time slice is used up (or a
 * wakeup asked for it).  Long kernel loops call it. */
void cond_resched(void);

/* Make p runnable (queue it); false when it was runnable already or dead.
 * Any context, interrupts on or off. */
bool wake_up_process(struct task_struct *p);

/*
 * A new kernel thread running fn(data), named name (cut to 15 chars), not
 * yet runnable: wake_up_process() starts it.  It exits when fn returns; the
 * task and its stack are freed by the task that runs after it.  NULL when
 * out of memory.  Process context, interrupts on.
 */
struct task_struct *kthread_create(int (*fn)(void *data), void *data, const char *name);

/* Sleep for at least ms milliseconds (a tick's granularity).  Any task,
 * the idle task included; process context. */
void msleep(unsigned int ms);

/* Called on every timer interrupt: time slices and msleep wakeups. */
void scheduler_tick(void);

/* kmain's end: the idle task runs whatever is runnable, else halts. */
__noreturn void cpu_idle(void);

/* Tasks created and not yet freed (for tests). */
extern unsigned long nr_threads;

#endif
