/*
 * Signals (Linux's kernel/signal.c and arch/x86/kernel/signal.c names).
 * kernel/signal.c explains the design: pending and blocked masks per task,
 * actions copied at fork and reset at exec; delivery on the way back to
 * user mode.  kernel/signal_frame.c builds and takes apart the x86-64
 * frame a handler runs on.
 *
 * Every function is called in process context unless it says otherwise.
 */
#ifndef PAGETURN_SIGNAL_H
#define PAGETURN_SIGNAL_H

#include <asm/uaccess.h>
#include <pageturn/sched.h>
#include <uapi/signal.h>

struct pt_regs;

struct k_sigaction {
	struct k_sigaction_user sa;
};

/*
 * What a pending signal's siginfo will say (Linux's sigqueue, reduced to
 * one slot per signal: a standard signal sent while it is pending is not
 * queued twice, and the first sender's information is kept; a fault
 * replaces it).
 */
struct sigqueue {
	int code;		/* si_code: SI_USER, SI_KERNEL, SEGV_MAPERR, CLD_EXITED... */
	int pid;		/* si_pid: the sender, or the child for SIGCHLD */
	int status;		/* si_status for SIGCHLD */
	bool forced;		/* by force_sig_fault: kills even init */
	uint64_t addr;		/* si_addr for a fault */
};

/*
 * The actions of a process, copied at fork (or shared with CLONE_SIGHAND,
 * count), reset to SIG_DFL at exec (except ignored ones), freed at exit.
 * With them, the per-process delivery state: the siginfo of each pending
 * signal, and whether a syscall (rt_sigsuspend, ppoll) left a mask in
 * task->saved_sigmask to restore once a handler ran (Linux's
 * TIF_RESTORE_SIGMASK).  Processes are single-threaded, so this is one
 * task's state unless CLONE_SIGHAND shares it.
 */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG];
	struct sigqueue queue[_NSIG];
	bool restore_sigmask;
};

/* Linux's struct ksignal: a signal taken off the pending mask with its
 * action (as it was then) and its siginfo, for a handler to run. */
struct ksignal {
	struct k_sigaction ka;
	siginfo_t info;
	int sig;
};

/* The signals that can never be blocked or caught. */
#define SIG_KERNEL_ONLY_MASK	(sigmask(SIGKILL) | sigmask(SIGSTOP))

/* A new sighand_struct: a copy of orig's actions, or all SIG_DFL when
 * orig is NULL; nothing pending.  NULL when out of memory. */
struct sighand_struct *copy_sighand(const struct sighand_struct *orig);
/* Drop a reference; the last one frees it.  NULL is allowed. */
void put_sighand(struct sighand_struct *sighand);
/* exec: handlers back to SIG_DFL, SIG_IGN stays; the alternate stack goes.
 * Pending signals and the blocked mask stay. */
void flush_signal_handlers(struct task_struct *t);

/*
 * Send sig to p (sender's pid recorded as SI_USER): the signal becomes
 * pending, and a task sleeping TASK_INTERRUPTIBLE is woken.  A signal
 * whose action is to ignore it is dropped at once, and so is a signal
 * to init (PID 1) with no handler, as Linux protects init; a zombie or a
 * kernel thread ignores everything.  SIGKILL also wakes and SIGCONT
 * continues a stopped task.  Any context, interrupts on or off.  0 or
 * -EINVAL (bad number).
 */
int send_sig(int sig, struct task_struct *p);

/* Send sig to every process of process group pgrp, as the kernel
 * (SI_KERNEL): 0, or -ESRCH when the group is empty.  Any context (the
 * TTY sends Ctrl-C from an interrupt). */
int kill_pgrp(int pgrp, int sig);

/*
 * tsk's state changed for its parent: send the parent sig (tsk's
 * exit_signal, normally SIGCHLD; 0 sends nothing) with the siginfo of
 * tsk's exit: si_pid, si_code CLD_EXITED, CLD_KILLED or CLD_DUMPED and
 * si_status from tsk->exit_code (set it first); si_utime and si_stime
 * are 0.  Does not wake the parent's wait4 (wake_up_parent does).  Any context.
 */
void do_notify_parent(struct task_struct *tsk, int sig);

/* A synchronous signal for a fault of the current task, with si_code and
 * the faulting address: delivered before it runs user code again.  If
 * the signal is blocked or ignored it is unblocked and set to SIG_DFL
 * first, so a faulting program cannot loop (Linux's force_sig_fault).
 * Any context of the faulting task. */
void force_sig_fault(int sig, int code, unsigned long addr);

/* sig (valid) to task p from the kernel (SI_KERNEL), unblocked and set
 * to SIG_DFL first if p blocks or ignores it; then sent as send_sig
 * sends, waking p if it sleeps TASK_INTERRUPTIBLE (or is stopped, for
 * SIGKILL).  Linux 2.6.28's force_sig, as the OOM killer uses it; never
 * for init.  Any context. */
void force_sig(int sig, struct task_struct *p);

/* Is SIGKILL pending for p: will it die before it runs user code again? */
static inline bool fatal_signal_pending(const struct task_struct *p)
{
	return (p->pending & sigmask(SIGKILL)) != 0;
}

/*
 * Called on every return to user mode with signals pending, interrupts
 * on: delivers them, SIGKILL first, then the synchronous fault signals,
 * then the lowest number.  Default actions: terminate (for a fault signal
 * after one console line, KERN_ERR:
 *     "<comm>[<pid>]: killed by SIGSEGV at 0x<fault address>, rip 0x<rip>"),
 * ignore, stop (until SIGCONT or SIGKILL).  A user handler gets Linux's
 * rt_sigframe on the user stack (or the alternate one): siginfo, ucontext
 * with the registers, the FPU state and the old mask, and returns through
 * its sa_restorer calling rt_sigreturn.  A syscall interrupted by a
 * signal (-ERESTARTSYS etc.) is restarted or fails with -EINTR as
 * SA_RESTART says.  May not return (the default action kills).
 */
void do_signal(struct pt_regs *regs);

/* Set current's blocked mask (SIGKILL and SIGSTOP are taken out). */
void set_current_blocked(sigset_t newset);

/*
 * For a syscall that sleeps with a temporary mask (ppoll, pselect6;
 * Linux's names): set_user_sigmask reads the mask from umask (NULL: keep
 * the current one), saves the blocked mask in current->saved_sigmask and
 * installs it.  0, -EINVAL (sigsetsize is not 8), -EFAULT.  Then, when
 * the call ends, restore_saved_sigmask_unless(interrupted): when the call
 * was interrupted by a signal (it returns -ERESTARTNOHAND, or -EINTR) the
 * saved mask is restored only after the handler ran, so a signal the
 * temporary mask let in is delivered; otherwise it is restored at once.
 * Both do nothing when umask was NULL.
 */
int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize);
void restore_saved_sigmask_unless(bool interrupted);

/* Is sp on current's alternate signal stack? */
static inline bool on_sig_stack(uint64_t sp)
{
	const stack_t *ss = &current->sas;

	return sp > (uint64_t)ss->ss_sp && sp - (uint64_t)ss->ss_sp <= ss->ss_size;
}

/* sigaltstack's ss_flags for a task running with stack pointer sp:
 * SS_DISABLE (none), SS_ONSTACK (running on it) or 0. */
static inline int sas_ss_flags(uint64_t sp)
{
	if (!current->sas.ss_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

/* sigaltstack(2) for a task whose user stack pointer is sp: ss (kernel
 * copy, NULL = no change) becomes the alternate stack, the old one goes
 * to *oss (NULL = not wanted).  0, -EPERM (running on it), -EINVAL,
 * -ENOMEM (smaller than MINSIGSTKSZ). */
int do_sigaltstack(const stack_t *ss, stack_t *oss, uint64_t sp);

/*
 * kernel/signal_frame.c.  setup_rt_frame: build ksig's frame on current's
 * user stack (or the alternate one) with oldmask as the mask to restore,
 * and point regs at the handler.  0, or -EFAULT (no SA_RESTORER, the
 * stack is not writable, the alternate stack overflows); regs are then
 * unchanged.
 */
int setup_rt_frame(const struct ksignal *ksig, sigset_t oldmask, struct pt_regs *regs);

/*
 * The interval timers of current (kernel/signal.c; kernel copies of
 * getitimer and setitimer's structs).  Only ITIMER_REAL exists: the
 * others are -EINVAL.  do_getitimer: the time left (rounded to ticks)
 * and the interval.  do_setitimer: arm with value (it_value zero
 * disarms; it_interval zero fires once), the old setting in *ovalue if
 * not NULL; -EINVAL for a negative time or a tv_usec outside 0..999999.
 * Process context.
 */
struct itimerval;
int do_getitimer(int which, struct itimerval *value);
int do_setitimer(int which, const struct itimerval *value, struct itimerval *ovalue);

/* Terminate current with exit status code (W* encoding); never returns.
 * kernel/exit.c. */
__noreturn void do_exit(int code);

#endif
