/*
 * Suite "signal": what kernel/signal.c does without user mode.  Kernel
 * threads stand in for processes: "fakes" are threads that are created and
 * given a sighand_struct but never run until released (they only carry
 * pending masks, process groups, stop states), and "runners" are threads
 * that run a test body as current (for what acts on current: do_signal's
 * default actions and syscall restarts, force_sig_fault, alarm(2),
 * masks).  Handler frames need a user address space: the QEMU cases of
 * user/ test them.
 *
 * Each fake or runner gives its sighand_struct back before it ends, since
 * the scheduler frees a kernel thread's task_struct without looking at it.
 */
#include <asm/cpu.h>
#include <asm/ptrace.h>
#include <pageturn/ktest.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define TEST_PGRP	4242
#define OTHER_PGRP	4243
#define EMPTY_PGRP	4244
#define FAKE_HANDLER	((void *)0x401000)	/* never run: only "not SIG_DFL/SIG_IGN" */
#define SYSCALL_RIP	0x401002ul		/* just after a 2-byte syscall instruction */
#define WAIT_ROUNDS	1000

static int fake_fn(void *data)
{
	(void)data;
	return 0;
}

/* A task that is never scheduled until released: pending mask, state and
 * groups as a test sets them. */
static struct task_struct *fake_task(struct ktest *t, int pgid)
{
	struct task_struct *p = kthread_create(fake_fn, NULL, "sig-fake");

	KTEST_EXPECT(t, p != NULL);
	if (!p)
		return NULL;
	p->sighand = copy_sighand(NULL);
	KTEST_EXPECT(t, p->sighand != NULL);
	if (!p->sighand) {
		wake_up_process(p);
		return NULL;
	}
	p->pgid = pgid;
	p->sid = pgid;
	return p;
}

/* Take a fake's signal state away and let it run to its end. */
static void release_fake(struct task_struct *p)
{
	if (!p)
		return;
	p->pending = 0;
	p->alarm_jiffies = 0;
	p->parent = NULL;
	put_sighand(p->sighand);
	p->sighand = NULL;
	if (p->state == TASK_STOPPED)
		p->state = TASK_UNINTERRUPTIBLE;
	wake_up_process(p);
}

struct runner {
	void (*body)(struct ktest *t);
	struct ktest *t;
	volatile bool done;
};

static void no_body(struct ktest *t)
{
	(void)t;
}

static int runner_fn(void *data)
{
	struct runner *r = data;

	r->body(r->t);
	current->pending = 0;
	current->alarm_jiffies = 0;
	put_sighand(current->sighand);
	current->sighand = NULL;
	r->done = true;
	return 0;
}

static void wait_runner(struct runner *r)
{
	while (!r->done)
		yield();
	yield();
}

/* Start body in a new thread with its own (default) signal actions. */
static struct task_struct *start_runner(struct ktest *t, struct runner *r,
					void (*body)(struct ktest *t))
{
	struct task_struct *p = kthread_create(runner_fn, r, "sig-runner");

	r->body = body;
	r->t = t;
	r->done = false;
	KTEST_EXPECT(t, p != NULL);
	if (!p)
		return NULL;
	p->sighand = copy_sighand(NULL);
	KTEST_EXPECT(t, p->sighand != NULL);
	if (!p->sighand) {
		r->body = no_body;
		wake_up_process(p);
		wait_runner(r);
		return NULL;
	}
	wake_up_process(p);
	return p;
}

static void run_body(struct ktest *t, void (*body)(struct ktest *t))
{
	struct runner r;

	if (start_runner(t, &r, body))
		wait_runner(&r);
}

static bool is_pending(const struct task_struct *p, int sig)
{
	return (p->pending & sigmask(sig)) != 0;
}

KTEST(signal, send_sig_makes_pending_without_waking_uninterruptible)
{
	struct task_struct *p = fake_task(t, TEST_PGRP);

	if (!p)
		return;
	KTEST_EXPECT_EQ(t, send_sig(SIGUSR1, p), 0);
	KTEST_EXPECT(t, is_pending(p, SIGUSR1));
	KTEST_EXPECT_EQ(t, p->sighand->queue[SIGUSR1 - 1].code, SI_USER);
	KTEST_EXPECT_EQ(t, p->sighand->queue[SIGUSR1 - 1].pid, current->tgid);
	KTEST_EXPECT_EQ(t, p->state, TASK_UNINTERRUPTIBLE);
	KTEST_EXPECT(t, signal_pending(p));

	KTEST_EXPECT_EQ(t, send_sig(0, p), -EINVAL);
	KTEST_EXPECT_EQ(t, send_sig(_NSIG + 1, p), -EINVAL);
	KTEST_EXPECT_EQ(t, send_sig(_NSIG, p), 0);
	KTEST_EXPECT(t, is_pending(p, _NSIG));
	release_fake(p);
	yield();
}

KTEST(signal, ignored_signals_are_dropped_unless_blocked)
{
	struct task_struct *p = fake_task(t, TEST_PGRP);

	if (!p)
		return;
	send_sig(SIGCHLD, p);
	send_sig(SIGWINCH, p);
	KTEST_EXPECT_EQ(t, p->pending, 0);

	p->sighand->action[SIGUSR2 - 1].sa.sa_handler = SIG_IGN;
	send_sig(SIGUSR2, p);
	KTEST_EXPECT(t, !is_pending(p, SIGUSR2));
	p->blocked = sigmask(SIGUSR2) | sigmask(SIGCHLD);
	send_sig(SIGUSR2, p);
	send_sig(SIGCHLD, p);
	KTEST_EXPECT(t, is_pending(p, SIGUSR2));
	KTEST_EXPECT(t, is_pending(p, SIGCHLD));
	KTEST_EXPECT(t, !signal_pending(p));

	p->pending = 0;
	p->exit_state = EXIT_ZOMBIE;
	send_sig(SIGKILL, p);
	KTEST_EXPECT_EQ(t, p->pending, 0);
	p->exit_state = 0;
	release_fake(p);
	yield();
}

KTEST(signal, stop_and_continue_signals_cancel_each_other)
{
	struct task_struct *p = fake_task(t, TEST_PGRP);

	if (!p)
		return;
	send_sig(SIGTSTP, p);
	KTEST_EXPECT(t, is_pending(p, SIGTSTP));
	send_sig(SIGCONT, p);	/* SIG_DFL: ignored, but it still cancels */
	KTEST_EXPECT_EQ(t, p->pending, 0);

	p->blocked = sigmask(SIGCONT);
	send_sig(SIGCONT, p);
	KTEST_EXPECT(t, is_pending(p, SIGCONT));
	send_sig(SIGSTOP, p);
	KTEST_EXPECT(t, !is_pending(p, SIGCONT));
	KTEST_EXPECT(t, is_pending(p, SIGSTOP));
	release_fake(p);
	yield();
}

KTEST(signal, sigkill_and_sigcont_wake_a_stopped_task)
{
	struct task_struct *a = fake_task(t, TEST_PGRP), *b = fake_task(t, TEST_PGRP);

	if (!a || !b) {
		release_fake(a);
		release_fake(b);
		return;
	}
	a->state = TASK_STOPPED;
	send_sig(SIGTERM, a);
	KTEST_EXPECT_EQ(t, a->state, TASK_STOPPED);
	KTEST_EXPECT(t, is_pending(a, SIGTERM));
	send_sig(SIGKILL, a);
	KTEST_EXPECT_EQ(t, a->state, TASK_RUNNING);
	KTEST_EXPECT(t, is_pending(a, SIGKILL));

	b->state = TASK_STOPPED;
	b->sighand->action[SIGCONT - 1].sa.sa_handler = FAKE_HANDLER;
	send_sig(SIGCONT, b);
	KTEST_EXPECT_EQ(t, b->state, TASK_RUNNING);
	KTEST_EXPECT_EQ(t, b->stop_report, 0xffff);
	KTEST_EXPECT(t, is_pending(b, SIGCONT));	/* caught: still delivered */
	release_fake(a);
	release_fake(b);
	yield();
}

KTEST(signal, parent_gets_sigchld_with_the_child_status)
{
	struct task_struct *parent = fake_task(t, TEST_PGRP), *child = fake_task(t, TEST_PGRP);
	struct task_struct *stopped = fake_task(t, TEST_PGRP);
	struct sigqueue *q;

	if (!parent || !child || !stopped)
		goto out;
	q = &parent->sighand->queue[SIGCHLD - 1];
	child->parent = parent;
	child->exit_code = 3 << 8;
	do_notify_parent(child, SIGCHLD);
	KTEST_EXPECT(t, !is_pending(parent, SIGCHLD));	/* SIG_DFL ignores it */

	parent->sighand->action[SIGCHLD - 1].sa.sa_handler = FAKE_HANDLER;
	do_notify_parent(child, SIGCHLD);
	KTEST_EXPECT(t, is_pending(parent, SIGCHLD));
	KTEST_EXPECT_EQ(t, q->code, CLD_EXITED);
	KTEST_EXPECT_EQ(t, q->status, 3);
	KTEST_EXPECT_EQ(t, q->pid, child->pid);

	parent->pending = 0;
	child->exit_code = SIGSEGV;
	do_notify_parent(child, SIGCHLD);
	KTEST_EXPECT_EQ(t, q->code, CLD_KILLED);
	KTEST_EXPECT_EQ(t, q->status, SIGSEGV);

	/* Continuing a stopped child tells the parent, unless SA_NOCLDSTOP.
	 * (A continued task is runnable: each test stops a fresh one.) */
	parent->pending = 0;
	parent->sighand->action[SIGCHLD - 1].sa.sa_flags = SA_NOCLDSTOP;
	child->parent = parent;
	child->state = TASK_STOPPED;
	send_sig(SIGCONT, child);
	KTEST_EXPECT_EQ(t, child->state, TASK_RUNNING);
	KTEST_EXPECT(t, !is_pending(parent, SIGCHLD));
	parent->sighand->action[SIGCHLD - 1].sa.sa_flags = 0;
	stopped->parent = parent;
	stopped->state = TASK_STOPPED;
	send_sig(SIGCONT, stopped);
	KTEST_EXPECT(t, is_pending(parent, SIGCHLD));
	KTEST_EXPECT_EQ(t, q->code, CLD_CONTINUED);
	KTEST_EXPECT_EQ(t, q->status, SIGCONT);
	KTEST_EXPECT_EQ(t, q->pid, stopped->pid);
out:
	release_fake(child);
	release_fake(stopped);
	release_fake(parent);
	yield();
}

KTEST(signal, init_gets_only_signals_it_handles)
{
	struct task_struct *p = fake_task(t, TEST_PGRP);
	int pid;

	if (!p)
		return;
	/* Pose as init for the sends only: nothing looks pids up meanwhile. */
	pid = p->pid;
	p->pid = INIT_PID;
	send_sig(SIGTERM, p);
	send_sig(SIGKILL, p);
	send_sig(SIGSTOP, p);
	KTEST_EXPECT_EQ(t, p->pending, 0);
	p->sighand->action[SIGTERM - 1].sa.sa_handler = FAKE_HANDLER;
	send_sig(SIGTERM, p);
	KTEST_EXPECT(t, is_pending(p, SIGTERM));
	p->pid = pid;
	release_fake(p);
	yield();
}

KTEST(signal, kill_reaches_process_groups)
{
	struct task_struct *a = fake_task(t, TEST_PGRP), *b = fake_task(t, TEST_PGRP);
	struct task_struct *c = fake_task(t, OTHER_PGRP);

	if (!a || !b || !c)
		goto out;
	KTEST_EXPECT_EQ(t, kill_pgrp(TEST_PGRP, SIGINT), 0);
	KTEST_EXPECT(t, is_pending(a, SIGINT) && is_pending(b, SIGINT));
	KTEST_EXPECT(t, !is_pending(c, SIGINT));
	KTEST_EXPECT_EQ(t, a->sighand->queue[SIGINT - 1].code, SI_KERNEL);
	KTEST_EXPECT_EQ(t, kill_pgrp(EMPTY_PGRP, SIGINT), -ESRCH);
	KTEST_EXPECT_EQ(t, kill_pgrp(TEST_PGRP, 0), -EINVAL);

	KTEST_EXPECT_EQ(t, sys_kill(-OTHER_PGRP, SIGUSR2), 0);
	KTEST_EXPECT(t, is_pending(c, SIGUSR2) && !is_pending(a, SIGUSR2));
	KTEST_EXPECT_EQ(t, c->sighand->queue[SIGUSR2 - 1].code, SI_USER);
	KTEST_EXPECT_EQ(t, sys_kill(-EMPTY_PGRP, 0), -ESRCH);
	KTEST_EXPECT_EQ(t, sys_kill(-TEST_PGRP, 0), 0);
	KTEST_EXPECT_EQ(t, sys_kill(a->pid, SIGTERM), 0);
	KTEST_EXPECT(t, is_pending(a, SIGTERM) && !is_pending(b, SIGTERM));
	KTEST_EXPECT_EQ(t, sys_kill(a->pid, _NSIG + 1), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_kill(a->pid, -1), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_kill(INT32_MIN, SIGTERM), -ESRCH);

	KTEST_EXPECT_EQ(t, sys_tgkill(a->tgid, b->pid, SIGUSR1), -ESRCH);
	KTEST_EXPECT_EQ(t, sys_tgkill(b->tgid, b->pid, SIGUSR1), 0);
	KTEST_EXPECT_EQ(t, b->sighand->queue[SIGUSR1 - 1].code, SI_TKILL);
	KTEST_EXPECT_EQ(t, sys_tkill(0, SIGUSR1), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_tkill(c->pid, SIGHUP), 0);
	KTEST_EXPECT(t, is_pending(c, SIGHUP));
out:
	release_fake(a);
	release_fake(b);
	release_fake(c);
	yield();
}

KTEST(signal, run_alarms_sends_sigalrm_when_due)
{
	struct task_struct *due = fake_task(t, TEST_PGRP), *later = fake_task(t, TEST_PGRP);
	uint64_t flags, when;

	if (!due || !later)
		goto out;
	when = jiffies + 100 * HZ;
	flags = local_irq_save();
	due->alarm_jiffies = jiffies;
	later->alarm_jiffies = when;
	run_alarms();
	local_irq_restore(flags);
	KTEST_EXPECT(t, is_pending(due, SIGALRM));
	KTEST_EXPECT_EQ(t, due->alarm_jiffies, 0);
	KTEST_EXPECT_EQ(t, due->sighand->queue[SIGALRM - 1].code, SI_KERNEL);
	KTEST_EXPECT(t, !is_pending(later, SIGALRM));
	KTEST_EXPECT_EQ(t, later->alarm_jiffies, when);
out:
	release_fake(due);
	release_fake(later);
	yield();
}

static void alarm_body(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, sys_alarm(5), 0);
	KTEST_EXPECT(t, current->alarm_jiffies > jiffies);
	KTEST_EXPECT_EQ(t, sys_alarm(100), 5);
	KTEST_EXPECT_EQ(t, sys_alarm(0), 100);
	KTEST_EXPECT_EQ(t, current->alarm_jiffies, 0);
	KTEST_EXPECT_EQ(t, sys_alarm(0), 0);
}

KTEST(signal, alarm_returns_the_seconds_left)
{
	run_body(t, alarm_body);
}

static DECLARE_WAIT_QUEUE_HEAD(sleep_wq);
static volatile int sleep_ret;

static void sleeper_body(struct ktest *t)
{
	(void)t;
	sleep_ret = 1;
	sleep_ret = wait_event_interruptible(sleep_wq, false);
}

KTEST(signal, send_sig_interrupts_an_interruptible_sleep)
{
	struct runner r;
	struct task_struct *p = start_runner(t, &r, sleeper_body);
	int i;

	if (!p)
		return;
	p->blocked = sigmask(SIGUSR2);
	for (i = 0; i < WAIT_ROUNDS && p->state != TASK_INTERRUPTIBLE; i++)
		yield();
	KTEST_EXPECT_EQ(t, p->state, TASK_INTERRUPTIBLE);
	send_sig(SIGUSR2, p);		/* blocked: no wakeup */
	yield();
	KTEST_EXPECT_EQ(t, p->state, TASK_INTERRUPTIBLE);
	KTEST_EXPECT_EQ(t, sleep_ret, 1);
	send_sig(SIGUSR1, p);
	wait_runner(&r);
	KTEST_EXPECT_EQ(t, sleep_ret, -ERESTARTSYS);
}

static void stop_body(struct ktest *t)
{
	struct pt_regs regs = { .orig_ax = (uint64_t)-1, .rip = SYSCALL_RIP };

	send_sig(SIGSTOP, current);
	KTEST_EXPECT(t, is_pending(current, SIGSTOP));
	do_signal(&regs);		/* stops until SIGCONT */
	KTEST_EXPECT_EQ(t, current->stop_report, 0xffff);
	KTEST_EXPECT_EQ(t, current->pending, 0);
	KTEST_EXPECT_EQ(t, regs.rip, SYSCALL_RIP);
}

KTEST(signal, sigstop_stops_until_sigcont)
{
	struct runner r;
	struct task_struct *p = start_runner(t, &r, stop_body);
	int i;

	if (!p)
		return;
	for (i = 0; i < WAIT_ROUNDS && p->state != TASK_STOPPED; i++)
		yield();
	KTEST_EXPECT_EQ(t, p->state, TASK_STOPPED);
	KTEST_EXPECT_EQ(t, p->stop_report, (SIGSTOP << 8) | 0x7f);
	yield();
	KTEST_EXPECT(t, !r.done);
	send_sig(SIGCONT, p);
	KTEST_EXPECT_EQ(t, p->state, TASK_RUNNING);
	wait_runner(&r);
}

/* Make sig pending for current while blocked, then unblock it. */
static void make_deliverable(int sig)
{
	set_current_blocked(sigmask(sig));
	send_sig(sig, current);
	set_current_blocked(0);
}

static void restart_body(struct ktest *t)
{
	struct pt_regs regs = { .vector = SYSCALL_VECTOR };

	/* An ignored signal interrupts poll: the call is made again. */
	regs.orig_ax = 7;
	regs.rax = (uint64_t)-ERESTARTSYS;
	regs.rip = SYSCALL_RIP;
	make_deliverable(SIGCHLD);
	KTEST_EXPECT(t, signal_pending(current));
	do_signal(&regs);
	KTEST_EXPECT_EQ(t, current->pending, 0);
	KTEST_EXPECT_EQ(t, regs.rax, 7);
	KTEST_EXPECT_EQ(t, regs.rip, SYSCALL_RIP - 2);

	/* rt_sigsuspend's -ERESTARTNOHAND: restarted, its mask restored. */
	regs.orig_ax = 130;
	regs.rax = (uint64_t)-ERESTARTNOHAND;
	regs.rip = SYSCALL_RIP;
	make_deliverable(SIGURG);
	current->saved_sigmask = sigmask(SIGUSR1);
	current->sighand->restore_sigmask = true;
	do_signal(&regs);
	KTEST_EXPECT_EQ(t, regs.rax, 130);
	KTEST_EXPECT_EQ(t, regs.rip, SYSCALL_RIP - 2);
	KTEST_EXPECT_EQ(t, current->blocked, sigmask(SIGUSR1));
	KTEST_EXPECT(t, !current->sighand->restore_sigmask);

	/* Not a syscall frame: rax is the user's, left alone. */
	regs.vector = 32;
	regs.rax = (uint64_t)-ERESTARTSYS;
	regs.rip = SYSCALL_RIP;
	do_signal(&regs);
	KTEST_EXPECT_EQ(t, regs.rax, (uint64_t)-ERESTARTSYS);
	KTEST_EXPECT_EQ(t, regs.rip, SYSCALL_RIP);
}

KTEST(signal, interrupted_syscall_restarts_without_handler)
{
	run_body(t, restart_body);
}

static void masks_body(struct ktest *t)
{
	const struct k_sigaction_user __user *uact = (const void __user *)0x1000;

	set_current_blocked(~0ull);
	KTEST_EXPECT_EQ(t, current->blocked, ~SIG_KERNEL_ONLY_MASK);
	send_sig(SIGKILL, current);
	KTEST_EXPECT(t, signal_pending(current));
	current->pending = 0;
	set_current_blocked(0);

	KTEST_EXPECT_EQ(t, sys_rt_sigaction(SIGKILL, uact, NULL, sizeof(sigset_t)), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigaction(SIGSTOP, uact, NULL, sizeof(sigset_t)), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigaction(SIGUSR1, uact, NULL, 4), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigaction(0, NULL, NULL, sizeof(sigset_t)), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigaction(_NSIG + 1, NULL, NULL, sizeof(sigset_t)), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigprocmask(SIG_BLOCK, NULL, NULL, 4), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigprocmask(SIG_BLOCK, NULL, NULL, sizeof(sigset_t)), 0);
	KTEST_EXPECT_EQ(t, sys_rt_sigsuspend(NULL, 4), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_rt_sigpending(NULL, 16), -EINVAL);
}

KTEST(signal, sigkill_and_sigstop_cannot_be_blocked_or_caught)
{
	run_body(t, masks_body);
}

static void fault_body(struct ktest *t)
{
	struct k_sigaction *ka = &current->sighand->action[SIGSEGV - 1];
	struct sigqueue *q = &current->sighand->queue[SIGSEGV - 1];

	ka->sa.sa_handler = FAKE_HANDLER;
	set_current_blocked(sigmask(SIGSEGV));
	force_sig_fault(SIGSEGV, SEGV_MAPERR, 0xdead000);
	KTEST_EXPECT(t, ka->sa.sa_handler == SIG_DFL);
	KTEST_EXPECT_EQ(t, current->blocked, 0);
	KTEST_EXPECT(t, is_pending(current, SIGSEGV));
	KTEST_EXPECT_EQ(t, q->code, SEGV_MAPERR);
	KTEST_EXPECT_EQ(t, q->addr, 0xdead000);
	KTEST_EXPECT(t, q->forced);
	current->pending = 0;

	/* A handler that is neither blocked nor ignored stays. */
	ka->sa.sa_handler = FAKE_HANDLER;
	force_sig_fault(SIGSEGV, SEGV_ACCERR, 0x1000);
	KTEST_EXPECT(t, ka->sa.sa_handler == FAKE_HANDLER);
	current->pending = 0;
}

KTEST(signal, force_sig_fault_unblocks_and_resets_the_action)
{
	run_body(t, fault_body);
}

static void altstack_body(struct ktest *t)
{
	stack_t ss = { .ss_sp = (void *)0x10000, .ss_size = 0x4000 }, oss;
	uint64_t outside = 0x7fff0000, inside = 0x12000;

	KTEST_EXPECT_EQ(t, do_sigaltstack(NULL, &oss, outside), 0);
	KTEST_EXPECT_EQ(t, oss.ss_flags, SS_DISABLE);
	ss.ss_size = MINSIGSTKSZ - 1;
	KTEST_EXPECT_EQ(t, do_sigaltstack(&ss, NULL, outside), -ENOMEM);
	ss.ss_size = 0x4000;
	ss.ss_flags = 5;
	KTEST_EXPECT_EQ(t, do_sigaltstack(&ss, NULL, outside), -EINVAL);
	ss.ss_flags = 0;
	KTEST_EXPECT_EQ(t, do_sigaltstack(&ss, NULL, outside), 0);
	KTEST_EXPECT_EQ(t, do_sigaltstack(NULL, &oss, outside), 0);
	KTEST_EXPECT(t, oss.ss_sp == ss.ss_sp && oss.ss_size == ss.ss_size && oss.ss_flags == 0);
	KTEST_EXPECT_EQ(t, do_sigaltstack(NULL, &oss, inside), 0);
	KTEST_EXPECT_EQ(t, oss.ss_flags, SS_ONSTACK);
	ss.ss_flags = SS_DISABLE;
	KTEST_EXPECT_EQ(t, do_sigaltstack(&ss, NULL, inside), -EPERM);
	KTEST_EXPECT_EQ(t, do_sigaltstack(&ss, NULL, outside), 0);
	KTEST_EXPECT_EQ(t, current->sas.ss_size, 0);
}

KTEST(signal, sigaltstack_rules)
{
	run_body(t, altstack_body);
}
