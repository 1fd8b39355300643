/* The 16550 UART on COM1: the console that is always there. */
#ifndef DRIVERS_SERIAL_H
#define DRIVERS_SERIAL_H

#include <pageturn/types.h>

struct tty_struct;

/* Set up COM1 (115200 8N1, FIFOs) and register it as a console: the
 * first thing kmain does. */
void serial_init(void);
/* Poll for one received byte; -1 when none is waiting.  Only before
 * serial_start_rx(): afterwards the interrupt takes every byte. */
int serial_getc_nowait(void);
/*
 * From now on deliver every received byte to tty's line discipline, from
 * the receive interrupt (IRQ 4).  0, -ENODEV when no UART answers, or
 * request_irq's error.  Once, process context, interrupts on.
 */
int serial_start_rx(struct tty_struct *tty);

#endif
