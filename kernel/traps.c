/*
 * The IDT and exception handling.
 *
 * Vectors 0-31 are the CPU's exceptions, 32-47 the PIC's IRQ lines.  Every
 * vector enters through kernel/entry.asm and lands in trap_dispatch() with
 * a struct pt_regs.  Policy, for now that there is no user mode:
 *   - #BP (int3) is counted and resumed: the kernel's own breakpoints;
 *   - every other exception in kernel mode is a kernel bug: die() prints
 *     the vector's name, error code, CR2 for page faults, all registers and
 *     a backtrace, then stops.
 * Double fault, NMI and machine check run on their own IST stacks (see
 * kernel/gdt.c), so a blown kernel stack still gives a report.
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <pageturn/irq.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>

struct idt_entry {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __packed;

#define IDT_INTERRUPT_GATE 0x8e	/* present, DPL 0, 64-bit interrupt gate */
#define NR_STUBS (IRQ_VECTOR0 + NR_IRQS)

static struct idt_entry idt[256] __aligned(16);
extern void *isr_stub_table[NR_STUBS];

uint64_t nr_breakpoints;

static const char *const exception_names[NR_EXCEPTIONS] = {
	[0] = "Divide Error (#DE)",
	[1] = "Debug (#DB)",
	[2] = "Non-Maskable Interrupt (NMI)",
	[3] = "Breakpoint (#BP)",
	[4] = "Overflow (#OF)",
	[5] = "BOUND Range Exceeded (#BR)",
	[6] = "Invalid Opcode (#UD)",
	[7] = "Device Not Available (#NM)",
	[8] = "Double Fault (#DF)",
	[9] = "Coprocessor Segment Overrun",
	[10] = "Invalid TSS (#TS)",
	[11] = "Segment Not Present (#NP)",
	[12] = "Stack-Segment Fault (#SS)",
	[13] = "General Protection (#GP)",
	[14] = "Page Fault (#PF)",
	[15] = "Reserved (vector 15)",
	[16] = "x87 Floating-Point Error (#MF)",
	[17] = "Alignment Check (#AC)",
	[18] = "Machine Check (#MC)",
	[19] = "SIMD Floating-Point Exception (#XM)",
	[20] = "Virtualization Exception (#VE)",
	[21] = "Control Protection (#CP)",
	[22] = "Reserved (vector 22)",
	[23] = "Reserved (vector 23)",
	[24] = "Reserved (vector 24)",
	[25] = "Reserved (vector 25)",
	[26] = "Reserved (vector 26)",
	[27] = "Reserved (vector 27)",
	[28] = "Hypervisor Injection (#HV)",
	[29] = "VMM Communication (#VC)",
	[30] = "Security Exception (#SX)",
	[31] = "Reserved (vector 31)",
};

const char *trap_name(unsigned int vector)
{
	if (vector < NR_EXCEPTIONS)
		return exception_names[vector];
	if (vector < NR_STUBS)
		return "Hardware Interrupt";
	return "Unknown Vector";
}

void idt_set_gate(unsigned int vector, void *handler, unsigned int ist, unsigned int dpl)
{
	uint64_t addr = (uint64_t)handler;
	struct idt_entry *e = &idt[vector];

	e->offset_low = addr & 0xffff;
	e->selector = __KERNEL_CS;
	e->ist = ist & 7;
	e->type_attr = IDT_INTERRUPT_GATE | ((dpl & 3) << 5);
	e->offset_mid = (addr >> 16) & 0xffff;
	e->offset_high = addr >> 32;
	e->reserved = 0;
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed idtr = { sizeof(idt) - 1, (uint64_t)idt };

	__asm__ volatile("lidt %0" :: "m"(idtr));
}

void trap_init(void)
{
	unsigned int v;

	for (v = 0; v < NR_STUBS; v++)
		idt_set_gate(v, isr_stub_table[v], 0, 0);
	idt_set_gate(X86_TRAP_DF, isr_stub_table[X86_TRAP_DF], IST_DOUBLE_FAULT, 0);
	idt_set_gate(X86_TRAP_NMI, isr_stub_table[X86_TRAP_NMI], IST_NMI, 0);
	idt_set_gate(X86_TRAP_MC, isr_stub_table[X86_TRAP_MC], IST_MACHINE_CHECK, 0);
	idt_load();
}

/* Called from common_entry with interrupts disabled. */
void trap_dispatch(struct pt_regs *regs)
{
	if (regs->vector >= IRQ_VECTOR0) {
		do_irq(regs);
		return;
	}
	if (regs->vector == X86_TRAP_BP && !user_mode(regs)) {
		nr_breakpoints++;
		printk(KERN_DEBUG "traps: int3 at %p, resuming\n", (void *)regs->rip);
		return;
	}
	die(trap_name(regs->vector), regs);
}
