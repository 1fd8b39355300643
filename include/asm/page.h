/*
 * The kernel's virtual memory layout (x86-64, 4-level paging, Linux's
 * addresses):
 *
 *   0x0000000000000000 - 0x00007fffffffffff  user space (later issues)
 *   0xffff888000000000 - ...                 direct map of physical memory
 *                                            (PAGE_OFFSET; the boot tables map
 *                                            the first 4 GiB with 2 MiB pages)
 *   0xffffffff80000000 - 0xffffffffbfffffff  kernel image (KERNEL_VMA), the
 *                                            first GiB of physical memory
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include <pageturn/string.h>
#include <pageturn/types.h>

#define PAGE_SHIFT      12
#define PAGE_SIZE       (1ul << PAGE_SHIFT)
#define PAGE_MASK       (~(PAGE_SIZE - 1))
#define PMD_SHIFT       21
#define PMD_SIZE        (1ul << PMD_SHIFT)

#define PAGE_OFFSET     0xffff888000000000ul
#define KERNEL_VMA      0xffffffff80000000ul

#ifndef HOST_TEST
/* Physical address <-> direct-map virtual address. */
static inline void *phys_to_virt(phys_addr_t pa) { return (void *)(pa + PAGE_OFFSET); }
static inline phys_addr_t virt_to_phys(const void *va)
{
	uint64_t v = (uint64_t)va;
	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - PAGE_OFFSET;
}
#else
/* Host unit tests: "physical memory" is a buffer the test allocates, and
 * physical address pa lives at host_phys_base + pa. */
extern uintptr_t host_phys_base;
static inline void *phys_to_virt(phys_addr_t pa) { return (void *)(host_phys_base + pa); }
static inline phys_addr_t virt_to_phys(const void *va) { return (uintptr_t)va - host_phys_base; }
#endif

#ifndef HOST_TEST
/* Zero one page, or copy one to another; page-aligned addresses
 * (kernel/lib/string_64.asm, the fastest way for this CPU). */
void clear_page(void *page);
void copy_page(void *to, void *from);
#else
/* Host unit tests: the C library's (tests/unit/test_string.c tests the
 * kernel's own routines). */
static inline void clear_page(void *page) { memset(page, 0, PAGE_SIZE); }
static inline void copy_page(void *to, void *from) { memcpy(to, from, PAGE_SIZE); }
#endif

#endif
