/* Page-table entry bits (x86-64 4-level paging), with Linux's names. */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <pageturn/types.h>

#define _PAGE_PRESENT  (1ull << 0)
#define _PAGE_RW       (1ull << 1)
#define _PAGE_USER     (1ull << 2)
#define _PAGE_PWT      (1ull << 3)
#define _PAGE_PCD      (1ull << 4)
#define _PAGE_ACCESSED (1ull << 5)
#define _PAGE_DIRTY    (1ull << 6)
#define _PAGE_PSE      (1ull << 7)	/* large page in a PMD or PUD entry */
#define _PAGE_GLOBAL   (1ull << 8)
#define _PAGE_NX       (1ull << 63)
/* Only in a non-present user PTE: a PROT_NONE PTE, which still maps its
 * page (Linux's name and, as Linux's since 2.6.24, the global bit, which
 * means nothing in a non-present entry; mm/memory.c). */
#define _PAGE_BIT_PROTNONE 8
#define _PAGE_PROTNONE (1ull << _PAGE_BIT_PROTNONE)
#define PTE_PFN_MASK   0x000ffffffffff000ull

#define PTRS_PER_TABLE 512
#define PGDIR_SHIFT    39
#define PUD_SHIFT      30

static inline unsigned int pgd_index(uint64_t va) { return (va >> PGDIR_SHIFT) & 511; }
static inline unsigned int pud_index(uint64_t va) { return (va >> PUD_SHIFT) & 511; }
static inline unsigned int pmd_index(uint64_t va) { return (va >> 21) & 511; }

#endif
