/*
 * Shrinkers: how reclaim asks the kernel's own caches to give memory back
 * (Linux 2.6.28's struct shrinker and shrink_slab, which Linux 6.7 moved
 * from mm/vmscan.c to mm/shrinker.c).  mm/shrinker.c says how the
 * pressure on each cache is computed.
 *
 * A cache that can free objects on request (the unused inodes, the
 * buffer cache's clean buffers) registers one struct shrinker.  Its
 * callback is called two ways:
 *
 *   shrink(0, gfp_mask)   "how many objects could you free?"  Never
 *                         sleeps, never frees.
 *   shrink(n, gfp_mask)   "try to free up to n objects, working only as
 *                         gfp_mask allows", then the same count as
 *                         shrink(0) would give now; or -1 when the cache
 *                         cannot work at all under gfp_mask (the inode
 *                         cache without __GFP_FS).  It may sleep.
 */
#ifndef MM_SHRINKER_H
#define MM_SHRINKER_H

#include <mm/gfp.h>
#include <pageturn/list.h>

struct shrinker {
	int (*shrink)(int nr_to_scan, gfp_t gfp_mask);
	int seeks;		/* cost of recreating an object, in disk seeks */
	/* private to mm/shrinker.c */
	struct list_head list;
	long nr;		/* objects to scan, carried to the next call */
};

/* An object a seek or two to recreate: Linux's default. */
#define DEFAULT_SEEKS 2

/* Objects asked of a shrinker per call. */
#define SHRINK_BATCH 128

/* Process context; may sleep while a shrink_slab is running. */
void register_shrinker(struct shrinker *shrinker);
void unregister_shrinker(struct shrinker *shrinker);

/*
 * Ask every shrinker to free its share: scanned LRU pages of lru_pages
 * were just scanned (0 counts as SWAP_CLUSTER_MAX).  Returns the objects
 * freed, as the shrinkers' counts fell.  Process context, may sleep.
 */
unsigned long shrink_slab(unsigned long scanned, gfp_t gfp_mask, unsigned long lru_pages);

#endif
