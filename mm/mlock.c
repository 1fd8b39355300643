/*
 * Locking user memory in RAM (Linux's mm/mlock.c, v2.6.28: Nick Piggin,
 * Lee Schermerhorn and Rik van Riel's "mlock: mlocked pages are
 * unevictable").
 *
 * Two levels.  A VMA is locked by VM_LOCKED: mlock sets it on the VMAs of
 * a range, splitting them at its ends and merging them with matching
 * neighbours afterwards, as mprotect does with its bits; munlock clears
 * it.  mm->locked_vm counts the pages of VM_LOCKED VMAs.  A page is
 * locked by PG_mlocked, which says "some VM_LOCKED VMA maps me"; NR_MLOCK
 * (Mlocked in /proc/meminfo) counts those pages, and reclaim keeps them
 * on LRU_UNEVICTABLE (Unevictable), a list it never scans (mm/swap.c).
 *
 * Who sets PG_mlocked (mlock_vma_page and is_mlocked_vma, mm/internal.h):
 *   - mlock, mlockall and a VM_LOCKED mmap, brk or mremap fault the range
 *     in (write faults in private writable memory, so no copy-on-write is
 *     left for later; a PROT_NONE VMA is not faulted) and then mlock every
 *     page mapped there: mlock_vma_pages_range.  mlock_vma_page isolates
 *     each page and puts it back, which moves it to LRU_UNEVICTABLE;
 *   - a fault in a locked VMA mlocks the new anonymous page as it puts it
 *     on a list (lru_cache_add_active_or_unevictable);
 *   - reclaim, lazily, when it meets a page mapped in a locked VMA that is
 *     not marked yet (a file page faulted in later): try_to_unmap mlocks
 *     it and answers SWAP_MLOCK, and shrink_page_list culls it.
 * Who clears it:
 *   - munlock, munlockall, and munmap and exit of a locked VMA:
 *     munlock_vma_pages_range clears VM_LOCKED first, then, for each page
 *     mapped, munlock_vma_page clears PG_mlocked and asks the reverse map
 *     (try_to_munlock) whether another VM_LOCKED VMA still maps it (a
 *     second mapping of the same file page, or another process's); if one
 *     does the page is mlocked again and stays put, otherwise
 *     putback_lru_page rescues it to its evictable list;
 *   - copy-on-write in a locked VMA, for the page replaced, and
 *     truncation (clear_page_mlock);
 *   - the free of a page still marked (free_page_mlock; counted in
 *     unevictable_pgs_mlockfreed).
 * Every change of PG_mlocked is counted in /proc/vmstat's
 * unevictable_pgs_mlocked, _munlocked, _cleared or _mlockfreed; moves
 * between the lists in _culled and _rescued; a munlocked page that could
 * not be moved because someone else had it isolated in _stranded (its
 * isolator puts it back where it now belongs).  A page is locked
 * (PG_locked) while its PG_mlocked changes, as in Linux.
 *
 * A forked child's VMAs are not locked (VM_LOCKED is not inherited), so a
 * page the two share stays mlocked for the parent's sake; if the child
 * locks its own mapping too (a shared mapping, where no copy is made),
 * each munlock finds the other's VMA and the page is rescued only when
 * both have unlocked it.
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
#include <mm/pagemap.h>
#include <mm/rmap.h>
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

/*
 * Called with the page locked and PG_mlocked set or not.  Linux's
 * munlock_vma_page: the page is isolated first, so that try_to_munlock's
 * verdict and the list it goes back to agree.
 */
static void munlock_vma_page(struct page *page)
{
	if (!TestClearPageMlocked(page))
		return;
	dec_zone_page_state(page, NR_MLOCK);
	if (!isolate_lru_page(page)) {
		if (try_to_munlock(page) != SWAP_MLOCK)
			count_vm_event(UNEVICTABLE_PGMUNLOCKED);
		putback_lru_page(page);
	} else if (PageUnevictable(page)) {
		count_vm_event(UNEVICTABLE_PGSTRANDED);
	} else {
		count_vm_event(UNEVICTABLE_PGMUNLOCKED);
	}
}

/*
 * mlock (on) or munlock every page mapped in [start, end) of vma.  Each
 * page is held by follow_page's reference across lock_page's sleep; a
 * file page truncated meanwhile (no mapping any more) is left alone, as
 * in Linux's __mlock_vma_pages_range.
 */
static void mlock_pages(struct vm_area_struct *vma, unsigned long start, unsigned long end,
			bool on)
{
	unsigned long addr;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		struct page *page = follow_page(vma, addr);

		if (!page)
			continue;
		lock_page(page);
		if (page->mapping) {
			if (on)
				mlock_vma_page(page);
			else
				munlock_vma_page(page);
		}
		unlock_page(page);
		put_page(page);
		cond_resched();
	}
}

int mlock_vma_pages_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	int err = vma_populate(vma, start, end);

	/* The faults may have slept, but a VMA goes only by its own
	 * process's munmap or exit, and this process is here. */
	mlock_pages(vma, start, end, true);
	return err;
}

void munlock_vma_pages_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	vma->vm_flags &= ~VM_LOCKED;
	mlock_pages(vma, start, end, false);
}

/* Fault in and mlock the mapped pages of [start, end): 0, or the first
 * error in POSIX's terms (Linux's __mlock_posix_error_return). */
static int mlock_populate(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma;
	int err;

	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma)) {
		err = mlock_vma_pages_range(vma, MAX(start, vma->vm_start), MIN(end, vma->vm_end));
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
		for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma)) {
			bool was_locked = vma->vm_flags & VM_LOCKED;

			mlock_vma_flags(vma, on);
			if (was_locked && !on)
				munlock_vma_pages_all(vma);
		}
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
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (!(vma->vm_flags & VM_LOCKED))
			continue;
		mlock_vma_flags(vma, false);
		munlock_vma_pages_all(vma);
	}
	merge_vma_range(mm, 0, TASK_SIZE);
	return 0;
}
