/*
 * execve: replace the running program (Linux's fs/exec.c, with the loaders
 * of fs/binfmt_script.c and fs/binfmt_elf.c for static executables).
 *
 * An exec is one struct linux_binprm (pageturn/binfmts.h) going through
 * four states; the first three may fail, the last cannot:
 *
 *   1. Arguments.  argv's and envp's strings are copied into a kernel
 *      buffer of ARG_MAX bytes (argv's, then envp's, each NUL-terminated:
 *      the order they take on the new stack), from user space through
 *      asm/uaccess.h or from the kernel's own arrays (kernel_execve).
 *      This comes first because the old address space, where the user's
 *      strings live, is about to be replaced.  The strings plus one
 *      pointer per string must fit ARG_MAX (-E2BIG), one string
 *      MAX_ARG_STRLEN; a bad pointer is -EFAULT.
 *
 *   2. The file.  bprm->interp is opened: a regular file with an execute
 *      bit (-EACCES otherwise; directories too) whose first
 *      BINPRM_BUF_SIZE bytes are read into bprm->buf.  A file starting
 *      with "#!" is a script: its first line names an interpreter and at
 *      most one argument, parsed as Linux's load_script does; argv[0] is
 *      replaced by [interpreter, argument, script path], and the
 *      interpreter is opened in turn, at most BINPRM_MAX_RECURSION times
 *      (-ELOOP).  Anything else must be an ELF executable that
 *      kernel/elf.c accepts (-ENOEXEC), which reads its program headers.
 *
 *   3. The new address space, built before anything of the old process is
 *      touched.  mm_alloc() gives an empty mm; for the build the task runs
 *      on it (current->mm and CR3), so the uaccess routines fill it and
 *      their faults are resolved in it.  Each PT_LOAD is mapped
 *      MAP_PRIVATE|MAP_FIXED from the file, the rest of its last file page
 *      is zeroed and its remaining bss pages are anonymous; then the stack
 *      VMA below STACK_TOP gets Linux's initial stack (create_elf_tables),
 *      from the top down:
 *
 *        STACK_TOP - 8         8 zero bytes, the end marker
 *        bprm->exec            the file name given to execve (AT_EXECFN)
 *        env_start..env_end    envp's strings
 *        arg_start..arg_end    argv's strings
 *                              (down to a multiple of 16)
 *                              "x86_64" (AT_PLATFORM)
 *                              16 random bytes (AT_RANDOM)
 *                              (down to a multiple of 16)
 *                              the auxv pairs, up to AT_NULL
 *                              envp[], NULL
 *                              argv[], NULL
 *        rsp, start_stack      argc, 16-byte aligned as the ABI requires
 *
 *      Any failure switches back to the old mm, frees the new one
 *      (mmput) and returns the error: the old program goes on as if
 *      execve had never been called.
 *
 *   4. The point of no return (exec_mmap_and_start).  mm_release wakes a
 *      vfork parent, the new mm replaces the old one, which is dropped;
 *      signal handlers go back to SIG_DFL, close-on-exec descriptors are
 *      closed, comm, exe_path, the FS base and the FPU state are reset,
 *      and the user registers are set to the program's entry with every
 *      general register 0.  Everything that could fail was done in 3
 *      (exe_path is allocated before), so nothing here can: Linux kills
 *      the task with SIGKILL when a step after this point fails, and this
 *      exec has no such step.
 *
 * The ELF file's own mappings hold references to the file (each VMA takes
 * one), so the reference exec opened is always dropped at the end.
 *
 * Dynamically linked programs (PT_INTERP) are refused with -ENOEXEC:
 * there is no dynamic loader to map beside them (kernel/elf.c).
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/uaccess.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <mm/mmap.h>
#include <mm/slab.h>
#include <pageturn/binfmts.h>
#include <pageturn/elf.h>
#include <pageturn/random.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

/* The initial stack VMA: Linux's setup_arg_pages expands it to this, more
 * when the arguments need it; it grows down on faults from there. */
#define STACK_INIT_SIZE	(128ul << 10)

/* AT_PLATFORM's string (Linux's ELF_PLATFORM), and AT_RANDOM's bytes. */
static const char elf_platform[] = "x86_64";
#define AT_RANDOM_SIZE	16

/* An argv or envp array: user pointers (execve) or kernel pointers
 * (kernel_execve).  NULL is an empty array, as Linux takes it. */
struct user_arg_ptr {
	bool is_kernel;
	union {
		const char *const *kernel;
		const char __user *const __user *user;
	} ptr;
};

/* ---- 1. the arguments ------------------------------------------------------ */

/* Element nr of argv in *str (NULL at its end): 0 or -EFAULT. */
static int get_arg_ptr(struct user_arg_ptr argv, int nr, const char **str)
{
	if (argv.is_kernel) {
		*str = argv.ptr.kernel ? argv.ptr.kernel[nr] : NULL;
		return 0;
	}
	*str = NULL;
	if (argv.ptr.user && get_user(*str, (const char __user **)(argv.ptr.user + nr)))
		return -EFAULT;
	return 0;
}

/* Bytes ARG_MAX still has for strings and their pointers. */
static size_t arg_room(const struct linux_binprm *bprm)
{
	return ARG_MAX - bprm->args_len - (size_t)(bprm->argc + bprm->envc) * sizeof(void *);
}

/*
 * Append the strings of argv to bprm->args, counting them in *count
 * (&bprm->argc or &bprm->envc): 0, -E2BIG (ARG_MAX or MAX_ARG_STRLEN
 * exceeded), -EFAULT (a bad pointer).
 */
static int copy_strings(struct linux_binprm *bprm, struct user_arg_ptr argv, int *count)
{
	const char *str;
	int nr, err;

	for (nr = 0;; nr++) {
		char *dst = bprm->args + bprm->args_len;
		size_t room = arg_room(bprm);
		long len;

		err = get_arg_ptr(argv, nr, &str);
		if (err)
			return err;
		if (!str)
			return 0;
		if (room <= sizeof(void *))
			return -E2BIG;
		/* The string's bytes, its NUL included, after its pointer. */
		room = MIN(room - sizeof(void *), MAX_ARG_STRLEN);
		if (argv.is_kernel) {
			len = strnlen(str, room);
			if ((size_t)len < room)
				memcpy(dst, str, len + 1);
		} else {
			len = strncpy_from_user(dst, (const char __user *)str, room);
			if (len < 0)
				return len;
		}
		if ((size_t)len >= room)
			return -E2BIG;
		bprm->args_len += len + 1;
		(*count)++;
		cond_resched();
	}
}

/* Drop argv[0] (a #! script's name as its caller gave it). */
static void remove_arg_zero(struct linux_binprm *bprm)
{
	size_t len;

	if (!bprm->argc)
		return;
	len = strlen(bprm->args) + 1;
	memmove(bprm->args, bprm->args + len, bprm->args_len - len);
	bprm->args_len -= len;
	bprm->argc--;
}

/* Put the kernel string arg in front of argv (Linux's copy_string_kernel
 * while the strings are pushed from the top down): 0 or -E2BIG. */
static int copy_string_kernel(const char *arg, struct linux_binprm *bprm)
{
	size_t len = strlen(arg) + 1;

	if (len > MAX_ARG_STRLEN || len + sizeof(void *) > arg_room(bprm))
		return -E2BIG;
	memmove(bprm->args + len, bprm->args, bprm->args_len);
	memcpy(bprm->args, arg, len);
	bprm->args_len += len;
	bprm->argc++;
	return 0;
}

/* ---- 2. the file ------------------------------------------------------------- */

/* Open name to execute it: a regular file with an execute bit (root may
 * run a file any x bit allows).  0 or -errno; -EACCES for the rest. */
static int open_exec(const char *name, struct file **res)
{
	struct file *file;
	umode_t mode;
	int err;

	err = vfs_open(name, O_RDONLY, 0, &file);
	if (err)
		return err;
	mode = file->f_inode->i_mode;
	if (!S_ISREG(mode) || !(mode & (S_IXUSR | S_IXGRP | S_IXOTH))) {
		vfs_close(file);
		return -EACCES;
	}
	*res = file;
	return 0;
}

/* Read up to len bytes at pos of file into buf: the bytes read, fewer
 * only at the end of the file, or -errno. */
static long exec_read(struct file *file, loff_t pos, void *buf, size_t len)
{
	size_t done = 0;
	long n;

	n = vfs_llseek(file, pos, SEEK_SET);
	if (n < 0)
		return n;
	while (done < len) {
		n = vfs_read(file, (char *)buf + done, len - done);
		if (n < 0)
			return n;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* Open bprm->interp into bprm->file and read its first bytes into
 * bprm->buf (zero-padded): 0 or -errno, with nothing held on failure. */
static int prepare_binprm(struct linux_binprm *bprm)
{
	long n;
	int err;

	err = open_exec(bprm->interp, &bprm->file);
	if (err)
		return err;
	memset(bprm->buf, 0, sizeof(bprm->buf));
	n = exec_read(bprm->file, 0, bprm->buf, sizeof(bprm->buf));
	if (n < 0) {
		vfs_close(bprm->file);
		bprm->file = NULL;
		return n;
	}
	bprm->buf_len = n;
	return 0;
}

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* The first character in [first, last] that is not a space or tab. */
static char *next_non_spacetab(char *first, const char *last)
{
	for (; first <= last; first++)
		if (!spacetab(*first))
			return first;
	return NULL;
}

/* The first space, tab or NUL in [first, last]. */
static char *next_terminator(char *first, const char *last)
{
	for (; first <= last; first++)
		if (spacetab(*first) || !*first)
			return first;
	return NULL;
}

/*
 * A "#!" script in bprm->buf (Linux's load_script): the line names the
 * interpreter, then optionally one argument (the rest of the line, spaces
 * inside kept, trailing ones dropped).  Without a newline in the buffer
 * the interpreter's name must still end inside it (a space, tab or NUL:
 * the file was shorter than the buffer); a cut argument is fine.  argv
 * becomes [interpreter, argument, the script's path, argv[1]...] and
 * bprm->interp the interpreter, which the caller opens next.  0, -ENOEXEC
 * (no interpreter), -ELOOP (too many scripts deep), -E2BIG.
 */
static int load_script(struct linux_binprm *bprm)
{
	char *buf_end = bprm->buf + sizeof(bprm->buf) - 1;
	char *i_end, *i_name, *i_sep, *i_arg = NULL;
	int err;

	if (++bprm->recursion_depth > BINPRM_MAX_RECURSION)
		return -ELOOP;
	i_end = memchr(bprm->buf, '\n', sizeof(bprm->buf));
	if (!i_end) {
		i_end = next_non_spacetab(bprm->buf + 2, buf_end);
		if (!i_end || !next_terminator(i_end, buf_end))
			return -ENOEXEC;
		i_end = buf_end;
	}
	/* buf[1] is '!', so this stops at buf + 2 at the latest. */
	while (spacetab(i_end[-1]))
		i_end--;
	i_name = next_non_spacetab(bprm->buf + 2, i_end);
	if (!i_name || i_name == i_end)
		return -ENOEXEC;
	i_sep = next_terminator(i_name, i_end);
	if (i_sep && *i_sep)
		i_arg = next_non_spacetab(i_sep, i_end);
	*i_end = '\0';
	if (i_arg)
		*i_sep = '\0';

	remove_arg_zero(bprm);
	err = copy_string_kernel(bprm->interp, bprm);
	if (!err && i_arg)
		err = copy_string_kernel(i_arg, bprm);
	if (!err)
		err = copy_string_kernel(i_name, bprm);
	if (err)
		return err;
	/* i_name ends at i_end, inside buf: it fits interp_name. */
	strlcpy(bprm->interp_name, i_name, sizeof(bprm->interp_name));
	bprm->interp = bprm->interp_name;
	return 0;
}

/* ---- 3. the new address space ---------------------------------------------- */

/* The vm_flags of a mapping with protection prot (mmap's
 * calc_vm_prot_bits plus the VM_MAY* bits of a private mapping). */
static unsigned long prot_to_vm_flags(unsigned long prot)
{
	return calc_vm_prot_bits(prot) | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
}

/*
 * Map the segments kernel/elf.c listed into mm (loaded, current's):
 * the file pages, the zeroed rest of the last one when a bss follows
 * (Linux's padzero; in a read-only segment Linux ignores the write's
 * failure, here it is not tried), the bss's own anonymous pages.
 * 0 or -errno.
 */
static int elf_map_segments(struct mm_struct *mm, struct file *file, const struct elf_info *info)
{
	unsigned int i;

	for (i = 0; i < info->nr_segments; i++) {
		const struct elf_load_segment *seg = &info->segments[i];
		unsigned long bss_end = ALIGN_UP(seg->mem_end, PAGE_SIZE);
		long addr;
		int err;

		if (seg->map_end > seg->map_start) {
			addr = do_mmap_pgoff(mm, seg->map_start, seg->map_end - seg->map_start,
					     seg->prot, MAP_PRIVATE | MAP_FIXED, file, seg->pgoff);
			if (addr < 0)
				return addr;
		}
		if (seg->mem_end == seg->file_end)
			continue;
		if (seg->map_end > seg->file_end && (seg->prot & PROT_WRITE) &&
		    clear_user((void __user *)seg->file_end, seg->map_end - seg->file_end))
			return -EFAULT;
		if (bss_end > seg->map_end) {
			err = vm_brk_flags(mm, seg->map_end, bss_end - seg->map_end,
					   prot_to_vm_flags(seg->prot));
			if (err)
				return err;
		}
	}
	return 0;
}

/* Copy len bytes of data to the new stack just below bprm->p, which moves
 * down to them: 0 or -EFAULT. */
static int push_to_stack(struct linux_binprm *bprm, const void *data, size_t len)
{
	bprm->p -= len;
	return copy_to_user((void __user *)bprm->p, data, len) ? -EFAULT : 0;
}

/* Store one word at *sp and advance it: 0 or -EFAULT. */
static int put_word(unsigned long *sp, unsigned long val)
{
	if (put_user(val, (unsigned long __user *)*sp))
		return -EFAULT;
	*sp += sizeof(val);
	return 0;
}

/*
 * Store at *sp the user addresses of count consecutive strings, the
 * first at *ustr (whose kernel copy is at *kstr), then NULL; *ustr and
 * *kstr move past them.  0 or -EFAULT.
 */
static int put_string_array(unsigned long *sp, unsigned long *ustr, const char **kstr, int count)
{
	int i;

	for (i = 0; i < count; i++) {
		size_t len = strlen(*kstr) + 1;

		if (put_word(sp, *ustr))
			return -EFAULT;
		*ustr += len;
		*kstr += len;
	}
	return put_word(sp, 0);
}

/* The pairs of the auxiliary vector, AT_NULL's included. */
#define AUXV_PAIRS	19

/* The words create_elf_tables stores: argc, argv[] and envp[] with their
 * NULLs, the auxiliary vector. */
static unsigned long elf_table_words(const struct linux_binprm *bprm)
{
	return 1 + (bprm->argc + 1) + (bprm->envc + 1) + 2 * AUXV_PAIRS;
}

/*
 * The stack VMA, and on it, from STACK_TOP down, the end marker, the file
 * name (bprm->exec) and the argument and environment strings, in mm
 * (loaded, current's), whose arg_start..env_end it sets.  bprm->p ends
 * at the strings.  The VMA is STACK_INIT_SIZE, or larger when the
 * arguments and create_elf_tables need more.  0, -ENOMEM (a segment is
 * where the stack goes), -EFAULT.
 */
static int setup_arg_pages(struct linux_binprm *bprm, struct mm_struct *mm,
			   const struct elf_info *info)
{
	size_t filename_len = strlen(bprm->filename) + 1;
	unsigned long need, stack_size, stack_base, prot = PROT_READ | PROT_WRITE;
	long addr;
	int err;

	/* Everything on the stack: the strings, then create_elf_tables's
	 * alignment, platform string, random bytes, alignment and words. */
	need = sizeof(void *) + filename_len + bprm->args_len +
	       15 + sizeof(elf_platform) + AT_RANDOM_SIZE + 15 +
	       elf_table_words(bprm) * sizeof(unsigned long);
	stack_size = MAX(STACK_INIT_SIZE, ALIGN_UP(need, PAGE_SIZE));
	stack_base = STACK_TOP - stack_size;
	if (find_vma_intersection(mm, stack_base, STACK_TOP))
		return -ENOMEM;
	/* MAP_GROWSDOWN: VM_STACK_FLAGS, plus VM_EXEC if PT_GNU_STACK asks. */
	if (info->executable_stack)
		prot |= PROT_EXEC;
	addr = do_mmap_pgoff(mm, stack_base, stack_size, prot,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_GROWSDOWN, NULL, 0);
	if (addr < 0)
		return addr;

	/* Fresh anonymous memory is zero: the end marker needs no write. */
	bprm->p = STACK_TOP - sizeof(void *);
	err = push_to_stack(bprm, bprm->filename, filename_len);
	if (err)
		return err;
	bprm->exec = bprm->p;
	err = push_to_stack(bprm, bprm->args, bprm->args_len);
	if (err)
		return err;
	mm->arg_start = bprm->p;
	mm->env_end = bprm->p + bprm->args_len;
	return 0;
}

/* AT_HWCAP: CPUID.1:EDX, Linux's ELF_HWCAP on x86. */
static unsigned long elf_hwcap(void)
{
	uint32_t eax, ebx, ecx, edx;

	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	return edx;
}

/*
 * Below the strings setup_arg_pages left at bprm->p: AT_PLATFORM's
 * string, AT_RANDOM's bytes, then, 16-byte aligned, argc, argv[], envp[]
 * and the auxiliary vector (Linux's create_elf_tables; no AT_SYSINFO_EHDR,
 * there is no vDSO).  mm->start_stack and bprm->p become the address of
 * argc; arg_end and env_start are set.  0 or -EFAULT.
 */
static int create_elf_tables(struct linux_binprm *bprm, struct mm_struct *mm,
			     const struct elf_info *info)
{
	unsigned long u_platform = ALIGN_DOWN(bprm->p, 16) - sizeof(elf_platform);
	unsigned long u_rand = u_platform - AT_RANDOM_SIZE;
	const unsigned long auxv[] = {
		AT_HWCAP, elf_hwcap(),
		AT_PAGESZ, PAGE_SIZE,
		AT_CLKTCK, HZ,			/* times(2) counts ticks */
		AT_PHDR, info->phdr_addr,
		AT_PHENT, sizeof(Elf64_Phdr),
		AT_PHNUM, info->phnum,
		AT_BASE, 0,			/* no dynamic loader */
		AT_FLAGS, 0,
		AT_ENTRY, info->entry,
		AT_UID, 0,
		AT_EUID, 0,
		AT_GID, 0,
		AT_EGID, 0,
		AT_SECURE, 0,
		AT_RANDOM, u_rand,
		AT_HWCAP2, 0,
		AT_EXECFN, bprm->exec,
		AT_PLATFORM, u_platform,
		AT_NULL, 0,
	};
	const char *kstr = bprm->args;
	unsigned long sp, ustr;
	uint8_t random[AT_RANDOM_SIZE];
	int err;

	_Static_assert(ARRAY_SIZE(auxv) == 2 * AUXV_PAIRS, "AUXV_PAIRS counts auxv");
	get_random_bytes(random, sizeof(random));
	if (copy_to_user((void __user *)u_platform, elf_platform, sizeof(elf_platform)) ||
	    copy_to_user((void __user *)u_rand, random, sizeof(random)))
		return -EFAULT;

	sp = ALIGN_DOWN(u_rand - elf_table_words(bprm) * sizeof(unsigned long), 16);
	mm->start_stack = bprm->p = sp;
	ustr = mm->arg_start;
	err = put_word(&sp, bprm->argc);
	if (!err)
		err = put_string_array(&sp, &ustr, &kstr, bprm->argc);
	mm->arg_end = mm->env_start = ustr;
	if (!err)
		err = put_string_array(&sp, &ustr, &kstr, bprm->envc);
	if (!err && copy_to_user((void __user *)sp, auxv, sizeof(auxv)))
		err = -EFAULT;
	return err;
}

/*
 * Step 3: the new mm for the ELF program of bprm->file as info describes
 * it, with its stack, in bprm->mm.  current keeps its old mm (and CR3)
 * whatever happens; on failure the new one is freed.  0 or -errno.
 */
static int exec_build_mm(struct linux_binprm *bprm, const struct elf_info *info)
{
	struct mm_struct *old_mm = current->mm, *mm;
	int err;

	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	mm->start_code = info->start_code;
	mm->end_code = info->end_code;
	mm->start_data = info->start_data;
	mm->end_data = info->end_data;
	mm->start_brk = mm->brk = info->brk;

	/* Build on the new mm, so that uaccess writes and faults land in it. */
	current->mm = mm;
	switch_mm(mm);
	err = elf_map_segments(mm, bprm->file, info);
	if (!err)
		err = setup_arg_pages(bprm, mm, info);
	if (!err)
		err = create_elf_tables(bprm, mm, info);
	current->mm = old_mm;
	switch_mm(old_mm);
	if (err) {
		mmput(mm);
		return err;
	}
	bprm->mm = mm;
	return 0;
}

/* ---- 4. the point of no return ----------------------------------------------- */

/* The last component of path (Linux's kbasename). */
static const char *kbasename(const char *path)
{
	const char *tail = strrchr(path, '/');

	return tail ? tail + 1 : path;
}

/*
 * Make current the program bprm->mm holds, entering at info->entry with
 * the stack at bprm->p; exe_path (kmalloc'd) becomes current->exe_path.
 * Cannot fail.
 */
static void exec_mmap_and_start(struct linux_binprm *bprm, const struct elf_info *info,
				char *exe_path)
{
	struct mm_struct *old_mm = current->mm;
	struct pt_regs *regs = task_pt_regs(current);

	mm_release(current);
	current->mm = bprm->mm;
	switch_mm(bprm->mm);
	bprm->mm = NULL;
	if (old_mm)
		mmput(old_mm);

	/* A kernel thread turning into PID 1 may have no signal actions or
	 * descriptor table yet. */
	if (current->sighand)
		flush_signal_handlers(current);
	if (current->files)
		do_close_on_exec(current->files);
	strlcpy(current->comm, kbasename(bprm->filename), sizeof(current->comm));
	kfree(current->exe_path);
	current->exe_path = exe_path;
	current->fsbase = 0;
	wrmsr(MSR_FS_BASE, 0);
	fpu_reset(current);

	/* Linux's start_thread and ELF_PLAT_INIT: every general register 0
	 * (rdx 0 tells the C library there is no atexit function from a
	 * dynamic loader); vector and orig_ax stay as the entry built them. */
	memset(regs, 0, offsetof(struct pt_regs, vector));
	regs->rip = info->entry;
	regs->cs = __USER_CS;
	regs->rflags = X86_EFLAGS_IF;		/* 0x202: the CPU sets bit 1 */
	regs->rsp = bprm->p;
	regs->ss = __USER_DS;
}

/*
 * Load the ELF executable open in bprm->file (its first bytes in
 * bprm->buf) and, when it is loadable, start it: 0 (current runs it from
 * the next return to user mode) or -errno with current unchanged.
 */
static int load_elf_binary(struct linux_binprm *bprm)
{
	uint64_t file_size = bprm->file->f_inode->i_size;
	struct elf_info *info = NULL;
	Elf64_Phdr *phdrs = NULL;
	char *exe_path = NULL;
	size_t table_size;
	Elf64_Ehdr ehdr;
	long n;
	int err;

	err = elf_check_ehdr(bprm->buf, bprm->buf_len, file_size, &ehdr);
	if (err)
		return err;
	table_size = ehdr.e_phnum * sizeof(Elf64_Phdr);
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	phdrs = kmalloc(table_size, GFP_KERNEL);
	/* /proc/PID/exe: the file that runs, a script's interpreter. */
	exe_path = kstrdup(bprm->interp, GFP_KERNEL);
	if (!info || !phdrs || !exe_path) {
		err = -ENOMEM;
		goto out;
	}
	n = exec_read(bprm->file, ehdr.e_phoff, phdrs, table_size);
	if (n < 0)
		err = n;
	else if ((size_t)n != table_size)
		err = -ENOEXEC;
	else
		err = elf_check_phdrs(&ehdr, phdrs, file_size, info);
	if (!err)
		err = exec_build_mm(bprm, info);
	if (!err) {
		exec_mmap_and_start(bprm, info, exe_path);
		exe_path = NULL;
	}
out:
	kfree(exe_path);
	kfree(phdrs);
	kfree(info);
	return err;
}

/* Steps 2 to 4: open bprm->interp, following #! scripts, and load the
 * ELF executable at the end.  0 or -errno. */
static int exec_binprm(struct linux_binprm *bprm)
{
	bool script;
	int err;

	for (;;) {
		err = prepare_binprm(bprm);
		if (err)
			return err;
		script = bprm->buf[0] == '#' && bprm->buf[1] == '!';
		err = script ? load_script(bprm) : load_elf_binary(bprm);
		vfs_close(bprm->file);
		bprm->file = NULL;
		if (err || !script)
			return err;
	}
}

/* execve(filename, argv, envp) for both entries; filename is a kernel
 * string that stays valid during the call. */
static int do_execve(const char *filename, struct user_arg_ptr argv, struct user_arg_ptr envp)
{
	struct linux_binprm *bprm;
	int err;

	bprm = kzalloc(sizeof(*bprm), GFP_KERNEL);
	if (!bprm)
		return -ENOMEM;
	bprm->filename = bprm->interp = filename;
	bprm->args = kmalloc(ARG_MAX, GFP_KERNEL);
	err = bprm->args ? copy_strings(bprm, argv, &bprm->argc) : -ENOMEM;
	if (!err)
		err = copy_strings(bprm, envp, &bprm->envc);
	if (!err)
		err = exec_binprm(bprm);
	kfree(bprm->args);
	kfree(bprm);
	return err;
}

int kernel_execve(const char *filename, const char *const argv[], const char *const envp[])
{
	struct user_arg_ptr a = { .is_kernel = true, .ptr.kernel = argv };
	struct user_arg_ptr e = { .is_kernel = true, .ptr.kernel = envp };

	return do_execve(filename, a, e);
}

/*
 * execve(2): 0 on success, and the caller's registers are the new
 * program's (rax 0: the syscall exit must store this 0, or nothing, in
 * regs->rax); -errno with the old program intact otherwise.
 */
long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	struct user_arg_ptr a = { .is_kernel = false, .ptr.user = argv };
	struct user_arg_ptr e = { .is_kernel = false, .ptr.user = envp };
	char *name;
	long err;

	err = getname(filename, &name);
	if (err)
		return err;
	err = do_execve(name, a, e);
	putname(name);
	return err;
}
