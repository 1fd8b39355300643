/*
 * futex_swap: a process-shared futex wakes its waiter although reclaim
 * worked on its page meanwhile.
 *
 * A shared futex is keyed by the physical address of its word (Linux by
 * its page).  A child waits on a word in MAP_SHARED|MAP_ANONYMOUS memory;
 * the parent then tries to push the page out, with MADV_PAGEOUT and by
 * writing twice the RAM of its own, sets the word and wakes the futex.
 * The waker must find the waiter (FUTEX_WAKE returns 1) and the child
 * must return 0 from FUTEX_WAIT.  Runs on the build machine too, with 64
 * MiB of pressure there, and on Pageturn without swap with a token 8 MiB.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define FUTEX_WAIT	0
#define FUTEX_WAKE	1

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

int main(void)
{
	volatile uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned long size = 64ul << 20;
	long woken;
	int status;
	pid_t pid;
	char *p;

	if (w == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	/* Twice the RAM where swap can take it; a token 8 MiB without swap,
	 * where nothing can push the page out (and more would be an OOM). */
	if (on_pageturn())
		size = meminfo_kb("SwapTotal") > meminfo_kb("MemTotal") * 2 ?
		       (unsigned long)meminfo_kb("MemTotal") * 1024 * 2 : 8ul << 20;
	*w = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 60, 0 };

		_exit(syscall(SYS_futex, w, FUTEX_WAIT, 0, &ts, NULL, 0) == 0 ? 0 : 1);
	}
	sleep(1);
	madvise((void *)w, 4096, MADV_PAGEOUT);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	for (int pass = 0; pass < 2; pass++)
		for (unsigned long off = 0; off < size; off += 4096)
			p[off] = 1;
	munmap(p, size);
	*w = 1;
	woken = syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
	tap_check(woken == 1, "FUTEX_WAKE finds the waiter", "woke %ld", woken);
	tap_check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status),
		  "and the waiter returns 0", "status %#x", status);
	return tap_done();
}
