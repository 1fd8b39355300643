/*
 * The exception table (Linux's asm/extable.h): instructions allowed to
 * fault, each with the address to resume at when they do.
 *
 * Only the user-copy routines of kernel/lib/usercopy.asm have entries:
 * each instruction there that touches user memory is listed with its
 * fixup, which makes the routine return what it could not do.  The
 * assembler puts the entries in section __ex_table; linker.ld gathers them
 * between __start___ex_table and __stop___ex_table.  Addresses are
 * absolute (Linux stores 32-bit offsets to save space; the table here has
 * a handful of entries).
 *
 * The page-fault handler (mm/fault.c) looks up the faulting rip of every
 * kernel-mode fault: a fault at a user address from a listed instruction
 * is first resolved as a user access would be (demand paging, stack
 * growth, copy-on-write), and only if that fails does it resume at the
 * fixup.  A fault anywhere else in the kernel is a bug.
 */
#ifndef ASM_EXTABLE_H
#define ASM_EXTABLE_H

#include <pageturn/types.h>

struct exception_table_entry {
	unsigned long insn;	/* the instruction that may fault */
	unsigned long fixup;	/* where to resume when it does */
};

/* The fixup for a fault at rip, or 0 when rip may not fault.  Any
 * context. */
unsigned long search_exception_tables(unsigned long rip);

#endif
