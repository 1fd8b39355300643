/* In-kernel tests of system calls that take user pointers or look at the
 * caller's signal state: the test task (a kernel thread) borrows what a
 * process has for the length of a case. */
#ifndef KERNEL_TESTS_USER_TASK_H
#define KERNEL_TESTS_USER_TASK_H

#include <asm/uaccess.h>
#include <mm/mm_types.h>
#include <pageturn/ktest.h>

/* What a case borrowed: an address space with one page of user memory. */
struct ktest_user {
	struct mm_struct *mm, *old_mm;
	unsigned long addr;		/* the page: read-write, zeroed */
};

/*
 * Give current an address space holding one anonymous read-write page
 * at u->addr (loaded, as a process's: Linux's use_mm), a descriptor
 * table and default signal actions.  False, after a failed expectation,
 * when something could not be made; ktest_user_end undoes what was.
 */
bool ktest_user_begin(struct ktest *t, struct ktest_user *u);

/* Give it all back: descriptors closed, signal state (pending, blocked)
 * cleared, the old address space loaded again. */
void ktest_user_end(struct ktest_user *u);

/* The user address off bytes into the page. */
static inline void __user *ktest_uptr(const struct ktest_user *u, unsigned long off)
{
	return (void __user *)(u->addr + off);
}

#endif
