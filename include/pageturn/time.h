/*
 * Time: a periodic tick at HZ drives `jiffies`; the TSC, calibrated
 * against the PIT at boot, gives a nanosecond clock since boot.
 */
#ifndef PAGETURN_TIME_H
#define PAGETURN_TIME_H

#include <pageturn/types.h>

#define HZ 100

extern volatile uint64_t jiffies;
extern uint64_t tsc_khz;

void time_init(void);
uint64_t ktime_get_ns(void);		/* nanoseconds since boot */
void udelay(uint64_t us);
void mdelay(uint64_t ms);

#endif
