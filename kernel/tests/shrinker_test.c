/*
 * Suite "shrinker": the slab shrinkers on the real machine (mm/shrinker.c,
 * the inode cache's in kernel/fs/inode.c, the buffer cache's in
 * kernel/fs/buffer.c), called through shrink_slab as reclaim calls it.
 *
 * Each case makes NR_FILES one-page files in /shrink on the ext2 root,
 * written back, so that their inodes sit unused with a clean page each,
 * and fills the buffer cache with NR_BUFFERS clean metadata blocks.  Then:
 *   - without __GFP_FS the inode cache refuses (no inode, no page goes)
 *     while the buffer cache still gives its clean buffers back;
 *   - with GFP_KERNEL, drop_slab's loop frees every unused inode and its
 *     page: pginodesteal counts the pages, slabs_scanned the batches, and
 *     the files read back intact;
 *   - the same pruning from kswapd (PF_KSWAPD) counts kswapd_inodesteal
 *     instead;
 *   - an unused inode with a dirty page is passed over (its data is not
 *     lost, nor written by the shrinker), and goes once sync cleaned it.
 * Every case removes its files.
 */
#include <fs/buffer_head.h>
#include <fs/proc_fs.h>
#include <fs/vfs.h>
#include <mm/gfp.h>
#include <mm/shrinker.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define NR_FILES 300ul
#define NR_BUFFERS 200ul
#define DIR "/shrink"

static unsigned long event(enum vm_event_item item)
{
	return vm_event_states.event[item];
}

static void file_path(char *buf, size_t size, unsigned int i)
{
	snprintf(buf, size, DIR "/f%03u", i);
}

/* One page of file i's pattern into buf. */
static void file_pattern(uint8_t *buf, unsigned int i)
{
	ktest_fill_pattern(buf, (uint64_t)i * PAGE_SIZE, PAGE_SIZE);
}

static bool write_file(struct ktest *t, unsigned int i, uint8_t *buf, bool sync)
{
	char path[32];
	struct file *f = NULL;
	bool ok;

	file_path(path, sizeof(path), i);
	file_pattern(buf, i);
	KTEST_EXPECT_EQ(t, vfs_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644, &f), 0);
	if (!f)
		return false;
	ok = vfs_write(f, buf, PAGE_SIZE) == PAGE_SIZE && (!sync || vfs_fsync(f) == 0);
	vfs_close(f);
	KTEST_EXPECT(t, ok);
	return ok;
}

/* Read file i whole: does it hold its pattern? */
static bool file_intact(unsigned int i, uint8_t *buf)
{
	char path[32];
	struct file *f = NULL;
	long n;

	file_path(path, sizeof(path), i);
	if (vfs_open(path, O_RDONLY, 0, &f))
		return false;
	n = vfs_read(f, buf, PAGE_SIZE);
	vfs_close(f);
	return n == PAGE_SIZE && ktest_check_pattern(buf, (uint64_t)i * PAGE_SIZE, PAGE_SIZE);
}

/* NR_FILES files, written back: their inodes unused, a clean page each. */
static bool make_files(struct ktest *t, uint8_t *buf)
{
	unsigned int i;

	drop_caches();
	KTEST_EXPECT_EQ(t, vfs_mkdir(DIR, 0755), 0);
	for (i = 0; i < NR_FILES; i++)
		if (!write_file(t, i, buf, true))
			return false;
	KTEST_EXPECT_EQ(t, sync_filesystems(), 0);
	return true;
}

static void remove_files(struct ktest *t)
{
	char path[32];
	unsigned int i;

	for (i = 0; i < NR_FILES; i++) {
		file_path(path, sizeof(path), i);
		vfs_unlink(path);
	}
	KTEST_EXPECT_EQ(t, vfs_rmdir(DIR), 0);
	KTEST_EXPECT_EQ(t, sync_filesystems(), 0);
}

/* NR_BUFFERS clean, unreferenced buffers of the root device's first
 * blocks (metadata: superblock, descriptors, bitmaps, inode table). */
static void fill_buffer_cache(struct ktest *t)
{
	struct block_device *bdev = NULL;
	struct file *root = NULL;
	struct buffer_head *bh;
	unsigned int i;

	KTEST_EXPECT_EQ(t, vfs_open("/", O_RDONLY | O_DIRECTORY, 0, &root), 0);
	if (!root)
		return;
	bdev = root->f_inode->i_sb->s_bdev;
	for (i = 0; i < NR_BUFFERS; i++) {
		bh = __bread(bdev, i, root->f_inode->i_blksize);
		KTEST_EXPECT(t, bh != NULL);
		brelse(bh);
	}
	vfs_close(root);
}

/* drop_slab's loop, as reclaim would call it: the objects freed. */
static unsigned long shrink_all(gfp_t gfp_mask)
{
	unsigned long freed = 0, n;

	do {
		n = shrink_slab(1000, gfp_mask, 1000);
		freed += n;
	} while (n > 10);
	return freed;
}

KTEST(shrinker, nofs_spares_inodes_gfp_kernel_prunes_them)
{
	unsigned long unused0, steal0, ksteal0, scanned0, bufs0, freed, i, intact = 0;
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

	KTEST_EXPECT(t, buf != NULL);
	if (!buf || !make_files(t, buf))
		goto out;
	fill_buffer_cache(t);
	unused0 = nr_unused_inodes;
	steal0 = event(PGINODESTEAL);
	ksteal0 = event(KSWAPD_INODESTEAL);
	scanned0 = event(SLABS_SCANNED);
	bufs0 = nr_blockdev_pages();
	KTEST_EXPECT(t, unused0 >= NR_FILES);
	KTEST_EXPECT(t, bufs0 >= NR_BUFFERS);

	/* GFP_NOFS: the inode cache refuses, the buffer cache does not. */
	shrink_all(GFP_NOFS);
	KTEST_EXPECT_EQ(t, nr_unused_inodes, unused0);
	KTEST_EXPECT_EQ(t, event(PGINODESTEAL), steal0);
	KTEST_EXPECT(t, nr_blockdev_pages() + NR_BUFFERS / 2 <= bufs0);
	KTEST_EXPECT(t, event(SLABS_SCANNED) >= scanned0 + SHRINK_BATCH);
	printk(KERN_INFO "    # GFP_NOFS: unused inodes %lu -> %lu, buffers %lu -> %lu, "
	       "slabs_scanned +%lu\n", unused0, nr_unused_inodes, bufs0, nr_blockdev_pages(),
	       event(SLABS_SCANNED) - scanned0);

	/* GFP_KERNEL: every unused inode goes, with its page. */
	scanned0 = event(SLABS_SCANNED);
	freed = shrink_all(GFP_KERNEL);
	KTEST_EXPECT_EQ(t, nr_unused_inodes, 0);
	KTEST_EXPECT(t, freed >= unused0);
	KTEST_EXPECT(t, event(PGINODESTEAL) >= steal0 + NR_FILES);
	KTEST_EXPECT_EQ(t, event(KSWAPD_INODESTEAL), ksteal0);
	KTEST_EXPECT(t, event(SLABS_SCANNED) >= scanned0 + unused0);
	printk(KERN_INFO "    # GFP_KERNEL: %lu objects freed, unused inodes %lu -> %lu, "
	       "pginodesteal +%lu, slabs_scanned +%lu\n", freed, unused0, nr_unused_inodes,
	       event(PGINODESTEAL) - steal0, event(SLABS_SCANNED) - scanned0);

	for (i = 0; i < NR_FILES; i++)
		intact += file_intact(i, buf);
	KTEST_EXPECT_EQ(t, intact, NR_FILES);
	remove_files(t);
out:
	kfree(buf);
}

KTEST(shrinker, kswapd_counts_kswapd_inodesteal)
{
	unsigned long steal0, ksteal0, i, intact = 0;
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	unsigned int flags = current->flags;

	KTEST_EXPECT(t, buf != NULL);
	if (!buf || !make_files(t, buf))
		goto out;
	steal0 = event(PGINODESTEAL);
	ksteal0 = event(KSWAPD_INODESTEAL);
	/* The test borrows kswapd's flag for the pruning only: prune_icache
	 * reads current's flags to choose the counter, and the flag is this
	 * task's alone (other tasks running during the evictions' sleeps
	 * have their own). */
	current->flags |= PF_KSWAPD;
	shrink_all(GFP_KERNEL);
	current->flags = flags;
	KTEST_EXPECT_EQ(t, nr_unused_inodes, 0);
	KTEST_EXPECT(t, event(KSWAPD_INODESTEAL) >= ksteal0 + NR_FILES);
	KTEST_EXPECT_EQ(t, event(PGINODESTEAL), steal0);
	for (i = 0; i < NR_FILES; i++)
		intact += file_intact(i, buf);
	KTEST_EXPECT_EQ(t, intact, NR_FILES);
	remove_files(t);
out:
	kfree(buf);
}

KTEST(shrinker, dirty_page_keeps_its_inode)
{
	unsigned long dirty0;
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

	KTEST_EXPECT(t, buf != NULL);
	if (!buf || !make_files(t, buf))
		goto out;
	/* File 0 again, not written back: its page is dirty. */
	dirty0 = global_page_state(NR_FILE_DIRTY);
	if (!write_file(t, 0, buf, false))
		goto out_remove;
	KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), dirty0 + 1);
	shrink_all(GFP_KERNEL);
	KTEST_EXPECT_EQ(t, nr_unused_inodes, 1);
	KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), dirty0 + 1);
	KTEST_EXPECT(t, file_intact(0, buf));
	/* Written back, it is an inode like the others. */
	drop_caches();
	KTEST_EXPECT_EQ(t, nr_unused_inodes, 0);
	KTEST_EXPECT(t, global_page_state(NR_FILE_DIRTY) <= dirty0);
	KTEST_EXPECT(t, file_intact(0, buf));
out_remove:
	remove_files(t);
out:
	kfree(buf);
}
