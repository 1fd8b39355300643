/*
 * IRQ dispatch.  Each of the 16 legacy lines has at most one handler.
 * do_irq() is entered with interrupts off from trap_dispatch(); it drops
 * spurious IRQs, runs the handler and sends the EOI.  hardirq_count is
 * 1 while a handler runs (handlers never nest: interrupts stay off), so
 * in_interrupt() tells the allocator it must not sleep or touch the
 * interrupted task's reserves.  An IRQ without a
 * handler is masked and reported once (it should never be unmasked).
 */
#include <asm/ptrace.h>
#include <drivers/pic.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

struct irq_desc {
	irq_handler_t handler;
	const char *name;
	uint64_t count;
};

static struct irq_desc irq_descs[NR_IRQS];

unsigned int hardirq_count;

int request_irq(unsigned int irq, irq_handler_t handler, const char *name)
{
	if (irq >= NR_IRQS || !handler)
		return -EINVAL;
	if (irq_descs[irq].handler)
		return -EBUSY;
	irq_descs[irq].handler = handler;
	irq_descs[irq].name = name;
	pic_unmask(irq);
	return 0;
}

uint64_t irq_count(unsigned int irq)
{
	return irq < NR_IRQS ? irq_descs[irq].count : 0;
}

void do_irq(struct pt_regs *regs)
{
	unsigned int irq = regs->vector - IRQ_VECTOR0;
	struct irq_desc *desc = &irq_descs[irq];

	if (pic_is_spurious(irq))
		return;
	desc->count++;
	if (desc->handler) {
		hardirq_count++;
		desc->handler(irq, regs);
		hardirq_count--;
	} else {
		pic_mask(irq);
		printk(KERN_WARNING "irq: IRQ %u has no handler, masked\n", irq);
	}
	pic_eoi(irq);
}
