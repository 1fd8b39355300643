/*
 * QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4,iosize=4):
 * writing v to the port ends QEMU with exit status (v << 1) | 1.
 * On real hardware nothing answers at the port and the caller halts.
 */
#ifndef DRIVERS_QEMU_EXIT_H
#define DRIVERS_QEMU_EXIT_H

#include <pageturn/types.h>

#define QEMU_EXIT_PORT  0xf4
#define QEMU_EXIT_PASS  0x10	/* QEMU exits with 33 */
#define QEMU_EXIT_FAIL  0x11	/* 35 */
#define QEMU_EXIT_PANIC 0x12	/* 37 */

__noreturn void qemu_exit(uint8_t code);

#endif
