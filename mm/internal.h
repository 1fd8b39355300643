/*
 * The VMA list primitives that mm/mmap.c shares with mm/mprotect.c,
 * mm/madvise.c and mm/mlock.c (Linux keeps split_vma and vma_merge in
 * include/linux/mm.h and the rest in mm/internal.h).  mm/mmap.c's opening
 * comment explains the list and its invariants.  Process context; the mm
 * needs no lock (one CPU, no preemption).
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pgtable.h>
#include <mm/swap.h>
#include <mm/vmstat.h>

/* addr rounded up to a page boundary (Linux's name).  Callers make sure
 * addr is at most TASK_SIZE, so it cannot wrap. */
#define PAGE_ALIGN(addr)	ALIGN_UP(addr, PAGE_SIZE)

/* The number of pages vma covers. */
static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}

/* The VMA before vma on its mm's list, or NULL if vma is the first. */
static inline struct vm_area_struct *vma_prev(const struct vm_area_struct *vma)
{
	if (vma->vm_list.prev == &vma->vm_mm->mmap)
		return NULL;
	return list_entry(vma->vm_list.prev, struct vm_area_struct, vm_list);
}

/*
 * Cut vma in two at addr (page-aligned, strictly inside it).  The new VMA
 * takes the part below addr when new_below, else the part from addr up;
 * vma keeps the other.  The new one shares vma's flags, its anon_vma
 * (joining its list) and (with another reference) its file (joining its
 * i_mmap), and its vm_pgoff is adjusted.  The page tables are
 * untouched and the counters do not change.  0, or -ENOMEM (out of
 * memory, or the mm already has DEFAULT_MAX_MAP_COUNT VMAs) with nothing
 * changed.
 */
int split_vma(struct mm_struct *mm, struct vm_area_struct *vma,
	      unsigned long addr, int new_below);

/*
 * Make start and end (page-aligned) boundaries between VMAs wherever one
 * VMA straddles them, so that [start, end) is covered by whole VMAs and
 * holes.  0, or -ENOMEM with the VMA list as it was.  The neighbours are
 * left unmerged on purpose: the caller changes or removes the VMAs inside
 * and then calls merge_vma_range.
 */
int split_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end);

/*
 * vma (linked on its mm's list) absorbs its predecessor and/or successor
 * when they are adjacent and compatible: same vm_flags, same vm_file,
 * contiguous vm_pgoff, and the same anon_vma or none on one side (the
 * survivor keeps, or takes, the one there is).  Returns the VMA that now covers vma's range;
 * vma itself may have been freed.  Never fails and allocates nothing.
 */
struct vm_area_struct *vma_merge(struct mm_struct *mm, struct vm_area_struct *vma);

/* vma_merge on every VMA that overlaps [start, end] or starts at end:
 * restores the merge invariant after the flags of the VMAs in [start,
 * end) changed (split_vma_range having cut them out). */
void merge_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end);

/*
 * Fault in the pages of [start, end) (page-aligned, inside vma) as Linux's
 * make_pages_present does: write faults in a private writable VMA, so
 * copy-on-write is broken now, read faults otherwise.  A PROT_NONE VMA
 * has nothing to fault in (0).  0, -ENOMEM or -EFAULT.
 */
int vma_populate(struct vm_area_struct *vma, unsigned long start, unsigned long end);

/*
 * Is there, near vma (its neighbours on its mm's list), a VMA whose
 * anon_vma vma may share because the two could one day be merged
 * (Linux's find_mergeable_anon_vma)?  Its anon_vma, or NULL.
 */
struct anon_vma *find_mergeable_anon_vma(struct vm_area_struct *vma);

/* ---- mlocked pages (Linux 2.6.28's mm/internal.h and mm/mlock.c) -------- */

/*
 * PG_mlocked means "some VM_LOCKED VMA maps this page"; every page with it
 * is counted in NR_MLOCK, and, when on an LRU list, is on LRU_UNEVICTABLE
 * (putback_lru_page puts it there).  mm/mlock.c's opening comment tells
 * who sets and clears it.  These are inline because reclaim, the fault
 * path and the page cache use them as well as mlock.
 */

/*
 * Set PG_mlocked on page (called with it locked), counting it, and move
 * it to LRU_UNEVICTABLE now if it is on a list; an isolated page goes
 * there when its isolator puts it back.  Nothing if it is mlocked
 * already.  Takes zone->lru_lock.
 */
static inline void mlock_vma_page(struct page *page)
{
	if (!TestSetPageMlocked(page)) {
		inc_zone_page_state(page, NR_MLOCK);
		count_vm_event(UNEVICTABLE_PGMLOCKED);
		if (!isolate_lru_page(page))
			putback_lru_page(page);
	}
}

/*
 * A new page, on no list yet, being mapped into vma: if vma is VM_LOCKED,
 * mlock it (without moving it: its caller is about to put it on a list)
 * and say so.  Linux's is_mlocked_vma.
 */
static inline bool is_mlocked_vma(struct vm_area_struct *vma, struct page *page)
{
	if (!(vma->vm_flags & VM_LOCKED))
		return false;
	if (!TestSetPageMlocked(page)) {
		inc_zone_page_state(page, NR_MLOCK);
		count_vm_event(UNEVICTABLE_PGMLOCKED);
	}
	return true;
}

/*
 * The page stops being mlocked other than by munlock: a copy-on-write
 * replaced it in a locked VMA, or truncation takes it out of its file
 * (called with the page locked).  Cleared without asking the reverse map,
 * as Linux does; a page still mapped in another locked VMA is mlocked
 * again if reclaim meets it (try_to_unmap).  Linux 2.6.28 returned early
 * for a page already out of its mapping without uncounting NR_MLOCK; here
 * the counter always follows the flag.
 */
static inline void clear_page_mlock(struct page *page)
{
	if (!TestClearPageMlocked(page))
		return;
	dec_zone_page_state(page, NR_MLOCK);
	count_vm_event(UNEVICTABLE_PGCLEARED);
	if (!isolate_lru_page(page))
		putback_lru_page(page);
	else if (PageUnevictable(page))
		count_vm_event(UNEVICTABLE_PGSTRANDED);
}

/*
 * page is about to be freed: a PG_mlocked left on it (its last locked
 * mapping went without munlock) is cleared and counted, so the free
 * path's PAGE_FLAGS_CHECK_AT_FREE test passes (Linux's free_page_mlock,
 * which runs in the page allocator's free path; here the two places that
 * release an LRU page's last users, vmscan's free_orphan and
 * drop_pte_page, call it).
 */
static inline void free_page_mlock(struct page *page)
{
	if (TestClearPageMlocked(page)) {
		dec_zone_page_state(page, NR_MLOCK);
		count_vm_event(UNEVICTABLE_MLOCKFREED);
	}
}

/*
 * Fault in [start, end) of vma (page-aligned, inside it) as vma_populate
 * does, then mlock every page mapped there (Linux's mlock_vma_pages_range).
 * vma is VM_LOCKED.  0, or vma_populate's error; pages mapped before an
 * error are mlocked all the same.  Process context; sleeps.
 */
int mlock_vma_pages_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);

/*
 * Clear VM_LOCKED on vma (locked_vm is the caller's) and munlock every
 * page mapped in [start, end): each one that no other VM_LOCKED VMA maps
 * (try_to_munlock) loses PG_mlocked and goes back to its evictable list
 * (Linux's munlock_vma_pages_range).  Process context; sleeps.
 */
void munlock_vma_pages_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);

/* munlock_vma_pages_range over the whole VMA: munmap and exit, before the
 * pages are unmapped. */
static inline void munlock_vma_pages_all(struct vm_area_struct *vma)
{
	munlock_vma_pages_range(vma, vma->vm_start, vma->vm_end);
}

/*
 * The page a PTE of vma maps at address (present or PROT_NONE), with a
 * reference for the caller, or NULL (Linux's follow_page with FOLL_GET).
 * Never sleeps.
 */
struct page *follow_page(struct vm_area_struct *vma, unsigned long address);

/* ---- the PTE primitives mm/memory.c shares with mm/rmap.c --------------- */

/* Does the PTE map a page (present or PROT_NONE)? */
static inline bool pte_mapped(pte_t pte)
{
	return pte & (_PAGE_PRESENT | _PAGE_PROTNONE);
}

/* The page a mapped PTE maps. */
static inline struct page *pte_page(pte_t pte)
{
	return pfn_to_page((pte & PTE_PFN_MASK) >> PAGE_SHIFT);
}

/* Store v in mm's PTE *ptep, which maps addr, and flush the old
 * translation if the CPU may have cached it.  Any context. */
void set_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t v);

/* Add anon and file (either may be negative) to mm's rss counters. */
void add_mm_rss(struct mm_struct *mm, long anon, long file);

/*
 * A PTE stopped mapping page: its mapcount (page_remove_rmap) and its
 * reference go.  An anonymous page mapped nowhere any more leaves its LRU
 * list, so that the last put_page frees it.  Process context.
 */
void drop_pte_page(struct page *page);

#endif
