/*
 * The kernel side of resource limits and usage (Linux's
 * include/linux/resource.h and task_rlimit): what getrlimit, getrusage
 * and wait4 share.  kernel/sys.c implements them; the user ABI is in
 * uapi/resource.h.
 */
#ifndef PAGETURN_RESOURCE_H
#define PAGETURN_RESOURCE_H

#include <uapi/resource.h>

struct task_struct;

/* getrusage's who for wait4: the task's own usage plus its children's. */
#define RUSAGE_BOTH	(-2)

/*
 * The limits every process starts with (Linux's INIT_RLIMITS, with
 * Pageturn's sizes): the stack at STACK_RLIMIT_DEFAULT (what
 * expand_stack allows), open files at NR_OPEN (the size of the fd
 * table), queued signals at _NSIG (pending signals are a mask: one of
 * each), Linux's values for core (0), memlock, msgqueue, nice and
 * rtprio, and no limit for the rest.
 */
extern const struct rlimit init_rlimits[RLIM_NLIMITS];

/* The soft limit resource (RLIMIT_*) of p, or RLIM_INFINITY for an
 * unknown resource.  Any context. */
unsigned long task_rlimit(const struct task_struct *p, unsigned int resource);

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
