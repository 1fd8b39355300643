/*
 * fork_cow: fork() copies the address space lazily (copy-on-write), and
 * after the fork each process sees only its own writes.
 *
 * The parent and the child write the same virtual page, in lockstep over
 * two pipes, in every kind of private memory a program has: .data, .bss,
 * the stack, the heap and an anonymous mmap.  Each must still read its
 * own value after the other wrote.  Then a 16 MiB buffer with a pattern:
 * the child changes every page and the parent's copy must be intact, and
 * the other way round while the child is still alive.  A MAP_SHARED
 * anonymous mapping is the exception: there the child's write shows in
 * the parent.  Finally a grandchild's writes must not reach its parent.
 *
 * The child reports what it saw through its exit status: one bit per
 * failed check, so the parent prints every result itself.
 */
#include "testlib.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (16u << 20)

enum region { R_DATA, R_BSS, R_STACK, R_HEAP, R_MMAP, NR_REGIONS };
static const char *const region_names[NR_REGIONS] = {
	".data page", ".bss page", "stack page", "heap page", "anonymous mmap page",
};

static volatile long data_word[PAGE_SIZE / sizeof(long)] __attribute__((aligned(PAGE_SIZE))) = { 1 };
static volatile long bss_word[PAGE_SIZE / sizeof(long)] __attribute__((aligned(PAGE_SIZE)));

static void set_all(volatile long *const *slot, long v)
{
	for (int r = 0; r < NR_REGIONS; r++)
		*slot[r] = v;
}

/* Bit r set when region r does not hold v. */
static int differ(volatile long *const *slot, long v)
{
	int bad = 0;

	for (int r = 0; r < NR_REGIONS; r++)
		if (*slot[r] != v)
			bad |= 1 << r;
	return bad;
}

static void token_send(int fd)
{
	if (write_all(fd, "x", 1) != 1)
		tap_bail("pipe write: %s", strerror(errno));
}

static void token_wait(int fd)
{
	char c;

	if (read_full(fd, &c, 1) != 1)
		tap_bail("pipe read: the other process is gone");
}

static void same_page_lockstep(void)
{
	volatile long stack_word[PAGE_SIZE / sizeof(long)];
	volatile long *heap = malloc(PAGE_SIZE);
	volatile long *map = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile long *const slot[NR_REGIONS] = {
		&data_word[7], &bss_word[7], &stack_word[7], heap, map,
	};
	int to_child[2], to_parent[2], status, bad;
	char buf[64], what[96];
	pid_t pid, parent = getpid();

	if (!heap || map == MAP_FAILED)
		tap_bail("malloc or mmap of one page failed");
	set_all(slot, 100);
	test_pipe(to_child);
	test_pipe(to_parent);
	pid = test_fork();
	if (pid == 0) {
		bad = differ(slot, 100) ? 1 << NR_REGIONS : 0;
		if (getppid() != parent)
			bad |= 1 << (NR_REGIONS + 1);
		set_all(slot, 200);
		token_send(to_parent[1]);
		token_wait(to_child[0]);        /* the parent has written 300 */
		bad |= differ(slot, 200);
		_exit(bad);
	}
	token_wait(to_parent[0]);               /* the child has written 200 */
	bad = differ(slot, 100);
	for (int r = 0; r < NR_REGIONS; r++) {
		snprintf(what, sizeof(what), "parent does not see the child's write to its %s",
			 region_names[r]);
		tap_check(!(bad & (1 << r)), what, "reads %ld", *slot[r]);
	}
	set_all(slot, 300);
	token_send(to_child[1]);
	test_wait(pid, &status, 0);
	bad = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (!tap_check(bad >= 0, "child exits normally", "%s",
		       test_status_str(status, buf, sizeof(buf))))
		return;
	tap_check(!(bad & (1 << NR_REGIONS)), "child sees the values written before fork", NULL);
	tap_check(!(bad & (1 << (NR_REGIONS + 1))), "child's getppid() is the parent", NULL);
	for (int r = 0; r < NR_REGIONS; r++) {
		snprintf(what, sizeof(what), "child keeps its own write to its %s", region_names[r]);
		tap_check(!(bad & (1 << r)), what, "the parent's write showed");
	}
	tap_check(!differ(slot, 300), "parent keeps its own write", "0x%x", differ(slot, 300));
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	munmap((void *)map, PAGE_SIZE);
	free((void *)heap);
}

static unsigned long pattern(size_t i, unsigned long seed)
{
	return (i * 0x9e3779b97f4a7c15ul) ^ seed;
}

static void fill(unsigned long *buf, unsigned long seed)
{
	for (size_t i = 0; i < BIG / sizeof(long); i++)
		buf[i] = pattern(i, seed);
}

/* Index of the first word that does not hold the pattern, or -1. */
static long mismatch(const unsigned long *buf, unsigned long seed)
{
	for (size_t i = 0; i < BIG / sizeof(long); i++)
		if (buf[i] != pattern(i, seed))
			return i;
	return -1;
}

static void big_buffer(void)
{
	unsigned long *big = mmap(NULL, BIG, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int to_child[2], status;
	long at;
	char buf[64];
	pid_t pid;

	if (big == MAP_FAILED)
		tap_bail("mmap of 16 MiB: %s", strerror(errno));
	fill(big, 1);

	/* The child rewrites every page; the parent's copy must not change. */
	pid = test_fork();
	if (pid == 0) {
		if (mismatch(big, 1) >= 0)
			_exit(1);
		fill(big, 2);
		_exit(mismatch(big, 2) >= 0 ? 2 : 0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "child inherits 16 MiB and rewrites every page", "%s (1: inherited data wrong, "
		  "2: its own writes did not stick)", test_status_str(status, buf, sizeof(buf)));
	at = mismatch(big, 1);
	tap_check(at < 0, "parent's 16 MiB unchanged by the child's writes",
		  "word %ld (page %ld) differs", at, at * (long)sizeof(long) / PAGE_SIZE);

	/* The parent rewrites while the child waits; the child's copy must not change. */
	test_pipe(to_child);
	pid = test_fork();
	if (pid == 0) {
		close(to_child[1]);
		token_wait(to_child[0]);
		_exit(mismatch(big, 1) >= 0 ? 1 : 0);
	}
	close(to_child[0]);
	fill(big, 3);
	token_send(to_child[1]);
	close(to_child[1]);
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "child's 16 MiB unchanged by the parent's writes", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	at = mismatch(big, 3);
	tap_check(at < 0, "parent reads back its own rewrite", "word %ld differs", at);
	munmap(big, BIG);
}

static void shared_anonymous(void)
{
	volatile long *shared = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	if (shared == MAP_FAILED)
		tap_bail("mmap MAP_SHARED|MAP_ANONYMOUS: %s", strerror(errno));
	shared[3] = 5;
	pid = test_fork();
	if (pid == 0) {
		shared[3] = 6;
		_exit(0);
	}
	test_wait(pid, &status, 0);
	tap_check(shared[3] == 6, "MAP_SHARED anonymous memory: the child's write shows in the parent",
		  "reads %ld", shared[3]);
	munmap((void *)shared, PAGE_SIZE);
}

static void grandchild(void)
{
	int status;
	pid_t pid;

	data_word[9] = 10;
	pid = test_fork();
	if (pid == 0) {
		pid_t inner;

		data_word[9] = 20;
		inner = fork();
		if (inner < 0)
			_exit(3);
		if (inner == 0) {
			data_word[9] = 30;
			_exit(data_word[9] == 30 ? 0 : 1);
		}
		if (waitpid(inner, &status, 0) != inner || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			_exit(4);
		_exit(data_word[9] == 20 ? 0 : 2);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "fork of a forked child: the grandchild's write stays its own",
		  "exit status %d (1: grandchild, 2: child saw the grandchild's write, 3: fork, 4: wait)",
		  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tap_check(data_word[9] == 10, "the original process keeps its value", "reads %ld",
		  data_word[9]);
}

int main(void)
{
	same_page_lockstep();
	big_buffer();
	shared_anonymous();
	grandchild();
	return tap_done();
}
