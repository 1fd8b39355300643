/*
 * Host unit tests for the VMA layer: mm/mmap.c, mm/mprotect.c,
 * mm/madvise.c and mm/mlock.c, linked with tests/unit/fake_mm.c in place
 * of mm/memory.c (page tables), kernel/fs/file.c (fget/fput) and the
 * slab allocator.  fake_mm.h explains the fakes: the page tables are a
 * set of "present pages" that populate_vma_range fills and
 * zap_page_range empties, so a test can see exactly which pages an
 * operation dropped, and every call into them is logged and checked to
 * stay inside its VMA.
 *
 * Each test gets a fresh mm (mm_alloc) as current->mm, and no resource
 * limits until it lowers one in fake_task.rlim, and frees the mm with
 * mmput, which must zap everything, drop every file reference and free
 * every allocation.  check_mm() verifies the invariants of mm/mmap.c's
 * opening comment after the interesting steps.
 *
 * test_random_ops is the broad test: thousands of random mmap, munmap,
 * mprotect, mlock, munlock and madvise calls over a 48-page window,
 * some with kmalloc made to fail, each compared page by page against a
 * simple array model (mapping, flags, file, offset, presence), with the
 * invariants and every file's reference count checked after each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <mm/mmap.h>
#include <mm/pgtable.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "../../mm/internal.h"
#include "fake_mm.h"

/* RLIMIT_* and RLIM_INFINITY from the host: Linux's ABI values, as the
 * kernel's uapi/resource.h has them (which cannot be included beside the
 * C library's headers). */
#include <sys/resource.h>

#define PG	PAGE_SIZE
#define B	0x10000000ul		/* where most tests map */
#define ANON	(MAP_PRIVATE | MAP_ANONYMOUS)
#define FIXED	(MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED)
#define RW	(PROT_READ | PROT_WRITE)
#define ANON_RW_FLAGS	(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)

static struct mm_struct *mm;

static int setup(void **state)
{
	(void)state;
	fake_kmalloc_fail_after = -1;
	fake_copy_fail_after = -1;
	fake_populate_error = 0;
	fake_pgd_fail = false;
	fake_rlimits_reset();
	mm = mm_alloc();
	assert_non_null(mm);
	fake_task.mm = mm;
	fake_calls_reset();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_kmalloc_fail_after = -1;
	if (mm)
		mmput(mm);
	mm = NULL;
	fake_task.mm = NULL;
	assert_int_equal(fake_kmalloc_live, 0);
	/* Every file VMA left its file's i_mmap when it was freed. */
	assert_int_equal(fake_i_mmap_count(), 0);
	return 0;
}

/* ---- helpers -------------------------------------------------------------- */

/* The invariants of mm/mmap.c, and every present page inside a VMA with
 * that VMA's protection. */
static void check_mm(struct mm_struct *m)
{
	struct vm_area_struct *v, *prev = NULL;
	unsigned long total = 0, locked = 0, stack = 0, present = 0, addr;
	uint64_t prot;
	int n = 0;

	list_for_each_entry(v, &m->mmap, vm_list) {
		assert_ptr_equal(v->vm_mm, m);
		assert_true(v->vm_start < v->vm_end);
		assert_true(v->vm_end <= TASK_SIZE);
		assert_true(IS_ALIGNED(v->vm_start, PG) && IS_ALIGNED(v->vm_end, PG));
		assert_int_equal(v->vm_page_prot, vm_get_page_prot(v->vm_flags));
		if (!v->vm_file)
			assert_int_equal(v->vm_pgoff, v->vm_start >> PAGE_SHIFT);
		if (prev) {
			assert_true(prev->vm_end <= v->vm_start);
			if (prev->vm_end == v->vm_start && prev->vm_flags == v->vm_flags &&
			    prev->vm_file == v->vm_file &&
			    prev->vm_pgoff + vma_pages(prev) == v->vm_pgoff)
				fail_msg("VMAs %#lx-%#lx and %#lx-%#lx are not merged",
					 prev->vm_start, prev->vm_end, v->vm_start, v->vm_end);
		}
		total += vma_pages(v);
		if (v->vm_flags & VM_GROWSDOWN)
			stack += vma_pages(v);
		if (v->vm_flags & VM_LOCKED)
			locked += vma_pages(v);
		for (addr = v->vm_start; addr < v->vm_end; addr += PG) {
			if (!fake_pte_lookup(m, addr, &prot, NULL))
				continue;
			present++;
			assert_int_equal(prot, v->vm_page_prot);
		}
		n++;
		prev = v;
	}
	assert_int_equal(m->map_count, n);
	assert_int_equal(m->total_vm, total);
	assert_int_equal(m->locked_vm, locked);
	assert_int_equal(m->stack_vm, stack);
	assert_int_equal(fake_pte_count(m), present);
}

static int nr_vmas(void)
{
	struct vm_area_struct *v;
	int n = 0;

	list_for_each_entry(v, &mm->mmap, vm_list)
		n++;
	return n;
}

/* The VMA that holds addr (fails if none). */
static struct vm_area_struct *vma_at(unsigned long addr)
{
	struct vm_area_struct *v = find_vma(mm, addr);

	if (!v || v->vm_start > addr)
		fail_msg("no VMA at %#lx", addr);
	return v;
}

/* A VMA is exactly [start, end). */
static void assert_vma(unsigned long start, unsigned long end)
{
	struct vm_area_struct *v = vma_at(start);

	assert_int_equal(v->vm_start, start);
	assert_int_equal(v->vm_end, end);
}

static void assert_unmapped(unsigned long start, unsigned long end)
{
	assert_null(find_vma_intersection(mm, start, end));
}

static long map(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags)
{
	return do_mmap_pgoff(mm, addr, len, prot, flags, NULL, 0);
}

static long map_file(unsigned long addr, unsigned long len, unsigned long prot,
		     unsigned long flags, struct file *f, pgoff_t pgoff)
{
	return do_mmap_pgoff(mm, addr, len, prot, flags, f, pgoff);
}

/* The i-th logged call is kind over [start, end). */
static void assert_call(unsigned int i, enum fake_call_kind kind, unsigned long start,
			unsigned long end)
{
	assert_true(i < fake_nr_calls);
	assert_int_equal(fake_calls[i].kind, kind);
	assert_int_equal(fake_calls[i].start, start);
	assert_int_equal(fake_calls[i].end, end);
}

/* A copy of everything observable about mm, to show that a call changed
 * nothing. */
struct snap {
	int n;
	struct {
		unsigned long start, end, flags;
		pgoff_t pgoff;
		struct file *file;
	} v[64];
	unsigned long total_vm, locked_vm, stack_vm, brk, ptes;
	int map_count;
	long live;
};

static void snap_take(struct snap *s)
{
	struct vm_area_struct *v;

	memset(s, 0, sizeof(*s));
	list_for_each_entry(v, &mm->mmap, vm_list) {
		assert_true(s->n < 64);
		s->v[s->n].start = v->vm_start;
		s->v[s->n].end = v->vm_end;
		s->v[s->n].flags = v->vm_flags;
		s->v[s->n].pgoff = v->vm_pgoff;
		s->v[s->n].file = v->vm_file;
		s->n++;
	}
	s->total_vm = mm->total_vm;
	s->locked_vm = mm->locked_vm;
	s->stack_vm = mm->stack_vm;
	s->brk = mm->brk;
	s->ptes = fake_pte_count(mm);
	s->map_count = mm->map_count;
	s->live = fake_kmalloc_live;
}

static void snap_check(const struct snap *s)
{
	struct snap now;

	snap_take(&now);
	assert_memory_equal(&now, s, sizeof(now));
}

/* ---- vm_get_page_prot ----------------------------------------------------- */

static void test_vm_get_page_prot(void **state)
{
	(void)state;
	assert_int_equal(vm_get_page_prot(0), 0);
	assert_int_equal(vm_get_page_prot(VM_SHARED | VM_MAYWRITE), 0);
	assert_int_equal(vm_get_page_prot(VM_READ),
			 _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED | _PAGE_NX);
	/* private writable: read-only until the write fault copies */
	assert_int_equal(vm_get_page_prot(VM_READ | VM_WRITE | VM_MAYWRITE), PAGE_READONLY);
	assert_int_equal(vm_get_page_prot(VM_READ | VM_WRITE | VM_SHARED), PAGE_SHARED);
	assert_int_equal(vm_get_page_prot(VM_WRITE | VM_SHARED),
			 _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED | _PAGE_RW | _PAGE_NX);
	assert_int_equal(vm_get_page_prot(VM_READ | VM_EXEC),
			 _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED);
	assert_int_equal(vm_get_page_prot(VM_EXEC | VM_WRITE | VM_SHARED | VM_LOCKED),
			 _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED | _PAGE_RW);
	assert_int_equal(vm_get_page_prot(VM_READ | VM_GROWSDOWN | VM_LOCKED), PAGE_READONLY);
}

/* ---- mm_alloc / mmput / dup_mm --------------------------------------------- */

static void test_mm_alloc_and_mmput(void **state)
{
	struct file *f = fake_file_new(FMODE_READ | FMODE_WRITE, true);

	(void)state;
	assert_int_equal(mm->mm_users, 1);
	assert_int_equal(mm->mmap_base, TASK_UNMAPPED_TOP);
	assert_non_null(mm->pgd);
	assert_true(list_empty(&mm->mmap));

	assert_int_equal(map(B, 4 * PG, RW, FIXED | MAP_POPULATE), B);
	assert_int_equal(map_file(B + 8 * PG, 2 * PG, RW, MAP_SHARED | MAP_FIXED | MAP_POPULATE, f, 0),
			 B + 8 * PG);
	assert_int_equal(f->f_count, 2);
	assert_int_equal(fake_pte_count(mm), 6);

	mm->mm_users = 2;
	fake_calls_reset();
	mmput(mm);
	assert_int_equal(fake_nr_calls, 0);
	mmput(mm);
	mm = NULL;
	/* both VMAs zapped whole, then the tables freed (which checks that
	 * nothing is left mapped) */
	assert_int_equal(fake_nr_calls, 3);
	assert_call(0, FAKE_ZAP, B, B + 4 * PG);
	assert_call(1, FAKE_ZAP, B + 8 * PG, B + 10 * PG);
	assert_int_equal(fake_calls[2].kind, FAKE_FREE_PGTABLES);
	assert_int_equal(f->f_count, 1);
	fake_file_free(f);
}

static void test_mm_alloc_failure(void **state)
{
	(void)state;
	fake_pgd_fail = true;
	assert_null(mm_alloc());
	fake_pgd_fail = false;
	fake_kmalloc_fail_after = 0;
	assert_null(mm_alloc());
	fake_kmalloc_fail_after = -1;
	assert_int_equal(fake_kmalloc_live, 1);	/* setup's mm */
}

static void test_dup_mm(void **state)
{
	struct file *f = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	struct vm_area_struct *v;
	struct mm_struct *child;
	long ppage, cpage;
	unsigned long addr;

	(void)state;
	assert_int_equal(map_file(B, 2 * PG, RW, MAP_SHARED | MAP_FIXED | MAP_POPULATE, f, 3), B);
	assert_int_equal(map(B + 4 * PG, 4 * PG, RW, FIXED | MAP_POPULATE), B + 4 * PG);
	assert_int_equal(do_mlock(mm, B + 4 * PG, 2 * PG, true), 0);
	assert_int_equal(map(B + 10 * PG, 2 * PG, RW, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED),
			 B + 10 * PG);
	assert_int_equal(map(STACK_TOP - 4 * PG, 4 * PG, RW, FIXED | MAP_GROWSDOWN),
			 STACK_TOP - 4 * PG);
	mm->start_brk = B + 0x100000;
	mm->brk = B + 0x100123;
	mm->start_stack = STACK_TOP - 64;
	mm->mmap_base = TASK_UNMAPPED_TOP - 0x1000000;
	mm->def_flags = VM_LOCKED;	/* mlockall(MCL_FUTURE): not inherited */
	assert_int_equal(nr_vmas(), 5);
	assert_int_equal(mm->locked_vm, 2);
	check_mm(mm);

	fake_calls_reset();
	child = dup_mm(mm);
	assert_non_null(child);
	check_mm(child);
	check_mm(mm);
	/* the shared anonymous VMA was faulted in in the parent first */
	assert_int_equal(fake_calls_count(FAKE_POPULATE), 1);
	for (addr = B + 10 * PG; addr < B + 12 * PG; addr += PG)
		assert_true(fake_pte_lookup(mm, addr, NULL, NULL));
	/* one copy_page_range per parent VMA */
	assert_int_equal(fake_calls_count(FAKE_COPY), 5);
	/* the locked halves lost VM_LOCKED and merged again */
	assert_int_equal(child->map_count, 4);
	assert_int_equal(child->locked_vm, 0);
	assert_int_equal(child->total_vm, mm->total_vm);
	assert_int_equal(child->stack_vm, 4);
	assert_int_equal(child->brk, mm->brk);
	assert_int_equal(child->start_brk, mm->start_brk);
	assert_int_equal(child->start_stack, mm->start_stack);
	assert_int_equal(child->mmap_base, mm->mmap_base);
	assert_int_equal(child->def_flags, 0);
	assert_int_equal(child->mm_users, 1);
	assert_ptr_not_equal(child->pgd, mm->pgd);
	assert_int_equal(f->f_count, 3);
	v = find_vma(child, B);
	assert_ptr_equal(v->vm_file, f);
	assert_int_equal(v->vm_pgoff, 3);
	v = find_vma(child, B + 4 * PG);
	assert_int_equal(v->vm_start, B + 4 * PG);
	assert_int_equal(v->vm_end, B + 8 * PG);
	assert_int_equal(v->vm_flags, ANON_RW_FLAGS);
	/* the same pages in both */
	for (addr = B + 10 * PG; addr < B + 12 * PG; addr += PG) {
		assert_true(fake_pte_lookup(mm, addr, NULL, &ppage));
		assert_true(fake_pte_lookup(child, addr, NULL, &cpage));
		assert_int_equal(ppage, cpage);
	}
	mmput(child);
	assert_int_equal(f->f_count, 2);
	check_mm(mm);
	mmput(mm);
	mm = NULL;
	fake_file_free(f);
}

/* A parent with three VMAs, one of them a file's, for the failure tests. */
static struct file *dup_parent(void)
{
	struct file *f = fake_file_new(FMODE_READ | FMODE_WRITE, true);

	assert_int_equal(map(B, 2 * PG, RW, FIXED | MAP_POPULATE), B);
	assert_int_equal(map_file(B + 4 * PG, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE,
				  f, 0), B + 4 * PG);
	assert_int_equal(map(B + 8 * PG, 2 * PG, PROT_READ, FIXED | MAP_POPULATE), B + 8 * PG);
	return f;
}

static void test_dup_mm_copy_fails(void **state)
{
	struct file *f = dup_parent();
	struct snap before;

	(void)state;
	snap_take(&before);
	/* the second copy_page_range fails: the child (with two VMAs and
	 * the first one's pages) is torn down again */
	fake_copy_fail_after = 1;
	fake_calls_reset();
	assert_null(dup_mm(mm));
	assert_int_equal(fake_calls_count(FAKE_COPY), 2);
	assert_int_equal(fake_calls_count(FAKE_ZAP), 2);
	assert_int_equal(fake_calls_count(FAKE_FREE_PGTABLES), 1);
	assert_int_equal(f->f_count, 2);
	snap_check(&before);
	check_mm(mm);
	mmput(mm);
	mm = NULL;
	fake_file_free(f);
}

static void test_dup_mm_out_of_memory(void **state)
{
	struct file *f = dup_parent();
	struct snap before;
	long n;

	(void)state;
	snap_take(&before);
	/* every allocation dup_mm makes, failing in turn */
	for (n = 0; n < 4; n++) {
		fake_kmalloc_fail_after = n;
		assert_null(dup_mm(mm));
		fake_kmalloc_fail_after = -1;
		snap_check(&before);
		assert_int_equal(f->f_count, 2);
	}
	fake_pgd_fail = true;
	assert_null(dup_mm(mm));
	fake_pgd_fail = false;
	snap_check(&before);
	mmput(mm);
	mm = NULL;
	fake_file_free(f);
}

/* ---- mmap: placement, merging, MAP_FIXED ----------------------------------- */

static void test_mmap_insert_sort_merge(void **state)
{
	struct file *f = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	struct file *g = fake_file_new(FMODE_READ, true);
	struct vm_area_struct *v;

	(void)state;
	assert_int_equal(map(B + 4 * PG, 2 * PG, RW, FIXED), B + 4 * PG);
	assert_int_equal(map(B, 2 * PG, RW, FIXED), B);
	assert_int_equal(nr_vmas(), 2);
	check_mm(mm);
	/* filling the hole merges all three */
	assert_int_equal(map(B + 2 * PG, 2 * PG, RW, FIXED), B + 2 * PG);
	assert_int_equal(nr_vmas(), 1);
	assert_vma(B, B + 6 * PG);
	v = vma_at(B);
	assert_int_equal(v->vm_flags, ANON_RW_FLAGS);
	assert_int_equal(v->vm_pgoff, B >> PAGE_SHIFT);
	assert_null(v->vm_file);
	/* other flags: a VMA of its own */
	assert_int_equal(map(B + 6 * PG, PG, PROT_READ, FIXED), B + 6 * PG);
	assert_int_equal(nr_vmas(), 2);
	assert_int_equal(mm->total_vm, 7);

	/* file pages: contiguous offsets merge, others do not */
	assert_int_equal(map_file(B + 10 * PG, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, f, 0),
			 B + 10 * PG);
	assert_int_equal(map_file(B + 12 * PG, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, f, 2),
			 B + 12 * PG);
	assert_vma(B + 10 * PG, B + 14 * PG);
	assert_int_equal(f->f_count, 2);
	assert_int_equal(map_file(B + 14 * PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, f, 5),
			 B + 14 * PG);
	assert_vma(B + 14 * PG, B + 15 * PG);
	assert_int_equal(map_file(B + 15 * PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, g, 6),
			 B + 15 * PG);
	assert_vma(B + 15 * PG, B + 16 * PG);
	/* anonymous memory next to a file mapping stays apart */
	assert_int_equal(map(B + 16 * PG, PG, PROT_READ, FIXED), B + 16 * PG);
	assert_vma(B + 16 * PG, B + 17 * PG);
	assert_int_equal(f->f_count, 3);
	assert_int_equal(g->f_count, 2);
	assert_int_equal(nr_vmas(), 6);
	assert_int_equal(mm->map_count, 6);
	check_mm(mm);

	/* non-fixed mappings end up in order too */
	assert_true(map(0, 3 * PG, PROT_READ, ANON) > 0);
	assert_true(map(0, 3 * PG, RW, ANON) > 0);
	check_mm(mm);

	mmput(mm);
	mm = NULL;
	fake_file_free(f);
	fake_file_free(g);
}

static void test_map_fixed_over_existing(void **state)
{
	struct file *f = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	struct vm_area_struct *v;

	(void)state;
	assert_int_equal(map_file(B, 4 * PG, RW, MAP_SHARED | MAP_FIXED | MAP_POPULATE, f, 10), B);
	assert_int_equal(fake_pte_count(mm), 4);
	fake_calls_reset();
	assert_int_equal(map(B + PG, 2 * PG, PROT_READ, FIXED), B + PG);
	assert_int_equal(fake_calls_count(FAKE_ZAP), 1);
	assert_call(0, FAKE_ZAP, B + PG, B + 3 * PG);
	assert_int_equal(nr_vmas(), 3);
	assert_vma(B, B + PG);
	assert_vma(B + PG, B + 3 * PG);
	assert_vma(B + 3 * PG, B + 4 * PG);
	assert_int_equal(vma_at(B)->vm_pgoff, 10);
	assert_int_equal(vma_at(B + 3 * PG)->vm_pgoff, 13);
	assert_null(vma_at(B + PG)->vm_file);
	assert_int_equal(f->f_count, 3);
	assert_int_equal(fake_pte_count(mm), 2);
	check_mm(mm);

	/* replacing everything with the file again merges back into one */
	assert_int_equal(map_file(B + PG, 2 * PG, RW, MAP_SHARED | MAP_FIXED, f, 11), B + PG);
	assert_int_equal(nr_vmas(), 1);
	v = vma_at(B);
	assert_int_equal(v->vm_end, B + 4 * PG);
	assert_int_equal(v->vm_flags, VM_READ | VM_WRITE | VM_SHARED | VM_MAYSHARE |
			 VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC);
	assert_int_equal(f->f_count, 2);
	check_mm(mm);
	mmput(mm);
	mm = NULL;
	fake_file_free(f);
}

static void test_map_fixed_noreplace(void **state)
{
	struct snap before;

	(void)state;
	assert_int_equal(map(B + 2 * PG, 2 * PG, RW, FIXED), B + 2 * PG);
	snap_take(&before);
	assert_int_equal(map(B + 2 * PG, PG, RW, ANON | MAP_FIXED_NOREPLACE), -EEXIST);
	assert_int_equal(map(B, 3 * PG, RW, ANON | MAP_FIXED_NOREPLACE), -EEXIST);
	assert_int_equal(map(B + 3 * PG, 4 * PG, RW, ANON | MAP_FIXED_NOREPLACE), -EEXIST);
	assert_int_equal(map(B + 1, PG, RW, ANON | MAP_FIXED_NOREPLACE), -EINVAL);
	snap_check(&before);
	assert_int_equal(map(B, 2 * PG, RW, ANON | MAP_FIXED_NOREPLACE), B);
	assert_int_equal(map(B + 4 * PG, PG, RW, ANON | MAP_FIXED_NOREPLACE), B + 4 * PG);
	assert_vma(B, B + 5 * PG);
	check_mm(mm);
}

static void test_get_unmapped_area(void **state)
{
	unsigned long top = TASK_UNMAPPED_TOP;

	(void)state;
	/* top-down from mmap_base */
	assert_int_equal(map(0, 2 * PG, RW, ANON), top - 2 * PG);
	assert_int_equal(map(0, 3 * PG, PROT_READ, ANON), top - 5 * PG);
	assert_int_equal(map(0, PG, RW, ANON), top - 6 * PG);
	/* a hole high up is used first when it fits, else the next one down */
	assert_int_equal(do_munmap(mm, top - 4 * PG, PG), 0);
	assert_int_equal(map(0, 2 * PG, RW, ANON), top - 8 * PG);
	assert_int_equal(map(0, PG, RW | PROT_EXEC, ANON), top - 4 * PG);
	check_mm(mm);
	/* a free hint wins, rounded down to its page */
	assert_int_equal(map(B, PG, RW, ANON), B);
	assert_int_equal(map(B + 5 * PG + 123, PG, PROT_READ, ANON), B + 5 * PG);
	/* an occupied hint, or one too high, is ignored */
	assert_int_equal(map(B, PG, PROT_READ, ANON), top - 9 * PG);
	assert_int_equal(map(TASK_SIZE - PG, 2 * PG, PROT_READ, ANON), top - 11 * PG);
	/* a hint below mmap_min_addr is raised to it */
	assert_int_equal(map(PG, PG, PROT_READ, ANON), MMAP_MIN_ADDR);
	/* something above mmap_base (the stack) does not matter */
	assert_int_equal(map(STACK_TOP - PG, PG, RW, FIXED | MAP_GROWSDOWN), STACK_TOP - PG);
	assert_int_equal(get_unmapped_area(mm, 0, PG, 0), top - 12 * PG);
	assert_int_equal(get_unmapped_area(mm, 0, TASK_SIZE + PG, 0), -ENOMEM);
	assert_int_equal(get_unmapped_area(mm, B + 1, PG, MAP_FIXED), -EINVAL);
	assert_int_equal(get_unmapped_area(mm, TASK_SIZE - PG, 2 * PG, MAP_FIXED), -ENOMEM);
	assert_int_equal(get_unmapped_area(mm, TASK_SIZE - PG, PG, MAP_FIXED), TASK_SIZE - PG);
	check_mm(mm);
}

static void test_get_unmapped_area_exhaustion(void **state)
{
	(void)state;
	mm->mmap_base = MMAP_MIN_ADDR + 4 * PG;
	assert_int_equal(map(0, 3 * PG, RW, ANON), MMAP_MIN_ADDR + PG);
	assert_int_equal(map(0, 2 * PG, PROT_READ, ANON), -ENOMEM);
	assert_int_equal(map(0, PG, PROT_READ, ANON), MMAP_MIN_ADDR);
	assert_int_equal(map(0, PG, PROT_READ, ANON), -ENOMEM);
	/* a fixed mapping above mmap_base still works */
	assert_int_equal(map(MMAP_MIN_ADDR + 4 * PG, PG, PROT_READ, FIXED), MMAP_MIN_ADDR + 4 * PG);
	assert_int_equal(nr_vmas(), 3);
	check_mm(mm);
}

/* ---- munmap ------------------------------------------------------------------ */

static void test_munmap_middle(void **state)
{
	(void)state;
	assert_int_equal(map(B, 8 * PG, RW, FIXED | MAP_POPULATE), B);
	assert_int_equal(fake_pte_count(mm), 8);
	fake_calls_reset();
	assert_int_equal(do_munmap(mm, B + 2 * PG, 3 * PG), 0);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_ZAP, B + 2 * PG, B + 5 * PG);
	assert_int_equal(nr_vmas(), 2);
	assert_vma(B, B + 2 * PG);
	assert_vma(B + 5 * PG, B + 8 * PG);
	assert_int_equal(vma_at(B + 5 * PG)->vm_pgoff, (B + 5 * PG) >> PAGE_SHIFT);
	assert_int_equal(mm->total_vm, 5);
	assert_int_equal(fake_pte_count(mm), 5);
	assert_false(fake_pte_lookup(mm, B + 4 * PG, NULL, NULL));
	check_mm(mm);
	/* a hole, and a length that is not a page multiple */
	fake_calls_reset();
	assert_int_equal(do_munmap(mm, B + 3 * PG, PG), 0);
	assert_int_equal(fake_nr_calls, 0);
	assert_int_equal(sys_munmap(B + PG, 1), 0);
	assert_vma(B, B + PG);
	assert_call(0, FAKE_ZAP, B + PG, B + 2 * PG);
	check_mm(mm);
}

static void test_munmap_across(void **state)
{
	struct file *f = fake_file_new(FMODE_READ, true);
	struct vm_area_struct *v;

	(void)state;
	assert_int_equal(map(B, 4 * PG, RW, FIXED | MAP_POPULATE), B);
	assert_int_equal(map(B + 5 * PG, 3 * PG, PROT_READ, FIXED | MAP_POPULATE), B + 5 * PG);
	assert_int_equal(map_file(B + 9 * PG, 3 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE,
				  f, 7), B + 9 * PG);
	fake_calls_reset();
	assert_int_equal(do_munmap(mm, B + 2 * PG, 8 * PG), 0);
	assert_int_equal(fake_nr_calls, 3);
	assert_call(0, FAKE_ZAP, B + 2 * PG, B + 4 * PG);
	assert_call(1, FAKE_ZAP, B + 5 * PG, B + 8 * PG);
	assert_call(2, FAKE_ZAP, B + 9 * PG, B + 10 * PG);
	assert_int_equal(nr_vmas(), 2);
	assert_vma(B, B + 2 * PG);
	v = vma_at(B + 10 * PG);
	assert_int_equal(v->vm_start, B + 10 * PG);
	assert_int_equal(v->vm_end, B + 12 * PG);
	assert_int_equal(v->vm_pgoff, 8);
	assert_int_equal(f->f_count, 2);
	assert_int_equal(mm->total_vm, 4);
	assert_int_equal(fake_pte_count(mm), 4);
	check_mm(mm);
	/* everything, file and all */
	assert_int_equal(do_munmap(mm, 0, TASK_SIZE), 0);
	assert_int_equal(nr_vmas(), 0);
	assert_int_equal(f->f_count, 1);
	assert_int_equal(mm->total_vm, 0);
	check_mm(mm);
	fake_file_free(f);
}

/* ---- mprotect ----------------------------------------------------------------- */

static void test_mprotect_split_and_merge(void **state)
{
	struct vm_area_struct *v;

	(void)state;
	assert_int_equal(map(B, 8 * PG, RW, FIXED | MAP_POPULATE), B);
	fake_calls_reset();
	assert_int_equal(do_mprotect(mm, B + 2 * PG, 3 * PG, PROT_READ | PROT_EXEC), 0);
	assert_int_equal(nr_vmas(), 3);
	assert_vma(B, B + 2 * PG);
	assert_vma(B + 2 * PG, B + 5 * PG);
	assert_vma(B + 5 * PG, B + 8 * PG);
	v = vma_at(B + 2 * PG);
	assert_int_equal(v->vm_flags, VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC);
	assert_int_equal(v->vm_page_prot, PAGE_READONLY_EXEC);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_CHANGE_PROT, B + 2 * PG, B + 5 * PG);
	assert_int_equal(fake_calls[0].prot, PAGE_READONLY_EXEC);
	check_mm(mm);

	/* the same protection again changes nothing and calls nothing */
	fake_calls_reset();
	assert_int_equal(sys_mprotect(B + 3 * PG, PG, PROT_READ | PROT_EXEC), 0);
	assert_int_equal(fake_nr_calls, 0);
	assert_int_equal(nr_vmas(), 3);

	/* back to read-write: one VMA again */
	assert_int_equal(do_mprotect(mm, B + 2 * PG, 3 * PG, RW), 0);
	assert_int_equal(nr_vmas(), 1);
	assert_vma(B, B + 8 * PG);
	assert_call(0, FAKE_CHANGE_PROT, B + 2 * PG, B + 5 * PG);
	assert_int_equal(fake_calls[0].prot, PAGE_READONLY);
	check_mm(mm);

	/* over two VMAs and a head: the head merges into its left neighbour */
	assert_int_equal(map(B + 8 * PG, 2 * PG, PROT_READ, FIXED), B + 8 * PG);
	assert_int_equal(do_mprotect(mm, B + 6 * PG, 4 * PG, PROT_READ), 0);
	assert_vma(B, B + 6 * PG);
	assert_vma(B + 6 * PG, B + 10 * PG);
	/* PROT_NONE: no present PTE keeps a user bit */
	assert_int_equal(do_mprotect(mm, B, PG, PROT_NONE), 0);
	assert_int_equal(vma_at(B)->vm_page_prot, 0);
	check_mm(mm);
	/* len not a page multiple */
	assert_int_equal(do_mprotect(mm, B, 1, RW), 0);
	assert_vma(B, B + 6 * PG);
	check_mm(mm);
}

static void test_mprotect_errors(void **state)
{
	struct file *ro = fake_file_new(FMODE_READ, true);
	struct snap before;

	(void)state;
	assert_int_equal(map(B, 4 * PG, RW, FIXED), B);
	assert_int_equal(map_file(B + 4 * PG, 2 * PG, PROT_READ, MAP_SHARED | MAP_FIXED, ro, 0),
			 B + 4 * PG);
	assert_int_equal(map(B + 8 * PG, 2 * PG, RW, FIXED), B + 8 * PG);
	snap_take(&before);
	fake_calls_reset();
	assert_int_equal(do_mprotect(mm, B + 1, PG, PROT_READ), -EINVAL);
	assert_int_equal(do_mprotect(mm, B, PG, PROT_READ | 0x10), -EINVAL);
	assert_int_equal(do_mprotect(mm, B, PG, PROT_READ | 0x02000000), -EINVAL);
	/* a hole: -ENOMEM, even though the part before it could change */
	assert_int_equal(do_mprotect(mm, B, 8 * PG, PROT_READ), -ENOMEM);
	assert_int_equal(do_mprotect(mm, B + 6 * PG, PG, PROT_READ), -ENOMEM);
	assert_int_equal(do_mprotect(mm, B + 20 * PG, PG, PROT_READ), -ENOMEM);
	assert_int_equal(do_mprotect(mm, B, -PG, PROT_READ), -ENOMEM);
	assert_int_equal(do_mprotect(mm, TASK_SIZE - PG, 2 * PG, PROT_READ), -ENOMEM);
	/* the read-only file, shared: no VM_MAYWRITE; the first error wins */
	assert_int_equal(do_mprotect(mm, B, 6 * PG, RW), -EACCES);
	assert_int_equal(do_mprotect(mm, B + 4 * PG, 6 * PG, RW), -EACCES);
	assert_int_equal(do_mprotect(mm, B + 2 * PG, 8 * PG, PROT_READ), -ENOMEM);
	/* PROT_GROWSDOWN on a VMA that does not grow down */
	assert_int_equal(do_mprotect(mm, B + 2 * PG, PG, PROT_READ | PROT_GROWSDOWN), -EINVAL);
	assert_int_equal(do_mprotect(mm, B, 0, PROT_READ), 0);
	assert_int_equal(fake_nr_calls, 0);
	snap_check(&before);
	/* executing the read-only file is allowed (VM_MAYEXEC) */
	assert_int_equal(do_mprotect(mm, B + 4 * PG, PG, PROT_READ | PROT_EXEC), 0);
	check_mm(mm);
	mmput(mm);
	mm = NULL;
	fake_file_free(ro);
}

static void test_mprotect_growsdown(void **state)
{
	(void)state;
	assert_int_equal(map(STACK_TOP - 8 * PG, 8 * PG, RW, FIXED | MAP_GROWSDOWN),
			 STACK_TOP - 8 * PG);
	/* from the start of the stack VMA up to the end of the range */
	assert_int_equal(do_mprotect(mm, STACK_TOP - 4 * PG, 2 * PG,
				     RW | PROT_EXEC | PROT_GROWSDOWN), 0);
	assert_vma(STACK_TOP - 8 * PG, STACK_TOP - 2 * PG);
	assert_true(vma_at(STACK_TOP - 8 * PG)->vm_flags & VM_EXEC);
	assert_false(vma_at(STACK_TOP - PG)->vm_flags & VM_EXEC);
	assert_int_equal(mm->stack_vm, 8);
	check_mm(mm);
}

/* ---- brk ---------------------------------------------------------------------- */

static void test_brk(void **state)
{
	struct vm_area_struct *v;

	(void)state;
	mm->start_brk = mm->brk = B;
	assert_int_equal(sys_brk(0), B);
	assert_int_equal(do_brk(mm, B - 1), B);
	assert_int_equal(nr_vmas(), 0);
	/* growing within the first page maps it */
	assert_int_equal(do_brk(mm, B + 100), B + 100);
	assert_vma(B, B + PG);
	v = vma_at(B);
	assert_int_equal(v->vm_flags, ANON_RW_FLAGS);
	assert_null(v->vm_file);
	assert_int_equal(do_brk(mm, B + 3 * PG + 5), B + 3 * PG + 5);
	assert_vma(B, B + 4 * PG);
	assert_int_equal(nr_vmas(), 1);
	assert_int_equal(mm->total_vm, 4);
	check_mm(mm);

	/* up to a mapping, not into it */
	assert_int_equal(map(B + 6 * PG, PG, PROT_READ, FIXED), B + 6 * PG);
	assert_int_equal(do_brk(mm, B + 6 * PG + 1), B + 3 * PG + 5);
	assert_int_equal(do_brk(mm, TASK_SIZE + 1), B + 3 * PG + 5);
	assert_int_equal(do_brk(mm, B + 6 * PG), B + 6 * PG);
	assert_vma(B, B + 6 * PG);
	check_mm(mm);

	/* shrinking unmaps the whole pages above the new end */
	assert_int_equal(do_mmap_pgoff(mm, B, 6 * PG, RW, FIXED | MAP_POPULATE, NULL, 0), B);
	fake_calls_reset();
	assert_int_equal(do_brk(mm, B + PG), B + PG);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_ZAP, B + PG, B + 6 * PG);
	assert_vma(B, B + PG);
	assert_int_equal(do_brk(mm, B + PG / 2), B + PG / 2);
	assert_vma(B, B + PG);
	assert_int_equal(do_brk(mm, B), B);
	assert_unmapped(B, B + 6 * PG);
	assert_int_equal(mm->brk, B);
	check_mm(mm);
}

/* RLIMIT_DATA bounds the heap plus the data segment, checked first (so
 * a shrinking brk still above the limit is refused, as Linux); RLIMIT_AS
 * the pages brk would map. */
static void test_brk_rlimits(void **state)
{
	(void)state;
	mm->start_data = B - 16 * PG;
	mm->end_data = B - 14 * PG;
	mm->start_brk = mm->brk = B;
	fake_task.rlim[RLIMIT_DATA].rlim_cur = 5 * PG;
	assert_int_equal(do_brk(mm, B + 3 * PG), B + 3 * PG);
	assert_int_equal(do_brk(mm, B + 3 * PG + 1), B + 3 * PG);
	assert_vma(B, B + 3 * PG);
	fake_task.rlim[RLIMIT_DATA].rlim_cur = 4 * PG;
	assert_int_equal(do_brk(mm, B + 2 * PG + 1), B + 3 * PG);
	assert_int_equal(do_brk(mm, B + 2 * PG), B + 2 * PG);
	assert_vma(B, B + 2 * PG);
	check_mm(mm);

	fake_task.rlim[RLIMIT_DATA].rlim_cur = RLIM_INFINITY;
	fake_task.rlim[RLIMIT_AS].rlim_cur = 6 * PG;
	assert_int_equal(do_brk(mm, B + 6 * PG), B + 6 * PG);
	assert_int_equal(mm->total_vm, 6);
	assert_int_equal(do_brk(mm, B + 6 * PG + 1), B + 6 * PG);
	assert_int_equal(vm_brk_flags(mm, B + 10 * PG, PG, VM_READ), -ENOMEM);
	assert_vma(B, B + 6 * PG);
	check_mm(mm);
}

static void test_vm_brk_flags(void **state)
{
	(void)state;
	assert_int_equal(vm_brk_flags(mm, B, PG, VM_READ | VM_SHARED), -EINVAL);
	assert_int_equal(vm_brk_flags(mm, B + 1, PG, VM_READ), -EINVAL);
	assert_int_equal(vm_brk_flags(mm, TASK_SIZE - PG, 2 * PG, VM_READ), -ENOMEM);
	assert_int_equal(vm_brk_flags(mm, B, 0, VM_READ), 0);
	assert_int_equal(nr_vmas(), 0);
	/* VM_MAY* are added */
	assert_int_equal(vm_brk_flags(mm, B, PG + 1, VM_READ | VM_WRITE | VM_EXEC), 0);
	assert_vma(B, B + 2 * PG);
	assert_int_equal(vma_at(B)->vm_flags,
			 VM_READ | VM_WRITE | VM_EXEC | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC);
	/* locked: counted and faulted in */
	fake_calls_reset();
	assert_int_equal(vm_brk_flags(mm, B + 4 * PG, PG, VM_READ | VM_LOCKED), 0);
	assert_int_equal(mm->locked_vm, 1);
	assert_int_equal(fake_calls_count(FAKE_POPULATE), 1);
	check_mm(mm);
}

/* ---- expand_stack --------------------------------------------------------------- */

static void test_expand_stack(void **state)
{
	unsigned long low = STACK_TOP - STACK_RLIMIT_DEFAULT;
	struct vm_area_struct *v;

	(void)state;
	fake_task.rlim[RLIMIT_STACK].rlim_cur = STACK_RLIMIT_DEFAULT;
	assert_int_equal(map(STACK_TOP - 4 * PG, 4 * PG, RW, FIXED | MAP_GROWSDOWN),
			 STACK_TOP - 4 * PG);
	v = vma_at(STACK_TOP - PG);
	assert_int_equal(mm->stack_vm, 4);
	assert_int_equal(expand_stack(v, STACK_TOP - PG), 0);
	assert_int_equal(v->vm_start, STACK_TOP - 4 * PG);
	assert_int_equal(expand_stack(v, STACK_TOP - 6 * PG + 10), 0);
	assert_int_equal(v->vm_start, STACK_TOP - 6 * PG);
	assert_int_equal(mm->stack_vm, 6);
	assert_int_equal(mm->total_vm, 6);
	check_mm(mm);
	/* the limit: exactly RLIMIT_STACK, not a byte more */
	assert_int_equal(expand_stack(v, low - 1), -ENOMEM);
	assert_int_equal(v->vm_start, STACK_TOP - 6 * PG);
	assert_int_equal(expand_stack(v, low), 0);
	assert_int_equal(v->vm_start, low);
	assert_int_equal(mm->stack_vm, STACK_RLIMIT_DEFAULT / PG);
	check_mm(mm);
	/* a gap of a page below is kept */
	assert_int_equal(do_munmap(mm, low, STACK_RLIMIT_DEFAULT - 4 * PG), 0);
	assert_int_equal(map(STACK_TOP - 10 * PG, 2 * PG, RW, FIXED), STACK_TOP - 10 * PG);
	assert_int_equal(expand_stack(v, STACK_TOP - 8 * PG), -ENOMEM);
	assert_int_equal(expand_stack(v, STACK_TOP - 7 * PG - 1), -ENOMEM);
	assert_int_equal(expand_stack(v, STACK_TOP - 7 * PG), 0);
	assert_int_equal(v->vm_start, STACK_TOP - 7 * PG);
	/* only VM_GROWSDOWN VMAs grow */
	assert_int_equal(expand_stack(vma_at(STACK_TOP - 10 * PG), STACK_TOP - 12 * PG), -ENOMEM);
	check_mm(mm);
}

/* The stack's limits are current's: RLIMIT_STACK lowered, below the
 * VMA's size, infinite (the gap above the VMA below is the only bound),
 * and RLIMIT_AS. */
static void test_expand_stack_rlimits(void **state)
{
	struct vm_area_struct *v;

	(void)state;
	assert_int_equal(map(STACK_TOP - 4 * PG, 4 * PG, RW, FIXED | MAP_GROWSDOWN),
			 STACK_TOP - 4 * PG);
	v = vma_at(STACK_TOP - PG);
	fake_task.rlim[RLIMIT_STACK].rlim_cur = 8 * PG;
	assert_int_equal(expand_stack(v, STACK_TOP - 8 * PG - 1), -ENOMEM);
	assert_int_equal(expand_stack(v, STACK_TOP - 8 * PG), 0);
	assert_int_equal(v->vm_start, STACK_TOP - 8 * PG);
	/* a limit below the VMA's size stops growth, and takes nothing away */
	fake_task.rlim[RLIMIT_STACK].rlim_cur = 2 * PG;
	assert_int_equal(expand_stack(v, STACK_TOP - 9 * PG), -ENOMEM);
	assert_int_equal(v->vm_start, STACK_TOP - 8 * PG);
	assert_int_equal(expand_stack(v, STACK_TOP - 8 * PG), 0);
	check_mm(mm);

	/* unlimited: down to the page above the next VMA */
	fake_task.rlim[RLIMIT_STACK].rlim_cur = RLIM_INFINITY;
	assert_int_equal(map(STACK_TOP - 4100 * PG, 4 * PG, RW, FIXED), STACK_TOP - 4100 * PG);
	assert_int_equal(expand_stack(v, STACK_TOP - 4096 * PG), -ENOMEM);
	assert_int_equal(expand_stack(v, STACK_TOP - 4095 * PG), 0);
	assert_int_equal(mm->stack_vm, 4095);
	check_mm(mm);

	/* RLIMIT_AS counts every VMA */
	assert_int_equal(do_munmap(mm, STACK_TOP - 4095 * PG, 4087 * PG), 0);
	assert_int_equal(mm->total_vm, 12);
	fake_task.rlim[RLIMIT_AS].rlim_cur = 14 * PG;
	assert_int_equal(expand_stack(v, STACK_TOP - 11 * PG), -ENOMEM);
	assert_int_equal(expand_stack(v, STACK_TOP - 10 * PG), 0);
	assert_int_equal(mm->total_vm, 14);
	check_mm(mm);
}

/* ---- RLIMIT_AS ------------------------------------------------------------------- */

/* mmap and mremap may not take total_vm beyond RLIMIT_AS; a MAP_FIXED
 * mapping is charged only for the pages it adds.  A refusal changes
 * nothing. */
static void test_rlimit_as(void **state)
{
	struct snap before;

	(void)state;
	fake_task.rlim[RLIMIT_AS].rlim_cur = 10 * PG + 123;	/* whole pages count */
	assert_int_equal(map(B, 8 * PG, RW, FIXED | MAP_POPULATE), B);
	snap_take(&before);
	fake_calls_reset();
	assert_int_equal(map(B + 20 * PG, 3 * PG, RW, FIXED), -ENOMEM);
	assert_int_equal(map(0, 3 * PG, RW, ANON), -ENOMEM);
	assert_int_equal(map(B + 6 * PG, 5 * PG, RW, FIXED), -ENOMEM);
	assert_int_equal(sys_mremap(B, 8 * PG, 11 * PG, 0, 0), -ENOMEM);
	assert_int_equal(fake_nr_calls, 0);
	snap_check(&before);

	/* replacing 2 pages and adding 2: 10 in all */
	assert_int_equal(map(B + 6 * PG, 4 * PG, PROT_READ, FIXED), B + 6 * PG);
	assert_int_equal(mm->total_vm, 10);
	assert_int_equal(map(B + 20 * PG, PG, RW, FIXED), -ENOMEM);
	/* after an unmap there is room again */
	assert_int_equal(do_munmap(mm, B + 8 * PG, 2 * PG), 0);
	assert_int_equal(sys_mremap(B + 6 * PG, 2 * PG, 4 * PG, 0, 0), B + 6 * PG);
	assert_int_equal(mm->total_vm, 10);
	check_mm(mm);
}

/* ---- madvise ---------------------------------------------------------------------- */

static void test_madvise(void **state)
{
	struct file *f = fake_file_new(FMODE_READ, true);

	(void)state;
	assert_int_equal(map(B, 8 * PG, RW, FIXED | MAP_POPULATE), B);
	fake_calls_reset();
	assert_int_equal(do_madvise(mm, B + 2 * PG, 3 * PG, MADV_DONTNEED), 0);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_ZAP, B + 2 * PG, B + 5 * PG);
	assert_int_equal(fake_pte_count(mm), 5);
	assert_true(fake_pte_lookup(mm, B + PG, NULL, NULL));
	assert_false(fake_pte_lookup(mm, B + 2 * PG, NULL, NULL));
	assert_true(fake_pte_lookup(mm, B + 5 * PG, NULL, NULL));
	assert_int_equal(nr_vmas(), 1);

	/* arguments */
	fake_calls_reset();
	assert_int_equal(do_madvise(mm, B + 1, PG, MADV_DONTNEED), -EINVAL);
	assert_int_equal(do_madvise(mm, B, PG, 99), -EINVAL);
	assert_int_equal(do_madvise(mm, B, PG, 9), -EINVAL);
	assert_int_equal(do_madvise(mm, B, 0, MADV_DONTNEED), 0);
	assert_int_equal(sys_madvise(B, PG, MADV_WILLNEED), 0);
	assert_int_equal(do_madvise(mm, B, 8 * PG, MADV_SEQUENTIAL), 0);
	assert_int_equal(do_madvise(mm, B, 9 * PG, MADV_NORMAL), -ENOMEM);
	assert_int_equal(fake_nr_calls, 0);

	/* holes: the mapped parts are zapped, then -ENOMEM */
	assert_int_equal(map(B + 10 * PG, 2 * PG, RW, FIXED | MAP_POPULATE), B + 10 * PG);
	fake_calls_reset();
	assert_int_equal(do_madvise(mm, B + 6 * PG, 7 * PG, MADV_DONTNEED), -ENOMEM);
	assert_int_equal(fake_nr_calls, 2);
	assert_call(0, FAKE_ZAP, B + 6 * PG, B + 8 * PG);
	assert_call(1, FAKE_ZAP, B + 10 * PG, B + 12 * PG);

	/* a locked VMA in the range: -EINVAL, nothing zapped */
	assert_int_equal(map(B + 10 * PG, 2 * PG, RW, FIXED | MAP_LOCKED), B + 10 * PG);
	fake_calls_reset();
	assert_int_equal(do_madvise(mm, B, 12 * PG, MADV_DONTNEED), -EINVAL);
	assert_int_equal(do_madvise(mm, B, 12 * PG, MADV_FREE), -EINVAL);
	assert_int_equal(fake_nr_calls, 0);

	/* shared anonymous memory keeps its pages */
	assert_int_equal(map(B + 20 * PG, 2 * PG, RW, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE),
			 B + 20 * PG);
	assert_int_equal(do_madvise(mm, B + 20 * PG, 2 * PG, MADV_DONTNEED), 0);
	assert_int_equal(fake_nr_calls, 1);	/* the populate */
	assert_true(fake_pte_lookup(mm, B + 20 * PG, NULL, NULL));

	/* MADV_FREE: private anonymous memory only, and kept */
	assert_int_equal(do_madvise(mm, B + 20 * PG, 2 * PG, MADV_FREE), -EINVAL);
	assert_int_equal(map_file(B + 30 * PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, f, 0), B + 30 * PG);
	assert_int_equal(do_madvise(mm, B + 30 * PG, PG, MADV_FREE), -EINVAL);
	assert_int_equal(do_madvise(mm, B, 2 * PG, MADV_FREE), 0);
	assert_int_equal(fake_nr_calls, 1);
	check_mm(mm);
	mmput(mm);
	mm = NULL;
	fake_file_free(f);
}

/* ---- mlock ------------------------------------------------------------------------ */

static void test_mlock(void **state)
{
	struct snap before;

	(void)state;
	assert_int_equal(map(B, 8 * PG, RW, FIXED), B);
	fake_calls_reset();
	/* start is rounded down and the length widened to whole pages */
	assert_int_equal(sys_mlock(B + 2 * PG + 5, 2 * PG), 0);
	assert_int_equal(nr_vmas(), 3);
	assert_vma(B + 2 * PG, B + 5 * PG);
	assert_true(vma_at(B + 2 * PG)->vm_flags & VM_LOCKED);
	assert_false(vma_at(B)->vm_flags & VM_LOCKED);
	assert_int_equal(mm->locked_vm, 3);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_POPULATE, B + 2 * PG, B + 5 * PG);
	assert_true(fake_calls[0].write);	/* private writable: break COW now */
	assert_int_equal(fake_pte_count(mm), 3);
	check_mm(mm);

	/* unlocking merges back */
	assert_int_equal(sys_munlock(B + 3 * PG, PG), 0);
	assert_int_equal(nr_vmas(), 5);
	assert_int_equal(mm->locked_vm, 2);
	assert_int_equal(do_mlock(mm, B, 8 * PG, false), 0);
	assert_int_equal(nr_vmas(), 1);
	assert_int_equal(mm->locked_vm, 0);
	check_mm(mm);

	/* holes and bad ranges change nothing */
	assert_int_equal(map(B + 10 * PG, 2 * PG, PROT_NONE, FIXED), B + 10 * PG);
	snap_take(&before);
	fake_calls_reset();
	assert_int_equal(do_mlock(mm, B, 12 * PG, true), -ENOMEM);
	assert_int_equal(do_mlock(mm, B - PG, 2 * PG, true), -ENOMEM);
	assert_int_equal(do_mlock(mm, B + 9 * PG, PG, true), -ENOMEM);
	assert_int_equal(do_mlock(mm, B, -1ul, true), -ENOMEM);
	assert_int_equal(do_mlock(mm, B, 0, true), 0);
	assert_int_equal(fake_nr_calls, 0);
	snap_check(&before);

	/* PROT_NONE memory is locked without faulting */
	assert_int_equal(do_mlock(mm, B + 10 * PG, 2 * PG, true), 0);
	assert_int_equal(mm->locked_vm, 2);
	assert_int_equal(fake_nr_calls, 0);
	check_mm(mm);

	/* faulting errors in POSIX's terms; the lock stays */
	fake_populate_error = -ENOMEM;
	assert_int_equal(do_mlock(mm, B, PG, true), -EAGAIN);
	fake_populate_error = -EFAULT;
	assert_int_equal(do_mlock(mm, B + PG, PG, true), -ENOMEM);
	fake_populate_error = 0;
	assert_int_equal(mm->locked_vm, 4);
	assert_vma(B, B + 2 * PG);
	check_mm(mm);
}

static void test_mlockall(void **state)
{
	(void)state;
	assert_int_equal(map(B, 4 * PG, RW, FIXED), B);
	assert_int_equal(map(B + 4 * PG, 2 * PG, PROT_READ, FIXED), B + 4 * PG);
	assert_int_equal(map(B + 8 * PG, 2 * PG, PROT_NONE, FIXED), B + 8 * PG);
	assert_int_equal(do_mlock(mm, B, 2 * PG, true), 0);
	assert_int_equal(nr_vmas(), 4);
	assert_int_equal(sys_mlockall(0), -EINVAL);
	assert_int_equal(sys_mlockall(4), -EINVAL);			/* MCL_ONFAULT */
	assert_int_equal(sys_mlockall(MCL_FUTURE | 4), -EINVAL);
	assert_int_equal(sys_mlockall(8), -EINVAL);
	assert_int_equal(mm->def_flags, 0);
	fake_calls_reset();
	assert_int_equal(sys_mlockall(MCL_CURRENT), 0);
	assert_int_equal(nr_vmas(), 3);
	assert_int_equal(mm->locked_vm, 8);
	assert_int_equal(mm->def_flags, 0);
	assert_int_equal(fake_calls_count(FAKE_POPULATE), 2);
	assert_int_equal(fake_pte_count(mm), 6);
	check_mm(mm);
	assert_int_equal(sys_munlockall(), 0);
	assert_int_equal(mm->locked_vm, 0);
	assert_int_equal(nr_vmas(), 3);
	check_mm(mm);
}

/* MCL_FUTURE: mm->def_flags locks what mmap and brk create from then on
 * (and faults it in), not what exists; MCL_CURRENT alone and munlockall
 * end it.  Stack growth keeps the stack VMA's own flags, as Linux. */
static void test_mlockall_future(void **state)
{
	struct vm_area_struct *v;

	(void)state;
	assert_int_equal(map(B, 4 * PG, RW, FIXED), B);
	assert_int_equal(map(STACK_TOP - 4 * PG, 4 * PG, RW, FIXED | MAP_GROWSDOWN),
			 STACK_TOP - 4 * PG);
	mm->start_brk = mm->brk = B + 64 * PG;
	fake_calls_reset();
	assert_int_equal(sys_mlockall(MCL_FUTURE), 0);
	assert_int_equal(mm->def_flags, VM_LOCKED);
	assert_int_equal(mm->locked_vm, 0);
	assert_int_equal(fake_nr_calls, 0);

	/* a new mapping: locked, faulted in, not merged with the old one */
	assert_int_equal(map(B + 4 * PG, 2 * PG, RW, FIXED), B + 4 * PG);
	v = vma_at(B + 4 * PG);
	assert_int_equal(v->vm_flags, ANON_RW_FLAGS | VM_LOCKED);
	assert_int_equal(v->vm_start, B + 4 * PG);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_POPULATE, B + 4 * PG, B + 6 * PG);
	assert_false(vma_at(B)->vm_flags & VM_LOCKED);
	/* the heap too, and vm_brk_flags */
	assert_int_equal(do_brk(mm, B + 66 * PG), B + 66 * PG);
	assert_true(vma_at(B + 64 * PG)->vm_flags & VM_LOCKED);
	assert_int_equal(vm_brk_flags(mm, B + 80 * PG, PG, VM_READ), 0);
	assert_true(vma_at(B + 80 * PG)->vm_flags & VM_LOCKED);
	assert_int_equal(mm->locked_vm, 5);
	/* the stack grows with its own flags */
	v = vma_at(STACK_TOP - PG);
	assert_int_equal(expand_stack(v, STACK_TOP - 6 * PG), 0);
	assert_false(v->vm_flags & VM_LOCKED);
	assert_int_equal(mm->locked_vm, 5);
	check_mm(mm);

	/* MCL_CURRENT alone ends MCL_FUTURE; both lock all and keep it */
	assert_int_equal(sys_mlockall(MCL_CURRENT), 0);
	assert_int_equal(mm->def_flags, 0);
	assert_int_equal(map(B + 90 * PG, PG, RW, FIXED), B + 90 * PG);
	assert_false(vma_at(B + 90 * PG)->vm_flags & VM_LOCKED);
	assert_int_equal(sys_mlockall(MCL_CURRENT | MCL_FUTURE), 0);
	assert_int_equal(mm->def_flags, VM_LOCKED);
	assert_int_equal(mm->locked_vm, mm->total_vm);
	check_mm(mm);

	/* munlockall ends both */
	assert_int_equal(sys_munlockall(), 0);
	assert_int_equal(mm->def_flags, 0);
	assert_int_equal(mm->locked_vm, 0);
	assert_int_equal(map(B + 92 * PG, PG, RW, FIXED), B + 92 * PG);
	assert_false(vma_at(B + 92 * PG)->vm_flags & VM_LOCKED);
	check_mm(mm);
}

/* ---- mremap ------------------------------------------------------------------------ */

static void test_mremap(void **state)
{
	(void)state;
	assert_int_equal(map(B, 4 * PG, RW, FIXED | MAP_POPULATE), B);
	/* shrink in place */
	fake_calls_reset();
	assert_int_equal(sys_mremap(B, 4 * PG, 2 * PG, 0, 0), B);
	assert_vma(B, B + 2 * PG);
	assert_call(0, FAKE_ZAP, B + 2 * PG, B + 4 * PG);
	assert_int_equal(sys_mremap(B, 2 * PG, 2 * PG, 0, 0), B);
	/* grow in place */
	assert_int_equal(sys_mremap(B, 2 * PG, 6 * PG - 10, MREMAP_MAYMOVE, 0), B);
	assert_vma(B, B + 6 * PG);
	assert_int_equal(mm->total_vm, 6);
	check_mm(mm);
	/* growing up to a matching neighbour merges with it */
	assert_int_equal(map(B + 8 * PG, 2 * PG, RW, FIXED), B + 8 * PG);
	assert_int_equal(sys_mremap(B, 6 * PG, 8 * PG, 0, 0), B);
	assert_vma(B, B + 10 * PG);
	assert_int_equal(nr_vmas(), 1);
	check_mm(mm);
	/* in the way: no moving, with MREMAP_MAYMOVE or not */
	assert_int_equal(map(B + 12 * PG, PG, PROT_READ, FIXED), B + 12 * PG);
	assert_int_equal(sys_mremap(B, 10 * PG, 13 * PG, 0, 0), -ENOMEM);
	assert_int_equal(sys_mremap(B, 10 * PG, 13 * PG, MREMAP_MAYMOVE, 0), -ENOMEM);
	assert_int_equal(sys_mremap(B, 10 * PG, 12 * PG, 0, 0), B);
	assert_vma(B, B + 12 * PG);
	/* not the end of its VMA, or not inside one */
	assert_int_equal(sys_mremap(B, 2 * PG, 4 * PG, 0, 0), -ENOMEM);
	assert_int_equal(sys_mremap(B + 11 * PG, 2 * PG, 3 * PG, 0, 0), -EFAULT);
	assert_int_equal(sys_mremap(B + 20 * PG, PG, 2 * PG, 0, 0), -EFAULT);
	/* shrinking needs a mapping at addr too: from the top of the address
	 * space the unmapped tail would wrap around to low addresses */
	assert_int_equal(sys_mremap(B + 20 * PG, 2 * PG, PG, 0, 0), -EFAULT);
	assert_int_equal(sys_mremap(-PG, 0x80000000ul, 4 * PG, MREMAP_MAYMOVE, 0), -EFAULT);
	assert_vma(B, B + 12 * PG);
	/* arguments */
	assert_int_equal(sys_mremap(B, PG, 2 * PG, 2, B + 40 * PG), -EINVAL);
	assert_int_equal(sys_mremap(B, PG, 2 * PG, 4, 0), -EINVAL);
	assert_int_equal(sys_mremap(B + 1, PG, 2 * PG, 0, 0), -EINVAL);
	assert_int_equal(sys_mremap(B, PG, 0, 0, 0), -EINVAL);
	assert_int_equal(sys_mremap(B, PG, -1ul, 0, 0), -ENOMEM);
	check_mm(mm);
	/* a locked VMA's new pages are faulted in */
	assert_int_equal(map(B + 20 * PG, PG, RW, FIXED | MAP_LOCKED), B + 20 * PG);
	fake_calls_reset();
	assert_int_equal(sys_mremap(B + 20 * PG, PG, 3 * PG, 0, 0), B + 20 * PG);
	assert_int_equal(fake_nr_calls, 1);
	assert_call(0, FAKE_POPULATE, B + 21 * PG, B + 23 * PG);
	assert_int_equal(mm->locked_vm, 3);
	check_mm(mm);
}

/* ---- arguments ------------------------------------------------------------------------ */

static void test_invalid_arguments(void **state)
{
	struct file *rw = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	struct file *ro = fake_file_new(FMODE_READ, true);
	struct file *wo = fake_file_new(FMODE_WRITE, true);
	struct file *dev = fake_file_new(FMODE_READ | FMODE_WRITE, false);
	struct snap before;

	(void)state;
	assert_int_equal(map(B, 4 * PG, RW, FIXED | MAP_POPULATE), B);
	snap_take(&before);
	fake_calls_reset();

	/* mmap */
	assert_int_equal(map(B, 0, RW, FIXED), -EINVAL);
	assert_int_equal(map(0, 0, RW, ANON), -EINVAL);
	assert_int_equal(map(B + 1, PG, RW, FIXED), -EINVAL);
	assert_int_equal(map(TASK_SIZE - PG, 2 * PG, RW, FIXED), -ENOMEM);
	assert_int_equal(map(-PG, 2 * PG, RW, FIXED), -ENOMEM);
	assert_int_equal(map(0, TASK_SIZE + 1, RW, ANON), -ENOMEM);
	assert_int_equal(map(0, -1ul, RW, ANON), -ENOMEM);
	assert_int_equal(map(B, PG, RW, MAP_ANONYMOUS | MAP_FIXED), -EINVAL);
	assert_int_equal(map(B, PG, RW, MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED), -EINVAL);
	assert_int_equal(map(B, PG, RW, 0x04 | MAP_ANONYMOUS | MAP_FIXED), -EINVAL);
	assert_int_equal(map(0x1000, PG, RW, FIXED), -EPERM);
	assert_int_equal(map(0, PG, RW, FIXED), -EPERM);
	assert_int_equal(map_file(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, rw, -1ul), -EOVERFLOW);
	assert_int_equal(map_file(B, PG, PROT_READ, MAP_TYPE | MAP_FIXED, rw, 0), -EINVAL);
	assert_int_equal(map_file(B, PG, RW, MAP_SHARED | MAP_FIXED, ro, 0), -EACCES);
	assert_int_equal(map_file(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, wo, 0), -EACCES);
	assert_int_equal(map_file(B, PG, PROT_WRITE, MAP_SHARED | MAP_FIXED, wo, 0), -EACCES);
	assert_int_equal(map_file(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, dev, 0), -ENODEV);
	/* sys_mmap: the offset, the descriptor */
	fake_fd_table[3] = rw;
	assert_int_equal(sys_mmap(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, 3, 1), -EINVAL);
	assert_int_equal(sys_mmap(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, 3, PG + 1), -EINVAL);
	assert_int_equal(sys_mmap(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, 4, 0), -EBADF);
	assert_int_equal(sys_mmap(B, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, -1ul, 0), -EBADF);
	assert_int_equal(sys_mmap(B, PG, PROT_READ, MAP_SHARED | MAP_PRIVATE | MAP_FIXED, 3, 0), -EINVAL);
	assert_int_equal(rw->f_count, 1);

	/* munmap */
	assert_int_equal(do_munmap(mm, B + 1, PG), -EINVAL);
	assert_int_equal(do_munmap(mm, B, 0), -EINVAL);
	assert_int_equal(do_munmap(mm, TASK_SIZE - PG, 2 * PG), -EINVAL);
	assert_int_equal(do_munmap(mm, TASK_SIZE + PG, PG), -EINVAL);
	assert_int_equal(do_munmap(mm, B, -PG), -EINVAL);

	assert_int_equal(fake_nr_calls, 0);
	snap_check(&before);

	/* the good cases of the same calls */
	assert_int_equal(sys_mmap(B + 8 * PG, PG, PROT_READ, MAP_SHARED | MAP_FIXED, 3, 2 * PG), B + 8 * PG);
	assert_int_equal(vma_at(B + 8 * PG)->vm_pgoff, 2);
	assert_int_equal(rw->f_count, 2);
	assert_int_equal(sys_mmap(B + 9 * PG, PG, PROT_READ, ANON | MAP_FIXED, 4, 0), B + 9 * PG);
	/* a read-only file shared: read-only for good, so not VM_SHARED */
	assert_int_equal(map_file(B + 10 * PG, PG, PROT_READ, MAP_SHARED | MAP_FIXED, ro, 0), B + 10 * PG);
	assert_int_equal(vma_at(B + 10 * PG)->vm_flags,
			 VM_READ | VM_MAYSHARE | VM_MAYREAD | VM_MAYEXEC);
	/* a private writable mapping of a read-only file is fine */
	assert_int_equal(map_file(B + 11 * PG, PG, RW, MAP_PRIVATE | MAP_FIXED, ro, 1), B + 11 * PG);
	assert_int_equal(map(TASK_SIZE - PG, PG, RW, FIXED), TASK_SIZE - PG);
	assert_int_equal(map(MMAP_MIN_ADDR, PG, RW, FIXED), MMAP_MIN_ADDR);
	check_mm(mm);

	fake_fd_table[3] = NULL;
	mmput(mm);
	mm = NULL;
	fake_file_free(rw);
	fake_file_free(ro);
	fake_file_free(wo);
	fake_file_free(dev);
}

/* ---- all or nothing when memory runs out ---------------------------------------- */

static void test_out_of_memory_changes_nothing(void **state)
{
	struct file *f = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	struct snap before;
	long n;

	(void)state;
	assert_int_equal(map(B, 8 * PG, RW, FIXED | MAP_POPULATE), B);
	assert_int_equal(map_file(B + 8 * PG, 4 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE,
				  f, 0), B + 8 * PG);
	snap_take(&before);
	/* two splits each (the middle of a VMA, or across two): make the
	 * first or the second fail */
	for (n = 0; n < 2; n++) {
		fake_kmalloc_fail_after = n;
		assert_int_equal(do_munmap(mm, B + 2 * PG, 2 * PG), -ENOMEM);
		fake_kmalloc_fail_after = n;
		assert_int_equal(do_munmap(mm, B + 6 * PG, 4 * PG), -ENOMEM);
		fake_kmalloc_fail_after = n;
		assert_int_equal(do_mprotect(mm, B + 2 * PG, 2 * PG, PROT_READ | PROT_EXEC), -ENOMEM);
		fake_kmalloc_fail_after = n;
		assert_int_equal(do_mprotect(mm, B + 6 * PG, 4 * PG, PROT_NONE), -ENOMEM);
		fake_kmalloc_fail_after = n;
		assert_int_equal(do_mlock(mm, B + 2 * PG, 2 * PG, true), -ENOMEM);
		fake_kmalloc_fail_after = -1;
		snap_check(&before);
		check_mm(mm);
	}
	/* MAP_FIXED over them: the new VMA, then the two splits */
	for (n = 0; n < 3; n++) {
		fake_kmalloc_fail_after = n;
		assert_int_equal(map(B + 2 * PG, 2 * PG, PROT_READ, FIXED), -ENOMEM);
		fake_kmalloc_fail_after = n;
		assert_int_equal(map(B + 6 * PG, 4 * PG, PROT_READ, FIXED), -ENOMEM);
		fake_kmalloc_fail_after = -1;
		snap_check(&before);
	}
	assert_int_equal(f->f_count, 2);
	check_mm(mm);
	/* unmapping whole VMAs needs no memory */
	fake_kmalloc_fail_after = 0;
	assert_int_equal(do_munmap(mm, B, 12 * PG), 0);
	fake_kmalloc_fail_after = -1;
	assert_int_equal(nr_vmas(), 0);
	check_mm(mm);
	fake_file_free(f);
}

/* ---- randomized: many operations against a page-array model ------------------------ */

#define RN	48			/* pages in the window */
#define RBASE	MMAP_MIN_ADDR		/* the window: the whole mmap area */
#define RFILES	3

struct mpage {
	bool mapped;
	unsigned long flags;
	int file;			/* index into rfiles, -1: anonymous */
	pgoff_t pgoff;
	bool present;
};

static struct mpage model[RN];
static struct file *rfiles[RFILES];

static unsigned long raddr(int page)
{
	return RBASE + (unsigned long)page * PG;
}

static bool accessible(unsigned long flags)
{
	return flags & (VM_READ | VM_WRITE | VM_EXEC);
}

/* The model against mm, page by page, plus the invariants and the files'
 * reference counts. */
static void model_check(void)
{
	long refs[RFILES] = { 0 };
	struct vm_area_struct *v;
	int i, f;

	check_mm(mm);
	for (i = 0; i < RN; i++) {
		v = find_vma(mm, raddr(i));
		if (!model[i].mapped) {
			if (v && v->vm_start <= raddr(i))
				fail_msg("page %d is mapped", i);
			assert_false(fake_pte_lookup(mm, raddr(i), NULL, NULL));
			continue;
		}
		if (!v || v->vm_start > raddr(i))
			fail_msg("page %d is not mapped", i);
		assert_int_equal(v->vm_flags, model[i].flags);
		assert_ptr_equal(v->vm_file, model[i].file < 0 ? NULL : rfiles[model[i].file]);
		assert_int_equal(v->vm_pgoff + ((raddr(i) - v->vm_start) >> PAGE_SHIFT), model[i].pgoff);
		if (fake_pte_lookup(mm, raddr(i), NULL, NULL) != model[i].present)
			fail_msg("page %d: present %d, model %d", i, !model[i].present, model[i].present);
	}
	list_for_each_entry(v, &mm->mmap, vm_list)
		for (f = 0; f < RFILES; f++)
			refs[f] += v->vm_file == rfiles[f];
	for (f = 0; f < RFILES; f++)
		assert_int_equal(rfiles[f]->f_count, 1 + refs[f]);
}

/* The highest page where len free pages start, or -1 (top-down search). */
static int model_find_gap(int len)
{
	int a, i;

	for (a = RN - len; a >= 0; a--) {
		for (i = 0; i < len && !model[a + i].mapped; i++)
			;
		if (i == len)
			return a;
	}
	return -1;
}

static void random_mmap(int start, int len, bool injected)
{
	unsigned long prot = rand() % 8, flags, vm_flags;
	bool fixed = rand() % 10 < 7, shared = rand() % 10 < 3;
	bool populate = rand() % 10 < 3, locked = rand() % 10 == 0;
	int file = rand() % 2 ? rand() % RFILES : -1, i;
	pgoff_t pgoff = rand() % 10;
	long ret, want;

	flags = (shared ? MAP_SHARED : MAP_PRIVATE) | (fixed ? MAP_FIXED : 0) |
		(populate ? MAP_POPULATE : 0) | (locked ? MAP_LOCKED : 0) |
		(file < 0 ? MAP_ANONYMOUS : 0);
	ret = do_mmap_pgoff(mm, fixed ? raddr(start) : 0, len * PG, prot, flags,
			    file < 0 ? NULL : rfiles[file], pgoff);

	/* Linux's order: the address first, then the file's mode */
	if (!fixed) {
		start = model_find_gap(len);
		if (start < 0) {
			assert_int_equal(ret, -ENOMEM);
			return;
		}
	}
	vm_flags = calc_vm_prot_bits(prot) | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC |
		   (locked ? VM_LOCKED : 0) | (shared ? VM_SHARED | VM_MAYSHARE : 0);
	if (file >= 0 && shared && !(rfiles[file]->f_mode & FMODE_WRITE)) {
		if (prot & PROT_WRITE) {
			assert_int_equal(ret, -EACCES);
			return;
		}
		vm_flags &= ~(VM_MAYWRITE | VM_SHARED);
	}
	want = raddr(start);
	if (ret == -ENOMEM && injected)
		return;
	assert_int_equal(ret, want);
	for (i = start; i < start + len; i++) {
		model[i].mapped = true;
		model[i].flags = vm_flags;
		model[i].file = file;
		model[i].pgoff = file < 0 ? raddr(i) >> PAGE_SHIFT : pgoff + (i - start);
		model[i].present = (populate || locked) && accessible(vm_flags);
	}
}

static void random_munmap(int start, int len, bool injected)
{
	int ret = do_munmap(mm, raddr(start), len * PG), i;

	if (ret == -ENOMEM && injected)
		return;
	assert_int_equal(ret, 0);
	for (i = start; i < start + len; i++)
		model[i].mapped = model[i].present = false;
}

static void random_mprotect(int start, int len, bool injected)
{
	unsigned long prot = rand() % 8, newflags;
	int ret = do_mprotect(mm, raddr(start), len * PG, prot), want = 0, i;

	for (i = start; i < start + len && !want; i++) {
		if (!model[i].mapped) {
			want = -ENOMEM;
			break;
		}
		newflags = (model[i].flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | calc_vm_prot_bits(prot);
		if ((newflags & ~(newflags >> 4)) & (VM_READ | VM_WRITE | VM_EXEC))
			want = -EACCES;
	}
	if (ret == -ENOMEM && injected && !want)
		return;
	assert_int_equal(ret, want);
	if (want)
		return;
	for (i = start; i < start + len; i++)
		model[i].flags = (model[i].flags & ~(VM_READ | VM_WRITE | VM_EXEC)) |
				 calc_vm_prot_bits(prot);
}

static void random_mlock(int start, int len, bool injected)
{
	bool on = rand() % 2;
	int ret = do_mlock(mm, raddr(start), len * PG, on), want = 0, i;

	for (i = start; i < start + len; i++)
		if (!model[i].mapped)
			want = -ENOMEM;
	if (ret == -ENOMEM && injected && !want)
		return;
	assert_int_equal(ret, want);
	if (want)
		return;
	for (i = start; i < start + len; i++) {
		model[i].flags = on ? model[i].flags | VM_LOCKED : model[i].flags & ~VM_LOCKED;
		if (on && accessible(model[i].flags))
			model[i].present = true;
	}
}

static void random_madvise(int start, int len)
{
	int ret = do_madvise(mm, raddr(start), len * PG, MADV_DONTNEED), want = 0, i;

	for (i = start; i < start + len; i++)
		if (model[i].mapped && (model[i].flags & VM_LOCKED))
			want = -EINVAL;
	if (!want)
		for (i = start; i < start + len; i++) {
			if (!model[i].mapped)
				want = -ENOMEM;
			else if (!((model[i].flags & VM_SHARED) && model[i].file < 0))
				model[i].present = false;
		}
	assert_int_equal(ret, want);
}

static void test_random_ops(void **state)
{
	int op, start, len, f;
	bool injected;

	(void)state;
	srand(20081224);
	rfiles[0] = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	rfiles[1] = fake_file_new(FMODE_READ, true);
	rfiles[2] = fake_file_new(FMODE_READ | FMODE_WRITE, true);
	memset(model, 0, sizeof(model));
	mm->mmap_base = raddr(RN);

	for (op = 0; op < 20000; op++) {
		len = 1 + rand() % 8;
		start = rand() % (RN - len + 1);
		injected = rand() % 8 == 0;
		fake_calls_reset();
		if (injected)
			fake_kmalloc_fail_after = rand() % 3;
		switch (rand() % 10) {
		case 0: case 1: case 2:
			random_mmap(start, len, injected);
			break;
		case 3: case 4:
			random_munmap(start, len, injected);
			break;
		case 5: case 6:
			random_mprotect(start, len, injected);
			break;
		case 7: case 8:
			random_mlock(start, len, injected);
			break;
		default:
			random_madvise(start, len);
			break;
		}
		fake_kmalloc_fail_after = -1;
		model_check();
	}
	mmput(mm);
	mm = NULL;
	for (f = 0; f < RFILES; f++)
		fake_file_free(rfiles[f]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_vm_get_page_prot),
		T(test_mm_alloc_and_mmput),
		T(test_mm_alloc_failure),
		T(test_dup_mm),
		T(test_dup_mm_copy_fails),
		T(test_dup_mm_out_of_memory),
		T(test_mmap_insert_sort_merge),
		T(test_map_fixed_over_existing),
		T(test_map_fixed_noreplace),
		T(test_get_unmapped_area),
		T(test_get_unmapped_area_exhaustion),
		T(test_munmap_middle),
		T(test_munmap_across),
		T(test_mprotect_split_and_merge),
		T(test_mprotect_errors),
		T(test_mprotect_growsdown),
		T(test_brk),
		T(test_brk_rlimits),
		T(test_vm_brk_flags),
		T(test_expand_stack),
		T(test_expand_stack_rlimits),
		T(test_rlimit_as),
		T(test_madvise),
		T(test_mlock),
		T(test_mlockall),
		T(test_mlockall_future),
		T(test_mremap),
		T(test_invalid_arguments),
		T(test_out_of_memory_changes_nothing),
		T(test_random_ops),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
