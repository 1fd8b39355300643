/*
 * TLB invalidation (Linux's asm/tlbflush.h names), and the one question the
 * page-table code asks about the CPU: are these tables the live ones?
 *
 * This header is the seam between mm/pgtable.c and the hardware.  Host unit
 * tests (HOST_TEST) run the same page-table code without a CPU to flush:
 * there each flush only counts itself in host_tlb_flushes, and the "live"
 * tables are whichever the test names in host_live_pgd.  The test defines
 * both variables.
 */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

#include <pageturn/types.h>

#ifndef HOST_TEST

#include <asm/cpu.h>
#include <asm/page.h>
#include <asm/pgtable.h>

/* Drop the TLB entry (of any page size, global or not) that translates va,
 * and every paging-structure cache entry. */
static inline void flush_tlb_one(unsigned long va)
{
	invlpg(va);
}

/*
 * Drop every TLB entry.  Reloading CR3 drops all but the global ones
 * (_PAGE_GLOBAL, honoured while CR4.PGE is set); turning CR4.PGE off and on
 * again drops all of them, so with PGE on that alone is the full flush.
 * Interrupts stay off in between so no handler runs with PGE off.
 */
static inline void flush_tlb_all(void)
{
	uint64_t flags = local_irq_save();
	uint64_t cr4 = read_cr4();

	if (cr4 & CR4_PGE) {
		write_cr4(cr4 & ~CR4_PGE);
		write_cr4(cr4);
	} else {
		write_cr3(read_cr3());
	}
	local_irq_restore(flags);
}

/* Whether pgd (the virtual address of a top-level table) is the one CR3
 * points at, so that changes to it must be flushed from this CPU's TLB. */
static inline bool pt_is_live(const uint64_t *pgd)
{
	return (read_cr3() & PTE_PFN_MASK) == virt_to_phys(pgd);
}

#else /* HOST_TEST */

extern unsigned long host_tlb_flushes;
extern const uint64_t *host_live_pgd;

static inline void flush_tlb_one(unsigned long va)
{
	(void)va;
	host_tlb_flushes++;
}

static inline void flush_tlb_all(void)
{
	host_tlb_flushes++;
}

static inline bool pt_is_live(const uint64_t *pgd)
{
	return pgd == host_live_pgd;
}

#endif /* HOST_TEST */

#endif
