/*
 * memblock: the boot-time memory map and allocator, used before the page
 * allocator exists (Linux's mm/memblock.c, reduced to what Pageturn needs).
 *
 * Two sorted lists of non-overlapping, merged regions:
 *   memory    RAM the firmware reported as available
 *   reserved  parts of it already in use: the kernel image, the boot
 *             information, modules, and everything memblock_alloc() handed out
 * Free memory is memory minus reserved.  When the page allocator starts,
 * mm/init.c hands every free range to it; reserved ranges stay reserved.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include <pageturn/types.h>

#define MEMBLOCK_MAX_REGIONS 128
#define MEMBLOCK_ALLOC_ANYWHERE (~(phys_addr_t)0)

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
};

struct memblock_type {
	unsigned long cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
	const char *name;
};

struct memblock {
	struct memblock_type memory;
	struct memblock_type reserved;
};

extern struct memblock memblock;

/* Start empty. */
void memblock_init(void);

/* Add [base, base+size) to the list; overlapping and adjacent regions
 * merge.  Returns 0, -EINVAL for a range that wraps, or -ENOSPC when the
 * list is full (the range is then not recorded). */
int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);

/* Allocate size bytes aligned to align (a power of two) from free memory
 * inside [start, end), highest address first, and reserve them.  Returns
 * the physical address, or 0 when nothing fits (address 0 is never handed
 * out). */
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);

/* Bytes of memory, and of memory that is reserved. */
phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);
/* One past the last byte of memory. */
phys_addr_t memblock_end_of_DRAM(void);

/*
 * Iterate over free ranges (memory minus reserved) in address order:
 *     uint64_t i = 0; phys_addr_t start, end;
 *     while (memblock_next_free_range(&i, &start, &end)) ...
 */
bool memblock_next_free_range(uint64_t *idx, phys_addr_t *start, phys_addr_t *end);

#endif
