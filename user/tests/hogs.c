/*
 * hogs: every memory hog (user/hogs/, /usr/bin/hog-*) finds a changed
 * page, and finds none where nothing changed.
 *
 * The hogs exist to measure reclaim, but what makes their numbers worth
 * anything is that each checks every page it reads back: a kernel that
 * loses a write, hands back a stale or a neighbouring page, or mixes one
 * process's copy with another's must fail the run, not speed it up.
 * This test holds each hog to that, at small sizes, through its public
 * face (the command line, the result line, the exit status):
 *
 *   - run plainly, it must exit with status 0, print its result line
 *     "hog=NAME ... mismatches=0 result=ok" and no mismatch line;
 *   - run with --corrupt-page N (a byte of page N flipped after it was
 *     written, behind the hog's back: through /proc/self/mem on Linux, a
 *     plain store on Pageturn, which has no /proc/PID/mem) or with
 *     --corrupt-file-page N (a byte of its file flipped through a
 *     descriptor of its own), it must exit with status 1, print
 *     "mismatch hog=NAME set=SET page=N ..." for that page and set, and
 *     end with result=FAIL;
 *   - after a run with a corrupted file, the next plain run must find the
 *     file as it was (the hog flips the byte back at exit) and reuse it
 *     (file_made=0);
 *   - --help exits with status 0 and names the program; an unknown option
 *     exits with status 2.
 *
 * Every hog runs, random three ways (uniform with rewrites, Zipf, over a
 * mapped file), and desktop, whose mix must report its batch job's
 * mismatch.  Files go to a directory of their own under /tmp (tmpfs on
 * Pageturn), removed at the end.  The hogs are found at /usr/bin/hog-NAME
 * under $PAGETURN_ROOT (build/rootfs on the build machine).  Sizes are a
 * few MiB: memory pressure is the QEMU case hogs_swap_64m_bios's job.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT_SIZE 65536

struct hog_case {
	const char *hog;	/* /usr/bin/hog-HOG */
	const char *args;	/* words; %D is the scratch directory */
	long page;		/* the page --corrupt-page flips */
	const char *set;	/* the set the mismatch line must name */
	long file_page;		/* the page --corrupt-file-page flips, or -1 */
	const char *mismatch_hog;	/* the hog= of the mismatch line (desktop: seq) */
};

static const struct hog_case cases[] = {
	{ "seq", "--size 4M --passes 2 --rewrite", 100, "anon", -1, NULL },
	{ "stream", "--file %D/stream.dat --file-size 4M --hot 1M --interval 1M", 10, "hot", 700, NULL },
	{ "hotcold", "--hot 1M --cold 2M --passes 3", 200, "hot", -1, NULL },
	{ "filecycle", "--file %D/cycle.dat --file-size 2M --anon 1M --passes 2", 3, "anon", 300, NULL },
	{ "fork", "--size 2M --children 3 --passes 1", 5, "child0", -1, NULL },
	{ "mlock", "--lock 1M --pressure 2M", 255, "locked", -1, NULL },
	{ "tmpfs", "--dir %D --size 1M --pressure 1M", 17, "tmpfs", -1, NULL },
	{ "random", "--size 2M --dist uniform --write-percent 30", 400, "anon", -1, NULL },
	{ "random", "--size 2M --dist zipf", 1, "anon", -1, NULL },
	{ "random", "--target file --file %D/random.dat --size 2M", 33, "file", -1, NULL },
	{ "desktop", "--size 8M --dir %D --tmpdir %D", 2, "anon", -1, "seq" },
};
#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static char dir[64];
static char out[OUT_SIZE];

/*
 * Run hog-HOG with args (split at spaces, %D replaced) and then extra
 * (one word, or NULL); its stdout into out, its stderr to /dev/null.
 * Returns the wait status.
 */
static int run(const char *hog, const char *args, const char *extra)
{
	char words[512], *argv[32], path[4096];
	int argc = 0, p[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s", root_path("/usr/bin/hog-"));
	strncat(path, hog, sizeof(path) - strlen(path) - 1);
	argv[argc++] = path;
	for (const char *a = args; *a && len < sizeof(words) - 64; a++)
		if (a[0] == '%' && a[1] == 'D') {
			len += snprintf(words + len, sizeof(words) - len, "%s", dir);
			a++;
		} else
			words[len++] = *a;
	words[len] = 0;
	for (char *w = strtok(words, " "); w && argc < 28; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc++] = "--quiet";
	if (extra)
		argv[argc++] = (char *)extra;
	argv[argc] = NULL;

	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		dup2(null, 2);
		close(p[0]);
		close(p[1]);
		execv(path, argv);
		_exit(127);
	}
	close(p[1]);
	len = 0;
	while ((n = read(p[0], out + len, sizeof(out) - 1 - len)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			len += n;
	out[len] = 0;
	close(p[0]);
	test_wait(pid, &status, 0);
	return status;
}

/* The line of out that starts with prefix (up to its newline, in buf), or NULL. */
static const char *line_with(const char *prefix, char *buf, size_t size)
{
	for (const char *l = out; *l; ) {
		const char *end = strchr(l, '\n');
		size_t n = end ? (size_t)(end - l) : strlen(l);

		if (!strncmp(l, prefix, strlen(prefix))) {
			snprintf(buf, size, "%.*s", (int)n, l);
			return buf;
		}
		if (!end)
			break;
		l = end + 1;
	}
	return NULL;
}

/* The first line of out, for the details of a failed check. */
static const char *first_line(void)
{
	static char buf[256];
	const char *end = strchr(out, '\n');

	snprintf(buf, sizeof(buf), "%.*s", end ? (int)(end - out) : (int)strlen(out), out);
	return buf;
}

static int exited_with(int status, int code)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

/* A plain run: exit status 0, result=ok, mismatches=0, no mismatch line. */
static void check_clean(const struct hog_case *c, const char *what, int reused_file)
{
	char head[32], result[2048], mismatch[512], label[160], got[64];
	int status = run(c->hog, c->args, NULL);
	const char *line, *bad;

	snprintf(head, sizeof(head), "hog=%s ", c->hog);
	line = line_with(head, result, sizeof(result));
	bad = line_with("mismatch ", mismatch, sizeof(mismatch));
	snprintf(label, sizeof(label), "hog-%s %s: %s", c->hog, c->args, what);
	tap_check(exited_with(status, 0) && line && strstr(line, " mismatches=0 result=ok") &&
		  !bad && (!reused_file || strstr(line, " file_made=0 ")),
		  label, "%s; %s; result line: %s", test_status_str(status, got, sizeof(got)),
		  bad ? bad : "no mismatch line", line ? line : first_line());
}

/* A run with option N: exit status 1, the page's mismatch line, result=FAIL. */
static void check_corrupt(const struct hog_case *c, const char *option, long page,
			  const char *set)
{
	char head[32], want[96], result[2048], mismatch[512], label[160], arg[64], got[64];
	const char *line, *bad;
	int status;

	snprintf(arg, sizeof(arg), "--%s=%ld", option, page);
	status = run(c->hog, c->args, arg);
	snprintf(head, sizeof(head), "hog=%s ", c->hog);
	snprintf(want, sizeof(want), "mismatch hog=%s set=%s page=%ld ",
		 c->mismatch_hog ? c->mismatch_hog : c->hog, set, page);
	line = line_with(head, result, sizeof(result));
	bad = line_with(want, mismatch, sizeof(mismatch));
	snprintf(label, sizeof(label), "hog-%s %s %s: the flipped byte is found", c->hog, c->args,
		 arg);
	tap_check(exited_with(status, 1) && bad && line && strstr(line, " result=FAIL") &&
		  !strstr(line, " mismatches=0 "),
		  label, "%s; wanted a line \"%s...\"; got: %s / %s",
		  test_status_str(status, got, sizeof(got)), want, bad ? bad : "(none)",
		  line ? line : first_line());
}

static void check_usage(const char *hog)
{
	char want[32], label[64], got[64];
	int status = run(hog, "--help", NULL);

	snprintf(want, sizeof(want), "hog-%s ", hog);
	snprintf(label, sizeof(label), "hog-%s --help", hog);
	tap_check(exited_with(status, 0) && !strncmp(out, want, strlen(want)) &&
		  strstr(out, "--corrupt-page"), label, "%s; %s",
		  test_status_str(status, got, sizeof(got)), first_line());
	status = run(hog, "--no-such-option", NULL);
	snprintf(label, sizeof(label), "hog-%s --no-such-option: exit status 2", hog);
	tap_check(exited_with(status, 2), label, "%s", test_status_str(status, got, sizeof(got)));
}

int main(void)
{
	const char *files[] = { "stream.dat", "cycle.dat", "random.dat", "hog-desktop.dat" };
	char path[128];

	snprintf(dir, sizeof(dir), "/tmp/hogs.%d", (int)getpid());
	if (access(root_path("/usr/bin/hog-seq"), X_OK) < 0)
		tap_bail("%s: %s (on the build machine set PAGETURN_ROOT=build/rootfs)",
			 root_path("/usr/bin/hog-seq"), strerror(errno));
	if (mkdir(dir, 0700) < 0)
		tap_bail("mkdir %s: %s", dir, strerror(errno));

	for (size_t i = 0; i < NR_CASES; i++) {
		const struct hog_case *c = &cases[i];

		if (i == 0 || strcmp(c->hog, cases[i - 1].hog))
			check_usage(c->hog);
		check_clean(c, "no mismatch", 0);
		check_corrupt(c, "corrupt-page", c->page, c->set);
		if (c->file_page >= 0) {
			check_corrupt(c, "corrupt-file-page", c->file_page, "file");
			check_clean(c, "the file is back as it was", 1);
		}
	}

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	tap_check(rmdir(dir) == 0, "the scratch directory is empty at the end (tmpfs files removed)",
		  "rmdir %s: %s", dir, strerror(errno));
	return tap_done();
}
