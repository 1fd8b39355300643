/*
 * Suite "rootfs": the root filesystem GRUB loaded is mounted on "/", and
 * a file the build wrote reads back through the VFS with the size and
 * FNV-1a hash the build recorded (build/include/generated/rootfs.h, from
 * tools/mkrootfs.py).
 */
#include <fs/vfs.h>
#include <generated/rootfs.h>
#include <mm/slab.h>
#include <pageturn/hash.h>
#include <pageturn/ktest.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define CHUNK 4096

KTEST(rootfs, recorded_checksum)
{
	uint64_t h = FNV1A64_INIT, off = 0;
	struct file *file = NULL;
	struct kstat st;
	uint8_t *buf;
	long n;

	KTEST_EXPECT(t, init_fs.root != NULL);
	KTEST_EXPECT_EQ(t, vfs_open(ROOTFS_TEST_FILE, O_RDONLY, 0, &file), 0);
	if (!init_fs.root || !file)
		return;
	KTEST_EXPECT_EQ(t, vfs_fstat(file, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, ROOTFS_TEST_SIZE);
	KTEST_EXPECT(t, S_ISREG(st.mode));
	buf = kmalloc(CHUNK, GFP_KERNEL);
	while (buf && (n = vfs_read(file, buf, CHUNK)) > 0) {
		h = fnv1a64(h, buf, n);
		off += n;
	}
	KTEST_EXPECT_EQ(t, off, ROOTFS_TEST_SIZE);
	KTEST_EXPECT_EQ(t, h, ROOTFS_TEST_FNV1A);
	kfree(buf);
	KTEST_EXPECT_EQ(t, vfs_close(file), 0);
}

KTEST(rootfs, path_lookup)
{
	char name[16] = { 0 };
	struct file *file = NULL;
	struct kstat st;

	KTEST_EXPECT_EQ(t, vfs_open("//etc///hostname", O_RDONLY, 0, &file), 0);
	if (init_fs.root && file) {
		KTEST_EXPECT_EQ(t, vfs_read(file, name, sizeof(name) - 1), 9);
		KTEST_EXPECT_STREQ(t, name, "pageturn\n");
		vfs_close(file);
	}
	KTEST_EXPECT_EQ(t, vfs_stat("/etc/no-such", &st), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_stat("/etc/hostname/x", &st), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_stat("/etc/hostname/", &st), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_stat("", &st), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, &st), -EINVAL);
	/* Boot leaves the working directory at the root. */
	KTEST_EXPECT_EQ(t, vfs_stat("etc/hostname", &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 9);
	KTEST_EXPECT_EQ(t, vfs_stat("/proc", &st), 0);
	KTEST_EXPECT(t, S_ISDIR(st.mode));
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/", &st), 0);
	KTEST_EXPECT(t, S_ISDIR(st.mode));
}
