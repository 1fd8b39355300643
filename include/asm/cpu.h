/* Control registers, MSRs, CPUID, TSC and interrupt-flag helpers. */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include <pageturn/types.h>

#define CR0_PE   (1ul << 0)
#define CR0_WP   (1ul << 16)
#define CR0_PG   (1ul << 31)
#define CR4_PAE  (1ul << 5)
#define CR4_PGE  (1ul << 7)

#define MSR_EFER        0xC0000080
#define MSR_FS_BASE     0xC0000100
#define MSR_GS_BASE     0xC0000101
#define EFER_LME        (1ul << 8)
#define EFER_NXE        (1ul << 11)

/* rflags bits (Linux's names) */
#define X86_EFLAGS_CF   (1ul << 0)
#define X86_EFLAGS_PF   (1ul << 2)
#define X86_EFLAGS_AF   (1ul << 4)
#define X86_EFLAGS_ZF   (1ul << 6)
#define X86_EFLAGS_SF   (1ul << 7)
#define X86_EFLAGS_TF   (1ul << 8)
#define X86_EFLAGS_IF   (1ul << 9)
#define X86_EFLAGS_DF   (1ul << 10)
#define X86_EFLAGS_OF   (1ul << 11)
#define X86_EFLAGS_NT   (1ul << 14)
#define X86_EFLAGS_RF   (1ul << 16)
#define X86_EFLAGS_AC   (1ul << 18)

#define DEFINE_READ_CR(n) \
	static inline uint64_t read_cr##n(void) \
	{ uint64_t v; __asm__ volatile("mov %%cr" #n ", %0" : "=r"(v)); return v; }
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline void write_cr0(uint64_t v) { __asm__ volatile("mov %0, %%cr0" :: "r"(v) : "memory"); }
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t read_rflags(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void hlt(void) { __asm__ volatile("hlt" ::: "memory"); }
static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }
static inline void invlpg(uint64_t va) { __asm__ volatile("invlpg (%0)" :: "r"(va) : "memory"); }

/* Save the interrupt flag and disable interrupts; restore it later. */
static inline uint64_t local_irq_save(void)
{
	uint64_t f = read_rflags();
	cli();
	return f;
}

static inline void local_irq_restore(uint64_t flags)
{
	if (flags & X86_EFLAGS_IF)
		sti();
}

/* `sti; hlt`: the instruction after sti still runs with interrupts off,
 * so no interrupt can slip in between the caller's check and the halt. */
static inline void safe_halt(void)
{
	__asm__ volatile("sti; hlt" ::: "memory");
}

/* Halt this CPU for good (interrupts off). */
static inline __noreturn void halt_forever(void)
{
	for (;;) {
		cli();
		hlt();
	}
}

#endif
