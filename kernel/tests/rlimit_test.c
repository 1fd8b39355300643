/*
 * Suite "rlimit": per-process resource limits (kernel/sys.c).
 *
 * Kernel threads keep a zero table and are given init_rlimits, and
 * their limits cannot be changed.  The rules of the limit calls (Linux's
 * do_prlimit) are checked through prlimit64 on another task, since the
 * test itself runs as a kernel thread: a task made by fork's first step
 * (alloc_task), never run, given init's limits as become_process gives
 * them, and freed as fork frees a child it could not finish.  Its table
 * is also rendered as /proc/PID/limits, in Linux's columns.  What the
 * limits do to a running process (stack growth, descriptors, CPU time,
 * fork and exec) is tested from user mode by user/tests/rlimits.c, and
 * mm/mmap.c's side by the host tests in tests/unit/test_mmap.c.
 *
 * Suite "flusher": the writeback thread sleeps TASK_INTERRUPTIBLE
 * between rounds (mm/page-writeback.c), so /proc and ps show it as S,
 * idle, rather than D, waiting for the disk.
 */
#include <asm/uaccess.h>
#include <fs/file.h>
#include <fs/proc_fs.h>
#include <mm/mmap.h>
#include <pageturn/ktest.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#include "proc_text.h"
#include "user_task.h"

#define NO_SUCH_PID_FROM	32767	/* searched downwards for a free pid */
#define LIMITS_HEADER	"Limit                     Soft Limit           Hard Limit           " \
			"Units     \n"

static char text[4096];

/* The kernel thread named comm, or NULL. */
static struct task_struct *find_kthread(const char *comm)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list_head, tasks)
		if (!p->mm && !strcmp(p->comm, comm))
			return p;
	return NULL;
}

/* prlimit64 on pid with the new limit {cur, max} placed in user memory
 * at unew; the old one lands at uold. */
static long prlimit_set(int pid, unsigned int resource, unsigned long cur, unsigned long max,
			struct rlimit __user *unew, struct rlimit __user *uold)
{
	struct rlimit r = { cur, max };

	if (copy_to_user(unew, &r, sizeof(r)))
		return -EFAULT;
	return sys_prlimit64(pid, resource, unew, uold);
}

/* The limit at uold is {cur, max}. */
static void expect_old(struct ktest *t, struct rlimit __user *uold, unsigned long cur,
		       unsigned long max)
{
	struct rlimit r = { 0, 0 };

	KTEST_EXPECT_EQ(t, copy_from_user(&r, uold, sizeof(r)), 0);
	KTEST_EXPECT_EQ(t, r.rlim_cur, cur);
	KTEST_EXPECT_EQ(t, r.rlim_max, max);
}

KTEST(rlimit, kernel_threads_have_init_rlimits)
{
	struct task_struct *flusher = find_kthread("flush");
	struct rlimit __user *unew, *uold;
	struct ktest_user u;

	KTEST_EXPECT_EQ(t, task_rlimit(&init_task, RLIMIT_NOFILE), NR_OPEN);
	KTEST_EXPECT_EQ(t, task_rlimit(&init_task, RLIMIT_STACK), STACK_RLIMIT_DEFAULT);
	KTEST_EXPECT_EQ(t, task_rlimit(&init_task, RLIMIT_CORE), 0);
	KTEST_EXPECT_EQ(t, task_rlimit(&init_task, RLIM_NLIMITS), RLIM_INFINITY);
	KTEST_EXPECT(t, flusher != NULL);
	if (flusher)
		KTEST_EXPECT_EQ(t, task_rlimit(flusher, RLIMIT_NOFILE), NR_OPEN);

	if (ktest_user_begin(t, &u)) {
		unew = ktest_uptr(&u, 0);
		uold = ktest_uptr(&u, 64);
		KTEST_EXPECT_EQ(t, sys_getrlimit(RLIMIT_STACK, uold), 0);
		expect_old(t, uold, STACK_RLIMIT_DEFAULT, RLIM_INFINITY);
		KTEST_EXPECT_EQ(t, sys_prlimit64(0, RLIMIT_NOFILE, NULL, uold), 0);
		expect_old(t, uold, NR_OPEN, NR_OPEN);
		/* the kernel's own limits stay as they are */
		KTEST_EXPECT_EQ(t, prlimit_set(0, RLIMIT_CORE, 0, 0, unew, NULL), -EPERM);
		if (flusher)
			KTEST_EXPECT_EQ(t, prlimit_set(flusher->pid, RLIMIT_CORE, 0, 0, unew, NULL),
					-EPERM);
		KTEST_EXPECT_EQ(t, task_rlimit(&init_task, RLIMIT_CORE), 0);
	}
	ktest_user_end(&u);
}

KTEST(rlimit, prlimit64_rules)
{
	struct rlimit __user *unew, *uold;
	struct rlimit __user *kaddr = (struct rlimit __user *)PAGE_OFFSET;
	struct task_struct *p = NULL;
	struct ktest_user u;
	int pid, no_pid = NO_SUCH_PID_FROM;

	if (!ktest_user_begin(t, &u))
		goto out;
	p = alloc_task("rlimit-test");
	KTEST_EXPECT(t, p != NULL);
	if (!p)
		goto out;
	memcpy(p->rlim, init_rlimits, sizeof(p->rlim));
	pid = p->pid;
	unew = ktest_uptr(&u, 0);
	uold = ktest_uptr(&u, 64);

	KTEST_EXPECT_EQ(t, sys_prlimit64(pid, RLIMIT_NOFILE, NULL, uold), 0);
	expect_old(t, uold, NR_OPEN, NR_OPEN);
	/* the soft limit above the hard one */
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_STACK, 10, 5, unew, uold), -EINVAL);
	/* RLIMIT_NOFILE's hard limit is at most NR_OPEN (nr_open) */
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_NOFILE, 1, NR_OPEN + 1, unew, uold), -EPERM);
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_NOFILE, RLIM_INFINITY, RLIM_INFINITY, unew, uold),
			-EPERM);
	KTEST_EXPECT_EQ(t, task_rlimit(p, RLIMIT_NOFILE), NR_OPEN);
	/* lowering both: the old limit comes back */
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_NOFILE, 64, 128, unew, uold), 0);
	expect_old(t, uold, NR_OPEN, NR_OPEN);
	KTEST_EXPECT_EQ(t, task_rlimit(p, RLIMIT_NOFILE), 64);
	/* raising the hard limit again: everyone has CAP_SYS_RESOURCE */
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_NOFILE, NR_OPEN, NR_OPEN, unew, uold), 0);
	expect_old(t, uold, 64, 128);
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_STACK, 1ul << 20, 2ul << 20, unew, NULL), 0);
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_STACK, 1ul << 20, RLIM_INFINITY, unew, NULL), 0);
	KTEST_EXPECT_EQ(t, task_rlimit(p, RLIMIT_STACK), 1ul << 20);
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_CPU, 7, 9, unew, NULL), 0);
	KTEST_EXPECT_EQ(t, prlimit_set(pid, RLIMIT_NOFILE, 64, 128, unew, NULL), 0);

	/* unknown resources, bad pointers, no such process */
	KTEST_EXPECT_EQ(t, sys_prlimit64(pid, RLIM_NLIMITS, NULL, uold), -EINVAL);
	KTEST_EXPECT_EQ(t, task_rlimit(p, RLIM_NLIMITS), RLIM_INFINITY);
	KTEST_EXPECT_EQ(t, sys_prlimit64(pid, RLIMIT_CORE, kaddr, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, sys_prlimit64(pid, RLIMIT_CORE, NULL, kaddr), -EFAULT);
	KTEST_EXPECT_EQ(t, sys_getrlimit(RLIMIT_CORE, kaddr), -EFAULT);
	while (find_task_by_pid(no_pid))
		no_pid--;
	KTEST_EXPECT_EQ(t, sys_prlimit64(no_pid, RLIMIT_CORE, NULL, uold), -ESRCH);
	KTEST_EXPECT_EQ(t, sys_prlimit64(-1, RLIMIT_CORE, NULL, uold), -ESRCH);

	/* /proc/PID/limits: Linux's columns, "unlimited", no unit for nice */
	ktest_render_task(t, proc_pid_limits, p, text, sizeof(text));
	KTEST_EXPECT(t, !strncmp(text, LIMITS_HEADER, strlen(LIMITS_HEADER)));
	KTEST_EXPECT(t, strstr(text, "\nMax cpu time              7                    "
				     "9                    seconds   \n") != NULL);
	KTEST_EXPECT(t, strstr(text, "\nMax stack size            1048576              "
				     "unlimited            bytes     \n") != NULL);
	KTEST_EXPECT(t, strstr(text, "\nMax open files            64                   "
				     "128                  files     \n") != NULL);
	KTEST_EXPECT(t, strstr(text, "\nMax nice priority         0                    "
				     "0                    \n") != NULL);
	KTEST_EXPECT(t, strstr(text, "\nMax realtime timeout      unlimited            "
				     "unlimited            us        \n") != NULL);
out:
	if (p) {
		p->state = TASK_DEAD;
		free_thread_stack(p->stack);
		free_task(p);
	}
	ktest_user_end(&u);
}

/* Between rounds the flusher is asleep TASK_INTERRUPTIBLE; a round under
 * way may find it runnable or waiting for the disk for a moment. */
KTEST(flusher, sleeps_interruptibly)
{
	struct task_struct *flusher = find_kthread("flush");
	int i;

	KTEST_EXPECT(t, flusher != NULL);
	if (!flusher)
		return;
	for (i = 0; i < 100 && flusher->state != TASK_INTERRUPTIBLE; i++)
		msleep(10);
	KTEST_EXPECT_EQ(t, flusher->state, TASK_INTERRUPTIBLE);
	ktest_render_task(t, proc_pid_status, flusher, text, sizeof(text));
	KTEST_EXPECT(t, strstr(text, "\nState:\tS (sleeping)\n") != NULL);
}
