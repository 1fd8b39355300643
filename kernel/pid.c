/*
 * Process identifiers and groups (Linux's kernel/pid.c and the id calls
 * of kernel/sys.c).
 *
 * Every task has a pid, unique among the tasks that exist (zombies
 * included, until reaped): pid 0 is the idle task, pid 1 is kept for
 * init, the others count up from 2 and wrap at PID_MAX to
 * PID_MAX_WRAP, skipping pids still in use, as Linux does.  A process is
 * single-threaded, so its thread-group id is its pid.
 *
 * Process groups and sessions are just numbers stored in each task: the
 * pgid is the pid of the group's leader, the sid that of the session's.
 * Groups live in one session; setpgid and setsid keep Linux's rules
 * (checked below) so job control in busybox's sh behaves as on Linux.
 *
 * find_task_by_pid walks the task list: a few dozen tasks in a teaching
 * kernel make a hash table unnecessary.
 */
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#define PID_MAX		32768
#define PID_MAX_WRAP	300	/* Linux's RESERVED_PIDS: low pids stay for daemons */

/* PID 1 is init's whenever it starts (kernel/main.c), so counting starts
 * above it. */
static int last_pid = INIT_PID;

struct task_struct *find_task_by_pid(int pid)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list_head, tasks)
		if (p->pid == pid && p->exit_state != EXIT_DEAD)
			return p;
	return NULL;
}

int alloc_pid(void)
{
	for (;;) {
		if (++last_pid >= PID_MAX)
			last_pid = PID_MAX_WRAP;
		if (!find_task_by_pid(last_pid))
			return last_pid;
	}
}

bool pgrp_in_session(int pgrp, int sid)
{
	struct task_struct *p;

	/* Zombies still belong to their group, as on Linux: a pipeline's
	 * later members join the group of a first one that already exited.
	 * Kernel threads have pgid 0, which no group is. */
	list_for_each_entry(p, &task_list_head, tasks)
		if (pgrp > 0 && p->pgid == pgrp && p->sid == sid && p->exit_state != EXIT_DEAD)
			return true;
	return false;
}

long sys_getpid(void)
{
	return current->tgid;
}

long sys_gettid(void)
{
	return current->pid;
}

long sys_getppid(void)
{
	return current->parent ? current->parent->tgid : 0;
}

/* The process pid names: current for 0, a live process, or NULL. */
static struct task_struct *process_by_pid(int pid)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;

	return p && p->exit_state != EXIT_DEAD ? p : NULL;
}

/*
 * setpgid(2), Linux's rules: pid is the caller or one of its children
 * (-ESRCH) in the same session (-EPERM); a session leader cannot move
 * (-EPERM); the target group must be the process's own pid or an
 * existing group of the caller's session (-EPERM); pgid < 0 is -EINVAL.
 * Linux also refuses (-EACCES) a child that has exec'd; exec is not
 * tracked per child here, so that rule is not enforced.
 */
long sys_setpgid(int pid, int pgid)
{
	struct task_struct *p;

	if (pgid < 0)
		return -EINVAL;
	p = process_by_pid(pid);
	if (!p || (p != current && p->parent != current))
		return -ESRCH;
	if (p->sid != current->sid || p->sid == p->pid)
		return -EPERM;
	if (!pgid)
		pgid = p->pid;
	if (pgid != p->pid && !pgrp_in_session(pgid, current->sid))
		return -EPERM;
	p->pgid = pgid;
	return 0;
}

long sys_getpgid(int pid)
{
	struct task_struct *p = process_by_pid(pid);

	return p ? p->pgid : -ESRCH;
}

long sys_getpgrp(void)
{
	return current->pgid;
}

long sys_getsid(int pid)
{
	struct task_struct *p = process_by_pid(pid);

	return p ? p->sid : -ESRCH;
}

/* setsid(2): a new session and group led by the caller, with no
 * controlling terminal; -EPERM for a group leader (Linux's rule, so that
 * a group never spans sessions). */
long sys_setsid(void)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list_head, tasks)
		if (p->pgid == current->pid && p->exit_state != EXIT_DEAD)
			return -EPERM;
	current->sid = current->pid;
	current->pgid = current->pid;
	current->tty = NULL;
	return current->sid;
}
