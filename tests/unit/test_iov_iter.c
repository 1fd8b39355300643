/*
 * Host unit tests for the iterators (kernel/lib/iov_iter.c) over kernel
 * buffers: copies walk the segments in order and skip empty ones, stop
 * at the count, and advance, revert, truncate and reexpand leave the
 * iterator where the next copy must start.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fs/uio.h>

static char a[10], c[5], d[20];
static const struct kvec three[] = { { a, sizeof(a) }, { NULL, 0 }, { c, sizeof(c) },
				     { NULL, 0 }, { d, sizeof(d) } };
#define TOTAL (sizeof(a) + sizeof(c) + sizeof(d))

static void clear(void)
{
	memset(a, '.', sizeof(a));
	memset(c, '.', sizeof(c));
	memset(d, '.', sizeof(d));
}

static void test_copy_to_iter_walks_segments(void **state)
{
	const char *src = "0123456789abcdefghijklmnopqrstuvwxyz";
	struct iov_iter i;

	(void)state;
	clear();
	iov_iter_kvec(&i, READ, three, 5, TOTAL);
	assert_int_equal(copy_to_iter(src, 12, &i), 12);
	assert_memory_equal(a, "0123456789", 10);
	assert_memory_equal(c, "ab...", 5);
	assert_int_equal(iov_iter_count(&i), TOTAL - 12);
	/* More than is left: only the count. */
	assert_int_equal(copy_to_iter(src + 12, 100, &i), TOTAL - 12);
	assert_memory_equal(c, "abcde", 5);
	assert_memory_equal(d, "fghijklmnopqrstuvwxy", 20);
	assert_int_equal(iov_iter_count(&i), 0);
	assert_int_equal(copy_to_iter(src, 1, &i), 0);
}

static void test_revert_and_advance(void **state)
{
	char out[TOTAL + 1] = { 0 };
	struct iov_iter i;

	(void)state;
	clear();
	memcpy(a, "ABCDEFGHIJ", 10);
	memcpy(c, "KLMNO", 5);
	memcpy(d, "PQRSTUVWXYZ012345678", 20);
	iov_iter_kvec(&i, WRITE, three, 5, TOTAL);
	assert_int_equal(copy_from_iter(out, 15, &i), 15);
	/* Back across an empty segment and a boundary, then forward. */
	iov_iter_revert(&i, 7);
	assert_int_equal(iov_iter_count(&i), TOTAL - 8);
	assert_int_equal(copy_from_iter(out, 3, &i), 3);
	assert_memory_equal(out, "IJK", 3);
	iov_iter_advance(&i, 4);
	assert_int_equal(copy_from_iter(out, 2, &i), 2);
	assert_memory_equal(out, "PQ", 2);
	/* All the way back to the start. */
	iov_iter_revert(&i, 17);
	assert_int_equal(iov_iter_count(&i), TOTAL);
	assert_int_equal(copy_from_iter(out, TOTAL, &i), TOTAL);
	assert_memory_equal(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345678", TOTAL);
}

static void test_truncate_and_reexpand(void **state)
{
	char out[TOTAL];
	struct iov_iter i;

	(void)state;
	iov_iter_kvec(&i, WRITE, three, 5, TOTAL);
	iov_iter_truncate(&i, 10);
	assert_int_equal(copy_from_iter(out, 100, &i), 10);
	assert_int_equal(iov_iter_count(&i), 0);
	iov_iter_reexpand(&i, TOTAL - 10);
	assert_int_equal(copy_from_iter(out, 100, &i), TOTAL - 10);
	iov_iter_truncate(&i, 100);
	assert_int_equal(iov_iter_count(&i), 0);
}

static void test_zero_and_no_faults_for_kernel_memory(void **state)
{
	struct iov_iter i;

	(void)state;
	clear();
	iov_iter_kvec(&i, READ, three, 5, TOTAL);
	assert_int_equal(fault_in_iov_iter_writeable(&i, TOTAL), 0);
	assert_int_equal(iov_iter_zero(13, &i), 13);
	assert_memory_equal(a, "\0\0\0\0\0\0\0\0\0\0", 10);
	assert_memory_equal(c, "\0\0\0..", 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_to_iter_walks_segments),
		cmocka_unit_test(test_revert_and_advance),
		cmocka_unit_test(test_truncate_and_reexpand),
		cmocka_unit_test(test_zero_and_no_faults_for_kernel_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
