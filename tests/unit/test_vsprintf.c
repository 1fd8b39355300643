/*
 * Host unit tests for the kernel's formatter (kernel/lib/vsprintf.c).
 *
 * The Makefile builds this file with -Dvsnprintf=kernel_vsnprintf
 * -Dsnprintf=kernel_snprintf: every snprintf/vsnprintf below is the
 * kernel's, and the expected strings are literals, not the host libc's
 * output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/printk.h>

/*
 * snprintf into a 128-byte buffer; the output and the return value must
 * both match expect.  The format is checked by the compiler (__printf).
 */
#define CHECK(expect, ...)						\
	do {								\
		char buf_[128];						\
		int n_ = snprintf(buf_, sizeof(buf_), __VA_ARGS__);	\
		assert_string_equal(buf_, expect);			\
		assert_int_equal(n_, strlen(expect));			\
	} while (0)

/*
 * The same through vsnprintf, for formats the compiler rightly warns
 * about (flags C ignores, a trailing '%') whose output is still defined.
 */
static void check_unchecked(const char *expect, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_string_equal(buf, expect);
	assert_int_equal(n, strlen(expect));
}

static void test_plain(void **state)
{
	(void)state;
	CHECK("hello, world", "hello, world");
	CHECK("100%", "100%%");
	CHECK("%d", "%%d");
	CHECK("a\tb\n", "a\tb\n");
}

static void test_signed(void **state)
{
	(void)state;
	CHECK("0", "%d", 0);
	CHECK("42", "%d", 42);
	CHECK("-42", "%d", -42);
	CHECK("-7", "%i", -7);
	CHECK("2147483647", "%d", INT_MAX);
	CHECK("-2147483648", "%d", INT_MIN);
	CHECK("1 -2 3", "%d %i %d", 1, -2, 3);
}

static void test_unsigned(void **state)
{
	(void)state;
	CHECK("0", "%u", 0u);
	CHECK("4294967295", "%u", UINT_MAX);
	CHECK("deadbeef", "%x", 0xdeadbeefu);
	CHECK("DEADBEEF", "%X", 0xdeadbeefu);
	CHECK("0", "%x", 0u);
	CHECK("17", "%o", 15u);
	CHECK("37777777777", "%o", UINT_MAX);
	CHECK("ffffffff", "%x", -1);
}

static void test_char(void **state)
{
	(void)state;
	CHECK("A", "%c", 'A');
	CHECK("[  A|A  ]", "[%3c|%-3c]", 'A', 'A');
	CHECK("x%y", "%c%%%c", 'x', 'y');
}

static void test_string(void **state)
{
	static const char abc[3] = { 'a', 'b', 'c' };	/* no NUL */

	(void)state;
	CHECK("hello", "%s", "hello");
	CHECK("", "%s", "");
	check_unchecked("(null)", "%s", (char *)NULL);
	CHECK("[   hello]", "[%8s]", "hello");
	CHECK("[hello   ]", "[%-8s]", "hello");
	CHECK("[hello]", "[%3s]", "hello");
	CHECK("hel", "%.3s", "hello");
	CHECK("hi", "%.10s", "hi");
	CHECK("", "%.0s", "hello");
	CHECK("[     hel]", "[%8.3s]", "hello");
	CHECK("[hel     ]", "[%-8.3s]", "hello");
	CHECK("abc", "%.3s", abc);	/* precision bounds the read */
}

static void test_pointer(void **state)
{
	(void)state;
	CHECK("0x0000000000001234", "%p", (void *)0x1234);
	CHECK("0xffff800000100000", "%p", (void *)0xffff800000100000ull);
	CHECK("0x0000000000000000", "%p", NULL);
	CHECK("[  0x0000000000001234]", "[%20p]", (void *)0x1234);
	CHECK("[0x0000000000001234  ]", "[%-20p]", (void *)0x1234);
}

static void test_width(void **state)
{
	(void)state;
	CHECK("[   42]", "[%5d]", 42);
	CHECK("[42   ]", "[%-5d]", 42);
	CHECK("[  -42]", "[%5d]", -42);
	CHECK("[-42  ]", "[%-5d]", -42);
	CHECK("[123456]", "[%3d]", 123456);
	CHECK("[   ff]", "[%5x]", 0xffu);
	CHECK("[ff   ]", "[%-5x]", 0xffu);
}

static void test_zero_pad(void **state)
{
	(void)state;
	CHECK("00042", "%05d", 42);
	CHECK("-0042", "%05d", -42);
	CHECK("000000ff", "%08x", 0xffu);
	CHECK("0x000000ff", "%#010x", 0xffu);
	CHECK("0X0000ABCD", "%#010X", 0xabcdu);
	CHECK("00000", "%05u", 0u);
	CHECK("123456", "%05d", 123456);
	check_unchecked("[42   ]", "[%-05d]", 42);	/* '-' beats '0' */
}

static void test_sign_flags(void **state)
{
	(void)state;
	CHECK("+5", "%+d", 5);
	CHECK("-5", "%+d", -5);
	CHECK("+0", "%+d", 0);
	CHECK(" 5", "% d", 5);
	CHECK("-5", "% d", -5);
	CHECK("[   +5]", "[%+5d]", 5);
	CHECK("[+5   ]", "[%-+5d]", 5);
	CHECK("+0005", "%+05d", 5);
	CHECK(" 0005", "% 05d", 5);
	CHECK("+00042", "%+.5d", 42);
	check_unchecked("+5", "%+ d", 5);	/* '+' beats ' ' */
	/* '+' and ' ' apply to signed conversions only. */
	check_unchecked("5", "%+u", 5u);
	check_unchecked("ff", "% x", 0xffu);
	check_unchecked("0xff", "%+#x", 0xffu);
	check_unchecked("17", "%+o", 15u);
}

static void test_alternate(void **state)
{
	(void)state;
	CHECK("0xff", "%#x", 0xffu);
	CHECK("0XFF", "%#X", 0xffu);
	/* Linux, not C: '#' prints 0x before a zero too. */
	CHECK("0x0", "%#x", 0u);
	CHECK("0x0000000000000000", "%#018lx", 0ul);
	CHECK("0x000000000009fbff", "%#018lx", 0x9fbfful);
	CHECK("", "%#.0x", 0u);
	CHECK("010", "%#o", 8u);
	CHECK("0", "%#o", 0u);
	CHECK("0", "%#.0o", 0u);
	CHECK("010", "%#.2o", 8u);
	CHECK("010", "%#.3o", 8u);
	CHECK("00010", "%#.5o", 8u);
	CHECK("[  010]", "[%#5o]", 8u);
	CHECK("[    0x1a]", "[%#8x]", 0x1au);
	CHECK("[0x1a    ]", "[%-#8x]", 0x1au);
	CHECK("0x000a", "%#.4x", 0xau);
}

static void test_precision(void **state)
{
	(void)state;
	CHECK("00042", "%.5d", 42);
	CHECK("-00042", "%.5d", -42);
	CHECK("42", "%.1d", 42);
	CHECK("[   00042]", "[%8.5d]", 42);
	CHECK("[00042   ]", "[%-8.5d]", 42);
	CHECK("00a", "%.3x", 0xau);
	CHECK("", "%.0d", 0);
	CHECK("", "%.0x", 0u);
	CHECK("[   ]", "[%3.0u]", 0u);
	CHECK("", "%.d", 0);
	CHECK("7", "%.d", 7);
	/* With a precision the '0' flag is ignored. */
	check_unchecked("[   00042]", "[%08.5d]", 42);
}

static void test_star(void **state)
{
	(void)state;
	CHECK("[   42]", "[%*d]", 5, 42);
	CHECK("[42   ]", "[%*d]", -5, 42);
	CHECK("[42   ]", "[%-*d]", 5, 42);
	CHECK("0007", "%.*d", 4, 7);
	CHECK("7", "%.*d", -1, 7);
	CHECK("[    he]", "[%*.*s]", 6, 2, "hello");
	CHECK("hello", "%.*s", -3, "hello");
	CHECK("[  007]", "[%*.*d]", 5, 3, 7);
}

static void test_length_modifiers(void **state)
{
	(void)state;
	CHECK("-1", "%hhd", 255);
	CHECK("127 -128", "%hhd %hhd", 127, 128);
	CHECK("1", "%hhu", 257);
	CHECK("ff", "%hhx", 0x1ff);
	CHECK("-1", "%hd", 65535);
	CHECK("-32768", "%hd", 32768);
	CHECK("0", "%hu", 65536);
	CHECK("ffff", "%hx", 0x1ffff);
	CHECK("-9223372036854775808", "%ld", LONG_MIN);
	CHECK("9223372036854775807", "%ld", LONG_MAX);
	CHECK("18446744073709551615", "%lu", ULONG_MAX);
	CHECK("ffffffffffffffff", "%lx", ULONG_MAX);
	CHECK("1777777777777777777777", "%lo", ULONG_MAX);
	CHECK("-9223372036854775808", "%lld", LLONG_MIN);
	CHECK("9223372036854775807", "%lli", LLONG_MAX);
	CHECK("18446744073709551615", "%llu", ULLONG_MAX);
	CHECK("FFFFFFFFFFFFFFFF", "%llX", ULLONG_MAX);
	CHECK("18446744073709551615", "%zu", SIZE_MAX);
	CHECK("1000", "%zx", (size_t)0x1000);
	CHECK("-3", "%td", (ptrdiff_t)-3);
	CHECK("4294967296", "%lu", 1ul << 32);
}

static void test_llong_min(void **state)
{
	(void)state;
	CHECK("-9223372036854775808", "%lld", LLONG_MIN);
	CHECK("[  -9223372036854775808]", "[%22lld]", LLONG_MIN);
	CHECK("-009223372036854775808", "%022lld", LLONG_MIN);
	CHECK("-009223372036854775808", "%.21lld", LLONG_MIN);
	CHECK("-9223372036854775808", "%+lld", LLONG_MIN);
	CHECK("8000000000000000", "%llx", (unsigned long long)LLONG_MIN);
}

static void test_mixed(void **state)
{
	(void)state;
	CHECK("mmap: [0x0000000000100000-0x000000001fffffff] available (511 MiB)",
	      "mmap: [%#018llx-%#018llx] %s (%u MiB)",
	      0x100000ull, 0x1fffffffull, "available", 511u);
	CHECK("cpu0: 3 irqs, -1 errs, 'x'", "cpu%d: %u irqs, %ld errs, '%c'",
	      0, 3u, -1L, 'x');
}

/* Unknown conversions are printed as written; a trailing '%' is dropped. */
static void test_malformed_formats(void **state)
{
	(void)state;
	check_unchecked("%y", "%y");
	check_unchecked("a%qb", "a%qb");
	check_unchecked("abc", "abc%");
	check_unchecked("5", "%d%", 5);
}

static void test_truncation(void **state)
{
	char buf[16];
	int n;

	(void)state;
	memset(buf, 'X', sizeof(buf));
	n = snprintf(buf, 5, "%d", 123456);
	assert_int_equal(n, 6);
	assert_string_equal(buf, "1234");
	assert_int_equal(buf[5], 'X');

	memset(buf, 'X', sizeof(buf));
	n = snprintf(buf, 7, "%d", 123456);
	assert_int_equal(n, 6);
	assert_string_equal(buf, "123456");

	n = snprintf(buf, 6, "%d", 123456);
	assert_int_equal(n, 6);
	assert_string_equal(buf, "12345");

	memset(buf, 'X', sizeof(buf));
	n = snprintf(buf, 1, "%s", "hello");
	assert_int_equal(n, 5);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');

	n = snprintf(buf, 4, "[%5s]", "ab");
	assert_int_equal(n, 7);
	assert_string_equal(buf, "[  ");

	n = snprintf(buf, 3, "%-6d|", 1);
	assert_int_equal(n, 7);
	assert_string_equal(buf, "1 ");

	n = snprintf(buf, 8, "%p", (void *)0x1234);
	assert_int_equal(n, 18);
	assert_string_equal(buf, "0x00000");

	n = snprintf(buf, sizeof(buf), "%s%s%s", "0123456789", "abcdef", "ghi");
	assert_int_equal(n, 19);
	assert_string_equal(buf, "0123456789abcde");
}

static void test_size_zero(void **state)
{
	char buf[4] = { 'X', 'X', 'X', 'X' };

	(void)state;
	assert_int_equal(snprintf(buf, 0, "%d-%s", 42, "abc"), 6);
	assert_memory_equal(buf, "XXXX", 4);
	assert_int_equal(snprintf(NULL, 0, "%lld", LLONG_MIN), 20);
	assert_int_equal(snprintf(NULL, 0, "%*d", 100, 1), 100);
}

/* vsnprintf with a caller's va_list, as printk uses it. */
static int format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vsnprintf(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(format(buf, sizeof(buf), "%s=%d", "key", 12345), 9);
	assert_string_equal(buf, "key=123");
	assert_int_equal(format(buf, sizeof(buf), "%c%c", 'o', 'k'), 2);
	assert_string_equal(buf, "ok");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_unsigned),
		cmocka_unit_test(test_char),
		cmocka_unit_test(test_string),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_zero_pad),
		cmocka_unit_test(test_sign_flags),
		cmocka_unit_test(test_alternate),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_length_modifiers),
		cmocka_unit_test(test_llong_min),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_malformed_formats),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_size_zero),
		cmocka_unit_test(test_vsnprintf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
