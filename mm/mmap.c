/*
 * Address spaces and their VMAs (Linux's mm/mmap.c, v2.6.28 names, with
 * mm/mremap.c's in-place half and fork's dup_mmap from kernel/fork.c).
 * mm/mprotect.c, mm/madvise.c and mm/mlock.c change VMAs through the
 * primitives here (declared in mm/internal.h); mm/memory.c owns the page
 * tables below them.
 *
 * An mm_struct describes a process's user space [0, TASK_SIZE) as a list
 * of VMAs, mm->mmap, each a run of pages with one set of permissions and
 * one backing: anonymous memory, or a window on a file from page
 * vm_pgoff on.  A typical process, from low addresses up:
 *
 *   mm->mmap
 *     |
 *     v
 *   [text   r-x  file, pgoff 0 ]  start_code .. end_code
 *   [data   rw-  file, pgoff n ]  private: written pages become anonymous
 *   [bss    rw-  anon          ]  vm_brk_flags (exec)
 *   [heap   rw-  anon          ]  start_brk .. brk, grown by brk(2)
 *        ... free ...
 *   [mmaps, handed out top-down]  <- highest gap below mm->mmap_base first
 *        ... STACK_GAP ...        <- mmap_base = TASK_UNMAPPED_TOP
 *   [stack  rw-  anon GROWSDOWN]  grows down on faults (expand_stack)
 *                                 up to STACK_TOP = TASK_SIZE
 *
 * Invariants, true whenever no function here is running:
 *   - The list is sorted by vm_start, the VMAs do not overlap, and both
 *     ends of every VMA are page-aligned, with vm_start < vm_end <=
 *     TASK_SIZE.
 *   - No two neighbours could be one: if a->vm_end == b->vm_start then
 *     they differ in vm_flags or vm_file, or b->vm_pgoff is not
 *     a->vm_pgoff + pages(a), or both have an anon_vma and they differ
 *     (is_mergeable_anon_vma: the merged VMA must still be found by the
 *     reverse map from every anonymous page of both, mm/rmap.c).
 *     Anonymous VMAs have vm_pgoff == vm_start >> PAGE_SHIFT (Linux's
 *     convention; it is also each anonymous page's index, mm/rmap.c), so
 *     two adjacent anonymous VMAs with the same flags are merged unless
 *     each got an anon_vma of its own before they met.
 *   - Every file VMA is on its file's mapping->i_mmap, and every VMA
 *     with an anon_vma on that anon_vma's list (mm/rmap.c): linked where
 *     a VMA is made (mmap_region, split_vma, dup_mm), unlinked in
 *     remove_vma.  A split piece shares its original's anon_vma; a VMA
 *     that absorbs a neighbour takes the neighbour's if it had none.
 *   - vm_page_prot == vm_get_page_prot(vm_flags), and every PTE mm/memory.c
 *     puts in a VMA's range derives from it.
 *   - A file VMA holds one reference on vm_file (f_count).
 *   - A VMA with vm_ops has had vm_ops->open called (by its file's
 *     f_op->mmap, split_vma or dup_mm) and gets vm_ops->close from
 *     remove_vma: the owner sees every VMA come and go (SysV shm counts
 *     attaches so).
 *   - map_count is the number of VMAs; total_vm their pages; stack_vm the
 *     pages of VM_GROWSDOWN ones; locked_vm those of VM_LOCKED ones.
 *
 * Every operation that changes the list is all or nothing: whatever may
 * fail (allocating a VMA, splitting one) is done before anything visible
 * changes, and a second split that fails undoes the first by merging it
 * back (a VMA with vm_ops, which never merges, stays two VMAs that map
 * what the one did, as /proc/PID/maps and SysV shm's shm_nattch show).
 * For that reason vma_merge here merges a VMA that is already on
 * the list with its neighbours, where Linux's takes the range a VMA would
 * have and avoids allocating one; callers link or change a VMA first and
 * merge after.  A failing mmap, munmap, mprotect or mlock therefore
 * leaves the VMAs as they were (Linux can leave a multi-VMA mprotect or
 * mlock half done).  Only page faulting is not undone: MAP_POPULATE,
 * MAP_LOCKED and mlock fault pages in after the VMAs are in place.
 *
 * Anonymous shared memory (MAP_SHARED|MAP_ANONYMOUS) is Linux's shmem
 * mapping without the file: a VM_SHARED anonymous VMA whose pages fork
 * shares (copy_page_range maps the same pages in both, writable where
 * they were).  The
 * child can only share pages that exist, so dup_mm first faults in every
 * page of such a VMA in the parent.  MADV_DONTNEED leaves it alone, as
 * Linux's shmem keeps the data a zap would throw away.  Two limits
 * remain: a shared anonymous VMA that is PROT_NONE at fork cannot be
 * faulted in, and pages added later by mremap or stack growth are each
 * process's own.
 *
 * Where Pageturn differs from Linux 2.6.28: the VMAs are a plain sorted
 * list (Linux adds a red-black tree and a one-entry cache for find_vma);
 * mremap never moves a mapping (so an anonymous page never changes
 * address and the reverse map's formula stays right)
 * (MREMAP_MAYMOVE is accepted, and a mapping that cannot grow in place
 * gives -ENOMEM, after which malloc implementations allocate, copy and
 * free); MAP_FIXED_NOREPLACE is Linux 4.17's.
 *
 * Resource limits are the calling task's (current's, as in Linux), checked
 * before anything changes: RLIMIT_AS bounds total_vm for mmap, brk,
 * mremap and stack growth (a MAP_FIXED mapping is charged only for the
 * pages it adds, as Linux does since 4.x); RLIMIT_DATA bounds brk's heap
 * plus the data segment, as Linux did before 4.7 (Linux now also counts
 * private writable mmaps against it); RLIMIT_STACK bounds the stack VMA.
 * RLIMIT_MEMLOCK is not checked: everyone is root, whom Linux exempts.
 * mm->def_flags (VM_LOCKED after mlockall(MCL_FUTURE), mm/mlock.c) is
 * added to the flags of every mapping mmap and brk create; stack growth
 * and mremap extend a VMA with its own flags.
 *
 * Process context; an mm needs no lock, as there is one CPU and the
 * kernel is not preemptive (Linux's mmap_sem).
 */
#include <fs/file.h>
#include <fs/fs.h>
#include <mm/pgtable.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

/* The most VMAs one mm may have (Linux's sysctl vm.max_map_count). */
#define DEFAULT_MAX_MAP_COUNT	65530

/* May mm grow by npages under current's RLIMIT_AS (Linux's
 * may_expand_vm)? */
static bool may_expand_vm(struct mm_struct *mm, unsigned long npages)
{
	return mm->total_vm + npages <= task_rlimit(current, RLIMIT_AS) >> PAGE_SHIFT;
}

/* Count pages (negative: uncount them) of a VMA with vm_flags. */
static void vm_stat_account(struct mm_struct *mm, unsigned long vm_flags, long pages)
{
	mm->total_vm += pages;
	if (vm_flags & VM_GROWSDOWN)
		mm->stack_vm += pages;
	if (vm_flags & VM_LOCKED)
		mm->locked_vm += pages;
}

/* The first VMA with addr < vm_end, or NULL; *pprev is set to the VMA
 * before that one (the last VMA when it is NULL), or NULL if none. */
static struct vm_area_struct *find_vma_prev(struct mm_struct *mm, unsigned long addr,
					    struct vm_area_struct **pprev)
{
	struct vm_area_struct *vma;

	*pprev = NULL;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (addr < vma->vm_end)
			return vma;
		*pprev = vma;
	}
	return NULL;
}

/* A new file VMA (a copy's shared link is stale) goes on its mapping's
 * i_mmap, for the reverse map (Linux's __vma_link_file). */
static void vma_link_file(struct vm_area_struct *vma)
{
	struct address_space *mapping;
	unsigned long flags;

	if (!vma->vm_file)
		return;
	mapping = vma->vm_file->f_inode->i_mapping;
	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	list_add_tail(&vma->shared, &mapping->i_mmap);
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

/* Linux's unlink_file_vma; a VMA unlinked already stays so. */
static void unlink_file_vma(struct vm_area_struct *vma)
{
	struct address_space *mapping;
	unsigned long flags;

	if (!vma->vm_file || list_empty(&vma->shared))
		return;
	mapping = vma->vm_file->f_inode->i_mapping;
	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	list_del_init(&vma->shared);
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

/* Link vma, which overlaps no VMA of mm, into mm->mmap in address order,
 * and onto its file's i_mmap. */
static void insert_vm_struct(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *prev;

	find_vma_prev(mm, vma->vm_start, &prev);
	list_add(&vma->vm_list, prev ? &prev->vm_list : &mm->mmap);
	mm->map_count++;
	vma_link_file(vma);
}

/* Unlink vma (from its mm, its file's i_mmap and its anon_vma), drop its
 * file and free it.  Its pages were zapped or now belong to a neighbour
 * that absorbed its range (and its anon_vma); the caller fixes the
 * counters. */
static void remove_vma(struct mm_struct *mm, struct vm_area_struct *vma)
{
	list_del(&vma->vm_list);
	mm->map_count--;
	unlink_file_vma(vma);
	anon_vma_unlink(vma);
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	if (vma->vm_file)
		fput(vma->vm_file);
	kfree(vma);
}

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *prev;

	return find_vma_prev(mm, addr, &prev);
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm,
					     unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && end <= vma->vm_start)
		return NULL;
	return vma;
}

/* ---- splitting and merging ------------------------------------------------ */

int split_vma(struct mm_struct *mm, struct vm_area_struct *vma,
	      unsigned long addr, int new_below)
{
	struct vm_area_struct *new;

	if (mm->map_count >= DEFAULT_MAX_MAP_COUNT)
		return -ENOMEM;
	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	*new = *vma;
	if (new_below) {
		new->vm_end = addr;
		vma->vm_pgoff += (addr - vma->vm_start) >> PAGE_SHIFT;
		vma->vm_start = addr;
		list_add_tail(&new->vm_list, &vma->vm_list);
	} else {
		new->vm_start = addr;
		new->vm_pgoff += (addr - vma->vm_start) >> PAGE_SHIFT;
		vma->vm_end = addr;
		list_add(&new->vm_list, &vma->vm_list);
	}
	if (new->vm_file)
		get_file(new->vm_file);
	vma_link_file(new);
	anon_vma_link(new);
	mm->map_count++;
	if (new->vm_ops && new->vm_ops->open)
		new->vm_ops->open(new);
	return 0;
}

int split_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *first = find_vma(mm, start);
	struct vm_area_struct *last;
	bool split_first = false;
	int err;

	if (first && first->vm_start < start) {
		err = split_vma(mm, first, start, 0);
		if (err)
			return err;
		split_first = true;
	}
	last = find_vma(mm, end);
	if (last && last->vm_start < end) {
		err = split_vma(mm, last, end, 1);
		if (err) {
			if (split_first)
				vma_merge(mm, first);
			return err;
		}
	}
	return 0;
}

/*
 * May VMAs with these anon_vmas be one?  Only if one has none or both
 * have the same: the merged VMA is on one anon_vma's list, and must still
 * be found from every anonymous page either could map (Linux's
 * is_mergeable_anon_vma).
 */
static bool is_mergeable_anon_vma(const struct anon_vma *a, const struct anon_vma *b)
{
	return !a || !b || a == b;
}

/* a lies just below b and the two could be one VMA.  Never VMAs with
 * vm_ops: their owner counts them (Linux's is_mergeable_vma refuses those
 * with a close). */
static bool can_vma_merge(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	return a->vm_end == b->vm_start && a->vm_flags == b->vm_flags && !a->vm_ops && !b->vm_ops &&
	       a->vm_file == b->vm_file && a->vm_pgoff + vma_pages(a) == b->vm_pgoff &&
	       is_mergeable_anon_vma(a->anon_vma, b->anon_vma);
}

/* keep grows over gone, just above it (can_vma_merge), and takes its
 * anon_vma if it has none; gone is removed. */
static void vma_absorb(struct mm_struct *mm, struct vm_area_struct *keep,
		       struct vm_area_struct *gone)
{
	keep->vm_end = gone->vm_end;
	if (!keep->anon_vma && gone->anon_vma) {
		keep->anon_vma = gone->anon_vma;
		anon_vma_link(keep);
	}
	remove_vma(mm, gone);
}

struct vm_area_struct *vma_merge(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *prev = vma_prev(vma);
	struct vm_area_struct *next = vma_next(vma);

	if (prev && can_vma_merge(prev, vma)) {
		vma_absorb(mm, prev, vma);
		vma = prev;
	}
	if (next && can_vma_merge(vma, next))
		vma_absorb(mm, vma, next);
	return vma;
}

/* a and b (adjacent) are alike enough that they may one day merge, if
 * their protections come to agree (Linux's anon_vma_compatible). */
static bool anon_vma_compatible(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	unsigned long rwx = VM_READ | VM_WRITE | VM_EXEC;

	return a->vm_end == b->vm_start && a->vm_file == b->vm_file &&
	       (a->vm_flags & ~rwx) == (b->vm_flags & ~rwx) &&
	       a->vm_pgoff + vma_pages(a) == b->vm_pgoff;
}

struct anon_vma *find_mergeable_anon_vma(struct vm_area_struct *vma)
{
	struct vm_area_struct *prev = vma_prev(vma);
	struct vm_area_struct *next = vma_next(vma);

	if (prev && prev->anon_vma && anon_vma_compatible(prev, vma))
		return prev->anon_vma;
	if (next && next->anon_vma && anon_vma_compatible(vma, next))
		return next->anon_vma;
	return NULL;
}

/*
 * Every boundary where something changed lies in [start, end], and each
 * is checked by visiting the VMA above it, so the VMA that starts at end
 * is visited too: a split piece there may now match what lies below.
 */
void merge_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	while (vma && vma->vm_start <= end)
		vma = vma_next(vma_merge(mm, vma));
}

int vma_populate(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return 0;
	return populate_vma_range(vma, start, end,
				  (vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE);
}

/* ---- address spaces ------------------------------------------------------- */

/*
 * Linux's protection_map, indexed by VM_READ|VM_WRITE|VM_EXEC|VM_SHARED.
 * x86 cannot map a page write-only or execute-only, so those read as well.
 * A private writable VMA maps read-only: its first write faults and copies.
 * PROT_NONE is 0, not Linux's PAGE_NONE: a PROT_NONE VMA has no present
 * PTEs, because the fault path refuses every access to it before
 * handle_mm_fault could map one, and change_protection turns the PTEs it
 * had into non-present _PAGE_PROTNONE ones that keep their pages
 * (mm/memory.c).
 */
static const uint64_t protection_map[16] = {
	[0]					= 0,
	[VM_READ]				= PAGE_READONLY,
	[VM_WRITE]				= PAGE_READONLY,
	[VM_READ | VM_WRITE]			= PAGE_READONLY,
	[VM_EXEC]				= PAGE_READONLY_EXEC,
	[VM_EXEC | VM_READ]			= PAGE_READONLY_EXEC,
	[VM_EXEC | VM_WRITE]			= PAGE_READONLY_EXEC,
	[VM_EXEC | VM_READ | VM_WRITE]		= PAGE_READONLY_EXEC,
	[VM_SHARED]				= 0,
	[VM_SHARED | VM_READ]			= PAGE_READONLY,
	[VM_SHARED | VM_WRITE]			= PAGE_SHARED,
	[VM_SHARED | VM_READ | VM_WRITE]	= PAGE_SHARED,
	[VM_SHARED | VM_EXEC]			= PAGE_READONLY_EXEC,
	[VM_SHARED | VM_EXEC | VM_READ]		= PAGE_READONLY_EXEC,
	[VM_SHARED | VM_EXEC | VM_WRITE]	= PAGE_SHARED_EXEC,
	[VM_SHARED | VM_EXEC | VM_READ | VM_WRITE] = PAGE_SHARED_EXEC,
};

uint64_t vm_get_page_prot(unsigned long vm_flags)
{
	return protection_map[vm_flags & (VM_READ | VM_WRITE | VM_EXEC | VM_SHARED)];
}

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	INIT_LIST_HEAD(&mm->mmap);
	mm->mm_users = 1;
	mm->mmap_base = TASK_UNMAPPED_TOP;
	mm->pgd = pgd_alloc(mm);
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	return mm;
}

/*
 * Unmap and free every VMA and the page tables (Linux's exit_mmap).  A
 * locked VMA munlocks its pages first (mm/mlock.c), as munmap does.  The
 * VMAs leave the reverse map before the tables go (as in Linux's
 * free_pgtables): remove_vma's fput may sleep, and a truncation that ran
 * meanwhile must not find a VMA whose page tables are gone.
 */
static void exit_mmap(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *tmp;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_flags & VM_LOCKED)
			munlock_vma_pages_all(vma);
		zap_page_range(vma, vma->vm_start, vma->vm_end);
	}
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unlink_file_vma(vma);
		anon_vma_unlink(vma);
	}
	free_pgtables(mm);
	list_for_each_entry_safe(vma, tmp, &mm->mmap, vm_list)
		remove_vma(mm, vma);
}

void mmput(struct mm_struct *mm)
{
	if (--mm->mm_users > 0)
		return;
	exit_mmap(mm);
	kfree(mm);
}

/*
 * As Linux's dup_mmap, the child's VMAs lose VM_LOCKED (memory locks are
 * not inherited), which may leave neighbours that differ only in it: they
 * are merged at the end.  For the same reason def_flags is not copied: an
 * mlockall(MCL_FUTURE) does not lock the child's new mappings (Linux's
 * mm_init keeps no VM_LOCKED in it).  On failure mmput undoes everything, including
 * the VMA whose copy_page_range failed half way: its range is zapped.
 */
struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct vm_area_struct *mpnt, *tmp;
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return NULL;
	mm->mmap_base = oldmm->mmap_base;
	mm->start_code = oldmm->start_code;
	mm->end_code = oldmm->end_code;
	mm->start_data = oldmm->start_data;
	mm->end_data = oldmm->end_data;
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	mm->start_stack = oldmm->start_stack;
	mm->arg_start = oldmm->arg_start;
	mm->arg_end = oldmm->arg_end;
	mm->env_start = oldmm->env_start;
	mm->env_end = oldmm->env_end;

	list_for_each_entry(mpnt, &oldmm->mmap, vm_list) {
		if ((mpnt->vm_flags & VM_SHARED) && !mpnt->vm_file &&
		    vma_populate(mpnt, mpnt->vm_start, mpnt->vm_end))
			goto fail;
		tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);
		if (!tmp)
			goto fail;
		*tmp = *mpnt;
		tmp->vm_mm = mm;
		tmp->vm_flags &= ~VM_LOCKED;
		if (tmp->vm_file)
			get_file(tmp->vm_file);
		list_add_tail(&tmp->vm_list, &mm->mmap);
		mm->map_count++;
		if (tmp->vm_ops && tmp->vm_ops->open)
			tmp->vm_ops->open(tmp);
		/* Before its PTEs exist, so the reverse map finds them. */
		vma_link_file(tmp);
		anon_vma_link(tmp);
		vm_stat_account(mm, tmp->vm_flags, vma_pages(tmp));
		if (copy_page_range(mm, oldmm, mpnt))
			goto fail;
	}
	merge_vma_range(mm, 0, TASK_SIZE);
	mm->hiwater_rss = mm->anon_rss + mm->file_rss;
	return mm;

fail:
	mmput(mm);
	return NULL;
}

/* ---- mmap ----------------------------------------------------------------- */

/*
 * Errors come back as -errno cast to unsigned long: never page-aligned,
 * so `addr & ~PAGE_MASK` tells them from addresses, as in Linux.  A hint
 * is rounded down to its page and up to MMAP_MIN_ADDR (Linux's
 * round_hint_to_min).  When nothing fits below mmap_base the answer is
 * -ENOMEM: Linux would retry bottom-up from TASK_UNMAPPED_BASE and could
 * then use the stack gap.
 */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				unsigned long len, unsigned long flags)
{
	struct vm_area_struct *vma;
	unsigned long high, low;

	if (len > TASK_SIZE)
		return -ENOMEM;
	if (flags & MAP_FIXED) {
		if (addr > TASK_SIZE - len)
			return -ENOMEM;
		if (addr & ~PAGE_MASK)
			return -EINVAL;
		return addr;
	}
	addr &= PAGE_MASK;
	if (addr) {
		addr = MAX(addr, MMAP_MIN_ADDR);
		if (addr <= TASK_SIZE - len && !find_vma_intersection(mm, addr, addr + len))
			return addr;
	}
	high = mm->mmap_base;
	vma = list_empty(&mm->mmap) ? NULL
				    : list_last_entry(&mm->mmap, struct vm_area_struct, vm_list);
	for (; vma; vma = vma_prev(vma)) {
		if (vma->vm_start >= high)
			continue;
		low = MAX(vma->vm_end, MMAP_MIN_ADDR);
		if (low < high && high - low >= len)
			return high - len;
		high = vma->vm_start;
	}
	if (high > MMAP_MIN_ADDR && high - MMAP_MIN_ADDR >= len)
		return high - len;
	return -ENOMEM;
}

/* The VM_* bits that mmap's flags ask for (Linux's calc_vm_flag_bits). */
static unsigned long calc_vm_flag_bits(unsigned long flags)
{
	return ((flags & MAP_GROWSDOWN) ? VM_GROWSDOWN : 0) |
	       ((flags & MAP_LOCKED) ? VM_LOCKED : 0);
}

/* The pages of mm's VMAs inside [start, end) (Linux's
 * count_vma_pages_range). */
static unsigned long count_vma_pages_range(struct mm_struct *mm, unsigned long start,
					   unsigned long end)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = vma_next(vma))
		pages += (MIN(end, vma->vm_end) - MAX(start, vma->vm_start)) >> PAGE_SHIFT;
	return pages;
}

/*
 * Map [addr, addr+len) (page-aligned, checked by get_unmapped_area) with
 * vm_flags, file (not yet referenced by the VMA) from pgoff, replacing
 * whatever was there; merge with the neighbours, and fault a VM_LOCKED
 * range in and mlock its pages (mlock_vma_pages_range).  0, or -ENOMEM with nothing changed (also when the mapping
 * would take mm beyond RLIMIT_AS).  Linux's mmap_region.
 */
static int mmap_region(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long vm_flags, struct file *file, pgoff_t pgoff)
{
	struct vm_area_struct *vma;
	int err;

	if (!may_expand_vm(mm, len >> PAGE_SHIFT) &&
	    !may_expand_vm(mm, (len >> PAGE_SHIFT) - count_vma_pages_range(mm, addr, addr + len)))
		return -ENOMEM;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	vma->vm_mm = mm;
	vma->vm_start = addr;
	vma->vm_end = addr + len;
	vma->vm_flags = vm_flags;
	vma->vm_page_prot = vm_get_page_prot(vm_flags);
	vma->vm_pgoff = file ? pgoff : addr >> PAGE_SHIFT;
	vma->vm_file = file;	/* referenced once the VMA is sure to stay */
	/* The file's say comes before anything changes; after it, a failure
	 * must tell the file the VMA is gone (close). */
	err = file && file->f_op && file->f_op->mmap ? file->f_op->mmap(file, vma) : 0;
	if (!err) {
		err = do_munmap(mm, addr, len);
		if (err && vma->vm_ops && vma->vm_ops->close)
			vma->vm_ops->close(vma);
	}
	if (err) {
		kfree(vma);
		return err;
	}
	if (file)
		get_file(file);
	insert_vm_struct(mm, vma);
	vm_stat_account(mm, vm_flags, len >> PAGE_SHIFT);
	vma = vma_merge(mm, vma);
	/* Errors are ignored as in Linux: the pages fault in later. */
	if (vm_flags & VM_LOCKED)
		mlock_vma_pages_range(vma, addr, addr + len);
	return 0;
}

/*
 * The checks are Linux's, in Linux's order, all before anything changes.
 * A MAP_SHARED mapping of a file opened read-only loses VM_MAYWRITE and
 * VM_SHARED as in Linux: it can never be written, so it behaves as a
 * private one.  An anonymous mapping's vm_pgoff is its page number.
 * MAP_POPULATE (unless MAP_NONBLOCK) faults the range in and ignores
 * failures, as Linux does.
 */
long do_mmap_pgoff(struct mm_struct *mm, unsigned long addr, unsigned long len,
		   unsigned long prot, unsigned long flags, struct file *file,
		   pgoff_t pgoff)
{
	struct vm_area_struct *vma;
	unsigned long vm_flags;
	int err;

	if (!len)
		return -EINVAL;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (len > TASK_SIZE)
		return -ENOMEM;
	len = PAGE_ALIGN(len);
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	if (mm->map_count > DEFAULT_MAX_MAP_COUNT)
		return -ENOMEM;

	addr = get_unmapped_area(mm, addr, len, flags);
	if (addr & ~PAGE_MASK)
		return (long)addr;
	if (addr < MMAP_MIN_ADDR)
		return -EPERM;
	if ((flags & MAP_FIXED_NOREPLACE) && find_vma_intersection(mm, addr, addr + len))
		return -EEXIST;

	vm_flags = calc_vm_prot_bits(prot) | calc_vm_flag_bits(flags) | mm->def_flags |
		   VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	if (file) {
		switch (flags & MAP_TYPE) {
		case MAP_SHARED:
			if ((prot & PROT_WRITE) && !(file->f_mode & FMODE_WRITE))
				return -EACCES;
			vm_flags |= VM_SHARED | VM_MAYSHARE;
			if (!(file->f_mode & FMODE_WRITE))
				vm_flags &= ~(VM_MAYWRITE | VM_SHARED);
			__attribute__((fallthrough));
		case MAP_PRIVATE:
			if (!(file->f_mode & FMODE_READ))
				return -EACCES;
			if (!file->f_inode || !file->f_inode->i_mapping)
				return -ENODEV;
			break;
		default:
			return -EINVAL;
		}
	} else {
		switch (flags & MAP_TYPE) {
		case MAP_SHARED:
			vm_flags |= VM_SHARED | VM_MAYSHARE;
			break;
		case MAP_PRIVATE:
			break;
		default:
			return -EINVAL;
		}
	}

	err = mmap_region(mm, addr, len, vm_flags, file, pgoff);
	if (err)
		return err;
	if ((flags & MAP_POPULATE) && !(flags & MAP_NONBLOCK) && !(vm_flags & VM_LOCKED)) {
		vma = find_vma(mm, addr);
		vma_populate(vma, addr, addr + len);
	}
	return (long)addr;
}

int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	struct vm_area_struct *vma, *next;
	unsigned long end;
	int err;

	if ((start & ~PAGE_MASK) || start > TASK_SIZE || len > TASK_SIZE - start)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len)
		return -EINVAL;
	end = start + len;

	vma = find_vma(mm, start);
	if (!vma || vma->vm_start >= end)
		return 0;
	err = split_vma_range(mm, start, end);
	if (err)
		return err;
	for (vma = find_vma(mm, start); vma && vma->vm_start < end; vma = next) {
		next = vma_next(vma);
		vm_stat_account(mm, vma->vm_flags, -(long)vma_pages(vma));
		/* Its pages stop being locked by it before they are unmapped. */
		if (vma->vm_flags & VM_LOCKED)
			munlock_vma_pages_all(vma);
		zap_page_range(vma, vma->vm_start, vma->vm_end);
		remove_vma(mm, vma);
	}
	return 0;
}

/* ---- brk and the stack ---------------------------------------------------- */

/*
 * Linux's do_brk: like mmap_region for anonymous memory, at exactly addr
 * (page-aligned, -EINVAL otherwise), replacing what is there.  vm_flags
 * may hold VM_READ, VM_WRITE, VM_EXEC, VM_MAY* and VM_LOCKED (-EINVAL for
 * anything else); VM_MAYREAD|VM_MAYWRITE|VM_MAYEXEC are added, as every
 * private anonymous mapping has them, and mm->def_flags.  len is rounded
 * up to pages; 0 maps nothing.  0, -EINVAL or -ENOMEM (also beyond
 * TASK_SIZE or RLIMIT_AS).
 */
int vm_brk_flags(struct mm_struct *mm, unsigned long addr, unsigned long len,
		 unsigned long vm_flags)
{
	if (vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC | VM_MAYREAD | VM_MAYWRITE |
			 VM_MAYEXEC | VM_LOCKED))
		return -EINVAL;
	if (len > TASK_SIZE)
		return -ENOMEM;
	len = PAGE_ALIGN(len);
	if (!len)
		return 0;
	addr = get_unmapped_area(mm, addr, len, MAP_FIXED);
	if (addr & ~PAGE_MASK)
		return (int)(long)addr;
	return mmap_region(mm, addr, len,
			   vm_flags | mm->def_flags | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC, NULL, 0);
}

/*
 * Linux's sys_brk.  The heap is [start_brk, brk) rounded up to pages; its
 * VMA grows by vm_brk_flags (merging with the heap VMA below) and shrinks
 * by unmapping whole pages above the new end.  A brk below start_brk,
 * beyond TASK_SIZE, whose heap plus data segment would exceed
 * RLIMIT_DATA (Linux's check_data_rlimit, made before anything else, so
 * even a shrinking brk above the limit is refused), or whose pages would
 * overlap the next mapping or exceed RLIMIT_AS is refused by returning
 * the old brk.
 */
unsigned long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long newbrk, oldbrk, rlim = task_rlimit(current, RLIMIT_DATA);

	if (brk < mm->start_brk || brk > TASK_SIZE)
		return mm->brk;
	if (rlim != RLIM_INFINITY &&
	    (brk - mm->start_brk) + (mm->end_data - mm->start_data) > rlim)
		return mm->brk;
	newbrk = PAGE_ALIGN(brk);
	oldbrk = PAGE_ALIGN(mm->brk);
	if (oldbrk == newbrk)
		goto set_brk;
	if (brk <= mm->brk) {
		if (do_munmap(mm, newbrk, oldbrk - newbrk))
			return mm->brk;
		goto set_brk;
	}
	if (find_vma_intersection(mm, oldbrk, newbrk))
		return mm->brk;
	if (vm_brk_flags(mm, oldbrk, newbrk - oldbrk,
			 VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC))
		return mm->brk;
set_brk:
	mm->brk = brk;
	return brk;
}

/*
 * Linux's expand_downwards with acct_stack_growth.  A VMA without
 * VM_GROWSDOWN cannot grow (-ENOMEM); an address at or above vm_start
 * needs nothing (0).  The VMA may reach current's RLIMIT_STACK in size
 * (with no limit, as far as the guard page above the VMA below), and
 * growth stops at MMAP_MIN_ADDR and at RLIMIT_AS too.
 */
int expand_stack(struct vm_area_struct *vma, unsigned long address)
{
	struct vm_area_struct *prev;
	unsigned long grow;

	if (!(vma->vm_flags & VM_GROWSDOWN))
		return -ENOMEM;
	address &= PAGE_MASK;
	if (address >= vma->vm_start)
		return 0;
	if (vma->vm_end - address > task_rlimit(current, RLIMIT_STACK) || address < MMAP_MIN_ADDR)
		return -ENOMEM;
	prev = vma_prev(vma);
	if (prev && address < prev->vm_end + PAGE_SIZE)
		return -ENOMEM;
	grow = (vma->vm_start - address) >> PAGE_SHIFT;
	if (!may_expand_vm(vma->vm_mm, grow))
		return -ENOMEM;
	vma->vm_start = address;
	vma->vm_pgoff -= grow;
	vm_stat_account(vma->vm_mm, vma->vm_flags, grow);
	return 0;
}

/* ---- system calls --------------------------------------------------------- */

/* mmap(2): x86-64's sys_mmap, off in bytes (page-aligned, else -EINVAL). */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	struct file *file = NULL;
	long ret;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		file = fget(fd);
		if (!file)
			return -EBADF;
	}
	ret = do_mmap_pgoff(current->mm, addr, len, prot, flags, file, off >> PAGE_SHIFT);
	if (file)
		fput(file);
	return ret;
}

/* munmap(2). */
long sys_munmap(unsigned long addr, size_t len)
{
	return do_munmap(current->mm, addr, len);
}

/* brk(2): the brk in effect afterwards. */
long sys_brk(unsigned long brk)
{
	return (long)do_brk(current->mm, brk);
}

/*
 * mremap(2) without moving (Linux's mm/mremap.c, in-place cases only).
 * addr must be inside a VMA (-EFAULT, as Linux's vma_lookup), which also
 * keeps addr + new_len from wrapping around the top of the address
 * space.  Shrinking unmaps the tail and returns addr.  Growing needs [addr,
 * addr+old_len) to end exactly at the end of one VMA (-EFAULT when it
 * is not inside one VMA, as Linux) and the space after it to be free;
 * then the VMA grows (merging with the next one if they now touch) and
 * addr is returned.  Anything else is -ENOMEM, MREMAP_MAYMOVE or not,
 * and so is growth beyond RLIMIT_AS.
 * MREMAP_FIXED, which must move, is refused (-EINVAL), so new_addr is
 * never looked at.
 */
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma, *next;
	unsigned long delta, old_end;
	int err;

	(void)new_addr;
	if (flags & ~MREMAP_MAYMOVE)
		return -EINVAL;
	if ((addr & ~PAGE_MASK) || !new_len)
		return -EINVAL;
	if (old_len > TASK_SIZE || new_len > TASK_SIZE)
		return -ENOMEM;
	old_len = PAGE_ALIGN(old_len);
	new_len = PAGE_ALIGN(new_len);
	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start > addr)
		return -EFAULT;

	if (old_len >= new_len) {
		if (old_len > new_len) {
			err = do_munmap(mm, addr + new_len, old_len - new_len);
			if (err)
				return err;
		}
		return (long)addr;
	}

	if (old_len > vma->vm_end - addr)
		return -EFAULT;
	if (old_len != vma->vm_end - addr)
		return -ENOMEM;
	delta = new_len - old_len;
	next = vma_next(vma);
	if (vma->vm_end > TASK_SIZE - delta || (next && next->vm_start - vma->vm_end < delta))
		return -ENOMEM;
	if (!may_expand_vm(mm, delta >> PAGE_SHIFT))
		return -ENOMEM;
	old_end = vma->vm_end;
	vma->vm_end += delta;
	vm_stat_account(mm, vma->vm_flags, delta >> PAGE_SHIFT);
	vma = vma_merge(mm, vma);
	if (vma->vm_flags & VM_LOCKED)
		mlock_vma_pages_range(vma, old_end, old_end + delta);
	return (long)addr;
}
