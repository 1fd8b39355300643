/*
 * early_memremap(): reach physical ranges before the memory manager exists.
 *
 * State: the boot page tables (boot/boot.asm) map physical 0..4 GiB at
 * PAGE_OFFSET with 2 MiB pages.  A range inside that needs no work.  A
 * range above 4 GiB (a framebuffer on a large machine, boot information)
 * gets 2 MiB mappings added to the same direct map, so phys_to_virt() stays
 * the one rule: virtual = physical + PAGE_OFFSET.  The page directories for
 * those come from a small static pool; when it runs out, the call fails.
 *
 * Invariant: an entry is only ever added, never changed, so earlier
 * mappings stay valid.  mm_init() replaces these tables with the kernel's
 * own and maps the recorded ranges there.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <mm/early_ioremap.h>

#define EARLY_PD_POOL  4	/* 4 x 1 GiB of extra direct map */
#define DIRECT_MAP_MAX (1ull << PGDIR_SHIFT)	/* one PML4 slot: 512 GiB */
#define BOOT_MAPPED    (4ull << 30)

static uint64_t pd_pool[EARLY_PD_POOL][PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static unsigned int pd_pool_used;
static struct early_mapping mappings[EARLY_MAPPINGS_MAX];
static unsigned int nr_mappings;

const struct early_mapping *early_memremap_mappings(unsigned int *n)
{
	*n = nr_mappings;
	return mappings;
}

static uint64_t *table_of(uint64_t entry)
{
	return phys_to_virt(entry & PTE_PFN_MASK);
}

void *early_memremap(phys_addr_t phys, size_t size)
{
	uint64_t *pml4 = phys_to_virt(read_cr3() & PTE_PFN_MASK);
	uint64_t *pdpt, pa, end = phys + size;
	uint64_t nx = rdmsr(MSR_EFER) & EFER_NXE ? _PAGE_NX : 0;

	if (size == 0 || end < phys || end > DIRECT_MAP_MAX || nr_mappings == EARLY_MAPPINGS_MAX)
		return NULL;
	if (end <= BOOT_MAPPED)
		goto mapped;

	pdpt = table_of(pml4[pgd_index(PAGE_OFFSET)]);
	for (pa = ALIGN_DOWN(phys, PMD_SIZE); pa < end; pa += PMD_SIZE) {
		uint64_t *pud = &pdpt[pud_index(pa)];
		uint64_t *pd;

		if (!(*pud & _PAGE_PRESENT)) {
			if (pd_pool_used == EARLY_PD_POOL)
				return NULL;
			*pud = virt_to_phys(pd_pool[pd_pool_used++]) | _PAGE_PRESENT | _PAGE_RW;
		}
		pd = table_of(*pud);
		if (!(pd[pmd_index(pa)] & _PAGE_PRESENT)) {
			pd[pmd_index(pa)] = pa | _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE | nx;
			invlpg((uint64_t)phys_to_virt(pa));
		}
	}
mapped:
	mappings[nr_mappings].phys = phys;
	mappings[nr_mappings].size = size;
	nr_mappings++;
	return phys_to_virt(phys);
}
