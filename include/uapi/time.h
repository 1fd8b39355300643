/*
 * Time values and clocks of the x86-64 Linux ABI (linux/time_types.h,
 * linux/time.h, linux/times.h): the layouts clock_gettime, nanosleep,
 * gettimeofday, times and the *at() timestamp calls exchange with user
 * programs.  On x86-64 time_t, long and clock_t are all 64 bits.
 */
#ifndef PAGETURN_UAPI_TIME_H
#define PAGETURN_UAPI_TIME_H

#include <pageturn/types.h>

#define NSEC_PER_SEC	1000000000l
#define NSEC_PER_USEC	1000l
#define USEC_PER_SEC	1000000l

/* 16 bytes: seconds and nanoseconds (0 .. 999999999). */
struct timespec {
	int64_t tv_sec;
	long tv_nsec;
};

/* 16 bytes: seconds and microseconds (0 .. 999999). */
struct timeval {
	int64_t tv_sec;
	long tv_usec;
};

/* gettimeofday's obsolete time zone: always zero here, as on Linux. */
struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

/* times(2): CPU time in clock ticks (USER_HZ per second). */
struct tms {
	long tms_utime;
	long tms_stime;
	long tms_cutime;
	long tms_cstime;
};

/* The clocks clock_gettime, clock_getres and clock_nanosleep name. */
#define CLOCK_REALTIME			0	/* wall time, seconds since 1970 */
#define CLOCK_MONOTONIC			1	/* time since boot */
#define CLOCK_PROCESS_CPUTIME_ID	2	/* CPU time of the process */
#define CLOCK_THREAD_CPUTIME_ID		3	/* CPU time of the thread */
#define CLOCK_MONOTONIC_RAW		4	/* CLOCK_MONOTONIC without NTP slewing */
#define CLOCK_REALTIME_COARSE		5	/* CLOCK_REALTIME at tick resolution */
#define CLOCK_MONOTONIC_COARSE		6	/* CLOCK_MONOTONIC at tick resolution */
#define CLOCK_BOOTTIME			7	/* CLOCK_MONOTONIC plus time suspended */

/* clock_nanosleep flags: the request is a deadline, not an interval. */
#define TIMER_ABSTIME			0x01

#endif
