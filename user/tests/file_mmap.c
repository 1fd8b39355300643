/*
 * file_mmap: files mapped with mmap() show the file's data, privately or
 * shared, and agree with read() and write() on the same file.
 *
 * On tmpfs (/tmp): a file of three pages and 100 bytes is mapped
 * MAP_PRIVATE read-only and compared byte for byte; the rest of the last
 * page reads zero, and a page entirely past the end of the file raises
 * SIGBUS (in a child).  A MAP_PRIVATE writable mapping keeps its writes
 * to itself: the file, read with pread(), is unchanged.  A MAP_SHARED
 * mapping's writes are seen by pread() at once, survive msync() and
 * munmap(), and are there when the file is opened and read again; a
 * write() to the file shows through a shared mapping too.  A mapping at
 * a page offset maps the right part of the file.
 *
 * On the root filesystem (ext2): /test/data.bin, which the build
 * generated (tools/mkrootfs.py), is mapped and checked against the same
 * formula, past its indirect blocks; and a shared mapping of a new file
 * in /test writes through to it.  Outside Pageturn, PAGETURN_ROOT names
 * the staged root (build/rootfs) where /test lives.
 *
 * Fault-around: reading the first 16 pages of a mapping of a file whose
 * pages are all cached takes one page fault, not sixteen (Linux maps the
 * cached pages around a read fault, fault_around_bytes 64 KiB, and so
 * does Pageturn); counted with getrusage's minor and major faults, with
 * one fault of slack for whatever else the process touches.
 */
#include "testlib.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILE_SIZE (3 * PAGE_SIZE + 100)
#define ROOT_DATA_SIZE (300 * 1024 + 77)

static unsigned char content(size_t i)
{
	return (i * 37 + (i >> 12)) & 0xff;
}

/* tools/mkrootfs.py's /test/data.bin. */
static unsigned char root_data(size_t i)
{
	return (i * 131 + (i >> 9) * 29 + (i >> 17)) & 0xff;
}

/* Index of the first byte of map that differs from gen(offset + i), or -1. */
static long compare(const unsigned char *map, size_t len, size_t offset,
		    unsigned char (*gen)(size_t))
{
	for (size_t i = 0; i < len; i++)
		if (map[i] != gen(offset + i))
			return i;
	return -1;
}

#define FAULT_AROUND_SIZE (16 * PAGE_SIZE)

/* A file of size bytes (at most FAULT_AROUND_SIZE) of content(). */
static int make_file(const char *path, size_t size)
{
	static unsigned char buf[FAULT_AROUND_SIZE];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		tap_bail("create %s: %s", path, strerror(errno));
	for (size_t i = 0; i < size; i++)
		buf[i] = content(i);
	if (write_all(fd, buf, size) != (ssize_t)size)
		tap_bail("write %s: %s", path, strerror(errno));
	return fd;
}

static void *map_file(int fd, size_t len, int prot, int flags, off_t off)
{
	void *m = mmap(NULL, len, prot, flags, fd, off);

	if (m == MAP_FAILED)
		tap_bail("mmap of %zu bytes at offset %ld: %s", len, (long)off, strerror(errno));
	return m;
}

static void private_mappings(int fd)
{
	unsigned char *m, c;
	long at;
	int zero_tail = 1, status;
	char buf[64];
	pid_t pid;

	m = map_file(fd, 4 * PAGE_SIZE, PROT_READ, MAP_PRIVATE, 0);
	at = compare(m, FILE_SIZE, 0, content);
	tap_check(at < 0, "MAP_PRIVATE read-only: the mapping shows the file", "byte %ld differs", at);
	for (size_t i = FILE_SIZE; i < 4 * PAGE_SIZE; i++)
		zero_tail &= m[i] == 0;
	tap_check(zero_tail, "the last page reads zero past the end of the file", NULL);
	munmap(m, 4 * PAGE_SIZE);

	m = map_file(fd, 5 * PAGE_SIZE, PROT_READ, MAP_PRIVATE, 0);
	pid = test_fork();
	if (pid == 0) {
		(void)*(volatile unsigned char *)(m + 4 * PAGE_SIZE);
		_exit(0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS,
		  "a page wholly past the end of the file raises SIGBUS", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	munmap(m, 5 * PAGE_SIZE);

	m = map_file(fd, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 2 * PAGE_SIZE);
	at = compare(m, PAGE_SIZE, 2 * PAGE_SIZE, content);
	tap_check(at < 0, "a mapping at file offset 8192 shows that part of the file",
		  "byte %ld differs", at);
	munmap(m, PAGE_SIZE);

	m = map_file(fd, FILE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0);
	m[10] = ~content(10);
	m[PAGE_SIZE + 10] = ~content(PAGE_SIZE + 10);
	tap_check(m[10] == (unsigned char)~content(10), "MAP_PRIVATE writable: the write sticks", NULL);
	tap_check(pread(fd, &c, 1, PAGE_SIZE + 10) == 1 && c == content(PAGE_SIZE + 10),
		  "but does not reach the file", "file holds %#x", c);
	munmap(m, FILE_SIZE);
}

/* Check with a label naming the filesystem: "tmpfs: what". */
static int fs_check(const char *fs, int cond, const char *what)
{
	char line[160];

	snprintf(line, sizeof(line), "%s: %s", fs, what);
	return tap_check(cond, line, "%s", strerror(errno));
}

static void shared_mapping(const char *fs, const char *path, int fd)
{
	unsigned char *m, c;
	int ok = 1, fd2;

	m = map_file(fd, FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	for (size_t i = 0; i < FILE_SIZE; i += 97)
		m[i] = 0xa5;
	for (size_t i = 0; i < FILE_SIZE && ok; i += 97)
		ok = pread(fd, &c, 1, i) == 1 && c == 0xa5;
	fs_check(fs, ok, "MAP_SHARED: pread sees the mapping's writes at once");
	fs_check(fs, msync(m, FILE_SIZE, MS_SYNC) == 0, "msync(MS_SYNC) succeeds");
	if (pwrite(fd, "W", 1, 5) != 1)
		tap_bail("pwrite: %s", strerror(errno));
	fs_check(fs, m[5] == 'W', "a write() to the file shows through the shared mapping");
	fs_check(fs, munmap(m, FILE_SIZE) == 0, "munmap of the shared mapping");

	fd2 = open(path, O_RDONLY);
	if (fd2 < 0)
		tap_bail("reopen %s: %s", path, strerror(errno));
	ok = 1;
	for (size_t i = 0; i < FILE_SIZE && ok; i++) {
		unsigned char want = i == 5 ? 'W' : i % 97 == 0 ? 0xa5 : content(i);

		ok = read(fd2, &c, 1) == 1 && c == want;
	}
	fs_check(fs, ok, "reopened after munmap, read() returns the mapped writes");
	close(fd2);
}

static void root_filesystem(void)
{
	char path[4096];
	unsigned char *m;
	struct stat st;
	long at;
	int fd;

	snprintf(path, sizeof(path), "%s", root_path("/test/data.bin"));
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		tap_bail("%s: %s (outside Pageturn set PAGETURN_ROOT to the staged root)", path,
			 strerror(errno));
	tap_check(st.st_size == ROOT_DATA_SIZE, "/test/data.bin has the size the build wrote",
		  "%ld bytes", (long)st.st_size);
	m = map_file(fd, ROOT_DATA_SIZE, PROT_READ, MAP_PRIVATE, 0);
	at = compare(m, ROOT_DATA_SIZE, 0, root_data);
	tap_check(at < 0, "ext2: a mapping of /test/data.bin holds the generated bytes",
		  "byte %ld differs", at);
	munmap(m, ROOT_DATA_SIZE);
	close(fd);

	snprintf(path, sizeof(path), "%s", root_path("/test/file_mmap.tmp"));
	fd = make_file(path, FILE_SIZE);
	shared_mapping("ext2", path, fd);
	close(fd);
	tap_check(unlink(path) == 0, "ext2: the file is removed again", "%s", strerror(errno));
}

/* Sixteen cached pages read through a fresh mapping: at most two faults. */
static void fault_around(void)
{
	char path[] = "/tmp/fault_around.XXXXXX";
	size_t len = FAULT_AROUND_SIZE;
	int fd = mkstemp(path);
	struct rusage before, after;
	volatile unsigned char *map;
	unsigned long sum = 0, faults;

	if (fd < 0)
		tap_bail("mkstemp in /tmp: %s", strerror(errno));
	close(fd);
	fd = make_file(path, len);	/* written, so every page is cached */
	map = map_file(fd, len, PROT_READ, MAP_PRIVATE, 0);
	getrusage(RUSAGE_SELF, &before);
	for (size_t i = 0; i < len; i += PAGE_SIZE)
		sum += map[i];
	getrusage(RUSAGE_SELF, &after);
	faults = (after.ru_minflt - before.ru_minflt) + (after.ru_majflt - before.ru_majflt);
	tap_check(faults <= 2, "reading 16 cached pages through a mapping faults at most twice "
		  "(fault-around)", "%lu faults (checksum %lu)", faults, sum);
	munmap((void *)map, len);
	close(fd);
	unlink(path);
}

int main(void)
{
	char path[] = "/tmp/file_mmap.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		tap_bail("mkstemp in /tmp: %s", strerror(errno));
	close(fd);
	fd = make_file(path, FILE_SIZE);
	private_mappings(fd);
	shared_mapping("tmpfs", path, fd);
	close(fd);
	unlink(path);
	root_filesystem();
	fault_around();
	return tap_done();
}
