/*
 * Ending processes and waiting for them (Linux's kernel/exit.c).
 *
 * A process ends in do_exit(): exit(2), exit_group(2), or a signal whose
 * default action terminates it (kernel/signal.c).  Its life then goes
 * through two more states, as on Linux:
 *
 *     running --do_exit--> zombie --parent's wait4--> reaped (freed)
 *                            |
 *                            +-- parent ignores SIGCHLD (SIG_IGN or
 *                                SA_NOCLDWAIT): freed at once
 *
 * do_exit releases everything but the task_struct: the address space
 * (after mm_release wakes a vfork parent), open files, root and cwd,
 * signal actions, the controlling terminal if it led the session.  Its
 * children are handed to init (PID 1), which reaps orphans, with SIGCHLD
 * as their exit signal whatever clone gave them.  The status
 * stays in exit_code (the W* encoding: (code << 8) for exit(code), the
 * signal number for a kill) for wait4, and the parent gets exit_signal
 * (SIGCHLD).  Then the task switches away for the last time; the next
 * task frees its kernel stack (finish_task_switch), and wait4 frees the
 * task_struct when it collects the status.
 *
 * wait4 sleeps on one wait queue for every parent: wake_up_parent() wakes
 * them all and each rescans its own children.  With the few processes of
 * a teaching kernel the rescan costs nothing worth a queue per task.
 */
#include <drivers/tty.h>
#include <fs/file.h>
#include <mm/mmap.h>
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/syscalls.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>
#include <uapi/resource.h>

/* wait4 options (Linux's values) */
#define WNOHANG		0x00000001
#define WUNTRACED	0x00000002
#define WCONTINUED	0x00000008
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000
#define WAIT_OPTIONS	(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE)

#define WSTOPPED_STATUS(sig)	(((sig) << 8) | 0x7f)
#define WCONTINUED_STATUS	0xffff

static DECLARE_WAIT_QUEUE_HEAD(wait_chldexit);

void wake_up_parent(struct task_struct *t)
{
	(void)t;
	wake_up(&wait_chldexit);
}

/* Does the parent want no zombies (SIGCHLD ignored or SA_NOCLDWAIT)? */
static bool parent_ignores_children(struct task_struct *parent)
{
	const struct k_sigaction *ka;

	if (!parent->sighand)
		return false;
	ka = &parent->sighand->action[SIGCHLD - 1];
	return ka->sa.sa_handler == SIG_IGN || (ka->sa.sa_flags & SA_NOCLDWAIT);
}

/* Give current's children to init; zombies among them get reaped there. */
static void forget_original_parent(struct task_struct *father)
{
	struct task_struct *reaper = find_task_by_pid(1), *p, *n;

	list_for_each_entry_safe(p, n, &father->children, sibling) {
		list_del(&p->sibling);
		p->parent = reaper;
		if (reaper)
			list_add_tail(&p->sibling, &reaper->children);
		else
			INIT_LIST_HEAD(&p->sibling);
		/* Whatever exit signal clone asked for, init is told with
		 * SIGCHLD ("we don't want people slaying init", Linux's
		 * reparent_leader): a SIGUSR1 would halt it. */
		p->exit_signal = SIGCHLD;
		/* A zombie already told its old parent; tell init, which
		 * reaps on SIGCHLD, as Linux does when it reparents one. */
		if (reaper && p->exit_state == EXIT_ZOMBIE)
			do_notify_parent(p, p->exit_signal);
	}
	if (reaper)
		wake_up_parent(reaper);
}

static void exit_mm(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	mm_release(t);
	if (!mm)
		return;
	t->mm = NULL;
	switch_mm(NULL);
	mmput(mm);
}

__noreturn void do_exit(int code)
{
	struct task_struct *t = current, *parent = t->parent;

	if (t->pid == 1)
		panic("Attempted to kill init! exit status 0x%x", code);
	if (!t->mm && !t->files)
		panic("do_exit: kernel thread %d (%s) called do_exit", t->pid, t->comm);
	t->flags |= PF_EXITING;		/* the OOM killer waits for it (mm/oom_kill.c) */

	exit_mm(t);
	put_files_struct(t->files);
	t->files = NULL;
	put_fs_struct(t->fs);
	t->fs = NULL;
	if (t->sid == t->pid && t->tty)
		disassociate_ctty();
	t->tty = NULL;
	kfree(t->exe_path);
	t->exe_path = NULL;
	forget_original_parent(t);

	cli();
	put_sighand(t->sighand);
	t->sighand = NULL;
	t->exit_code = code;
	t->alarm_jiffies = 0;
	if (parent && !parent_ignores_children(parent)) {
		t->exit_state = EXIT_ZOMBIE;
		if (t->exit_signal)
			do_notify_parent(t, t->exit_signal);
	} else {
		t->exit_state = EXIT_DEAD;
		if (parent)
			list_del_init(&t->sibling);
	}
	wake_up_parent(t);
	t->state = TASK_DEAD;
	schedule();
	panic("do_exit: dead task %d (%s) was scheduled", t->pid, t->comm);
}

long sys_exit(int error_code)
{
	do_exit((error_code & 0xff) << 8);
}

long sys_exit_group(int error_code)
{
	do_exit((error_code & 0xff) << 8);
}

/* Does child p match wait4's pid argument? */
static bool eligible_child(const struct task_struct *p, int pid)
{
	if (pid > 0)
		return p->pid == pid;
	if (pid == 0)
		return p->pgid == current->pgid;
	if (pid < -1)
		return p->pgid == -pid;
	return true;
}

/* Store wait4's results: the status and the child's resource usage
 * (its own and its reaped descendants', as Linux's wait4 reports). */
static int report_child(struct task_struct *p, int status, int __user *stat_addr,
			struct rusage __user *ru)
{
	struct rusage r;

	if (stat_addr && put_user(status, stat_addr))
		return -EFAULT;
	if (ru) {
		getrusage(p, RUSAGE_BOTH, &r);
		if (copy_to_user(ru, &r, sizeof(r)))
			return -EFAULT;
	}
	return 0;
}

/* Collect zombie p: its times go to the parent, the task is freed. */
static void release_task(struct task_struct *p)
{
	current->cutime += p->utime + p->cutime;
	current->cstime += p->stime + p->cstime;
	current->cmin_flt += p->min_flt + p->cmin_flt;
	current->cmaj_flt += p->maj_flt + p->cmaj_flt;
	list_del(&p->sibling);
	p->exit_state = EXIT_DEAD;
	free_task(p);
}

/*
 * One scan of current's children: the pid of a child whose state change
 * was reported, 0 when matching children exist but none changed, -ECHILD
 * when none match, -EFAULT.
 */
static long wait_scan(int pid, int options, int __user *stat_addr, struct rusage __user *ru)
{
	struct task_struct *p, *n;
	bool any = false;
	int err;

	list_for_each_entry_safe(p, n, &current->children, sibling) {
		if (!eligible_child(p, pid))
			continue;
		any = true;
		if (p->exit_state == EXIT_ZOMBIE && p->state == TASK_DEAD) {
			int child = p->pid;

			err = report_child(p, p->exit_code, stat_addr, ru);
			if (err)
				return err;
			release_task(p);
			return child;
		}
		if (p->stop_report &&
		    ((p->stop_report == WCONTINUED_STATUS && (options & WCONTINUED)) ||
		     (p->stop_report != WCONTINUED_STATUS && (options & WUNTRACED)))) {
			err = report_child(p, p->stop_report, stat_addr, ru);
			if (err)
				return err;
			p->stop_report = 0;
			return p->pid;
		}
	}
	return any ? 0 : -ECHILD;
}

long sys_wait4(int pid, int __user *stat_addr, int options, struct rusage __user *ru)
{
	DEFINE_WAIT(wait);
	long ret;

	if (options & ~WAIT_OPTIONS)
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;
	for (;;) {
		prepare_to_wait(&wait_chldexit, &wait, TASK_INTERRUPTIBLE);
		ret = wait_scan(pid, options, stat_addr, ru);
		if (ret || (options & WNOHANG))
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&wait_chldexit, &wait);
	return ret;
}
