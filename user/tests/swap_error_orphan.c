/*
 * swap_error_orphan: a page whose owner lets it go while its write to
 * swap is in flight, and whose write then fails, leaves memory and swap.
 *
 * MADV_PAGEOUT returns with the range's writes in flight (as in Linux);
 * munmap right after drops the PTEs' counts on the slots, so the pages
 * under writeback stay in the swap cache with no user but the cache, for
 * reclaim to free once the writes end.  The QEMU case puts the swap disk
 * behind QEMU's blkdebug, failing every write to the first slots of the
 * area, which a fresh area hands out first: so these writes fail.  A
 * failed write leaves the page dirty; with no user left its data is
 * garbage, and after a few rounds of memory pressure nothing of it may
 * stay in the swap cache (SwapCached), holding a page and a slot for
 * good.
 *
 * On the build machine, or without swap, it skips.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define PAGE		4096ul
#define NPAGES		1024ul	/* the case's blkdebug fails slots 1..1100 */

/* Wait (60 s at most) until no write has been in flight for a while. */
static void wait_writeback(void)
{
	int quiet = 0;

	for (int i = 0; i < 6000 && quiet < 5; i++) {
		quiet = vmstat_value("nr_writeback") > 0 ? 0 : quiet + 1;
		usleep(10000);
	}
}

/* A child touches more memory than is free, so reclaim scans the anon
 * lists, and waits for its writes before it exits. */
static void pressure(void)
{
	unsigned long size = ((unsigned long)meminfo_kb("MemFree") + 8192) << 10, i;
	char *p;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (i = 0; i < size; i += PAGE)
			p[i] = 1;
		wait_writeback();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		tap_bail("the pressure child: %m");
	wait_writeback();
}

int main(void)
{
	long cached0, cached1, inflight, out0;
	unsigned long i;
	char *m;

	if (!on_pageturn() || meminfo_kb("SwapTotal") <= 0) {
		tap_skip("orphaned pages whose swap write failed", "Pageturn with a swap area only");
		return tap_done();
	}
	cached0 = meminfo_kb("SwapCached");
	m = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		tap_bail("mmap: %m");
	for (i = 0; i < NPAGES * PAGE; i += PAGE)
		memset(m + i, (int)(i / PAGE) | 1, PAGE);
	tap_check(madvise(m, NPAGES * PAGE, MADV_PAGEOUT) == 0, "MADV_PAGEOUT", "%m");
	tap_check(munmap(m, NPAGES * PAGE) == 0, "munmap with the writes in flight", "%m");
	inflight = vmstat_value("nr_writeback");
	tap_note("%ld writes in flight after munmap", inflight);
	tap_check(inflight > 0, "writes still in flight after munmap (the case throttles the disk)",
		  "nr_writeback %ld", inflight);
	wait_writeback();
	out0 = vmstat_value("pswpout");
	for (i = 0; i < 3; i++)
		pressure();
	tap_note("the pressure wrote %ld pages to swap", vmstat_value("pswpout") - out0);
	cached1 = meminfo_kb("SwapCached");
	tap_note("SwapCached %ld kB -> %ld kB, SwapTotal %ld kB, SwapFree %ld kB", cached0, cached1,
		 meminfo_kb("SwapTotal"), meminfo_kb("SwapFree"));
	tap_check(cached1 <= cached0 + 256, "no page whose owner left stays in the swap cache",
		  "SwapCached %ld kB -> %ld kB", cached0, cached1);
	return tap_done();
}
