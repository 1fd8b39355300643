/*
 * kernel_read: user mode cannot touch kernel memory; trying is SIGSEGV
 * for the process, never a kernel crash.
 *
 * Three children each try one thing and must die of SIGSEGV: write to
 * the kernel image (0xffffffff80000000), call into it, and read the
 * direct map (0xffff888000000000).  Then the test itself reads the
 * kernel image: it is expected to be killed by SIGSEGV there, so the
 * runner (user/tests/runner.c) checks for that termination instead of an
 * exit status, and runs the next test.  If the read returns, the test
 * reports what it read and exits 1.
 */
#include "testlib.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void must_segv(void (*attempt)(void), const char *what)
{
	int status;
	char buf[64];
	pid_t pid = test_fork();

	if (pid == 0) {
		attempt();
		_exit(0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, what, "%s",
		  test_status_str(status, buf, sizeof(buf)));
}

static void write_kernel_text(void)
{
	*(volatile long *)KERNEL_TEXT = 0;
}

static void call_kernel_text(void)
{
	((void (*)(void))KERNEL_TEXT)();
}

static void read_direct_map(void)
{
	(void)*(volatile long *)KERNEL_DIRECT_MAP;
}

int main(void)
{
	long value;

	must_segv(write_kernel_text, "a write to the kernel image kills with SIGSEGV");
	must_segv(call_kernel_text, "a call into the kernel image kills with SIGSEGV");
	must_segv(read_direct_map, "a read of the kernel's direct map kills with SIGSEGV");
	tap_note("now reading 0x%lx: the runner expects this process to die of SIGSEGV",
		 KERNEL_TEXT);
	fflush(stdout);
	value = *(volatile long *)KERNEL_TEXT;
	tap_check(0, "a read of the kernel image kills with SIGSEGV", "read 0x%lx and survived",
		  value);
	return tap_done();
}
