/*
 * tool_numbers: busybox's free, ps and top print the kernel's own
 * numbers, and /proc/vmstat's counters move as the memory they count.
 *
 * Two sources at one moment.  A tool reads the kernel's counters at some
 * instant while it runs, and a test that reads them before or after it
 * sees a different system: the tool's own pages, page tables and kernel
 * stack come and go with it.  So each tool runs with its stdout on a
 * pipe that this program filled to the brim first: the tool's first
 * write blocks, after it has read everything it prints and while all of
 * its memory is still in place.  Once the tool sleeps there (state S at
 * two looks 200 ms apart with no page fault between them; top's 100 ms
 * sleep before its second scan is shorter), this program reads
 * /proc/meminfo, /proc/vmstat, /proc/loadavg, sysinfo(2) and every
 * /proc/PID: the sample "during".  Then it drains the pipe and compares.
 * Every tool runs once before its measured run, so the measured run
 * finds busybox's pages in the page cache and adds none; and this
 * program reads through its own text first (prefault_text), so running
 * its code for the first time while a tool waits adds none either.
 *
 * Reading the counters allocates nothing in between: files are read
 * with open/read into static buffers (touched before), directories with
 * getdents64, never through stdio or malloc; the three /proc files are
 * all open and rendered before sysinfo(2) is called and before any is
 * closed.
 *
 * On Pageturn the system is quiet: init and the runner sleep in wait,
 * nothing else runs (sync() first, so the flush thread has nothing to
 * write).  There a value that cannot change between the tool's read and
 * the sample must be equal (MemTotal, Buffers, Cached, Shmem, the
 * process list, commands, states, the load average), and the only slack
 * is TOOL_SLACK_PAGES for the free memory, which the tool itself may
 * still lower after reading it: free calls sysinfo(2) and then opens
 * /proc/meminfo (glibc's FILE and its buffer may take fresh heap pages
 * and a page table, the kernel a slab page); top parses /proc/meminfo and
 * then allocates its stdout buffer.  So during.MemFree <= tool's free <=
 * during.MemFree + TOOL_SLACK_PAGES.
 *
 * The build machine is not quiet (other work allocates and frees all the
 * time, and Linux folds its per-CPU counter deltas lazily), so there the
 * memory values are compared within HOST_SLACK_PERCENT of MemTotal, the
 * process checks cover the processes that lived unchanged through the
 * tool's run (same pid, comm and command before and during), and the
 * checks of counter deltas, which need a quiet system, are skipped.
 * Debian's busybox has no vmstat applet: the vmstat part reads
 * /proc/vmstat itself, touching TOUCH_PAGES new anonymous pages:
 * pgfault and this process's minflt grow by at least that many (at most
 * COUNTER_SLACK_PAGES more on Pageturn: the stack and the buffers are
 * already touched), nr_anon_pages grows by that many and shrinks by as
 * many after munmap, and MemFree gets them back (within
 * COUNTER_SLACK_PAGES, for page tables).  Writing SHMEM_PAGES pages to
 * a new file on /tmp (tmpfs) raises Shmem, vmstat's nr_shmem and
 * sysinfo's sharedram by exactly that much on Pageturn, and the file
 * stays while the tools run, so free's "shared" and top's "shrd" compare
 * a value that is not 0.  Last, /proc/loadavg's
 * "running/total" (which top shows) must count the tasks in state R and
 * all the tasks at one moment.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUSYBOX			"/bin/busybox"
#define PAGE_KB			4
#define TOOL_SLACK_PAGES	8
#define COUNTER_SLACK_PAGES	8
#define TOUCH_PAGES		256
#define SHMEM_PAGES		64	/* written to a tmpfs file: Shmem grows by them */
#define HOST_SLACK_PERCENT	5
#define MAX_PROCS		1024
#define CMD_MAX			2048
#define OUT_MAX			(256 << 10)
/* busybox keeps a process's name in char[16] (COMM_LEN): Linux's kernel
 * threads may have longer names in /proc/PID/stat and comm. */
#define BUSYBOX_COMM_LEN	16
/* A command at least this long may have been cut to the tool's width. */
#define CMD_CUT_MIN		400
/* Pids and ppids top's columns keep apart. */
#define PID_COLUMN_MAX		100000

/* 1 on Pageturn's quiet test boot, 0 on the build machine. */
static int quiet;
/* How far apart two memory values in kB may be on the build machine. */
static long host_slack_kb;

/* The kernel's memory counters at one moment. */
struct mem_sample {
	/* /proc/meminfo, kB (SReclaimable and Shmem 0 when absent) */
	long mem_total, mem_free, mem_available, buffers, cached, shmem, sreclaimable, anon_pages;
	/* /proc/vmstat: pages, and the pgfault event */
	long nr_free_pages, nr_anon_pages, nr_shmem, pgfault;
	/* sysinfo(2), converted to kB */
	long si_total, si_free, si_shared, si_buffer;
	/* /proc/loadavg without its newline */
	char loadavg[128];
};

/* One /proc/PID as busybox reads it. */
struct proc_entry {
	int pid, ppid, pgid;
	char state;
	unsigned long vsize;
	uid_t uid;
	char comm[64];          /* /proc/PID/comm without the newline */
	char stat_comm[64];     /* between the parentheses of /proc/PID/stat */
	char command[CMD_MAX + 80];  /* the COMMAND busybox shows for it */
};

struct proc_table {
	int n;
	struct proc_entry e[MAX_PROCS];
};

static long field_or_0(const char *text, const char *name)
{
	long v = proc_field(text, name);

	return v < 0 ? 0 : v;
}

/* Sample the memory counters at one moment (see the top of the file). */
static void sample_memory(struct mem_sample *s)
{
	static char meminfo[8192], vmstat[32768], loadavg[256];
	int fm = open("/proc/meminfo", O_RDONLY);
	int fv = open("/proc/vmstat", O_RDONLY);
	int fl = open("/proc/loadavg", O_RDONLY);
	struct sysinfo si;
	unsigned long unit;

	if (fm < 0 || fv < 0 || fl < 0)
		tap_bail("cannot open /proc/meminfo, vmstat or loadavg: %s", strerror(errno));
	if (read_file_fd(fm, meminfo, sizeof(meminfo)) <= 0 ||
	    read_file_fd(fv, vmstat, sizeof(vmstat)) <= 0 ||
	    read_file_fd(fl, loadavg, sizeof(loadavg)) <= 0)
		tap_bail("cannot read /proc/meminfo, vmstat or loadavg: %s", strerror(errno));
	if (sysinfo(&si) < 0)
		tap_bail("sysinfo: %s", strerror(errno));
	close(fm);
	close(fv);
	close(fl);

	s->mem_total = proc_field(meminfo, "MemTotal");
	s->mem_free = proc_field(meminfo, "MemFree");
	s->mem_available = proc_field(meminfo, "MemAvailable");
	s->buffers = proc_field(meminfo, "Buffers");
	s->cached = proc_field(meminfo, "Cached");
	s->shmem = field_or_0(meminfo, "Shmem");
	s->sreclaimable = field_or_0(meminfo, "SReclaimable");
	s->anon_pages = proc_field(meminfo, "AnonPages");
	s->nr_free_pages = proc_field(vmstat, "nr_free_pages");
	s->nr_anon_pages = proc_field(vmstat, "nr_anon_pages");
	s->nr_shmem = field_or_0(vmstat, "nr_shmem");
	s->pgfault = proc_field(vmstat, "pgfault");
	unit = si.mem_unit ? si.mem_unit : 1;
	s->si_total = si.totalram * unit >> 10;
	s->si_free = si.freeram * unit >> 10;
	s->si_shared = si.sharedram * unit >> 10;
	s->si_buffer = si.bufferram * unit >> 10;
	snprintf(s->loadavg, sizeof(s->loadavg), "%.*s", (int)strcspn(loadavg, "\n"), loadavg);
	if (s->mem_total <= 0 || s->mem_free < 0 || s->mem_available < 0 || s->buffers < 0 ||
	    s->cached < 0 || s->anon_pages < 0 || s->nr_free_pages < 0 || s->nr_anon_pages < 0 ||
	    s->pgfault < 0)
		tap_bail("a counter is missing from /proc/meminfo or /proc/vmstat");
}

/*
 * What busybox's read_cmdline() shows as a process's COMMAND: the
 * arguments of /proc/PID/cmdline joined by spaces (control characters
 * made spaces), prefixed with "{comm} " when argv[0]'s last component
 * (a login shell's '-' dropped) does not start with comm; "[comm]" when
 * cmdline is empty (kernel threads, zombies).  buf holds the cmdline's
 * len bytes (read_file's NUL after them).
 */
static void busybox_command(char *buf, ssize_t len, const char *comm, char *out, size_t size)
{
	const char *base;
	char *argv0_end, saved;
	ssize_t last = len;

	if (len <= 0) {
		snprintf(out, size, "[%s]", comm);
		return;
	}
	while (--last >= 0 && buf[last] == '\0')
		;
	argv0_end = buf + strcspn(buf, " ");
	saved = *argv0_end;
	*argv0_end = '\0';
	base = strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
	*argv0_end = saved;
	for (ssize_t i = 0; i <= last; i++)
		if ((unsigned char)buf[i] < ' ')
			buf[i] = ' ';
	if (*base == '-')
		base++;
	if (strncmp(base, comm, strlen(comm)))
		snprintf(out, size, "{%s} %s", comm, buf);
	else
		snprintf(out, size, "%s", buf);
}

/* /proc/PID/stat's state and minflt; -1 if it cannot be read. */
static int task_state(pid_t pid, char *state, unsigned long *minflt)
{
	static char buf[1024];
	char path[64];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	return sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %lu", state, minflt) == 2 ? 0 : -1;
}

/* Read /proc/PID into e; -1 if the process is gone. */
static int read_proc(int pid, struct proc_entry *e)
{
	static char buf[CMD_MAX];
	char path[64], comm[64];
	const char *open_paren, *close_paren;
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return -1;
	e->pid = pid;
	snprintf(e->stat_comm, sizeof(e->stat_comm), "%.*s", (int)(close_paren - open_paren - 1),
		 open_paren + 1);
	if (sscanf(close_paren + 2,
		   "%c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %*u %lu",
		   &e->state, &e->ppid, &e->pgid, &e->vsize) != 4)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_file(path, e->comm, sizeof(e->comm)) <= 0)
		return -1;
	e->comm[strcspn(e->comm, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d", pid);
	if (stat(path, &st) < 0)
		return -1;
	e->uid = st.st_uid;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	n = read_file(path, buf, sizeof(buf));
	snprintf(comm, sizeof(comm), "%.*s", BUSYBOX_COMM_LEN - 1, e->stat_comm);
	busybox_command(buf, n, comm, e->command, sizeof(e->command));
	return 0;
}

/* Every /proc/PID directory (up to MAX_PROCS), in the order getdents64
 * gives them. */
static void read_procs(struct proc_table *t)
{
	static int pids[MAX_PROCS];
	int n = proc_pids(pids, MAX_PROCS);

	t->n = 0;
	for (int i = 0; i < n && i < MAX_PROCS; i++)
		if (read_proc(pids[i], &t->e[t->n]) == 0)
			t->n++;
}

static const struct proc_entry *find_proc(const struct proc_table *t, int pid)
{
	for (int i = 0; i < t->n; i++)
		if (t->e[i].pid == pid)
			return &t->e[i];
	return NULL;
}

/*
 * The process's entry in during if the checks cover it: on Pageturn
 * every process; on the build machine a user process that was there
 * before the tool ran (in before) with the same comm, command and memory
 * size (Linux renames its kernel worker threads as they take work), and
 * with pid and ppid below PID_COLUMN_MAX (top prints them "%5u%6u":
 * longer numbers run together).
 */
static const struct proc_entry *covered(const struct proc_table *before,
					const struct proc_table *during, int i)
{
	const struct proc_entry *d = &during->e[i], *b = find_proc(before, d->pid);

	if (quiet)
		return d;
	if (!b || !d->vsize || d->pid >= PID_COLUMN_MAX || d->ppid >= PID_COLUMN_MAX ||
	    strcmp(b->comm, d->comm) || strcmp(b->command, d->command) || b->vsize != d->vsize)
		return NULL;
	return d;
}

/* Wait until pid sleeps at two looks 200 ms apart with no page fault in
 * between (see the top of the file): 0, or -1 if it ended first or did
 * not block within 20 s. */
static int wait_blocked(pid_t pid)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	unsigned long flt = 0, prev_flt;
	char state = 0, prev_state;

	for (int i = 0; i < 100; i++) {
		prev_state = state;
		prev_flt = flt;
		if (task_state(pid, &state, &flt) < 0 || state == 'Z')
			return -1;
		if (state == 'S' && prev_state == 'S' && flt == prev_flt)
			return 0;
		nanosleep(&pause, NULL);
	}
	return -1;
}

/*
 * Run busybox with argv, its output into out (NUL-terminated).  With
 * during, the tool's stdout is a full pipe, and during (and procs, if
 * given) are sampled while the tool is blocked on it; without, this is
 * the warm-up run.  *pidp is the tool's pid.  Returns 0 if the sample
 * was taken (when asked) and the tool exited with status 0.
 */
static int run_tool(char *const argv[], struct mem_sample *during, struct proc_table *procs,
		    char *out, size_t size, pid_t *pidp)
{
	static char junk[4096];
	size_t filled = 0, got = 0;
	int p[2], status, sampled = 0;
	char what[128], buf[64];
	ssize_t n;
	pid_t pid;

	test_pipe(p);
	if (during) {
		fcntl(p[1], F_SETFL, O_NONBLOCK);
		while (write(p[1], junk, sizeof(junk)) == (ssize_t)sizeof(junk))
			filled += sizeof(junk);
		while (write(p[1], junk, 1) == 1)
			filled++;
		fcntl(p[1], F_SETFL, 0);
	}
	pid = test_fork();
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execv(BUSYBOX, argv);
		_exit(127);
	}
	close(p[1]);
	*pidp = pid;
	if (during && wait_blocked(pid) == 0) {
		sample_memory(during);
		if (procs)
			read_procs(procs);
		sampled = 1;
	}
	while (filled && (n = read(p[0], junk, filled < sizeof(junk) ? filled : sizeof(junk))) > 0)
		filled -= n;
	while (got < size - 1 && (n = read(p[0], out + got, size - 1 - got)) > 0)
		got += n;
	out[got] = '\0';
	close(p[0]);
	test_wait(pid, &status, 0);
	snprintf(what, sizeof(what), "busybox %s blocked on its full pipe and was sampled there",
		 argv[0]);
	if (during && !tap_check(sampled, what, "it never slept there"))
		return -1;
	snprintf(what, sizeof(what), "busybox %s%s exited with status 0", argv[0],
		 during ? "" : " (the warm-up run)");
	return tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, what, "%s",
			 test_status_str(status, buf, sizeof(buf))) ? 0 : -1;
}

/* Is got within [want, want + up] on Pageturn, within the host's slack
 * of want on the build machine? */
static int near(long got, long want, long up)
{
	if (!quiet)
		return labs(got - want) <= host_slack_kb;
	return got >= want && got <= want + up;
}

/* The same, for values that cannot change between the two reads. */
static int same(long got, long want)
{
	return near(got, want, 0);
}

/* The counters of one sample agree with each other: meminfo, vmstat and
 * sysinfo(2) count the same pages. */
static void check_counters(const struct mem_sample *s)
{
	tap_check(s->mem_total == s->si_total, "MemTotal is sysinfo's totalram",
		  "%ld kB vs %ld kB", s->mem_total, s->si_total);
	tap_check(same(s->mem_free, s->si_free), "MemFree is sysinfo's freeram",
		  "%ld kB vs %ld kB", s->mem_free, s->si_free);
	if (quiet)
		tap_check(s->mem_free == s->nr_free_pages * PAGE_KB,
			  "MemFree is vmstat's nr_free_pages", "%ld kB vs %ld pages", s->mem_free,
			  s->nr_free_pages);
	else
		tap_skip("MemFree is vmstat's nr_free_pages",
			 "Linux's MemFree may count more than nr_free_pages (free page reporting, "
			 "unaccepted memory)");
	tap_check(same(s->buffers, s->si_buffer), "Buffers is sysinfo's bufferram",
		  "%ld kB vs %ld kB", s->buffers, s->si_buffer);
	tap_check(same(s->shmem, s->si_shared), "Shmem is sysinfo's sharedram",
		  "%ld kB vs %ld kB", s->shmem, s->si_shared);
	tap_check(same(s->shmem, s->nr_shmem * PAGE_KB), "Shmem is vmstat's nr_shmem",
		  "%ld kB vs %ld pages", s->shmem, s->nr_shmem);
	tap_check(same(s->anon_pages, s->nr_anon_pages * PAGE_KB), "AnonPages is vmstat's nr_anon_pages",
		  "%ld kB vs %ld pages", s->anon_pages, s->nr_anon_pages);
	tap_check(s->mem_free <= s->mem_total && s->mem_available <= s->mem_total,
		  "MemFree and MemAvailable are at most MemTotal", "%ld, %ld of %ld kB",
		  s->mem_free, s->mem_available, s->mem_total);
}

/* This process's minflt from /proc/self/stat. */
static unsigned long own_minflt(void)
{
	unsigned long minflt = 0;
	char state;

	if (task_state(getpid(), &state, &minflt) < 0)
		tap_bail("cannot read /proc/self/stat");
	return minflt;
}

/* The vmstat part: touch TOUCH_PAGES anonymous pages, then unmap them. */
static void check_vmstat_deltas(void)
{
	struct mem_sample s0, s1, s2;
	unsigned long flt0, flt1;
	long faults, flts, anon_up, anon_down, freed;
	char *p = mmap(NULL, TOUCH_PAGES * 4096ul, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	/* One fault per page on the build machine too, not one huge page. */
	madvise(p, TOUCH_PAGES * 4096ul, MADV_NOHUGEPAGE);
	sample_memory(&s0);
	flt0 = own_minflt();
	for (int i = 0; i < TOUCH_PAGES; i++)
		p[i * 4096l] = 1;
	sample_memory(&s1);
	flt1 = own_minflt();
	munmap(p, TOUCH_PAGES * 4096ul);
	sample_memory(&s2);

	faults = s1.pgfault - s0.pgfault;
	flts = flt1 - flt0;
	anon_up = s1.nr_anon_pages - s0.nr_anon_pages;
	anon_down = s1.nr_anon_pages - s2.nr_anon_pages;
	freed = (s2.mem_free - s1.mem_free) / PAGE_KB;
	tap_note("touching %d pages: pgfault +%ld, minflt +%ld, nr_anon_pages +%ld, after munmap "
		 "-%ld, MemFree +%ld pages", TOUCH_PAGES, faults, flts, anon_up, anon_down, freed);
	tap_check(faults >= TOUCH_PAGES && (!quiet || faults <= TOUCH_PAGES + COUNTER_SLACK_PAGES),
		  "vmstat's pgfault grows by one per page touched", "+%ld for %d pages", faults,
		  TOUCH_PAGES);
	tap_check(flts >= TOUCH_PAGES && (!quiet || flts <= TOUCH_PAGES + COUNTER_SLACK_PAGES),
		  "and so does this process's minflt in /proc/self/stat", "+%ld for %d pages", flts,
		  TOUCH_PAGES);
	if (!quiet) {
		tap_skip("nr_anon_pages grows by the pages touched",
			 "the build machine is not quiet and Linux folds per-CPU counters lazily");
		tap_skip("nr_anon_pages drops by as many after munmap", "not a quiet system");
		tap_skip("MemFree gets them back after munmap", "not a quiet system");
		return;
	}
	tap_check(labs(anon_up - TOUCH_PAGES) <= COUNTER_SLACK_PAGES,
		  "nr_anon_pages grows by the pages touched", "+%ld for %d pages", anon_up,
		  TOUCH_PAGES);
	tap_check(labs(anon_down - TOUCH_PAGES) <= COUNTER_SLACK_PAGES,
		  "nr_anon_pages drops by as many after munmap", "-%ld for %d pages", anon_down,
		  TOUCH_PAGES);
	tap_check(labs(freed - TOUCH_PAGES) <= COUNTER_SLACK_PAGES,
		  "MemFree gets them back after munmap", "+%ld pages for %d", freed, TOUCH_PAGES);
}

/*
 * A tmpfs file of SHMEM_PAGES pages: Shmem, nr_shmem and sharedram grow
 * by it.  The file is left for the tools to see; main removes it.
 */
static void make_shmem_file(char *path)
{
	static char page[4096];
	struct mem_sample s0, s1;
	long grew, nr, shared;
	int fd = mkstemp(path);

	if (fd < 0)
		tap_bail("mkstemp %s: %s", path, strerror(errno));
	memset(page, 's', sizeof(page));
	sample_memory(&s0);
	for (int i = 0; i < SHMEM_PAGES; i++)
		if (write_all(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			tap_bail("write %s: %s", path, strerror(errno));
	close(fd);
	sample_memory(&s1);
	grew = s1.shmem - s0.shmem;
	nr = s1.nr_shmem - s0.nr_shmem;
	shared = s1.si_shared - s0.si_shared;
	tap_note("%d pages written to %s: Shmem +%ld kB, nr_shmem +%ld, sharedram +%ld kB",
		 SHMEM_PAGES, path, grew, nr, shared);
	if (!quiet) {
		tap_skip("Shmem, nr_shmem and sharedram grow by a tmpfs file's pages",
			 "not a quiet system (and /tmp may not be tmpfs)");
		return;
	}
	tap_check(grew == SHMEM_PAGES * PAGE_KB && nr == SHMEM_PAGES &&
		  shared == SHMEM_PAGES * PAGE_KB,
		  "Shmem, nr_shmem and sharedram grow by a tmpfs file's pages",
		  "+%ld kB, +%ld pages, +%ld kB for %d pages", grew, nr, shared, SHMEM_PAGES);
}

/* Removing make_shmem_file's file gives its pages back to Shmem. */
static void check_shmem_freed(const char *path)
{
	struct mem_sample s0, s1;

	sample_memory(&s0);
	unlink(path);
	sample_memory(&s1);
	if (quiet)
		tap_check(s0.shmem - s1.shmem == SHMEM_PAGES * PAGE_KB &&
			  s0.nr_shmem - s1.nr_shmem == SHMEM_PAGES,
			  "Shmem and nr_shmem drop by the file's pages when it is removed",
			  "-%ld kB, -%ld pages", s0.shmem - s1.shmem, s0.nr_shmem - s1.nr_shmem);
	else
		tap_skip("Shmem and nr_shmem drop by the file's pages when it is removed",
			 "not a quiet system");
}

/* free: the Mem: line against the sample taken while free was blocked. */
static void check_free(void)
{
	static char out[OUT_MAX];
	char *argv[] = { "free", NULL };
	struct mem_sample d;
	long total, used, free_kb, shared, buff_cache, available, want_bc;
	const char *mem;
	pid_t pid;

	run_tool(argv, NULL, NULL, out, sizeof(out), &pid);
	if (run_tool(argv, &d, NULL, out, sizeof(out), &pid) < 0)
		return;
	mem = strstr(out, "\nMem:");
	if (!tap_check(mem && sscanf(mem, "\nMem: %ld %ld %ld %ld %ld %ld", &total, &used, &free_kb,
				    &shared, &buff_cache, &available) == 6,
		       "free prints a Mem: line of six numbers", "output:\n%s", out))
		return;
	tap_note("free: total %ld used %ld free %ld shared %ld buff/cache %ld available %ld",
		 total, used, free_kb, shared, buff_cache, available);
	tap_note("kernel: MemTotal %ld MemFree %ld Shmem %ld Buffers %ld Cached %ld SReclaimable %ld "
		 "MemAvailable %ld", d.mem_total, d.mem_free, d.shmem, d.buffers, d.cached,
		 d.sreclaimable, d.mem_available);
	want_bc = d.si_buffer + d.cached + d.sreclaimable;
	tap_check(total == d.mem_total, "free's total is MemTotal", "%ld vs %ld kB", total,
		  d.mem_total);
	tap_check(near(free_kb, d.mem_free, TOOL_SLACK_PAGES * PAGE_KB),
		  "free's free is MemFree (free's own late allocations aside)",
		  "%ld vs %ld kB", free_kb, d.mem_free);
	tap_check(same(shared, d.si_shared), "free's shared is sysinfo's sharedram",
		  "%ld vs %ld kB", shared, d.si_shared);
	tap_check(same(buff_cache, want_bc), "free's buff/cache is bufferram + Cached + SReclaimable",
		  "%ld vs %ld kB", buff_cache, want_bc);
	tap_check(near(available, d.mem_available, TOOL_SLACK_PAGES * PAGE_KB),
		  "free's available is MemAvailable", "%ld vs %ld kB", available, d.mem_available);
	tap_check(used == total - free_kb - buff_cache, "free's used is total - free - buff/cache",
		  "%ld vs %ld kB", used, total - free_kb - buff_cache);
}

/* The user name busybox shows for uid (8 characters at most), or the number. */
static void user_name(uid_t uid, char *buf, size_t size)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, size, "%.8s", pw->pw_name);
	else
		snprintf(buf, size, "%u", (unsigned)uid);
}

/* Does a tool's COMMAND show want (perhaps cut to the tool's width)? */
static int command_matches(const char *shown, const char *want)
{
	size_t len = strlen(shown);

	return !strcmp(shown, want) || (len >= CMD_CUT_MIN && !strncmp(shown, want, len));
}

/* A process line of ps or top; pid -1 when the line could not be parsed. */
struct shown {
	int pid, ppid, pgid;
	char user[32], stat[8], comm[64], vsz[16];
	char command[CMD_MAX + 80];
};

/* The processes a tool printed, and the /proc tables around its run. */
struct listing {
	const char *tool;
	int n;
	struct shown s[MAX_PROCS];
	struct proc_table before, during;
};

static const struct shown *find_shown(const struct listing *l, int n, int pid)
{
	for (int i = 0; i < n; i++)
		if (l->s[i].pid == pid)
			return &l->s[i];
	return NULL;
}

/* The mismatches of one check over the processes: how many, the first. */
struct mismatch {
	int n;
	char first[CMD_MAX * 3];
};

__attribute__((format(printf, 2, 3)))
static void mismatch(struct mismatch *m, const char *fmt, ...)
{
	va_list ap;

	if (m->n++)
		return;
	va_start(ap, fmt);
	vsnprintf(m->first, sizeof(m->first), fmt, ap);
	va_end(ap);
}

static void check_no_mismatch(const struct mismatch *m, const char *what)
{
	tap_check(!m->n, what, "%d differ; first %s", m->n, m->first);
}

/*
 * The process list a tool printed against during: on Pageturn the same
 * set of pids (the tool's own included); everywhere every covered
 * process shown once.
 */
static void check_listed(const struct listing *l)
{
	struct mismatch missing = { 0 }, extra = { 0 }, twice = { 0 };
	char what[128];

	for (int i = 0; i < l->during.n; i++)
		if (covered(&l->before, &l->during, i) && !find_shown(l, l->n, l->during.e[i].pid))
			mismatch(&missing, "pid %d is missing", l->during.e[i].pid);
	for (int i = 0; i < l->n; i++) {
		if (find_shown(l, i, l->s[i].pid))
			mismatch(&twice, "pid %d is shown twice", l->s[i].pid);
		if (quiet && !find_proc(&l->during, l->s[i].pid))
			mismatch(&extra, "pid %d has no /proc directory", l->s[i].pid);
	}
	snprintf(what, sizeof(what), quiet ? "%s lists exactly the PID directories of /proc" :
		 "%s lists every process that lived through its run", l->tool);
	tap_check(!missing.n && !extra.n && !twice.n && (!quiet || l->n == l->during.n), what,
		  "%d lines for %d directories; %d missing, %d extra, %d twice: %s%s%s", l->n,
		  l->during.n, missing.n, extra.n, twice.n, missing.first, extra.first, twice.first);
}

/*
 * The lines a tool printed against /proc while it ran: a note of the
 * counts, the process list (check_listed), and each covered process's
 * COMMAND against /proc/PID/cmdline (or [comm]) as busybox renders it.
 */
static void check_listed_commands(const struct listing *l)
{
	struct mismatch command = { 0 };
	char what[128];

	tap_note("%s: %d processes listed, %d PID directories in /proc while it ran", l->tool,
		 l->n, l->during.n);
	check_listed(l);
	for (int i = 0; i < l->during.n; i++) {
		const struct proc_entry *e = covered(&l->before, &l->during, i);
		const struct shown *s = e ? find_shown(l, l->n, e->pid) : NULL;

		if (s && !command_matches(s->command, e->command))
			mismatch(&command, "pid %d: '%s', /proc says '%s'", e->pid, s->command,
				 e->command);
	}
	snprintf(what, sizeof(what), "%s's COMMAND is /proc/PID/cmdline (or [comm]) for each process",
		 l->tool);
	check_no_mismatch(&command, what);
}

/* Split text into lines in place; up to max of them after the header
 * line (the first starting with header, after spaces). */
static int lines_after(char *text, const char *header, char **lines, int max)
{
	char *line = text, *next;
	int n = 0, in = 0;

	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (in && *line && n < max)
			lines[n++] = line;
		else if (!in && !strncmp(line + strspn(line, " "), header, strlen(header)))
			in = 1;
	}
	return n;
}

/*
 * Run busybox with argv twice into out: a warm-up, then the measured run
 * blocked on a full pipe, with the memory counters and /proc read just
 * before it (into before and l->before) and while it is blocked (during,
 * l->during).  *pidp is the measured run's pid.  Returns 0, or -1 if the
 * measured run failed.
 */
static int run_listing(char *const argv[], struct listing *l, struct mem_sample *before,
		       struct mem_sample *during, pid_t *pidp, char *out, size_t size)
{
	l->tool = argv[0];
	run_tool(argv, NULL, NULL, out, size, pidp);
	sample_memory(before);
	read_procs(&l->before);
	return run_tool(argv, during, &l->during, out, size, pidp);
}

/* ps: busybox's default columns "PID USER COMMAND". */
static void check_ps_default(void)
{
	static char out[OUT_MAX];
	static struct listing l;
	static char *lines[MAX_PROCS];
	char *argv[] = { "ps", NULL };
	struct mismatch owner = { 0 };
	struct mem_sample a, d;
	char user[32];
	pid_t pid;
	int n;

	if (run_listing(argv, &l, &a, &d, &pid, out, sizeof(out)) < 0)
		return;
	n = lines_after(out, "PID", lines, MAX_PROCS);
	for (l.n = 0; l.n < n; l.n++) {
		/* "%5u %-8.8s %s": the pid (wider if it must), a space, the
		 * user in 8 columns, a space, the command */
		struct shown *s = &l.s[l.n];
		char *end;

		s->pid = strtol(lines[l.n], &end, 10);
		if (strlen(end) < 10 || end[0] != ' ' || end[9] != ' ') {
			s->pid = -1;
			continue;
		}
		snprintf(s->user, sizeof(s->user), "%.8s", end + 1);
		s->user[strcspn(s->user, " ")] = '\0';
		snprintf(s->command, sizeof(s->command), "%s", end + 10);
	}
	check_listed_commands(&l);
	for (int i = 0; i < l.during.n; i++) {
		const struct proc_entry *e = covered(&l.before, &l.during, i);
		const struct shown *s = e ? find_shown(&l, l.n, e->pid) : NULL;

		if (!s)
			continue;
		user_name(e->uid, user, sizeof(user));
		if (strcmp(s->user, user))
			mismatch(&owner, "pid %d: '%s', the owner is '%s'", e->pid, s->user, user);
	}
	check_no_mismatch(&owner, "ps's USER is the owner of /proc/PID");
}

/* ps -o pid,ppid,pgid,stat,comm */
static void check_ps_columns(void)
{
	static char out[OUT_MAX];
	static struct listing l;
	static char *lines[MAX_PROCS];
	char *argv[] = { "ps", "-o", "pid,ppid,pgid,stat,comm", NULL };
	struct mismatch comm = { 0 }, ids = { 0 }, state = { 0 }, no_mem = { 0 };
	struct mem_sample a, d;
	pid_t pid, self = getpid();
	int n;

	if (run_listing(argv, &l, &a, &d, &pid, out, sizeof(out)) < 0)
		return;
	n = lines_after(out, "PID", lines, MAX_PROCS);
	for (l.n = 0; l.n < n; l.n++) {
		struct shown *s = &l.s[l.n];
		int end = 0;

		if (sscanf(lines[l.n], "%d %d %d %7s %n", &s->pid, &s->ppid, &s->pgid, s->stat,
			   &end) < 4 || !end) {
			s->pid = -1;
			continue;
		}
		snprintf(s->comm, sizeof(s->comm), "%s", lines[l.n] + end);
		for (size_t len = strlen(s->comm); len && s->comm[len - 1] == ' ';)
			s->comm[--len] = '\0';
	}
	check_listed(&l);
	for (int i = 0; i < l.during.n; i++) {
		const struct proc_entry *e = covered(&l.before, &l.during, i);
		const struct shown *s = e ? find_shown(&l, l.n, e->pid) : NULL;
		char want;

		if (!s)
			continue;
		/* ps saw itself running, and this process asleep in nanosleep
		 * (or just woken from it); the others as during does. */
		want = e->pid == pid ? 'R' : e->state;
		if (strncmp(s->comm, e->comm, BUSYBOX_COMM_LEN - 1))
			mismatch(&comm, "pid %d: '%s', /proc/PID/comm '%s'", e->pid, s->comm, e->comm);
		if (s->ppid != e->ppid || s->pgid != e->pgid)
			mismatch(&ids, "pid %d: ppid %d pgid %d, /proc/PID/stat %d %d", e->pid, s->ppid,
				 s->pgid, e->ppid, e->pgid);
		if (s->stat[0] != want && !(e->pid == self && s->stat[0] == 'S'))
			mismatch(&state, "pid %d: STAT %s, /proc/PID/stat %c", e->pid, s->stat, want);
		/* busybox adds W for a process without memory (a kernel thread) */
		if ((s->stat[1] == 'W') != (e->vsize == 0 && e->state != 'Z'))
			mismatch(&no_mem, "pid %d: STAT %s with vsize %lu", e->pid, s->stat, e->vsize);
	}
	check_no_mismatch(&comm, "ps -o comm is /proc/PID/comm");
	check_no_mismatch(&ids, "ps -o ppid,pgid are /proc/PID/stat's");
	if (quiet)
		check_no_mismatch(&state, "ps -o stat is /proc/PID/stat's state");
	else
		tap_skip("ps -o stat is /proc/PID/stat's state",
			 "on a busy machine states change between two reads");
	check_no_mismatch(&no_mem, "ps -o stat has W exactly for processes without memory");
}

/* The three load averages of a /proc/loadavg text. */
static int load_averages(const char *text, char *buf, size_t size)
{
	char a[16], b[16], c[16];

	if (sscanf(text, "%15s %15s %15s", a, b, c) != 3)
		return -1;
	snprintf(buf, size, "%s %s %s", a, b, c);
	return 0;
}

/* top's Mem: line against the sample taken while top was blocked. */
static void check_top_memory(const char *out, const struct mem_sample *d)
{
	long used, free_kb, shrd, buff, cached;
	const char *mem = strstr(out, "Mem: ");

	if (!tap_check(mem && sscanf(mem, "Mem: %ldK used, %ldK free, %ldK shrd, %ldK buff, "
				     "%ldK cached", &used, &free_kb, &shrd, &buff, &cached) == 5,
		       "top prints the Mem: line", "output:\n%.2000s", out))
		return;
	tap_note("top: %ldK used, %ldK free, %ldK shrd, %ldK buff, %ldK cached; kernel: MemFree %ld "
		 "Shmem %ld Buffers %ld Cached %ld", used, free_kb, shrd, buff, cached, d->mem_free,
		 d->shmem, d->buffers, d->cached);
	tap_check(used + free_kb == d->mem_total, "top's used + free is MemTotal",
		  "%ld + %ld vs %ld", used, free_kb, d->mem_total);
	tap_check(near(free_kb, d->mem_free, TOOL_SLACK_PAGES * PAGE_KB),
		  "top's free is MemFree (top's own late allocations aside)", "%ld vs %ld kB",
		  free_kb, d->mem_free);
	tap_check(same(shrd, d->shmem), "top's shrd is Shmem", "%ld vs %ld kB", shrd, d->shmem);
	tap_check(same(buff, d->buffers), "top's buff is Buffers", "%ld vs %ld kB", buff,
		  d->buffers);
	tap_check(same(cached, d->cached), "top's cached is Cached", "%ld vs %ld kB", cached,
		  d->cached);
}

/* top's Load average: line against /proc/loadavg before and during. */
static void check_top_load(const char *out, const struct mem_sample *a,
			   const struct mem_sample *d)
{
	const char *load = strstr(out, "Load average: ");
	char shown[64], before[64], during[64];
	unsigned running_t, threads_t, running_d, threads_d;
	int last_t, last_d;

	if (!tap_check(load && load_averages(load + 14, shown, sizeof(shown)) == 0 &&
		       load_averages(a->loadavg, before, sizeof(before)) == 0 &&
		       load_averages(d->loadavg, during, sizeof(during)) == 0,
		       "top prints the Load average: line", "output:\n%.2000s", out))
		return;
	load += 14;
	tap_note("top: Load average: %.*s; /proc/loadavg before '%s', during '%s'",
		 (int)strcspn(load, "\n"), load, a->loadavg, d->loadavg);
	/* The averages change every 5 s: top read them between the two
	 * samples, so they are one or the other. */
	tap_check(!strcmp(shown, during) || !strcmp(shown, before),
		  "top's load averages are /proc/loadavg's", "'%s', /proc/loadavg '%s' then '%s'",
		  shown, before, during);
	if (!quiet) {
		tap_skip("top's task count and last pid are /proc/loadavg's",
			 "the build machine starts and ends tasks meanwhile");
		return;
	}
	/* top read them running, and it is the newest task */
	tap_check(sscanf(load, "%*s %*s %*s %u/%u %d", &running_t, &threads_t, &last_t) == 3 &&
		  sscanf(d->loadavg, "%*s %*s %*s %u/%u %d", &running_d, &threads_d, &last_d) == 3 &&
		  threads_t == threads_d && last_t == last_d && running_t >= 1 &&
		  running_t <= threads_t,
		  "top's task count and last pid are /proc/loadavg's", "'%.*s' vs '%s'",
		  (int)strcspn(load, "\n"), load, d->loadavg);
}

/*
 * top -b -n 1: the Mem: line against meminfo, Load average: against
 * /proc/loadavg, one process line per PID directory, each with its
 * command and (when shown in kB) its VSZ.
 */
static void check_top(void)
{
	static char out[OUT_MAX];
	static struct listing l;
	static char *lines[MAX_PROCS];
	char *argv[] = { "top", "-b", "-n", "1", NULL };
	struct mismatch vsz = { 0 };
	struct mem_sample a, d;
	int vsz_checked = 0;
	pid_t pid;

	if (run_listing(argv, &l, &a, &d, &pid, out, sizeof(out)) < 0)
		return;
	check_top_memory(out, &d);
	check_top_load(out, &a, &d);

	l.n = lines_after(out, "PID  PPID USER", lines, MAX_PROCS);
	for (int i = 0; i < l.n; i++) {
		/* "%5u%6u %-8.8s %s  %.5s%4u%%%4u%% ": pid, ppid, user, the
		 * three characters of STAT, VSZ in five, %VSZ and %CPU (which
		 * a huge VSZ can widen), a space, the command */
		struct shown *s = &l.s[i];
		int stat_at = 0;
		const char *pct;

		if (sscanf(lines[i], "%d %d %31s %n%7s", &s->pid, &s->ppid, s->user, &stat_at,
			   s->stat) < 4 || strlen(lines[i]) < (size_t)stat_at + 10) {
			s->pid = -1;
			continue;
		}
		snprintf(s->vsz, sizeof(s->vsz), "%.5s", lines[i] + stat_at + 5);
		memmove(s->vsz, s->vsz + strspn(s->vsz, " "), strlen(s->vsz) - strspn(s->vsz, " ") + 1);
		pct = strchr(lines[i] + stat_at + 10, '%');
		pct = pct ? strchr(pct + 1, '%') : NULL;
		snprintf(s->command, sizeof(s->command), "%s", pct && pct[1] ? pct + 2 : "");
	}
	check_listed_commands(&l);
	for (int i = 0; i < l.during.n; i++) {
		const struct proc_entry *e = covered(&l.before, &l.during, i);
		const struct shown *s = e ? find_shown(&l, l.n, e->pid) : NULL;

		/* top's own size may have grown after it read it */
		if (s && e->pid != pid && strspn(s->vsz, "0123456789") == strlen(s->vsz)) {
			vsz_checked++;
			if (strtoul(s->vsz, NULL, 10) != e->vsize >> 10)
				mismatch(&vsz, "pid %d: VSZ %s, vsize %lu bytes", e->pid, s->vsz,
					 e->vsize);
		}
	}
	tap_check(!vsz.n && vsz_checked > 0, "top's VSZ is /proc/PID/stat's vsize in kB",
		  "%d of %d differ; first %s", vsz.n, vsz_checked, vsz.first);
}

/*
 * /proc/loadavg's "running/total", which top shows in its Load average
 * line, at one moment: running is the number of tasks in state R (this
 * one at least), total the number of tasks, one PID directory each
 * (Pageturn's processes have one thread, and the idle task is neither).
 * The flush thread's timer may wake it between the two reads, so up to
 * three tries.  Only on Pageturn: the build machine's processes have
 * threads, and its tasks come and go.
 */
static void check_runnable(void)
{
	static struct proc_table t;
	struct mem_sample s;
	unsigned running = 0, total = 0;
	int in_r, tries = 0;

	if (!quiet) {
		tap_skip("/proc/loadavg's running/total count the tasks in state R and all tasks",
			 "threads, and a busy machine");
		return;
	}
	do {
		sample_memory(&s);
		read_procs(&t);
		in_r = 0;
		for (int i = 0; i < t.n; i++)
			in_r += t.e[i].state == 'R';
		if (sscanf(s.loadavg, "%*s %*s %*s %u/%u", &running, &total) != 2)
			break;
	} while ((running != (unsigned)in_r || total != (unsigned)t.n) && ++tries < 3);
	tap_check(running == (unsigned)in_r && total == (unsigned)t.n,
		  "/proc/loadavg's running/total count the tasks in state R and all tasks",
		  "'%s' while %d of %d PID directories are in state R", s.loadavg, in_r, t.n);
}

/*
 * Read a byte of every page of this program's executable mappings, so
 * that running code for the first time later (waiting for a tool, say)
 * does not bring pages of this file into the page cache mid-measurement.
 */
static void prefault_text(void)
{
	static char maps[16384];
	unsigned long start, end;
	char perms[8];

	if (read_file("/proc/self/maps", maps, sizeof(maps)) <= 0)
		tap_bail("cannot read /proc/self/maps");
	for (char *line = strtok(maps, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3 || perms[2] != 'x' ||
		    !strchr(line, '/'))
			continue;
		for (unsigned long a = start; a < end; a += 4096)
			(void)*(volatile const char *)a;
	}
}

int main(void)
{
	struct utsname u;
	struct mem_sample s;
	static struct proc_table warm;
	char shmem_path[] = "/tmp/tool_numbers.XXXXXX";

	if (uname(&u) < 0)
		tap_bail("uname: %s", strerror(errno));
	quiet = !strcmp(u.sysname, "Pageturn");
	sync();
	prefault_text();
	/* Touch every buffer the samples use before anything is measured. */
	sample_memory(&s);
	read_procs(&warm);
	own_minflt();
	host_slack_kb = s.mem_total * HOST_SLACK_PERCENT / 100;
	if (quiet)
		tap_note("Pageturn, a quiet system: exact comparisons; a tool may lower free memory "
			 "by at most %d pages after reading it", TOOL_SLACK_PAGES);
	else
		tap_note("%s, not a quiet system: memory values compared within %d%% of MemTotal "
			 "(%ld kB)", u.sysname, HOST_SLACK_PERCENT, host_slack_kb);

	sample_memory(&s);
	check_counters(&s);
	check_vmstat_deltas();
	make_shmem_file(shmem_path);
	if (access(BUSYBOX, X_OK) < 0) {
		tap_skip("free, ps and top against the kernel's counters", "no " BUSYBOX);
		unlink(shmem_path);
		return tap_done();
	}
	check_free();
	check_ps_default();
	check_ps_columns();
	check_top();
	check_runnable();
	check_shmem_freed(shmem_path);
	return tap_done();
}
