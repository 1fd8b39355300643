/*
 * System-call dispatch (Linux's arch/x86/entry/common.c and
 * syscall_64.c): from the SYSCALL entry in kernel/entry.asm to the C
 * function of the call, and back through the checks every return to
 * user mode makes.
 *
 * The table maps Linux x86-64 numbers (uapi/unistd_64.h) to the sys_*
 * functions of pageturn/syscalls.h.  Arguments arrive in rdi, rsi, rdx,
 * r10, r8, r9 (r10 instead of rcx, which SYSCALL uses for the return
 * address) and the result leaves in rax.  Each function is declared with
 * its own argument types; the table stores them under one six-argument
 * type, which is how the x86-64 calling convention passes them anyway
 * (extra arguments are ignored by a callee that takes fewer).
 *
 * A number with no entry returns -ENOSYS, and the first call of each such
 * number is logged with the caller, so a student running a new program
 * sees at once which call it lacks.
 *
 * exit_to_user_mode() runs before every return to user mode, from a
 * system call or an interrupt: it is where a task whose time slice ran
 * out is switched away (the kernel itself is never preempted) and where
 * pending signals are delivered.
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <asm/syscall.h>
#include <mm/mmap.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/unistd_64.h>

#define MSR_STAR		0xc0000081	/* SYSCALL/SYSRET segment bases */
#define MSR_LSTAR		0xc0000082	/* the 64-bit SYSCALL entry point */
#define MSR_SYSCALL_MASK	0xc0000084	/* rflags bits SYSCALL clears */
#define EFER_SCE		(1ul << 0)	/* SYSCALL/SYSRET enabled */


#define NR_syscalls	(__NR_set_mempolicy_home_node + 1)

typedef long (*sys_call_ptr_t)(unsigned long, unsigned long, unsigned long,
			       unsigned long, unsigned long, unsigned long);

void entry_SYSCALL_64(void);

/* entry.asm's scratch: the user rsp at entry, and the kernel stack top. */
uint64_t syscall_user_rsp;
uint64_t syscall_kernel_rsp;

bool do_syscall_64(struct pt_regs *regs);

#define SYSCALL(name) [__NR_##name] = (sys_call_ptr_t)(void *)sys_##name,

static const sys_call_ptr_t sys_call_table[NR_syscalls] = {
	SYSCALL(read)
	SYSCALL(swapon)
	SYSCALL(swapoff)
	SYSCALL(write)
	SYSCALL(readv)
	SYSCALL(writev)
	SYSCALL(pread64)
	SYSCALL(preadv)
	SYSCALL(pwritev)
	SYSCALL(pwrite64)
	SYSCALL(lseek)
	[__NR_sendfile] = (sys_call_ptr_t)(void *)sys_sendfile64,
	SYSCALL(open)
	SYSCALL(openat)
	SYSCALL(creat)
	SYSCALL(close)
	SYSCALL(stat)
	SYSCALL(lstat)
	SYSCALL(fstat)
	SYSCALL(newfstatat)
	SYSCALL(access)
	SYSCALL(faccessat)
	SYSCALL(faccessat2)
	SYSCALL(getdents64)
	SYSCALL(readlink)
	SYSCALL(readlinkat)
	SYSCALL(mkdir)
	SYSCALL(mkdirat)
	SYSCALL(rmdir)
	SYSCALL(unlink)
	SYSCALL(unlinkat)
	SYSCALL(rename)
	SYSCALL(renameat)
	SYSCALL(renameat2)
	SYSCALL(mknod)
	SYSCALL(mknodat)
	SYSCALL(symlink)
	SYSCALL(symlinkat)
	SYSCALL(link)
	SYSCALL(linkat)
	SYSCALL(truncate)
	SYSCALL(ftruncate)
	SYSCALL(fsync)
	SYSCALL(fdatasync)
	SYSCALL(sync)
	SYSCALL(dup)
	SYSCALL(dup2)
	SYSCALL(dup3)
	SYSCALL(fcntl)
	SYSCALL(ioctl)
	SYSCALL(chdir)
	SYSCALL(fchdir)
	SYSCALL(getcwd)
	SYSCALL(umask)
	SYSCALL(chmod)
	SYSCALL(fchmod)
	SYSCALL(fchmodat)
	SYSCALL(chown)
	SYSCALL(lchown)
	SYSCALL(fchown)
	SYSCALL(fchownat)
	SYSCALL(utimensat)
	SYSCALL(pipe)
	SYSCALL(pipe2)
	SYSCALL(poll)
	SYSCALL(ppoll)
	SYSCALL(select)
	SYSCALL(pselect6)
	SYSCALL(mount)
	SYSCALL(statfs)
	SYSCALL(fstatfs)
	SYSCALL(mmap)
	SYSCALL(munmap)
	SYSCALL(mprotect)
	SYSCALL(brk)
	SYSCALL(mremap)
	SYSCALL(madvise)
	SYSCALL(mlock)
	SYSCALL(munlock)
	SYSCALL(mlockall)
	SYSCALL(munlockall)
	SYSCALL(msync)
	SYSCALL(shmget)
	SYSCALL(shmat)
	SYSCALL(shmctl)
	SYSCALL(shmdt)
	SYSCALL(execve)
	SYSCALL(fork)
	SYSCALL(vfork)
	SYSCALL(clone)
	SYSCALL(exit)
	SYSCALL(exit_group)
	SYSCALL(wait4)
	SYSCALL(getpid)
	SYSCALL(getppid)
	SYSCALL(gettid)
	SYSCALL(setpgid)
	SYSCALL(getpgid)
	SYSCALL(getpgrp)
	SYSCALL(setsid)
	SYSCALL(getsid)
	SYSCALL(set_tid_address)
	SYSCALL(set_robust_list)
	SYSCALL(arch_prctl)
	SYSCALL(sched_yield)
	SYSCALL(rt_sigaction)
	SYSCALL(rt_sigprocmask)
	SYSCALL(rt_sigreturn)
	SYSCALL(rt_sigsuspend)
	SYSCALL(rt_sigpending)
	SYSCALL(sigaltstack)
	SYSCALL(kill)
	SYSCALL(tkill)
	SYSCALL(tgkill)
	SYSCALL(pause)
	SYSCALL(alarm)
	SYSCALL(getitimer)
	SYSCALL(setitimer)
	SYSCALL(uname)
	SYSCALL(sethostname)
	SYSCALL(getuid)
	SYSCALL(geteuid)
	SYSCALL(getgid)
	SYSCALL(getegid)
	SYSCALL(setuid)
	SYSCALL(setgid)
	SYSCALL(getresuid)
	SYSCALL(getresgid)
	SYSCALL(getgroups)
	SYSCALL(setgroups)
	SYSCALL(sysinfo)
	SYSCALL(getrandom)
	SYSCALL(prlimit64)
	SYSCALL(getrlimit)
	SYSCALL(setrlimit)
	SYSCALL(getrusage)
	SYSCALL(times)
	SYSCALL(reboot)
	SYSCALL(nanosleep)
	SYSCALL(clock_nanosleep)
	SYSCALL(clock_gettime)
	SYSCALL(clock_getres)
	SYSCALL(gettimeofday)
	SYSCALL(time)
	SYSCALL(prctl)
	SYSCALL(rseq)
	SYSCALL(futex)
	SYSCALL(sched_getaffinity)
	SYSCALL(getpriority)
	SYSCALL(setpriority)
	SYSCALL(syslog)
};

/* Numbers below this are logged once each; above, once in all. */
#define NOSYS_LOG_MAX 1024
static uint64_t nosys_logged[NOSYS_LOG_MAX / 64];
static bool nosys_logged_high;

static long sys_ni_syscall(unsigned long nr)
{
	bool first;

	if (nr < NOSYS_LOG_MAX) {
		first = !(nosys_logged[nr / 64] & (1ull << (nr % 64)));
		nosys_logged[nr / 64] |= 1ull << (nr % 64);
	} else {
		first = !nosys_logged_high;
		nosys_logged_high = true;
	}
	if (first)
		printk(KERN_NOTICE "%s[%d]: system call %lu is not implemented: -ENOSYS%s\n",
		       current->comm, current->pid, nr,
		       nr < NOSYS_LOG_MAX ? "" : " (further numbers above 1023 not logged)");
	return -ENOSYS;
}

void exit_to_user_mode(struct pt_regs *regs)
{
	for (;;) {
		cli();
		if (current->need_resched) {
			sti();
			schedule();
		} else if (signal_pending(current)) {
			sti();
			do_signal(regs);
		} else {
			return;
		}
	}
}

/* May this frame go back with sysret rather than iretq? */
static bool can_sysret(const struct pt_regs *regs)
{
	return regs->rcx == regs->rip && regs->r11 == regs->rflags &&
	       regs->rip < TASK_SIZE && regs->cs == __USER_CS && regs->ss == __USER_DS &&
	       !(regs->rflags & (X86_EFLAGS_TF | X86_EFLAGS_RF));
}

/* Called by entry_SYSCALL_64 with interrupts off; returns with them off,
 * true when sysret may be used. */
bool do_syscall_64(struct pt_regs *regs)
{
	unsigned long nr = regs->orig_ax;

	sti();
	if (nr < NR_syscalls && sys_call_table[nr])
		regs->rax = (uint64_t)sys_call_table[nr](regs->rdi, regs->rsi, regs->rdx,
							 regs->r10, regs->r8, regs->r9);
	else
		regs->rax = (uint64_t)sys_ni_syscall(nr);
	exit_to_user_mode(regs);
	return can_sysret(regs);
}

void syscall_init(void)
{
	/* SYSCALL loads CS = STAR[47:32] (__KERNEL_CS) and SS = +8; 64-bit
	 * SYSRET loads CS = STAR[63:48] + 16 (__USER_CS) and SS = +8
	 * (__USER_DS): why the GDT puts __USER32_CS, __USER_DS, __USER_CS
	 * in that order. */
	wrmsr(MSR_STAR, ((uint64_t)__USER32_CS << 48) | ((uint64_t)__KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)entry_SYSCALL_64);
	wrmsr(MSR_SYSCALL_MASK, X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_IF |
				X86_EFLAGS_NT | X86_EFLAGS_AC);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}
