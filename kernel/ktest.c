/*
 * ktest: run the in-kernel tests named by `test=` and report KTAP.
 *
 * Selection: `test=all`, `test=SUITE` or `test=SUITE.CASE`, several
 * separated by commas (KTEST_NAMED_ONLY cases only by SUITE.CASE).  Cases run in link order, grouped by suite; each
 * suite is a KTAP subtest:
 *
 *     KTAP version 1
 *     1..2
 *         KTAP version 1
 *         # Subtest: timer
 *         1..2
 *         ok 1 jiffies_advance
 *         ok 2 tsc_matches_jiffies
 *     ok 1 timer
 *     ...
 *
 * A failed expectation prints a "# file:line: message" diagnostic and marks
 * the case failed; the case goes on.  At the end QEMU exits with
 * QEMU_EXIT_PASS when everything passed and a name matched, otherwise
 * QEMU_EXIT_FAIL.
 */
#include <drivers/qemu_exit.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/cmdline.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

BOOT_OPTION(test, "run in-kernel tests: all, SUITE or SUITE.CASE, comma-separated; KTAP on the console, then exit QEMU");

extern const struct ktest_case __ktests_start[], __ktests_end[];

#define KTEST_MAX_SELECTORS 16
#define KTEST_NAME_MAX 64

struct selector {
	char text[KTEST_NAME_MAX];
	bool matched;
};

static struct selector selectors[KTEST_MAX_SELECTORS];
static int nr_selectors;

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_ERR "        # %s: %s:%d: %s\n", t->name, file, line, msg);
	t->failures++;
}

static char captured[4096];
static size_t captured_len;
static int saved_loglevel;

static void capture_write(struct console *con, const char *s, size_t len)
{
	(void)con;
	len = MIN(len, sizeof(captured) - 1 - captured_len);
	memcpy(captured + captured_len, s, len);
	captured_len += len;
	captured[captured_len] = '\0';
}

static struct console capture_console = { .name = "ktest-capture", .write = capture_write };

void ktest_capture_start(int loglevel)
{
	captured_len = 0;
	captured[0] = '\0';
	saved_loglevel = console_loglevel;
	console_loglevel = loglevel;
	register_console(&capture_console);
}

const char *ktest_capture_stop(void)
{
	unregister_console(&capture_console);
	console_loglevel = saved_loglevel;
	return captured;
}

/* Split the `test=` value at commas; returns false if it is malformed. */
static bool parse_selectors(const char *spec)
{
	while (*spec) {
		const char *end = strchr(spec, ',');
		size_t len = end ? (size_t)(end - spec) : strlen(spec);

		if (len == 0 || len >= KTEST_NAME_MAX || nr_selectors == KTEST_MAX_SELECTORS)
			return false;
		memcpy(selectors[nr_selectors].text, spec, len);
		selectors[nr_selectors].text[len] = '\0';
		nr_selectors++;
		spec += len + (end ? 1 : 0);
	}
	return nr_selectors > 0;
}

static bool selected(const struct ktest_case *c)
{
	size_t slen = strlen(c->suite);
	bool hit = false;
	int i;

	for (i = 0; i < nr_selectors; i++) {
		const char *s = selectors[i].text;
		bool m;

		if (strcmp(s, "all") == 0)
			m = !(c->flags & KTEST_NAMED_ONLY);
		else if (strncmp(s, c->suite, slen) != 0)
			m = false;
		else if (s[slen] == '\0')
			m = !(c->flags & KTEST_NAMED_ONLY);
		else
			m = s[slen] == '.' && strcmp(s + slen + 1, c->name) == 0;
		if (m) {
			selectors[i].matched = true;
			hit = true;
		}
	}
	return hit;
}

/*
 * The cases of a suite are one contiguous run in link order, since a suite
 * lives in one file (the rule for test files).  Returns the number of
 * selected cases in the suite starting at c; *end is the suite's end.
 */
static int suite_selected(const struct ktest_case *c, const struct ktest_case **end)
{
	const struct ktest_case *d;
	int n = 0;

	for (d = c; d < __ktests_end && strcmp(c->suite, d->suite) == 0; d++)
		if (selected(d))
			n++;
	*end = d;
	return n;
}

/* Run the tests spec selects, in KTAP; true if every one passed. */
static bool ktest_run(const char *spec)
{
	const struct ktest_case *c, *d;
	int nr_suites = 0, suite_no = 0, failed_suites = 0, i;
	bool ok = true;

	nr_selectors = 0;
	if (!parse_selectors(spec)) {
		printk(KERN_ERR "ktest: bad test= value '%s'\n", spec);
		return false;
	}

	for (c = __ktests_start; c < __ktests_end; c = d)
		if (suite_selected(c, &d))
			nr_suites++;

	printk(KERN_INFO "KTAP version 1\n");
	printk(KERN_INFO "1..%d\n", nr_suites);
	for (c = __ktests_start; c < __ktests_end; c = d) {
		const struct ktest_case *e;
		int nr_cases = suite_selected(c, &d), case_no = 0, failed = 0;

		if (!nr_cases)
			continue;

		suite_no++;
		printk(KERN_INFO "    KTAP version 1\n");
		printk(KERN_INFO "    # Subtest: %s\n", c->suite);
		printk(KERN_INFO "    1..%d\n", nr_cases);
		for (e = c; e < d; e++) {
			struct ktest t = { e->suite, e->name, 0 };

			if (!selected(e))
				continue;
			e->run(&t);
			case_no++;
			printk(KERN_INFO "    %sok %d %s\n", t.failures ? "not " : "", case_no, e->name);
			if (t.failures)
				failed++;
		}
		printk(KERN_INFO "%sok %d %s\n", failed ? "not " : "", suite_no, c->suite);
		if (failed)
			failed_suites++;
	}

	for (i = 0; i < nr_selectors; i++) {
		if (!selectors[i].matched) {
			printk(KERN_ERR "# ktest: no test matches '%s'\n", selectors[i].text);
			ok = false;
		}
	}
	if (failed_suites)
		ok = false;
	printk(KERN_INFO "# ktest: %d suites, %d failed: %s\n", nr_suites, failed_suites,
	       ok ? "PASS" : "FAIL");
	return ok;
}

void ktest_run_from_cmdline(void)
{
	const char *spec = cmdline_get("test");

	if (spec)
		qemu_exit(ktest_run(spec) ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL);
}

BOOT_OPTION(test_at_poweroff, "run these in-kernel tests (as test=) when init powers off, after "
	    "the user programs; QEMU's exit status is their verdict");

int ktest_exit_status_at_poweroff(void)
{
	const char *spec = cmdline_get("test_at_poweroff");

	if (!spec)
		return QEMU_EXIT_PASS;
	return ktest_run(spec) ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL;
}

uint8_t ktest_pattern_byte(uint64_t off)
{
	return (uint8_t)(off * 13 + (off >> 8));
}

void ktest_fill_pattern(uint8_t *buf, uint64_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = ktest_pattern_byte(off + i);
}

bool ktest_check_pattern(const uint8_t *buf, uint64_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != ktest_pattern_byte(off + i))
			return false;
	return true;
}

long ktest_write_pattern_file(const char *path, size_t len)
{
	uint8_t *buf = kmalloc(len ? len : 1, GFP_KERNEL);
	struct file *f;
	long n, err;

	if (!buf)
		return -ENOMEM;
	ktest_fill_pattern(buf, 0, len);
	n = vfs_open(path, O_RDWR | O_CREAT | O_TRUNC, 0644, &f);
	if (!n) {
		n = vfs_write(f, buf, len);
		err = vfs_fsync(f);
		if (n >= 0 && err)
			n = err;
		vfs_close(f);
	}
	kfree(buf);
	return n;
}
