/* The fake machine under the real page allocator: see fake_zones.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include <drivers/blkdev.h>
#include <mm/mm.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>

#include "fake_zones.h"
#include "kernel_stubs.h"

uintptr_t host_phys_base;


static void *phys_mem;
static size_t phys_mem_size;

void fake_zones_reset(void)
{
	memset(&contig_page_data, 0, sizeof(contig_page_data));
	memset(vm_stat, 0, sizeof(vm_stat));
	memset(&vm_event_states, 0, sizeof(vm_event_states));
	totalram_pages = 0;
	totalreserve_pages = 0;
	min_free_kbytes = 1024;
	sysctl_lowmem_reserve_ratio[0] = 256;
	sysctl_lowmem_reserve_ratio[1] = 256;
	fake_alloc_env_reset();
	log_clear();
}

void fake_zones_map(unsigned long pfns)
{
	max_pfn = pfns;
	mem_map = calloc(max_pfn, sizeof(struct page));
	assert_non_null(mem_map);
	phys_mem_size = max_pfn << PAGE_SHIFT;
	phys_mem = mmap(NULL, phys_mem_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(phys_mem != MAP_FAILED);
	host_phys_base = (uintptr_t)phys_mem;
}

void fake_zones_unmap(void)
{
	munmap(phys_mem, phys_mem_size);
	free(mem_map);
	mem_map = NULL;
	max_pfn = 0;
}

/* No disks here: a plug (mm/filemap.c's readahead takes one) holds nothing. */
void blk_start_plug(struct blk_plug *plug)
{
	INIT_LIST_HEAD(&plug->list);
}

void blk_finish_plug(struct blk_plug *plug)
{
	(void)plug;
}

void fake_zones_boot_small(void)
{
	static const unsigned long zones_size[MAX_NR_ZONES] = { 4096, 12288, 0 };
	static const unsigned long zholes[MAX_NR_ZONES] = { 1 + 96, 0, 0 };

	fake_zones_reset();
	fake_zones_map(16384);
	free_area_init_node(0, zones_size, 0, zholes);
	free_bootmem_range(1, 4000);
	free_bootmem_range(4096, 16384);
	init_per_zone_pages_min();
}

int fake_zones_shutdown(void **state)
{
	(void)state;
	fake_zones_unmap();
	return 0;
}

unsigned long fake_vm_event(enum vm_event_item item)
{
	unsigned long ev[NR_VM_EVENT_ITEMS];

	all_vm_events(ev);
	return ev[item];
}
