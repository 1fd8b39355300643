/*
 * fake_zones: the fake machine under the real page allocator
 * (mm/page_alloc.c) that test_page_alloc and test_lru boot
 * (tests/unit/fake_zones.c).
 *
 * mem_map is a calloc'd array of max_pfn struct pages, and "physical
 * memory" one anonymous mmap of max_pfn pages with MAP_NORESERVE at
 * host_phys_base, so page_address() works for every pfn while only the
 * pages a test touches cost host memory.  The test then lays out its zones
 * with free_area_init_node() and frees its RAM with free_bootmem_range().
 */
#ifndef TESTS_UNIT_FAKE_ZONES_H
#define TESTS_UNIT_FAKE_ZONES_H

/* Put the page allocator's and the VM counters' globals back as at boot
 * (no zones, no pages, min_free_kbytes 1024, reserve ratios 256) and
 * clear the log. */
void fake_zones_reset(void);
/* max_pfn = pfns, a zeroed mem_map and physical memory for them. */
void fake_zones_map(unsigned long pfns);
/* Free what fake_zones_map() made; mem_map NULL and max_pfn 0 again. */
void fake_zones_unmap(void);

#endif
