/*
 * execve (kernel/exec.c): the program being loaded, Linux's struct
 * linux_binprm (include/linux/binfmts.h), and the limits on what a
 * program may be given.
 */
#ifndef PAGETURN_BINFMTS_H
#define PAGETURN_BINFMTS_H

#include <asm/page.h>
#include <pageturn/types.h>

struct file;
struct mm_struct;

/* The bytes of the file read to recognise it: a #! line longer than this
 * is cut (Linux's BINPRM_BUF_SIZE). */
#define BINPRM_BUF_SIZE		256

/*
 * The arguments and environment: their strings plus one pointer per
 * string may take MAX_ARG_PAGES pages (Linux before 2.6.23; ARG_MAX as
 * sysconf reports it), and one string MAX_ARG_STRLEN bytes.  Beyond:
 * -E2BIG.
 */
#define MAX_ARG_PAGES		32
#define ARG_MAX			(MAX_ARG_PAGES * PAGE_SIZE)
#define MAX_ARG_STRLEN		(PAGE_SIZE * 32)

/* #! scripts run by #! scripts: at most this many, then -ELOOP. */
#define BINPRM_MAX_RECURSION	4

/*
 * One execve in progress, from the copy of its arguments to the new
 * program's first instruction.  Owned by the exec; nothing else sees it.
 */
struct linux_binprm {
	char buf[BINPRM_BUF_SIZE];	/* the file's first bytes, zero-padded */
	size_t buf_len;			/* how many of them the file had */
	struct file *file;		/* the file being loaded (held), or NULL */
	const char *filename;		/* the name execve got: comm, AT_EXECFN */
	const char *interp;		/* the file to open: filename, or a #! interpreter */
	char interp_name[BINPRM_BUF_SIZE];	/* the last #! interpreter's name */
	unsigned int recursion_depth;	/* #! scripts followed */
	/* argv's strings then envp's, each NUL-terminated, in ARG_MAX bytes:
	 * what the new stack gets, in the same order. */
	char *args;
	size_t args_len;		/* bytes used */
	int argc, envc;			/* strings of argv and envp in args */
	struct mm_struct *mm;		/* the new address space while it is built */
	unsigned long p;		/* the new stack's lowest byte written so far */
	unsigned long exec;		/* the user address of filename's copy: AT_EXECFN */
};

/*
 * Run a program from the kernel: execve(filename, argv, envp) with kernel
 * pointers (NULL-terminated arrays; NULL for an empty one).  The lead's
 * kernel thread starts PID 1 with it; the thread may have no mm.  On
 * success current's address space, signal actions, close-on-exec files,
 * comm, exe_path, FS base and FPU state are the new program's, its user
 * registers (task_pt_regs(current)) point at the program's entry and
 * initial stack, and 0 is returned: the caller then returns to user mode
 * through those registers.  On failure -ENOENT, -EACCES, -ENOEXEC,
 * -E2BIG, -EFAULT, -ENOMEM, -ELOOP or another error from the filesystem,
 * with current unchanged.  Process context, may sleep.
 */
int kernel_execve(const char *filename, const char *const argv[], const char *const envp[]);

#endif
