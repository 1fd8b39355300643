/*
 * runner: run user tests, each in its own process, and judge how each
 * one ended.
 *
 *     runner all            every test in the table below, in its order
 *     runner NAME...        the named tests
 *
 * The test programs live in the runner's own directory (/usr/tests on
 * Pageturn, build/user/tests on the build machine).  For each test the
 * runner prints "# test NAME", lets the test write its TAP lines straight
 * to the same stdout, and prints the verdict "# NAME: PASS (...)" or
 * "# NAME: FAIL (...)".  A test passes when it ends the way the table
 * expects: exit status 0, or for kernel_read death by SIGSEGV.  The last
 * line is "user tests: N passed, M failed"; the exit status is 0 only
 * when nothing failed.
 *
 * Each test runs in a process group of its own, so that when it ends (or
 * overruns its time limit, TIMEOUT seconds unless the table gives it
 * more, measured with SIGALRM) the
 * runner can kill whatever it left behind with one kill(-pgid, SIGKILL)
 * and the next test starts clean.  Core dumps are turned off
 * (RLIMIT_CORE 0) for the tests that die on purpose.
 */
#include "testlib.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TIMEOUT 120

struct test {
	const char *name;
	int signal;             /* 0: must exit with status 0; else must die of it */
	int timeout;            /* seconds; 0: TIMEOUT */
};

/* The order of "all": simple system calls and faults first, then memory,
 * processes, files, the tools' numbers against the kernel's, and last
 * the leak test, which repeats what the others did once. */
static const struct test tests[] = {
	{ "enosys", 0, 0 },
	{ "efault", 0, 0 },
	{ "kernel_read", SIGSEGV, 0 },
	{ "faults", 0, 0 },
	{ "fork_cow", 0, 0 },
	{ "wait_status", 0, 0 },
	{ "exec_args", 0, 0 },
	{ "rlimits", 0, 0 },
	{ "pipes", 0, 0 },
	{ "rw_iter", 0, 0 },
	{ "signals", 0, 0 },
	{ "brk", 0, 0 },
	{ "demand_paging", 0, 0 },
	{ "file_mmap", 0, 0 },
	{ "truncate_mmap", 0, 0 },
	{ "mmap_writeback", 0, 0 },
	{ "ramfs_lru", 0, 0 },
	{ "enoexec", 0, 0 },
	{ "sh_script", 0, 0 },
	{ "tool_numbers", 0, 0 },
	{ "clone_vm", 0, 0 },
	{ "vfork_reap", 0, 0 },
	{ "dead_dir", 0, 0 },
	{ "mount_rename", 0, 0 },
	{ "blkdev", 0, 0 },
	{ "blkdev_rw", 0, 0 },
	{ "blkdev_hostile", 0, 0 },
	{ "partitions", 0, 0 },
	{ "brd", 0, 0 },
	{ "sd_disk", 0, 0 },
	{ "swapon", 0, 0 },
	{ "sync_merge", 0, 0 },
	{ "sysctl", 0, 0 },
	{ "writeback_race", 0, 0 },
	{ "reclaim_file", 0, 0 },
	{ "reclaim_stress", 0, 0 },
	{ "mlock_lru", 0, 0 },
	{ "swap_verify", 0, 600 },
	{ "swapoff_data", 0, 600 },
	{ "tmpfs_swap", 0, 600 },
	{ "madvise_swap", 0, 0 },
	{ "swapoff_race", 0, 600 },
	{ "futex_swap", 0, 300 },
	{ "swap_two", 0, 600 },
	{ "swap_ioerr", 0, 600 },
	{ "swap_error_orphan", 0, 600 },
	{ "swap_slow_disk", 0, 600 },
	{ "swap_inflight", 0, 600 },
	{ "tracing", 0, 300 },
	{ "shm_lock", 0, 0 },
	{ "hogs", 0, 0 },
	{ "ext2_race", 0, 0 },
	{ "syscall_fuzz", 0, 0 },
	{ "race_fuzz", 0, 0 },
	{ "oom", 0, 0 },
	{ "leaks", 0, 0 },
};
#define NR_TESTS (sizeof(tests) / sizeof(tests[0]))

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static const struct test *find_test(const char *name)
{
	for (size_t i = 0; i < NR_TESTS; i++)
		if (!strcmp(tests[i].name, name))
			return &tests[i];
	return NULL;
}

/* Run one test; print its verdict; return 1 if it passed. */
static int run_test(const char *dir, const char *name)
{
	const struct test *t = find_test(name);
	char path[PATH_MAX], got[64], want[64];
	int status, pass, limit;
	pid_t pid, r;

	printf("# test %s\n", name);
	if (!t) {
		printf("# %s: FAIL (no such test)\n", name);
		return 0;
	}
	limit = t->timeout ? t->timeout : TIMEOUT;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("# %s: FAIL (fork: %s)\n", name, strerror(errno));
		return 0;
	}
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGALRM, SIG_DFL);
		execl(path, path, (char *)NULL);
		printf("# %s: cannot execute %s: %s\n", name, path, strerror(errno));
		fflush(stdout);
		_exit(127);
	}
	setpgid(pid, pid);
	timed_out = 0;
	syscall(SYS_alarm, limit);
	while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR && !timed_out)
		;
	syscall(SYS_alarm, 0);
	if (r != pid) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		if (timed_out)
			printf("# %s: FAIL (timed out after %d s)\n", name, limit);
		else
			printf("# %s: FAIL (waitpid: %s)\n", name, strerror(errno));
		return 0;
	}
	kill(-pid, SIGKILL);            /* whatever the test left running */

	test_status_str(status, got, sizeof(got));
	if (t->signal) {
		pass = WIFSIGNALED(status) && WTERMSIG(status) == t->signal;
		snprintf(want, sizeof(want), "killed by %s", test_signame(t->signal));
	} else {
		pass = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		snprintf(want, sizeof(want), "exit status 0");
	}
	if (pass)
		printf("# %s: PASS (%s%s)\n", name, got, t->signal ? ", as expected" : "");
	else
		printf("# %s: FAIL (%s; expected %s)\n", name, got, want);
	return pass;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct rlimit no_core = { 0, 0 };
	char dir[PATH_MAX];
	const char *slash = strrchr(argv[0], '/');
	int passed = 0, failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s all | NAME...\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - argv[0]), argv[0]);
	else
		snprintf(dir, sizeof(dir), "/usr/tests");
	sigaction(SIGALRM, &sa, NULL);
	setrlimit(RLIMIT_CORE, &no_core);

	if (argc == 2 && !strcmp(argv[1], "all")) {
		for (size_t i = 0; i < NR_TESTS; i++)
			run_test(dir, tests[i].name) ? passed++ : failed++;
	} else {
		for (int i = 1; i < argc; i++)
			run_test(dir, argv[i]) ? passed++ : failed++;
	}
	printf("user tests: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
