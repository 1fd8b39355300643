/*
 * Process address spaces: VMAs (mm/mmap.c) and the page tables and page
 * faults under them (mm/memory.c, mm/fault.c).  Linux's include/linux/mm.h
 * names, v2.6.28.  The structures are in mm/mm_types.h.
 *
 * User addresses are [0, TASK_SIZE); everything above belongs to the
 * kernel, whose half of every pgd is shared with init_pgd.  Every function
 * returns 0 (or an address) or a negative errno; none panics on a bad
 * argument.  Process context, may sleep.  There is one CPU and the kernel
 * is not preemptive, so the mm of the running task needs no lock (Linux's
 * mmap_sem).
 */
#ifndef MM_MMAP_H
#define MM_MMAP_H

#include <asm/page.h>
#include <mm/mm_types.h>
#include <mm/swapops.h>
#include <uapi/mman.h>

struct pt_regs;
struct address_space;

/* The top of user space: one page below the canonical hole, as Linux. */
#define TASK_SIZE	0x00007ffffffff000ul
/* Where mmap looks first, searching down (Linux: below the stack gap). */
#define TASK_UNMAPPED_TOP (TASK_SIZE - STACK_GAP)
/* The lowest address mmap hands out unless asked (Linux: mmap_min_addr). */
#define MMAP_MIN_ADDR	0x10000ul
/* The initial stack's top and the room kept for it to grow. */
#define STACK_TOP	TASK_SIZE
#define STACK_GAP	(128ul << 20)
/* RLIMIT_STACK's default (init_rlimits): how far the stack may grow down. */
#define STACK_RLIMIT_DEFAULT (8ul << 20)

/* vm_flags (Linux's values). */
#define VM_READ		0x00000001ul
#define VM_WRITE	0x00000002ul
#define VM_EXEC		0x00000004ul
#define VM_SHARED	0x00000008ul
#define VM_MAYREAD	0x00000010ul	/* mprotect may add VM_READ */
#define VM_MAYWRITE	0x00000020ul
#define VM_MAYEXEC	0x00000040ul
#define VM_MAYSHARE	0x00000080ul
#define VM_GROWSDOWN	0x00000100ul	/* the stack: grows down on faults below it */
#define VM_LOCKED	0x00002000ul	/* mlock()ed */
#define VM_STACK_FLAGS	(VM_GROWSDOWN | VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)

/* The VM_READ/WRITE/EXEC bits for PROT_* bits (Linux's calc_vm_prot_bits;
 * the values coincide, but the names say which is which). */
static inline unsigned long calc_vm_prot_bits(unsigned long prot)
{
	return ((prot & PROT_READ) ? VM_READ : 0) |
	       ((prot & PROT_WRITE) ? VM_WRITE : 0) |
	       ((prot & PROT_EXEC) ? VM_EXEC : 0);
}

/* The VMA after vma on its mm's list, or NULL if vma is the last. */
static inline struct vm_area_struct *vma_next(const struct vm_area_struct *vma)
{
	if (vma->vm_list.next == &vma->vm_mm->mmap)
		return NULL;
	return list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
}

/* ---- mm/mmap.c: address spaces and their VMAs ----------------------------- */

/* A new address space: an empty VMA list and a pgd whose kernel half is
 * init_pgd's.  NULL when out of memory.  mm_users is 1. */
struct mm_struct *mm_alloc(void);

/* Drop a user; the last one unmaps every VMA (exit_mmap), frees the page
 * tables and the mm. */
void mmput(struct mm_struct *mm);

/*
 * fork: a copy of oldmm.  Every VMA is duplicated (files get another
 * reference; the copy joins its original's anon_vma and its file's
 * i_mmap, mm/rmap.c) and its page tables copied by copy_page_range, so
 * private writable pages become copy-on-write in both.  NULL when out of memory,
 * with nothing left allocated.
 */
struct mm_struct *dup_mm(struct mm_struct *oldmm);

/* The first VMA with addr < vm_end, or NULL (Linux's find_vma: the VMA may
 * start above addr). */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);

/* The first VMA overlapping [start, end), or NULL. */
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm,
					     unsigned long start, unsigned long end);

/* An address for len bytes: addr itself if it is a free, page-aligned
 * hint (or MAP_FIXED), else the highest free gap below mm->mmap_base.
 * -ENOMEM when nothing fits or a fixed range passes TASK_SIZE, -EINVAL
 * for an unaligned fixed address. */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				unsigned long len, unsigned long flags);

/*
 * mmap(2)'s work, with Linux's checks: prot PROT_*, flags MAP_*, file
 * held by the caller (the VMA takes its own reference) or NULL with
 * MAP_ANONYMOUS, pgoff in pages.  MAP_FIXED first unmaps what is there.
 * A file mapping needs file->f_inode->i_mapping (-ENODEV without), read
 * access (-EACCES), and write access for a shared writable one.  The
 * new VMA is merged with compatible neighbours.  Returns the address,
 * or -EINVAL, -ENOMEM, -EACCES, -ENODEV, -EEXIST (MAP_FIXED_NOREPLACE),
 * -EPERM (a fixed address below MMAP_MIN_ADDR), -EOVERFLOW (pgoff).
 * MAP_POPULATE and MAP_LOCKED fault the pages in before returning.
 */
long do_mmap_pgoff(struct mm_struct *mm, unsigned long addr, unsigned long len,
		   unsigned long prot, unsigned long flags, struct file *file,
		   pgoff_t pgoff);

/* Unmap [start, start+len): VMAs are split at the ends and their pages
 * zapped.  0, or -EINVAL (unaligned start, len 0, beyond TASK_SIZE),
 * -ENOMEM (a split needed memory; nothing changed). */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);

/* mprotect(2): new PROT_* for [start, start+len), every page of which must
 * be mapped (-ENOMEM otherwise); -EACCES when a VM_MAY* bit forbids it;
 * VMAs split and merged, PTEs changed by change_protection. */
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long prot);

/* brk(2): move mm->brk to newbrk (page-rounded VMA growth or shrink)
 * when it lies in [start_brk, the next mapping); returns the brk in
 * effect afterwards, as Linux does, never an error. */
unsigned long do_brk(struct mm_struct *mm, unsigned long newbrk);

/* An anonymous private mapping at exactly [addr, addr+len), flags VM_*
 * (exec's bss and the heap's base); 0 or -errno. */
int vm_brk_flags(struct mm_struct *mm, unsigned long addr, unsigned long len,
		 unsigned long vm_flags);

/* madvise(2): MADV_DONTNEED zaps the pages (anonymous memory reads back
 * zero, file pages come back from the file); MADV_NORMAL, RANDOM,
 * SEQUENTIAL, WILLNEED, FREE are accepted.  -EINVAL, -ENOMEM (a hole). */
int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len, int advice);

/* mlock(2)/munlock(2): set or clear VM_LOCKED over the range (splitting
 * VMAs), count locked_vm, and fault the pages in when locking.  Reclaim's
 * unevictable list comes with reclaim; here the flag is recorded. */
int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len, bool on);

/*
 * Grow the VM_GROWSDOWN vma down to cover address (page-rounded), up to
 * current's RLIMIT_STACK (unlimited: up to the page gap) and within
 * RLIMIT_AS, never into the VMA below (a page gap is kept).  0 or -ENOMEM.
 */
int expand_stack(struct vm_area_struct *vma, unsigned long address);

/* The _PAGE_* protection for PTEs of a VMA with these flags: user, NX
 * unless VM_EXEC, writable only for VM_SHARED|VM_WRITE (private
 * writable VMAs map read-only and copy on the write fault). */
uint64_t vm_get_page_prot(unsigned long vm_flags);

/* ---- mm/memory.c: page tables and faults ---------------------------------- */

/* handle_mm_fault's flags and results (Linux's). */
#define FAULT_FLAG_WRITE	0x01
#define FAULT_FLAG_INSTR	0x02	/* an instruction fetch */
#define FAULT_FLAG_USER		0x04

#define VM_FAULT_OOM		0x0001
#define VM_FAULT_SIGBUS		0x0002	/* a file page past the end of the file */
#define VM_FAULT_SIGSEGV	0x0040	/* no VMA, or it forbids the access */
#define VM_FAULT_MAJOR		0x0004	/* the page was read from the disk */

/*
 * Resolve a fault at address inside vma (the caller found the VMA,
 * expanded the stack and checked vm_flags against the access): a
 * missing anonymous page is a new zeroed page (PG_swapbacked, on the
 * active anon LRU, _mapcount 0); a missing file page is read through the
 * page cache (private mapping: read-only until a write copies it; shared:
 * the cache page itself, dirtied on write); a write to a present
 * read-only page of a private writable VMA copies it, unless the page is
 * anonymous and mapped once, which is made writable in place.
 * A read fault in a file VMA also maps the cached pages around it
 * (fault-around, up to fault_around_bytes; a power of two, at most a
 * page turns it off).  Counts PGFAULT and PGMAJFAULT.  Returns 0,
 * VM_FAULT_MAJOR, or VM_FAULT_OOM / VM_FAULT_SIGBUS.
 */
extern unsigned long fault_around_bytes;
int handle_mm_fault(struct mm_struct *mm, struct vm_area_struct *vma,
		    unsigned long address, unsigned int flags);

/*
 * Unmap the pages of [start, end) in vma (page-aligned, inside it):
 * each present PTE is cleared and flushed, its page's _mapcount dropped
 * and its reference put; a shared file page whose PTE is dirty is
 * set_page_dirty() first, so the data reaches the file.  Page-table
 * pages are kept (free_pgtables frees them).
 */
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);

/* madvise's walks over [start, end) of vma (mm/memory.c), process
 * context: MADV_FREE drops the swap PTEs (their data may go: the slot is
 * freed, a read gives a zeroed page); MADV_WILLNEED starts reading the
 * swapped pages into the swap cache (may sleep); MADV_PAGEOUT reclaims
 * the present pages this mapping alone maps, as reclaim would (may
 * sleep), and returns how many were freed. */
/* swapoff's walk (mm/memory.c): the address of mm's first swap PTE on
 * area type at or after start, with its entry, or -1 if there is none;
 * never sleeps.  unuse_pte maps page (locked, up to date, the swap
 * cache's at entry) at addr if that PTE still holds entry, looking the VMA
 * and PTE up afresh (the caller slept since find_swap_pte): 1 if mapped,
 * 0 if the PTE changed.  Never sleeps. */
unsigned long find_swap_pte(struct mm_struct *mm, unsigned int type, unsigned long start,
			    swp_entry_t *entry);
int unuse_pte(struct mm_struct *mm, unsigned long addr, swp_entry_t entry,
		   struct page *page);

/* Copy n bytes at addr of mm, whose PTE holds a swap entry, from the
 * slot's page (the swap cache's, or read) into dst, without mapping it
 * (/proc/PID/cmdline of a process whose arguments were swapped out).  0;
 * -EAGAIN if the PTE holds no swap entry (any more: look again);
 * -ENOMEM; -EIO.  The caller holds mm (mm_users); may sleep.  n stays
 * within addr's page. */
int access_swapped_page(struct mm_struct *mm, unsigned long addr, void *dst, size_t n);

void madvise_free_swap(struct vm_area_struct *vma, unsigned long start, unsigned long end);
void force_swapin_readahead(struct vm_area_struct *vma, unsigned long start, unsigned long end);
unsigned long madvise_pageout(struct vm_area_struct *vma, unsigned long start,
			      unsigned long end);

/*
 * Unmap every page of mapping's file from byte holebegin on, for holelen
 * bytes (0: to the end), in every VMA mapping it (mapping->i_mmap),
 * private copies of those pages included, as zap_page_range does.
 * Truncation calls it, so that no PTE maps a page past the end of the
 * file.  Any context that may take i_mmap_lock; never sleeps.
 */
void unmap_mapping_range(struct address_space *mapping, uint64_t holebegin, uint64_t holelen);

/* Give the present PTEs of [start, end) in vma protection newprot (a
 * private writable VMA's pages stay read-only until their write fault). */
void change_protection(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, uint64_t newprot);

/*
 * fork: copy the PTEs of vma (of src) into dst.  Every mapped page gets
 * another reference and _mapcount; in a private writable VMA both PTEs
 * lose _PAGE_RW so the first write copies.  0 or -ENOMEM.
 */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src,
		    struct vm_area_struct *vma);

/* Fault in every page of [start, end) of vma as a write if write, else a
 * read (MAP_POPULATE, mlock): 0 or -ENOMEM / -EFAULT. */
int populate_vma_range(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, bool write);

/* The pgd side of mm_alloc/mmput: a new pgd with init_pgd's kernel half
 * (NULL when out of memory), and freeing every user page-table page
 * plus the pgd after every VMA was zapped. */
uint64_t *pgd_alloc(struct mm_struct *mm);
void free_pgtables(struct mm_struct *mm);

/* Load mm's page tables into CR3 (init_pgd's when mm is NULL). */
void switch_mm(struct mm_struct *mm);

/* ---- mm/fault.c: the x86 page-fault handler ------------------------------- */

/*
 * The #PF entry (called from traps.c with CR2).  A fault in user space
 * (from user mode, or from the kernel inside a uaccess routine) on a VMA
 * that allows the access is resolved by handle_mm_fault, growing the
 * stack first when the address is just below a VM_GROWSDOWN VMA.
 * Otherwise: from user mode the task gets SIGSEGV (SEGV_MAPERR /
 * SEGV_ACCERR) or SIGBUS; from a uaccess routine the exception table's
 * fixup makes it return -EFAULT; any other kernel fault is a kernel bug
 * and dies with an oops.
 */
void do_page_fault(struct pt_regs *regs, unsigned long address, unsigned long error_code);

#endif
