/*
 * tracing: tracefs on /sys/kernel/tracing as a program sees it.
 *
 *   1. readdir and stat see the tree with Linux's modes;
 *      available_events lists every event; bad writes to the control
 *      files (an enable of 2 or "abc", a tracing_on that is no number, a
 *      buffer_size_kb of 0, an unknown event in set_event) are EINVAL and
 *      change nothing; a system's enable reads X when its events differ;
 *   2. with a one-page buffer the sampler's events overrun it: the
 *      header's entries-written exceeds entries-in-buffer by the overrun
 *      per_cpu/cpu0/stats counts;
 *   3. with the events off (enable 0) nothing more is recorded;
 *   4. trace_pipe consumes what it returns (trace is empty after), in
 *      Linux's line format; an O_NONBLOCK read of an empty pipe is
 *      EAGAIN, a blocking one waits for data and ends with EINTR when a
 *      signal comes first, and poll waits for an event;
 *   5. writing oom_score_adj records oom:oom_score_adj_update;
 *   6. with swap on, anonymous memory a quarter larger than RAM written
 *      and read back makes kswapd, the shrink events, writepage and swap
 *      I/O appear in trace, each line in Linux's format and its event's
 *      fields.
 *
 * On the build machine's Linux it skips: it would change the host's
 * tracing (and needs root).  Without swap, part 6 skips.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define TRACE_MAX (8 << 20)	/* the largest trace read here */
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static char *trace_text;

/* Write s to file T name: 0, or the errno of the failed write. */
static int put(const char *name, const char *s)
{
	char path[128];
	int fd, err = 0;

	snprintf(path, sizeof(path), T "%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* The text of T name in buf; bails out when it cannot be read. */
static char *get(const char *name, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), T "%s", name);
	if (read_file(path, buf, size) < 0)
		tap_bail("read %s: %s", path, strerror(errno));
	return buf;
}

/* Open T name with O_TRUNC, as the shell's "> file" does; bails out on
 * failure. */
static void truncate_file(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), T "%s", name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		tap_bail("open %s with O_TRUNC: %s", path, strerror(errno));
	close(fd);
}

static void must_put(const char *name, const char *s)
{
	int err = put(name, s);

	if (err)
		tap_bail("write \"%s\" to %s: %s", s, name, strerror(err));
}

/* The trace file, and its header's two counts. */
static char *read_trace(long *entries, long *written)
{
	const char *p;

	get("trace", trace_text, TRACE_MAX);
	p = strstr(trace_text, "# entries-in-buffer/entries-written: ");
	*entries = *written = -1;
	if (p)
		sscanf(p, "# entries-in-buffer/entries-written: %ld/%ld", entries, written);
	return trace_text;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static regex_t line_re;

/*
 * Is line one of Linux's trace lines ("%16s-%-7d [000] fffff %5lu.%06lu:
 * name: fields")?  Puts the event's name and fields in name and fields.
 */
static int trace_line(const char *line, char *name, size_t nsize, const char **fields)
{
	regmatch_t m[3];
	size_t len;

	if (regexec(&line_re, line, 3, m, 0) != 0 || line[16] != '-' ||
	    strncmp(line + 25, "[000] ", 6) != 0)
		return 0;
	len = m[1].rm_eo - m[1].rm_so;
	if (len >= nsize)
		return 0;
	memcpy(name, line + m[1].rm_so, len);
	name[len] = '\0';
	*fields = line + m[2].rm_so;
	return 1;
}

/* The fields each event must print (Linux 6.1's TP_printk). */
static const struct {
	const char *name;
	const char *fields;
} formats[] = {
	{ "mm_vmscan_kswapd_wake", "^nid=0 order=[0-9]+$" },
	{ "mm_vmscan_kswapd_sleep", "^nid=0$" },
	{ "mm_vmscan_wakeup_kswapd", "^nid=0 order=[0-9]+ gfp_flags=[A-Za-z0-9_|]+$" },
	{ "mm_vmscan_lru_shrink_inactive", "^nid=0 nr_scanned=[0-9]+ nr_reclaimed=[0-9]+ nr_dirty=0 "
	  "nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 "
	  "nr_ref_keep=0 nr_unmap_fail=0 priority=[0-9]+ flags=RECLAIM_WB_(ANON|FILE)\\|RECLAIM_WB_ASYNC$" },
	{ "mm_vmscan_lru_shrink_active", "^nid=0 nr_taken=[0-9]+ nr_active=[0-9]+ nr_deactivated=[0-9]+ "
	  "nr_referenced=[0-9]+ priority=[0-9]+ flags=RECLAIM_WB_(ANON|FILE)\\|RECLAIM_WB_ASYNC$" },
	{ "mm_vmscan_lru_isolate", "^isolate_mode=[0-2] classzone=[0-2] order=[0-9]+ nr_requested=[0-9]+ "
	  "nr_scanned=[0-9]+ nr_skipped=0 nr_taken=[0-9]+ "
	  "lru=(inactive_anon|active_anon|inactive_file|active_file|unevictable)$" },
	{ "mm_vmscan_writepage", "^page=[0-9a-fx]+ pfn=0x[0-9a-f]+ flags=RECLAIM_WB_ANON\\|RECLAIM_WB_ASYNC$" },
	{ "swap_writepage", "^pfn=0x[0-9a-f]+ type=0 offset=[0-9]+$" },
	{ "swap_readpage", "^pfn=0x[0-9a-f]+ type=0 offset=[0-9]+$" },
	{ "mm_lru_sample", "^nid=0 zid=[0-2] zone=(DMA|DMA32|Normal) nr_free_pages=[0-9]+ "
	  "nr_inactive_anon=[0-9]+ nr_active_anon=[0-9]+ nr_inactive_file=[0-9]+ "
	  "nr_active_file=[0-9]+ nr_unevictable=[0-9]+$" },
	{ "mm_vmstat_sample", "^pswpin=[0-9]+ pswpout=[0-9]+ pgmajfault=[0-9]+$" },
	{ "oom_score_adj_update", "^pid=[0-9]+ comm=tracing oom_score_adj=123$" },
};

#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

static int seen[NR_FORMATS], bad[NR_FORMATS];
static regex_t field_re[NR_FORMATS];

/*
 * Check every line of text: count the events of each kind whose fields
 * are right (seen) and wrong (bad); returns the lines that are neither
 * comments nor trace lines.
 */
static int scan_trace(char *text)
{
	char name[64], *line, *next;
	const char *fields;
	int other = 0;
	size_t i;

	memset(seen, 0, sizeof(seen));
	memset(bad, 0, sizeof(bad));
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (*line == '#')
			continue;
		if (!trace_line(line, name, sizeof(name), &fields)) {
			if (other++ == 0)
				tap_note("not a trace line: %s", line);
			continue;
		}
		for (i = 0; i < NR_FORMATS; i++) {
			if (strcmp(name, formats[i].name))
				continue;
			if (regexec(&field_re[i], fields, 0, NULL, 0) == 0) {
				seen[i]++;
			} else if (bad[i]++ == 0) {
				tap_note("bad fields: %s", line);
			}
		}
	}
	return other;
}

static int format_index(const char *name)
{
	size_t i;

	for (i = 0; i < NR_FORMATS; i++)
		if (strcmp(formats[i].name, name) == 0)
			return i;
	tap_bail("no format for %s", name);
}

/* The tree: readdir lists the event directories, stat gives the modes. */
static void check_tree(void)
{
	static const char *const vmscan[] = {
		"enable", "mm_vmscan_kswapd_sleep", "mm_vmscan_kswapd_wake",
		"mm_vmscan_wakeup_kswapd", "mm_vmscan_direct_reclaim_begin",
		"mm_vmscan_direct_reclaim_end", "mm_vmscan_lru_isolate", "mm_vmscan_writepage",
		"mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_active",
	};
	struct stat pipe_st, trace_st, dir_st;
	size_t i, found = 0, entries = 0;
	struct dirent *d;
	DIR *dir;

	dir = opendir(T "events/vmscan");
	if (!dir)
		tap_bail("opendir events/vmscan: %s", strerror(errno));
	while ((d = readdir(dir))) {
		entries++;
		for (i = 0; i < sizeof(vmscan) / sizeof(vmscan[0]); i++)
			if (strcmp(d->d_name, vmscan[i]) == 0)
				found++;
	}
	closedir(dir);
	tap_check(found == sizeof(vmscan) / sizeof(vmscan[0]) && entries == found + 2,
		  "events/vmscan lists enable and a directory per event", "%zu of %zu found, %zu entries",
		  found, sizeof(vmscan) / sizeof(vmscan[0]), entries);
	tap_check(stat(T "trace_pipe", &pipe_st) == 0 && stat(T "trace", &trace_st) == 0 &&
		  stat(T "events/vmscan/mm_vmscan_kswapd_wake", &dir_st) == 0 &&
		  pipe_st.st_mode == (S_IFREG | 0444) && trace_st.st_mode == (S_IFREG | 0644) &&
		  S_ISDIR(dir_st.st_mode), "the files have Linux's modes",
		  "trace_pipe %o, trace %o", pipe_st.st_mode, trace_st.st_mode);
}

static void check_controls(void)
{
	static const char *const events[] = {
		"vmscan:mm_vmscan_kswapd_sleep", "vmscan:mm_vmscan_kswapd_wake",
		"vmscan:mm_vmscan_wakeup_kswapd", "vmscan:mm_vmscan_direct_reclaim_begin",
		"vmscan:mm_vmscan_direct_reclaim_end", "vmscan:mm_vmscan_lru_isolate",
		"vmscan:mm_vmscan_writepage", "vmscan:mm_vmscan_lru_shrink_inactive",
		"vmscan:mm_vmscan_lru_shrink_active", "oom:oom_score_adj_update",
		"oom:mark_victim", "pageturn:swap_writepage", "pageturn:swap_readpage",
		"pageturn:mm_lru_sample", "pageturn:mm_vmstat_sample",
	};
	char buf[2048], line[80];
	size_t i, missing = 0;

	get("available_events", buf, sizeof(buf));
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(line, sizeof(line), "%s\n", events[i]);
		if (!strstr(buf, line) && missing++ == 0)
			tap_note("available_events lacks %s", events[i]);
	}
	tap_check(missing == 0, "available_events lists every event", "%zu missing", missing);

	tap_check(put("events/vmscan/mm_vmscan_kswapd_wake/enable", "2") == EINVAL &&
		  put("events/vmscan/mm_vmscan_kswapd_wake/enable", "abc") == EINVAL &&
		  put("events/vmscan/enable", "\n") == EINVAL && put("events/enable", "-1") == EINVAL,
		  "an enable other than 0 or 1 is EINVAL", NULL);
	tap_check(put("tracing_on", "on") == EINVAL && put("buffer_size_kb", "0") == EINVAL &&
		  put("buffer_size_kb", "12x") == EINVAL,
		  "tracing_on and buffer_size_kb take only numbers, the size not 0", NULL);
	tap_check(put("set_event", "vmscan:no_such_event") == EINVAL &&
		  put("set_event", "nosys:*") == EINVAL && put("set_event", "no_such_event") == EINVAL,
		  "set_event refuses an unknown event", NULL);
	get("events/enable", buf, sizeof(buf));
	tap_check(strcmp(buf, "0\n") == 0 && strcmp(get("tracing_on", line, sizeof(line)), "1\n") == 0 &&
		  strcmp(get("set_event", buf, sizeof(buf)), "") == 0,
		  "the refused writes changed nothing", "events/enable %s", buf);

	must_put("events/vmscan/mm_vmscan_kswapd_wake/enable", "1\n");
	tap_check(strcmp(get("events/vmscan/enable", buf, sizeof(buf)), "X\n") == 0 &&
		  strcmp(get("events/vmscan/mm_vmscan_kswapd_wake/enable", line, sizeof(line)), "1\n") == 0 &&
		  strcmp(get("set_event", line, sizeof(line)), "vmscan:mm_vmscan_kswapd_wake\n") == 0,
		  "one event on: its system reads X, set_event lists it", "vmscan/enable %s", buf);
	must_put("events/enable", "0");
	tap_check(strcmp(get("events/vmscan/enable", buf, sizeof(buf)), "0\n") == 0,
		  "events/enable 0 turns every event off", "vmscan/enable %s", buf);
}

static void check_overrun(void)
{
	char stats[512];
	long entries, written, entries2, written2, overrun = -1, ebuf = -1;
	const char *p;

	must_put("buffer_size_kb", "4");
	truncate_file("trace");
	must_put("events/pageturn/mm_lru_sample/enable", "1");
	sleep_ms(400);
	must_put("events/pageturn/mm_lru_sample/enable", "0");
	read_trace(&entries, &written);
	get("per_cpu/cpu0/stats", stats, sizeof(stats));
	if ((p = strstr(stats, "overrun: ")))
		overrun = atol(p + 9);
	if ((p = strstr(stats, "entries: ")))
		ebuf = atol(p + 9);
	tap_check(entries > 0 && written > entries && overrun == written - entries && ebuf == entries,
		  "a full one-page buffer counts its overruns",
		  "entries %ld written %ld; stats entries %ld overrun %ld", entries, written, ebuf, overrun);
	tap_check(strcmp(get("buffer_size_kb", stats, sizeof(stats)), "4\n") == 0,
		  "buffer_size_kb reads back", "%s", stats);

	must_put("trace", "x");
	read_trace(&entries, &written);
	tap_check(entries == 0 && written == 0, "a write to trace empties it",
		  "%ld/%ld", entries, written);
	must_put("events/pageturn/mm_lru_sample/enable", "1");
	sleep_ms(50);
	must_put("events/pageturn/mm_lru_sample/enable", "0");
	read_trace(&entries, &written);
	truncate_file("trace");
	read_trace(&entries2, &written2);
	tap_check(entries > 0 && entries2 == 0 && written2 == 0, "opening trace with O_TRUNC empties it",
		  "%ld entries before, %ld/%ld after", entries, entries2, written2);
	sleep_ms(100);
	read_trace(&entries, &written);
	tap_check(entries == 0 && written == 0, "with its events off (enable 0) nothing is recorded",
		  "%ld/%ld", entries, written);
}

static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

static void check_trace_pipe(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { 0, 300000 } };
	long entries, written, got = 0, lines = 0, good = 0;
	static char buf[32768];
	char name[64], *line, *next;
	const char *fields;
	ssize_t n;
	int fd;

	must_put("buffer_size_kb", "64");
	must_put("events/pageturn/mm_lru_sample/enable", "1");
	sleep_ms(100);
	must_put("events/pageturn/mm_lru_sample/enable", "0");
	read_trace(&entries, &written);

	fd = open(T "trace_pipe", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		tap_bail("open trace_pipe: %s", strerror(errno));
	/* Small reads: lines cut at a read's end continue in the next. */
	while ((n = read(fd, buf + got, MIN((size_t)97, sizeof(buf) - 1 - got))) > 0)
		got += n;
	tap_check(n < 0 && errno == EAGAIN, "an empty trace_pipe with O_NONBLOCK is EAGAIN",
		  "read %zd: %s", n, n < 0 ? strerror(errno) : "");
	buf[got] = '\0';
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (!next)
			break;
		*next++ = '\0';
		lines++;
		if (trace_line(line, name, sizeof(name), &fields) && strcmp(name, "mm_lru_sample") == 0 &&
		    regexec(&field_re[format_index("mm_lru_sample")], fields, 0, NULL, 0) == 0)
			good++;
		else if (lines - good == 1)
			tap_note("trace_pipe gave: %s", line);
	}
	tap_check(entries > 0 && lines == entries && good == lines,
		  "trace_pipe gives every entry once, in Linux's line format",
		  "%ld entries, %ld lines, %ld good", entries, lines, good);
	read_trace(&entries, &written);
	tap_check(entries == 0, "what trace_pipe read is gone from trace", "%ld entries left", entries);

	/* Blocking: data comes with the next tick. */
	fcntl(fd, F_SETFL, 0);
	must_put("events/pageturn/mm_vmstat_sample/enable", "1");
	n = read(fd, buf, sizeof(buf) - 1);
	must_put("events/pageturn/mm_vmstat_sample/enable", "0");
	buf[n > 0 ? n : 0] = '\0';
	tap_check(n > 0 && strstr(buf, ": mm_vmstat_sample: pswpin="),
		  "a blocking trace_pipe read returns once an event comes", "read %zd", n);
	while (read_trace(&entries, &written), entries > 0)	/* drain */
		if (read(fd, buf, sizeof(buf)) <= 0)
			break;

	/* poll: nothing to read, then an event. */
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int empty = poll(&pfd, 1, 0), empty_revents = pfd.revents;

	must_put("events/pageturn/mm_vmstat_sample/enable", "1");
	int ready = poll(&pfd, 1, 5000);
	must_put("events/pageturn/mm_vmstat_sample/enable", "0");
	tap_check(empty == 0 && empty_revents == 0 && ready == 1 && (pfd.revents & POLLIN),
		  "poll on trace_pipe waits for an event", "poll %d (revents %#x), then %d (%#x)",
		  empty, empty_revents, ready, pfd.revents);
	while (read_trace(&entries, &written), entries > 0)
		if (read(fd, buf, sizeof(buf)) <= 0)
			break;

	/* Blocking with nothing coming: a signal ends it. */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	n = read(fd, buf, sizeof(buf));
	tap_check(n < 0 && errno == EINTR && alarmed, "a signal ends a blocked trace_pipe read with EINTR",
		  "read %zd: %s", n, n < 0 ? strerror(errno) : "");
	close(fd);
}

static void check_oom_event(void)
{
	long entries, written;
	int i = format_index("oom_score_adj_update");
	int fd;

	truncate_file("trace");
	must_put("events/oom/enable", "1");
	fd = open("/proc/self/oom_score_adj", O_WRONLY);
	if (fd < 0 || write(fd, "123", 3) != 3)
		tap_bail("write oom_score_adj: %s", strerror(errno));
	close(fd);
	must_put("events/oom/enable", "0");
	scan_trace(read_trace(&entries, &written));
	tap_check(seen[i] == 1 && bad[i] == 0, "writing oom_score_adj records oom_score_adj_update",
		  "%d seen, %d bad", seen[i], bad[i]);
}

static void check_reclaim(void)
{
	static const char *const expected[] = {
		"mm_vmscan_kswapd_wake", "mm_vmscan_kswapd_sleep", "mm_vmscan_wakeup_kswapd",
		"mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_isolate", "mm_vmscan_writepage",
		"swap_writepage", "swap_readpage", "mm_lru_sample", "mm_vmstat_sample",
	};
	long entries, written, ram, pages, i, wrong = 0;
	size_t k, missing = 0;
	int other, badfields = 0;
	char *mem;

	if (meminfo_kb("SwapTotal") <= 0) {
		tap_skip("reclaim under tracing", "no swap area is on");
		return;
	}
	ram = meminfo_kb("MemTotal") * 1024;
	pages = ram / 4096 + ram / 4096 / 4;
	mem = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	must_put("buffer_size_kb", "4096");
	must_put("set_event", "vmscan:* pageturn:*");
	for (i = 0; i < pages; i++)
		*(long *)(mem + i * 4096) = i * 7 + 1;
	for (i = 0; i < pages; i++)
		if (*(long *)(mem + i * 4096) != i * 7 + 1)
			wrong++;
	must_put("tracing_on", "0");
	tap_check(wrong == 0, "memory a quarter larger than RAM came back through swap",
		  "%ld pages wrong", wrong);
	other = scan_trace(read_trace(&entries, &written));
	must_put("events/enable", "0");
	must_put("tracing_on", "1");
	munmap(mem, pages * 4096);
	tap_note("%ld of %ld events in the buffer", entries, written);
	for (k = 0; k < sizeof(expected) / sizeof(expected[0]); k++) {
		int f = format_index(expected[k]);

		tap_note("%s: %d", expected[k], seen[f]);
		if (!seen[f])
			missing++;
		badfields += bad[f];
	}
	tap_check(missing == 0, "kswapd, the shrink events, writepage, swap I/O and the samples are in trace",
		  "%zu kinds missing", missing);
	tap_check(other == 0 && badfields == 0, "every line has Linux's format and its event's fields",
		  "%d other lines, %d bad fields", other, badfields);
}

int main(void)
{
	size_t i;

	if (!on_pageturn()) {
		tap_skip("tracefs", "it would change the build machine's tracing");
		return tap_done();
	}
	if (access(T "trace", R_OK) != 0)
		tap_bail("%strace: %s (init mounts tracefs there)", T, strerror(errno));
	trace_text = malloc(TRACE_MAX);
	if (!trace_text)
		tap_bail("malloc");
	if (regcomp(&line_re, "^ *[^ ].*-[0-9]+ +\\[000\\] [.d][.][.h][.][.] +[0-9]+\\.[0-9]{6}: "
		    "([a-z_]+): (.*)$", REG_EXTENDED) != 0)
		tap_bail("regcomp");
	for (i = 0; i < NR_FORMATS; i++)
		if (regcomp(&field_re[i], formats[i].fields, REG_EXTENDED | REG_NOSUB) != 0)
			tap_bail("regcomp %s", formats[i].fields);
	must_put("events/enable", "0");
	must_put("tracing_on", "1");

	check_tree();
	check_controls();
	check_overrun();
	check_trace_pipe();
	check_oom_event();
	check_reclaim();
	must_put("buffer_size_kb", "1408");
	return tap_done();
}
