/* The VMA layer's host stand-ins: see fake_mm.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fs/fs.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <uapi/errno.h>

#include "fake_mm.h"

/* The host's RLIM_INFINITY: the same ABI value as the kernel's. */
#include <sys/resource.h>

/* ---- kmalloc ------------------------------------------------------------- */

long fake_kmalloc_fail_after = -1;
long fake_kmalloc_live;

void *kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (fake_kmalloc_fail_after == 0)
		return NULL;
	if (fake_kmalloc_fail_after > 0)
		fake_kmalloc_fail_after--;
	p = (gfp & __GFP_ZERO) ? calloc(1, size) : malloc(size);
	assert_non_null(p);
	if (!(gfp & __GFP_ZERO))
		memset(p, 0x5a, size);
	fake_kmalloc_live++;
	return p;
}

void kfree(const void *objp)
{
	if (!objp)
		return;
	fake_kmalloc_live--;
	free((void *)objp);
}

/* ---- the task ------------------------------------------------------------ */

struct task_struct fake_task;
struct task_struct *current = &fake_task;

void fake_rlimits_reset(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_task.rlim); i++)
		fake_task.rlim[i].rlim_cur = fake_task.rlim[i].rlim_max = RLIM_INFINITY;
}

/* kernel/sys.c's, for any task: its own table (pageturn/resource.h, which
 * the C library's headers here rule out, declares it). */
unsigned long task_rlimit(const struct task_struct *p, unsigned int resource)
{
	return resource < ARRAY_SIZE(p->rlim) ? p->rlim[resource].rlim_cur : RLIM_INFINITY;
}

/* ---- page tables --------------------------------------------------------- */

struct fake_call fake_calls[FAKE_MAX_CALLS];
unsigned int fake_nr_calls;
bool fake_pgd_fail;
long fake_copy_fail_after = -1;
int fake_populate_error;

struct fake_pte {
	struct mm_struct *mm;
	unsigned long addr;
	uint64_t prot;
	long page;
};

static struct fake_pte *ptes;
static size_t nr_ptes, max_ptes;
static long next_page_id;

void fake_calls_reset(void)
{
	fake_nr_calls = 0;
}

unsigned int fake_calls_count(enum fake_call_kind kind)
{
	unsigned int i, n = 0;

	for (i = 0; i < fake_nr_calls; i++)
		n += fake_calls[i].kind == kind;
	return n;
}

static void log_call(enum fake_call_kind kind, struct mm_struct *mm, unsigned long start,
		     unsigned long end, uint64_t prot, bool write)
{
	assert_true(fake_nr_calls < FAKE_MAX_CALLS);
	fake_calls[fake_nr_calls++] = (struct fake_call){ kind, mm, start, end, prot, write };
}

static struct fake_pte *pte_find(struct mm_struct *mm, unsigned long addr)
{
	size_t i;

	for (i = 0; i < nr_ptes; i++)
		if (ptes[i].mm == mm && ptes[i].addr == addr)
			return &ptes[i];
	return NULL;
}

static void pte_add(struct mm_struct *mm, unsigned long addr, uint64_t prot, long page)
{
	if (nr_ptes == max_ptes) {
		max_ptes = max_ptes ? 2 * max_ptes : 256;
		ptes = realloc(ptes, max_ptes * sizeof(*ptes));
		assert_non_null(ptes);
	}
	ptes[nr_ptes++] = (struct fake_pte){ mm, addr, prot, page };
}

static void pte_del(struct fake_pte *pte)
{
	*pte = ptes[--nr_ptes];
}

bool fake_pte_lookup(struct mm_struct *mm, unsigned long addr, uint64_t *prot, long *page)
{
	struct fake_pte *pte = pte_find(mm, addr);

	if (!pte)
		return false;
	if (prot)
		*prot = pte->prot;
	if (page)
		*page = pte->page;
	return true;
}

unsigned long fake_pte_count(struct mm_struct *mm)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < nr_ptes; i++)
		n += ptes[i].mm == mm;
	return n;
}

/* [start, end) is a page-aligned, non-empty part of vma, which is on the
 * list of its mm. */
static void check_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct vm_area_struct *v;
	bool found = false;

	list_for_each_entry(v, &vma->vm_mm->mmap, vm_list)
		found |= v == vma;
	if (!found)
		fail_msg("VMA %#lx-%#lx is not on its mm's list", vma->vm_start, vma->vm_end);
	if ((start | end) & ~PAGE_MASK || start >= end ||
	    start < vma->vm_start || end > vma->vm_end)
		fail_msg("range %#lx-%#lx is not a part of VMA %#lx-%#lx",
			 start, end, vma->vm_start, vma->vm_end);
}

uint64_t *pgd_alloc(struct mm_struct *mm)
{
	log_call(FAKE_PGD_ALLOC, mm, 0, 0, 0, false);
	if (fake_pgd_fail)
		return NULL;
	return calloc(1, PAGE_SIZE);
}

void free_pgtables(struct mm_struct *mm)
{
	log_call(FAKE_FREE_PGTABLES, mm, 0, 0, 0, false);
	if (fake_pte_count(mm))
		fail_msg("free_pgtables: %lu pages still mapped", fake_pte_count(mm));
	free(mm->pgd);
	mm->pgd = NULL;
}

void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	unsigned long addr;
	struct fake_pte *pte;

	check_range(vma, start, end);
	log_call(FAKE_ZAP, vma->vm_mm, start, end, 0, false);
	for (addr = start; addr < end; addr += PAGE_SIZE)
		if ((pte = pte_find(vma->vm_mm, addr)))
			pte_del(pte);
}

/* The fake machine has no swap: no swap PTE to drop or read, and its
 * pages have no LRU for MADV_PAGEOUT to reclaim them from. */
void madvise_free_swap(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	check_range(vma, start, end);
}

void force_swapin_readahead(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	check_range(vma, start, end);
}

unsigned long madvise_pageout(struct vm_area_struct *vma, unsigned long start,
			      unsigned long end)
{
	check_range(vma, start, end);
	return 0;
}

void change_protection(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, uint64_t newprot)
{
	unsigned long addr;
	struct fake_pte *pte;

	check_range(vma, start, end);
	log_call(FAKE_CHANGE_PROT, vma->vm_mm, start, end, newprot, false);
	for (addr = start; addr < end; addr += PAGE_SIZE)
		if ((pte = pte_find(vma->vm_mm, addr)))
			pte->prot = newprot;
}

int copy_page_range(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma)
{
	unsigned long addr;
	struct fake_pte *pte;

	assert_ptr_equal(vma->vm_mm, src);
	check_range(vma, vma->vm_start, vma->vm_end);
	log_call(FAKE_COPY, dst, vma->vm_start, vma->vm_end, 0, false);
	if (fake_copy_fail_after == 0)
		return -ENOMEM;
	if (fake_copy_fail_after > 0)
		fake_copy_fail_after--;
	for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE)
		if ((pte = pte_find(src, addr)))
			pte_add(dst, addr, pte->prot, pte->page);
	return 0;
}

int populate_vma_range(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, bool write)
{
	unsigned long addr;

	check_range(vma, start, end);
	if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		fail_msg("populate_vma_range on PROT_NONE VMA %#lx-%#lx", vma->vm_start, vma->vm_end);
	log_call(FAKE_POPULATE, vma->vm_mm, start, end, 0, write);
	if (fake_populate_error)
		return fake_populate_error;
	for (addr = start; addr < end; addr += PAGE_SIZE)
		if (!pte_find(vma->vm_mm, addr))
			pte_add(vma->vm_mm, addr, vma->vm_page_prot, next_page_id++);
	return 0;
}

/* ---- files --------------------------------------------------------------- */

struct file *fake_fd_table[FAKE_NR_FDS];

/* The VMA layer tests i_mapping and links file VMAs on its i_mmap. */
static struct address_space fake_address_space = {
	.i_mmap = LIST_HEAD_INIT(fake_address_space.i_mmap),
};

/* The VMA layer checks that every file VMA is on i_mmap: */
unsigned long fake_i_mmap_count(void)
{
	struct list_head *p;
	unsigned long n = 0;

	list_for_each(p, &fake_address_space.i_mmap)
		n++;
	return n;
}

/* ---- the reverse map ------------------------------------------------------- */

/* The fake faults above map no anonymous page, so no VMA here ever gets
 * an anon_vma: there is nothing to link. */
void anon_vma_link(struct vm_area_struct *vma)
{
	assert_null(vma->anon_vma);
}

void anon_vma_unlink(struct vm_area_struct *vma)
{
	assert_null(vma->anon_vma);
}

struct file *fake_file_new(unsigned int f_mode, bool mappable)
{
	struct file *file = calloc(1, sizeof(*file));
	struct inode *inode = calloc(1, sizeof(*inode));

	assert_non_null(file);
	assert_non_null(inode);
	if (mappable)
		inode->i_mapping = &fake_address_space;
	file->f_inode = inode;
	file->f_mode = f_mode;
	file->f_count = 1;
	return file;
}

void fake_file_free(struct file *file)
{
	assert_int_equal(file->f_count, 1);
	free(file->f_inode);
	free(file);
}

struct file *fget(unsigned int fd)
{
	if (fd >= FAKE_NR_FDS || !fake_fd_table[fd])
		return NULL;
	return get_file(fake_fd_table[fd]);
}

void fput(struct file *file)
{
	if (file->f_count <= 1)
		fail_msg("fput drops the last reference of a test file (f_count %d)", file->f_count);
	file->f_count--;
}

/* ---- mlocked pages -------------------------------------------------------- */

/* The fake page tables map no struct page, so mm/mlock.c's page walk
 * finds nothing to mlock or munlock; what it would call on a page is
 * here only to link, and fails the test if reached. */
struct vm_event_state vm_event_states;

struct page *follow_page(struct vm_area_struct *vma, unsigned long address)
{
	check_range(vma, address, address + PAGE_SIZE);
	return NULL;
}

static void unreached(const char *fn)
{
	fail_msg("%s reached", fn);
}

void lock_page(struct page *page) { (void)page; unreached(__func__); }
void unlock_page(struct page *page) { (void)page; unreached(__func__); }
void put_page(struct page *page) { (void)page; unreached(__func__); }
void putback_lru_page(struct page *page) { (void)page; unreached(__func__); }
int isolate_lru_page(struct page *page) { (void)page; unreached(__func__); return -EBUSY; }
int try_to_munlock(struct page *page) { (void)page; unreached(__func__); return 0; }
void inc_zone_page_state(struct page *page, enum zone_stat_item item)
{
	(void)page;
	(void)item;
	unreached(__func__);
}
void dec_zone_page_state(struct page *page, enum zone_stat_item item)
{
	(void)page;
	(void)item;
	unreached(__func__);
}

/* pageturn/sched.h clashes with the C library's headers here. */
void cond_resched(void);
void cond_resched(void)
{
}
