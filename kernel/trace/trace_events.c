/*
 * The events (Linux's kernel/trace/trace_events.c with the TP_printk of
 * each include/trace/events/ header): one table row per event with its
 * system, name and the function that prints its fields, the enable
 * flags, and Pageturn's LRU sampler.
 *
 * trace_event_enabled[id] is what a tracepoint tests.  It changes only
 * under trace_types_lock, in process context, and only after the ring
 * buffer exists: enabling the first event allocates it.  The fields are
 * printed as Linux 6.1 prints them; fields Pageturn does not count are
 * printed as 0 (include/trace/events/vmscan.h says which).
 *
 * The sampler (Pageturn's own: Linux has no such events) writes, on
 * every timer tick (HZ = 100, every 10 ms), one mm_lru_sample per
 * populated zone, with the zone's free pages and its five LRU list
 * sizes, and one mm_vmstat_sample with the counts of pages swapped in
 * and out and of major faults since boot, from which swap I/O per second
 * follows without an event per page.  Each is written while it is
 * enabled itself or any vmscan event is.
 */
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mmzone.h>
#include <mm/vmstat.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>

#include "trace.h"

bool trace_event_enabled[NR_TRACE_EVENTS];
DEFINE_MUTEX(trace_types_lock);
DECLARE_WAIT_QUEUE_HEAD(trace_wait);
static bool sample_lru, sample_vmstat;	/* the sampler's work */

/* __print_flags over Pageturn's gfp bits, composite names first (Linux's
 * show_gfp_flags); "none" for 0. */
static void show_gfp_flags(struct seq_file *m, unsigned long gfp)
{
	static const struct { unsigned long mask; const char *name; } names[] = {
		{ GFP_KERNEL, "GFP_KERNEL" }, { GFP_NOFS, "GFP_NOFS" },
		{ GFP_ATOMIC, "GFP_ATOMIC" }, { GFP_NOIO, "GFP_NOIO" },
		{ __GFP_DMA, "GFP_DMA" }, { __GFP_DMA32, "GFP_DMA32" },
		{ __GFP_IO, "__GFP_IO" }, { __GFP_FS, "__GFP_FS" },
		{ __GFP_NOWARN, "__GFP_NOWARN" }, { __GFP_NORETRY, "__GFP_NORETRY" },
		{ __GFP_MEMALLOC, "__GFP_MEMALLOC" }, { __GFP_ZERO, "__GFP_ZERO" },
		{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	};
	const char *sep = "";
	size_t i;

	if (!gfp) {
		seq_puts(m, "none");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if ((gfp & names[i].mask) == names[i].mask) {
			seq_printf(m, "%s%s", sep, names[i].name);
			sep = "|";
			gfp &= ~names[i].mask;
		}
	}
	if (gfp)
		seq_printf(m, "%s0x%lx", sep, gfp);
}

/* Linux's show_reclaim_flags of trace_reclaim_flags(file): file is 0
 * (anon), 1 (file) or -1 (both kinds: lru=single's one list). */
static void show_reclaim_flags(struct seq_file *m, unsigned long file)
{
	if ((int)file < 0)
		seq_puts(m, "RECLAIM_WB_ANON|RECLAIM_WB_FILE|RECLAIM_WB_ASYNC");
	else
		seq_puts(m, file ? "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" : "RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
}

static void print_mm_vmstat_sample(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "pswpin=%lu pswpout=%lu pgmajfault=%lu", a[0], a[1], a[2]);
}

static const char *const lru_names[NR_LRU_LISTS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

static void print_kswapd_sleep(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nid=%d", (int)a[0]);
}

static void print_kswapd_wake(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nid=%d order=%d", (int)a[0], (int)a[2]);
}

static void print_wakeup_kswapd(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nid=%d order=%d gfp_flags=", (int)a[0], (int)a[2]);
	show_gfp_flags(m, a[3]);
}

static void print_direct_reclaim_begin(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "order=%d gfp_flags=", (int)a[0]);
	show_gfp_flags(m, a[1]);
}

static void print_direct_reclaim_end(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nr_reclaimed=%lu", a[0]);
}

static void print_lru_isolate(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu "
		   "nr_skipped=%lu nr_taken=%lu lru=%s", (int)a[0], (int)a[1], (int)a[2], a[3], a[4],
		   a[5], a[6], a[7] < NR_LRU_LISTS ? lru_names[a[7]] : "?");
}

static void print_writepage(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "page=%p pfn=0x%lx flags=", (void *)pfn_to_page(a[0]), a[0]);
	show_reclaim_flags(m, a[1]);
}

static void print_lru_shrink_inactive(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nid=%d nr_scanned=%ld nr_reclaimed=%ld nr_dirty=%ld nr_writeback=%ld "
		   "nr_congested=%ld nr_immediate=%ld nr_activate_anon=%d nr_activate_file=%d "
		   "nr_ref_keep=%ld nr_unmap_fail=%ld priority=%d flags=", (int)a[0], (long)a[1],
		   (long)a[2], (long)a[3], (long)a[4], (long)a[5], (long)a[6], (int)a[7], (int)a[8],
		   (long)a[9], (long)a[10], (int)a[11]);
	show_reclaim_flags(m, a[12]);
}

static void print_lru_shrink_active(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nid=%d nr_taken=%ld nr_active=%ld nr_deactivated=%ld nr_referenced=%ld "
		   "priority=%d flags=", (int)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4],
		   (int)a[5]);
	show_reclaim_flags(m, a[6]);
}

static void print_oom_score_adj_update(struct seq_file *m, const unsigned long *a)
{
	char comm[TASK_COMM_LEN];

	memcpy(comm, &a[2], TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
	seq_printf(m, "pid=%d comm=%s oom_score_adj=%d", (int)a[0], comm, (short)a[1]);
}

static void print_mark_victim(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "pid=%d", (int)a[0]);
}

static void print_swap_page(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "pfn=0x%lx type=%lu offset=%lu", a[0], a[1], a[2]);
}

static void print_mm_lru_sample(struct seq_file *m, const unsigned long *a)
{
	seq_printf(m, "nid=%d zid=%d zone=%s nr_free_pages=%lu nr_inactive_anon=%lu "
		   "nr_active_anon=%lu nr_inactive_file=%lu nr_active_file=%lu nr_unevictable=%lu",
		   (int)a[0], (int)a[1], a[1] < MAX_NR_ZONES ? NODE_DATA(0)->node_zones[a[1]].name : "?",
		   a[2], a[3], a[4], a[5], a[6], a[7]);
}

const struct trace_event_class trace_events[NR_TRACE_EVENTS] = {
	[TRACE_MM_VMSCAN_KSWAPD_SLEEP] = { "vmscan", "mm_vmscan_kswapd_sleep", print_kswapd_sleep },
	[TRACE_MM_VMSCAN_KSWAPD_WAKE] = { "vmscan", "mm_vmscan_kswapd_wake", print_kswapd_wake },
	[TRACE_MM_VMSCAN_WAKEUP_KSWAPD] = { "vmscan", "mm_vmscan_wakeup_kswapd", print_wakeup_kswapd },
	[TRACE_MM_VMSCAN_DIRECT_RECLAIM_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin",
						   print_direct_reclaim_begin },
	[TRACE_MM_VMSCAN_DIRECT_RECLAIM_END] = { "vmscan", "mm_vmscan_direct_reclaim_end",
						 print_direct_reclaim_end },
	[TRACE_MM_VMSCAN_LRU_ISOLATE] = { "vmscan", "mm_vmscan_lru_isolate", print_lru_isolate },
	[TRACE_MM_VMSCAN_WRITEPAGE] = { "vmscan", "mm_vmscan_writepage", print_writepage },
	[TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive",
						  print_lru_shrink_inactive },
	[TRACE_MM_VMSCAN_LRU_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active",
						print_lru_shrink_active },
	[TRACE_OOM_SCORE_ADJ_UPDATE] = { "oom", "oom_score_adj_update", print_oom_score_adj_update },
	[TRACE_MARK_VICTIM] = { "oom", "mark_victim", print_mark_victim },
	[TRACE_PAGETURN_SWAP_WRITEPAGE] = { "pageturn", "swap_writepage", print_swap_page },
	[TRACE_PAGETURN_SWAP_READPAGE] = { "pageturn", "swap_readpage", print_swap_page },
	[TRACE_PAGETURN_MM_LRU_SAMPLE] = { "pageturn", "mm_lru_sample", print_mm_lru_sample },
	[TRACE_PAGETURN_MM_VMSTAT_SAMPLE] = { "pageturn", "mm_vmstat_sample", print_mm_vmstat_sample },
};

const char *const trace_systems[] = { "vmscan", "oom", "pageturn" };
const unsigned int nr_trace_systems = ARRAY_SIZE(trace_systems);

static bool any_vmscan_event(void)
{
	int id;

	for (id = 0; id < NR_TRACE_EVENTS; id++)
		if (trace_event_enabled[id] && strcmp(trace_events[id].system, "vmscan") == 0)
			return true;
	return false;
}

/* Called with trace_types_lock held. */
int trace_event_enable(enum trace_event_id id, bool on)
{
	int err;

	if (on && !ring_buffer_allocated()) {
		err = ring_buffer_resize(trace_buf_size_kb);
		if (err)
			return err;
	}
	trace_event_enabled[id] = on;
	sample_lru = trace_event_enabled[TRACE_PAGETURN_MM_LRU_SAMPLE] || any_vmscan_event();
	sample_vmstat = trace_event_enabled[TRACE_PAGETURN_MM_VMSTAT_SAMPLE] || any_vmscan_event();
	return 0;
}

void trace_tick(void)
{
	struct ring_buffer_stats st;
	struct zone *zone;

	if (sample_lru && tracing_on) {
		for_each_zone(zone) {
			if (!populated_zone(zone))
				continue;
			const unsigned long args[] = {
				0, zone_idx(zone), zone_page_state(zone, NR_FREE_PAGES),
				zone_page_state(zone, NR_INACTIVE_ANON),
				zone_page_state(zone, NR_ACTIVE_ANON),
				zone_page_state(zone, NR_INACTIVE_FILE),
				zone_page_state(zone, NR_ACTIVE_FILE),
				zone_page_state(zone, NR_UNEVICTABLE),
			};
			trace_tick_write(TRACE_PAGETURN_MM_LRU_SAMPLE, args, ARRAY_SIZE(args));
		}
	}
	if (sample_vmstat && tracing_on) {
		const unsigned long counts[] = {
			vm_event_states.event[PSWPIN], vm_event_states.event[PSWPOUT],
			vm_event_states.event[PGMAJFAULT],
		};
		trace_tick_write(TRACE_PAGETURN_MM_VMSTAT_SAMPLE, counts, ARRAY_SIZE(counts));
	}
	if (!list_empty(&trace_wait.task_list)) {
		ring_buffer_stats(&st);
		if (st.entries)
			wake_up(&trace_wait);
	}
}
