/*
 * Advice about the use of a range of user memory (Linux's mm/madvise.c).
 *
 * Only MADV_DONTNEED acts: it zaps the pages of the range, so the next
 * access faults in a fresh zeroed page (private anonymous memory) or the
 * file's data again (file mappings; a shared one's dirty pages reach the
 * page cache first, mm/memory.c).  An anonymous shared VMA is left alone:
 * its pages are the memory itself, which Linux keeps in shmem across
 * MADV_DONTNEED, and a zap here would lose the data and the sharing.
 * MADV_NORMAL, RANDOM, SEQUENTIAL and WILLNEED are accepted without
 * effect (readahead does not look at VMAs), and so is MADV_FREE, whose
 * pages may be freed lazily: keeping them is a valid choice.
 *
 * As in Linux, the advice is applied to the mapped parts of the range and
 * holes in it make the call return -ENOMEM afterwards.  A VMA that the
 * advice cannot apply to (Linux's rules: DONTNEED and FREE refuse
 * VM_LOCKED, FREE wants private anonymous memory) fails the call with
 * -EINVAL; here that is checked over the whole range first, so it
 * changes nothing.
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
	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma)) {
		if (vma->vm_start > addr)
			hole = true;
		if (advice == MADV_DONTNEED && !((vma->vm_flags & VM_SHARED) && !vma->vm_file))
			zap_page_range(vma, MAX(start, vma->vm_start), MIN(end, vma->vm_end));
		addr = vma->vm_end;
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
