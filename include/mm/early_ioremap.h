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

/* The direct-map address of [phys, phys+size), or NULL when the pool of
 * boot page tables is exhausted or the range is beyond the direct map. */
void *early_memremap(phys_addr_t phys, size_t size);

#endif
