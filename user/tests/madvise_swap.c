/*
 * madvise_swap: MADV_PAGEOUT, MADV_WILLNEED and MADV_FREE on anonymous
 * memory with swap.
 *
 * 4 MiB get a per-page pattern.  MADV_PAGEOUT must push them out (on
 * Pageturn with swap: pswpout grows by about the range, VmSwap in
 * /proc/self/status shows them) and a read must find every word, faulting
 * them back.  Out again, MADV_WILLNEED must read them in before they are
 * touched (pswpin grows at the call; the reads after it fault no major
 * fault).  Out again, MADV_FREE lets their data go: each page then reads
 * as its old contents or as zeroes (Linux's rule), and their slots are
 * free (SwapFree back up).  Last, the page of its own argument strings
 * is paged out and /proc/self/cmdline must still read them (from swap,
 * without mapping the page).  On the build machine, whose swap is not this
 * test's, only the data rules are checked.  Without swap on Pageturn it
 * skips.
 *
 * MADV_PAGEOUT's writes are asynchronous, as in Linux: the call returns
 * with the pages unmapped and their writes in flight, and they stay in
 * the swap cache until the writes end and reclaim frees them.  So where
 * the pages must really have left memory, push_out waits for the writes
 * (nr_writeback 0) and then makes reclaim run: a child touches more
 * memory than is free, and reclaim frees first the written pages, which
 * wait at the tail of the inactive anon list.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define SIZE	(4ul << 20)
#define PAGES	(SIZE / 4096)

static char text[16384];

static long status_kb(const char *name)
{
	if (read_file("/proc/self/status", text, sizeof(text)) < 0)
		return -1;
	return proc_field(text, name);
}

static long majflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

static uint64_t word(unsigned long p, unsigned long i)
{
	return ((uint64_t)p << 32) ^ i ^ 0x3a3a000000000000ull;
}

static unsigned long bad_words(const uint64_t *m)
{
	unsigned long bad = 0;

	for (unsigned long p = 0; p < PAGES; p++)
		for (unsigned long i = 0; i < 512; i++)
			bad += m[p * 512 + i] != word(p, i);
	return bad;
}

/* Wait (a few seconds at most) for every write in flight to end. */
static void wait_writeback(void)
{
	for (int i = 0; i < 3000 && vmstat_value("nr_writeback") > 0; i++)
		usleep(1000);
}

/* MADV_PAGEOUT, and on Pageturn make the pages leave memory (see the top). */
static void push_out(void *addr, size_t len, int pt)
{
	unsigned long size, i;
	char *p;
	pid_t pid;

	madvise(addr, len, MADV_PAGEOUT);
	if (!pt)
		return;
	wait_writeback();
	size = ((unsigned long)meminfo_kb("MemFree") + 8192) << 10;
	pid = fork();
	if (pid == 0) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (i = 0; i < size; i += 4096)
			p[i] = 1;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		tap_bail("the pressure child: %m");
}

int main(int argc, char **argv)
{
	int pt = on_pageturn();
	long out0, in0, maj0, free0;
	unsigned long bad = 0;
	uint64_t *m;

	if (pt && meminfo_kb("SwapTotal") <= 0) {
		tap_skip("madvise with swap", "no swap area is on");
		return tap_done();
	}
	m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		tap_bail("mmap: %m");
	for (unsigned long p = 0; p < PAGES; p++)
		for (unsigned long i = 0; i < 512; i++)
			m[p * 512 + i] = word(p, i);

	out0 = vmstat_value("pswpout");
	tap_check(madvise(m, SIZE, MADV_PAGEOUT) == 0, "MADV_PAGEOUT", "%m");
	if (pt) {
		tap_check(vmstat_value("pswpout") - out0 >= (long)PAGES * 9 / 10, "wrote the range to swap",
			  "pswpout +%ld of %lu pages", vmstat_value("pswpout") - out0, PAGES);
		tap_check(status_kb("VmSwap") >= (long)(SIZE >> 10) * 9 / 10,
			  "VmSwap shows them", "VmSwap %ld kB", status_kb("VmSwap"));
	}
	tap_check(bad_words(m) == 0, "every word reads back", NULL);

	push_out(m, SIZE, pt);
	in0 = vmstat_value("pswpin");
	tap_check(madvise(m, SIZE, MADV_WILLNEED) == 0, "MADV_WILLNEED", "%m");
	if (pt)
		tap_check(vmstat_value("pswpin") - in0 >= (long)PAGES * 9 / 10,
			  "read the range in before it is touched", "pswpin +%ld",
			  vmstat_value("pswpin") - in0);
	maj0 = majflt();
	tap_check(bad_words(m) == 0, "every word reads back", NULL);
	if (pt)
		tap_check(majflt() == maj0, "with no major fault", "%ld major faults",
			  majflt() - maj0);

	madvise(m, SIZE, MADV_PAGEOUT);
	/* A slot under writeback stays the swap cache's until the write ends. */
	if (pt)
		wait_writeback();
	free0 = meminfo_kb("SwapFree");
	tap_check(madvise(m, SIZE, MADV_FREE) == 0, "MADV_FREE", "%m");
	if (pt)
		tap_check(meminfo_kb("SwapFree") - free0 >= (long)(SIZE >> 10) * 9 / 10,
			  "frees the range's slots", "SwapFree +%ld kB",
			  meminfo_kb("SwapFree") - free0);
	for (unsigned long p = 0; p < PAGES; p++) {
		int old = 1, zero = 1;

		for (unsigned long i = 0; i < 512; i++) {
			old &= m[p * 512 + i] == word(p, i);
			zero &= m[p * 512 + i] == 0;
		}
		bad += !old && !zero;
	}
	tap_check(bad == 0, "each page reads as before or as zeroes", "%lu pages neither", bad);

	/* Our own argument strings pushed out: /proc/self/cmdline reads them
	 * from swap without mapping them. */
	{
		char want[256], got[256];
		size_t len = strlen(argv[0]) + 1;
		ssize_t n;
		int fd;

		(void)argc;
		snprintf(want, sizeof(want), "%s", argv[0]);
		push_out((void *)((uintptr_t)argv[0] & ~4095ul), 4096, pt);
		fd = open("/proc/self/cmdline", O_RDONLY);
		n = fd >= 0 ? read(fd, got, sizeof(got)) : -1;
		if (fd >= 0)
			close(fd);
		tap_check(n >= (ssize_t)len && memcmp(got, want, len) == 0,
			  "/proc/self/cmdline with the arguments' page paged out", "read %zd bytes", n);
	}
	return tap_done();
}
