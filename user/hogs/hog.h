/*
 * hog.h: what every memory hog shares (user/hogs/hoglib.c).
 *
 * A hog is a static program that puts one kind of pressure on memory and
 * checks, as it goes, that every page it reads back holds what it wrote.
 * The same binary runs on Pageturn and on Linux.  Its contract:
 *
 * Options.  Each program describes its own in a table of struct hog_opt;
 * hog_parse() adds the common ones (--seed, --quiet, --corrupt-page,
 * --help; the hogs with files add HOG_FILE_SEED_OPT), prints --help from
 * the tables, and turns sizes into pages: a size is MiB ("300", "300M"),
 * KiB or GiB with K or G, or a percentage of RAM ("400%" of MemTotal in
 * /proc/meminfo).
 *
 * Patterns.  Every page a hog writes carries a pattern derived from its
 * index and a stream: word j of page i is key + j * HOG_WORD_STEP, with
 * key = hog_mix(stream, i), so a page that came back from another page,
 * another generation, another run or another set fails its check, and
 * so does any single changed byte.  A stream is hog_stream(tag, gen): the
 * run's seed (random unless --seed gives it), the set's tag, and a
 * generation the program bumps when it rewrites a set.  Files use
 * --file-seed (fixed by default) instead of the run's seed, so a file
 * made once can be read by later runs.
 *
 * Output.  Progress lines go to stderr, at most one a second, only once a
 * phase has run a second, and never with --quiet.  A page that fails its
 * check prints a line on stdout,
 *
 *     mismatch hog=NAME set=SET page=N offset=O expected=0x... got=0x...
 *
 * (the first differing 64-bit word; at most HOG_MAX_MISMATCH_LINES such
 * lines per process, every page counted).  At the end one result line,
 *
 *     hog=NAME KEY=VALUE ... bytes_touched=N mismatches=N result=ok
 *
 * whose keys the program added with hog_report() in its order, each once;
 * result=FAIL and exit status 1 when any page mismatched, result=FAIL with
 * error=WHAT (and errno=N when one applies) and exit status 2 when the
 * run could not be made (an mmap or a file failed).  A usage error exits
 * with status 2 and a message on stderr.
 *
 * Planted corruption.  --corrupt-page N flips one byte of page N after it
 * was written, through a path that bypasses the hog's own writes and
 * checks: hog_corrupt_mem() writes through /proc/self/mem where the
 * kernel has it (Linux), else through a plain store (Pageturn has no
 * /proc/PID/mem); hog_corrupt_file() through a descriptor of its own,
 * and puts the byte back when the process exits.
 * The verifying pass must then report the page and the run must fail.
 */
#ifndef PAGETURN_HOG_H
#define PAGETURN_HOG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PAGE_SIZE		4096ul
#define WORDS_PER_PAGE		(PAGE_SIZE / 8)
#define HOG_WORD_STEP		0x9e3779b97f4a7c15ull
#define HOG_MAX_MISMATCH_LINES	10
/* The byte of a page --corrupt-page flips (xor 0xff): inside, not at an edge. */
#define HOG_CORRUPT_OFFSET	2049
/* The fixed seed of files' patterns (--file-seed's default). */
#define HOG_FILE_SEED		0x5eedf11eull

/* Tags of the sets a hog writes: part of each set's stream. */
enum hog_tag {
	TAG_ANON = 1, TAG_HOT, TAG_COLD, TAG_CYCLE, TAG_LOCKED, TAG_PRESSURE,
	TAG_CHILD, TAG_FILE, TAG_TMPFS,
};

enum hog_opt_kind {
	OPT_SIZE,	/* long: pages, from a size (MiB, K/M/G, or % of RAM) */
	OPT_LONG,	/* long: a decimal or 0x number */
	OPT_DOUBLE,	/* double */
	OPT_STR,	/* const char * */
	OPT_FLAG,	/* int: 1 when given; takes no argument */
};

struct hog_opt {
	const char *name;	/* without the leading "--" */
	enum hog_opt_kind kind;
	void *value;		/* where the parsed value goes */
	const char *def;	/* default, parsed like an argument (NULL: none) */
	const char *help;
};
#define HOG_OPT_END { NULL, 0, NULL, NULL, NULL }
/* The option of the hogs that use files: their patterns' seed. */
#define HOG_FILE_SEED_OPT { "file-seed", OPT_LONG, &hog.file_seed, "0x5eedf11e", \
	"the seed of the file's pattern, so a file made once serves later runs" }

/* The run's common state: filled by hog_parse(), counted by the checks. */
struct hog_run {
	const char *name;	/* "seq": the result line's hog=, stderr's "hog-seq:" */
	uint64_t seed;		/* --seed, or one made from the clock and the pid */
	long file_seed;		/* --file-seed (HOG_FILE_SEED_OPT) */
	int quiet;		/* --quiet: no progress lines */
	long corrupt_page;	/* --corrupt-page N, or -1 */
	long mismatches;	/* pages that failed a check */
	uint64_t bytes_touched;	/* bytes written or checked by the hog */
};
extern struct hog_run hog;

/*
 * Parse argv against opts (the program's table, HOG_OPT_END last) and
 * the common options.  usage is --help's text before the option list: a
 * line "hog-NAME [options]" and what the hog does.  Exits with status 0
 * after --help, 2 after a usage error.
 */
void hog_parse(int argc, char **argv, const char *name, const char *usage,
	       const struct hog_opt *opts);

/* MemTotal (or another /proc/meminfo line) in KiB; -1 when absent. */
long hog_meminfo_kb(const char *key);

/* Milliseconds on CLOCK_MONOTONIC. */
double hog_now_ms(void);

/* Append " key=value" (value from fmt) to the result line. */
void hog_report(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Print the result line with bytes_touched, mismatches and result, and
 * return the exit status (0, or 1 if any page mismatched).
 */
int hog_finish(void);

/* The run could not be made: print the result line with error=what and
 * errno (unless it is 0), then exit with status 2. */
__attribute__((noreturn)) void hog_fail(const char *what);

/*
 * The hog has filled its memory: under hog-desktop (HOG_SYNC set in the
 * environment), wait here until every worker of the mix has filled its
 * own, so the mix holds all its memory at once; otherwise return at once.
 * Returns the milliseconds it waited, for a phase timer to leave out.
 */
double hog_sync(void);

/* A usage error found after parsing: message on stderr, exit status 2. */
__attribute__((noreturn, format(printf, 1, 2))) void hog_usage_error(const char *fmt, ...);

/* --- patterns ------------------------------------------------------- */

/* splitmix64's finaliser over a ^ b * HOG_WORD_STEP. */
uint64_t hog_mix(uint64_t a, uint64_t b);

/* The stream of a set: the run's seed, its tag and a generation. */
uint64_t hog_stream(enum hog_tag tag, uint64_t gen);
/* The stream of a file's pages (--file-seed, TAG_FILE). */
uint64_t hog_file_stream(void);

/* Write page index's pattern of stream into page. */
void hog_fill(void *page, uint64_t stream, uint64_t index);

/*
 * Check page against index's pattern of stream; on a difference count
 * a mismatch and print its line (set names the set).  Returns 1 when
 * the page matched, 0 when it did not.
 */
int hog_check(const void *page, uint64_t stream, uint64_t index, const char *set);

/*
 * A set: pages [0, pages) of mem, page i holding stream's pattern for i.
 * hog_fill_set() writes it, hog_check_set() checks it (set names it in
 * mismatch lines); both in order, with progress lines named phase, and
 * return the milliseconds they took.
 */
double hog_fill_set(void *mem, long pages, uint64_t stream, const char *phase);
double hog_check_set(const void *mem, long pages, uint64_t stream, const char *set,
		     const char *phase);

/* The median of v[0..n) (sorts v); 0 when n is 0. */
double hog_median(double *v, long n);

/* A deterministic generator (xorshift64*): next value of *state (never 0). */
uint64_t hog_rand(uint64_t *state);

/* --- memory and files ----------------------------------------------- */

/* A private anonymous mapping of pages pages; hog_fail()s if mmap fails. */
void *hog_map_anon(long pages);

/*
 * Flip byte HOG_CORRUPT_OFFSET of the page at addr behind the hog's back
 * (see the essay above) and report corrupt_page=index and corrupt_via.
 */
void hog_corrupt_mem(void *page, long index);

/*
 * The same for page index of the file at path, through an fd of its own;
 * the byte is flipped back at exit (atexit), so that the file serves the
 * next run (path must still name it then, or be gone).
 */
void hog_corrupt_file(const char *path, long index);

/*
 * Write pages [0, pages) of stream's pattern into fd with pwrite() in
 * 256 KiB pieces, with progress lines named phase; hog_fail()s on an error.
 */
void hog_file_write(int fd, long pages, uint64_t stream, const char *phase);

/*
 * Make path a file of pages pages of hog_file_stream()'s pattern, unless
 * it already is one (its size, first and last pages checked): written
 * by hog_file_write() and fsync()ed.  Reports file_made=0/1
 * (and file_make_ms).  hog_fail()s when it cannot.
 */
void hog_file_prepare(const char *path, long pages);

/*
 * Read pages [first, first + count) of fd with pread() in 256 KiB pieces
 * and check each against stream's pattern (set names it in mismatch
 * lines); returns the pages that did not match.  progress (may be NULL)
 * is advanced by each piece.  hog_fail()s on a read error or a short file.
 */
struct hog_progress;
long hog_file_read_check(int fd, long first, long count, uint64_t stream, const char *set,
			 struct hog_progress *progress);

/* The process's major faults so far (getrusage's ru_majflt). */
long hog_majflt(void);

/* --- progress --------------------------------------------------------- */

struct hog_progress {
	const char *phase;
	long total;		/* the phase's units (pages, operations) */
	long checked;		/* units done when the clock was last read */
	double start_ms, next_ms;
};

/* A phase of total units starts now. */
void hog_progress_start(struct hog_progress *p, const char *phase, long total);
/*
 * done units of it are done: print a line if a second passed since the
 * last one (the clock is read once per 256 units, and at the end).
 */
void hog_progress(struct hog_progress *p, long done);

#endif
