/*
 * swap_slow_disk: a process that needs more memory than there is, on a
 * machine with plenty of swap, gets it however slowly the swap disk
 * writes.
 *
 * A child maps one and a half times the RAM, writes every page with its
 * pattern and reads it all back.  Swap writes are asynchronous: reclaim
 * starts them and frees the pages once they end, so a slow disk leaves
 * many pages under writeback that a scan cannot free yet; reclaim must
 * wait for them rather than call the OOM killer.  The QEMU case throttles
 * the swap disk's writes; the child must exit 0 (killed by SIGKILL is the
 * OOM killer).  On the build machine, or without swap, it skips.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define PAGE		4096ul
#define WORDS		(PAGE / 8)

static uint64_t word(uint64_t page, uint64_t i)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (i << 44) ^ 0x5100000000000000ull;
}

static int child(unsigned long size)
{
	uint64_t *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
	unsigned long bad = 0;

	if (mem == MAP_FAILED)
		return 2;
	for (unsigned long p = 0; p < size / PAGE; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			mem[p * WORDS + i] = word(p, i);
	for (unsigned long p = 0; p < size / PAGE; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			bad += mem[p * WORDS + i] != word(p, i);
	if (bad)
		printf("# child: %lu words differ\n", bad);
	return bad ? 1 : 0;
}

int main(void)
{
	unsigned long size;
	long out0;
	int status;
	pid_t pid;

	if (!on_pageturn() || meminfo_kb("SwapTotal") <= 0) {
		tap_skip("swap on a slow disk", "Pageturn with a swap area only");
		return tap_done();
	}
	size = (unsigned long)meminfo_kb("MemTotal") * 1024 * 3 / 2;
	out0 = vmstat_value("pswpout");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child(size));
	tap_check(pid > 0 && waitpid(pid, &status, 0) == pid, "the child ran", NULL);
	tap_note("%lu MiB, %ld pages written to swap, SwapFree %ld of %ld kB", size >> 20,
		 vmstat_value("pswpout") - out0, meminfo_kb("SwapFree"), meminfo_kb("SwapTotal"));
	if (WIFSIGNALED(status))
		tap_check(0, "the child exited", "killed by signal %d", WTERMSIG(status));
	else
		tap_check(WEXITSTATUS(status) == 0, "every word came back", "exit %d",
			  WEXITSTATUS(status));
	return tap_done();
}
