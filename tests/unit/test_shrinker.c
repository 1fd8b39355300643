/*
 * Host unit tests for mm/shrinker.c: register_shrinker, unregister_shrinker
 * and shrink_slab's arithmetic (Linux 2.6.28's).
 *
 * The shrinkers here are fake caches: a count of objects, of which a
 * scan of n frees min(n, objects); one may be told to answer -1 (as the
 * inode cache does without __GFP_FS) after a number of scans.  Each
 * records the gfp_mask it was given and how it was called.
 *
 * The oracle is written apart from shrink_slab's loop: the work owed is
 * computed in 128-bit arithmetic from the formula of Linux 2.6.28
 *
 *     delta = floor(floor(4 * scanned / seeks) * max_pass / (lru_pages + 1))
 *     nr    = carried + delta, reset to max_pass if negative,
 *             at most 2 * max_pass
 *
 * and the outcome in closed form: batches = min(nr / 128, scans before
 * the refusal); freed = min(128 * batches, objects); carried after =
 * nr - 128 * batches; slabs_scanned += 128 * batches.  test_random checks
 * it over thousands of random calls with one to three shrinkers, random
 * scanned, lru_pages, seeks, object counts and carried-over nr (negative
 * now and then).
 *
 * The fake task and sleeps are fake_wait.c's: no walk is ever in
 * progress on the host, so register/unregister never sleep.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <mm/shrinker.h>
#include <mm/swap.h>
#include <mm/vmstat.h>

#include "kernel_stubs.h"

/* mm/vmstat.c's event counters, alone: the only ones shrink_slab touches. */
struct vm_event_state vm_event_states;

#define NR_FAKES 3

struct fake_cache {
	struct shrinker shrinker;
	long objects;
	long scans_before_refusal;	/* -1: never refuses */
	unsigned int count_calls, scan_calls;
	gfp_t last_gfp;
};

static struct fake_cache fakes[NR_FAKES];

static int fake_shrink(struct fake_cache *c, int nr, gfp_t gfp_mask)
{
	c->last_gfp = gfp_mask;
	if (nr == 0) {
		c->count_calls++;
		return (int)c->objects;
	}
	assert_int_equal(nr, SHRINK_BATCH);
	if (c->scans_before_refusal == 0)
		return -1;
	if (c->scans_before_refusal > 0)
		c->scans_before_refusal--;
	c->scan_calls++;
	c->objects -= c->objects < nr ? c->objects : nr;
	return (int)c->objects;
}

static int shrink0(int nr, gfp_t gfp_mask) { return fake_shrink(&fakes[0], nr, gfp_mask); }
static int shrink1(int nr, gfp_t gfp_mask) { return fake_shrink(&fakes[1], nr, gfp_mask); }
static int shrink2(int nr, gfp_t gfp_mask) { return fake_shrink(&fakes[2], nr, gfp_mask); }

static int (*const shrink_fns[NR_FAKES])(int, gfp_t) = { shrink0, shrink1, shrink2 };

static unsigned long slabs_scanned(void)
{
	return vm_event_states.event[SLABS_SCANNED];
}

/* Register fake i with seeks and objects; it never refuses. */
static struct fake_cache *add_fake(int i, int seeks, long objects)
{
	struct fake_cache *c = &fakes[i];

	memset(c, 0, sizeof(*c));
	c->shrinker.shrink = shrink_fns[i];
	c->shrinker.seeks = seeks;
	c->objects = objects;
	c->scans_before_refusal = -1;
	register_shrinker(&c->shrinker);
	assert_int_equal(c->shrinker.nr, 0);
	return c;
}

/* ---- the oracle --------------------------------------------------------- */

struct expect {
	long long nr_after;
	unsigned long freed, scanned_objects;
	long long objects_after;
	bool reset;		/* the sum went negative */
};

static struct expect oracle(unsigned long scanned, unsigned long lru_pages, int seeks,
			    long objects, long carried, long scans_before_refusal)
{
	__int128 max_pass = objects, delta, nr;
	long long batches, limit;
	struct expect e = { 0 };

	if (scanned == 0)
		scanned = 32;
	delta = (__int128)((4 * (__int128)scanned) / seeks) * max_pass / ((__int128)lru_pages + 1);
	nr = carried + delta;
	if (nr < 0) {
		e.reset = true;
		nr = max_pass;
	}
	if (nr > 2 * max_pass)
		nr = 2 * max_pass;
	batches = (long long)(nr / SHRINK_BATCH);
	limit = scans_before_refusal < 0 ? batches : scans_before_refusal;
	if (batches > limit)
		batches = limit;
	e.scanned_objects = (unsigned long)(batches * SHRINK_BATCH);
	e.freed = (unsigned long)(objects < batches * SHRINK_BATCH ? objects : batches * SHRINK_BATCH);
	e.objects_after = objects - (long long)e.freed;
	e.nr_after = (long long)nr - batches * SHRINK_BATCH;
	return e;
}

/* ---- tests ---------------------------------------------------------------- */

static int teardown(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < NR_FAKES; i++)
		if (fakes[i].shrinker.shrink) {
			unregister_shrinker(&fakes[i].shrinker);
			fakes[i].shrinker.shrink = NULL;
		}
	return 0;
}

/* drop_slab's call: 1000 of 1000 LRU pages scanned with DEFAULT_SEEKS
 * owes (4 * 1000 / 2) * 1000 / 1001 = 1998 scans of a 1000-object cache
 * (under the clamp of 2000): 15 batches (1920 objects) are scanned, all
 * 1000 objects freed, 78 scans carried. */
static void test_drop_slab_numbers(void **state)
{
	struct fake_cache *c = add_fake(0, DEFAULT_SEEKS, 1000);
	unsigned long before = slabs_scanned();

	(void)state;
	assert_int_equal(shrink_slab(1000, GFP_KERNEL, 1000), 1000);
	assert_int_equal(c->objects, 0);
	assert_int_equal(c->scan_calls, 15);
	assert_int_equal(c->shrinker.nr, 1998 - 15 * 128);
	assert_int_equal(slabs_scanned() - before, 15 * 128);
	assert_int_equal(c->last_gfp, GFP_KERNEL);
	/* The cache is empty now: nothing more is owed than the 78 left,
	 * clamped to 2 * 0. */
	assert_int_equal(shrink_slab(1000, GFP_KERNEL, 1000), 0);
	assert_int_equal(c->shrinker.nr, 0);
}

/* A small cache is never scanned: 2 * max_pass < SHRINK_BATCH. */
static void test_small_cache_untouched(void **state)
{
	struct fake_cache *c = add_fake(0, DEFAULT_SEEKS, SHRINK_BATCH / 2 - 1);
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		assert_int_equal(shrink_slab(1000, GFP_KERNEL, 1000), 0);
	assert_int_equal(c->scan_calls, 0);
	assert_int_equal(c->shrinker.nr, 2 * (SHRINK_BATCH / 2 - 1));
}

/* Small amounts of LRU scanning pile up in nr until a batch is due. */
static void test_debt_accumulates(void **state)
{
	struct fake_cache *c = add_fake(0, DEFAULT_SEEKS, 10000);
	unsigned int calls = 0;

	(void)state;
	/* delta = (4 * 32 / 2) * 10000 / 100001 = 6 per call. */
	while (c->scan_calls == 0 && calls < 1000) {
		shrink_slab(SWAP_CLUSTER_MAX, GFP_KERNEL, 100000);
		calls++;
	}
	assert_int_equal(calls, 22);		/* 22 * 6 = 132 >= 128 */
	assert_int_equal(c->shrinker.nr, 132 - 128);
	assert_int_equal(c->objects, 10000 - 128);
}

/* scanned 0 counts as SWAP_CLUSTER_MAX. */
static void test_zero_scanned(void **state)
{
	struct fake_cache *c = add_fake(0, 1, 100000);

	(void)state;
	shrink_slab(0, GFP_KERNEL, 999);
	/* (4 * 32 / 1) * 100000 / 1000 = 12800 */
	assert_int_equal(c->shrinker.nr + 128 * c->scan_calls, 12800);
}

/* A cache answering -1 is left alone and its work stays owed; the
 * others go on. */
static void test_refusal(void **state)
{
	struct fake_cache *refuser = add_fake(0, DEFAULT_SEEKS, 5000);
	struct fake_cache *other = add_fake(1, DEFAULT_SEEKS, 5000);
	unsigned long before = slabs_scanned(), freed;

	(void)state;
	refuser->scans_before_refusal = 0;
	freed = shrink_slab(1000, GFP_NOFS, 1000);
	/* delta = (4 * 1000 / 2) * 5000 / 1001 = 9990, under the clamp. */
	assert_int_equal(refuser->scan_calls, 0);
	assert_int_equal(refuser->objects, 5000);
	assert_int_equal(refuser->shrinker.nr, 9990);
	assert_int_equal(other->objects, 0);
	assert_int_equal(freed, 5000);
	assert_int_equal(slabs_scanned() - before, (9990 / 128) * 128);
	assert_int_equal(refuser->last_gfp, GFP_NOFS);
	/* Once it can work, the owed scans are done, but never more than
	 * twice the cache. */
	refuser->scans_before_refusal = -1;
	freed = shrink_slab(1000, GFP_KERNEL, 1000);
	assert_int_equal(refuser->objects, 0);
	assert_int_equal(freed, 5000);
	assert_int_equal(refuser->scan_calls, 10000 / 128);
	assert_int_equal(refuser->shrinker.nr, 10000 % 128);
}

/* The clamp: a debt larger than twice the cache is cut down to it. */
static void test_clamp(void **state)
{
	struct fake_cache *c = add_fake(0, DEFAULT_SEEKS, 300);

	(void)state;
	c->shrinker.nr = 1000000;
	assert_int_equal(shrink_slab(1, GFP_KERNEL, 1000000), 300);
	assert_int_equal(c->scan_calls, 600 / 128);
	assert_int_equal(c->shrinker.nr, 600 % 128);
}

/* A negative sum is reported and reset to max_pass. */
static void test_negative_reset(void **state)
{
	struct fake_cache *c = add_fake(0, DEFAULT_SEEKS, 1000);

	(void)state;
	log_clear();
	c->shrinker.nr = -5000;
	shrink_slab(1, GFP_KERNEL, 1000000);
	assert_int_equal(log_count("shrink_slab: nr=-5000"), 1);
	assert_int_equal(c->scan_calls, 1000 / 128);
	assert_int_equal(c->shrinker.nr, 1000 % 128);
}

/* An unregistered shrinker is not called; registering resets nr. */
static void test_register_unregister(void **state)
{
	struct fake_cache *a = add_fake(0, DEFAULT_SEEKS, 1000);
	struct fake_cache *b = add_fake(1, DEFAULT_SEEKS, 1000);

	(void)state;
	unregister_shrinker(&a->shrinker);
	a->shrinker.shrink = NULL;
	shrink_slab(1000, GFP_KERNEL, 1000);
	assert_int_equal(a->count_calls, 0);
	assert_int_equal(b->objects, 0);
	b->shrinker.nr = 77;
	unregister_shrinker(&b->shrinker);
	register_shrinker(&b->shrinker);
	assert_int_equal(b->shrinker.nr, 0);
}

static void test_random(void **state)
{
	static const gfp_t masks[] = { GFP_KERNEL, GFP_NOFS, GFP_NOIO };
	struct expect e[NR_FAKES];
	unsigned long scanned, lru_pages, before, expect_freed, expect_scanned, freed;
	unsigned int round, n, i, resets;
	gfp_t gfp;

	(void)state;
	srandom(20081224);
	for (round = 0; round < 20000; round++) {
		n = 1 + random() % NR_FAKES;
		scanned = random() % 4 == 0 ? 0 : random() % 5000;
		lru_pages = random() % 3 == 0 ? random() % 64 : random() % 200000;
		gfp = masks[random() % 3];
		expect_freed = expect_scanned = 0;
		resets = 0;
		log_clear();
		for (i = 0; i < n; i++) {
			struct fake_cache *c = add_fake(i, 1 + random() % 8, random() % 60000);
			long carried;

			switch (random() % 4) {
			case 0:
				carried = 0;
				break;
			case 1:
				carried = -(long)(random() % 100000);
				break;
			default:
				carried = random() % (3 * c->objects + 1);
			}
			c->shrinker.nr = carried;
			c->scans_before_refusal = random() % 3 == 0 ? random() % 20 : -1;
			e[i] = oracle(scanned, lru_pages, c->shrinker.seeks, c->objects, carried,
				      c->scans_before_refusal);
			expect_freed += e[i].freed;
			expect_scanned += e[i].scanned_objects;
			resets += e[i].reset;
		}
		before = slabs_scanned();
		freed = shrink_slab(scanned, gfp, lru_pages);
		assert_int_equal(freed, expect_freed);
		assert_int_equal(slabs_scanned() - before, expect_scanned);
		assert_int_equal(log_count("shrink_slab: nr="), resets);
		for (i = 0; i < n; i++) {
			assert_int_equal(fakes[i].shrinker.nr, e[i].nr_after);
			assert_int_equal(fakes[i].objects, e[i].objects_after);
			assert_int_equal(fakes[i].last_gfp, gfp);
		}
		teardown(NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_drop_slab_numbers, teardown),
		cmocka_unit_test_teardown(test_small_cache_untouched, teardown),
		cmocka_unit_test_teardown(test_debt_accumulates, teardown),
		cmocka_unit_test_teardown(test_zero_scanned, teardown),
		cmocka_unit_test_teardown(test_refusal, teardown),
		cmocka_unit_test_teardown(test_clamp, teardown),
		cmocka_unit_test_teardown(test_negative_reset, teardown),
		cmocka_unit_test_teardown(test_register_unregister, teardown),
		cmocka_unit_test_teardown(test_random, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
