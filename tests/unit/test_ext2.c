/*
 * Host unit tests for the buffer cache (kernel/fs/buffer.c) and ext2
 * (kernel/fs/ext2/), on the fake machine of fake_machine.c: real slab
 * allocator, fake page allocator, block devices backed by image files.
 *
 * Images are made at run time by mke2fs -d from a staging directory the
 * test fills: a small text file, a file large enough to need double
 * indirect blocks at every block size, a sparse file reaching the triple
 * indirect blocks at 1 KiB, and nested directories.  Reads are checked
 * against the staging files.  Every test that writes ends by unmounting
 * and requiring `e2fsck -fn` to find the image clean.  Corrupt copies must
 * fail with -EIO or -EINVAL and one printk line, never crash (ASan is on).
 * The image fixtures (e2fsprogs, fake disks) are ext2_image.c's.
 */
#include <fcntl.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <asm/page.h>
#include <fs/buffer_head.h>
#include <fs/ext2.h>
#include <mm/pagemap.h>
#include <uapi/errno.h>

#include "ext2_image.h"
#include "fake_uaccess.h"
#include "kernel_stubs.h"

#define BIG_SIZE (5 * 1024 * 1024 + 777)		/* double indirect at 4 KiB */
#define SPARSE_SIZE (80ull * 1024 * 1024)		/* triple indirect at 1 KiB */
static const uint64_t sparse_offsets[] = { 0, 300 * 1024, 9 * 1024 * 1024 + 5,
					   70ull * 1024 * 1024 + 1, SPARSE_SIZE - 10 };

static unsigned char pattern(uint64_t i, unsigned int seed)
{
	return (unsigned char)((i * 2654435761u) >> 13) ^ seed;
}

static void write_host_file(const char *name, const void *data, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", staging, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void make_staging(void)
{
	unsigned char *big = malloc(BIG_SIZE);
	char path[256];
	size_t i;
	int fd;

	run("mkdir -p %s/a/b/c %s/emptydir", staging, staging);
	write_host_file("small.txt", "hello, ext2\n", 12);
	write_host_file("a/b/c/deep.txt", "deep\n", 5);
	for (i = 0; i < BIG_SIZE; i++)
		big[i] = pattern(i, 0);
	write_host_file("big.bin", big, BIG_SIZE);
	free(big);
	snprintf(path, sizeof(path), "%s/sparse.bin", staging);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, SPARSE_SIZE), 0);
	for (i = 0; i < ARRAY_SIZE(sparse_offsets); i++)
		assert_int_equal(pwrite(fd, "SPARSE-DATA", 10, sparse_offsets[i]), 10);
	close(fd);
}

/* A fresh image of block size bs; extra goes to mke2fs. */
static void make_image(unsigned int bs, const char *extra)
{
	run(MKE2FS " -q -F -t ext2 -b %u %s -d %s %s 24M >/dev/null", bs, extra, staging, image);
}

/* Overwrite len bytes at off of the image. */
static void poke(uint64_t off, const void *data, size_t len)
{
	int fd = open(image, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, data, len, off), len);
	close(fd);
}

/* The image's current fake disk (ext2_image.h's cur_disk). */
#define disk (*cur_disk)

static int mount_error(void)
{
	struct ext2_sb_info *sbi;
	int err;

	open_disk();
	log_clear();
	sbi = ext2_mount(&disk.bdev, &err);
	fake_disk_close(&disk);
	assert_null(sbi);
	assert_int_equal(log_count("ext2:"), 1);
	return err;
}

static int walk_error(struct ext2_sb_info *sbi, const char *path)
{
	int err;
	struct ext2_inode_info *inode = walk(sbi, path, &err);

	assert_null(inode);
	return err;
}

/* The file at path must hold exactly the host file's bytes. */
static void check_against_host(struct ext2_sb_info *sbi, const char *path)
{
	struct ext2_inode_info *inode = get(sbi, path);
	static unsigned char a[65536], b[65536];
	char host[256];
	uint64_t off = 0;
	long n;
	int fd;

	snprintf(host, sizeof(host), "%s/%s", staging, path);
	fd = open(host, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(ext2_isize(inode), lseek(fd, 0, SEEK_END));
	for (;;) {
		n = ext2_read_buf(inode, off, a, sizeof(a));
		assert_true(n >= 0);
		assert_int_equal(pread(fd, b, sizeof(b), off), n);
		if (n == 0)
			break;
		if (memcmp(a, b, n))
			fail_msg("%s differs near offset %llu", path, (unsigned long long)off);
		off += n;
	}
	close(fd);
	ext2_iput(inode);
}

struct names {
	char list[64][64];
	unsigned int n, stop_after;
};

static int collect(void *ctx, const char *name, unsigned int len, uint32_t ino, unsigned int type)
{
	struct names *names = ctx;

	(void)type;
	assert_true(ino > 0);
	if (names->stop_after && names->n == names->stop_after)
		return 1;
	if (names->n < 64)
		snprintf(names->list[names->n], 64, "%.*s", (int)len, name);
	names->n++;
	return 0;
}

static bool has_name(const struct names *names, const char *name)
{
	unsigned int i;

	for (i = 0; i < MIN(names->n, 64u); i++)
		if (!strcmp(names->list[i], name))
			return true;
	return false;
}

/* --- the buffer cache ---------------------------------------------------- */

static void test_buffer_cache(void **state)
{
	unsigned long pages = fake_pages_in_use();
	struct buffer_head *bh, *bh2, *three[3];
	unsigned char host[1024];
	unsigned int i;
	int fd;

	(void)state;
	make_image(1024, "");
	open_disk();
	bh = __bread(&disk.bdev, 1, 1024);
	assert_non_null(bh);
	assert_true(buffer_uptodate(bh));
	assert_int_equal(((struct ext2_super_block *)bh->b_data)->s_magic, EXT2_SUPER_MAGIC);
	bh2 = __getblk(&disk.bdev, 1, 1024);
	assert_ptr_equal(bh, bh2);
	assert_int_equal(bh->b_count, 2);
	brelse(bh2);

	/* Write through a dirty buffer. */
	bh2 = __bread(&disk.bdev, 5000, 1024);
	assert_non_null(bh2);
	memset(bh2->b_data, 0x5a, 1024);
	mark_buffer_dirty(bh2);
	assert_true(buffer_dirty(bh2));
	assert_int_equal(sync_dirty_buffer(bh2), 0);
	assert_false(buffer_dirty(bh2));
	fd = open(image, O_RDONLY);
	assert_int_equal(pread(fd, host, 1024, 5000 * 1024), 1024);
	close(fd);
	assert_int_equal(host[0], 0x5a);
	assert_int_equal(host[1023], 0x5a);
	brelse(bh2);

	/* Many blocks: the cache stays bounded, dirty ones are written back. */
	for (i = 0; i < 2000; i++) {
		bh2 = __bread(&disk.bdev, 100 + i, 1024);
		assert_non_null(bh2);
		bh2->b_data[0] = (char)i;
		mark_buffer_dirty(bh2);
		brelse(bh2);
	}
	assert_true(fake_pages_in_use() - pages < 600);
	assert_int_equal(sync_blockdev(&disk.bdev), 0);
	fd = open(image, O_RDONLY);
	for (i = 0; i < 2000; i += 97) {
		assert_int_equal(pread(fd, host, 1, (100 + i) * 1024), 1);
		assert_int_equal(host[0], (unsigned char)i);
	}
	close(fd);

	/* Errors: beyond the device, impossible sizes, failing I/O. */
	assert_null(__bread(&disk.bdev, disk.bdev.nr_sectors, 1024));
	assert_null(__getblk(&disk.bdev, 1, 3000));
	assert_null(__getblk(&disk.bdev, 1, 8192));
	disk.fail_after = 0;
	log_clear();
	assert_null(__bread(&disk.bdev, 7000, 1024));
	if (log_count("read error") != 1)
		fail_msg("log: %s", log_buf);
	bh2 = __getblk(&disk.bdev, 7001, 1024);
	memset(bh2->b_data, 0, 1024);
	mark_buffer_dirty(bh2);
	assert_int_equal(sync_dirty_buffer(bh2), -EIO);
	assert_true(buffer_dirty(bh2));
	disk.fail_after = -1;
	assert_int_equal(sync_dirty_buffer(bh2), 0);
	brelse(bh2);

	/* sync_blockdev writes in block order: of three, the first write
	 * succeeds, the other two fail, stay dirty and give -EIO. */
	for (i = 0; i < 3; i++) {
		three[i] = __getblk(&disk.bdev, 7100 + i, 1024);
		memset(three[i]->b_data, 0x5a, 1024);
		mark_buffer_dirty(three[i]);
	}
	disk.fail_after = 1;
	log_clear();
	assert_int_equal(sync_blockdev(&disk.bdev), -EIO);
	if (log_count("write error") != 2)
		fail_msg("log: %s", log_buf);
	assert_false(buffer_dirty(three[0]));
	assert_true(buffer_dirty(three[1]));
	assert_true(buffer_dirty(three[2]));
	for (i = 0; i < 3; i++)
		assert_false(buffer_locked(three[i]));
	disk.fail_after = -1;
	assert_int_equal(sync_blockdev(&disk.bdev), 0);
	for (i = 0; i < 3; i++) {
		assert_false(buffer_dirty(three[i]));
		brelse(three[i]);
	}

	/* The superblock buffer is still held: it must survive. */
	assert_int_equal(((struct ext2_super_block *)bh->b_data)->s_magic, EXT2_SUPER_MAGIC);
	brelse(bh);
	expect_panic(brelse(bh), "no reference");
	invalidate_bdev(&disk.bdev);
	/* Every buffer page is back; the slab may keep one page of heads and
	 * one of sync_blockdev's bios (kmalloc-96 and kmalloc-128). */
	assert_true(fake_pages_in_use() - pages <= 2);
	fake_disk_close(&disk);
}

/* --- reading ------------------------------------------------------------- */

static void check_reads(struct ext2_sb_info *sbi)
{
	struct ext2_inode_info *root, *small;
	struct names names = { .n = 0 };
	char buf[64];
	uint64_t pos = 0;
	uint32_t ino;

	check_against_host(sbi, "small.txt");
	check_against_host(sbi, "a/b/c/deep.txt");
	check_against_host(sbi, "big.bin");
	check_against_host(sbi, "sparse.bin");

	root = get(sbi, "");
	assert_int_equal(ext2_readdir(root, &pos, collect, &names), 0);
	assert_true(has_name(&names, "."));
	assert_true(has_name(&names, ".."));
	assert_true(has_name(&names, "small.txt"));
	assert_true(has_name(&names, "big.bin"));
	assert_true(has_name(&names, "sparse.bin"));
	assert_true(has_name(&names, "a"));
	assert_true(has_name(&names, "emptydir"));
	assert_true(has_name(&names, "lost+found"));
	/* Stopping and resuming sees every entry once. */
	names.n = 0;
	names.stop_after = 3;
	pos = 0;
	assert_int_equal(ext2_readdir(root, &pos, collect, &names), 0);
	assert_int_equal(names.n, 3);
	names.stop_after = 0;
	assert_int_equal(ext2_readdir(root, &pos, collect, &names), 0);
	assert_int_equal(names.n, 8);

	assert_int_equal(ext2_lookup(root, "nosuch", &ino), -ENOENT);
	assert_int_equal(ext2_lookup(root, "", &ino), -ENOENT);
	{
		char longname[300];

		memset(longname, 'x', 299);
		longname[299] = '\0';
		assert_int_equal(ext2_lookup(root, longname, &ino), -ENAMETOOLONG);
	}
	assert_int_equal(ext2_read_buf(root, 0, buf, 10), -EISDIR);
	small = get(sbi, "small.txt");
	assert_int_equal(ext2_lookup(small, "x", &ino), -ENOTDIR);
	pos = 0;
	assert_int_equal(ext2_readdir(small, &pos, collect, &names), -ENOTDIR);
	assert_int_equal(ext2_read_buf(small, 7, buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "ext2\n", 5);
	assert_int_equal(ext2_read_buf(small, 12, buf, sizeof(buf)), 0);
	assert_int_equal(ext2_unmount(sbi), -EBUSY);
	ext2_iput(small);
	ext2_iput(root);
	assert_int_equal(walk_error(sbi, "small.txt/x"), -ENOTDIR);
	assert_int_equal(walk_error(sbi, "a/nosuch"), -ENOENT);
}

static void check_reads_and_unmount(struct ext2_sb_info *sbi)
{
	check_reads(sbi);
	unmount(sbi);
}

static void test_read(void **state)
{
	unsigned long pages;

	make_image(block_size(state), "");
	check_reads_and_unmount(mount_image());
	/* Nothing stays behind: a second round ends where the first did. */
	pages = fake_pages_in_use();
	check_reads_and_unmount(mount_image());
	assert_int_equal(fake_pages_in_use(), pages);
}

static void test_read_large_inodes(void **state)
{
	(void)state;
	make_image(1024, "-I 256");
	check_reads_and_unmount(mount_image());
}

static void test_read_rev0(void **state)
{
	struct ext2_sb_info *sbi;
	uint32_t ino;

	(void)state;
	make_image(1024, "-r 0");
	sbi = mount_image();
	assert_false(sbi->s_filetype);
	assert_int_equal(sbi->s_inode_size, 128);
	check_reads(sbi);
	/* Writes work without file types too. */
	{
		struct ext2_inode_info *root = get(sbi, "");

		assert_int_equal(ext2_mkdir(root, "newdir", 0755, &ino), 0);
		assert_int_equal(ext2_create(root, "newfile", 0644, &ino), 0);
		ext2_iput(root);
	}
	unmount_clean(sbi);
}

/* --- writing ------------------------------------------------------------- */

static long write_pattern(struct ext2_inode_info *inode, uint64_t off, size_t len, unsigned int seed)
{
	static unsigned char buf[3001];
	size_t done = 0, n, i;
	long r;

	while (done < len) {
		n = MIN(sizeof(buf), len - done);
		for (i = 0; i < n; i++)
			buf[i] = pattern(off + done + i, seed);
		r = ext2_write_buf(inode, off + done, buf, n);
		if (r < 0)
			return done ? (long)done : r;
		done += r;
		if ((size_t)r < n)
			break;
	}
	return done;
}

/* Bytes [off, off + len) must hold the pattern (or zeroes for seed -1). */
static void check_pattern(struct ext2_inode_info *inode, uint64_t off, size_t len, int seed)
{
	static unsigned char buf[4096];
	size_t done = 0, n, i;

	while (done < len) {
		n = MIN(sizeof(buf), len - done);
		assert_int_equal(ext2_read_buf(inode, off + done, buf, n), n);
		for (i = 0; i < n; i++) {
			unsigned char want = seed < 0 ? 0 : pattern(off + done + i, seed);

			if (buf[i] != want)
				fail_msg("byte %llu: %#x, want %#x", (unsigned long long)(off + done + i),
					 buf[i], want);
		}
		done += n;
	}
}

static void test_write(void **state)
{
	unsigned int bs = block_size(state);
	uint64_t a = bs / 4, size = (EXT2_NDIR_BLOCKS + a + 10) * bs + 123;
	struct ext2_inode_info *root, *f;
	struct ext2_sb_info *sbi;
	uint32_t ino, free_before;

	make_image(bs, "");
	sbi = mount_image();
	free_before = sbi->s_es->s_free_blocks_count;
	root = get(sbi, "");
	assert_int_equal(ext2_create(root, "new.bin", 0644, &ino), 0);
	assert_int_equal(ext2_create(root, "new.bin", 0644, &ino), -EEXIST);
	f = get(sbi, "new.bin");
	assert_int_equal(write_pattern(f, 0, size, 1), size);
	check_pattern(f, 0, size, 1);
	/* Overwrite across the single/double indirect boundary. */
	assert_int_equal(write_pattern(f, (EXT2_NDIR_BLOCKS + a) * bs - 1000, 5000, 2), 5000);
	check_pattern(f, (EXT2_NDIR_BLOCKS + a) * bs - 1000, 5000, 2);
	check_pattern(f, 0, 1000, 1);
	/* Write past the end: a hole in between. */
	assert_int_equal(write_pattern(f, size + 3 * bs + 7, 100, 3), 100);
	check_pattern(f, size, 3 * bs + 7, -1);
	assert_int_equal(ext2_isize(f), size + 3 * bs + 107);
	ext2_iput(f);
	ext2_iput(root);
	assert_int_equal(ext2_sync(sbi), 0);
	unmount_clean(sbi);

	sbi = mount_image();
	f = get(sbi, "new.bin");
	check_pattern(f, 0, 1000, 1);
	check_pattern(f, size + 3 * bs + 7, 100, 3);
	ext2_iput(f);
	root = get(sbi, "");
	assert_int_equal(ext2_unlink(root, "new.bin"), 0);
	assert_int_equal(ext2_unlink(root, "new.bin"), -ENOENT);
	assert_int_equal(ext2_unlink(root, "a"), -EISDIR);
	ext2_iput(root);
	assert_int_equal(sbi->s_es->s_free_blocks_count, free_before);
	unmount_clean(sbi);
}

static void test_dirs(void **state)
{
	struct ext2_inode_info *root, *d1, *d2;
	struct names names = { .n = 0 };
	struct ext2_sb_info *sbi;
	unsigned int i, root_links, used_dirs;
	uint64_t pos = 0;
	uint32_t ino;
	char name[64];

	make_image(block_size(state), "");
	sbi = mount_image();
	root = get(sbi, "");
	root_links = root->i_raw.i_links_count;
	used_dirs = ext2_group_desc(sbi, 0, &(struct buffer_head *){ NULL })->bg_used_dirs_count;
	assert_int_equal(ext2_mkdir(root, "d1", 0755, &ino), 0);
	assert_int_equal(ext2_mkdir(root, "d1", 0755, &ino), -EEXIST);
	assert_int_equal(root->i_raw.i_links_count, root_links + 1);
	d1 = get(sbi, "d1");
	assert_int_equal(d1->i_raw.i_links_count, 2);
	assert_int_equal(ext2_mkdir(d1, "d2", 0755, &ino), 0);
	assert_int_equal(d1->i_raw.i_links_count, 3);
	/* Enough entries to grow d1 past one block. */
	for (i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "a-rather-long-file-name-number-%03u", i);
		assert_int_equal(ext2_create(d1, name, 0644, &ino), 0);
	}
	assert_true(ext2_isize(d1) > 1024);
	assert_int_equal(ext2_readdir(d1, &pos, collect, &names), 0);
	assert_int_equal(names.n, 63);
	assert_int_equal(ext2_rmdir(root, "d1"), -ENOTEMPTY);
	assert_int_equal(ext2_rmdir(d1, "a-rather-long-file-name-number-000"), -ENOTDIR);
	assert_int_equal(ext2_rmdir(d1, "."), -EINVAL);
	assert_int_equal(ext2_rmdir(d1, ".."), -ENOTEMPTY);
	for (i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "a-rather-long-file-name-number-%03u", i);
		assert_int_equal(ext2_unlink(d1, name), 0);
	}
	d2 = get(sbi, "d1/d2");
	assert_int_equal(ext2_create(d2, "f", 0644, &ino), 0);
	assert_int_equal(ext2_create(d2, "bad/name", 0644, &ino), -EINVAL);
	assert_int_equal(ext2_rmdir(d1, "d2"), -ENOTEMPTY);
	assert_int_equal(ext2_unlink(d2, "f"), 0);
	ext2_iput(d2);
	assert_int_equal(ext2_rmdir(d1, "d2"), 0);
	assert_int_equal(d1->i_raw.i_links_count, 2);
	ext2_iput(d1);
	assert_int_equal(ext2_rmdir(root, "d1"), 0);
	assert_int_equal(ext2_lookup(root, "d1", &ino), -ENOENT);
	assert_int_equal(root->i_raw.i_links_count, root_links);
	assert_int_equal(ext2_group_desc(sbi, 0, &(struct buffer_head *){ NULL })->bg_used_dirs_count,
			 used_dirs);
	/* Leave some state behind for e2fsck to look at. */
	assert_int_equal(ext2_mkdir(root, "kept", 0700, &ino), 0);
	d1 = get(sbi, "kept");
	assert_int_equal(ext2_create(d1, "file", 0600, &ino), 0);
	ext2_iput(d1);
	ext2_iput(root);
	unmount_clean(sbi);
	sbi = mount_image();
	check_against_host(sbi, "big.bin");
	d1 = get(sbi, "kept/file");
	ext2_iput(d1);
	unmount(sbi);
}

static void test_rename(void **state)
{
	struct ext2_inode_info *root, *a, *b, *x;
	struct ext2_sb_info *sbi;
	uint32_t ino, small_ino, big_ino;
	unsigned int root_links, a_links;

	make_image(block_size(state), "");
	sbi = mount_image();
	root = get(sbi, "");
	a = get(sbi, "a");
	b = get(sbi, "a/b");
	root_links = root->i_raw.i_links_count;
	a_links = a->i_raw.i_links_count;
	assert_int_equal(ext2_lookup(root, "small.txt", &small_ino), 0);
	assert_int_equal(ext2_lookup(root, "big.bin", &big_ino), 0);

	/* Within a directory, then across. */
	assert_int_equal(ext2_rename(root, "small.txt", root, "renamed.txt"), 0);
	assert_int_equal(ext2_lookup(root, "small.txt", &ino), -ENOENT);
	assert_int_equal(ext2_rename(root, "renamed.txt", b, "moved.txt"), 0);
	assert_int_equal(ext2_lookup(b, "moved.txt", &ino), 0);
	assert_int_equal(ino, small_ino);
	/* Over an existing file: the target goes. */
	assert_int_equal(ext2_rename(b, "moved.txt", root, "big.bin"), 0);
	assert_int_equal(ext2_lookup(root, "big.bin", &ino), 0);
	assert_int_equal(ino, small_ino);
	x = get(sbi, "big.bin");
	assert_int_equal(x->i_raw.i_links_count, 1);
	assert_int_equal(ext2_isize(x), 12);
	ext2_iput(x);
	assert_int_equal(ext2_rename(root, "big.bin", root, "big.bin"), 0);

	/* Errors. */
	assert_int_equal(ext2_rename(root, "nosuch", root, "x"), -ENOENT);
	assert_int_equal(ext2_rename(root, "a", b, "a"), -EINVAL);	/* under itself */
	assert_int_equal(ext2_rename(root, "a", a, "x"), -EINVAL);
	assert_int_equal(ext2_rename(root, "emptydir", root, "a"), -ENOTEMPTY);
	assert_int_equal(ext2_rename(root, "big.bin", root, "a"), -EISDIR);
	assert_int_equal(ext2_rename(root, "emptydir", root, "big.bin"), -ENOTDIR);
	assert_int_equal(ext2_rename(root, ".", root, "x"), -EINVAL);

	/* A directory moves: ".." and the link counts follow. */
	assert_int_equal(ext2_rename(root, "emptydir", a, "moved"), 0);
	assert_int_equal(root->i_raw.i_links_count, root_links - 1);
	assert_int_equal(a->i_raw.i_links_count, a_links + 1);
	x = get(sbi, "a/moved");
	assert_int_equal(ext2_lookup(x, "..", &ino), 0);
	assert_int_equal(ino, a->i_ino);
	ext2_iput(x);
	/* A directory replaces an empty one. */
	assert_int_equal(ext2_mkdir(root, "empty2", 0755, &ino), 0);
	assert_int_equal(ext2_rename(a, "moved", root, "empty2"), 0);
	assert_int_equal(root->i_raw.i_links_count, root_links);
	assert_int_equal(a->i_raw.i_links_count, a_links);
	ext2_iput(b);
	ext2_iput(a);
	ext2_iput(root);
	unmount_clean(sbi);
}

static void test_truncate(void **state)
{
	unsigned int bs = block_size(state);
	uint64_t a = bs / 4;
	uint64_t cuts[] = { (EXT2_NDIR_BLOCKS + a + 3) * bs + 17, (EXT2_NDIR_BLOCKS + 2) * bs,
			    5 * bs + 1, 100, 0 };
	struct ext2_inode_info *f, *root;
	struct ext2_sb_info *sbi;
	uint32_t free_before, ino;
	unsigned int i;

	make_image(bs, "");
	sbi = mount_image();
	root = get(sbi, "");
	free_before = sbi->s_es->s_free_blocks_count;
	f = get(sbi, "big.bin");
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		assert_int_equal(ext2_truncate(f, cuts[i]), 0);
		assert_int_equal(ext2_isize(f), cuts[i]);
		check_pattern(f, cuts[i] > 5000 ? cuts[i] - 5000 : 0, MIN(cuts[i], 5000u), 0);
	}
	assert_int_equal(f->i_raw.i_blocks, 0);
	/* Growing makes a hole that reads as zeroes, also over the old tail. */
	assert_int_equal(write_pattern(f, 0, 3 * bs, 4), 3 * bs);
	assert_int_equal(ext2_truncate(f, bs + 10), 0);
	assert_int_equal(ext2_truncate(f, 200 * bs), 0);
	check_pattern(f, 0, bs + 10, 4);
	check_pattern(f, bs + 10, 199 * bs - 10, -1);
	assert_int_equal(ext2_truncate(root, 0), -EISDIR);
	ext2_iput(f);
	assert_int_equal(ext2_unlink(root, "big.bin"), 0);
	assert_int_equal(ext2_create(root, "again", 0644, &ino), 0);
	ext2_iput(root);
	assert_true(sbi->s_es->s_free_blocks_count > free_before);
	unmount_clean(sbi);
}

static void test_enospc(void **state)
{
	struct ext2_inode_info *root, *f;
	struct ext2_sb_info *sbi;
	uint32_t ino;
	long n;

	make_image(block_size(state), "");
	sbi = mount_image();
	root = get(sbi, "");
	assert_int_equal(ext2_create(root, "fill", 0644, &ino), 0);
	f = get(sbi, "fill");
	n = write_pattern(f, 0, 64 << 20, 5);
	assert_true(n > 0 && n < (64 << 20));
	assert_int_equal(sbi->s_es->s_free_blocks_count, 0);
	assert_int_equal(ext2_write_buf(f, n, "x", 1), -ENOSPC);
	assert_int_equal(ext2_mkdir(root, "nospace", 0755, &ino), -ENOSPC);
	check_pattern(f, n - 4096, 4096, 5);
	ext2_iput(f);
	ext2_iput(root);
	assert_int_equal(ext2_sync(sbi), 0);
	unmount_clean(sbi);
	/* Still usable: free the space and write again. */
	sbi = mount_image();
	root = get(sbi, "");
	assert_int_equal(ext2_unlink(root, "fill"), 0);
	assert_int_equal(ext2_create(root, "after", 0644, &ino), 0);
	f = get(sbi, "after");
	assert_int_equal(write_pattern(f, 0, 100000, 6), 100000);
	check_pattern(f, 0, 100000, 6);
	ext2_iput(f);
	ext2_iput(root);
	unmount_clean(sbi);
}

/*
 * A write extending a file whose source is gone at the copy though it
 * was there when faulted in (reclaimed, then its file truncated: the
 * fault-in before the page lock cannot see that coming), at the start of
 * the file's third block: prepare_write has allocated that block when
 * the copy stops.  The write returns the bytes before it, and no block
 * is left past the new end (e2fsck: "i_size is ..., should be ...").
 */
static void test_short_write_past_end(void **state)
{
	unsigned int bs = block_size(state);
	struct ext2_inode_info *root, *f;
	struct ext2_sb_info *sbi;
	size_t len = 3 * bs;
	char *src = malloc(len), got[2 * 4096];
	uint32_t ino, free_blocks;
	struct iov_iter iter;
	struct iovec iov;

	assert_non_null(src);
	for (size_t i = 0; i < len; i++)
		src[i] = (char)pattern(100 + i, 8);
	make_image(bs, "");
	sbi = mount_image();
	root = get(sbi, "");
	assert_int_equal(ext2_create(root, "short", 0644, &ino), 0);
	f = get(sbi, "short");
	assert_int_equal(write_pattern(f, 0, 100, 8), 100);
	free_blocks = sbi->s_es->s_free_blocks_count;

	fake_user = (struct fake_user){ .base = src, .len = len, .bad = 2 * bs - 100, .late = true };
	iov_iter_init(&iter, WRITE, &iov, 1, len);
	iov = (struct iovec){ src, len };
	assert_int_equal(ext2_write(f, 100, &iter), 2 * bs - 100);
	fake_user = (struct fake_user){ 0 };
	assert_int_equal(ext2_isize(f), 2 * bs);
	assert_int_equal(f->i_raw.i_blocks, 2 * (bs >> 9));
	assert_int_equal(sbi->s_es->s_free_blocks_count, free_blocks - 1);
	assert_int_equal(ext2_read_buf(f, 0, got, sizeof(got)), 2 * bs);
	check_pattern(f, 0, 2 * bs, 8);

	ext2_iput(f);
	ext2_iput(root);
	free(src);
	unmount_clean(sbi);
}

/*
 * A write that needs a new indirect block and a data block when one
 * block is free: the indirect block takes it, the data block finds the
 * disk full.  -ENOSPC, and the indirect block is given back.
 */
static void test_enospc_indirect(void **state)
{
	unsigned int bs = block_size(state);
	struct ext2_inode_info *root, *f, *fill;
	struct ext2_sb_info *sbi;
	uint32_t ino, blocks;
	uint64_t size;

	make_image(bs, "");
	sbi = mount_image();
	root = get(sbi, "");
	assert_int_equal(ext2_create(root, "direct", 0644, &ino), 0);
	f = get(sbi, "direct");
	assert_int_equal(write_pattern(f, 0, 12 * bs, 9), 12 * bs);
	blocks = f->i_raw.i_blocks;
	assert_int_equal(ext2_create(root, "fill", 0644, &ino), 0);
	fill = get(sbi, "fill");
	size = write_pattern(fill, 0, 64 << 20, 5);
	assert_int_equal(sbi->s_es->s_free_blocks_count, 0);
	/* Give back data blocks of fill until exactly one block is free. */
	while (sbi->s_es->s_free_blocks_count == 0) {
		size -= bs;
		assert_int_equal(ext2_truncate(fill, size), 0);
	}
	assert_int_equal(sbi->s_es->s_free_blocks_count, 1);
	assert_int_equal(ext2_write_buf(f, 12 * bs, "x", 1), -ENOSPC);
	assert_int_equal(ext2_isize(f), 12 * bs);
	assert_int_equal(f->i_raw.i_blocks, blocks);
	assert_int_equal(sbi->s_es->s_free_blocks_count, 1);
	check_pattern(f, 0, 12 * bs, 9);
	ext2_iput(fill);
	ext2_iput(f);
	ext2_iput(root);
	unmount_clean(sbi);
}

/* An unlinked file stays readable while held; the last iput frees it. */
static void test_unlink_held(void **state)
{
	struct ext2_inode_info *root, *f;
	struct ext2_sb_info *sbi;
	uint32_t free_inodes;

	(void)state;
	make_image(1024, "");
	sbi = mount_image();
	root = get(sbi, "");
	free_inodes = sbi->s_es->s_free_inodes_count;
	f = get(sbi, "big.bin");
	assert_int_equal(ext2_unlink(root, "big.bin"), 0);
	check_pattern(f, 0, 10000, 0);
	assert_int_equal(sbi->s_es->s_free_inodes_count, free_inodes);
	ext2_iput(f);
	assert_int_equal(sbi->s_es->s_free_inodes_count, free_inodes + 1);
	ext2_iput(root);
	unmount_clean(sbi);
}

/* Deleting files whose extended attributes live in a block (set here with
 * debugfs, shared by two files) gives the block back only with the last
 * one; e2fsck checks the counts and bitmaps after each step. */
static void test_unlink_xattr_block(void **state)
{
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi;
	uint32_t free_blocks;

	(void)state;
	make_image(1024, "-I 128");
	run(DEBUGFS " -w -R 'ea_set /small.txt user.note %0512d' %s >/dev/null 2>&1", 7, image);
	run(DEBUGFS " -w -R 'ea_set /big.bin user.note %0512d' %s >/dev/null 2>&1", 7, image);
	fsck_clean();
	sbi = mount_image();
	root = get(sbi, "");
	free_blocks = sbi->s_es->s_free_blocks_count;
	assert_int_equal(ext2_unlink(root, "small.txt"), 0);
	ext2_iput(root);
	unmount_clean(sbi);

	sbi = mount_image();
	root = get(sbi, "");
	assert_int_equal(ext2_unlink(root, "big.bin"), 0);
	assert_true(sbi->s_es->s_free_blocks_count > free_blocks + BIG_SIZE / 1024);
	ext2_iput(root);
	unmount_clean(sbi);
}

/* --- corruption and features ---------------------------------------------- */

static void test_bad_superblocks(void **state)
{
	uint16_t u16;
	uint32_t u32;

	(void)state;
	make_image(1024, "");
	u16 = 0x1234;
	poke(1024 + offsetof(struct ext2_super_block, s_magic), &u16, 2);
	assert_int_equal(mount_error(), -EINVAL);

	make_image(1024, "");
	u32 = 40;
	poke(1024 + offsetof(struct ext2_super_block, s_log_block_size), &u32, 4);
	assert_int_equal(mount_error(), -EINVAL);

	make_image(1024, "");
	u32 = 0;
	poke(1024 + offsetof(struct ext2_super_block, s_inodes_per_group), &u32, 4);
	assert_int_equal(mount_error(), -EIO);

	make_image(1024, "");
	u32 = 0x7fffffff;
	poke(1024 + offsetof(struct ext2_super_block, s_blocks_count), &u32, 4);
	assert_int_equal(mount_error(), -EIO);

	/* Group 0's inode table far out of range (descriptors at block 2). */
	make_image(1024, "");
	u32 = 0x00fffff0;
	poke(2 * 1024 + offsetof(struct ext2_group_desc, bg_inode_table), &u32, 4);
	assert_int_equal(mount_error(), -EIO);
}

static void test_incompat_features(void **state)
{
	static const uint32_t bad[] = { EXT3_FEATURE_INCOMPAT_RECOVER, EXT2_FEATURE_INCOMPAT_META_BG,
					EXT4_FEATURE_INCOMPAT_EXTENTS };
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi;
	unsigned int i;
	uint32_t u32, ino;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		make_image(1024, "");
		u32 = EXT2_FEATURE_INCOMPAT_FILETYPE | bad[i];
		poke(1024 + offsetof(struct ext2_super_block, s_feature_incompat), &u32, 4);
		assert_int_equal(mount_error(), -EINVAL);
		assert_int_equal(log_count("unsupported INCOMPAT"), 1);
	}
	/* An unknown RO_COMPAT feature: read-only. */
	make_image(1024, "");
	u32 = EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT2_FEATURE_RO_COMPAT_LARGE_FILE | 0x0100;
	poke(1024 + offsetof(struct ext2_super_block, s_feature_ro_compat), &u32, 4);
	log_clear();
	sbi = mount_image();
	assert_int_equal(log_count("read-only"), 1);
	check_against_host(sbi, "big.bin");
	root = get(sbi, "");
	assert_int_equal(ext2_create(root, "x", 0644, &ino), -EROFS);
	assert_int_equal(ext2_mkdir(root, "x", 0755, &ino), -EROFS);
	assert_int_equal(ext2_unlink(root, "small.txt"), -EROFS);
	ext2_iput(root);
	unmount(sbi);
}

static void test_corrupt_directory(void **state)
{
	struct ext2_inode_info *root, *a, *b, *x;
	struct names names = { .n = 0 };
	struct ext2_sb_info *sbi;
	uint64_t pos = 0, block;
	uint32_t ino;
	uint16_t zero = 0;

	(void)state;
	make_image(1024, "");
	sbi = mount_image();
	root = get(sbi, "");
	block = root->i_raw.i_block[0];
	ext2_iput(root);
	unmount(sbi);
	/* The root's "." record: rec_len 0. */
	poke(block * 1024 + 4, &zero, 2);
	sbi = mount_image();
	root = get(sbi, "");
	log_clear();
	assert_int_equal(ext2_lookup(root, "small.txt", &ino), -EIO);
	assert_int_equal(ext2_readdir(root, &pos, collect, &names), -EIO);
	assert_int_equal(ext2_create(root, "new", 0644, &ino), -EIO);
	assert_int_equal(log_count("bad entry"), 3);
	ext2_iput(root);
	unmount(sbi);

	/* A block number out of range in an inode, and a bad inode number. */
	make_image(1024, "");
	sbi = mount_image();
	x = get(sbi, "big.bin");
	x->i_raw.i_block[EXT2_IND_BLOCK] = 0x7fffffff;
	ext2_mark_inode_dirty(x);
	ext2_iput(x);
	x = get(sbi, "big.bin");
	{
		char buf[16];

		assert_int_equal(ext2_read_buf(x, 13 * 1024, buf, sizeof(buf)), -EIO);
		assert_int_equal(ext2_read_buf(x, 0, buf, sizeof(buf)), sizeof(buf));
	}
	ext2_iput(x);
	assert_null(ext2_iget(sbi, sbi->s_inodes_count + 1, &(int){ 0 }));
	assert_null(ext2_iget(sbi, 0, &(int){ 0 }));

	/* ".." entries that loop: a's parent is its own child b. */
	a = get(sbi, "a");
	b = get(sbi, "a/b");
	root = get(sbi, "");
	assert_int_equal(ext2_set_link(a, "..", b->i_ino, EXT2_S_IFDIR), 0);
	log_clear();
	assert_int_equal(ext2_rename(root, "emptydir", b, "x"), -EIO);
	assert_int_equal(log_count("directory loop"), 1);
	ext2_iput(root);
	ext2_iput(b);
	ext2_iput(a);
	unmount(sbi);
}

/* Errors from the device reach the caller as -EIO. */
static void test_io_errors(void **state)
{
	struct ext2_inode_info *f;
	struct ext2_sb_info *sbi;
	char buf[64];

	(void)state;
	make_image(1024, "");
	sbi = mount_image();
	f = get(sbi, "big.bin");
	disk.fail_after = 0;
	assert_int_equal(ext2_read_buf(f, 3 << 20, buf, sizeof(buf)), -EIO);
	assert_int_equal(ext2_write_buf(f, 4 << 20, buf, sizeof(buf)), -EIO);
	disk.fail_after = -1;
	check_pattern(f, (3 << 20) - 100, 200, 0);
	ext2_iput(f);
	unmount(sbi);
	open_disk();
	disk.fail_after = 0;
	assert_null(ext2_mount(&disk.bdev, &(int){ 0 }));
	fake_disk_close(&disk);
}

/*
 * A readahead bio that fails (fs/mpage.c): the window at 0 maps its first
 * three pages from the inode's direct blocks and then needs an indirect
 * block, whose read fails too.  The pages read ahead are left in the
 * cache unlocked and not uptodate (the "failed" state of mm/filemap.c),
 * the reader gets -EIO, and once the disk works the same pages read
 * correctly.
 */
static void test_readahead_error(void **state)
{
	struct ext2_inode_info *f;
	struct ext2_sb_info *sbi;
	struct page *page;
	char buf[64];
	pgoff_t i;

	(void)state;
	make_image(1024, "");
	sbi = mount_image();
	f = get(sbi, "big.bin");
	disk.fail_after = 0;
	assert_int_equal(ext2_read_buf(f, 0, buf, sizeof(buf)), -EIO);
	assert_null(find_get_page(&f->i_mapping, 0));
	for (i = 1; i < 3; i++) {
		page = find_get_page(&f->i_mapping, i);
		assert_non_null(page);
		assert_false(PageLocked(page));
		assert_false(PageUptodate(page));
		page_cache_release(page);
	}
	disk.fail_after = -1;
	check_pattern(f, 0, 4 * PAGE_SIZE, 0);
	ext2_iput(f);
	unmount(sbi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffer_cache),
		PER_BS(test_read),
		cmocka_unit_test(test_read_large_inodes),
		cmocka_unit_test(test_read_rev0),
		PER_BS(test_write),
		PER_BS(test_dirs),
		PER_BS(test_rename),
		PER_BS(test_truncate),
		PER_BS(test_enospc),
		PER_BS(test_short_write_past_end),
		PER_BS(test_enospc_indirect),
		cmocka_unit_test(test_unlink_held),
		cmocka_unit_test(test_unlink_xattr_block),
		cmocka_unit_test(test_bad_superblocks),
		cmocka_unit_test(test_incompat_features),
		cmocka_unit_test(test_corrupt_directory),
		cmocka_unit_test(test_io_errors),
		cmocka_unit_test(test_readahead_error),
	};
	int failed;

	if (ext2_image_setup("test_ext2"))
		return 1;
	make_staging();
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	ext2_image_cleanup();
	return failed;
}
