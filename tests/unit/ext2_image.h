/*
 * The image fixtures of the ext2 host tests (test_ext2.c,
 * test_ext2_symlink.c), in tests/unit/ext2_image.c: e2fsprogs run on a
 * scratch directory, and the image mounted through a fake disk of
 * fake_machine.c.
 */
#ifndef PAGETURN_TESTS_UNIT_EXT2_IMAGE_H
#define PAGETURN_TESTS_UNIT_EXT2_IMAGE_H

#include <fs/ext2.h>

#include "fake_machine.h"

#define MKE2FS "/usr/sbin/mke2fs"
#define E2FSCK "/usr/sbin/e2fsck"
#define DEBUGFS "/usr/sbin/debugfs"

/*
 * The scratch directory /tmp/pageturn-NAME-XXXXXX, the staging directory
 * a test fills for mke2fs -d (TMPDIR/staging, not made here) and the
 * image file (TMPDIR/ext2.img), set by ext2_image_setup.
 */
extern char tmpdir[64], staging[128], image[128];

/* The fake disk the image was last opened on (open_disk). */
extern struct fake_disk *cur_disk;

/*
 * Before the tests: require e2fsprogs (mke2fs, e2fsck, debugfs), start
 * the fake machine, make the scratch directory and set the paths above.
 * 0, or 1 after a line on stderr naming the program name.
 */
int ext2_image_setup(const char *name);

/* After the tests: remove the scratch directory and all in it. */
void ext2_image_cleanup(void);

/* Run the shell command formatted from fmt; the test fails unless it exits 0. */
void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* e2fsck -fn must find the image clean; else its log goes to stderr and the test fails. */
void fsck_clean(void);

/*
 * Open the image on a new fake disk (cur_disk).  Every open gets its own
 * device, so buffers a failed test left behind never alias the next
 * test's; the test fails if the devices run out or the image cannot be
 * opened.
 */
void open_disk(void);

/* open_disk and ext2_mount; the test fails if it does not mount. */
struct ext2_sb_info *mount_image(void);

/* ext2_unmount, expected to succeed, and close cur_disk. */
void unmount(struct ext2_sb_info *sbi);

/* unmount, then e2fsck -fn must find the image clean (fsck_clean). */
void unmount_clean(struct ext2_sb_info *sbi);

/*
 * Follow path, names separated by '/', from the root ("" is the root
 * itself).  Returns the inode held (ext2_iput it), or NULL with the
 * error in *err.
 */
struct ext2_inode_info *walk(struct ext2_sb_info *sbi, const char *path, int *err);

/* walk, expected to succeed: the inode at path, held; the test fails if there is none. */
struct ext2_inode_info *get(struct ext2_sb_info *sbi, const char *path);

/* The block size a PER_BS test runs at. */
unsigned int block_size(void **state);

/* The test fn once at each block size, 1, 2 and 4 KiB (block_size). */
#define PER_BS(fn) \
	cmocka_unit_test_prestate(fn, (void *)1024), \
	cmocka_unit_test_prestate(fn, (void *)2048), \
	cmocka_unit_test_prestate(fn, (void *)4096)

#endif
