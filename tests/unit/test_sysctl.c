/*
 * Host unit tests for kernel/sysctl.c's proc_dointvec_minmax: a table of
 * writes and what Linux 6.1 does with each (the result, the bytes
 * consumed, the value after), and the reads' text.  user/tests/sysctl
 * checks the same rules against the build machine's Linux.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/sysctl.h>
#include <uapi/errno.h>

/* What the vm table names from mm/page_alloc.c. */
int min_free_kbytes;

int min_free_kbytes_sysctl_handler(const struct ctl_table *table, int write, void *buffer,
				   size_t *lenp, loff_t *ppos)
{
	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}

static int value;
static int lo = -5, hi = 100;

static const struct ctl_table bounded = {
	.procname = "bounded", .data = &value, .maxlen = sizeof(int), .mode = 0644,
	.proc_handler = proc_dointvec_minmax, .extra1 = &lo, .extra2 = &hi,
};

static const struct ctl_table plain = {
	.procname = "plain", .data = &value, .maxlen = sizeof(int), .mode = 0644,
	.proc_handler = proc_dointvec,
};

struct write_case {
	const char *text;
	loff_t pos;
	int err;		/* the handler's result */
	size_t consumed;	/* *lenp after, when err is 0 */
	int value;		/* the value after (it starts at 7) */
};

static const struct write_case bounded_cases[] = {
	{ "3", 0, 0, 1, 3 },
	{ "3\n", 0, 0, 2, 3 },
	{ " \t 42 \n\n", 0, 0, 8, 42 },
	{ "0x1f", 0, 0, 4, 31 },
	{ "010", 0, 0, 3, 8 },
	{ "-5", 0, 0, 2, -5 },
	{ "100", 0, 0, 3, 100 },
	{ "3 4", 0, 0, 2, 3 },		/* the second number is left */
	{ "3\t\n9x", 0, 0, 3, 3 },
	{ "9", 4, 0, 1, 7 },		/* not at 0: consumed, ignored */
	{ "", 0, 0, 0, 7 },
	{ "-6", 0, -EINVAL, 0, 7 },
	{ "101", 0, -EINVAL, 0, 7 },
	{ "abc", 0, -EINVAL, 0, 7 },
	{ "12x", 0, -EINVAL, 0, 7 },
	{ "+5", 0, -EINVAL, 0, 7 },
	{ "-", 0, -EINVAL, 0, 7 },
	{ "\n", 0, -EINVAL, 0, 7 },
	{ "   ", 0, -EINVAL, 0, 7 },
	{ "0x", 0, -EINVAL, 0, 7 },		/* "0" then 'x': not a separator */
	{ "08", 0, -EINVAL, 0, 7 },		/* octal "0" then '8' */
	{ "99999999999999999999", 0, -EINVAL, 0, 7 },	/* past a long */
	{ "000000000000000000003", 0, -EINVAL, 0, 7 },	/* 21 characters */
	{ "00000000000000000003", 0, 0, 20, 3 },	/* 20 are fine */
};

static void run_write(const struct ctl_table *table, const struct write_case *c)
{
	char buf[64];
	size_t len = strlen(c->text);
	loff_t pos = c->pos;
	int err;

	value = 7;
	strcpy(buf, c->text);
	err = table->proc_handler(table, 1, buf, &len, &pos);
	if (err != c->err || value != c->value || (!err && len != c->consumed))
		fail_msg("write \"%s\" at %ld: result %d consumed %zu value %d; want %d %zu %d",
			 c->text, (long)c->pos, err, len, value, c->err, c->consumed, c->value);
	if (!err && pos != c->pos + (loff_t)len)
		fail_msg("write \"%s\": position %ld after", c->text, (long)pos);
}

static void test_writes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bounded_cases) / sizeof(bounded_cases[0]); i++)
		run_write(&bounded, &bounded_cases[i]);
}

static void test_int_range(void **state)
{
	static const struct write_case cases[] = {
		{ "2147483647", 0, 0, 10, 2147483647 },
		{ "-2147483648", 0, 0, 11, -2147483647 - 1 },
		{ "2147483648", 0, -EINVAL, 0, 7 },
		{ "-2147483649", 0, -EINVAL, 0, 7 },
		{ "-0", 0, 0, 2, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_write(&plain, &cases[i]);
}

static void test_reads(void **state)
{
	char buf[64];
	size_t len;
	loff_t pos;

	(void)state;
	value = -42;
	len = sizeof(buf);
	pos = 0;
	assert_int_equal(proc_dointvec(&plain, 0, buf, &len, &pos), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(buf, "-42\n", 4);
	assert_int_equal(pos, 4);

	/* Past position 0: the end. */
	len = sizeof(buf);
	assert_int_equal(proc_dointvec(&plain, 0, buf, &len, &pos), 0);
	assert_int_equal(len, 0);

	/* A buffer of 2 gets the first two characters, no newline. */
	len = 2;
	pos = 0;
	assert_int_equal(proc_dointvec(&plain, 0, buf, &len, &pos), 0);
	assert_int_equal(len, 2);
	assert_memory_equal(buf, "-4", 2);
}

static void test_vm_table(void **state)
{
	const struct ctl_table *vm;

	(void)state;
	assert_string_equal(sysctl_base_table[0].procname, "vm");
	vm = sysctl_base_table[0].child;
	assert_string_equal(vm[0].procname, "page-cluster");
	assert_int_equal(vm[0].mode, 0644);
	assert_int_equal(*(int *)vm[0].extra1, 0);
	assert_int_equal(*(int *)vm[0].extra2, 31);
	vm++;
	assert_string_equal(vm[0].procname, "swappiness");
	assert_int_equal(vm[0].mode, 0644);
	assert_int_equal(*(int *)vm[0].extra1, 0);
	assert_int_equal(*(int *)vm[0].extra2, 100);
	vm++;
	assert_string_equal(vm[0].procname, "drop_caches");
	assert_int_equal(vm[0].mode, 0200);
	assert_int_equal(*(int *)vm[0].extra1, 1);
	assert_int_equal(*(int *)vm[0].extra2, 4);
	assert_string_equal(vm[1].procname, "min_free_kbytes");
	assert_int_equal(vm[1].mode, 0644);
	assert_int_equal(*(int *)vm[1].extra1, 0);
	assert_null(vm[1].extra2);
	assert_null(vm[2].procname);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_int_range),
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_vm_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
