/*
 * Signals (Linux's kernel/signal.c and arch/x86/kernel/signal.c names).
 * kernel/signal.c explains the design: pending and blocked masks per task,
 * actions copied at fork and reset at exec;
 * delivery on the way back to user mode.
 *
 * Every function is called in process context unless it says otherwise.
 */
#ifndef PAGETURN_SIGNAL_H
#define PAGETURN_SIGNAL_H

#include <pageturn/sched.h>
#include <uapi/signal.h>

struct pt_regs;

struct k_sigaction {
	struct k_sigaction_user sa;
};

/* The actions of a process, copied at fork, reset to SIG_DFL at exec
 * (except ignored ones), freed at exit. */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG];
};

/* A new sighand_struct: a copy of orig, or all SIG_DFL when orig is NULL.
 * NULL when out of memory. */
struct sighand_struct *copy_sighand(const struct sighand_struct *orig);
void put_sighand(struct sighand_struct *sighand);
/* exec: handlers back to SIG_DFL, SIG_IGN stays; the alternate stack goes. */
void flush_signal_handlers(struct task_struct *t);

/*
 * Send sig to p (sender's pid recorded as SI_USER): the signal becomes
 * pending, and a task sleeping TASK_INTERRUPTIBLE is woken.  A signal
 * whose action is to ignore it is dropped at once.  SIGKILL also wakes
 * and SIGCONT continues a stopped task.  Any context, interrupts on or
 * off.  0 or -EINVAL (bad number).
 */
int send_sig(int sig, struct task_struct *p);

/* Send sig to every process of process group pgrp: 0, or -ESRCH when the
 * group is empty.  Any context (the TTY sends Ctrl-C from an interrupt). */
int kill_pgrp(int pgrp, int sig);

/* A synchronous signal for a fault of the current task, with si_code and
 * the faulting address: delivered before it runs user code again.  If
 * the signal is blocked or ignored it is unblocked and set to SIG_DFL
 * first, so a faulting program cannot loop (Linux's force_sig_fault). */
void force_sig_fault(int sig, int code, unsigned long addr);

/*
 * Called on every return to user mode with signals pending: delivers
 * them in order.  Default actions: terminate (with the console line for
 * a fault signal: "pid N (comm): killed by SIGSEGV at 0x... rip 0x..."),
 * ignore, stop, continue.  A user handler gets Linux's rt_sigframe on the
 * user stack (or the alternate one): siginfo, ucontext with the
 * registers, the FPU state and the old mask, and returns through its
 * sa_restorer calling rt_sigreturn.  A syscall interrupted by a signal
 * (-ERESTARTSYS etc.) is restarted or fails with -EINTR as SA_RESTART
 * says.
 */
void do_signal(struct pt_regs *regs);

/* Terminate current with exit status code (W* encoding); never returns.
 * kernel/exit.c. */
__noreturn void do_exit(int code);

#endif
