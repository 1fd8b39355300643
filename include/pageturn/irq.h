/* Hardware interrupts: legacy IRQ lines 0-15 through the remapped 8259 PIC. */
#ifndef PAGETURN_IRQ_H
#define PAGETURN_IRQ_H

#include <pageturn/types.h>

struct pt_regs;

#define NR_IRQS      16
#define IRQ_VECTOR0  32		/* IRQ n arrives on vector 32 + n */

typedef void (*irq_handler_t)(unsigned int irq, struct pt_regs *regs);

/* Install the handler of an IRQ line and unmask it.  -EINVAL for a bad
 * line, -EBUSY when it already has a handler. */
int request_irq(unsigned int irq, irq_handler_t handler, const char *name);

/* How many times IRQ line irq has fired. */
uint64_t irq_count(unsigned int irq);

/* Handlers running now (0 or 1: they run with interrupts off). */
extern unsigned int hardirq_count;

/* Is the CPU running an interrupt handler, not a task (Linux's
 * in_interrupt)?  current is then whoever was interrupted. */
static inline bool in_interrupt(void)
{
	return hardirq_count != 0;
}

/* Called from the interrupt entry for vectors 32..47. */
void do_irq(struct pt_regs *regs);

#endif
