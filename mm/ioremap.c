/*
 * ioremap: device memory (a PCI memory BAR) made reachable by the kernel
 * (Linux's x86 ioremap, reduced).  The range is mapped uncached (UC-) at
 * its place in the direct map, phys_to_virt(phys), in 4 KiB pages.  The
 * direct map's top-level entry for the low 512 GiB exists from boot and
 * every process's page tables share it, so the new lower-level entries
 * are seen everywhere.  Pages already mapped there (the boot's early
 * mappings, or a second ioremap of the same BAR) are kept as they are.
 * Mappings are never taken down: drivers keep their devices for good.
 */
#include <asm/io.h>
#include <asm/page.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

static phys_addr_t ioremap_table_alloc(void *ctx)
{
	struct page *page = alloc_page(GFP_KERNEL);

	(void)ctx;
	return page ? page_to_phys(page) : 0;
}

static void ioremap_table_free(phys_addr_t pa, void *ctx)
{
	(void)ctx;
	__free_page(pfn_to_page(pa >> PAGE_SHIFT));
}

static const struct pt_allocator ioremap_tables = {
	.alloc = ioremap_table_alloc,
	.free = ioremap_table_free,
};

void *ioremap(phys_addr_t phys, size_t size)
{
	phys_addr_t pa = ALIGN_DOWN(phys, PAGE_SIZE), end = ALIGN_UP(phys + size, PAGE_SIZE);
	int err;

	if (!size || end <= pa)
		return NULL;
	for (; pa < end; pa += PAGE_SIZE) {
		unsigned long va = (unsigned long)phys_to_virt(pa);

		if (pt_lookup(init_pgd, va, NULL, NULL, NULL) == 0)
			continue;
		err = pt_map(init_pgd, va, pa, PAGE_SIZE, PAGE_KERNEL_NOCACHE, PG_LEVEL_4K,
			     &ioremap_tables);
		if (err) {
			printk(KERN_ERR "ioremap: cannot map [mem %#lx-%#lx]: error %d\n",
			       (unsigned long)phys, (unsigned long)(phys + size - 1), err);
			return NULL;
		}
	}
	return phys_to_virt(phys);
}
