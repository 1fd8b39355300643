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

/* ext2_read and ext2_write with a kernel buffer (an ITER_KVEC of one). */
static inline long ext2_read_buf(struct ext2_inode_info *inode, uint64_t off, void *buf,
				 size_t len)
{
	struct kvec kv = { buf, len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, READ, &kv, 1, len);
	return ext2_read(inode, off, &iter);
}

static inline long ext2_write_buf(struct ext2_inode_info *inode, uint64_t off, const void *buf,
				  size_t len)
{
	struct kvec kv = { (void *)buf, len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, WRITE, &kv, 1, len);
	return ext2_write(inode, off, &iter);
}

#endif
