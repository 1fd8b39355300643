/*
 * Suite "vfs": the kernel's file API (fs/vfs.h) on the mounted tree: the
 * ext2 root filesystem with procfs on /proc.  Files are created, written,
 * read back, sought, renamed and deleted on /; directories made and
 * removed; relative paths walked from a working directory, in and out of
 * /proc; every error a path or an open can give is provoked; /proc files
 * are read in small chunks; and the root filesystem is filled to -ENOSPC
 * and shown to work afterwards.  A file read through two opens (the
 * inode cached unused in between, with its pages) moves its pages from
 * Inactive(file) to Active(file).  Each case removes what it made and
 * leaves the page allocator's free count where it found it, once caches
 * are emptied (settle()).
 */
#include <fs/buffer_head.h>
#include <fs/vfs.h>
#include <mm/gfp.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define FILL_CHUNK (64 * 1024)
#define FILL_LIMIT (64ul << 20)		/* far more than the root image holds */

static void shrink_kmalloc_caches(void)
{
	struct cache_sizes *cs;

	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
}

/*
 * Write the root filesystem back and empty the caches that keep pages
 * (unused inodes with their page cache, the buffer cache, the slab): the
 * free page count is then comparable before and after a test.
 */
static unsigned long settle(struct ktest *t)
{
	drop_caches();
	struct file *root = NULL;

	KTEST_EXPECT_EQ(t, vfs_open("/", O_RDONLY | O_DIRECTORY, 0, &root), 0);
	if (root) {
		KTEST_EXPECT_EQ(t, vfs_fsync(root), 0);
		invalidate_bdev(root->f_inode->i_sb->s_bdev);
		vfs_close(root);
	}
	shrink_kmalloc_caches();
	return nr_free_pages();
}

static loff_t stat_size(const char *path)
{
	struct kstat st;
	int err = vfs_stat(path, &st);

	return err ? err : st.size;
}

KTEST(vfs, create_write_read_seek_rename_delete)
{
	unsigned long free_before = settle(t);
	struct file *f = NULL, *g = NULL;
	uint8_t *buf = kmalloc(10000, GFP_KERNEL);
	struct kstat st;

	KTEST_EXPECT(t, buf != NULL);
	if (!buf)
		return;
	ktest_fill_pattern(buf, 0, 10000);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-a", O_RDWR | O_CREAT | O_EXCL, 0644, &f), 0);
	if (!f)
		goto out;
	KTEST_EXPECT_EQ(t, vfs_write(f, buf, 10000), 10000);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 10000);
	KTEST_EXPECT_EQ(t, st.nlink, 1);
	KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0644);
	KTEST_EXPECT(t, st.blocks >= 10000 / 512);

	memset(buf, 0, 10000);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_SET), 0);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 10000), 10000);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 0, 10000));
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 10000), 0);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, -100, SEEK_END), 9900);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 1000), 100);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 9900, 100));
	KTEST_EXPECT_EQ(t, vfs_llseek(f, -50, SEEK_CUR), 9950);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, -10000, SEEK_CUR), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, 3), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_CUR), 9950);
	/* Past the end: a hole, read as zeroes. */
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 12000, SEEK_SET), 12000);
	KTEST_EXPECT_EQ(t, vfs_write(f, "end", 3), 3);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 11000, SEEK_SET), 11000);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 5000), 1003);
	KTEST_EXPECT(t, buf[0] == 0 && buf[999] == 0 && memcmp(buf + 1000, "end", 3) == 0);
	vfs_close(f);

	/* Access modes, O_APPEND, O_TRUNC. */
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-a", O_RDWR | O_CREAT | O_EXCL, 0644, &g), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-a", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, "x", 1), -EBADF);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-a", O_WRONLY | O_APPEND, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 1), -EBADF);
	KTEST_EXPECT_EQ(t, vfs_write(f, "!", 1), 1);
	KTEST_EXPECT_EQ(t, stat_size("/vfs-a"), 12004);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_truncate("/vfs-a", 5000), 0);
	KTEST_EXPECT_EQ(t, stat_size("/vfs-a"), 5000);
	KTEST_EXPECT_EQ(t, vfs_truncate("/vfs-a", -1), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_truncate("/etc", 0), -EISDIR);

	/* Rename into another directory; the old name is gone. */
	KTEST_EXPECT_EQ(t, vfs_rename("/vfs-a", "/etc/vfs-b"), 0);
	KTEST_EXPECT_EQ(t, stat_size("/vfs-a"), -ENOENT);
	KTEST_EXPECT_EQ(t, stat_size("/etc/vfs-b"), 5000);
	KTEST_EXPECT_EQ(t, vfs_rename("/vfs-a", "/etc/vfs-c"), -ENOENT);

	/* O_TRUNC cuts even a read-only open, as on Linux. */
	KTEST_EXPECT_EQ(t, vfs_open("/etc/vfs-b", O_RDONLY | O_TRUNC, 0, &f), 0);
	KTEST_EXPECT_EQ(t, stat_size("/etc/vfs-b"), 0);
	vfs_close(f);
	/* An unlinked file stays readable while open. */
	KTEST_EXPECT_EQ(t, vfs_open("/etc/vfs-b", O_RDWR, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, "kept", 4), 4);
	KTEST_EXPECT_EQ(t, vfs_unlink("/etc/vfs-b"), 0);
	KTEST_EXPECT_EQ(t, stat_size("/etc/vfs-b"), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 0);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_SET), 0);
	memset(buf, 0, 8);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 8), 4);
	KTEST_EXPECT(t, memcmp(buf, "kept", 4) == 0);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_unlink("/etc/vfs-b"), -ENOENT);
out:
	kfree(buf);
	KTEST_EXPECT_EQ(t, settle(t), free_before);
}

KTEST(vfs, mkdir_rmdir)
{
	unsigned long free_before = settle(t);
	struct kstat root_before, st;
	struct file *f = NULL;

	KTEST_EXPECT_EQ(t, vfs_stat("/", &root_before), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/vfs-d", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/vfs-d", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/vfs-d/sub/", 0700), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/vfs-d/no/such", 0755), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_stat("/vfs-d", &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFDIR | 0755);
	KTEST_EXPECT_EQ(t, st.nlink, 3);
	KTEST_EXPECT_EQ(t, vfs_stat("/", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, root_before.nlink + 1);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-d/f", O_WRONLY | O_CREAT, 0600, &f), 0);
	if (f)
		vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/vfs-d"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/vfs-d/f"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/vfs-d/."), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/vfs-d/sub/.."), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_unlink("/vfs-d"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_unlink("/vfs-d/f/"), -ENOTDIR);
	/* A directory moves, and cannot move into itself. */
	KTEST_EXPECT_EQ(t, vfs_rename("/vfs-d", "/vfs-d/sub/in"), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_rename("/vfs-d/sub", "/vfs-d/f"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_rename("/vfs-d/f", "/vfs-d/sub"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_rename("/vfs-d/sub", "/etc/vfs-moved/"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/vfs-d", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 2);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/etc/vfs-moved/"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink("/vfs-d/f"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/vfs-d"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/vfs-d", &st), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_stat("/", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, root_before.nlink);
	KTEST_EXPECT_EQ(t, settle(t), free_before);
}

KTEST(vfs, relative_paths_and_mounts)
{
	unsigned long free_before = settle(t);
	struct kstat root, st, st2;
	struct file *f = NULL;

	KTEST_EXPECT_EQ(t, vfs_stat("/", &root), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/vfs-r", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/vfs-r/sub", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_chdir("/vfs-r/sub"), 0);
	KTEST_EXPECT_EQ(t, vfs_open("f", O_WRONLY | O_CREAT, 0644, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_write(f, "rel", 3), 3);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, stat_size("/vfs-r/sub/f"), 3);
	KTEST_EXPECT_EQ(t, stat_size("./f"), 3);
	KTEST_EXPECT_EQ(t, stat_size("../sub/./f"), 3);
	KTEST_EXPECT_EQ(t, stat_size("../../vfs-r//sub/f"), 3);
	KTEST_EXPECT_EQ(t, vfs_chdir(".."), 0);
	KTEST_EXPECT_EQ(t, stat_size("sub/f"), 3);
	KTEST_EXPECT_EQ(t, vfs_chdir("sub/f"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_chdir("nowhere"), -ENOENT);

	/* Into procfs and back out: /proc/.. is the root of the ext2 tree. */
	KTEST_EXPECT_EQ(t, vfs_chdir("../proc"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("meminfo", &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0444);
	KTEST_EXPECT_EQ(t, vfs_stat(".", &st), 0);
	KTEST_EXPECT_EQ(t, st.ino, 1);		/* procfs's root, not the mount point */
	KTEST_EXPECT_EQ(t, vfs_stat("..", &st), 0);
	KTEST_EXPECT_EQ(t, st.ino, root.ino);
	KTEST_EXPECT_EQ(t, stat_size("../etc/hostname"), 9);
	KTEST_EXPECT_EQ(t, vfs_chdir(".."), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("proc/meminfo", &st), 0);
	KTEST_EXPECT_EQ(t, stat_size("/proc/../etc/hostname"), 9);
	KTEST_EXPECT_EQ(t, vfs_stat("/../..", &st), 0);
	KTEST_EXPECT_EQ(t, st.ino, root.ino);
	KTEST_EXPECT_EQ(t, vfs_stat("/proc/vmstat", &st), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/proc/./zoneinfo", &st2), 0);
	KTEST_EXPECT(t, st.ino != st2.ino);

	KTEST_EXPECT_EQ(t, vfs_unlink("vfs-r/sub/f"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("vfs-r/sub"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/vfs-r"), 0);
	KTEST_EXPECT_EQ(t, vfs_chdir("/"), 0);
	KTEST_EXPECT_EQ(t, settle(t), free_before);
}

KTEST(vfs, errors)
{
	char long_name[NAME_MAX + 3];
	struct file *f = NULL;
	struct kstat st;
	char c;

	KTEST_EXPECT_EQ(t, vfs_open("/no-such", O_RDONLY, 0, &f), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_open("/no-such/x", O_RDWR | O_CREAT, 0644, &f), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname/x", O_RDONLY, 0, &f), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname", O_RDONLY | O_DIRECTORY, 0, &f), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname", O_RDWR | O_CREAT | O_EXCL, 0644, &f), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_open("/etc", O_WRONLY, 0, &f), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_open("/etc", O_RDWR | O_CREAT, 0644, &f), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-new/", O_RDWR | O_CREAT, 0644, &f), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname", O_ACCMODE, 0, &f), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_open(NULL, O_RDONLY, 0, &f), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_open("/etc", O_RDONLY, 0, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_open("/etc", O_RDONLY, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_read(f, &c, 1), -EISDIR);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_rmdir("/etc"), -ENOTEMPTY);
	memset(long_name, 'n', sizeof(long_name));
	long_name[0] = '/';
	long_name[sizeof(long_name) - 1] = '\0';
	KTEST_EXPECT_EQ(t, vfs_stat(long_name, &st), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_mkdir(long_name, 0755), -ENAMETOOLONG);
	long_name[sizeof(long_name) - 2] = '\0';	/* NAME_MAX exactly */
	KTEST_EXPECT_EQ(t, vfs_stat(long_name, &st), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_read(NULL, &c, 1), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_close(NULL), -EINVAL);

	/* procfs is read-only and a mount point pins its directory. */
	KTEST_EXPECT_EQ(t, vfs_open("/proc/meminfo", O_WRONLY, 0, &f), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_open("/proc/meminfo", O_RDONLY | O_TRUNC, 0, &f), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_open("/proc/new", O_WRONLY | O_CREAT, 0644, &f), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/proc/new", 0755), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_unlink("/proc/meminfo"), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_truncate("/proc/meminfo", 0), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/proc"), -EBUSY);
	KTEST_EXPECT_EQ(t, vfs_rename("/proc", "/proc2"), -EBUSY);
	KTEST_EXPECT_EQ(t, vfs_rename("/proc/meminfo", "/meminfo"), -EXDEV);
	KTEST_EXPECT_EQ(t, do_mount("proc", "/proc", "proc"), -EBUSY);
	KTEST_EXPECT_EQ(t, do_mount("ram0", "/tmp", "ext2"), -EBUSY);
	KTEST_EXPECT_EQ(t, do_mount("none", "/tmp", "no-such-fs"), -ENODEV);
	KTEST_EXPECT_EQ(t, do_mount("no-such-disk", "/etc", "ext2"), -ENOENT);
	KTEST_EXPECT_EQ(t, do_mount("proc", "/etc/hostname", "proc"), -ENOTDIR);
}

struct listing {
	char names[512];	/* "name/type " for each entry */
	size_t len;
	int stop_after;		/* stop when this many were taken; -1: never */
};

static int add_to_listing(void *ctx, const char *name, unsigned int name_len, uint64_t ino,
		      unsigned int d_type)
{
	struct listing *l = ctx;
	int n;

	(void)ino;
	if (l->stop_after == 0)
		return 1;
	n = snprintf(l->names + l->len, sizeof(l->names) - l->len, "%.*s/%u ",
		     (int)name_len, name, d_type);
	if (n > 0 && (size_t)n < sizeof(l->names) - l->len)
		l->len += n;
	if (l->stop_after > 0)
		l->stop_after--;
	return 0;
}

KTEST(vfs, readdir)
{
	struct listing l = { .len = 0, .stop_after = -1 };
	struct file *f = NULL;

	KTEST_EXPECT_EQ(t, vfs_open("/", O_RDONLY | O_DIRECTORY, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_readdir(f, add_to_listing, &l), 0);
		vfs_close(f);
	}
	KTEST_EXPECT(t, strstr(l.names, "./4 ") != NULL);
	KTEST_EXPECT(t, strstr(l.names, "etc/4 ") != NULL);
	KTEST_EXPECT(t, strstr(l.names, "proc/4 ") != NULL);
	KTEST_EXPECT(t, strstr(l.names, "tmp/4 ") != NULL);

	/* /proc, one entry per call: each call resumes where the last stopped. */
	l.len = 0;
	l.names[0] = '\0';
	KTEST_EXPECT_EQ(t, vfs_open("/proc", O_RDONLY, 0, &f), 0);
	if (f) {
		int i;

		for (i = 0; i < 6; i++) {
			l.stop_after = 1;
			KTEST_EXPECT_EQ(t, vfs_readdir(f, add_to_listing, &l), 0);
		}
		KTEST_EXPECT_STREQ(t, l.names, "./4 ../4 meminfo/8 vmstat/8 zoneinfo/8 stat/8 ");
		KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_SET), 0);
		l.stop_after = -1;
		KTEST_EXPECT_EQ(t, vfs_readdir(f, add_to_listing, &l), 0);
		KTEST_EXPECT(t, strstr(l.names, "stat/8 ./4 ") != NULL);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname", O_RDONLY, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_readdir(f, add_to_listing, &l), -ENOTDIR);
		vfs_close(f);
	}
}

/* The number after "label" at the start of a line of text, or -1. */
static long field(const char *text, const char *label)
{
	const char *p = strstr(text, label);
	long v = 0;

	if (!p || (p != text && p[-1] != '\n'))
		return -1;
	for (p += strlen(label); *p == ' '; p++)
		;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

/* Read path whole, chunk bytes at a time, into text (NUL-terminated). */
static long read_in_chunks(struct ktest *t, const char *path, char *text, size_t size,
			   size_t chunk)
{
	struct file *f = NULL;
	long n, total = 0;

	KTEST_EXPECT_EQ(t, vfs_open(path, O_RDONLY, 0, &f), 0);
	if (!f)
		return -1;
	while (total + chunk < size && (n = vfs_read(f, text + total, chunk)) > 0)
		total += n;
	text[total] = '\0';
	vfs_close(f);
	return total;
}

KTEST(vfs, proc_files)
{
	unsigned long free_before = settle(t);
	char *text = kmalloc(32768, GFP_KERNEL);
	struct file *f = NULL;
	long total;

	KTEST_EXPECT(t, text != NULL);
	if (!text)
		return;
	total = read_in_chunks(t, "/proc/meminfo", text, 32768, 7);
	KTEST_EXPECT(t, total > 0 && text[total - 1] == '\n');
	KTEST_EXPECT(t, strncmp(text, "MemTotal:       ", 16) == 0);
	KTEST_EXPECT_EQ(t, field(text, "MemTotal:"), (long)totalram_pages * 4);
	KTEST_EXPECT(t, field(text, "Committed_AS:") == 0);
	total = read_in_chunks(t, "/proc/vmstat", text, 32768, 100);
	KTEST_EXPECT(t, field(text, "nr_free_pages") > 0);
	KTEST_EXPECT(t, field(text, "pgfree") > 0);
	/* zoneinfo outgrows procfs's first buffer, which must grow. */
	total = read_in_chunks(t, "/proc/zoneinfo", text, 32768, 1000);
	KTEST_EXPECT(t, strstr(text, "Node 0, zone") == text);
	KTEST_EXPECT(t, total > 1024);
	printk(KERN_INFO "    # /proc/zoneinfo: %ld bytes\n", total);

	/* lseek back to 0 renders afresh; reading past the end gives 0. */
	KTEST_EXPECT_EQ(t, vfs_open("/proc/meminfo", O_RDONLY, 0, &f), 0);
	if (f) {
		KTEST_EXPECT(t, vfs_read(f, text, 9) == 9 && strncmp(text, "MemTotal:", 9) == 0);
		KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_SET), 0);
		KTEST_EXPECT(t, vfs_read(f, text, 9) == 9 && strncmp(text, "MemTotal:", 9) == 0);
		KTEST_EXPECT_EQ(t, vfs_llseek(f, 1 << 20, SEEK_SET), 1 << 20);
		KTEST_EXPECT_EQ(t, vfs_read(f, text, 9), 0);
		KTEST_EXPECT_EQ(t, vfs_write(f, text, 1), -EBADF);
		vfs_close(f);
	}
	kfree(text);
	KTEST_EXPECT_EQ(t, settle(t), free_before);
}

KTEST(vfs, fill_root_to_enospc)
{
	unsigned long free_before = settle(t);
	uint8_t *buf = kmalloc(FILL_CHUNK, GFP_KERNEL);
	unsigned long total = 0;
	struct file *f = NULL;
	struct kstat st;
	long n = 0;

	KTEST_EXPECT(t, buf != NULL);
	if (!buf)
		return;
	ktest_fill_pattern(buf, 0, FILL_CHUNK);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-fill", O_WRONLY | O_CREAT | O_EXCL, 0644, &f), 0);
	if (!f)
		goto out;
	while (total < FILL_LIMIT && (n = vfs_write(f, buf, FILL_CHUNK)) == FILL_CHUNK)
		total += n;
	/* The last write may be short; the next one fails cleanly. */
	if (n > 0) {
		total += n;
		n = vfs_write(f, buf, FILL_CHUNK);
	}
	KTEST_EXPECT_EQ(t, n, -ENOSPC);
	printk(KERN_INFO "    # root filesystem full after %lu KiB\n", total >> 10);
	KTEST_EXPECT(t, total > 1024 * 1024);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, total);
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	vfs_close(f);

	/* The full filesystem still reads, and works again once emptied. */
	KTEST_EXPECT_EQ(t, stat_size("/etc/hostname"), 9);
	KTEST_EXPECT_EQ(t, vfs_unlink("/vfs-fill"), 0);
	KTEST_EXPECT_EQ(t, vfs_open("/vfs-after", O_RDWR | O_CREAT | O_EXCL, 0644, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_write(f, buf, FILL_CHUNK), FILL_CHUNK);
		memset(buf, 0, FILL_CHUNK);
		KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_SET), 0);
		KTEST_EXPECT_EQ(t, vfs_read(f, buf, FILL_CHUNK), FILL_CHUNK);
		KTEST_EXPECT(t, ktest_check_pattern(buf, 0, FILL_CHUNK));
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_unlink("/vfs-after"), 0);
out:
	kfree(buf);
	KTEST_EXPECT_EQ(t, settle(t), free_before);
}

#define ACT_PAGES 16

/* Open path, read it whole, close it: the bytes read. */
static long read_whole(struct ktest *t, const char *path, void *buf, size_t len)
{
	struct file *f;
	long n;

	KTEST_EXPECT_EQ(t, vfs_open(path, O_RDONLY, 0, &f), 0);
	if (!f)
		return -1;
	n = vfs_read(f, buf, len);
	vfs_close(f);
	return n;
}

/*
 * The split LRU's central case: the first read brings the file's pages
 * into the page cache on Inactive(file); the inode stays cached unused
 * after the close, with its pages, so the second open's read touches
 * them again and activates them.
 */
KTEST(vfs, read_twice_activates)
{
	unsigned long free_before = settle(t), inactive, active;
	size_t len = ACT_PAGES * PAGE_SIZE;
	struct file *f = NULL;
	uint8_t *buf = kmalloc(len, GFP_KERNEL);

	KTEST_EXPECT(t, buf != NULL);
	if (!buf)
		return;
	ktest_fill_pattern(buf, 0, len);
	KTEST_EXPECT_EQ(t, vfs_open("/act.bin", O_CREAT | O_EXCL | O_WRONLY, 0644, &f), 0);
	if (!f)
		goto out;
	KTEST_EXPECT_EQ(t, vfs_write(f, buf, len), (long)len);
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	vfs_close(f);
	drop_caches();
	KTEST_EXPECT_EQ(t, nr_unused_inodes, 0);

	inactive = global_page_state(NR_INACTIVE_FILE);
	active = global_page_state(NR_ACTIVE_FILE);
	memset(buf, 0, len);
	KTEST_EXPECT_EQ(t, read_whole(t, "/act.bin", buf, len), (long)len);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 0, len));
	KTEST_EXPECT_EQ(t, global_page_state(NR_INACTIVE_FILE), inactive + ACT_PAGES);
	KTEST_EXPECT_EQ(t, global_page_state(NR_ACTIVE_FILE), active);
	KTEST_EXPECT(t, nr_unused_inodes > 0);

	memset(buf, 0, len);
	KTEST_EXPECT_EQ(t, read_whole(t, "/act.bin", buf, len), (long)len);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 0, len));
	KTEST_EXPECT_EQ(t, global_page_state(NR_INACTIVE_FILE), inactive);
	KTEST_EXPECT_EQ(t, global_page_state(NR_ACTIVE_FILE), active + ACT_PAGES);
	printk(KERN_INFO "        # /act.bin: %d pages Inactive(file) -> Active(file) on the second open\n",
	       ACT_PAGES);

	KTEST_EXPECT_EQ(t, vfs_unlink("/act.bin"), 0);
	KTEST_EXPECT_EQ(t, global_page_state(NR_ACTIVE_FILE), active);
out:
	kfree(buf);
	KTEST_EXPECT_EQ(t, settle(t), free_before);
}
