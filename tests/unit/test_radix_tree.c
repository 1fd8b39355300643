/*
 * Host unit tests for the radix tree (kernel/lib/radix-tree.c), built
 * with -DHOST_TEST against the oracle of a sorted array of (index, item)
 * pairs.  The tree's kmalloc and kfree are this file's: they count the
 * nodes alive, record the gfp mask of every call, and fail once a budget
 * the test sets runs out.  After every step the tree is walked and
 * checked (every node's count right and non-zero, the height the smallest
 * that holds its largest index or more, items where the oracle has
 * them), and the nodes alive are the walked ones plus those the preload
 * pool keeps, a number that only radix_tree_preload, an insert under a
 * non-sleeping mask and radix_tree_preload_drain change.
 *
 * panic() is the shared stub of kernel_stubs.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/radix-tree.h>
#include <uapi/errno.h>

#include "kernel_stubs.h"

/* --- the fake allocator --------------------------------------------------- */

static long nodes_alive;
static long alloc_budget = -1;		/* kmallocs left before all fail; -1: no limit */
static unsigned int nr_kmalloc;
static gfp_t gfp_seen;			/* every kmalloc's mask, or'ed together */

void *kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	nr_kmalloc++;
	gfp_seen |= gfp;
	assert_int_equal(size, sizeof(struct radix_tree_node));
	if (alloc_budget == 0)
		return NULL;
	if (alloc_budget > 0)
		alloc_budget--;
	p = malloc(size);
	assert_non_null(p);
	memset(p, 0x5a, size);		/* insert must initialize the node */
	nodes_alive++;
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	nodes_alive--;
	free((void *)p);
}

/* --- the oracle and the checks -------------------------------------------- */

#define ORACLE_MAX 600

static unsigned long oracle_index[ORACLE_MAX];
static void *oracle_item[ORACLE_MAX];
static unsigned int oracle_n;

/* The first position whose index is >= index. */
static unsigned int oracle_lower_bound(unsigned long index)
{
	unsigned int lo = 0, hi = oracle_n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (oracle_index[mid] < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void *oracle_lookup(unsigned long index)
{
	unsigned int i = oracle_lower_bound(index);

	return i < oracle_n && oracle_index[i] == index ? oracle_item[i] : NULL;
}

static void oracle_insert(unsigned long index, void *item)
{
	unsigned int i = oracle_lower_bound(index);

	assert_true(oracle_n < ORACLE_MAX);
	memmove(&oracle_index[i + 1], &oracle_index[i], (oracle_n - i) * sizeof(oracle_index[0]));
	memmove(&oracle_item[i + 1], &oracle_item[i], (oracle_n - i) * sizeof(oracle_item[0]));
	oracle_index[i] = index;
	oracle_item[i] = item;
	oracle_n++;
}

static void oracle_delete(unsigned long index)
{
	unsigned int i = oracle_lower_bound(index);

	assert_true(i < oracle_n && oracle_index[i] == index);
	memmove(&oracle_index[i], &oracle_index[i + 1], (oracle_n - i - 1) * sizeof(oracle_index[0]));
	memmove(&oracle_item[i], &oracle_item[i + 1], (oracle_n - i - 1) * sizeof(oracle_item[0]));
	oracle_n--;
}

/* A distinct non-NULL item for each index. */
static void *item_for(unsigned long index)
{
	return (void *)((index << 3) | 4);
}

static unsigned long maxindex(unsigned int height)
{
	return height * RADIX_TREE_MAP_SHIFT >= 64 ? ~0ul : (1ul << (height * RADIX_TREE_MAP_SHIFT)) - 1;
}

/* Check node (level levels high, first index base) against the oracle;
 * returns its nodes and counts its items into *items. */
static long walk(struct radix_tree_node *node, unsigned int level, unsigned long base,
		 unsigned long *items)
{
	unsigned int shift = (level - 1) * RADIX_TREE_MAP_SHIFT, i, used = 0;
	long nodes = 1;

	for (i = 0; i < RADIX_TREE_MAP_SIZE; i++) {
		unsigned long index = base | ((unsigned long)i << shift);

		if (!node->slots[i])
			continue;
		used++;
		if (level == 1) {
			assert_ptr_equal(node->slots[i], oracle_lookup(index));
			(*items)++;
		} else {
			nodes += walk(node->slots[i], level - 1, index, items);
		}
	}
	assert_int_equal(node->count, used);
	assert_true(used > 0);
	return nodes;
}

/* The tree matches the oracle; returns its number of nodes. */
static long check_tree(struct radix_tree_root *root)
{
	unsigned long items = 0;
	long nodes;

	if (!root->rnode) {
		assert_int_equal(root->height, 0);
		assert_int_equal(oracle_n, 0);
		return 0;
	}
	assert_true(root->height >= 1 && root->height <= RADIX_TREE_MAX_PATH);
	assert_true(oracle_n > 0);
	assert_true(oracle_index[oracle_n - 1] <= maxindex(root->height));
	nodes = walk(root->rnode, root->height, 0, &items);
	assert_int_equal(items, oracle_n);
	return nodes;
}

static int setup(void **state)
{
	(void)state;
	oracle_n = 0;
	alloc_budget = -1;
	gfp_seen = 0;
	return 0;
}

/* Nodes alive that are not in a tree: the preload pool's. */
static long pool_nodes(long tree_nodes)
{
	long pool = nodes_alive - tree_nodes;

	assert_true(pool >= 0 && pool <= (long)RADIX_TREE_PRELOAD_SIZE);
	return pool;
}

/* Delete every item, checking each; the tree ends empty with its nodes
 * freed, only the pool's left alive. */
static void delete_all(struct radix_tree_root *root, long pool)
{
	while (oracle_n) {
		unsigned long index = oracle_index[oracle_n / 2];

		assert_ptr_equal(radix_tree_delete(root, index), item_for(index));
		oracle_delete(index);
		assert_int_equal(pool_nodes(check_tree(root)), pool);
	}
	assert_null(root->rnode);
	assert_int_equal(root->height, 0);
	assert_int_equal(nodes_alive, pool);
}

/* --- random operations against the oracle --------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

enum range { SMALL, SPARSE, TOP, MIXED };

static unsigned long random_index(enum range range)
{
	switch (range) {
	case SMALL:
		return next_random() % 300;
	case SPARSE:
		return next_random() >> (next_random() % 64);
	case TOP:
		return ~0ul - next_random() % 5000;
	default:
		return random_index(next_random() % 3);
	}
}

static void random_ops(enum range range, unsigned int rounds)
{
	RADIX_TREE(root, GFP_KERNEL);
	void *results[80];
	long pool = pool_nodes(0);
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		unsigned long index = random_index(range);
		unsigned int op = next_random() % 8, max, n, i, at;
		void *old = oracle_lookup(index);
		long alive = nodes_alive;

		if (op < 3 && oracle_n < ORACLE_MAX) {
			int err = radix_tree_insert(&root, index, item_for(index));

			if (old) {
				assert_int_equal(err, -EEXIST);
				assert_int_equal(nodes_alive, alive);
			} else {
				assert_int_equal(err, 0);
				oracle_insert(index, item_for(index));
			}
		} else if (op < 5) {
			/* Mostly delete what is there. */
			if (oracle_n && next_random() % 4) {
				index = oracle_index[next_random() % oracle_n];
				old = item_for(index);
			}
			assert_ptr_equal(radix_tree_delete(&root, index), old);
			if (old)
				oracle_delete(index);
		} else if (op < 6) {
			assert_ptr_equal(radix_tree_lookup(&root, index), old);
		} else {
			if (oracle_n && next_random() % 2)
				index = oracle_index[next_random() % oracle_n] + next_random() % 3 - 1;
			max = next_random() % 80;
			n = radix_tree_gang_lookup(&root, results, index, max);
			at = oracle_lower_bound(index);
			assert_int_equal(n, oracle_n - at < max ? oracle_n - at : max);
			for (i = 0; i < n; i++)
				assert_ptr_equal(results[i], oracle_item[at + i]);
		}
		assert_int_equal(pool_nodes(check_tree(&root)), pool);
	}
	assert_true(oracle_n > 0);
	delete_all(&root, pool);
}

static void test_random_small(void **state)
{
	(void)state;
	random_ops(SMALL, 6000);
}

static void test_random_sparse(void **state)
{
	(void)state;
	random_ops(SPARSE, 6000);
}

static void test_random_top(void **state)
{
	(void)state;
	random_ops(TOP, 6000);
}

static void test_random_mixed(void **state)
{
	(void)state;
	random_ops(MIXED, 6000);
}

/* --- edges ---------------------------------------------------------------- */

static void insert_ok(struct radix_tree_root *root, unsigned long index)
{
	assert_int_equal(radix_tree_insert(root, index, item_for(index)), 0);
	oracle_insert(index, item_for(index));
}

static void test_edges(void **state)
{
	RADIX_TREE(root, GFP_KERNEL);
	long pool = pool_nodes(0);
	void *results[4];

	(void)state;
	assert_null(radix_tree_lookup(&root, 0));
	assert_null(radix_tree_delete(&root, ~0ul));
	assert_int_equal(radix_tree_gang_lookup(&root, results, 0, 4), 0);

	insert_ok(&root, 0);
	assert_int_equal(root.height, 1);
	assert_int_equal(nodes_alive - pool, 1);
	/* The largest index grows the tree to full height: a new node per
	 * level and a new path under the new root. */
	insert_ok(&root, ~0ul);
	assert_int_equal(root.height, RADIX_TREE_MAX_PATH);
	assert_int_equal(check_tree(&root), 2 * (RADIX_TREE_MAX_PATH - 1) + 1);
	assert_int_equal(radix_tree_insert(&root, ~0ul, item_for(1)), -EEXIST);
	assert_int_equal(radix_tree_insert(&root, 0, item_for(1)), -EEXIST);
	assert_ptr_equal(radix_tree_lookup(&root, ~0ul), item_for(~0ul));
	assert_int_equal(radix_tree_gang_lookup(&root, results, 1, 4), 1);
	assert_ptr_equal(results[0], item_for(~0ul));
	assert_int_equal(radix_tree_gang_lookup(&root, results, ~0ul, 4), 1);
	assert_int_equal(radix_tree_gang_lookup(&root, results, 0, 4), 2);
	assert_ptr_equal(results[0], item_for(0));
	/* A missing index next to a present one, and one on an absent path. */
	assert_null(radix_tree_delete(&root, ~0ul - 1));
	assert_null(radix_tree_delete(&root, 1ul << 40));
	assert_int_equal(pool_nodes(check_tree(&root)), pool);

	/* Deleting 0 leaves the tall tree, with only the right-hand path. */
	assert_ptr_equal(radix_tree_delete(&root, 0), item_for(0));
	oracle_delete(0);
	assert_int_equal(check_tree(&root), RADIX_TREE_MAX_PATH);
	assert_int_equal(root.height, RADIX_TREE_MAX_PATH);
	delete_all(&root, pool);
}

/* --- allocation failure --------------------------------------------------- */

/* Insert at index with only budget allocations left: -ENOMEM, and the
 * tree, the oracle's items and the nodes alive as they were. */
static void insert_fails(struct radix_tree_root *root, unsigned long index, long budget)
{
	struct radix_tree_node *rnode = root->rnode;
	unsigned int height = root->height;
	long alive = nodes_alive, tree = check_tree(root);

	alloc_budget = budget;
	assert_int_equal(radix_tree_insert(root, index, item_for(index)), -ENOMEM);
	alloc_budget = -1;
	assert_ptr_equal(root->rnode, rnode);
	assert_int_equal(root->height, height);
	assert_int_equal(check_tree(root), tree);
	assert_int_equal(nodes_alive, alive);
	assert_null(radix_tree_lookup(root, index));
}

static void test_enomem_leaves_tree_unchanged(void **state)
{
	RADIX_TREE(root, GFP_KERNEL);
	long pool = pool_nodes(0), budget;

	(void)state;
	insert_fails(&root, 5, 0);		/* the empty tree stays empty */
	insert_fails(&root, ~0ul, 10);		/* 11 nodes needed */
	insert_ok(&root, 5);
	insert_ok(&root, 1000);
	/* Growing, and a new path in a tree of the same height. */
	for (budget = 0; budget < 2 * (RADIX_TREE_MAX_PATH - 1) - 1; budget++)
		insert_fails(&root, ~0ul, budget);
	insert_fails(&root, 4000, 0);
	/* A slot in an existing leaf needs no node. */
	alloc_budget = 0;
	insert_ok(&root, 6);
	alloc_budget = -1;
	insert_ok(&root, ~0ul);
	delete_all(&root, pool);
}

/* --- preloading ----------------------------------------------------------- */

static void test_preload(void **state)
{
	RADIX_TREE(root, GFP_ATOMIC);
	unsigned int calls;

	(void)state;
	radix_tree_preload_drain();
	assert_int_equal(nodes_alive, 0);

	/* Without a preload a non-sleeping insert allocates without
	 * __GFP_WAIT, and fails when the allocator has nothing. */
	insert_fails(&root, 3, 0);
	assert_int_equal(gfp_seen & __GFP_WAIT, 0);

	/* A preload that cannot fill the pool fails and opens no window;
	 * what it got stays in the pool. */
	alloc_budget = 4;
	assert_int_equal(radix_tree_preload(GFP_KERNEL), -ENOMEM);
	assert_int_equal(nodes_alive, 4);
	alloc_budget = -1;

	/* A full preload: then the allocator runs dry, and the worst insert
	 * (a one-level tree grown to full height) still succeeds, from the
	 * pool alone. */
	insert_ok(&root, 0);
	assert_int_equal(radix_tree_preload(GFP_KERNEL), 0);
	assert_int_equal(nodes_alive, 1 + RADIX_TREE_PRELOAD_SIZE);
	expect_panic(radix_tree_preload(GFP_KERNEL), "already open");
	alloc_budget = 0;
	calls = nr_kmalloc;
	insert_ok(&root, ~0ul);
	assert_int_equal(nr_kmalloc, calls);
	alloc_budget = -1;
	radix_tree_preload_end();
	expect_panic(radix_tree_preload_end(), "no preload window");
	assert_int_equal(pool_nodes(check_tree(&root)), 1);

	/* The pool kept one node: one more node-needing insert succeeds with
	 * the allocator dry, the next fails. */
	alloc_budget = 0;
	insert_ok(&root, RADIX_TREE_MAP_SIZE);
	assert_int_equal(pool_nodes(check_tree(&root)), 0);
	alloc_budget = -1;
	insert_fails(&root, 1ul << 30, 0);

	/* A sleeping tree allocates with its own mask and leaves the pool be. */
	assert_int_equal(radix_tree_preload(GFP_KERNEL), 0);
	radix_tree_preload_end();
	{
		RADIX_TREE(sleeping, GFP_KERNEL);
		long alive = nodes_alive;

		assert_int_equal(radix_tree_insert(&sleeping, 7, item_for(7)), 0);
		assert_int_equal(nodes_alive, alive + 1);
		assert_ptr_equal(radix_tree_delete(&sleeping, 7), item_for(7));
		assert_int_equal(nodes_alive, alive);
	}
	/* Draining frees the pool, and is a kernel bug inside a window. */
	assert_int_equal(radix_tree_preload(GFP_KERNEL), 0);
	expect_panic(radix_tree_preload_drain(), "window is open");
	radix_tree_preload_end();
	radix_tree_preload_drain();
	assert_int_equal(pool_nodes(check_tree(&root)), 0);
	delete_all(&root, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_edges, setup),
		cmocka_unit_test_setup(test_enomem_leaves_tree_unchanged, setup),
		cmocka_unit_test_setup(test_random_small, setup),
		cmocka_unit_test_setup(test_random_sparse, setup),
		cmocka_unit_test_setup(test_random_top, setup),
		cmocka_unit_test_setup(test_random_mixed, setup),
		cmocka_unit_test_setup(test_preload, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
