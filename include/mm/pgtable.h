/*
 * Page tables for x86-64 4-level paging: map, unmap, change protection and
 * look up ranges of one address space.  mm/pgtable.c explains the tables and
 * states each function's full contract; the summaries here are short.
 *
 * An address space is named by its top-level table, the PGD (Intel's PML4):
 * `pte_t *pgd` is the virtual address (direct map or kernel image) of that
 * 4 KiB page, like Linux's mm->pgd.  The kernel's tables and, later, each
 * process's go through the same functions.
 *
 * Table pages come from a caller-supplied struct pt_allocator, so boot code
 * can hand out pages from its early allocator, later code from the buddy
 * allocator, and host tests from a fake physical memory.
 *
 * Virtual addresses are unsigned long, physical ones phys_addr_t, and a
 * protection is a plain uint64_t of _PAGE_* bits (Linux: pgprot_t).
 */
#ifndef MM_PGTABLE_H
#define MM_PGTABLE_H

#include <asm/page.h>
#include <asm/pgtable.h>

/*
 * One entry, at any of the four levels.  Linux has pgd_t, pud_t, pmd_t and
 * pte_t; the format is the same at every level, so here there is one type
 * and the level is said separately (enum pg_level).
 */
typedef uint64_t pte_t;

#define PTE_FLAGS_MASK	(~PTE_PFN_MASK)

/* An entry that points at a table (Linux's names).  Never _PAGE_NX, and
 * _PAGE_USER when a user page lies below, so the leaf alone decides. */
#define _KERNPG_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY)
#define _PAGE_TABLE	(_KERNPG_TABLE | _PAGE_USER)

/* Protections for leaves (Linux's names and bits).  Kernel pages are
 * global: they stay in the TLB across CR3 switches. */
#define PAGE_KERNEL_EXEC	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | \
				 _PAGE_DIRTY | _PAGE_GLOBAL)
#define PAGE_KERNEL		(PAGE_KERNEL_EXEC | _PAGE_NX)
#define PAGE_KERNEL_RO		(PAGE_KERNEL & ~_PAGE_RW)
#define PAGE_KERNEL_RX		(PAGE_KERNEL_EXEC & ~_PAGE_RW)
#define PAGE_KERNEL_NOCACHE	(PAGE_KERNEL | _PAGE_PCD)	/* UC-: device memory */
#define PAGE_SHARED		(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED | _PAGE_NX)
#define PAGE_SHARED_EXEC	(PAGE_SHARED & ~_PAGE_NX)
#define PAGE_READONLY		(PAGE_SHARED & ~_PAGE_RW)
#define PAGE_READONLY_EXEC	(PAGE_READONLY & ~_PAGE_NX)

/*
 * The _PAGE_* bits this CPU supports (Linux's name).  Every protection
 * pt_map() and pt_protect() are given is ANDed with it.  All bits are set
 * until init code clears what the CPU lacks: _PAGE_NX when EFER.NXE is off
 * (NX in an entry would then be a reserved-bit fault).
 */
extern uint64_t __supported_pte_mask;

/* The size an entry maps, by the level of its table (Linux's enum). */
enum pg_level {
	PG_LEVEL_4K = 1,	/* PTE */
	PG_LEVEL_2M,		/* PMD */
	PG_LEVEL_1G,		/* PUD */
	PG_LEVEL_512G,		/* PGD */
};

static inline unsigned int page_level_shift(enum pg_level level)
{
	return PAGE_SHIFT + 9 * (level - PG_LEVEL_4K);
}

static inline unsigned long page_level_size(enum pg_level level)
{
	return 1ul << page_level_shift(level);
}

/* The index of va's entry in a table of the given level. */
static inline unsigned int pt_index(unsigned long va, enum pg_level level)
{
	return (va >> page_level_shift(level)) & (PTRS_PER_TABLE - 1);
}

/*
 * Where table pages come from.  alloc returns the physical address of a
 * 4 KiB page (need not be zeroed: pgtable.c zeroes it through phys_to_virt(),
 * so it must lie in the direct map), or 0 when out of memory.  free takes
 * back a page alloc gave.  ctx is passed to both.
 */
struct pt_allocator {
	phys_addr_t (*alloc)(void *ctx);
	void (*free)(phys_addr_t pa, void *ctx);
	void *ctx;
};

/* The kernel's page tables (mm/init.c; Linux: init_mm.pgd). */
extern pte_t *init_pgd;

/* A new, empty top-level table, or NULL when out of memory. */
pte_t *pt_alloc_pgd(const struct pt_allocator *alloc);

/* Map [va, va+size) to [pa, pa+size) with prot, in pages up to max_level
 * in size.  All or nothing: 0, -EINVAL, -EEXIST or -ENOMEM. */
int pt_map(pte_t *pgd, unsigned long va, phys_addr_t pa, unsigned long size,
	   uint64_t prot, enum pg_level max_level, const struct pt_allocator *alloc);

/* Unmap whatever is mapped in [va, va+size); free emptied tables.
 * 0, -EINVAL or -ENOMEM (splitting a large page). */
int pt_unmap(pte_t *pgd, unsigned long va, unsigned long size,
	     const struct pt_allocator *alloc);

/* Give the mapped pages in [va, va+size) protection prot.
 * 0, -EINVAL or -ENOMEM (splitting a large page). */
int pt_protect(pte_t *pgd, unsigned long va, unsigned long size, uint64_t prot,
	       const struct pt_allocator *alloc);

/* Translate va: physical address, effective protection and page size.
 * 0, -ENOENT (not mapped) or -EINVAL.  Any output may be NULL. */
int pt_lookup(const pte_t *pgd, unsigned long va, phys_addr_t *pa,
	      uint64_t *prot, enum pg_level *level);

/* The entry that maps or would map va (a large leaf, or a PTE), creating
 * missing tables when alloc is not NULL; NULL when it cannot. */
pte_t *pt_walk(pte_t *pgd, unsigned long va, uint64_t prot,
	       const struct pt_allocator *alloc, enum pg_level *level);

#endif
