/*
 * The x86 page-fault handler (Linux's arch/x86/mm/fault.c, v2.6.28) and
 * the exception table it consults.
 *
 * A #PF reports the address (CR2) and an error code: was the page present
 * (X86_PF_PROT), was it a write, an instruction fetch, from user mode.
 * Each fault ends in exactly one of these ways:
 *
 *   resolved    the address lies in a VMA of the current process that
 *               allows the access (after growing a VM_GROWSDOWN stack
 *               down to it): handle_mm_fault (mm/memory.c) maps the page,
 *               and the faulting instruction runs again;
 *   signal      from user mode, when it cannot be resolved: SIGSEGV with
 *               SEGV_MAPERR (nothing mapped there) or SEGV_ACCERR (the
 *               mapping forbids the access, or a kernel address), SIGBUS
 *               with BUS_ADRERR (a file page past the end of the file);
 *               the task meets it on its way back to user mode;
 *   fixup       from a user-copy routine of the kernel (its rip is in the
 *               exception table) at a user address, when it cannot be
 *               resolved, or at once when the task has page faults
 *               disabled (pagefault_disable): the routine resumes at its
 *               fixup and reports the bytes it did not copy
 *               (asm/uaccess.h);
 *   oops        any other kernel-mode fault, and any fault with a reserved
 *               bit set in a page-table entry, is a kernel bug: die()
 *               prints the report traps.c prints for every other
 *               exception, and the kernel stops.
 *
 * Out of memory.  When handle_mm_fault cannot allocate (VM_FAULT_OOM),
 * the allocator has already run the OOM killer and given up (mm/oom_kill.c,
 * mm/page_alloc.c).  pagefault_out_of_memory runs it once more, as Linux
 * 2.6.29 does: if it kills another process (the one whose death frees
 * the most, not necessarily this one), the fault is retried (a return
 * without a change: the instruction faults again, from user mode or from
 * a user-copy routine).  If current is itself dying, or nothing else may
 * be killed and current is killed instead (the line "Out of memory:
 * killing pid N (comm)" and a forced SIGKILL, which ends it before it
 * runs user code again, init included: do_exit then panics, where Linux
 * panics "System is deadlocked on memory"), the fault is not retried:
 * from a user-copy routine the fixup runs, so the system call returns
 * -EFAULT on the way to the kill.

 * The handler runs on the faulting task's kernel stack and may sleep
 * (a file read): it turns interrupts on when the faulting context had
 * them on, as Linux does, and off again before it returns to the entry
 * code.  It decides what is a kernel bug before that, while CR2 still
 * belongs to this fault.
 */
#include <asm/cpu.h>
#include <asm/extable.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/uaccess.h>
#include <mm/mmap.h>
#include <mm/oom.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>

/* linker.ld: the entries of every object's __ex_table section. */
extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

/* How far below the user stack pointer an access may still grow the stack:
 * the 64 KiB plus 32 words an "enter" or "pusha" may touch (Linux's
 * rule). */
#define STACK_GUARD_SLACK	(65536 + 32 * sizeof(unsigned long))

unsigned long search_exception_tables(unsigned long rip)
{
	const struct exception_table_entry *e;

	for (e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == rip)
			return e->fixup;
	return 0;
}

/*
 * Does vma forbid the access the error code describes?  Linux's
 * access_error: a write needs VM_WRITE, an instruction fetch VM_EXEC; a
 * read of a present page never faults legitimately; a read of a missing
 * one needs any access at all (x86 cannot map write-only or execute-only
 * pages).
 */
static bool access_error(unsigned long error_code, const struct vm_area_struct *vma)
{
	if (error_code & X86_PF_WRITE)
		return !(vma->vm_flags & VM_WRITE);
	if (error_code & X86_PF_INSTR)
		return !(vma->vm_flags & VM_EXEC);
	if (error_code & X86_PF_PROT)
		return true;
	return !(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC));
}

/* What a fault that could not be resolved does: a signal from user mode,
 * the fixup (fixup) from a user-copy routine. */
static void bad_area(struct pt_regs *regs, unsigned long fixup, int sig, int code,
		     unsigned long address)
{
	if (user_mode(regs))
		force_sig_fault(sig, code, address);
	else
		regs->rip = fixup;
}

/*
 * A fault at a user address, or from user mode at any address, with
 * interrupts as the faulting context had them.  fixup is the exception
 * table's entry for a kernel-mode fault (0 for a user-mode one).
 */
static void __do_page_fault(struct pt_regs *regs, unsigned long address,
			    unsigned long error_code, unsigned long fixup)
{
	struct mm_struct *mm = current->mm;
	bool user = user_mode(regs);
	struct vm_area_struct *vma;
	unsigned int flags = 0;
	int fault;

	if (address >= TASK_SIZE) {
		bad_area(regs, fixup, SIGSEGV,
			 error_code & X86_PF_PROT ? SEGV_ACCERR : SEGV_MAPERR, address);
		return;
	}
	vma = mm ? find_vma(mm, address) : NULL;
	if (!vma) {
		bad_area(regs, fixup, SIGSEGV, SEGV_MAPERR, address);
		return;
	}
	if (address < vma->vm_start) {
		if (!(vma->vm_flags & VM_GROWSDOWN) ||
		    (user && address + STACK_GUARD_SLACK < regs->rsp) ||
		    expand_stack(vma, address)) {
			bad_area(regs, fixup, SIGSEGV, SEGV_MAPERR, address);
			return;
		}
	}
	if (access_error(error_code, vma)) {
		bad_area(regs, fixup, SIGSEGV, SEGV_ACCERR, address);
		return;
	}

	if (error_code & X86_PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (error_code & X86_PF_INSTR)
		flags |= FAULT_FLAG_INSTR;
	if (user)
		flags |= FAULT_FLAG_USER;
	fault = handle_mm_fault(mm, vma, address, flags);
	if (fault & VM_FAULT_OOM) {
		if (!pagefault_out_of_memory() && !user)
			regs->rip = fixup;
	} else if (fault & VM_FAULT_SIGBUS) {
		bad_area(regs, fixup, SIGBUS, BUS_ADRERR, address);
	} else if (fault & VM_FAULT_SIGSEGV) {
		bad_area(regs, fixup, SIGSEGV, SEGV_ACCERR, address);
	}
}

/*
 * Called by the #PF vector (traps.c) with the entry's interrupts off;
 * returns with them off.  See the top of the file.
 */
void do_page_fault(struct pt_regs *regs, unsigned long address, unsigned long error_code)
{
	unsigned long fixup = 0;

	if (error_code & X86_PF_RSVD)
		die(trap_name(regs->vector), regs);
	if (!user_mode(regs)) {
		fixup = search_exception_tables(regs->rip);
		if (!fixup || address >= TASK_SIZE)
			die(trap_name(regs->vector), regs);
	}
	if (fixup && faulthandler_disabled()) {
		regs->rip = fixup;
		return;
	}
	if (regs->rflags & X86_EFLAGS_IF)
		sti();
	__do_page_fault(regs, address, error_code, fixup);
	cli();
}
