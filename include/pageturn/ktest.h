/*
 * ktest: in-kernel tests, in the spirit of Linux's KUnit.
 *
 * A test case belongs to a suite and registers itself at link time:
 *
 *     KTEST(timer, jiffies_advance)
 *     {
 *             uint64_t j = jiffies;
 *             mdelay(50);
 *             KTEST_EXPECT(t, jiffies > j);
 *     }
 *
 * `test=timer` on the command line runs every case of suite "timer",
 * `test=timer.jiffies_advance` one case, `test=all` every case except the
 * KTEST_NAMED_ONLY ones, which run only when named: cases that end in a
 * deliberate panic (KTEST_CRASHER) and cases that wait for the host
 * (KTEST_INTERACTIVE).  Results are printed as KTAP on the console, then QEMU is left
 * through isa-debug-exit with the pass or fail code.
 */
#ifndef PAGETURN_KTEST_H
#define PAGETURN_KTEST_H

#include <pageturn/string.h>
#include <pageturn/types.h>

struct ktest {
	const char *suite;
	const char *name;
	int failures;
};

struct ktest_case {
	const char *suite;
	const char *name;
	void (*run)(struct ktest *t);
	unsigned int flags;
};

#define KTEST_NAMED_ONLY 1u	/* not part of test=all or test=SUITE */

#define __KTEST(suite_, name_, flags_) \
	static void ktest_##suite_##_##name_(struct ktest *t); \
	static const struct ktest_case __ktest_case_##suite_##_##name_ \
	__used __section(".ktests") __aligned(8) = \
		{ #suite_, #name_, ktest_##suite_##_##name_, flags_ }; \
	static void ktest_##suite_##_##name_(struct ktest *t)

#define KTEST(suite, name)             __KTEST(suite, name, 0)
#define KTEST_CRASHER(suite, name)     __KTEST(suite, name, KTEST_NAMED_ONLY)
#define KTEST_INTERACTIVE(suite, name) __KTEST(suite, name, KTEST_NAMED_ONLY)

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
	__printf(4, 5);

#define KTEST_EXPECT(t, cond) do { \
	if (!(cond)) \
		ktest_fail(t, __FILE__, __LINE__, "expected %s", #cond); \
} while (0)

#define KTEST_EXPECT_EQ(t, a, b) do { \
	long long _a = (long long)(a), _b = (long long)(b); \
	if (_a != _b) \
		ktest_fail(t, __FILE__, __LINE__, "expected %s == %s (%lld != %lld)", \
			   #a, #b, _a, _b); \
} while (0)

#define KTEST_EXPECT_STREQ(t, a, b) do { \
	const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b) != 0) \
		ktest_fail(t, __FILE__, __LINE__, "expected %s == \"%s\", got \"%s\"", \
			   #a, _b ? _b : "(null)", _a ? _a : "(null)"); \
} while (0)

/*
 * Record what printk writes to the consoles.  ktest_capture_start()
 * registers console "ktest-capture" and sets console_loglevel to loglevel;
 * ktest_capture_stop() unregisters it, restores console_loglevel and
 * returns the text written in between, cut at 4095 bytes.  The text stays
 * valid until the next ktest_capture_start(); captures do not nest.
 */
void ktest_capture_start(int loglevel);
const char *ktest_capture_stop(void);

/* A byte pattern that depends on the offset (so shifted or swapped data
 * shows): fill buf as if it sat at offset off, or check it. */
uint8_t ktest_pattern_byte(uint64_t off);
void ktest_fill_pattern(uint8_t *buf, uint64_t off, size_t len);
bool ktest_check_pattern(const uint8_t *buf, uint64_t off, size_t len);

/* Create (or truncate) the file at path and write len pattern bytes to
 * it, then fsync: the count written, or -errno. */
long ktest_write_pattern_file(const char *path, size_t len);

/* Run the tests named by `test=`, if any; does not return when it ran some. */
void ktest_run_from_cmdline(void);

/* reboot(2)'s power-off: run the tests test_at_poweroff= names, if any,
 * and return the QEMU exit status to leave with (PASS without tests). */
int ktest_exit_status_at_poweroff(void);

#endif
