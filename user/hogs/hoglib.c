/*
 * hoglib: options, patterns, results and corruption for every hog (the
 * contract is hog.h's essay).
 *
 * State: one struct hog_run per process (hog), set by hog_parse() and
 * counted into by hog_check() and the hogs; the result line is built in
 * result_buf by hog_report() and printed once, by hog_finish() or
 * hog_fail().  A forked child inherits both; it reports through its exit
 * status and never prints the result line.
 */
#include "hog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct hog_run hog = { .corrupt_page = -1, .file_seed = HOG_FILE_SEED };

static char result_buf[4096];
static size_t result_len;
static long mismatch_lines;
static long seed_opt = -1;
static char io_buf[256 * 1024] __attribute__((aligned(4096)));
#define IO_PAGES ((long)(sizeof(io_buf) / PAGE_SIZE))

static const struct hog_opt common_opts[] = {
	{ "seed", OPT_LONG, &seed_opt, NULL,
	  "the run's seed: patterns and random choices (default: from the clock and pid)" },
	{ "corrupt-page", OPT_LONG, &hog.corrupt_page, NULL,
	  "debug: flip a byte of page N after writing it; the run must then fail" },
	{ "quiet", OPT_FLAG, &hog.quiet, NULL, "no progress lines on stderr" },
	{ "help", OPT_FLAG, NULL, NULL, "this text" },
	HOG_OPT_END
};

long hog_meminfo_kb(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			kb = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

double hog_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noreturn, format(printf, 1, 2))) void hog_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hog-%s: ", hog.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (--help lists the options)\n");
	exit(2);
}

/*
 * A size in pages: "N" or "NM" MiB, "NK" KiB, "NG" GiB, "N%" of MemTotal.
 * Returns -1 for text that is none of these or a size of 0.
 */
static long parse_size(const char *text)
{
	char *end;
	double n = strtod(text, &end);
	double kb;

	if (end == text || n <= 0)
		return -1;
	if (!strcmp(end, "") || !strcasecmp(end, "M"))
		kb = n * 1024;
	else if (!strcasecmp(end, "K"))
		kb = n;
	else if (!strcasecmp(end, "G"))
		kb = n * 1024 * 1024;
	else if (!strcmp(end, "%")) {
		long total = hog_meminfo_kb("MemTotal");

		if (total <= 0)
			hog_usage_error("size %s: no MemTotal in /proc/meminfo", text);
		kb = total * n / 100;
	} else
		return -1;
	return kb >= PAGE_SIZE / 1024 ? (long)(kb / (PAGE_SIZE / 1024)) : -1;
}

static void set_value(const struct hog_opt *o, const char *arg)
{
	char *end;

	switch (o->kind) {
	case OPT_SIZE:
		if ((*(long *)o->value = parse_size(arg)) < 0)
			hog_usage_error("--%s %s: not a size (300, 300M, 64K, 2G, 150%%)", o->name, arg);
		break;
	case OPT_LONG:
		errno = 0;
		*(long *)o->value = strtol(arg, &end, 0);
		if (errno || end == arg || *end)
			hog_usage_error("--%s %s: not a number", o->name, arg);
		break;
	case OPT_DOUBLE:
		*(double *)o->value = strtod(arg, &end);
		if (end == arg || *end)
			hog_usage_error("--%s %s: not a number", o->name, arg);
		break;
	case OPT_STR:
		*(const char **)o->value = arg;
		break;
	case OPT_FLAG:
		*(int *)o->value = 1;
		break;
	}
}

static const struct hog_opt *find_opt(const struct hog_opt *opts, const char *name, size_t len)
{
	for (const struct hog_opt *o = opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static void print_opts(const struct hog_opt *opts)
{
	static const char *const arg_names[] = {
		[OPT_SIZE] = "SIZE", [OPT_LONG] = "N", [OPT_DOUBLE] = "X", [OPT_STR] = "ARG",
	};
	char left[64];

	for (const struct hog_opt *o = opts; o->name; o++) {
		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->kind == OPT_FLAG ? "" : " ",
			 o->kind == OPT_FLAG ? "" : arg_names[o->kind]);
		printf("  %-22s %s", left, o->help);
		if (o->def && o->kind != OPT_FLAG)
			printf(" (default %s)", o->def);
		printf("\n");
	}
}

void hog_parse(int argc, char **argv, const char *name, const char *usage,
	       const struct hog_opt *opts)
{
	const struct hog_opt *o;

	hog.name = name;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (o = opts; o->name; o++)
		if (o->def)
			set_value(o, o->def);
	for (o = common_opts; o->name; o++)
		if (o->def)
			set_value(o, o->def);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *eq, *value;
		size_t len;

		if (strncmp(arg, "--", 2))
			hog_usage_error("%s: not an option", arg);
		arg += 2;
		eq = strchr(arg, '=');
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		if (len == 4 && !strncmp(arg, "help", 4)) {
			printf("%s\nOptions (sizes: MiB, or with K, M, G, or %% of MemTotal):\n", usage);
			print_opts(opts);
			print_opts(common_opts);
			exit(0);
		}
		o = find_opt(opts, arg, len);
		if (!o)
			o = find_opt(common_opts, arg, len);
		if (!o)
			hog_usage_error("--%.*s: no such option", (int)len, arg);
		if (o->kind == OPT_FLAG) {
			if (eq)
				hog_usage_error("--%s takes no value", o->name);
			set_value(o, NULL);
			continue;
		}
		if (eq)
			value = eq + 1;
		else if (i + 1 < argc)
			value = argv[++i];
		else
			hog_usage_error("--%s needs a value", o->name);
		set_value(o, value);
	}
	hog.seed = seed_opt >= 0 ? (uint64_t)seed_opt
				 : hog_mix((uint64_t)hog_now_ms() * 1000, (uint64_t)getpid()) >> 16;
	hog_report("seed", "%llu", (unsigned long long)hog.seed);
}

void hog_report(const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (result_len >= sizeof(result_buf))
		return;
	n = snprintf(result_buf + result_len, sizeof(result_buf) - result_len, " %s=", key);
	if (n > 0)
		result_len += n;
	if (result_len >= sizeof(result_buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(result_buf + result_len, sizeof(result_buf) - result_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		result_len += n;
}

int hog_finish(void)
{
	printf("hog=%s%.*s bytes_touched=%llu mismatches=%ld result=%s\n", hog.name,
	       (int)result_len, result_buf, (unsigned long long)hog.bytes_touched,
	       hog.mismatches, hog.mismatches ? "FAIL" : "ok");
	fflush(stdout);
	return hog.mismatches ? 1 : 0;
}

void hog_fail(const char *what)
{
	int e = errno;

	printf("hog=%s%.*s error=%s", hog.name, (int)result_len, result_buf, what);
	if (e)
		printf(" errno=%d (%s)", e, strerror(e));
	printf(" mismatches=%ld result=FAIL\n", hog.mismatches);
	fflush(stdout);
	exit(2);
}

/* --- patterns ------------------------------------------------------- */

/*
 * HOG_SYNC="READY,GO" names two descriptors hog-desktop left open across
 * exec: the write end of a pipe every worker holds (READY) and the read
 * end of another (GO).  A worker closes READY and reads GO until end of
 * file; hog-desktop sees end of file on READY once every worker has
 * closed it, by this call or by exiting, and then closes GO's write end,
 * which lets them all go on.  A value that does not name two pipes (a
 * stale HOG_SYNC left in a shell's environment) is ignored, so the hog
 * never closes or reads a descriptor that is not hog-desktop's.
 */
static bool is_pipe(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

double hog_sync(void)
{
	const char *env = getenv("HOG_SYNC");
	double t0 = hog_now_ms();
	int ready, go;
	char c;
	ssize_t n;

	if (!env || sscanf(env, "%d,%d", &ready, &go) != 2 || !is_pipe(ready) || !is_pipe(go))
		return 0;
	close(ready);
	do
		n = read(go, &c, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	close(go);
	return hog_now_ms() - t0;
}

uint64_t hog_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a ^ (b * HOG_WORD_STEP);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t hog_stream(enum hog_tag tag, uint64_t gen)
{
	return hog_mix(hog_mix(hog.seed, tag), gen);
}

uint64_t hog_file_stream(void)
{
	return hog_mix((uint64_t)hog.file_seed, TAG_FILE);
}

void hog_fill(void *page, uint64_t stream, uint64_t index)
{
	uint64_t *w = page, key = hog_mix(stream, index);

	for (unsigned long j = 0; j < WORDS_PER_PAGE; j++)
		w[j] = key + j * HOG_WORD_STEP;
	hog.bytes_touched += PAGE_SIZE;
}

int hog_check(const void *page, uint64_t stream, uint64_t index, const char *set)
{
	const uint64_t *w = page;
	uint64_t key = hog_mix(stream, index), got;
	unsigned long j;

	hog.bytes_touched += PAGE_SIZE;
	for (j = 0; j < WORDS_PER_PAGE; j++)
		if (w[j] != key + j * HOG_WORD_STEP)
			break;
	if (j == WORDS_PER_PAGE)
		return 1;
	got = w[j];
	hog.mismatches++;
	if (mismatch_lines++ < HOG_MAX_MISMATCH_LINES) {
		printf("mismatch hog=%s set=%s page=%llu offset=%lu expected=0x%016llx got=0x%016llx\n",
		       hog.name, set, (unsigned long long)index, j * 8,
		       (unsigned long long)(key + j * HOG_WORD_STEP), (unsigned long long)got);
		fflush(stdout);
	}
	return 0;
}

double hog_fill_set(void *mem, long pages, uint64_t stream, const char *phase)
{
	struct hog_progress progress;
	double t0 = hog_now_ms();

	hog_progress_start(&progress, phase, pages);
	for (long i = 0; i < pages; i++) {
		hog_fill((char *)mem + i * PAGE_SIZE, stream, i);
		hog_progress(&progress, i + 1);
	}
	return hog_now_ms() - t0;
}

double hog_check_set(const void *mem, long pages, uint64_t stream, const char *set,
		     const char *phase)
{
	struct hog_progress progress;
	double t0 = hog_now_ms();

	hog_progress_start(&progress, phase, pages);
	for (long i = 0; i < pages; i++) {
		hog_check((const char *)mem + i * PAGE_SIZE, stream, i, set);
		hog_progress(&progress, i + 1);
	}
	return hog_now_ms() - t0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double hog_median(double *v, long n)
{
	qsort(v, n, sizeof(*v), by_value);
	return n ? v[n / 2] : 0;
}

uint64_t hog_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : HOG_WORD_STEP;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* --- memory and files ----------------------------------------------- */

void *hog_map_anon(long pages)
{
	void *p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		hog_fail("mmap");
	return p;
}

void hog_corrupt_mem(void *page, long index)
{
	volatile unsigned char *byte = (unsigned char *)page + HOG_CORRUPT_OFFSET;
	unsigned char flipped = *byte ^ 0xff;
	const char *via = "store";
	int fd = open("/proc/self/mem", O_RDWR);

	if (fd >= 0 && pwrite(fd, &flipped, 1, (off_t)(uintptr_t)byte) == 1)
		via = "proc_mem";
	else
		*byte = flipped;
	if (fd >= 0)
		close(fd);
	hog_report("corrupt_page", "%ld", index);
	hog_report("corrupt_via", "%s", via);
}

/* The byte hog_corrupt_file() flipped, flipped back at exit. */
static struct {
	char path[4096];
	off_t off;
} corrupted;

static int flip_file_byte(const char *path, off_t off)
{
	unsigned char byte;
	int fd = open(path, O_RDWR), ok;

	if (fd < 0)
		return -1;
	ok = pread(fd, &byte, 1, off) == 1 && (byte ^= 0xff, pwrite(fd, &byte, 1, off) == 1);
	close(fd);
	return ok ? 0 : -1;
}

static void repair_file(void)
{
	flip_file_byte(corrupted.path, corrupted.off);
}

void hog_corrupt_file(const char *path, long index)
{
	off_t off = index * PAGE_SIZE + HOG_CORRUPT_OFFSET;

	if (flip_file_byte(path, off) < 0)
		hog_fail("corrupt_file");
	snprintf(corrupted.path, sizeof(corrupted.path), "%s", path);
	corrupted.off = off;
	atexit(repair_file);
	hog_report("corrupt_page", "%ld", index);
	hog_report("corrupt_via", "pwrite");
}

/* Does page index of fd hold its pattern?  Checks without counting. */
static int file_page_is_pattern(int fd, long index)
{
	const uint64_t *w = (const uint64_t *)io_buf;
	uint64_t key = hog_mix(hog_file_stream(), index);

	if (pread(fd, io_buf, PAGE_SIZE, index * PAGE_SIZE) != (ssize_t)PAGE_SIZE)
		return 0;
	for (unsigned long j = 0; j < WORDS_PER_PAGE; j++)
		if (w[j] != key + j * HOG_WORD_STEP)
			return 0;
	return 1;
}

void hog_file_write(int fd, long pages, uint64_t stream, const char *phase)
{
	struct hog_progress progress;

	hog_progress_start(&progress, phase, pages);
	for (long i = 0; i < pages; i += IO_PAGES) {
		long n = pages - i < IO_PAGES ? pages - i : IO_PAGES;
		size_t len = n * PAGE_SIZE, done = 0;

		for (long k = 0; k < n; k++)
			hog_fill(io_buf + k * PAGE_SIZE, stream, i + k);
		while (done < len) {
			ssize_t w = pwrite(fd, io_buf + done, len - done, i * PAGE_SIZE + done);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				hog_fail("write_file");
			done += w;
		}
		hog_progress(&progress, i + n);
	}
}

void hog_file_prepare(const char *path, long pages)
{
	struct stat st;
	double t0 = hog_now_ms();
	int fd = open(path, O_RDWR | O_CREAT, 0644);

	if (fd < 0)
		hog_fail("open_file");
	if (fstat(fd, &st) == 0 && st.st_size == (off_t)(pages * PAGE_SIZE) &&
	    file_page_is_pattern(fd, 0) && file_page_is_pattern(fd, pages - 1)) {
		close(fd);
		hog_report("file_made", "0");
		return;
	}
	if (ftruncate(fd, 0) < 0)
		hog_fail("truncate_file");
	hog_file_write(fd, pages, hog_file_stream(), "make file");
	if (fsync(fd) < 0)
		hog_fail("fsync_file");
	close(fd);
	hog_report("file_made", "1");
	hog_report("file_make_ms", "%.0f", hog_now_ms() - t0);
}

long hog_file_read_check(int fd, long first, long count, uint64_t stream, const char *set,
			 struct hog_progress *progress)
{
	long bad = hog.mismatches;

	for (long i = 0; i < count; i += IO_PAGES) {
		long n = count - i < IO_PAGES ? count - i : IO_PAGES;
		size_t len = n * PAGE_SIZE, done = 0;

		while (done < len) {
			ssize_t r = pread(fd, io_buf + done, len - done,
					  (first + i) * PAGE_SIZE + done);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				hog_fail("read_file");
			if (r == 0) {
				errno = 0;
				hog_fail("file_too_short");
			}
			done += r;
		}
		for (long k = 0; k < n; k++)
			hog_check(io_buf + k * PAGE_SIZE, stream, first + i + k, set);
		if (progress)
			hog_progress(progress, i + n);
	}
	return hog.mismatches - bad;
}

long hog_majflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_majflt : -1;
}

/* --- progress --------------------------------------------------------- */

void hog_progress_start(struct hog_progress *p, const char *phase, long total)
{
	p->phase = phase;
	p->total = total;
	p->checked = 0;
	p->start_ms = hog_now_ms();
	p->next_ms = p->start_ms + 1000;
}

void hog_progress(struct hog_progress *p, long done)
{
	double now;

	if (hog.quiet || (done - p->checked < 256 && done != p->total))
		return;
	p->checked = done;
	now = hog_now_ms();
	if (now < p->next_ms)
		return;
	p->next_ms = now + 1000;
	fprintf(stderr, "hog-%s: %s %ld/%ld (%ld%%) %.1f s\n", hog.name, p->phase, done, p->total,
		p->total ? done * 100 / p->total : 100, (now - p->start_ms) / 1000);
}
