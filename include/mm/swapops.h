/*
 * Swap entries (Linux's include/linux/swapops.h and the x86-64 part of
 * asm/pgtable_64.h): where a page's data is on swap, and the two places
 * that keep one when the page is not in memory.
 *
 * swp_entry_t is a type (the swap area, swap_info[type], 0 to
 * MAX_SWAPFILES - 1) and an offset (the slot in it, in pages).  Slot 0 of
 * every area is its header and never handed out, so no entry in use has
 * offset 0.  The arch-independent form packs the type in the top bits of
 * val, the offset in the rest:
 *
 *   val:  | type (5 bits) | 0 0 | offset (57 bits) |
 *          63          59  58 57 56              0
 *
 * The two zero bits are room for the radix-tree form below (Linux 3.1
 * made the same room for the same reason).
 *
 * In a page table.  A PTE with _PAGE_PRESENT clear is ignored by the CPU,
 * so the other bits may hold an entry.  The encoding must never be taken
 * for another kind of PTE this kernel has (mm/memory.c):
 *
 *   none       0
 *   present    bit 0 (_PAGE_PRESENT)
 *   PROT_NONE  bit 8 (_PAGE_PROTNONE), bit 0 clear
 *   swap       bit 0 and bit 8 clear, type in bits 1-5, offset from bit 9
 *
 *   pte:  | 0 | offset (54 bits) | 0 (PROTNONE) | 0 0 | type | 0 (PRESENT) |
 *          63  62              9        8         7  6  5   1      0
 *
 * Linux 2.6.28 put the type in bits 1-6 and the offset at bit 8, where
 * its PROT_NONE bit was not; Pageturn's PROT_NONE is the global bit 8
 * (as Linux's has been since 2.6.24 on x86), so the offset starts at bit
 * 9, as Linux's swap PTEs do from 2.6.29 (SWP_OFFSET_SHIFT, before the
 * 4.18 L1TF inversion).  Bit 63 (NX) stays clear.  A swap PTE is never 0
 * because its offset is never 0, and never pte_mapped() (present or
 * PROT_NONE) because bits 0 and 8 are clear: every walker that skips
 * PTEs that map nothing skips it too.  The largest offset a PTE can say,
 * 2^54 - 1, bounds an area's size (mm/swapfile.c).
 *
 * In tmpfs's index.  A tmpfs file's pages live in its mapping's page_tree
 * (mm/shmem.c); when one is swapped out, the entry takes its place in the
 * same slot, as a radix-tree exceptional entry (Linux 3.1's
 * swp_to_radix_entry): val shifted left by RADIX_TREE_EXCEPTIONAL_SHIFT
 * with RADIX_TREE_EXCEPTIONAL_ENTRY set, a value no struct page pointer
 * has (they are 8-byte aligned).  Linux 2.6.28 kept tmpfs's entries in a
 * second tree of its own (the i_direct and indirect pages of
 * shmem_inode_info); one tree that holds either the page or its entry is
 * simpler here, where the page cache already holds the pages.
 */
#ifndef MM_SWAPOPS_H
#define MM_SWAPOPS_H

#include <asm/pgtable.h>
#include <mm/pgtable.h>
#include <pageturn/radix-tree.h>
#include <pageturn/types.h>

/* Swap areas: 32 types, all for swap (Linux keeps the last 2 for
 * migration entries; Pageturn has no page migration). */
#define MAX_SWAPFILES_SHIFT	5
#define MAX_SWAPFILES		(1 << MAX_SWAPFILES_SHIFT)

typedef struct {
	unsigned long val;
} swp_entry_t;

#define SWP_TYPE_SHIFT		(64 - (MAX_SWAPFILES_SHIFT + RADIX_TREE_EXCEPTIONAL_SHIFT))
#define SWP_OFFSET_MASK		((1ul << SWP_TYPE_SHIFT) - 1)

static inline swp_entry_t swp_entry(unsigned long type, pgoff_t offset)
{
	swp_entry_t e = { (type << SWP_TYPE_SHIFT) | (offset & SWP_OFFSET_MASK) };

	return e;
}

static inline unsigned int swp_type(swp_entry_t entry)
{
	return entry.val >> SWP_TYPE_SHIFT;
}

static inline pgoff_t swp_offset(swp_entry_t entry)
{
	return entry.val & SWP_OFFSET_MASK;
}

/* ---- the x86-64 PTE form ------------------------------------------------ */

#define SWP_TYPE_FIRST_BIT	1
#define SWP_TYPE_BITS		MAX_SWAPFILES_SHIFT
#define SWP_OFFSET_SHIFT	(_PAGE_BIT_PROTNONE + 1)
#define SWP_PTE_OFFSET_BITS	(63 - SWP_OFFSET_SHIFT)

static inline pte_t swp_entry_to_pte(swp_entry_t entry)
{
	return ((pte_t)swp_type(entry) << SWP_TYPE_FIRST_BIT) |
	       ((pte_t)(swp_offset(entry) & ((1ul << SWP_PTE_OFFSET_BITS) - 1)) << SWP_OFFSET_SHIFT);
}

/* Called only for a PTE that is_swap_pte(). */
static inline swp_entry_t pte_to_swp_entry(pte_t pte)
{
	return swp_entry((pte >> SWP_TYPE_FIRST_BIT) & ((1u << SWP_TYPE_BITS) - 1),
			 (pte >> SWP_OFFSET_SHIFT) & ((1ul << SWP_PTE_OFFSET_BITS) - 1));
}

/* Does the PTE hold a swap entry: neither none (0) nor mapping a page,
 * present or PROT_NONE (mm/internal.h's pte_mapped)?  Linux 2.6.28's
 * is_swap_pte, without its pte_file test: Pageturn has no nonlinear file
 * PTEs. */
static inline bool is_swap_pte(pte_t pte)
{
	return pte != 0 && !(pte & (_PAGE_PRESENT | _PAGE_PROTNONE));
}

/* ---- the radix-tree form (tmpfs's index) -------------------------------- */

static inline void *swp_to_radix_entry(swp_entry_t entry)
{
	return (void *)((entry.val << RADIX_TREE_EXCEPTIONAL_SHIFT) | RADIX_TREE_EXCEPTIONAL_ENTRY);
}

/* Called only for an item that radix_tree_exceptional_entry(). */
static inline swp_entry_t radix_to_swp_entry(void *arg)
{
	swp_entry_t e = { (unsigned long)arg >> RADIX_TREE_EXCEPTIONAL_SHIFT };

	return e;
}

#endif
