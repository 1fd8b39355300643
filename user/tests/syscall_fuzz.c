/*
 * syscall_fuzz: many random system calls, and the kernel neither crashes,
 * hangs, nor answers with something no Linux system call returns.
 *
 * The rule under test is the project's: the kernel never panics on user
 * input.  A bad pointer gives EFAULT, a bad argument EINVAL (or the errno
 * Linux gives), and a process that faults is killed with a console line,
 * while the rest of the system goes on.  A hand-written test checks the
 * cases its author thought of; this one throws arguments nobody chose at
 * every call in kernel/syscall_64.c's table, and at numbers outside it.
 *
 *     syscall_fuzz [SEED [CHILDREN [CALLS [v]]]]
 *
 * The run.  The parent starts CHILDREN children (default 20) one after
 * the other, each with a seed drawn from SEED (printed first, so that a
 * run can be repeated; a fourth argument prints how every child ended).
 * A child makes CALLS calls (default 2000): a random entry of the table
 * below, or one time in 40 a number no Linux kernel has, which must fail
 * with ENOSYS.  Arguments are drawn by kind from sets of interesting
 * values: 0, -1, small and huge numbers, the flags each call knows and
 * random bits; descriptors that are open (directories, files, a pipe,
 * /dev/zero, /proc files) and ones that are not; page-boundary pointers
 * into valid buffers, at the very end of a mapping, into PROT_NONE and
 * PROT_READ pages and the program's text, NULL, kernel addresses (the
 * direct map, the kernel image, the vsyscall page), the top of user space,
 * non-canonical addresses; paths good and bad (too long, looping links).
 * Calls go through inline `syscall` instructions, not the C library, so
 * nothing in user space intervenes and the argument registers can be
 * checked after each call.  A child that dies early (most die of a signal
 * they sent themselves) is followed by another, up to three times
 * CHILDREN in all, until CHILDREN * CALLS calls are made.
 *
 * What a child must not do is spelt out, since it would end the test
 * machine or the test rather than test the kernel:
 *   - descriptors 0-2 are /dev/null: no terminal to steal, no log to flood;
 *   - it works in a directory of its own, on /tmp (tmpfs) or, every other
 *     child on Pageturn, on the root filesystem (ext2).  Every path a call
 *     could change something through is relative, without "..", in
 *     [A-Za-z0-9._/-] (symbolic link targets too), and the descriptors
 *     such a call uses (directories, fchmod's file...) are on the
 *     directory's filesystem.  Paths only looked at (stat, access,
 *     readlink, statfs, a read-only open) may be anything, but a child on
 *     the root filesystem gets no descriptor of a directory elsewhere.  So
 *     nothing outside its directory is renamed, removed, changed or
 *     mounted over (proc and devtmpfs, whose links lead out, are not
 *     mounted at all);
 *   - kill, tkill, tgkill, setpgid, prlimit64 and setpriority name only
 *     the child, its own process group or pids that do not exist; reboot
 *     never gets the right magic pair; syslog never turns the console off;
 *     prctl never sets seccomp, the TSC mode or mm fields, and only
 *     printable names;
 *   - fork, vfork and clone run an instruction sequence that makes the new
 *     process _exit at once without touching memory (no fork bombs, and
 *     clone's random stack does not matter); clone's exit signal is never
 *     a fault's, nor is CLONE_PARENT set;
 *   - the memory calls (munmap, mprotect, madvise, mremap, mlock, msync,
 *     MAP_FIXED) reach only an arena of the child's and what earlier calls
 *     mapped, or addresses outside user space;
 *   - RLIMIT_AS stays at most 64 MiB and RLIMIT_FSIZE 1 MiB;
 *   - structures whose contents could hurt the child are made harmless
 *     before the call: a sigaction's handler is SIG_DFL, SIG_IGN, the
 *     child's no-op handler, or one time in eight an address where nothing
 *     runs (the child must then die of a fault, not the kernel); an
 *     alternate signal stack's top is in the child's buffers or nowhere; a
 *     signal mask never blocks SIGALRM, which the child takes every 10 ms
 *     to break out of calls that sleep (pause, sigsuspend, reads of an
 *     empty pipe, futex waits); arch_prctl(ARCH_SET_FS) is undone at once
 *     (the C library's TLS);
 *   - on Linux, where the build machine runs this as root, the children
 *     drop to uid 65534 and skip mount and sethostname.
 *
 * Each child ends with exit_group(0), or one time in three with an
 * rt_sigreturn from a frame of random bytes partly made valid: it must
 * land where the frame says (the child exits 77) or die of a fault, and a
 * frame asking for IOPL 3 must not get it (`cli` must fault).
 *
 * The judgement.  The parent watches: a child that makes no progress for
 * 5 s is reported with its state from /proc and killed (a bug unless it
 * blocked SIGALRM itself); a child that stops is continued.  Every signal
 * but SIGKILL and SIGSTOP has a handler in the child; the fault signals'
 * one ends the child with exit status 64 + signal for a real fault and
 * 128 + signal for one the kernel forced (a frame it could not write).
 * Before each call the child records the signals that call could bring
 * on it: a kill of itself, SIGPIPE and SIGXFSZ from writes, SIGXCPU from
 * RLIMIT_CPU, faults after a lower stack limit, with a handler where
 * nothing runs or an alternate stack in use, and in the closing
 * rt_sigreturn.  Dying otherwise is a kernel bug, reported with the
 * child's last 16 calls.
 *
 * Checks: no call returned a kernel-internal errno (ERESTARTSYS and
 * friends, 512-530) or a value below -4095; unknown numbers gave ENOSYS;
 * rdi, rsi, rdx, r10, r8 and r9 came back unchanged; no call succeeded
 * with what Linux refuses (refused() below); every child ended as its
 * calls explain; the bugs this test found stay fixed (a check each, at
 * the end); and afterwards the system is alive (fork and wait work,
 * /proc/meminfo reads).  The outcome of every call is counted and printed
 * per system call.  A kernel crash shows as "Oops" or "Kernel panic" on
 * the console, which the QEMU harness rejects.  On Linux the same run is
 * made: Linux is the reference, so a check failing there is the test's
 * bug.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_SEED		0x5eed2024u
#define DEFAULT_CHILDREN	20
#define DEFAULT_CALLS		2000
#define MAX_CHILDREN_FACTOR	3	/* children started at most, per child asked for */
#define STALL_MS		5000	/* no progress this long: the child is stuck */
#define TIME_BUDGET_S		80	/* start no new child after this (runner: 120 s) */
#define TICK_US			10000	/* the child's SIGALRM period */

#define USER_TOP		0x00007ffffffff000ul	/* TASK_SIZE, Pageturn's and Linux's */
#define NONCANONICAL		0x0000800000000000ul
#define VSYSCALL_PAGE		0xffffffffff600000ul
#define CHILD_AS_LIMIT		(64ul << 20)
#define CHILD_FSIZE_LIMIT	(1ul << 20)
#define ARENA_PAGES		256
#define MAX_OWNED		32
#define MAX_MAPS		64

#define SIGBIT(s)		(1ull << ((s) - 1))
#define FAULT_SIGNALS		(SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | \
				 SIGBIT(SIGTRAP) | SIGBIT(SIGFPE) | SIGBIT(SIGSYS))
#define FAULT_EXIT		64	/* a fault caught: exit status 64 + signal */
#define FORCED_EXIT		128	/* a signal the kernel forced (SI_KERNEL): 128 + it */

/* The landing pads of the closing rt_sigreturn, the restorer and handler
 * a fuzzed rt_sigaction installs.  Plain instructions: none of them may
 * touch the stack, memory or the TLS, which the calls may have wrecked. */
__asm__(".text\n"
	"fuzz_landing:\n"
	"	mov $231, %eax\n"		/* exit_group(77) */
	"	mov $77, %edi\n"
	"	syscall\n"
	"	ud2\n"
	"fuzz_cli_landing:\n"
	"	cli\n"				/* faults unless IOPL is 3 */
	"	mov $231, %eax\n"
	"	mov $78, %edi\n"
	"	syscall\n"
	"	ud2\n"
	"fuzz_restorer:\n"
	"	mov $15, %eax\n"		/* rt_sigreturn */
	"	syscall\n"
	"	ud2\n"
	"fuzz_noop_handler:\n"
	"	ret\n"
	"fuzz_fault_handler:\n"		/* SA_SIGINFO: edi sig, rsi siginfo */
	"	mov 8(%rsi), %eax\n"		/* si_code: > 0 from the kernel */
	"	test %eax, %eax\n"
	"	jle 1f\n"
	"	mov fuzz_fault_record(%rip), %rcx\n"	/* si_code, si_addr, rip */
	"	mov %rax, (%rcx)\n"
	"	mov 16(%rsi), %r8\n"
	"	mov %r8, 8(%rcx)\n"
	"	mov 168(%rdx), %r8\n"		/* uc_mcontext.rip */
	"	mov %r8, 16(%rcx)\n"
	"	cmp $0x80, %eax\n"		/* SI_KERNEL: a frame it could not write */
	"	je 2f\n"
	"	add $64, %edi\n"		/* exit_group(FAULT_EXIT + sig) */
	"	jmp 3f\n"
	"2:	add $128, %edi\n"		/* exit_group(FORCED_EXIT + sig) */
	"3:	mov $231, %eax\n"
	"	syscall\n"
	"1:	ret\n");
/* Where the fault handler writes si_code, si_addr and the faulting rip. */
volatile uint64_t *fuzz_fault_record;
extern const char fuzz_landing[], fuzz_cli_landing[], fuzz_restorer[], fuzz_noop_handler[],
	fuzz_fault_handler[];

/* --- the calls ----------------------------------------------------------- */

/*
 * Argument kinds, one letter per argument in the table:
 *   f fd          d dirfd (or AT_FDCWD)   p path        t other string
 *   w out pointer r in pointer (structs)  v iovec array n count
 *   o file offset x flags                 m mode        a address (memory calls)
 *   l length      i int                   s signal      k pid (sanitised)
 *   u uid/gid     c command (per call)    - unused (random garbage)
 */
enum {
	C_LOOK	= 1 << 0,	/* only looks at its paths: any path allowed */
	C_CHANGE = 1 << 1,	/* changes what its paths and fds name: sandbox only */
	C_WRITE	= 1 << 2,	/* a write: SIGPIPE, SIGXFSZ possible */
	C_NOHOST = 1 << 3,	/* not on the build machine */
	C_FORK	= 1 << 4,	/* makes a process */
	C_MEM	= 1 << 5,	/* memory call: its a/l range is sanitised */
};

struct fuzz_call {
	const char *name;
	long nr;
	const char *args;
	unsigned int flags;
};

static const struct fuzz_call calls[] = {
	{ "read", SYS_read, "fwn", 0 },
	{ "write", SYS_write, "frn", C_WRITE },
	{ "readv", SYS_readv, "fvc", 0 },
	{ "writev", SYS_writev, "fvc", C_WRITE },
	{ "pread64", SYS_pread64, "fwno", 0 },
	{ "pwrite64", SYS_pwrite64, "frno", C_WRITE },
	{ "lseek", SYS_lseek, "foc", 0 },
	{ "sendfile", SYS_sendfile, "ffwn", C_WRITE },
	{ "open", SYS_open, "pcm", C_CHANGE },
	{ "openat", SYS_openat, "dpcm", C_CHANGE },
	{ "creat", SYS_creat, "pm", C_CHANGE },
	{ "close", SYS_close, "f", 0 },
	{ "stat", SYS_stat, "pw", C_LOOK },
	{ "lstat", SYS_lstat, "pw", C_LOOK },
	{ "fstat", SYS_fstat, "fw", 0 },
	{ "newfstatat", SYS_newfstatat, "dpwc", C_LOOK },
	{ "access", SYS_access, "pc", C_LOOK },
	{ "faccessat", SYS_faccessat, "dpc", C_LOOK },
	{ "faccessat2", SYS_faccessat2, "dpcc", C_LOOK },
	{ "getdents64", SYS_getdents64, "fwn", 0 },
	{ "readlink", SYS_readlink, "pwn", C_LOOK },
	{ "readlinkat", SYS_readlinkat, "dpwn", C_LOOK },
	{ "mkdir", SYS_mkdir, "pm", C_CHANGE },
	{ "mkdirat", SYS_mkdirat, "dpm", C_CHANGE },
	{ "rmdir", SYS_rmdir, "p", C_CHANGE },
	{ "unlink", SYS_unlink, "p", C_CHANGE },
	{ "unlinkat", SYS_unlinkat, "dpc", C_CHANGE },
	{ "rename", SYS_rename, "pp", C_CHANGE },
	{ "renameat", SYS_renameat, "dpdp", C_CHANGE },
	{ "renameat2", SYS_renameat2, "dpdpc", C_CHANGE },
	{ "mknod", SYS_mknod, "pmi", C_CHANGE },
	{ "mknodat", SYS_mknodat, "dpmi", C_CHANGE },
	{ "symlink", SYS_symlink, "pp", C_CHANGE },
	{ "symlinkat", SYS_symlinkat, "pdp", C_CHANGE },
	{ "link", SYS_link, "pp", C_CHANGE },
	{ "linkat", SYS_linkat, "dpdpc", C_CHANGE },
	{ "truncate", SYS_truncate, "po", C_CHANGE | C_WRITE },
	{ "ftruncate", SYS_ftruncate, "fo", C_CHANGE | C_WRITE },
	{ "fsync", SYS_fsync, "f", 0 },
	{ "fdatasync", SYS_fdatasync, "f", 0 },
	{ "sync", SYS_sync, "", 0 },
	{ "dup", SYS_dup, "f", 0 },
	{ "dup2", SYS_dup2, "ff", 0 },
	{ "dup3", SYS_dup3, "ffc", 0 },
	{ "fcntl", SYS_fcntl, "fci", 0 },
	{ "ioctl", SYS_ioctl, "fcw", 0 },
	{ "chdir", SYS_chdir, "p", C_CHANGE },
	{ "fchdir", SYS_fchdir, "f", C_CHANGE },
	{ "getcwd", SYS_getcwd, "wn", 0 },
	{ "umask", SYS_umask, "m", 0 },
	{ "chmod", SYS_chmod, "pm", C_CHANGE },
	{ "fchmod", SYS_fchmod, "fm", C_CHANGE },
	{ "fchmodat", SYS_fchmodat, "dpm", C_CHANGE },
	{ "chown", SYS_chown, "puu", C_CHANGE },
	{ "lchown", SYS_lchown, "puu", C_CHANGE },
	{ "fchown", SYS_fchown, "fuu", C_CHANGE },
	{ "fchownat", SYS_fchownat, "dpuuc", C_CHANGE },
	{ "utimensat", SYS_utimensat, "dprc", C_CHANGE },
	{ "pipe", SYS_pipe, "w", 0 },
	{ "pipe2", SYS_pipe2, "wc", 0 },
	{ "poll", SYS_poll, "rci", 0 },
	{ "ppoll", SYS_ppoll, "rcrrc", 0 },
	{ "select", SYS_select, "crrrr", 0 },
	{ "pselect6", SYS_pselect6, "crrrrr", 0 },
	{ "mount", SYS_mount, "tptxr", C_CHANGE | C_NOHOST },
	{ "statfs", SYS_statfs, "pw", C_LOOK },
	{ "fstatfs", SYS_fstatfs, "fw", 0 },
	{ "mmap", SYS_mmap, "alccfo", C_MEM },
	{ "munmap", SYS_munmap, "al", C_MEM },
	{ "mprotect", SYS_mprotect, "alc", C_MEM },
	{ "brk", SYS_brk, "i", 0 },
	{ "mremap", SYS_mremap, "allca", C_MEM },
	{ "madvise", SYS_madvise, "alc", C_MEM },
	{ "mlock", SYS_mlock, "al", C_MEM },
	{ "munlock", SYS_munlock, "al", C_MEM },
	{ "mlockall", SYS_mlockall, "c", 0 },
	{ "munlockall", SYS_munlockall, "", 0 },
	{ "msync", SYS_msync, "alc", C_MEM },
	{ "execve", SYS_execve, "prr", C_CHANGE },
	{ "fork", SYS_fork, "", C_FORK },
	{ "vfork", SYS_vfork, "", C_FORK },
	{ "clone", SYS_clone, "xwwwi", C_FORK },
	{ "wait4", SYS_wait4, "iwcw", 0 },
	{ "getpid", SYS_getpid, "", 0 },
	{ "getppid", SYS_getppid, "", 0 },
	{ "gettid", SYS_gettid, "", 0 },
	{ "setpgid", SYS_setpgid, "kk", 0 },
	{ "getpgid", SYS_getpgid, "i", 0 },
	{ "getpgrp", SYS_getpgrp, "", 0 },
	{ "setsid", SYS_setsid, "", 0 },
	{ "getsid", SYS_getsid, "i", 0 },
	{ "set_tid_address", SYS_set_tid_address, "w", 0 },
	{ "set_robust_list", SYS_set_robust_list, "rc", 0 },
	{ "arch_prctl", SYS_arch_prctl, "cw", 0 },
	{ "sched_yield", SYS_sched_yield, "", 0 },
	{ "rt_sigaction", SYS_rt_sigaction, "srwc", 0 },
	{ "rt_sigprocmask", SYS_rt_sigprocmask, "irwc", 0 },
	{ "rt_sigsuspend", SYS_rt_sigsuspend, "rc", 0 },
	{ "rt_sigpending", SYS_rt_sigpending, "wc", 0 },
	{ "sigaltstack", SYS_sigaltstack, "rw", 0 },
	{ "kill", SYS_kill, "ks", 0 },
	{ "tkill", SYS_tkill, "ks", 0 },
	{ "tgkill", SYS_tgkill, "kks", 0 },
	{ "pause", SYS_pause, "", 0 },
	{ "alarm", SYS_alarm, "i", 0 },
	{ "getitimer", SYS_getitimer, "cw", 0 },
	{ "setitimer", SYS_setitimer, "crw", 0 },
	{ "uname", SYS_uname, "w", 0 },
	{ "sethostname", SYS_sethostname, "rn", C_NOHOST },
	{ "getuid", SYS_getuid, "", 0 },
	{ "geteuid", SYS_geteuid, "", 0 },
	{ "getgid", SYS_getgid, "", 0 },
	{ "getegid", SYS_getegid, "", 0 },
	{ "setuid", SYS_setuid, "u", 0 },
	{ "setgid", SYS_setgid, "u", 0 },
	{ "getresuid", SYS_getresuid, "www", 0 },
	{ "getresgid", SYS_getresgid, "www", 0 },
	{ "getgroups", SYS_getgroups, "nw", 0 },
	{ "setgroups", SYS_setgroups, "nr", 0 },
	{ "sysinfo", SYS_sysinfo, "w", 0 },
	{ "getrandom", SYS_getrandom, "wnc", 0 },
	{ "prlimit64", SYS_prlimit64, "kcrw", 0 },
	{ "getrlimit", SYS_getrlimit, "cw", 0 },
	{ "setrlimit", SYS_setrlimit, "cr", 0 },
	{ "getrusage", SYS_getrusage, "cw", 0 },
	{ "times", SYS_times, "w", 0 },
	{ "reboot", SYS_reboot, "cccw", 0 },
	{ "nanosleep", SYS_nanosleep, "rw", 0 },
	{ "clock_nanosleep", SYS_clock_nanosleep, "ccrw", 0 },
	{ "clock_gettime", SYS_clock_gettime, "cw", 0 },
	{ "clock_getres", SYS_clock_getres, "cw", 0 },
	{ "gettimeofday", SYS_gettimeofday, "ww", 0 },
	{ "time", SYS_time, "w", 0 },
	{ "prctl", SYS_prctl, "cwiii", 0 },
	{ "rseq", SYS_rseq, "rnxi", 0 },
	{ "futex", SYS_futex, "wcirwi", 0 },
	{ "sched_getaffinity", SYS_sched_getaffinity, "icw", 0 },
	{ "getpriority", SYS_getpriority, "ci", 0 },
	{ "setpriority", SYS_setpriority, "cki", 0 },
	{ "syslog", SYS_syslog, "cwn", 0 },
};
#define NR_CALLS	(sizeof(calls) / sizeof(calls[0]))
#define UNKNOWN_SLOT	NR_CALLS		/* stats slot of the unknown numbers */
#define FINALE_SLOT	(-2)			/* cur_slot of the closing rt_sigreturn */

/* --- what the children tell the parent (a MAP_SHARED page set) ---------- */

#define NR_ERRNO	134	/* errno 1..133 counted each; 0 = any other */
#define MAX_ISSUES	12
#define RECENT		16

enum issue_kind {
	ISSUE_INTERNAL_ERRNO,	/* -512..-530 reached user space */
	ISSUE_BAD_RETURN,	/* a negative value below -4095 */
	ISSUE_NOT_ENOSYS,	/* an unknown number did not fail with ENOSYS */
	ISSUE_REGS,		/* an argument register changed */
	ISSUE_ACCEPTED,		/* accepted what Linux refuses (see refused()) */
	NR_ISSUE_KINDS
};

/* The check each kind of issue fails. */
static const char *const issue_checks[NR_ISSUE_KINDS] = {
	"no call returned a kernel-internal errno (ERESTARTSYS and the like, 512-530)",
	"no call returned a negative value below -4095",
	"every unknown system call number failed with ENOSYS",
	"every call kept rdi, rsi, rdx, r10, r8 and r9",
	"no call succeeded with what Linux refuses (a TLS, a fixed mapping, munmap or "
	"mremap outside user space, a new mapping over memory in use)",
};

struct issue {
	int kind, slot;
	uint64_t nr, args[6];
	int64_t ret;
};

struct call_stats {
	uint64_t calls, ok;
	uint32_t err[NR_ERRNO];
};

struct shared {
	struct call_stats stats[NR_CALLS + 1];
	uint64_t issue_count[NR_ISSUE_KINDS];
	int nr_issues;
	struct issue issues[MAX_ISSUES];
	/* The running child: */
	volatile uint64_t progress;	/* calls made so far */
	volatile int cur_slot;		/* the call in progress, -1 between calls */
	volatile uint64_t cur_nr, cur_args[6];
	volatile uint64_t legit;	/* signals it may die of (SIGBIT) */
	volatile uint64_t legit_fault;	/* faults it may take (SIGBIT) */
	volatile int done, finale;
	volatile uint64_t fault[3];	/* the caught fault: si_code, si_addr, rip */
	char setup_error[160];
	/* Its last calls, for the report of a death nothing explains. */
	struct issue last[RECENT];
};

static struct shared *sh;
static bool verbose;

/* --- random numbers: splitmix64 ------------------------------------------- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

#define PICK(array) ((array)[below(sizeof(array) / sizeof((array)[0]))])

static const uint64_t interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 16, 31, 32, 63, 64, 65, 127, 128, 255, 256, 511, 512, 1023,
	1024, 4095, 4096, 4097, 8191, 8192, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff,
	0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, -1ull, -2ull,
	-4095ull, -4096ull, -100ull,
};

static uint64_t rand_int(void)
{
	switch (below(10)) {
	case 0: case 1: case 2: case 3: case 4:
		return PICK(interesting);
	case 5: case 6:
		return below(65);
	case 7:
		return rnd() & 0xffff;
	case 8:
		return rnd() & 0xffffffff;
	default:
		return rnd();
	}
}

/* --- the child's memory ---------------------------------------------------- */

/*
 * Layout of the child's fuzzing memory, every region between PROT_NONE
 * guard pages:
 *
 *   bufA  4 pages RW   random bytes: buffers the kernel reads and writes
 *   bufB  1 page  RW   another, for "the end of a mapping" pointers
 *   ro    1 page  R    zeros and a few bytes: writes to it must fail
 *   strs  2 pages RW   path and name strings (remade every 64 calls)
 *   objs  1 page  RW   structures: timespecs, iovecs, sigactions... (same),
 *                      right after strs: one region for the path check
 *
 * and, apart from it, the arena: ARENA_PAGES of address space where the
 * memory calls may do as they like, with unmapped holes on both sides.
 */
#define PAGE		4096ul
#define BUF_A_PAGES	4
#define STR_PAGES	2
#define LAYOUT_PAGES	16

static char *layout, *buf_a, *buf_b, *ro_page, *strs, *objs, *arena;
static char strs_template[STR_PAGES * PAGE], objs_template[PAGE];

struct region {
	uint64_t start, end;
};

/* Readable regions the child keeps as they are: a path check may read them. */
static struct region readable[4];
/* Where memory calls may act: the arena and what fuzzed mmaps returned. */
static struct region owned[MAX_OWNED + 1];
static int nr_owned, next_owned;
/* The address space at the start, from /proc/self/maps. */
static struct region maps[MAX_MAPS];
static int nr_maps, nr_real_maps;	/* real: without the heap's room to grow */

/* What replaces a path or name that fails the checks (read-only data:
 * no call can have rewritten it). */
static const char safe_default[] = "f0";
static const char *const safe_names[] = {
	"f0", "f1", "f2", "f3", "d0", "d1", "d0/f2", "d0/x", "l0", "l1", "l2", ".", "", "x",
	"f0/", "d0/", "./f0", "d0//f2", "nonexistent/x", "d1/d2", "d0/f2/x", "l0/x",
};
/* Paths only looked at.  The last LOOK_OUTSIDE are directories (through
 * which a descriptor of one elsewhere could be had) or lead to the root
 * filesystem: a child working on that filesystem must not get a
 * descriptor of them, its descriptors there must all be of its own. */
static const char *const look_paths[] = {
	"/proc/self/maps", "/proc/1/maps", "/proc/1/stat", "/proc/self/cmdline",
	"/proc/self/limits", "/dev/null", "/nonexistent", "/proc/self/status",
	"/proc/1/cwd", "/proc/self/exe", "/proc", "/", "/etc/passwd", "/usr/tests",
};
#define LOOK_OUTSIDE	6
#define LOOK_SLOT	64	/* bytes between them in strs */
static bool sandbox_on_root;
static const char *const fs_names[] = { "tmpfs", "ext2", "ramfs", "nofs", "", "none", "f0", "ram0" };

/* Offsets of the strings in strs; of the structures in objs. */
static uint32_t str_off[64], nr_strs, look_off, look_n, fs_off, fs_n;
static uint32_t obj_off[64], nr_objs, sigset_obj, pselect_obj, altstack_obj, rlimit_obj;
static uint32_t sigaction_obj;
static uint32_t iov_off[8], nr_iovs;

static bool in_region(const struct region *r, uint64_t a, uint64_t len)
{
	return a >= r->start && a <= r->end && len <= r->end - a;
}

static void add_owned(uint64_t start, uint64_t len)
{
	if (len == 0 || start >= USER_TOP || len > USER_TOP - start)
		return;
	owned[1 + next_owned] = (struct region){ start, start + len };
	next_owned = (next_owned + 1) % MAX_OWNED;
	if (nr_owned < MAX_OWNED + 1)
		nr_owned++;
}

static const struct region *random_owned(void)
{
	return &owned[below(nr_owned)];
}

/* Could the kernel's writes through pointer p land in memory the child
 * itself relies on?  True for anything mapped when it started fuzzing
 * (its own buffers too: callers look at those first), and for the heap's
 * room to grow. */
static bool child_memory(uint64_t p)
{
	for (int i = 0; i < nr_maps; i++)
		if (p >= maps[i].start && p < maps[i].end)
			return true;
	return false;
}

static uint64_t random_unmapped(void)
{
	for (int tries = 0; tries < 8; tries++) {
		uint64_t a = 0x10000 + below((USER_TOP - 0x20000) / PAGE) * PAGE;
		bool used = child_memory(a) || child_memory(a + PAGE - 1);

		for (int i = 0; i < nr_owned && !used; i++)
			used = a + PAGE > owned[i].start && a < owned[i].end;
		if (!used)
			return a + below(PAGE);
	}
	return 0x10000;
}

static uint64_t small_tail(void)
{
	static const uint64_t tails[] = { 1, 2, 3, 4, 7, 8, 15, 16, 63, 64, 100, 255, 256, 4095 };

	return PICK(tails);
}

/* A pointer, of kind 'w' (written by the kernel), 'r' (read), 'p' (a
 * path), 't' (another string) or 'v' (an iovec array). */
static uint64_t gen_pointer(char kind)
{
	uint64_t a = (uint64_t)buf_a, b = (uint64_t)buf_b, ro = (uint64_t)ro_page;

	if (below(8) < 5) {
		switch (kind) {
		case 'p':
			if (below(4) == 0)
				return (uint64_t)strs + look_off +
				       LOOK_SLOT * below(look_n - (sandbox_on_root ? LOOK_OUTSIDE : 0));
			return (uint64_t)strs + str_off[below(nr_strs)];
		case 't':
			return (uint64_t)strs + fs_off + 16 * below(fs_n);
		case 'v':
			return (uint64_t)objs + iov_off[below(nr_iovs)];
		case 'r':
			return (uint64_t)objs + obj_off[below(nr_objs)];
		default:
			break;
		}
	}
	switch (below(26)) {
	case 0: return a;
	case 1: return a + below(BUF_A_PAGES * PAGE);
	case 2: return a + BUF_A_PAGES * PAGE - small_tail();	/* the end of a mapping */
	case 3: return a + PAGE * below(BUF_A_PAGES);
	case 4: return b;
	case 5: return b + PAGE - small_tail();
	case 6: return ro;
	case 7: return ro + PAGE - small_tail();
	case 8: return a - PAGE + below(PAGE);			/* PROT_NONE */
	case 9: return a + BUF_A_PAGES * PAGE;			/* PROT_NONE */
	case 10: {
		const struct region *r = random_owned();
		return r->start + below(r->end - r->start);
	}
	case 11: return (uint64_t)&rnd + below(64);		/* program text */
	case 12: return 0;
	case 13: return PICK(((const uint64_t[]){ 1, 8, 0xfff, 0x1000, 0xffff }));
	case 14: return random_unmapped();
	case 15: return KERNEL_DIRECT_MAP + below(1 << 20) * 8;
	case 16: return KERNEL_TEXT + below(1 << 20);
	case 17: return VSYSCALL_PAGE;
	case 18: return NONCANONICAL + below(1 << 20);
	case 19: return PICK(((const uint64_t[]){ 0xdead000000000000ull, 0x8000000000000000ull,
						   0xffff800000000000ull, -1ull, -4096ull }));
	case 20: return USER_TOP - small_tail();		/* the top of user space */
	case 21: return USER_TOP;
	case 22: return (uint64_t)strs + str_off[below(nr_strs)];
	case 23: return (uint64_t)objs + obj_off[below(nr_objs)];
	case 24: return (uint64_t)objs + iov_off[below(nr_iovs)];
	default: return rnd();
	}
}

/* --- argument values -------------------------------------------------------- */

static pid_t self_pid;
static bool pageturn, dropped_root;
static dev_t sandbox_dev;
static uint64_t saved_fs;

static uint64_t gen_fd(void)
{
	switch (below(20)) {
	case 0: return -1ull;
	case 1: return (uint64_t)AT_FDCWD;
	case 2: return 16 + below(48);
	case 3: return rand_int();
	case 4: return 255 + below(3);
	default: return below(16);
	}
}

static uint64_t gen_count(void)
{
	switch (below(10)) {
	case 0: case 1: case 2: return below(65);
	case 3: case 4: return PICK(((const uint64_t[]){ 4095, 4096, 4097, 8192, 16384, 16385, 65536 }));
	case 5: case 6: return PICK(interesting);
	case 7: return PICK(((const uint64_t[]){ 1ull << 31, 1ull << 32, 1ull << 62, -1ull / 2, -1ull }));
	default: return below(65536);
	}
}

static uint64_t gen_flags(void)
{
	switch (below(10)) {
	case 0: case 1: case 2: return 0;
	case 3: case 4: case 5: {
		uint64_t f = 0;

		for (int n = 1 + below(3); n; n--)
			f |= 1ull << below(32);
		return f;
	}
	case 6: case 7: return rnd() & 0xffffffff;
	case 8: return PICK(interesting);
	default: return rnd();
	}
}

static uint64_t gen_arg(char kind)
{
	switch (kind) {
	case 'f': return gen_fd();
	case 'd': return below(3) ? (uint64_t)AT_FDCWD : gen_fd();
	case 'p': case 't': case 'w': case 'r': case 'v': return gen_pointer(kind);
	case 'n': return gen_count();
	case 'l': return below(2) ? PAGE * (1 + below(16)) : gen_count();
	case 'o':
		switch (below(5)) {
		case 0: case 1: return 0;
		case 2: return below(PAGE * 4);
		case 3: return PICK(interesting);
		default: return rnd();
		}
	case 'x': return gen_flags();
	case 'm':
		return below(2) ? PICK(((const uint64_t[]){ 0644, 0755, 0, 0777, 04755, 01777, 0600 }))
				: (below(2) ? rnd() & 0xffff : rnd() & 0xffffffff);
	case 'a': {
		const struct region *r = random_owned();

		switch (below(6)) {
		case 0: return gen_pointer('w');
		case 1: return r->start + below((r->end - r->start) / PAGE) * PAGE + below(2) * 8;
		default: return r->start + below((r->end - r->start) / PAGE) * PAGE;
		}
	}
	case 'u': return PICK(((const uint64_t[]){ 0, 65534, -1ull, 1000, 0xffffffff, 1 }));
	case 's': return below(10) < 7 ? below(66) : rand_int();
	default: return rand_int();
	}
}

/* A pid that names only the child, its group, or nobody. */
static uint64_t safe_pid(void)
{
	switch (below(7)) {
	case 0: return self_pid;
	case 1: return 0;
	case 2: return (uint64_t)(int64_t)-self_pid;
	case 3: return 0x3ffffff0;			/* no such process */
	case 4: return (uint64_t)(int64_t)-0x3ffffff0;
	case 5: return (uint64_t)(int64_t)INT_MIN;
	default: return self_pid;
	}
}

/* --- keeping the child's own world intact ---------------------------------- */

/* Is the string at p one a changing call may be given?  Relative, no
 * "..", in [A-Za-z0-9._/-], and NUL-terminated within the region. */
static bool safe_string(const struct region *r, uint64_t p)
{
	const char *s = (const char *)p, *end = (const char *)r->end;

	if (s < end && *s == '/')
		return false;
	for (; s < end && *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-' || c == '/'))
			return false;
		if (c == '.' && s + 1 < end && s[1] == '.')
			return false;
	}
	return true;	/* unterminated: the kernel faults on the guard page */
}

/* A path argument of a changing call: a safe string, or a pointer the
 * kernel cannot read at all. */
static uint64_t sanitize_path(uint64_t p)
{
	for (int i = 0; i < 4; i++)
		if (p >= readable[i].start && p < readable[i].end)
			return safe_string(&readable[i], p) ? p : (uint64_t)safe_default;
	if (p >= (uint64_t)layout && p < (uint64_t)layout + LAYOUT_PAGES * PAGE)
		return p;	/* a guard page: PROT_NONE for good */
	for (int i = 0; i < nr_owned; i++)
		if (p >= owned[i].start && p < owned[i].end)
			return (uint64_t)safe_default;
	if (child_memory(p))
		return (uint64_t)safe_default;
	return p;
}

static long raw_syscall2(long nr, uint64_t a0, uint64_t a1)
{
	long ret = nr;

	__asm__ volatile("syscall" : "+a"(ret) : "D"(a0), "S"(a1) : "rcx", "r11", "memory");
	return ret;
}

/* Does descriptor fd (as the kernel reads it: an int) live on the
 * sandbox's filesystem?  AT_FDCWD does: the cwd never leaves it. */
static bool fd_in_sandbox(uint64_t fd, bool dirfd)
{
	struct stat st;

	if (dirfd && (int)fd == AT_FDCWD)
		return true;
	if (raw_syscall2(SYS_fstat, (int)fd, (uint64_t)&st) < 0)
		return true;		/* not open: EBADF is fine */
	return st.st_dev == sandbox_dev;
}

/* The region [addr, addr + len) a memory call acts on: inside one owned
 * region, or entirely outside user space; else moved into the arena.
 * lenient: a call Linux refuses whole when the range leaves user space
 * (munmap, mremap, mmap, mlock, msync) may also start in an owned region
 * and run past the top. */
static void sanitize_range(uint64_t *addr, uint64_t *len, bool lenient)
{
	uint64_t a = *addr, l = *len, pl = (l + PAGE - 1) & ~(PAGE - 1);
	bool huge = l > USER_TOP || pl < l || a + pl < a || a + pl > USER_TOP;
	const struct region *r;

	if (a >= USER_TOP || l == 0)
		return;
	for (int i = 0; i < nr_owned; i++) {
		if (a < owned[i].start || a >= owned[i].end)
			continue;
		if ((!huge && a + pl <= owned[i].end) || (huge && lenient))
			return;
	}
	r = random_owned();
	*addr = r->start + below((r->end - r->start) / PAGE) * PAGE;
	if (l > r->end - *addr)
		*len = r->end - *addr;
}

static bool writable(uint64_t p, uint64_t len)
{
	for (int i = 0; i < 4; i++)
		if (i != 2 && in_region(&readable[i], p, len))
			return true;
	return false;
}

static bool readable_at(uint64_t p, uint64_t len)
{
	for (int i = 0; i < 4; i++)
		if (in_region(&readable[i], p, len))
			return true;
	return false;
}

static bool in_owned(uint64_t p)
{
	for (int i = 0; i < nr_owned; i++)
		if (p >= owned[i].start && p < owned[i].end)
			return true;
	return false;
}

/* Memory whose contents the kernel would read but the child cannot
 * rewrite to taste: its text and data, the PROT_READ page, what the
 * memory calls may have mapped or protected.  A structure pointer there
 * is replaced by one to a structure of the child's own. */
static bool unrewritable(uint64_t p, uint64_t len)
{
	return !writable(p, len) && (readable_at(p, len) || child_memory(p) || in_owned(p));
}

/* A signal mask the child is about to hand the kernel, without SIGALRM:
 * cleared in place, or replaced by one of the child's own. */
static uint64_t keep_sigalrm(uint64_t p)
{
	if (unrewritable(p, 8))
		p = (uint64_t)objs + sigset_obj;	/* earlier calls may have written it */
	if (writable(p, 8))
		*(uint64_t *)p &= ~SIGBIT(SIGALRM);
	return p;
}

struct k_sigaction {
	uint64_t handler, flags, restorer, mask;
};

#define SA_RESTORER_FLAG 0x04000000ul

static bool onstack_handler, altstack_set, bad_handler;

/* The sigaction the kernel will read: SIG_DFL, SIG_IGN, the child's
 * handler for sig with its restorer, or one time in eight a handler at an
 * address where nothing runs (a delivery must then kill the child, not
 * the kernel).  Returns the pointer to hand over. */
static uint64_t sanitize_sigaction(int sig, uint64_t p)
{
	struct k_sigaction *ka = (struct k_sigaction *)p;

	bad_handler = false;
	if (unrewritable(p, sizeof(*ka)))
		p = (uint64_t)objs + sigaction_obj;
	if (!writable(p, sizeof(*ka)))
		return p;
	ka = (struct k_sigaction *)p;
	switch (below(8)) {
	case 0: case 1: ka->handler = (uint64_t)SIG_DFL; break;
	case 2: case 3: ka->handler = (uint64_t)SIG_IGN; break;
	case 4:
		ka->handler = PICK(((const uint64_t[]){ 0x10, NONCANONICAL, KERNEL_TEXT,
						   USER_TOP - 1, -1ull }));
		ka->flags |= SA_RESTORER_FLAG;
		ka->restorer = (uint64_t)fuzz_restorer;
		bad_handler = true;
		break;
	default:
		ka->handler = (uint64_t)fuzz_noop_handler;
		ka->flags |= SA_RESTORER_FLAG;
		ka->restorer = (uint64_t)fuzz_restorer;
		if (sig >= 1 && sig <= 64 && (SIGBIT(sig) & FAULT_SIGNALS)) {
			ka->handler = (uint64_t)fuzz_fault_handler;
			ka->flags |= SA_SIGINFO;
		}
		break;
	}
	return p;
}

/* An alternate signal stack whose top (where the kernel writes frames)
 * is inside the fuzzing memory or nowhere: Linux writes a frame wherever
 * ss_sp + ss_size points, the child's own bookkeeping too. */
static uint64_t sanitize_altstack(uint64_t p)
{
	uint64_t *ss = (uint64_t *)p, top;
	bool fuzz_memory;

	if (unrewritable(p, 24))
		p = (uint64_t)objs + altstack_obj;
	if (!writable(p, 24))
		return p;
	ss = (uint64_t *)p;
	top = ss[0] + ss[2] - 1;
	fuzz_memory = (top >= (uint64_t)layout && top < (uint64_t)layout + LAYOUT_PAGES * PAGE);
	for (int i = 0; i < nr_owned && !fuzz_memory; i++)
		fuzz_memory = top >= owned[i].start && top < owned[i].end;
	if (child_memory(top) && !fuzz_memory) {
		ss[0] = (uint64_t)buf_a;
		ss[2] = BUF_A_PAGES * PAGE;
	}
	return p;
}

/* The name PR_SET_NAME gives: printable, since the console prints it. */
static uint64_t sanitize_comm(uint64_t p)
{
	const unsigned char *s = (const unsigned char *)p;

	if (!readable_at(p, 16))
		return unrewritable(p, 16) ? (uint64_t)safe_default : p;
	for (int i = 0; i < 16 && s[i]; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return (uint64_t)safe_default;
	return p;
}

/* A new limit for resource at p, clamped where it must stay low. */
static uint64_t clamp_rlimit(unsigned int resource, uint64_t p)
{
	uint64_t *rl = (uint64_t *)p, cap;

	if (resource == RLIMIT_AS || resource == RLIMIT_DATA)
		cap = CHILD_AS_LIMIT;
	else if (resource == RLIMIT_FSIZE)
		cap = CHILD_FSIZE_LIMIT;
	else
		return p;
	if (unrewritable(p, 16))
		p = (uint64_t)objs + rlimit_obj;
	rl = (uint64_t *)p;
	if (writable(p, 16)) {
		rl[0] = rl[0] > cap ? cap : rl[0];
		rl[1] = rl[1] > cap ? cap : rl[1];
	}
	return p;
}

/* A value from the call's own list, three times in four; else any. */
#define ONE_OF(...) (below(4) ? PICK(((const uint64_t[]){ __VA_ARGS__ })) : rand_int())

#define AT_FLAGS	0, AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR, AT_SYMLINK_FOLLOW, AT_EMPTY_PATH, \
			AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH, AT_EACCESS

/* A 'c' argument: the values that mean something to this call. */
static uint64_t gen_command(long nr, int i)
{
	switch (nr) {
	case SYS_ioctl:
		return ONE_OF(FIONBIO, FIOCLEX, FIONCLEX, FIONREAD, 0x5401 /* TCGETS */,
			      0x5402 /* TCSETS */, 0x5413 /* TIOCGWINSZ */, 0x5414 /* TIOCSWINSZ */,
			      0x540f /* TIOCGPGRP */, 0x5429 /* TIOCGSID */, 0x540b /* TCFLSH */,
			      0x540a /* TCXONC */, 0x5409 /* TCSBRK */, 0x5411 /* TIOCOUTQ */,
			      0x5424 /* TIOCGETD */);
	case SYS_fcntl:
		return ONE_OF(F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETLK, F_SETLK, F_SETLKW,
			      F_DUPFD_CLOEXEC, F_GETOWN, 1032 /* F_GETPIPE_SZ */, 1031 /* F_SETPIPE_SZ */);
	case SYS_prctl:
		return below(4) ? PICK(((const uint64_t[]){ 15 /* PR_SET_NAME */, 16 /* PR_GET_NAME */,
							    3, 4, 2, 1 }))
				: 1000 + below(0x4fff0000);
	case SYS_arch_prctl:
		return ONE_OF(0x1002 /* SET_FS */, 0x1003 /* GET_FS */, 0x1001, 0x1004);
	case SYS_madvise:
		return ONE_OF(MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED);
	case SYS_futex:
		/* WAIT, WAKE and their bitset and private forms; no PI futexes,
		 * whose owner could be a process of the build machine. */
		return PICK(((const uint64_t[]){ 0, 1, 9, 10, 128, 129, 137, 138, 256, 265, 3, 4, 5,
						 99, -1ull }));
	case SYS_prlimit64:
	case SYS_setrlimit:
	case SYS_getrlimit:
		return below(8) ? below(16) : rand_int();
	case SYS_getpriority:
	case SYS_setpriority:
		return below(4) ? below(2) : rand_int();	/* PRIO_PROCESS, PRIO_PGRP */
	case SYS_syslog:
		return ONE_OF(0, 1, 2, 3, 4, 9, 10);
	case SYS_reboot:
		if (i == 0)
			return below(2) ? 0xfee1dead : rand_int();
		return i == 1 ? rand_int() : ONE_OF(0x4321fedc, 0xcdef0123, 0x89abcdef, 0, 0xa1b2c3d4);
	case SYS_mmap:
		if (i == 2)
			return ONE_OF(PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
				      PROT_READ | PROT_EXEC, PROT_WRITE, 7);
		return ONE_OF(MAP_PRIVATE | MAP_ANONYMOUS, MAP_SHARED | MAP_ANONYMOUS, MAP_PRIVATE,
			      MAP_SHARED, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			      MAP_SHARED | MAP_FIXED, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN,
			      MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			      MAP_PRIVATE | MAP_POPULATE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED);
	case SYS_mprotect:
		return ONE_OF(PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_EXEC, 7,
			      PROT_READ | PROT_GROWSDOWN);
	case SYS_mremap:
		return ONE_OF(0, MREMAP_MAYMOVE, MREMAP_MAYMOVE | MREMAP_FIXED, 5 /* | DONTUNMAP */);
	case SYS_msync:
		return ONE_OF(MS_ASYNC, MS_SYNC, MS_INVALIDATE, MS_SYNC | MS_INVALIDATE,
			      MS_ASYNC | MS_SYNC);
	case SYS_mlockall:
		return ONE_OF(MCL_CURRENT, MCL_FUTURE, MCL_CURRENT | MCL_FUTURE, 4 /* MCL_ONFAULT */);
	case SYS_open:
	case SYS_openat:
		return ONE_OF(O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC, O_RDWR | O_CREAT,
			      O_RDONLY | O_DIRECTORY, O_PATH, O_WRONLY | O_APPEND,
			      O_CREAT | O_EXCL | O_RDWR, O_TMPFILE | O_RDWR, O_NOFOLLOW,
			      O_RDONLY | O_NONBLOCK | O_CLOEXEC, O_RDWR | O_NOCTTY);
	case SYS_access:
	case SYS_faccessat:
		return below(4) ? below(8) : rand_int();
	case SYS_faccessat2:
		return i == 2 ? (below(4) ? below(8) : rand_int()) : ONE_OF(AT_FLAGS);
	case SYS_newfstatat:
	case SYS_unlinkat:
	case SYS_linkat:
	case SYS_fchownat:
	case SYS_utimensat:
		return ONE_OF(AT_FLAGS);
	case SYS_renameat2:
		return ONE_OF(0, 1 /* NOREPLACE */, 2 /* EXCHANGE */, 4 /* WHITEOUT */, 3);
	case SYS_lseek:
		return ONE_OF(SEEK_SET, SEEK_CUR, SEEK_END, 3 /* SEEK_DATA */, 4 /* SEEK_HOLE */);
	case SYS_dup3:
	case SYS_pipe2:
		return ONE_OF(0, O_CLOEXEC, O_NONBLOCK, O_CLOEXEC | O_NONBLOCK, O_DIRECT);
	case SYS_readv:
	case SYS_writev:
	case SYS_poll:
		return below(4) ? below(9) : rand_int();	/* vlen, nfds */
	case SYS_select:
	case SYS_pselect6:
		return ONE_OF(0, 1, 4, 8, 16, 64, 1024, 1025);
	case SYS_rt_sigaction:
	case SYS_rt_sigprocmask:
	case SYS_rt_sigsuspend:
	case SYS_rt_sigpending:
	case SYS_ppoll:
		return ONE_OF(8, 8, 8, 0, 4, 16, 128);		/* sigsetsize */
	case SYS_clock_gettime:
	case SYS_clock_getres:
	case SYS_clock_nanosleep:
		if (nr == SYS_clock_nanosleep && i == 1)
			return ONE_OF(0, TIMER_ABSTIME);
		return below(4) ? below(12) : rand_int();	/* clock ids */
	case SYS_getitimer:
	case SYS_setitimer:
		return below(4) ? below(3) : rand_int();
	case SYS_getrusage:
		return ONE_OF(RUSAGE_SELF, RUSAGE_CHILDREN, 1 /* RUSAGE_THREAD */);
	case SYS_wait4:
		return ONE_OF(0, WNOHANG, WUNTRACED | WNOHANG, WCONTINUED | WNOHANG, __WALL | WNOHANG,
			      WEXITED);
	case SYS_set_robust_list:
		return ONE_OF(24);
	case SYS_sched_getaffinity:
		return ONE_OF(8, 128, 0, 7, 4096);
	case SYS_getrandom:
		return below(4) ? below(8) : rand_int();
	default:
		return rand_int();
	}
}

/* Rewrite what must not reach the kernel as drawn (see the essay). */
static void sanitize(const struct fuzz_call *c, uint64_t *a)
{
	const char *k = c->args;

	for (int i = 0; k[i]; i++) {
		if (k[i] == 'k')
			a[i] = safe_pid();
		if (c->flags & C_CHANGE) {
			if (k[i] == 'p')
				a[i] = sanitize_path(a[i]);
			if ((k[i] == 'f' && !fd_in_sandbox(a[i], false)) ||
			    (k[i] == 'd' && !fd_in_sandbox(a[i], true)))
				a[i] = k[i] == 'd' ? (uint64_t)AT_FDCWD : -1ull;
		}
	}
	switch (c->nr) {
	case SYS_open:
	case SYS_openat: {
		/* O_RDONLY without O_CREAT, O_TRUNC or O_TMPFILE may open anything
		 * (on the root filesystem: the paths looked at, not what calls
		 * wrote in the buffers, such as /proc/self/exe's target). */
		int pi = c->nr == SYS_openat, fl = (int)a[pi + 1];

		if (!(fl & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_TMPFILE)) && below(2))
			a[pi] = sandbox_on_root ? (uint64_t)strs + look_off +
						  LOOK_SLOT * below(look_n - LOOK_OUTSIDE)
						: gen_pointer('p');
		break;
	}
	case SYS_mknod:
	case SYS_mknodat: {
		int mi = c->nr == SYS_mknodat ? 2 : 1;

		if (S_ISCHR(a[mi]) || S_ISBLK(a[mi]))
			a[mi] = (a[mi] & ~(uint64_t)S_IFMT) | S_IFREG;
		break;
	}
	case SYS_mount:
		/* No proc or devtmpfs inside the sandbox: their links lead out. */
		if (unrewritable(a[2], 9) ||
		    (readable_at(a[2], 5) && !memcmp((const void *)a[2], "proc", 5)) ||
		    (readable_at(a[2], 9) && !memcmp((const void *)a[2], "devtmpfs", 9)))
			a[2] = (uint64_t)strs + fs_off;		/* "tmpfs" */
		a[3] &= ~(uint64_t)(MS_BIND | MS_MOVE);
		break;
	case SYS_ioctl:
		if ((int)a[0] >= 0 && (int)a[0] <= 2 &&
		    ((uint32_t)a[1] == 0x540e || (uint32_t)a[1] == 0x5422 || (uint32_t)a[1] == 0x5410))
			a[1] = FIONREAD;	/* TIOCSCTTY, TIOCNOTTY, TIOCSPGRP */
		break;
	case SYS_fcntl:
		if ((uint32_t)a[1] == F_SETOWN || (uint32_t)a[1] == 15 /* F_SETOWN_EX */ ||
		    (uint32_t)a[1] == 10 /* F_SETSIG */)
			a[1] = F_GETOWN;
		break;
	case SYS_mmap: {
		uint64_t fl = a[3];

		if (fl & (MAP_FIXED | 0x100000 /* MAP_FIXED_NOREPLACE */))
			sanitize_range(&a[0], &a[1], true);
		break;
	}
	case SYS_munmap:
	case SYS_mlock:
	case SYS_munlock:
	case SYS_msync:
		sanitize_range(&a[0], &a[1], true);
		break;
	case SYS_mprotect:
	case SYS_madvise:
		sanitize_range(&a[0], &a[1], false);
		break;
	case SYS_mremap:
		sanitize_range(&a[0], &a[1], true);
		if (a[3] & 2 /* MREMAP_FIXED */)
			sanitize_range(&a[4], &a[2], true);
		break;
	case SYS_clone:
		/* A thread of the child's on Linux could take its signals on
		 * the child's stack. */
		a[0] &= ~(uint64_t)(CLONE_PARENT | (pageturn ? 0 : CLONE_THREAD));
		/* Its exit signal comes with si_code CLD_EXITED, which a fault
		 * handler would take for a fault. */
		if ((a[0] & 0xff) >= 1 && (a[0] & 0xff) <= 64 && (SIGBIT(a[0] & 0xff) & FAULT_SIGNALS))
			a[0] = (a[0] & ~0xfful) | SIGCHLD;
		break;
	case SYS_rt_sigaction:
		if ((int)a[0] == SIGALRM)
			a[0] = SIGUSR2;
		a[1] = sanitize_sigaction((int)a[0], a[1]);
		break;
	case SYS_rt_sigprocmask:
	case SYS_rt_sigsuspend: {
		int si = c->nr == SYS_rt_sigprocmask;

		a[si] = keep_sigalrm(a[si]);
		break;
	}
	case SYS_ppoll:
		a[3] = keep_sigalrm(a[3]);
		break;
	case SYS_pselect6:
		if (unrewritable(a[5], 16))
			a[5] = (uint64_t)objs + pselect_obj;
		if (writable(a[5], 16))
			*(uint64_t *)a[5] = keep_sigalrm(*(uint64_t *)a[5]);
		break;
	case SYS_setrlimit:
		a[1] = clamp_rlimit((unsigned int)a[0], a[1]);
		break;
	case SYS_prlimit64:
		a[2] = clamp_rlimit((unsigned int)a[1], a[2]);
		break;
	case SYS_syslog:
		if ((int)a[0] >= 6 && (int)a[0] <= 8)	/* console off, on, level */
			a[0] = 10;
		break;
	case SYS_reboot:
		if ((uint32_t)a[0] == 0xfee1dead && ((uint32_t)a[1] == 0x28121969 ||
		    (uint32_t)a[1] == 0x05121996 || (uint32_t)a[1] == 0x16041998 ||
		    (uint32_t)a[1] == 0x20112000))
			a[1] = 0;
		break;
	case SYS_prctl:
		if ((int)a[0] == 22 /* PR_SET_SECCOMP */ || (int)a[0] == 35 /* PR_SET_MM */ ||
		    (int)a[0] == 26 /* PR_SET_TSC */)
			a[0] = 16;
		if ((int)a[0] == 15 /* PR_SET_NAME */)
			a[1] = sanitize_comm(a[1]);
		break;
	case SYS_sigaltstack:
		a[0] = sanitize_altstack(a[0]);
		break;
	default:
		break;
	}
}

/* --- making the calls ----------------------------------------------------- */

/* System call nr with arguments a: its rax; *kept tells whether the six
 * argument registers came back as they went in. */
static long call6(long nr, const uint64_t *a, bool *kept)
{
	register uint64_t r10 __asm__("r10") = a[3];
	register uint64_t r8 __asm__("r8") = a[4];
	register uint64_t r9 __asm__("r9") = a[5];
	uint64_t rdi = a[0], rsi = a[1], rdx = a[2];
	long ret = nr;

	__asm__ volatile("syscall"
			 : "+a"(ret), "+D"(rdi), "+S"(rsi), "+d"(rdx), "+r"(r10), "+r"(r8), "+r"(r9)
			 :
			 : "rcx", "r11", "memory");
	*kept = rdi == a[0] && rsi == a[1] && rdx == a[2] && r10 == a[3] && r8 == a[4] &&
		r9 == a[5];
	return ret;
}

/* fork, vfork, clone: the new process leaves at once with _exit(0),
 * touching neither stack nor memory (clone may have given it any stack). */
static long call_fork(long nr, const uint64_t *a)
{
	register uint64_t r10 __asm__("r10") = a[3];
	register uint64_t r8 __asm__("r8") = a[4];
	long ret = nr;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "mov $60, %%eax\n\t"
			 "xor %%edi, %%edi\n\t"
			 "syscall\n\t"
			 "ud2\n"
			 "1:"
			 : "+a"(ret)
			 : "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

/* SIGALRM every TICK_US, to break the child out of calls that sleep. */
static void arm_tick(void)
{
	struct itimerval it = { { 0, TICK_US }, { 0, TICK_US } };

	raw_syscall2(SYS_setitimer, ITIMER_REAL, (uint64_t)&it);
}

static void add_issue(int kind, int slot, uint64_t nr, const uint64_t *a, long ret)
{
	struct issue *is;

	sh->issue_count[kind]++;
	if (sh->nr_issues >= MAX_ISSUES)
		return;
	is = &sh->issues[sh->nr_issues++];
	is->kind = kind;
	is->slot = slot;
	is->nr = nr;
	memcpy(is->args, a, sizeof(is->args));
	is->ret = ret;
}

/* Before a call: the signals it may bring on the child (sh->legit: sent
 * or forced on it) and the faults it may make the child take
 * (sh->legit_fault: with a fault's own si_code). */
static void note_may_kill(const struct fuzz_call *c, const uint64_t *a)
{
	uint64_t sent = 0, faults = 0;
	int sig = 0;

	if (c->flags & C_WRITE)
		sent |= SIGBIT(SIGPIPE) | SIGBIT(SIGXFSZ);
	switch (c->nr) {
	case SYS_kill:
	case SYS_tkill:
		sig = (int)a[1];
		break;
	case SYS_tgkill:
		sig = (int)a[2];
		break;
	case SYS_execve:
		/* A failure past the point of no return. */
		sent |= SIGBIT(SIGSEGV) | SIGBIT(SIGKILL);
		break;
	case SYS_setitimer:
		sent |= SIGBIT(SIGVTALRM) | SIGBIT(SIGPROF);
		break;
	case SYS_setrlimit:
	case SYS_prlimit64: {
		unsigned int res = (unsigned int)a[c->nr == SYS_prlimit64];

		if (res == RLIMIT_CPU)
			sent |= SIGBIT(SIGXCPU) | SIGBIT(SIGKILL);
		else if (res == RLIMIT_FSIZE)
			sent |= SIGBIT(SIGXFSZ);
		else if (res == RLIMIT_STACK || res == RLIMIT_AS)
			faults |= SIGBIT(SIGSEGV) | SIGBIT(SIGBUS);	/* the stack cannot grow */
		break;
	}
	case SYS_clone:
		sig = (int)(a[0] & 0xff);
		break;
	case SYS_prctl:
		sig = (int)a[0] == 1 ? (int)a[1] : 0;	/* PR_SET_PDEATHSIG */
		break;
	default:
		break;
	}
	if (sig >= 1 && sig <= 64)
		sent |= SIGBIT(sig);
	sh->legit |= sent;
	sh->legit_fault |= faults;
}

/* Did the call succeed where Linux fails it, or give what cannot be? */
static bool refused(const struct fuzz_call *c, const uint64_t *a, long ret)
{
	uint64_t end;

	if (ret < 0)
		return false;
	switch (c->nr) {
	case SYS_clone:
		return (a[0] & CLONE_SETTLS) && a[4] >= USER_TOP;
	case SYS_arch_prctl:
		return (int)a[0] == 0x1002 /* ARCH_SET_FS */ && a[1] >= USER_TOP;
	case SYS_munmap:
	case SYS_mremap:
		return a[0] >= USER_TOP || (uint64_t)ret >= USER_TOP;
	case SYS_mmap:
		end = (uint64_t)ret + ((a[1] + PAGE - 1) & ~(PAGE - 1));
		if ((ret & (PAGE - 1)) || end > USER_TOP || end <= (uint64_t)ret)
			return true;
		/* A new mapping goes where nothing is: not over the child's
		 * own memory (its first nr_real_maps maps but the arena). */
		if (a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE))
			return false;
		for (int i = 0; i < nr_real_maps; i++)
			if ((uint64_t)ret < maps[i].end && end > maps[i].start &&
			    !(maps[i].start < owned[0].end && maps[i].end > owned[0].start))
				return true;
		return false;
	default:
		return false;
	}
}

/* After a call: what it changed that the child must know or undo. */
static void after_call(const struct fuzz_call *c, const uint64_t *a, long ret)
{
	switch (c->nr) {
	case SYS_arch_prctl:
		if ((int)a[0] == 0x1002)		/* ARCH_SET_FS */
			raw_syscall2(SYS_arch_prctl, 0x1002, saved_fs);
		break;
	case SYS_alarm:
	case SYS_setitimer:
		arm_tick();
		break;
	case SYS_mmap:
		if (ret > 0 && (uint64_t)ret < USER_TOP && !(ret & (PAGE - 1)))
			add_owned(ret, (a[1] + PAGE - 1) & ~(PAGE - 1));
		break;
	case SYS_mremap:
		if (ret > 0 && (uint64_t)ret < USER_TOP && !(ret & (PAGE - 1)))
			add_owned(ret, (a[2] + PAGE - 1) & ~(PAGE - 1));
		break;
	/* Like Linux, sigaltstack and rt_sigaction set the new state before
	 * they write the old one: -EFAULT may come after the change. */
	case SYS_sigaltstack:
		if ((ret == 0 || ret == -EFAULT) && readable_at(a[0], 24) &&
		    !(((uint32_t *)a[0])[2] & SS_DISABLE))
			altstack_set = true;
		break;
	case SYS_rt_sigaction:
		if ((ret == 0 || ret == -EFAULT) && writable(a[1], 32) &&
		    (((struct k_sigaction *)a[1])->flags & SA_ONSTACK))
			onstack_handler = true;
		if ((ret == 0 || ret == -EFAULT) && bad_handler) {	/* its delivery faults */
			sh->legit |= SIGBIT(SIGSEGV) | SIGBIT(SIGBUS);
			sh->legit_fault |= SIGBIT(SIGSEGV) | SIGBIT(SIGBUS);
		}
		break;
	case SYS_rseq:
		if (ret == 0)
			sh->legit_fault |= SIGBIT(SIGSEGV);	/* the kernel writes it */
		break;
	default:
		break;
	}
	if (altstack_set && onstack_handler)
		sh->legit |= SIGBIT(SIGSEGV) | SIGBIT(SIGBUS);
}

static void count(int slot, long ret)
{
	struct call_stats *st = &sh->stats[slot];

	st->calls++;
	if (ret >= 0 || ret < -4095)
		st->ok++;
	else
		st->err[-ret < NR_ERRNO ? -ret : 0]++;
}

/* One random call. */
static void fuzz_one(void)
{
	static const uint64_t linux_gap[] = { 1024, 1025, 2000, 4096, 65536, 0x3fffffff,
		0x10000000, -1ull };
	const struct fuzz_call *c;
	uint64_t a[6], nr;
	int slot;
	bool kept = true;
	long ret;

	for (int i = 0; i < 6; i++)
		a[i] = rand_int();
	if (below(40) == 0) {
		slot = UNKNOWN_SLOT;
		nr = below(2) ? 1024 + below(0x3fffffff - 1024) : PICK(linux_gap);
		if (pageturn && below(4) == 0 && nr != -1ull)
			nr |= (1 + below(0xffff)) << 32;	/* Linux truncates: Pageturn only */
		c = NULL;
	} else {
		do
			slot = (int)below(NR_CALLS);
		while (!pageturn && (calls[slot].flags & C_NOHOST));
		c = &calls[slot];
		nr = c->nr;
		for (int i = 0; c->args[i]; i++) {
			if (c->args[i] == 'c')
				a[i] = gen_command(c->nr, i);
			else if (c->args[i] != '-' && below(16))
				a[i] = gen_arg(c->args[i]);
		}
		sanitize(c, a);
		note_may_kill(c, a);
	}
	sh->cur_nr = nr;
	memcpy((void *)sh->cur_args, a, sizeof(a));
	sh->cur_slot = slot;
	if (c && (c->flags & C_FORK))
		ret = call_fork(c->nr, a);
	else
		ret = call6((long)nr, a, &kept);
	sh->cur_slot = -1;
	sh->last[sh->progress % RECENT] = (struct issue){ 0, slot, nr,
		{ a[0], a[1], a[2], a[3], a[4], a[5] }, ret };
	if (c && refused(c, a, ret))
		add_issue(ISSUE_ACCEPTED, slot, nr, a, ret);
	if (c)
		after_call(c, a, ret);
	count(slot, ret);
	if (ret >= -530 && ret <= -512)
		add_issue(ISSUE_INTERNAL_ERRNO, slot, nr, a, ret);
	else if (ret < -4095 && (!c || (c->nr != SYS_mmap && c->nr != SYS_mremap && c->nr != SYS_brk &&
					c->nr != SYS_lseek && c->nr != SYS_times)))
		add_issue(ISSUE_BAD_RETURN, slot, nr, a, ret);
	if (!c && ret != -ENOSYS)
		add_issue(ISSUE_NOT_ENOSYS, slot, nr, a, ret);
	if (!kept)
		add_issue(ISSUE_REGS, slot, nr, a, ret);
	sh->progress++;
}

/* The last act, one time in three: rt_sigreturn from a frame of random
 * bytes, partly made valid.  Linux's rt_sigframe: the return address,
 * then the ucontext the kernel reads at rsp (uc_mcontext at +40, rip at
 * +40+128, eflags +136, cs/gs/fs/ss +144, fpstate +184, uc_sigmask +296). */
static __attribute__((noreturn)) void finale(void)
{
	char *uc = buf_a + PAGE;
	char *mc = uc + 40;
	uint64_t eflags;

	for (size_t i = 0; i < 2 * PAGE; i += 8)
		*(uint64_t *)(uc + i) = rnd();
	eflags = below(2) ? rnd() : 0x202 | (1ull << below(22));
	*(uint64_t *)(mc + 136) = eflags;
	if (below(4))
		*(uint64_t *)(mc + 128) = (uint64_t)((eflags & 0x3000) ? fuzz_cli_landing : fuzz_landing);
	if (below(4))
		*(uint64_t *)(mc + 120) = (uint64_t)(buf_b + PAGE - 64);	/* rsp */
	if (below(2))
		*(uint16_t *)(mc + 144) = PICK(((const uint16_t[]){ 0x33, 0x2b, 0x23, 0x10, 0x18, 0x08,
								   0x13, 0x1b, 0 }));
	if (below(2))
		*(uint16_t *)(mc + 150) = PICK(((const uint16_t[]){ 0x2b, 0x33, 0x18, 0x10, 0, 3 }));
	switch (below(4)) {
	case 0: *(uint64_t *)(mc + 184) = 0; break;
	case 1: *(uint64_t *)(mc + 184) = (uint64_t)(buf_a + 3 * PAGE); break;	/* random FXSAVE */
	case 2: *(uint64_t *)(mc + 184) = gen_pointer('r'); break;
	default: break;
	}
	sh->legit |= FAULT_SIGNALS;
	sh->legit_fault |= FAULT_SIGNALS;
	sh->finale = 1;
	sh->cur_nr = SYS_rt_sigreturn;
	memset((void *)sh->cur_args, 0, sizeof(sh->cur_args));
	sh->cur_slot = FINALE_SLOT;
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "mov $15, %%eax\n\t"
			 "syscall\n\t"
			 "ud2"
			 :
			 : "r"(uc)
			 : "memory");
	__builtin_unreachable();
}

/* --- the child's setup ------------------------------------------------------- */

static __attribute__((noreturn, format(printf, 1, 2))) void setup_failed(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sh->setup_error, sizeof(sh->setup_error), fmt, ap);
	va_end(ap);
	_exit(100);
}

/* The address space now, from /proc/self/maps, read without stdio: a
 * FILE's buffer would be freed and its pages reused by a later mmap. */
static void read_maps(void)
{
	static char text[32768];
	size_t len = 0;
	ssize_t n;
	unsigned long start, end;
	int fd = open("/proc/self/maps", O_RDONLY);

	if (fd < 0)
		setup_failed("/proc/self/maps: %s", strerror(errno));
	while (len < sizeof(text) - 1 && (n = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += n;
	close(fd);
	text[len] = '\0';
	for (char *line = text; *line && nr_maps < MAX_MAPS; line = strchr(line, '\n') + 1) {
		if (sscanf(line, "%lx-%lx", &start, &end) == 2)
			maps[nr_maps++] = (struct region){ start, end };
		if (!strchr(line, '\n'))
			break;
	}
	nr_real_maps = nr_maps;
	/* The heap may grow (brk is fuzzed too): keep clear of it. */
	start = (unsigned long)sbrk(0);
	if (nr_maps < MAX_MAPS)
		maps[nr_maps++] = (struct region){ start - (start & (PAGE - 1)), start + CHILD_AS_LIMIT };
}

/* Strings: the safe names, the paths only looked at (16-byte slots
 * LOOK_SLOT bytes apart), the filesystem names, a 300-byte name and a path of
 * 4500 bytes; then, in objs, the structures. */
static void build_templates(void)
{
	char *s = strs_template;
	uint32_t off = 0;
	struct iovec *iov;
	char *o = objs_template;
	uint64_t ob = (uint64_t)objs, sb = (uint64_t)strs;

#define STR(text) do { str_off[nr_strs++] = off; strcpy(s + off, text); off += strlen(text) + 1; } while (0)
	for (size_t i = 0; i < sizeof(safe_names) / sizeof(safe_names[0]); i++)
		STR(safe_names[i]);
	memset(s + off, 'a', 300);
	str_off[nr_strs++] = off;
	off += 301;
	off = (off + 15) & ~15u;
	look_off = off;
	look_n = sizeof(look_paths) / sizeof(look_paths[0]);
	for (uint32_t i = 0; i < look_n; i++)
		strcpy(s + look_off + LOOK_SLOT * i, look_paths[i]);
	off = look_off + LOOK_SLOT * look_n;
	fs_off = off;
	fs_n = sizeof(fs_names) / sizeof(fs_names[0]);
	for (uint32_t i = 0; i < fs_n; i++)
		strcpy(s + fs_off + 16 * i, fs_names[i]);
	off = fs_off + 16 * fs_n;
	str_off[nr_strs++] = off;		/* a/a/a/... past PATH_MAX */
	for (int i = 0; i < 2250; i++)
		memcpy(s + off + 2 * i, "a/", 2);
	off += 4500;
	s[off++] = '\0';
	if (off > sizeof(strs_template))
		setup_failed("string templates overflow");
#undef STR

	off = 0;
#define OBJ(type, ...) do { obj_off[nr_objs++] = off; *(type *)(o + off) = (type)__VA_ARGS__; \
			    off = (off + sizeof(type) + 15) & ~15u; } while (0)
	OBJ(struct timespec, { 0, 1000000 });
	OBJ(struct timespec, { 0, 0 });
	OBJ(struct timespec, { -1, 0 });
	OBJ(struct timespec, { 0, 1000000000 });
	OBJ(struct timespec, { 0x7fffffffffffffffl, 999999999 });
	OBJ(struct itimerval, { { 0, 0 }, { 0, 10000 } });
	OBJ(struct itimerval, { { 1, 0 }, { -1, 5 } });
	OBJ(struct rlimit, { 0, 0 });
	rlimit_obj = off;
	OBJ(struct rlimit, { 4096, 8192 });
	OBJ(struct rlimit, { RLIM_INFINITY, RLIM_INFINITY });
	OBJ(struct rlimit, { 10, 5 });
	sigaction_obj = off;
	OBJ(struct k_sigaction, { (uint64_t)fuzz_noop_handler, SA_RESTORER_FLAG | SA_SIGINFO,
				  (uint64_t)fuzz_restorer, 0 });
	OBJ(struct k_sigaction, { (uint64_t)SIG_IGN, 0, 0, -1ull });
	sigset_obj = off;
	OBJ(uint64_t, ~SIGBIT(SIGALRM));
	OBJ(uint64_t, SIGBIT(SIGCHLD));
	altstack_obj = off;
	OBJ(stack_t, { (void *)(buf_a), 0, BUF_A_PAGES * PAGE });
	OBJ(stack_t, { NULL, SS_DISABLE, 0 });
	OBJ(stack_t, { (void *)KERNEL_DIRECT_MAP, 0, 1 << 20 });
	/* Two pollfds over fds 3..8 events POLLIN|POLLOUT, and fd_sets. */
	for (int i = 0; i < 6; i++)
		OBJ(uint64_t, (uint64_t)(3 + i) | (uint64_t)(1 | 4) << 32 /* POLLIN | POLLOUT */);
	OBJ(uint64_t, 0xffff);				/* fd_set: fds 0..15 */
	OBJ(uint64_t, 0);
	/* execve argv/envp: two strings and NULL; a kernel pointer; endless. */
	obj_off[nr_objs++] = off;
	((uint64_t *)(o + off))[0] = sb + str_off[0];
	((uint64_t *)(o + off))[1] = sb + str_off[1];
	((uint64_t *)(o + off))[2] = 0;
	off += 32;
	OBJ(uint64_t, KERNEL_DIRECT_MAP);
	/* utimensat: UTIME_NOW, UTIME_OMIT. */
	obj_off[nr_objs++] = off;
	((struct timespec *)(o + off))[0] = (struct timespec){ 0, UTIME_NOW };
	((struct timespec *)(o + off))[1] = (struct timespec){ 0, UTIME_OMIT };
	off += 32;
	/* pselect6's {sigset pointer, size}. */
	pselect_obj = off;
	obj_off[nr_objs++] = off;
	((uint64_t *)(o + off))[0] = ob + sigset_obj;
	((uint64_t *)(o + off))[1] = 8;
	off += 16;
	/* A robust list head pointing at itself; a gid list; futex words. */
	obj_off[nr_objs++] = off;
	((uint64_t *)(o + off))[0] = ob + off;
	((uint64_t *)(o + off))[1] = 0;
	((uint64_t *)(o + off))[2] = ob + off;
	off += 32;
	obj_off[nr_objs++] = off;
	((uint32_t *)(o + off))[0] = 0;
	((uint32_t *)(o + off))[1] = 65534;
	((uint32_t *)(o + off))[2] = -1u;
	off += 16;
	OBJ(uint32_t, 1);
	OBJ(uint32_t, 0x80000000u);
#undef OBJ
	/* iovec arrays: good, mixed with a bad one, a kernel one, lengths that
	 * overflow, one running into the guard page, a read-only target. */
#define IOV(n) (iov_off[nr_iovs++] = off, iov = (struct iovec *)(o + off), off += 16 * (n))
	IOV(2);
	iov[0] = (struct iovec){ buf_a, 100 };
	iov[1] = (struct iovec){ buf_b, 200 };
	IOV(3);
	iov[0] = (struct iovec){ buf_a, 16 };
	iov[1] = (struct iovec){ NULL, 16 };
	iov[2] = (struct iovec){ buf_b, 16 };
	IOV(1);
	iov[0] = (struct iovec){ (void *)KERNEL_DIRECT_MAP, 64 };
	IOV(2);
	iov[0] = (struct iovec){ buf_a, SIZE_MAX };
	iov[1] = (struct iovec){ buf_b, SIZE_MAX };
	IOV(1);
	iov[0] = (struct iovec){ buf_a, BUF_A_PAGES * PAGE + 100 };
	IOV(1);
	iov[0] = (struct iovec){ ro_page, 64 };
	IOV(2);
	iov[0] = (struct iovec){ NULL, 0 };
	iov[1] = (struct iovec){ (void *)NONCANONICAL, 8 };
#undef IOV
	if (off > sizeof(objs_template))
		setup_failed("structure templates overflow");
}

static void refresh_templates(void)
{
	memcpy(strs, strs_template, sizeof(strs_template));
	memcpy(objs, objs_template, sizeof(objs_template));
}

static void setup_memory(void)
{
	char *ar;

	layout = mmap(NULL, LAYOUT_PAGES * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ar = mmap(NULL, (ARENA_PAGES + 2) * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (layout == MAP_FAILED || ar == MAP_FAILED)
		setup_failed("mmap: %s", strerror(errno));
	buf_a = layout + PAGE;				/* pages 1-4, guard 5 */
	buf_b = layout + 6 * PAGE;			/* page 6, guard 7 */
	ro_page = layout + 8 * PAGE;			/* page 8, guard 9 */
	strs = layout + 10 * PAGE;			/* pages 10-11 */
	objs = layout + 12 * PAGE;			/* page 12, guard 13-15 */
	if (mprotect(buf_a, BUF_A_PAGES * PAGE, PROT_READ | PROT_WRITE) ||
	    mprotect(buf_b, PAGE, PROT_READ | PROT_WRITE) ||
	    mprotect(ro_page, PAGE, PROT_READ | PROT_WRITE) ||
	    mprotect(strs, STR_PAGES * PAGE, PROT_READ | PROT_WRITE) ||
	    mprotect(objs, PAGE, PROT_READ | PROT_WRITE))
		setup_failed("mprotect: %s", strerror(errno));
	for (size_t i = 0; i < BUF_A_PAGES * PAGE; i += 8)
		*(uint64_t *)(buf_a + i) = rnd();
	for (size_t i = 0; i < PAGE; i += 8)
		*(uint64_t *)(buf_b + i) = rnd();
	memcpy(ro_page + 64, "f0", 3);
	if (mprotect(ro_page, PAGE, PROT_READ))
		setup_failed("mprotect: %s", strerror(errno));
	/* The arena, with unmapped holes on both sides. */
	munmap(ar, PAGE);
	munmap(ar + (ARENA_PAGES + 1) * PAGE, PAGE);
	arena = ar + PAGE;
	readable[0] = (struct region){ (uint64_t)buf_a, (uint64_t)buf_a + BUF_A_PAGES * PAGE };
	readable[1] = (struct region){ (uint64_t)buf_b, (uint64_t)buf_b + PAGE };
	readable[2] = (struct region){ (uint64_t)ro_page, (uint64_t)ro_page + PAGE };
	readable[3] = (struct region){ (uint64_t)strs, (uint64_t)objs + PAGE };	/* strs, objs */
	owned[0] = (struct region){ (uint64_t)arena, (uint64_t)arena + ARENA_PAGES * PAGE };
	nr_owned = 1;
	read_maps();
	build_templates();
	refresh_templates();
}

static void put_file(const char *name, const void *data, size_t len, mode_t mode)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		setup_failed("%s: %s", name, strerror(errno));
	close(fd);
}

/* Descriptors 3-13, in the order gen_fd's small numbers find them. */
static void setup_files(const char *dir)
{
	char garbage[2048], longline[320];
	int p[2], fd;
	struct stat st;

	if (chdir(dir) < 0 || stat(".", &st) < 0)
		setup_failed("chdir %s: %s", dir, strerror(errno));
	sandbox_dev = st.st_dev;
	for (size_t i = 0; i < sizeof(garbage); i++)
		garbage[i] = (char)rnd();
	memcpy(garbage, "\177ELF\2\1\1", 7);
	put_file("f0", garbage + 7, sizeof(garbage) - 7, 0644);
	put_file("f1", garbage, sizeof(garbage), 0755);		/* exec'd: ENOEXEC */
	put_file("f2", "#!f2\n", 5, 0755);			/* its own interpreter */
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "#!", 2);
	longline[sizeof(longline) - 1] = '\n';
	put_file("f3", longline, sizeof(longline), 0755);
	if (mkdir("d0", 0755) || mkdir("d1", 0700) || symlink("f0", "l0") || symlink("l1", "l1") ||
	    symlink("nonexistent", "l2"))
		setup_failed("making the sandbox: %s", strerror(errno));
	put_file("d0/f2", "data", 4, 0600);

	for (fd = 3; fd < 256; fd++)
		close(fd);
	if (open(".", O_RDONLY | O_DIRECTORY) != 3 || open("f0", O_RDWR) != 4 ||
	    pipe2(p, O_NONBLOCK) || p[0] != 5 || p[1] != 6 || write(6, "pipe", 4) != 4 ||
	    open("/dev/zero", O_RDWR) != 7 || open("/proc/self/maps", O_RDONLY) != 8 ||
	    open("/proc/meminfo", O_RDONLY) != 9 ||
	    open(sandbox_on_root ? "/proc/self/stat" : "/etc/passwd", O_RDONLY) != 10 ||
	    open(sandbox_on_root ? "d1" : "/proc", O_RDONLY | O_DIRECTORY) != 11 ||
	    open("d0", O_RDONLY | O_DIRECTORY) != 12 ||
	    open("f1", O_RDONLY) != 13)
		setup_failed("opening the descriptors: %s", strerror(errno));
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		setup_failed("/dev/null: %s", strerror(errno));
	if (fd > 2)
		close(fd);
}

/* Every signal gets a handler, so that a kill of itself ends a child only
 * after a fuzzed rt_sigaction reset that signal: the no-op one, or for
 * the fault signals one that returns from a kill but ends the child with
 * exit status FAULT_EXIT + sig on a real fault (which would come back at
 * once).  Not SA_RESTART: a sleeping call returns EINTR at the next tick. */
static void setup_signals(void)
{
	struct k_sigaction ka = { (uint64_t)fuzz_noop_handler, SA_RESTORER_FLAG,
				  (uint64_t)fuzz_restorer, 0 };
	struct k_sigaction fault = { (uint64_t)fuzz_fault_handler, SA_RESTORER_FLAG | SA_SIGINFO,
				     (uint64_t)fuzz_restorer, 0 };
	sigset_t none;

	for (int sig = 1; sig <= 64; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (syscall(SYS_rt_sigaction, sig, SIGBIT(sig) & FAULT_SIGNALS ? &fault : &ka, NULL,
			    8) < 0 && sig < 32)
			setup_failed("rt_sigaction(%d): %s", sig, strerror(errno));
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	arm_tick();
}

static __attribute__((noreturn)) void child(const char *dir, uint64_t seed, long ncalls)
{
	struct rlimit as = { CHILD_AS_LIMIT, CHILD_AS_LIMIT };
	struct rlimit fsize = { CHILD_FSIZE_LIMIT, CHILD_FSIZE_LIMIT };

	rng = seed;
	setpgid(0, 0);
	self_pid = getpid();
	setup_memory();
	if (dropped_root && (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
		setup_failed("dropping root: %s", strerror(errno));
	setup_files(dir);
	if (setrlimit(RLIMIT_AS, &as) || setrlimit(RLIMIT_FSIZE, &fsize))
		setup_failed("setrlimit: %s", strerror(errno));
	raw_syscall2(SYS_arch_prctl, 0x1003, (uint64_t)&saved_fs);	/* ARCH_GET_FS */
	setup_signals();
	for (long i = 0; i < ncalls; i++) {
		if (i % 64 == 0)
			refresh_templates();
		fuzz_one();
	}
	sh->done = 1;
	if (below(3) == 0)
		finale();
	raw_syscall2(SYS_exit_group, 0, 0);
	__builtin_unreachable();
}

/* --- the parent ---------------------------------------------------------------- */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char *call_name(int slot)
{
	if (slot == FINALE_SLOT)
		return "rt_sigreturn (the last act)";
	return slot < 0 ? "(between calls)" : slot == (int)UNKNOWN_SLOT ? "(unknown number)"
								: calls[slot].name;
}

static void describe_call(char *buf, size_t size, int slot, uint64_t nr, const uint64_t *a)
{
	snprintf(buf, size, "%s [%#lx](%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)", call_name(slot),
		 (unsigned long)nr, (unsigned long)a[0], (unsigned long)a[1], (unsigned long)a[2],
		 (unsigned long)a[3], (unsigned long)a[4], (unsigned long)a[5]);
}

/* "State: S (sleeping), SigBlk: ..." from /proc/PID/status. */
static void proc_state(pid_t pid, char *out, size_t size, bool *alrm_blocked)
{
	char path[64], line[128];
	FILE *f;
	size_t used = 0;

	*alrm_blocked = false;
	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long mask;

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "State:", 6) || !strncmp(line, "SigBlk:", 7) ||
		    !strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7))
			used += snprintf(out + used, used < size ? size - used : 0, "%s%s",
					 used ? ", " : "", line);
		if (sscanf(line, "SigBlk: %llx", &mask) == 1 && (mask & SIGBIT(SIGALRM)))
			*alrm_blocked = true;
	}
	fclose(f);
}

/* MemFree from /proc/meminfo, in kB; -1 if it cannot be read. */
static long mem_free_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

struct verdicts {
	int children, clean, landed, legit_signal, stalled_blocked, watchdog_kills;
	int bad;
	int died_of[65];
	uint64_t calls;
};

/* The child's last calls, oldest first. */
static void print_recent(void)
{
	char what[200];
	uint64_t n = sh->progress < RECENT ? sh->progress : RECENT;

	for (uint64_t i = sh->progress - n; i < sh->progress; i++) {
		const struct issue *is = &sh->last[i % RECENT];

		describe_call(what, sizeof(what), is->slot, is->nr, is->args);
		tap_note("  call %lu: %s = %ld", (unsigned long)i, what, (long)is->ret);
	}
}

/* Wait for the child, continuing it when it stops and killing it when it
 * makes no progress for STALL_MS.  Returns its wait status. */
static int watch(pid_t pid, struct verdicts *v, bool *stalled_bug, bool *killed)
{
	uint64_t last = sh->progress, since = now_ms();
	struct timespec pause_ts = { 0, 10 * 1000 * 1000 };
	int status;

	*stalled_bug = *killed = false;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG | WUNTRACED);

		if (r == pid && WIFSTOPPED(status)) {
			kill(pid, SIGCONT);
			continue;
		}
		if (r == pid || (r < 0 && errno != EINTR))
			return status;
		if (sh->progress != last) {
			last = sh->progress;
			since = now_ms();
		} else if (now_ms() - since > STALL_MS) {
			char state[256], what[200];
			bool blocked;
			uint64_t args[6];

			memcpy(args, (const void *)sh->cur_args, sizeof(args));
			proc_state(pid, state, sizeof(state), &blocked);
			describe_call(what, sizeof(what), sh->cur_slot, sh->cur_nr, args);
			tap_note("child %d made no progress for %d s in %s: %s%s", pid, STALL_MS / 1000,
				 what, state, blocked ? " (it blocked SIGALRM itself)" : "");
			print_recent();
			*stalled_bug = !blocked;
			*killed = true;
			v->watchdog_kills++;
			if (blocked)
				v->stalled_blocked++;
			kill(pid, SIGKILL);
			test_wait(pid, &status, 0);
			return status;
		}
		nanosleep(&pause_ts, NULL);
	}
}

/* Was the way this child ended one the calls it made can explain?  A
 * fault its handler caught (exit status FAULT_EXIT + sig) must be one of
 * legit_fault; a signal the kernel forced on it (FORCED_EXIT + sig: a
 * frame it could not write) or one it died of, one of either mask. */
static void judge(pid_t pid, uint64_t seed, int status, bool stalled_bug, bool killed,
		  struct verdicts *v)
{
	char what[200], how[64];
	uint64_t args[6], may = sh->legit | sh->legit_fault;
	int sig = 0, code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	const char *kind = "";

	if (WIFSIGNALED(status) && WTERMSIG(status) <= 64) {
		sig = WTERMSIG(status);
	} else if (code > FAULT_EXIT && code <= FAULT_EXIT + 64 &&
		   (SIGBIT(code - FAULT_EXIT) & FAULT_SIGNALS)) {
		sig = code - FAULT_EXIT;
		may = sh->legit_fault;
		kind = " (a fault its handler caught)";
	} else if (code > FORCED_EXIT && code <= FORCED_EXIT + 64 &&
		   (SIGBIT(code - FORCED_EXIT) & FAULT_SIGNALS)) {
		sig = code - FORCED_EXIT;
		kind = " (forced by the kernel, caught)";
	}
	memcpy(args, (const void *)sh->cur_args, sizeof(args));
	describe_call(what, sizeof(what), sh->cur_slot, sh->cur_nr, args);
	test_status_str(status, how, sizeof(how));
	if (sig)
		v->died_of[sig]++;
	if (stalled_bug) {
		v->bad++;
		tap_note("child %d: stalled in %s with SIGALRM unblocked", pid, what);
	} else if (code == 0 && sh->done) {
		v->clean++;
	} else if (code == 77 && sh->finale) {
		v->landed++;
	} else if (code == 78 && sh->finale) {
		v->bad++;
		tap_note("child %d: rt_sigreturn gave user mode IOPL 3 (cli did not fault)", pid);
	} else if (code == 100) {
		v->bad++;
		tap_note("child %d: setup failed: %s", pid, sh->setup_error);
	} else if (sig && ((may & SIGBIT(sig)) || (sig == SIGKILL && killed))) {
		v->legit_signal++;
		if (verbose) tap_note("legit: %s%s %d in %s after %lu", how, kind, sig, what, (unsigned long)sh->progress);
		if (verbose && sig == SIGKILL)
			print_recent();
	} else {
		v->bad++;
		tap_note("child %d (seed %#lx): %s%s after %lu calls, in %s; it could only die of "
			 "%#lx, fault with %#lx", pid, (unsigned long)seed, how, kind,
			 (unsigned long)sh->progress, what, (unsigned long)sh->legit,
			 (unsigned long)sh->legit_fault);
		if (*kind)
			tap_note("  the fault: si_code %ld, si_addr %#lx, rip %#lx", (long)sh->fault[0],
				 (unsigned long)sh->fault[1], (unsigned long)sh->fault[2]);
		print_recent();
	}
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

static int open_up(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D || type == FTW_DNR)
		chmod(path, 0700);
	else if (type == FTW_F && !(st->st_mode & S_IWUSR))
		chmod(path, 0600);
	return 0;
}

static void remove_tree(const char *dir)
{
	nftw(dir, open_up, 16, FTW_PHYS);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *errno_name(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" },
		{ EBADF, "EBADF" }, { ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { ENOTBLK, "ENOTBLK" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { EXDEV, "EXDEV" }, { ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" },
		{ EISDIR, "EISDIR" }, { EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
		{ ENOTTY, "ENOTTY" }, { ETXTBSY, "ETXTBSY" }, { EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" },
		{ ESPIPE, "ESPIPE" }, { EROFS, "EROFS" }, { EMLINK, "EMLINK" }, { EPIPE, "EPIPE" },
		{ ERANGE, "ERANGE" }, { EDEADLK, "EDEADLK" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ ENOSYS, "ENOSYS" }, { ENOTEMPTY, "ENOTEMPTY" }, { ELOOP, "ELOOP" },
		{ EOVERFLOW, "EOVERFLOW" }, { EOPNOTSUPP, "EOPNOTSUPP" }, { ETIMEDOUT, "ETIMEDOUT" },
		{ ENOLCK, "ENOLCK" }, { ENODATA, "ENODATA" },
	};
	static char other[16];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), e ? "E%d" : "E?", e);
	return other;
}

/* "read 312: ok 40, EFAULT 120, EBADF 100, EINVAL 50, 2 other". */
static void print_stats(int slot)
{
	const struct call_stats *st = &sh->stats[slot];
	char line[256];
	uint32_t shown = 0;
	int used, top[4] = { -1, -1, -1, -1 };

	for (int e = 0; e < NR_ERRNO; e++) {
		for (int t = 0; t < 4; t++) {
			if (top[t] < 0 || st->err[e] > st->err[top[t]]) {
				memmove(&top[t + 1], &top[t], sizeof(int) * (3 - t));
				top[t] = e;
				break;
			}
		}
	}
	used = snprintf(line, sizeof(line), "%-17s %5lu: ok %lu", call_name(slot),
			(unsigned long)st->calls, (unsigned long)st->ok);
	for (int t = 0; t < 4; t++) {
		if (top[t] < 0 || !st->err[top[t]])
			break;
		used += snprintf(line + used, sizeof(line) - used, ", %s %u", errno_name(top[t]),
				 st->err[top[t]]);
		shown += st->err[top[t]];
	}
	if (st->calls - st->ok > shown)
		snprintf(line + used, sizeof(line) - used, ", %lu other",
			 (unsigned long)(st->calls - st->ok - shown));
	tap_note("%s", line);
}

static void report(const struct verdicts *v, uint64_t target, uint64_t ms)
{
	uint64_t ok = 0, err[NR_ERRNO] = { 0 }, total = 0;
	char buf[512];
	int used = 0;

	for (size_t s = 0; s <= NR_CALLS; s++) {
		total += sh->stats[s].calls;
		ok += sh->stats[s].ok;
		for (int e = 0; e < NR_ERRNO; e++)
			err[e] += sh->stats[s].err[e];
	}
	tap_note("%lu calls in %lu.%03lu s by %d children: %lu succeeded, %lu failed",
		 (unsigned long)total, (unsigned long)(ms / 1000), (unsigned long)(ms % 1000),
		 v->children, (unsigned long)ok, (unsigned long)(total - ok));
	for (int e = 0; e < NR_ERRNO; e++) {
		if (!err[e])
			continue;
		used += snprintf(buf + used, sizeof(buf) - used, "%s%s %lu", used ? ", " : "",
				 errno_name(e), (unsigned long)err[e]);
		if (used > 90) {
			tap_note("errors: %s", buf);
			used = 0;
		}
	}
	if (used)
		tap_note("errors: %s", buf);
	tap_note("children: %d exited after all their calls, %d landed from rt_sigreturn, "
		 "%d died of a signal they could bring on themselves, %d killed by the watchdog "
		 "(%d of them had blocked SIGALRM)", v->clean, v->landed, v->legit_signal,
		 v->watchdog_kills, v->stalled_blocked);
	used = 0;
	for (int sig = 1; sig <= 64; sig++)
		if (v->died_of[sig])
			used += snprintf(buf + used, sizeof(buf) - used, "%s%s %d", used ? ", " : "",
					 test_signame(sig), v->died_of[sig]);
	if (used)
		tap_note("deaths: %s", buf);
	for (size_t s = 0; s <= NR_CALLS; s++)
		if (sh->stats[s].calls)
			print_stats((int)s);

	tap_check(total >= target / 2, "the children made at least half the calls asked for",
		  "%lu of %lu", (unsigned long)total, (unsigned long)target);
	for (int k = 0; k < NR_ISSUE_KINDS; k++) {
		const char *what = issue_checks[k];

		if (!sh->issue_count[k]) {
			tap_check(1, what, NULL);
			continue;
		}
		for (int i = 0; i < sh->nr_issues; i++) {
			const struct issue *is = &sh->issues[i];

			if (is->kind != k)
				continue;
			describe_call(buf, sizeof(buf), is->slot, is->nr, is->args);
			tap_note("%s = %ld", buf, (long)is->ret);
		}
		tap_check(0, what, "%lu calls", (unsigned long)sh->issue_count[k]);
	}
	tap_check(v->bad == 0, "every child ended as its calls explain (no unexplained "
		  "signal, no stall with SIGALRM unblocked)", "%d did not", v->bad);
}

/* --- the bugs this test found, checked one by one ------------------------ */

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * sendfile from /dev/zero, which never ends, stops at a signal with what
 * it copied (Linux's read_iter_zero), instead of copying 2 GiB in one
 * call that nothing, not even SIGKILL, interrupts.
 */
static void check_long_transfer_interrupted(void)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = { { 0, 0 }, { 0, 20000 } }, off = { { 0, 0 }, { 0, 0 } };
	int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY);
	uint64_t t0;
	long ret;
	int err;

	if (zero < 0 || null < 0)
		tap_bail("/dev/zero, /dev/null: %s", strerror(errno));
	sigaction(SIGALRM, &sa, &old);
	t0 = now_ms();
	setitimer(ITIMER_REAL, &it, NULL);
	ret = syscall(SYS_sendfile, null, zero, NULL, 0x7ffff000ul);
	err = errno;
	setitimer(ITIMER_REAL, &off, NULL);
	t0 = now_ms() - t0;
	sigaction(SIGALRM, &old, NULL);
	close(zero);
	close(null);
	tap_check(ret > 0 && ret < 0x7ffff000 && t0 < 5000,
		  "sendfile(/dev/null, /dev/zero, 2 GiB) stops at a signal with the bytes so far",
		  "returned %ld (%s) after %lu ms", ret, ret < 0 ? strerror(err) : "",
		  (unsigned long)t0);
}

/* Field n (1-based, as proc(5) numbers them) of /proc/PID/stat; -1. */
static long proc_stat_field(pid_t pid, int n)
{
	char path[64], text[1024], *p;
	long value = -1;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	text[len] = '\0';
	p = strrchr(text, ')');
	for (int field = 2; p && field < n; field++)
		p = strchr(p + 1, ' ');
	if (p)
		value = strtol(p + 1, NULL, 10);
	return value;
}

/*
 * A process clone made with an exit signal other than SIGCHLD is handed
 * to init, when its parent dies, with SIGCHLD as its exit signal (Linux's
 * reparent_leader): else its death would send init that signal, and
 * busybox's halt is SIGUSR1 to init.  SIGURG here, which init ignores,
 * so that the check fails without harm; /proc/PID/stat shows the exit
 * signal (field 38).
 */
static void check_orphan_exit_signal(void)
{
	int p[2], status;
	pid_t parent, orphan = -1;
	long sig = -1;

	test_pipe(p);
	parent = test_fork();
	if (parent == 0) {
		long child = syscall(SYS_clone, SIGURG, 0, NULL, NULL, 0);

		if (child == 0) {
			for (;;)
				pause();
		}
		write_all(p[1], &child, sizeof(child));
		_exit(child > 0 ? 0 : 1);
	}
	close(p[1]);
	if (read_full(p[0], &sig, sizeof(sig)) == sizeof(sig))
		orphan = (pid_t)sig;
	close(p[0]);
	test_wait(parent, &status, 0);
	if (orphan <= 0) {
		tap_check(0, "an orphan made by clone(SIGURG) is init's with exit signal SIGCHLD",
			  "clone failed");
		return;
	}
	sig = proc_stat_field(orphan, 38);
	tap_check(sig == SIGCHLD, "an orphan made by clone(SIGURG) is init's with exit signal SIGCHLD",
		  "/proc/%d/stat says exit signal %ld", orphan, sig);
	kill(orphan, SIGKILL);
	if (!pageturn) {
		tap_skip("and init reaps it", "who reaps orphans here depends on the machine");
		return;
	}
	for (int i = 0; i < 200 && proc_stat_field(orphan, 1) == orphan; i++)
		usleep(10000);
	tap_check(proc_stat_field(orphan, 1) != orphan, "and init reaps it when it dies",
		  "/proc/%d is still there 2 s later", orphan);
}

/*
 * CLONE_SETTLS with an FS base outside user space fails with EPERM, as
 * arch_prctl(ARCH_SET_FS) does: a non-canonical one would fault in the
 * scheduler's wrmsr on hardware (QEMU's TCG lets it pass, so only the
 * errno shows it here).  A child made anyway leaves at once.
 */
static void check_clone_tls(void)
{
	static const uint64_t bad[] = { NONCANONICAL, KERNEL_DIRECT_MAP, USER_TOP };
	uint64_t a[6] = { CLONE_SETTLS | SIGCHLD, 0, 0, 0, 0, 0 };
	char what[96];
	int status;
	long ret;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a[4] = bad[i];
		ret = call_fork(SYS_clone, a);
		if (ret > 0)
			test_wait((pid_t)ret, &status, 0);
		snprintf(what, sizeof(what), "clone(CLONE_SETTLS) with FS base %#lx fails with EPERM",
			 (unsigned long)bad[i]);
		tap_check(ret == -EPERM, what, "returned %ld", ret);
	}
	ret = raw_syscall2(SYS_arch_prctl, 0x1002 /* ARCH_SET_FS */, NONCANONICAL);
	tap_check(ret == -EPERM, "as arch_prctl(ARCH_SET_FS) with a non-canonical base does",
		  "returned %ld", ret);
}

/*
 * mremap of a range that starts outside user space fails (EFAULT: no
 * mapping there), where shrinking it used to unmap [addr + new_len,
 * addr + old_len) wrapped around the top: 0x3000 to 2 GiB, the program
 * itself.  In a child, which reports the errno (or dies).
 */
static void check_mremap_outside(void)
{
	char how[64];
	pid_t pid = test_fork();
	int status;

	if (pid == 0) {
		long ret = syscall(SYS_mremap, 0xfffffffffffff000ul, 0x80000000ul, 0x4000ul,
				   MREMAP_MAYMOVE, 0ul);

		_exit(ret == -1 && errno == EFAULT ? 0 : ret == -1 ? 1 : 2);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "mremap(-4096, 2 GiB, 16 KiB) fails with EFAULT and unmaps nothing",
		  "%s (1: another errno, 2: it succeeded)", test_status_str(status, how, sizeof(how)));
}

/*
 * The memory calls on a range that starts near the top of the address
 * space and wraps around it, [-4096, -4096 + 2 GiB): each fails, and the
 * caller (a child) still runs.
 */
static void check_wrapping_ranges(void)
{
	static const struct { const char *name; long nr; uint64_t arg2; } calls_[] = {
		{ "munmap", SYS_munmap, 0 }, { "mprotect", SYS_mprotect, PROT_NONE },
		{ "madvise(MADV_DONTNEED)", SYS_madvise, MADV_DONTNEED }, { "mlock", SYS_mlock, 0 },
		{ "munlock", SYS_munlock, 0 }, { "msync", SYS_msync, MS_SYNC },
	};
	char what[96], how[64];
	int status;

	for (size_t i = 0; i < sizeof(calls_) / sizeof(calls_[0]); i++) {
		pid_t pid = test_fork();

		if (pid == 0) {
			long ret = syscall(calls_[i].nr, 0xfffffffffffff000ul, 0x80000000ul,
					   calls_[i].arg2);

			_exit(ret == -1 ? 0 : 2);
		}
		test_wait(pid, &status, 0);
		snprintf(what, sizeof(what), "%s(-4096, 2 GiB) fails and the caller goes on",
			 calls_[i].name);
		tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, what,
			  "%s (2: it succeeded)", test_status_str(status, how, sizeof(how)));
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : DEFAULT_SEED;
	long nchildren = argc > 2 ? strtol(argv[2], NULL, 0) : DEFAULT_CHILDREN;
	long ncalls = argc > 3 ? strtol(argv[3], NULL, 0) : DEFAULT_CALLS;
	struct verdicts v = { 0 };
	uint64_t start = now_ms(), target;
	char dir[64], host[65];
	long free_before = mem_free_kb(), free_after;
	int status, k;
	pid_t pid;

	verbose = argc > 4;
	if (nchildren < 1 || ncalls < 1)
		tap_bail("usage: %s [SEED [CHILDREN [CALLS]]]", argv[0]);
	target = (uint64_t)nchildren * (uint64_t)ncalls;
	pageturn = on_pageturn();
	dropped_root = !pageturn && geteuid() == 0;
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	tap_note("seed %#lx: %ld children x %ld calls over %zu system calls and unknown numbers "
		 "(rerun: syscall_fuzz %#lx %ld %ld)%s", (unsigned long)seed, nchildren, ncalls,
		 NR_CALLS, (unsigned long)seed, nchildren, ncalls,
		 dropped_root ? "; children run as uid 65534" : "");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	fuzz_fault_record = sh->fault;
	rng = seed;

	for (k = 0; k < nchildren * MAX_CHILDREN_FACTOR && v.calls < target; k++) {
		uint64_t child_seed = rnd(), before;
		bool stalled_bug, killed;

		if (now_ms() - start > TIME_BUDGET_S * 1000) {
			tap_note("time budget of %d s spent: no more children", TIME_BUDGET_S);
			break;
		}
		/* On Pageturn every other child works on the root filesystem
		 * (ext2), the others on /tmp (tmpfs). */
		snprintf(dir, sizeof(dir), "%s/syscall_fuzz.%d.%d", pageturn && k % 2 ? "" : "/tmp",
			 getpid(), k);
		sandbox_on_root = pageturn && k % 2;
		if (mkdir(dir, 0777) < 0 || chmod(dir, 0777) < 0)
			tap_bail("mkdir %s: %s", dir, strerror(errno));
		if (dropped_root && chown(dir, 65534, 65534) < 0)
			tap_bail("chown %s: %s", dir, strerror(errno));
		sh->progress = 0;
		sh->cur_slot = -1;
		sh->legit = sh->legit_fault = 0;
		sh->done = sh->finale = 0;
		memset((void *)sh->fault, 0, sizeof(sh->fault));
		sh->setup_error[0] = '\0';
		before = v.calls;
		pid = test_fork();
		if (pid == 0)
			child(dir, child_seed, (long)(target - before < (uint64_t)ncalls ?
						      target - before : (uint64_t)ncalls));
		status = watch(pid, &v, &stalled_bug, &killed);
		v.children++;
		v.calls += sh->progress;
		judge(pid, child_seed, status, stalled_bug, killed, &v);
		kill(-pid, SIGKILL);	/* whatever it left running in its group */
		remove_tree(dir);
	}
	if (pageturn)
		sethostname(host, strlen(host));
	report(&v, target, now_ms() - start);
	check_long_transfer_interrupted();
	check_orphan_exit_signal();
	check_clone_tls();
	check_mremap_outside();
	check_wrapping_ranges();

	pid = test_fork();
	if (pid == 0)
		_exit(42);
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 42,
		  "the system is alive: fork and wait still work", "%s",
		  test_status_str(status, dir, sizeof(dir)));
	free_after = mem_free_kb();
	tap_check(free_after > 0, "and /proc/meminfo reads", "MemFree %ld kB", free_after);
	tap_note("MemFree %ld kB before the children, %ld kB after", free_before, free_after);
	return tap_done();
}
