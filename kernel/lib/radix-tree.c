/*
 * The radix tree (Linux's lib/radix-tree.c, v2.6.28 names): a map from an
 * unsigned long index to a non-NULL void pointer, kept in 64-slot nodes.
 * The page cache keeps each file's pages in one (mapping->page_tree).
 *
 * States.  A tree of height 0 is empty and has no node.  A tree of height
 * h >= 1 holds indices 0 .. 64^h - 1: its root node's slots point at
 * nodes of height h - 1, and so on down to the leaf nodes (height 1),
 * whose slots hold the items.  Digit level-1 of an index (6 bits each,
 * the lowest digit at the leaves) picks the slot at each level.
 *
 * Invariants:
 *   - rnode is NULL iff height is 0.
 *   - Every node's count is the number of its non-NULL slots, and is
 *     never 0: delete frees a node as soon as its last slot empties, and
 *     the tree is empty again when the root node goes.
 *   - The tree is never taller than RADIX_TREE_MAX_PATH.  Insert grows it
 *     at the top, one node per level, each new root holding the old one
 *     in slot 0; delete does not shrink it while the root node lives.
 *   - A failed insert (-ENOMEM, -EEXIST) leaves the tree as it was: insert
 *     gets every node it needs before it links any, and frees those it
 *     got when one is missing.
 *
 * Allocation and the preload contract.  root->gfp_mask says how insert
 * gets a node.  With __GFP_WAIT it allocates, which may sleep and run
 * reclaim.  Without it insert takes nodes from the preload pool first and
 * falls back to a non-sleeping kmalloc.  The page cache's trees are of the
 * second kind (GFP_ATOMIC), because reclaim may run inside any sleeping
 * allocation and take pages out of the page cache, of the very mapping
 * being inserted into: a tree must never be changed by reclaim while
 * insert is in the middle of changing it.  So add_to_page_cache_lru
 * fills the pool first with radix_tree_preload(GFP_KERNEL), which may
 * sleep and reclaim while no tree is being changed, then takes the
 * mapping's tree_lock, inserts, drops it, and calls
 * radix_tree_preload_end().
 *
 * Between a radix_tree_preload() that returned 0 and
 * radix_tree_preload_end() the caller must not sleep.  Linux keeps one
 * pool per CPU and disables preemption for that window.  Pageturn has one
 * CPU and no preemption inside the kernel (kernel/sched.c), so a task
 * leaves the CPU only by sleeping: a task that does not sleep in the
 * window owns the one static pool for all of it, and the pool holds
 * enough nodes for any one insert (RADIX_TREE_PRELOAD_SIZE).
 * radix_tree_preload itself may sleep in each allocation, and another
 * task may preload, insert and end meanwhile; so it tests the pool's fill
 * again after every allocation, as Linux's does.  Interrupt handlers never
 * use a radix tree.  A radix_tree_preload() while the window is open is a
 * kernel bug (a nested preload, or a task that slept in its window): it
 * panics.
 *
 * As Linux's, the pool keeps its nodes between windows, so a preload
 * allocates only what the inserts since the last one used (mostly
 * nothing: a new page usually goes into an existing leaf).  Those nodes
 * pin slab pages, which ones depending on history, so drop_caches empties
 * the pool with radix_tree_preload_drain() before it shrinks the slab
 * caches, as Linux's radix_tree_callback empties a CPU's pool when the
 * CPU goes offline: counting free pages after it finds leaks exactly.
 *
 * Lookups and deletes allocate nothing; the tree's users serialize them
 * with inserts (the page cache: tree_lock around every change).
 */
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <pageturn/radix-tree.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

/* The preload pool (Linux's per-CPU struct radix_tree_preload). */
static struct {
	unsigned int nr;
	struct radix_tree_node *nodes[RADIX_TREE_PRELOAD_SIZE];
	bool held;			/* between preload and preload_end */
} radix_tree_preloads;

/* The largest index a tree of height levels can hold. */
static unsigned long radix_tree_maxindex(unsigned int height)
{
	unsigned int shift = height * RADIX_TREE_MAP_SHIFT;

	return shift >= 64 ? ~0ul : (1ul << shift) - 1;
}

/* The smallest non-zero height that holds index. */
static unsigned int radix_tree_height_for(unsigned long index)
{
	unsigned int height = 1;

	while (index > radix_tree_maxindex(height))
		height++;
	return height;
}

static unsigned int radix_tree_offset(unsigned long index, unsigned int level)
{
	return (index >> ((level - 1) * RADIX_TREE_MAP_SHIFT)) & RADIX_TREE_MAP_MASK;
}

void radix_tree_preload_drain(void)
{
	if (radix_tree_preloads.held)
		panic("radix_tree_preload_drain: a preload window is open");
	while (radix_tree_preloads.nr)
		kfree(radix_tree_preloads.nodes[--radix_tree_preloads.nr]);
}

int radix_tree_preload(gfp_t gfp_mask)
{
	struct radix_tree_node *node;

	if (radix_tree_preloads.held)
		panic("radix_tree_preload: the preload window is already open");
	while (radix_tree_preloads.nr < RADIX_TREE_PRELOAD_SIZE) {
		node = kmalloc(sizeof(*node), gfp_mask);
		if (!node)
			return -ENOMEM;
		/* kmalloc may have slept: the pool may have filled meanwhile. */
		if (radix_tree_preloads.nr < RADIX_TREE_PRELOAD_SIZE)
			radix_tree_preloads.nodes[radix_tree_preloads.nr++] = node;
		else
			kfree(node);
	}
	radix_tree_preloads.held = true;
	return 0;
}

void radix_tree_preload_end(void)
{
	if (!radix_tree_preloads.held)
		panic("radix_tree_preload_end: no preload window is open");
	radix_tree_preloads.held = false;
}

/* An uninitialized node for root, or NULL (Linux's radix_tree_node_alloc). */
static struct radix_tree_node *radix_tree_node_alloc(struct radix_tree_root *root)
{
	if (!(root->gfp_mask & __GFP_WAIT) && radix_tree_preloads.nr)
		return radix_tree_preloads.nodes[--radix_tree_preloads.nr];
	return kmalloc(sizeof(struct radix_tree_node), root->gfp_mask);
}

static struct radix_tree_node *radix_tree_node_new(struct radix_tree_node **nodes,
						   unsigned int *left)
{
	struct radix_tree_node *node;

	if (*left == 0)
		panic("radix_tree_insert: miscounted the nodes it needs");
	node = nodes[--*left];
	memset(node, 0, sizeof(*node));
	return node;
}

/*
 * How many nodes inserting at index into root needs, and the height the
 * tree will have; -EEXIST if the slot is taken.
 */
static int radix_tree_nodes_needed(struct radix_tree_root *root, unsigned long index,
				   unsigned int *height)
{
	struct radix_tree_node *node = root->rnode;
	unsigned int level;

	if (!node) {
		*height = radix_tree_height_for(index);
		return *height;
	}
	if (index > radix_tree_maxindex(root->height)) {
		/* One new node per new level, and index's path under the new
		 * root leaves slot 0 at once (index needs the top digit), so
		 * every level below the new root needs a node too. */
		*height = radix_tree_height_for(index);
		return (*height - root->height) + (*height - 1);
	}
	*height = root->height;
	for (level = root->height; level > 1; level--) {
		node = node->slots[radix_tree_offset(index, level)];
		if (!node)
			return level - 1;
	}
	return node->slots[radix_tree_offset(index, 1)] ? -EEXIST : 0;
}

int radix_tree_insert(struct radix_tree_root *root, unsigned long index, void *item)
{
	struct radix_tree_node *nodes[RADIX_TREE_PRELOAD_SIZE];
	struct radix_tree_node *node, *parent = NULL;
	unsigned int height, level, got;
	int needed;
	void **slot;

	if (!item)
		panic("radix_tree_insert: a NULL item");
	needed = radix_tree_nodes_needed(root, index, &height);
	if (needed < 0)
		return needed;
	for (got = 0; got < (unsigned int)needed; got++) {
		nodes[got] = radix_tree_node_alloc(root);
		if (!nodes[got]) {
			while (got > 0)
				kfree(nodes[--got]);
			return -ENOMEM;
		}
	}

	/* Grow at the top; an empty tree takes its height at once. */
	if (!root->rnode)
		root->height = height;
	while (root->height < height) {
		node = radix_tree_node_new(nodes, &got);
		node->slots[0] = root->rnode;
		node->count = 1;
		root->rnode = node;
		root->height++;
	}
	slot = (void **)&root->rnode;
	for (level = root->height; level > 0; level--) {
		if (!*slot) {
			*slot = radix_tree_node_new(nodes, &got);
			if (parent)
				parent->count++;
		}
		parent = *slot;
		slot = &parent->slots[radix_tree_offset(index, level)];
	}
	if (got)
		panic("radix_tree_insert: miscounted the nodes it needs");
	*slot = item;
	parent->count++;
	return 0;
}

void *radix_tree_lookup(struct radix_tree_root *root, unsigned long index)
{
	struct radix_tree_node *node = root->rnode;
	unsigned int level;

	if (!node || index > radix_tree_maxindex(root->height))
		return NULL;
	for (level = root->height; level > 1; level--) {
		node = node->slots[radix_tree_offset(index, level)];
		if (!node)
			return NULL;
	}
	return node->slots[radix_tree_offset(index, 1)];
}

/*
 * Empty the slot at index (if it is filled) and free every node on the way
 * up that is left with no slot in use.
 */
void *radix_tree_delete(struct radix_tree_root *root, unsigned long index)
{
	struct radix_tree_node *path[RADIX_TREE_MAX_PATH];
	unsigned int offset[RADIX_TREE_MAX_PATH];
	struct radix_tree_node *node = root->rnode;
	unsigned int level, depth = 0;
	void *item;

	if (!node || index > radix_tree_maxindex(root->height))
		return NULL;
	for (level = root->height; level > 0; level--) {
		if (!node)
			return NULL;
		path[depth] = node;
		offset[depth] = radix_tree_offset(index, level);
		node = node->slots[offset[depth]];
		depth++;
	}
	item = node;
	if (!item)
		return NULL;
	do {
		depth--;
		path[depth]->slots[offset[depth]] = NULL;
		if (--path[depth]->count)
			return item;
		kfree(path[depth]);
	} while (depth > 0);
	root->rnode = NULL;
	root->height = 0;
	return item;
}

/* Fill results[n..max) (and indices[n..max) unless NULL) with the items
 * at indices >= first under node, whose first index is base, in index
 * order; the new n. */
static unsigned int radix_tree_gang(struct radix_tree_node *node, unsigned int level,
				    unsigned long base, unsigned long first, void **results,
				    unsigned long *indices, unsigned int n, unsigned int max)
{
	unsigned int shift = (level - 1) * RADIX_TREE_MAP_SHIFT, i = 0;

	if (first > base)
		i = (first - base) >> shift;
	for (; i < RADIX_TREE_MAP_SIZE && n < max; i++) {
		if (!node->slots[i])
			continue;
		if (level == 1) {
			if (indices)
				indices[n] = base | i;
			results[n++] = node->slots[i];
		} else {
			n = radix_tree_gang(node->slots[i], level - 1, base | ((unsigned long)i << shift),
					    first, results, indices, n, max);
		}
	}
	return n;
}

unsigned int radix_tree_gang_lookup(struct radix_tree_root *root, void **results,
				    unsigned long first_index, unsigned int max_items)
{
	return radix_tree_gang_lookup_index(root, results, NULL, first_index, max_items);
}

unsigned int radix_tree_gang_lookup_index(struct radix_tree_root *root, void **results,
					  unsigned long *indices, unsigned long first_index,
					  unsigned int max_items)
{
	if (!root->rnode || first_index > radix_tree_maxindex(root->height))
		return 0;
	return radix_tree_gang(root->rnode, root->height, 0, first_index, results, indices, 0,
			       max_items);
}
