/*
 * struct page: one per physical page frame, in mem_map, indexed by page
 * frame number.  Fields and their meaning follow Linux (v2.6.28
 * include/linux/mm_types.h):
 *
 *   flags      PG_* bits (mm/page-flags.h), zone number in the top bits
 *   _count     references; 0 = free (in the buddy allocator or unused)
 *   _mapcount  page-table entries mapping the page, minus one (-1 = none)
 *   mapping    the address_space of a page-cache page; for an anonymous
 *              page its anon_vma with PAGE_MAPPING_ANON added (mm/rmap.h)
 *   index      the page's offset in its mapping, in pages (an anonymous
 *              page's: its linear index, vma->vm_pgoff + its page in vma)
 *   private    buddy order when PG_buddy; swap entry when PG_swapcache
 *   lru        list link: a buddy free list, an LRU list, a slab list
 *
 * The structure must stay at most 64 bytes (1.6 % of RAM in mem_map);
 * today it is 56 bytes, 1.4 %.
 */
#ifndef MM_MM_TYPES_H
#define MM_MM_TYPES_H

#include <pageturn/list.h>
#include <pageturn/types.h>

struct address_space;

typedef unsigned long pgoff_t;

struct page {
	unsigned long flags;
	int _count;
	int _mapcount;
	struct address_space *mapping;
	pgoff_t index;
	unsigned long private;
	struct list_head lru;
};

_Static_assert(sizeof(struct page) <= 64, "struct page must stay within 64 bytes");

/*
 * One process's virtual memory (Linux's struct mm_struct and struct
 * vm_area_struct, v2.6.28).  mm/mmap.c explains the VMA list and its
 * invariants, mm/memory.c the page tables below it.
 *
 * A vm_area_struct is one run of pages [vm_start, vm_end) with the same
 * permissions and backing: anonymous memory (vm_file NULL) or a window on
 * a file starting at page vm_pgoff.  The VMAs of an mm are kept on
 * mm->mmap sorted by address, never overlapping, both ends page-aligned,
 * and no two neighbours that could be one (same flags, file and
 * contiguous offset, and anon_vmas that may be one: mm/mmap.c) are left
 * apart, unless they have vm_ops.  mm/rmap.c explains shared and
 * anon_vma, the reverse map.
 */
struct file;
struct mm_struct;
struct anon_vma;
struct vm_area_struct;

/*
 * What the owner of a mapping wants to hear about its VMAs (Linux's
 * vm_operations_struct, the two calls SysV shm uses to count attaches).
 * open: a new VMA now maps the same thing (a split, or a fork's copy);
 * close: a VMA goes away, called before its file reference is dropped.
 * Neither may sleep or fail.  VMAs with vm_ops are never merged, so a
 * VMA the owner counted stays one VMA until close.
 */
struct vm_operations_struct {
	void (*open)(struct vm_area_struct *vma);
	void (*close)(struct vm_area_struct *vma);
};

struct vm_area_struct {
	struct mm_struct *vm_mm;
	unsigned long vm_start;		/* first byte */
	unsigned long vm_end;		/* one past the last byte */
	unsigned long vm_flags;		/* VM_* (mm/mmap.h) */
	uint64_t vm_page_prot;		/* _PAGE_* bits for its PTEs (vm_get_page_prot) */
	struct file *vm_file;		/* held (f_count); NULL for anonymous memory */
	pgoff_t vm_pgoff;		/* file offset of vm_start, in pages;
					 * anonymous: vm_start >> PAGE_SHIFT */
	const struct vm_operations_struct *vm_ops;	/* set by file->f_op->mmap; or NULL */
	struct list_head vm_list;	/* on vm_mm->mmap, by address */
	struct list_head shared;	/* a file VMA: on its mapping's i_mmap */
	struct anon_vma *anon_vma;	/* NULL until its first anonymous page */
	struct list_head anon_vma_node;	/* on anon_vma->head while anon_vma is set */
};

struct mm_struct {
	uint64_t *pgd;			/* top-level table (pte_t *), kernel half shared */
	struct list_head mmap;		/* the VMAs, sorted by vm_start */
	int map_count;			/* VMAs on mmap */
	int mm_users;			/* tasks using it (vfork/CLONE_VM share) */
	unsigned long mmap_base;	/* top of the mmap area; searched downwards */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk;	/* the heap: [start_brk, brk) */
	unsigned long start_stack;	/* initial user rsp */
	unsigned long arg_start, arg_end, env_start, env_end;
	unsigned long total_vm;		/* pages mapped by VMAs */
	unsigned long locked_vm;	/* pages in VM_LOCKED VMAs */
	unsigned long def_flags;	/* VM_LOCKED after mlockall(MCL_FUTURE), else 0:
					 * added to every new mmap and brk VMA */
	unsigned long stack_vm;		/* pages in VM_GROWSDOWN VMAs */
	unsigned long nr_ptes;		/* page-table pages below pgd (and pgd) */
	unsigned long anon_rss;		/* present anonymous pages (Linux: MM_ANONPAGES) */
	unsigned long file_rss;		/* present file pages (Linux: MM_FILEPAGES) */
	unsigned long swap_ents;	/* PTEs holding a swap entry (Linux: MM_SWAPENTS) */
	unsigned long hiwater_rss;	/* the most anon_rss + file_rss ever was */
};

#endif
