/*
 * clone_vm: two processes on one address space, one mapping with
 * MAP_POPULATE while the other unmaps the same range.
 *
 * On Linux this is two threads, and mmap_sem keeps the address space
 * consistent: the populating mmap either finishes first or finds its
 * range gone, and both go on.  Pageturn has no lock per address space
 * yet; its fault and populate paths hold a VMA across cond_resched(), so
 * two tasks on one mm would let one of them use a VMA the other freed (a
 * #GP in do_linear_fault, a kernel panic).  Pageturn therefore refuses
 * clone(CLONE_VM) without CLONE_VFORK with EINVAL (docs/syscalls.md);
 * with CLONE_VFORK the parent sleeps while the child borrows the address
 * space, so only one of them runs on it, and posix_spawn and vfork keep
 * working.
 *
 * The test makes the clone.  Where the kernel accepts it (Linux, or a
 * Pageturn that has lost the refusal) it runs the race: the child unmaps
 * the parent's target range in a loop while the parent maps 32 MiB there
 * with MAP_POPULATE, 16 times; both must end normally and the machine
 * must live.  On Pageturn the clone must fail with EINVAL.  Then vfork
 * and posix_spawn, which use CLONE_VM | CLONE_VFORK, must still run a
 * program.
 *
 * A vfork chain must not get around the refusal: A vforks B, B vforks C
 * (all on one address space), C kills B with SIGKILL and then unmaps A's
 * range over and over while A maps it with MAP_POPULATE.  Had B's death
 * released A while C still ran, A and C would race as above (a kernel
 * panic).  On Pageturn B sleeps on until C lets go, so A must come back
 * only after C is done; on Linux A may come back at once and the race
 * runs, under mmap_sem.  Either way everything must end and the machine
 * live.
 */
#include "testlib.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define RACE_SIZE	(32ul << 20)
#define RACE_ROUNDS	16

extern char **environ;

/* Shared by both sides of the CLONE_VM race (one address space). */
static void *volatile target;
static volatile int parent_done;
static char child_stack[64 * 1024] __attribute__((aligned(16)));

/* The clone child: unmap whatever the parent maps, until it is done.
 * Raw system calls only: the child shares the parent's TLS and errno. */
static int unmapper(void *arg)
{
	(void)arg;
	while (!parent_done) {
		syscall(SYS_munmap, target, RACE_SIZE);
		syscall(SYS_sched_yield);
	}
	return 0;
}

static void run_race(pid_t child)
{
	int status, mapped = 0;

	for (int i = 0; i < RACE_ROUNDS; i++) {
		void *p = mmap(target, RACE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED)
			continue;
		mapped++;
		if (p != target)	/* went elsewhere: don't pile them up */
			munmap(p, RACE_SIZE);
	}
	parent_done = 1;
	test_wait(child, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the CLONE_VM child unmapping the range ends normally", "status 0x%x", status);
	tap_check(mapped == RACE_ROUNDS, "every MAP_POPULATE mmap during the race returns",
		  "%d of %d", mapped, RACE_ROUNDS);
	munmap(target, RACE_SIZE);
}

static void check_clone_vm(void)
{
	pid_t child;

	/* A range the parent maps and the child unmaps: reserve it once
	 * so that the hint below is free. */
	target = mmap(NULL, RACE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (target == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	munmap(target, RACE_SIZE);

	fflush(stdout);
	child = clone(unmapper, child_stack + sizeof(child_stack), CLONE_VM | SIGCHLD, NULL);
	if (on_pageturn()) {
		tap_check(child < 0 && errno == EINVAL,
			  "clone(CLONE_VM | SIGCHLD) without CLONE_VFORK: EINVAL on Pageturn",
			  "returned %d (%s)", (int)child, child < 0 ? strerror(errno) : "a child");
		if (child < 0)
			return;
	} else {
		tap_check(child > 0, "clone(CLONE_VM | SIGCHLD) makes a child on Linux",
			  "%s", strerror(errno));
		if (child < 0)
			return;
	}
	run_race(child);
}

/* The vfork chain: C's side, then B's.  Raw system calls only (shared
 * TLS and errno). */
static volatile int c_done;
static char stack_b[64 * 1024] __attribute__((aligned(16)));
static char stack_c[64 * 1024] __attribute__((aligned(16)));

static int chain_c(void *arg)
{
	(void)arg;
	syscall(SYS_kill, syscall(SYS_getppid), SIGKILL);
	for (int i = 0; i < 400 && !parent_done; i++) {
		syscall(SYS_munmap, target, RACE_SIZE);
		syscall(SYS_sched_yield);
	}
	c_done = 1;
	return 0;
}

static int chain_b(void *arg)
{
	(void)arg;
	clone(chain_c, stack_c + sizeof(stack_c), CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	return 0;	/* never reached: C kills B first */
}

static void check_vfork_chain(void)
{
	int status, mapped = 0, c_done_at_return;
	pid_t b;

	parent_done = 0;
	fflush(stdout);
	b = clone(chain_b, stack_b + sizeof(stack_b), CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	c_done_at_return = c_done;
	if (b < 0)
		tap_bail("clone(CLONE_VM | CLONE_VFORK): %s", strerror(errno));
	for (int i = 0; i < RACE_ROUNDS; i++) {
		void *p = mmap(target, RACE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED)
			continue;
		mapped++;
		/* Target still taken (C is done, or has not unmapped it yet):
		 * the mapping went elsewhere; 16 of those would fill RAM. */
		if (p != target)
			munmap(p, RACE_SIZE);
	}
	parent_done = 1;
	test_wait(b, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "vfork chain: the middle task dies of the SIGKILL its child sent", "status 0x%x",
		  status);
	if (on_pageturn())
		tap_check(c_done_at_return, "vfork chain: the first task runs again only after the "
			  "last borrower of its memory is done", NULL);
	else
		tap_skip("vfork chain: the first task runs again only after the last borrower of its "
			 "memory is done", "Linux lets it run, under mmap_sem");
	tap_check(mapped == RACE_ROUNDS, "vfork chain: every MAP_POPULATE mmap returns", "%d of %d",
		  mapped, RACE_ROUNDS);
	munmap(target, RACE_SIZE);
}

static void check_vfork_users(void)
{
	char *argv[] = { "true", NULL };
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		execve("/bin/true", argv, environ);
		_exit(127);
	}
	tap_check(pid > 0, "vfork (CLONE_VM | CLONE_VFORK) works", "%s", strerror(errno));
	if (pid > 0) {
		test_wait(pid, &status, 0);
		tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "the vfork child runs /bin/true", "status 0x%x", status);
	}

	int err = posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ);

	tap_check(err == 0, "posix_spawn (musl: CLONE_VM | CLONE_VFORK) works", "%s",
		  strerror(err));
	if (err == 0) {
		test_wait(pid, &status, 0);
		tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "the spawned child runs /bin/true", "status 0x%x", status);
	}
}

int main(void)
{
	check_clone_vm();
	check_vfork_chain();
	check_vfork_users();
	return tap_done();
}
