/* The 16550 UART on COM1: the console that is always there. */
#ifndef DRIVERS_SERIAL_H
#define DRIVERS_SERIAL_H

#include <pageturn/types.h>

void serial_init(void);
/* Poll for one received byte; -1 when none is waiting. */
int serial_getc_nowait(void);

#endif
