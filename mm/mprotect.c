/*
 * Changing the protection of a range of user memory (Linux's
 * mm/mprotect.c, v2.6.28).
 *
 * A VMA's VM_READ/WRITE/EXEC bits say what its pages allow; its VM_MAY*
 * bits (VM_READ << 4 and so on) say which of them mprotect may turn on,
 * fixed when it was mapped (a read-only file opened shared lacks
 * VM_MAYWRITE).  mprotect(start, len, prot) gives every page of the range
 * the bits of prot.  For mprotect(x, y - x, PROT_READ) inside one
 * read-write VMA A:
 *
 *                   x                  y
 *   before:  [A rw- ...........................][B r-x ...]
 *   split:   [A rw- ][A' rw- ..........][A'' rw-][B r-x ...]
 *   change:  [A rw- ][A' r-- ..........][A'' rw-][B r-x ...]
 *   merge:   nothing matches, three VMAs stay.  mprotect(x, y - x,
 *            PROT_READ|PROT_WRITE) later splits nothing, changes A' and
 *            merges the three back into one A.
 *
 * The whole range is checked before anything changes: every page must be
 * mapped (-ENOMEM) and every VMA must allow the new bits (-EACCES), the
 * first failure in address order deciding the error as in Linux.  Linux
 * checks each VMA as it goes and can leave the range half changed; here
 * a failure changes nothing (mm/mmap.c explains how splits are undone).
 * Then the VMAs are split at the ends of the range, given their new
 * flags, their present PTEs rewritten by change_protection, and merged
 * with whatever neighbours they now match.
 */
#include <mm/mmap.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

/* vma's flags with its VM_READ/WRITE/EXEC replaced by vm_flags'. */
static unsigned long mprotect_newflags(const struct vm_area_struct *vma, unsigned long vm_flags)
{
	return vm_flags | (vma->vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC));
}

/*
 * PROT_GROWSDOWN (Linux's meaning) extends the range down to the start of
 * the VM_GROWSDOWN VMA that holds start (-EINVAL if it does not grow
 * down), so a stack made executable stays so as it grows.
 */
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long prot)
{
	struct vm_area_struct *vma, *next;
	unsigned long end, vm_flags, newflags;
	bool change = false;
	int err;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!len)
		return 0;
	if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM | PROT_GROWSDOWN))
		return -EINVAL;
	if (len > TASK_SIZE)
		return -ENOMEM;
	end = start + PAGE_ALIGN(len);
	if (end <= start)
		return -ENOMEM;
	vm_flags = calc_vm_prot_bits(prot);

	vma = find_vma(mm, start);
	if (!vma)
		return -ENOMEM;
	if (prot & PROT_GROWSDOWN) {
		if (vma->vm_start >= end)
			return -ENOMEM;
		if (!(vma->vm_flags & VM_GROWSDOWN))
			return -EINVAL;
		start = vma->vm_start;
	} else if (vma->vm_start > start) {
		return -ENOMEM;
	}

	for (;; vma = next) {
		newflags = mprotect_newflags(vma, vm_flags);
		/* newflags >> 4 puts the VM_MAY* bits where VM_* are. */
		if ((newflags & ~(newflags >> 4)) & (VM_READ | VM_WRITE | VM_EXEC))
			return -EACCES;
		change |= newflags != vma->vm_flags;
		if (vma->vm_end >= end)
			break;
		next = vma_next(vma);
		if (!next || next->vm_start != vma->vm_end)
			return -ENOMEM;
	}
	if (!change)
		return 0;

	err = split_vma_range(mm, start, end);
	if (err)
		return err;
	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma)) {
		newflags = mprotect_newflags(vma, vm_flags);
		if (newflags == vma->vm_flags)
			continue;
		vma->vm_flags = newflags;
		vma->vm_page_prot = vm_get_page_prot(newflags);
		change_protection(vma, vma->vm_start, vma->vm_end, vma->vm_page_prot);
	}
	merge_vma_range(mm, start, end);
	return 0;
}

/* mprotect(2). */
long sys_mprotect(unsigned long start, size_t len, unsigned long prot)
{
	return do_mprotect(current->mm, start, len, prot);
}
