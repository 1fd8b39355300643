/*
 * swap_inflight: everything a program can do to pages whose writes to
 * swap are still in flight keeps their data, and leaves nothing behind.
 *
 * Swap writes are asynchronous: MADV_PAGEOUT (like reclaim) returns with
 * the pages unmapped, in the swap cache, under writeback until their
 * bios end.  The QEMU case throttles the swap disk so that they stay in
 * flight while this test, right after each MADV_PAGEOUT:
 *   - reads every page back (faults on pages under writeback) and writes
 *     to half of them (a write fault that would take the page out of the
 *     swap cache: it must not while the write is in flight);
 *   - forks a child that pages out its copy and exits at once (zap of
 *     swap PTEs and mapped pages under writeback), and one that
 *     MADV_DONTNEEDs and MADV_FREEs its copy;
 *   - pages out a shared mapping of a tmpfs file (shmem_writepage moves
 *     the pages to the swap cache) and at once reads the file, truncates
 *     half of it, and unlinks it;
 *   - pages out a region and at once switches swap off, then on again.
 * Each step checks every word it can see; at the end no write is left in
 * flight, and once swap is off and on again nothing is left on it.  On
 * the build machine, or without swap, it skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define PAGE		4096ul
#define WORDS		(PAGE / 8)
#define NPAGES		512ul

static uint64_t word(uint64_t seed, uint64_t page, uint64_t i)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (i << 40) ^ (seed << 56) ^ 0x1f00000000ull;
}

static void fill(uint64_t *m, unsigned long npages, uint64_t seed)
{
	for (unsigned long p = 0; p < npages; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			m[p * WORDS + i] = word(seed, p, i);
}

/* Words of m that differ from seed's pattern (pages [from, to)). */
static unsigned long bad_words(const uint64_t *m, unsigned long from, unsigned long to,
			       uint64_t seed)
{
	unsigned long bad = 0;

	for (unsigned long p = from; p < to; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			bad += m[p * WORDS + i] != word(seed, p, i);
	return bad;
}

static void wait_writeback(void)
{
	for (int i = 0; i < 6000 && vmstat_value("nr_writeback") > 0; i++)
		usleep(10000);
}

static int swap_device(char *dev, size_t len)
{
	char text[512], *line;
	int fd = open("/proc/swaps", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	text[n] = 0;
	line = strchr(text, '\n');
	if (!line || sscanf(line + 1, "%63s", dev) != 1)
		return -1;
	(void)len;
	return 0;
}

static void anon_steps(void)
{
	size_t len = NPAGES * PAGE;
	uint64_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long bad;
	int status;
	pid_t pid;

	if (m == MAP_FAILED)
		tap_bail("mmap: %m");
	fill(m, NPAGES, 1);
	madvise(m, len, MADV_PAGEOUT);
	tap_note("%ld writes in flight after MADV_PAGEOUT", vmstat_value("nr_writeback"));
	bad = bad_words(m, 0, NPAGES, 1);
	tap_check(bad == 0, "pages read back while their writes are in flight", "%lu words", bad);
	/* Write faults on the second half: the swap cache's copy is stale. */
	fill(m + NPAGES / 2 * WORDS, NPAGES / 2, 2);
	madvise(m, len, MADV_PAGEOUT);
	wait_writeback();
	madvise(m, len, MADV_PAGEOUT);
	bad = bad_words(m, 0, NPAGES / 2, 1) + bad_words(m + NPAGES / 2 * WORDS, 0, NPAGES / 2, 2);
	tap_check(bad == 0, "pages written while their first write was in flight", "%lu words",
		  bad);

	/* A child pages its copy out and exits at once. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		madvise(m, len, MADV_PAGEOUT);
		_exit(0);
	}
	tap_check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		  WEXITSTATUS(status) == 0, "a child exits with its writes in flight", NULL);
	/* Another drops its copy with DONTNEED and FREE. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fill(m, NPAGES / 4, 3);		/* its own pages: COW */
		madvise(m, len, MADV_PAGEOUT);
		madvise(m, len / 2, MADV_DONTNEED);
		madvise((char *)m + len / 2, len / 2, MADV_FREE);
		_exit(0);
	}
	tap_check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		  WEXITSTATUS(status) == 0, "a child drops its pages with their writes in flight",
		  NULL);
	bad = bad_words(m, 0, NPAGES / 2, 1) + bad_words(m + NPAGES / 2 * WORDS, 0, NPAGES / 2, 2);
	tap_check(bad == 0, "the parent's pages after the children", "%lu words", bad);
	munmap(m, len);
}

static void tmpfs_steps(void)
{
	size_t len = NPAGES * PAGE;
	char path[64];
	uint64_t *m, *buf = malloc(PAGE);
	unsigned long bad = 0;
	int fd;

	snprintf(path, sizeof(path), "/tmp/swap_inflight.%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, len) || !buf)
		tap_bail("%s: %m", path);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		tap_bail("mmap %s: %m", path);
	fill(m, NPAGES, 4);
	madvise(m, len, MADV_PAGEOUT);
	munmap(m, len);
	tap_note("%ld writes in flight after a tmpfs MADV_PAGEOUT", vmstat_value("nr_writeback"));
	for (unsigned long p = 0; p < NPAGES; p++) {
		if (pread(fd, buf, PAGE, p * PAGE) != (ssize_t)PAGE)
			tap_bail("pread: %m");
		for (unsigned long i = 0; i < WORDS; i++)
			bad += buf[i] != word(4, p, i);
	}
	tap_check(bad == 0, "a tmpfs file read while its pages' writes are in flight",
		  "%lu words", bad);
	/* Again, then truncate half and grow it back: holes read as zeroes. */
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		tap_bail("mmap %s: %m", path);
	madvise(m, len, MADV_PAGEOUT);
	munmap(m, len);
	if (ftruncate(fd, len / 2) || ftruncate(fd, len))
		tap_bail("ftruncate: %m");
	bad = 0;
	for (unsigned long p = 0; p < NPAGES; p++) {
		if (pread(fd, buf, PAGE, p * PAGE) != (ssize_t)PAGE)
			tap_bail("pread: %m");
		for (unsigned long i = 0; i < WORDS; i++)
			bad += buf[i] != (p < NPAGES / 2 ? word(4, p, i) : 0);
	}
	tap_check(bad == 0, "a tmpfs file truncated while its pages' writes are in flight",
		  "%lu words", bad);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		tap_bail("mmap %s: %m", path);
	fill(m, NPAGES, 5);
	madvise(m, len, MADV_PAGEOUT);
	munmap(m, len);
	close(fd);
	tap_check(unlink(path) == 0, "a tmpfs file unlinked while its pages' writes are in flight",
		  "%m");
	free(buf);
}

static void swapoff_steps(const char *dev)
{
	size_t len = NPAGES * PAGE;
	uint64_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long bad;
	int err;

	if (m == MAP_FAILED)
		tap_bail("mmap: %m");
	fill(m, NPAGES, 6);
	madvise(m, len, MADV_PAGEOUT);
	tap_note("%ld writes in flight at swapoff", vmstat_value("nr_writeback"));
	err = swapoff(dev) ? errno : 0;
	tap_check(err == 0, "swapoff with writes in flight", "%s", strerror(err));
	tap_check(vmstat_value("nr_writeback") == 0, "no write in flight after swapoff",
		  "nr_writeback %ld", vmstat_value("nr_writeback"));
	tap_check(meminfo_kb("SwapCached") == 0, "nothing in the swap cache after swapoff",
		  "SwapCached %ld kB", meminfo_kb("SwapCached"));
	bad = bad_words(m, 0, NPAGES, 6);
	tap_check(bad == 0, "the pages after swapoff", "%lu words", bad);
	tap_check(swapon(dev, 0) == 0, "swapon again", "%s", strerror(errno));
	madvise(m, len, MADV_PAGEOUT);
	munmap(m, len);
}

int main(void)
{
	char dev[64];
	int err;

	if (!on_pageturn() || swap_device(dev, sizeof(dev))) {
		tap_skip("pages whose swap writes are in flight", "Pageturn with swap on only");
		return tap_done();
	}
	anon_steps();
	tmpfs_steps();
	swapoff_steps(dev);
	wait_writeback();
	tap_check(vmstat_value("nr_writeback") == 0, "every write ended", "nr_writeback %ld",
		  vmstat_value("nr_writeback"));
	/* swapoff lets go of whatever the cache still holds. */
	err = swapoff(dev) ? errno : 0;
	tap_check(err == 0, "swapoff at the end", "%s", strerror(err));
	tap_check(meminfo_kb("SwapCached") == 0, "nothing left in the swap cache",
		  "SwapCached %ld kB", meminfo_kb("SwapCached"));
	tap_check(swapon(dev, 0) == 0, "swapon again", "%s", strerror(errno));
	tap_check(meminfo_kb("SwapFree") == meminfo_kb("SwapTotal"), "nothing left on swap",
		  "SwapFree %ld of %ld kB", meminfo_kb("SwapFree"), meminfo_kb("SwapTotal"));
	return tap_done();
}
