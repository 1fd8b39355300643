/*
 * Copying between the kernel and user space (Linux's asm/uaccess.h).
 *
 * Every pointer a system call receives from a user program goes through
 * these.  They check that the whole range lies below TASK_SIZE
 * (access_ok), then touch user memory directly, with the user's page
 * tables loaded: a page that is not there yet is faulted in as a user
 * access would be (demand paging, stack growth, copy-on-write), and an
 * access the VMAs forbid - an unmapped address, a write into read-only
 * memory - does not oops.  The faulting instruction is listed in the
 * exception table (mm/fault.c: search_exception_tables), whose fixup makes
 * the routine stop and report how much it could not copy.
 *
 * Return values are Linux's: copy_{from,to}_user and clear_user give the
 * number of bytes NOT copied (0 = success); the callers turn non-zero into
 * -EFAULT.  get_user/put_user and strncpy_from_user give 0 or -EFAULT.
 * Process context only.
 */
#ifndef ASM_UACCESS_H
#define ASM_UACCESS_H

#include <pageturn/types.h>

#define __user

/* Does [addr, addr+size) lie wholly in user space? */
bool access_ok(const void __user *addr, unsigned long size);

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long clear_user(void __user *to, unsigned long n);

/*
 * Copy a NUL-terminated string of at most count bytes (NUL included) from
 * src: its length without the NUL; count if no NUL came within count
 * bytes (dst is then not terminated); -EFAULT.
 */
long strncpy_from_user(char *dst, const char __user *src, long count);

/* One naturally sized value (1, 2, 4 or 8 bytes): 0 or -EFAULT. */
int __get_user_size(void *kval, const void __user *uptr, unsigned long size);
int __put_user_size(const void *kval, void __user *uptr, unsigned long size);

/* The bytes land in a union so that ptr may point to const. */
#define get_user(x, ptr) ({ \
	union { __typeof__(*(ptr)) val; uint8_t bytes[sizeof(*(ptr))]; } __gu = { .bytes = { 0 } }; \
	int __gu_err = __get_user_size(__gu.bytes, (ptr), sizeof(*(ptr))); \
	(x) = __gu.val; \
	__gu_err; })

#define put_user(x, ptr) ({ \
	__typeof__(*(ptr)) __pu_val = (x); \
	__put_user_size(&__pu_val, (ptr), sizeof(*(ptr))); })

/*
 * Make sure every page of [uaddr, uaddr+size) is present and writable,
 * faulting them in as a write would, without changing a byte (each page
 * is read and the byte written back: processes are single-threaded, so
 * nobody can change it in between).  0 or -EFAULT.  For callers that
 * would lose data if the copy out failed afterwards (a pipe's bytes).
 */
int fault_in_writeable(char __user *uaddr, size_t size);

/*
 * A user path name: kmalloc'd copy in *res (free with putname), or
 * -EFAULT, -ENAMETOOLONG (no NUL within PATH_MAX), -ENOENT (empty),
 * -ENOMEM.  Linux's getname.
 */
long getname(const char __user *filename, char **res);
void putname(char *name);

#endif
