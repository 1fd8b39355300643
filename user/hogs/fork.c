/*
 * hog-fork: children that share their parent's pages and copy them on
 * write.
 *
 * The parent writes --size of private anonymous memory, then forks
 * --children children at once.  Child k checks every page (the view it
 * shares with the parent and its siblings), writes its own generation
 * into every page i with i % children == k (each such write breaks the
 * sharing: a copy on write), and then makes --passes passes checking
 * every page: its own pages must hold its pattern, all the others the
 * parent's.  When the children are done the parent checks that its own
 * view is untouched.  With the default sizes the copies double the
 * memory, so the shared pages, the copies and the page tables pointing
 * at both go through reclaim and swap while they are shared: each
 * process's view must survive that (rmap finding every PTE of a shared
 * page, the swap count of a slot mapped by several processes).
 *
 * Children report through a shared anonymous page (their times and
 * mismatch counts) and their exit status, and print their own mismatch
 * lines (set=childK-shared, childK-own, childK).  --corrupt-page N flips
 * page N in child 0's view only, after its writes: child 0 must see it,
 * and the parent's final pass must not.
 *
 * Results: children, fill_ms, fork_ms (all the forks), child_median_ms,
 * child_max_ms (first check, writes and passes of one child),
 * children_failed, parent_check_ms, total_ms.
 */
#include "hog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
	"hog-fork [options]\n"
	"A parent writes --size of anonymous memory and forks --children; each child\n"
	"checks the shared pages, writes its share of them (copy on write) and checks its\n"
	"view --passes times; then the parent checks its own view.";

static long size, children, passes;

static const struct hog_opt opts[] = {
	{ "size", OPT_SIZE, &size, "50%", "the parent's anonymous memory" },
	{ "children", OPT_LONG, &children, "4", "children forked at once" },
	{ "passes", OPT_LONG, &passes, "2", "each child's checking passes after its writes" },
	HOG_OPT_END
};

/* What a child tells its parent, in a MAP_SHARED page. */
struct child_report {
	double ms;
	long mismatches;
	unsigned long long bytes_touched;
};

/* Child k's life: check, write its share, check its view; exit status 0 or 1. */
static void child(char *mem, long k, struct child_report *report)
{
	uint64_t parent = hog_stream(TAG_ANON, 0), own = hog_stream(TAG_CHILD, k + 1);
	double t0 = hog_now_ms();
	char set[32];

	snprintf(set, sizeof(set), "child%ld-shared", k);
	hog_check_set(mem, size, parent, set, "child check");
	for (long i = k; i < size; i += children)
		hog_fill(mem + i * PAGE_SIZE, own, i);
	if (k == 0 && hog.corrupt_page >= 0 && hog.corrupt_page < size)
		hog_corrupt_mem(mem + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);
	snprintf(set, sizeof(set), "child%ld", k);
	for (long pass = 0; pass < passes; pass++)
		for (long i = 0; i < size; i++)
			hog_check(mem + i * PAGE_SIZE, i % children == k ? own : parent, i, set);
	report->ms = hog_now_ms() - t0;
	report->mismatches = hog.mismatches;
	report->bytes_touched = hog.bytes_touched;
	fflush(stdout);
	_exit(hog.mismatches ? 1 : 0);
}

int main(int argc, char **argv)
{
	struct child_report *reports;
	long failed = 0, child_mismatches = 0;
	unsigned long long base;
	double start, t0, *ms;
	int quiet;
	pid_t *pids;
	char *mem;

	hog_parse(argc, argv, "fork", usage, opts);
	if (children < 1 || passes < 0)
		hog_usage_error("--children must be 1 or more and --passes 0 or more");
	hog_report("size_mib", "%ld", size * PAGE_SIZE >> 20);
	hog_report("children", "%ld", children);
	reports = mmap(NULL, children * sizeof(*reports), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(children, sizeof(*pids));
	ms = calloc(children, sizeof(*ms));
	if (reports == MAP_FAILED || !pids || !ms)
		hog_fail("alloc");
	mem = hog_map_anon(size);

	start = hog_now_ms();
	hog_report("fill_ms", "%.0f", hog_fill_set(mem, size, hog_stream(TAG_ANON, 0), "fill"));
	quiet = hog.quiet;
	hog.quiet = 1;		/* children at once: their progress lines would interleave */
	base = hog.bytes_touched;
	fflush(stdout);
	t0 = hog_now_ms();
	for (long k = 0; k < children; k++) {
		pids[k] = fork();
		if (pids[k] < 0)
			hog_fail("fork");
		if (pids[k] == 0)
			child(mem, k, &reports[k]);
	}
	hog_report("fork_ms", "%.1f", hog_now_ms() - t0);
	hog.quiet = quiet;
	if (hog.corrupt_page >= 0 && hog.corrupt_page < size) {
		hog_report("corrupt_page", "%ld", hog.corrupt_page);
		hog_report("corrupt_child", "0");
	}
	for (long k = 0; k < children; k++) {
		int status;

		while (waitpid(pids[k], &status, 0) < 0)
			if (errno != EINTR)
				hog_fail("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
			failed++;
			fprintf(stderr, "hog-fork: child %ld ended with status 0x%x\n", k, status);
			continue;
		}
		child_mismatches += reports[k].mismatches;
		hog.bytes_touched += reports[k].bytes_touched - base;
		ms[k] = reports[k].ms;
	}
	hog_report("child_median_ms", "%.0f", hog_median(ms, children));
	hog_report("child_max_ms", "%.0f", ms[children - 1]);
	hog_report("children_failed", "%ld", failed);
	hog_report("parent_check_ms", "%.0f",
		   hog_check_set(mem, size, hog_stream(TAG_ANON, 0), "parent", "parent check"));
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	hog.mismatches += child_mismatches;
	if (failed) {
		errno = 0;
		hog_fail("child_died");
	}
	return hog_finish();
}
