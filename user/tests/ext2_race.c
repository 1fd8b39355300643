/*
 * ext2_race: several processes allocate on one ext2 filesystem at once,
 * and every object still gets its own inode and its own blocks.
 *
 * An allocator that looks at a bitmap, sleeps on the disk, and only then
 * takes what it saw free hands the same inode or block to two processes:
 * one file's inode becomes another's, a block is mapped twice, and the
 * kernel ends up reading an inode it thinks is free.  A RAM disk never
 * sleeps there, so this test wants the disk-backed filesystem that
 * ext2_scratch() gives (the QEMU case "user_races_virtio_bios" attaches
 * one and runs e2fsck on it afterwards).
 *
 * At once, in the test's own directory:
 *   - one process makes 1500 symbolic links in "links" (every tenth with
 *     a target too long for the inode, so it takes a block too);
 *   - one makes 1500 directories in "dirs";
 *   - two writers each append 300 KiB to a file of their own in 1000-byte
 *     writes, and fill alternate pages of a shared file, 600 KiB in all,
 *     so both allocate data blocks, indirect and double-indirect blocks
 *     in the same bitmap blocks, and in the same indirect blocks.
 * Then every name must stat to an inode number no other name has; the
 * links must read back their targets; each new directory must have two
 * links and "dirs" 2 + 1500; the files must have their sizes and read
 * back their bytes.
 *
 * Then truncation racing writes on one file: a writer keeps writing
 * single bytes past 300 KiB while the test, TRUNC_ROUNDS times, writes a
 * byte every 256 KiB (a sparse file whose indirect blocks fall out of
 * the buffer cache) and truncates the file to nothing.  Truncation frees
 * the block tree with sleeps in between; a write that allocated into it
 * meanwhile, or set the size, left blocks mapped past the end and a
 * wrong block count.  After a last truncate the file must hold no
 * blocks (and e2fsck, in the QEMU case, must agree).  Last, two
 * processes remove the links and the directories at once, and the tree
 * must go away whole.
 *
 * Without a virtio disk ext2_scratch() is the root filesystem, an 8 MiB
 * RAM disk with room for a few hundred more inodes: there (where nothing
 * sleeps anyway) the counts shrink to what statvfs says fits.
 *
 * Linux is the reference: the test passes on the build machine (on
 * /tmp, whatever it is).
 */
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define NR_NAMES	1500		/* fewer where the filesystem cannot hold them */
#define LONG_EVERY	10		/* every tenth link is a slow one */
#define OWN_SIZE	(300 * 1024)	/* each writer's own file */
#define OWN_CHUNK	1000
#define SHARED_PAGES	150		/* 600 KiB, alternate 4 KiB pages per writer */
#define PAGE		4096
#define TRUNC_ROUNDS	10
#define TRUNC_SPREAD	(256 * 1024)	/* one byte every 256 KiB */

static char base[256];
static int nr_names = NR_NAMES;	/* links, and directories */

/* How many links and directories the filesystem under dir has room for:
 * an inode each, a block each for the directories and one link in
 * LONG_EVERY, besides the writers' files (1.2 MiB). */
static int names_that_fit(const char *dir)
{
	struct statvfs sv;
	long long inodes, kib;

	if (statvfs(dir, &sv))
		tap_bail("statvfs %s: %s", dir, strerror(errno));
	inodes = ((long long)sv.f_favail - 64) / 2;
	kib = ((long long)sv.f_bavail * sv.f_frsize / 1024 - 2048) * LONG_EVERY /
	      (2 * LONG_EVERY + 1) / 2;
	if (inodes > NR_NAMES && kib > NR_NAMES)
		return NR_NAMES;
	return (int)(inodes < kib ? inodes : kib);
}

/* The target of link i: short (in the inode), or 80 bytes (a block). */
static void link_target(int i, char *buf, size_t size)
{
	if (i % LONG_EVERY == 0)
		snprintf(buf, size, "target-%05d-%066d", i, 0);
	else
		snprintf(buf, size, "target-%05d", i);
}

/* The byte at offset off of writer w's files. */
static unsigned char pattern(int w, long off)
{
	return (unsigned char)(off * 7 + off / 4093 + w * 101 + 1);
}

/* A child failed a step: say which, and exit 1. */
__attribute__((noreturn)) static void child_fail(const char *who, const char *what, int i)
{
	printf("# %s: %s %d: %s\n", who, what, i, strerror(errno));
	fflush(stdout);
	_exit(1);
}

static void make_links(void)
{
	char path[512], target[128];

	for (int i = 0; i < nr_names; i++) {
		snprintf(path, sizeof(path), "%s/links/s%d", base, i);
		link_target(i, target, sizeof(target));
		if (symlink(target, path))
			child_fail("links", "symlink", i);
	}
}

static void make_dirs(void)
{
	char path[512];

	for (int i = 0; i < nr_names; i++) {
		snprintf(path, sizeof(path), "%s/dirs/d%d", base, i);
		if (mkdir(path, 0755))
			child_fail("dirs", "mkdir", i);
	}
}

/* Writer w: its own file by appends, and its pages of the shared one. */
static void write_files(int w)
{
	char path[512], buf[PAGE];
	int own, shared;
	long off = 0;
	int page = w;

	snprintf(path, sizeof(path), "%s/own%d", base, w);
	own = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	snprintf(path, sizeof(path), "%s/shared", base);
	shared = open(path, O_WRONLY);
	if (own < 0 || shared < 0)
		child_fail("writer", "open", w);
	while (off < OWN_SIZE || page < SHARED_PAGES) {
		if (off < OWN_SIZE) {
			int n = OWN_SIZE - off < OWN_CHUNK ? (int)(OWN_SIZE - off) : OWN_CHUNK;

			for (int j = 0; j < n; j++)
				buf[j] = (char)pattern(w, off + j);
			if (write(own, buf, n) != n)
				child_fail("writer", "append at", (int)off);
			off += n;
		}
		if (page < SHARED_PAGES) {
			long poff = (long)page * PAGE;

			for (int j = 0; j < PAGE; j++)
				buf[j] = (char)pattern(page % 2, poff + j);
			if (pwrite(shared, buf, PAGE, poff) != PAGE)
				child_fail("writer", "pwrite page", page);
			page += 2;
		}
	}
	close(own);
	close(shared);
}

/* Remove the links (what 0) or the directories (what 1). */
static void remove_names(int what)
{
	char path[512];

	for (int i = 0; i < nr_names; i++) {
		if (what == 0) {
			snprintf(path, sizeof(path), "%s/links/s%d", base, i);
			if (unlink(path))
				child_fail("remove", "unlink link", i);
		} else {
			snprintf(path, sizeof(path), "%s/dirs/d%d", base, i);
			if (rmdir(path))
				child_fail("remove", "rmdir", i);
		}
	}
}

/* Start each fn(arg) in a child at once; how many did not exit 0. */
static int run_children(int n, void (*fn)(int), const int *args)
{
	pid_t pids[4];
	int bad = 0;

	for (int i = 0; i < n; i++) {
		pids[i] = test_fork();
		if (pids[i] == 0) {
			fn(args[i]);
			_exit(0);
		}
	}
	for (int i = 0; i < n; i++) {
		int status;

		test_wait(pids[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad++;
	}
	return bad;
}

static void make_one(int what)
{
	if (what == 0)
		make_links();
	else if (what == 1)
		make_dirs();
	else
		write_files(what - 2);
}

static int cmp_ino(const void *a, const void *b)
{
	ino_t x = *(const ino_t *)a, y = *(const ino_t *)b;

	return x < y ? -1 : x > y;
}

/* The file at path must be size bytes of pattern_of(off); 0 or -1. */
static int check_file(const char *path, long size, int shared, int w, long *bad_off)
{
	unsigned char buf[PAGE];
	int fd = open(path, O_RDONLY);
	long off = 0;
	ssize_t n;

	*bad_off = -1;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t j = 0; j < n; j++, off++) {
			int who = shared ? (int)(off / PAGE) % 2 : w;

			if (buf[j] != pattern(who, off) && *bad_off < 0)
				*bad_off = off;
		}
	}
	close(fd);
	return n == 0 && off == size && *bad_off < 0 ? 0 : -1;
}

/* The truncate race: a child writes, the test writes and truncates. */
static void truncate_race(void)
{
	char path[512];
	struct statvfs sv;
	struct stat st;
	long bytes, spread;
	int fd, status;
	pid_t writer;

	snprintf(path, sizeof(path), "%s/trunc", base);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || statvfs(base, &sv))
		tap_bail("%s: %s", path, strerror(errno));
	/* A data block and a share of an indirect block per byte written:
	 * at most a quarter of the free space. */
	bytes = (long)(sv.f_bavail / 4);
	spread = bytes < 1500 ? bytes : 1500;
	writer = test_fork();
	if (writer == 0) {
		for (long i = 0;; i++)
			if (pwrite(fd, "w", 1, (300 + (i % 4) * 256) * 1024l) != 1)
				_exit(1);
	}
	for (int r = 0; r < TRUNC_ROUNDS; r++) {
		for (long i = 0; i < spread; i++)
			if (pwrite(fd, "x", 1, (300 * 1024l) + TRUNC_SPREAD * i) != 1)
				tap_bail("pwrite %s: %s", path, strerror(errno));
		if (ftruncate(fd, 0))
			tap_bail("ftruncate %s: %s", path, strerror(errno));
	}
	kill(writer, SIGKILL);
	test_wait(writer, &status, 0);
	if (ftruncate(fd, 0) || fsync(fd) || fstat(fd, &st))
		tap_bail("%s: %s", path, strerror(errno));
	close(fd);
	tap_check(st.st_size == 0 && st.st_blocks == 0,
		  "a file truncated while another process writes it holds no blocks after a last truncate",
		  "size %lld, %lld blocks (%d rounds of %ld bytes)", (long long)st.st_size,
		  (long long)st.st_blocks, TRUNC_ROUNDS, spread);
	unlink(path);
}

int main(void)
{
	static ino_t inos[2 * NR_NAMES + 8];
	char what[128];
	char path[512], target[128], got[128];
	const int make_args[] = { 0, 1, 2, 3 }, remove_args[] = { 0, 1 };
	int n = 0, bad_stat = 0, bad_link = 0, bad_nlink = 0, dups = 0, bad;
	struct stat st;

	snprintf(base, sizeof(base), "%s/ext2_race.%d",
		 strcmp(ext2_scratch(), "/") ? ext2_scratch() : "", (int)getpid());
	snprintf(path, sizeof(path), "%s/links", base);
	if (mkdir(base, 0755) || mkdir(path, 0755))
		tap_bail("mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/dirs", base);
	if (mkdir(path, 0755))
		tap_bail("mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/shared", base);
	if (close(open(path, O_WRONLY | O_CREAT, 0644)))
		tap_bail("create %s: %s", path, strerror(errno));
	nr_names = names_that_fit(base);
	if (nr_names < 100)
		tap_bail("%s has room for %d names only", base, nr_names);
	tap_note("in %s, %d links and %d directories", base, nr_names, nr_names);

	bad = run_children(4, make_one, make_args);
	snprintf(what, sizeof(what), "%d symlinks, %d directories and two writers at once",
		 nr_names, nr_names);
	tap_check(bad == 0, what, "%d of 4 processes failed", bad);

	/* Link i (its target, one link), then directory i (two links). */
	for (int i = 0; i < 2 * nr_names; i++) {
		bool is_link = i < nr_names;
		int k = is_link ? i : i - nr_names;

		snprintf(path, sizeof(path), is_link ? "%s/links/s%d" : "%s/dirs/d%d", base, k);
		if (lstat(path, &st) || (is_link ? !S_ISLNK(st.st_mode) : !S_ISDIR(st.st_mode))) {
			bad_stat++;
			continue;
		}
		inos[n++] = st.st_ino;
		if (st.st_nlink != (is_link ? 1u : 2u))
			bad_nlink++;
		if (!is_link)
			continue;
		link_target(k, target, sizeof(target));
		ssize_t len = readlink(path, got, sizeof(got) - 1);

		if (len < 0 || (size_t)len != strlen(target) || memcmp(got, target, len))
			bad_link++;
	}
	static const char *const others[] = { "", "/links", "/dirs", "/own0", "/own1", "/shared" };

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", base, others[i]);
		if (lstat(path, &st))
			bad_stat++;
		else
			inos[n++] = st.st_ino;
	}
	qsort(inos, n, sizeof(inos[0]), cmp_ino);
	for (int i = 1; i < n; i++)
		dups += inos[i] == inos[i - 1];
	tap_check(bad_stat == 0, "every name stats as what it was made",
		  "%d names missing or of the wrong type", bad_stat);
	tap_check(dups == 0, "every name has an inode number of its own",
		  "%d of %d inode numbers taken twice", dups, n);
	tap_check(bad_link == 0, "every symlink reads back its target", "%d wrong", bad_link);
	snprintf(path, sizeof(path), "%s/dirs", base);
	tap_check(bad_nlink == 0 && stat(path, &st) == 0 && st.st_nlink == (nlink_t)(2 + nr_names),
		  "link counts: 1 per symlink, 2 per new directory, 2 + their number for the parent",
		  "%d wrong; parent has %lu", bad_nlink, (unsigned long)st.st_nlink);

	for (int w = 0; w < 3; w++) {
		long bad_off;
		int err;

		if (w < 2) {
			snprintf(path, sizeof(path), "%s/own%d", base, w);
			err = check_file(path, OWN_SIZE, 0, w, &bad_off);
		} else {
			snprintf(path, sizeof(path), "%s/shared", base);
			err = check_file(path, (long)SHARED_PAGES * PAGE, 1, 0, &bad_off);
		}
		tap_check(err == 0, w < 2 ? "an appending writer's file has its size and bytes" :
			  "the file both writers filled has every page of each",
			  "%s: wrong size, or first bad byte at %ld", path, bad_off);
	}

	truncate_race();
	bad = run_children(2, remove_names, remove_args);
	tap_check(bad == 0, "the links and the directories removed at once",
		  "%d of 2 processes failed", bad);
	int gone = 1;

	for (size_t i = sizeof(others) / sizeof(others[0]); i-- > 0;) {
		snprintf(path, sizeof(path), "%s%s", base, others[i]);
		if (i < 3 ? rmdir(path) : unlink(path)) {
			tap_note("remove %s: %s", path, strerror(errno));
			gone = 0;
		}
	}
	tap_check(gone, "the test's tree is gone", "see above");
	return tap_done();
}
