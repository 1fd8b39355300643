/*
 * Host unit tests for the page tables of processes and their faults
 * (mm/memory.c), with the real page tables (mm/pgtable.c), page cache
 * (mm/filemap.c), LRU lists (mm/swap.c, mm/vmscan.c) and slab on the fake
 * machine of fake_machine.c, and fake_wait.c for current.
 *
 * There is no CPU: a fault is a call of handle_mm_fault, as mm/fault.c
 * makes it, and user memory is reached through the direct map at the
 * physical address pt_lookup() gives.  "The CPU writes to a page" is
 * simulated by setting the PTE's dirty bit.  VMAs are built by hand
 * (mm/mmap.c is not linked), with the protections vm_get_page_prot gives
 * them; find_vma below walks the list for sys_msync.  The first address
 * space of each test is the live one (host_live_pgd), so flushes count.
 * init_pgd is a fake kernel PGD whose upper half holds marker values, to
 * see pgd_alloc copy them.
 *
 * The file is a fake address_space of FILE_SIZE bytes (two and a half
 * pages): readpage fills a page with a pattern and counts, writepage
 * counts.  Fault-around is off (fault_around_bytes one page) except in
 * test_fault_around, so the others count one page per fault.  Every test ends with nothing mapped, the page tables freed and
 * every counter at zero (teardown).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <asm/tlbflush.h>
#include <fs/vfs.h>
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/pgtable.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "fake_machine.h"
#include "kernel_stubs.h"

#define ZONE (&contig_page_data.node_zones[ZONE_NORMAL])
#define BASE 0x400000ul		/* where the test VMAs start */
#define NPAGES 4
#define FILE_SIZE (2 * PAGE_SIZE + 100)

unsigned long host_tlb_flushes;
const uint64_t *host_live_pgd;
pte_t *init_pgd;

static unsigned long zstat(enum zone_stat_item item)
{
	return zone_page_state(ZONE, item);
}

/* ---- what the rest of the kernel would provide -------------------------- */

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (addr < vma->vm_end)
			return vma;
	return NULL;
}

/* mm/mmap.c's, for anon_vma_prepare: the hand-built VMAs here share
 * nothing, so each anonymous VMA gets an anon_vma of its own. */
struct anon_vma *find_mergeable_anon_vma(struct vm_area_struct *v)
{
	(void)v;
	return NULL;
}

/* vm_get_page_prot's rule (mm/mmap.h), with Linux's PAGE_NONE for no access. */
static uint64_t prot_of(unsigned long flags)
{
	uint64_t prot = _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED;

	if (!(flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return _PAGE_ACCESSED;
	if (!(flags & VM_EXEC))
		prot |= _PAGE_NX;
	if ((flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE))
		prot |= _PAGE_RW;
	return prot;
}

/* ---- the fake file ------------------------------------------------------ */

static unsigned int nr_readpage, nr_writepage;

static uint8_t file_byte(uint64_t pos)
{
	return (uint8_t)(pos * 7 + 3);
}

static int fake_readpage(struct address_space *mapping, struct page *page)
{
	uint64_t pos = (uint64_t)page->index << PAGE_SHIFT, i;
	uint8_t *p = page_address(page);

	(void)mapping;
	nr_readpage++;
	for (i = 0; i < PAGE_SIZE; i++)
		p[i] = pos + i < FILE_SIZE ? file_byte(pos + i) : 0;
	SetPageUptodate(page);
	return 0;
}

static int fake_writepage(struct address_space *mapping, struct page *page)
{
	(void)mapping;
	assert_true(PageLocked(page));
	set_page_writeback(page);
	nr_writepage++;
	end_page_writeback(page);
	return 0;
}

static const struct address_space_operations fake_aops = {
	.readpage = fake_readpage,
	.writepage = fake_writepage,
};

static struct address_space mapping;
static struct inode inode;
static struct file file;

/* ---- address spaces and VMAs -------------------------------------------- */

static struct mm_struct mm, mm2;
static struct vm_area_struct vma, vma2;
static unsigned long pages0;

static void mm_init(struct mm_struct *m)
{
	memset(m, 0, sizeof(*m));
	INIT_LIST_HEAD(&m->mmap);
	m->pgd = pgd_alloc(m);
	assert_non_null(m->pgd);
}

static void vma_init(struct vm_area_struct *v, struct mm_struct *m, unsigned long pages,
		     unsigned long flags, struct file *f)
{
	memset(v, 0, sizeof(*v));
	v->vm_mm = m;
	v->vm_start = BASE;
	v->vm_end = BASE + pages * PAGE_SIZE;
	v->vm_flags = flags;
	v->vm_page_prot = prot_of(flags);
	v->vm_file = f;
	list_add_tail(&v->vm_list, &m->mmap);
}

#define ANON_RW (VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define SHARED_RW (ANON_RW | VM_SHARED | VM_MAYSHARE)

/* The PTE of m at addr (NULL if it has no table), for checks and for
 * playing the CPU. */
static pte_t *pte_of(struct mm_struct *m, unsigned long addr)
{
	return pt_walk(m->pgd, addr, 0, NULL, NULL);
}

/* The page mapped (present) at addr, and its protection. */
static struct page *page_at(struct mm_struct *m, unsigned long addr, uint64_t *prot)
{
	phys_addr_t pa;

	if (pt_lookup(m->pgd, addr, &pa, prot, NULL))
		return NULL;
	return pfn_to_page(pa >> PAGE_SHIFT);
}

static uint8_t *user_mem(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(pt_lookup(m->pgd, addr, &pa, NULL, NULL), 0);
	return phys_to_virt(pa);
}

static int machine(void **state)
{
	(void)state;
	fake_machine_init();
	/* The anon_vma cache keeps one empty slab once it had an object:
	 * let it have one now, so that the page counts of the tests balance. */
	anon_vma_init();
	memset(&vma, 0, sizeof(vma));
	assert_int_equal(anon_vma_prepare(&vma), 0);
	anon_vma_unlink(&vma);
	init_pgd = page_address(alloc_page(GFP_KERNEL));
	memset(init_pgd, 0, PAGE_SIZE);
	for (unsigned int i = PTRS_PER_TABLE / 2; i < PTRS_PER_TABLE; i++)
		init_pgd[i] = (pte_t)i << PAGE_SHIFT;	/* not present: markers only */
	return 0;
}

static int setup(void **state)
{
	(void)state;
	pages0 = fake_pages_in_use();
	nr_readpage = nr_writepage = 0;
	address_space_init(&mapping, &inode, &fake_aops, false);
	memset(&inode, 0, sizeof(inode));
	inode.i_size = FILE_SIZE;
	inode.i_mapping = &mapping;
	memset(&file, 0, sizeof(file));
	file.f_inode = &inode;
	mm_init(&mm);
	mm_init(&mm2);
	host_live_pgd = mm.pgd;
	current->mm = &mm;
	current->min_flt = current->maj_flt = 0;
	/* One page at a time, as the tests below count; test_fault_around
	 * turns it on. */
	fault_around_bytes = PAGE_SIZE;
	return 0;
}

static int teardown(void **state)
{
	struct cache_sizes *cs;

	(void)state;
	host_live_pgd = NULL;
	current->mm = NULL;
	/* The hand-built VMAs are dropped without remove_vma: their
	 * anon_vmas go here. */
	anon_vma_unlink(&vma);
	anon_vma_unlink(&vma2);
	free_pgtables(&mm);
	free_pgtables(&mm2);
	assert_null(mm.pgd);
	assert_int_equal(mm.nr_ptes + mm2.nr_ptes, 0);
	truncate_inode_pages(&mapping, 0);
	assert_int_equal(zstat(NR_PAGETABLE), 0);
	assert_int_equal(zstat(NR_ANON_PAGES), 0);
	assert_int_equal(zstat(NR_FILE_MAPPED), 0);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	assert_int_equal(zstat(NR_INACTIVE_ANON) + zstat(NR_ACTIVE_ANON), 0);
	assert_int_equal(zstat(NR_INACTIVE_FILE) + zstat(NR_ACTIVE_FILE), 0);
	/* The page cache's tree nodes came from kmalloc: empty the preload
	 * pool and kmalloc's caches. */
	radix_tree_preload_drain();
	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
	assert_int_equal(fake_pages_in_use(), pages0);
	return 0;
}

/* ---- tests -------------------------------------------------------------- */

static void test_pgd_alloc_and_free(void **state)
{
	unsigned int i;

	(void)state;
	assert_int_equal(mm.nr_ptes, 1);
	assert_int_equal(zstat(NR_PAGETABLE), 2);	/* mm's and mm2's PGDs */
	for (i = 0; i < PTRS_PER_TABLE / 2; i++)
		assert_int_equal(mm.pgd[i], 0);
	for (; i < PTRS_PER_TABLE; i++)
		assert_int_equal(mm.pgd[i], init_pgd[i]);

	/* A page still mapped when the tables go is a kernel bug. */
	vma_init(&vma, &mm, NPAGES, ANON_RW, NULL);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), 0);
	expect_panic(free_pgtables(&mm), "still mapped");
	zap_page_range(&vma, BASE, vma.vm_end);
}

static void test_anon_fault(void **state)
{
	unsigned long faults0 = vm_event_states.event[PGFAULT];
	unsigned long i, flushes;
	struct page *page;
	uint64_t prot;
	uint8_t *p;

	(void)state;
	vma_init(&vma, &mm, NPAGES, ANON_RW, NULL);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + PAGE_SIZE + 10, 0), 0);
	assert_null(page_at(&mm, BASE, NULL));
	page = page_at(&mm, BASE + PAGE_SIZE, &prot);
	assert_non_null(page);
	/* Zeroed (fake pages come filled with 0xaa), writable at once
	 * (Linux's maybe_mkwrite), user, no execute. */
	p = page_address(page);
	for (i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(p[i], 0);
	assert_true(prot & _PAGE_RW);
	assert_true(prot & _PAGE_USER);
	assert_true(prot & _PAGE_NX);
	assert_true(PageAnon(page) && PageSwapBacked(page));
	assert_true(PageLRU(page) && PageActive(page));
	assert_int_equal(page->_mapcount, 0);
	assert_int_equal(page_count(page), 2);
	assert_int_equal(zstat(NR_ANON_PAGES), 1);
	assert_int_equal(zstat(NR_ACTIVE_ANON), 1);
	assert_int_equal(mm.anon_rss, 1);
	assert_int_equal(mm.hiwater_rss, 1);
	assert_int_equal(mm.nr_ptes, 4);
	assert_int_equal(zstat(NR_PAGETABLE), 5);
	assert_int_equal(vm_event_states.event[PGFAULT] - faults0, 1);
	assert_int_equal(current->min_flt, 1);

	/* A fault the PTE already allows: only a flush. */
	flushes = host_tlb_flushes;
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + PAGE_SIZE, FAULT_FLAG_WRITE), 0);
	assert_int_equal(host_tlb_flushes, flushes + 1);
	assert_ptr_equal(page_at(&mm, BASE + PAGE_SIZE, NULL), page);

	/* A second page; then everything goes. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	assert_int_equal(zstat(NR_ANON_PAGES), 2);
	assert_int_equal(mm.hiwater_rss, 2);
	flushes = host_tlb_flushes;
	zap_page_range(&vma, BASE, vma.vm_end);
	assert_int_equal(host_tlb_flushes, flushes + 2);
	assert_null(page_at(&mm, BASE, NULL));
	assert_int_equal(mm.anon_rss, 0);
	assert_int_equal(mm.hiwater_rss, 2);
	assert_int_equal(zstat(NR_ANON_PAGES), 0);
	assert_int_equal(zstat(NR_ACTIVE_ANON), 0);
	/* Only the page tables are left. */
	assert_int_equal(fake_pages_in_use(), pages0 + 2 + 3);
}

static void test_cow(void **state)
{
	struct page *page, *copy;
	uint64_t prot, prot2;
	unsigned long flushes;

	(void)state;
	vma_init(&vma, &mm, NPAGES, ANON_RW, NULL);
	vma_init(&vma2, &mm2, NPAGES, ANON_RW, NULL);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	page = page_at(&mm, BASE, NULL);
	memset(page_address(page), 'p', PAGE_SIZE);

	flushes = host_tlb_flushes;
	assert_int_equal(copy_page_range(&mm2, &mm, &vma), 0);
	assert_int_equal(host_tlb_flushes, flushes + 1);	/* the parent lost _PAGE_RW */
	assert_ptr_equal(page_at(&mm, BASE, &prot), page);
	assert_ptr_equal(page_at(&mm2, BASE, &prot2), page);
	assert_false(prot & _PAGE_RW);
	assert_false(prot2 & _PAGE_RW);
	assert_false(*pte_of(&mm2, BASE) & _PAGE_ACCESSED);
	assert_int_equal(page_mapcount(page), 2);
	assert_int_equal(page_count(page), 3);
	assert_int_equal(mm2.anon_rss, 1);
	assert_int_equal(zstat(NR_ANON_PAGES), 1);

	/* The child writes: a copy of its own. */
	assert_int_equal(handle_mm_fault(&mm2, &vma2, BASE + 5, FAULT_FLAG_WRITE), 0);
	copy = page_at(&mm2, BASE, &prot2);
	assert_ptr_not_equal(copy, page);
	assert_true(prot2 & _PAGE_RW);
	assert_memory_equal(page_address(copy), page_address(page), PAGE_SIZE);
	assert_true(PageAnon(copy) && PageActive(copy));
	assert_int_equal(page_mapcount(page), 1);
	assert_int_equal(page_count(page), 2);
	assert_int_equal(zstat(NR_ANON_PAGES), 2);
	assert_int_equal(mm2.anon_rss, 1);

	/* The parent's page is its own again: writable in place. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	assert_ptr_equal(page_at(&mm, BASE, &prot), page);
	assert_true(prot & _PAGE_RW);
	assert_int_equal(zstat(NR_ANON_PAGES), 2);

	/* Someone else holding a reference forces a copy even so. */
	zap_page_range(&vma2, BASE, vma2.vm_end);
	change_protection(&vma, BASE, vma.vm_end, vma.vm_page_prot);
	get_page(page);
	assert_int_equal(page_mapcount(page), 1);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	assert_ptr_not_equal(page_at(&mm, BASE, NULL), page);
	assert_false(page_mapped(page));
	assert_false(PageLRU(page));		/* unmapped anon: off its list */
	assert_int_equal(page_count(page), 1);	/* ours alone */
	put_page(page);

	zap_page_range(&vma, BASE, vma.vm_end);
	assert_int_equal(mm.anon_rss + mm2.anon_rss, 0);
}

static void test_file_private(void **state)
{
	unsigned long pgmaj0 = vm_event_states.event[PGMAJFAULT];
	struct page *page, *cache, *copy;
	uint64_t prot;

	(void)state;
	vma_init(&vma, &mm, NPAGES, ANON_RW, &file);

	/* The first fault reads (a major fault) the page and a window ahead. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), VM_FAULT_MAJOR);
	assert_int_equal(current->maj_flt, 1);
	assert_int_equal(vm_event_states.event[PGMAJFAULT], pgmaj0 + 1);
	assert_int_equal(mapping.nrpages, 3);
	cache = find_get_page(&mapping, 0);
	page = page_at(&mm, BASE, &prot);
	assert_ptr_equal(page, cache);
	page_cache_release(cache);
	assert_false(prot & _PAGE_RW);
	assert_int_equal(page_mapcount(page), 1);
	assert_true(PageReferenced(page));
	assert_int_equal(zstat(NR_FILE_MAPPED), 1);
	assert_int_equal(zstat(NR_INACTIVE_FILE), 3);
	assert_int_equal(mm.file_rss, 1);
	assert_int_equal(user_mem(&mm, BASE)[10], file_byte(10));

	/* Page 2 holds the end of the file: zeroes after it.  Page 3 is
	 * past it. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + 2 * PAGE_SIZE, 0), 0);
	assert_int_equal(current->min_flt, 1);
	assert_int_equal(user_mem(&mm, BASE + 2 * PAGE_SIZE)[99], file_byte(2 * PAGE_SIZE + 99));
	assert_int_equal(user_mem(&mm, BASE + 2 * PAGE_SIZE)[100], 0);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + 3 * PAGE_SIZE, 0), VM_FAULT_SIGBUS);
	assert_null(page_at(&mm, BASE + 3 * PAGE_SIZE, NULL));

	/* A write where nothing is mapped copies at once; the cache page
	 * stays unmapped. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + PAGE_SIZE, FAULT_FLAG_WRITE), 0);
	copy = page_at(&mm, BASE + PAGE_SIZE, &prot);
	assert_true(PageAnon(copy) && (prot & _PAGE_RW));
	assert_int_equal(((uint8_t *)page_address(copy))[1], file_byte(PAGE_SIZE + 1));
	cache = find_get_page(&mapping, 1);
	assert_false(page_mapped(cache));
	page_cache_release(cache);
	assert_int_equal(zstat(NR_FILE_MAPPED), 2);
	assert_int_equal(zstat(NR_ANON_PAGES), 1);

	/* A write to the mapped cache page: copy-on-write. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	copy = page_at(&mm, BASE, &prot);
	assert_ptr_not_equal(copy, page);
	assert_true(PageAnon(copy) && (prot & _PAGE_RW));
	assert_false(page_mapped(page));
	assert_true(PageLRU(page));		/* still in the cache, on its list */
	assert_false(PageDirty(page));
	assert_int_equal(zstat(NR_FILE_MAPPED), 1);
	assert_int_equal(zstat(NR_ANON_PAGES), 2);
	assert_int_equal(mm.file_rss, 1);
	assert_int_equal(mm.anon_rss, 2);

	zap_page_range(&vma, BASE, vma.vm_end);
	assert_int_equal(mm.anon_rss + mm.file_rss, 0);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
}

static void test_file_shared_and_msync(void **state)
{
	struct page *page;
	uint64_t prot;
	pte_t *pte;

	(void)state;
	vma_init(&vma, &mm, NPAGES, SHARED_RW, &file);

	/* Read-only until the first write, which dirties the page. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), VM_FAULT_MAJOR);
	page = page_at(&mm, BASE, &prot);
	assert_false(prot & _PAGE_RW);
	assert_false(PageDirty(page));
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	assert_ptr_equal(page_at(&mm, BASE, &prot), page);
	assert_true((prot & (_PAGE_RW | _PAGE_DIRTY)) == (_PAGE_RW | _PAGE_DIRTY));
	assert_true(PageDirty(page));
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + PAGE_SIZE, FAULT_FLAG_WRITE), 0);
	assert_true(PageDirty(page_at(&mm, BASE + PAGE_SIZE, NULL)));
	assert_int_equal(zstat(NR_FILE_DIRTY), 2);
	assert_int_equal(zstat(NR_FILE_MAPPED), 2);

	/* msync: the dirty bits go to the pages, MS_SYNC writes them. */
	assert_int_equal(sys_msync(BASE, 1, MS_SYNC), 0);
	assert_int_equal(nr_writepage, 2);	/* the whole file is written */
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	assert_false(*pte_of(&mm, BASE) & _PAGE_DIRTY);
	assert_true(*pte_of(&mm, BASE + PAGE_SIZE) & _PAGE_DIRTY);
	/* Page 1's PTE kept the dirty bit of its write fault (writeback does
	 * not clean PTEs, as Linux's page_mkclean does over the reverse map),
	 * so it is dirtied once more: a second write, no lost data. */
	assert_int_equal(sys_msync(BASE, 2 * PAGE_SIZE, MS_ASYNC), 0);
	assert_int_equal(nr_writepage, 2);
	assert_false(*pte_of(&mm, BASE + PAGE_SIZE) & _PAGE_DIRTY);
	assert_int_equal(zstat(NR_FILE_DIRTY), 1);
	assert_int_equal(sys_msync(BASE, 2 * PAGE_SIZE, MS_SYNC), 0);
	assert_int_equal(nr_writepage, 3);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);

	/* The CPU writes again; the next msync sees it. */
	pte = pte_of(&mm, BASE);
	*pte |= _PAGE_DIRTY;
	assert_int_equal(sys_msync(BASE, PAGE_SIZE, MS_ASYNC), 0);
	assert_true(PageDirty(page));
	assert_int_equal(sys_msync(BASE, PAGE_SIZE, MS_SYNC | MS_INVALIDATE), 0);
	assert_false(PageDirty(page));

	/* Errors: flags, alignment, holes. */
	assert_int_equal(sys_msync(BASE, PAGE_SIZE, 8), -EINVAL);
	assert_int_equal(sys_msync(BASE, PAGE_SIZE, MS_SYNC | MS_ASYNC), -EINVAL);
	assert_int_equal(sys_msync(BASE + 1, PAGE_SIZE, MS_SYNC), -EINVAL);
	assert_int_equal(sys_msync(BASE, 0, MS_SYNC), 0);
	assert_int_equal(sys_msync(BASE, (NPAGES + 1) * PAGE_SIZE, MS_ASYNC), -ENOMEM);
	assert_int_equal(sys_msync(BASE - PAGE_SIZE, 2 * PAGE_SIZE, MS_ASYNC), -ENOMEM);
	assert_int_equal(sys_msync(vma.vm_end, PAGE_SIZE, MS_ASYNC), -ENOMEM);
	vma.vm_flags |= VM_LOCKED;
	assert_int_equal(sys_msync(BASE, PAGE_SIZE, MS_INVALIDATE), -EBUSY);
	vma.vm_flags &= ~VM_LOCKED;

	/* munmap of a dirty PTE dirties the page. */
	*pte |= _PAGE_DIRTY;
	zap_page_range(&vma, BASE, vma.vm_end);
	assert_true(PageDirty(page));
	assert_int_equal(zstat(NR_FILE_MAPPED), 0);
	assert_int_equal(mm.file_rss, 0);
	assert_int_equal(filemap_write_and_wait(&mapping), 0);
}

static void test_fork_shared(void **state)
{
	struct page *page;
	uint64_t prot, prot2;

	(void)state;
	vma_init(&vma, &mm, NPAGES, SHARED_RW, &file);
	vma_init(&vma2, &mm2, NPAGES, SHARED_RW, &file);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), VM_FAULT_MAJOR);
	page = page_at(&mm, BASE, NULL);
	assert_int_equal(copy_page_range(&mm2, &mm, &vma), 0);
	/* Shared stays shared and writable; the child's PTE starts clean. */
	assert_ptr_equal(page_at(&mm2, BASE, &prot2), page);
	assert_ptr_equal(page_at(&mm, BASE, &prot), page);
	assert_true((prot & prot2) & _PAGE_RW);
	assert_true(prot & _PAGE_DIRTY);
	assert_false(prot2 & _PAGE_DIRTY);
	assert_int_equal(page_mapcount(page), 2);
	assert_int_equal(mm2.file_rss, 1);
	assert_int_equal(zstat(NR_FILE_MAPPED), 1);
	zap_page_range(&vma2, BASE, vma2.vm_end);
	assert_int_equal(zstat(NR_FILE_MAPPED), 1);
	zap_page_range(&vma, BASE, vma.vm_end);
	assert_int_equal(zstat(NR_FILE_MAPPED), 0);
	assert_int_equal(filemap_write_and_wait(&mapping), 0);
}

static void test_prot_none(void **state)
{
	struct page *page;
	uint64_t prot;

	(void)state;
	vma_init(&vma, &mm, NPAGES, ANON_RW, NULL);
	vma_init(&vma2, &mm2, NPAGES, ANON_RW, NULL);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	page = page_at(&mm, BASE, NULL);
	memset(page_address(page), 'k', 16);

	change_protection(&vma, BASE, vma.vm_end, prot_of(0));
	assert_null(page_at(&mm, BASE, NULL));			/* not present... */
	assert_true(*pte_of(&mm, BASE) & _PAGE_DIRTY);		/* ...but kept */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), VM_FAULT_SIGSEGV);
	assert_int_equal(page_mapcount(page), 1);
	assert_int_equal(mm.anon_rss, 1);

	/* fork copies it as it is. */
	assert_int_equal(copy_page_range(&mm2, &mm, &vma), 0);
	assert_int_equal(page_mapcount(page), 2);
	assert_null(page_at(&mm2, BASE, NULL));
	zap_page_range(&vma2, BASE, vma2.vm_end);
	assert_int_equal(page_mapcount(page), 1);

	/* Back to read-write: the same page and data; private, so read-only
	 * until the next write fault, which reuses the page. */
	change_protection(&vma, BASE, vma.vm_end, prot_of(ANON_RW));
	assert_ptr_equal(page_at(&mm, BASE, &prot), page);
	assert_false(prot & _PAGE_RW);
	assert_int_equal(((uint8_t *)page_address(page))[15], 'k');
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	assert_ptr_equal(page_at(&mm, BASE, &prot), page);
	assert_true(prot & _PAGE_RW);

	change_protection(&vma, BASE, vma.vm_end, prot_of(0));
	zap_page_range(&vma, BASE, vma.vm_end);
	assert_int_equal(mm.anon_rss, 0);
	assert_int_equal(zstat(NR_ANON_PAGES), 0);
}

static void test_populate_and_oom(void **state)
{
	unsigned long faults0 = vm_event_states.event[PGFAULT], limit = fake_pages_limit;
	unsigned long i;
	uint64_t prot;

	(void)state;
	vma_init(&vma, &mm, NPAGES, ANON_RW, NULL);
	assert_int_equal(populate_vma_range(&vma, BASE, vma.vm_end, true), 0);
	for (i = 0; i < NPAGES; i++) {
		assert_non_null(page_at(&mm, BASE + i * PAGE_SIZE, &prot));
		assert_true(prot & _PAGE_RW);
	}
	assert_int_equal(vm_event_states.event[PGFAULT] - faults0, NPAGES);
	/* Present already: no more faults. */
	assert_int_equal(populate_vma_range(&vma, BASE, vma.vm_end, false), 0);
	assert_int_equal(vm_event_states.event[PGFAULT] - faults0, NPAGES);
	zap_page_range(&vma, BASE, vma.vm_end);

	vma.vm_flags = VM_READ | VM_MAYREAD;
	assert_int_equal(populate_vma_range(&vma, BASE, vma.vm_end, true), -EFAULT);
	vma.vm_flags = 0;
	assert_int_equal(populate_vma_range(&vma, BASE, vma.vm_end, true), 0);
	assert_null(page_at(&mm, BASE, NULL));

	/* Out of memory: for the page, or for a table on the way. */
	vma.vm_flags = ANON_RW;
	fake_pages_limit = fake_pages_in_use();
	assert_int_equal(populate_vma_range(&vma, BASE, vma.vm_end, true), -ENOMEM);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), VM_FAULT_OOM);
	assert_int_equal(handle_mm_fault(&mm2, &vma, BASE, 0), VM_FAULT_OOM);
	fake_pages_limit = limit;
	assert_int_equal(mm.anon_rss, 0);
}

/*
 * Truncation unmaps: a tmpfs page mapped shared in mm and a private copy
 * of it in mm2 (both VMAs on the mapping's i_mmap, as mmap links them)
 * lose their PTEs, their counts and their references.
 */
static void test_truncate_unmaps(void **state)
{
	struct page *page;

	(void)state;
	address_space_init(&mapping, &inode, &fake_aops, true);
	vma_init(&vma, &mm, NPAGES, SHARED_RW, &file);
	vma_init(&vma2, &mm2, NPAGES, ANON_RW, &file);
	list_add_tail(&vma.shared, &mapping.i_mmap);
	list_add_tail(&vma2.shared, &mapping.i_mmap);
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), VM_FAULT_MAJOR);
	assert_int_equal(handle_mm_fault(&mm2, &vma2, BASE, FAULT_FLAG_WRITE), 0);
	page = page_at(&mm, BASE, NULL);
	assert_true(PageSwapBacked(page));
	assert_false(PageAnon(page));
	assert_true(PageAnon(page_at(&mm2, BASE, NULL)));
	assert_int_equal(zstat(NR_FILE_MAPPED), 1);
	assert_int_equal(zstat(NR_ANON_PAGES), 1);

	get_page(page);
	truncate_inode_pages(&mapping, 0);
	assert_null(page->mapping);
	assert_false(page_mapped(page));
	assert_null(page_at(&mm, BASE, NULL));
	assert_null(page_at(&mm2, BASE, NULL));
	assert_int_equal(zstat(NR_FILE_MAPPED), 0);
	assert_int_equal(zstat(NR_ANON_PAGES), 0);
	assert_int_equal(mm.file_rss + mm.anon_rss + mm2.file_rss + mm2.anon_rss, 0);
	assert_int_equal(page_count(page), 1);
	put_page(page);
	list_del(&vma.shared);
	list_del(&vma2.shared);
}

/*
 * Fault-around: a read fault maps the cached, up-to-date, unlocked pages
 * of its window too (read-only, counted as mapped, not as faults), never
 * past the end of the file; a locked page is left to its own fault; a
 * write fault maps only its page.
 */
static void test_fault_around(void **state)
{
	struct page *cache;
	uint64_t prot;
	int i;

	(void)state;
	fault_around_bytes = 16 * PAGE_SIZE;
	vma_init(&vma, &mm, NPAGES, ANON_RW, &file);

	/* The first fault reads all three pages (readahead) and maps them. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), VM_FAULT_MAJOR);
	assert_int_equal(current->maj_flt + current->min_flt, 1);
	for (i = 0; i < 3; i++) {
		assert_non_null(page_at(&mm, BASE + i * PAGE_SIZE, &prot));
		assert_false(prot & _PAGE_RW);
	}
	assert_null(page_at(&mm, BASE + 3 * PAGE_SIZE, NULL));	/* past the end */
	assert_int_equal(mm.file_rss, 3);
	assert_int_equal(zstat(NR_FILE_MAPPED), 3);
	assert_int_equal(user_mem(&mm, BASE)[10], file_byte(10));
	assert_int_equal(user_mem(&mm, BASE + 2 * PAGE_SIZE)[99], file_byte(2 * PAGE_SIZE + 99));
	zap_page_range(&vma, BASE, vma.vm_end);

	/* The window starts before the fault: cached pages there go in. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE + 2 * PAGE_SIZE, 0), 0);
	assert_int_equal(mm.file_rss, 3);
	assert_int_equal(current->maj_flt + current->min_flt, 2);
	zap_page_range(&vma, BASE, vma.vm_end);

	/* A locked page (being read) is left for its own fault. */
	cache = find_get_page(&mapping, 2);
	assert_true(trylock_page(cache));
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, 0), 0);
	assert_non_null(page_at(&mm, BASE + PAGE_SIZE, NULL));
	assert_null(page_at(&mm, BASE + 2 * PAGE_SIZE, NULL));
	unlock_page(cache);
	page_cache_release(cache);
	zap_page_range(&vma, BASE, vma.vm_end);

	/* A write fault of a private mapping maps its own copy, nothing more. */
	assert_int_equal(handle_mm_fault(&mm, &vma, BASE, FAULT_FLAG_WRITE), 0);
	assert_null(page_at(&mm, BASE + PAGE_SIZE, NULL));
	assert_int_equal(mm.anon_rss + mm.file_rss, 1);
	zap_page_range(&vma, BASE, vma.vm_end);
	assert_int_equal(mm.anon_rss + mm.file_rss, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_pgd_alloc_and_free),
		T(test_anon_fault),
		T(test_cow),
		T(test_file_private),
		T(test_file_shared_and_msync),
		T(test_fork_shared),
		T(test_prot_none),
		T(test_populate_and_oom),
		T(test_truncate_unmaps),
		T(test_fault_around),
	};

	return cmocka_run_group_tests(tests, machine, NULL);
}
