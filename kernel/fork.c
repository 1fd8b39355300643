/*
 * Creating processes: fork, vfork and clone (Linux's kernel/fork.c).
 *
 * A new process is a new task (kernel stack, pid) whose resources are
 * copies of the parent's, or shared with it when a CLONE_* flag says so:
 *
 *   resource        copied by            shared with
 *   address space   dup_mm (COW)         CLONE_VM      (mm_users)
 *   open files      dup_fd               CLONE_FILES   (files->count)
 *   root, cwd       copy_fs_struct       CLONE_FS      (fs->users)
 *   signal actions  copy_sighand         CLONE_SIGHAND (sighand->count)
 *   FPU registers   fpu_alloc (copy)     never
 *
 * Processes are single-threaded: CLONE_THREAD is refused with -EINVAL, and
 * so is CLONE_VM without CLONE_VFORK (see do_fork), so what runs is fork
 * (copy everything), vfork (share the address space and suspend the
 * parent until the child execs or exits) and what C libraries build from
 * clone: glibc's fork (CLONE_CHILD_SETTID |
 * CLONE_CHILD_CLEARTID) and musl's posix_spawn (CLONE_VM | CLONE_VFORK
 * with a new stack).
 *
 * The child starts in ret_from_fork (kernel/entry.asm) with a copy of the
 * parent's user registers at the top of its kernel stack and rax = 0, so
 * it returns from the same system call as the parent, with 0.  The parent
 * gets the child's pid.  The child inherits pgid, sid, controlling tty,
 * blocked mask, the alternate signal stack and the resource limits;
 * pending signals are not inherited.
 */
#include <asm/fpu.h>
#include <fs/file.h>
#include <mm/mmap.h>
#include <mm/slab.h>
#include <pageturn/completion.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

/* clone flags (Linux's values) */
#define CSIGNAL			0x000000ff	/* the signal sent to the parent at exit */
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_PIDFD		0x00001000
#define CLONE_PTRACE		0x00002000
#define CLONE_VFORK		0x00004000
#define CLONE_PARENT		0x00008000
#define CLONE_THREAD		0x00010000
#define CLONE_NEWNS		0x00020000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_DETACHED		0x00400000
#define CLONE_UNTRACED		0x00800000
#define CLONE_CHILD_SETTID	0x01000000

/* What this kernel can do; anything else is -EINVAL (namespaces, threads,
 * pidfds, ptrace). */
#define CLONE_SUPPORTED (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			 CLONE_VFORK | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | \
			 CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_UNTRACED | \
			 CLONE_CHILD_SETTID)

void ret_from_fork(void);

/* Undo a half-built child (copy_process failed): nothing of it ran. */
static void abort_child(struct task_struct *p)
{
	if (p->sighand)
		put_sighand(p->sighand);
	if (p->fs)
		put_fs_struct(p->fs);
	if (p->files)
		put_files_struct(p->files);
	if (p->mm)
		mmput(p->mm);
	kfree(p->exe_path);
	p->state = TASK_DEAD;
	free_thread_stack(p->stack);
	free_task(p);
}

static int copy_resources(struct task_struct *p, unsigned long flags)
{
	struct task_struct *parent = current;

	if (flags & CLONE_VM) {
		p->mm = parent->mm;
		p->mm->mm_users++;
	} else if (!(p->mm = dup_mm(parent->mm))) {
		return -ENOMEM;
	}
	if (flags & CLONE_FILES) {
		p->files = parent->files;
		p->files->count++;
	} else if (!(p->files = dup_fd(parent->files))) {
		return -ENOMEM;
	}
	if (flags & CLONE_FS) {
		p->fs = parent->fs;
		p->fs->users++;
	} else if (!(p->fs = copy_fs_struct(parent->fs))) {
		return -ENOMEM;
	}
	if (flags & CLONE_SIGHAND) {
		p->sighand = parent->sighand;
		p->sighand->count++;
	} else if (!(p->sighand = copy_sighand(parent->sighand))) {
		return -ENOMEM;
	}
	if (parent->exe_path && !(p->exe_path = kstrdup(parent->exe_path, GFP_KERNEL)))
		return -ENOMEM;
	return fpu_alloc(p, true);
}

/*
 * The child of current, not yet runnable, or -errno via *err.  newsp
 * (if not 0) is the child's user stack pointer; tls its FS base with
 * CLONE_SETTLS.
 */
static struct task_struct *copy_process(unsigned long flags, unsigned long newsp,
					int __user *child_tidptr, unsigned long tls, int *err)
{
	struct task_struct *p, *parent = current;
	struct pt_regs *regs;

	p = alloc_task(parent->comm);
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = copy_resources(p, flags);
	if (*err) {
		abort_child(p);
		return NULL;
	}

	p->blocked = parent->blocked;
	p->sas = parent->sas;
	memcpy(p->rlim, parent->rlim, sizeof(p->rlim));
	p->oom_score_adj = parent->oom_score_adj;
	p->pgid = parent->pgid;
	p->sid = parent->sid;
	p->tty = parent->tty;
	p->parent = parent;
	list_add_tail(&p->sibling, &parent->children);
	p->exit_signal = (int)(flags & CSIGNAL);
	p->fsbase = (flags & CLONE_SETTLS) ? tls : parent->fsbase;
	if (flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = child_tidptr;

	regs = task_pt_regs(p);
	*regs = *task_pt_regs(parent);
	regs->rax = 0;
	if (newsp)
		regs->rsp = newsp;
	set_switch_frame(p, (uint64_t *)regs, ret_from_fork);
	total_forks++;
	return p;
}

/*
 * Called by ret_from_fork on the child's stack right after its first
 * switch: finish the switch, store the child's tid if asked (in the
 * child's own address space, now loaded), then go to user mode.
 */
void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	if (current->set_child_tid && put_user(current->pid, current->set_child_tid))
		printk(KERN_WARNING "%s[%d]: CLONE_CHILD_SETTID pointer %p is not writable\n",
		       current->comm, current->pid, current->set_child_tid);
	current->set_child_tid = NULL;
}

static void wait_for_vfork_done(struct completion *vfork);

static long do_fork(unsigned long flags, unsigned long newsp, int __user *parent_tidptr,
		    int __user *child_tidptr, unsigned long tls)
{
	struct completion vfork;
	struct task_struct *p;
	int err, pid;

	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* Two tasks running on one address space at once need a lock per mm
	 * (Linux's mmap_sem) and every fault and populate path re-finding its
	 * VMA after each sleep; Pageturn has neither, so an mm is shared only
	 * while its other user is suspended: by vfork. */
	if ((flags & CLONE_VM) && !(flags & CLONE_VFORK))
		return -EINVAL;
	/* The FS base goes into MSR_FS_BASE at every switch to the child:
	 * outside user space it is refused as arch_prctl refuses it (a
	 * non-canonical one would fault in the scheduler). */
	if ((flags & CLONE_SETTLS) && tls >= TASK_SIZE)
		return -EPERM;
	if (!current->mm)
		return -EINVAL;
	p = copy_process(flags, newsp, child_tidptr, tls, &err);
	if (!p)
		return err;
	pid = p->pid;
	if (flags & CLONE_CHILD_SETTID)
		p->set_child_tid = child_tidptr;
	if ((flags & CLONE_PARENT_SETTID) && put_user(pid, parent_tidptr)) {
		list_del(&p->sibling);
		abort_child(p);
		return -EFAULT;
	}
	if (flags & CLONE_VFORK) {
		init_completion(&vfork);
		p->vfork_done = &vfork;
	}
	wake_up_process(p);

	if (flags & CLONE_VFORK)
		wait_for_vfork_done(&vfork);
	return pid;
}

/*
 * The vfork parent's sleep while its child borrows the address space, as
 * Linux's wait_for_vfork_done: until the child execs or exits
 * (mm_release completes vfork).
 *
 * The completion is the parent's, on its stack: by the time the parent
 * runs again a child whose parent ignores SIGCHLD may have been reaped
 * and its task_struct freed, or reused by the next fork, so nothing of
 * the child is looked at after the sleep.
 *
 * The sleep is uninterruptible, as Linux's was before 3.6: not even
 * SIGKILL ends it before the child lets go.  Linux can let a killed
 * parent die early because two tasks may run on one mm there; here that
 * would let the parent's own vfork parent run again while the child
 * still runs on their shared address space (A vforks B, B vforks C, C
 * kills B: B's exit would release A), the race CLONE_VM without
 * CLONE_VFORK is refused for.  A SIGKILL stays pending and ends the
 * parent as soon as the child is gone; the child can be killed.
 */
static void wait_for_vfork_done(struct completion *vfork)
{
	wait_for_completion(vfork);
}

void mm_release(struct task_struct *tsk)
{
	if (tsk->clear_child_tid) {
		/* Only the task itself, in its own address space. */
		if (tsk == current && tsk->mm)
			put_user(0, tsk->clear_child_tid);
		tsk->clear_child_tid = NULL;
	}
	if (tsk->vfork_done) {
		complete(tsk->vfork_done);
		tsk->vfork_done = NULL;
	}
}

long sys_fork(void)
{
	return do_fork(SIGCHLD, 0, NULL, NULL, 0);
}

long sys_vfork(void)
{
	return do_fork(CLONE_VFORK | CLONE_VM | SIGCHLD, 0, NULL, NULL, 0);
}

long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls)
{
	return do_fork(clone_flags, newsp, parent_tidptr, child_tidptr, tls);
}

long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}

/* Recorded only: with one thread per process nobody waits on the list. */
long sys_set_robust_list(void __user *head, size_t len)
{
	if (len != 3 * sizeof(uint64_t))
		return -EINVAL;
	current->robust_list = (uint64_t)head;
	return 0;
}

#define ARCH_SET_FS	0x1002
#define ARCH_GET_FS	0x1003

/* arch_prctl(2): the FS base (user TLS); GS and CET requests: -EINVAL. */
long sys_arch_prctl(int option, unsigned long arg2)
{
	switch (option) {
	case ARCH_SET_FS:
		if (arg2 >= TASK_SIZE)
			return -EPERM;
		current->fsbase = arg2;
		wrmsr(MSR_FS_BASE, arg2);
		return 0;
	case ARCH_GET_FS:
		return put_user(current->fsbase, (unsigned long __user *)arg2);
	default:
		return -EINVAL;
	}
}

long sys_sched_yield(void)
{
	yield();
	return 0;
}
