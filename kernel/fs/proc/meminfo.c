/*
 * /proc/meminfo, in Linux's layout: "Label:" padded to 16 columns, the
 * value right-aligned in 8, then " kB".  The lines are Linux v2.6.28's,
 * in its order, so busybox's free and a student's eye read it the same.
 * Counters whose subsystem does not exist yet (swap, buffers counted as
 * pages, mapped pages) are 0 until it does: their line is there so the
 * format never changes under a tool.  Cached is NR_FILE_PAGES: Linux
 * subtracts the swap cache and the buffer pages, and there are neither
 * in the page cache yet (the buffer cache keeps its own pages).
 */
#include <asm/page.h>
#include <fs/proc_fs.h>
#include <mm/gfp.h>
#include <mm/swap.h>
#include <mm/vmstat.h>

static void show_val_kb(struct seq_file *m, const char *label, unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", label, pages << (PAGE_SHIFT - 10));
}

void meminfo_proc_show(struct seq_file *m)
{
	unsigned long lru[NR_LRU_LISTS];
	enum lru_list l;

	for_each_lru(l)
		lru[l] = global_page_state(NR_LRU_BASE + l);

	show_val_kb(m, "MemTotal:", totalram_pages);
	show_val_kb(m, "MemFree:", global_page_state(NR_FREE_PAGES));
	show_val_kb(m, "Buffers:", 0);
	show_val_kb(m, "Cached:", global_page_state(NR_FILE_PAGES));
	show_val_kb(m, "SwapCached:", 0);
	show_val_kb(m, "Active:", lru[LRU_ACTIVE_ANON] + lru[LRU_ACTIVE_FILE]);
	show_val_kb(m, "Inactive:", lru[LRU_INACTIVE_ANON] + lru[LRU_INACTIVE_FILE]);
	show_val_kb(m, "Active(anon):", lru[LRU_ACTIVE_ANON]);
	show_val_kb(m, "Inactive(anon):", lru[LRU_INACTIVE_ANON]);
	show_val_kb(m, "Active(file):", lru[LRU_ACTIVE_FILE]);
	show_val_kb(m, "Inactive(file):", lru[LRU_INACTIVE_FILE]);
	show_val_kb(m, "Unevictable:", lru[LRU_UNEVICTABLE]);
	show_val_kb(m, "Mlocked:", 0);
	show_val_kb(m, "SwapTotal:", 0);
	show_val_kb(m, "SwapFree:", 0);
	show_val_kb(m, "Dirty:", global_page_state(NR_FILE_DIRTY));
	show_val_kb(m, "Writeback:", global_page_state(NR_WRITEBACK));
	show_val_kb(m, "AnonPages:", 0);
	show_val_kb(m, "Mapped:", 0);
	show_val_kb(m, "Slab:", global_page_state(NR_SLAB_UNRECLAIMABLE));
	show_val_kb(m, "SReclaimable:", 0);
	show_val_kb(m, "SUnreclaim:", global_page_state(NR_SLAB_UNRECLAIMABLE));
	show_val_kb(m, "PageTables:", global_page_state(NR_PAGETABLE));
	show_val_kb(m, "Bounce:", 0);
	show_val_kb(m, "WritebackTmp:", 0);
	show_val_kb(m, "CommitLimit:", totalram_pages / 2);
	show_val_kb(m, "Committed_AS:", 0);
}
