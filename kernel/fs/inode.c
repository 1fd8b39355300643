/*
 * The inode cache (Linux's fs/inode.c: iget_locked, ihold, iput,
 * prune_icache, invalidate_inodes, and fs/drop_caches.c).
 *
 * Each super_block lists its in-core inodes on s_inodes.  iget() returns
 * the cached inode for a number, or makes one and lets the filesystem's
 * read_inode fill it, so two lookups of the same file share one struct
 * inode: its size, link count, mount flag and i_mutex are the same for
 * everyone.  That holds while read_inode sleeps too: the new inode is
 * cached from the start, marked I_NEW, and a second iget waits for it.
 *
 * The last iput() of an inode that still has links does not free it: the
 * inode stays in its super_block's cache, unused (i_count 0), on the
 * global inode_unused LRU (newest at the head), with the filesystem's
 * private part still held -- for ext2 the in-core inode and its page
 * cache, so a file's pages outlive a close and a second open finds them
 * (and can promote them to Active(file)).  ext2's sync walks its in-core
 * inodes, so sync_filesystems and the flusher still write the dirty pages
 * of unused inodes.  iget() takes an unused inode off the LRU again.
 * An inode without links (unlinked while open, or just now), or one whose
 * filesystem's drop_inode says so (tmpfs: its names hold its inodes), is
 * evicted at its last iput: evict_inode releases the private part (ext2
 * then frees an unlinked file's blocks) and the inode is freed.
 *
 * Unused inodes go under memory pressure, oldest first, through the
 * inode cache's shrinker (icache_shrinker: mm/shrinker.c calls it in
 * step with LRU scanning, and /proc/sys/vm/drop_caches through the same
 * shrinkers), or all at once in drop_caches() for the kernel's own
 * tests.  Pruning an inode (Linux 2.6.28's prune_icache) first drops its
 * clean page cache; an inode left with pages (dirty, under writeback,
 * locked) waits at the young end of the LRU for the flusher or sync to
 * clean them, and only an inode without pages is evicted.  The pages
 * dropped are counted as pginodesteal (kswapd_inodesteal in kswapd).
 *
 * Evicting runs the filesystem, which may sleep and do I/O: ext2 writes
 * the in-core inode into its inode table block, reading that block
 * first if the buffer cache does not hold it.  So the shrinker refuses
 * to work without __GFP_FS (see shrink_icache_memory for the rule).
 * There is no umount, so nothing calls invalidate_inodes yet; it is
 * here for it.  A linear list is fine at this size; a hash table is the
 * obvious next step.
 */
#include <fs/buffer_head.h>
#include <fs/devfs.h>
#include <fs/vfs.h>
#include <mm/pagemap.h>
#include <mm/shrinker.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/radix-tree.h>
#include <pageturn/sched.h>
#include <pageturn/sysctl.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

/* Unused inodes of every super_block, most recently used first. */
static LIST_HEAD(inode_unused);
unsigned long nr_unused_inodes;

/* Tasks waiting for an inode being read (I_NEW) to be ready or gone. */
static DECLARE_WAIT_QUEUE_HEAD(inode_wait);

/* Is inode ino of sb in the cache, being read (I_NEW)?  Looked up by
 * number each time: a waiter keeps no pointer across its sleep. */
static bool inode_being_read(struct super_block *sb, uint64_t ino)
{
	struct inode *inode;

	list_for_each_entry(inode, &sb->s_inodes, i_sb_list)
		if (inode->i_ino == ino)
			return inode->i_state & I_NEW;
	return false;
}

/*
 * Linux's iget_locked and unlock_new_inode in one: a new inode is in the
 * cache, marked I_NEW, before read_inode starts (ext2's sleeps on the
 * disk), so a second iget of the number waits for it instead of reading
 * a second struct inode for the same file, whose i_mutex would exclude
 * nothing.  The waiter looks the number up again afterwards: the read
 * may have failed and the inode gone.
 */
int iget(struct super_block *sb, uint64_t ino, struct inode **res)
{
	struct inode *inode;
	int err;

again:
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		if (inode->i_ino != ino)
			continue;
		if (inode->i_state & I_NEW) {
			wait_event(inode_wait, !inode_being_read(sb, ino));
			goto again;
		}
		if (inode->i_count++ == 0) {
			list_del_init(&inode->i_lru);
			nr_unused_inodes--;
		}
		*res = inode;
		return 0;
	}
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	if (!inode)
		return -ENOMEM;
	inode->i_ino = ino;
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_state = I_NEW;
	mutex_init(&inode->i_mutex);
	INIT_LIST_HEAD(&inode->i_lru);
	list_add(&inode->i_sb_list, &sb->s_inodes);
	err = sb->s_op->read_inode(inode);
	if (err)
		list_del(&inode->i_sb_list);
	else
		inode->i_state &= ~I_NEW;
	wake_up(&inode_wait);
	if (err) {
		kfree(inode);
		return err;
	}
	*res = inode;
	return 0;
}

void ihold(struct inode *inode)
{
	if (inode->i_count <= 0)
		panic("ihold: inode %lu is not held", (unsigned long)inode->i_ino);
	inode->i_count++;
}

/* Off the cache and gone: the filesystem releases its part, then the VFS. */
static void evict(struct inode *inode)
{
	list_del(&inode->i_sb_list);
	inode->i_sb->s_op->evict_inode(inode);
	kfree(inode);
}

/* Linux's generic_drop_inode: keep it cached while it has a name. */
static bool drop_inode(struct inode *inode)
{
	const struct super_operations *op = inode->i_sb->s_op;

	if (op->drop_inode)
		return op->drop_inode(inode);
	return inode->i_nlink == 0;
}

void iput(struct inode *inode)
{
	if (inode->i_count <= 0)
		panic("iput: inode %lu put once too often", (unsigned long)inode->i_ino);
	if (--inode->i_count)
		return;
	if (drop_inode(inode)) {
		evict(inode);
		return;
	}
	list_add(&inode->i_lru, &inode_unused);
	nr_unused_inodes++;
}

/*
 * Look at up to nr_to_scan unused inodes, oldest first (Linux 2.6.28's
 * prune_icache).  One with page cache loses its clean pages first
 * (invalidate_mapping_pages, which never sleeps, so the inode stays the
 * coldest unused one meanwhile); if some are left it goes to the young
 * end, otherwise it is evicted.  Eviction sleeps in the filesystem, and
 * iget and iput change the list meanwhile, so each round takes the
 * coldest inode afresh and keeps no pointer across the eviction.
 *
 * Called from the shrinker with __GFP_FS (see shrink_icache_memory), or
 * by drop_caches(); process context.
 */
static void prune_icache(unsigned long nr_to_scan)
{
	unsigned long nr_scanned, reap = 0;
	struct inode *inode;

	for (nr_scanned = 0; nr_scanned < nr_to_scan; nr_scanned++) {
		if (list_empty(&inode_unused))
			break;
		inode = list_entry(inode_unused.prev, struct inode, i_lru);
		if (inode->i_mapping && inode->i_mapping->nrpages) {
			reap += invalidate_mapping_pages(inode->i_mapping, 0, (pgoff_t)-1);
			if (inode->i_mapping->nrpages) {
				list_move(&inode->i_lru, &inode_unused);
				continue;
			}
		}
		list_del_init(&inode->i_lru);
		nr_unused_inodes--;
		evict(inode);
	}
	if (current->flags & PF_KSWAPD)
		count_vm_events(KSWAPD_INODESTEAL, reap);
	else
		count_vm_events(PGINODESTEAL, reap);
}

/*
 * The inode cache's shrinker (Linux 2.6.28's shrink_icache_memory): its
 * count is the unused inodes (Linux scales it by vm.vfs_cache_pressure
 * percent, rounded down to hundreds of inodes; Pageturn has no such knob
 * and counts exactly).
 *
 * The __GFP_FS rule.  Reclaim calls shrinkers from inside allocations,
 * and an allocation may come from the filesystem itself.  Pruning evicts
 * inodes, and evicting runs ext2: it reads and dirties inode table
 * buffers, waits on locked buffers and pages, and allocates.  A task
 * that allocates while it holds a filesystem resource -- a locked buffer
 * or page under I/O (start_buffer_write, mpage's write bios), a
 * half-made change whose pieces must not be seen apart -- could then
 * wait on itself, or see its own change half made.  Such allocations
 * pass GFP_NOFS (no __GFP_FS), and for them this shrinker does nothing:
 * it answers -1 and shrink_slab keeps the work owed for a caller that
 * can.  A GFP_KERNEL allocation may hold i_mutex or page locks of inodes
 * that are in use, never of an unused one, which is all pruning touches.
 */
static int shrink_icache_memory(int nr, gfp_t gfp_mask)
{
	if (nr) {
		if (!(gfp_mask & __GFP_FS))
			return -1;
		prune_icache((unsigned long)nr);
	}
	return (int)MIN(nr_unused_inodes, (unsigned long)__INT_MAX__);
}

static struct shrinker icache_shrinker = {
	.shrink = shrink_icache_memory,
	.seeks = DEFAULT_SEEKS,
};

void inode_init(void)
{
	register_shrinker(&icache_shrinker);
}

int invalidate_inodes(struct super_block *sb)
{
	struct inode *inode, *next;
	int busy = 0;

	list_for_each_entry_safe(inode, next, &sb->s_inodes, i_sb_list) {
		if (inode->i_count) {
			busy = 1;
			continue;
		}
		list_del_init(&inode->i_lru);
		nr_unused_inodes--;
		evict(inode);
	}
	return busy;
}

/*
 * Linux 2.6.28's drop_slab: every shrinker (the unused inodes, the
 * buffer cache's clean buffers), as if reclaim had scanned 1000 of 1000
 * LRU pages, until a round frees 10 objects or fewer; then what the
 * shrinkers freed leaves the slab allocator too: the radix-tree preload
 * pool's nodes and the kmalloc caches' empty slabs.
 */
static void drop_slab(void)
{
	struct cache_sizes *cs;

	while (shrink_slab(1000, GFP_KERNEL, 1000) > 10)
		;
	radix_tree_preload_drain();
	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
}

static void drop_buffers(struct super_block *sb, void *arg)
{
	(void)arg;
	if (sb->s_bdev)
		invalidate_bdev(sb->s_bdev);
}

/* After the sync every unused inode's pages are clean, so one pass over
 * the list prunes them all. */
void drop_caches(void)
{
	sync_filesystems();
	prune_icache(nr_unused_inodes);
	/* Evicting wrote the inodes back into buffers: write those too. */
	sync_filesystems();
	iterate_supers(drop_buffers, NULL);
	drop_slab();
}

/*
 * Linux's drop_pagecache_sb: the clean, unmapped, unlocked pages of every
 * cached inode of sb, in use or not.  invalidate_mapping_pages never
 * sleeps, so s_inodes cannot change during the walk and no inode needs
 * holding.  An inode being read (I_NEW) is skipped.
 */
static void drop_pagecache_sb(struct super_block *sb, void *arg)
{
	struct inode *inode;

	(void)arg;
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list)
		if (!(inode->i_state & I_NEW) && inode->i_mapping && inode->i_mapping->nrpages)
			invalidate_mapping_pages(inode->i_mapping, 0, (pgoff_t)-1);
}

int sysctl_drop_caches;

/*
 * /proc/sys/vm/drop_caches (Linux 6.1's drop_caches_sysctl_handler): a
 * write of 1 drops the page cache's clean pages, 2 what the shrinkers
 * give (unused inodes, clean buffers) and the free slabs, 3 both; 4 does
 * neither and silences the console line each write prints from then on.
 * Nothing is written back first: dirty pages stay, and so do their
 * inodes, which is why one runs sync before.  As on Linux a write the handler ignores
 * (one not at position 0) acts again on the value last written.
 */
int drop_caches_sysctl_handler(const struct ctl_table *table, int write, void *buffer,
			       size_t *lenp, loff_t *ppos)
{
	static bool stfu;
	int err = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (err || !write)
		return err;
	if (sysctl_drop_caches & 1) {
		iterate_supers(drop_pagecache_sb, NULL);
		count_vm_event(DROP_PAGECACHE);
	}
	if (sysctl_drop_caches & 2) {
		drop_slab();
		count_vm_event(DROP_SLAB);
	}
	if (!stfu)
		pr_info("%s (%d): drop_caches: %d\n", current->comm, current->pid,
			sysctl_drop_caches);
	stfu |= sysctl_drop_caches & 4;
	return 0;
}

void init_special_inode(struct inode *inode, umode_t mode, uint32_t rdev)
{
	inode->i_mode = mode;
	inode->i_rdev = rdev;
	inode->i_fop = S_ISCHR(mode) ? &def_chr_fops : S_ISBLK(mode) ? &def_blk_fops : NULL;
}
