/*
 * VM statistics: the zone counters and the event counters, and their
 * names for /proc/vmstat.
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
	"nr_slab_unreclaimable",
	"nr_page_table_pages",

	/* enum vm_event_item */
	"pgalloc_dma",
	"pgalloc_dma32",
	"pgalloc_normal",
	"pgfree",
	"pgactivate",
	"allocstall",
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
