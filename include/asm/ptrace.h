/* The registers saved on the stack by an interrupt or exception entry
 * (kernel/entry.asm pushes them in this order). */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <pageturn/types.h>

struct pt_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector;
	uint64_t error_code;
	/* pushed by the CPU */
	uint64_t rip, cs, rflags, rsp, ss;
};

static inline bool user_mode(const struct pt_regs *regs) { return (regs->cs & 3) == 3; }

#endif
