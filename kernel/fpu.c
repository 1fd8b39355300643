/*
 * The FPU and SSE for user programs (see asm/fpu.h for when the registers
 * are saved).  A process's area is created at fork as a copy of the
 * parent's live registers, reset to init_fpstate at exec, and freed with
 * the task.  Kernel threads have none: a switch to one leaves the last
 * process's registers in the CPU, which is harmless because nothing in the
 * kernel reads them and the next process switched in restores its own.
 */
#include <asm/cpu.h>
#include <asm/fpu.h>
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define CR0_MP	(1ul << 1)	/* WAIT/FWAIT honours TS */
#define CR0_EM	(1ul << 2)	/* x87 emulation: must be off */
#define CR0_TS	(1ul << 3)
#define CR4_OSFXSR	(1ul << 9)	/* FXSAVE/FXRSTOR and SSE enabled */
#define CR4_OSXMMEXCPT	(1ul << 10)	/* SSE exceptions raise #XM */

static uint8_t init_fpstate[FXSAVE_SIZE] __aligned(16);

void fpu_init(void)
{
	uint32_t mxcsr = MXCSR_DEFAULT;

	write_cr0((read_cr0() | CR0_MP) & ~(CR0_EM | CR0_TS));
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	__asm__ volatile("fninit; ldmxcsr %0" :: "m"(mxcsr));
	fxsave(init_fpstate);
}

int fpu_alloc(struct task_struct *p, bool copy_current)
{
	void *area = kmalloc(FXSAVE_SIZE, GFP_KERNEL);

	if (!area)
		return -ENOMEM;
	if ((uintptr_t)area & 15)
		panic("fpu_alloc: kmalloc returned %p, not 16-byte aligned", area);
	if (copy_current && current->fpu_state)
		fxsave(area);
	else
		memcpy(area, init_fpstate, FXSAVE_SIZE);
	p->fpu_state = area;
	return 0;
}

void fpu_reset(struct task_struct *t)
{
	memcpy(t->fpu_state, init_fpstate, FXSAVE_SIZE);
	if (t == current)
		fxrstor(t->fpu_state);
}
