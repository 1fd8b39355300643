/*
 * Resource limits and usage, x86-64 Linux (linux/resource.h,
 * asm-generic/resource.h): getrlimit/setrlimit/prlimit64's struct rlimit
 * and resource numbers, getrusage/wait4's struct rusage, and the
 * getpriority/setpriority selectors.
 */
#ifndef PAGETURN_UAPI_RESOURCE_H
#define PAGETURN_UAPI_RESOURCE_H

#include <uapi/time.h>

#define RLIMIT_CPU		0	/* CPU time, seconds */
#define RLIMIT_FSIZE		1	/* largest file written, bytes */
#define RLIMIT_DATA		2	/* data + heap size */
#define RLIMIT_STACK		3	/* stack size */
#define RLIMIT_CORE		4	/* core file size */
#define RLIMIT_RSS		5	/* resident set size */
#define RLIMIT_NPROC		6	/* processes of the user */
#define RLIMIT_NOFILE		7	/* open files: one more than the highest fd */
#define RLIMIT_MEMLOCK		8	/* mlock()ed memory */
#define RLIMIT_AS		9	/* address space size */
#define RLIMIT_LOCKS		10	/* file locks */
#define RLIMIT_SIGPENDING	11	/* queued signals */
#define RLIMIT_MSGQUEUE		12	/* POSIX message queue bytes */
#define RLIMIT_NICE		13	/* nice ceiling: 20 - limit */
#define RLIMIT_RTPRIO		14	/* real-time priority ceiling */
#define RLIMIT_RTTIME		15	/* real-time CPU time without a sleep, us */
#define RLIM_NLIMITS		16

#define RLIM_INFINITY		(~0ul)

/* 16 bytes: the soft limit (what is enforced) and the hard limit (the
 * most the soft one may be raised to). */
struct rlimit {
	unsigned long rlim_cur;
	unsigned long rlim_max;
};

/* getrusage(2)'s who. */
#define RUSAGE_SELF		0
#define RUSAGE_CHILDREN		(-1)	/* the waited-for descendants */
#define RUSAGE_THREAD		1

/* 144 bytes.  ru_maxrss is in KiB; the counters are events. */
struct rusage {
	struct timeval ru_utime;	/* user CPU time */
	struct timeval ru_stime;	/* system CPU time */
	long ru_maxrss;			/* peak resident set, KiB */
	long ru_ixrss;			/* unused on Linux: 0 */
	long ru_idrss;
	long ru_isrss;
	long ru_minflt;			/* page faults without I/O */
	long ru_majflt;			/* page faults with I/O */
	long ru_nswap;
	long ru_inblock;		/* block input operations */
	long ru_oublock;		/* block output operations */
	long ru_msgsnd;
	long ru_msgrcv;
	long ru_nsignals;
	long ru_nvcsw;			/* voluntary context switches */
	long ru_nivcsw;			/* involuntary context switches */
};

_Static_assert(sizeof(struct rusage) == 144, "struct rusage is 144 bytes on x86-64");

/* getpriority/setpriority's which. */
#define PRIO_PROCESS		0
#define PRIO_PGRP		1
#define PRIO_USER		2

/* Nice values. */
#define MIN_NICE		(-20)
#define MAX_NICE		19

#endif
