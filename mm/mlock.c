/*
 * Locking user memory in RAM (Linux's mm/mlock.c).
 *
 * mlock sets VM_LOCKED on the VMAs of a range, splitting them at its ends
 * and merging them with matching neighbours afterwards, as mprotect does
 * with its bits; munlock clears it.  mm->locked_vm counts the pages of
 * VM_LOCKED VMAs.  Locking faults every page of the range in (write
 * faults in private writable memory, so no copy-on-write is left for
 * later); a PROT_NONE VMA is locked without faulting.  Reclaim's
 * unevictable list arrives with reclaim of mapped pages: until then the
 * flag is only recorded, and since nothing evicts mapped pages yet,
 * locked memory does stay in RAM.
 *
 * The whole range must be mapped (-ENOMEM, nothing changed).  A failure
 * to fault the pages in is reported as Linux reports it (-ENOMEM for an
 * access the VMA refuses, -EAGAIN when out of memory), with VM_LOCKED
 * left set as in Linux.  RLIMIT_MEMLOCK is not checked: every process
 * is root, which Linux exempts from it (CAP_IPC_LOCK), so every process
 * may lock as much as it likes.
 *
 * mlockall(MCL_CURRENT) locks every VMA.  MCL_FUTURE sets mm->def_flags
 * to VM_LOCKED, which mmap and brk add to every VMA they create from
 * then on (mm/mmap.c), so new mappings are locked and faulted in as
 * they are made; it lasts until munlockall, an mlockall without
 * MCL_FUTURE, or exec (a new mm starts with def_flags 0), and a forked
 * child's mm starts without it, as on Linux.  MCL_ONFAULT (Linux 4.4)
 * is refused with -EINVAL.
 */
#include <mm/mmap.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

/* Set or clear VM_LOCKED on the whole of vma, counting locked_vm. */
static void mlock_vma_flags(struct vm_area_struct *vma, bool on)
{
	if (!!(vma->vm_flags & VM_LOCKED) == on)
		return;
	if (on) {
		vma->vm_flags |= VM_LOCKED;
		vma->vm_mm->locked_vm += vma_pages(vma);
	} else {
		vma->vm_flags &= ~VM_LOCKED;
		vma->vm_mm->locked_vm -= vma_pages(vma);
	}
}

/* Fault in the mapped pages of [start, end): 0, or the first error in
 * POSIX's terms (Linux's __mlock_posix_error_return). */
static int mlock_populate(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma;
	int err;

	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma)) {
		err = vma_populate(vma, MAX(start, vma->vm_start), MIN(end, vma->vm_end));
		if (err == -EFAULT)
			return -ENOMEM;
		if (err == -ENOMEM)
			return -EAGAIN;
		if (err)
			return err;
	}
	return 0;
}

/*
 * start need not be page-aligned: the range is widened to whole pages,
 * as mlock(2) does.  len 0 does nothing.
 */
int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len, bool on)
{
	struct vm_area_struct *vma, *next;
	unsigned long end;
	bool change = false;
	int err;

	if (len > TASK_SIZE)
		return -ENOMEM;
	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;

	vma = find_vma(mm, start);
	if (!vma || vma->vm_start > start)
		return -ENOMEM;
	for (;; vma = next) {
		change |= !!(vma->vm_flags & VM_LOCKED) != on;
		if (vma->vm_end >= end)
			break;
		next = vma_next(vma);
		if (!next || next->vm_start != vma->vm_end)
			return -ENOMEM;
	}

	if (change) {
		err = split_vma_range(mm, start, end);
		if (err)
			return err;
		for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma))
			mlock_vma_flags(vma, on);
		merge_vma_range(mm, start, end);
	}
	return on ? mlock_populate(mm, start, end) : 0;
}

/* mlock(2). */
long sys_mlock(unsigned long start, size_t len)
{
	return do_mlock(current->mm, start, len, true);
}

/* munlock(2). */
long sys_munlock(unsigned long start, size_t len)
{
	return do_mlock(current->mm, start, len, false);
}

/* mlockall(2): MCL_CURRENT, MCL_FUTURE or both (see above), else
 * -EINVAL.  Faulting errors are ignored, as Linux does. */
long sys_mlockall(int flags)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE)))
		return -EINVAL;
	mm->def_flags = (flags & MCL_FUTURE) ? VM_LOCKED : 0;
	if (!(flags & MCL_CURRENT))
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		mlock_vma_flags(vma, true);
	merge_vma_range(mm, 0, TASK_SIZE);
	mlock_populate(mm, 0, TASK_SIZE);
	return 0;
}

/* munlockall(2): every VMA unlocked, and MCL_FUTURE ended. */
long sys_munlockall(void)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	mm->def_flags = 0;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		mlock_vma_flags(vma, false);
	merge_vma_range(mm, 0, TASK_SIZE);
	return 0;
}
