/*
 * /proc/PID/stat, status and statm (Linux's fs/proc/array.c), in Linux's
 * exact formats: ps, top and the C libraries parse them by position.
 *
 * The fields come from the task_struct and its mm; where Pageturn has no
 * such thing the value is what Linux shows for a task without it:
 *   - one thread per process, processor 0, policy SCHED_OTHER, nice 0
 *     and so priority 20, no real-time priority;
 *   - everyone is root with every capability (CAP_LAST_CAP 40, as Linux
 *     6.1) and no supplementary groups;
 *   - no tracer, no swap, no guest time, no block I/O delay accounting;
 *   - children's fault counts are not kept (cminflt, cmajflt 0).
 * A kernel thread has flags PF_KTHREAD and no memory fields (0, and no
 * Vm lines in status); a zombie has PF_EXITING and, its mm gone, the
 * same.  The legacy signal fields of stat show the first 31 signals in
 * decimal; status shows all 64 in hexadecimal.
 */
#include <drivers/tty.h>
#include <fs/devfs.h>
#include <fs/file.h>
#include <mm/mm_types.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>

#include "internal.h"

#define CAP_FULL_SET	0x000001ffffffffffull	/* capabilities 0-40 */
#define TASK_PRIO	20		/* Linux's task_prio() at nice 0 */

/* Linux's letters and words for a task's state. */
static const char *get_task_state(const struct task_struct *p)
{
	if (p->exit_state == EXIT_ZOMBIE)
		return "Z (zombie)";
	if (p->exit_state == EXIT_DEAD || p->state == TASK_DEAD)
		return "X (dead)";
	if (p->state == TASK_STOPPED)
		return "T (stopped)";
	if (p->state == TASK_UNINTERRUPTIBLE)
		return "D (disk sleep)";
	if (p->state == TASK_INTERRUPTIBLE)
		return "S (sleeping)";
	return "R (running)";
}

/* How many signals are pending (a mask holds one of each). */
static unsigned int nr_pending(sigset_t set)
{
	unsigned int n = 0;

	for (; set; set &= set - 1)
		n++;
	return n;
}

static bool task_is_kthread(const struct task_struct *p)
{
	return !p->mm && !p->exit_state;
}

static int task_ppid(const struct task_struct *p)
{
	return p->parent ? p->parent->tgid : 0;
}

/* The signals p ignores and catches (Linux's collect_sigign_sigcatch):
 * bit sig - 1 for signal sig, as sigset_t. */
static void collect_sigign_sigcatch(const struct task_struct *p, sigset_t *ign, sigset_t *catch)
{
	int sig;

	*ign = *catch = 0;
	if (!p->sighand)
		return;
	for (sig = 1; sig <= _NSIG; sig++) {
		void *handler = p->sighand->action[sig - 1].sa.sa_handler;

		if (handler == SIG_IGN)
			*ign |= sigmask(sig);
		else if (handler != SIG_DFL)
			*catch |= sigmask(sig);
	}
}

/* The controlling terminal's device number in stat's encoding (Linux's
 * new_encode_dev, the same as the 8:8 one for small numbers) and its
 * foreground process group: 0 and -1 without a terminal. */
static void task_tty(const struct task_struct *p, unsigned int *tty_nr, int *tty_pgrp)
{
	uint32_t dev;

	*tty_nr = 0;
	*tty_pgrp = -1;
	if (!p->tty)
		return;
	dev = tty_devnum(p->tty);
	*tty_nr = (MINOR(dev) & 0xff) | (MAJOR(dev) << 8) | ((MINOR(dev) & ~0xffu) << 12);
	*tty_pgrp = p->tty->pgrp;
}

/*
 * /proc/PID/stat: one line of 52 fields (Linux's do_task_stat):
 * pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
 * majflt cmajflt utime stime cutime cstime priority nice num_threads
 * itrealvalue starttime vsize rss rsslim startcode endcode startstack
 * kstkesp kstkeip signal blocked sigignore sigcatch wchan nswap cnswap
 * exit_signal processor rt_priority policy delayacct_blkio_ticks
 * guest_time cguest_time start_data end_data start_brk arg_start arg_end
 * env_start env_end exit_code.  Times are in clock ticks (USER_HZ =
 * HZ), starttime in ticks since boot, vsize in bytes, rss in pages.
 * wchan is 1 for a sleeping task, as Linux shows it now.
 */
int proc_pid_stat(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	unsigned int flags = task->flags, tty_nr;
	int tty_pgrp;
	sigset_t ign, catch;

	if (task_is_kthread(task))
		flags |= PF_KTHREAD;
	if (task->exit_state)
		flags |= PF_EXITING;
	task_tty(task, &tty_nr, &tty_pgrp);
	collect_sigign_sigcatch(task, &ign, &catch);

	seq_printf(m, "%d (%s) %c %d %d %d %u %d %u", task->pid, task->comm,
		   get_task_state(task)[0], task_ppid(task), task->pgid, task->sid, tty_nr,
		   tty_pgrp, flags);
	seq_printf(m, " %lu 0 %lu 0 %llu %llu %llu %llu %d 0 1 0 %llu",
		   task->min_flt, task->maj_flt, (unsigned long long)task->utime,
		   (unsigned long long)task->stime, (unsigned long long)task->cutime,
		   (unsigned long long)task->cstime, TASK_PRIO, (unsigned long long)task->start_time);
	seq_printf(m, " %lu %lu %lu", mm ? mm->total_vm << PAGE_SHIFT : 0,
		   mm ? mm->anon_rss + mm->file_rss : 0, task_rlimit(task, RLIMIT_RSS));
	seq_printf(m, " %lu %lu %lu 0 0", mm ? mm->start_code : 0, mm ? mm->end_code : 0,
		   mm ? mm->start_stack : 0);
	seq_printf(m, " %lu %lu %lu %lu %d 0 0 %d 0 0 0 0 0 0",
		   (unsigned long)(task->pending & 0x7fffffff),
		   (unsigned long)(task->blocked & 0x7fffffff), (unsigned long)(ign & 0x7fffffff),
		   (unsigned long)(catch & 0x7fffffff), task->state != TASK_RUNNING,
		   task->exit_signal);
	seq_printf(m, " %lu %lu %lu %lu %lu %lu %lu %d\n", mm ? mm->start_data : 0,
		   mm ? mm->end_data : 0, mm ? mm->start_brk : 0, mm ? mm->arg_start : 0,
		   mm ? mm->arg_end : 0, mm ? mm->env_start : 0, mm ? mm->env_end : 0,
		   task->exit_code);
	return 0;
}

/*
 * /proc/PID/status: "Name:\tvalue" lines in Linux 6.1's order: identity,
 * then (with an address space) task_mem's Vm lines, then signals,
 * capabilities and CPUs.
 */
int proc_pid_status(struct seq_file *m, struct task_struct *task)
{
	struct fs_struct *fs = task_fs(task);
	sigset_t ign, catch;
	int ppid = task_ppid(task);

	seq_printf(m, "Name:\t%s\n", task->comm);
	if (fs)
		seq_printf(m, "Umask:\t%04o\n", fs->umask);
	seq_printf(m, "State:\t%s\n", get_task_state(task));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n",
		   task->tgid, task->pid, ppid);
	seq_puts(m, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n");
	seq_printf(m, "FDSize:\t%d\nGroups:\t \n", task->files ? NR_OPEN : 0);
	seq_printf(m, "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n", task->tgid,
		   task->pid, task->pgid, task->sid);
	if (task->mm)
		task_mem(m, task->mm);

	collect_sigign_sigcatch(task, &ign, &catch);
	seq_printf(m, "Threads:\t1\nSigQ:\t%u/%lu\n", nr_pending(task->pending),
		   task_rlimit(task, RLIMIT_SIGPENDING));
	seq_printf(m, "SigPnd:\t%016llx\nShdPnd:\t%016llx\n", (unsigned long long)task->pending, 0ull);
	seq_printf(m, "SigBlk:\t%016llx\nSigIgn:\t%016llx\nSigCgt:\t%016llx\n",
		   (unsigned long long)task->blocked, (unsigned long long)ign,
		   (unsigned long long)catch);
	seq_printf(m, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\n", 0ull,
		   CAP_FULL_SET, CAP_FULL_SET);
	seq_printf(m, "CapBnd:\t%016llx\nCapAmb:\t%016llx\n", CAP_FULL_SET, 0ull);
	seq_puts(m, "NoNewPrivs:\t0\nSeccomp:\t0\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n");
	return 0;
}

/* /proc/PID/statm: size resident shared text lib data dt, in pages
 * (lib and dt are always 0 on Linux 2.6 and later). */
int proc_pid_statm(struct seq_file *m, struct task_struct *task)
{
	unsigned long size = 0, resident = 0, shared = 0, text = 0, data = 0;

	if (task->mm)
		size = task_statm(task->mm, &shared, &text, &data, &resident);
	seq_printf(m, "%lu %lu %lu %lu 0 %lu 0\n", size, resident, shared, text, data);
	return 0;
}
