/*
 * Shrinkers: slab pressure in step with LRU pressure (Linux 2.6.28's
 * register_shrinker, unregister_shrinker and shrink_slab, which lived in
 * mm/vmscan.c until Linux 6.7 gave them mm/shrinker.c).
 *
 * Page reclaim scans the LRU lists; the kernel's own caches of objects
 * (the unused inodes of kernel/fs/inode.c, the buffer cache of
 * kernel/fs/buffer.c) are on no LRU list, so reclaim would never see
 * them.  After each round of LRU scanning, reclaim (do_try_to_free_pages,
 * balance_pgdat) and drop_caches call shrink_slab(scanned, gfp_mask,
 * lru_pages), and every registered cache is asked to scan the same share
 * of its objects as reclaim scanned of the LRU pages, weighted by how
 * dear an object is to recreate:
 *
 *     delta = (4 * scanned / seeks) * max_pass / (lru_pages + 1)
 *
 * where max_pass is the cache's own count, shrink(0, gfp_mask).  With
 * DEFAULT_SEEKS (2) a cache is scanned at twice the rate of the LRU
 * lists.  The arithmetic is 2.6.28's to the bit, integer division first.
 *
 * State.  shrinker->nr carries the work owed to a cache from call to
 * call: delta is added to it, and it is scanned in batches of
 * SHRINK_BATCH objects; what is left below a batch (and what a cache
 * refused) stays in nr for the next call.  Two bounds keep nr sane:
 *   - nr never exceeds 2 * max_pass, so a cache that was small when the
 *     debt piled up is not scanned forever once it is big again;
 *   - a negative nr (the sum wrapped) is reported and reset to max_pass.
 * A consequence, as in 2.6.28: a cache with fewer than SHRINK_BATCH / 2
 * objects is never scanned, since its nr cannot reach a batch (Linux
 * 3.16's "shrink all slab objects if tight on memory" changed that).
 *
 * Each batch asks the cache for its count before and after, and counts
 * the difference as freed: that is shrink_slab's return value, and what
 * do_try_to_free_pages adds to its progress.  Each batch scanned counts
 * SHRINK_BATCH in the slabs_scanned event of /proc/vmstat.  A cache that
 * answers -1 cannot work under this gfp_mask (the inode cache without
 * __GFP_FS): its remaining work stays owed, for a caller that can.
 *
 * Locking.  Linux guards the list with shrinker_rwsem: shrink_slab reads
 * (a trylock: a reclaimer never waits for a registration), register and
 * unregister write.  On one CPU whose kernel switches tasks only where
 * one sleeps, a writer's list change never sleeps, so readers never need
 * to wait for a writer; what remains is the writers' side: shrink_slab
 * walks the list across the callbacks' sleeps, and a shrinker must not
 * be added or removed under a walk.  So walkers are counted
 * (shrinker_readers; several may be inside, kswapd and direct reclaimers,
 * even nested: a callback's allocation may reclaim again when it is not
 * already in reclaim), and register/unregister sleep until none is.
 */
#include <mm/shrinker.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/wait.h>

static LIST_HEAD(shrinker_list);
static unsigned int shrinker_readers;		/* shrink_slab calls walking the list */
static DECLARE_WAIT_QUEUE_HEAD(shrinker_wait);	/* for shrinker_readers to reach 0 */

/*
 * Sleep until no shrink_slab walks the list.  The task is on the queue
 * before it tests the count, so the last walker's wake_up is not lost;
 * the caller changes the list before it sleeps again.
 */
static void wait_for_no_walkers(void)
{
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait(&shrinker_wait, &wait, TASK_UNINTERRUPTIBLE);
		if (shrinker_readers == 0)
			break;
		schedule();
	}
	finish_wait(&shrinker_wait, &wait);
}

/* Process context: sleeps while a shrink_slab walks the list. */
void register_shrinker(struct shrinker *shrinker)
{
	shrinker->nr = 0;
	wait_for_no_walkers();
	list_add_tail(&shrinker->list, &shrinker_list);
}

/* Process context: sleeps while a shrink_slab walks the list, so no walk
 * holds the shrinker once this returns. */
void unregister_shrinker(struct shrinker *shrinker)
{
	wait_for_no_walkers();
	list_del(&shrinker->list);
}

/*
 * One shrinker's share (see the top).  shrinker->nr is read and reset
 * before the first callback that may sleep, and the remainder added back
 * after the last, so a concurrent call for the same shrinker (kswapd
 * while a direct reclaimer sleeps in it) takes its own share of the debt.
 */
static unsigned long shrink_one(struct shrinker *shrinker, unsigned long scanned,
				gfp_t gfp_mask, unsigned long lru_pages)
{
	unsigned long max_pass = (unsigned long)shrinker->shrink(0, gfp_mask);
	unsigned long long delta;
	unsigned long total_scan, freed = 0;
	int nr_before, shrink_ret;

	delta = (4 * scanned) / shrinker->seeks;
	delta *= max_pass;
	delta /= lru_pages + 1;
	shrinker->nr += (long)delta;
	if (shrinker->nr < 0) {
		pr_err("shrink_slab: nr=%ld\n", shrinker->nr);
		shrinker->nr = (long)max_pass;
	}
	if ((unsigned long)shrinker->nr > max_pass * 2)
		shrinker->nr = (long)(max_pass * 2);

	total_scan = (unsigned long)shrinker->nr;
	shrinker->nr = 0;
	while (total_scan >= SHRINK_BATCH) {
		nr_before = shrinker->shrink(0, gfp_mask);
		shrink_ret = shrinker->shrink(SHRINK_BATCH, gfp_mask);
		if (shrink_ret == -1)
			break;
		if (shrink_ret < nr_before)
			freed += (unsigned long)(nr_before - shrink_ret);
		count_vm_events(SLABS_SCANNED, SHRINK_BATCH);
		total_scan -= SHRINK_BATCH;
		cond_resched();
	}
	shrinker->nr += (long)total_scan;
	return freed;
}

/*
 * Called by reclaim (do_try_to_free_pages, balance_pgdat: the task has
 * PF_MEMALLOC, so the callbacks' own allocations do not reclaim again)
 * and by drop_slab, in process context with no spinlock held and
 * interrupts on: the callbacks sleep.  gfp_mask is the allocation's on
 * whose behalf reclaim runs; each callback decides what it allows.
 */
unsigned long shrink_slab(unsigned long scanned, gfp_t gfp_mask, unsigned long lru_pages)
{
	struct shrinker *shrinker;
	unsigned long freed = 0;

	if (scanned == 0)
		scanned = SWAP_CLUSTER_MAX;
	/* No shrinker is added or removed while shrinker_readers > 0, so
	 * the walk's pointers stay valid across the callbacks' sleeps. */
	shrinker_readers++;
	list_for_each_entry(shrinker, &shrinker_list, list)
		freed += shrink_one(shrinker, scanned, gfp_mask, lru_pages);
	if (--shrinker_readers == 0)
		wake_up(&shrinker_wait);
	return freed;
}
