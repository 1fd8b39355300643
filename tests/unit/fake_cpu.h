/*
 * A host stand-in for asm/cpu.h, for unit tests that compile kernel code
 * using its privileged instructions (kernel/exec.c): force-included with
 * -include, it defines the header's guard, so the real one is skipped.
 * wrmsr records the last FS base written; cpuid answers leaf 1 with a
 * fixed EDX (FAKE_HWCAP) and zeros.
 */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include <pageturn/types.h>

#define MSR_FS_BASE	0xC0000100
#define X86_EFLAGS_IF	(1ul << 9)
#define FAKE_HWCAP	0x178bfbffu

/* The last value written to MSR_FS_BASE (the test defines and resets it). */
extern uint64_t fake_fsbase_written;

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	if (msr == MSR_FS_BASE)
		fake_fsbase_written = v;
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c,
			 uint32_t *d)
{
	(void)leaf;
	(void)sub;
	*a = *b = *c = 0;
	*d = FAKE_HWCAP;
}

#endif
