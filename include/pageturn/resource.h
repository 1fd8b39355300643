/*
 * The kernel side of resource limits and usage (Linux's
 * include/linux/resource.h and task_rlimit): what getrlimit, getrusage
 * and wait4 share.  kernel/sys.c implements them; the user ABI is in
 * uapi/resource.h.
 */
#ifndef PAGETURN_RESOURCE_H
#define PAGETURN_RESOURCE_H

#include <pageturn/sched.h>
#include <uapi/resource.h>

struct seq_file;

_Static_assert(ARRAY_SIZE(init_task.rlim) == RLIM_NLIMITS,
	       "task_struct's rlim has one entry per resource");

/* getrusage's who for wait4: the task's own usage plus its children's. */
#define RUSAGE_BOTH	(-2)

/*
 * The limits PID 1 starts with, and every process after it by fork
 * (Linux's INIT_RLIMITS, with Pageturn's sizes): the stack at
 * STACK_RLIMIT_DEFAULT, open files at NR_OPEN (the size of the fd table,
 * which is also the most RLIMIT_NOFILE may be set to: Linux's nr_open),
 * queued signals at _NSIG (pending signals are a mask: one of each),
 * Linux's values for core (0), memlock, msgqueue, nice and rtprio, and
 * no limit for the rest.  Kernel threads have these too (task_rlimit).
 */
extern const struct task_rlimit init_rlimits[RLIM_NLIMITS];

/*
 * The soft limit of resource (RLIMIT_*) for p, or RLIM_INFINITY for an
 * unknown resource: p's own table for a process, init_rlimits' for a
 * kernel thread (init_task, and kthread_create's threads other than
 * PID 1), whose table stays zero.  Any context.
 */
unsigned long task_rlimit(const struct task_struct *p, unsigned int resource);

/*
 * /proc/PID/limits (Linux's proc_pid_limits; in kernel/sys.c): a header and one line per
 * resource with the soft and hard limits ("unlimited" for
 * RLIM_INFINITY) and the unit, in Linux's columns.  Any task; 0.
 */
int proc_pid_limits(struct seq_file *m, struct task_struct *task);

/*
 * Fill r with p's resource usage: who is RUSAGE_SELF (or RUSAGE_THREAD)
 * for p itself, RUSAGE_CHILDREN for its reaped children, RUSAGE_BOTH
 * for the sum (wait4's report on a child it reaps).  Times come from
 * the tick counts utime/stime, cutime/cstime; faults from min_flt and
 * maj_flt; ru_maxrss from the mm's hiwater_rss (in KiB).  Process
 * context.
 */
void getrusage(struct task_struct *p, int who, struct rusage *r);

#endif
