/*
 * The system-call entry and the return to user mode (kernel/entry.asm,
 * kernel/syscall_64.c).
 */
#ifndef ASM_SYSCALL_H
#define ASM_SYSCALL_H

#include <asm/ptrace.h>

/* Program the SYSCALL MSRs (entry point, segments, flag mask). */
void syscall_init(void);

/* The kernel stack top the SYSCALL entry switches to: the running task's,
 * kept equal to TSS.RSP0 by tss_set_rsp0(). */
extern uint64_t syscall_kernel_rsp;

/* Before every return to user mode, interrupts on: switch away if the
 * time slice is used up, deliver pending signals.  Returns with
 * interrupts off. */
void exit_to_user_mode(struct pt_regs *regs);

/* Leave the kernel through regs, the frame at the top of the current
 * stack (kernel_execve's caller: the first process). */
__noreturn void ret_to_user_mode(struct pt_regs *regs);

#endif
