/*
 * Early mappings of physical ranges (device memory such as a framebuffer,
 * or boot structures) before the memory manager builds the kernel's page
 * tables.  The boot tables already map 0..4 GiB at PAGE_OFFSET; above that,
 * mm/early_ioremap.c adds 2 MiB mappings into the direct map from a small
 * static pool of page tables.
 */
#ifndef MM_EARLY_IOREMAP_H
#define MM_EARLY_IOREMAP_H

#include <pageturn/types.h>

#define EARLY_MAPPINGS_MAX 16

struct early_mapping {
	phys_addr_t phys;
	size_t size;
};

/* The direct-map address of [phys, phys+size), or NULL when the pool of
 * boot page tables is exhausted, the range is beyond the direct map, or
 * more than EARLY_MAPPINGS_MAX ranges were asked for.  Only before
 * mm_init() switches to the kernel page tables. */
void *early_memremap(phys_addr_t phys, size_t size);

/* The ranges early_memremap() handed out, so that mm_init() maps them in
 * the kernel page tables too; *n gets their number. */
const struct early_mapping *early_memremap_mappings(unsigned int *n);

#endif
