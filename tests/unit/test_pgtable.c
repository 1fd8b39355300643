/*
 * Host unit tests for the page-table code (mm/pgtable.c).
 *
 * Physical memory is a page-aligned host buffer: host_phys_base points at
 * it, so physical address pa is the byte at mem + pa.  A fake allocator
 * hands out its pages (never page 0, which stands for "out of memory"),
 * fills each page it hands out or takes back with a poison byte, so that
 * pgtable.c must zero new tables and a freed table that is still used shows
 * up as garbage, and can be told to run dry after a number of pages.
 *
 * Each test builds a fresh address space and ends in unmap_all(), which
 * checks the invariants of the tables left (check_tables()), unmaps both
 * halves and requires that only the PGD page is still allocated: no leaked
 * tables.  The mapped physical addresses themselves need no memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <asm/tlbflush.h>
#include <mm/pgtable.h>
#include <uapi/errno.h>

#define NPAGES		512
#define POISON		0xa5
#define UNLIMITED	-1

#define SZ_4K		0x1000ul
#define SZ_2M		0x200000ul
#define SZ_1G		0x40000000ul

#define USER_VA		0x0000000000400000ul
#define KVA		0xffffc90000000000ul	/* 1 GiB aligned */
#define DIRECT_VA	PAGE_OFFSET		/* 1 GiB aligned */
#define TOP_PAGE	0xfffffffffffff000ul

uintptr_t host_phys_base;
unsigned long host_tlb_flushes;
const uint64_t *host_live_pgd;

static struct fake_phys {
	uint8_t *mem;
	bool used[NPAGES];
	int in_use;
	int budget;		/* pages alloc may still hand out, or UNLIMITED */
} fp;

static phys_addr_t fake_alloc(void *ctx)
{
	struct fake_phys *f = ctx;
	int i;

	if (f->budget == 0)
		return 0;
	for (i = 1; i < NPAGES; i++) {
		if (!f->used[i]) {
			f->used[i] = true;
			f->in_use++;
			if (f->budget > 0)
				f->budget--;
			return (phys_addr_t)i * PAGE_SIZE;
		}
	}
	return 0;
}

static void fake_free(phys_addr_t pa, void *ctx)
{
	struct fake_phys *f = ctx;
	unsigned long pfn = pa / PAGE_SIZE;

	assert_true(IS_ALIGNED(pa, PAGE_SIZE));
	assert_true(pfn > 0 && pfn < NPAGES);
	assert_true(f->used[pfn]);
	f->used[pfn] = false;
	f->in_use--;
	memset(f->mem + pa, POISON, PAGE_SIZE);
}

static const struct pt_allocator alloc = { fake_alloc, fake_free, &fp };
static pte_t *pgd;

static int setup(void **state)
{
	(void)state;
	memset(fp.used, 0, sizeof(fp.used));
	fp.in_use = 0;
	fp.budget = UNLIMITED;
	fp.mem = aligned_alloc(PAGE_SIZE, NPAGES * PAGE_SIZE);
	if (!fp.mem)
		return -1;
	memset(fp.mem, POISON, NPAGES * PAGE_SIZE);
	host_phys_base = (uintptr_t)fp.mem;
	host_tlb_flushes = 0;
	host_live_pgd = NULL;
	__supported_pte_mask = ~0ull;
	pgd = pt_alloc_pgd(&alloc);
	return pgd ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(fp.mem);
	return 0;
}

/* ---- checking the tables ------------------------------------------------ */

static bool table_is_empty(const pte_t *table)
{
	int i;

	for (i = 0; i < PTRS_PER_TABLE; i++)
		if (table[i])
			return false;
	return true;
}

/*
 * Check the table at level and everything below it; path_user says whether
 * every entry on the way has _PAGE_USER.  Returns the number of tables below.
 */
static int check_table(const pte_t *table, enum pg_level level, bool path_user,
		       bool *seen)
{
	int i, tables = 0;

	for (i = 0; i < PTRS_PER_TABLE; i++) {
		pte_t e = table[i];
		unsigned long pfn = (e & PTE_PFN_MASK) / PAGE_SIZE;

		if (!(e & _PAGE_PRESENT)) {
			assert_int_equal(e, 0);
			continue;
		}
		if (level == PG_LEVEL_4K || (e & _PAGE_PSE)) {
			assert_true(level <= PG_LEVEL_1G);
			assert_true(IS_ALIGNED(e & PTE_PFN_MASK, page_level_size(level)));
			if (e & _PAGE_USER)
				assert_true(path_user);
			continue;
		}
		/* A table entry: permissive, its page allocated, used once,
		 * not empty. */
		assert_int_equal(e & (_KERNPG_TABLE | _PAGE_NX), _KERNPG_TABLE);
		assert_true(pfn > 0 && pfn < NPAGES);
		assert_true(fp.used[pfn]);
		assert_false(seen[pfn]);
		seen[pfn] = true;
		assert_false(table_is_empty(phys_to_virt(pfn * PAGE_SIZE)));
		tables += 1 + check_table(phys_to_virt(pfn * PAGE_SIZE), level - 1,
					  path_user && (e & _PAGE_USER), seen);
	}
	return tables;
}

/* The invariants of mm/pgtable.c, and every allocated page is a table. */
static void check_tables(void)
{
	bool seen[NPAGES] = { false };

	assert_int_equal(check_table(pgd, PG_LEVEL_512G, true, seen) + 1, fp.in_use);
}

static void unmap_all(void)
{
	check_tables();
	assert_int_equal(pt_unmap(pgd, 0, 1ul << 47, &alloc), 0);
	assert_int_equal(pt_unmap(pgd, ~0ul << 47, 1ul << 47, &alloc), 0);
	assert_true(table_is_empty(pgd));
	assert_int_equal(fp.in_use, 1);
}

static void expect_mapped(unsigned long va, phys_addr_t pa, uint64_t prot,
			  enum pg_level level)
{
	phys_addr_t got_pa;
	uint64_t got_prot;
	enum pg_level got_level;

	assert_int_equal(pt_lookup(pgd, va, &got_pa, &got_prot, &got_level), 0);
	assert_int_equal(got_pa, pa);
	assert_int_equal(got_prot, prot);
	assert_int_equal(got_level, level);
}

static void expect_unmapped(unsigned long va)
{
	assert_int_equal(pt_lookup(pgd, va, NULL, NULL, NULL), -ENOENT);
}

/* Every 4 KiB page of [va, va+size) maps pa onward with prot, in pages of
 * the given level. */
static void expect_range(unsigned long va, phys_addr_t pa, unsigned long size,
			 uint64_t prot, enum pg_level level)
{
	unsigned long off;

	for (off = 0; off < size; off += SZ_4K)
		expect_mapped(va + off, pa + off, prot, level);
}

/* The entry at level on the way to va (which must exist). */
static pte_t *entry_at(unsigned long va, enum pg_level level)
{
	pte_t *table = pgd;
	enum pg_level l;

	for (l = PG_LEVEL_512G; l > level; l--) {
		pte_t e = table[pt_index(va, l)];

		assert_true((e & _PAGE_PRESENT) && !(e & _PAGE_PSE));
		table = phys_to_virt(e & PTE_PFN_MASK);
	}
	return &table[pt_index(va, level)];
}

/* ---- mapping -------------------------------------------------------------- */

static void test_map_4k(void **state)
{
	(void)state;
	assert_int_equal(pt_map(pgd, KVA, 0x123000, 3 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_range(KVA, 0x123000, 3 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(KVA + 0x1234, 0x124234, PAGE_KERNEL, PG_LEVEL_4K);
	expect_unmapped(KVA - SZ_4K);
	expect_unmapped(KVA + 3 * SZ_4K);
	assert_int_equal(fp.in_use, 4);		/* PGD, PUD, PMD, PT */

	/* The entries themselves: tables are _KERNPG_TABLE, the leaf is prot. */
	assert_int_equal(*entry_at(KVA, PG_LEVEL_512G) & PTE_FLAGS_MASK, _KERNPG_TABLE);
	assert_int_equal(*entry_at(KVA, PG_LEVEL_1G) & PTE_FLAGS_MASK, _KERNPG_TABLE);
	assert_int_equal(*entry_at(KVA, PG_LEVEL_2M) & PTE_FLAGS_MASK, _KERNPG_TABLE);
	assert_int_equal(*entry_at(KVA, PG_LEVEL_4K), 0x123000 | PAGE_KERNEL);

	/* The lower half too, and the last page of each half. */
	assert_int_equal(pt_map(pgd, USER_VA, 0x5000, SZ_4K, PAGE_SHARED,
				PG_LEVEL_4K, &alloc), 0);
	expect_mapped(USER_VA, 0x5000, PAGE_SHARED, PG_LEVEL_4K);
	assert_int_equal(pt_map(pgd, (1ul << 47) - SZ_4K, 0x6000, SZ_4K, PAGE_READONLY,
				PG_LEVEL_4K, &alloc), 0);
	expect_mapped((1ul << 47) - 1, 0x6fff, PAGE_READONLY, PG_LEVEL_4K);
	assert_int_equal(pt_map(pgd, TOP_PAGE, 0x7000, SZ_4K, PAGE_KERNEL_RO,
				PG_LEVEL_4K, &alloc), 0);
	expect_mapped(~0ul, 0x7fff, PAGE_KERNEL_RO, PG_LEVEL_4K);
	unmap_all();
}

static void test_map_2m(void **state)
{
	pte_t *e;

	(void)state;
	assert_int_equal(pt_map(pgd, KVA, 0x40200000, 2 * SZ_2M, PAGE_KERNEL_RX,
				PG_LEVEL_2M, &alloc), 0);
	expect_mapped(KVA, 0x40200000, PAGE_KERNEL_RX, PG_LEVEL_2M);
	expect_mapped(KVA + 0x12345, 0x40212345, PAGE_KERNEL_RX, PG_LEVEL_2M);
	expect_mapped(KVA + SZ_2M + 0x1fffff, 0x405fffff, PAGE_KERNEL_RX, PG_LEVEL_2M);
	expect_unmapped(KVA + 2 * SZ_2M);
	assert_int_equal(fp.in_use, 3);		/* PGD, PUD, PMD */
	e = entry_at(KVA + SZ_2M, PG_LEVEL_2M);
	assert_int_equal(*e, 0x40400000 | PAGE_KERNEL_RX | _PAGE_PSE);

	/* The same range with max_level 4K: 4 KiB pages. */
	assert_int_equal(pt_map(pgd, KVA + SZ_1G, 0x40200000, 2 * SZ_2M, PAGE_KERNEL_RX,
				PG_LEVEL_4K, &alloc), 0);
	expect_range(KVA + SZ_1G, 0x40200000, 2 * SZ_2M, PAGE_KERNEL_RX, PG_LEVEL_4K);
	assert_false(*entry_at(KVA + SZ_1G, PG_LEVEL_4K) & _PAGE_PSE);
	unmap_all();
}

static void test_map_1g(void **state)
{
	(void)state;
	assert_int_equal(pt_map(pgd, DIRECT_VA + SZ_1G, SZ_1G, 2 * SZ_1G, PAGE_KERNEL,
				PG_LEVEL_1G, &alloc), 0);
	expect_mapped(DIRECT_VA + SZ_1G, SZ_1G, PAGE_KERNEL, PG_LEVEL_1G);
	expect_mapped(DIRECT_VA + 3 * SZ_1G - 1, 3 * SZ_1G - 1, PAGE_KERNEL, PG_LEVEL_1G);
	expect_unmapped(DIRECT_VA);
	expect_unmapped(DIRECT_VA + 3 * SZ_1G);
	assert_int_equal(fp.in_use, 2);		/* PGD, PUD */
	assert_int_equal(*entry_at(DIRECT_VA + 2 * SZ_1G, PG_LEVEL_1G),
			 2 * SZ_1G | PAGE_KERNEL | _PAGE_PSE);

	/* Without 1 GiB pages: 2 MiB ones. */
	assert_int_equal(pt_map(pgd, KVA, SZ_1G, SZ_1G, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_mapped(KVA, SZ_1G, PAGE_KERNEL, PG_LEVEL_2M);
	expect_mapped(KVA + SZ_1G - 1, 2 * SZ_1G - 1, PAGE_KERNEL, PG_LEVEL_2M);
	assert_int_equal(fp.in_use, 4);		/* + PUD, PMD for KVA */
	unmap_all();
}

/* A large page is used only where va, pa and the size left all allow it. */
static void test_large_only_when_aligned(void **state)
{
	(void)state;
	/* pa not 2M aligned */
	assert_int_equal(pt_map(pgd, KVA, SZ_2M + SZ_4K, SZ_2M, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_range(KVA, SZ_2M + SZ_4K, SZ_2M, PAGE_KERNEL, PG_LEVEL_4K);
	/* va not 2M aligned */
	assert_int_equal(pt_map(pgd, KVA + 2 * SZ_2M + SZ_4K, SZ_2M, SZ_2M, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_range(KVA + 2 * SZ_2M + SZ_4K, SZ_2M, SZ_2M, PAGE_KERNEL, PG_LEVEL_4K);
	/* both aligned, but less than 2M */
	assert_int_equal(pt_map(pgd, KVA + 4 * SZ_2M, SZ_2M, SZ_2M - SZ_4K, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_range(KVA + 4 * SZ_2M, SZ_2M, SZ_2M - SZ_4K, PAGE_KERNEL, PG_LEVEL_4K);
	/* 1G allowed, va 1G aligned, pa only 2M aligned: 2M pages */
	assert_int_equal(pt_map(pgd, KVA + SZ_1G, SZ_2M, SZ_1G, PAGE_KERNEL,
				PG_LEVEL_1G, &alloc), 0);
	expect_mapped(KVA + SZ_1G, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M);
	expect_mapped(KVA + 2 * SZ_1G - SZ_4K, SZ_1G + SZ_2M - SZ_4K, PAGE_KERNEL,
		      PG_LEVEL_2M);
	unmap_all();

	/* Where a (here empty) table already is, smaller pages go into it. */
	assert_non_null(pt_walk(pgd, KVA, PAGE_KERNEL, &alloc, NULL));
	assert_int_equal(fp.in_use, 4);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M, &alloc), 0);
	expect_range(KVA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_4K);
	assert_int_equal(fp.in_use, 4);
	unmap_all();
}

/* One range in 4K, 2M (and 1G) pieces. */
static void test_mixed_range(void **state)
{
	unsigned long va = KVA + SZ_2M - 2 * SZ_4K, off;
	phys_addr_t pa = 0x10000000 + SZ_2M - 2 * SZ_4K;
	unsigned long size = 2 * SZ_4K + 2 * SZ_2M + 3 * SZ_4K;

	(void)state;
	assert_int_equal(pt_map(pgd, va, pa, size, PAGE_KERNEL, PG_LEVEL_1G, &alloc), 0);
	for (off = 0; off < size; off += SZ_4K) {
		bool large = off >= 2 * SZ_4K && off < 2 * SZ_4K + 2 * SZ_2M;

		expect_mapped(va + off, pa + off, PAGE_KERNEL,
			      large ? PG_LEVEL_2M : PG_LEVEL_4K);
	}
	expect_unmapped(va - SZ_4K);
	expect_unmapped(va + size);
	/* PGD, PUD, PMD, and a PT at each end */
	assert_int_equal(fp.in_use, 5);
	unmap_all();

	/* 4K, 2M, 1G, 2M, 4K */
	va = DIRECT_VA + SZ_1G - SZ_2M - SZ_4K;
	pa = SZ_1G - SZ_2M - SZ_4K;
	size = SZ_4K + SZ_2M + SZ_1G + SZ_2M + SZ_4K;
	assert_int_equal(pt_map(pgd, va, pa, size, PAGE_KERNEL_RO, PG_LEVEL_1G, &alloc), 0);
	expect_mapped(va, pa, PAGE_KERNEL_RO, PG_LEVEL_4K);
	expect_mapped(va + SZ_4K, pa + SZ_4K, PAGE_KERNEL_RO, PG_LEVEL_2M);
	expect_mapped(va + SZ_4K + SZ_2M, pa + SZ_4K + SZ_2M, PAGE_KERNEL_RO, PG_LEVEL_1G);
	expect_mapped(DIRECT_VA + 2 * SZ_1G - 1, 2 * SZ_1G - 1, PAGE_KERNEL_RO, PG_LEVEL_1G);
	expect_mapped(DIRECT_VA + 2 * SZ_1G, 2 * SZ_1G, PAGE_KERNEL_RO, PG_LEVEL_2M);
	expect_mapped(va + size - SZ_4K, pa + size - SZ_4K, PAGE_KERNEL_RO, PG_LEVEL_4K);
	expect_unmapped(va + size);
	unmap_all();
}

/* ---- unmapping ------------------------------------------------------------ */

static void test_unmap_splits_2m(void **state)
{
	unsigned long off;

	(void)state;
	assert_int_equal(pt_map(pgd, KVA, 0x40000000, SZ_2M, PAGE_KERNEL_RX,
				PG_LEVEL_2M, &alloc), 0);
	assert_int_equal(fp.in_use, 3);
	assert_int_equal(pt_unmap(pgd, KVA + 5 * SZ_4K, 2 * SZ_4K, &alloc), 0);
	assert_int_equal(fp.in_use, 4);		/* the new PT */
	for (off = 0; off < SZ_2M; off += SZ_4K) {
		if (off == 5 * SZ_4K || off == 6 * SZ_4K)
			expect_unmapped(KVA + off);
		else
			expect_mapped(KVA + off, 0x40000000 + off, PAGE_KERNEL_RX, PG_LEVEL_4K);
	}
	assert_int_equal(*entry_at(KVA, PG_LEVEL_2M) & PTE_FLAGS_MASK, _KERNPG_TABLE);
	unmap_all();
}

static void test_unmap_splits_1g(void **state)
{
	unsigned long hole = DIRECT_VA + 3 * SZ_2M + SZ_4K;

	(void)state;
	assert_int_equal(pt_map(pgd, DIRECT_VA, 0, SZ_1G, PAGE_KERNEL, PG_LEVEL_1G,
				&alloc), 0);
	assert_int_equal(pt_unmap(pgd, hole, SZ_4K, &alloc), 0);
	assert_int_equal(fp.in_use, 4);		/* PGD, PUD, PMD, PT */
	expect_unmapped(hole);
	expect_mapped(hole - SZ_4K, 3 * SZ_2M, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(hole + SZ_4K, 3 * SZ_2M + 2 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(DIRECT_VA + 4 * SZ_2M - 1, 4 * SZ_2M - 1, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(DIRECT_VA + 4 * SZ_2M, 4 * SZ_2M, PAGE_KERNEL, PG_LEVEL_2M);
	expect_mapped(DIRECT_VA, 0, PAGE_KERNEL, PG_LEVEL_2M);
	expect_mapped(DIRECT_VA + SZ_1G - 1, SZ_1G - 1, PAGE_KERNEL, PG_LEVEL_2M);
	unmap_all();
}

/* Tables are freed as soon as they are empty; holes are not an error. */
static void test_unmap_frees_tables(void **state)
{
	(void)state;
	assert_int_equal(pt_unmap(pgd, KVA, SZ_1G, &alloc), 0);
	assert_int_equal(pt_map(pgd, KVA, 0, 2 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), 0);
	assert_int_equal(pt_map(pgd, KVA + SZ_2M, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K,
				&alloc), 0);
	assert_int_equal(fp.in_use, 5);		/* PGD, PUD, PMD, 2 PT */
	assert_int_equal(pt_unmap(pgd, KVA, SZ_4K, &alloc), 0);
	assert_int_equal(fp.in_use, 5);
	assert_int_equal(pt_unmap(pgd, KVA + SZ_4K, SZ_4K, &alloc), 0);
	assert_int_equal(fp.in_use, 4);		/* first PT gone */
	check_tables();
	assert_int_equal(pt_unmap(pgd, KVA - SZ_1G, 4 * SZ_1G, &alloc), 0);
	assert_int_equal(fp.in_use, 1);
	assert_true(table_is_empty(pgd));
	unmap_all();
}

/* ---- protecting ----------------------------------------------------------- */

static void test_protect(void **state)
{
	unsigned long off;
	pte_t *e;

	(void)state;
	/* Part of a 2M page: split, and only the range changes. */
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M, &alloc), 0);
	assert_int_equal(pt_protect(pgd, KVA + 10 * SZ_4K, 3 * SZ_4K, PAGE_KERNEL_RO,
				    &alloc), 0);
	for (off = 0; off < SZ_2M; off += SZ_4K) {
		bool ro = off >= 10 * SZ_4K && off < 13 * SZ_4K;

		expect_mapped(KVA + off, off, ro ? PAGE_KERNEL_RO : PAGE_KERNEL, PG_LEVEL_4K);
	}
	assert_int_equal(pt_protect(pgd, KVA, SZ_2M, PAGE_KERNEL_RX, &alloc), 0);
	expect_range(KVA, 0, SZ_2M, PAGE_KERNEL_RX, PG_LEVEL_4K);

	/* A whole 2M page keeps its size; a part that already has the
	 * protection needs no split. */
	assert_int_equal(pt_map(pgd, KVA + SZ_2M, SZ_2M, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M,
				&alloc), 0);
	assert_int_equal(pt_protect(pgd, KVA + SZ_2M, SZ_2M, PAGE_KERNEL_RO, &alloc), 0);
	expect_mapped(KVA + SZ_2M, SZ_2M, PAGE_KERNEL_RO, PG_LEVEL_2M);
	assert_int_equal(fp.in_use, 4);
	assert_int_equal(pt_protect(pgd, KVA + SZ_2M + SZ_4K, SZ_4K, PAGE_KERNEL_RO,
				    &alloc), 0);
	expect_mapped(KVA + SZ_2M + SZ_4K, SZ_2M + SZ_4K, PAGE_KERNEL_RO, PG_LEVEL_2M);
	assert_int_equal(fp.in_use, 4);

	/* Holes stay holes. */
	assert_int_equal(pt_protect(pgd, KVA - SZ_2M, 8 * SZ_2M, PAGE_KERNEL, &alloc), 0);
	expect_unmapped(KVA - SZ_4K);
	expect_unmapped(KVA + 2 * SZ_2M);
	expect_range(KVA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(KVA + SZ_2M, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M);
	unmap_all();

	/* The accessed and dirty bits the CPU set survive. */
	assert_int_equal(pt_map(pgd, KVA, 0x9000, SZ_4K, _PAGE_PRESENT | _PAGE_RW,
				PG_LEVEL_4K, &alloc), 0);
	e = entry_at(KVA, PG_LEVEL_4K);
	*e |= _PAGE_ACCESSED | _PAGE_DIRTY;
	assert_int_equal(pt_protect(pgd, KVA, SZ_4K, _PAGE_PRESENT | _PAGE_NX, &alloc), 0);
	expect_mapped(KVA, 0x9000, _PAGE_PRESENT | _PAGE_NX | _PAGE_ACCESSED | _PAGE_DIRTY,
		      PG_LEVEL_4K);
	unmap_all();
}

/* ---- errors ----------------------------------------------------------------- */

static void test_eexist(void **state)
{
	(void)state;
	host_live_pgd = pgd;
	assert_int_equal(pt_map(pgd, KVA, 0, 4 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), 0);
	assert_int_equal(pt_map(pgd, DIRECT_VA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M, &alloc), 0);
	assert_int_equal(fp.in_use, 6);

	/* Overlapping at the end, in the middle, exactly, over a 2M page:
	 * nothing changes. */
	assert_int_equal(pt_map(pgd, KVA - 2 * SZ_4K, 0x100000, 3 * SZ_4K, PAGE_KERNEL_RO,
				PG_LEVEL_4K, &alloc), -EEXIST);
	assert_int_equal(pt_map(pgd, KVA - SZ_2M, 0, 4 * SZ_2M, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), -EEXIST);
	assert_int_equal(pt_map(pgd, KVA + SZ_4K, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K,
				&alloc), -EEXIST);
	assert_int_equal(pt_map(pgd, DIRECT_VA + SZ_2M - SZ_4K, 0, 2 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), -EEXIST);
	assert_int_equal(pt_map(pgd, DIRECT_VA - SZ_1G, 0, 2 * SZ_1G, PAGE_KERNEL,
				PG_LEVEL_1G, &alloc), -EEXIST);
	expect_unmapped(KVA - SZ_4K);
	expect_unmapped(KVA - SZ_2M);
	expect_unmapped(DIRECT_VA - SZ_4K);
	expect_unmapped(DIRECT_VA + SZ_2M);
	expect_range(KVA, 0, 4 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(DIRECT_VA + SZ_2M - SZ_4K, SZ_2M - SZ_4K, PAGE_KERNEL, PG_LEVEL_2M);
	assert_int_equal(fp.in_use, 6);
	assert_int_equal(host_tlb_flushes, 0);
	unmap_all();
}

static void test_einval(void **state)
{
	const unsigned long hole = 1ul << 47;
	const phys_addr_t phys_end = 1ull << 52;

	(void)state;
	/* map: alignment, size, canonical, wrap, physical range */
	assert_int_equal(pt_map(pgd, KVA + 1, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0x800, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K + 8, PAGE_KERNEL, PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, 0, PAGE_KERNEL, PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, hole, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, 0x0000900000000000ul, 0, SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, hole - SZ_4K, 0, 2 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, TOP_PAGE, 0, 2 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, ~0ul & PAGE_MASK, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, phys_end, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K,
				&alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, phys_end - SZ_4K, 2 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), -EINVAL);
	/* map: prot, max_level, NULL */
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL & ~_PAGE_PRESENT,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL | _PAGE_PSE,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL | 0x1000,
				PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL, 0, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_512G, &alloc), -EINVAL);
	assert_int_equal(pt_map(NULL, KVA, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), -EINVAL);
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, NULL), -EINVAL);

	/* unmap and protect */
	assert_int_equal(pt_unmap(pgd, KVA + 8, SZ_4K, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(pgd, KVA, 8, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(pgd, KVA, 0, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(pgd, hole, SZ_4K, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(pgd, hole - SZ_4K, 2 * SZ_4K, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(pgd, TOP_PAGE, 2 * SZ_4K, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(NULL, KVA, SZ_4K, &alloc), -EINVAL);
	assert_int_equal(pt_unmap(pgd, KVA, SZ_4K, NULL), -EINVAL);
	assert_int_equal(pt_protect(pgd, KVA + 8, SZ_4K, PAGE_KERNEL, &alloc), -EINVAL);
	assert_int_equal(pt_protect(pgd, hole, SZ_4K, PAGE_KERNEL, &alloc), -EINVAL);
	assert_int_equal(pt_protect(pgd, TOP_PAGE, 2 * SZ_4K, PAGE_KERNEL, &alloc), -EINVAL);
	assert_int_equal(pt_protect(pgd, KVA, SZ_4K, _PAGE_RW, &alloc), -EINVAL);
	assert_int_equal(pt_protect(pgd, KVA, SZ_4K, PAGE_KERNEL | _PAGE_PSE, &alloc), -EINVAL);
	assert_int_equal(pt_protect(NULL, KVA, SZ_4K, PAGE_KERNEL, &alloc), -EINVAL);

	/* lookup and walk */
	assert_int_equal(pt_lookup(pgd, hole, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(pt_lookup(NULL, KVA, NULL, NULL, NULL), -EINVAL);
	assert_null(pt_walk(pgd, hole, PAGE_KERNEL, &alloc, NULL));
	assert_null(pt_walk(NULL, KVA, PAGE_KERNEL, &alloc, NULL));
	assert_int_equal(fp.in_use, 1);

	/* The edges themselves are fine: a range may end at the top of the
	 * address space, and a 2 MiB page may be the last one. */
	assert_int_equal(pt_map(pgd, TOP_PAGE - SZ_4K, 0x2000, 2 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), 0);
	expect_mapped(~0ul, 0x3fff, PAGE_KERNEL, PG_LEVEL_4K);
	assert_int_equal(pt_unmap(pgd, TOP_PAGE - SZ_4K, 2 * SZ_4K, &alloc), 0);
	assert_int_equal(pt_map(pgd, 0ul - SZ_2M, SZ_2M, SZ_2M, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_mapped(~0ul, 2 * SZ_2M - 1, PAGE_KERNEL, PG_LEVEL_2M);
	assert_int_equal(pt_protect(pgd, TOP_PAGE, SZ_4K, PAGE_KERNEL_RO, &alloc), 0);
	expect_mapped(~0ul, 2 * SZ_2M - 1, PAGE_KERNEL_RO, PG_LEVEL_4K);
	assert_int_equal(pt_map(pgd, hole - SZ_2M, SZ_2M, SZ_2M, PAGE_KERNEL,
				PG_LEVEL_2M, &alloc), 0);
	expect_mapped(hole - 1, 2 * SZ_2M - 1, PAGE_KERNEL, PG_LEVEL_2M);
	assert_int_equal(pt_map(pgd, KVA, phys_end - SZ_4K, SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), 0);
	expect_mapped(KVA, phys_end - SZ_4K, PAGE_KERNEL, PG_LEVEL_4K);
	unmap_all();
}

/* Out of table memory: pt_map() leaves the range unmapped, whatever the
 * point of failure, and frees what it allocated. */
static void test_enomem_map(void **state)
{
	/* Two pages each side of a PGD boundary: PUD, PMD, PT on each side. */
	unsigned long va = DIRECT_VA + (1ul << 39) - 2 * SZ_4K;
	int budget;

	(void)state;
	assert_int_equal(pt_map(pgd, va - SZ_4K, 0x1000, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K,
				&alloc), 0);
	assert_int_equal(fp.in_use, 4);
	for (budget = 0; budget < 3; budget++) {
		fp.budget = budget;
		assert_int_equal(pt_map(pgd, va, 0x10000, 4 * SZ_4K, PAGE_KERNEL,
					PG_LEVEL_4K, &alloc), -ENOMEM);
		fp.budget = UNLIMITED;
		assert_int_equal(fp.in_use, 4);
		expect_mapped(va - SZ_4K, 0x1000, PAGE_KERNEL, PG_LEVEL_4K);
		expect_unmapped(va);
		expect_unmapped(va + 2 * SZ_4K);
		check_tables();
	}
	fp.budget = 3;
	assert_int_equal(pt_map(pgd, va, 0x10000, 4 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K,
				&alloc), 0);
	expect_range(va, 0x10000, 4 * SZ_4K, PAGE_KERNEL, PG_LEVEL_4K);
	assert_int_equal(fp.in_use, 7);
	fp.budget = UNLIMITED;
	unmap_all();

	/* And in an empty address space, a range of 2M and 4K pieces. */
	for (budget = 0; budget < 5; budget++) {
		fp.budget = budget;
		assert_int_equal(pt_map(pgd, va - SZ_2M, 0, 2 * SZ_2M + 2 * SZ_4K,
					PAGE_KERNEL, PG_LEVEL_2M, &alloc), -ENOMEM);
		fp.budget = UNLIMITED;
		assert_int_equal(fp.in_use, 1);
		assert_true(table_is_empty(pgd));
	}
	assert_null(pt_alloc_pgd(&(struct pt_allocator){ fake_alloc, fake_free,
				 &(struct fake_phys){ .budget = 0 } }));
	unmap_all();
}

/* Out of table memory while splitting: unmap and protect stop at the large
 * page, having done the range before it. */
static void test_enomem_split(void **state)
{
	(void)state;
	assert_int_equal(pt_map(pgd, KVA - 4 * SZ_4K, 0x1000, 4 * SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), 0);
	assert_int_equal(pt_map(pgd, KVA, SZ_1G, SZ_1G, PAGE_KERNEL, PG_LEVEL_1G, &alloc), 0);
	assert_int_equal(fp.in_use, 5);		/* PGD, 2 PUD, PMD, PT */
	fp.budget = 0;

	assert_int_equal(pt_protect(pgd, KVA - 2 * SZ_4K, 3 * SZ_4K, PAGE_KERNEL_RO,
				    &alloc), -ENOMEM);
	expect_mapped(KVA - 3 * SZ_4K, 0x2000, PAGE_KERNEL, PG_LEVEL_4K);
	expect_range(KVA - 2 * SZ_4K, 0x3000, 2 * SZ_4K, PAGE_KERNEL_RO, PG_LEVEL_4K);
	expect_range(KVA, SZ_1G, SZ_2M, PAGE_KERNEL, PG_LEVEL_1G);

	/* 1 GiB -> 2 MiB succeeds with one page, 2 MiB -> 4 KiB fails:
	 * still all mapped the same. */
	fp.budget = 1;
	assert_int_equal(pt_protect(pgd, KVA, SZ_4K, PAGE_KERNEL_RO, &alloc), -ENOMEM);
	expect_range(KVA, SZ_1G, 2 * SZ_4K, PAGE_KERNEL, PG_LEVEL_2M);
	expect_mapped(KVA + SZ_1G - 1, 2 * SZ_1G - 1, PAGE_KERNEL, PG_LEVEL_2M);
	assert_int_equal(fp.in_use, 6);

	assert_int_equal(pt_unmap(pgd, KVA - 4 * SZ_4K, 5 * SZ_4K, &alloc), -ENOMEM);
	expect_unmapped(KVA - 4 * SZ_4K);
	expect_unmapped(KVA - SZ_4K);
	expect_range(KVA, SZ_1G, 2 * SZ_4K, PAGE_KERNEL, PG_LEVEL_2M);
	assert_int_equal(fp.in_use, 3);		/* the emptied PT, PMD, PUD freed */
	assert_null(pt_walk(pgd, USER_VA, PAGE_SHARED, &alloc, NULL));
	assert_int_equal(fp.in_use, 3);

	fp.budget = UNLIMITED;
	unmap_all();
}

/* ---- TLB flushes ------------------------------------------------------------ */

/* Run ops on pgd p, live or not; return the number of flushes. */
static unsigned long flushes_for(pte_t *p, bool live)
{
	unsigned long before = host_tlb_flushes;

	host_live_pgd = live ? p : NULL;
	/* Filling empty entries needs no flush. */
	assert_int_equal(pt_map(p, KVA, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), 0);
	assert_int_equal(pt_map(p, KVA + SZ_2M, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M, &alloc), 0);
	assert_int_equal(host_tlb_flushes, before);
	/* 1: the leaf */
	assert_int_equal(pt_protect(p, KVA, SZ_4K, PAGE_KERNEL_RO, &alloc), 0);
	/* 0: unchanged */
	assert_int_equal(pt_protect(p, KVA, SZ_4K, PAGE_KERNEL_RO, &alloc), 0);
	/* 2: the split 2M entry, then the leaf */
	assert_int_equal(pt_unmap(p, KVA + SZ_2M, SZ_4K, &alloc), 0);
	/* 3: PGD, PUD and PMD entries gain _PAGE_USER */
	assert_int_equal(pt_map(p, KVA + SZ_4K, 0, SZ_4K, PAGE_SHARED, PG_LEVEL_4K, &alloc), 0);
	/* 2 leaves, the 2 emptied PT, the PMD, the PUD: 6, and 511 leaves */
	assert_int_equal(pt_unmap(p, KVA, SZ_1G, &alloc), 0);
	return host_tlb_flushes - before;
}

static void test_tlb_flush(void **state)
{
	pte_t *other = pt_alloc_pgd(&alloc);

	(void)state;
	assert_int_equal(flushes_for(pgd, true), 1 + 2 + 3 + 6 + 511);
	assert_int_equal(flushes_for(other, false), 0);
	assert_int_equal(flushes_for(other, true), 1 + 2 + 3 + 6 + 511);
	assert_int_equal(flushes_for(pgd, false), 0);
	assert_true(table_is_empty(other));
	fake_free((uintptr_t)other - host_phys_base, &fp);
	flush_tlb_all();
	assert_int_equal(host_tlb_flushes, 2 * (1 + 2 + 3 + 6 + 511) + 1);
	unmap_all();
}

/* ---- protections ------------------------------------------------------------ */

static void test_user_propagation(void **state)
{
	enum pg_level l;
	uint64_t prot;

	(void)state;
	assert_int_equal(pt_map(pgd, USER_VA, 0x1000, SZ_4K, PAGE_SHARED_EXEC, PG_LEVEL_4K,
				&alloc), 0);
	for (l = PG_LEVEL_512G; l > PG_LEVEL_4K; l--)
		assert_int_equal(*entry_at(USER_VA, l) & PTE_FLAGS_MASK, _PAGE_TABLE);
	expect_mapped(USER_VA, 0x1000, PAGE_SHARED_EXEC, PG_LEVEL_4K);

	/* A kernel page elsewhere: no _PAGE_USER on its way. */
	assert_int_equal(pt_map(pgd, USER_VA + SZ_1G, 0x2000, SZ_4K, PAGE_KERNEL,
				PG_LEVEL_4K, &alloc), 0);
	assert_int_equal(*entry_at(USER_VA + SZ_1G, PG_LEVEL_1G) & PTE_FLAGS_MASK,
			 _KERNPG_TABLE);
	assert_int_equal(*entry_at(USER_VA + SZ_1G, PG_LEVEL_2M) & PTE_FLAGS_MASK,
			 _KERNPG_TABLE);

	/* A user page next to it opens the way; the kernel page stays kernel. */
	assert_int_equal(pt_map(pgd, USER_VA + SZ_1G + SZ_4K, 0x3000, SZ_2M - SZ_4K,
				PAGE_READONLY, PG_LEVEL_2M, &alloc), 0);
	for (l = PG_LEVEL_512G; l > PG_LEVEL_4K; l--)
		assert_int_equal(*entry_at(USER_VA + SZ_1G, l) & PTE_FLAGS_MASK, _PAGE_TABLE);
	expect_mapped(USER_VA + SZ_1G, 0x2000, PAGE_KERNEL, PG_LEVEL_4K);
	expect_mapped(USER_VA + SZ_1G + SZ_4K, 0x3000, PAGE_READONLY, PG_LEVEL_4K);

	/* Protecting to a user protection opens the way too. */
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M, &alloc), 0);
	assert_int_equal(pt_protect(pgd, KVA, SZ_2M, PAGE_SHARED, &alloc), 0);
	assert_int_equal(*entry_at(KVA, PG_LEVEL_1G) & PTE_FLAGS_MASK, _PAGE_TABLE);
	expect_mapped(KVA, 0, PAGE_SHARED | _PAGE_DIRTY, PG_LEVEL_2M);

	/* pt_lookup() reports what the CPU enforces across all levels. */
	*entry_at(USER_VA, PG_LEVEL_1G) &= ~(_PAGE_RW | _PAGE_USER);
	*entry_at(USER_VA, PG_LEVEL_2M) |= _PAGE_NX;
	assert_int_equal(pt_lookup(pgd, USER_VA, NULL, &prot, NULL), 0);
	assert_int_equal(prot, (PAGE_SHARED_EXEC & ~(_PAGE_RW | _PAGE_USER)) | _PAGE_NX);
	/* ...and mapping below such entries opens them again. */
	assert_int_equal(pt_map(pgd, USER_VA + SZ_4K, 0x4000, SZ_4K, PAGE_SHARED,
				PG_LEVEL_4K, &alloc), 0);
	expect_mapped(USER_VA, 0x1000, PAGE_SHARED_EXEC, PG_LEVEL_4K);
	expect_mapped(USER_VA + SZ_4K, 0x4000, PAGE_SHARED, PG_LEVEL_4K);
	unmap_all();
}

/* Without NX support no entry gets _PAGE_NX. */
static void test_nx_mask(void **state)
{
	(void)state;
	__supported_pte_mask &= ~_PAGE_NX;
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_4K, PAGE_KERNEL, PG_LEVEL_4K, &alloc), 0);
	assert_int_equal(pt_map(pgd, KVA + SZ_2M, 0, SZ_2M, PAGE_SHARED, PG_LEVEL_2M,
				&alloc), 0);
	assert_int_equal(*entry_at(KVA, PG_LEVEL_4K), PAGE_KERNEL & ~_PAGE_NX);
	assert_int_equal(*entry_at(KVA + SZ_2M, PG_LEVEL_2M),
			 (PAGE_SHARED & ~_PAGE_NX) | _PAGE_PSE);
	expect_mapped(KVA, 0, PAGE_KERNEL & ~_PAGE_NX, PG_LEVEL_4K);
	assert_int_equal(pt_protect(pgd, KVA, 2 * SZ_2M, PAGE_KERNEL_RO, &alloc), 0);
	expect_mapped(KVA, 0, PAGE_KERNEL_RO & ~_PAGE_NX, PG_LEVEL_4K);
	expect_mapped(KVA + SZ_2M, 0, (PAGE_KERNEL_RO & ~_PAGE_NX), PG_LEVEL_2M);
	assert_false(*entry_at(KVA + SZ_2M, PG_LEVEL_2M) & _PAGE_NX);

	__supported_pte_mask = ~0ull;
	assert_int_equal(pt_protect(pgd, KVA, SZ_4K, PAGE_KERNEL_RO, &alloc), 0);
	expect_mapped(KVA, 0, PAGE_KERNEL_RO, PG_LEVEL_4K);
	unmap_all();
}

/* ---- pt_walk ---------------------------------------------------------------- */

static void test_walk(void **state)
{
	enum pg_level level;
	pte_t *e;

	(void)state;
	assert_null(pt_walk(pgd, USER_VA, PAGE_SHARED, NULL, &level));
	assert_int_equal(fp.in_use, 1);

	/* With an allocator: the tables appear, the PTE is empty. */
	e = pt_walk(pgd, USER_VA, PAGE_SHARED, &alloc, &level);
	assert_non_null(e);
	assert_int_equal(*e, 0);
	assert_int_equal(level, PG_LEVEL_4K);
	assert_int_equal(fp.in_use, 4);
	assert_int_equal(*entry_at(USER_VA, PG_LEVEL_2M) & PTE_FLAGS_MASK, _PAGE_TABLE);
	*e = 0x7000 | PAGE_SHARED;
	expect_mapped(USER_VA + 5, 0x7005, PAGE_SHARED, PG_LEVEL_4K);
	assert_ptr_equal(pt_walk(pgd, USER_VA, 0, NULL, NULL), e);
	assert_ptr_equal(pt_walk(pgd, USER_VA + SZ_4K, 0, NULL, NULL), e + 1);

	/* Large leaves are returned as they are. */
	assert_int_equal(pt_map(pgd, KVA, 0, SZ_2M, PAGE_KERNEL, PG_LEVEL_2M, &alloc), 0);
	assert_int_equal(pt_map(pgd, DIRECT_VA, 0, SZ_1G, PAGE_KERNEL, PG_LEVEL_1G, &alloc), 0);
	e = pt_walk(pgd, KVA + 0x1000, 0, &alloc, &level);
	assert_int_equal(level, PG_LEVEL_2M);
	assert_ptr_equal(e, entry_at(KVA, PG_LEVEL_2M));
	assert_true(*e & _PAGE_PSE);
	e = pt_walk(pgd, DIRECT_VA + SZ_2M, 0, NULL, &level);
	assert_int_equal(level, PG_LEVEL_1G);
	assert_ptr_equal(e, entry_at(DIRECT_VA, PG_LEVEL_1G));

	/* Out of memory midway: the tables made so far stay, empty, and
	 * pt_unmap() over the address frees them. */
	fp.budget = 1;
	assert_null(pt_walk(pgd, KVA + SZ_1G, PAGE_KERNEL, &alloc, NULL));
	fp.budget = UNLIMITED;
	assert_int_equal(fp.in_use, 8);
	assert_int_equal(pt_unmap(pgd, KVA + SZ_1G, SZ_4K, &alloc), 0);
	assert_int_equal(fp.in_use, 7);
	unmap_all();
}

/* ---- randomized, against a per-page oracle -------------------------------- */

#define RND_PAGES	4096			/* 16 MiB... */
#define RND_BASE	(0xffff808000000000ul - 8 * SZ_2M)	/* ...across a PGD boundary */
#define RND_OPS		3000

struct page_state {
	bool mapped;
	phys_addr_t pa;
	uint64_t prot;
};

static struct page_state oracle[RND_PAGES];
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static struct page_state actual(int i)
{
	struct page_state s = { false, 0, 0 };

	s.mapped = pt_lookup(pgd, RND_BASE + i * SZ_4K, &s.pa, &s.prot, NULL) == 0;
	return s;
}

static bool same(struct page_state a, struct page_state b)
{
	return a.mapped == b.mapped && (!a.mapped || (a.pa == b.pa && a.prot == b.prot));
}

static void check_oracle(void)
{
	int i;

	for (i = 0; i < RND_PAGES; i++)
		assert_true(same(actual(i), oracle[i]));
	check_tables();
}

/*
 * After an unmap or protect of pages [first, first+n) that failed with
 * -ENOMEM: each page is in its old or its new state, and the done ones form
 * a prefix.  Then take the actual state as the oracle's.
 */
static void check_prefix(int first, int n, const struct page_state *want)
{
	bool stopped = false;
	int i;

	for (i = first; i < first + n; i++) {
		struct page_state s = actual(i);

		if (same(oracle[i], want[i - first]))
			continue;
		if (same(s, want[i - first])) {
			assert_false(stopped);
		} else {
			assert_true(same(s, oracle[i]));
			stopped = true;
		}
		oracle[i] = s;
	}
}

static void test_random(void **state)
{
	static const uint64_t prots[] = {
		PAGE_KERNEL, PAGE_KERNEL_RO, PAGE_KERNEL_RX, PAGE_KERNEL_EXEC,
		PAGE_SHARED, PAGE_READONLY, PAGE_READONLY_EXEC, PAGE_KERNEL_NOCACHE,
	};
	static struct page_state want[RND_PAGES];
	int op, i, counts[3][2] = { { 0 } };

	(void)state;
	host_live_pgd = pgd;
	for (op = 0; op < RND_OPS; op++) {
		int first, n, kind = rnd() % 3, rc;
		uint64_t prot = prots[rnd() % ARRAY_SIZE(prots)];
		unsigned long va;
		phys_addr_t pa;

		/* Often whole 2 MiB blocks, so that large pages appear. */
		if (rnd() % 2 == 0) {
			first = rnd() % (RND_PAGES / 512) * 512;
			n = (1 + rnd() % 3) * 512;
		} else {
			first = rnd() % RND_PAGES;
			n = 1 + rnd() % (rnd() % 2 ? 16 : 1100);
		}
		n = MIN(n, RND_PAGES - first);
		va = RND_BASE + first * SZ_4K;
		if (rnd() % 4 == 0)
			fp.budget = rnd() % 2;

		if (kind == 0) {
			bool busy = false;

			pa = (rnd() % (1ull << 30)) * SZ_2M;
			pa += rnd() % 2 ? va & (SZ_2M - 1) : rnd() % 512 * SZ_4K;
			for (i = first; i < first + n; i++)
				busy |= oracle[i].mapped;
			rc = pt_map(pgd, va, pa, n * SZ_4K, prot,
				    rnd() % 2 ? PG_LEVEL_2M : PG_LEVEL_4K, &alloc);
			if (busy) {
				assert_int_equal(rc, -EEXIST);
			} else if (rc != -ENOMEM) {
				assert_int_equal(rc, 0);
				for (i = first; i < first + n; i++)
					oracle[i] = (struct page_state){
						true, pa + (i - first) * SZ_4K, prot };
			}
		} else {
			for (i = first; i < first + n; i++) {
				want[i - first] = oracle[i];
				if (kind == 1)
					want[i - first].mapped = false;
				else if (oracle[i].mapped)
					want[i - first].prot = prot |
						(oracle[i].prot & (_PAGE_ACCESSED | _PAGE_DIRTY));
			}
			rc = kind == 1 ? pt_unmap(pgd, va, n * SZ_4K, &alloc)
				       : pt_protect(pgd, va, n * SZ_4K, prot, &alloc);
			if (rc == -ENOMEM) {
				check_prefix(first, n, want);
			} else {
				assert_int_equal(rc, 0);
				memcpy(&oracle[first], want, n * sizeof(want[0]));
			}
		}
		assert_true(rc != -ENOMEM || fp.budget != UNLIMITED);
		counts[kind][rc == -ENOMEM]++;
		fp.budget = UNLIMITED;
		check_oracle();
	}
	/* Every kind of operation both succeeded and ran out of memory. */
	for (i = 0; i < 3; i++)
		assert_true(counts[i][0] > 0 && counts[i][1] > 0);
	assert_int_equal(pt_unmap(pgd, RND_BASE, RND_PAGES * SZ_4K, &alloc), 0);
	assert_int_equal(fp.in_use, 1);
	unmap_all();
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_map_4k),
		TEST(test_map_2m),
		TEST(test_map_1g),
		TEST(test_large_only_when_aligned),
		TEST(test_mixed_range),
		TEST(test_unmap_splits_2m),
		TEST(test_unmap_splits_1g),
		TEST(test_unmap_frees_tables),
		TEST(test_protect),
		TEST(test_eexist),
		TEST(test_einval),
		TEST(test_enomem_map),
		TEST(test_enomem_split),
		TEST(test_tlb_flush),
		TEST(test_user_propagation),
		TEST(test_nx_mask),
		TEST(test_walk),
		TEST(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
