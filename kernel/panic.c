/*
 * panic() and die(): how the kernel reports a bug in itself.
 *
 * Both print, on every console and whatever the log level, a header, all
 * registers and a backtrace whose frames are named from the kernel's
 * embedded symbol table.  The backtrace follows the frame-pointer chain
 * (the kernel is built with -fno-omit-frame-pointer): [rbp] is the caller's
 * rbp and [rbp + 8] the return address.  A frame is followed only while
 * rbp is 8-aligned, mapped in the live page tables, and moves up the stack
 * by less than a stack's size, so a corrupt chain (or a stack pointer in a
 * guard page) ends the walk rather than faulting.  A fault during the report stops the CPU at once.
 *
 * gcc gives no frame to a leaf function that does not touch the stack, so
 * when such a function faults its caller is not on the chain.  For faults
 * the word at the faulting rsp is then that caller's return address: if it
 * is a kernel text address it is printed marked "?", as Linux marks
 * entries it could not prove.
 *
 * Afterwards the CPU halts with interrupts off; when tests are running
 * (`test=` on the command line) QEMU is left with QEMU_EXIT_PANIC so the
 * harness sees the panic at once.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <mm/pgtable.h>
#include <mm/slab.h>
#include <drivers/qemu_exit.h>
#include <pageturn/cmdline.h>
#include <pageturn/kallsyms.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>

#define BACKTRACE_MAX_FRAMES 32

extern const char __text_start[], __text_end[];

static bool kernel_text(uint64_t addr)
{
	return addr >= (uint64_t)__text_start && addr < (uint64_t)__text_end;
}

/* Whether the 8-byte word at addr can be read without faulting: mapped in
 * the live page tables (a stack pointer may sit in a guard page). */
static bool word_readable(uint64_t addr)
{
	const pte_t *pgd = phys_to_virt(read_cr3() & PTE_PFN_MASK);

	return addr >= PAGE_OFFSET && IS_ALIGNED(addr, 8) &&
	       pt_lookup(pgd, addr, NULL, NULL, NULL) == 0;
}
#define STACK_SPAN_MAX (64ul * 1024)

static int panic_depth;

static __printf(1, 2) void report(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	console_write_all(buf, n);
}

static void report_symbol(const char *prefix, uint64_t addr, uint64_t lookup)
{
	uint64_t off;
	const char *name = kallsyms_lookup(lookup, &off);

	if (name)
		report("%s[<%016lx>] %s+0x%lx\n", prefix, addr, name, off + (addr - lookup));
	else
		report("%s[<%016lx>] ?\n", prefix, addr);
}

/* Follow the frame-pointer chain from rbp, printing each return address. */
static void show_frames(uint64_t rbp)
{
	uint64_t start = rbp;
	int i;

	for (i = 0; i < BACKTRACE_MAX_FRAMES; i++) {
		const uint64_t *frame = (const uint64_t *)rbp;
		uint64_t ret, next;

		if (!word_readable(rbp) || !word_readable(rbp + 8) || rbp - start > STACK_SPAN_MAX)
			break;
		next = frame[0];
		ret = frame[1];
		if (!kernel_text(ret))
			break;
		/* Look up ret - 1: a call may be the last instruction of a function. */
		report_symbol("  ", ret, ret - 1);
		if (next <= rbp)
			break;
		rbp = next;
	}
}

void show_backtrace(uint64_t rip, uint64_t rbp)
{
	report("Call Trace:\n");
	report_symbol("  ", rip, rip);
	show_frames(rbp);
}

/* The backtrace of a faulting context: see the note on leaf functions. */
static void show_exception_backtrace(const struct pt_regs *regs)
{
	uint64_t top = 0, frame_ret = 0;

	if (word_readable(regs->rsp))
		top = *(const uint64_t *)regs->rsp;
	if (word_readable(regs->rbp + 8))
		frame_ret = ((const uint64_t *)regs->rbp)[1];
	if (kernel_text(top) && top != frame_ret) {
		report("Call Trace:\n");
		report_symbol("  ", regs->rip, regs->rip);
		report_symbol("  ? ", top, top - 1);
		show_frames(regs->rbp);
		return;
	}
	show_backtrace(regs->rip, regs->rbp);
}

void show_regs(const struct pt_regs *r)
{
	uint64_t off;
	const char *fn = kallsyms_lookup(r->rip, &off);

	if (fn)
		report("RIP: %04lx:%016lx <%s+0x%lx>\n", r->cs, r->rip, fn, off);
	else
		report("RIP: %04lx:%016lx\n", r->cs, r->rip);
	report("RSP: %04lx:%016lx EFLAGS: %08lx\n", r->ss, r->rsp, r->rflags);
	report("RAX: %016lx RBX: %016lx RCX: %016lx\n", r->rax, r->rbx, r->rcx);
	report("RDX: %016lx RSI: %016lx RDI: %016lx\n", r->rdx, r->rsi, r->rdi);
	report("RBP: %016lx R08: %016lx R09: %016lx\n", r->rbp, r->r8, r->r9);
	report("R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	report("R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	report("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

/* Enter the report; a second entry means the report itself faulted. */
static void panic_enter(void)
{
	cli();
	if (panic_depth++) {
		static const char msg[] = "\n*** fault while reporting a panic: halting ***\n";

		if (panic_depth == 2)
			console_write_all(msg, sizeof(msg) - 1);
		halt_forever();
	}
}

static __noreturn void panic_finish(void)
{
	report("---[ end Kernel panic ]---\n");
	if (cmdline_has("test"))
		qemu_exit(QEMU_EXIT_PANIC);
	halt_forever();
}

static void describe_page_fault(const struct pt_regs *regs)
{
	uint64_t ec = regs->error_code;

	report("BUG: unable to handle page fault for address: %016lx\n", read_cr2());
	report("#PF: %s %s access in %s mode\n",
	       ec & X86_PF_INSTR ? "instruction fetch" : "data",
	       ec & X86_PF_WRITE ? "write" : "read",
	       ec & X86_PF_USER ? "user" : "kernel");
	report("#PF: error_code(0x%04lx) - %s%s\n", ec,
	       ec & X86_PF_PROT ? "permissions violation" : "not-present page",
	       ec & X86_PF_RSVD ? ", reserved bit set" : "");
}

/*
 * Name the registers (and, for a page fault, CR2) that hold slab poison:
 * a fault on 0x6b6b6b6b6b6b6b6b is a pointer read from a freed object.
 */
static void show_poison_hints(const struct pt_regs *r)
{
	const struct { const char *name; uint64_t value; } vals[] = {
		{ "RAX", r->rax }, { "RBX", r->rbx }, { "RCX", r->rcx }, { "RDX", r->rdx },
		{ "RSI", r->rsi }, { "RDI", r->rdi }, { "RBP", r->rbp }, { "R08", r->r8 },
		{ "R09", r->r9 }, { "R10", r->r10 }, { "R11", r->r11 }, { "R12", r->r12 },
		{ "R13", r->r13 }, { "R14", r->r14 }, { "R15", r->r15 },
		{ "CR2", r->vector == X86_TRAP_PF ? read_cr2() : 0 },
	};

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		const char *hint = slab_poison_hint(vals[i].value);

		if (hint)
			report("%s %016lx is %s\n", vals[i].name, vals[i].value, hint);
	}
}

__noreturn void die(const char *what, const struct pt_regs *regs)
{
	panic_enter();
	report("\n");
	if (regs->vector == X86_TRAP_PF)
		describe_page_fault(regs);
	report("Oops: %s, error code 0x%lx, in %s mode\n", what, regs->error_code,
	       user_mode(regs) ? "user" : "kernel");
	show_regs(regs);
	show_poison_hints(regs);
	show_exception_backtrace(regs);
	report("Kernel panic - not syncing: Fatal exception: %s\n", what);
	panic_finish();
}

__noreturn void panic(const char *fmt, ...)
{
	struct pt_regs regs;
	char buf[256];
	va_list ap;

	save_regs(&regs);
	panic_enter();
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	report("\nKernel panic - not syncing: %s\n", buf);
	show_regs(&regs);
	show_backtrace(regs.rip, regs.rbp);
	panic_finish();
}

void dump_stack(void)
{
	struct pt_regs regs;

	save_regs(&regs);
	show_backtrace(regs.rip, regs.rbp);
}
