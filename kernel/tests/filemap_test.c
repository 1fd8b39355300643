/*
 * Suite "filemap": the page cache under ext2, in the kernel, on a real
 * device.  The QEMU test (tests/qemu/cases.py, filemap_virtio_bios) builds
 * a disk with `mke2fs -d` holding stream.bin (256 KiB) and attaches it as
 * vda; without a vda the cases pass with a "# skipped" line.
 *
 * What is checked is the life of file pages on the LRU lists and in the
 * dirty accounting, through the global counters /proc/meminfo shows:
 *   - the first read of a file puts each page on the inactive file list
 *     (and readahead reads it in growing windows); the second read moves
 *     every page to the active file list;
 *   - write() dirties pages (Dirty: rises), ext2_sync() writes them back
 *     (Dirty: and Writeback: return to 0); a page dirtied over a hole
 *     without write(), as a store through a mapping will, gets its block
 *     at writeback;
 *   - the last iput drops the inode's pages (Cached: falls back).
 * The host runs e2fsck -fn on the image afterwards.
 */
#include <fs/ext2.h>
#include <mm/pagemap.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "vda_ext2.h"

#define STREAM_SIZE (256 * 1024)
#define STREAM_PAGES ((unsigned long)(STREAM_SIZE / PAGE_SIZE))
#define WRITE_SIZE (100 * 1024)

static struct ext2_inode_info *open_file(struct ktest *t, struct ext2_inode_info *dir,
					 const char *name)
{
	uint32_t ino;
	int err;

	KTEST_EXPECT_EQ(t, ext2_lookup(dir, name, &ino), 0);
	return ext2_iget(dir->i_sb, ino, &err);
}

KTEST(filemap, second_read_activates)
{
	unsigned long inactive0, active0, inactive1, active1, inactive2, active2, cached0;
	struct ext2_inode_info *root, *file;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint8_t *buf;

	if (!sbi)
		return;
	buf = kmalloc(STREAM_SIZE, GFP_KERNEL);
	file = open_file(t, root, "stream.bin");
	KTEST_EXPECT(t, buf && file);
	if (buf && file) {
		KTEST_EXPECT_EQ(t, ext2_isize(file), STREAM_SIZE);
		cached0 = global_page_state(NR_FILE_PAGES);
		inactive0 = global_page_state(NR_INACTIVE_FILE);
		active0 = global_page_state(NR_ACTIVE_FILE);
		KTEST_EXPECT_EQ(t, ext2_read_buf(file, 0, buf, STREAM_SIZE), STREAM_SIZE);
		inactive1 = global_page_state(NR_INACTIVE_FILE);
		active1 = global_page_state(NR_ACTIVE_FILE);
		KTEST_EXPECT_EQ(t, inactive1 - inactive0, STREAM_PAGES);
		KTEST_EXPECT_EQ(t, active1, active0);
		KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_PAGES) - cached0, STREAM_PAGES);
		/* Windows of 4, 8, 16, 32 and the last 4 pages, all but the
		 * first started from a PG_readahead page: 1 demand read. */
		KTEST_EXPECT_EQ(t, file->i_mapping.ra.nr_readahead, STREAM_PAGES - 1);
		KTEST_EXPECT_EQ(t, ext2_read_buf(file, 0, buf, STREAM_SIZE), STREAM_SIZE);
		inactive2 = global_page_state(NR_INACTIVE_FILE);
		active2 = global_page_state(NR_ACTIVE_FILE);
		KTEST_EXPECT_EQ(t, inactive1 - inactive2, STREAM_PAGES);
		KTEST_EXPECT_EQ(t, active2 - active1, STREAM_PAGES);
		printk(KERN_INFO "        # stream.bin: %lu pages; Inactive(file) %lu -> %lu -> %lu, "
		       "Active(file) %lu -> %lu -> %lu; %lu read ahead\n", STREAM_PAGES,
		       inactive0, inactive1, inactive2, active0, active1, active2,
		       file->i_mapping.ra.nr_readahead);
		ext2_iput(file);
		KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_PAGES), cached0);
		KTEST_EXPECT_EQ(t, global_page_state(NR_ACTIVE_FILE), active0);
	} else if (file) {
		ext2_iput(file);
	}
	kfree(buf);
	ktest_unmount_vda(t, sbi, root);
}

KTEST(filemap, write_sync_cleans)
{
	struct ext2_inode_info *root, *file;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	unsigned long dirty, blocks;
	struct page *page;
	uint32_t ino;
	uint8_t *buf;
	int err;

	if (!sbi)
		return;
	KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), 0);
	buf = kmalloc(WRITE_SIZE, GFP_KERNEL);
	KTEST_EXPECT(t, buf != NULL);
	KTEST_EXPECT_EQ(t, ext2_create(root, "written.bin", 0644, &ino), 0);
	file = ext2_iget(sbi, ino, &err);
	KTEST_EXPECT(t, file != NULL);
	if (buf && file) {
		memset(buf, 0x3c, WRITE_SIZE);
		KTEST_EXPECT_EQ(t, ext2_write_buf(file, 0, buf, WRITE_SIZE), WRITE_SIZE);
		dirty = global_page_state(NR_FILE_DIRTY);
		KTEST_EXPECT_EQ(t, dirty, WRITE_SIZE / PAGE_SIZE);
		KTEST_EXPECT_EQ(t, ext2_sync(sbi), 0);
		KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), 0);
		KTEST_EXPECT_EQ(t, global_page_state(NR_WRITEBACK), 0);
		printk(KERN_INFO "        # %u KiB written: Dirty %lu kB, after sync 0 kB\n",
		       WRITE_SIZE / 1024, dirty * (PAGE_SIZE / 1024));

		/* A page over a hole, dirtied without write(): writeback
		 * allocates its blocks. */
		KTEST_EXPECT_EQ(t, ext2_truncate(file, WRITE_SIZE + PAGE_SIZE), 0);
		KTEST_EXPECT_EQ(t, ext2_read_buf(file, WRITE_SIZE, buf, PAGE_SIZE), PAGE_SIZE);
		blocks = file->i_raw.i_blocks;
		page = find_lock_page(&file->i_mapping, WRITE_SIZE / PAGE_SIZE);
		KTEST_EXPECT(t, page != NULL);
		if (page) {
			memset(page_address(page), 0x7e, PAGE_SIZE);
			set_page_dirty(page);
			unlock_page(page);
			page_cache_release(page);
		}
		KTEST_EXPECT_EQ(t, ext2_sync(sbi), 0);
		KTEST_EXPECT_EQ(t, file->i_raw.i_blocks - blocks, PAGE_SIZE / SECTOR_SIZE);
		KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), 0);
	}
	if (file)
		ext2_iput(file);
	kfree(buf);
	ktest_unmount_vda(t, sbi, root);
}
