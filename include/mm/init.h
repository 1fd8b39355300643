/* Bringing up the memory manager at boot (mm/init.c). */
#ifndef MM_INIT_H
#define MM_INIT_H

#include <pageturn/multiboot2.h>

/*
 * Build the physical memory manager from the boot memory map: memblock,
 * the kernel page tables (direct map of all RAM, the kernel image with
 * W^X permissions, guard pages under the kernel stacks), mem_map, the
 * zones and their buddy allocators, watermarks, and the slab allocator.
 * Prints the per-zone boot report.  Panics (boot cannot go on) only when
 * the memory map leaves no room for the kernel's own structures.
 */
void mm_init(const struct boot_info *bi, phys_addr_t boot_info_phys);

/*
 * RAM above the mem= limit, which the page allocator never sees: size
 * bytes (rounded up to pages) of it, contiguous, mapped in the direct map
 * and never used by anyone else, for a block device carved out of it
 * (the RAM disks).  Returns the physical address, or 0 when there is no
 * mem= or not that much left above it.  Boot only, one caller at a time.
 */
phys_addr_t mem_limit_carve(phys_addr_t size);

#endif
