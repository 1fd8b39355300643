/*
 * Suite "rootfs": the root filesystem GRUB loaded is mounted, and a file
 * the build wrote reads back with the size and FNV-1a hash the build
 * recorded (build/include/generated/rootfs.h, from tools/mkrootfs.py).
 */
#include <fs/do_mounts.h>
#include <generated/rootfs.h>
#include <mm/slab.h>
#include <pageturn/hash.h>
#include <pageturn/ktest.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define CHUNK 4096

KTEST(rootfs, recorded_checksum)
{
	struct ext2_inode_info *inode;
	uint64_t h = FNV1A64_INIT, off = 0;
	uint8_t *buf;
	long n;
	int err;

	KTEST_EXPECT(t, root_ext2 != NULL);
	inode = root_path_lookup(ROOTFS_TEST_FILE, &err);
	KTEST_EXPECT(t, inode != NULL);
	if (!inode)
		return;
	KTEST_EXPECT_EQ(t, ext2_isize(inode), ROOTFS_TEST_SIZE);
	buf = kmalloc(CHUNK, GFP_KERNEL);
	while (buf && (n = ext2_read(inode, off, buf, CHUNK)) > 0) {
		h = fnv1a64(h, buf, n);
		off += n;
	}
	KTEST_EXPECT_EQ(t, off, ROOTFS_TEST_SIZE);
	KTEST_EXPECT_EQ(t, h, ROOTFS_TEST_FNV1A);
	kfree(buf);
	ext2_iput(inode);
}

KTEST(rootfs, path_lookup)
{
	struct ext2_inode_info *inode;
	char name[16] = { 0 };
	int err;

	inode = root_path_lookup("//etc///hostname", &err);
	KTEST_EXPECT(t, inode != NULL);
	if (inode) {
		KTEST_EXPECT_EQ(t, ext2_read(inode, 0, name, sizeof(name) - 1), 9);
		KTEST_EXPECT_STREQ(t, name, "pageturn\n");
		ext2_iput(inode);
	}
	KTEST_EXPECT(t, root_path_lookup("/etc/no-such", &err) == NULL);
	KTEST_EXPECT_EQ(t, err, -ENOENT);
	KTEST_EXPECT(t, root_path_lookup("/etc/hostname/x", &err) == NULL);
	KTEST_EXPECT_EQ(t, err, -ENOTDIR);
	KTEST_EXPECT(t, root_path_lookup("etc", &err) == NULL);
	KTEST_EXPECT_EQ(t, err, -EINVAL);
}
