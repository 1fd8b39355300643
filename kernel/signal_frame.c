/*
 * The x86-64 signal frame (Linux's arch/x86/kernel/signal.c): what a user
 * handler runs on, and rt_sigreturn, which takes it apart again.
 *
 * The frame is Linux's byte for byte, because C libraries read and write
 * it: glibc's and musl's sa_restorer calls rt_sigreturn on it, siglongjmp
 * and SA_SIGINFO handlers read uc_mcontext and the siginfo.  On the user
 * stack, from high to low addresses:
 *
 *     interrupted rsp ->  ...
 *                         128-byte red zone (the interrupted code's)
 *                         FXSAVE image, 512 bytes, 64-byte aligned
 *                         (padding)
 *     handler's rsp   ->  struct rt_sigframe: pretcode, ucontext, siginfo
 *
 * With SA_ONSTACK and an alternate stack the task is not already on, the
 * frame starts at the top of the alternate stack instead (no red zone).
 * The handler starts as if called with pretcode (= sa_restorer) as return
 * address: rsp + 8 is 16-byte aligned, rdi = sig, rsi = &info, rdx = &uc.
 *
 * States of the FPU registers.  While a process runs, its x87/SSE state
 * is live in the CPU (asm/fpu.h: the scheduler saves it only at a
 * switch).  Building a frame saves the live state with FXSAVE into a
 * kernel buffer first, then copies it out (a copy can fault and sleep,
 * and the switch then saves and restores the live registers, so the
 * buffer is the snapshot of the interrupted code); the handler then
 * starts with the reset state (fpu_reset), as on Linux.  rt_sigreturn
 * copies the image in, clears the MXCSR bits this CPU does not accept
 * (FXRSTOR would raise #GP on them) and loads it with FXRSTOR.
 *
 * rt_sigreturn trusts nothing in the frame: it copies the whole frame in
 * before it changes anything, forces cs and ss to the user segments,
 * keeps only the arithmetic and trap flags of rflags (Linux's
 * FIX_EFLAGS) with interrupts on, refuses a rip outside user space (an
 * iretq to a non-canonical rip would fault in the kernel), never blocks
 * SIGKILL or SIGSTOP, and sets orig_ax to -1 so the restored rax is not
 * taken for a syscall to restart.  A frame it cannot read gets the task
 * SIGSEGV, as on Linux.
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/fpu.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/uaccess.h>
#include <mm/mmap.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

/* The rflags bits rt_sigreturn takes from the frame. */
#define FIX_EFLAGS	(X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF | \
			 X86_EFLAGS_SF | X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF | \
			 X86_EFLAGS_CF | X86_EFLAGS_RF)

#define REDZONE_SIZE	128	/* below rsp, the System V ABI's */
#define FPSTATE_ALIGN	64	/* Linux aligns the image for XSAVE */
#define MXCSR_MASK_DEFAULT 0x0000ffbfu	/* CPUs that report no mask: DAZ unsupported */

_Static_assert(sizeof(siginfo_t) == SI_MAX_SIZE, "siginfo_t is 128 bytes");
_Static_assert(offsetof(siginfo_t, _sifields) == 16, "siginfo_t's union at 16");
_Static_assert(offsetof(siginfo_t, si_status) == 24 && offsetof(siginfo_t, si_utime) == 32,
	       "SIGCHLD fields as on Linux");
_Static_assert(sizeof(struct _fpstate_64) == FXSAVE_SIZE, "the FXSAVE image");
_Static_assert(offsetof(struct _fpstate_64, mxcsr) == 24 &&
	       offsetof(struct _fpstate_64, st_space) == 32 &&
	       offsetof(struct _fpstate_64, xmm_space) == 160, "the FXSAVE layout");
_Static_assert(sizeof(struct sigcontext) == 256 && offsetof(struct sigcontext, eflags) == 136 &&
	       offsetof(struct sigcontext, cs) == 144 && offsetof(struct sigcontext, err) == 152 &&
	       offsetof(struct sigcontext, fpstate) == 184, "Linux's struct sigcontext");
_Static_assert(offsetof(struct ucontext, uc_stack) == 16 &&
	       offsetof(struct ucontext, uc_mcontext) == 40 &&
	       offsetof(struct ucontext, uc_sigmask) == 296 && sizeof(struct ucontext) == 304,
	       "Linux's struct ucontext");
_Static_assert(sizeof(((struct ucontext *)0)->uc_stack) == sizeof(stack_t) &&
	       offsetof(stack_t, ss_flags) == 8 && offsetof(stack_t, ss_size) == 16,
	       "uc_stack is a stack_t");
_Static_assert(offsetof(struct rt_sigframe, uc) == 8 && offsetof(struct rt_sigframe, info) == 312 &&
	       sizeof(struct rt_sigframe) == 440, "Linux's struct rt_sigframe");

/* The MXCSR bits FXRSTOR accepts on this CPU (Linux's
 * mxcsr_feature_mask), read from an FXSAVE image the first time. */
static uint32_t mxcsr_feature_mask(void)
{
	static uint32_t mask;
	struct _fpstate_64 fx __aligned(16);

	if (!mask) {
		memset(&fx, 0, sizeof(fx));
		fxsave(&fx);
		mask = fx.mxcsr_mask ? fx.mxcsr_mask : MXCSR_MASK_DEFAULT;
	}
	return mask;
}

/*
 * Where ksig's frame goes (Linux's get_sigframe): its user address, with
 * the FXSAVE image's in *fpstate, or 0 when it would not fit on the
 * alternate stack.
 */
static uint64_t get_sigframe(const struct k_sigaction *ka, const struct pt_regs *regs,
			     uint64_t *fpstate)
{
	uint64_t sp = regs->rsp - REDZONE_SIZE;
	bool nested = on_sig_stack(regs->rsp), entering = false;

	if ((ka->sa.sa_flags & SA_ONSTACK) && sas_ss_flags(sp) == 0) {
		sp = (uint64_t)current->sas.ss_sp + current->sas.ss_size;
		entering = true;
	}
	sp = ALIGN_DOWN(sp - FXSAVE_SIZE, FPSTATE_ALIGN);
	*fpstate = sp;
	sp -= sizeof(struct rt_sigframe);
	sp = ALIGN_DOWN(sp + 8, 16) - 8;	/* as after a call: (rsp + 8) % 16 == 0 */
	if ((nested || entering) && !on_sig_stack(sp))
		return 0;
	return sp;
}

/* The registers of the interrupted code, as the frame keeps them. */
static void setup_sigcontext(struct sigcontext *sc, const struct pt_regs *regs,
			     const siginfo_t *info, sigset_t oldmask, uint64_t fpstate)
{
	sc->r8 = regs->r8;
	sc->r9 = regs->r9;
	sc->r10 = regs->r10;
	sc->r11 = regs->r11;
	sc->r12 = regs->r12;
	sc->r13 = regs->r13;
	sc->r14 = regs->r14;
	sc->r15 = regs->r15;
	sc->rdi = regs->rdi;
	sc->rsi = regs->rsi;
	sc->rbp = regs->rbp;
	sc->rbx = regs->rbx;
	sc->rdx = regs->rdx;
	sc->rax = regs->rax;
	sc->rcx = regs->rcx;
	sc->rsp = regs->rsp;
	sc->rip = regs->rip;
	sc->eflags = regs->rflags;
	sc->cs = (uint16_t)regs->cs;
	sc->ss = (uint16_t)regs->ss;
	if (regs->vector < NR_EXCEPTIONS) {
		sc->trapno = regs->vector;
		sc->err = regs->error_code;
		if (regs->vector == X86_TRAP_PF &&
		    (info->si_signo == SIGSEGV || info->si_signo == SIGBUS))
			sc->cr2 = (uint64_t)info->si_addr;
	}
	sc->oldmask = oldmask;
	sc->fpstate = (struct _fpstate_64 *)fpstate;
}

int setup_rt_frame(const struct ksignal *ksig, sigset_t oldmask, struct pt_regs *regs)
{
	struct _fpstate_64 fx __aligned(16);
	struct rt_sigframe frame;
	uint64_t addr, fpstate, handler = (uint64_t)ksig->ka.sa.sa_handler;

	if (!(ksig->ka.sa.sa_flags & SA_RESTORER) || handler >= TASK_SIZE)
		return -EFAULT;
	addr = get_sigframe(&ksig->ka, regs, &fpstate);
	if (!addr)
		return -EFAULT;

	memset(&fx, 0, sizeof(fx));
	fxsave(&fx);
	memset(&frame, 0, sizeof(frame));
	frame.pretcode = ksig->ka.sa.sa_restorer;
	frame.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	frame.uc.uc_stack.ss_sp = current->sas.ss_sp;
	frame.uc.uc_stack.ss_flags = sas_ss_flags(regs->rsp);
	frame.uc.uc_stack.ss_size = current->sas.ss_size;
	setup_sigcontext(&frame.uc.uc_mcontext, regs, &ksig->info, oldmask, fpstate);
	frame.uc.uc_sigmask = oldmask;
	frame.info = ksig->info;
	if (copy_to_user((void __user *)fpstate, &fx, sizeof(fx)) ||
	    copy_to_user((void __user *)addr, &frame, sizeof(frame)))
		return -EFAULT;

	regs->rdi = (uint64_t)ksig->sig;
	regs->rsi = addr + offsetof(struct rt_sigframe, info);
	regs->rdx = addr + offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->rsp = addr;
	regs->rip = handler;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	/* The ABI's function entry: DF clear; no single-step into it. */
	regs->rflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	fpu_reset(current);
	return 0;
}

/*
 * rt_sigreturn(2), called by a handler's sa_restorer with rsp just above
 * the frame's pretcode: the registers, FPU state, blocked mask and
 * alternate stack of the interrupted code come back from the frame.
 * Returns the restored rax (the syscall exit writes it back), or 0 with
 * SIGSEGV forced when the frame is unreadable or its rip is not a user
 * address.
 */
long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = task_pt_regs(current);
	const struct sigcontext *sc;
	struct _fpstate_64 fx __aligned(16);
	struct rt_sigframe frame;
	stack_t st;

	if (copy_from_user(&frame, (const void __user *)(regs->rsp - sizeof(frame.pretcode)),
			   sizeof(frame)))
		goto badframe;
	sc = &frame.uc.uc_mcontext;
	if (sc->rip >= TASK_SIZE)
		goto badframe;
	if (sc->fpstate) {
		if (copy_from_user(&fx, sc->fpstate, sizeof(fx)))
			goto badframe;
		fx.mxcsr &= mxcsr_feature_mask();
	}

	set_current_blocked(frame.uc.uc_sigmask);
	regs->r8 = sc->r8;
	regs->r9 = sc->r9;
	regs->r10 = sc->r10;
	regs->r11 = sc->r11;
	regs->r12 = sc->r12;
	regs->r13 = sc->r13;
	regs->r14 = sc->r14;
	regs->r15 = sc->r15;
	regs->rdi = sc->rdi;
	regs->rsi = sc->rsi;
	regs->rbp = sc->rbp;
	regs->rbx = sc->rbx;
	regs->rdx = sc->rdx;
	regs->rax = sc->rax;
	regs->rcx = sc->rcx;
	regs->rsp = sc->rsp;
	regs->rip = sc->rip;
	regs->rflags = (regs->rflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS) | X86_EFLAGS_IF;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	regs->orig_ax = (uint64_t)-1;
	if (sc->fpstate)
		fxrstor(&fx);
	else
		fpu_reset(current);

	/* Linux ignores every error but a fault here: the frame may hold a
	 * stack the task is running on, which cannot be changed. */
	memset(&st, 0, sizeof(st));
	st.ss_sp = frame.uc.uc_stack.ss_sp;
	st.ss_flags = frame.uc.uc_stack.ss_flags;
	st.ss_size = frame.uc.uc_stack.ss_size;
	do_sigaltstack(&st, NULL, regs->rsp);
	return (long)regs->rax;

badframe:
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return 0;
}
