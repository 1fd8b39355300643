/*
 * Suite "ext2": the ext2 driver in the kernel, on a real device.  The QEMU
 * test (tests/qemu/cases.py, ext2_virtio_bios) builds a disk with
 * `mke2fs -d` holding hello.txt, data.bin and data.fnv (the FNV-1a hash of
 * data.bin, recorded when the image was made) and attaches it as vda.
 * Reading checks data.bin against the recorded hash; writing creates,
 * renames and deletes files and directories, then syncs and unmounts, and
 * the host runs e2fsck -fn and reads written.bin back with debugfs.
 * Without a vda the cases pass with a "# skipped" line.
 */
#include <fs/ext2.h>
#include <mm/slab.h>
#include <pageturn/hash.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "vda_ext2.h"

#define WRITTEN_SIZE (300 * 1024)	/* past the 12 direct blocks at any size */

/* The byte the kernel writes at offset i of written.bin (the host test
 * computes the same). */
static uint8_t written_byte(uint64_t i)
{
	return (uint8_t)((i * 7 + (i >> 10)) & 0xff);
}

/* Read name from dir whole into a kmalloc'd buffer; NULL on error. */
static uint8_t *read_file(struct ktest *t, struct ext2_inode_info *dir, const char *name,
			  uint64_t *size)
{
	struct ext2_inode_info *inode;
	uint32_t ino;
	uint8_t *buf;
	int err;

	KTEST_EXPECT_EQ(t, ext2_lookup(dir, name, &ino), 0);
	inode = ext2_iget(dir->i_sb, ino, &err);
	if (!inode)
		return NULL;
	*size = ext2_isize(inode);
	buf = kmalloc(*size + 1, GFP_KERNEL);
	if (buf) {
		KTEST_EXPECT_EQ(t, ext2_read_buf(inode, 0, buf, *size), (long)*size);
		buf[*size] = 0;
	}
	ext2_iput(inode);
	return buf;
}

KTEST(ext2, read_recorded_checksum)
{
	struct ext2_inode_info *root;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint64_t size, fnv_size, want = 0;
	uint8_t *data, *fnv, *hello;
	const uint8_t *p;

	if (!sbi)
		return;
	hello = read_file(t, root, "hello.txt", &size);
	KTEST_EXPECT(t, hello && strcmp((char *)hello, "Hello from the host.\n") == 0);
	data = read_file(t, root, "data.bin", &size);
	fnv = read_file(t, root, "data.fnv", &fnv_size);
	KTEST_EXPECT(t, data && fnv);
	if (data && fnv) {
		for (p = fnv; *p >= '0' && *p <= '9'; p++)
			want = want * 10 + (*p - '0');
		KTEST_EXPECT_EQ(t, fnv1a64(FNV1A64_INIT, data, size), want);
		printk(KERN_INFO "        # data.bin: %lu bytes, FNV-1a %lu as recorded\n",
		       (unsigned long)size, (unsigned long)want);
	}
	kfree(hello);
	kfree(data);
	kfree(fnv);
	KTEST_EXPECT_EQ(t, ext2_lookup(root, "no-such-file", &(uint32_t){0}), -ENOENT);
	ktest_unmount_vda(t, sbi, root);
}

KTEST(ext2, write_rename_delete_then_fsck)
{
	struct ext2_inode_info *root, *file, *dir;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	uint32_t ino, dino, tmp;
	uint8_t *buf, *back;
	uint64_t i, size;
	int err;

	if (!sbi)
		return;
	buf = kmalloc(WRITTEN_SIZE, GFP_KERNEL);
	KTEST_EXPECT(t, buf != NULL);
	if (!buf)
		goto out;
	for (i = 0; i < WRITTEN_SIZE; i++)
		buf[i] = written_byte(i);

	KTEST_EXPECT_EQ(t, ext2_create(root, "scratch.bin", 0644, &ino), 0);
	file = ext2_iget(sbi, ino, &err);
	KTEST_EXPECT(t, file != NULL);
	if (file) {
		KTEST_EXPECT_EQ(t, ext2_write_buf(file, 0, buf, WRITTEN_SIZE), WRITTEN_SIZE);
		ext2_iput(file);
	}
	KTEST_EXPECT_EQ(t, ext2_mkdir(root, "made", 0755, &dino), 0);
	dir = ext2_iget(sbi, dino, &err);
	KTEST_EXPECT(t, dir != NULL);
	if (dir) {
		KTEST_EXPECT_EQ(t, ext2_create(dir, "doomed", 0644, &tmp), 0);
		KTEST_EXPECT_EQ(t, ext2_unlink(dir, "doomed"), 0);
		KTEST_EXPECT_EQ(t, ext2_rename(root, "scratch.bin", dir, "written.bin"), 0);
		KTEST_EXPECT_EQ(t, ext2_create(root, "x", 0644, &tmp), 0);
		KTEST_EXPECT_EQ(t, ext2_create(root, "x", 0644, &tmp), -EEXIST);
		KTEST_EXPECT_EQ(t, ext2_unlink(root, "x"), 0);
		KTEST_EXPECT_EQ(t, ext2_rmdir(root, "made"), -ENOTEMPTY);
		back = read_file(t, dir, "written.bin", &size);
		KTEST_EXPECT_EQ(t, size, WRITTEN_SIZE);
		KTEST_EXPECT(t, back && memcmp(back, buf, WRITTEN_SIZE) == 0);
		kfree(back);
		ext2_iput(dir);
	}
	kfree(buf);
	KTEST_EXPECT_EQ(t, ext2_sync(sbi), 0);
out:
	ktest_unmount_vda(t, sbi, root);
}
