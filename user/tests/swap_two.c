/*
 * swap_two: two processes at once each write twice the RAM of anonymous
 * memory with their own pattern and read it back twice; together they
 * need four times the RAM, so each one's pages go to swap and come back
 * while the other's do too (and reclaim takes from both).  Both must find
 * every word.  On Pageturn without swap it skips; on the build machine
 * each writes 32 MiB.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

static int hog(unsigned long size, uint64_t salt)
{
	uint64_t *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long n = size / 8, bad = 0;

	if (m == MAP_FAILED)
		return 2;
	for (unsigned long i = 0; i < n; i++)
		m[i] = (i * 0xc2b2ae3d27d4eb4full) ^ salt;
	for (int pass = 0; pass < 2; pass++)
		for (unsigned long i = 0; i < n; i++)
			bad += m[i] != ((i * 0xc2b2ae3d27d4eb4full) ^ salt);
	if (bad)
		printf("# hog %#llx: %lu words differ\n", (unsigned long long)salt, bad);
	return bad ? 1 : 0;
}

int main(void)
{
	unsigned long size = 32ul << 20;
	pid_t pid[2];
	int status;

	if (on_pageturn()) {
		if (meminfo_kb("SwapTotal") <= 0) {
			tap_skip("two processes through swap at once", "no swap area is on");
			return tap_done();
		}
		size = (unsigned long)meminfo_kb("MemTotal") * 1024 * 2;
	}
	fflush(stdout);
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			_exit(hog(size, 0x7700000000000000ull + (uint64_t)i));
	}
	for (int i = 0; i < 2; i++)
		tap_check(pid[i] > 0 && waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status) &&
			  WEXITSTATUS(status) == 0, i ? "the second finds every word" :
			  "the first finds every word", "status %#x", status);
	return tap_done();
}
