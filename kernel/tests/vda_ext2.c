/* Mounting the ext2 test disk vda for in-kernel tests (vda_ext2.h). */
#include <drivers/blkdev.h>
#include <fs/ext2_fs.h>
#include <pageturn/printk.h>

#include "vda_ext2.h"

struct ext2_sb_info *ktest_mount_vda(struct ktest *t, struct ext2_inode_info **root)
{
	struct block_device *bdev = lookup_bdev("vda");
	struct ext2_sb_info *sbi;
	int err;

	if (!bdev) {
		printk(KERN_INFO "        # skipped: no vda\n");
		return NULL;
	}
	sbi = ext2_mount(bdev, &err);
	KTEST_EXPECT(t, sbi != NULL);
	if (!sbi)
		return NULL;
	*root = ext2_iget(sbi, EXT2_ROOT_INO, &err);
	KTEST_EXPECT(t, *root != NULL);
	if (!*root) {
		ext2_unmount(sbi);
		return NULL;
	}
	return sbi;
}

void ktest_unmount_vda(struct ktest *t, struct ext2_sb_info *sbi, struct ext2_inode_info *root)
{
	ext2_iput(root);
	KTEST_EXPECT_EQ(t, ext2_unmount(sbi), 0);
}
