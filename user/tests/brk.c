/*
 * brk: the program break grows and shrinks the heap, Linux style.
 *
 * An sbrk() on the raw brk system call (musl's own sbrk refuses to move the
 * break) grows the heap by 8 MiB in 1 MiB steps, each returning the old
 * break; every page is written and
 * verified.  Shrinking by 4 MiB gives that memory back: a child touching
 * it dies of SIGSEGV.  Growing again must hand out zeroed memory, not the
 * old contents.  The raw brk system call returns the new break on
 * success and the unchanged one on failure (a break below the heap's
 * start, or one running into another mapping); an unaligned break is accepted
 * and the bytes up to it are usable.  The test allocates nothing with
 * malloc, whose own use of brk would interfere.
 */
#include "testlib.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB (1ul << 20)

static unsigned long raw_brk(unsigned long addr)
{
	return syscall(SYS_brk, addr);
}

/* Move the break by inc bytes; the old break, or (char *)-1 if it did not move. */
static char *grow(long inc)
{
	unsigned long old = raw_brk(0);

	return raw_brk(old + inc) == old + inc ? (char *)old : (char *)-1;
}

/* Offset of the first page in [from, to) whose first word is not pattern, or -1. */
static long check_pages(char *from, char *to, unsigned long salt)
{
	for (char *p = from; p < to; p += PAGE_SIZE)
		if (*(unsigned long *)p != ((unsigned long)p ^ salt))
			return p - from;
	return -1;
}

int main(void)
{
	char *start = (char *)raw_brk(0), *cur, *prev, *above;
	unsigned long got;
	long bad;
	int steps_ok = 1, status;
	char buf[64];
	pid_t pid;

	tap_check(start == sbrk(0), "musl's sbrk(0) and brk(0) agree on the break", "%p vs %p",
		  (void *)start, sbrk(0));

	for (int i = 0; i < 8; i++) {
		prev = grow(MiB);
		if (prev != start + i * MiB)
			steps_ok = 0;
	}
	cur = (char *)raw_brk(0);
	tap_check(steps_ok && cur == start + 8 * MiB, "eight 1 MiB steps each return the old break",
		  "break %p, expected %p", (void *)cur, (void *)(start + 8 * MiB));
	/* The first page may share the break's page with .bss; start at the next one. */
	start = (char *)(((unsigned long)start + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1));
	for (char *p = start; p < cur; p += PAGE_SIZE)
		*(unsigned long *)p = (unsigned long)p ^ 0xb4b4;
	bad = check_pages(start, cur, 0xb4b4);
	tap_check(bad < 0, "every page of the 8 MiB keeps what was written", "offset %#lx", bad);

	prev = grow(-(long)(4 * MiB));
	tap_check(prev == cur && raw_brk(0) == (unsigned long)cur - 4 * MiB,
		  "lowering the break by 4 MiB shrinks the heap", "break %#lx", raw_brk(0));
	bad = check_pages(start, cur - 4 * MiB, 0xb4b4);
	tap_check(bad < 0, "the lower 4 MiB are untouched by the shrink", "offset %#lx", bad);

	pid = test_fork();
	if (pid == 0) {
		*(volatile char *)(cur - 2 * MiB) = 1;
		_exit(0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		  "memory above the lowered break is gone (SIGSEGV)", "%s",
		  test_status_str(status, buf, sizeof(buf)));

	if (grow(4 * MiB) != cur - 4 * MiB)
		tap_bail("growing the break again failed");
	bad = -1;
	for (char *p = cur - 4 * MiB; p < cur; p += 512)
		if (*(unsigned long *)p) {
			bad = p - (cur - 4 * MiB);
			break;
		}
	tap_check(bad < 0, "growing again gives zeroed memory, not the old contents",
		  "offset %#lx holds %#lx", bad, bad < 0 ? 0 : *(unsigned long *)(cur - 4 * MiB + bad));

	got = raw_brk((unsigned long)start - 64 * MiB);
	tap_check(got == (unsigned long)cur, "brk below the heap's start fails: the break stays",
		  "returned %#lx", got);
	above = mmap(cur + 16 * MiB, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (above == MAP_FAILED || above <= cur)
		tap_bail("mmap above the break: %s", above == MAP_FAILED ? strerror(errno) : "below it");
	got = raw_brk((unsigned long)above + PAGE_SIZE);
	tap_check(got == (unsigned long)cur, "brk over an existing mapping fails: the break stays",
		  "returned %#lx", got);
	munmap(above, PAGE_SIZE);
	got = raw_brk((unsigned long)cur + 100);
	tap_check(got == (unsigned long)cur + 100, "an unaligned break is accepted as given",
		  "returned %#lx", got);
	cur[99] = 7;
	tap_check(cur[99] == 7, "and the bytes below it are usable", NULL);
	return tap_done();
}
