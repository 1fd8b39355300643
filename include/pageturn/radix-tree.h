/*
 * The radix tree: a map from unsigned long index to void pointer (Linux's
 * include/linux/radix-tree.h, v2.6.28 names).  kernel/lib/radix-tree.c
 * explains the tree and the preload contract.
 */
#ifndef PAGETURN_RADIX_TREE_H
#define PAGETURN_RADIX_TREE_H

#include <mm/gfp.h>
#include <pageturn/types.h>

#define RADIX_TREE_MAP_SHIFT	6
#define RADIX_TREE_MAP_SIZE	(1ul << RADIX_TREE_MAP_SHIFT)
#define RADIX_TREE_MAP_MASK	(RADIX_TREE_MAP_SIZE - 1)
/* Enough levels for any unsigned long: ceil(64 / RADIX_TREE_MAP_SHIFT). */
#define RADIX_TREE_MAX_PATH	11
/* The most nodes one insert needs: growing a one-level tree to full
 * height takes a new node per level and a new path below the new root,
 * 2 * (RADIX_TREE_MAX_PATH - 1); Linux's bound is one more. */
#define RADIX_TREE_PRELOAD_SIZE	(RADIX_TREE_MAX_PATH * 2 - 1)

struct radix_tree_node {
	unsigned int count;			/* non-empty slots */
	void *slots[RADIX_TREE_MAP_SIZE];
};

struct radix_tree_root {
	unsigned int height;			/* levels of nodes; 0: empty tree */
	gfp_t gfp_mask;				/* how insert allocates nodes */
	struct radix_tree_node *rnode;		/* NULL iff height is 0 */
};

/*
 * An item with this bit set is a value, not a pointer (Linux 3.1's
 * exceptional entries): tmpfs keeps a swap entry so in its page cache's
 * slot (mm/swapops.h).  The tree stores it like any other item.
 */
#define RADIX_TREE_EXCEPTIONAL_ENTRY	2
#define RADIX_TREE_EXCEPTIONAL_SHIFT	2

static inline bool radix_tree_exceptional_entry(const void *arg)
{
	return (unsigned long)arg & RADIX_TREE_EXCEPTIONAL_ENTRY;
}

#define RADIX_TREE_INIT(mask)	{ .height = 0, .gfp_mask = (mask), .rnode = NULL }
#define RADIX_TREE(name, mask)	struct radix_tree_root name = RADIX_TREE_INIT(mask)
#define INIT_RADIX_TREE(root, mask)			\
	do {						\
		(root)->height = 0;			\
		(root)->gfp_mask = (mask);		\
		(root)->rnode = NULL;			\
	} while (0)

/* Fill the preload pool with gfp_mask: 0, or -ENOMEM with nothing to end.
 * On 0 the caller must call radix_tree_preload_end() without sleeping
 * in between.  The pool keeps its nodes after the window. */
int radix_tree_preload(gfp_t gfp_mask);
void radix_tree_preload_end(void);
/* Free the pool's nodes (drop_caches), outside any preload window. */
void radix_tree_preload_drain(void);

/* Put item (not NULL) at index: 0, -EEXIST (the slot is taken) or
 * -ENOMEM; a failed insert leaves the tree as it was. */
int radix_tree_insert(struct radix_tree_root *root, unsigned long index, void *item);
/* The item at index, or NULL. */
void *radix_tree_lookup(struct radix_tree_root *root, unsigned long index);
/* Empty the slot at index; returns what it held (NULL if nothing). */
void *radix_tree_delete(struct radix_tree_root *root, unsigned long index);
/* Up to max_items items at indices >= first_index, in index order, into
 * results; returns how many. */
unsigned int radix_tree_gang_lookup(struct radix_tree_root *root, void **results,
				    unsigned long first_index, unsigned int max_items);
/* The same, with each item's index in indices (Linux's
 * radix_tree_gang_lookup_slot gives them too). */
unsigned int radix_tree_gang_lookup_index(struct radix_tree_root *root, void **results,
					  unsigned long *indices, unsigned long first_index,
					  unsigned int max_items);

#endif
