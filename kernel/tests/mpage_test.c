/*
 * Suite "mpage": ext2 file I/O in large requests (fs/mpage.c), on a real
 * virtio disk.  The QEMU cases (tests/qemu/cases.py, mpage_virtio_1k_bios
 * and mpage_virtio_4k_bios) build the disk with `mke2fs -d` from:
 *   mib.bin     1 MiB, contiguous
 *   big.bin     32 MiB
 *   sparse.bin  data in [0, 101 KiB) and [2 MiB + 1 KiB, 2 MiB + 301 KiB),
 *               holes elsewhere, 3 MiB + 1000 bytes long
 * Every data byte is known: the 32-bit word at byte offset o of a file is
 * o / 4 ^ the file's salt; a hole reads as zeroes.  Without a vda the
 * cases pass with a "# skipped" line.
 *
 *   read_contiguous  mib.bin and big.bin, cold, read in 64 KiB pieces:
 *                    every byte checked, and the disk's request count
 *                    (what /proc/diskstats shows) is far below one per
 *                    page: readahead went out in multi-page bios
 *   readahead_window the device's ra_pages (what BLKRASET sets) is the
 *                    window of its files: 0 reads mib.bin a page per
 *                    request, 128 pages in fewer requests than the default
 *   read_sparse      holes read as zeroes around data, pages that are
 *                    part hole and part data included (with 1 KiB blocks)
 *   write_fragmented two files written in alternating 4 KiB pieces, so
 *                    their blocks interleave on the disk; synced, dropped
 *                    from the cache, read back and checked
 *   write_sequential an 8 MiB file written, synced in far fewer requests
 *                    than pages, read back cold and checked
 * The host then runs e2fsck -fn and compares the written files with
 * debugfs.
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

#define CHUNK		(64 * 1024)	/* read and write size, as dd bs=64k */
#define SALT_MIB	0x11000000u
#define SALT_BIG	0x22000000u
#define SALT_SPARSE	0x33000000u
#define SALT_FRAG_A	0x44000000u
#define SALT_FRAG_B	0x55000000u
#define SALT_SEQ	0x66000000u
#define FRAG_SIZE	(1024 * 1024)
#define SEQ_SIZE	(8 * 1024 * 1024)

/* The byte at offset o of a file of salt whose data covers o. */
static uint8_t pattern_byte(uint32_t salt, uint64_t o)
{
	uint32_t word = (uint32_t)(o / 4) ^ salt;

	return (uint8_t)(word >> (8 * (o % 4)));
}

static void fill_pattern(uint8_t *buf, uint32_t salt, uint64_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern_byte(salt, off + i);
}

/* sparse.bin's data ranges. */
static bool sparse_has_data(uint64_t o)
{
	return o < 101 * 1024 || (o >= 2048 * 1024 + 1024 && o < 2048 * 1024 + 301 * 1024);
}

/* Bytes of buf (len at off in a file of salt) that differ from the
 * pattern; sparse: holes where sparse_has_data says so. */
static size_t count_bad(const uint8_t *buf, uint32_t salt, uint64_t off, size_t len, bool sparse)
{
	size_t i, bad = 0;

	for (i = 0; i < len; i++) {
		uint8_t want = !sparse || sparse_has_data(off + i) ? pattern_byte(salt, off + i) : 0;

		bad += buf[i] != want;
	}
	return bad;
}

static struct ext2_inode_info *open_file(struct ktest *t, struct ext2_inode_info *dir,
					 const char *name)
{
	uint32_t ino;
	int err;

	KTEST_EXPECT_EQ(t, ext2_lookup(dir, name, &ino), 0);
	return ext2_iget(dir->i_sb, ino, &err);
}

/* Read all of name in CHUNK pieces and check it: the bytes that were
 * wrong, or -1 when it could not be read.  *requests: disk reads it took. */
static long read_and_check(struct ktest *t, struct ext2_inode_info *root, const char *name,
			   uint32_t salt, bool sparse, uint64_t size, uint64_t *requests)
{
	struct block_device *bdev = root->i_sb->s_bdev;
	struct ext2_inode_info *file = open_file(t, root, name);
	uint8_t *buf = kmalloc(CHUNK, GFP_KERNEL);
	uint64_t off, reads = bdev->reads;
	long n, bad = 0;

	KTEST_EXPECT(t, file && buf);
	if (!file || !buf) {
		bad = -1;
		goto out;
	}
	KTEST_EXPECT_EQ(t, ext2_isize(file), size);
	for (off = 0; off < size; off += n) {
		n = ext2_read_buf(file, off, buf, CHUNK);
		KTEST_EXPECT(t, n > 0);
		if (n <= 0) {
			bad = -1;
			break;
		}
		bad += count_bad(buf, salt, off, n, sparse);
	}
	*requests = bdev->reads - reads;
out:
	if (file)
		ext2_iput(file);
	kfree(buf);
	return bad;
}

KTEST(mpage, read_contiguous)
{
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint64_t requests = 0;

	if (!sbi)
		return;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "mib.bin", SALT_MIB, false, 1 << 20, &requests), 0);
	/* 256 pages: windows of 4, 8, 16 and then 32 pages, each a bio or
	 * two (an indirect block sits between the direct blocks and the
	 * rest), plus the indirect blocks themselves. */
	KTEST_EXPECT(t, requests < 32);
	printk(KERN_INFO "        # mib.bin: 1 MiB in %lu requests\n", (unsigned long)requests);
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "big.bin", SALT_BIG, false, 32 << 20, &requests), 0);
	/* 8192 pages; with 1 KiB blocks an indirect block every 256 KiB
	 * splits a bio and costs a read of its own. */
	KTEST_EXPECT(t, requests < (32 << 20) / PAGE_SIZE / 8);
	printk(KERN_INFO "        # big.bin: 32 MiB in %lu requests\n", (unsigned long)requests);
	ktest_unmount_vda(t, sbi, root);
}

KTEST(mpage, readahead_window)
{
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	struct backing_dev_info *bdi;
	uint64_t off_requests = 0, big_requests = 0, def_requests = 0;
	unsigned long saved;

	if (!sbi)
		return;
	bdi = &sbi->s_bdev->backing_dev_info;
	saved = bdi->ra_pages;
	KTEST_EXPECT_EQ(t, saved, VM_MAX_READAHEAD);
	bdi->ra_pages = 0;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "mib.bin", SALT_MIB, false, 1 << 20,
					  &off_requests), 0);
	bdi->ra_pages = 128;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "mib.bin", SALT_MIB, false, 1 << 20,
					  &big_requests), 0);
	bdi->ra_pages = saved;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "mib.bin", SALT_MIB, false, 1 << 20,
					  &def_requests), 0);
	KTEST_EXPECT(t, off_requests >= (1 << 20) / PAGE_SIZE);
	KTEST_EXPECT(t, big_requests < def_requests);
	printk(KERN_INFO "        # mib.bin: %lu requests without readahead, %lu with 512 KiB, "
	       "%lu with 128 KiB\n", (unsigned long)off_requests, (unsigned long)big_requests,
	       (unsigned long)def_requests);
	ktest_unmount_vda(t, sbi, root);
}

KTEST(mpage, read_sparse)
{
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint64_t requests = 0;

	if (!sbi)
		return;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "sparse.bin", SALT_SPARSE, true,
					  3 * 1024 * 1024 + 1000, &requests), 0);
	printk(KERN_INFO "        # sparse.bin: read in %lu requests\n", (unsigned long)requests);
	ktest_unmount_vda(t, sbi, root);
}

/* Create name in root: the held inode, or NULL. */
static struct ext2_inode_info *create_file(struct ktest *t, struct ext2_inode_info *root,
					   const char *name)
{
	uint32_t ino;
	int err;

	KTEST_EXPECT_EQ(t, ext2_create(root, name, 0644, &ino), 0);
	return ext2_iget(root->i_sb, ino, &err);
}

/* Times file's block map jumps between consecutive blocks: more than a
 * handful means its blocks are not one run on the disk. */
static unsigned int count_discontinuities(struct ext2_inode_info *file, uint64_t size)
{
	unsigned int bits = file->i_sb->s_blocksize_bits, jumps = 0;
	uint32_t block, prev = 0;
	uint64_t lblk;

	for (lblk = 0; lblk < size >> bits; lblk++) {
		if (ext2_get_block(file, lblk, false, &block, NULL))
			return 0;
		if (lblk && block != prev + 1)
			jumps++;
		prev = block;
	}
	return jumps;
}

KTEST(mpage, write_fragmented)
{
	struct ext2_inode_info *root, *a = NULL, *b = NULL;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint64_t off, requests = 0;
	unsigned int jumps = 0;
	uint8_t *buf;

	if (!sbi)
		return;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	a = create_file(t, root, "frag_a.bin");
	b = create_file(t, root, "frag_b.bin");
	KTEST_EXPECT(t, buf && a && b);
	if (!buf || !a || !b)
		goto out;
	for (off = 0; off < FRAG_SIZE; off += PAGE_SIZE) {
		fill_pattern(buf, SALT_FRAG_A, off, PAGE_SIZE);
		KTEST_EXPECT_EQ(t, ext2_write_buf(a, off, buf, PAGE_SIZE), PAGE_SIZE);
		fill_pattern(buf, SALT_FRAG_B, off, PAGE_SIZE);
		KTEST_EXPECT_EQ(t, ext2_write_buf(b, off, buf, PAGE_SIZE), PAGE_SIZE);
	}
	jumps = count_discontinuities(a, FRAG_SIZE);
	KTEST_EXPECT(t, jumps > 16);
	KTEST_EXPECT_EQ(t, ext2_sync(sbi), 0);
	ext2_iput(a);
	ext2_iput(b);
	a = b = NULL;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "frag_a.bin", SALT_FRAG_A, false, FRAG_SIZE,
					  &requests), 0);
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "frag_b.bin", SALT_FRAG_B, false, FRAG_SIZE,
					  &requests), 0);
	printk(KERN_INFO "        # frag_a.bin: %u block runs, frag_b.bin read in %lu requests\n",
	       jumps + 1, (unsigned long)requests);
out:
	if (a)
		ext2_iput(a);
	if (b)
		ext2_iput(b);
	kfree(buf);
	ktest_unmount_vda(t, sbi, root);
}

KTEST(mpage, write_sequential)
{
	struct ext2_inode_info *root, *file;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint64_t off, writes, requests = 0;
	uint8_t *buf;

	if (!sbi)
		return;
	buf = kmalloc(CHUNK, GFP_KERNEL);
	file = create_file(t, root, "seq.bin");
	KTEST_EXPECT(t, buf && file);
	if (!buf || !file)
		goto out;
	for (off = 0; off < SEQ_SIZE; off += CHUNK) {
		fill_pattern(buf, SALT_SEQ, off, CHUNK);
		KTEST_EXPECT_EQ(t, ext2_write_buf(file, off, buf, CHUNK), CHUNK);
	}
	writes = sbi->s_bdev->writes;
	KTEST_EXPECT_EQ(t, ext2_sync(sbi), 0);
	writes = sbi->s_bdev->writes - writes;
	/* 2048 pages: data in bios of many pages, plus the metadata blocks. */
	KTEST_EXPECT(t, writes < SEQ_SIZE / PAGE_SIZE / 4);
	KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), 0);
	KTEST_EXPECT_EQ(t, global_page_state(NR_WRITEBACK), 0);
	ext2_iput(file);
	file = NULL;
	KTEST_EXPECT_EQ(t, read_and_check(t, root, "seq.bin", SALT_SEQ, false, SEQ_SIZE, &requests), 0);
	printk(KERN_INFO "        # seq.bin: 8 MiB synced in %lu requests, read back in %lu\n",
	       (unsigned long)writes, (unsigned long)requests);
out:
	if (file)
		ext2_iput(file);
	kfree(buf);
	ktest_unmount_vda(t, sbi, root);
}
