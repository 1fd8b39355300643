/*
 * dead_dir: a directory that was removed while a process still holds it
 * (as its working directory, or open as a descriptor) is dead, and stays
 * so: nothing can be made in it and it has no entries to list.
 *
 * Linux's rules (fs/namei.c, fs/readdir.c): rmdir marks the removed
 * directory S_DEAD, and every call that would add a name to a dead
 * directory - open with O_CREAT, mkdir, mknod, symlink, link into it,
 * rename into it - fails with ENOENT, on every filesystem; getdents64 on
 * it fails with ENOENT too; getcwd in it fails with ENOENT.  Without the
 * first rule a file made there is linked only from a directory whose
 * blocks are about to be freed, and is lost (ext2 leaks the inode, and
 * the dead directory's link count goes up again so it is never freed);
 * without the second, listing it reports its ".." from a parent that may
 * be gone already (freed memory, whose slab poison 0x6b6b6b6b6b6b6b6b
 * came back as d_ino).
 *
 * Each case runs on tmpfs (/tmp) and on ext2 (ext2_scratch(): a virtio
 * disk or the root on Pageturn, /tmp again on the build machine):
 *   - a removed working directory: every kind of create by relative path
 *     is ENOENT, getdents64 of "." is ENOENT, getcwd is ENOENT;
 *   - a removed directory open as a descriptor: the *at() calls with it
 *     are ENOENT, and so is getdents64 on it, also after its parent was
 *     removed too (the use-after-free); fchdir into it works (Linux
 *     allows it), and then getcwd is ENOENT;
 *   - afterwards the surviving directory has exactly the entries and the
 *     link count (2, no subdirectories left) it should.
 * And a chain of DEAD_CHAIN directories, each inside the last, removed
 * from the bottom up while the bottom one stays open, then closed: the
 * whole chain is freed at once, and must not be freed by one nested call
 * per level (that overflowed the kernel stack when each dead tmpfs
 * directory still held its parent).
 * Linux is the reference: the program passes on the build machine.
 */
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A check that a call failed with ENOENT (ret is its result, errno its). */
static void expect_enoent(long ret, const char *fs, const char *what)
{
	int e = errno;

	tap_check(ret == -1 && e == ENOENT, what, "on %s: returned %ld, errno %s", fs, ret,
		  ret == -1 ? strerror(e) : "none");
}

/*
 * getdents64 on fd: the result, after checking that no entry it returned
 * carries the poison inode number.
 */
static long getdents_checked(int fd, const char *fs, const char *what)
{
	static char buf[4096];
	long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
	int e = errno;
	uint64_t poisoned = 0;

	for (long off = 0; n > 0 && off < n;) {
		struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

		if (d->d_ino == SLAB_POISON_64)
			poisoned++;
		if (d->d_reclen == 0)
			break;
		off += d->d_reclen;
	}
	tap_check(poisoned == 0, what, "on %s: %llu entries with d_ino 0x6b6b6b6b6b6b6b6b (freed "
		  "memory)", fs, (unsigned long long)poisoned);
	errno = e;
	return n;
}

/* The number of entries in dir besides "." and "..", or -1. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0)
		tap_bail("mkdir %s: %s", path, strerror(errno));
}

/* Every kind of create, relative to dfd (AT_FDCWD: the working
 * directory), in a directory that was removed: ENOENT each. */
static void creates_fail(int dfd, const char *base, const char *fs, const char *how)
{
	char what[128], file[300];

	snprintf(file, sizeof(file), "%s/file", base);
	snprintf(what, sizeof(what), "%s: open(O_CREAT) is ENOENT", how);
	expect_enoent(openat(dfd, "x", O_CREAT | O_WRONLY, 0644), fs, what);
	snprintf(what, sizeof(what), "%s: mkdir is ENOENT", how);
	expect_enoent(mkdirat(dfd, "y", 0755), fs, what);
	snprintf(what, sizeof(what), "%s: mknod of a FIFO is ENOENT", how);
	expect_enoent(mknodat(dfd, "n", S_IFIFO | 0644, 0), fs, what);
	snprintf(what, sizeof(what), "%s: symlink is ENOENT", how);
	expect_enoent(symlinkat("target", dfd, "s"), fs, what);
	snprintf(what, sizeof(what), "%s: link into it is ENOENT", how);
	expect_enoent(linkat(AT_FDCWD, file, dfd, "l", 0), fs, what);
	snprintf(what, sizeof(what), "%s: rename into it is ENOENT", how);
	expect_enoent(renameat(AT_FDCWD, file, dfd, "r"), fs, what);
	snprintf(what, sizeof(what), "%s: the file renamed nowhere is still in place", how);
	tap_check(access(file, F_OK) == 0, what, "on %s: %s", fs, strerror(errno));
}

/* The working directory removed under the process. */
static void dead_cwd(const char *base, const char *fs)
{
	char dir[300], cwd[256];
	int fd;

	snprintf(dir, sizeof(dir), "%s/cwd", base);
	make_dir(dir);
	if (chdir(dir) != 0)
		tap_bail("chdir %s: %s", dir, strerror(errno));
	tap_check(rmdir(dir) == 0, "rmdir of the working directory works", "on %s: %s", fs,
		  strerror(errno));
	creates_fail(AT_FDCWD, base, fs, "removed cwd");
	expect_enoent(getcwd(cwd, sizeof(cwd)) ? 0 : -1, fs, "removed cwd: getcwd is ENOENT");
	fd = open(".", O_RDONLY | O_DIRECTORY);
	tap_check(fd >= 0, "removed cwd: \".\" still opens", "on %s: %s", fs, strerror(errno));
	if (fd >= 0) {
		expect_enoent(getdents_checked(fd, fs, "removed cwd: no poisoned d_ino"), fs,
			      "removed cwd: getdents64 is ENOENT");
		close(fd);
	}
	if (chdir("/") != 0)
		tap_bail("chdir /: %s", strerror(errno));
}

/*
 * A directory open as a descriptor, removed, then its parent removed too:
 * its ".." would name freed memory.
 */
static void dead_dirfd(const char *base, const char *fs)
{
	char parent[300], dir[300], cwd[256];
	int fd;

	snprintf(parent, sizeof(parent), "%s/A", base);
	snprintf(dir, sizeof(dir), "%s/A/B", base);
	make_dir(parent);
	make_dir(dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		tap_bail("open %s: %s", dir, strerror(errno));
	tap_check(rmdir(dir) == 0 && rmdir(parent) == 0, "rmdir of an open directory and its parent",
		  "on %s: %s", fs, strerror(errno));
	/* Reuse the freed memory: new directories where the old ones were. */
	for (int i = 0; i < 8; i++) {
		char p[300];

		snprintf(p, sizeof(p), "%s/reuse%d", base, i);
		make_dir(p);
	}
	expect_enoent(getdents_checked(fd, fs, "removed dirfd: no poisoned d_ino"), fs,
		      "removed dirfd, parent removed: getdents64 is ENOENT");
	creates_fail(fd, base, fs, "removed dirfd");
	tap_check(fchdir(fd) == 0, "removed dirfd: fchdir into it works", "on %s: %s", fs,
		  strerror(errno));
	expect_enoent(getcwd(cwd, sizeof(cwd)) ? 0 : -1, fs, "fchdir to a removed dir: getcwd is ENOENT");
	expect_enoent(mkdir("z", 0755), fs, "fchdir to a removed dir: mkdir is ENOENT");
	if (chdir("/") != 0)
		tap_bail("chdir /: %s", strerror(errno));
	close(fd);
	for (int i = 0; i < 8; i++) {
		char p[300];

		snprintf(p, sizeof(p), "%s/reuse%d", base, i);
		if (rmdir(p) != 0)
			tap_bail("rmdir %s: %s", p, strerror(errno));
	}
}

static void run_on(const char *where, const char *fs)
{
	char base[256], file[300], live[300], sub[320];
	struct stat st;
	int fd;

	snprintf(base, sizeof(base), "%s/dead_dir.XXXXXX", strcmp(where, "/") ? where : "");
	if (!mkdtemp(base))
		tap_bail("mkdtemp %s: %s", base, strerror(errno));
	tap_note("on %s: %s", fs, base);
	snprintf(file, sizeof(file), "%s/file", base);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		tap_bail("create %s: %s", file, strerror(errno));
	close(fd);

	dead_cwd(base, fs);
	dead_dirfd(base, fs);

	/* A live directory still takes names, and counts its subdirectory. */
	snprintf(live, sizeof(live), "%s/live", base);
	snprintf(sub, sizeof(sub), "%s/live/sub", base);
	make_dir(live);
	tap_check(mkdir(sub, 0755) == 0 && stat(live, &st) == 0 && st.st_nlink == 3,
		  "a live directory with one subdirectory has 3 links", "on %s: %s, st_nlink %lu",
		  fs, strerror(errno), (unsigned long)st.st_nlink);
	if (rmdir(sub) != 0 || rmdir(live) != 0)
		tap_bail("rmdir %s: %s", live, strerror(errno));

	tap_check(stat(base, &st) == 0 && st.st_nlink == 2,
		  "afterwards the test directory has 2 links (no subdirectory left)",
		  "on %s: st_nlink %lu", fs, (unsigned long)st.st_nlink);
	tap_check(count_entries(base) == 1, "afterwards the test directory holds only its file",
		  "on %s: %d entries", fs, count_entries(base));
	tap_check(stat(file, &st) == 0 && st.st_nlink == 1, "the file has one link",
		  "on %s: st_nlink %lu", fs, (unsigned long)st.st_nlink);
	if (unlink(file) != 0 || rmdir(base) != 0)
		tap_bail("cannot remove %s: %s", base, strerror(errno));
}

#define DEAD_CHAIN 300

/* The chain of dead directories, made and closed in a child (it moves
 * its working directory about); the child reports through its status. */
static void dead_chain(const char *base, const char *fs)
{
	char buf[64];
	int status;
	pid_t pid = test_fork();

	if (pid == 0) {
		int fd, i;

		if (chdir(base) || mkdir("dead_chain", 0755) || chdir("dead_chain"))
			_exit(2);
		for (i = 0; i < DEAD_CHAIN; i++)
			if (mkdir("d", 0755) || chdir("d"))
				_exit(3);
		fd = open(".", O_RDONLY | O_DIRECTORY);
		if (fd < 0 || chdir(".."))
			_exit(4);
		for (i = 0; i < DEAD_CHAIN; i++)
			if (rmdir("d") || chdir(".."))
				_exit(5);
		close(fd);	/* the whole chain goes here */
		_exit(rmdir("dead_chain") ? 6 : 0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "a chain of removed directories held by the bottom one's descriptor goes at close",
		  "on %s: %s", fs, test_status_str(status, buf, sizeof(buf)));
}

int main(void)
{
	run_on("/tmp", "tmpfs");
	run_on(ext2_scratch(), "ext2");
	dead_chain("/tmp", "tmpfs");
	dead_chain(ext2_scratch(), "ext2");
	return tap_done();
}
