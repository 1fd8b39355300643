/*
 * rw_iter: read(2) and write(2) move data straight between a file's pages
 * (or a pipe's ring) and the caller's memory, and the edges of that stay
 * as Linux has them.  On an ext2 filesystem (ext2_scratch(): the QEMU
 * case "user_races_virtio_bios" attaches a disk and runs e2fsck -fn on it
 * afterwards) and on tmpfs (/tmp), each of:
 *
 *   - a read across end of file returns the bytes up to it, then 0;
 *   - a read across holes (a sparse file: lseek past the end, write)
 *     gives zeroes there and the data after;
 *   - O_APPEND writes land at the end whatever the position; a write
 *     past the end extends the file with a hole;
 *   - readv and writev with 40 iovecs, zero-length ones among them, move
 *     the bytes in order;
 *   - a read or readv into a buffer whose second page is PROT_NONE
 *     returns the bytes before it and advances the position by exactly
 *     that many;
 *   - a write from a buffer whose second page is unmapped writes the
 *     bytes before it: the count, the position and the size agree;
 *   - a pread or pwritev whose end would pass the largest offset fails
 *     with EINVAL;
 *   - a write whose source is a MAP_SHARED mapping of the same file
 *     (the very page written, the page before it, pages about to be
 *     written, a page still a hole) completes, with the bytes a forward
 *     copy gives (this is the case that deadlocks if the page fault
 *     waits for the page lock write() holds);
 *   - readers racing a writer of the same file: see race() below.
 * And a pipe read into a buffer that faults part way loses nothing: what
 * it returned plus what later reads get is exactly what was written.
 * Last, hostile vectors (see hostile_vectors) fail as Linux's do and
 * leave the kernel's own user copies working.
 *
 * Linux is the reference: the test passes on the build machine.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE	4096

static char where[64];		/* "ext2" or "tmpfs", for the messages */
static char dir[256];

static unsigned char pat(long i)
{
	return (unsigned char)(i * 131 + (i >> 12) * 7 + 1);
}

static void fill(unsigned char *b, long off, long len)
{
	for (long i = 0; i < len; i++)
		b[i] = pat(off + i);
}

static int open_file(const char *name, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, flags | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		tap_bail("open %s: %s", path, strerror(errno));
	return fd;
}

static void what(char *buf, size_t size, const char *text)
{
	snprintf(buf, size, "%s: %s", where, text);
}

static void eof_and_holes(void)
{
	static unsigned char buf[4 * PAGE], got[4 * PAGE];
	char w[160];
	int fd = open_file("eof", O_RDWR);
	ssize_t n;
	bool ok;

	fill(buf, 0, 10000);
	what(w, sizeof(w), "a 10000-byte file is written whole");
	tap_check(write(fd, buf, 10000) == 10000, w, "%s", strerror(errno));
	n = pread(fd, got, 8192, 8000);
	what(w, sizeof(w), "a read across end of file returns the bytes up to it");
	tap_check(n == 2000 && !memcmp(got, buf + 8000, 2000), w, "pread gave %zd", n);
	what(w, sizeof(w), "a read at end of file returns 0");
	lseek(fd, 0, SEEK_END);
	tap_check(read(fd, got, 100) == 0, w, NULL);
	close(fd);

	/* Sparse: "head" at 0, a hole to 3 pages + 100, "tail" there. */
	fd = open_file("holes", O_RDWR);
	n = write(fd, "head", 4);
	lseek(fd, 3 * PAGE + 100, SEEK_SET);
	n += write(fd, "tail", 4);
	memset(got, 0xee, sizeof(got));
	ok = n == 8 && pread(fd, got, sizeof(got), 0) == 3 * PAGE + 104 &&
	     !memcmp(got, "head", 4) && !memcmp(got + 3 * PAGE + 100, "tail", 4);
	for (long i = 4; ok && i < 3 * PAGE + 100; i++)
		ok = got[i] == 0;
	what(w, sizeof(w), "a read across holes gives zeroes there and the data around them");
	tap_check(ok, w, NULL);
	close(fd);
}

static void append_and_extend(void)
{
	static unsigned char buf[2 * PAGE], got[3 * PAGE];
	struct stat st;
	char w[160];
	int fd = open_file("append", O_RDWR | O_APPEND);
	bool ok;

	ok = write(fd, "abc", 3) == 3 && lseek(fd, 0, SEEK_SET) == 0 && write(fd, "def", 3) == 3 &&
	     lseek(fd, 0, SEEK_CUR) == 6 && pwrite(fd, "gh", 2, 0) == 2;
	ok = ok && pread(fd, got, 16, 0) == 8 && !memcmp(got, "abcdefgh", 8);
	what(w, sizeof(w), "O_APPEND writes (and pwrites) land at the end");
	tap_check(ok, w, NULL);
	close(fd);

	fd = open_file("extend", O_RDWR);
	fill(buf, 0, sizeof(buf));
	ok = write(fd, "x", 1) == 1 && pwrite(fd, buf, 5000, PAGE + 300) == 5000 &&
	     fstat(fd, &st) == 0 && st.st_size == PAGE + 5300;
	ok = ok && pread(fd, got, sizeof(got), 0) == PAGE + 5300 && got[0] == 'x' &&
	     got[1] == 0 && got[PAGE + 299] == 0 && !memcmp(got + PAGE + 300, buf, 5000);
	what(w, sizeof(w), "a write past the end extends the file over a hole");
	tap_check(ok, w, NULL);
	close(fd);
}

static void vectors(void)
{
	static unsigned char buf[160 * 1024], got[160 * 1024];
	struct iovec iov[40];
	size_t total = 0, lens[40];
	char w[160];
	int fd = open_file("vec", O_RDWR);
	ssize_t n;

	fill(buf, 0, sizeof(buf));
	for (int i = 0; i < 40; i++) {
		lens[i] = i % 3 == 0 ? 0 : (size_t)(i * 97 + (i % 5) * PAGE / 3);
		iov[i].iov_base = buf + total;
		iov[i].iov_len = lens[i];
		total += lens[i];
	}
	n = writev(fd, iov, 40);
	what(w, sizeof(w), "writev of 40 iovecs (14 empty) writes them in order");
	tap_check(n == (ssize_t)total, w, "writev gave %zd of %zu", n, total);
	/* Read back cut differently: empty, odd and page-crossing pieces. */
	size_t off = 0;
	for (int i = 0; i < 40; i++) {
		size_t len = i % 4 == 1 ? 0 : (size_t)((i * 211) % 3000 + 1);

		if (off + len > total)
			len = total - off;
		iov[i].iov_base = got + off;
		iov[i].iov_len = len;
		off += len;
	}
	iov[39].iov_len += total - off;
	memset(got, 0, sizeof(got));
	n = preadv(fd, iov, 40, 0);
	what(w, sizeof(w), "preadv of 40 iovecs (empty ones too) reads them in order");
	tap_check(n == (ssize_t)total && !memcmp(got, buf, total), w, "preadv gave %zd of %zu", n,
		  total);
	close(fd);
}

/* Two pages: the first readable and writable, the second PROT_NONE. */
static unsigned char *half_bad(void)
{
	unsigned char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + PAGE, PAGE, PROT_NONE))
		tap_bail("mmap: %s", strerror(errno));
	return p;
}

static void faults(void)
{
	static unsigned char buf[4 * PAGE], good[2000];
	unsigned char *bad = half_bad();
	struct iovec iov[3];
	char w[160];
	int fd = open_file("faults", O_RDWR);
	ssize_t n;
	off_t pos;

	fill(buf, 0, sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
		tap_bail("write: %s", strerror(errno));

	lseek(fd, 100, SEEK_SET);
	n = read(fd, bad + 1000, 2 * PAGE);
	pos = lseek(fd, 0, SEEK_CUR);
	what(w, sizeof(w), "a read into a buffer that faults part way returns the bytes before it");
	tap_check(n == PAGE - 1000 && pos == 100 + n && !memcmp(bad + 1000, buf + 100, PAGE - 1000),
		  w, "read gave %zd, position %lld", n, (long long)pos);

	lseek(fd, 7, SEEK_SET);
	iov[0] = (struct iovec){ good, sizeof(good) };
	iov[1] = (struct iovec){ NULL, 0 };
	iov[2] = (struct iovec){ bad + PAGE - 96, 500 };
	n = readv(fd, iov, 3);
	pos = lseek(fd, 0, SEEK_CUR);
	what(w, sizeof(w), "a readv that faults in its last iovec returns the bytes before it");
	tap_check(n == 2096 && pos == 7 + 2096 && !memcmp(good, buf + 7, 2000) &&
		  !memcmp(bad + PAGE - 96, buf + 2007, 96), w, "readv gave %zd, position %lld", n,
		  (long long)pos);

	lseek(fd, 0, SEEK_SET);
	n = read(fd, bad + PAGE, 10);
	what(w, sizeof(w), "a read into PROT_NONE memory fails with EFAULT, position unchanged");
	tap_check(n == -1 && errno == EFAULT && lseek(fd, 0, SEEK_CUR) == 0, w, "read gave %zd", n);
	close(fd);

	/* Write from a buffer whose second page is gone. */
	unsigned char *src = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct stat st;

	if (src == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	fill(src, 5000, PAGE);
	munmap(src + PAGE, PAGE);
	fd = open_file("short_write", O_RDWR);
	n = write(fd, src + PAGE - 300, 1000);
	pos = lseek(fd, 0, SEEK_CUR);
	memset(buf, 0, sizeof(buf));
	what(w, sizeof(w), "a write from a buffer unmapped part way writes the bytes before it");
	tap_check(n == 300 && pos == 300 && fstat(fd, &st) == 0 && st.st_size == 300 &&
		  pread(fd, buf, sizeof(buf), 0) == 300 && !memcmp(buf, src + PAGE - 300, 300),
		  w, "write gave %zd, position %lld, size %lld", n, (long long)pos,
		  (long long)st.st_size);
	n = write(fd, src + PAGE, 10);
	what(w, sizeof(w), "a write from unmapped memory fails with EFAULT");
	tap_check(n == -1 && errno == EFAULT && lseek(fd, 0, SEEK_CUR) == 300, w, "write gave %zd", n);

	/* Ends past the largest offset (Linux's rw_verify_area). */
	iov[0] = (struct iovec){ good, 10 };
	errno = 0;
	n = pread(fd, good, 10, LLONG_MAX - 5);
	what(w, sizeof(w), "a pread whose end passes the largest offset fails with EINVAL");
	tap_check(n == -1 && errno == EINVAL, w, "pread gave %zd (%s)", n, strerror(errno));
	errno = 0;
	n = pwritev(fd, iov, 1, LLONG_MAX - 5);
	what(w, sizeof(w), "a pwritev whose end passes the largest offset fails with EINVAL");
	tap_check(n == -1 && errno == EINVAL, w, "pwritev gave %zd (%s)", n, strerror(errno));
	close(fd);
	munmap(src, PAGE);
	munmap(bad, 2 * PAGE);
}

/*
 * pwrite(fd, map + src, len, dst) where map is a MAP_SHARED mapping of
 * the file's first pages, checked against model, the file's bytes as a
 * forward copy leaves them (dst < src, or no overlap within a page).
 */
static bool self_write(int fd, unsigned char *map, unsigned char *model, long src, long len,
		       long dst)
{
	static unsigned char got[4 * PAGE];
	long size;

	if (pwrite(fd, map + src, len, dst) != len)
		return false;
	for (long i = 0; i < len; i++)
		model[dst + i] = model[src + i];
	size = lseek(fd, 0, SEEK_END);
	return size <= (long)sizeof(got) && pread(fd, got, size, 0) == size &&
	       !memcmp(got, model, size);
}

static void self_source(void)
{
	static unsigned char model[4 * PAGE];
	char w[160];
	int fd = open_file("self", O_RDWR);
	unsigned char *map;
	bool ok;

	fill(model, 0, 2 * PAGE);
	if (write(fd, model, 2 * PAGE) != 2 * PAGE)
		tap_bail("write: %s", strerror(errno));
	map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	/* The page itself (not yet faulted in), then page 1 onto page 0. */
	ok = self_write(fd, map, model, 0, PAGE, 0);
	what(w, sizeof(w), "a write whose source maps the very page written");
	tap_check(ok, w, NULL);
	ok = self_write(fd, map, model, PAGE, PAGE, 0) && self_write(fd, map, model, 300, 5000, 0);
	what(w, sizeof(w), "a write whose source maps other pages of the file");
	tap_check(ok, w, NULL);
	/* Pages 0 and 1 onto 1 and 2: the file grows into a new page. */
	ok = self_write(fd, map, model, 0, 2 * PAGE, PAGE);
	what(w, sizeof(w), "a write from the file's own mapping that extends the file");
	tap_check(ok, w, NULL);
	munmap(map, 3 * PAGE);

	/* A hole under the mapping: the source's page is not cached. */
	if (ftruncate(fd, 4 * PAGE))
		tap_bail("ftruncate: %s", strerror(errno));
	memset(model + 3 * PAGE, 0, PAGE);
	map = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	ok = self_write(fd, map, model, 3 * PAGE, PAGE, 3 * PAGE) &&
	     self_write(fd, map, model, 3 * PAGE + 200, 100, 3 * PAGE + 100);
	what(w, sizeof(w), "a write whose source maps the hole it fills");
	tap_check(ok, w, NULL);
	munmap(map, 4 * PAGE);
	close(fd);
}

/*
 * Readers racing a writer.  The file is NREC records of REC bytes; byte
 * o of version v is vbyte(o, v), and every version decodes back
 * (version_of).  The writer rewrites every record with each version in
 * turn, each record with one pwrite (or three with one pwritev), and
 * after each call stores the version in a shared page (published[]).
 * Then it appends APPEND more records with O_APPEND writes.  Two readers
 * meanwhile read the whole file again and again (one pread, or preadv in
 * odd pieces) and check every byte:
 *   - it decodes to a version that was written (no garbage, no zeroes
 *     where data was written, no bytes of another offset);
 *   - it is at least the version published for its record before the
 *     read began (a write that returned is seen whole);
 *   - it is at least the version this reader saw there last time
 *     (nothing goes back in time).
 * A reader exits 1 on the first violation, 2 if it never saw progress.
 */
#define REC		1000
#define NREC		64
#define VERSIONS	24
#define APPEND		16

struct shared {
	volatile int published[NREC + APPEND];
	volatile int done;
};

static unsigned char vbyte(long o, int v)
{
	return (unsigned char)(o * 29 + (o >> 8) * 3 + v * 7 + 5);
}

static int version_of(long o, unsigned char b)
{
	/* 183 is 7's inverse modulo 256. */
	return (unsigned char)((unsigned char)(b - (unsigned char)(o * 29 + (o >> 8) * 3 + 5)) * 183);
}

static void write_record(int fd, int r, int v)
{
	unsigned char rec[3 * REC];
	int n = r % 7 == 3 && r + 3 <= NREC ? 3 : 1;

	for (long i = 0; i < n * REC; i++)
		rec[i] = vbyte((long)r * REC + i, v);
	if (n == 3) {
		struct iovec iov[4] = { { rec, 17 }, { rec + 17, 0 }, { rec + 17, 2 * REC },
					{ rec + 17 + 2 * REC, REC - 17 } };

		if (pwritev(fd, iov, 4, (off_t)r * REC) != 3 * REC)
			exit(3);
	} else if (pwrite(fd, rec, REC, (off_t)r * REC) != REC) {
		exit(3);
	}
}

static int reader(const char *path, struct shared *sh, int id)
{
	static unsigned char buf[(NREC + APPEND) * REC];
	static int seen[(NREC + APPEND) * REC];
	int before[NREC + APPEND], fd = open(path, O_RDONLY), rounds = 0;
	bool progress = false;

	if (fd < 0)
		return 4;
	memset(seen, 0, sizeof(seen));
	for (;;) {
		int finished = sh->done;
		ssize_t n;

		for (int r = 0; r < NREC + APPEND; r++)
			before[r] = sh->published[r];
		if ((id + rounds++) % 2) {
			struct iovec iov[5];
			size_t cut[4] = { 1, 4095, 0, 12345 }, off = 0;

			for (int i = 0; i < 4; i++) {
				iov[i] = (struct iovec){ buf + off, cut[i] };
				off += cut[i];
			}
			iov[4] = (struct iovec){ buf + off, sizeof(buf) - off };
			n = preadv(fd, iov, 5, 0);
		} else {
			n = pread(fd, buf, sizeof(buf), 0);
		}
		if (n < NREC * REC)
			return 5;
		for (long o = 0; o < n; o++) {
			int v = version_of(o, buf[o]), r = (int)(o / REC);

			if (v > VERSIONS || v < before[r] || v < seen[o] || (r >= NREC && v != 1))
				return 1;
			if (v > seen[o])
				progress = true;
			seen[o] = v;
		}
		if (finished)
			break;
	}
	close(fd);
	return progress ? 0 : 2;
}

static void race(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static unsigned char first[NREC * REC];
	char path[512], w[160];
	pid_t readers[2], writer;
	int status, bad = 0;

	if (sh == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/race", dir);
	int fd = open_file("race", O_RDWR);

	for (long o = 0; o < NREC * REC; o++)
		first[o] = vbyte(o, 0);
	if (write(fd, first, sizeof(first)) != sizeof(first))
		tap_bail("write: %s", strerror(errno));
	for (int i = 0; i < 2; i++) {
		readers[i] = test_fork();
		if (readers[i] == 0)
			_exit(reader(path, sh, i));
	}
	writer = test_fork();
	if (writer == 0) {
		int afd = open(path, O_WRONLY | O_APPEND);
		unsigned char rec[REC];

		for (int v = 1; v <= VERSIONS; v++)
			for (int r = 0; r < NREC; r += r % 7 == 3 && r + 3 <= NREC ? 3 : 1) {
				write_record(fd, r, v);
				for (int k = r; k < r + (r % 7 == 3 && r + 3 <= NREC ? 3 : 1); k++)
					sh->published[k] = v;
			}
		for (int r = NREC; r < NREC + APPEND; r++) {
			for (long i = 0; i < REC; i++)
				rec[i] = vbyte((long)r * REC + i, 1);
			if (afd < 0 || write(afd, rec, REC) != REC)
				_exit(3);
			sh->published[r] = 1;
		}
		sh->done = 1;
		_exit(0);
	}
	test_wait(writer, &status, 0);
	bad += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	what(w, sizeof(w), "a writer rewriting and appending records while two read");
	tap_check(!bad, w, "the writer: status %#x", status);
	for (int i = 0; i < 2; i++) {
		test_wait(readers[i], &status, 0);
		what(w, sizeof(w), "a reader racing the writer sees only whole, current bytes");
		tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, w,
			  "reader %d: status %#x (exit 1: a byte of no version, or older than "
			  "published or seen; 2: no progress seen; 5: a short read)", i, status);
	}
	close(fd);
	munmap(sh, sizeof(*sh));
}

static void pipe_fault(void)
{
	static unsigned char data[6000], got[6000];
	unsigned char *bad = half_bad();
	size_t have = 0;
	int p[2];
	ssize_t n;

	fill(data, 77, sizeof(data));
	test_pipe(p);
	if (write(p[1], data, sizeof(data)) != sizeof(data))
		tap_bail("write: %s", strerror(errno));
	close(p[1]);
	n = read(p[0], bad + PAGE - 1000, sizeof(data));
	if (n > 0) {
		memcpy(got, bad + PAGE - 1000, n);
		have = n;
	}
	tap_check(n == 1000 || (n == -1 && errno == EFAULT),
		  "a pipe read into a buffer that faults part way: the bytes before it or EFAULT",
		  "read gave %zd", n);
	while (have < sizeof(got) && (n = read(p[0], got + have, sizeof(got) - have)) > 0)
		have += n;
	tap_check(have == sizeof(data) && !memcmp(got, data, sizeof(data)) &&
		  read(p[0], got, 1) == 0, "and no byte of the pipe is lost", "got %zu bytes", have);
	close(p[0]);
	munmap(bad, 2 * PAGE);
}

/*
 * Vectors a hostile program hands in: an iovec naming kernel memory or
 * running past the top of user space, two totalling past SSIZE_MAX
 * (EFAULT: each runs out of user space), a length that is negative as a
 * ssize_t, more than UIO_MAXIOV entries (EINVAL); then, after the faults
 * of pipe_fault and these, the kernel's copies into memory never touched
 * still fault it in (page faults are not left disabled).
 */
static void hostile_vectors(void)
{
	static char buf[100];
	static struct iovec many[1025];
	struct iovec iov[2] = { { buf, 10 }, { (void *)KERNEL_DIRECT_MAP, 10 } };
	char path[300];
	int fd, p[2];
	unsigned char *fresh;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/hostile", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "0123456789abcdef", 16) != 16)
		tap_bail("%s: %s", path, strerror(errno));
	n = preadv(fd, iov, 2, 0);
	tap_check(n == -1 && errno == EFAULT, "preadv into a kernel address: EFAULT", "gave %zd", n);
	n = pwritev(fd, iov, 2, 0);
	tap_check(n == -1 && errno == EFAULT, "pwritev from a kernel address: EFAULT", "gave %zd", n);
	iov[1] = (struct iovec){ (void *)(0x7ffffffff000ul), 2 * PAGE };
	n = readv(fd, iov, 2);
	tap_check(n == -1 && errno == EFAULT, "readv into an iovec past the top of user space: EFAULT",
		  "gave %zd", n);
	iov[1] = (struct iovec){ buf, (size_t)-1 };
	n = writev(fd, iov, 2);
	tap_check(n == -1 && errno == EINVAL, "writev with a negative length: EINVAL", "gave %zd", n);
	iov[0] = iov[1] = (struct iovec){ buf, SSIZE_MAX / 2 + 1 };
	n = readv(fd, iov, 2);
	tap_check(n == -1 && errno == EFAULT,
		  "readv totalling past SSIZE_MAX: EFAULT (each iovec runs out of user space)",
		  "gave %zd (%s)", n, strerror(errno));
	for (int i = 0; i < 1025; i++)
		many[i] = (struct iovec){ buf, 0 };
	n = readv(fd, many, 1025);
	tap_check(n == -1 && errno == EINVAL, "readv of 1025 iovecs: EINVAL", "gave %zd", n);
	n = preadv(fd, many, 1024, 0);
	tap_check(n == 0, "preadv of 1024 empty iovecs: 0", "gave %zd", n);

	fresh = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	n = pread(fd, fresh + PAGE - 5, 16, 0);
	test_pipe(p);
	bool ok = n == 16 && !memcmp(fresh + PAGE - 5, "0123456789abcdef", 16) &&
		  write(p[1], fresh + PAGE - 5, 16) == 16 && read(p[0], fresh + 2 * PAGE - 16, 16) == 16;
	tap_check(ok && !memcmp(fresh + 2 * PAGE - 16, "0123456789abcdef", 16),
		  "after all those faults, reads into untouched memory still fault it in", NULL);
	close(p[0]);
	close(p[1]);
	munmap(fresh, 2 * PAGE);
	close(fd);
	unlink(path);
}

static void run_in(const char *base, const char *name, int run)
{
	static const char *const files[] = { "eof", "holes", "append", "extend", "vec", "faults",
					     "short_write", "self", "race" };
	char path[512];

	snprintf(where, sizeof(where), "%s", name);
	snprintf(dir, sizeof(dir), "%s/rw_iter.%d.%d", base, (int)getpid(), run);
	if (mkdir(dir, 0755))
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	tap_note("%s in %s", name, dir);
	eof_and_holes();
	append_and_extend();
	vectors();
	faults();
	self_source();
	race();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const char *scratch = ext2_scratch();

	run_in(strcmp(scratch, "/") ? scratch : "", on_pageturn() ? "ext2" : "scratch", 1);
	run_in("/tmp", on_pageturn() ? "tmpfs" : "/tmp", 2);
	pipe_fault();
	snprintf(dir, sizeof(dir), "/tmp");
	hostile_vectors();
	return tap_done();
}
