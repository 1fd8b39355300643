/*
 * Time: a periodic tick at HZ drives `jiffies`; the TSC, calibrated
 * against the PIT at boot, gives a nanosecond clock since boot.
 */
#ifndef PAGETURN_TIME_H
#define PAGETURN_TIME_H

#include <pageturn/types.h>
#include <uapi/time.h>

#define HZ 100
#define TICK_NSEC	(NSEC_PER_SEC / HZ)	/* nanoseconds in a tick */

extern volatile uint64_t jiffies;
extern uint64_t tsc_khz;

void time_init(void);
uint64_t ktime_get_ns(void);		/* nanoseconds since boot */
void udelay(uint64_t us);
void mdelay(uint64_t ms);

/* Ticks as a struct timeval (Linux's jiffies_to_timeval). */
static inline void jiffies_to_timeval(uint64_t j, struct timeval *tv)
{
	tv->tv_sec = (long)(j / HZ);
	tv->tv_usec = (long)(j % HZ * (USEC_PER_SEC / HZ));
}

/* Is ts a time a system call may take: non-negative, nanoseconds below
 * a second (Linux's timespec64_valid)? */
static inline bool timespec_valid(const struct timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < NSEC_PER_SEC;
}

#endif
