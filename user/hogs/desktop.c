/*
 * hog-desktop: several hogs at once, each a different pattern, the way a
 * desktop's programs share one machine.
 *
 * It starts five of the other hogs together, each with a share of --size
 * and a role:
 *
 *   batch job  hog-seq --rewrite          25%  sequential, rewritten
 *   browser    hog-hotcold                30%  hot tabs (a third), cold ones
 *   database   hog-random zipf, 20% writes 20%  a few hot pages, many cold
 *   indexer    hog-filecycle              15%  a file (--dir) reread, anon cycling
 *   build      hog-tmpfs                  10%  files in --tmpdir, anon beside
 *
 * (the shares add up to 100% of --size; the indexer's file is two thirds
 * of its share).  The five start together, and each waits once it has
 * filled its memory (hog_sync: after the batch job's write, the
 * browser's cold fill, the database's fill, the indexer's first anon
 * write, the build's pressure fill) until all have, so the mix holds
 * all of --size at once, on a kernel that runs them one after another
 * as on one that runs them side by side; a worker that ends before that
 * point counts as arrived.  Each runs with --quiet and a seed of its
 * own drawn from --seed, its stdout into a pipe of this process; its
 * stderr is this one's.  When all have ended, their lines (mismatch lines and result
 * lines) are printed in the order above, then this hog's result line:
 * the time each took, how many ended without a result=ok, and their
 * bytes_touched and mismatches summed.  --corrupt-page N is handed to the batch job.
 *
 * The workers are found beside this program (the directory of
 * /proc/self/exe: /usr/bin on Pageturn).  Exit status 1 when a worker
 * saw a mismatch, 2 (error=workers) when one failed otherwise (killed,
 * exit status 2).
 *
 * Results: size_mib, workers, NAME_ms per worker (from the start to its
 * end), workers_failed, wall_ms.
 */
#include "hog.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
	"hog-desktop [options]\n"
	"Five hogs at once (sequential, hot and cold, Zipf random, a reread file, tmpfs),\n"
	"sharing --size between them; their result lines, then the mix's.";

static long size;
static const char *dir, *tmpdir;

static const struct hog_opt opts[] = {
	{ "size", OPT_SIZE, &size, "120%", "the memory the five share" },
	{ "dir", OPT_STR, &dir, "/tmp", "where the indexer's file is (made if missing)" },
	{ "tmpdir", OPT_STR, &tmpdir, "/tmp", "where the build's tmpfs file goes" },
	HOG_OPT_END
};

#define NR_WORKERS	5
#define MAX_ARGS	16
#define OUT_SIZE	16384

struct worker {
	const char *hog;	/* the program: hog-HOG */
	const char *role;
	pid_t pid;
	int fd;			/* its stdout's pipe, -1 once at end of file */
	char out[OUT_SIZE];	/* what it printed (the rest is dropped) */
	size_t len;
	double ms;
	int status;
	char args[MAX_ARGS][64];
	int nargs;
};

static struct worker workers[NR_WORKERS] = {
	{ .hog = "seq", .role = "batch_job" },
	{ .hog = "hotcold", .role = "browser" },
	{ .hog = "random", .role = "database" },
	{ .hog = "filecycle", .role = "indexer" },
	{ .hog = "tmpfs", .role = "build" },
};

static void arg(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void arg(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->args[w->nargs++], sizeof(w->args[0]), fmt, ap);
	va_end(ap);
}

/* percent of --size in KiB (at least one page), as a size argument. */
static long share_kb(long percent)
{
	long kb = size * (PAGE_SIZE / 1024) * percent / 100;

	return kb < 4 ? 4 : kb;
}

static void make_args(void)
{
	struct worker *w;

	for (int i = 0; i < NR_WORKERS; i++) {
		arg(&workers[i], "--quiet");
		arg(&workers[i], "--seed=%llu", (unsigned long long)(hog_mix(hog.seed, i) >> 16));
	}
	w = &workers[0];
	arg(w, "--size=%ldK", share_kb(25));
	arg(w, "--rewrite");
	if (hog.corrupt_page >= 0)
		arg(w, "--corrupt-page=%ld", hog.corrupt_page);
	w = &workers[1];
	arg(w, "--hot=%ldK", share_kb(10));
	arg(w, "--cold=%ldK", share_kb(20));
	arg(w, "--passes=5");
	w = &workers[2];
	arg(w, "--size=%ldK", share_kb(20));
	arg(w, "--dist=zipf");
	arg(w, "--write-percent=20");
	w = &workers[3];
	arg(w, "--file=%s/hog-desktop.dat", dir);
	arg(w, "--file-size=%ldK", share_kb(10));
	arg(w, "--anon=%ldK", share_kb(5));
	arg(w, "--passes=3");
	w = &workers[4];
	arg(w, "--dir=%s", tmpdir);
	arg(w, "--size=%ldK", share_kb(5));
	arg(w, "--pressure=%ldK", share_kb(5));
}

/* hog_sync's pipes: every worker holds sync_ready[1] and sync_go[0]. */
static int sync_ready[2] = { -1, -1 }, sync_go[2] = { -1, -1 };

static void start(struct worker *w, const char *bindir)
{
	char path[4096 + 32];
	char *argv[MAX_ARGS + 2];
	int p[2];

	snprintf(path, sizeof(path), "%s/hog-%s", bindir, w->hog);
	argv[0] = path;
	for (int i = 0; i < w->nargs; i++)
		argv[i + 1] = w->args[i];
	argv[w->nargs + 1] = NULL;
	if (pipe(p) < 0)
		hog_fail("pipe");
	fflush(stdout);
	w->pid = fork();
	if (w->pid < 0)
		hog_fail("fork");
	if (w->pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		close(sync_ready[0]);
		close(sync_go[1]);
		execv(path, argv);
		fprintf(stderr, "hog-desktop: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	w->fd = p[0];
}

/* Read what w printed; at end of file reap it.  Returns 1 when it ended. */
static int drain(struct worker *w, double t0)
{
	char buf[4096];
	ssize_t n = read(w->fd, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return 0;
	if (n > 0) {
		size_t keep = (size_t)n < OUT_SIZE - w->len ? (size_t)n : OUT_SIZE - w->len;

		memcpy(w->out + w->len, buf, keep);
		w->len += keep;
		return 0;
	}
	close(w->fd);
	w->fd = -1;
	while (waitpid(w->pid, &w->status, 0) < 0)
		if (errno != EINTR)
			hog_fail("waitpid");
	w->ms = hog_now_ms() - t0;
	return 1;
}

/* The value of key=N in w's result line ("hog=HOG ..."), or -1. */
static long result_value(const struct worker *w, const char *key, const char **result)
{
	char head[32], pat[40];
	const char *line, *at, *end;

	snprintf(head, sizeof(head), "hog=%s ", w->hog);
	for (line = w->out; line < w->out + w->len; line = end + 1) {
		end = memchr(line, '\n', w->out + w->len - line);
		if (!end)
			break;
		if (strncmp(line, head, strlen(head)))
			continue;
		snprintf(pat, sizeof(pat), " %s=", key);
		at = memmem(line, end - line, pat, strlen(pat));
		*result = memmem(line, end - line, " result=ok", 10) ? "ok" : "FAIL";
		return at ? strtol(at + strlen(pat), NULL, 10) : -1;
	}
	*result = NULL;
	return -1;
}

int main(int argc, char **argv)
{
	char bindir[4096], key[32];
	struct pollfd fds[NR_WORKERS + 1];
	int running = NR_WORKERS, failed = 0;
	double t0, next;
	ssize_t n;

	hog_parse(argc, argv, "desktop", usage, opts);
	hog_report("size_mib", "%ld", size * PAGE_SIZE >> 20);
	hog_report("workers", "%d", NR_WORKERS);
	n = readlink("/proc/self/exe", bindir, sizeof(bindir) - 1);
	if (n < 0)
		hog_fail("readlink_exe");
	bindir[n] = 0;
	*strrchr(bindir, '/') = 0;
	make_args();

	if (pipe(sync_ready) < 0 || pipe(sync_go) < 0)
		hog_fail("pipe");
	snprintf(key, sizeof(key), "%d,%d", sync_ready[1], sync_go[0]);
	if (setenv("HOG_SYNC", key, 1) < 0)
		hog_fail("setenv");

	t0 = hog_now_ms();
	next = t0 + 1000;
	for (int i = 0; i < NR_WORKERS; i++)
		start(&workers[i], bindir);
	close(sync_ready[1]);
	close(sync_go[0]);
	while (running) {
		int nfds = 0;

		for (int i = 0; i < NR_WORKERS; i++)
			if (workers[i].fd >= 0)
				fds[nfds++] = (struct pollfd){ .fd = workers[i].fd, .events = POLLIN };
		/* Last: end of file on it means every worker is at hog_sync or gone. */
		if (sync_ready[0] >= 0)
			fds[nfds++] = (struct pollfd){ .fd = sync_ready[0], .events = POLLIN };
		if (poll(fds, nfds, 1000) < 0 && errno != EINTR)
			hog_fail("poll");
		if (sync_ready[0] >= 0 && fds[nfds - 1].revents) {
			char c;

			if (read(sync_ready[0], &c, 1) == 0) {
				close(sync_ready[0]);
				close(sync_go[1]);
				sync_ready[0] = -1;
			}
		}
		for (int i = 0, j = 0; i < NR_WORKERS; i++) {
			if (workers[i].fd < 0)
				continue;
			if (fds[j++].revents && drain(&workers[i], t0))
				running--;
		}
		if (!hog.quiet && hog_now_ms() >= next) {
			next = hog_now_ms() + 1000;
			fprintf(stderr, "hog-desktop: %d of %d workers running, %.1f s\n", running,
				NR_WORKERS, (hog_now_ms() - t0) / 1000);
		}
	}

	for (int i = 0; i < NR_WORKERS; i++) {
		struct worker *w = &workers[i];
		const char *result;
		long mismatches = result_value(w, "mismatches", &result);
		long touched = result_value(w, "bytes_touched", &result);

		fwrite(w->out, 1, w->len, stdout);
		if (touched > 0)
			hog.bytes_touched += touched;
		snprintf(key, sizeof(key), "%s_ms", w->hog);
		hog_report(key, "%.0f", w->ms);
		if (mismatches > 0)
			hog.mismatches += mismatches;
		else if (!WIFEXITED(w->status) || WEXITSTATUS(w->status) || !result ||
			 strcmp(result, "ok")) {
			failed++;
			fprintf(stderr, "hog-desktop: the %s (hog-%s) failed: status 0x%x\n", w->role,
				w->hog, w->status);
		}
	}
	hog_report("workers_failed", "%d", failed);
	hog_report("wall_ms", "%.0f", hog_now_ms() - t0);
	if (failed && !hog.mismatches) {
		errno = 0;
		hog_fail("workers");
	}
	return hog_finish();
}
