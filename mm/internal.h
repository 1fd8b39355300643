/*
 * The VMA list primitives that mm/mmap.c shares with mm/mprotect.c,
 * mm/madvise.c and mm/mlock.c (Linux keeps split_vma and vma_merge in
 * include/linux/mm.h and the rest in mm/internal.h).  mm/mmap.c's opening
 * comment explains the list and its invariants.  Process context; the mm
 * needs no lock (one CPU, no preemption).
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include <mm/mmap.h>

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
 * vma keeps the other.  The new one shares vma's flags and (with another
 * reference) its file, and its vm_pgoff is adjusted.  The page tables are
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
 * when they are adjacent and compatible: same vm_flags, same vm_file and
 * contiguous vm_pgoff.  Returns the VMA that now covers vma's range;
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

#endif
