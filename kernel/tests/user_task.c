/* The process state in-kernel tests borrow for system calls (user_task.h). */
#include <asm/page.h>
#include <fs/file.h>
#include <mm/mmap.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <uapi/mman.h>

#include "user_task.h"

bool ktest_user_begin(struct ktest *t, struct ktest_user *u)
{
	long addr;

	u->old_mm = current->mm;
	u->mm = mm_alloc();
	u->addr = 0;
	KTEST_EXPECT(t, u->mm != NULL);
	if (!u->mm)
		return false;
	current->mm = u->mm;
	switch_mm(u->mm);
	addr = do_mmap_pgoff(u->mm, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, NULL, 0);
	KTEST_EXPECT(t, addr > 0);
	if (addr > 0)
		u->addr = addr;
	current->sighand = copy_sighand(NULL);
	KTEST_EXPECT(t, current->sighand != NULL);
	current->files = dup_fd(NULL);
	KTEST_EXPECT(t, current->files != NULL);
	return u->addr && current->sighand && current->files;
}

void ktest_user_end(struct ktest_user *u)
{
	if (!u->mm)
		return;
	if (current->files)
		put_files_struct(current->files);
	current->files = NULL;
	current->pending = 0;
	current->blocked = 0;
	current->alarm_jiffies = 0;
	put_sighand(current->sighand);
	current->sighand = NULL;
	current->mm = u->old_mm;
	switch_mm(u->old_mm);
	mmput(u->mm);
	u->mm = NULL;
}
