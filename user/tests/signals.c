/*
 * signals: delivery of POSIX signals to a process and the state the
 * kernel saves and restores around a handler.
 *
 * Each part installs handlers with sigaction() and checks one rule:
 *  - an SA_SIGINFO handler gets si_signo, si_code (SI_USER for kill) and
 *    si_pid; kill(pid, 0) probes, kill of a missing pid is ESRCH, and
 *    SIGKILL cannot be caught (EINVAL);
 *  - while a handler runs its own signal and sa_mask are blocked (not
 *    with SA_NODEFER), the old mask is back afterwards; SA_RESETHAND
 *    restores the default after one delivery;
 *  - a blocked signal stays pending (sigpending) and is delivered once,
 *    even if sent twice, when sigprocmask unblocks it;
 *  - SIGCHLD with CLD_EXITED, the child's pid and status, waited for
 *    with sigsuspend();
 *  - a fault: SIGSEGV with si_addr and SEGV_MAPERR / SEGV_ACCERR, left
 *    with siglongjmp;
 *  - SA_ONSTACK runs the handler on the sigaltstack, which reports
 *    SS_ONSTACK meanwhile;
 *  - registers survive a handler: the syscall that delivers it keeps
 *    r8-r10 and an SSE register while the handler (which computes in
 *    floating point) clobbers them;
 *  - SIGALRM from alarm(1) ends pause() with EINTR; alarm(0) returns the
 *    seconds left;
 *  - a read() on an empty pipe interrupted by SIGALRM is restarted with
 *    SA_RESTART (the handler writes the byte it then returns) and fails
 *    with EINTR without it.
 * alarm goes through syscall(SYS_alarm): musl's alarm() uses setitimer.
 */
#include "testlib.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t hits;
static volatile int last_signo, last_code, last_pid, last_status;
static volatile unsigned long last_addr;

static long alarm_syscall(unsigned int seconds)
{
	return syscall(SYS_alarm, seconds);
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *), int flags, const sigset_t *mask)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	if (mask)
		sa.sa_mask = *mask;
	if (sigaction(sig, &sa, NULL) < 0)
		tap_bail("sigaction(%s): %s", test_signame(sig), strerror(errno));
}

static void record(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	hits++;
	last_signo = si->si_signo;
	last_code = si->si_code;
	last_pid = si->si_pid;
	last_status = si->si_status;
}

static void siginfo_and_kill(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	hits = 0;
	handle(SIGUSR1, record, 0, NULL);
	kill(getpid(), SIGUSR1);
	tap_check(hits == 1, "kill to self runs the handler before kill returns", "ran %d times",
		  (int)hits);
	tap_check(last_signo == SIGUSR1 && last_code == SI_USER && last_pid == getpid(),
		  "SA_SIGINFO: si_signo, si_code SI_USER and si_pid", "signo %d, code %d, pid %d",
		  last_signo, last_code, last_pid);
	tap_check(kill(getpid(), 0) == 0, "kill(self, 0) probes without a signal", "%s",
		  strerror(errno));
	errno = 0;
	tap_check(kill(0x7ffffff0, SIGUSR1) < 0 && errno == ESRCH, "kill of a missing pid: ESRCH",
		  "%s", strerror(errno));
	errno = 0;
	tap_check(sigaction(SIGKILL, &sa, NULL) < 0 && errno == EINVAL,
		  "SIGKILL cannot be caught or ignored (EINVAL)", "%s", strerror(errno));
}

static volatile int mask_ok, nested_blocked;

static void check_mask(int sig, siginfo_t *si, void *uc)
{
	sigset_t cur;

	(void)si;
	(void)uc;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	mask_ok = sigismember(&cur, SIGUSR2) == 1;
	nested_blocked = sigismember(&cur, sig) == 1;
	hits++;
}

static void masks(void)
{
	struct sigaction now;
	sigset_t usr2, before, after;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, NULL, &before);
	handle(SIGUSR1, check_mask, 0, &usr2);
	kill(getpid(), SIGUSR1);
	tap_check(mask_ok && nested_blocked,
		  "during a handler its signal and sa_mask are blocked",
		  "SIGUSR2 blocked %d, SIGUSR1 blocked %d", mask_ok, nested_blocked);
	sigprocmask(SIG_BLOCK, NULL, &after);
	tap_check(sigismember(&after, SIGUSR1) == sigismember(&before, SIGUSR1) &&
		  sigismember(&after, SIGUSR2) == sigismember(&before, SIGUSR2),
		  "the mask is restored when the handler returns", NULL);
	handle(SIGUSR1, check_mask, SA_NODEFER, &usr2);
	kill(getpid(), SIGUSR1);
	tap_check(!nested_blocked, "SA_NODEFER leaves the signal unblocked in its handler", NULL);
	hits = 0;
	handle(SIGUSR1, record, SA_RESETHAND, NULL);
	kill(getpid(), SIGUSR1);
	sigaction(SIGUSR1, NULL, &now);
	tap_check(hits == 1 && now.sa_handler == SIG_DFL,
		  "SA_RESETHAND: one delivery, then the default action", "hits %d", (int)hits);
}

static void blocked_then_delivered(void)
{
	sigset_t set, pending;

	hits = 0;
	handle(SIGUSR2, record, 0, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR2);
	kill(getpid(), SIGUSR2);
	sigpending(&pending);
	tap_check(hits == 0 && sigismember(&pending, SIGUSR2) == 1,
		  "a blocked signal is not delivered and shows in sigpending", "hits %d", (int)hits);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	tap_check(hits == 1, "unblocking delivers it, once for two sends", "hits %d", (int)hits);
	sigpending(&pending);
	tap_check(sigismember(&pending, SIGUSR2) == 0, "and it is no longer pending", NULL);
}

static void sigchld(void)
{
	sigset_t chld, empty;
	int status;
	pid_t pid;

	hits = 0;
	handle(SIGCHLD, record, 0, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigemptyset(&empty);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	pid = test_fork();
	if (pid == 0)
		_exit(7);
	while (!hits)
		sigsuspend(&empty);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	tap_check(last_signo == SIGCHLD && last_code == CLD_EXITED && last_pid == pid &&
		  last_status == 7, "SIGCHLD: CLD_EXITED with the child's pid and exit status",
		  "signo %d, code %d, pid %d (child %d), status %d", last_signo, last_code,
		  last_pid, (int)pid, last_status);
	test_wait(pid, &status, 0);
	signal(SIGCHLD, SIG_DFL);
}

static sigjmp_buf fault_jmp;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	last_signo = sig;
	last_code = si->si_code;
	last_addr = (unsigned long)si->si_addr;
	siglongjmp(fault_jmp, 1);
}

static void faults(void)
{
	volatile int *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int *unmapped = (volatile int *)0x18;
	int survived = 0;

	if (ro == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	handle(SIGSEGV, on_fault, SA_NODEFER, NULL);
	last_signo = 0;
	if (!sigsetjmp(fault_jmp, 1)) {
		(void)*unmapped;
		survived = 1;
	}
	tap_check(!survived && last_signo == SIGSEGV && last_code == SEGV_MAPERR &&
		  last_addr == 0x18, "a read of unmapped memory: SIGSEGV, SEGV_MAPERR, si_addr",
		  "signo %d, code %d, addr %#lx", last_signo, last_code, last_addr);
	last_signo = 0;
	if (!sigsetjmp(fault_jmp, 1)) {
		ro[5] = 1;
		survived = 1;
	}
	tap_check(!survived && last_signo == SIGSEGV && last_code == SEGV_ACCERR &&
		  last_addr == (unsigned long)&ro[5],
		  "a write to a read-only page: SIGSEGV, SEGV_ACCERR, si_addr",
		  "signo %d, code %d, addr %#lx (expected %p)", last_signo, last_code, last_addr,
		  (void *)&ro[5]);
	signal(SIGSEGV, SIG_DFL);
	munmap((void *)ro, 4096);
}

static char altstack[65536];
static volatile int on_alt, alt_flag;

static void check_stack(int sig, siginfo_t *si, void *uc)
{
	stack_t now;
	char local;

	(void)sig;
	(void)si;
	(void)uc;
	on_alt = &local >= altstack && &local < altstack + sizeof(altstack);
	sigaltstack(NULL, &now);
	alt_flag = now.ss_flags;
}

static void alternate_stack(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) }, after;

	if (sigaltstack(&ss, NULL) < 0)
		tap_bail("sigaltstack: %s", strerror(errno));
	handle(SIGUSR1, check_stack, SA_ONSTACK, NULL);
	kill(getpid(), SIGUSR1);
	tap_check(on_alt, "an SA_ONSTACK handler runs on the alternate stack", NULL);
	tap_check(alt_flag & SS_ONSTACK, "sigaltstack reports SS_ONSTACK inside it", "flags %#x",
		  alt_flag);
	sigaltstack(NULL, &after);
	tap_check(!(after.ss_flags & SS_ONSTACK), "and not after it returns", "flags %#x",
		  after.ss_flags);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	signal(SIGUSR1, SIG_DFL);
}

static volatile double fp_sink;

/* Compute in floating point and then wipe every SSE register and r8-r10. */
static void clobber(int sig, siginfo_t *si, void *uc)
{
	volatile double x = 1.0;

	(void)sig;
	(void)si;
	(void)uc;
	for (int i = 0; i < 100; i++)
		x = x * 1.5 + 0.25;
	fp_sink = x;
	__asm__ volatile("pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
			 "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
			 "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
			 "pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
			 "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
			 "pxor %%xmm15, %%xmm15\n\txor %%r8d, %%r8d\n\txor %%r9d, %%r9d\n\t"
			 "xor %%r10d, %%r10d"
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
			 "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
			 "r8", "r9", "r10");
	hits++;
}

static void registers_survive(void)
{
	long pid = getpid(), ret = SYS_kill;

	hits = 0;
	handle(SIGUSR1, clobber, 0, NULL);
	/* The values are loaded right before the syscall and read right after it. */
	register long r8 __asm__("r8") = 0x0123456789abcdefl;
	register long r9 __asm__("r9") = 0x1122334455667788l;
	register long r10 __asm__("r10") = -3;
	double x = 3.141592653589793;

	__asm__ volatile("syscall"
			 : "+a"(ret), "+r"(r8), "+r"(r9), "+r"(r10), "+x"(x)
			 : "D"(pid), "S"((long)SIGUSR1)
			 : "rcx", "r11", "memory");
	long got8 = r8, got9 = r9, got10 = r10;

	tap_check(ret == 0 && hits == 1, "a raw kill syscall delivers the signal", "ret %ld", ret);
	tap_check(got8 == 0x0123456789abcdefl && got9 == 0x1122334455667788l && got10 == -3,
		  "r8, r9, r10 survive the handler", "r8 %#lx r9 %#lx r10 %#lx", got8, got9, got10);
	tap_check(x == 3.141592653589793, "an SSE register survives the handler's floating point",
		  "%.17g", x);
	signal(SIGUSR1, SIG_DFL);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void alarm_pause(void)
{
	struct timespec t0;
	double secs;
	long left;
	int r;

	hits = 0;
	handle(SIGALRM, record, 0, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	alarm_syscall(1);
	errno = 0;
	r = pause();
	secs = seconds_since(&t0);
	tap_check(r == -1 && errno == EINTR && hits == 1 && last_signo == SIGALRM,
		  "alarm(1): SIGALRM ends pause() with EINTR", "pause %d, %s, hits %d", r,
		  strerror(errno), (int)hits);
	tap_check(secs > 0.5 && secs < 10, "after about a second", "%.3f s", secs);
	alarm_syscall(100);
	left = alarm_syscall(0);
	tap_check(left == 100 || left == 99, "alarm(0) cancels and returns the seconds left",
		  "returned %ld", left);
}

static int restart_pipe[2];

static void feed_pipe(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	hits++;
	write(restart_pipe[1], "r", 1);
}

static void restart(void)
{
	char c = 0;
	ssize_t n;

	test_pipe(restart_pipe);
	hits = 0;
	handle(SIGALRM, feed_pipe, SA_RESTART, NULL);
	alarm_syscall(1);
	n = read(restart_pipe[0], &c, 1);
	tap_check(n == 1 && c == 'r' && hits == 1,
		  "SA_RESTART: a pipe read interrupted by SIGALRM is restarted",
		  "read %zd (%s), byte %#x, handler ran %d times", n, n < 0 ? strerror(errno) : "",
		  (unsigned char)c, (int)hits);

	hits = 0;
	handle(SIGALRM, record, 0, NULL);
	alarm_syscall(1);
	errno = 0;
	n = read(restart_pipe[0], &c, 1);
	tap_check(n == -1 && errno == EINTR && hits == 1,
		  "without SA_RESTART the read fails with EINTR", "read %zd, %s, handler ran %d times",
		  n, strerror(errno), (int)hits);
	signal(SIGALRM, SIG_DFL);
	close(restart_pipe[0]);
	close(restart_pipe[1]);
}

int main(void)
{
	siginfo_and_kill();
	masks();
	blocked_then_delivered();
	sigchld();
	faults();
	alternate_stack();
	registers_survive();
	alarm_pause();
	restart();
	return tap_done();
}
