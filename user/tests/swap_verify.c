/*
 * swap_verify: anonymous memory four times the size of RAM goes to swap
 * and comes back bit-exact.
 *
 * The process maps 4 x MemTotal of private anonymous memory and writes
 * every page with a pattern derived from its index (each 64-bit word is
 * a function of the page number, the word's place and a per-run salt),
 * then reads it all back twice, counting the words that differ.  Most of
 * the memory cannot be resident at once, so reclaim must write pages to
 * swap (add_to_swap, try_to_unmap writing swap entries into the PTEs,
 * swap_writepage) and the reads must fault them back (do_swap_page,
 * swapin_readahead); the second pass reads pages that were swapped in
 * once and out again.  A fork in the middle checks that a child sees the
 * parent's swapped pages and that its writes stay its own (COW of pages
 * that are in the swap cache or on swap).
 *
 * On Pageturn with swap on (SwapTotal > 0): pswpout and pswpin grow, the
 * data is exact, and once the memory is unmapped SwapFree is back where
 * it started (every slot this process used was freed), within what other
 * processes may have had swapped meanwhile (the shell and the runner: a
 * few pages).  Without swap on Pageturn the test skips.  On the build
 * machine it uses 64 MiB and checks the data only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define PAGE		4096ul
#define WORDS		(PAGE / 8)

/* Seconds since the first call, for the log (never asserted). */
static double elapsed(void)
{
	static struct timespec t0;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (!t0.tv_sec && !t0.tv_nsec)
		t0 = t;
	return (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
}

static uint64_t word(uint64_t page, uint64_t i, uint64_t salt)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (i << 48) ^ salt;
}

static void fill(uint64_t *mem, unsigned long pages, uint64_t salt)
{
	for (unsigned long p = 0; p < pages; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			mem[p * WORDS + i] = word(p, i, salt);
}

/* Words that differ from the pattern, in pages [from, to). */
static unsigned long verify(const uint64_t *mem, unsigned long from, unsigned long to,
			    uint64_t salt)
{
	unsigned long bad = 0;

	for (unsigned long p = from; p < to; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			bad += mem[p * WORDS + i] != word(p, i, salt);
	return bad;
}

int main(void)
{
	uint64_t salt = 0x5157a9000000000ull ^ (uint64_t)getpid();
	unsigned long size = 64ul << 20, pages, bad;
	long swapfree0 = 0, out0 = 0, in0 = 0, rot0 = 0, total;
	int pt = on_pageturn(), status;
	uint64_t *mem;
	pid_t pid;

	if (pt) {
		total = meminfo_kb("SwapTotal");
		if (total <= 0) {
			tap_skip("anonymous memory through swap", "no swap area is on");
			return tap_done();
		}
		size = (unsigned long)meminfo_kb("MemTotal") * 1024 * 4;
		if (size > (unsigned long)total * 1024 + (unsigned long)meminfo_kb("MemTotal") * 512)
			tap_bail("swap of %ld kB is too small for %lu MiB", total, size >> 20);
		swapfree0 = meminfo_kb("SwapFree");
		out0 = vmstat_value("pswpout");
		in0 = vmstat_value("pswpin");
		rot0 = vmstat_value("pgrotated");
	}
	pages = size / PAGE;
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		tap_bail("mmap of %lu MiB: %m", size >> 20);
	elapsed();
	fill(mem, pages, salt);
	tap_note("wrote %lu MiB (%.1f s)", size >> 20, elapsed());
	if (pt)
		tap_check(vmstat_value("pswpout") > out0, "pages went out to swap", "pswpout +%ld",
			  vmstat_value("pswpout") - out0);

	bad = verify(mem, 0, pages, salt);
	tap_check(bad == 0, "first pass: every word as written", "%lu words differ", bad);
	tap_note("first pass done (%.1f s)", elapsed());

	/* A child sees the same data, and its writes to half of it are its
	 * own: the parent's second pass must not see them. */
	pid = fork();
	if (pid == 0) {
		unsigned long cbad = verify(mem, 0, pages / 2, salt);

		for (unsigned long p = 0; p < pages / 2; p += 2)
			mem[p * WORDS] = ~word(p, 0, salt);
		_exit(cbad ? 1 : 0);
	}
	tap_check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		  WEXITSTATUS(status) == 0, "a forked child reads the same data", NULL);

	bad = verify(mem, 0, pages, salt);
	tap_check(bad == 0, "second pass: still every word, the child's writes its own",
		  "%lu words differ", bad);
	tap_note("second pass done (%.1f s)", elapsed());
	if (pt) {
		tap_check(vmstat_value("pswpin") > in0, "pages came back from swap", "pswpin +%ld",
			  vmstat_value("pswpin") - in0);
		/* pgrotated: writes that ended after reclaim let the page go
		 * (asynchronous disks only; a RAM disk's end inside the write). */
		tap_note("pswpout +%ld, pswpin +%ld, pgmajfault %ld, pgrotated +%ld",
			 vmstat_value("pswpout") - out0, vmstat_value("pswpin") - in0,
			 vmstat_value("pgmajfault"), vmstat_value("pgrotated") - rot0);
	}
	munmap(mem, size);
	if (pt) {
		long swapfree1 = meminfo_kb("SwapFree");

		tap_check(swapfree1 >= swapfree0 - 1024, "unmapping frees the slots",
			  "SwapFree %ld kB before, %ld kB after", swapfree0, swapfree1);
	}
	return tap_done();
}
