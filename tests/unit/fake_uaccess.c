/*
 * The user-copy routines kernel/lib/iov_iter.c calls for ITER_IOVEC.  The
 * host tests move data through kernel buffers (ITER_KVEC), so reaching
 * one of these is a test bug, except for the reads of fake_user's buffer
 * (fake_uaccess.h) a test lends as user memory.  Page faults never happen
 * on the host: pagefault_disable has nothing to disable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <asm/uaccess.h>

#include "fake_uaccess.h"

struct fake_user fake_user;

static bool lent(const void __user *addr, unsigned long size)
{
	const char *a = (const char *)addr;

	return fake_user.base && a >= fake_user.base && size <= fake_user.len &&
	       (size_t)(a - fake_user.base) <= fake_user.len - size;
}

/* The bytes of the lent [addr, addr + size) from the first gone one on. */
static unsigned long gone_from(const char *addr, unsigned long size)
{
	const char *bad = fake_user.base + fake_user.bad;

	if (addr + size <= bad)
		return 0;
	return addr + size - (addr > bad ? addr : bad);
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	(void)to;
	(void)from;
	fail_msg("copy_to_user in a host test");
	return n;
}

unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long left;

	if (!lent(from, n)) {
		fail_msg("raw_copy_from_user in a host test");
		return n;
	}
	left = gone_from(from, n);
	memcpy(to, from, n - left);
	if (left)
		fake_user.late = false;
	return left;
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	(void)to;
	fail_msg("clear_user in a host test");
	return n;
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	(void)to;
	(void)from;
	fail_msg("copy_from_user in a host test");
	return n;
}

bool access_ok(const void __user *addr, unsigned long size)
{
	if (lent(addr, size))
		return true;
	fail_msg("access_ok in a host test");
	return false;
}

size_t fault_in_readable(const char __user *uaddr, size_t size)
{
	if (!lent(uaddr, size)) {
		fail_msg("fault_in_readable in a host test");
		return size;
	}
	return fake_user.late ? 0 : gone_from(uaddr, size);
}

size_t fault_in_writeable(char __user *uaddr, size_t size)
{
	(void)uaddr;
	fail_msg("fault_in_writeable in a host test");
	return size;
}

void pagefault_disable(void)
{
}

void pagefault_enable(void)
{
}
