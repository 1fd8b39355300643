/*
 * The image fixtures of the ext2 host tests (ext2_image.h).
 *
 * One scratch directory per test program holds the staging directory
 * and the image; each test makes its image afresh with mke2fs and opens
 * it on a new fake disk for every mount, from a pool that lasts the
 * whole program (a disk is never reused, so a buffer a failed test left
 * in the cache cannot be mistaken for the next image's).  Failures are
 * cmocka's: fail_msg and the assert_ macros end the current test.
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

#include "ext2_image.h"
#include "kernel_stubs.h"

char tmpdir[64], staging[128], image[128];

static struct fake_disk disks[128];
struct fake_disk *cur_disk;

int ext2_image_setup(const char *name)
{
	if (access(MKE2FS, X_OK) || access(E2FSCK, X_OK) || access(DEBUGFS, X_OK)) {
		fprintf(stderr, "%s: needs " MKE2FS ", " E2FSCK " and " DEBUGFS " (e2fsprogs)\n",
			name);
		return 1;
	}
	fake_machine_init();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pageturn-%s-XXXXXX", name);
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		return 1;
	}
	snprintf(staging, sizeof(staging), "%s/staging", tmpdir);
	snprintf(image, sizeof(image), "%s/ext2.img", tmpdir);
	return 0;
}

void ext2_image_cleanup(void)
{
	run("rm -rf %s", tmpdir);
}

void run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

void fsck_clean(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), E2FSCK " -fn %s > %s/fsck.log 2>&1", image, tmpdir);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "cat %s/fsck.log >&2", tmpdir);
		(void)system(cmd);
		fail_msg("e2fsck found %s inconsistent", image);
	}
}

void open_disk(void)
{
	assert_true(cur_disk == NULL || cur_disk < disks + ARRAY_SIZE(disks) - 1);
	cur_disk = cur_disk ? cur_disk + 1 : disks;
	assert_true(fake_disk_open(cur_disk, image, false));
}

struct ext2_sb_info *mount_image(void)
{
	struct ext2_sb_info *sbi;
	int err;

	open_disk();
	sbi = ext2_mount(&cur_disk->bdev, &err);
	if (!sbi)
		fail_msg("mount failed: %d", err);
	return sbi;
}

void unmount(struct ext2_sb_info *sbi)
{
	assert_int_equal(ext2_unmount(sbi), 0);
	fake_disk_close(cur_disk);
}

void unmount_clean(struct ext2_sb_info *sbi)
{
	unmount(sbi);
	fsck_clean();
}

struct ext2_inode_info *walk(struct ext2_sb_info *sbi, const char *path, int *err)
{
	char buf[256], *name, *save;
	struct ext2_inode_info *inode = ext2_iget(sbi, EXT2_ROOT_INO, err), *next;
	uint32_t ino;

	snprintf(buf, sizeof(buf), "%s", path);
	for (name = strtok_r(buf, "/", &save); inode && name; name = strtok_r(NULL, "/", &save)) {
		*err = ext2_lookup(inode, name, &ino);
		next = *err ? NULL : ext2_iget(sbi, ino, err);
		ext2_iput(inode);
		inode = next;
	}
	return inode;
}

struct ext2_inode_info *get(struct ext2_sb_info *sbi, const char *path)
{
	int err;
	struct ext2_inode_info *inode = walk(sbi, path, &err);

	if (!inode)
		fail_msg("%s: %d; log: %s", path, err, log_buf);
	return inode;
}

unsigned int block_size(void **state)
{
	return (unsigned int)(uintptr_t)*state;
}
