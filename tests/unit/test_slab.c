/*
 * Host unit tests for the slab allocator (mm/slab.c), built with
 * -DHOST_TEST on the fake page allocator of fake_machine.c: first-fit,
 * with a limit the tests can lower to make it run dry (fake_pages_limit),
 * checking at free what Linux's free_pages_check() does, and poisoning
 * free pages for AddressSanitizer, so the slab allocator touching a page
 * it gave back is a test failure.
 *
 * panic() and printk() are the shared stubs of kernel_stubs.c: panic()
 * longjmps back into expect_panic(), which checks the message.
 * The kernel's panic never returns; this one leaves a function that may
 * hold a cache's lock, so tests release it with unlock_after_panic().
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <mm/mm.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>

#include "fake_machine.h"
#include "kernel_stubs.h"

/* --- slab accounting, and recovery from panics ---------------------------- */

static long slab_pages_counted(void)
{
	long sum = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++)
		sum += contig_page_data.node_zones[z].vm_stat[NR_SLAB_UNRECLAIMABLE];
	return sum;
}

/* NR_SLAB_UNRECLAIMABLE must match the PG_slab pages in mem_map. */
static void check_slab_accounting(void)
{
	long slab_pages = 0;
	unsigned long pfn;

	for (pfn = 0; pfn < FAKE_MACHINE_PAGES; pfn++)
		if (PageSlab(&mem_map[pfn]))
			slab_pages++;
	assert_int_equal(slab_pages_counted(), slab_pages);
}

/* The panicking function held cachep's lock; the real kernel never came back. */
static void unlock_after_panic(struct kmem_cache *cachep)
{
	cachep->lock.locked = false;
}

/* --- helpers --------------------------------------------------------------- */

static struct kmem_cache *kmalloc_cache(size_t size)
{
	struct cache_sizes *cs = malloc_sizes;

	while (size > cs->cs_size)
		cs++;
	return cs->cs_cachep;
}

/* Give every empty slab of the kmalloc caches back. */
static void shrink_all(void)
{
	struct cache_sizes *cs;

	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
}

static bool all_bytes(const void *p, int c, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != c)
			return false;
	return true;
}

/* A fixed-seed generator, so a failing sequence can be replayed. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int setup(void **state)
{
	(void)state;
	shrink_all();
	check_slab_accounting();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_pages_limit = FAKE_MACHINE_PAGES;
	check_slab_accounting();
	return 0;
}

/* --- tests ----------------------------------------------------------------- */

static void test_size_classes(void **state)
{
	static const size_t classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096 };
	unsigned long before = fake_pages_in_use();
	struct kmem_cache *cachep;
	char name[32];
	size_t i, prev = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		size_t size = classes[i], align = size & -size, asks[] = { prev + 1, size };
		unsigned int a;

		assert_int_equal(malloc_sizes[i].cs_size, size);
		snprintf(name, sizeof(name), "kmalloc-%zu", size);
		cachep = malloc_sizes[i].cs_cachep;
		assert_string_equal(cachep->name, name);
		/* At least three quarters of every slab are objects. */
		assert_true(4 * cachep->num * size >= 3 * (PAGE_SIZE << cachep->gfporder));
		for (a = 0; a < ARRAY_SIZE(asks); a++) {
			unsigned char *p = kmalloc(asks[a], GFP_KERNEL);

			assert_non_null(p);
			assert_true(PageSlab(virt_to_page(p)));
			assert_int_equal(ksize(p), size);
			assert_int_equal((uintptr_t)p % align, 0);
			assert_true(all_bytes(p, POISON_INUSE, size));
			memset(p, 0x11, size);
			kfree(p);
		}
		prev = size;
	}
	assert_int_equal(malloc_sizes[ARRAY_SIZE(classes)].cs_size, SIZE_MAX);
	check_slab_accounting();
	shrink_all();
	assert_int_equal(fake_pages_in_use(), before);
}

static void test_zero_size_and_null(void **state)
{
	(void)state;
	assert_ptr_equal(kmalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	assert_ptr_equal(kzalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	assert_int_equal(ksize(NULL), 0);
	assert_int_equal(ksize(ZERO_SIZE_PTR), 0);
	kmem_cache_destroy(NULL);
}

static void test_kzalloc_zeroes(void **state)
{
	static const size_t sizes[] = { 1, 8, 50, 96, 200, 1000, 4096, 5000, 3 * PAGE_SIZE };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned char *p = kmalloc(sizes[i], GFP_KERNEL);

		/* Dirty the memory, so kzalloc gets it back and must clear it. */
		memset(p, 0xff, ksize(p));
		kfree(p);
		p = kzalloc(sizes[i], GFP_KERNEL);
		assert_non_null(p);
		assert_true(all_bytes(p, 0, ksize(p)));
		kfree(p);
	}
}

static void test_alignment(void **state)
{
	struct kmem_cache *c64 = kmem_cache_create("align-64", 20, 64, 0, NULL);
	struct kmem_cache *hw = kmem_cache_create("hwcache", 100, 0, SLAB_HWCACHE_ALIGN, NULL);
	struct kmem_cache *hw_small = kmem_cache_create("hwcache-small", 20, 0, SLAB_HWCACHE_ALIGN, NULL);
	struct kmem_cache *odd = kmem_cache_create("odd", 13, 0, 0, NULL);
	struct kmem_cache *caches[] = { c64, hw, hw_small, odd };
	const size_t aligns[] = { 64, 64, 32, 8 }, sizes[] = { 64, 128, 32, 16 };
	void *objs[4][40];
	unsigned int c, i;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(caches); c++) {
		assert_non_null(caches[c]);
		assert_int_equal(caches[c]->buffer_size, sizes[c]);
		for (i = 0; i < 40; i++) {
			objs[c][i] = kmem_cache_alloc(caches[c], GFP_KERNEL);
			assert_non_null(objs[c][i]);
			assert_int_equal((uintptr_t)objs[c][i] % aligns[c], 0);
			assert_int_equal(ksize(objs[c][i]), sizes[c]);
		}
	}
	for (c = 0; c < ARRAY_SIZE(caches); c++) {
		for (i = 0; i < 40; i++)
			kmem_cache_free(caches[c], objs[c][i]);
		kmem_cache_destroy(caches[c]);
	}

	/* Parameters that cannot work fail with NULL. */
	assert_null(kmem_cache_create("align-48", 20, 48, 0, NULL));
	assert_null(kmem_cache_create("align-2pages", 20, 2 * PAGE_SIZE, 0, NULL));
	assert_null(kmem_cache_create("empty", 0, 0, 0, NULL));
	assert_null(kmem_cache_create("huge", KMALLOC_MAX_SIZE + 1, 0, 0, NULL));
	assert_null(kmem_cache_create(NULL, 8, 0, 0, NULL));
}

static void test_big_objects_cache(void **state)
{
	struct kmem_cache *c = kmem_cache_create("big", 10000, 0, 0, NULL);
	unsigned long before = fake_pages_in_use();
	unsigned char *a, *b;

	(void)state;
	assert_non_null(c);
	assert_true(c->gfporder >= 2);
	assert_true(c->num >= 1);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	assert_true(a + 10000 <= b || b + 10000 <= a);
	memset(a, 1, 10000);
	memset(b, 2, 10000);
	/* kfree works on objects of any cache; the middle of a slab is still found. */
	assert_true(PageSlab(virt_to_page(a + 9999)));
	kfree(a);
	kmem_cache_free(c, b);
	assert_int_equal(fake_pages_in_use(), before + (1ul << c->gfporder));
	kmem_cache_destroy(c);
	assert_int_equal(fake_pages_in_use(), before);
}

/* A live allocation in the oracle. */
struct live {
	unsigned char *p;
	size_t size;
	unsigned char seed;
};

static void fill(const struct live *l)
{
	size_t i;

	for (i = 0; i < l->size; i++)
		l->p[i] = (unsigned char)(l->seed + i * 7);
}

static void verify(const struct live *l)
{
	size_t i;

	for (i = 0; i < l->size; i++)
		if (l->p[i] != (unsigned char)(l->seed + i * 7))
			fail_msg("object %p (%zu bytes) changed at byte %zu", (void *)l->p, l->size, i);
}

static size_t random_size(void)
{
	unsigned int r = rng() % 100;

	if (r < 70)
		return 1 + rng() % 256;
	if (r < 95)
		return 257 + rng() % (4096 - 256);
	return 4097 + rng() % (3 * PAGE_SIZE);
}

static void test_random_against_oracle(void **state)
{
	enum { MAX_LIVE = 600, STEPS = 30000 };
	static struct live live[MAX_LIVE];
	unsigned long before = fake_pages_in_use();
	unsigned int nr_live = 0, step, i;

	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	for (step = 0; step < STEPS; step++) {
		bool alloc = nr_live == 0 || (nr_live < MAX_LIVE && rng() % 100 < 55);

		if (alloc) {
			struct live *l = &live[nr_live];

			l->size = random_size();
			l->seed = (unsigned char)rng();
			l->p = kmalloc(l->size, GFP_KERNEL);
			assert_non_null(l->p);
			assert_true(ksize(l->p) >= l->size);
			assert_int_equal((uintptr_t)l->p % 8, 0);
			if (l->size <= KMALLOC_MAX_CACHE_SIZE)
				assert_true(all_bytes(l->p, POISON_INUSE, l->size));
			for (i = 0; i < nr_live; i++)
				if (l->p < live[i].p + live[i].size && live[i].p < l->p + l->size)
					fail_msg("%p overlaps %p", (void *)l->p, (void *)live[i].p);
			fill(l);
			nr_live++;
		} else {
			i = rng() % nr_live;
			verify(&live[i]);
			kfree(live[i].p);
			live[i] = live[--nr_live];
		}
		if (step % 5000 == 0)
			check_slab_accounting();
	}
	while (nr_live) {
		verify(&live[--nr_live]);
		kfree(live[nr_live].p);
	}
	check_slab_accounting();
	shrink_all();
	assert_int_equal(fake_pages_in_use(), before);
}

static void test_empty_slabs_returned(void **state)
{
	struct kmem_cache *c = kmem_cache_create("returns", 256, 0, 0, NULL);
	unsigned long before = fake_pages_in_use(), slab_pages;
	long counted = slab_pages_counted();
	void *objs[5 * 16];
	unsigned int i, n;

	(void)state;
	assert_non_null(c);
	assert_int_equal(c->gfporder, 0);
	assert_int_equal(c->num, 15);
	slab_pages = 1ul << c->gfporder;
	n = 5 * c->num;
	for (i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
	assert_int_equal(fake_pages_in_use(), before + 5 * slab_pages);
	assert_int_equal(slab_pages_counted(), counted + 5 * (long)slab_pages);

	/* Freeing all but one object per slab keeps every slab. */
	for (i = 0; i < n; i++)
		if (i % c->num)
			kmem_cache_free(c, objs[i]);
	assert_int_equal(fake_pages_in_use(), before + 5 * slab_pages);
	/* Emptying them keeps one empty slab and gives the rest back. */
	for (i = 0; i < n; i += c->num)
		kmem_cache_free(c, objs[i]);
	assert_int_equal(fake_pages_in_use(), before + slab_pages);
	assert_int_equal(slab_pages_counted(), counted + (long)slab_pages);
	kmem_cache_shrink(c);
	assert_int_equal(fake_pages_in_use(), before);
	assert_int_equal(slab_pages_counted(), counted);

	/* The kept slab is reused before a new one is taken. */
	objs[0] = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, objs[0]);
	assert_int_equal(fake_pages_in_use(), before + slab_pages);
	objs[0] = kmem_cache_alloc(c, GFP_KERNEL);
	assert_int_equal(fake_pages_in_use(), before + slab_pages);
	kmem_cache_free(c, objs[0]);
	kmem_cache_destroy(c);
	assert_int_equal(fake_pages_in_use(), before);
}

static void test_large_kmalloc(void **state)
{
	unsigned long before = fake_pages_in_use();
	long counted = slab_pages_counted();
	unsigned char *p, *max;

	(void)state;
	p = kmalloc(PAGE_SIZE + 1, GFP_KERNEL);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % PAGE_SIZE, 0);
	assert_int_equal(ksize(p), 2 * PAGE_SIZE);
	assert_false(PageSlab(virt_to_page(p)));
	assert_int_equal(fake_pages_in_use(), before + 2);
	assert_int_equal(slab_pages_counted(), counted);
	memset(p, 0x33, 2 * PAGE_SIZE);
	kfree(p);
	assert_int_equal(fake_pages_in_use(), before);

	max = kmalloc(KMALLOC_MAX_SIZE, GFP_KERNEL);
	assert_non_null(max);
	assert_int_equal(ksize(max), KMALLOC_MAX_SIZE);
	assert_int_equal(fake_pages_in_use(), before + (1ul << (MAX_ORDER - 1)));
	kfree(max);
	assert_int_equal(fake_pages_in_use(), before);

	assert_null(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL));
	assert_null(kmalloc(SIZE_MAX, GFP_KERNEL));
	assert_int_equal(fake_pages_in_use(), before);

	/* The page allocator gets the caller's flags, GFP_DMA included. */
	p = kmalloc(5 * PAGE_SIZE, GFP_DMA | __GFP_NOWARN);
	assert_non_null(p);
	assert_int_equal(fake_last_gfp, GFP_DMA | __GFP_NOWARN);
	assert_int_equal(ksize(p), 8 * PAGE_SIZE);
	kfree(p);
	assert_int_equal(fake_pages_in_use(), before);
}

static void test_page_allocator_runs_dry(void **state)
{
	struct kmem_cache *c = kmem_cache_create("dry", 512, 0, 0, NULL);
	void *objs[64];
	unsigned int n = 0, i;

	(void)state;
	assert_non_null(c);
	/* Room for exactly one slab. */
	fake_pages_limit = fake_pages_in_use() + (1ul << c->gfporder);
	while (n < ARRAY_SIZE(objs) && (objs[n] = kmem_cache_alloc(c, GFP_KERNEL)))
		n++;
	assert_int_equal(n, c->num);
	assert_null(kmalloc(64, GFP_KERNEL));		/* kmalloc-64 has no slab */
	assert_null(kzalloc(3000, GFP_KERNEL));
	assert_null(kmalloc(2 * PAGE_SIZE, GFP_KERNEL));
	fake_pages_limit = FAKE_MACHINE_PAGES;
	for (i = 0; i < n; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_destroy(c);
}

static void test_double_free_panics(void **state)
{
	struct kmem_cache *c = kmem_cache_create("twice", 40, 0, 0, NULL);
	void *p = kmalloc(64, GFP_KERNEL), *q = kmem_cache_alloc(c, GFP_KERNEL), *keep;

	(void)state;
	kfree(p);
	expect_panic(kfree(p), "kfree: double free of ");
	assert_non_null(strstr(panic_msg, "(cache kmalloc-64)"));
	unlock_after_panic(kmalloc_cache(64));

	/* A double free of an object whose slab is still in use. */
	keep = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, q);
	expect_panic(kmem_cache_free(c, q), "kmem_cache_free: double free of ");
	assert_non_null(strstr(panic_msg, "(cache twice)"));
	unlock_after_panic(c);

	/* The panics changed nothing: the cache still works. */
	q = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, q);
	kmem_cache_free(c, keep);
	kmem_cache_destroy(c);
}

static void test_bad_pointers_panic(void **state)
{
	struct kmem_cache *a = kmem_cache_create("cache-a", 32, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("cache-b", 32, 0, 0, NULL);
	unsigned char *obj = kmalloc(64, GFP_KERNEL), *large = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	void *in_b = kmem_cache_alloc(b, GFP_KERNEL);
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	int on_stack;

	(void)state;
	expect_panic(kfree(&on_stack), "kfree: bad pointer ");
	assert_non_null(strstr(panic_msg, "not an address of RAM"));
	expect_panic(kfree(obj + 8), "not the start of an object of cache kmalloc-64");
	expect_panic(kfree(obj + 64 + 1), "not the start of an object of cache kmalloc-64");
	/* The slab descriptor, before object 0. */
	expect_panic(kfree((void *)((uintptr_t)obj & PAGE_MASK)), "kfree: bad pointer");
	expect_panic(kfree(page_address(page)), "not allocated by kmalloc");
	expect_panic(kfree(large + PAGE_SIZE), "not allocated by kmalloc");
	expect_panic(kfree(large + 16), "not allocated by kmalloc");
	expect_panic(kmem_cache_free(a, in_b), "object of cache cache-b, not cache-a");
	expect_panic(kmem_cache_free(a, large), "kmem_cache_free: bad pointer");
	expect_panic(kmem_cache_free(a, NULL), "kmem_cache_free: bad pointer");
	expect_panic(ksize(obj + 1), "ksize: bad pointer");
	expect_panic(ksize(page_address(page)), "ksize: bad pointer");

	/* Nothing was freed by the failed attempts. */
	assert_true(all_bytes(obj, POISON_INUSE, 64));
	kfree(obj);
	kfree(large);
	kmem_cache_free(b, in_b);
	__free_pages(page, 0);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
}

static void test_use_after_free_detected(void **state)
{
	struct kmem_cache *c = kmem_cache_create("uaf", 128, 0, 0, NULL);
	unsigned char *p, *keep, *again;

	(void)state;
	keep = kmem_cache_alloc(c, GFP_KERNEL);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p);
	assert_true(all_bytes(p, POISON_FREE, 128));
	p[5] = 0x01;
	expect_panic(kmem_cache_alloc(c, GFP_KERNEL), "kmem_cache_alloc: use after free: object ");
	assert_non_null(strstr(panic_msg, " of cache uaf written after free (byte 5 is 0x01, not 0x6b)"));
	unlock_after_panic(c);
	p[5] = POISON_FREE;
	again = kmem_cache_alloc(c, GFP_KERNEL);
	assert_ptr_equal(again, p);

	/* A write into a free object of an empty slab is caught when the slab goes. */
	kmem_cache_free(c, again);
	kmem_cache_free(c, keep);
	keep[127] = 0;
	expect_panic(kmem_cache_shrink(c), "kmem_cache_shrink: use after free");
	assert_non_null(strstr(panic_msg, "(byte 127 is 0x00, not 0x6b)"));
	unlock_after_panic(c);
	keep[127] = POISON_FREE;
	kmem_cache_destroy(c);

	/* The same through kmalloc. */
	p = kmalloc(32, GFP_KERNEL);
	kfree(p);
	p[0] = 'x';
	expect_panic(kmalloc(32, GFP_KERNEL), "kmalloc: use after free");
	assert_non_null(strstr(panic_msg, "of cache kmalloc-32"));
	unlock_after_panic(kmalloc_cache(32));
	p[0] = POISON_FREE;
}

static void test_destroy_with_live_objects_panics(void **state)
{
	struct kmem_cache *c = kmem_cache_create("live", 64, 0, 0, NULL);
	unsigned long before = fake_pages_in_use();
	void *p = kmem_cache_alloc(c, GFP_KERNEL), *q = kmem_cache_alloc(c, GFP_KERNEL);

	(void)state;
	expect_panic(kmem_cache_destroy(c),
		     "kmem_cache_destroy: cache live still has 2 objects allocated");
	unlock_after_panic(c);
	kmem_cache_free(c, p);
	expect_panic(kmem_cache_destroy(c),
		     "kmem_cache_destroy: cache live still has 1 objects allocated");
	unlock_after_panic(c);
	kmem_cache_free(c, q);
	kmem_cache_destroy(c);
	assert_int_equal(fake_pages_in_use(), before);
}

static int ctor_calls;

struct thing {
	uint32_t magic;
	char name[28];
};

static void thing_ctor(void *obj)
{
	struct thing *t = obj;

	ctor_calls++;
	t->magic = 0x7417;
	memset(t->name, 0, sizeof(t->name));
}

static void test_ctor_called(void **state)
{
	struct kmem_cache *c = kmem_cache_create("thing", sizeof(struct thing), 0, 0, thing_ctor);
	struct thing *t[3];
	unsigned int i;

	(void)state;
	ctor_calls = 0;
	for (i = 0; i < 3; i++) {
		t[i] = kmem_cache_alloc(c, GFP_KERNEL);
		assert_int_equal(t[i]->magic, 0x7417);
		assert_true(all_bytes(t[i]->name, 0, sizeof(t[i]->name)));
		t[i]->magic = 0;
	}
	assert_int_equal(ctor_calls, 3);
	kmem_cache_free(c, t[1]);
	t[1] = kmem_cache_alloc(c, __GFP_ZERO | GFP_KERNEL);
	assert_int_equal(t[1]->magic, 0x7417);	/* the ctor runs after zeroing */
	assert_int_equal(ctor_calls, 4);
	for (i = 0; i < 3; i++)
		kmem_cache_free(c, t[i]);
	kmem_cache_destroy(c);
}

static void test_misuse_of_flags_panics(void **state)
{
	(void)state;
	expect_panic(kmalloc(64, GFP_DMA),
		     "kmalloc: cache kmalloc-64 cannot honour GFP_DMA/GFP_DMA32");
	expect_panic(kmem_cache_create("flags", 8, 0, 0x1, NULL),
		     "kmem_cache_create: cache flags: unknown flags 0x1");
	expect_panic(kmem_cache_create("too-big", KMALLOC_MAX_SIZE + 1, 0, SLAB_PANIC, NULL),
		     "kmem_cache_create: cannot create cache too-big");
}

/* The numbers slabinfo_report printed for cache name, or fail. */
static void slabinfo_line(const char *name, unsigned long v[7])
{
	char pattern[64];
	const char *line;

	snprintf(pattern, sizeof(pattern), "slabinfo: %s ", name);
	line = strstr(log_buf, pattern);
	assert_non_null(line);
	assert_int_equal(sscanf(line + strlen(pattern), "%lu %lu %lu %lu %lu : slabdata %lu %lu",
				&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]), 7);
}

static void test_slabinfo_report(void **state)
{
	struct kmem_cache *c = kmem_cache_create("info", 100, 0, 0, NULL);
	unsigned long v[7];
	void *objs[3];
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++)
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
	log_clear();
	slabinfo_report();
	assert_non_null(strstr(log_buf, KERN_INFO "slabinfo: # name "));
	slabinfo_line("info", v);
	assert_int_equal(v[0], 3);			/* active_objs */
	assert_int_equal(v[1], c->num);		/* num_objs */
	assert_int_equal(v[2], 104);			/* objsize */
	assert_int_equal(v[3], c->num);		/* objperslab */
	assert_int_equal(v[4], 1u << c->gfporder);	/* pagesperslab */
	assert_int_equal(v[5], 1);			/* active_slabs */
	assert_int_equal(v[6], 1);			/* num_slabs */
	slabinfo_line("kmalloc-4096", v);
	assert_int_equal(v[2], 4096);
	slabinfo_line("kmem_cache", v);
	assert_true(v[0] >= 13);			/* the kmalloc caches and "info" */
	for (i = 0; i < 3; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_destroy(c);
}

/*
 * The quarantine: a freed object is handed out again only after enough
 * newer frees pushed it out of the FIFO (an oracle: with room for 16
 * objects, exactly 16 frees later); a write to it while it waits is
 * found when it leaves and the panic leaves the allocator usable; a
 * second free of a quarantined object is a double free; destroying the
 * cache releases its quarantined objects.
 */
#define QUARANTINED_OBJS 16

/* The object churn() allocated last. */
static unsigned char *churned;

/* Allocate and free n objects of c, one after the other. */
static void churn(struct kmem_cache *c, int n)
{
	while (n--) {
		churned = kmem_cache_alloc(c, GFP_KERNEL);
		kmem_cache_free(c, churned);
	}
}

static void test_quarantine(void **state)
{
	struct kmem_cache *c = kmem_cache_create("quarantined", 128, 0, 0, NULL);
	unsigned char *p, *q = NULL, *w;
	int i;

	(void)state;
	slab_quarantine_init(QUARANTINED_OBJS * 128);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p);
	assert_true(all_bytes(p, POISON_FREE, 128));
	for (i = 1; i <= QUARANTINED_OBJS + 1; i++) {
		q = kmem_cache_alloc(c, GFP_KERNEL);
		if (q == p)
			break;
		kmem_cache_free(c, q);
	}
	assert_ptr_equal(q, p);
	assert_int_equal(i, QUARANTINED_OBJS + 1);

	/* A write while it waits: the free that pushes it out panics, and
	 * the object being freed then is still allocated. */
	w = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, w);
	w[5] = 0x01;
	expect_panic(churn(c, 2 * QUARANTINED_OBJS), "slab quarantine: use after free: ");
	q = churned;
	assert_non_null(strstr(panic_msg, " of cache quarantined written after free "
				       "(byte 5 is 0x01, not 0x6b)"));
	w[5] = POISON_FREE;
	kmem_cache_free(c, q);

	expect_panic(kmem_cache_free(c, q), "kmem_cache_free: double free of ");
	assert_non_null(strstr(panic_msg, "freed already and in the quarantine"));
	unlock_after_panic(c);

	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
	slab_quarantine_init(0);
}

/* Fake memory, and kmem_cache_init() once for every test. */
static int group_setup(void **state)
{
	(void)state;
	fake_memory_init();

	/* Nothing works before kmem_cache_init(). */
	expect_panic(kmalloc(8, GFP_KERNEL), "kmalloc: called before kmem_cache_init");

	kmem_cache_init();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_size_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zero_size_and_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kzalloc_zeroes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alignment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_objects_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_against_oracle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_slabs_returned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_large_kmalloc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_allocator_runs_dry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_double_free_panics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_pointers_panic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_use_after_free_detected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_with_live_objects_panics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctor_called, setup, teardown),
		cmocka_unit_test_setup_teardown(test_misuse_of_flags_panics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slabinfo_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quarantine, setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
