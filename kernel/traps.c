/*
 * The IDT and exception handling.
 *
 * Vectors 0-31 are the CPU's exceptions, 32-47 the PIC's IRQ lines.  Every
 * vector enters through kernel/entry.asm and lands in trap_dispatch() with
 * a struct pt_regs.  Policy:
 *   - a page fault goes to do_page_fault (mm/fault.c): demand paging and
 *     copy-on-write for user addresses, -EFAULT for a uaccess routine,
 *     SIGSEGV/SIGBUS for a bad user access, an oops for a kernel bug;
 *   - any other exception in user mode is the program's: it gets the
 *     signal Linux sends (#DE -> SIGFPE, #UD -> SIGILL, #GP -> SIGSEGV,
 *     ...), whose default action kills it with one console line;
 *   - #BP (int3) in kernel mode is counted and resumed: the kernel's own
 *     breakpoints;
 *   - every other exception in kernel mode is a kernel bug: die() prints
 *     the vector's name, error code, CR2 for page faults, all registers and
 *     a backtrace, then stops.
 * Before an interrupt or exception returns to user mode,
 * exit_to_user_mode() switches tasks and delivers signals.
 * Double fault, NMI and machine check run on their own IST stacks (see
 * kernel/gdt.c), so a blown kernel stack still gives a report.
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <mm/mmap.h>
#include <pageturn/irq.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/signal.h>

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

/* The signal and si_code a user-mode exception sends (Linux's). */
static const struct {
	int sig, code;
} user_trap_signals[NR_EXCEPTIONS] = {
	[X86_TRAP_DE] = { SIGFPE, FPE_INTDIV },
	[X86_TRAP_DB] = { SIGTRAP, SI_KERNEL },
	[X86_TRAP_BP] = { SIGTRAP, SI_KERNEL },
	[X86_TRAP_OF] = { SIGSEGV, SI_KERNEL },
	[X86_TRAP_BR] = { SIGSEGV, SI_KERNEL },
	[X86_TRAP_UD] = { SIGILL, ILL_ILLOPN },
	[X86_TRAP_NP] = { SIGBUS, SI_KERNEL },
	[X86_TRAP_SS] = { SIGBUS, SI_KERNEL },
	[X86_TRAP_GP] = { SIGSEGV, SI_KERNEL },
	[X86_TRAP_MF] = { SIGFPE, SI_KERNEL },
	[X86_TRAP_AC] = { SIGBUS, BUS_ADRALN },
	[X86_TRAP_XF] = { SIGFPE, SI_KERNEL },
};

/* Called from common_entry with interrupts disabled. */
void trap_dispatch(struct pt_regs *regs)
{
	if (regs->vector >= IRQ_VECTOR0) {
		do_irq(regs);
	} else if (regs->vector == X86_TRAP_PF) {
		do_page_fault(regs, read_cr2(), regs->error_code);
	} else if (user_mode(regs) && user_trap_signals[regs->vector].sig) {
		force_sig_fault(user_trap_signals[regs->vector].sig,
				user_trap_signals[regs->vector].code, regs->rip);
	} else if (regs->vector == X86_TRAP_BP && !user_mode(regs)) {
		nr_breakpoints++;
		printk(KERN_DEBUG "traps: int3 at %p, resuming\n", (void *)regs->rip);
	} else {
		die(trap_name(regs->vector), regs);
	}
	if (user_mode(regs))
		exit_to_user_mode(regs);
}
