/*
 * mm_init: from the boot memory map to a running memory manager.
 *
 * Order, and the state after each step:
 *   1. memblock   memory = the map's available ranges (page-aligned
 *                 inward); reserved = page 0, the kernel image, the boot
 *                 information and the modules.  With mem=LIMIT (Linux's
 *                 option) every free range above LIMIT is reserved too:
 *                 it stays mapped, with struct pages, but the allocator
 *                 never gets it; mem_limit_carve() hands it out whole to
 *                 RAM disks (above_limit[] records what is left of it).
 *   2. page tables  new kernel tables built with pages from memblock
 *                 (below 4 GiB, where the boot tables can reach them):
 *                 the direct map of all memory at PAGE_OFFSET with 2 MiB
 *                 pages where alignment allows, the kernel image at
 *                 KERNEL_VMA section by section with W^X permissions, the
 *                 ranges early_memremap() handed out, and no mapping for
 *                 the guard pages under the kernel stacks.  CR3 switches;
 *                 the boot tables are no longer used.
 *   3. mem_map    one struct page per pfn below max_pfn, from memblock.
 *   4. zones      spans cut at 16 MiB and 4 GiB; present pages counted
 *                 from memblock; every struct page starts reserved.
 *   5. buddy      every free memblock range is handed to the page
 *                 allocator; what memblock reserved (including steps 2-3)
 *                 stays PG_reserved for good.
 *   6. watermarks from min_free_kbytes; then the slab allocator.
 *   7. reclaim's knobs from the command line: swappiness=, and lru=, the
 *                 LRU policy, which must be chosen before any page joins
 *                 a list (none has yet: nothing has run that caches or
 *                 maps a page).
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/page.h>
#include <mm/early_ioremap.h>
#include <mm/gfp.h>
#include <mm/init.h>
#include <mm/memblock.h>
#include <mm/mm.h>
#include <mm/page_alloc.h>
#include <mm/pgtable.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/cmdline.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define BOOT_MAPPED_END (4ull << 30)	/* what the boot tables reach */
#define MAX_STACK_GUARDS 8

extern char __boot_start[], __kernel_end[];
extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __data_end[], __kallsyms_start[];

pte_t *init_pgd;			/* the kernel page tables (Linux: init_mm.pgd) */
static unsigned long nr_early_table_pages;

/* Table pages for the kernel's own tables come from memblock, below the
 * end of the boot direct map so they can be written before the switch.
 * They are kernel memory for good.  pt_map() gives pages back only when
 * it rolls back after running out of memory, and boot then stops in
 * map_or_panic() anyway, so a page given back simply stays reserved. */
static phys_addr_t early_table_alloc(void *ctx)
{
	phys_addr_t pa = memblock_phys_alloc_range(PAGE_SIZE, PAGE_SIZE, 0, BOOT_MAPPED_END);

	(void)ctx;
	if (pa)
		nr_early_table_pages++;
	return pa;
}

static void early_table_free(phys_addr_t pa, void *ctx)
{
	(void)pa;
	(void)ctx;
	nr_early_table_pages--;
}

static const struct pt_allocator early_tables = {
	.alloc = early_table_alloc,
	.free = early_table_free,
};

BOOT_OPTION(mem, "keep RAM above this address from the page allocator, e.g. mem=96M (Linux's); RAM disks may use it");

#define MEM_LIMIT_MIN		(32ull << 20)
#define MEM_LIMIT_RANGES	8

/* The free RAM above mem=, by range: [next, end) is not yet carved. */
static struct {
	phys_addr_t next, end;
} above_limit[MEM_LIMIT_RANGES];
static unsigned int nr_above_limit;

/* mem=: reserve every free range above the limit, recording the first
 * MEM_LIMIT_RANGES of them for mem_limit_carve(). */
static void apply_mem_limit(void)
{
	uint64_t limit = ALIGN_DOWN(cmdline_get_size("mem", 0), (uint64_t)PAGE_SIZE), idx;
	phys_addr_t start, end, kept = 0;
	bool found;

	if (!limit)
		return;
	if (limit < MEM_LIMIT_MIN) {
		printk(KERN_WARNING "cmdline: mem=%lu KiB is below %llu MiB, ignored\n",
		       (unsigned long)(limit >> 10), MEM_LIMIT_MIN >> 20);
		return;
	}
	do {
		found = false;
		idx = 0;
		while (memblock_next_free_range(&idx, &start, &end)) {
			start = MAX(start, (phys_addr_t)limit);
			if (end > start) {
				found = true;
				break;
			}
		}
		if (!found)
			break;
		if (memblock_reserve(start, end - start) < 0) {
			printk(KERN_WARNING "mm: mem=: memory map too fragmented, RAM from %#lx is not kept back\n",
			       start);
			break;
		}
		kept += end - start;
		if (nr_above_limit < MEM_LIMIT_RANGES) {
			above_limit[nr_above_limit].next = start;
			above_limit[nr_above_limit].end = end;
			nr_above_limit++;
		}
	} while (found);
	printk(KERN_INFO "mm: mem=%lu MiB: %lu MiB of RAM above it kept from the page allocator\n",
	       (unsigned long)(limit >> 20), (unsigned long)(kept >> 20));
}

phys_addr_t mem_limit_carve(phys_addr_t size)
{
	unsigned int i;
	phys_addr_t pa;

	size = ALIGN_UP(size, PAGE_SIZE);
	for (i = 0; i < nr_above_limit; i++) {
		if (size && above_limit[i].end - above_limit[i].next >= size) {
			pa = above_limit[i].next;
			above_limit[i].next += size;
			return pa;
		}
	}
	return 0;
}

static void setup_memblock(const struct boot_info *bi, phys_addr_t info_phys)
{
	unsigned int i;

	memblock_init();
	for (i = 0; i < bi->nr_mmap; i++) {
		const struct boot_mmap_entry *e = &bi->mmap[i];
		phys_addr_t start = ALIGN_UP(e->addr, PAGE_SIZE);
		phys_addr_t end = ALIGN_DOWN(e->addr + e->len, PAGE_SIZE);

		if (e->type != MB2_MEMORY_AVAILABLE || end <= start)
			continue;
		if (memblock_add(start, end - start) < 0)
			printk(KERN_WARNING "mm: memory map too fragmented, ignoring [mem %#lx-%#lx]\n",
			       start, end - 1);
	}
	/* Page 0 holds the real-mode interrupt table and BIOS data. */
	memblock_reserve(0, PAGE_SIZE);
	/* The boot sections are linked where they are loaded (VMA = LMA). */
	memblock_reserve((uintptr_t)__boot_start, virt_to_phys(__kernel_end) - (uintptr_t)__boot_start);
	memblock_reserve(ALIGN_DOWN(info_phys, PAGE_SIZE),
			 ALIGN_UP(info_phys + bi->total_size, PAGE_SIZE) - ALIGN_DOWN(info_phys, PAGE_SIZE));
	for (i = 0; i < bi->nr_modules; i++)
		memblock_reserve(bi->modules[i].start, bi->modules[i].end - bi->modules[i].start);
	apply_mem_limit();
	max_pfn = memblock_end_of_DRAM() >> PAGE_SHIFT;
	if (!max_pfn)
		panic("mm_init: the memory map has no usable RAM");
}

static void map_or_panic(unsigned long va, phys_addr_t pa, unsigned long size, uint64_t prot,
			 enum pg_level max_level, const char *what)
{
	int err = pt_map(init_pgd, va, pa, size, prot, max_level, &early_tables);

	if (err)
		panic("mm_init: cannot map %s [%#lx-%#lx] (%d)", what, va, va + size - 1, err);
}

/* One section of the kernel image, at KERNEL_VMA, with its permissions. */
static void map_kernel_section(const char *start, const char *end, uint64_t prot, const char *what)
{
	unsigned long va = ALIGN_DOWN((unsigned long)start, PAGE_SIZE);
	unsigned long vend = ALIGN_UP((unsigned long)end, PAGE_SIZE);

	if (vend > va)
		map_or_panic(va, virt_to_phys((void *)va), vend - va, prot, PG_LEVEL_4K, what);
}

static void init_kernel_page_tables(void)
{
	const struct early_mapping *early;
	uint64_t guards[MAX_STACK_GUARDS];
	unsigned long text_alias;
	unsigned int i, n;
	int err;

	if (!(rdmsr(MSR_EFER) & EFER_NXE))
		__supported_pte_mask &= ~_PAGE_NX;
	init_pgd = pt_alloc_pgd(&early_tables);
	if (!init_pgd)
		panic("mm_init: no memory below 4 GiB for the kernel page tables");

	/* The direct map: every memory region (free or reserved). */
	for (i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		map_or_panic((unsigned long)phys_to_virt(r->base), r->base, r->size,
			     PAGE_KERNEL, PG_LEVEL_2M, "the direct map");
	}
	/* The direct map's alias of kernel text and rodata is read-only too,
	 * or W^X would have a back door. */
	text_alias = (unsigned long)phys_to_virt(virt_to_phys(__text_start));
	err = pt_protect(init_pgd, text_alias, ALIGN_UP((unsigned long)(__rodata_end - __text_start), PAGE_SIZE),
			 PAGE_KERNEL_RO, &early_tables);
	if (err)
		panic("mm_init: cannot protect the direct-map alias of the kernel (%d)", err);

	/* Devices and firmware areas reached before now (the framebuffer,
	 * boot information outside RAM): 4 KiB pages, skipping what the
	 * direct map already covers. */
	early = early_memremap_mappings(&n);
	for (i = 0; i < n; i++) {
		unsigned long va = ALIGN_DOWN(early[i].phys, PAGE_SIZE);
		unsigned long vend = ALIGN_UP(early[i].phys + early[i].size, PAGE_SIZE);

		for (; va < vend; va += PAGE_SIZE)
			if (pt_lookup(init_pgd, (unsigned long)phys_to_virt(va), NULL, NULL, NULL) == -ENOENT)
				map_or_panic((unsigned long)phys_to_virt(va), va, PAGE_SIZE,
					     PAGE_KERNEL_NOCACHE, PG_LEVEL_4K, "an early mapping");
	}

	/* The kernel image: text R-X, rodata R--, data and bss RW-, the
	 * symbol table R--.  The boot code below KERNEL_VMA is not mapped. */
	map_kernel_section(__text_start, __text_end, PAGE_KERNEL_RX, "kernel text");
	map_kernel_section(__rodata_start, __rodata_end, PAGE_KERNEL_RO, "kernel rodata");
	map_kernel_section(__data_start, __data_end, PAGE_KERNEL, "kernel data");
	map_kernel_section(__kallsyms_start, __kernel_end, PAGE_KERNEL_RO, "kernel symbols");

	n = kernel_stack_guards(guards, MAX_STACK_GUARDS);
	for (i = 0; i < n; i++)
		if (pt_unmap(init_pgd, guards[i], PAGE_SIZE, &early_tables))
			panic("mm_init: cannot unmap the stack guard page at %#lx", guards[i]);

	write_cr3(virt_to_phys(init_pgd));
	/* Kernel mappings are _PAGE_GLOBAL: with PGE they survive CR3 switches. */
	write_cr4(read_cr4() | CR4_PGE);
	printk(KERN_INFO "mm: kernel page tables: %lu pages; text R-X, rodata R--, data RW- NX%s, %u stack guard pages\n",
	       nr_early_table_pages, __supported_pte_mask & _PAGE_NX ? "" : " (no NX on this CPU)", n);
}

/* Zone spans: [0, 16 MiB), [16 MiB, 4 GiB), [4 GiB, max_pfn), each cut
 * at max_pfn; holes are the span's pfns that memblock has no memory for. */
static void init_zones(void)
{
	static const unsigned long zone_end[MAX_NR_ZONES] = { MAX_DMA_PFN, MAX_DMA32_PFN, ~0ul };
	unsigned long size[MAX_NR_ZONES], holes[MAX_NR_ZONES];
	unsigned long zstart = 0, bytes;
	phys_addr_t pa;
	int z;
	unsigned int i;

	bytes = max_pfn * sizeof(struct page);
	pa = memblock_phys_alloc_range(ALIGN_UP(bytes, PAGE_SIZE), PAGE_SIZE, 0, MEMBLOCK_ALLOC_ANYWHERE);
	if (!pa)
		panic("mm_init: no room for mem_map (%lu KiB for %lu pages)", bytes >> 10, max_pfn);
	mem_map = phys_to_virt(pa);
	memset(mem_map, 0, bytes);

	for (z = 0; z < MAX_NR_ZONES; z++) {
		unsigned long zend = MIN(zone_end[z], max_pfn), present = 0;

		zend = MAX(zend, zstart);
		for (i = 0; i < memblock.memory.cnt; i++) {
			const struct memblock_region *r = &memblock.memory.regions[i];
			unsigned long rs = r->base >> PAGE_SHIFT, re = (r->base + r->size) >> PAGE_SHIFT;

			rs = MAX(rs, zstart);
			re = MIN(re, zend);
			if (re > rs)
				present += re - rs;
		}
		size[z] = zend - zstart;
		holes[z] = size[z] - present;
		zstart = zend;
	}
	free_area_init_node(0, size, 0, holes);
	printk(KERN_INFO "mm: mem_map: %lu pages x %zu bytes = %lu KiB at %#lx\n",
	       max_pfn, sizeof(struct page), bytes >> 10, pa);
}

/* Hand every free memblock range to the buddy allocator. */
static void free_all_bootmem(void)
{
	phys_addr_t start, end;
	uint64_t i = 0;

	while (memblock_next_free_range(&i, &start, &end))
		free_bootmem_range(ALIGN_UP(start, PAGE_SIZE) >> PAGE_SHIFT, end >> PAGE_SHIFT);
}

BOOT_OPTION(slab_quarantine, "KiB of freed slab objects held back from reuse, to catch use after free (default 0)");

/* The slab quarantine the command line asks for (mm/slab.c). */
static void init_slab_quarantine(void)
{
	long kib = cmdline_get_long("slab_quarantine", 0);

	if (kib < 0 || kib > (long)(memblock_phys_mem_size() >> 13))
		printk(KERN_WARNING "cmdline: slab_quarantine=%ld out of range 0-%lu KiB (1/8 of RAM), ignored\n",
		       kib, (unsigned long)(memblock_phys_mem_size() >> 13));
	else
		slab_quarantine_init((size_t)kib << 10);
}

BOOT_OPTION(swappiness, "reclaim's weight for anon pages against file, 0-100 (default 60)");

/* vm.swappiness from the command line (mm/vmscan.c); /proc/sys/vm/swappiness
 * changes it at run time. */
static void init_swappiness(void)
{
	long v = cmdline_get_long("swappiness", vm_swappiness);

	if (v < 0 || v > 100)
		printk(KERN_WARNING "cmdline: swappiness=%ld out of range 0-100, ignored\n", v);
	else
		vm_swappiness = (int)v;
}

BOOT_OPTION(lru, "LRU policy: split (anon and file lists, Linux 2.6.28; default) or single (one list, 2.6.27)");

/*
 * The LRU policy (include/mm/mmzone.h) from lru=split or lru=single;
 * anything else is logged and split kept.  Also vm_total_pages, which
 * lru=single's calc_reclaim_mapped reads: Linux 2.6.27 took it from
 * nr_free_pagecache_pages() while pages_high was still 0, the pages the
 * allocator manages, which is managed_pages here.
 */
static void init_lru_policy(void)
{
	const char *v = cmdline_get("lru");
	struct zone *zone;
	enum lru_list l;

	for_each_zone(zone) {
		vm_total_pages += zone->managed_pages;
		for_each_lru(l)
			if (zone_page_state(zone, (enum zone_stat_item)(NR_LRU_BASE + l)))
				panic("init_lru_policy: zone %s has pages on LRU list %d already",
				      zone->name, l);
	}
	if (v && strcmp(v, "single") == 0)
		lru_policy = LRU_POLICY_SINGLE;
	else if (v && strcmp(v, "split") != 0)
		printk(KERN_WARNING "cmdline: lru=%s is neither split nor single, split kept\n", v);
	printk(KERN_INFO "mm: LRU policy %s: %s\n", lru_single() ? "single" : "split",
	       lru_single() ? "one active and one inactive list per zone, Linux 2.6.27's reclaim" :
			      "anon and file lists apart, Linux 2.6.28's reclaim");
}

void mm_init(const struct boot_info *bi, phys_addr_t info_phys)
{
	setup_memblock(bi, info_phys);
	init_kernel_page_tables();
	init_zones();
	free_all_bootmem();
	init_per_zone_pages_min();
	kmem_cache_init();
	anon_vma_init();
	init_slab_quarantine();
	init_swappiness();
	init_lru_policy();
	printk(KERN_INFO "mm: %lu MiB of RAM, %lu MiB free, %lu KiB reserved at boot, min_free_kbytes %d\n",
	       (unsigned long)(memblock_phys_mem_size() >> 20), nr_free_pages() >> 8,
	       (unsigned long)(memblock_reserved_size() >> 10), min_free_kbytes);
	zone_report();
	show_free_areas();
}
