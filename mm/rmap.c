/*
 * The reverse map: which page-table entries map a page (Linux's
 * mm/rmap.c, v2.6.28: anon_vma, page_referenced, try_to_unmap).  Reclaim
 * needs it to age a page by the accessed bits of all its PTEs and to take
 * a page away from every process that maps it; truncation uses the file
 * half to unmap what lies past a file's new end.
 *
 * Nothing is stored per PTE.  A page leads to the VMAs that may map it,
 * and each VMA to the one address where it would (vma_address); the page
 * tables at that address say whether it does:
 *
 *   file page       page->mapping is the address_space; mapping->i_mmap
 *                   lists every VMA of every mm with that file as
 *                   vm_file (linked by vma->shared, under i_mmap_lock).
 *                   The address of page->index in a VMA is
 *                   vm_start + (index - vm_pgoff) pages, if inside it.
 *   anonymous page  page->mapping is an anon_vma, tagged with
 *                   PAGE_MAPPING_ANON (mm/rmap.h).  Its list (by
 *                   vma->anon_vma_node, under anon_vma->lock) holds the
 *                   VMA the page was faulted in, every copy fork made of
 *                   that VMA (children and their children join the
 *                   parent's anon_vma: anon_vma_link), and every piece
 *                   split_vma cut from them.  page->index is the page's
 *                   linear index in the VMA it was faulted in, vm_pgoff +
 *                   its page number there, so the same formula finds it:
 *                   an anonymous VMA's vm_pgoff is vm_start >> PAGE_SHIFT
 *                   and moves with vm_start (split_vma, expand_stack), a
 *                   private file VMA's is the file offset, so a COW copy
 *                   of a file page has the index of the page it copies.
 *
 * VMA states, for the reverse map:
 *
 *   vma->anon_vma NULL     no anonymous page was ever mapped in it.
 *   vma->anon_vma set      it is on that anon_vma's list.  Set by the
 *                          first anonymous fault (anon_vma_prepare, which
 *                          takes a mergeable neighbour's anon_vma when
 *                          there is one, so the two can still merge), by
 *                          fork and split (copied, then anon_vma_link),
 *                          or by a merge in which it absorbed a VMA that
 *                          had one.  Cleared only when the VMA is freed
 *                          (anon_vma_unlink); the last VMA to leave an
 *                          anon_vma frees it.
 *
 * Invariants:
 *   - every PTE that maps an anonymous page lies in a VMA on the page's
 *     anon_vma list, at vma_address(page, vma);
 *   - every PTE that maps a file page lies in a VMA on its mapping's
 *     i_mmap, at vma_address(page, vma);
 *   - two VMAs merge only if their anon_vmas are the same or one is NULL
 *     (mm/mmap.c's is_mergeable_anon_vma), so the merged VMA still finds
 *     every page both found.
 *
 * mremap only grows or shrinks a VMA in place (mm/mmap.c), so a page never
 * moves to another address and the formula stays right.  Linux keeps
 * i_mmap in a priority search tree (prio_tree) so that a page's VMAs are
 * found without looking at the others; Pageturn's list visits them all.
 *
 * The counts.  page->_mapcount is the number of PTEs mapping the page,
 * minus one; the first PTE counts the page in NR_ANON_PAGES or
 * NR_FILE_MAPPED, the last uncounts it, and each PTE holds a page
 * reference, taken and dropped by mm/memory.c (and by try_to_unmap).
 *
 * Unmapping.  try_to_unmap clears a file page's PTEs (the file has the
 * data); an anonymous page must be in the swap cache first (add_to_swap),
 * and each of its PTEs gets the slot's swap entry instead, one swap_map
 * count each (mm/swapops.h, docs/swap.md).  A swap-cache page that no PTE
 * maps keeps page->mapping, which may name an anon_vma that is gone: the
 * walks start only from mapped pages, and page_add_anon_rmap gives a page
 * mapped again the VMA's anon_vma afresh.
 *
 * The TLB.  Clearing the accessed bit or the whole PTE of the live address
 * space flushes that address (set_pte_at).  Any other address space has no
 * TLB entries: there is one CPU, user pages are never global, and the
 * switch to an address space loads CR3, which drops every non-global
 * entry.
 *
 * Locking.  One CPU and no preemption: the walks here never sleep, so
 * nothing changes the lists or the page tables under them; the locks are
 * Linux's and catch a walk that recurses into itself.  Allocation (only
 * anon_vma_prepare's) may sleep: what it held is checked again after.
 */
#include <asm/tlbflush.h>
#include <fs/fs.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <mm/vmstat.h>
#include <uapi/errno.h>

#include "internal.h"

static struct kmem_cache *anon_vma_cachep;

/* ---- anon_vma ------------------------------------------------------------- */

void anon_vma_init(void)
{
	anon_vma_cachep = kmem_cache_create("anon_vma", sizeof(struct anon_vma), 0,
					    SLAB_PANIC, NULL);
}

static void anon_vma_add(struct anon_vma *anon_vma, struct vm_area_struct *vma)
{
	unsigned long flags;

	spin_lock_irqsave(&anon_vma->lock, flags);
	list_add_tail(&vma->anon_vma_node, &anon_vma->head);
	spin_unlock_irqrestore(&anon_vma->lock, flags);
}

int anon_vma_prepare(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma, *allocated = NULL;

	if (vma->anon_vma)
		return 0;
	anon_vma = find_mergeable_anon_vma(vma);
	if (!anon_vma) {
		allocated = kmem_cache_alloc(anon_vma_cachep, GFP_KERNEL);
		if (!allocated)
			return -ENOMEM;
		/* The allocation may have slept; another user of the mm may
		 * have given vma an anon_vma meanwhile. */
		if (vma->anon_vma) {
			kmem_cache_free(anon_vma_cachep, allocated);
			return 0;
		}
		spin_lock_init(&allocated->lock, "anon_vma->lock");
		INIT_LIST_HEAD(&allocated->head);
		anon_vma = allocated;
	}
	vma->anon_vma = anon_vma;
	anon_vma_add(anon_vma, vma);
	return 0;
}

void anon_vma_link(struct vm_area_struct *vma)
{
	if (vma->anon_vma)
		anon_vma_add(vma->anon_vma, vma);
}

void anon_vma_unlink(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	unsigned long flags;
	bool empty;

	if (!anon_vma)
		return;
	spin_lock_irqsave(&anon_vma->lock, flags);
	list_del(&vma->anon_vma_node);
	empty = list_empty(&anon_vma->head);
	spin_unlock_irqrestore(&anon_vma->lock, flags);
	vma->anon_vma = NULL;
	if (empty)
		kmem_cache_free(anon_vma_cachep, anon_vma);
}

/* ---- the counts ----------------------------------------------------------- */

/* The linear index of address in vma (Linux's linear_page_index). */
static pgoff_t linear_page_index(const struct vm_area_struct *vma, unsigned long address)
{
	return ((address - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff;
}

/* Called with vma->anon_vma set (anon_vma_prepare). */
void page_add_new_anon_rmap(struct page *page, struct vm_area_struct *vma,
			    unsigned long address)
{
	page->mapping = (struct address_space *)((unsigned long)vma->anon_vma | PAGE_MAPPING_ANON);
	page->index = linear_page_index(vma, address);
	page->_mapcount = 0;
	inc_zone_page_state(page, NR_ANON_PAGES);
}

/*
 * A page mapped elsewhere already keeps its anon_vma and index: vma is on
 * that anon_vma's list and address is where the formula puts the page.
 * A page mapped nowhere (a swap-cache page swapped in again) takes vma's
 * anon_vma and index, as a new page does; whatever page->mapping held
 * before may name an anon_vma that is gone.  Called with vma->anon_vma
 * set (anon_vma_prepare).
 */
void page_add_anon_rmap(struct page *page, struct vm_area_struct *vma, unsigned long address)
{
	if (!page_mapped(page)) {
		page_add_new_anon_rmap(page, vma, address);
		return;
	}
	if (page_anon_vma(page) != vma->anon_vma || page->index != linear_page_index(vma, address))
		panic("page_add_anon_rmap: pfn %lu would not be found at %#lx",
		      page_to_pfn(page), address);
	page->_mapcount++;
}

void page_add_file_rmap(struct page *page)
{
	if (++page->_mapcount == 0)
		inc_zone_page_state(page, NR_FILE_MAPPED);
}

/* The page is mapped already: the count alone changes. */
void page_dup_rmap(struct page *page)
{
	page->_mapcount++;
}

/* page->mapping stays (mm/rmap.h): it is cleared when the page is freed. */
void page_remove_rmap(struct page *page)
{
	if (page->_mapcount < 0)
		panic("page_remove_rmap: pfn %lu is not mapped", page_to_pfn(page));
	if (--page->_mapcount < 0)
		dec_zone_page_state(page, PageAnon(page) ? NR_ANON_PAGES : NR_FILE_MAPPED);
}

/* ---- finding the PTEs ----------------------------------------------------- */

unsigned long vma_address(const struct page *page, const struct vm_area_struct *vma)
{
	pgoff_t pgoff = page->index;

	if (pgoff < vma->vm_pgoff || pgoff - vma->vm_pgoff >= vma_pages(vma))
		return -EFAULT;
	return vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
}

/* The PTE of mm at address if it maps page (present or PROT_NONE), else
 * NULL (Linux's page_check_address). */
static pte_t *page_check_address(const struct page *page, struct mm_struct *mm,
				 unsigned long address)
{
	enum pg_level level;
	pte_t *ptep = pt_walk(mm->pgd, address, 0, NULL, &level);

	if (!ptep || level != PG_LEVEL_4K || !pte_mapped(*ptep) || pte_page(*ptep) != page)
		return NULL;
	return ptep;
}

/*
 * A walk over the VMAs that may map page: one(page, vma, arg) for each,
 * until it returns nonzero, which the walk returns (0 when every VMA was
 * visited).  Called with the VMA list's lock not held; takes it.
 */
typedef int (*rmap_one_t)(struct page *page, struct vm_area_struct *vma, void *arg);

static int rmap_walk(struct page *page, rmap_one_t one, void *arg)
{
	struct vm_area_struct *vma;
	struct anon_vma *anon_vma;
	struct address_space *mapping;
	unsigned long flags;
	int ret = 0;

	if (PageAnon(page)) {
		anon_vma = page_anon_vma(page);
		spin_lock_irqsave(&anon_vma->lock, flags);
		list_for_each_entry(vma, &anon_vma->head, anon_vma_node)
			if ((ret = one(page, vma, arg)))
				break;
		spin_unlock_irqrestore(&anon_vma->lock, flags);
	} else {
		mapping = page->mapping;
		spin_lock_irqsave(&mapping->i_mmap_lock, flags);
		list_for_each_entry(vma, &mapping->i_mmap, shared)
			if ((ret = one(page, vma, arg)))
				break;
		spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
	}
	return ret;
}

/* ---- page_referenced ------------------------------------------------------ */

struct referenced_arg {
	int referenced;		/* young PTEs found */
	int mapcount;		/* PTEs not found yet: 0 ends the walk */
};

/* Linux's page_referenced_one.  Returns nonzero to end the walk. */
static int page_referenced_one(struct page *page, struct vm_area_struct *vma, void *arg)
{
	struct referenced_arg *ra = arg;
	struct mm_struct *mm = vma->vm_mm;
	unsigned long address = vma_address(page, vma);
	pte_t *ptep;

	if (address == (unsigned long)-EFAULT)
		return 0;
	ptep = page_check_address(page, mm, address);
	if (!ptep)
		return 0;
	/* A page mlocked somewhere is not counted, so that it goes on to
	 * try_to_unmap, which keeps it (Linux 2.6.28). */
	if (vma->vm_flags & VM_LOCKED)
		return 1;
	if (*ptep & _PAGE_ACCESSED) {
		set_pte_at(mm, address, ptep, *ptep & ~_PAGE_ACCESSED);
		ra->referenced++;
	}
	return --ra->mapcount == 0;
}

/*
 * Linux 2.6.28's page_referenced also test-and-clears PG_referenced and
 * counts it; here the caller does, as Linux's page_check_references does
 * since 2.6.34, so that the two kinds of reference can be told apart.
 */
int page_referenced(struct page *page, int is_locked)
{
	struct referenced_arg ra = { 0, page_mapcount(page) };

	if (!page_mapped(page) || !page->mapping)
		return 0;
	if (PageAnon(page) || is_locked) {
		rmap_walk(page, page_referenced_one, &ra);
		return ra.referenced;
	}
	if (!trylock_page(page))
		return 1;
	/* Truncation may have taken the page out of its file. */
	if (page->mapping)
		rmap_walk(page, page_referenced_one, &ra);
	unlock_page(page);
	return ra.referenced;
}

/* ---- page_mkclean ---------------------------------------------------------- */

/* Linux's page_mkclean_one: write-protect and clean the PTE of a shared
 * VMA that maps page; counts it in *arg if it was dirty. */
static int page_mkclean_one(struct page *page, struct vm_area_struct *vma, void *arg)
{
	int *dirty = arg;
	struct mm_struct *mm = vma->vm_mm;
	unsigned long address = vma_address(page, vma);
	pte_t *ptep;

	if (address == (unsigned long)-EFAULT || !(vma->vm_flags & VM_SHARED))
		return 0;
	ptep = page_check_address(page, mm, address);
	if (!ptep || !(*ptep & (_PAGE_RW | _PAGE_DIRTY)))
		return 0;
	if (*ptep & _PAGE_DIRTY)
		(*dirty)++;
	set_pte_at(mm, address, ptep, *ptep & ~(_PAGE_RW | _PAGE_DIRTY));
	return 0;
}

/*
 * Called with the page locked, by writeback before it writes a file page
 * (clear_page_dirty_for_io).  Every shared PTE of the page loses its
 * write permission and its dirty bit; returns the number that were dirty.
 * The next store through any of them faults (do_wp_page), which dirties
 * the page again, so a store after writeback is never missed.
 */
int page_mkclean(struct page *page)
{
	int dirty = 0;

	if (!PageLocked(page))
		panic("page_mkclean: pfn %lu is not locked", page_to_pfn(page));
	if (page_mapped(page) && page->mapping && !PageAnon(page))
		rmap_walk(page, page_mkclean_one, &dirty);
	return dirty;
}

/* ---- try_to_unmap --------------------------------------------------------- */

/* Linux's try_to_unmap_one: 0 to go on (Linux: SWAP_AGAIN), SWAP_FAIL or
 * SWAP_MLOCK to stop the walk. */
static int try_to_unmap_one(struct page *page, struct vm_area_struct *vma, void *arg)
{
	int migration = *(int *)arg;
	struct mm_struct *mm = vma->vm_mm;
	unsigned long address = vma_address(page, vma);
	pte_t *ptep, pte;

	if (address == (unsigned long)-EFAULT)
		return 0;
	ptep = page_check_address(page, mm, address);
	if (!ptep)
		return 0;
	/* "If the page is mlock()d, we cannot swap it out.  If it's
	 * recently referenced (perhaps page_referenced skipped it), then
	 * don't swap it out." (Linux) */
	if (!migration) {
		/* Linux 2.6.28 mlocks the page here if it can take the mm's
		 * mmap_sem; nothing else holds it across this walk here. */
		if (vma->vm_flags & VM_LOCKED) {
			mlock_vma_page(page);
			return SWAP_MLOCK;
		}
		if (*ptep & _PAGE_ACCESSED) {
			set_pte_at(mm, address, ptep, *ptep & ~_PAGE_ACCESSED);
			return SWAP_FAIL;
		}
	}
	pte = *ptep;
	if (PageAnon(page)) {
		/* The slot's entry takes the page's place (try_to_unmap checked
		 * PG_swapcache); the PTE's count on it is taken first. */
		swp_entry_t entry = { page->private };

		if (!swap_duplicate(entry))
			return SWAP_FAIL;
		set_pte_at(mm, address, ptep, swp_entry_to_pte(entry));
		add_mm_rss(mm, -1, 0);
		mm->swap_ents++;
	} else {
		set_pte_at(mm, address, ptep, 0);
		add_mm_rss(mm, 0, -1);
	}
	if (pte & _PAGE_DIRTY)
		set_page_dirty(page);
	page_remove_rmap(page);
	put_page(page);		/* the PTE's reference */
	return 0;
}

/*
 * An anonymous page's data, once no PTE maps the page, can be found again
 * only through the swap entry try_to_unmap_one writes into each PTE in its
 * place: page->private of a page in the swap cache (PG_swapcache, given by
 * add_to_swap).  An anonymous page outside the swap cache has no such
 * entry and stays mapped: SWAP_FAIL.
 */
int try_to_unmap(struct page *page, int migration)
{
	int ret;

	if (!PageLocked(page))
		panic("try_to_unmap: pfn %lu is not locked", page_to_pfn(page));
	if (!page_mapped(page))
		return SWAP_SUCCESS;
	if (PageAnon(page) && !PageSwapCache(page))
		return SWAP_FAIL;
	ret = rmap_walk(page, try_to_unmap_one, &migration);
	if (ret)
		return ret;
	return page_mapped(page) ? SWAP_AGAIN : SWAP_SUCCESS;
}

/* One VMA for try_to_munlock (Linux's try_to_unmap_anon/_file with
 * unlock set): a locked VMA that maps the page mlocks it and ends the
 * walk. */
static int try_to_munlock_one(struct page *page, struct vm_area_struct *vma, void *arg)
{
	unsigned long address = vma_address(page, vma);

	(void)arg;
	if (!(vma->vm_flags & VM_LOCKED) || address == (unsigned long)-EFAULT ||
	    !page_check_address(page, vma->vm_mm, address))
		return 0;
	mlock_vma_page(page);
	return SWAP_MLOCK;
}

int try_to_munlock(struct page *page)
{
	if (!PageLocked(page))
		panic("try_to_munlock: pfn %lu is not locked", page_to_pfn(page));
	if (!page_mapped(page) || !page->mapping)
		return SWAP_SUCCESS;
	return rmap_walk(page, try_to_munlock_one, NULL) ? SWAP_MLOCK : SWAP_SUCCESS;
}
