/*
 * /proc/meminfo, in Linux's layout: "Label:" padded to 16 columns, the
 * value right-aligned in 8, then " kB".  The lines are Linux 6.1's, in
 * its order, up to Committed_AS (the vmalloc, per-CPU, hardware-error,
 * huge-page and direct-map lines describe things Pageturn does not
 * have), so busybox's free and top and a student's eye read it as on
 * Linux.
 *
 * Every value comes from a counter that exists, or is 0 because the
 * thing it counts does not exist here (swap, the swap cache, bounce
 * buffers, reclaimable slab, NFS):
 *
 *   MemTotal          totalram_pages
 *   MemFree           NR_FREE_PAGES
 *   MemAvailable      Linux's si_mem_available(): free pages above the
 *                     reserves, plus the file LRU pages less what reclaim
 *                     would leave (half, at most the low watermarks);
 *                     tmpfs pages are on the anon lists, so not counted:
 *                     without swap nothing can reclaim them
 *   Buffers           the buffer cache's pages (nr_blockdev_pages); they
 *                     are not page-cache pages here, so Cached keeps them
 *   Cached            NR_FILE_PAGES (tmpfs pages included, as on Linux)
 *   Active ... Unevictable   the LRU counters
 *   Mlocked           NR_MLOCK: pages with PG_mlocked (mm/mlock.c)
 *   Dirty, Writeback  NR_FILE_DIRTY, NR_WRITEBACK
 *   AnonPages, Mapped NR_ANON_PAGES, NR_FILE_MAPPED
 *   Shmem             NR_SHMEM: tmpfs pages in the page cache
 *   Slab, SUnreclaim  NR_SLAB_UNRECLAIMABLE (all of the slab)
 *   KernelStack       a THREAD_SIZE block for every task (nr_threads)
 *   PageTables        NR_PAGETABLE
 *   CommitLimit       half of RAM (Linux's overcommit_ratio 50, no swap)
 *   Committed_AS      what the processes' mappings could commit: the
 *                     pages of every private writable mapping and shared
 *                     anonymous one, each address space counted once
 */
#include <asm/page.h>
#include <mm/gfp.h>
#include <mm/mmap.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/sched.h>

#include "internal.h"

static void show_val_kb(struct seq_file *m, const char *label, unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", label, pages << (PAGE_SHIFT - 10));
}

/* Linux's si_mem_available(), without the reclaimable slab Pageturn's
 * slab does not have. */
static unsigned long si_mem_available(void)
{
	unsigned long wmark_low = 0, pagecache;
	long available;
	struct zone *zone;

	for_each_zone(zone)
		wmark_low += zone->pages_low;
	available = (long)global_page_state(NR_FREE_PAGES) - (long)totalreserve_pages;
	pagecache = global_page_state(NR_ACTIVE_FILE) + global_page_state(NR_INACTIVE_FILE);
	pagecache -= MIN(pagecache / 2, wmark_low);
	available += pagecache;
	return available < 0 ? 0 : available;
}

/* Pages of mm's mappings that count against the commit limit (Linux's
 * VM_ACCOUNT mappings). */
static unsigned long mm_committed(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		if ((vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE ||
		    ((vma->vm_flags & VM_SHARED) && !vma->vm_file))
			pages += (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
	return pages;
}

/* The commitments of every address space, each counted once however many
 * tasks share it (vfork). */
static unsigned long vm_committed_as(void)
{
	struct task_struct *p, *q;
	unsigned long pages = 0;

	list_for_each_entry(p, &task_list_head, tasks) {
		if (!p->mm)
			continue;
		list_for_each_entry(q, &task_list_head, tasks) {
			if (q == p || q->mm == p->mm)
				break;
		}
		if (q == p)
			pages += mm_committed(p->mm);
	}
	return pages;
}

void meminfo_proc_show(struct seq_file *m)
{
	unsigned long lru[NR_LRU_LISTS], totalswap, freeswap;
	enum lru_list l;

	si_swapinfo(&totalswap, &freeswap);
	for_each_lru(l)
		lru[l] = global_page_state(NR_LRU_BASE + l);

	show_val_kb(m, "MemTotal:", totalram_pages);
	show_val_kb(m, "MemFree:", global_page_state(NR_FREE_PAGES));
	show_val_kb(m, "MemAvailable:", si_mem_available());
	show_val_kb(m, "Buffers:", nr_blockdev_pages());
	show_val_kb(m, "Cached:", global_page_state(NR_FILE_PAGES));
	show_val_kb(m, "SwapCached:", total_swapcache_pages());
	show_val_kb(m, "Active:", lru[LRU_ACTIVE_ANON] + lru[LRU_ACTIVE_FILE]);
	show_val_kb(m, "Inactive:", lru[LRU_INACTIVE_ANON] + lru[LRU_INACTIVE_FILE]);
	show_val_kb(m, "Active(anon):", lru[LRU_ACTIVE_ANON]);
	show_val_kb(m, "Inactive(anon):", lru[LRU_INACTIVE_ANON]);
	show_val_kb(m, "Active(file):", lru[LRU_ACTIVE_FILE]);
	show_val_kb(m, "Inactive(file):", lru[LRU_INACTIVE_FILE]);
	show_val_kb(m, "Unevictable:", lru[LRU_UNEVICTABLE]);
	show_val_kb(m, "Mlocked:", global_page_state(NR_MLOCK));
	show_val_kb(m, "SwapTotal:", totalswap);
	show_val_kb(m, "SwapFree:", freeswap);
	show_val_kb(m, "Dirty:", global_page_state(NR_FILE_DIRTY));
	show_val_kb(m, "Writeback:", global_page_state(NR_WRITEBACK));
	show_val_kb(m, "AnonPages:", global_page_state(NR_ANON_PAGES));
	show_val_kb(m, "Mapped:", global_page_state(NR_FILE_MAPPED));
	show_val_kb(m, "Shmem:", global_page_state(NR_SHMEM));
	show_val_kb(m, "KReclaimable:", 0);
	show_val_kb(m, "Slab:", global_page_state(NR_SLAB_UNRECLAIMABLE));
	show_val_kb(m, "SReclaimable:", 0);
	show_val_kb(m, "SUnreclaim:", global_page_state(NR_SLAB_UNRECLAIMABLE));
	seq_printf(m, "%-16s%8lu kB\n", "KernelStack:", nr_threads * (THREAD_SIZE >> 10));
	show_val_kb(m, "PageTables:", global_page_state(NR_PAGETABLE));
	show_val_kb(m, "NFS_Unstable:", 0);
	show_val_kb(m, "Bounce:", 0);
	show_val_kb(m, "WritebackTmp:", 0);
	show_val_kb(m, "CommitLimit:", totalram_pages / 2);
	show_val_kb(m, "Committed_AS:", vm_committed_as());
}
