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
/* copy_from_user without zeroing the part of to it could not fill: for
 * copies into memory whose old bytes must survive a fault (a page of the
 * page cache, copy_page_from_iter_atomic). */
unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n);

/*
 * Page faults disabled (Linux's pagefault_disable): while current's depth
 * is non-zero, a user copy that touches a page that is not present stops
 * at once through its fixup instead of having do_page_fault (mm/fault.c)
 * map the page, so it never sleeps and never takes a page lock.  For a
 * copy made while holding a lock the fault path could need (write()'s
 * copy into a locked page-cache page, whose source may map that very
 * page) or while a structure must not change under it (a pipe's ring).
 * The caller faults the user range in first and retries what did not
 * copy.  Nests (a depth in current's task_struct).
 */
void pagefault_disable(void);
void pagefault_enable(void);
bool faulthandler_disabled(void);

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
 * Make every page of [uaddr, uaddr+size) present, faulting them in as a
 * read (fault_in_readable) or a write (fault_in_writeable: without
 * changing a byte, each page is read and the byte written back;
 * processes are single-threaded, so nobody can change it in between)
 * would.  Returns the bytes that could NOT be faulted in, from the first
 * page that failed to the end (0: all of them), as Linux 5.16's do.  For
 * callers about to copy with page faults disabled, or that would lose
 * data if the copy failed afterwards (a TTY's bytes).  May sleep.
 */
size_t fault_in_readable(const char __user *uaddr, size_t size);
size_t fault_in_writeable(char __user *uaddr, size_t size);

/*
 * A user path name: kmalloc'd copy in *res (free with putname), or
 * -EFAULT, -ENAMETOOLONG (no NUL within PATH_MAX), -ENOENT (empty),
 * -ENOMEM.  Linux's getname.
 */
long getname(const char __user *filename, char **res);
void putname(char *name);

#endif
