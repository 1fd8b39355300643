/*
 * hog-random: pages picked at random, uniformly or by a Zipf law, over
 * anonymous memory or a mapped file.
 *
 * The hog writes --size of anonymous memory (--target anon) or makes (or
 * finds) --file of that size and maps it shared and read-only (--target
 * file), then makes --ops accesses, each to one whole page: a check,
 * and for anonymous memory with probability --write-percent then a
 * rewrite with the page's next generation (a byte per page remembers
 * which; checking first means no change goes unseen under a rewrite).
 * Last it checks every page once, so a page the accesses never drew is
 * checked too.
 *
 * Which page: --dist uniform draws every page alike; --dist zipf draws
 * rank k with probability proportional to 1/k^s (--zipf-s), so a few
 * pages take most accesses and most are rarely touched: the working set
 * reclaim should find.  Ranks are spread over the pages by a stride
 * prime to their number, so the popular pages are scattered rather than
 * packed at the start.  The draws come from xorshift64* seeded by --seed:
 * the same seed draws the same pages on every kernel.  The Zipf sampler
 * is rejection-inversion (W. Hormann and G. Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996), constant time per draw with no table.
 *
 * Results: target, dist, size_mib, file_made (file), fill_ms (anon),
 * ops, ops_ms, ops_per_s, distinct_pages, ops_majflt, check_ms,
 * total_ms.
 */
#include "hog.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char usage[] =
	"hog-random [options]\n"
	"Random page accesses (--dist uniform or zipf) over --size of anonymous memory\n"
	"(--target anon) or a mapped file (--target file --file PATH, made if missing);\n"
	"every access checks a whole page (and may rewrite it: --write-percent, anon only).";

static long size, ops, write_percent;
static double zipf_s;
static const char *target, *dist, *file;

static const struct hog_opt opts[] = {
	{ "size", OPT_SIZE, &size, "150%", "the memory or file accessed" },
	{ "target", OPT_STR, &target, "anon", "anon: private anonymous memory; file: a mapped file" },
	{ "file", OPT_STR, &file, NULL, "the file of --target file (made if missing)" },
	{ "dist", OPT_STR, &dist, "zipf", "uniform or zipf" },
	{ "zipf-s", OPT_DOUBLE, &zipf_s, "1.0", "the Zipf exponent s (> 0)" },
	{ "ops", OPT_LONG, &ops, NULL, "page accesses (default: twice the pages)" },
	{ "write-percent", OPT_LONG, &write_percent, "0",
	  "accesses that rewrite the page after checking it (anon only)" },
	HOG_FILE_SEED_OPT,
	HOG_OPT_END
};

/* --- Zipf by rejection-inversion over ranks 1..n, exponent s ---------- */

static struct {
	double s, n, h_x1, h_n, threshold;
} zipf;

/* log1p(x) / x and expm1(x) / x, their limits near 0 by series. */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double h(double x)
{
	return exp(-zipf.s * log(x));
}

/* The integral of h, and its inverse. */
static double h_integral(double x)
{
	double log_x = log(x);

	return helper2((1 - zipf.s) * log_x) * log_x;
}

static double h_integral_inverse(double x)
{
	double t = x * (1 - zipf.s);

	return exp(helper1(t < -1 ? -1 : t) * x);
}

static void zipf_init(long n, double s)
{
	zipf.s = s;
	zipf.n = n;
	zipf.h_x1 = h_integral(1.5) - 1;
	zipf.h_n = h_integral(n + 0.5);
	zipf.threshold = 2 - h_integral_inverse(h_integral(2.5) - h(2));
}

/* A rank in 1..n. */
static long zipf_draw(uint64_t *state)
{
	for (;;) {
		double u01 = (hog_rand(state) >> 11) * 0x1p-53;
		double u = zipf.h_n + u01 * (zipf.h_x1 - zipf.h_n);
		double x = h_integral_inverse(u);
		long k = (long)(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > zipf.n)
			k = zipf.n;
		if (k - x <= zipf.threshold || u >= h_integral(k + 0.5) - h(k))
			return k;
	}
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int main(int argc, char **argv)
{
	struct hog_progress progress;
	long faults, stride, distinct = 0;
	unsigned char *gen, *seen;
	uint64_t state;
	int anon, zipf_dist, fd = -1;
	double start, t0;
	char *mem;

	hog_parse(argc, argv, "random", usage, opts);
	anon = !strcmp(target, "anon");
	zipf_dist = !strcmp(dist, "zipf");
	if (!anon && strcmp(target, "file"))
		hog_usage_error("--target %s: anon or file", target);
	if (!zipf_dist && strcmp(dist, "uniform"))
		hog_usage_error("--dist %s: uniform or zipf", dist);
	if (!anon && !file)
		hog_usage_error("--target file needs --file PATH");
	if (!anon && write_percent)
		hog_usage_error("--write-percent is for --target anon only");
	if (zipf_s <= 0 || write_percent < 0 || write_percent > 100)
		hog_usage_error("--zipf-s must be > 0 and --write-percent 0..100");
	if (!ops)
		ops = 2 * size;
	hog_report("target", "%s", target);
	hog_report("dist", "%s", dist);
	hog_report("size_mib", "%ld", size * PAGE_SIZE >> 20);
	state = hog_mix(hog.seed, 0x7a3d);
	if (zipf_dist)
		zipf_init(size, zipf_s);
	stride = 0x9e3779b1 % size;
	while (stride < 1 || gcd(stride, size) != 1)
		stride++;
	gen = calloc(size, 1);
	seen = calloc(size, 1);
	if (!gen || !seen)
		hog_fail("calloc");

	start = hog_now_ms();
	if (anon) {
		mem = hog_map_anon(size);
		hog_report("fill_ms", "%.0f", hog_fill_set(mem, size, hog_stream(TAG_ANON, 0), "fill"));
		if (hog.corrupt_page >= 0 && hog.corrupt_page < size)
			hog_corrupt_mem(mem + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);
	} else {
		hog_file_prepare(file, size);
		if (hog.corrupt_page >= 0 && hog.corrupt_page < size)
			hog_corrupt_file(file, hog.corrupt_page);
		fd = open(file, O_RDONLY);
		if (fd < 0)
			hog_fail("open_file");
		mem = mmap(NULL, size * PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
		if (mem == MAP_FAILED)
			hog_fail("mmap_file");
	}
	hog_sync();

	faults = hog_majflt();
	t0 = hog_now_ms();
	hog_progress_start(&progress, "access", ops);
	for (long op = 0; op < ops; op++) {
		long i = zipf_dist ? (long)((zipf_draw(&state) - 1) * (__int128)stride % size)
				   : (long)(hog_rand(&state) % size);
		char *page = mem + i * PAGE_SIZE;

		distinct += !seen[i];
		seen[i] = 1;
		if (!anon) {
			hog_check(page, hog_file_stream(), i, "file");
		} else {
			hog_check(page, hog_stream(TAG_ANON, gen[i]), i, "anon");
			if ((long)(hog_rand(&state) % 100) < write_percent)
				hog_fill(page, hog_stream(TAG_ANON, ++gen[i]), i);
		}
		hog_progress(&progress, op + 1);
	}
	t0 = hog_now_ms() - t0;
	hog_report("ops", "%ld", ops);
	hog_report("ops_ms", "%.0f", t0);
	hog_report("ops_per_s", "%.0f", t0 > 0 ? ops / (t0 / 1000) : 0);
	hog_report("distinct_pages", "%ld", distinct);
	hog_report("ops_majflt", "%ld", hog_majflt() - faults);

	t0 = hog_now_ms();
	hog_progress_start(&progress, "check", size);
	for (long i = 0; i < size; i++) {
		hog_check(mem + i * PAGE_SIZE, anon ? hog_stream(TAG_ANON, gen[i]) : hog_file_stream(), i,
			  anon ? "anon" : "file");
		hog_progress(&progress, i + 1);
	}
	hog_report("check_ms", "%.0f", hog_now_ms() - t0);
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
