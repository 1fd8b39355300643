/*
 * CPU time accounting (Linux's include/linux/kernel_stat.h, one CPU):
 * where the timer ticks went, for /proc/stat, /proc/uptime and each
 * task's utime/stime.  kernel/sys.c keeps the counters.
 *
 * Linux counts nanoseconds; Pageturn counts ticks (1/HZ s, HZ = USER_HZ
 * = 100), which is also the unit /proc/stat prints.
 */
#ifndef PAGETURN_KERNEL_STAT_H
#define PAGETURN_KERNEL_STAT_H

#include <pageturn/types.h>

struct task_struct;

/* The columns of /proc/stat's cpu lines, in their order (Linux's enum). */
enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_SOFTIRQ,
	CPUTIME_IRQ,
	CPUTIME_IDLE,
	CPUTIME_IOWAIT,
	CPUTIME_STEAL,
	CPUTIME_GUEST,
	CPUTIME_GUEST_NICE,
	NR_STATS
};

struct kernel_cpustat {
	uint64_t cpustat[NR_STATS];	/* ticks */
};

/* The CPU's ticks by kind since boot (Linux's kcpustat_cpu(0)).  Only
 * account_process_tick() changes it, from the timer interrupt. */
extern struct kernel_cpustat kcpustat;

/* Context switches since boot (/proc/stat "ctxt"; Linux's
 * rq->nr_switches): schedule() adds one each time it runs another task. */
extern uint64_t nr_switches;

/*
 * Account one timer tick to p, the task it interrupted (Linux's
 * account_process_tick): user_tick says the CPU was in user mode.  A
 * user tick goes to p->utime and CPUTIME_USER; a kernel tick to
 * p->stime and CPUTIME_SYSTEM, except that a tick that finds the CPU
 * halted with nothing runnable (cpu_halted: the idle loop, or a task
 * waiting in schedule()) is CPUTIME_IDLE.  It also enforces RLIMIT_CPU
 * (SIGXCPU at the soft limit and each second past it, SIGKILL at the
 * hard one).  Interrupt context.
 */
void account_process_tick(struct task_struct *p, bool user_tick);

#endif
