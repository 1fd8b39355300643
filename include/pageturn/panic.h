/*
 * panic(): the kernel found a bug in itself and stops.  It prints the
 * message, the registers and a symbolised backtrace on every console, then
 * halts, or leaves QEMU with the panic code when tests are running.
 * Never call it for bad user input: return an error instead.
 */
#ifndef PAGETURN_PANIC_H
#define PAGETURN_PANIC_H

#include <pageturn/types.h>

struct pt_regs;

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
/* A fault in kernel mode: report `what` with the faulting registers. */
__noreturn void die(const char *what, const struct pt_regs *regs);

void show_regs(const struct pt_regs *regs);
void show_backtrace(uint64_t rip, uint64_t rbp);
void dump_stack(void);

#define BUG_ON(cond) do { \
	if (unlikely(cond)) \
		panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond); \
} while (0)

#endif
