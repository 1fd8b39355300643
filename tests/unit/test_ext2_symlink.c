/*
 * Host unit tests for ext2's symbolic links and attribute changes
 * (kernel/fs/ext2/symlink.c, ext2_set_mode and ext2_set_mtime), on the
 * fake machine of fake_machine.c, as test_ext2.c runs the rest of ext2.
 *
 * mke2fs -d copies a staging directory holding symlinks of every kind:
 * fast ones (the target in the inode), slow ones (the target in a data
 * block, up to a block less one byte), absolute, relative and dangling
 * targets.  ext2_readlink must return each target exactly, cut to a
 * short buffer, and refuse a file that is no link; unlinking a slow link
 * must free its block (e2fsck -fn stays clean); chmod and mtime changes
 * must reach the disk and survive a remount.  At 1, 2 and 4 KiB blocks.
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

#include "fake_machine.h"
#include "kernel_stubs.h"

#define MKE2FS "/usr/sbin/mke2fs"
#define E2FSCK "/usr/sbin/e2fsck"

static char tmpdir[64], staging[128], image[128];
static char long_target[4096];
static struct fake_disk disks[32], *dp;

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

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

static void fsck_clean(void)
{
	run(E2FSCK " -fn %s > %s/fsck.log 2>&1 || { cat %s/fsck.log >&2; false; }", image, tmpdir,
	    tmpdir);
}

static struct ext2_sb_info *mount_image(void)
{
	struct ext2_sb_info *sbi;
	int err;

	assert_true(dp == NULL || dp < disks + ARRAY_SIZE(disks) - 1);
	dp = dp ? dp + 1 : disks;
	assert_true(fake_disk_open(dp, image, false));
	sbi = ext2_mount(&dp->bdev, &err);
	if (!sbi)
		fail_msg("mount failed: %d", err);
	return sbi;
}

static void unmount(struct ext2_sb_info *sbi)
{
	assert_int_equal(ext2_unmount(sbi), 0);
	fake_disk_close(dp);
}

/* The inode named name in the root, held. */
static struct ext2_inode_info *get(struct ext2_sb_info *sbi, const char *name)
{
	struct ext2_inode_info *root, *inode;
	uint32_t ino;
	int err;

	root = ext2_iget(sbi, EXT2_ROOT_INO, &err);
	assert_non_null(root);
	assert_int_equal(ext2_lookup(root, name, &ino), 0);
	ext2_iput(root);
	inode = ext2_iget(sbi, ino, &err);
	assert_non_null(inode);
	return inode;
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

static unsigned int block_size(void **state)
{
	return (unsigned int)(uintptr_t)*state;
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
	struct ext2_inode_info *root;
	int err;

	make_image(block_size(state));
	sbi = mount_image();
	root = ext2_iget(sbi, EXT2_ROOT_INO, &err);
	assert_non_null(root);
	assert_int_equal(ext2_unlink(root, "slow"), 0);
	assert_int_equal(ext2_unlink(root, "max"), 0);
	assert_int_equal(ext2_unlink(root, "fast"), 0);
	ext2_iput(root);
	unmount(sbi);
	fsck_clean();
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
	unmount(sbi);
	fsck_clean();

	sbi = mount_image();
	inode = get(sbi, "dir");
	/* The type stays: only the permission bits change. */
	assert_int_equal(inode->i_raw.i_mode, EXT2_S_IFDIR | 01700);
	assert_int_equal(inode->i_raw.i_mtime, 1234567890);
	ext2_iput(inode);
	unmount(sbi);
}

#define PER_BS(fn) \
	cmocka_unit_test_prestate(fn, (void *)1024), \
	cmocka_unit_test_prestate(fn, (void *)2048), \
	cmocka_unit_test_prestate(fn, (void *)4096)

int main(void)
{
	const struct CMUnitTest tests[] = {
		PER_BS(test_readlink),
		PER_BS(test_unlink_links),
		PER_BS(test_set_attrs),
	};
	int failed;

	if (access(MKE2FS, X_OK) || access(E2FSCK, X_OK)) {
		fprintf(stderr, "test_ext2_symlink: needs " MKE2FS " and " E2FSCK " (e2fsprogs)\n");
		return 1;
	}
	fake_machine_init();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pageturn-symlink-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(staging, sizeof(staging), "%s/staging", tmpdir);
	snprintf(image, sizeof(image), "%s/ext2.img", tmpdir);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	run("rm -rf %s", tmpdir);
	return failed;
}
