/*
 * VM statistics: the zone counters and the event counters, their names,
 * and the text of /proc/vmstat and /proc/zoneinfo (as in Linux, here).
 *
 * State: each zone counter lives twice, per zone in zone->vm_stat[] and
 * summed over the zones in vm_stat[].  Events live once, in
 * vm_event_states.
 *
 * Invariant: for every item, vm_stat[item] equals the sum of
 * zone->vm_stat[item] over all zones.  Every update goes through
 * __mod_zone_page_state, which changes both with interrupts off, so the
 * invariant holds whenever interrupts are on.
 *
 * Linux keeps per-CPU deltas and folds them into the zone and global
 * counters now and then, so its counters lag; on one CPU they need not,
 * and these are exact.
 */
#include <fs/proc_fs.h>
#include <mm/vmstat.h>
#ifndef HOST_TEST
#include <asm/cpu.h>
#else
/* Host unit tests have no interrupts to turn off. */
static inline uint64_t local_irq_save(void) { return 0; }
static inline void local_irq_restore(uint64_t flags) { (void)flags; }
#endif

long vm_stat[NR_VM_ZONE_STAT_ITEMS];
struct vm_event_state vm_event_states;

/* In enum order: adding a counter without its name breaks the build here. */
const char *const vmstat_text[] = {
	/* enum zone_stat_item */
	"nr_free_pages",
	"nr_inactive_anon",
	"nr_active_anon",
	"nr_inactive_file",
	"nr_active_file",
	"nr_unevictable",
	"nr_mlock",
	"nr_anon_pages",
	"nr_mapped",
	"nr_file_pages",
	"nr_dirty",
	"nr_writeback",
	"nr_slab_unreclaimable",
	"nr_page_table_pages",
	"nr_vmscan_write",
	"nr_shmem",

	/* enum vm_event_item */
	"pswpin",
	"pswpout",
	"pgalloc_dma",
	"pgalloc_dma32",
	"pgalloc_normal",
	"pgfree",
	"pgactivate",
	"pgdeactivate",
	"pgfault",
	"pgmajfault",
	"pgrefill_dma",
	"pgrefill_dma32",
	"pgrefill_normal",
	"pgsteal_dma",
	"pgsteal_dma32",
	"pgsteal_normal",
	"pgscan_kswapd_dma",
	"pgscan_kswapd_dma32",
	"pgscan_kswapd_normal",
	"pgscan_direct_dma",
	"pgscan_direct_dma32",
	"pgscan_direct_normal",
	"pginodesteal",
	"slabs_scanned",
	"kswapd_steal",
	"kswapd_inodesteal",
	"pageoutrun",
	"allocstall",
	"pgrotated",
	"unevictable_pgs_culled",
	"unevictable_pgs_scanned",
	"unevictable_pgs_rescued",
	"unevictable_pgs_mlocked",
	"unevictable_pgs_munlocked",
	"unevictable_pgs_cleared",
	"unevictable_pgs_stranded",
	"unevictable_pgs_mlockfreed",
	"drop_pagecache",
	"drop_slab",
	"pgscan_anon",
	"pgscan_file",
	"pgsteal_anon",
	"pgsteal_file",
	"oom_kill",
};

_Static_assert(ARRAY_SIZE(vmstat_text) == NR_VM_ZONE_STAT_ITEMS + NR_VM_EVENT_ITEMS,
	       "vmstat_text needs one name per zone counter and per event");

void all_vm_events(unsigned long *ret)
{
	int i;

	for (i = 0; i < NR_VM_EVENT_ITEMS; i++)
		ret[i] = vm_event_states.event[i];
}

/* Called with interrupts off. */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	zone->vm_stat[item] += delta;
	vm_stat[item] += delta;
}

/* Called with interrupts off. */
void __inc_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, 1);
}

/* Called with interrupts off. */
void __dec_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, -1);
}

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	uint64_t flags = local_irq_save();

	__mod_zone_page_state(zone, item, delta);
	local_irq_restore(flags);
}

void inc_zone_page_state(struct page *page, enum zone_stat_item item)
{
	mod_zone_page_state(page_zone(page), item, 1);
}

void dec_zone_page_state(struct page *page, enum zone_stat_item item)
{
	mod_zone_page_state(page_zone(page), item, -1);
}

/*
 * /proc/vmstat: every zone counter, then every event, "name value"; last
 * "lru_single 1" under lru=single, 0 under lru=split (Pageturn's own line:
 * Linux has one LRU policy and no such field).
 */
void vmstat_show(struct seq_file *m)
{
	unsigned long events[NR_VM_EVENT_ITEMS];
	unsigned int i;

	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		seq_printf(m, "%s %lu\n", vmstat_text[i], global_page_state(i));
	all_vm_events(events);
	for (i = 0; i < NR_VM_EVENT_ITEMS; i++)
		seq_printf(m, "%s %lu\n", vmstat_text[NR_VM_ZONE_STAT_ITEMS + i], events[i]);
	seq_printf(m, "lru_single %d\n", lru_single());
}

/*
 * /proc/zoneinfo, in Linux v2.6.28's layout (with the later "managed"
 * line): per zone the free pages and watermarks, pages scanned since the
 * last free and what each list is owed (nr_scan), span and present, every
 * zone counter, lowmem_reserve as "protection", then reclaim's state:
 * all_unreclaimable, prev_priority, inactive_ratio, and the anon/file
 * balance inputs get_scan_ratio reads (recent_rotated/recent_scanned, as
 * the split-LRU kernels printed them).  Under lru=single the scanned line
 * is Linux 2.6.27's, "(a: i:)" for the one active and inactive list, and
 * every zone says "lru_policy: single" ("split" otherwise; Pageturn's own
 * line, as Linux has no such field).  Pageturn has no per-CPU page lists,
 * so there is no "pagesets" block.
 */
void zoneinfo_show(struct seq_file *m)
{
	struct zone *zone;
	unsigned int i;

	for_each_zone(zone) {
		seq_printf(m, "Node 0, zone %8s\n", zone->name);
		seq_printf(m, "  pages free     %lu\n", zone_page_state(zone, NR_FREE_PAGES));
		seq_printf(m, "        min      %lu\n", zone->pages_min);
		seq_printf(m, "        low      %lu\n", zone->pages_low);
		seq_printf(m, "        high     %lu\n", zone->pages_high);
		if (lru_single())
			seq_printf(m, "        scanned  %lu (a: %lu i: %lu)\n", zone->pages_scanned,
				   zone->lru[LRU_BASE + LRU_ACTIVE].nr_scan,
				   zone->lru[LRU_BASE].nr_scan);
		else
			seq_printf(m, "        scanned  %lu (aa: %lu ia: %lu af: %lu if: %lu)\n",
				   zone->pages_scanned, zone->lru[LRU_ACTIVE_ANON].nr_scan,
				   zone->lru[LRU_INACTIVE_ANON].nr_scan,
				   zone->lru[LRU_ACTIVE_FILE].nr_scan,
				   zone->lru[LRU_INACTIVE_FILE].nr_scan);
		seq_printf(m, "        spanned  %lu\n", zone->spanned_pages);
		seq_printf(m, "        present  %lu\n", zone->present_pages);
		seq_printf(m, "        managed  %lu\n", zone->managed_pages);
		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			seq_printf(m, "    %-12s %lu\n", vmstat_text[i], zone_page_state(zone, i));
		seq_puts(m, "        protection: (");
		for (i = 0; i < MAX_NR_ZONES; i++)
			seq_printf(m, "%s%lu", i ? ", " : "", zone->lowmem_reserve[i]);
		seq_puts(m, ")\n");
		seq_printf(m, "  lru_policy:        %s\n", lru_single() ? "single" : "split");
		seq_printf(m, "  all_unreclaimable: %u\n", zone_is_all_unreclaimable(zone));
		seq_printf(m, "  prev_priority:     %d\n", zone->prev_priority);
		seq_printf(m, "  start_pfn:         %lu\n", zone->zone_start_pfn);
		seq_printf(m, "  inactive_ratio:    %u\n", zone->inactive_ratio);
		seq_printf(m, "  recent_rotated_anon: %lu\n", zone->recent_rotated[0]);
		seq_printf(m, "  recent_rotated_file: %lu\n", zone->recent_rotated[1]);
		seq_printf(m, "  recent_scanned_anon: %lu\n", zone->recent_scanned[0]);
		seq_printf(m, "  recent_scanned_file: %lu\n", zone->recent_scanned[1]);
	}
}
