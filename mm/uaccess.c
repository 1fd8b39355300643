/*
 * Copying between the kernel and user space: the C side of asm/uaccess.h.
 *
 * A user pointer is only a number the program chose.  Before anything
 * touches it, access_ok() checks that the whole range lies below
 * TASK_SIZE, so a program cannot make the kernel read or write kernel
 * memory for it.  What the range maps to is not checked beforehand: the
 * routines in kernel/lib/usercopy.asm access it directly through the
 * current page tables, and a fault there is handled by do_page_fault
 * (mm/fault.c) as if the program itself had made the access: a page that
 * is merely absent is faulted in and the copy continues; an access the
 * VMAs forbid stops the routine through its exception-table fixup, and
 * the routine reports the bytes it could not copy.  CR0.WP is set, so a
 * write into a read-only user page faults from the kernel too (and a
 * copy-on-write page is copied first, as for the program).
 *
 * The state involved is only the caller's: these functions keep none.
 * Results follow Linux: the copy functions return the bytes not copied,
 * the others 0 or -EFAULT.  copy_from_user zeroes the part of the kernel
 * buffer it could not fill, so no stale kernel data survives a failed
 * copy.  Process context (a fault may sleep for I/O).
 */
#include <asm/uaccess.h>
#include <fs/vfs.h>
#include <mm/mmap.h>
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

/* kernel/lib/usercopy.asm: see there.  Only this file calls them. */
unsigned long __copy_user(void *to, const void *from, unsigned long n);
unsigned long __clear_user(void *to, unsigned long n);
long __strncpy_from_user(char *dst, const char *src, unsigned long count);

/*
 * access_ok - the range [addr, addr+size) is wholly user space: it ends at
 * or below TASK_SIZE without wrapping around.  A size of 0 is fine
 * anywhere below TASK_SIZE.  Any context; touches nothing.
 */
bool access_ok(const void __user *addr, unsigned long size)
{
	unsigned long a = (unsigned long)addr;

	return a <= TASK_SIZE && size <= TASK_SIZE - a;
}

/*
 * copy_from_user - copy n bytes from user address from to the kernel buffer
 * to.  Returns the bytes not copied (n if the range is not user space);
 * those last bytes of to are zeroed.
 */
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long left = n;

	if (access_ok(from, n))
		left = __copy_user(to, (const void *)from, n);
	if (left)
		memset((char *)to + (n - left), 0, left);
	return left;
}

void pagefault_disable(void)
{
	current->pagefault_disabled++;
}

void pagefault_enable(void)
{
	current->pagefault_disabled--;
}

bool faulthandler_disabled(void)
{
	return current->pagefault_disabled != 0;
}

/* raw_copy_from_user - copy_from_user without zeroing: the bytes not
 * copied, with that tail of to untouched. */
unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (!access_ok(from, n))
		return n;
	return __copy_user(to, (const void *)from, n);
}

/* copy_to_user - copy n bytes from the kernel buffer from to user address
 * to.  Returns the bytes not copied. */
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return __copy_user((void *)to, from, n);
}

/* clear_user - zero n bytes at user address to.  Returns the bytes not
 * zeroed. */
unsigned long clear_user(void __user *to, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return __clear_user((void *)to, n);
}

/*
 * strncpy_from_user - as asm/uaccess.h says.  The string may end anywhere
 * below TASK_SIZE, so only the bytes below it are tried; running into
 * TASK_SIZE before a NUL and before count bytes is -EFAULT, as touching
 * the byte at TASK_SIZE would be.  count <= 0 copies nothing and returns
 * 0, as Linux does.
 */
long strncpy_from_user(char *dst, const char __user *src, long count)
{
	unsigned long addr = (unsigned long)src, max;
	long len;

	if (count <= 0)
		return 0;
	if (addr >= TASK_SIZE)
		return -EFAULT;
	max = MIN((unsigned long)count, TASK_SIZE - addr);
	len = __strncpy_from_user(dst, (const char *)src, max);
	if (len == (long)max && max < (unsigned long)count)
		return -EFAULT;
	return len;
}

/* The sizes get_user and put_user handle; any other is a kernel bug. */
static void check_user_size(const char *caller, unsigned long size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		panic("%s: no %lu-byte user access", caller, size);
}

/*
 * __get_user_size - read one value of size bytes (1, 2, 4, 8) at uptr into
 * kval: 0 or -EFAULT (kval is then zeroed).  The bytes are copied in
 * order; nothing else runs meanwhile on this CPU, so the value is read
 * as the program last wrote it.
 */
int __get_user_size(void *kval, const void __user *uptr, unsigned long size)
{
	check_user_size(__func__, size);
	return copy_from_user(kval, uptr, size) ? -EFAULT : 0;
}

/* __put_user_size - write the size bytes (1, 2, 4, 8) at kval to uptr:
 * 0 or -EFAULT. */
int __put_user_size(const void *kval, void __user *uptr, unsigned long size)
{
	check_user_size(__func__, size);
	return copy_to_user(uptr, kval, size) ? -EFAULT : 0;
}

/*
 * getname - copy a user path name into a PATH_MAX kmalloc'd buffer: 0 with
 * *res set, or -ENOMEM, -EFAULT, -ENAMETOOLONG (no NUL in PATH_MAX
 * bytes), -ENOENT (the empty string), with nothing allocated.
 */
long getname(const char __user *filename, char **res)
{
	char *name = kmalloc(PATH_MAX, GFP_KERNEL);
	long len;

	if (!name)
		return -ENOMEM;
	len = strncpy_from_user(name, filename, PATH_MAX);
	if (len > 0 && len < PATH_MAX) {
		*res = name;
		return 0;
	}
	kfree(name);
	if (len < 0)
		return len;
	return len ? -ENAMETOOLONG : -ENOENT;
}

/* putname - free what getname returned. */
void putname(char *name)
{
	kfree(name);
}

/* Fault in [uaddr, uaddr+size) a page at a time, touching each page's
 * first byte in range (and the last byte) with read or read-and-write:
 * the bytes from the first page that failed on. */
static size_t fault_in(char __user *uaddr, size_t size, bool write)
{
	unsigned long start = (unsigned long)uaddr, end, p;
	char c;

	if (!size)
		return 0;
	if (!access_ok(uaddr, size))
		return size;
	end = start + size;
	for (p = start; p < end; p = (p & PAGE_MASK) + PAGE_SIZE) {
		if (get_user(c, (char __user *)p) || (write && put_user(c, (char __user *)p)))
			return end - p;
	}
	return 0;
}

size_t fault_in_readable(const char __user *uaddr, size_t size)
{
	return fault_in((char __user *)uaddr, size, false);
}

size_t fault_in_writeable(char __user *uaddr, size_t size)
{
	return fault_in(uaddr, size, true);
}
