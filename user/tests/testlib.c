/*
 * testlib: TAP output, child-process and file-reading helpers for the
 * user tests.
 *
 * State: the number of checks made so far and how many failed, per
 * process.  A child made by test_fork() inherits the counts; it should
 * report through its exit status (or a pipe) and leave with _exit(), so
 * that only the parent prints the plan.  stdout is line buffered by the
 * first tap_* call and flushed before every fork, so a line is written
 * once, whole, even when stdout is a pipe.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static int checks, failures, buffering_set;

static void line_buffered(void)
{
	if (!buffering_set) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		buffering_set = 1;
	}
}

int tap_check(int cond, const char *what, const char *fmt, ...)
{
	va_list ap;

	line_buffered();
	checks++;
	if (cond) {
		printf("ok %d - %s\n", checks, what);
		return 1;
	}
	failures++;
	printf("not ok %d - %s", checks, what);
	if (fmt) {
		fputs(": ", stdout);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
	return 0;
}

void tap_skip(const char *what, const char *reason)
{
	line_buffered();
	checks++;
	printf("ok %d - %s # skip %s\n", checks, what, reason);
}

void tap_note(const char *fmt, ...)
{
	va_list ap;

	line_buffered();
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void tap_bail(const char *fmt, ...)
{
	va_list ap;

	line_buffered();
	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(1);
}

int tap_done(void)
{
	line_buffered();
	printf("1..%d\n", checks);
	fflush(stdout);
	return failures ? 1 : 0;
}

pid_t test_fork(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	return pid;
}

pid_t test_wait(pid_t pid, int *status, int flags)
{
	pid_t r;

	do
		r = waitpid(pid, status, flags);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		tap_bail("waitpid(%d): %s", (int)pid, strerror(errno));
	return r;
}

void test_pipe(int p[2])
{
	if (pipe(p) < 0)
		tap_bail("pipe: %s", strerror(errno));
}

static const char *const signal_names[] = {
	[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT",
	[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
	[SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL",
	[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
	[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
	[SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP",
	[SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN", [SIGTTOU] = "SIGTTOU",
	[SIGSYS] = "SIGSYS",
};

const char *test_signame(int sig)
{
	static char buf[24];

	if (sig > 0 && (size_t)sig < sizeof(signal_names) / sizeof(signal_names[0]) &&
	    signal_names[sig])
		return signal_names[sig];
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

const char *test_status_str(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by %s", test_signame(WTERMSIG(status)));
	else if (WIFSTOPPED(status))
		snprintf(buf, size, "stopped by %s", test_signame(WSTOPSIG(status)));
	else if (WIFCONTINUED(status))
		snprintf(buf, size, "continued");
	else
		snprintf(buf, size, "wait status 0x%x", (unsigned)status);
	return buf;
}

ssize_t write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return done;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

ssize_t read_file_fd(int fd, char *buf, size_t size)
{
	ssize_t n = read_full(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n;
}

ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		buf[0] = '\0';
		return -1;
	}
	n = read_file_fd(fd, buf, size);
	close(fd);
	return n;
}

long proc_field(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, name, len) && (line[len] == ':' || line[len] == ' '))
			return strtol(line + len + 1, NULL, 10);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

int proc_pids(int *pids, int max)
{
	static char buf[32768];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY), count = 0;
	long n;

	if (fd < 0)
		tap_bail("open /proc: %s", strerror(errno));
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			char *end;
			long pid = strtol(d->d_name, &end, 10);

			off += d->d_reclen;
			if (*end || pid <= 0)
				continue;
			if (count < max)
				pids[count] = pid;
			count++;
		}
	if (n < 0)
		tap_bail("getdents64 /proc: %s", strerror(errno));
	close(fd);
	return count;
}

uint64_t fnv1a(uint64_t hash, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		hash = (hash ^ *p++) * 0x100000001b3ull;
	return hash;
}

const char *root_path(const char *path)
{
	static char buf[4096];
	const char *root = getenv("PAGETURN_ROOT");

	snprintf(buf, sizeof(buf), "%s%s", root ? root : "", path);
	return buf;
}

int on_pageturn(void)
{
	struct utsname u;

	return uname(&u) == 0 && !strcmp(u.sysname, "Pageturn");
}

long meminfo_kb(const char *name)
{
	static char buf[8192];

	if (read_file("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -1;
	return proc_field(buf, name);
}

long vmstat_value(const char *name)
{
	static char buf[16384];

	if (read_file("/proc/vmstat", buf, sizeof(buf)) <= 0)
		return -1;
	return proc_field(buf, name);
}

unsigned long long diskstats_sectors(int write)
{
	unsigned long long v[7], total = 0;
	unsigned int major, minor;
	char line[512], name[64];
	FILE *f = fopen("/proc/diskstats", "r");

	if (!f)
		tap_bail("open /proc/diskstats: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu", &major, &minor,
			   name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) == 10)
			total += v[write ? 6 : 2];
	fclose(f);
	return total;
}

int oom_test_machine(void)
{
	long total = meminfo_kb("MemTotal");

	return on_pageturn() && total > 0 && total <= OOM_TEST_MAX_KB;
}

int touch_anon_kb(long kb)
{
	size_t len = (size_t)kb * 1024;
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	for (size_t off = 0; off < len; off += 4096)
		p[off] = 1;
	return 0;
}

const char *ext2_scratch(void)
{
	if (!on_pageturn())
		return "/tmp";
	/* ENOENT: no vda; EBUSY: mounted already (by an earlier test). */
	if (mount("/dev/vda", "/mnt", "ext2", 0, NULL) == 0 || errno == EBUSY)
		return "/mnt";
	return "/";
}
