/*
 * Signals (Linux's kernel/signal.c, for single-threaded processes): how a
 * signal is sent, kept and delivered, and the system calls around them.
 * The x86-64 frame a handler runs on is kernel/signal_frame.c's.
 *
 * A signal sig (1.._NSIG) of a task is in one of these states:
 *
 *   absent     bit sig-1 of task->pending clear.
 *   pending    the bit set, its siginfo in sighand->queue[sig-1].  A
 *              second send while it is pending is merged with the first
 *              (standard signals do not queue; the first sender's
 *              siginfo is kept, a fault's replaces it).
 *   blocked    pending, and its bit set in task->blocked: it waits for
 *              rt_sigprocmask, rt_sigsuspend or a handler's return to
 *              unblock it.
 *   delivered  taken off the pending mask by the task itself on its way
 *              back to user mode (do_signal): ignored, the default action
 *              (terminate, stop, ignore), or a handler frame on its user
 *              stack (signal_frame.c).
 *
 * Invariants.
 *  - SIGKILL and SIGSTOP are never blocked, caught or ignored: every
 *    path that sets task->blocked takes them out (set_current_blocked),
 *    and rt_sigaction refuses to change them.
 *  - A signal that is ignored (SIG_IGN, or SIG_DFL with an "ignore"
 *    default) and not blocked is never pending: send drops it, and
 *    setting an action that ignores a signal discards it if pending.
 *    Blocked signals are kept whatever their action, since it may change
 *    before they are unblocked (Linux's rule).
 *  - A stop signal and SIGCONT are never pending together: sending one
 *    discards the other, so the later of the two wins.
 *  - Zombies and kernel threads (no sighand) gain no pending signals.
 *
 * Who runs what.  Sending (send_sig, kill_pgrp, run_alarms, kill) can
 * happen in any context: from another process, from the tick (SIGALRM),
 * from the keyboard interrupt (the TTY's Ctrl-C).  So pending, blocked,
 * the queue slots and the actions are changed with interrupts disabled;
 * no other lock is needed, as the kernel is not preemptive and has one
 * CPU.  Delivery runs only in the receiving task, in process context,
 * on every return to user mode (exit_to_user_mode calls do_signal).
 * Sending wakes a task sleeping TASK_INTERRUPTIBLE when the signal is
 * not blocked: its wait_event_interruptible returns -ERESTARTSYS, the
 * syscall unwinds, and do_signal then decides between restarting it and
 * failing it with -EINTR (the restart rules, docs/signals.md).
 *
 * Stopping and continuing.  A stop signal's default action puts the task
 * in TASK_STOPPED in do_signal, reports (sig << 8) | 0x7f in stop_report
 * for the parent's wait4(WUNTRACED), sends the parent SIGCHLD
 * (CLD_STOPPED, unless its action has SA_NOCLDSTOP) and sleeps.  The
 * sender of SIGCONT, whatever SIGCONT's action, wakes it, reports 0xffff
 * for wait4(WCONTINUED) and sends SIGCHLD (CLD_CONTINUED); only SIGKILL
 * also wakes a stopped task, which then dies.  The decision to stop is
 * made with interrupts disabled from the dequeue to the sleep, so a
 * SIGCONT cannot slip in between and be lost.
 *
 * init (PID 1) gets only the signals it has handlers for: one it leaves
 * at SIG_DFL is dropped when sent and skipped when delivered, SIGKILL
 * included, except one from force_sig_fault (a fault, the OOM kill),
 * which kills it - and do_exit panics, as Linux does.
 *
 * The per-process delivery state beside the actions - each pending
 * signal's siginfo and the restore-saved-mask flag of rt_sigsuspend and
 * ppoll - lives in sighand_struct (pageturn/signal.h).
 *
 * The real-time interval timer (ITIMER_REAL; alarm(2) is setitimer with
 * whole seconds and no interval, as Linux's alarm_setitimer) is two
 * fields of the task, changed with interrupts disabled since the tick
 * reads them: alarm_jiffies, the tick SIGALRM is due at (0: disarmed,
 * and then alarm_interval means nothing), and alarm_interval, the ticks
 * it is re-armed with when it fires (0: it fires once).  run_alarms, at
 * each tick, sends SIGALRM to every task whose alarm_jiffies has come
 * and re-arms or disarms it.  Times are rounded up to whole ticks
 * (HZ); a timer never fires more than once per tick.  Fork does not
 * copy the timer (the child starts zeroed), exec keeps it, exit clears
 * alarm_jiffies.  ITIMER_VIRTUAL and ITIMER_PROF are not implemented:
 * -EINVAL.
 */
#include <asm/cpu.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/itimer.h>

/* Signals raised by the instruction that runs: delivered first. */
#define SYNCHRONOUS_MASK	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | \
				 sigmask(SIGTRAP) | sigmask(SIGFPE) | sigmask(SIGSYS))
/* Default action stop, and default action ignore (Linux's sig_kernel_*). */
#define SIG_KERNEL_STOP_MASK	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | \
				 sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define SIG_KERNEL_IGNORE_MASK	(sigmask(SIGCONT) | sigmask(SIGCHLD) | \
				 sigmask(SIGWINCH) | sigmask(SIGURG))

/* The wait status of a stop and of a continue (glibc's names). */
#define W_STOPCODE(sig)		(((sig) << 8) | 0x7f)
#define W_CONTINUED		0xffff

/* The names the console line of a fault kill prints. */
static const char *const fault_signal_names[SIGRTMIN] = {
	[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGBUS] = "SIGBUS",
	[SIGFPE] = "SIGFPE", [SIGSEGV] = "SIGSEGV", [SIGSYS] = "SIGSYS",
};

/* A signal number 1.._NSIG (Linux's valid_signal also takes 0). */
static bool valid_signal(int sig)
{
	return sig >= 1 && sig <= _NSIG;
}

/* Is sig (valid) in mask? */
static bool sig_in(int sig, sigset_t mask)
{
	return (mask & sigmask(sig)) != 0;
}

struct sighand_struct *copy_sighand(const struct sighand_struct *orig)
{
	struct sighand_struct *sh = kzalloc(sizeof(*sh), GFP_KERNEL);

	if (!sh)
		return NULL;
	sh->count = 1;
	if (orig)
		memcpy(sh->action, orig->action, sizeof(sh->action));
	return sh;
}

void put_sighand(struct sighand_struct *sighand)
{
	if (sighand && --sighand->count == 0)
		kfree(sighand);
}

void flush_signal_handlers(struct task_struct *t)
{
	uint64_t flags = local_irq_save();
	int i;

	for (i = 0; i < _NSIG; i++) {
		struct k_sigaction_user *sa = &t->sighand->action[i].sa;

		if (sa->sa_handler != SIG_IGN)
			sa->sa_handler = SIG_DFL;
		sa->sa_flags = 0;
		sa->sa_restorer = NULL;
		sa->sa_mask = 0;
	}
	memset(&t->sas, 0, sizeof(t->sas));
	local_irq_restore(flags);
}

/* Does this action throw sig away (Linux's sig_handler_ignored)? */
static bool sig_handler_ignored(const void *handler, int sig)
{
	return handler == SIG_IGN ||
	       (handler == SIG_DFL && sig_in(sig, SIG_KERNEL_IGNORE_MASK));
}

/* Would p drop sig if it were sent now (Linux's sig_ignored)?  p has a
 * sighand; interrupts off. */
static bool sig_ignored(const struct task_struct *p, int sig)
{
	const void *handler = p->sighand->action[sig - 1].sa.sa_handler;

	if (sig_in(sig, p->blocked))
		return false;
	if (p->pid == INIT_PID && handler == SIG_DFL)
		return true;
	return sig_handler_ignored(handler, sig);
}

/* Wake p for a signal that just became pending, if it can take it. */
static void signal_wake_up(struct task_struct *p, int sig)
{
	if (sig_in(sig, p->blocked))
		return;
	if (p->state == TASK_INTERRUPTIBLE || (sig == SIGKILL && p->state == TASK_STOPPED))
		wake_up_process(p);
}

static int send_signal(int sig, struct task_struct *p, const struct sigqueue *q);

/* Tell tsk's parent it stopped (CLD_STOPPED) or continued (CLD_CONTINUED):
 * SIGCHLD unless the parent set SA_NOCLDSTOP, and a wait4 wakeup.  Any
 * context, interrupts off. */
static void do_notify_parent_cldstop(struct task_struct *tsk, int why, int status)
{
	struct task_struct *parent = tsk->parent;
	struct sigqueue q = { .code = why, .pid = tsk->tgid, .status = status };

	if (!parent)
		return;
	if (parent->sighand &&
	    !(parent->sighand->action[SIGCHLD - 1].sa.sa_flags & SA_NOCLDSTOP))
		send_signal(SIGCHLD, parent, &q);
	wake_up_parent(tsk);
}

/*
 * The one path every sender takes (Linux's prepare_signal, __send_signal
 * and complete_signal): the stop/continue side effects, which happen even
 * when sig itself is then ignored, the ignore check, the pending bit with
 * its siginfo, and the wakeup.  0 or -EINVAL.  Any context.
 */
static int send_signal(int sig, struct task_struct *p, const struct sigqueue *q)
{
	uint64_t flags;

	if (!valid_signal(sig))
		return -EINVAL;
	flags = local_irq_save();
	if (p->exit_state || p->state == TASK_DEAD || !p->sighand)
		goto out;
	if (sig_in(sig, SIG_KERNEL_STOP_MASK)) {
		p->pending &= ~sigmask(SIGCONT);
	} else if (sig == SIGCONT) {
		p->pending &= ~SIG_KERNEL_STOP_MASK;
		if (p->state == TASK_STOPPED) {
			p->stop_report = W_CONTINUED;
			wake_up_process(p);
			do_notify_parent_cldstop(p, CLD_CONTINUED, SIGCONT);
		}
	}
	if (sig_ignored(p, sig))
		goto out;
	if (!sig_in(sig, p->pending)) {
		p->sighand->queue[sig - 1] = *q;
		p->pending |= sigmask(sig);
	}
	signal_wake_up(p, sig);
out:
	local_irq_restore(flags);
	return 0;
}

int send_sig(int sig, struct task_struct *p)
{
	struct sigqueue q = { .code = SI_USER, .pid = current->tgid };

	return send_signal(sig, p, &q);
}

/* Send sig (0: only check) to process group pgrp: 0, or -ESRCH when no
 * task is in it.  Any context. */
static int kill_pgrp_info(int pgrp, int sig, const struct sigqueue *q)
{
	struct task_struct *p;
	bool found = false;

	if (pgrp <= 0)
		return -ESRCH;
	list_for_each_entry(p, &task_list_head, tasks) {
		if (p->pgid != pgrp || p->pid == 0)
			continue;
		found = true;
		if (sig)
			send_signal(sig, p, q);
	}
	return found ? 0 : -ESRCH;
}

int kill_pgrp(int pgrp, int sig)
{
	static const struct sigqueue q = { .code = SI_KERNEL };

	if (!valid_signal(sig))
		return -EINVAL;
	return kill_pgrp_info(pgrp, sig, &q);
}

void do_notify_parent(struct task_struct *tsk, int sig)
{
	struct sigqueue q = { .pid = tsk->tgid };

	if (!sig || !tsk->parent)
		return;
	if (tsk->exit_code & 0x7f) {
		q.code = (tsk->exit_code & 0x80) ? CLD_DUMPED : CLD_KILLED;
		q.status = tsk->exit_code & 0x7f;
	} else {
		q.code = CLD_EXITED;
		q.status = (tsk->exit_code >> 8) & 0xff;
	}
	send_signal(sig, tsk->parent, &q);
}

void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct task_struct *t = current;
	struct k_sigaction *ka;
	uint64_t flags;

	if (!valid_signal(sig) || !t->sighand)
		panic("force_sig_fault: signal %d for %s[%d], which has no signal actions",
		      sig, t->comm, t->pid);
	flags = local_irq_save();
	ka = &t->sighand->action[sig - 1];
	if (ka->sa.sa_handler == SIG_IGN || sig_in(sig, t->blocked)) {
		ka->sa.sa_handler = SIG_DFL;
		t->blocked &= ~sigmask(sig);
	}
	t->sighand->queue[sig - 1] = (struct sigqueue){ .code = code, .forced = true, .addr = addr };
	t->pending |= sigmask(sig);
	local_irq_restore(flags);
}

void force_sig(int sig, struct task_struct *p)
{
	static const struct sigqueue q = { .code = SI_KERNEL, .forced = true };
	uint64_t flags = local_irq_save();

	if (p->sighand) {
		struct k_sigaction *ka = &p->sighand->action[sig - 1];

		if (ka->sa.sa_handler == SIG_IGN || sig_in(sig, p->blocked)) {
			ka->sa.sa_handler = SIG_DFL;
			p->blocked &= ~sigmask(sig);
		}
	}
	send_signal(sig, p, &q);
	local_irq_restore(flags);
}

/* A handler frame could not be built for sig: SIGSEGV instead, at its
 * default action if the failing signal was SIGSEGV itself (Linux's
 * force_sigsegv), so the task cannot loop. */
static void force_sigsegv(int sig)
{
	uint64_t flags;

	if (sig == SIGSEGV) {
		flags = local_irq_save();
		current->sighand->action[SIGSEGV - 1].sa.sa_handler = SIG_DFL;
		local_irq_restore(flags);
	}
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
}

/*
 * Interrupt context (the timer tick), interrupts off: SIGALRM to every
 * task whose real-time timer is due, which is then re-armed alarm_interval
 * ticks from now, or disarmed when it has no interval.
 */
void run_alarms(void)
{
	static const struct sigqueue q = { .code = SI_KERNEL };
	struct task_struct *p;

	list_for_each_entry(p, &task_list_head, tasks) {
		if (p->alarm_jiffies && jiffies >= p->alarm_jiffies) {
			p->alarm_jiffies = p->alarm_interval ? jiffies + p->alarm_interval : 0;
			send_signal(SIGALRM, p, &q);
		}
	}
}

void set_current_blocked(sigset_t newset)
{
	uint64_t flags = local_irq_save();

	current->blocked = newset & ~SIG_KERNEL_ONLY_MASK;
	local_irq_restore(flags);
}

/* The rt_sigsuspend/ppoll mask goes back now (no handler will). */
static void restore_saved_sigmask(void)
{
	if (current->sighand->restore_sigmask) {
		current->sighand->restore_sigmask = false;
		set_current_blocked(current->saved_sigmask);
	}
}

int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize)
{
	sigset_t set;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&set, umask, sizeof(set)))
		return -EFAULT;
	current->saved_sigmask = current->blocked;
	current->sighand->restore_sigmask = true;
	set_current_blocked(set);
	return 0;
}

void restore_saved_sigmask_unless(bool interrupted)
{
	if (!interrupted)
		restore_saved_sigmask();
}

/* The signal to deliver first from ready (pending, not blocked, not
 * empty): SIGKILL, then a synchronous one, then the lowest number. */
static int next_signal(sigset_t ready)
{
	if (ready & sigmask(SIGKILL))
		return SIGKILL;
	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	return __builtin_ctzll(ready) + 1;
}

/* Was sig sent by force_sig_fault (a fault, not a kill)? */
static bool sig_from_fault(int sig, const siginfo_t *info)
{
	return sig_in(sig, SYNCHRONOUS_MASK) && SI_FROMKERNEL(info->si_code);
}

/* The siginfo_t a handler sees for sig, from its queue slot. */
static void fill_siginfo(siginfo_t *info, int sig, const struct sigqueue *q)
{
	memset(info, 0, sizeof(*info));
	info->si_signo = sig;
	info->si_code = q->code;
	if (sig_from_fault(sig, info)) {
		info->si_addr = (void *)q->addr;
	} else {
		info->si_pid = q->pid;
		if (sig == SIGCHLD)
			info->si_status = q->status;
	}
}

/* Stop current for sig until SIGCONT or SIGKILL wakes it.  Interrupts
 * off from the dequeue of sig until the sleep, so no SIGCONT is lost. */
static void do_signal_stop(int sig)
{
	struct task_struct *t = current;

	t->state = TASK_STOPPED;
	t->stop_report = W_STOPCODE(sig);
	do_notify_parent_cldstop(t, CLD_STOPPED, sig);
	while (t->state == TASK_STOPPED)
		schedule();
}

/* The default action kills current with sig. */
static __noreturn void sig_kill(int sig, const siginfo_t *info, const struct pt_regs *regs)
{
	struct task_struct *t = current;

	/* Only a fault's signal gets the line: one sent with kill() says
	 * nothing, as on Linux. */
	if (sig_from_fault(sig, info))
		printk(KERN_ERR "%s[%d]: killed by %s at 0x%lx, rip 0x%lx\n",
		       t->comm, t->pid, fault_signal_names[sig], (unsigned long)info->si_addr,
		       (unsigned long)regs->rip);
	do_exit(sig);
}

/*
 * Take the next deliverable signal of current and carry out its action
 * unless that is a handler: true with ksig filled when a handler must
 * run; false when nothing deliverable is left.  Does not return when the
 * action kills; sleeps when it stops.
 */
static bool get_signal(struct ksignal *ksig, const struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct sighand_struct *sh = t->sighand;

	for (;;) {
		uint64_t flags = local_irq_save();
		sigset_t ready = t->pending & ~t->blocked;
		struct k_sigaction *ka;
		const struct sigqueue *q;
		int sig;

		if (!ready) {
			local_irq_restore(flags);
			return false;
		}
		sig = next_signal(ready);
		t->pending &= ~sigmask(sig);
		q = &sh->queue[sig - 1];
		fill_siginfo(&ksig->info, sig, q);
		ka = &sh->action[sig - 1];
		ksig->ka = *ka;
		ksig->sig = sig;

		if (ka->sa.sa_handler == SIG_IGN) {
			local_irq_restore(flags);
			continue;
		}
		if (ka->sa.sa_handler != SIG_DFL) {
			if (ka->sa.sa_flags & SA_RESETHAND)
				ka->sa.sa_handler = SIG_DFL;
			local_irq_restore(flags);
			return true;
		}
		if (sig_in(sig, SIG_KERNEL_IGNORE_MASK) ||
		    (t->pid == INIT_PID && !q->forced)) {
			local_irq_restore(flags);
			continue;
		}
		if (sig_in(sig, SIG_KERNEL_STOP_MASK)) {
			do_signal_stop(sig);
			local_irq_restore(flags);
			continue;
		}
		local_irq_restore(flags);
		sig_kill(sig, &ksig->info, regs);
	}
}

/* Is rax one of the codes by which a syscall asks to be restarted? */
static bool syscall_restart_code(uint64_t rax)
{
	switch ((int64_t)rax) {
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		return true;
	default:
		return false;
	}
}

/* Point regs back at the syscall instruction, with its number in rax. */
static void rewind_syscall(struct pt_regs *regs)
{
	regs->rax = regs->orig_ax;
	regs->rip -= 2;
}

/* Run ksig's handler: settle the interrupted syscall, build the frame,
 * block the handler's mask. */
static void handle_signal(const struct ksignal *ksig, struct pt_regs *regs)
{
	struct task_struct *t = current;
	sigset_t oldmask, blocked;

	if (in_syscall(regs)) {
		switch ((int64_t)regs->rax) {
		case -ERESTART_RESTARTBLOCK:
		case -ERESTARTNOHAND:
			regs->rax = (uint64_t)-EINTR;
			break;
		case -ERESTARTSYS:
			if (!(ksig->ka.sa.sa_flags & SA_RESTART)) {
				regs->rax = (uint64_t)-EINTR;
				break;
			}
			rewind_syscall(regs);
			break;
		case -ERESTARTNOINTR:
			rewind_syscall(regs);
			break;
		}
		regs->orig_ax = (uint64_t)-1;
	}

	oldmask = t->sighand->restore_sigmask ? t->saved_sigmask : t->blocked;
	if (setup_rt_frame(ksig, oldmask, regs)) {
		force_sigsegv(ksig->sig);
		return;
	}
	t->sighand->restore_sigmask = false;
	blocked = t->blocked | ksig->ka.sa.sa_mask;
	if (!(ksig->ka.sa.sa_flags & SA_NODEFER))
		blocked |= sigmask(ksig->sig);
	set_current_blocked(blocked);
}

void do_signal(struct pt_regs *regs)
{
	struct ksignal ksig;

	do {
		while (get_signal(&ksig, regs))
			handle_signal(&ksig, regs);
		if (in_syscall(regs) && syscall_restart_code(regs->rax))
			rewind_syscall(regs);
		restore_saved_sigmask();
	} while (signal_pending(current));
}

/* Sleep until a signal is deliverable. */
static void sleep_until_signal(void)
{
	uint64_t flags = local_irq_save();

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(current))
			break;
		schedule();
	}
	set_current_state(TASK_RUNNING);
	local_irq_restore(flags);
}

/*
 * rt_sigaction(2): sig's action becomes *act (if given), the old one goes
 * to *oact (if given).  -EINVAL: sigsetsize is not 8, a bad signal, or a
 * change of SIGKILL/SIGSTOP; -EFAULT.  An action that ignores the signal
 * discards it if pending.
 */
long sys_rt_sigaction(int sig, const struct k_sigaction_user __user *act,
		      struct k_sigaction_user __user *oact, size_t sigsetsize)
{
	struct sighand_struct *sh = current->sighand;
	struct k_sigaction_user new, old;
	struct task_struct *p;
	uint64_t flags;

	if (sigsetsize != sizeof(sigset_t) || !valid_signal(sig))
		return -EINVAL;
	if (act && sig_in(sig, SIG_KERNEL_ONLY_MASK))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;

	flags = local_irq_save();
	old = sh->action[sig - 1].sa;
	if (act) {
		new.sa_mask &= ~SIG_KERNEL_ONLY_MASK;
		sh->action[sig - 1].sa = new;
		if (sig_handler_ignored(new.sa_handler, sig))
			list_for_each_entry(p, &task_list_head, tasks)
				if (p->sighand == sh)
					p->pending &= ~sigmask(sig);
	}
	local_irq_restore(flags);

	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/*
 * rt_sigprocmask(2): block (SIG_BLOCK), unblock (SIG_UNBLOCK) or set
 * (SIG_SETMASK) the signals of *set, if given; the old mask goes to
 * *oset, if given.  SIGKILL and SIGSTOP stay unblocked.  -EINVAL (how,
 * sigsetsize), -EFAULT.
 */
long sys_rt_sigprocmask(int how, const uint64_t __user *set, uint64_t __user *oset,
			size_t sigsetsize)
{
	sigset_t old = current->blocked, new;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			new = old | new;
			break;
		case SIG_UNBLOCK:
			new = old & ~new;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
		set_current_blocked(new);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/*
 * rt_sigsuspend(2): wait for a signal with *unewset as the blocked mask.
 * Always "fails": -ERESTARTNOHAND once a signal is deliverable, which
 * do_signal turns into -EINTR when a handler runs (the old mask is then
 * restored by its rt_sigreturn) and into a restart when none does (the
 * old mask restored at once).  -EINVAL (sigsetsize), -EFAULT.
 */
long sys_rt_sigsuspend(const uint64_t __user *unewset, size_t sigsetsize)
{
	sigset_t newset;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&newset, unewset, sizeof(newset)))
		return -EFAULT;
	current->saved_sigmask = current->blocked;
	set_current_blocked(newset);
	sleep_until_signal();
	current->sighand->restore_sigmask = true;
	return -ERESTARTNOHAND;
}

/* pause(2): wait for a signal; -ERESTARTNOHAND as rt_sigsuspend. */
long sys_pause(void)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/* rt_sigpending(2): the signals pending while blocked, in sigsetsize
 * (at most 8) bytes at *uset.  -EINVAL, -EFAULT. */
long sys_rt_sigpending(uint64_t __user *uset, size_t sigsetsize)
{
	sigset_t set = current->pending & current->blocked;

	if (sigsetsize > sizeof(sigset_t))
		return -EINVAL;
	if (copy_to_user(uset, &set, sigsetsize))
		return -EFAULT;
	return 0;
}

int do_sigaltstack(const stack_t *ss, stack_t *oss, uint64_t sp)
{
	stack_t *sas = &current->sas;

	if (oss) {
		memset(oss, 0, sizeof(*oss));
		oss->ss_sp = sas->ss_sp;
		oss->ss_size = sas->ss_size;
		oss->ss_flags = sas_ss_flags(sp);
	}
	if (!ss)
		return 0;
	if (on_sig_stack(sp))
		return -EPERM;
	if (ss->ss_flags == SS_DISABLE) {
		memset(sas, 0, sizeof(*sas));
		return 0;
	}
	if (ss->ss_flags != 0 && ss->ss_flags != SS_ONSTACK)
		return -EINVAL;
	if (ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	sas->ss_sp = ss->ss_sp;
	sas->ss_size = ss->ss_size;
	sas->ss_flags = 0;
	return 0;
}

/*
 * sigaltstack(2): *uss (if given) becomes the alternate signal stack
 * (SS_DISABLE removes it), the old one goes to *uoss (if given), with
 * ss_flags SS_ONSTACK while running on it.  -EPERM (changing it while on
 * it), -EINVAL (flags), -ENOMEM (below MINSIGSTKSZ), -EFAULT.
 */
long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss)
{
	stack_t new, old;
	int err;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	err = do_sigaltstack(uss ? &new : NULL, uoss ? &old : NULL, task_pt_regs(current)->rsp);
	if (!err && uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/* Send sig (0: only check) to every process but init and current
 * (kill(-1, sig)): 0, or -ESRCH when there is none. */
static int kill_all(int sig, const struct sigqueue *q)
{
	struct task_struct *p;
	bool found = false;

	list_for_each_entry(p, &task_list_head, tasks) {
		if (p->pid <= INIT_PID || p == current)
			continue;
		found = true;
		if (sig)
			send_signal(sig, p, q);
	}
	return found ? 0 : -ESRCH;
}

/*
 * kill(2): sig to process pid (> 0), to the caller's process group (0),
 * to every process but init and the caller (-1), or to process group
 * -pid (< -1).  sig 0 only checks that the target exists.  -EINVAL (sig),
 * -ESRCH (no such process or group).
 */
long sys_kill(int pid, int sig)
{
	struct sigqueue q = { .code = SI_USER, .pid = current->tgid };
	struct task_struct *p;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid > 0) {
		p = find_task_by_pid(pid);
		if (!p)
			return -ESRCH;
		return sig ? send_signal(sig, p, &q) : 0;
	}
	if (pid == 0)
		return kill_pgrp_info(current->pgid, sig, &q);
	if (pid == -1)
		return kill_all(sig, &q);
	if (pid == INT32_MIN)
		return -ESRCH;
	return kill_pgrp_info(-pid, sig, &q);
}

/* tgkill(2) without the group check (tgid <= 0). */
static long do_tkill(int tgid, int pid, int sig)
{
	struct sigqueue q = { .code = SI_TKILL, .pid = current->tgid };
	struct task_struct *p;

	if (pid <= 0 || sig < 0 || sig > _NSIG)
		return -EINVAL;
	p = find_task_by_pid(pid);
	if (!p || (tgid > 0 && p->tgid != tgid))
		return -ESRCH;
	return sig ? send_signal(sig, p, &q) : 0;
}

/* tkill(2): sig to thread pid (here: the process).  -EINVAL, -ESRCH. */
long sys_tkill(int pid, int sig)
{
	return do_tkill(0, pid, sig);
}

/* tgkill(2): sig to thread pid of thread group tgid.  -EINVAL, -ESRCH
 * (pid is not in tgid). */
long sys_tgkill(int tgid, int pid, int sig)
{
	if (tgid <= 0)
		return -EINVAL;
	return do_tkill(tgid, pid, sig);
}

/* --- interval timers (Linux's kernel/time/itimer.c) ------------------------------ */

/* The longest a timer runs, in ticks: longer times are cut to it (the
 * due tick cannot overflow). */
#define ITIMER_MAX_TICKS	(UINT64_MAX / 4)

static bool timeval_valid(const struct timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < USEC_PER_SEC;
}

/* A valid timeval in ticks, rounded up (Linux's timeval_to_jiffies). */
static uint64_t timeval_to_jiffies(const struct timeval *tv)
{
	if ((uint64_t)tv->tv_sec >= ITIMER_MAX_TICKS / HZ)
		return ITIMER_MAX_TICKS;
	return (uint64_t)tv->tv_sec * HZ +
	       ((uint64_t)tv->tv_usec * HZ + USEC_PER_SEC - 1) / USEC_PER_SEC;
}

/* current's ITIMER_REAL, interrupts disabled: a timer that is due but
 * has not fired yet shows 1 microsecond, as on Linux. */
static void get_real_timer(struct itimerval *value)
{
	uint64_t due = current->alarm_jiffies;

	jiffies_to_timeval(due > jiffies ? due - jiffies : 0, &value->it_value);
	if (due && due <= jiffies)
		value->it_value.tv_usec = 1;
	jiffies_to_timeval(due ? current->alarm_interval : 0, &value->it_interval);
}

int do_getitimer(int which, struct itimerval *value)
{
	uint64_t flags;

	if (which != ITIMER_REAL)
		return -EINVAL;
	flags = local_irq_save();
	get_real_timer(value);
	local_irq_restore(flags);
	return 0;
}

int do_setitimer(int which, const struct itimerval *value, struct itimerval *ovalue)
{
	uint64_t flags, ticks;

	if (!timeval_valid(&value->it_value) || !timeval_valid(&value->it_interval))
		return -EINVAL;
	if (which != ITIMER_REAL)
		return -EINVAL;
	ticks = timeval_to_jiffies(&value->it_value);
	flags = local_irq_save();
	if (ovalue)
		get_real_timer(ovalue);
	current->alarm_jiffies = ticks ? jiffies + ticks : 0;
	current->alarm_interval = ticks ? timeval_to_jiffies(&value->it_interval) : 0;
	local_irq_restore(flags);
	return 0;
}

long sys_getitimer(int which, struct itimerval __user *value)
{
	struct itimerval v;
	int err = do_getitimer(which, &v);

	if (err)
		return err;
	return copy_to_user(value, &v, sizeof(v)) ? -EFAULT : 0;
}

/* A NULL value disarms, as Linux still allows. */
long sys_setitimer(int which, const struct itimerval __user *value,
		   struct itimerval __user *ovalue)
{
	struct itimerval v = { { 0, 0 }, { 0, 0 } }, old;
	int err;

	if (value && copy_from_user(&v, value, sizeof(v)))
		return -EFAULT;
	err = do_setitimer(which, &v, ovalue ? &old : NULL);
	if (err)
		return err;
	if (ovalue && copy_to_user(ovalue, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/*
 * alarm(2): setitimer(ITIMER_REAL) for seconds, no interval (0
 * disarms).  Returns the seconds the previous timer had left, rounded to
 * the nearest, and at least 1 when it had any time left (Linux's
 * alarm_setitimer), 0 when there was none.
 */
long sys_alarm(unsigned int seconds)
{
	struct itimerval it_new = { .it_value = { .tv_sec = seconds } }, it_old;

	do_setitimer(ITIMER_REAL, &it_new, &it_old);
	if ((!it_old.it_value.tv_sec && it_old.it_value.tv_usec) ||
	    it_old.it_value.tv_usec >= USEC_PER_SEC / 2)
		it_old.it_value.tv_sec++;
	return it_old.it_value.tv_sec;
}
