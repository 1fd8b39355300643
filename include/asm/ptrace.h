/*
 * The registers saved on the kernel stack at every entry into the kernel
 * (kernel/entry.asm pushes them in this order): an interrupt or exception
 * (vector, the CPU's error code or 0), or a system call, which builds the
 * same frame with vector SYSCALL_VECTOR and the call's number in orig_ax,
 * as Linux keeps it for restarting the call after a signal.
 * A frame for an entry from user mode sits at the top of the task's
 * kernel stack: task_pt_regs() (pageturn/sched.h).
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <pageturn/types.h>

/* The vector field of a system call's frame (no IDT vector uses it). */
#define SYSCALL_VECTOR 0x100

struct pt_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector;
	union {
		uint64_t error_code;	/* exceptions */
		uint64_t orig_ax;	/* system calls: the number, -1 once handled */
	};
	/* pushed by the CPU (built by the syscall entry) */
	uint64_t rip, cs, rflags, rsp, ss;
};

static inline bool user_mode(const struct pt_regs *regs) { return (regs->cs & 3) == 3; }

/* Was this frame built by a system call (Linux: syscall_get_nr >= 0)? */
static inline bool in_syscall(const struct pt_regs *regs)
{
	return regs->vector == SYSCALL_VECTOR && (int64_t)regs->orig_ax >= 0;
}

#endif
