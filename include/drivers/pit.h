/* The 8253/8254 programmable interval timer (1.193182 MHz). */
#ifndef DRIVERS_PIT_H
#define DRIVERS_PIT_H

#include <pageturn/types.h>

#define PIT_TICK_RATE 1193182u

/* Channel 0: a periodic interrupt (IRQ 0) at hz. */
void pit_start_periodic(unsigned int hz);
/* Count TSC cycles over ms milliseconds (1-54: the counter has 16 bits)
 * timed by channel 2, polled, no interrupts needed.  Returns the cycle
 * count, or 0 for a bad ms or when the PIT never finished (no PIT). */
uint64_t pit_measure_tsc(unsigned int ms);

#endif
