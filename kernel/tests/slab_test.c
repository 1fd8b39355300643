/*
 * Suite "slab": the slab allocator on the real page allocator.  Every
 * kmalloc class is filled past three slabs with a pattern, checked and
 * freed; once the caches are shrunk the page allocator must have every
 * page back.  Crash case crash.double_free frees an object twice and
 * must panic with "kfree: double free of 0x... (cache kmalloc-64)";
 * crash.use_after_free follows a pointer out of a freed object (a #GP on
 * the poison, which the report names); crash.write_after_free writes to
 * a freed object in the quarantine (booted with slab_quarantine=) and the
 * panic must name the function that freed it.
 */
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

/* Enough for three slabs of kmalloc-8, the class with most objects per slab. */
#define MAX_OBJS 1600

static void *objs[MAX_OBJS];

static void shrink_kmalloc_caches(void)
{
	struct cache_sizes *cs;

	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
}

static unsigned char pattern(unsigned int obj, size_t byte)
{
	return (unsigned char)(obj * 131 + byte * 7 + 1);
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

KTEST(slab, every_class_pattern)
{
	unsigned long free_before, bad = 0;
	struct cache_sizes *cs;
	unsigned int n, i;
	size_t b;

	shrink_kmalloc_caches();
	free_before = nr_free_pages();
	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++) {
		n = 3 * cs->cs_cachep->num + 1;
		KTEST_EXPECT(t, n <= MAX_OBJS);
		n = MIN(n, MAX_OBJS);
		for (i = 0; i < n; i++) {
			unsigned char *p = kmalloc(cs->cs_size, GFP_KERNEL);

			objs[i] = p;
			if (!p) {
				ktest_fail(t, __FILE__, __LINE__, "kmalloc(%zu) failed", cs->cs_size);
				break;
			}
			if (ksize(p) != cs->cs_size || (uintptr_t)p % (cs->cs_size & -cs->cs_size) ||
			    !PageSlab(virt_to_page(p)) || !all_bytes(p, POISON_INUSE, cs->cs_size))
				bad++;
			for (b = 0; b < cs->cs_size; b++)
				p[b] = pattern(i, b);
		}
		n = i;
		for (i = 0; i < n; i++)
			for (b = 0; b < cs->cs_size; b++)
				if (((unsigned char *)objs[i])[b] != pattern(i, b))
					bad++;
		/* Odd objects first, so slabs go partial before they go empty. */
		for (i = 1; i < n; i += 2)
			kfree(objs[i]);
		for (i = 0; i < n; i += 2)
			kfree(objs[i]);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
	shrink_kmalloc_caches();
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
}

KTEST(slab, zero_poison_and_large)
{
	unsigned long free_before, free_large;
	unsigned char *p;

	shrink_kmalloc_caches();
	free_before = nr_free_pages();

	p = kmalloc(100, GFP_KERNEL);
	KTEST_EXPECT(t, p && all_bytes(p, POISON_INUSE, 128));
	memset(p, 0xff, 128);
	kfree(p);
	p = kzalloc(100, GFP_KERNEL);
	KTEST_EXPECT(t, p && all_bytes(p, 0, 128));
	kfree(p);

	free_large = nr_free_pages();
	p = kmalloc(64 * 1024, GFP_KERNEL);
	KTEST_EXPECT(t, p != NULL);
	if (p) {
		KTEST_EXPECT_EQ(t, (uintptr_t)p % PAGE_SIZE, 0);
		KTEST_EXPECT_EQ(t, ksize(p), 64 * 1024);
		KTEST_EXPECT(t, !PageSlab(virt_to_page(p)));
		KTEST_EXPECT_EQ(t, nr_free_pages(), free_large - 16);
		memset(p, 0x5c, 64 * 1024);
		KTEST_EXPECT(t, all_bytes(p, 0x5c, 64 * 1024));
		kfree(p);
		KTEST_EXPECT_EQ(t, nr_free_pages(), free_large);
	}
	p = kzalloc(3 * PAGE_SIZE, GFP_KERNEL);
	KTEST_EXPECT(t, p && all_bytes(p, 0, 3 * PAGE_SIZE));
	kfree(p);

	KTEST_EXPECT(t, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL) == NULL);
	KTEST_EXPECT(t, kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	shrink_kmalloc_caches();
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
}

struct ktest_thing {
	unsigned long magic;
	struct ktest_thing *self;
	char payload[200];
};

static unsigned int thing_ctor_calls;

static void thing_ctor(void *obj)
{
	struct ktest_thing *thing = obj;

	thing_ctor_calls++;
	thing->magic = 0x51ab;
	thing->self = thing;
}

KTEST(slab, cache_lifecycle)
{
	unsigned long free_before, slab_before;
	struct kmem_cache *c;
	unsigned int i, bad = 0;

	thing_ctor_calls = 0;
	c = kmem_cache_create("ktest_thing", sizeof(struct ktest_thing), 0,
			      SLAB_HWCACHE_ALIGN, thing_ctor);
	KTEST_EXPECT(t, c != NULL);
	if (!c)
		return;
	/* Counted after the struct kmem_cache itself is allocated: its slab stays. */
	free_before = nr_free_pages();
	slab_before = global_page_state(NR_SLAB_UNRECLAIMABLE);
	KTEST_EXPECT_EQ(t, c->buffer_size, 256);
	for (i = 0; i < 100; i++) {
		struct ktest_thing *thing = kmem_cache_alloc(c, GFP_KERNEL);

		objs[i] = thing;
		if (!thing || thing->magic != 0x51ab || thing->self != thing ||
		    (uintptr_t)thing % 64)
			bad++;
	}
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_EQ(t, thing_ctor_calls, 100);
	/* 100 objects take whole slabs: at least 100 / num of them. */
	KTEST_EXPECT(t, global_page_state(NR_SLAB_UNRECLAIMABLE) >=
		     slab_before + (100 / c->num << c->gfporder));
	for (i = 0; i < 100; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, global_page_state(NR_SLAB_UNRECLAIMABLE), slab_before);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
}

KTEST(slab, slabinfo_lists_caches)
{
	const char *captured;

	ktest_capture_start(CONSOLE_LOGLEVEL_DEFAULT);
	slabinfo_report();
	captured = ktest_capture_stop();

	KTEST_EXPECT(t, strstr(captured, "slabinfo: # name ") != NULL);
	KTEST_EXPECT(t, strstr(captured, "slabinfo: kmalloc-64 ") != NULL);
	KTEST_EXPECT(t, strstr(captured, "slabinfo: kmalloc-4096 ") != NULL);
	KTEST_EXPECT(t, strstr(captured, "slabinfo: kmem_cache ") != NULL);
}

__noinline void crash_double_free_victim(void)
{
	void *p = kmalloc(64, GFP_KERNEL);

	kfree(p);
	kfree(p);
}

KTEST_CRASHER(crash, double_free) { (void)t; crash_double_free_victim(); }

struct uaf_node {
	struct uaf_node *next;
	long value;
};

__noinline long crash_use_after_free_victim(void)
{
	struct uaf_node *a = kmalloc(sizeof(*a), GFP_KERNEL);
	struct uaf_node *b = kmalloc(sizeof(*b), GFP_KERNEL);
	volatile struct uaf_node *stale = a;

	a->next = b;
	b->value = 1;
	kfree(a);
	return stale->next->value;	/* next is poison now: #GP */
}

KTEST_CRASHER(crash, use_after_free) { (void)t; crash_use_after_free_victim(); }

/* Enough 64-byte frees to push one object through a 64 KiB quarantine. */
#define QUARANTINE_PUSH 2048

__noinline void crash_write_after_free_victim(void)
{
	volatile unsigned char *p = kmalloc(64, GFP_KERNEL);

	kfree((void *)p);
	p[3] = 1;
	for (int i = 0; i < QUARANTINE_PUSH; i++)
		kfree(kmalloc(64, GFP_KERNEL));
}

KTEST_CRASHER(crash, write_after_free) { (void)t; crash_write_after_free_victim(); }
