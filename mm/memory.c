/*
 * The page tables of processes and the faults that fill them (Linux's
 * mm/memory.c, v2.6.28: do_anonymous_page, __do_fault, do_wp_page,
 * do_swap_page, zap_page_range, copy_page_range, change_protection).
 *
 * An address space (struct mm_struct) has its own PGD.  Entries 256..511,
 * the kernel half, are copies of init_pgd's: they point at init_pgd's own
 * tables, which every address space shares and none of them ever frees
 * (the kernel maps nothing new at that level once processes exist).  The
 * user half, [0, TASK_SIZE), starts empty and is filled lazily: mmap only
 * records a VMA (mm/mmap.c), and the first access to each page faults
 * (mm/fault.c) into handle_mm_fault, which maps it.  Every table page
 * below the PGD, and the PGD itself, comes from the page allocator through
 * mm_pt_allocator() and is counted in NR_PAGETABLE and mm->nr_ptes until
 * free_pgtables() gives the user half back at the end.  User pages are
 * always 4 KiB pages, never global.
 *
 * A user PTE is in one of these states:
 *
 *   none       0: nothing mapped.  A fault maps a page: for anonymous
 *              memory a new zeroed page, for a file its page-cache page.
 *   present    maps a page; read-only or writable, as below.
 *   PROT_NONE  not present for the CPU, but still mapping its page:
 *              _PAGE_PROTNONE (Linux's name; the global bit, which means
 *              nothing in a non-present entry) marks it, and the address
 *              is kept.  change_protection() makes it so for a VMA with
 *              no access, and makes it present again later.
 *   swap       not present, holding the swap entry (mm/swapops.h) of the
 *              slot where an anonymous page's data went (try_to_unmap);
 *              neither none nor PROT_NONE.  A fault reads it back
 *              (do_swap_page); fork duplicates the entry, zap frees it;
 *              change_protection and msync pass it by.  Each counts once
 *              in its slot's swap_map and in mm->swap_ents.
 *
 * Which page a present PTE maps, and whether it is writable:
 *
 *   anonymous memory (vm_file NULL) or a private copy of a file page:
 *       an anonymous page (mm/rmap.h).  Writable iff the VMA has VM_WRITE
 *       and the page is this mapping's alone; after fork both processes
 *       map it read-only, and the first write of either copies it
 *       (copy-on-write), unless the page is by then mapped only once and
 *       nobody else holds it: it is then made writable in place.
 *   a private file mapping (MAP_PRIVATE): the page-cache page, always
 *       read-only; a write fault replaces it by an anonymous copy.
 *   a shared mapping (VM_SHARED): the page-cache page (or, without a file,
 *       an anonymous page the processes share), read-only until the first
 *       write fault, which dirties the page and makes the PTE writable.
 *       The CPU then sets _PAGE_DIRTY on later writes; zap_page_range,
 *       msync and try_to_unmap hand that bit to set_page_dirty(), so the
 *       data reaches the file.
 *
 * The counts are kept through the reverse map's primitives (mm/rmap.c:
 * page_add_new_anon_rmap, page_add_file_rmap, page_dup_rmap,
 * page_remove_rmap), which also let reclaim and truncation find every PTE
 * from the page.  Invariants, for every page mapped in user space:
 *   - page_mapcount(page) is the number of PTEs mapping it, in all
 *     address spaces, and each of them holds one reference (_count);
 *   - every one of those PTEs is found by the reverse map: an anonymous
 *     page's lie in VMAs on its anon_vma's list (a VMA gets its anon_vma,
 *     anon_vma_prepare, before its first anonymous page), a file page's
 *     in VMAs on its mapping's i_mmap, each at vma_address(page, vma);
 *   - an anonymous page with page_mapcount > 0 is counted once in
 *     NR_ANON_PAGES, any other mapped page once in NR_FILE_MAPPED;
 *   - mm->anon_rss and mm->file_rss count the PTEs of mm mapping anonymous
 *     and other pages (hiwater_rss the highest their sum reached);
 *   - a writable PTE in a private VMA maps an anonymous page mapped by
 *     that PTE alone;
 *   - an anonymous page is on an LRU list (whose reference keeps it, see
 *     mm/swap.c) exactly while it is mapped or in the swap cache: the
 *     last unmap of a page outside the swap cache takes it off
 *     (free_swap_cache), and the last put_page then frees it.
 *
 * The TLB.  A translation the CPU cached is dropped when a present PTE of
 * the live address space changes (set_pte_at); an address space that is
 * not in CR3 has nothing cached, since loading CR3 dropped all its
 * non-global entries.  A fault on a PTE that already allows the access
 * means the TLB held an older entry: flushing it is all there is to do.
 *
 * Sleeping.  A file fault may sleep for the read, and any allocation may.
 * Processes are single-threaded and a vfork parent sleeps until its child
 * lets the mm go, so the VMAs and the page-table pages of an address
 * space stay while its fault handler sleeps (page-table pages go only
 * with the mm).  Its PTEs may not: another task's truncation
 * (unmap_mapping_range) or reclaim (try_to_unmap) clears them through
 * the reverse map.  So a fault checks the PTE again after anything that
 * may sleep (Linux's pte_same test), that a file page it read is still in
 * its file, and keeps a reference of its own on a page it copies.
 */
#include <asm/cpu.h>
#include <asm/tlbflush.h>
#include <fs/vfs.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/pgtable.h>
#include <mm/rmap.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "internal.h"

/* The first PGD entry of the kernel half (Linux's KERNEL_PGD_BOUNDARY). */
#define KERNEL_PGD_BOUNDARY	(PTRS_PER_TABLE / 2)

/* What a fault or a PTE change may take from a VMA's protection. */
#define PTE_PROT_MASK		(PTE_FLAGS_MASK & ~(_PAGE_PSE | _PAGE_GLOBAL))

/* ---- page-table pages ------------------------------------------------- */

/* A page for a table of mm, counted in NR_PAGETABLE and mm->nr_ptes. */
static phys_addr_t pte_alloc_one(void *ctx)
{
	struct mm_struct *mm = ctx;
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return 0;
	inc_zone_page_state(page, NR_PAGETABLE);
	mm->nr_ptes++;
	return page_to_phys(page);
}

static void pte_free(phys_addr_t pa, void *ctx)
{
	struct mm_struct *mm = ctx;
	struct page *page = pfn_to_page(pa >> PAGE_SHIFT);

	dec_zone_page_state(page, NR_PAGETABLE);
	mm->nr_ptes--;
	__free_page(page);
}

static struct pt_allocator mm_pt_allocator(struct mm_struct *mm)
{
	return (struct pt_allocator){ .alloc = pte_alloc_one, .free = pte_free, .ctx = mm };
}

/* The PGD counts in NR_PAGETABLE and mm->nr_ptes as the tables below it
 * will.  Process context; may sleep to allocate. */
uint64_t *pgd_alloc(struct mm_struct *mm)
{
	struct pt_allocator alloc = mm_pt_allocator(mm);
	pte_t *pgd = pt_alloc_pgd(&alloc);

	if (pgd)
		memcpy(pgd + KERNEL_PGD_BOUNDARY, init_pgd + KERNEL_PGD_BOUNDARY,
		       (PTRS_PER_TABLE - KERNEL_PGD_BOUNDARY) * sizeof(pte_t));
	return pgd;
}

/*
 * Called when mm's last user is gone and every VMA was zapped (a page
 * still mapped is a kernel bug and panics).  If mm's tables are still in
 * CR3, init_pgd is loaded first.  mm->pgd is NULL afterwards.
 */
void free_pgtables(struct mm_struct *mm)
{
	struct pt_allocator alloc = mm_pt_allocator(mm);

	if (mm->anon_rss || mm->file_rss)
		panic("free_pgtables: %lu anonymous and %lu file pages still mapped",
		      mm->anon_rss, mm->file_rss);
	if (pt_is_live(mm->pgd))
		switch_mm(NULL);
	if (pt_unmap(mm->pgd, 0, TASK_SIZE, &alloc))
		panic("free_pgtables: a large page in user space");
	alloc.free(virt_to_phys(mm->pgd), alloc.ctx);
	mm->pgd = NULL;
}

/* Any context. */
void switch_mm(struct mm_struct *mm)
{
	pte_t *pgd = mm ? mm->pgd : init_pgd;

	if (!pt_is_live(pgd))
		write_cr3(virt_to_phys(pgd));
}

/* ---- PTEs -------------------------------------------------------------- */

/* A present PTE mapping page with prot (what this CPU supports of it). */
static pte_t mk_pte(const struct page *page, uint64_t prot)
{
	return page_to_phys(page) | (prot & PTE_PROT_MASK & __supported_pte_mask);
}

void set_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t v)
{
	pte_t old = *ptep;

	*ptep = v;
	if ((old & _PAGE_PRESENT) && pt_is_live(mm->pgd))
		flush_tlb_one(addr);
}

/* User space has 4 KiB pages only: a large leaf there is a kernel bug. */
static void check_pte_level(enum pg_level level, unsigned long addr)
{
	if (level != PG_LEVEL_4K)
		panic("memory: a large page maps user address %#lx", addr);
}

/*
 * The first PTE of mm in [*addr, end) that maps a page (present or
 * PROT_NONE), or with swap set also one that holds a swap entry, with
 * *addr set to its address; NULL when there is none.  Ranges without
 * page tables are skipped a table at a time.  Walkers go on from
 * *addr + PAGE_SIZE.
 */
static pte_t *next_mapped_pte(struct mm_struct *mm, unsigned long *addr, unsigned long end,
			      bool swap)
{
	unsigned long a = *addr, table_end;
	enum pg_level level;
	pte_t *ptep;

	while (a < end) {
		table_end = MIN(ALIGN_UP(a + 1, PMD_SIZE), end);
		ptep = pt_walk(mm->pgd, a, 0, NULL, &level);
		if (ptep) {
			check_pte_level(level, a);
			for (; a < table_end; a += PAGE_SIZE, ptep++) {
				if (pte_mapped(*ptep) || (swap && is_swap_pte(*ptep))) {
					*addr = a;
					return ptep;
				}
			}
		}
		a = table_end;
	}
	return NULL;
}

/* ---- rss and unmapping ------------------------------------------------- */

void add_mm_rss(struct mm_struct *mm, long anon, long file)
{
	mm->anon_rss += anon;
	mm->file_rss += file;
	mm->hiwater_rss = MAX(mm->hiwater_rss, mm->anon_rss + mm->file_rss);
}

/*
 * An anonymous page mapped nowhere any more is of use only as the swap
 * cache's copy of a slot other PTEs still refer to; otherwise it leaves
 * the swap cache and its LRU list (free_swap_cache; if someone isolated
 * it, their putback frees it), so that the last put_page frees it.
 */
void drop_pte_page(struct page *page)
{
	page_remove_rmap(page);
	if (PageAnon(page))
		free_swap_cache(page);
	put_page(page);
}

struct page *follow_page(struct vm_area_struct *vma, unsigned long address)
{
	enum pg_level level;
	pte_t *ptep = pt_walk(vma->vm_mm->pgd, address, 0, NULL, &level);
	struct page *page;

	if (!ptep || level != PG_LEVEL_4K || !pte_mapped(*ptep))
		return NULL;
	page = pte_page(*ptep);
	get_page(page);
	return page;
}

/*
 * May a write fault make page writable where it is, instead of copying?
 * Only an anonymous page mapped once, with no reference but that PTE's
 * and its LRU list's (or its isolator's): no other process can see it.
 */
static bool anon_page_exclusive(const struct page *page)
{
	return PageAnon(page) && page_mapcount(page) == 1 && page_count(page) == 2;
}

/*
 * Before a write fault decides between copying and reusing old: a page in
 * the swap cache that this PTE alone maps, with no swap PTE left on its
 * slot, leaves the cache (its copy on swap is about to be stale), so that
 * anon_page_exclusive can say yes (Linux's reuse_swap_page).  Never
 * sleeps: a page someone has locked is left as it is, and copied.
 */
static void reuse_swap_page_if_alone(struct page *old)
{
	if (PageAnon(old) && PageSwapCache(old) && page_mapcount(old) == 1 && trylock_page(old)) {
		reuse_swap_page(old);
		unlock_page(old);
	}
}

/* The PTE protection for a page of vma mapped by a fault: writable (and
 * dirty: the write is about to happen) or read-only. */
static uint64_t fault_prot(const struct vm_area_struct *vma, bool writable)
{
	uint64_t prot = vma->vm_page_prot | _PAGE_ACCESSED;

	return writable ? prot | _PAGE_RW | _PAGE_DIRTY : prot & ~_PAGE_RW;
}

/*
 * A new page for anonymous memory: zeroed, or a copy of src (on which the
 * caller holds a reference).  NULL when out of memory.  May sleep.
 */
static struct page *alloc_anon_page(const struct page *src)
{
	struct page *page = alloc_page(src ? GFP_USER : GFP_USER | __GFP_ZERO);

	if (!page)
		return NULL;
	if (src)
		copy_page(page_address(page), page_address(src));
	SetPageSwapBacked(page);
	/* Its data is here: a swap-cache page found again by a fault is
	 * ready (only a page read from swap waits for PG_uptodate). */
	SetPageUptodate(page);
	return page;
}

/*
 * Map page, new from alloc_anon_page, by ptep at addr of vma (which has
 * its anon_vma): reverse-mapped (page_add_new_anon_rmap: NR_ANON_PAGES),
 * on the active anon list (mlocked on LRU_UNEVICTABLE if vma is
 * VM_LOCKED), counted in rss; its reference is the PTE's.  Nothing here
 * sleeps.
 */
static void map_new_anon_page(struct vm_area_struct *vma, unsigned long addr, pte_t *ptep,
			      struct page *page, bool writable)
{
	page_add_new_anon_rmap(page, vma, addr);
	lru_cache_add_active_or_unevictable(page, vma);
	set_pte_at(vma->vm_mm, addr, ptep, mk_pte(page, fault_prot(vma, writable)));
	add_mm_rss(vma->vm_mm, 1, 0);
}

/* ---- faults ------------------------------------------------------------ */

/*
 * An anonymous page where nothing was mapped (Linux's do_anonymous_page):
 * a zeroed page, writable at once if the VMA is (it is nobody else's), as
 * Linux's maybe_mkwrite does, so a read followed by a write costs one
 * fault.
 */
static int do_anonymous_page(struct vm_area_struct *vma, unsigned long addr, pte_t *ptep)
{
	struct page *page;

	if (anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	page = alloc_anon_page(NULL);
	if (!page)
		return VM_FAULT_OOM;
	/* Both may have slept: the PTE may be filled by now (see the top
	 * of the file). */
	if (*ptep) {
		put_page(page);
		return 0;
	}
	map_new_anon_page(vma, addr, ptep, page, vma->vm_flags & VM_WRITE);
	return 0;
}

/*
 * After a read fault at addr in a file VMA, map the pages around it that
 * the page cache already holds up to date (Linux's do_fault_around and
 * filemap_map_pages): a sequential reader of a cached file then takes
 * one fault per window instead of one per page, and MAP_POPULATE of one
 * (populate_vma_range skips what is mapped) as few.  The window is
 * fault_around_bytes (Linux's knob and default, 64 KiB: 16 pages; a
 * power of two, one page or less turns fault-around off) from addr
 * rounded down to its size, or from vm_start, cut at the VMA's end, the
 * end of the file and the end of addr's page table (ptep's neighbours
 * are that table's).  Each page goes in read-only, as a read fault would
 * map it, counted (mapcount, NR_FILE_MAPPED, rss) but not as a fault.
 * Nothing here sleeps: a page that is absent, not up to date or locked
 * (being read) is left to its own fault.
 */
unsigned long fault_around_bytes = 64 * 1024;

static void do_fault_around(struct mm_struct *mm, struct vm_area_struct *vma,
			    unsigned long addr, pte_t *ptep)
{
	struct inode *inode = vma->vm_file->f_inode;
	unsigned long window = fault_around_bytes;
	unsigned long start = MAX(addr & ~(window - 1), vma->vm_start);
	unsigned long end = MIN(MIN(start + window, vma->vm_end), ALIGN_UP(addr + 1, PMD_SIZE));
	pgoff_t eof = (inode->i_size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned long a;

	for (a = start; a < end; a += PAGE_SIZE) {
		pte_t *p = ptep + ((long)(a - addr) >> PAGE_SHIFT);
		pgoff_t pgoff = vma->vm_pgoff + ((a - vma->vm_start) >> PAGE_SHIFT);
		struct page *page;

		if (pgoff >= eof)
			break;
		if (*p)
			continue;
		page = find_get_page(inode->i_mapping, pgoff);
		if (!page)
			continue;
		if (!PageUptodate(page) || PageLocked(page)) {
			put_page(page);
			continue;
		}
		page_add_file_rmap(page);
		set_pte_at(mm, a, p, mk_pte(page, fault_prot(vma, false)));
		add_mm_rss(mm, 0, 1);
	}
}

/*
 * A file page where nothing was mapped (Linux's __do_fault through
 * filemap_fault): the page-cache page of the file offset, read if need be.
 * A private mapping maps it read-only, or on a write fault maps a private
 * copy at once; a shared mapping maps the cache page itself, writable and
 * dirtied on a write fault.
 */
static int do_linear_fault(struct mm_struct *mm, struct vm_area_struct *vma,
			   unsigned long addr, pte_t *ptep, unsigned int flags)
{
	struct inode *inode = vma->vm_file->f_inode;
	struct address_space *mapping = inode->i_mapping;
	pgoff_t pgoff = vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
	bool write = flags & FAULT_FLAG_WRITE;
	bool cow = write && !(vma->vm_flags & VM_SHARED);
	struct page *page, *copy = NULL;
	int ret;

	if (cow && anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	ret = filemap_fault(mapping, pgoff, inode->i_size, &page);
	if (ret & (VM_FAULT_OOM | VM_FAULT_SIGBUS))
		return ret;
	if (cow) {
		copy = alloc_anon_page(page);
		if (!copy) {
			put_page(page);
			return VM_FAULT_OOM;
		}
	}
	/*
	 * The read and the allocations may have slept: the PTE may have been
	 * filled meanwhile, or the page truncated (it left its mapping, and
	 * the file may end before it now).  Either way the access is tried
	 * again and finds things as they are now.
	 */
	if (*ptep || page->mapping != mapping) {
		if (copy)
			put_page(copy);
		put_page(page);
		return ret;
	}
	if (cow) {
		put_page(page);
		map_new_anon_page(vma, addr, ptep, copy, true);
		return ret;
	}
	page_add_file_rmap(page);
	if (write)
		set_page_dirty(page);
	/* filemap_fault's reference is the PTE's from now on. */
	set_pte_at(mm, addr, ptep, mk_pte(page, fault_prot(vma, write)));
	add_mm_rss(mm, 0, 1);
	if (!write && fault_around_bytes > PAGE_SIZE)
		do_fault_around(mm, vma, addr, ptep);
	return ret;
}

/*
 * A write to the present read-only PTE pte (Linux's do_wp_page), in a VMA
 * with VM_WRITE.  Shared: the first write to the page, which is dirtied
 * and made writable.  Private: copy-on-write, or reuse of an exclusive
 * anonymous page.
 */
static int do_wp_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
		      pte_t *ptep, pte_t pte)
{
	struct page *old = pte_page(pte), *new;

	reuse_swap_page_if_alone(old);
	if ((vma->vm_flags & VM_SHARED) || anon_page_exclusive(old)) {
		if ((vma->vm_flags & VM_SHARED) && page_mapping(old))
			set_page_dirty(old);
		set_pte_at(mm, addr, ptep, pte | _PAGE_RW | _PAGE_DIRTY | _PAGE_ACCESSED);
		return 0;
	}
	/* Our own reference keeps old while we may sleep; the PTE's may go. */
	get_page(old);
	if (anon_vma_prepare(vma) || !(new = alloc_anon_page(old))) {
		put_page(old);
		return VM_FAULT_OOM;
	}
	/* We may have slept: the PTE may have been unmapped (truncation,
	 * reclaim) or changed meanwhile (Linux's pte_same test). */
	if (*ptep != pte) {
		put_page(new);
		put_page(old);
		return 0;
	}
	add_mm_rss(mm, PageAnon(old) ? -1 : 0, PageAnon(old) ? 0 : -1);
	map_new_anon_page(vma, addr, ptep, new, true);
	drop_pte_page(old);
	/* The copy is this locked VMA's now; old need not stay (Linux
	 * 2.6.28).  The PTE is switched, so sleeping for the lock is safe. */
	if (vma->vm_flags & VM_LOCKED) {
		lock_page(old);
		clear_page_mlock(old);
		unlock_page(old);
	}
	put_page(old);
	return 0;
}

/*
 * A PTE holding the swap entry orig_pte (Linux's do_swap_page): the page
 * of its slot, from the swap cache or read with its neighbours
 * (swapin_readahead: a major fault), is mapped again, read-only unless
 * the write makes it this PTE's alone (reuse_swap_page: then it leaves
 * the swap cache, its slot's copy being stale from now on); a write that
 * cannot reuse it goes on to do_wp_page.  The PTE's count on the slot is
 * dropped, and the slot itself freed at once when swap is more than half
 * full or the page is mlocked (Linux 2.6.28: vm_swap_full), so a page
 * that is swapped in keeps its place on swap only while swap is plentiful.
 *
 * The lookup, the read and anon_vma_prepare may all sleep: afterwards the
 * PTE must still hold orig_pte (reclaim or another fault of this mm may
 * have changed it, Linux's pte_same test) and the page must still be the
 * slot's (swapoff or try_to_free_swap may have taken it out of the swap
 * cache); else the fault is retried.  A page the read failed on (not up
 * to date once unlocked) kills the faulting process with SIGBUS, and no
 * one else: the slot and its PTE stay as they were.
 */
/*
 * Map page, locked, up to date and in the swap cache at entry, where the
 * swap PTE *ptep of vma at addr held entry: the end of do_swap_page and
 * of swapoff's unuse_pte.  The caller's page reference becomes the
 * PTE's.  writable: the caller found the page this PTE's alone
 * (reuse_swap_page).  Never sleeps.
 */
static void swapin_map_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
			    pte_t *ptep, struct page *page, swp_entry_t entry, bool writable)
{
	pte_t pte;

	page_add_anon_rmap(page, vma, addr);
	add_mm_rss(mm, 1, 0);
	mm->swap_ents--;
	pte = mk_pte(page, fault_prot(vma, writable));
	/* swapoff brings in the pages of VMAs without access too. */
	if (!(pte & _PAGE_PRESENT))
		pte |= _PAGE_PROTNONE;
	set_pte_at(mm, addr, ptep, pte);
	swap_free(entry);
	if (vm_swap_full() || (vma->vm_flags & VM_LOCKED) || PageMlocked(page))
		try_to_free_swap(page);
	if (vma->vm_flags & VM_LOCKED)
		mlock_vma_page(page);
}

static int do_swap_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
			pte_t *ptep, pte_t orig_pte, unsigned int flags)
{
	swp_entry_t entry = pte_to_swp_entry(orig_pte);
	bool write = flags & FAULT_FLAG_WRITE;
	bool writable = false;
	struct page *page;
	int ret = 0;

	page = lookup_swap_cache(entry);
	if (!page) {
		page = swapin_readahead(entry, GFP_USER);
		if (!page)
			return *ptep == orig_pte ? VM_FAULT_OOM : 0;
		ret = VM_FAULT_MAJOR;
		count_vm_event(PGMAJFAULT);
	}
	lock_page(page);
	if (anon_vma_prepare(vma)) {
		unlock_page(page);
		put_page(page);
		return VM_FAULT_OOM;
	}
	if (*ptep != orig_pte || !PageSwapCache(page) || page->private != entry.val) {
		unlock_page(page);
		put_page(page);
		return ret;
	}
	if (!PageUptodate(page)) {
		unlock_page(page);
		put_page(page);
		printk(KERN_ERR "swap: read of swap entry %#lx failed: %s (pid %d) killed by SIGBUS\n",
		       entry.val, current->comm, current->pid);
		return VM_FAULT_SIGBUS;
	}
	/* Before the page is mapped: this PTE's count on the slot is then its
	 * only user besides the cache (Linux 2.6.28's order). */
	if (write && (vma->vm_flags & VM_WRITE) && !(vma->vm_flags & VM_SHARED) &&
	    reuse_swap_page(page)) {
		writable = true;
		write = false;
	}
	swapin_map_page(mm, vma, addr, ptep, page, entry, writable);
	unlock_page(page);
	if (write)
		ret |= do_wp_page(mm, vma, addr, ptep, *ptep);
	return ret;
}

unsigned long find_swap_pte(struct mm_struct *mm, unsigned int type, unsigned long start,
			    swp_entry_t *entry)
{
	struct vm_area_struct *vma;
	unsigned long addr = start;
	pte_t *ptep;

	for (vma = find_vma(mm, start); vma; vma = vma_next(vma)) {
		addr = MAX(addr, vma->vm_start);
		for (; (ptep = next_mapped_pte(mm, &addr, vma->vm_end, true)); addr += PAGE_SIZE) {
			if (!is_swap_pte(*ptep) || swp_type(pte_to_swp_entry(*ptep)) != type)
				continue;
			*entry = pte_to_swp_entry(*ptep);
			return addr;
		}
	}
	return -1ul;
}

int unuse_pte(struct mm_struct *mm, unsigned long addr, swp_entry_t entry,
		   struct page *page)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	enum pg_level level;
	pte_t *ptep;

	if (!vma || vma->vm_start > addr)
		return 0;
	ptep = pt_walk(mm->pgd, addr, 0, NULL, &level);
	if (!ptep || level != PG_LEVEL_4K || *ptep != swp_entry_to_pte(entry))
		return 0;
	/* A swap PTE was an anonymous page's, so its VMA has an anon_vma. */
	if (!vma->anon_vma)
		panic("unuse_pte: %#lx holds swap entry %#lx in a VMA without anon_vma", addr,
		      entry.val);
	get_page(page);		/* the PTE's */
	swapin_map_page(mm, vma, addr, ptep, page, entry, false);
	return 1;
}

/*
 * Process context; may sleep.  Also counts the fault in current's
 * min_flt or maj_flt when it succeeds.  VM_FAULT_SIGSEGV for a PROT_NONE
 * PTE, which only a VMA without access has (the caller checked the VMA).
 */
int handle_mm_fault(struct mm_struct *mm, struct vm_area_struct *vma,
		    unsigned long address, unsigned int flags)
{
	struct pt_allocator alloc = mm_pt_allocator(mm);
	enum pg_level level;
	pte_t *ptep, pte;
	int ret;

	count_vm_event(PGFAULT);
	address &= PAGE_MASK;
	ptep = pt_walk(mm->pgd, address, _PAGE_USER, &alloc, &level);
	if (!ptep)
		return VM_FAULT_OOM;
	check_pte_level(level, address);
	pte = *ptep;
	if (is_swap_pte(pte)) {
		ret = do_swap_page(mm, vma, address, ptep, pte, flags);
	} else if (!pte_mapped(pte)) {
		if (vma->vm_file)
			ret = do_linear_fault(mm, vma, address, ptep, flags);
		else
			ret = do_anonymous_page(vma, address, ptep);
	} else if (!(pte & _PAGE_PRESENT)) {
		ret = VM_FAULT_SIGSEGV;
	} else if ((flags & FAULT_FLAG_WRITE) && !(pte & _PAGE_RW)) {
		ret = do_wp_page(mm, vma, address, ptep, pte);
	} else {
		/* The PTE allows the access: the TLB had an older entry. */
		if (pt_is_live(mm->pgd))
			flush_tlb_one(address);
		ret = 0;
	}
	if (ret & (VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV))
		return ret;
	if (ret & VM_FAULT_MAJOR)
		current->maj_flt++;
	else
		current->min_flt++;
	return ret;
}

/* ---- ranges ------------------------------------------------------------ */

/* Process context (set_page_dirty, put_page). */
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr;
	struct page *page;
	pte_t *ptep, pte;

	for (addr = start; (ptep = next_mapped_pte(mm, &addr, end, true)); addr += PAGE_SIZE) {
		pte = *ptep;
		set_pte_at(mm, addr, ptep, 0);
		if (is_swap_pte(pte)) {
			mm->swap_ents--;
			free_swap_and_cache(pte_to_swp_entry(pte));
			continue;
		}
		page = pte_page(pte);
		if ((pte & _PAGE_DIRTY) && (vma->vm_flags & VM_SHARED) && page_mapping(page))
			set_page_dirty(page);
		if (PageAnon(page))
			add_mm_rss(mm, -1, 0);
		else
			add_mm_rss(mm, 0, -1);
		drop_pte_page(page);
	}
}

/*
 * Linux's unmap_mapping_range with even_cows set, as truncation calls it:
 * holelen 0 means to the end of the file.  Each VMA on i_mmap is zapped
 * where it maps the hole, whatever its PTEs map (a private VMA's copies
 * of the file's pages go too), so nothing maps the hole afterwards.
 * Nothing here sleeps, so the i_mmap list is stable throughout.
 */
void unmap_mapping_range(struct address_space *mapping, uint64_t holebegin, uint64_t holelen)
{
	pgoff_t first = holebegin >> PAGE_SHIFT, last, vfirst, vlast;
	struct vm_area_struct *vma;
	unsigned long flags;

	last = holelen ? (holebegin + holelen - 1) >> PAGE_SHIFT : ~0ul;
	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		vfirst = MAX(vma->vm_pgoff, first);
		vlast = MIN(vma->vm_pgoff + vma_pages(vma) - 1, last);
		if (vfirst > vlast)
			continue;
		zap_page_range(vma, vma->vm_start + ((vfirst - vma->vm_pgoff) << PAGE_SHIFT),
			       vma->vm_start + ((vlast + 1 - vma->vm_pgoff) << PAGE_SHIFT));
	}
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

/*
 * Does vma track its stores for writeback (Linux's vma_wants_writenotify)?
 * A shared writable mapping of a file whose dirty pages writeback writes:
 * its PTEs are writable only while dirty (page_mkclean, mm/rmap.c, takes
 * both bits away at writeback), so the first store after writeback faults
 * and dirties the page again.
 */
static bool vma_wants_writenotify(const struct vm_area_struct *vma)
{
	return (vma->vm_flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE) &&
	       vma->vm_file && vma->vm_file->f_inode->i_mapping &&
	       !mapping_cap_swap_backed(vma->vm_file->f_inode->i_mapping);
}

/*
 * newprot is vm_get_page_prot()'s for the VMA's new flags.  A newprot
 * without _PAGE_PRESENT (a VMA with no access: Linux's PAGE_NONE) makes
 * the PTEs PROT_NONE.  Each PTE keeps its page and its accessed and dirty
 * bits.  Any context.
 */
void change_protection(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, uint64_t newprot)
{
	struct mm_struct *mm = vma->vm_mm;
	bool writenotify = vma_wants_writenotify(vma);
	unsigned long addr;
	pte_t *ptep, v;

	for (addr = start; (ptep = next_mapped_pte(mm, &addr, end, false)); addr += PAGE_SIZE) {
		v = *ptep & (PTE_PFN_MASK | _PAGE_ACCESSED | _PAGE_DIRTY);
		if (newprot & _PAGE_PRESENT)
			v |= newprot & PTE_PROT_MASK & __supported_pte_mask;
		else
			v |= _PAGE_PROTNONE;
		/* A clean shared file page stays read-only: its first store
		 * must fault, so that the page is dirtied for writeback. */
		if (writenotify && !(v & _PAGE_DIRTY))
			v &= ~_PAGE_RW;
		if (v != *ptep)
			set_pte_at(mm, addr, ptep, v);
	}
}

/*
 * fork: dst is the new address space (not live), src the parent's.
 * Linux's copy_one_pte: a private VMA's writable PTEs lose _PAGE_RW in
 * both (copy-on-write); a shared VMA's stay as they are, and the child's
 * start clean (the parent's dirty bit still reaches the page).  The
 * child's PTEs start old (not accessed).  On -ENOMEM the PTEs copied so
 * far stay, counted, for the caller's teardown.  The parent's page-table
 * pages stay while we sleep (they go only with its mm); its PTEs may not.
 */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma)
{
	struct pt_allocator alloc = mm_pt_allocator(dst);
	bool shared = vma->vm_flags & VM_SHARED;
	enum pg_level level;
	unsigned long addr;
	pte_t *sptep, *dptep, pte;
	struct page *page;

	for (addr = vma->vm_start; (sptep = next_mapped_pte(src, &addr, vma->vm_end, true));
	     addr += PAGE_SIZE) {
		dptep = pt_walk(dst->pgd, addr, _PAGE_USER, &alloc, &level);
		if (!dptep)
			return -ENOMEM;
		check_pte_level(level, addr);
		/* Allocating the child's page table may have slept in reclaim,
		 * which may have unmapped a file page here (try_to_unmap): read
		 * the parent's PTE now, and copy nothing if it is gone (the
		 * child faults the page in from its file, as the parent will). */
		pte = *sptep;
		if (is_swap_pte(pte)) {
			/* Both now refer to the slot (each count one user). */
			swap_duplicate(pte_to_swp_entry(pte));
			set_pte_at(dst, addr, dptep, pte);
			dst->swap_ents++;
			continue;
		}
		if (!pte_mapped(pte))
			continue;
		if (!shared && (pte & _PAGE_RW)) {
			pte &= ~_PAGE_RW;
			set_pte_at(src, addr, sptep, pte);
		}
		if (shared)
			pte &= ~_PAGE_DIRTY;
		pte &= ~_PAGE_ACCESSED;
		page = pte_page(pte);
		get_page(page);
		page_dup_rmap(page);
		set_pte_at(dst, addr, dptep, pte);
		if (PageAnon(page))
			add_mm_rss(dst, 1, 0);
		else
			add_mm_rss(dst, 0, 1);
	}
	return 0;
}

/*
 * Pages already mapped as needed (present, and writable for a write) are
 * skipped.  A VMA without access has nothing to fault in: 0.  A write to
 * a VMA without VM_WRITE, or a file page past the end of the file, is
 * -EFAULT; out of memory -ENOMEM.  Process context; may sleep.
 */
int populate_vma_range(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, bool write)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr;
	pte_t *ptep;
	int ret;

	if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return 0;
	if (write && !(vma->vm_flags & VM_WRITE))
		return -EFAULT;
	for (addr = start; addr < end; addr += PAGE_SIZE) {
		ptep = pt_walk(mm->pgd, addr, 0, NULL, NULL);
		if (ptep && (*ptep & _PAGE_PRESENT) && (!write || (*ptep & _PAGE_RW)))
			continue;
		ret = handle_mm_fault(mm, vma, addr, write ? FAULT_FLAG_WRITE : 0);
		if (ret & VM_FAULT_OOM)
			return -ENOMEM;
		if (ret & (VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV))
			return -EFAULT;
		cond_resched();
	}
	return 0;
}

int access_swapped_page(struct mm_struct *mm, unsigned long addr, void *dst, size_t n)
{
	enum pg_level level;
	swp_entry_t entry;
	struct page *page;
	pte_t *ptep;
	int ret;

	for (;;) {
		ptep = pt_walk(mm->pgd, addr, 0, NULL, &level);
		if (!ptep || level != PG_LEVEL_4K || !is_swap_pte(*ptep))
			return -EAGAIN;
		entry = pte_to_swp_entry(*ptep);
		page = lookup_swap_cache(entry);
		if (!page)
			page = read_swap_cache_async(entry, GFP_USER);
		if (!page)
			return -ENOMEM;
		lock_page(page);
		/* We slept: the PTE must still name the slot, and the page be
		 * the slot's, or the data is not this address's any more. */
		ptep = pt_walk(mm->pgd, addr, 0, NULL, &level);
		ret = ptep && *ptep == swp_entry_to_pte(entry) && PageSwapCache(page) &&
		      page->private == entry.val ? 0 : -EAGAIN;
		if (!ret && !PageUptodate(page))
			ret = -EIO;
		if (!ret)
			memcpy(dst, (char *)page_address(page) + (addr & ~PAGE_MASK), n);
		unlock_page(page);
		put_page(page);
		if (ret != -EAGAIN || !ptep || !is_swap_pte(*ptep))
			return ret;
	}
}

/* ---- madvise's walks -------------------------------------------------- */

void madvise_free_swap(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr;
	pte_t *ptep, pte;

	for (addr = start; (ptep = next_mapped_pte(mm, &addr, end, true)); addr += PAGE_SIZE) {
		pte = *ptep;
		if (!is_swap_pte(pte))
			continue;
		set_pte_at(mm, addr, ptep, 0);
		mm->swap_ents--;
		free_swap_and_cache(pte_to_swp_entry(pte));
	}
}

void force_swapin_readahead(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr;
	struct page *page;
	pte_t *ptep;

	/* The read may sleep: each step walks to its PTE afresh. */
	for (addr = start; (ptep = next_mapped_pte(mm, &addr, end, true)); addr += PAGE_SIZE) {
		if (!is_swap_pte(*ptep))
			continue;
		page = read_swap_cache_async(pte_to_swp_entry(*ptep), GFP_USER);
		if (page)
			put_page(page);
		cond_resched();
	}
}

unsigned long madvise_pageout(struct vm_area_struct *vma, unsigned long start,
			      unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	LIST_HEAD(page_list);
	unsigned long addr;
	struct page *page;
	pte_t *ptep;

	for (addr = start; (ptep = next_mapped_pte(mm, &addr, end, false)); addr += PAGE_SIZE) {
		if (!(*ptep & _PAGE_PRESENT))
			continue;
		page = pte_page(*ptep);
		/* Pages others map too are theirs to keep (Linux 5.4). */
		if (page_mapcount(page) != 1)
			continue;
		/* Not young for reclaim: its caller says it is done with it. */
		set_pte_at(mm, addr, ptep, *ptep & ~_PAGE_ACCESSED);
		ClearPageReferenced(page);
		get_page(page);
		if (isolate_lru_page(page) == 0)
			list_add(&page->lru, &page_list);
		put_page(page);	/* the list's reference is ours while isolated */
	}
	return list_empty(&page_list) ? 0 : reclaim_pages(&page_list);
}

/* ---- msync ------------------------------------------------------------- */

/* Hand the dirty bits of the PTEs of [start, end) in the shared file VMA
 * vma to their pages (Linux: what page_mkclean does for writeback). */
static void msync_dirty_ptes(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr;
	struct page *page;
	pte_t *ptep;

	for (addr = start; (ptep = next_mapped_pte(mm, &addr, end, false)); addr += PAGE_SIZE) {
		if (!(*ptep & _PAGE_DIRTY))
			continue;
		page = pte_page(*ptep);
		set_pte_at(mm, addr, ptep, *ptep & ~_PAGE_DIRTY);
		if (page_mapping(page))
			set_page_dirty(page);
	}
}

/*
 * msync(2), Linux's checks and results: flags only MS_ASYNC, MS_SYNC (not
 * both) and MS_INVALIDATE, start page-aligned, else -EINVAL; the range
 * rounded up to pages.  For every shared file VMA in it, the PTEs' dirty
 * bits go to the pages (so writeback sees them, also for MS_ASYNC), and
 * MS_SYNC writes the file's dirty pages and waits (not for tmpfs, which
 * has nothing to write to): its error is returned.  MS_INVALIDATE on a
 * VM_LOCKED VMA is -EBUSY.  A hole in the range is -ENOMEM, after the
 * VMAs around it were done.  Process context; may sleep.
 */
long sys_msync(unsigned long start, size_t len, int flags)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct address_space *mapping;
	unsigned long end;
	int unmapped_error = 0, err;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;
	if ((flags & MS_ASYNC) && (flags & MS_SYNC))
		return -EINVAL;
	if (start & ~PAGE_MASK)
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if (end < start || ALIGN_UP(len, PAGE_SIZE) < len)
		return -ENOMEM;
	if (end == start)
		return 0;
	for (vma = find_vma(mm, start); ; vma = vma_next(vma)) {
		if (!vma)
			return -ENOMEM;
		if (start < vma->vm_start) {
			unmapped_error = -ENOMEM;
			start = vma->vm_start;
			if (start >= end)
				break;
		}
		if ((flags & MS_INVALIDATE) && (vma->vm_flags & VM_LOCKED))
			return -EBUSY;
		if (vma->vm_file && (vma->vm_flags & VM_SHARED)) {
			msync_dirty_ptes(vma, start, MIN(end, vma->vm_end));
			mapping = vma->vm_file->f_inode->i_mapping;
			if ((flags & MS_SYNC) && !mapping_cap_swap_backed(mapping)) {
				err = filemap_write_and_wait(mapping);
				if (err)
					return err;
			}
		}
		start = vma->vm_end;
		if (start >= end)
			break;
	}
	return unmapped_error;
}
