/*
 * leaks: doing something and undoing it, many times over, gives back
 * every page and every kernel object it took.
 *
 * Each phase repeats one round trip N times: fork and exit; fork and
 * exec of /bin/true; vfork and exec; a pipe made, used and closed;
 * anonymous and file mappings faulted in and unmapped; copy-on-write
 * after fork; a child killed by SIGSEGV; files in /tmp opened, made and
 * unlinked; files in /proc opened and read; and, alone on a machine
 * small enough for it (MemTotal at most 128 MiB on Pageturn: the oom
 * QEMU case), a child killed by the OOM killer, 50 times.  Before and
 * after the N
 * round trips the test samples the kernel's counters:
 *
 *   MemFree, Slab, SUnreclaim, KernelStack      /proc/meminfo (kB)
 *   nr_free_pages, nr_page_table_pages,
 *   nr_anon_pages, nr_mapped, nr_file_pages     /proc/vmstat (pages)
 *   pid directories                             /proc (getdents64)
 *   open descriptors                            this process (fcntl F_GETFD)
 *
 * A round trip that keeps one page (a page table, a stack, an anonymous
 * or page-cache page) moves a page counter by N pages; one that keeps a
 * task moves KernelStack by 4 pages and the pid directories by one per
 * round trip; one that keeps a kernel object of s bytes moves Slab by
 * N * s bytes.  Every phase but the OOM kills (50) has N >= 200, far beyond SLACK_PAGES, and
 * the cheap phases (fork and exit, pipes, mappings, files) run 600 to
 * 2000 times, so that an object of a few dozen bytes left per round trip
 * adds up beyond SLAB_SLACK_PAGES too; each phase prints the smallest
 * object it would catch.  Every phase is measured apart, so a leak names
 * the operation that leaks; the whole run is also measured from the
 * first sample to the last.
 *
 * The slack.  Before the first sample each phase runs WARMUP times (the
 * warm-up round) and the test samples once, so that what stays
 * legitimately (busybox's pages in the page cache, slabs grown for the
 * objects a phase uses at once, the test's own heap, stack, buffers and
 * page tables) is already there.  What may still differ between two
 * samples taken at the same point of a loop, on a quiet system, is
 * bounded and does not grow with N:
 *   - each slab cache keeps at most one empty slab (mm/slab.c), present
 *     or not depending on where its objects fell; the largest slab of
 *     a kmalloc cache is kmalloc-4096's, order 3: SLAB_SLACK_PAGES = 8;
 *   - a page table of this process, a kernel stack freed late (the
 *     kernel frees a dead task's stack from the next task to run), a
 *     page or two of the test's own data touched for the first time;
 *   - the kernel's own threads (the flusher) allocating for a moment.
 * So each page counter may move by at most SLACK_PAGES (16 pages) either
 * way, Slab and SUnreclaim by SLAB_SLACK_PAGES, and the counts of pid
 * directories and descriptors must come back exactly.  A counter that
 * goes down N times is an accounting bug as much as one that goes up,
 * hence "either way".  (Measured on Pageturn: every phase moves every
 * counter by 0; when this test runs alone, the fork+exec phase grows
 * Slab once by 2 pages, the same with 200 or 2000 round trips.)
 *
 * On the build machine (uname -s is not "Pageturn") other work allocates
 * and frees all the time: the loops run and the numbers are printed, but
 * the comparisons are skipped (tap_skip).  On Pageturn's test boot init
 * and the runner sleep in wait and nothing else runs.
 *
 * Sampling allocates nothing in this process: files are read with
 * open/read into static buffers and /proc is listed with getdents64.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SLACK_PAGES	16
#define SLAB_SLACK_PAGES 8
#define WARMUP		8
#define MAP_PAGES	16		/* pages per mapping in the mmap phases */
#define FD_SCAN		1024		/* descriptors counted: 0 .. FD_SCAN-1 */
#define PAGE_KB		(PAGE_SIZE / 1024)
#define TRUE_PATH	"/bin/true"
#define TMP_FILE	"/tmp/leaks.data"
#define TMP_NEW		"/tmp/leaks.new"

/* 1 on Pageturn, where the checks are exact; 0 on the build machine. */
static int quiet;
/* /test/data.bin (ext2 on Pageturn), for the file mappings. */
static char data_path[4096];

enum counter_id {
	C_MEMFREE, C_FREE_PAGES, C_PAGETABLES, C_ANON, C_MAPPED, C_FILE,
	C_SLAB, C_SUNRECLAIM, C_KSTACK, C_PIDS, C_FDS, NR_COUNTERS
};

enum counter_source { MEMINFO_KB, VMSTAT_PAGES, PID_DIRS, OPEN_FDS };

struct counter {
	const char *name;
	enum counter_source source;
	long slack;			/* in the counter's unit (pages or a count) */
};

static const struct counter counters[NR_COUNTERS] = {
	[C_MEMFREE]	= { "MemFree", MEMINFO_KB, SLACK_PAGES },
	[C_FREE_PAGES]	= { "nr_free_pages", VMSTAT_PAGES, SLACK_PAGES },
	[C_PAGETABLES]	= { "nr_page_table_pages", VMSTAT_PAGES, SLACK_PAGES },
	[C_ANON]	= { "nr_anon_pages", VMSTAT_PAGES, SLACK_PAGES },
	[C_MAPPED]	= { "nr_mapped", VMSTAT_PAGES, SLACK_PAGES },
	[C_FILE]	= { "nr_file_pages", VMSTAT_PAGES, SLACK_PAGES },
	[C_SLAB]	= { "Slab", MEMINFO_KB, SLAB_SLACK_PAGES },
	[C_SUNRECLAIM]	= { "SUnreclaim", MEMINFO_KB, SLAB_SLACK_PAGES },
	[C_KSTACK]	= { "KernelStack", MEMINFO_KB, SLACK_PAGES },
	[C_PIDS]	= { "pid directories", PID_DIRS, 0 },
	[C_FDS]		= { "open descriptors", OPEN_FDS, 0 },
};

/* The counters at one moment, in pages (memory) or counts. */
struct sample {
	long v[NR_COUNTERS];
};

/* Read the file at path into buf (read_file); bails out on failure. */
static void read_path(const char *path, char *buf, size_t size)
{
	ssize_t n = read_file(path, buf, size);

	if (n <= 0)
		tap_bail("read %s: %s", path, n < 0 ? strerror(errno) : "empty");
}

/* This process's open descriptors. */
static long count_fds(void)
{
	long count = 0;

	for (int fd = 0; fd < FD_SCAN; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			count++;
	return count;
}

static void take_sample(struct sample *s)
{
	static char meminfo[8192], vmstat[32768];

	read_path("/proc/meminfo", meminfo, sizeof(meminfo));
	read_path("/proc/vmstat", vmstat, sizeof(vmstat));
	for (int i = 0; i < NR_COUNTERS; i++) {
		const struct counter *c = &counters[i];
		long v;

		switch (c->source) {
		case MEMINFO_KB:
			v = proc_field(meminfo, c->name);
			if (v < 0)
				tap_bail("/proc/meminfo has no %s line", c->name);
			v /= PAGE_KB;
			break;
		case VMSTAT_PAGES:
			v = proc_field(vmstat, c->name);
			if (v < 0)
				tap_bail("/proc/vmstat has no %s line", c->name);
			break;
		case PID_DIRS:
			v = proc_pids(NULL, 0);
			break;
		default:
			v = count_fds();
			break;
		}
		s->v[i] = v;
	}
}

/* The counters that moved beyond their slack from a to b, in words, into
 * buf; returns how many. */
static int moved(const struct sample *a, const struct sample *b, char *buf, size_t size)
{
	int bad = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < NR_COUNTERS; i++) {
		long d = b->v[i] - a->v[i];

		if (labs(d) <= counters[i].slack)
			continue;
		bad++;
		if (len < size)
			len += snprintf(buf + len, size - len, "%s%s %+ld", bad > 1 ? ", " : "",
					counters[i].name, d);
	}
	return bad;
}

/* One line of TAP diagnostics: every counter's change from a to b. */
static void note_deltas(const char *what, int n, const struct sample *a, const struct sample *b)
{
	char buf[1024];
	size_t len = 0;

	for (int i = 0; i < NR_COUNTERS; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s %+ld", i ? ", " : "",
				counters[i].name, b->v[i] - a->v[i]);
	tap_note("%s x%d: %s (pages; counts for pids and descriptors)", what, n, buf);
}

/* ---- the round trips: each returns NULL if it went as it must, else why not ---- */

static const char *wait_for(pid_t pid, int want_sig)
{
	static char why[96];
	char got[64];
	int status;

	if (test_wait(pid, &status, 0) != pid)
		return "waitpid returned another child";
	if (want_sig ? (WIFSIGNALED(status) && WTERMSIG(status) == want_sig)
		     : (WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return NULL;
	snprintf(why, sizeof(why), "the child ended with %s",
		 test_status_str(status, got, sizeof(got)));
	return why;
}

static const char *fork_exit(void)
{
	pid_t pid = test_fork();

	if (pid == 0)
		_exit(0);
	return wait_for(pid, 0);
}

static const char *fork_exec(void)
{
	pid_t pid = test_fork();

	if (pid == 0) {
		execl(TRUE_PATH, "true", (char *)NULL);
		_exit(127);
	}
	return wait_for(pid, 0);
}

static const char *vfork_exec(void)
{
	pid_t pid;

	fflush(stdout);
	pid = vfork();
	if (pid < 0)
		return "vfork failed";
	if (pid == 0) {
		execl(TRUE_PATH, "true", (char *)NULL);
		_exit(127);
	}
	return wait_for(pid, 0);
}

static const char *pipe_round_trip(void)
{
	static char out[PAGE_SIZE], in[PAGE_SIZE];
	int p[2];
	const char *why = NULL;

	if (pipe(p) < 0)
		return "pipe failed";
	out[0]++;
	if (write(p[1], out, sizeof(out)) != (ssize_t)sizeof(out) ||
	    read_full(p[0], in, sizeof(in)) != (ssize_t)sizeof(in) || in[0] != out[0])
		why = "a page did not come through the pipe";
	close(p[0]);
	close(p[1]);
	return why;
}

/* Write one byte in each page of [map, map + pages * PAGE_SIZE). */
static void touch_pages(volatile char *map, int pages, char value)
{
	for (int i = 0; i < pages; i++)
		map[i * PAGE_SIZE] = value;
}

/* Each round trip gives its mapping an anon_vma (mm/rmap.c, 32 bytes in
 * its slab cache) and frees it again: 2000 round trips catch it. */
static const char *mmap_anon(void)
{
	char *map = mmap(NULL, MAP_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *why = NULL;

	if (map == MAP_FAILED)
		return "mmap failed";
	if (map[PAGE_SIZE])
		why = "a fresh anonymous page is not zero";
	touch_pages(map, MAP_PAGES, 1);
	if (munmap(map, MAP_PAGES * PAGE_SIZE) < 0)
		why = "munmap failed";
	return why;
}

/* Sum one byte of each page of a mapping (faults every page in). */
static unsigned read_pages(const volatile char *map, int pages)
{
	unsigned sum = 0;

	for (int i = 0; i < pages; i++)
		sum += (unsigned char)map[i * PAGE_SIZE];
	return sum;
}

/* A private mapping of data.bin (read, then written: copy-on-write of
 * file pages) and a shared writable mapping of the /tmp file; each file
 * is closed while mapped, so only the mapping holds it. */
static const char *mmap_file(void)
{
	int fd = open(data_path, O_RDONLY), tfd = open(TMP_FILE, O_RDWR);
	char *priv = MAP_FAILED, *shared = MAP_FAILED;
	const char *why = NULL;

	if (fd >= 0)
		priv = mmap(NULL, MAP_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (tfd >= 0)
		shared = mmap(NULL, MAP_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, tfd, 0);
	if (fd >= 0)
		close(fd);
	if (tfd >= 0)
		close(tfd);
	if (priv == MAP_FAILED || shared == MAP_FAILED) {
		why = "open or mmap failed";
	} else {
		read_pages(priv, MAP_PAGES);
		touch_pages(priv, MAP_PAGES / 2, 7);
		touch_pages(shared, MAP_PAGES, shared[0] + 1);
	}
	if (priv != MAP_FAILED)
		munmap(priv, MAP_PAGES * PAGE_SIZE);
	if (shared != MAP_FAILED)
		munmap(shared, MAP_PAGES * PAGE_SIZE);
	return why;
}

/* Anonymous pages and file pages mapped privately, shared by fork: the
 * child writes them all (copies), the parent writes its own afterwards
 * (the child is gone, so its pages are its own again). */
static const char *cow_fork(void)
{
	char *anon = mmap(NULL, MAP_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open(data_path, O_RDONLY);
	char *file = fd < 0 ? MAP_FAILED :
		mmap(NULL, MAP_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	const char *why = NULL;
	pid_t pid;

	if (fd >= 0)
		close(fd);
	if (anon == MAP_FAILED || file == MAP_FAILED) {
		why = "open or mmap failed";
		goto out;
	}
	touch_pages(anon, MAP_PAGES, 1);
	read_pages(file, MAP_PAGES);
	pid = test_fork();
	if (pid == 0) {
		touch_pages(anon, MAP_PAGES, 2);
		touch_pages(file, MAP_PAGES, 2);
		_exit(anon[0] == 2 && file[PAGE_SIZE] == 2 ? 0 : 1);
	}
	why = wait_for(pid, 0);
	if (!why && anon[0] != 1)
		why = "the child's write showed in the parent";
	touch_pages(anon, MAP_PAGES, 3);
out:
	if (anon != MAP_FAILED)
		munmap(anon, MAP_PAGES * PAGE_SIZE);
	if (file != MAP_FAILED)
		munmap(file, MAP_PAGES * PAGE_SIZE);
	return why;
}

static const char *segv_child(void)
{
	static volatile unsigned long null_address;
	pid_t pid = test_fork();

	if (pid == 0) {
		*(volatile int *)null_address = 1;
		_exit(0);
	}
	return wait_for(pid, SIGSEGV);
}

/* Open and close the /tmp file; make a new one with a page of data and
 * unlink it. */
static const char *tmp_files(void)
{
	static char page[PAGE_SIZE];
	int fd = open(TMP_FILE, O_RDWR);
	const char *why = NULL;

	if (fd < 0)
		return "open " TMP_FILE " failed";
	close(fd);
	fd = open(TMP_NEW, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return "create " TMP_NEW " failed";
	if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
		why = "write to " TMP_NEW " failed";
	close(fd);
	if (unlink(TMP_NEW) < 0)
		why = "unlink " TMP_NEW " failed";
	return why;
}

/* A child touching twice MemTotal of anonymous memory: the OOM killer
 * kills it (it is the biggest process), the report and all. */
static const char *oom_victim(void)
{
	static long total;
	pid_t pid;

	if (!total)
		total = meminfo_kb("MemTotal");
	pid = test_fork();
	if (pid == 0) {
		touch_anon_kb(2 * total);
		_exit(0);
	}
	return wait_for(pid, SIGKILL);
}

/* Open, read and close files of /proc, system-wide and this process's. */
static const char *proc_files(void)
{
	static const char *const paths[] = { "/proc/meminfo", "/proc/self/stat", "/proc/self/maps" };
	static char buf[16384];
	struct stat st;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int fd = open(paths[i], O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return "a /proc file could not be read";
	}
	if (stat("/proc/1/status", &st) < 0)
		return "stat /proc/1/status failed";
	return NULL;
}

struct phase {
	const char *name;
	const char *(*round_trip)(void);
	int n;
};

/* Each phase's N (see the top of the file): 200 and more; the cheap ones
 * far more, so that a small object per round trip adds up too. */
static const struct phase phases[] = {
	{ "fork+exit+wait", fork_exit, 800 },
	{ "fork+exec /bin/true+wait", fork_exec, 300 },
	{ "vfork+exec /bin/true+wait", vfork_exec, 300 },
	{ "pipe+write+read+close", pipe_round_trip, 2000 },
	{ "mmap+fault+munmap anonymous", mmap_anon, 2000 },
	{ "mmap+fault+munmap file (private COW, shared)", mmap_file, 2000 },
	{ "fork with COW of anonymous and file pages", cow_fork, 200 },
	{ "child killed by SIGSEGV", segv_child, 200 },
	{ "open+close, create+unlink in /tmp", tmp_files, 2000 },
	{ "open+read+close in /proc", proc_files, 600 },
};

/* On a machine small enough for the OOM tests (oom_test_machine, the
 * QEMU case at -m 64M) only this phase runs: the others ran on the big
 * boot, and 50 OOM kills need a small machine to be quick. */
static const struct phase oom_phases[] = {
	{ "child killed by the OOM killer", oom_victim, 50 },
};

/* Run a phase n times; returns how many round trips went wrong, and the
 * reason of the last in *why. */
static int run_phase(const struct phase *ph, int n, const char **why)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		const char *w = ph->round_trip();

		if (w) {
			bad++;
			*why = w;
		}
	}
	return bad;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void setup(void)
{
	static char page[PAGE_SIZE];
	struct rlimit no_core = { 0, 0 };
	int fd;

	quiet = on_pageturn();
	setrlimit(RLIMIT_CORE, &no_core);
	snprintf(data_path, sizeof(data_path), "%s", root_path("/test/data.bin"));
	if (access(data_path, R_OK) < 0)
		tap_bail("%s: %s", data_path, strerror(errno));
	if (access(TRUE_PATH, X_OK) < 0)
		tap_bail("%s: %s", TRUE_PATH, strerror(errno));
	unlink(TMP_NEW);
	fd = open(TMP_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		tap_bail("create %s: %s", TMP_FILE, strerror(errno));
	for (int i = 0; i < MAP_PAGES; i++)
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			tap_bail("write %s: %s", TMP_FILE, strerror(errno));
	close(fd);
	sync();
}

int main(void)
{
	struct sample first, last, before, after;
	const struct phase *list = phases;
	size_t nr = sizeof(phases) / sizeof(phases[0]);
	const char *why = "";
	char buf[512];

	setup();
	if (oom_test_machine()) {
		list = oom_phases;
		nr = sizeof(oom_phases) / sizeof(oom_phases[0]);
	} else {
		tap_skip(oom_phases[0].name, "needs Pageturn with at most 128 MiB (the oom QEMU case)");
	}
	tap_note("%s: slack %d pages per memory counter, %d for Slab and SUnreclaim, "
		 "none for pids and descriptors",
		 quiet ? "Pageturn" : "not Pageturn, the comparisons are skipped", SLACK_PAGES,
		 SLAB_SLACK_PAGES);
	/* The warm-up round, and a first sample to warm the sampling too. */
	for (size_t p = 0; p < nr; p++)
		if (run_phase(&list[p], WARMUP, &why))
			tap_bail("warm-up of %s: %s", list[p].name, why);
	take_sample(&first);
	take_sample(&first);

	for (size_t p = 0; p < nr; p++) {
		const struct phase *ph = &list[p];
		double t0;
		int bad;

		take_sample(&before);
		t0 = now();
		bad = run_phase(ph, ph->n, &why);
		t0 = now() - t0;
		take_sample(&after);
		tap_check(!bad, ph->name, "%d of %d round trips went wrong, the last: %s",
			  bad, ph->n, why);
		note_deltas(ph->name, ph->n, &before, &after);
		tap_note("%s: %d round trips in %.2f s; catches a kernel object of %ld bytes or more "
			 "per round trip", ph->name, ph->n, t0,
			 SLAB_SLACK_PAGES * (long)PAGE_SIZE / ph->n + 1);
		snprintf(buf, sizeof(buf), "%s: every counter back within its slack", ph->name);
		if (quiet) {
			char details[512];

			tap_check(!moved(&before, &after, details, sizeof(details)), buf,
				  "%s (over %d round trips)", details, ph->n);
		} else {
			tap_skip(buf, "not Pageturn: the build machine is not quiet");
		}
	}

	take_sample(&last);
	for (int i = 0; i < NR_COUNTERS; i++) {
		const struct counter *c = &counters[i];
		long d = last.v[i] - first.v[i];
		int pages = c->source == MEMINFO_KB || c->source == VMSTAT_PAGES;

		tap_note("%s: %ld before, %ld after%s", c->name, first.v[i], last.v[i],
			 pages ? " (pages)" : "");
		snprintf(buf, sizeof(buf), "whole run: %s back within %ld%s", c->name, c->slack,
			 pages ? " pages" : "");
		if (quiet)
			tap_check(labs(d) <= c->slack, buf, "moved by %+ld", d);
		else
			tap_skip(buf, "not Pageturn: the build machine is not quiet");
	}
	unlink(TMP_FILE);
	return tap_done();
}
