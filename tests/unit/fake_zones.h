/*
 * fake_zones: the fake machine under the real page allocator
 * (mm/page_alloc.c) that test_page_alloc, test_lru and the vmscan tests boot
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

#include <mm/oom.h>
#include <mm/vmstat.h>


/*
 * The allocator's view of the running task and of the OOM killer
 * (fake_alloc_env.c, apart from cmocka, whose headers clash with
 * pageturn/sched.h; current and msleep are fake_wait.c's):
 * hardirq_count says whether an interrupt handler is running;
 * out_of_memory counts its calls in oom_calls and answers oom_answer
 * (OOM_NO_VICTIM after a reset), and when oom_answer is OOM_KILLED and
 * oom_free_hook is set it calls it (the victim's memory coming back).
 * fake_current_flags() is current->flags, for tests that set PF_MEMALLOC
 * or PF_MEMDIE (fake_pf_memalloc, fake_pf_memdie: their values).
 * fake_alloc_env_reset(), which fake_zones_reset() calls, clears them
 * all, current->flags and fake_naps included.
 */
extern unsigned int hardirq_count;
extern unsigned long oom_calls;
extern enum oom_result oom_answer;
extern void (*oom_free_hook)(void);
extern const unsigned int fake_pf_memalloc, fake_pf_memdie;
unsigned int *fake_current_flags(void);
void fake_alloc_env_reset(void);

/* Put the page allocator's and the VM counters' globals back as at boot
 * (no zones, no pages, min_free_kbytes 1024, reserve ratios 256) and
 * clear the log. */
void fake_zones_reset(void);
/* max_pfn = pfns, a zeroed mem_map and physical memory for them. */
void fake_zones_map(unsigned long pfns);
/* Free what fake_zones_map() made; mem_map NULL and max_pfn 0 again. */
void fake_zones_unmap(void);

/*
 * The small machine test_lru, test_vmscan and test_vmscan_single boot:
 * DMA pfn 0-4096 with holes at pfn 0 and 4000-4095, DMA32 from 16 to
 * 64 MiB, all free, watermarks set (fake_zones_boot_small); and the
 * cmocka teardown that unmaps any fake machine (fake_zones_shutdown).
 */
void fake_zones_boot_small(void);
int fake_zones_shutdown(void **state);

/* The count of one /proc/vmstat event. */
unsigned long fake_vm_event(enum vm_event_item item);

#endif
