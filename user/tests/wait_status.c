/*
 * wait_status: what waitpid() reports about children, in Linux's status
 * word as decoded by WIFEXITED/WEXITSTATUS/WIFSIGNALED/WTERMSIG/
 * WIFSTOPPED/WSTOPSIG/WIFCONTINUED.
 *
 * Exit codes 0, 1, 42 and 255 come back as given, and 298 as 42 (only the
 * low 8 bits are kept).  Children killed by SIGTERM and SIGKILL, and one
 * that aborts itself, report the signal and not an exit.  Several
 * children waited for by pid, out of order, each report their own status;
 * waitpid(-1) collects the rest.  A child that has exited stays a zombie
 * (kill(pid, 0) succeeds) until it is waited for, then its pid is gone
 * (ESRCH).  WNOHANG returns 0 while the child runs.  With no children
 * left, or for a pid that is not a child, waitpid fails with ECHILD.  A
 * stopped child is reported with WUNTRACED and a continued one with
 * WCONTINUED.
 */
#include "testlib.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child_exiting(int code)
{
	pid_t pid = test_fork();

	if (pid == 0)
		_exit(code);
	return pid;
}

/* A child that waits (blocked in pause) until a signal ends it. */
static pid_t child_pausing(void)
{
	pid_t pid = test_fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static void exit_codes(void)
{
	static const int codes[] = { 0, 1, 42, 255 };
	char what[64], buf[64];
	int status;

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		pid_t pid = child_exiting(codes[i]);

		snprintf(what, sizeof(what), "_exit(%d) is reported as exit status %d",
			 codes[i], codes[i]);
		tap_check(test_wait(pid, &status, 0) == pid && WIFEXITED(status) &&
			  !WIFSIGNALED(status) && WEXITSTATUS(status) == codes[i], what, "%s",
			  test_status_str(status, buf, sizeof(buf)));
	}
	test_wait(child_exiting(298), &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 42,
		  "_exit(298) keeps the low 8 bits: exit status 42", "%s",
		  test_status_str(status, buf, sizeof(buf)));
}

static void killed(void)
{
	static const int sigs[] = { SIGTERM, SIGKILL };
	char what[64], buf[64];
	int status;
	pid_t pid;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid = child_pausing();
		if (kill(pid, sigs[i]) < 0)
			tap_bail("kill(%d, %s): %s", (int)pid, test_signame(sigs[i]), strerror(errno));
		snprintf(what, sizeof(what), "a child killed by %s is reported so",
			 test_signame(sigs[i]));
		test_wait(pid, &status, 0);
		tap_check(WIFSIGNALED(status) && !WIFEXITED(status) && WTERMSIG(status) == sigs[i],
			  what, "%s", test_status_str(status, buf, sizeof(buf)));
	}
	pid = test_fork();
	if (pid == 0)
		abort();
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "a child that calls abort() is killed by SIGABRT", "%s",
		  test_status_str(status, buf, sizeof(buf)));
}

static void by_pid(void)
{
	pid_t a = child_exiting(11), b = child_exiting(22), c = child_exiting(33), got;
	int status, seen = 0, bad = 0;

	tap_check(test_wait(c, &status, 0) == c && WIFEXITED(status) && WEXITSTATUS(status) == 33,
		  "waitpid(pid) picks that child among three", "status 0x%x", (unsigned)status);
	tap_check(test_wait(a, &status, 0) == a && WIFEXITED(status) && WEXITSTATUS(status) == 11,
		  "waitpid(pid) for the first child, after the third", "status 0x%x",
		  (unsigned)status);
	got = test_wait(-1, &status, 0);
	tap_check(got == b && WIFEXITED(status) && WEXITSTATUS(status) == 22,
		  "waitpid(-1) returns the remaining child", "pid %d (expected %d), status 0x%x",
		  (int)got, (int)b, (unsigned)status);

	/* Ten children; waitpid(-1) must return each exactly once. */
	pid_t kids[10];
	for (int i = 0; i < 10; i++)
		kids[i] = child_exiting(100 + i);
	for (int n = 0; n < 10; n++) {
		got = test_wait(-1, &status, 0);
		for (int i = 0; i < 10; i++)
			if (kids[i] == got) {
				if ((seen & (1 << i)) || !WIFEXITED(status) ||
				    WEXITSTATUS(status) != 100 + i)
					bad++;
				seen |= 1 << i;
			}
	}
	tap_check(seen == 0x3ff && !bad, "waitpid(-1) returns each of ten children once with its status",
		  "seen mask 0x%x, %d wrong", (unsigned)seen, bad);
}

static void zombie(void)
{
	int p[2], status;
	char c;
	pid_t pid;

	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		close(p[0]);
		_exit(5);               /* closing p[1] on exit tells the parent */
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 0)
		tap_bail("expected end of file from the exiting child");
	close(p[0]);
	tap_check(kill(pid, 0) == 0, "an exited child that was not waited for still exists (zombie)",
		  "kill(pid, 0): %s", strerror(errno));
	test_wait(pid, &status, 0);
	errno = 0;
	tap_check(kill(pid, 0) < 0 && errno == ESRCH, "after waitpid its pid is gone (ESRCH)",
		  "kill(pid, 0) = %s", errno ? strerror(errno) : "success");
}

static void wnohang_and_echild(void)
{
	int p[2], status;
	pid_t pid, r;
	char buf[64];

	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		char c;

		close(p[1]);
		_exit(read(p[0], &c, 1) == 0 ? 3 : 4);  /* runs until the parent closes p[1] */
	}
	close(p[0]);
	r = test_wait(pid, &status, WNOHANG);
	tap_check(r == 0, "WNOHANG returns 0 while the child runs", "returned %d", (int)r);
	close(p[1]);
	r = test_wait(pid, &status, 0);
	tap_check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 3,
		  "the child then exits and is collected", "%s",
		  test_status_str(status, buf, sizeof(buf)));

	errno = 0;
	r = waitpid(-1, &status, 0);
	tap_check(r == -1 && errno == ECHILD, "waitpid(-1) with no children fails with ECHILD",
		  "returned %d, %s", (int)r, strerror(errno));
	errno = 0;
	r = waitpid(-1, &status, WNOHANG);
	tap_check(r == -1 && errno == ECHILD, "waitpid(-1, WNOHANG) with no children: ECHILD",
		  "returned %d, %s", (int)r, strerror(errno));
	errno = 0;
	r = waitpid(getppid(), &status, 0);
	tap_check(r == -1 && errno == ECHILD, "waitpid of a process that is not a child: ECHILD",
		  "returned %d, %s", (int)r, strerror(errno));
}

static void stop_continue(void)
{
	int status;
	char buf[64];
	pid_t pid = child_pausing();

	kill(pid, SIGSTOP);
	test_wait(pid, &status, WUNTRACED);
	tap_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP,
		  "WUNTRACED reports a child stopped by SIGSTOP", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	kill(pid, SIGCONT);
	test_wait(pid, &status, WCONTINUED);
	tap_check(WIFCONTINUED(status), "WCONTINUED reports it continued by SIGCONT", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	kill(pid, SIGKILL);
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "then SIGKILL ends it", "%s", test_status_str(status, buf, sizeof(buf)));
}

int main(void)
{
	exit_codes();
	killed();
	by_pid();
	zombie();
	stop_continue();
	wnohang_and_echild();
	return tap_done();
}
