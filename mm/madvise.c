/*
 * Advice about the use of a range of user memory (Linux's mm/madvise.c).
 *
 *   MADV_DONTNEED  zaps the pages of the range, so the next access faults
 *                  in a fresh zeroed page (private anonymous memory) or
 *                  the file's data again (file mappings; a shared one's
 *                  dirty pages reach the page cache first, mm/memory.c);
 *                  swap PTEs are freed with their slots.  An anonymous
 *                  shared VMA is left alone: its pages are the memory
 *                  itself, which Linux keeps in shmem across
 *                  MADV_DONTNEED, and a zap here would lose the data and
 *                  the sharing.
 *   MADV_FREE      the range's contents may be dropped: its swapped pages
 *                  are (their slots freed; a later read gives zeroes, as
 *                  Linux allows), present ones are kept, which is a valid
 *                  way to free them lazily.
 *   MADV_WILLNEED  starts reading the range's swapped pages into the swap
 *                  cache (force_swapin_readahead); file readahead
 *                  does not look at VMAs, so nothing else.
 *   MADV_PAGEOUT   reclaims the range's present pages that this mapping
 *                  alone maps, now (Linux 5.4): anon pages go to swap if
 *                  there is some, dirty file pages are written, all as
 *                  reclaim decides for each.  Swap writes end after the
 *                  call returns: those pages stay in the swap cache until
 *                  then, and reclaim frees them afterwards.
 *   MADV_NORMAL, RANDOM, SEQUENTIAL: accepted, no effect.
 *
 * As in Linux, the advice is applied to the mapped parts of the range and
 * holes in it make the call return -ENOMEM afterwards.  A VMA that the
 * advice cannot apply to (Linux's rules: DONTNEED, FREE and PAGEOUT refuse
 * VM_LOCKED, FREE wants private anonymous memory) fails the call with
 * -EINVAL; here that is checked over the whole range first, so it
 * changes nothing.  WILLNEED and PAGEOUT sleep: the VMA is looked up
 * again after each one's walk.
 */
#include <mm/mmap.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

/* May advice be applied to vma? */
static bool madvise_vma_ok(const struct vm_area_struct *vma, int advice)
{
	switch (advice) {
	case MADV_DONTNEED:
	case MADV_PAGEOUT:
		return !(vma->vm_flags & VM_LOCKED);
	case MADV_FREE:
		return !(vma->vm_flags & (VM_LOCKED | VM_SHARED)) && !vma->vm_file;
	default:
		return true;
	}
}

int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len, int advice)
{
	struct vm_area_struct *vma;
	unsigned long end, addr;
	bool hole = false;

	switch (advice) {
	case MADV_NORMAL:
	case MADV_RANDOM:
	case MADV_SEQUENTIAL:
	case MADV_WILLNEED:
	case MADV_DONTNEED:
	case MADV_FREE:
	case MADV_PAGEOUT:
		break;
	default:
		return -EINVAL;
	}
	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (len > TASK_SIZE)
		return -ENOMEM;
	end = start + PAGE_ALIGN(len);
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;

	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma))
		if (!madvise_vma_ok(vma, advice))
			return -EINVAL;

	addr = start;
	while (addr < end && (vma = find_vma(mm, addr)) && vma->vm_start < end) {
		unsigned long from = MAX(addr, vma->vm_start), to = MIN(end, vma->vm_end);

		if (vma->vm_start > addr)
			hole = true;
		switch (advice) {
		case MADV_DONTNEED:
			if (!((vma->vm_flags & VM_SHARED) && !vma->vm_file))
				zap_page_range(vma, from, to);
			break;
		case MADV_FREE:
			madvise_free_swap(vma, from, to);
			break;
		case MADV_WILLNEED:
			if (!vma->vm_file)
				force_swapin_readahead(vma, from, to);
			break;
		case MADV_PAGEOUT:
			madvise_pageout(vma, from, to);
			break;
		}
		/* The walks may sleep: vma is not used after them. */
		addr = to;
	}
	if (addr < end)
		hole = true;
	return hole ? -ENOMEM : 0;
}

/* madvise(2). */
long sys_madvise(unsigned long start, size_t len, int behavior)
{
	return do_madvise(current->mm, start, len, behavior);
}
