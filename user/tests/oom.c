/*
 * oom: the OOM killer and its /proc files.
 *
 * Everywhere (the build machine's Linux too):
 *   - /proc/self/oom_score_adj reads a number in -1000..1000; writing
 *     500 (and " 7\n", and 0x10) sets it; 1001, -1001, "abc", "12abc"
 *     and "5 6" fail with EINVAL and change nothing;
 *   - a forked child starts with its parent's value, and keeps it
 *     across exec (the child execs this program with --print-adj);
 *   - /proc/self/oom_score is in 0..2000, and oom_score_adj 1000 raises
 *     it to about 1333 ((1000 + 1000) * 2 / 3, Linux 5.9's scale; the
 *     bias is oom_score_adj * floor(totalpages / 1000), which rounds it
 *     down: 1296 at 64 MiB, so at least 1200).
 *
 * On Pageturn only (init's score, and lowering oom_score_adj, which
 * Linux allows only with CAP_SYS_RESOURCE):
 *   - /proc/1/oom_score is 0: init is never chosen;
 *   - oom_score_adj -1000 gives oom_score 0.
 *
 * On a Pageturn machine of at most 128 MiB (the QEMU case boots it with
 * -m 64M; on any other machine these are skipped: they would take the
 * whole of a big machine's RAM, or the build machine's):
 *   - a child touching twice MemTotal of anonymous memory is killed by
 *     SIGKILL, this process (its parent) survives, and /proc/vmstat's
 *     oom_kill goes up by one; the QEMU case checks the report on the
 *     console;
 *   - a small child with oom_score_adj 1000 (half of MemFree), stopped
 *     by SIGSTOP, is killed in place of a bigger one (60% of MemFree),
 *     which then finishes;
 *   - a child with oom_score_adj -1000 holding 60% of MemFree survives
 *     while another child asking for 60% more is killed;
 *   - with every process at -1000 (the runner, this test, a hog touching
 *     twice MemTotal) nothing may be killed: the hog's allocations fail,
 *     its page fault kills it instead (the console says so; the QEMU case
 *     checks), no kill is counted, and the kernel neither hangs nor
 *     panics.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long read_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -100000;
	return strtol(buf, NULL, 10);
}

/* Write text to path: 0, or -1 with errno set. */
static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static long vmstat_oom_kill(void)
{
	static char buf[32768];

	if (read_file("/proc/vmstat", buf, sizeof(buf)) <= 0)
		return -1;
	return proc_field(buf, "oom_kill");
}

static void check_adj_writes(void)
{
	static const char *const bad[] = { "1001", "-1001", "abc", "12abc", "5 6", "99999999999" };
	const char *path = "/proc/self/oom_score_adj";
	long old = read_long(path);

	tap_check(old >= -1000 && old <= 1000, "oom_score_adj reads a number in -1000..1000",
		  "read %ld", old);
	tap_check(write_text(path, "500") == 0 && read_long(path) == 500,
		  "writing 500 sets oom_score_adj", "errno %d, reads %ld", errno, read_long(path));
	tap_check(write_text(path, " 7\n") == 0 && read_long(path) == 7,
		  "\" 7\\n\" sets it to 7", "errno %d, reads %ld", errno, read_long(path));
	tap_check(write_text(path, "0x10") == 0 && read_long(path) == 16,
		  "0x10 sets it to 16", "errno %d, reads %ld", errno, read_long(path));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char what[64];
		int r = write_text(path, bad[i]);
		int err = errno;

		snprintf(what, sizeof(what), "writing \"%s\" fails with EINVAL", bad[i]);
		tap_check(r < 0 && (err == EINVAL || (i == 5 && err == ERANGE)) && read_long(path) == 16,
			  what, "returned %d, errno %d, reads %ld", r, err, read_long(path));
	}
	tap_check(write_text(path, "1000") == 0, "writing 1000 works", "errno %d", errno);
	tap_check(read_long("/proc/self/oom_score") >= 1200 &&
		  read_long("/proc/self/oom_score") <= 2000,
		  "oom_score_adj 1000 gives oom_score 1200..2000", "oom_score %ld",
		  read_long("/proc/self/oom_score"));
	if (write_text(path, "300") < 0)
		tap_bail("cannot set oom_score_adj back: %s", strerror(errno));
}

/* fork and exec keep oom_score_adj (300, set by check_adj_writes). */
static void check_inheritance(const char *self)
{
	int status;
	pid_t pid = test_fork();

	if (pid == 0) {
		if (read_long("/proc/self/oom_score_adj") != 300)
			_exit(2);
		execl(self, self, "--print-adj", (char *)NULL);
		_exit(3);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "fork inherits oom_score_adj and exec keeps it",
		  "child status 0x%x (2: not inherited, 3: exec failed, 1: lost by exec)", status);
}

static void check_pageturn_scores(void)
{
	long score;

	tap_check(read_long("/proc/1/oom_score") == 0, "init's oom_score is 0", "reads %ld",
		  read_long("/proc/1/oom_score"));
	if (write_text("/proc/self/oom_score_adj", "-1000") < 0)
		tap_bail("cannot lower oom_score_adj: %s", strerror(errno));
	score = read_long("/proc/self/oom_score");
	tap_check(score == 0, "oom_score_adj -1000 gives oom_score 0", "reads %ld", score);
	if (write_text("/proc/self/oom_score_adj", "0") < 0)
		tap_bail("cannot reset oom_score_adj: %s", strerror(errno));
}

/*
 * A child with oom_score_adj adj that touches kb KiB, tells the parent
 * through ready[1], then waits to be killed (hold) or exits 0.
 */
static pid_t child_touching(long kb, const char *adj, int ready[2], int hold)
{
	pid_t pid = test_fork();

	if (pid == 0) {
		close(ready[0]);
		if (write_text("/proc/self/oom_score_adj", adj) < 0)
			_exit(4);
		if (touch_anon_kb(kb) < 0)
			_exit(5);
		if (write(ready[1], "x", 1) != 1)
			_exit(6);
		while (hold)
			pause();
		_exit(0);
	}
	return pid;
}

/* Wait until the child behind p[0] said it is ready (or died: 0). */
static int wait_ready(int p[2])
{
	char c;

	close(p[1]);
	return read(p[0], &c, 1) == 1;
}

static void check_hog_killed(void)
{
	long before = vmstat_oom_kill(), total = meminfo_kb("MemTotal");
	int status;
	pid_t pid = test_fork();

	if (pid == 0) {
		touch_anon_kb(2 * total);
		_exit(0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "a child touching twice MemTotal is killed by SIGKILL", "status 0x%x", status);
	tap_check(vmstat_oom_kill() == before + 1, "oom_kill counts the kill", "%ld -> %ld",
		  before, vmstat_oom_kill());
	tap_note("expect console: Out of memory: Killed process %d (oom)", pid);
}

static void check_adj_max_preferred(void)
{
	long free_kb = meminfo_kb("MemFree"), before = vmstat_oom_kill();
	int small_ready[2], big_ready[2], status;
	pid_t small, big;

	test_pipe(small_ready);
	small = child_touching(free_kb / 2, "1000", small_ready, 1);
	if (!wait_ready(small_ready))
		tap_bail("the oom_score_adj 1000 child did not get its memory");
	/* Stopped, it must still wake for the SIGKILL and die. */
	kill(small, SIGSTOP);
	test_wait(small, &status, WUNTRACED);
	tap_check(WIFSTOPPED(status), "the oom_score_adj 1000 child is stopped", "status 0x%x",
		  status);
	test_pipe(big_ready);
	big = child_touching(free_kb * 6 / 10, "0", big_ready, 0);
	wait_ready(big_ready);
	test_wait(big, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the bigger child (oom_score_adj 0) gets its memory and exits", "status 0x%x",
		  status);
	test_wait(small, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "the smaller child with oom_score_adj 1000 was killed in its place", "status 0x%x",
		  status);
	tap_check(vmstat_oom_kill() == before + 1, "one kill", "%ld -> %ld", before,
		  vmstat_oom_kill());
	close(small_ready[0]);
	close(big_ready[0]);
}

static void check_adj_min_spared(void)
{
	long free_kb = meminfo_kb("MemFree");
	int spared_ready[2], hog_ready[2], status;
	pid_t spared, hog;

	test_pipe(spared_ready);
	spared = child_touching(free_kb * 6 / 10, "-1000", spared_ready, 1);
	if (!wait_ready(spared_ready))
		tap_bail("the oom_score_adj -1000 child did not get its memory");
	test_pipe(hog_ready);
	hog = child_touching(free_kb * 6 / 10, "0", hog_ready, 0);
	wait_ready(hog_ready);
	test_wait(hog, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "the child asking for more is killed", "status 0x%x", status);
	tap_check(test_wait(spared, &status, WNOHANG) == 0,
		  "the bigger child with oom_score_adj -1000 is still alive", "status 0x%x", status);
	kill(spared, SIGKILL);
	test_wait(spared, &status, 0);
	close(spared_ready[0]);
	close(hog_ready[0]);
}

static void check_no_victim(void)
{
	long before = vmstat_oom_kill(), total = meminfo_kb("MemTotal");
	char runner_adj[64];
	int status;
	pid_t pid;

	snprintf(runner_adj, sizeof(runner_adj), "/proc/%d/oom_score_adj", (int)getppid());
	if (write_text(runner_adj, "-1000") < 0 ||
	    write_text("/proc/self/oom_score_adj", "-1000") < 0)
		tap_bail("cannot set oom_score_adj -1000: %s", strerror(errno));
	pid = test_fork();
	if (pid == 0) {
		touch_anon_kb(2 * total);
		_exit(0);
	}
	test_wait(pid, &status, 0);
	if (write_text(runner_adj, "0") < 0 || write_text("/proc/self/oom_score_adj", "0") < 0)
		tap_bail("cannot set oom_score_adj back to 0: %s", strerror(errno));
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "nothing killable: the -1000 hog's own fault kills it", "status 0x%x", status);
	tap_check(vmstat_oom_kill() == before, "and the OOM killer killed nobody", "%ld -> %ld",
		  before, vmstat_oom_kill());
	tap_note("expect console: Out of memory: killing pid %d (oom)", pid);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--print-adj"))
		return read_long("/proc/self/oom_score_adj") == 300 ? 0 : 1;

	check_adj_writes();
	check_inheritance(argv[0]);
	if (on_pageturn())
		check_pageturn_scores();
	else
		tap_skip("init's score and oom_score_adj -1000", "not Pageturn");

	if (oom_test_machine()) {
		check_hog_killed();
		check_adj_max_preferred();
		check_adj_min_spared();
		check_no_victim();
	} else {
		tap_skip("the OOM kills", "needs Pageturn with at most 128 MiB (the oom QEMU case)");
	}
	return tap_done();
}
