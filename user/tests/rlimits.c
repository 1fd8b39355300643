/*
 * rlimits: resource limits are per process and behave as on Linux.
 *
 *   get and set      setrlimit's new soft limit is what getrlimit and
 *                    prlimit64 report, and /proc/self/limits shows it;
 *                    a soft limit above the hard one is EINVAL, an
 *                    RLIMIT_NOFILE beyond nr_open EPERM, and root may
 *                    raise a hard limit it lowered
 *   another pid      prlimit64 sets a child's limit, which the child
 *                    then sees, and hands back the old one
 *   fork and exec    a child inherits the limits, and they survive
 *                    execve: busybox's `ulimit -Sn`, `ulimit -Ss` show
 *                    them, and its `ulimit -n N`, `ulimit -s N` set them
 *   RLIMIT_NOFILE    open takes descriptors below the limit only, the
 *                    next is EMFILE (dup and pipe too); dup2 to the
 *                    limit is EBADF; a descriptor open above a lowered
 *                    limit stays usable
 *   RLIMIT_FSIZE     a write crossing the limit stops there, the next
 *                    and a growing ftruncate are EFBIG with SIGXFSZ
 *                    ignored; at its default action SIGXFSZ kills
 *   RLIMIT_STACK     a child recursing 4 KiB a level under a 512 KiB
 *                    limit gets that deep, no deeper, and dies of
 *                    SIGSEGV
 *   RLIMIT_CPU       a busy child is killed by SIGXCPU at a soft limit
 *                    of 1 s; one that ignores SIGXCPU sees its soft
 *                    limit moved up a second, and dies of SIGKILL at the
 *                    hard limit of 2 s
 *   MCL_FUTURE       after mlockall(MCL_FUTURE) a new mapping counts in
 *                    VmLck (/proc/self/status); a forked child's new
 *                    mappings do not, nor a program it execs, nor any
 *                    after munlockall
 *
 * Children report through a shared anonymous page (or a pipe) and the
 * parent makes the checks.  Everything runs on the build machine too;
 * what needs privilege there (raising a hard limit needs
 * CAP_SYS_RESOURCE, which root in a container may lack; mlockall may be
 * refused) and what needs busybox or /proc/self/limits is skipped with
 * the reason when missing.  On Pageturn everyone is root with every
 * capability, so nothing is skipped once /proc/PID/limits exists.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define BUSYBOX		"/bin/busybox"
#define NOFILE_LIMIT	10		/* the descriptor test's soft limit */
#define FD_ABOVE	20		/* open before the limit is lowered below it */
#define STACK_LIMIT	(512ul << 10)	/* the stack test's RLIMIT_STACK */
#define FRAME		4096ul		/* stack bytes per level of recurse() */
#define LOCK_BYTES	(4ul << 12)	/* mapped under MCL_FUTURE */
#define CAP_SYS_RESOURCE 24		/* raising a hard limit needs it */

/* What the children tell the parent: one group of fields per test. */
struct shared {
	struct rlimit seen;		/* a child's getrlimit */
	int err;			/* an errno a child saw */
	/* RLIMIT_NOFILE */
	int last_fd, open_errno, dup_errno, pipe_errno, dup2_errno, dup2_below;
	int above_usable, above_closed;
	/* RLIMIT_FSIZE */
	ssize_t fsize_first, fsize_second;
	int fsize_second_errno, fsize_trunc, fsize_trunc_errno, fsize_shrink;
	/* RLIMIT_STACK */
	unsigned long stack_top, lowest, depth;
	/* RLIMIT_CPU: written by a signal handler, read by the loop it interrupts */
	volatile int xcpu_seen;
	volatile unsigned long cpu_soft_after;
	/* MCL_FUTURE */
	long lck_before, lck_after, lck_child, lck_unlocked;
};

static struct shared *sh;
/* recurse()'s bound: far beyond any stack, but it keeps the compiler
 * from seeing a recursion without end. */
static volatile unsigned long max_depth = 1ul << 30;

/* The kB of a "Name:   N kB" line of /proc/self/status, or -1. */
static long status_kb(const char *name)
{
	char buf[4096];
	const char *p;

	if (read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, name);
	return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

/* Is capability cap in this process's effective set (CapEff of
 * /proc/self/status)?  Root in a container may lack some. */
static int capable(int cap)
{
	char buf[4096];
	const char *p;

	if (read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "CapEff:");
	return p && (strtoull(p + 7, NULL, 16) >> cap & 1);
}

/* Run fn in a child with the shared page zeroed; its wait status. */
static int run_child(void (*fn)(void))
{
	int status;
	pid_t pid;

	memset(sh, 0, sizeof(*sh));
	pid = test_fork();
	if (pid == 0) {
		fn();
		_exit(0);
	}
	test_wait(pid, &status, 0);
	return status;
}

static int exited_zero(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- get and set ------------------------------------------------------------- */

/* Does /proc/self/limits show soft and hard for "Max open files"? 1 yes,
 * 0 no, -1 when the file does not exist. */
static int limits_file_shows(const struct rlimit *want, char *got, size_t size)
{
	char buf[4096], soft[32], hard[32], want_soft[32], want_hard[32];
	const char *line;

	if (read_file("/proc/self/limits", buf, sizeof(buf)) < 0)
		return -1;
	line = strstr(buf, "Max open files");
	if (!line || sscanf(line + 26, "%31s %31s", soft, hard) != 2) {
		snprintf(got, size, "no \"Max open files\" line");
		return 0;
	}
	snprintf(got, size, "%s %s", soft, hard);
	snprintf(want_soft, sizeof(want_soft), "%lu", (unsigned long)want->rlim_cur);
	if (want->rlim_max == RLIM_INFINITY)
		snprintf(want_hard, sizeof(want_hard), "unlimited");
	else
		snprintf(want_hard, sizeof(want_hard), "%lu", (unsigned long)want->rlim_max);
	return !strcmp(soft, want_soft) && !strcmp(hard, want_hard);
}

static void child_inherit(void)
{
	getrlimit(RLIMIT_NOFILE, &sh->seen);
}

/* Lower the hard limit, then raise it again: root may (CAP_SYS_RESOURCE). */
static void child_raise_hard(void)
{
	struct rlimit low = { 40, 50 }, high = { 40, 60 };

	if (setrlimit(RLIMIT_NOFILE, &low))
		sh->err = errno;
	else if (setrlimit(RLIMIT_NOFILE, &high))
		sh->err = errno;
	getrlimit(RLIMIT_NOFILE, &sh->seen);
}

static void test_get_set(void)
{
	struct rlimit orig, r, low, bad;
	char got[80];
	int status, shown;

	if (getrlimit(RLIMIT_NOFILE, &orig))
		tap_bail("getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	low.rlim_cur = 40;
	low.rlim_max = orig.rlim_max;
	tap_check(setrlimit(RLIMIT_NOFILE, &low) == 0, "setrlimit lowers the soft RLIMIT_NOFILE",
		  "%s", strerror(errno));
	getrlimit(RLIMIT_NOFILE, &r);
	tap_check(r.rlim_cur == 40 && r.rlim_max == orig.rlim_max, "getrlimit reports it",
		  "%lu %lu", (unsigned long)r.rlim_cur, (unsigned long)r.rlim_max);
	memset(&r, 0, sizeof(r));
	tap_check(prlimit(getpid(), RLIMIT_NOFILE, NULL, &r) == 0 && r.rlim_cur == 40,
		  "prlimit64 on the caller's own pid reports it", "%lu", (unsigned long)r.rlim_cur);

	shown = limits_file_shows(&low, got, sizeof(got));
	if (shown < 0)
		tap_skip("/proc/self/limits shows it", "no /proc/self/limits here");
	else
		tap_check(shown, "/proc/self/limits shows it", "shows %s", got);

	status = run_child(child_inherit);
	tap_check(exited_zero(status) && sh->seen.rlim_cur == 40 &&
		  sh->seen.rlim_max == orig.rlim_max, "a forked child inherits it",
		  "the child sees %lu %lu", (unsigned long)sh->seen.rlim_cur,
		  (unsigned long)sh->seen.rlim_max);

	bad.rlim_cur = 41;
	bad.rlim_max = 40;
	errno = 0;
	tap_check(setrlimit(RLIMIT_NOFILE, &bad) == -1 && errno == EINVAL,
		  "a soft limit above the hard one is EINVAL", "errno %d", errno);
	bad.rlim_cur = bad.rlim_max = RLIM_INFINITY;
	errno = 0;
	tap_check(setrlimit(RLIMIT_NOFILE, &bad) == -1 && errno == EPERM,
		  "an unlimited RLIMIT_NOFILE is EPERM (above nr_open)", "errno %d", errno);
	getrlimit(RLIMIT_NOFILE, &r);
	tap_check(r.rlim_cur == 40 && r.rlim_max == orig.rlim_max, "the refusals changed nothing",
		  "%lu %lu", (unsigned long)r.rlim_cur, (unsigned long)r.rlim_max);
	errno = 0;
	tap_check(getrlimit(RLIM_NLIMITS, &r) == -1 && errno == EINVAL,
		  "getrlimit of an unknown resource is EINVAL", "errno %d", errno);
	setrlimit(RLIMIT_NOFILE, &orig);

	status = run_child(child_raise_hard);
	if (!capable(CAP_SYS_RESOURCE))
		tap_skip("root raises a hard limit again", "no CAP_SYS_RESOURCE here");
	else
		tap_check(exited_zero(status) && !sh->err && sh->seen.rlim_max == 60,
			  "root raises a hard limit again", "errno %d, hard limit %lu", sh->err,
			  (unsigned long)sh->seen.rlim_max);
}

/* ---- another pid ------------------------------------------------------------- */

static void test_other_pid(void)
{
	struct rlimit orig, set = { 20, 30 }, old = { 0, 0 }, r = { 0, 0 };
	int go[2], status;
	char c;
	pid_t pid;

	getrlimit(RLIMIT_NOFILE, &orig);
	memset(sh, 0, sizeof(*sh));
	test_pipe(go);
	pid = test_fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		getrlimit(RLIMIT_NOFILE, &sh->seen);
		_exit(0);
	}
	close(go[0]);
	tap_check(prlimit(pid, RLIMIT_NOFILE, &set, &old) == 0 && old.rlim_cur == orig.rlim_cur &&
		  old.rlim_max == orig.rlim_max,
		  "prlimit64 sets another process's limit and returns the old one",
		  "errno %d, old %lu %lu", errno, (unsigned long)old.rlim_cur,
		  (unsigned long)old.rlim_max);
	tap_check(prlimit(pid, RLIMIT_NOFILE, NULL, &r) == 0 && r.rlim_cur == 20 && r.rlim_max == 30,
		  "prlimit64 reads it back", "%lu %lu", (unsigned long)r.rlim_cur,
		  (unsigned long)r.rlim_max);
	if (write(go[1], "x", 1) != 1)
		tap_bail("write to the child: %s", strerror(errno));
	close(go[1]);
	test_wait(pid, &status, 0);
	tap_check(exited_zero(status) && sh->seen.rlim_cur == 20 && sh->seen.rlim_max == 30,
		  "the child sees its new limit", "%lu %lu", (unsigned long)sh->seen.rlim_cur,
		  (unsigned long)sh->seen.rlim_max);
	getrlimit(RLIMIT_NOFILE, &r);
	tap_check(r.rlim_cur == orig.rlim_cur, "the parent's own limit is unchanged", "%lu",
		  (unsigned long)r.rlim_cur);
}

/* ---- exec -------------------------------------------------------------------- */

/* The child: limits lowered, then busybox's ulimit reports them and sets
 * new ones; its output goes to fd out. */
__attribute__((noreturn)) static void exec_ulimit(int out)
{
	struct rlimit nofile, stack;
	char *argv[] = { BUSYBOX, "sh", "-c",
			 "ulimit -Sn; ulimit -Ss; ulimit -n 32; ulimit -s 1024; ulimit -n; ulimit -s",
			 NULL };

	getrlimit(RLIMIT_NOFILE, &nofile);
	getrlimit(RLIMIT_STACK, &stack);
	nofile.rlim_cur = 100;
	stack.rlim_cur = 512 << 10;
	if (setrlimit(RLIMIT_NOFILE, &nofile) || setrlimit(RLIMIT_STACK, &stack))
		_exit(2);
	dup2(out, 1);
	execv(BUSYBOX, argv);
	_exit(127);
}

static void test_exec(void)
{
	char buf[256];
	int p[2], status;
	long n;
	pid_t pid;

	if (access(BUSYBOX, X_OK)) {
		tap_skip("the limits survive execve (busybox ulimit -Sn, -Ss)", "no " BUSYBOX);
		tap_skip("busybox ulimit -n and -s set them", "no " BUSYBOX);
		return;
	}
	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		close(p[0]);
		exec_ulimit(p[1]);
	}
	close(p[1]);
	n = read_full(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = '\0';
	test_wait(pid, &status, 0);
	tap_check(exited_zero(status) && !strncmp(buf, "100\n512\n", 8),
		  "the limits survive execve (busybox ulimit -Sn, -Ss)", "status %d, output \"%s\"",
		  status, buf);
	tap_check(exited_zero(status) && !strcmp(buf + (n >= 8 ? 8 : 0), "32\n1024\n"),
		  "busybox ulimit -n and -s set them", "output \"%s\"", buf);
}

/* ---- RLIMIT_NOFILE --------------------------------------------------------------- */

static void child_nofile(void)
{
	struct rlimit r;
	int fd, p[2];

	getrlimit(RLIMIT_NOFILE, &r);
	for (fd = 3; fd < FD_ABOVE + 1; fd++)
		close(fd);
	if (dup2(0, FD_ABOVE) != FD_ABOVE)
		_exit(2);
	r.rlim_cur = NOFILE_LIMIT;
	if (setrlimit(RLIMIT_NOFILE, &r))
		_exit(3);
	sh->last_fd = -1;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		sh->last_fd = fd;
	sh->open_errno = errno;
	sh->dup_errno = dup(0) < 0 ? errno : 0;
	sh->pipe_errno = pipe(p) < 0 ? errno : 0;
	sh->dup2_errno = dup2(0, NOFILE_LIMIT) < 0 ? errno : 0;
	close(NOFILE_LIMIT - 1);
	sh->dup2_below = dup2(0, NOFILE_LIMIT - 1);
	sh->above_usable = fcntl(FD_ABOVE, F_GETFD) >= 0;
	sh->above_closed = close(FD_ABOVE) == 0;
}

static void test_nofile(void)
{
	int status = run_child(child_nofile);

	tap_check(exited_zero(status), "the descriptor child ran", "status %d", status);
	tap_check(sh->last_fd == NOFILE_LIMIT - 1 && sh->open_errno == EMFILE,
		  "open gives descriptors up to RLIMIT_NOFILE - 1, then EMFILE",
		  "last fd %d, then errno %d", sh->last_fd, sh->open_errno);
	tap_check(sh->dup_errno == EMFILE && sh->pipe_errno == EMFILE,
		  "dup and pipe at the limit: EMFILE", "errno %d, %d", sh->dup_errno,
		  sh->pipe_errno);
	tap_check(sh->dup2_errno == EBADF, "dup2 to the limit: EBADF", "errno %d",
		  sh->dup2_errno);
	tap_check(sh->dup2_below == NOFILE_LIMIT - 1, "dup2 just below the limit works", "got %d",
		  sh->dup2_below);
	tap_check(sh->above_usable && sh->above_closed,
		  "a descriptor above a lowered limit stays usable and closes", NULL);
}

/* ---- RLIMIT_FSIZE ---------------------------------------------------------------- */

#define FSIZE_LIMIT	10000
#define FSIZE_FILE	"/tmp/rlimits.fsize"

/* With SIGXFSZ ignored: a write crossing the limit is cut short there,
 * the next one fails with EFBIG, and so does growing the file past it
 * with ftruncate; shrinking still works. */
static void child_fsize(void)
{
	static char buf[2 * FSIZE_LIMIT];
	struct rlimit r = { FSIZE_LIMIT, FSIZE_LIMIT };
	int fd;

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &r))
		_exit(2);
	fd = open(FSIZE_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		_exit(3);
	sh->fsize_first = write(fd, buf, sizeof(buf));
	errno = 0;
	sh->fsize_second = write(fd, buf, 1);
	sh->fsize_second_errno = errno;
	errno = 0;
	sh->fsize_trunc = ftruncate(fd, FSIZE_LIMIT + 1);
	sh->fsize_trunc_errno = errno;
	sh->fsize_shrink = ftruncate(fd, 10);
	close(fd);
	_exit(0);
}

/* The same write with SIGXFSZ at its default action kills the writer. */
static void child_fsize_killed(void)
{
	struct rlimit r = { 0, 0 };
	int fd = open(FSIZE_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || setrlimit(RLIMIT_FSIZE, &r))
		_exit(2);
	write(fd, "x", 1);
	_exit(0);
}

static void test_fsize(void)
{
	char buf[64];
	int status = run_child(child_fsize);

	tap_check(exited_zero(status), "the RLIMIT_FSIZE child ran", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	tap_check(sh->fsize_first == FSIZE_LIMIT, "a write crossing RLIMIT_FSIZE stops at it",
		  "wrote %ld", (long)sh->fsize_first);
	tap_check(sh->fsize_second == -1 && sh->fsize_second_errno == EFBIG,
		  "a write at RLIMIT_FSIZE: EFBIG", "returned %ld, errno %d",
		  (long)sh->fsize_second, sh->fsize_second_errno);
	tap_check(sh->fsize_trunc == -1 && sh->fsize_trunc_errno == EFBIG,
		  "ftruncate past RLIMIT_FSIZE: EFBIG", "returned %d, errno %d",
		  sh->fsize_trunc, sh->fsize_trunc_errno);
	tap_check(sh->fsize_shrink == 0, "ftruncate below it works", "returned %d",
		  sh->fsize_shrink);
	status = run_child(child_fsize_killed);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ,
		  "a write past RLIMIT_FSIZE with SIGXFSZ at its default: killed by SIGXFSZ",
		  "%s", test_status_str(status, buf, sizeof(buf)));
	unlink(FSIZE_FILE);
}

/* ---- RLIMIT_STACK ---------------------------------------------------------------- */

/* Each level takes a little under FRAME bytes of stack, touches its
 * lowest byte and records how deep it got. */
__attribute__((noinline)) static void recurse(unsigned long depth)
{
	volatile char frame[FRAME - 128];

	frame[0] = 1;
	sh->lowest = (unsigned long)&frame[0];
	sh->depth = depth;
	if (depth < max_depth)
		recurse(depth + 1);
	frame[1] = 2;		/* no tail call */
}

/* The end of [stack] in /proc/self/maps, or 0. */
static unsigned long stack_top(void)
{
	char buf[8192], *line;
	unsigned long lo, hi;

	if (read_file("/proc/self/maps", buf, sizeof(buf)) < 0)
		return 0;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			return hi;
	return 0;
}

static void child_stack(void)
{
	struct rlimit r;

	getrlimit(RLIMIT_STACK, &r);
	r.rlim_cur = STACK_LIMIT;
	if (setrlimit(RLIMIT_STACK, &r))
		_exit(2);
	sh->stack_top = stack_top();
	recurse(1);
}

static void test_stack(void)
{
	char buf[64];
	int status = run_child(child_stack);
	unsigned long used = sh->stack_top - sh->lowest;

	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		  "stack growth beyond RLIMIT_STACK: SIGSEGV", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	tap_check(sh->stack_top && used <= STACK_LIMIT && used > STACK_LIMIT - 2 * FRAME,
		  "the stack grew to the limit, not beyond", "%lu bytes at depth %lu (limit %lu)",
		  used, sh->depth, STACK_LIMIT);
}

/* ---- RLIMIT_CPU --------------------------------------------------------------------- */

static void on_xcpu(int sig)
{
	(void)sig;
	sh->xcpu_seen = 1;
}

/* Spin with CPU limits soft and hard; after the first SIGXCPU (if
 * caught), note the soft limit getrlimit shows. */
static void spin_under(rlim_t soft, rlim_t hard)
{
	struct rlimit r = { soft, hard };

	if (setrlimit(RLIMIT_CPU, &r))
		_exit(2);
	for (;;) {
		if (sh->xcpu_seen && !sh->cpu_soft_after) {
			getrlimit(RLIMIT_CPU, &r);
			sh->cpu_soft_after = r.rlim_cur;
		}
	}
}

static void child_cpu_soft(void)
{
	spin_under(1, RLIM_INFINITY);
}

static void child_cpu_hard(void)
{
	struct sigaction sa = { .sa_handler = on_xcpu };

	sigaction(SIGXCPU, &sa, NULL);
	spin_under(1, 2);
}

static void test_cpu(void)
{
	char buf[64];
	int status;

	status = run_child(child_cpu_soft);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU,
		  "a second of CPU time under RLIMIT_CPU 1: SIGXCPU", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	status = run_child(child_cpu_hard);
	tap_check(sh->xcpu_seen && sh->cpu_soft_after == 2,
		  "SIGXCPU caught: the soft limit moved up a second", "caught %d, soft limit %lu",
		  sh->xcpu_seen, sh->cpu_soft_after);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "at the hard limit: SIGKILL", "%s", test_status_str(status, buf, sizeof(buf)));
}

/* ---- MCL_FUTURE ------------------------------------------------------------------------ */

static void *map_anon(void)
{
	return mmap(NULL, LOCK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* mlockall(MCL_FUTURE), a new mapping; a forked child's new mapping;
 * then exec of busybox grep VmLck, whose output goes to fd out. */
__attribute__((noreturn)) static void child_future(int out)
{
	char *argv[] = { BUSYBOX, "grep", "VmLck", "/proc/self/status", NULL };
	int status;
	pid_t pid;

	sh->lck_before = status_kb("VmLck:");
	if (mlockall(MCL_FUTURE)) {
		sh->err = errno;
		_exit(0);
	}
	if (map_anon() == MAP_FAILED)
		_exit(2);
	sh->lck_after = status_kb("VmLck:");
	pid = fork();
	if (pid == 0) {
		if (map_anon() == MAP_FAILED)
			_exit(2);
		sh->lck_child = status_kb("VmLck:");
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !exited_zero(status))
		_exit(3);
	dup2(out, 1);
	execv(BUSYBOX, argv);
	_exit(127);
}

static void child_unlocked(void)
{
	if (mlockall(MCL_FUTURE)) {
		sh->err = errno;
		return;
	}
	munlockall();
	sh->lck_before = status_kb("VmLck:");
	if (map_anon() == MAP_FAILED)
		_exit(2);
	sh->lck_unlocked = status_kb("VmLck:");
}

static void test_mcl_future(void)
{
	const long kb = LOCK_BYTES >> 10;
	char buf[256];
	int p[2], status;
	long n;
	pid_t pid;

	memset(sh, 0, sizeof(*sh));
	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		close(p[0]);
		child_future(p[1]);
	}
	close(p[1]);
	n = read_full(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = '\0';
	test_wait(pid, &status, 0);
	if (sh->err) {
		tap_skip("MCL_FUTURE locks a later mapping", strerror(sh->err));
		tap_skip("a forked child's mappings are not locked", strerror(sh->err));
		tap_skip("execve ends MCL_FUTURE", strerror(sh->err));
		tap_skip("munlockall ends MCL_FUTURE", strerror(sh->err));
		return;
	}
	tap_check(sh->lck_after - sh->lck_before == kb, "MCL_FUTURE locks a later mapping",
		  "VmLck %ld kB, then %ld kB", sh->lck_before, sh->lck_after);
	tap_check(sh->lck_child == 0, "a forked child's mappings are not locked", "VmLck %ld kB",
		  sh->lck_child);
	if (access(BUSYBOX, X_OK))
		tap_skip("execve ends MCL_FUTURE", "no " BUSYBOX);
	else
		tap_check(exited_zero(status) && strstr(buf, "VmLck:") &&
			  strtol(strstr(buf, "VmLck:") + 6, NULL, 10) == 0,
			  "execve ends MCL_FUTURE", "status %d, \"%s\"", status, buf);

	status = run_child(child_unlocked);
	if (sh->err)
		tap_skip("munlockall ends MCL_FUTURE", strerror(sh->err));
	else
		tap_check(exited_zero(status) && sh->lck_unlocked == sh->lck_before,
			  "munlockall ends MCL_FUTURE", "VmLck %ld kB, then %ld kB",
			  sh->lck_before, sh->lck_unlocked);
}

int main(void)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		tap_bail("mmap of the shared page: %s", strerror(errno));
	test_get_set();
	test_other_pid();
	test_exec();
	test_nofile();
	test_stack();
	test_fsize();
	test_cpu();
	test_mcl_future();
	return tap_done();
}
