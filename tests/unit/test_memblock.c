/* Unit tests of mm/memblock.c: region lists, free ranges, allocation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <mm/memblock.h>
#include <uapi/errno.h>

#define MiB (1ull << 20)

static int setup(void **state)
{
	(void)state;
	memblock_init();
	return 0;
}

static void assert_region(const struct memblock_type *t, unsigned long i,
			  phys_addr_t base, phys_addr_t size)
{
	assert_true(i < t->cnt);
	assert_int_equal(t->regions[i].base, base);
	assert_int_equal(t->regions[i].size, size);
}

static void test_add_sorts_and_merges(void **state)
{
	(void)state;
	assert_int_equal(memblock_add(8 * MiB, MiB), 0);
	assert_int_equal(memblock_add(0, MiB), 0);
	assert_int_equal(memblock.memory.cnt, 2);
	assert_region(&memblock.memory, 0, 0, MiB);
	assert_region(&memblock.memory, 1, 8 * MiB, MiB);

	/* Touching merges; overlapping several merges them all. */
	assert_int_equal(memblock_add(MiB, MiB), 0);
	assert_region(&memblock.memory, 0, 0, 2 * MiB);
	assert_int_equal(memblock_add(MiB, 8 * MiB), 0);
	assert_int_equal(memblock.memory.cnt, 1);
	assert_region(&memblock.memory, 0, 0, 9 * MiB);
	assert_int_equal(memblock_phys_mem_size(), 9 * MiB);
	assert_int_equal(memblock_end_of_DRAM(), 9 * MiB);
}

static void test_bad_ranges(void **state)
{
	unsigned long i;

	(void)state;
	assert_int_equal(memblock_add(~0ull - 10, 100), -EINVAL);
	assert_int_equal(memblock_add(5 * MiB, 0), 0);
	assert_int_equal(memblock.memory.cnt, 0);
	for (i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		assert_int_equal(memblock_add(i * 2 * MiB, MiB), 0);
	assert_int_equal(memblock_add(1000 * MiB, MiB), -ENOSPC);
	assert_int_equal(memblock.memory.cnt, MEMBLOCK_MAX_REGIONS);
	/* Merging into an existing region still works when full. */
	assert_int_equal(memblock_add(MiB, MiB), 0);
	assert_int_equal(memblock.memory.cnt, MEMBLOCK_MAX_REGIONS - 1);
}

static void test_free_ranges(void **state)
{
	phys_addr_t s, e;
	uint64_t i = 0;

	(void)state;
	memblock_add(0, 4 * MiB);
	memblock_add(16 * MiB, 4 * MiB);
	memblock_reserve(MiB, MiB);		/* inside the first */
	memblock_reserve(3 * MiB, 14 * MiB);	/* spans the hole into the second */
	memblock_reserve(100 * MiB, MiB);	/* outside memory */

	assert_true(memblock_next_free_range(&i, &s, &e));
	assert_int_equal(s, 0);
	assert_int_equal(e, MiB);
	assert_true(memblock_next_free_range(&i, &s, &e));
	assert_int_equal(s, 2 * MiB);
	assert_int_equal(e, 3 * MiB);
	assert_true(memblock_next_free_range(&i, &s, &e));
	assert_int_equal(s, 17 * MiB);
	assert_int_equal(e, 20 * MiB);
	assert_false(memblock_next_free_range(&i, &s, &e));
}

static void test_alloc_top_down_in_range(void **state)
{
	phys_addr_t a, b;

	(void)state;
	memblock_add(0, 64 * MiB);
	memblock_reserve(60 * MiB, 4 * MiB);
	a = memblock_phys_alloc_range(4096, 4096, 0, MEMBLOCK_ALLOC_ANYWHERE);
	assert_int_equal(a, 60 * MiB - 4096);
	b = memblock_phys_alloc_range(3 * MiB, 2 * MiB, 0, 32 * MiB);
	assert_int_equal(b, 28 * MiB);
	assert_int_equal(memblock_reserved_size(), 4 * MiB + 4096 + 3 * MiB);
	/* Nothing fits: 0, and nothing reserved. */
	assert_int_equal(memblock_phys_alloc_range(128 * MiB, 4096, 0, MEMBLOCK_ALLOC_ANYWHERE), 0);
	assert_int_equal(memblock_phys_alloc_range(4096, 3, 0, MEMBLOCK_ALLOC_ANYWHERE), 0);
	assert_int_equal(memblock_reserved_size(), 4 * MiB + 4096 + 3 * MiB);
}

static void test_alloc_never_returns_zero(void **state)
{
	phys_addr_t a;

	(void)state;
	memblock_add(0, 8192);
	a = memblock_phys_alloc_range(4096, 4096, 0, MEMBLOCK_ALLOC_ANYWHERE);
	assert_int_equal(a, 4096);
	assert_int_equal(memblock_phys_alloc_range(4096, 4096, 0, MEMBLOCK_ALLOC_ANYWHERE), 0);
}

/* Random allocations never overlap each other or reserved memory. */
static void test_alloc_random_no_overlap(void **state)
{
	phys_addr_t got[200], sz[200];
	int n = 0, i, j;

	(void)state;
	srand(7);
	memblock_add(MiB, 31 * MiB);
	memblock_add(40 * MiB, 8 * MiB);
	memblock_reserve(2 * MiB, MiB);
	for (i = 0; i < 200; i++) {
		phys_addr_t size = (phys_addr_t)(rand() % 64 + 1) * 4096;
		phys_addr_t align = 4096ull << (rand() % 4);
		phys_addr_t a = memblock_phys_alloc_range(size, align, 0, MEMBLOCK_ALLOC_ANYWHERE);

		if (!a)
			continue;
		assert_int_equal(a % align, 0);
		assert_false(a < 3 * MiB && a + size > 2 * MiB);
		assert_true((a >= MiB && a + size <= 32 * MiB) || (a >= 40 * MiB && a + size <= 48 * MiB));
		for (j = 0; j < n; j++)
			assert_true(a + size <= got[j] || got[j] + sz[j] <= a);
		got[n] = a;
		sz[n++] = size;
	}
	assert_true(n > 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_add_sorts_and_merges, setup),
		cmocka_unit_test_setup(test_bad_ranges, setup),
		cmocka_unit_test_setup(test_free_ranges, setup),
		cmocka_unit_test_setup(test_alloc_top_down_in_range, setup),
		cmocka_unit_test_setup(test_alloc_never_returns_zero, setup),
		cmocka_unit_test_setup(test_alloc_random_no_overlap, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
