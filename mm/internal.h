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

/* ---- the PTE primitives mm/memory.c shares with mm/rmap.c --------------- */

/* A PROT_NONE PTE: not present, still mapping its page (mm/memory.c). */
#define _PAGE_PROTNONE		_PAGE_GLOBAL

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
