/*
 * The wall clock: the PC's CMOS real-time clock (MC146818), read once at
 * boot, plus the monotonic clock since then (Linux's CLOCK_REALTIME with
 * no settimeofday and no NTP).  drivers/rtc.c explains the reading.
 *
 * The CMOS clock is taken to hold UTC, as QEMU's does by default
 * (-rtc base=utc) and as Linux assumes unless told otherwise.
 */
#ifndef DRIVERS_RTC_H
#define DRIVERS_RTC_H

#include <pageturn/types.h>

/*
 * Read the CMOS clock and fix the wall time of boot (ktime 0) from it.
 * Call once, after time_init() (it needs udelay and ktime_get_ns).  A
 * clock that does not answer or holds nonsense is reported and leaves
 * the wall clock counting from 1970-01-01.  Process context.
 */
void rtc_init(void);

/* CLOCK_REALTIME: nanoseconds since 1970-01-01 00:00:00 UTC, the boot's
 * wall time plus ktime_get_ns().  Any context. */
uint64_t ktime_get_real_ns(void);
/* The same in whole seconds (file timestamps, time(2)). */
uint64_t ktime_get_real_seconds(void);
/* The wall time of boot in seconds since the epoch (/proc/stat btime;
 * Linux's getboottime64).  0 before rtc_init(). */
uint64_t getboottime_seconds(void);

#endif
