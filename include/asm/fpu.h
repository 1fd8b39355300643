/*
 * The x87/SSE register file of user programs (Linux's asm/fpu).  The
 * kernel is built -mgeneral-regs-only and never uses these registers, so
 * a task's FPU state only changes while it runs user code: the scheduler
 * saves it with FXSAVE when the task is switched out and restores it with
 * FXRSTOR when it is switched back in (kernel/sched.c), into a 512-byte,
 * 16-byte aligned area per process (task->fpu_state).
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <pageturn/types.h>

#define FXSAVE_SIZE	512
#define MXCSR_DEFAULT	0x1f80		/* all SSE exceptions masked, round to nearest */

struct task_struct;

static inline void fxsave(void *area)
{
	__asm__ volatile("fxsave64 (%0)" :: "r"(area) : "memory");
}

static inline void fxrstor(const void *area)
{
	__asm__ volatile("fxrstor64 (%0)" :: "r"(area) : "memory");
}

/* Boot: enable the FPU and SSE for user mode (CR0.MP, CR4.OSFXSR,
 * CR4.OSXMMEXCPT) and record the reset state every exec starts from. */
void fpu_init(void);

/* A new FPU area for task p: a copy of the running task's live registers
 * (fork) or the reset state when from is NULL.  0 or -ENOMEM. */
int fpu_alloc(struct task_struct *p, bool copy_current);

#endif
