/*
 * The user-copy routines kernel/lib/iov_iter.c calls for ITER_IOVEC.  The
 * host tests move data through kernel buffers (ITER_KVEC) only, so
 * reaching one of these is a test bug.  Page faults never happen on the
 * host: pagefault_disable has nothing to disable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <asm/uaccess.h>

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	(void)to;
	(void)from;
	fail_msg("copy_to_user in a host test");
	return n;
}

unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	(void)to;
	(void)from;
	fail_msg("raw_copy_from_user in a host test");
	return n;
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
	(void)addr;
	(void)size;
	fail_msg("access_ok in a host test");
	return false;
}

size_t fault_in_readable(const char __user *uaddr, size_t size)
{
	(void)uaddr;
	fail_msg("fault_in_readable in a host test");
	return size;
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
