/*
 * Interval timers, getitimer(2) and setitimer(2) (Linux's
 * include/uapi/linux/time.h): it_value is the time to the next expiry
 * (zero: disarmed), it_interval the period it is re-armed with (zero:
 * once).
 */
#ifndef PAGETURN_UAPI_ITIMER_H
#define PAGETURN_UAPI_ITIMER_H

#include <uapi/time.h>

#define ITIMER_REAL	0	/* wall time: SIGALRM */
#define ITIMER_VIRTUAL	1	/* user CPU time: SIGVTALRM */
#define ITIMER_PROF	2	/* user and system CPU time: SIGPROF */

struct itimerval {
	struct timeval it_interval;
	struct timeval it_value;
};

#endif
