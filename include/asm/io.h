/* Port I/O: the only way drivers touch I/O ports. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <pageturn/types.h>

static inline void outb(uint16_t port, uint8_t v)  { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* Device memory [phys, phys+size) mapped uncached, or NULL (mm/ioremap.c).
 * Process context at boot: it may allocate page-table pages. */
void *ioremap(phys_addr_t phys, size_t size);

/* A short delay for old devices (the PIC) that need time between accesses. */
static inline void io_wait(void) { outb(0x80, 0); }

/* MMIO accessors. */
static inline void writel(uint32_t v, volatile void *addr) { *(volatile uint32_t *)addr = v; }
static inline uint32_t readl(const volatile void *addr) { return *(const volatile uint32_t *)addr; }
static inline void writew(uint16_t v, volatile void *addr) { *(volatile uint16_t *)addr = v; }
static inline uint16_t readw(const volatile void *addr) { return *(const volatile uint16_t *)addr; }
static inline void writeb(uint8_t v, volatile void *addr) { *(volatile uint8_t *)addr = v; }
static inline uint8_t readb(const volatile void *addr) { return *(const volatile uint8_t *)addr; }

#endif
