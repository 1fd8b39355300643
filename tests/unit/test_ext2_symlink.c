/*
 * Host unit tests for ext2's symbolic links, hard links, device nodes and
 * attribute changes (kernel/fs/ext2/symlink.c, ext2_symlink, ext2_link,
 * ext2_mknod, ext2_set_mode and ext2_set_mtime), on the fake machine of
 * fake_machine.c, as test_ext2.c runs the rest of ext2.
 *
 * mke2fs -d copies a staging directory holding symlinks of every kind:
 * fast ones (the target in the inode), slow ones (the target in a data
 * block, up to a block less one byte), absolute, relative and dangling
 * targets.  ext2_readlink must return each target exactly, cut to a
 * short buffer, and refuse a file that is no link; unlinking a slow link
 * must free its block (e2fsck -fn stays clean); chmod and mtime changes
 * must reach the disk and survive a remount.
 *
 * The driver's own links, made on that image, must satisfy e2fsck -fn
 * (which checks a symlink's size against the NUL after its target, link
 * counts against the names, device inodes' block maps) and read the
 * same through debugfs as through the driver after a remount: fast,
 * slow and longest symlinks; hard links across directories, the data
 * readable through each, the inode freed only with the last name;
 * character, block, FIFO and socket nodes with device numbers in both of
 * Linux's encodings.  At 1, 2 and 4 KiB blocks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <fs/buffer_head.h>
#include <fs/ext2.h>
#include <uapi/errno.h>

#include "ext2_image.h"
#include "kernel_stubs.h"

/* Linux's new_encode_dev, the encoding st_rdev and mknod(2) use. */
#define NEW_DEV(ma, mi)	(((mi) & 0xff) | ((ma) << 8) | (((mi) & ~0xffu) << 12))

static char long_target[4096 + 1];	/* up to a 4 KiB block's worth, and a NUL */

/* A target of len bytes: "long/" then letters. */
static const char *target_of_len(size_t len)
{
	size_t i;

	memcpy(long_target, "long/", 5);
	for (i = 5; i < len; i++)
		long_target[i] = 'a' + i % 26;
	long_target[len] = '\0';
	return long_target;
}

/* The staging directory for block size bs: the slow link's target
 * fills its block but for one byte. */
static void make_image(unsigned int bs)
{
	run("rm -rf %s && mkdir -p %s/dir", staging, staging);
	run("echo data > %s/dir/file", staging);
	run("ln -s dir/file %s/fast", staging);
	run("ln -s /bin/busybox %s/abs", staging);
	run("ln -s no-such-target %s/dangling", staging);
	run("ln -s %s %s/slow", target_of_len(100), staging);
	run("ln -s %s %s/max", target_of_len(bs - 1), staging);
	run(MKE2FS " -q -F -t ext2 -b %u -d %s %s 8M >/dev/null", bs, staging, image);
}

static void expect_link(struct ext2_sb_info *sbi, const char *name, const char *target)
{
	struct ext2_inode_info *inode = get(sbi, name);
	char buf[4096];
	long n = ext2_readlink(inode, buf, sizeof(buf));

	assert_int_equal(n, strlen(target));
	assert_memory_equal(buf, target, n);
	/* A short buffer gets the start of the target. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(ext2_readlink(inode, buf, 3), 3);
	assert_memory_equal(buf, target, 3);
	assert_int_equal(buf[3], 0);
	ext2_iput(inode);
}

/* Remove each name (up to a NULL) from the directory at path dir, expecting success. */
static void unlink_names(struct ext2_sb_info *sbi, const char *dir, ...)
	__attribute__((sentinel));
static void unlink_names(struct ext2_sb_info *sbi, const char *dir, ...)
{
	struct ext2_inode_info *inode = get(sbi, dir);
	const char *name;
	va_list ap;

	va_start(ap, dir);
	while ((name = va_arg(ap, const char *)))
		assert_int_equal(ext2_unlink(inode, name), 0);
	va_end(ap);
	ext2_iput(inode);
}

static void test_readlink(void **state)
{
	unsigned int bs = block_size(state);
	struct ext2_sb_info *sbi;
	struct ext2_inode_info *inode;
	char buf[16];

	make_image(bs);
	sbi = mount_image();
	expect_link(sbi, "fast", "dir/file");
	expect_link(sbi, "abs", "/bin/busybox");
	expect_link(sbi, "dangling", "no-such-target");
	expect_link(sbi, "slow", target_of_len(100));
	expect_link(sbi, "max", target_of_len(bs - 1));
	inode = get(sbi, "dir");
	assert_int_equal(ext2_readlink(inode, buf, sizeof(buf)), -EINVAL);
	ext2_iput(inode);
	unmount(sbi);
}

/* Unlinking links frees what they own: the slow ones' blocks. */
static void test_unlink_links(void **state)
{
	struct ext2_sb_info *sbi;

	make_image(block_size(state));
	sbi = mount_image();
	unlink_names(sbi, "", "slow", "max", "fast", NULL);
	unmount_clean(sbi);
}

static void test_set_attrs(void **state)
{
	struct ext2_sb_info *sbi;
	struct ext2_inode_info *inode;

	make_image(block_size(state));
	sbi = mount_image();
	inode = get(sbi, "dir");
	assert_int_equal(ext2_set_mode(inode, 01700 | EXT2_S_IFREG), 0);
	assert_int_equal(ext2_set_mtime(inode, 1234567890), 0);
	ext2_iput(inode);
	unmount_clean(sbi);

	sbi = mount_image();
	inode = get(sbi, "dir");
	/* The type stays: only the permission bits change. */
	assert_int_equal(inode->i_raw.i_mode, EXT2_S_IFDIR | 01700);
	assert_int_equal(inode->i_raw.i_mtime, 1234567890);
	ext2_iput(inode);
	unmount(sbi);
}

/* debugfs's "stat" of path on the image must print a line holding want. */
static void debugfs_stat_has(const char *path, const char *want)
{
	run(DEBUGFS " -R 'stat %s' %s 2>/dev/null | grep -qF '%s'", path, image, want);
}

/* ext2_symlink: both kinds, the longest target, the errors; e2fsck and
 * debugfs agree with the driver after a remount. */
static void test_make_symlinks(void **state)
{
	unsigned int bs = block_size(state);
	struct ext2_sb_info *sbi;
	struct ext2_inode_info *root, *inode;
	char want[64];
	uint32_t ino;
	uint32_t free_blocks;

	make_image(bs);
	sbi = mount_image();
	root = get(sbi, "");
	free_blocks = sbi->s_es->s_free_blocks_count;
	assert_int_equal(ext2_symlink(root, "new_fast", "dir/file", &ino), 0);
	assert_int_equal(ext2_symlink(root, "new_59", target_of_len(59), &ino), 0);
	/* Fast links own no block. */
	assert_int_equal(sbi->s_es->s_free_blocks_count, free_blocks);
	assert_int_equal(ext2_symlink(root, "new_60", target_of_len(60), &ino), 0);
	assert_int_equal(ext2_symlink(root, "new_max", target_of_len(bs - 1), &ino), 0);
	assert_int_equal(ext2_symlink(root, "too_long", target_of_len(bs), &ino), -ENAMETOOLONG);
	assert_int_equal(ext2_symlink(root, "empty", "", &ino), -ENOENT);
	assert_int_equal(ext2_symlink(root, "fast", "x", &ino), -EEXIST);
	inode = get(sbi, "dir");
	assert_int_equal(ext2_symlink(inode, "up", "../fast", &ino), 0);
	ext2_iput(inode);
	inode = get(sbi, "new_60");
	assert_int_equal(inode->i_raw.i_mode, EXT2_S_IFLNK | 0777);
	assert_int_equal(inode->i_raw.i_links_count, 1);
	assert_int_equal(inode->i_raw.i_blocks, bs / 512);
	ext2_iput(inode);
	expect_link(sbi, "new_fast", "dir/file");
	expect_link(sbi, "new_max", target_of_len(bs - 1));
	ext2_iput(root);
	unmount_clean(sbi);
	debugfs_stat_has("/new_fast", "Fast link dest: \"dir/file\"");
	snprintf(want, sizeof(want), "Fast link dest: \"%s\"", target_of_len(59));
	debugfs_stat_has("/new_59", want);
	debugfs_stat_has("/new_60", "Type: symlink");

	sbi = mount_image();
	expect_link(sbi, "new_fast", "dir/file");
	expect_link(sbi, "new_59", target_of_len(59));
	expect_link(sbi, "new_60", target_of_len(60));
	expect_link(sbi, "new_max", target_of_len(bs - 1));
	/* Removing them gives the slow links' blocks back. */
	unlink_names(sbi, "", "new_fast", "new_60", "new_max", NULL);
	unmount_clean(sbi);
}

/* ext2_link: names in two directories for one file, the errors, and the
 * inode freed with its last name. */
static void test_hard_links(void **state)
{
	static const char data[] = "linked data\n";
	struct ext2_sb_info *sbi;
	struct ext2_inode_info *root, *dir, *file, *inode;
	uint32_t ino, file_ino, free_inodes;
	char buf[32];
	int err;

	make_image(block_size(state));
	sbi = mount_image();
	free_inodes = sbi->s_es->s_free_inodes_count;
	root = get(sbi, "");
	dir = get(sbi, "dir");
	assert_int_equal(ext2_create(root, "f", 0644, &file_ino), 0);
	file = ext2_iget(sbi, file_ino, &err);
	assert_non_null(file);
	assert_int_equal(ext2_write_buf(file, 0, data, sizeof(data)), sizeof(data));
	assert_int_equal(ext2_link(root, "g", file), 0);
	assert_int_equal(ext2_link(dir, "h", file), 0);
	assert_int_equal(file->i_raw.i_links_count, 3);
	/* Errors: an existing name, a directory, the link limit. */
	assert_int_equal(ext2_link(root, "g", file), -EEXIST);
	assert_int_equal(ext2_link(root, "dir2", dir), -EPERM);
	file->i_raw.i_links_count = 32000;
	assert_int_equal(ext2_link(root, "i", file), -EMLINK);
	file->i_raw.i_links_count = 3;
	/* A symlink can have several names too. */
	inode = get(sbi, "fast");
	assert_int_equal(ext2_link(dir, "fast2", inode), 0);
	ext2_iput(inode);
	assert_int_equal(ext2_lookup(dir, "h", &ino), 0);
	assert_int_equal(ino, file_ino);
	ext2_iput(file);
	ext2_iput(dir);
	ext2_iput(root);
	unmount_clean(sbi);
	debugfs_stat_has("/dir/h", "Links: 3");

	/* After a remount: the data through another name; removing two
	 * names keeps the inode. */
	sbi = mount_image();
	unlink_names(sbi, "", "f", "g", NULL);
	file = get(sbi, "dir/h");
	assert_int_equal(file->i_raw.i_links_count, 1);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(ext2_read_buf(file, 0, buf, sizeof(buf)), sizeof(data));
	assert_string_equal(buf, data);
	ext2_iput(file);
	expect_link(sbi, "fast", "dir/file");
	unmount_clean(sbi);

	/* The last name: the inode goes. */
	sbi = mount_image();
	unlink_names(sbi, "dir", "h", "fast2", NULL);
	assert_int_equal(sbi->s_es->s_free_inodes_count, free_inodes);
	unmount_clean(sbi);
}

/* ext2_mknod: each type, both device encodings, read back by debugfs. */
static void test_mknod(void **state)
{
	struct ext2_sb_info *sbi;
	struct ext2_inode_info *root, *inode;
	uint32_t ino;

	make_image(block_size(state));
	sbi = mount_image();
	root = get(sbi, "");
	assert_int_equal(ext2_mknod(root, "null", EXT2_S_IFCHR | 0666, NEW_DEV(1, 3), &ino), 0);
	assert_int_equal(ext2_mknod(root, "big", EXT2_S_IFCHR | 0600, NEW_DEV(300, 70000), &ino),
			 0);
	assert_int_equal(ext2_mknod(root, "disk", EXT2_S_IFBLK | 0660, NEW_DEV(8, 1), &ino), 0);
	assert_int_equal(ext2_mknod(root, "fifo", EXT2_S_IFIFO | 0644, 0, &ino), 0);
	assert_int_equal(ext2_mknod(root, "sock", EXT2_S_IFSOCK | 0755, 0, &ino), 0);
	assert_int_equal(ext2_mknod(root, "reg", EXT2_S_IFREG | 0644, 0, &ino), -EINVAL);
	assert_int_equal(ext2_mknod(root, "dir", EXT2_S_IFCHR | 0644, 0, &ino), -EEXIST);
	inode = get(sbi, "null");
	assert_int_equal(inode->i_raw.i_block[0], 0x103);
	assert_int_equal(inode->i_raw.i_block[1], 0);
	ext2_iput(inode);
	inode = get(sbi, "big");
	assert_int_equal(inode->i_raw.i_block[0], 0);
	assert_int_equal(inode->i_raw.i_block[1], NEW_DEV(300, 70000));
	ext2_iput(inode);
	ext2_iput(root);
	unmount_clean(sbi);
	debugfs_stat_has("/null", "Device major/minor number: 01:03");
	debugfs_stat_has("/big", "Device major/minor number: 300:70000");
	debugfs_stat_has("/disk", "Type: block special");
	debugfs_stat_has("/fifo", "Type: FIFO");
	debugfs_stat_has("/sock", "Type: socket");

	sbi = mount_image();
	inode = get(sbi, "fifo");
	assert_int_equal(inode->i_raw.i_mode, EXT2_S_IFIFO | 0644);
	ext2_iput(inode);
	unlink_names(sbi, "", "null", "big", "fifo", NULL);
	unmount_clean(sbi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PER_BS(test_readlink),
		PER_BS(test_unlink_links),
		PER_BS(test_set_attrs),
		PER_BS(test_make_symlinks),
		PER_BS(test_hard_links),
		PER_BS(test_mknod),
	};
	int failed;

	if (ext2_image_setup("test_ext2_symlink"))
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	ext2_image_cleanup();
	return failed;
}
