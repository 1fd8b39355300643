/*
 * Signal numbers and the signal ABI of x86-64 Linux (asm/signal.h,
 * asm-generic/siginfo.h, asm/sigcontext.h, asm/ucontext.h): the values
 * and layouts user programs and their C libraries depend on.
 */
#ifndef PAGETURN_UAPI_SIGNAL_H
#define PAGETURN_UAPI_SIGNAL_H

#include <pageturn/types.h>

#define SIGHUP		 1
#define SIGINT		 2
#define SIGQUIT		 3
#define SIGILL		 4
#define SIGTRAP		 5
#define SIGABRT		 6
#define SIGBUS		 7
#define SIGFPE		 8
#define SIGKILL		 9
#define SIGUSR1		10
#define SIGSEGV		11
#define SIGUSR2		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGSTKFLT	16
#define SIGCHLD		17
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTSTP		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGURG		23
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGIO		29
#define SIGPWR		30
#define SIGSYS		31
#define SIGRTMIN	32
#define _NSIG		64

#define sigmask(sig)	(1ull << ((sig) - 1))

#define SIG_DFL		((void *)0)
#define SIG_IGN		((void *)1)

#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

/* sa_flags */
#define SA_NOCLDSTOP	0x00000001u
#define SA_NOCLDWAIT	0x00000002u
#define SA_SIGINFO	0x00000004u
#define SA_RESTORER	0x04000000u
#define SA_ONSTACK	0x08000000u
#define SA_RESTART	0x10000000u
#define SA_NODEFER	0x40000000u
#define SA_RESETHAND	0x80000000u

/* sigaltstack ss_flags */
#define SS_ONSTACK	1
#define SS_DISABLE	2
#define MINSIGSTKSZ	2048

/* si_code values */
#define SI_USER		0
#define SI_KERNEL	0x80
#define SEGV_MAPERR	1	/* no mapping at the address */
#define SEGV_ACCERR	2	/* the mapping forbids the access */
#define BUS_ADRERR	2
#define ILL_ILLOPN	2
#define FPE_INTDIV	1
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3
#define CLD_STOPPED	5
#define CLD_CONTINUED	6

/* The sigaction rt_sigaction(2) takes on x86-64 (the kernel's layout,
 * not glibc's): handler, flags, restorer, then the mask. */
struct k_sigaction_user {
	void *sa_handler;
	unsigned long sa_flags;
	void *sa_restorer;
	uint64_t sa_mask;
};

#endif
