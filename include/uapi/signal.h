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

/* si_code values: who sent a signal (<= 0: a process; > 0: the kernel,
 * Linux's SI_FROMKERNEL), or which fault raised it. */
#define SI_USER		0	/* kill(2) */
#define SI_KERNEL	0x80	/* the kernel */
#define SI_TKILL	(-6)	/* tkill(2), tgkill(2) */
#define SI_FROMKERNEL(code)	((code) > 0)

#define ILL_ILLOPC	1	/* illegal opcode */
#define ILL_ILLOPN	2	/* illegal operand */
#define ILL_ILLADR	3	/* illegal addressing mode */
#define ILL_ILLTRP	4	/* illegal trap */
#define ILL_PRVOPC	5	/* privileged opcode */
#define ILL_PRVREG	6	/* privileged register */
#define ILL_COPROC	7	/* coprocessor error */
#define ILL_BADSTK	8	/* internal stack error */

#define FPE_INTDIV	1	/* integer divide by zero */
#define FPE_INTOVF	2	/* integer overflow */
#define FPE_FLTDIV	3	/* floating-point divide by zero */
#define FPE_FLTOVF	4	/* floating-point overflow */
#define FPE_FLTUND	5	/* floating-point underflow */
#define FPE_FLTRES	6	/* floating-point inexact result */
#define FPE_FLTINV	7	/* floating-point invalid operation */
#define FPE_FLTSUB	8	/* subscript out of range */

#define SEGV_MAPERR	1	/* no mapping at the address */
#define SEGV_ACCERR	2	/* the mapping forbids the access */

#define BUS_ADRALN	1	/* misaligned address */
#define BUS_ADRERR	2	/* no physical memory behind the address */
#define BUS_OBJERR	3	/* object-specific hardware error */

#define TRAP_BRKPT	1	/* breakpoint */
#define TRAP_TRACE	2	/* single step */

#define CLD_EXITED	1	/* the child called exit */
#define CLD_KILLED	2	/* a signal killed it */
#define CLD_DUMPED	3	/* a signal killed it with a core dump */
#define CLD_TRAPPED	4	/* a traced child trapped */
#define CLD_STOPPED	5	/* a signal stopped it */
#define CLD_CONTINUED	6	/* SIGCONT continued it */

/* The sigaction rt_sigaction(2) takes on x86-64 (the kernel's layout,
 * not glibc's): handler, flags, restorer, then the mask. */
struct k_sigaction_user {
	void *sa_handler;
	unsigned long sa_flags;
	void *sa_restorer;
	uint64_t sa_mask;
};

/*
 * siginfo_t: 128 bytes.  Three ints, then (8-byte aligned, at offset 16)
 * a union whose member si_code selects: the sender for kill and tkill,
 * the child for SIGCHLD, the address for a fault.
 */
#define SI_MAX_SIZE	128

typedef struct siginfo {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		int _pad[SI_MAX_SIZE / sizeof(int) - 4];
		struct {			/* kill, tkill, SI_KERNEL */
			int _pid;
			unsigned int _uid;
		} _kill;
		struct {			/* SIGCHLD */
			int _pid;
			unsigned int _uid;
			int _status;		/* exit code, or the signal */
			long _utime;		/* clock ticks */
			long _stime;
		} _sigchld;
		struct {			/* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
			void *_addr;
		} _sigfault;
	} _sifields;
} siginfo_t;

#define si_pid		_sifields._kill._pid
#define si_uid		_sifields._kill._uid
#define si_status	_sifields._sigchld._status
#define si_utime	_sifields._sigchld._utime
#define si_stime	_sifields._sigchld._stime
#define si_addr		_sifields._sigfault._addr

/*
 * The FXSAVE image a handler's frame carries (Linux's struct _fpstate_64),
 * 512 bytes: x87 control, status and tag words, the last x87 opcode and
 * addresses, MXCSR and the mask of its valid bits, 8 x87 registers of 16
 * bytes, 16 XMM registers, and bytes the CPU leaves alone (sw_reserved,
 * where Linux marks an XSAVE extension; zero here).
 */
struct _fpstate_64 {
	uint16_t cwd, swd, twd, fop;
	uint64_t rip, rdp;
	uint32_t mxcsr, mxcsr_mask;
	uint32_t st_space[32];
	uint32_t xmm_space[64];
	uint32_t reserved2[12];
	uint32_t sw_reserved[12];
};

/* The registers of the interrupted code (Linux's 64-bit struct sigcontext),
 * 256 bytes.  cs, gs, fs and ss are 16-bit; gs and fs are always 0 (the FS
 * base is not a segment and is not part of the frame). */
struct sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip;
	uint64_t eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err;			/* the exception's error code */
	uint64_t trapno;		/* the exception vector */
	uint64_t oldmask;		/* the blocked mask before the handler */
	uint64_t cr2;			/* a page fault's address */
	struct _fpstate_64 *fpstate;	/* user address of the FXSAVE image; NULL = none */
	uint64_t reserved1[8];
};

/* uc_flags */
#define UC_FP_XSTATE		0x1	/* fpstate holds an XSAVE image (never here) */
#define UC_SIGCONTEXT_SS	0x2	/* uc_mcontext.ss is valid */
#define UC_STRICT_RESTORE_SS	0x4	/* rt_sigreturn reloads that ss */

/* The context a handler receives as its third argument (Linux's struct
 * ucontext): uc_stack has the layout of stack_t (pageturn/sched.h). */
struct ucontext {
	unsigned long uc_flags;
	struct ucontext *uc_link;
	struct {
		void *ss_sp;
		int ss_flags;
		size_t ss_size;
	} uc_stack;
	struct sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};

/*
 * The frame a handler runs on (Linux's x86-64 struct rt_sigframe): the
 * handler is entered as if called from pretcode, so its `ret` lands in
 * the restorer, which calls rt_sigreturn with rsp = &uc.  The FXSAVE image
 * lies above it, 64-byte aligned, where uc.uc_mcontext.fpstate points.
 */
struct rt_sigframe {
	char *pretcode;			/* sa_restorer */
	struct ucontext uc;
	siginfo_t info;
};

#endif
