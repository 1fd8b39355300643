/*
 * User memory for the host tests (fake_uaccess.c): a test may lend a
 * buffer of its own as user memory, to drive ITER_IOVEC writes through
 * raw_copy_from_user and fault_in_readable.  Its bytes from base + bad on
 * are not there: a copy stops before them and fault_in_readable counts
 * them, except while late is set, when fault_in_readable finds every byte
 * there and only a copy finds them gone (the page was faulted in, then
 * reclaimed and its file truncated before the copy); the first copy that
 * stops clears late.  Every other user access fails the test.
 */
#ifndef PAGETURN_TESTS_UNIT_FAKE_UACCESS_H
#define PAGETURN_TESTS_UNIT_FAKE_UACCESS_H

#include <stdbool.h>
#include <stddef.h>

struct fake_user {
	char *base;	/* the lent buffer, NULL: none */
	size_t len;
	size_t bad;	/* the bytes from base + bad on are gone */
	bool late;	/* fault_in_readable does not see them gone yet */
};

extern struct fake_user fake_user;

#endif
