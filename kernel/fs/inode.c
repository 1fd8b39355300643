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
 * Unused inodes go under memory pressure (prune_icache, oldest first: the
 * hook for reclaim's shrinker) or on request (/proc/sys/vm/drop_caches,
 * and drop_caches() for the kernel's own tests).  There is no
 * umount, so nothing calls invalidate_inodes yet; it is here for it.
 * A linear list is fine at this size; a hash table is the obvious next
 * step.
 */
#include <fs/buffer_head.h>
#include <fs/devfs.h>
#include <fs/vfs.h>
#include <mm/pagemap.h>
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

unsigned long prune_icache(unsigned long nr)
{
	unsigned long pruned = 0;
	struct inode *inode;

	while (pruned < nr && !list_empty(&inode_unused)) {
		inode = list_entry(inode_unused.prev, struct inode, i_lru);
		list_del_init(&inode->i_lru);
		nr_unused_inodes--;
		/* Evicting one inode (ext2's iput of its in-core inode) cannot
		 * put another VFS inode, so the list stays sound. */
		evict(inode);
		pruned++;
	}
	return pruned;
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

/* Linux's drop_slab: the unused inodes go (ext2 writes an evicted inode's
 * dirty pages first), then the radix-tree preload pool's nodes, then the
 * kmalloc caches' empty slabs. */
static void drop_slab(void)
{
	struct cache_sizes *cs;

	prune_icache((unsigned long)-1);
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

void drop_caches(void)
{
	sync_filesystems();
	prune_icache((unsigned long)-1);
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
 * write of 1 drops the page cache's clean pages, 2 the unused inodes and
 * free slabs, 3 both; 4 does neither and silences the console line each
 * write prints from then on.  Nothing is written back first: dirty pages
 * stay (an evicted inode's are written, as eviction always does), which
 * is why one runs sync before.  As on Linux a write the handler ignores
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
