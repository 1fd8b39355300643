/*
 * Segments and descriptor tables.  The GDT follows Linux x86-64's layout so
 * that SYSCALL/SYSRET and user mode (later issues) use Linux's selectors:
 *
 *   index 1  0x08  kernel 32-bit code (unused)
 *   index 2  0x10  __KERNEL_CS
 *   index 3  0x18  __KERNEL_DS
 *   index 4  0x23  __USER32_CS
 *   index 5  0x2b  __USER_DS
 *   index 6  0x33  __USER_CS
 *   index 8  0x40  TSS (16 bytes)
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <pageturn/types.h>

#define __KERNEL_CS   0x10
#define __KERNEL_DS   0x18
#define __USER32_CS   0x23
#define __USER_DS     0x2b
#define __USER_CS     0x33
#define GDT_TSS_SEL   0x40

/* Interrupt stack table slots (1-based, as the IDT encodes them). */
#define IST_DOUBLE_FAULT 1
#define IST_NMI          2
#define IST_MACHINE_CHECK 3
#define IST_STACK_SIZE   8192	/* a multiple of PAGE_SIZE */

void gdt_init(void);
/* Point IDT vector at handler, with interrupt gate semantics, the given
 * IST slot (0 = none) and privilege (0 or 3 for `int n` from user mode). */
void idt_set_gate(unsigned int vector, void *handler, unsigned int ist, unsigned int dpl);
void idt_load(void);

/* The stack the CPU switches to on an interrupt or exception from user
 * mode (TSS.RSP0): the running task's kernel stack top (kernel/sched.c). */
void tss_set_rsp0(uint64_t rsp0);

/* The guard pages under the kernel's stacks (boot stack, IST stacks):
 * fills guards with their addresses, returns how many. */
unsigned int kernel_stack_guards(uint64_t *guards, unsigned int max);

#endif
