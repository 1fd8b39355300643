/* Exceptions: the IDT and the dispatcher every vector enters through. */
#ifndef ASM_TRAPS_H
#define ASM_TRAPS_H

#include <pageturn/types.h>

struct pt_regs;

#define X86_TRAP_DE   0	/* divide error */
#define X86_TRAP_DB   1
#define X86_TRAP_NMI  2
#define X86_TRAP_BP   3	/* breakpoint (int3) */
#define X86_TRAP_OF   4
#define X86_TRAP_BR   5
#define X86_TRAP_UD   6	/* invalid opcode */
#define X86_TRAP_NM   7
#define X86_TRAP_DF   8	/* double fault */
#define X86_TRAP_TS  10
#define X86_TRAP_NP  11
#define X86_TRAP_SS  12
#define X86_TRAP_GP  13	/* general protection */
#define X86_TRAP_PF  14	/* page fault */
#define X86_TRAP_MF  16
#define X86_TRAP_AC  17
#define X86_TRAP_MC  18
#define X86_TRAP_XF  19
#define NR_EXCEPTIONS 32

/* Page-fault error code bits. */
#define X86_PF_PROT  (1u << 0)	/* 0: page not present */
#define X86_PF_WRITE (1u << 1)
#define X86_PF_USER  (1u << 2)
#define X86_PF_RSVD  (1u << 3)
#define X86_PF_INSTR (1u << 4)

void trap_init(void);
/* The vector's name, e.g. "Page Fault (#PF)". */
const char *trap_name(unsigned int vector);
void save_regs(struct pt_regs *regs);

/* How many int3 breakpoints the kernel has taken and resumed from. */
extern uint64_t nr_breakpoints;

#endif
