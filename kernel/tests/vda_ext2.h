/* In-kernel tests that need an ext2 disk attached as vda (the QEMU cases
 * make one with mke2fs -d): mount it, and undo that. */
#ifndef KERNEL_TESTS_VDA_EXT2_H
#define KERNEL_TESTS_VDA_EXT2_H

#include <fs/ext2.h>
#include <pageturn/ktest.h>

/* Mount vda as ext2 and hold its root in *root; NULL (after a
 * "# skipped: no vda" line) when there is no vda, or after a failed
 * expectation when it does not mount. */
struct ext2_sb_info *ktest_mount_vda(struct ktest *t, struct ext2_inode_info **root);

/* Drop root and unmount, expecting success. */
void ktest_unmount_vda(struct ktest *t, struct ext2_sb_info *sbi, struct ext2_inode_info *root);

#endif
