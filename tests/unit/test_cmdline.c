/*
 * Host unit tests for the command-line parser (kernel/cmdline.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/cmdline.h>
#include <uapi/errno.h>

static struct cmdline cl;

/* The value of the last option named key; fails the test when absent. */
static const char *value_of(const char *key)
{
	const struct cmdline_opt *opt = cmdline_find(&cl, key);

	assert_non_null(opt);
	assert_string_equal(opt->key, key);
	return opt->value;
}

static void test_flags(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "quiet debug"), 2);
	assert_int_equal(cl.nr_opts, 2);
	assert_string_equal(cl.opts[0].key, "quiet");
	assert_string_equal(cl.opts[0].value, "");
	assert_string_equal(cl.opts[1].key, "debug");
	assert_string_equal(cl.opts[1].value, "");
	assert_string_equal(value_of("debug"), "");
}

static void test_key_value(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "loglevel=7 console=ttyS0,115200 nosmp"), 3);
	assert_string_equal(value_of("loglevel"), "7");
	assert_string_equal(value_of("console"), "ttyS0,115200");
	assert_string_equal(value_of("nosmp"), "");
}

static void test_empty_value(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "root= x=\"\""), 2);
	assert_string_equal(value_of("root"), "");
	assert_string_equal(value_of("x"), "");
}

static void test_quotes(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl,
				       "init=\"/bin/sh -i\" a=x\" \"y \"k=v\tw\" t=\"\tz\" last"), 5);
	assert_string_equal(value_of("init"), "/bin/sh -i");
	assert_string_equal(value_of("a"), "x y");
	assert_string_equal(value_of("k"), "v\tw");
	assert_string_equal(value_of("t"), "\tz");
	assert_string_equal(value_of("last"), "");
}

static void test_separators(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "  \t a \t\t b=1    c\t"), 3);
	assert_string_equal(cl.opts[0].key, "a");
	assert_string_equal(cl.opts[1].key, "b");
	assert_string_equal(cl.opts[1].value, "1");
	assert_string_equal(cl.opts[2].key, "c");
}

static void test_last_wins(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "a=1 b a=2 b=x"), 4);
	assert_string_equal(value_of("a"), "2");
	assert_string_equal(value_of("b"), "x");
	assert_ptr_equal(cmdline_find(&cl, "a"), &cl.opts[2]);
}

static void test_find_missing(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "loglevel=3"), 1);
	assert_null(cmdline_find(&cl, "log"));
	assert_null(cmdline_find(&cl, "loglevel=3"));
	assert_null(cmdline_find(&cl, "loglevelx"));
	assert_null(cmdline_find(&cl, ""));
	assert_null(cmdline_find(&cl, NULL));
}

static void test_empty_line(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, ""), 0);
	assert_int_equal(cl.nr_opts, 0);
	assert_int_equal(cmdline_parse(&cl, " \t  \t"), 0);
	assert_int_equal(cmdline_parse(&cl, NULL), 0);
	assert_null(cmdline_find(&cl, "a"));
}

static void test_value_with_equals(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "root=UUID=1234=abcd x==y"), 2);
	assert_string_equal(value_of("root"), "UUID=1234=abcd");
	assert_string_equal(value_of("x"), "=y");
}

static void test_max_length(void **state)
{
	static char line[CMDLINE_MAX_LEN + 2];

	(void)state;
	memset(line, 'a', CMDLINE_MAX_LEN);
	line[CMDLINE_MAX_LEN] = '\0';
	assert_int_equal(cmdline_parse(&cl, line), 1);
	assert_int_equal(strlen(cl.opts[0].key), CMDLINE_MAX_LEN);

	line[CMDLINE_MAX_LEN] = 'a';
	line[CMDLINE_MAX_LEN + 1] = '\0';
	assert_int_equal(cmdline_parse(&cl, line), -E2BIG);
	assert_int_equal(cl.nr_opts, 0);
	assert_null(cmdline_find(&cl, line));
}

/* n options "o0 o1 ..." into line. */
static void make_options(char *line, int n)
{
	int i;

	line[0] = '\0';
	for (i = 0; i < n; i++)
		sprintf(line + strlen(line), "%so%d", i ? " " : "", i);
}

static void test_max_options(void **state)
{
	static char line[CMDLINE_MAX_LEN + 1];

	(void)state;
	make_options(line, CMDLINE_MAX_OPTS);
	assert_int_equal(cmdline_parse(&cl, line), CMDLINE_MAX_OPTS);
	assert_string_equal(cl.opts[CMDLINE_MAX_OPTS - 1].key, "o63");

	make_options(line, CMDLINE_MAX_OPTS + 1);
	assert_int_equal(cmdline_parse(&cl, line), -E2BIG);
	assert_int_equal(cl.nr_opts, 0);
	assert_null(cmdline_find(&cl, "o0"));
}

static void test_unterminated_quote(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "a=1 init=\"/bin/sh -i"), -EINVAL);
	assert_int_equal(cl.nr_opts, 0);
	assert_null(cmdline_find(&cl, "a"));
	assert_int_equal(cmdline_parse(&cl, "\""), -EINVAL);
	assert_int_equal(cmdline_parse(&cl, "a=\"b\"\" c"), -EINVAL);
}

static void test_empty_key(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "=x"), -EINVAL);
	assert_int_equal(cl.nr_opts, 0);
	assert_int_equal(cmdline_parse(&cl, "a=1 =x"), -EINVAL);
	assert_int_equal(cl.nr_opts, 0);
	assert_int_equal(cmdline_parse(&cl, "="), -EINVAL);
	assert_int_equal(cmdline_parse(&cl, "\"\"=x"), -EINVAL);
	assert_int_equal(cmdline_parse(&cl, "a \"\" b"), -EINVAL);
}

/* An error after a good parse leaves no options behind. */
static void test_error_clears(void **state)
{
	(void)state;
	assert_int_equal(cmdline_parse(&cl, "a=1 b=2"), 2);
	assert_int_equal(cmdline_parse(&cl, "c=\"3"), -EINVAL);
	assert_int_equal(cl.nr_opts, 0);
	assert_null(cmdline_find(&cl, "a"));
}

/* The source string is copied: changing it afterwards changes nothing. */
static void test_copies_input(void **state)
{
	char line[] = "k=v";

	(void)state;
	assert_int_equal(cmdline_parse(&cl, line), 1);
	line[2] = 'X';
	assert_string_equal(value_of("k"), "v");
}

static bool in_buf(const char *p)
{
	return p >= cl.buf && p < cl.buf + sizeof(cl.buf);
}

/* Random lines over a small alphabet: the result is always consistent. */
/* A bare "--" ends the options; the rest is init's, unparsed. */
static void test_init_args(void **state)
{
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse(&cl, "quiet init=/sbin/init -- /usr/tests/runner  all x=1"), 2);
	assert_string_equal(cmdline_find(&cl, "init")->value, "/sbin/init");
	assert_null(cmdline_find(&cl, "x"));
	assert_string_equal(cl.init_args, "/usr/tests/runner  all x=1");

	assert_int_equal(cmdline_parse(&cl, "a --"), 1);
	assert_string_equal(cl.init_args, "");
	assert_int_equal(cmdline_parse(&cl, "a --x b"), 3);
	assert_null(cl.init_args);
	assert_int_equal(cmdline_parse(&cl, "a \"--\" b"), 1);
	assert_string_equal(cl.init_args, "b");
}

static void test_memparse(void **state)
{
	static const struct { const char *s; int err; uint64_t v; } cases[] = {
		{ "0", 0, 0 }, { "4096", 0, 4096 }, { "64K", 0, 64 << 10 }, { "96M", 0, 96ull << 20 },
		{ "96m", 0, 96ull << 20 }, { "2G", 0, 2ull << 30 }, { "1T", 0, 1ull << 40 },
		{ "18446744073709551615", 0, UINT64_MAX }, { "18446744073709551616", -EINVAL, 0 },
		{ "16777216T", -EINVAL, 0 }, { "16777215T", 0, 16777215ull << 40 },
		{ "", -EINVAL, 0 }, { "M", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "12X", -EINVAL, 0 },
		{ "12MB", -EINVAL, 0 }, { " 1", -EINVAL, 0 }, { "1 ", -EINVAL, 0 },
	};
	unsigned int i;
	uint64_t v;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = 12345;
		assert_int_equal(memparse(cases[i].s, &v), cases[i].err);
		if (!cases[i].err)
			assert_true(v == cases[i].v);
		else
			assert_true(v == 12345);
	}
}

static void test_random_lines(void **state)
{
	static const char alphabet[] = "ab= \t\"";
	uint32_t seed = 12345;
	char line[48];
	int iter, i, n, rc;

	(void)state;
	for (iter = 0; iter < 20000; iter++) {
		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % (sizeof(line) - 1);
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			line[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		line[n] = '\0';
		rc = cmdline_parse(&cl, line);
		if (rc < 0) {
			assert_int_equal(rc, -EINVAL);
			assert_int_equal(cl.nr_opts, 0);
			continue;
		}
		assert_int_equal(rc, cl.nr_opts);
		for (i = 0; i < rc; i++) {
			assert_true(in_buf(cl.opts[i].key) && in_buf(cl.opts[i].value));
			assert_true(cl.opts[i].key[0] != '\0');
			assert_null(strpbrk(cl.opts[i].key, "\"="));
			assert_null(strchr(cl.opts[i].value, '"'));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_key_value),
		cmocka_unit_test(test_empty_value),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_separators),
		cmocka_unit_test(test_last_wins),
		cmocka_unit_test(test_find_missing),
		cmocka_unit_test(test_empty_line),
		cmocka_unit_test(test_value_with_equals),
		cmocka_unit_test(test_max_length),
		cmocka_unit_test(test_max_options),
		cmocka_unit_test(test_unterminated_quote),
		cmocka_unit_test(test_empty_key),
		cmocka_unit_test(test_error_clears),
		cmocka_unit_test(test_copies_input),
		cmocka_unit_test(test_init_args),
		cmocka_unit_test(test_memparse),
		cmocka_unit_test(test_random_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
