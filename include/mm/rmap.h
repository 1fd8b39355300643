/*
 * The reverse map: from a page to the page-table entries that map it
 * (Linux's include/linux/rmap.h and PageAnon, v2.6.28).  mm/rmap.c
 * implements it and explains the structures; mm/memory.c keeps the
 * counts as it maps and unmaps.
 *
 * Two kinds of page are mapped into user space:
 *
 *   anonymous   memory with no file behind it: a process's heap, stack,
 *               MAP_ANONYMOUS mappings and its private copies of file
 *               pages.  page->mapping points at the anon_vma of the VMA
 *               it was first mapped in, with PAGE_MAPPING_ANON (bit 0)
 *               added, and page->index is its linear index in that VMA
 *               (vma_address inverts it).  It has PG_swapbacked.
 *   file        a page-cache page: page->mapping is its file's
 *               address_space, whose i_mmap lists the VMAs mapping the
 *               file.  A tmpfs page is a file page too, although it has
 *               PG_swapbacked.
 *
 * So PageAnon is the tag bit and nothing else.  An anonymous page keeps
 * its tagged mapping after its last unmap, until it is freed
 * (free_pages_check clears it), as in Linux: a page's anon_vma is only
 * reliable while the page is mapped.
 *
 * page->_mapcount counts the page-table entries mapping the page, in every
 * address space, minus one: -1 when it is mapped nowhere.
 */
#ifndef MM_RMAP_H
#define MM_RMAP_H

#include <mm/mm.h>
#include <pageturn/list.h>
#include <pageturn/spinlock.h>

struct vm_area_struct;
struct address_space;

/*
 * The VMAs that may map an anonymous page: the VMA it was faulted in,
 * the copies fork made of that VMA (in the children, grandchildren...),
 * and the pieces split_vma cut from any of them.  Each is on head through
 * its anon_vma_node.  Freed when the last VMA leaves.
 */
struct anon_vma {
	spinlock_t lock;		/* guards head */
	struct list_head head;		/* VMAs, by vma->anon_vma_node */
};

#define PAGE_MAPPING_ANON	1ul

static inline bool PageAnon(const struct page *page)
{
	return ((unsigned long)page->mapping & PAGE_MAPPING_ANON) != 0;
}

/* The anon_vma of an anonymous page (NULL for any other page). */
static inline struct anon_vma *page_anon_vma(const struct page *page)
{
	if (!PageAnon(page))
		return NULL;
	return (struct anon_vma *)((unsigned long)page->mapping - PAGE_MAPPING_ANON);
}

/* The swap cache of the area entry.val is in (mm/swap_state.c). */
struct address_space *swap_address_space_of(unsigned long entry_val);

/* The address_space of a page-cache page, the swap cache's for a page in
 * the swap cache, NULL for any other anonymous or unmapped page (Linux's
 * page_mapping). */
static inline struct address_space *page_mapping(const struct page *page)
{
	if (PageSwapCache(page))
		return swap_address_space_of(page->private);
	return PageAnon(page) ? NULL : page->mapping;
}

/* Is the page mapped by at least one page-table entry? */
static inline bool page_mapped(const struct page *page)
{
	return page->_mapcount >= 0;
}

/* The anon_vma slab cache ("anon_vma" in /proc/slabinfo).  Boot, once. */
void anon_vma_init(void);

/*
 * Give vma an anon_vma before its first anonymous page is mapped: a
 * neighbour's, if vma could merge with it (find_mergeable_anon_vma), or a
 * new one.  0, or -ENOMEM.  Process context; may sleep to allocate.
 */
int anon_vma_prepare(struct vm_area_struct *vma);

/* vma, a copy (fork) or a piece (split_vma) of a VMA whose anon_vma it
 * carries, joins that anon_vma's list.  Nothing for a NULL anon_vma. */
void anon_vma_link(struct vm_area_struct *vma);

/* vma leaves its anon_vma's list (munmap, exit, a merge that removes
 * it); the last VMA to leave frees the anon_vma. */
void anon_vma_unlink(struct vm_area_struct *vma);

/*
 * The counts, kept by mm/memory.c as PTEs come and go (each comes with
 * one page reference the caller takes or drops):
 *   page_add_new_anon_rmap  a new anonymous page's first PTE, at address
 *                           in vma (which has its anon_vma): mapping,
 *                           index, _mapcount 0, NR_ANON_PAGES;
 *   page_add_anon_rmap      another PTE of an anonymous page at address
 *                           in vma (the page is already vma's anon_vma's);
 *   page_add_file_rmap      another PTE of a page-cache page;
 *   page_dup_rmap           fork copied a PTE: one more of either kind;
 *   page_remove_rmap        one PTE fewer; the last uncounts the page.
 */
void page_add_new_anon_rmap(struct page *page, struct vm_area_struct *vma,
			    unsigned long address);
void page_add_anon_rmap(struct page *page, struct vm_area_struct *vma,
			unsigned long address);
void page_add_file_rmap(struct page *page);
void page_dup_rmap(struct page *page);
void page_remove_rmap(struct page *page);

/*
 * How many PTEs mapping page had the accessed bit set (each is cleared,
 * and its TLB entry flushed).  PG_referenced is the caller's to test and
 * clear.  A VM_LOCKED VMA stops the walk without counting, so that the
 * page goes on to try_to_unmap.  is_locked: the caller holds the page
 * lock; else a file page the lock of which is taken by someone else
 * counts as referenced (its mapping may be changing).  Never sleeps.
 */
int page_referenced(struct page *page, int is_locked);

/* try_to_unmap's results (Linux's). */
enum {
	SWAP_SUCCESS,	/* no PTE maps the page any more */
	SWAP_AGAIN,	/* some PTE could not be reached: try later */
	SWAP_FAIL,	/* the page must stay mapped (see try_to_unmap) */
	SWAP_MLOCK,	/* a VM_LOCKED VMA maps it: PG_mlocked is now set */
};

/*
 * Clear every PTE mapping page (called with the page locked): each one's
 * dirty bit goes to the page (set_page_dirty), its rss count and its page
 * reference go.  With the PTEs walked so far cleared, it stops with
 * SWAP_MLOCK when a VM_LOCKED VMA maps the page, which it mlocks on the
 * way (mlock_vma_page: reclaim then culls it to LRU_UNEVICTABLE, Linux
 * 2.6.28's lazy culling), and with SWAP_FAIL when a PTE is young
 * (accessed since page_referenced looked: the page is in use).  An
 * anonymous page not in the swap cache is SWAP_FAIL at once.  migration
 * is Linux's flag for page migration, which skips the VM_LOCKED and
 * young tests; reclaim passes 0.  Never sleeps.
 */
int try_to_unmap(struct page *page, int migration);

/* Write-protect and clean every shared PTE of a locked file page; the
 * number that were dirty (Linux's page_mkclean). */
int page_mkclean(struct page *page);

/*
 * Called by munlock with the page locked and PG_mlocked just cleared:
 * does some other VM_LOCKED VMA still map the page (another process's,
 * or a second mapping of the same file page)?  If so the page is mlocked
 * again (mlock_vma_page) and the answer is SWAP_MLOCK; otherwise
 * SWAP_SUCCESS.  Reclaim also asks it before it would give an anonymous
 * page swap.  Never sleeps.
 */
int try_to_munlock(struct page *page);

/* The user address of page in vma, or -EFAULT when the page's index lies
 * outside the VMA (Linux's vma_address). */
unsigned long vma_address(const struct page *page, const struct vm_area_struct *vma);

#endif
