/*
 * faults: a user fault kills only the process that faulted, with the
 * signal Linux sends for it, and the system goes on.
 *
 * Each child does one bad thing and must die of its signal, which the
 * parent reads with waitpid (WIFSIGNALED, WTERMSIG) before it goes on to
 * the next:
 *
 *   ud2                 an undefined instruction (#UD)          SIGILL
 *   divide_error        idiv by zero (#DE)                      SIGFPE
 *   text_write          a write to the program's own text       SIGSEGV
 *   null_write          a write to address 0                    SIGSEGV
 *   nx_mmap             a call into a PROT_READ|PROT_WRITE page
 *                       holding a ret instruction (NX)          SIGSEGV
 *   nx_stack            a call into a ret on the stack (NX)     SIGSEGV
 *   direct_map_read     a read of 0xffff888000000000            SIGSEGV
 *   kernel_text_read    a read of 0xffffffff80000000            SIGSEGV
 *   stack_overflow      recursion without end, 4 KiB a level,
 *                       under RLIMIT_STACK 8 MiB                SIGSEGV
 *
 * User pages are executable only when mapped so, and kernel pages are
 * never reachable from user mode: those are the NX and kernel cases.
 *
 * The kernel also prints one console line per killed process (kernel/
 * signal.c): "COMM[PID]: killed by SIG at ADDR, rip RIP".  A program
 * cannot read the console, so for each child the parent prints what that
 * line must say,
 *
 *   # expect console (KIND): faults[PID]: killed by SIG at 0xADDR, rip 0xRIP
 *
 * with "at 0xLO..0xHI" where only a range is known, and the QEMU case
 * user_tests_bios (tests/qemu/cases.py) finds exactly one such kernel
 * line for each, and none for any other process of this program.  So a
 * child killed by kill(pid, SIGSEGV), which no fault caused, gets no line
 * (Linux prints nothing for it either); it must just die of SIGSEGV.  The faulting instructions are written in assembly
 * below, so their addresses are known exactly: the rip of each line is
 * the instruction's, and the address is the one it touched (for #UD and
 * #DE, Linux's si_addr, the instruction itself).  The stack overflow
 * faults on the first page below [stack]'s top - 8 MiB: each level of
 * fault_recurse writes the slot its call pushes to, 4096 bytes below the
 * previous level's, so that store touches every page in turn.
 *
 * The parent's own stack, heap and text are not touched by any of this:
 * at the end it forks once more and the child must exit normally.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define STACK_LIMIT	(8ul << 20)	/* RLIMIT_STACK the overflow runs under */
#define FRAME		4096ul		/* stack bytes per level of fault_recurse */
#define OPCODE_RET	0xc3

/*
 * The faulting instructions, each at a known address:
 *   fault_ud2               ud2
 *   fault_divide            eax = 1, edx = 0, ecx = 0; fault_divide_insn: idiv ecx
 *   fault_store(p)          movb $0, (p)      (the store is the first instruction)
 *   fault_load(p)           mov (p), rax      (the load is the first instruction)
 *   fault_recurse           rsp -= 4088; fault_recurse_touch: store at rsp - 8; call itself
 */
__asm__(".text\n"
	".type fault_ud2, @function\n"
	"fault_ud2:\n"
	"	ud2\n"
	".type fault_divide, @function\n"
	"fault_divide:\n"
	"	mov $1, %eax\n"
	"	xor %edx, %edx\n"
	"	xor %ecx, %ecx\n"
	"fault_divide_insn:\n"
	"	idiv %ecx\n"
	"	ret\n"
	".type fault_store, @function\n"
	"fault_store:\n"
	"	movb $0, (%rdi)\n"
	"	ret\n"
	".type fault_load, @function\n"
	"fault_load:\n"
	"	mov (%rdi), %rax\n"
	"	ret\n"
	".type fault_recurse, @function\n"
	"fault_recurse:\n"
	"	sub $4088, %rsp\n"
	"fault_recurse_touch:\n"
	"	movq $0, -8(%rsp)\n"
	"	call fault_recurse\n"
	"	add $4088, %rsp\n"
	"	ret\n");

void fault_ud2(void);
void fault_divide(void);
extern const char fault_divide_insn[];
void fault_store(void *p);
long fault_load(const void *p);
void fault_recurse(void);
extern const char fault_recurse_touch[];

/* One bad thing a child does, and what must come of it. */
struct fault {
	const char *kind;       /* the name in the "# expect console" line */
	const char *what;       /* the check's description */
	int signal;
	void (*attempt)(const struct fault *f);
	void *arg;              /* the address the attempt uses */
	unsigned long addr_lo, addr_hi;  /* the console line's address range */
	unsigned long rip;      /* and its rip */
};

static void do_ud2(const struct fault *f)
{
	(void)f;
	fault_ud2();
}

static void do_divide(const struct fault *f)
{
	(void)f;
	fault_divide();
}

static void do_store(const struct fault *f)
{
	fault_store(f->arg);
}

static void do_load(const struct fault *f)
{
	fault_load(f->arg);
}

static void do_call(const struct fault *f)
{
	((void (*)(void))f->arg)();
}

/* Run fault_recurse under RLIMIT_STACK 8 MiB (Pageturn's fixed limit;
 * the build machine's may be larger or unlimited). */
static void do_overflow(const struct fault *f)
{
	struct rlimit rl;

	(void)f;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != STACK_LIMIT &&
	    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= STACK_LIMIT)) {
		rl.rlim_cur = STACK_LIMIT;
		setrlimit(RLIMIT_STACK, &rl);
	}
	fault_recurse();
}

/* The end of the [stack] mapping in /proc/self/maps, or 0. */
static unsigned long stack_top(void)
{
	char line[512];
	unsigned long start, end = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
	fclose(f);
	return end;
}

/* The name the kernel knows this process by (/proc/self/comm, else
 * argv[0]'s last component, cut to 15 characters as the kernel does). */
static void own_comm(const char *argv0, char *comm, size_t size)
{
	const char *slash = strrchr(argv0, '/');
	ssize_t n = -1;
	int fd = open("/proc/self/comm", O_RDONLY);

	if (fd >= 0) {
		n = read(fd, comm, size - 1);
		close(fd);
	}
	if (n > 0) {
		comm[n] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
	} else {
		snprintf(comm, size, "%.15s", slash ? slash + 1 : argv0);
	}
}

/* Fork a child that makes the fault; check how it died; print the console
 * line the kernel must have printed for it. */
static void run_fault(const struct fault *f, const char *comm)
{
	char buf[64];
	int status;
	pid_t pid = test_fork();

	if (pid == 0) {
		f->attempt(f);
		_exit(0);
	}
	test_wait(pid, &status, 0);
	if (tap_check(WIFSIGNALED(status) && WTERMSIG(status) == f->signal, f->what,
		      "%s, expected killed by %s", test_status_str(status, buf, sizeof(buf)),
		      test_signame(f->signal))) {
		if (f->addr_lo == f->addr_hi)
			tap_note("expect console (%s): %s[%d]: killed by %s at 0x%lx, rip 0x%lx",
				 f->kind, comm, (int)pid, test_signame(f->signal), f->addr_lo, f->rip);
		else
			tap_note("expect console (%s): %s[%d]: killed by %s at 0x%lx..0x%lx, rip 0x%lx",
				 f->kind, comm, (int)pid, test_signame(f->signal), f->addr_lo,
				 f->addr_hi, f->rip);
	}
}

int main(int argc, char **argv)
{
	unsigned char stack_code[16] = { OPCODE_RET };
	unsigned long top = stack_top(), limit = top - STACK_LIMIT;
	char comm[32], buf[64];
	unsigned char *page;
	int status;
	pid_t pid;

	(void)argc;
	own_comm(argv[0], comm, sizeof(comm));
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	page[0] = OPCODE_RET;
	tap_check(top != 0, "/proc/self/maps shows the [stack] mapping", NULL);

	const struct fault faults[] = {
		{ "ud2", "ud2 kills with SIGILL", SIGILL, do_ud2, NULL,
		  (unsigned long)fault_ud2, (unsigned long)fault_ud2, (unsigned long)fault_ud2 },
		{ "divide_error", "a division by zero kills with SIGFPE", SIGFPE, do_divide, NULL,
		  (unsigned long)fault_divide_insn, (unsigned long)fault_divide_insn,
		  (unsigned long)fault_divide_insn },
		{ "text_write", "a write to the program's own text kills with SIGSEGV", SIGSEGV,
		  do_store, (void *)fault_ud2, (unsigned long)fault_ud2, (unsigned long)fault_ud2,
		  (unsigned long)fault_store },
		{ "null_write", "a write to NULL kills with SIGSEGV", SIGSEGV, do_store, NULL,
		  0, 0, (unsigned long)fault_store },
		{ "nx_mmap", "a call into a read/write (not executable) mmap page kills with SIGSEGV",
		  SIGSEGV, do_call, page, (unsigned long)page, (unsigned long)page,
		  (unsigned long)page },
		{ "nx_stack", "a call into the stack kills with SIGSEGV", SIGSEGV, do_call,
		  stack_code, (unsigned long)stack_code, (unsigned long)stack_code,
		  (unsigned long)stack_code },
		{ "direct_map_read", "a read of the kernel's direct map kills with SIGSEGV", SIGSEGV,
		  do_load, (void *)KERNEL_DIRECT_MAP, KERNEL_DIRECT_MAP, KERNEL_DIRECT_MAP,
		  (unsigned long)fault_load },
		{ "kernel_text_read", "a read of the kernel image kills with SIGSEGV", SIGSEGV,
		  do_load, (void *)KERNEL_TEXT, KERNEL_TEXT, KERNEL_TEXT, (unsigned long)fault_load },
		{ "stack_overflow", "unbounded recursion past the 8 MiB stack limit kills with SIGSEGV",
		  SIGSEGV, do_overflow, NULL, limit - FRAME, limit - 1,
		  (unsigned long)fault_recurse_touch },
	};

	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		run_fault(&faults[i], comm);

	pid = test_fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGSEGV);
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		  "a SIGSEGV sent with kill() kills too (and no fault line is printed)", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	tap_note("sent SIGSEGV with kill() to faults[%d]: no console line expected", pid);

	pid = test_fork();
	if (pid == 0)
		_exit(page[0] == OPCODE_RET && stack_code[0] == OPCODE_RET ? 0 : 1);
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "after all that, a new child runs and exits normally", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	return tap_done();
}
