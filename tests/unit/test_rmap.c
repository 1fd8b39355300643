/*
 * Host unit tests for the reverse map (mm/rmap.c), with the real VMA
 * layer (mm/mmap.c, mm/mprotect.c), page tables and faults (mm/memory.c,
 * mm/pgtable.c), page cache (mm/filemap.c), LRU lists and slab, on the
 * fake machine of fake_machine.c.
 *
 * Address spaces come from mm_alloc and fork's dup_mm and go with mmput,
 * so anon_vmas and i_mmap are linked and unlinked as in the kernel.  There
 * is no CPU: a fault is a call of handle_mm_fault after the checks
 * mm/fault.c makes, and "the CPU touches a page" is setting the PTE's
 * accessed bit (and dirty bit for a write) by hand.  The file is a fake
 * address_space of FILE_PAGES pages whose readpage fills a pattern.
 *
 * The oracle (check_rmap) walks the page tables of every live address
 * space and compares, for every page it finds mapped, with what the
 * reverse map says: _mapcount, the counters and rss, and
 * page_referenced, which must find every PTE the walk found (all made
 * young first) and clear them all.  It also checks the structures: each
 * VMA on its anon_vma's list and its file's i_mmap, each anon_vma's list
 * holding only live VMAs, and as many anon_vma objects allocated
 * (/proc/slabinfo's count) as there are anon_vmas in use, so a leak
 * shows.  test_random_ops runs it after every step of random fork, exit,
 * mmap, munmap, mprotect, mremap, touches, truncations and try_to_unmap
 * of file pages: 100 rounds of 200 steps, up to six address spaces.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <asm/tlbflush.h>
#include <fs/file.h>
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

#include "../../mm/internal.h"
#include "fake_machine.h"
#include "kernel_stubs.h"

#define ZONE (&contig_page_data.node_zones[ZONE_NORMAL])
#define PG PAGE_SIZE
#define BASE 0x400000ul		/* the window every mapping lies in */
#define WINDOW 24		/* its pages */
#define FILE_PAGES 8
#define MAX_MMS 6
#define RLIM_INF (~0ul)

unsigned long host_tlb_flushes;
const uint64_t *host_live_pgd;
pte_t *init_pgd;

static unsigned long zstat(enum zone_stat_item item)
{
	return zone_page_state(ZONE, item);
}

/* ---- what the rest of the kernel would provide -------------------------- */

unsigned long task_rlimit(const struct task_struct *p, unsigned int resource)
{
	(void)p;
	(void)resource;
	return RLIM_INF;
}

struct file *fget(unsigned int fd)
{
	(void)fd;
	return NULL;
}

void fput(struct file *file)
{
	assert_true(file->f_count > 1);	/* the test holds the last one */
	file->f_count--;
}

/* ---- the fake file ------------------------------------------------------ */

static uint8_t file_byte(uint64_t pos)
{
	return (uint8_t)(pos * 7 + 3);
}

static int fake_readpage(struct address_space *mapping, struct page *page)
{
	uint64_t pos = (uint64_t)page->index << PAGE_SHIFT, i;
	uint8_t *p = page_address(page);

	(void)mapping;
	for (i = 0; i < PAGE_SIZE; i++)
		p[i] = file_byte(pos + i);
	SetPageUptodate(page);
	return 0;
}

static int fake_writepage(struct address_space *mapping, struct page *page)
{
	(void)mapping;
	(void)page;
	return 0;
}

static const struct address_space_operations fake_aops = {
	.readpage = fake_readpage,
	.writepage = fake_writepage,
};

static struct address_space mapping;
static struct inode inode;
static struct file file;

/* ---- address spaces ------------------------------------------------------ */

static struct mm_struct *mms[MAX_MMS];
static int nr_mms;
static unsigned long pages0;

/* Make m the live address space, as a context switch would. */
static void use_mm(struct mm_struct *m)
{
	current->mm = m;
	host_live_pgd = m ? m->pgd : NULL;
}

static struct mm_struct *new_mm(void)
{
	struct mm_struct *m = mm_alloc();

	assert_non_null(m);
	mms[nr_mms++] = m;
	return m;
}

static struct mm_struct *fork_mm(int i)
{
	struct mm_struct *m;

	use_mm(mms[i]);
	m = dup_mm(mms[i]);
	assert_non_null(m);
	mms[nr_mms++] = m;
	return m;
}

static void exit_mm(int i)
{
	if (current->mm == mms[i])
		use_mm(NULL);
	mmput(mms[i]);
	mms[i] = mms[--nr_mms];
}

static long do_map(struct mm_struct *m, unsigned long addr, unsigned long pages,
		   unsigned long prot, unsigned long flags, bool with_file, pgoff_t pgoff)
{
	use_mm(m);
	return do_mmap_pgoff(m, addr, pages * PG, prot, flags | MAP_FIXED,
			     with_file ? &file : NULL, pgoff);
}

/* An access by the "CPU" in m at addr, as mm/fault.c resolves it: 0, or
 * -1 when the process would get a signal.  Afterwards the PTE is young
 * (and dirty for a write), as the CPU leaves it. */
static int touch(struct mm_struct *m, unsigned long addr, bool write)
{
	struct vm_area_struct *vma = find_vma(m, addr);
	pte_t *ptep;
	int ret;

	if (!vma || vma->vm_start > addr)
		return -1;
	if (!(vma->vm_flags & (write ? VM_WRITE : VM_READ)))
		return -1;
	use_mm(m);
	ret = handle_mm_fault(m, vma, addr, write ? FAULT_FLAG_WRITE : 0);
	if (ret & (VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV))
		return -1;
	ptep = pt_walk(m->pgd, addr & PAGE_MASK, 0, NULL, NULL);
	if (!ptep || !(*ptep & _PAGE_PRESENT))
		return 0;	/* a truncation raced: the access is retried */
	if (write)
		assert_true(*ptep & _PAGE_RW);
	*ptep |= _PAGE_ACCESSED | (write ? _PAGE_DIRTY : 0);
	return 0;
}

/* The linear page index of addr in v (mm/rmap.c's formula, inverted). */
static pgoff_t linear_index(const struct vm_area_struct *v, unsigned long addr)
{
	return v->vm_pgoff + ((addr - v->vm_start) >> PAGE_SHIFT);
}

/* The PTE of m at addr if it maps a page, else NULL. */
static pte_t *mapped_pte(struct mm_struct *m, unsigned long addr)
{
	pte_t *ptep = pt_walk(m->pgd, addr, 0, NULL, NULL);

	return ptep && pte_mapped(*ptep) ? ptep : NULL;
}

static struct page *page_at(struct mm_struct *m, unsigned long addr)
{
	pte_t *ptep = mapped_pte(m, addr);

	return ptep ? pte_page(*ptep) : NULL;
}

/* Active objects of a slab cache, from the slabinfo report. */
static unsigned long slab_active(const char *name)
{
	const char *p;
	unsigned long active;

	log_clear();
	slabinfo_report();
	for (p = log_buf; (p = strstr(p, name)) != NULL; p++)
		if (p >= log_buf + 10 && !strncmp(p - 10, "slabinfo: ", 10) && p[strlen(name)] == ' ')
			break;
	assert_non_null(p);
	for (p += strlen(name); *p == ' '; p++)
		;
	for (active = 0; *p >= '0' && *p <= '9'; p++)
		active = active * 10 + (unsigned long)(*p - '0');
	log_clear();
	return active;
}

/* ---- the oracle ---------------------------------------------------------- */

#define MAX_PTES (MAX_MMS * WINDOW)

struct found {
	struct page *page;
	int ptes;
	bool locked;	/* some PTE lies in a VM_LOCKED VMA */
};

static bool vma_on_list(const struct vm_area_struct *vma, const struct list_head *head,
			size_t node_offset)
{
	const struct list_head *p;

	for (p = head->next; p != head; p = p->next)
		if ((const char *)p - node_offset == (const char *)vma)
			return true;
	return false;
}

static bool vma_live(const struct vm_area_struct *vma)
{
	struct vm_area_struct *v;

	for (int i = 0; i < nr_mms; i++)
		list_for_each_entry(v, &mms[i]->mmap, vm_list)
			if (v == vma)
				return true;
	return false;
}

static void check_structures(void)
{
	struct anon_vma *seen[MAX_MMS * WINDOW];
	struct vm_area_struct *v, *w;
	unsigned long file_vmas = 0, n;
	int nseen = 0, i, j;

	for (i = 0; i < nr_mms; i++) {
		list_for_each_entry(v, &mms[i]->mmap, vm_list) {
			assert_true(v->vm_start >= BASE && v->vm_end <= BASE + WINDOW * PG);
			if (!v->vm_file)
				assert_int_equal(v->vm_pgoff, v->vm_start >> PAGE_SHIFT);
			else {
				file_vmas++;
				assert_true(vma_on_list(v, &mapping.i_mmap,
							offsetof(struct vm_area_struct, shared)));
			}
			if (!v->anon_vma)
				continue;
			assert_true(vma_on_list(v, &v->anon_vma->head,
						offsetof(struct vm_area_struct, anon_vma_node)));
			for (j = 0; j < nseen && seen[j] != v->anon_vma; j++)
				;
			if (j == nseen)
				seen[nseen++] = v->anon_vma;
		}
	}
	for (j = 0; j < nseen; j++)
		list_for_each_entry(w, &seen[j]->head, anon_vma_node) {
			assert_true(vma_live(w));
			assert_ptr_equal(w->anon_vma, seen[j]);
		}
	n = 0;
	list_for_each_entry(w, &mapping.i_mmap, shared) {
		assert_true(vma_live(w));
		assert_ptr_equal(w->vm_file, &file);
		n++;
	}
	assert_int_equal(n, file_vmas);
	assert_int_equal(slab_active("anon_vma"), nseen);
}

static void check_rmap(void)
{
	static struct found found[MAX_PTES];
	pte_t *ptes[MAX_PTES];
	int pte_found[MAX_PTES];
	unsigned long anon_pages = 0, file_pages = 0, anon_rss, file_rss, addr;
	int nfound = 0, nptes = 0, i, j;
	struct page *page;
	pte_t *ptep;

	check_structures();
	for (i = 0; i < nr_mms; i++) {
		anon_rss = file_rss = 0;
		for (addr = BASE; addr < BASE + WINDOW * PG; addr += PG) {
			ptep = mapped_pte(mms[i], addr);
			if (!ptep)
				continue;
			page = pte_page(*ptep);
			/* Every PTE lies in a VMA; a file page's within EOF. */
			struct vm_area_struct *v = find_vma(mms[i], addr);
			assert_true(v && v->vm_start <= addr);
			assert_int_equal(page->index, linear_index(v, addr));
			if (PageAnon(page)) {
				anon_rss++;
				assert_ptr_equal(page_anon_vma(page), v->anon_vma);
			} else {
				file_rss++;
				assert_ptr_equal(page->mapping, &mapping);
				assert_true(page->index < (inode.i_size + PG - 1) / PG);
			}
			for (j = 0; j < nfound && found[j].page != page; j++)
				;
			if (j == nfound)
				found[nfound++] = (struct found){ page, 0, false };
			found[j].ptes++;
			found[j].locked |= !!(v->vm_flags & VM_LOCKED);
			pte_found[nptes] = j;
			ptes[nptes++] = ptep;
		}
		assert_int_equal(mms[i]->anon_rss, anon_rss);
		assert_int_equal(mms[i]->file_rss, file_rss);
	}
	/* page_referenced does not count a page mapped in a locked VMA (it
	 * is reclaim's cue to cull it): those PTEs are left old. */
	for (i = 0; i < nptes; i++)
		if (!found[pte_found[i]].locked)
			*ptes[i] |= _PAGE_ACCESSED;
		else
			*ptes[i] &= ~(pte_t)_PAGE_ACCESSED;
	for (j = 0; j < nfound; j++) {
		page = found[j].page;
		if (PageAnon(page))
			anon_pages++;
		else
			file_pages++;
		assert_int_equal(page_mapcount(page), found[j].ptes);
		assert_int_equal(PageMlocked(page), found[j].locked);
		if (found[j].locked)
			continue;
		assert_int_equal(page_referenced(page, 1), found[j].ptes);
		assert_int_equal(page_referenced(page, 1), 0);
	}
	for (i = 0; i < nptes; i++)
		assert_false(*ptes[i] & _PAGE_ACCESSED);
	assert_int_equal(zstat(NR_ANON_PAGES), anon_pages);
	assert_int_equal(zstat(NR_FILE_MAPPED), file_pages);
}

/* ---- setup --------------------------------------------------------------- */

static int machine(void **state)
{
	(void)state;
	fake_machine_init();
	anon_vma_init();
	init_pgd = page_address(alloc_page(GFP_KERNEL));
	memset(init_pgd, 0, PAGE_SIZE);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	pages0 = fake_pages_in_use();
	address_space_init(&mapping, &inode, &fake_aops, false);
	memset(&inode, 0, sizeof(inode));
	inode.i_size = FILE_PAGES * PG;
	inode.i_mapping = &mapping;
	memset(&file, 0, sizeof(file));
	file.f_inode = &inode;
	file.f_mode = FMODE_READ | FMODE_WRITE;
	file.f_count = 1;
	nr_mms = 0;
	fault_around_bytes = PAGE_SIZE;
	return 0;
}

static int teardown(void **state)
{
	struct cache_sizes *cs;

	(void)state;
	while (nr_mms)
		exit_mm(nr_mms - 1);
	use_mm(NULL);
	assert_int_equal(file.f_count, 1);
	assert_true(list_empty(&mapping.i_mmap));
	assert_int_equal(slab_active("anon_vma"), 0);
	truncate_inode_pages(&mapping, 0);
	assert_int_equal(zstat(NR_ANON_PAGES), 0);
	assert_int_equal(zstat(NR_FILE_MAPPED), 0);
	assert_int_equal(zstat(NR_FILE_DIRTY), 0);
	assert_int_equal(zstat(NR_PAGETABLE), 0);
	assert_int_equal(zstat(NR_INACTIVE_ANON) + zstat(NR_ACTIVE_ANON), 0);
	assert_int_equal(zstat(NR_INACTIVE_FILE) + zstat(NR_ACTIVE_FILE), 0);
	assert_int_equal(zstat(NR_UNEVICTABLE) + zstat(NR_MLOCK), 0);
	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
	return 0;
}

#define RW (PROT_READ | PROT_WRITE)
#define PRIV MAP_PRIVATE
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

/* ---- tests --------------------------------------------------------------- */

/*
 * A page written by a parent and inherited copy-on-write by a child and
 * a grandchild is found from all three; page_referenced counts each young
 * PTE once and clears it; an anonymous page (no swap cache) cannot be
 * unmapped; copy-on-write and exits leave the rest findable.
 */
static void test_fork_chain_anon(void **state)
{
	struct mm_struct *parent, *child, *grandchild;
	struct page *page, *copy;

	(void)state;
	parent = new_mm();
	assert_int_equal(do_map(parent, BASE, 4, RW, ANON, false, 0), BASE);
	assert_int_equal(touch(parent, BASE + PG, true), 0);
	page = page_at(parent, BASE + PG);
	assert_true(PageAnon(page));
	assert_int_equal(page->index, (BASE + PG) >> PAGE_SHIFT);
	child = fork_mm(0);
	grandchild = fork_mm(1);
	assert_ptr_equal(page_at(child, BASE + PG), page);
	assert_ptr_equal(page_at(grandchild, BASE + PG), page);
	assert_int_equal(page_mapcount(page), 3);
	assert_ptr_equal(find_vma(grandchild, BASE)->anon_vma, page_anon_vma(page));
	check_rmap();

	/* fork's copies start old; the parent's PTE is young from the write. */
	assert_int_equal(page_referenced(page, 0), 0);
	assert_int_equal(touch(child, BASE + PG, false), 0);
	assert_int_equal(touch(grandchild, BASE + PG, false), 0);
	assert_int_equal(page_referenced(page, 0), 2);
	assert_int_equal(page_referenced(page, 0), 0);

	lock_page(page);
	assert_int_equal(try_to_unmap(page, 0), SWAP_FAIL);
	unlock_page(page);
	assert_int_equal(page_mapcount(page), 3);

	/* The child writes: its own copy, in the same anon_vma. */
	assert_int_equal(touch(child, BASE + PG, true), 0);
	copy = page_at(child, BASE + PG);
	assert_ptr_not_equal(copy, page);
	assert_ptr_equal(page_anon_vma(copy), page_anon_vma(page));
	assert_int_equal(page_mapcount(page), 2);
	check_rmap();

	/* What swap-in will do: map the page again where the grandchild's
	 * PTE was (page_add_anon_rmap); anywhere else the reverse map could
	 * not find it, a kernel bug. */
	use_mm(grandchild);
	zap_page_range(find_vma(grandchild, BASE), BASE + PG, BASE + 2 * PG);
	assert_int_equal(page_mapcount(page), 1);
	expect_panic(page_add_anon_rmap(page, find_vma(grandchild, BASE), BASE + 2 * PG),
		     "would not be found");
	get_page(page);
	page_add_anon_rmap(page, find_vma(grandchild, BASE), BASE + PG);
	*pt_walk(grandchild->pgd, BASE + PG, 0, NULL, NULL) = page_to_phys(page) | _PAGE_PRESENT |
							     _PAGE_USER;
	grandchild->anon_rss++;
	assert_int_equal(page_mapcount(page), 2);
	check_rmap();

	exit_mm(2);		/* the grandchild */
	assert_int_equal(page_mapcount(page), 1);
	check_rmap();
	exit_mm(0);		/* the parent: the child's anon_vma lives on */
	check_rmap();
	assert_int_equal(slab_active("anon_vma"), 1);
}

/*
 * A file page mapped shared in two address spaces and privately in a
 * third: try_to_unmap clears all three PTEs, the dirty bit of a shared one
 * reaches the page, mapcount and rss go back to nothing.  A young PTE or
 * a VM_LOCKED VMA makes it answer SWAP_MLOCK instead.
 */
static void test_unmap_file_page(void **state)
{
	struct mm_struct *a, *b, *c;
	unsigned long rss, mapped;
	struct page *page;
	pte_t *ptep;

	(void)state;
	a = new_mm();
	b = new_mm();
	c = new_mm();
	assert_int_equal(do_map(a, BASE, 4, RW, MAP_SHARED, true, 0), BASE);
	assert_int_equal(do_map(b, BASE + 4 * PG, 4, RW, MAP_SHARED, true, 0), BASE + 4 * PG);
	assert_int_equal(do_map(c, BASE, 4, PROT_READ, PRIV, true, 0), BASE);
	assert_int_equal(touch(a, BASE + 2 * PG, true), 0);
	assert_int_equal(touch(b, BASE + 6 * PG, false), 0);
	assert_int_equal(touch(c, BASE + 2 * PG, false), 0);
	page = page_at(a, BASE + 2 * PG);
	assert_false(PageAnon(page));
	assert_ptr_equal(page_at(b, BASE + 6 * PG), page);
	assert_ptr_equal(page_at(c, BASE + 2 * PG), page);
	assert_int_equal(page_mapcount(page), 3);
	check_rmap();

	/* Young PTEs: not unmapped (the first young one stops it). */
	assert_int_equal(touch(a, BASE + 2 * PG, true), 0);
	lock_page(page);
	assert_int_equal(try_to_unmap(page, 0), SWAP_FAIL);
	unlock_page(page);
	assert_true(page_mapped(page));

	/* mlocked in b: not unmapped (SWAP_MLOCK), and page_referenced
	 * skips it; munlock gives it back to the file list. */
	use_mm(b);
	assert_int_equal(do_mlock(b, BASE + 4 * PG, 4 * PG, true), 0);
	assert_true(PageMlocked(page) && PageUnevictable(page));
	page_referenced(page, 0);
	lock_page(page);
	assert_int_equal(try_to_unmap(page, 0), SWAP_MLOCK);
	unlock_page(page);
	assert_int_equal(do_mlock(b, BASE + 4 * PG, 4 * PG, false), 0);
	assert_false(PageMlocked(page) || PageUnevictable(page));
	assert_int_equal(zstat(NR_MLOCK) + zstat(NR_UNEVICTABLE), 0);

	/* Old PTEs, one of them dirty (a written since the page was last
	 * cleaned): all go, the dirt to the page.  (The walk above cleared
	 * a's PTE before it met b's locked VMA.) */
	assert_int_equal(touch(a, BASE + 2 * PG, true), 0);
	page_referenced(page, 0);
	lock_page(page);
	assert_true(clear_page_dirty_for_io(page));
	ptep = mapped_pte(a, BASE + 2 * PG);
	/* Writeback's page_mkclean took write permission and the dirty bit
	 * from the PTE; put the dirty bit back, as a store between the
	 * page's last fault and try_to_unmap leaves it. */
	assert_false(*ptep & (_PAGE_DIRTY | _PAGE_RW));
	*ptep |= _PAGE_DIRTY;
	rss = a->file_rss + b->file_rss + c->file_rss;
	mapped = zstat(NR_FILE_MAPPED);
	assert_int_equal(try_to_unmap(page, 0), SWAP_SUCCESS);
	unlock_page(page);
	assert_true(PageDirty(page));
	assert_int_equal(zstat(NR_FILE_DIRTY), 1);
	assert_int_equal(page_mapcount(page), 0);
	assert_false(page_mapped(page));
	assert_null(page_at(a, BASE + 2 * PG));
	assert_null(page_at(b, BASE + 6 * PG));
	assert_null(page_at(c, BASE + 2 * PG));
	assert_int_equal(a->file_rss + b->file_rss + c->file_rss, rss - 3);
	assert_int_equal(zstat(NR_FILE_MAPPED), mapped - 1);
	assert_int_equal(page_count(page), 2);	/* the cache's and the LRU's */
	check_rmap();

	/* The next access maps it again, from the cache. */
	assert_int_equal(touch(c, BASE + 2 * PG, false), 0);
	assert_ptr_equal(page_at(c, BASE + 2 * PG), page);
	check_rmap();
	lock_page(page);
	assert_int_equal(clear_page_dirty_for_io(page), true);
	unlock_page(page);
}

/*
 * Splits (munmap, mprotect), merges and in-place mremap keep every
 * anonymous page findable at its address.
 */
static void test_split_merge_mremap(void **state)
{
	struct mm_struct *m, *child;
	unsigned long a;

	(void)state;
	m = new_mm();
	assert_int_equal(do_map(m, BASE, 8, RW, ANON, false, 0), BASE);
	for (a = BASE; a < BASE + 8 * PG; a += PG)
		assert_int_equal(touch(m, a, true), 0);
	child = fork_mm(0);
	check_rmap();

	use_mm(m);
	assert_int_equal(do_mprotect(m, BASE + 2 * PG, 2 * PG, PROT_READ), 0);
	assert_int_equal(m->map_count, 3);
	check_rmap();
	assert_int_equal(do_munmap(m, BASE + 5 * PG, PG), 0);
	check_rmap();
	assert_int_equal(do_mprotect(m, BASE + 2 * PG, 2 * PG, RW), 0);
	assert_int_equal(m->map_count, 2);	/* merged back: one anon_vma */
	check_rmap();

	/* Growing in place over the hole, merging with the VMA above. */
	use_mm(m);
	assert_int_equal(sys_mremap(BASE, 5 * PG, 6 * PG, 0, 0), BASE);
	assert_int_equal(m->map_count, 1);
	assert_int_equal(touch(m, BASE + 5 * PG, true), 0);
	check_rmap();
	/* Shrinking. */
	assert_int_equal(sys_mremap(BASE, 8 * PG, 3 * PG, 0, 0), BASE);
	check_rmap();

	/* A new anonymous mapping next to one with an anon_vma shares it
	 * (find_mergeable_anon_vma), so the two still merge. */
	use_mm(child);
	assert_int_equal(do_munmap(child, BASE + 6 * PG, 2 * PG), 0);
	assert_int_equal(do_map(child, BASE + 6 * PG, 2, PROT_READ, ANON, false, 0), BASE + 6 * PG);
	assert_int_equal(touch(child, BASE + 6 * PG, false), 0);
	assert_ptr_equal(find_vma(child, BASE + 6 * PG)->anon_vma,
			 find_vma(child, BASE)->anon_vma);
	use_mm(child);
	assert_int_equal(do_mprotect(child, BASE + 6 * PG, 2 * PG, RW), 0);
	assert_int_equal(child->map_count, 1);
	check_rmap();
	exit_mm(0);
	check_rmap();
}

/*
 * Truncation unmaps what lies past the new end in every address space:
 * shared PTEs and private copies alike; an access there is then refused
 * (SIGBUS), and the pages before the end stay mapped with their data.
 */
static void test_truncate_unmaps(void **state)
{
	struct mm_struct *a, *b;
	unsigned long addr;

	(void)state;
	a = new_mm();
	assert_int_equal(do_map(a, BASE, FILE_PAGES, RW, MAP_SHARED, true, 0), BASE);
	assert_int_equal(do_map(a, BASE + 10 * PG, FILE_PAGES, RW, PRIV, true, 0), BASE + 10 * PG);
	for (addr = 0; addr < FILE_PAGES * PG; addr += PG) {
		assert_int_equal(touch(a, BASE + addr, false), 0);
		assert_int_equal(touch(a, BASE + 10 * PG + addr, addr >= 4 * PG), 0);
	}
	b = fork_mm(0);
	check_rmap();

	inode.i_size = 3 * PG + 100;
	truncate_inode_pages(&mapping, inode.i_size);
	check_rmap();
	for (addr = 0; addr < FILE_PAGES * PG; addr += PG) {
		bool kept = addr < 4 * PG;

		assert_int_equal(page_at(a, BASE + addr) != NULL, kept);
		assert_int_equal(page_at(b, BASE + 10 * PG + addr) != NULL, kept);
	}
	assert_int_equal(*(uint8_t *)page_address(page_at(b, BASE + 3 * PG)), file_byte(3 * PG));
	use_mm(b);
	assert_int_equal(handle_mm_fault(b, find_vma(b, BASE + 5 * PG), BASE + 5 * PG, 0),
			 VM_FAULT_SIGBUS);
	assert_int_equal(handle_mm_fault(b, find_vma(b, BASE + 15 * PG), BASE + 15 * PG,
					 FAULT_FLAG_WRITE), VM_FAULT_SIGBUS);
	inode.i_size = FILE_PAGES * PG;
}

/* ---- random operations against the oracle -------------------------------- */

static unsigned long rnd_state;

static unsigned long rnd(unsigned long n)
{
	rnd_state = rnd_state * 6364136223846793005ul + 1442695040888963407ul;
	return (rnd_state >> 33) % n;
}

static void random_step(void)
{
	static const unsigned long prots[] = { PROT_NONE, PROT_READ, RW, RW };
	struct mm_struct *m;
	unsigned long start, len, i;
	int which = (int)rnd((unsigned long)nr_mms);

	m = mms[which];
	start = BASE + rnd(WINDOW) * PG;
	len = 1 + rnd((BASE + WINDOW * PG - start) / PG);
	switch (rnd(12)) {
	case 0:
		if (nr_mms < MAX_MMS)
			fork_mm(which);
		break;
	case 1:
		if (nr_mms > 1)
			exit_mm(which);
		break;
	case 2: {
		unsigned long type = rnd(4);
		bool with_file = type >= 2;
		pgoff_t pgoff = rnd(FILE_PAGES);

		do_map(m, start, len, prots[rnd(4)] | (type == 3 ? 0 : 0),
		       (type & 1) ? MAP_SHARED | (with_file ? 0 : MAP_ANONYMOUS)
				  : PRIV | (with_file ? 0 : MAP_ANONYMOUS),
		       with_file, pgoff);
		break;
	}
	case 3:
		use_mm(m);
		do_munmap(m, start, len * PG);
		break;
	case 4:
		use_mm(m);
		do_mprotect(m, start, len * PG, prots[rnd(4)]);
		break;
	case 5: {
		struct vm_area_struct *v = find_vma(m, start);

		use_mm(m);
		if (v && v->vm_start <= start)
			sys_mremap(start, v->vm_end - start,
				   MIN(len * PG, BASE + WINDOW * PG - start), MREMAP_MAYMOVE, 0);
		break;
	}
	case 6:
		inode.i_size = rnd(FILE_PAGES * PG);
		truncate_inode_pages(&mapping, inode.i_size);
		check_rmap();
		inode.i_size = FILE_PAGES * PG;
		break;
	case 7: {
		/* Reclaim's view: unmap the first file page mapped from start
		 * on (aged first, so that no PTE is young). */
		struct page *page = NULL;

		for (; start < BASE + WINDOW * PG && !page; start += PG)
			if ((page = page_at(m, start)) && PageAnon(page))
				page = NULL;
		if (page && trylock_page(page)) {
			page_referenced(page, 1);
			assert_int_equal(try_to_unmap(page, 0), SWAP_SUCCESS);
			assert_false(page_mapped(page));
			unlock_page(page);
		}
		break;
	}
	default:
		for (i = 0; i < len && i < 8; i++)
			touch(m, start + i * PG, rnd(2));
		break;
	}
}

static void test_random_ops(void **state)
{
	int round, step;

	(void)state;
	for (round = 0; round < 100; round++) {
		rnd_state = 0x5eed0000ul + (unsigned long)round;
		new_mm();
		for (step = 0; step < 200; step++) {
			random_step();
			check_rmap();
		}
		while (nr_mms)
			exit_mm(nr_mms - 1);
		check_rmap();
		assert_int_equal(slab_active("anon_vma"), 0);
		assert_true(list_empty(&mapping.i_mmap));
	}
}

/* ---- mlock and the unevictable list -------------------------------------- */

static unsigned long ev(enum vm_event_item item)
{
	return vm_event_states.event[item];
}

/*
 * Direct reclaim over the fake machine, as often as it takes for its
 * deferred scans (nr_scan) to reach a batch at the small lists here, a
 * few times over (a referenced page goes round the active list first).  The
 * fake zone has no present_pages of its own, which would make reclaim
 * skip it as unpopulated.
 */
static void reclaim(void)
{
	unsigned long flags = current->flags, present = ZONE->present_pages;

	current->flags |= PF_MEMALLOC;
	ZONE->present_pages = ZONE->managed_pages ? ZONE->managed_pages : 1024;
	for (int i = 0; i < 256; i++)
		try_to_free_pages(ZONE, 0, GFP_KERNEL);
	ZONE->present_pages = present;
	current->flags = flags;
}

static void assert_locked(struct mm_struct *m, unsigned long addr, unsigned long pages, bool locked)
{
	for (unsigned long i = 0; i < pages; i++) {
		struct page *page = page_at(m, addr + i * PG);

		assert_non_null(page);
		assert_int_equal(PageMlocked(page), locked);
		assert_int_equal(PageUnevictable(page), locked);
		assert_true(PageLRU(page));
	}
}

/*
 * mlock of anonymous and file memory puts the pages on LRU_UNEVICTABLE,
 * counted in NR_MLOCK, and reclaim leaves them mapped.
 * A MAP_SHARED anonymous region locked by a parent and its forked child:
 * the parent's munlock keeps the pages locked (try_to_munlock finds the
 * child's VMA), the child's rescues them.  Copy-on-write in a locked VMA
 * clears the old page's lock; munmap and exit munlock.
 */
static void test_mlock_unevictable(void **state)
{
	struct mm_struct *m, *child;
	unsigned long mlocked0 = ev(UNEVICTABLE_PGMLOCKED), culled0 = ev(UNEVICTABLE_PGCULLED);
	unsigned long munlocked0, rescued0, cleared0, steal0;
	struct page *old;

	(void)state;
	m = new_mm();
	assert_int_equal(do_map(m, BASE, 4, RW, ANON, false, 0), BASE);
	assert_int_equal(do_map(m, BASE + 4 * PG, 4, PROT_READ, MAP_SHARED, true, 0), BASE + 4 * PG);
	assert_int_equal(do_map(m, BASE + 8 * PG, 4, RW, MAP_SHARED | MAP_ANONYMOUS, false, 0),
			 BASE + 8 * PG);
	assert_int_equal(do_mlock(m, BASE, 12 * PG, true), 0);
	assert_locked(m, BASE, 12, true);
	assert_int_equal(zstat(NR_MLOCK), 12);
	assert_int_equal(zstat(NR_UNEVICTABLE), 12);
	assert_int_equal(ev(UNEVICTABLE_PGMLOCKED) - mlocked0, 12);
	/* The anon pages were born mlocked; the file pages were moved. */
	assert_int_equal(ev(UNEVICTABLE_PGCULLED) - culled0, 4);
	check_rmap();

	/* Reclaim frees the file's other cached pages (readahead brought
	 * them) and never touches the locked ones. */
	steal0 = ev(PGSTEAL_FILE);
	reclaim();
	assert_true(ev(PGSTEAL_FILE) > steal0);
	assert_locked(m, BASE, 12, true);
	assert_int_equal(zstat(NR_UNEVICTABLE), 12);
	check_rmap();


	/* The shared region, locked by the child too. */
	child = fork_mm(0);
	use_mm(child);
	assert_int_equal(do_mlock(child, BASE + 8 * PG, 4 * PG, true), 0);
	assert_ptr_equal(page_at(child, BASE + 8 * PG), page_at(m, BASE + 8 * PG));
	munlocked0 = ev(UNEVICTABLE_PGMUNLOCKED);
	rescued0 = ev(UNEVICTABLE_PGRESCUED);
	use_mm(m);
	assert_int_equal(do_mlock(m, BASE + 8 * PG, 4 * PG, false), 0);
	assert_locked(m, BASE + 8 * PG, 4, true);
	assert_int_equal(zstat(NR_MLOCK), 12);
	assert_int_equal(ev(UNEVICTABLE_PGMUNLOCKED), munlocked0);
	use_mm(child);
	assert_int_equal(do_mlock(child, BASE + 8 * PG, 4 * PG, false), 0);
	assert_locked(m, BASE + 8 * PG, 4, false);
	assert_int_equal(zstat(NR_MLOCK), 8);
	assert_int_equal(ev(UNEVICTABLE_PGMUNLOCKED) - munlocked0, 4);
	assert_int_equal(ev(UNEVICTABLE_PGRESCUED) - rescued0, 4);
	check_rmap();

	/* The child shares the locked private anon pages copy-on-write but
	 * not the lock.  A write by the locked parent copies: the copy is
	 * mlocked, the old page (the child's now) is not. */
	old = page_at(m, BASE);
	cleared0 = ev(UNEVICTABLE_PGCLEARED);
	assert_int_equal(touch(m, BASE, true), 0);
	assert_ptr_not_equal(page_at(m, BASE), old);
	assert_ptr_equal(page_at(child, BASE), old);
	assert_locked(m, BASE, 4, true);
	assert_false(PageMlocked(old) || PageUnevictable(old));
	assert_int_equal(ev(UNEVICTABLE_PGCLEARED) - cleared0, 1);
	assert_int_equal(zstat(NR_MLOCK), 8);
	check_rmap();

	/* munmap of the locked file range and exit munlock. */
	munlocked0 = ev(UNEVICTABLE_PGMUNLOCKED);
	use_mm(m);
	assert_int_equal(do_munmap(m, BASE + 4 * PG, 4 * PG), 0);
	assert_int_equal(zstat(NR_MLOCK), 4);
	assert_int_equal(ev(UNEVICTABLE_PGMUNLOCKED) - munlocked0, 4);
	exit_mm(0);
	assert_int_equal(zstat(NR_MLOCK) + zstat(NR_UNEVICTABLE), 0);
	assert_int_equal(ev(UNEVICTABLE_PGMUNLOCKED) - munlocked0, 8);
	assert_int_equal(ev(UNEVICTABLE_MLOCKFREED), 0);
	check_rmap();
}

/*
 * Lazy culling: a file page mapped in a VMA that became VM_LOCKED without
 * its pages being mlocked is found by reclaim, mlocked by try_to_unmap
 * (SWAP_MLOCK) and culled.  An AS_UNEVICTABLE mapping's cached pages are
 * culled too and never freed, and scan_mapping_unevictable_pages rescues them once the
 * flag is cleared.
 */
static void test_cull_and_rescue(void **state)
{
	struct mm_struct *m;
	struct vm_area_struct *vma;
	unsigned long culled0 = ev(UNEVICTABLE_PGCULLED), scanned0, rescued0, cached;
	struct page *page;

	(void)state;
	m = new_mm();
	assert_int_equal(do_map(m, BASE, 2, PROT_READ, MAP_SHARED, true, 0), BASE);
	assert_int_equal(touch(m, BASE, false), 0);
	page = page_at(m, BASE);
	assert_false(PageMlocked(page) || PageUnevictable(page));
	vma = find_vma(m, BASE);
	vma->vm_flags |= VM_LOCKED;
	m->locked_vm += vma_pages(vma);
	/* page_referenced skips it, try_to_unmap mlocks it and answers
	 * SWAP_MLOCK, shrink_page_list culls it. */
	reclaim();
	assert_ptr_equal(page_at(m, BASE), page);
	assert_true(PageMlocked(page) && PageUnevictable(page));
	assert_int_equal(ev(UNEVICTABLE_PGCULLED) - culled0, 1);
	assert_int_equal(zstat(NR_MLOCK), 1);
	assert_int_equal(do_munmap(m, BASE, 2 * PG), 0);
	assert_false(PageMlocked(page) || PageUnevictable(page));
	assert_int_equal(zstat(NR_MLOCK) + zstat(NR_UNEVICTABLE), 0);

	/* The same file, now unevictable as a whole: its cached pages are
	 * culled when reclaim meets them, and rescued by the scan. */
	assert_int_equal(do_map(m, BASE, 4, PROT_READ, MAP_SHARED, true, 0), BASE);
	for (int i = 0; i < 4; i++)
		assert_int_equal(touch(m, BASE + i * PG, false), 0);
	assert_int_equal(do_munmap(m, BASE, 4 * PG), 0);
	mapping_set_unevictable(&mapping);
	culled0 = ev(UNEVICTABLE_PGCULLED);
	cached = mapping.nrpages;	/* readahead brought more than the 4 */
	assert_true(cached >= 4);
	reclaim();
	assert_int_equal(mapping.nrpages, cached);
	assert_int_equal(zstat(NR_UNEVICTABLE), cached);
	assert_int_equal(ev(UNEVICTABLE_PGCULLED) - culled0, cached);
	assert_int_equal(zstat(NR_MLOCK), 0);
	mapping_clear_unevictable(&mapping);
	scanned0 = ev(UNEVICTABLE_PGSCANNED);
	rescued0 = ev(UNEVICTABLE_PGRESCUED);
	scan_mapping_unevictable_pages(&mapping);
	assert_int_equal(ev(UNEVICTABLE_PGSCANNED) - scanned0, cached);
	assert_int_equal(ev(UNEVICTABLE_PGRESCUED) - rescued0, cached);
	assert_int_equal(zstat(NR_UNEVICTABLE), 0);
	assert_int_equal(zstat(NR_INACTIVE_FILE), cached);
	reclaim();
	assert_int_equal(mapping.nrpages, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_fork_chain_anon),
		T(test_unmap_file_page),
		T(test_split_merge_mremap),
		T(test_truncate_unmaps),
		T(test_mlock_unevictable),
		T(test_cull_and_rescue),
		T(test_random_ops),
	};

	return cmocka_run_group_tests(tests, machine, NULL);
}
