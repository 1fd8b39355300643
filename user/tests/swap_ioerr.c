/*
 * swap_ioerr: a swap device that fails some of its I/O loses no data and
 * takes down no one but the process whose page cannot be read.
 *
 * A child maps twice the RAM, writes every page with its pattern and
 * reads it all back; the parent reports how the child ended and how many
 * slots the area retired.  The QEMU cases run it on a swap disk behind
 * QEMU's blkdebug, which fails either the writes or the reads of a few
 * slots in the middle of the area:
 *   - failed writes: the pages stay in memory (the kernel logs the first
 *     error, once), the child finds every word and exits 0, and the slots
 *     are retired when their pages go: SwapTotal shrinks;
 *   - failed reads: the child is killed by SIGBUS when it touches a page
 *     it cannot get back (the kernel logs it), and the parent, the shell
 *     and init go on.
 * The cases judge which ending is right; here the child fails only on a
 * word that comes back wrong.  On the build machine, or without swap, it
 * skips.
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
	return (page * 0x9e3779b97f4a7c15ull) ^ (i << 44) ^ 0xe770000000000000ull;
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
	long total0, total1;
	unsigned long size;
	int status;
	pid_t pid;

	if (!on_pageturn() || meminfo_kb("SwapTotal") <= 0) {
		tap_skip("swap I/O errors", "Pageturn with a swap area only");
		return tap_done();
	}
	size = (unsigned long)meminfo_kb("MemTotal") * 1024 * 2;
	total0 = meminfo_kb("SwapTotal");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child(size));
	tap_check(pid > 0 && waitpid(pid, &status, 0) == pid, "the child ran", NULL);
	if (WIFSIGNALED(status)) {
		tap_note("child killed by %s", WTERMSIG(status) == SIGBUS ? "SIGBUS" :
			 strsignal(WTERMSIG(status)));
		tap_check(WTERMSIG(status) == SIGBUS, "only by SIGBUS", "signal %d",
			  WTERMSIG(status));
	} else {
		tap_note("child exited %d", WEXITSTATUS(status));
		tap_check(WEXITSTATUS(status) == 0, "every word came back", "exit %d",
			  WEXITSTATUS(status));
	}
	total1 = meminfo_kb("SwapTotal");
	tap_note("retired %ld slots", (total0 - total1) / 4);
	tap_check(total1 <= total0, "swap never grows", "SwapTotal %ld -> %ld kB", total0, total1);
	return tap_done();
}
