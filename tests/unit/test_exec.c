/*
 * Host unit tests for execve (kernel/exec.c).
 *
 * The rest of the kernel is faked here, as exec sees it through the
 * headers:
 *   - asm/cpu.h is replaced by tests/unit/fake_cpu.h (the Makefile forces
 *     it in with -include): wrmsr records the FS base written, cpuid
 *     returns a fixed CPUID.1:EDX;
 *   - the VFS serves a few files by path: in-memory scripts and text, and
 *     host files (/bin/busybox, a dynamically linked /bin/ls) read
 *     through stdio; vfs_read returns at most 100 bytes a call, so exec's
 *     read loops are exercised;
 *   - an mm is a record of the mappings asked for (do_mmap_pgoff,
 *     vm_brk_flags), with an injectable failure of the nth one; switch_mm
 *     records the mm loaded, and every uaccess checks that exec only
 *     touches user memory with current->mm loaded;
 *   - user memory: the old program's pointers are host pointers (below
 *     4096 they fault), the new stack is a host buffer standing for the
 *     top USER_STACK bytes below STACK_TOP;
 *   - kmalloc and friends are cmocka's test_calloc/test_free, so every
 *     test also fails on a leak.
 *
 * The tests check Linux's initial stack word by word, the mappings made
 * for Debian's /bin/busybox, #! scripts (argv rewriting, nesting,
 * -ELOOP, malformed lines), every error exec can return before the point
 * of no return, and that such an error leaves the old process exactly as
 * it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <asm/cpu.h>	/* tests/unit/fake_cpu.h, forced in with -include */
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
#include <uapi/errno.h>

#ifndef FAKE_HWCAP
#error "build with -include tests/unit/fake_cpu.h"
#endif

/* exec's initial stack VMA (kernel/exec.c: Linux's 128 KiB). */
#define STACK_INIT_SIZE	(128ul << 10)

uint64_t fake_fsbase_written;

/* ---- allocations ------------------------------------------------------------ */

void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return test_calloc(1, size ? size : 1);
}

void kfree(const void *p)
{
	if (p)
		test_free((void *)p);
}

char *kstrdup(const char *s, gfp_t gfp)
{
	char *d = kmalloc(strlen(s) + 1, gfp);

	return strcpy(d, s);
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = MIN(len, size - 1);

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

long getname(const char __user *filename, char **res)
{
	if ((uintptr_t)filename < 4096)
		return -EFAULT;
	*res = kstrdup(filename, GFP_KERNEL);
	return 0;
}

void putname(char *name)
{
	kfree(name);
}

void cond_resched(void)
{
}

void get_random_bytes(void *buf, size_t len)
{
	memset(buf, 0xab, len);
}

/* ---- the VFS ------------------------------------------------------------------ */

struct fake_file {
	const char *path;
	umode_t mode;
	const void *data;	/* len bytes in memory, or NULL: */
	size_t len;
	const char *host;	/* a host file */
};

static struct fake_file files[24];
static int nr_files, open_files;

static void add_blob(const char *path, umode_t mode, const void *data, size_t len)
{
	assert_true(nr_files < (int)ARRAY_SIZE(files));
	files[nr_files++] = (struct fake_file){ path, mode, data, len, NULL };
}

/* A text file (data), or a host file. */
static void add_file(const char *path, umode_t mode, const char *data, const char *host)
{
	assert_true(nr_files < (int)ARRAY_SIZE(files));
	files[nr_files++] = (struct fake_file){ path, mode, data, data ? strlen(data) : 0, host };
}

static long host_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long size;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	return size;
}

int vfs_open(const char *path, unsigned int flags, umode_t mode, struct file **res)
{
	struct file *file;
	int i;

	assert_int_equal(flags, O_RDONLY);
	(void)mode;
	for (i = 0; i < nr_files; i++) {
		if (strcmp(files[i].path, path) != 0)
			continue;
		file = kmalloc(sizeof(*file), GFP_KERNEL);
		file->f_inode = kmalloc(sizeof(*file->f_inode), GFP_KERNEL);
		file->f_inode->i_mode = files[i].mode;
		file->f_inode->i_size = files[i].host ? host_size(files[i].host) :
				       (loff_t)files[i].len;
		file->f_mode = FMODE_READ;
		file->f_count = 1;
		file->private_data = &files[i];
		open_files++;
		*res = file;
		return 0;
	}
	return -ENOENT;
}

int vfs_close(struct file *file)
{
	assert_int_equal(file->f_count, 1);
	kfree(file->f_inode);
	kfree(file);
	open_files--;
	return 0;
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	assert_int_equal(whence, SEEK_SET);
	file->f_pos = offset;
	return offset;
}

long vfs_read(struct file *file, void *buf, size_t len)
{
	const struct fake_file *ff = file->private_data;
	loff_t size = file->f_inode->i_size;
	size_t n;
	FILE *f;

	len = MIN(len, 100);
	if (file->f_pos >= size)
		return 0;
	n = MIN(len, (size_t)(size - file->f_pos));
	if (!ff->host) {
		memcpy(buf, (const char *)ff->data + file->f_pos, n);
	} else {
		f = fopen(ff->host, "rb");
		assert_non_null(f);
		fseek(f, file->f_pos, SEEK_SET);
		assert_int_equal(fread(buf, 1, n, f), n);
		fclose(f);
	}
	file->f_pos += n;
	return n;
}

/* ---- address spaces -------------------------------------------------------------- */

struct mapping {
	unsigned long start, end, prot, flags, vm_flags;
	pgoff_t pgoff;
	bool file;
};

struct fake_mm {
	struct mm_struct mm;	/* first: exec's pointers are to it */
	struct mapping maps[16];
	int nr_maps;
};

static struct mm_struct old_mm;		/* the old program's */
static struct mm_struct *loaded;	/* what switch_mm loaded */
static int live_mms, fail_mm_alloc, fail_map_nr;

static struct fake_mm *to_fake(struct mm_struct *mm)
{
	return (struct fake_mm *)mm;
}

struct mm_struct *mm_alloc(void)
{
	struct fake_mm *f;

	if (fail_mm_alloc)
		return NULL;
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	f->mm.mm_users = 1;
	live_mms++;
	return &f->mm;
}

void mmput(struct mm_struct *mm)
{
	assert_ptr_not_equal(mm, loaded);
	if (--mm->mm_users || mm == &old_mm)
		return;
	live_mms--;
	kfree(mm);
}

void switch_mm(struct mm_struct *mm)
{
	loaded = mm;
}

/* Record a mapping in mm (which must be loaded and current's): 0, or
 * -ENOMEM when it is the one told to fail. */
static int record_map(struct mm_struct *mm, struct mapping m)
{
	struct fake_mm *f = to_fake(mm);

	assert_ptr_equal(mm, loaded);
	assert_ptr_equal(mm, current->mm);
	assert_true(f->nr_maps < (int)ARRAY_SIZE(f->maps));
	if (f->nr_maps + 1 == fail_map_nr)
		return -ENOMEM;
	f->maps[f->nr_maps++] = m;
	return 0;
}

long do_mmap_pgoff(struct mm_struct *mm, unsigned long addr, unsigned long len,
		   unsigned long prot, unsigned long flags, struct file *file, pgoff_t pgoff)
{
	struct mapping m = { addr, addr + len, prot, flags, 0, pgoff, file != NULL };
	int err = record_map(mm, m);

	return err ? err : (long)addr;
}

int vm_brk_flags(struct mm_struct *mm, unsigned long addr, unsigned long len,
		 unsigned long vm_flags)
{
	struct mapping m = { addr, addr + len, 0, 0, vm_flags, 0, false };

	return record_map(mm, m);
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end)
{
	static struct vm_area_struct any;
	struct fake_mm *f = to_fake(mm);
	int i;

	for (i = 0; i < f->nr_maps; i++)
		if (f->maps[i].start < end && start < f->maps[i].end)
			return &any;
	return NULL;
}

/* ---- user memory ----------------------------------------------------------------- */

#define USER_STACK	(2ul << 20)
#define USER_STACK_BASE	(STACK_TOP - USER_STACK)

static uint8_t *stack_mem;
static struct { unsigned long addr, len; } cleared[4];
static int nr_cleared;

/* The host address of new user memory [addr, addr+len), or NULL. */
static void *user_mem(unsigned long addr, unsigned long len)
{
	assert_ptr_equal(loaded, current->mm);
	if (addr < USER_STACK_BASE || addr + len > STACK_TOP || addr + len < addr)
		return NULL;
	return stack_mem + (addr - USER_STACK_BASE);
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	void *dst = user_mem((unsigned long)to, n);

	if (!dst)
		return n;
	memcpy(dst, from, n);
	return 0;
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	assert_ptr_equal(loaded, current->mm);
	assert_true(nr_cleared < (int)ARRAY_SIZE(cleared));
	cleared[nr_cleared].addr = (unsigned long)to;
	cleared[nr_cleared++].len = n;
	return 0;
}

int __put_user_size(const void *kval, void __user *uptr, unsigned long size)
{
	void *dst = user_mem((unsigned long)uptr, size);

	if (!dst)
		return -EFAULT;
	memcpy(dst, kval, size);
	return 0;
}

/* The old program's memory: host pointers; the first page faults. */
int __get_user_size(void *kval, const void __user *uptr, unsigned long size)
{
	if ((uintptr_t)uptr < 4096)
		return -EFAULT;
	memcpy(kval, uptr, size);
	return 0;
}

long strncpy_from_user(char *dst, const char __user *src, long count)
{
	long i;

	if ((uintptr_t)src < 4096)
		return -EFAULT;
	for (i = 0; i < count; i++) {
		dst[i] = src[i];
		if (!src[i])
			return i;
	}
	return count;
}

/* ---- the process ------------------------------------------------------------------- */

static struct task_struct task;
struct task_struct *current = &task;
static uint8_t kstack[4096] __attribute__((aligned(16)));
static int released, flushed, closed, fpu_resets;

void mm_release(struct task_struct *tsk)
{
	assert_ptr_equal(tsk, current);
	assert_ptr_equal(tsk->mm, loaded);	/* the old mm, still in place */
	released++;
}

void flush_signal_handlers(struct task_struct *t)
{
	assert_non_null(t->sighand);
	flushed++;
}

void do_close_on_exec(struct files_struct *files)
{
	assert_non_null(files);
	closed++;
}

void fpu_reset(struct task_struct *t)
{
	assert_ptr_equal(t, current);
	fpu_resets++;
}

static char *old_exe_path;

/* current: a user process running the old program, exe_path old_exe_path. */
static void become_old_program(void)
{
	memset(&task, 0, sizeof(task));
	task.stack_top = (uint64_t)(kstack + sizeof(kstack));
	memset(&old_mm, 0, sizeof(old_mm));
	old_mm.mm_users = 1;
	task.mm = loaded = &old_mm;
	task.files = (struct files_struct *)&old_mm;	/* non-NULL tokens */
	task.sighand = (struct sighand_struct *)&old_mm;
	strcpy(task.comm, "old");
	task.exe_path = old_exe_path;
	task.fsbase = 0x1234;
	memset(task_pt_regs(&task), 0x5a, sizeof(struct pt_regs));
	task_pt_regs(&task)->vector = SYSCALL_VECTOR;
	task_pt_regs(&task)->orig_ax = 59;
	fake_fsbase_written = ~0ull;
	released = flushed = closed = fpu_resets = 0;
	fail_mm_alloc = fail_map_nr = 0;
	nr_cleared = 0;
	live_mms = 0;
	memset(stack_mem, 0, USER_STACK);
}

/*
 * The old program, and the files it may exec.  cmocka wants what a test
 * allocates freed by its end, and what setup allocates by teardown: the
 * old exe_path (which exec frees) and the user stack are setup's.  The
 * stack comes last: cmocka remembers setup's last block as the start of
 * the test's, so the test must not free it.
 */
static int setup(void **state)
{
	(void)state;
	old_exe_path = kstrdup("/old", GFP_KERNEL);
	stack_mem = test_calloc(1, USER_STACK);
	become_old_program();
	nr_files = 0;
	add_file("/bin/busybox", S_IFREG | 0755, NULL, "/bin/busybox");
	add_file("/bin/ls", S_IFREG | 0755, NULL, "/bin/ls");
	add_file("/noexec", S_IFREG | 0644, NULL, "/bin/busybox");
	add_file("/xgroup", S_IFREG | 0610, NULL, "/bin/busybox");
	add_file("/dir", S_IFDIR | 0755, "", NULL);
	add_file("/text", S_IFREG | 0755, "hello, world\n", NULL);
	add_file("/empty", S_IFREG | 0755, "", NULL);
	add_file("/s1", S_IFREG | 0755, "#!/bin/busybox sh -x  \necho hi\n", NULL);
	add_file("/s2", S_IFREG | 0755, "#! \t/s1\n", NULL);
	add_file("/loop", S_IFREG | 0755, "#!/loop", NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	kfree(task.exe_path);
	test_free(stack_mem);
	assert_int_equal(open_files, 0);
	return 0;
}

/* ---- reading the new stack ------------------------------------------------------ */

static unsigned long word(unsigned long addr)
{
	unsigned long v;

	memcpy(&v, user_mem(addr, sizeof(v)), sizeof(v));
	return v;
}

static const char *ustr(unsigned long addr)
{
	return user_mem(addr, 1);
}

/* The value of auxv key id in the vector starting at auxv (0 if absent). */
static unsigned long auxv_get(unsigned long auxv, unsigned long id)
{
	for (; word(auxv) != AT_NULL; auxv += 16)
		if (word(auxv) == id)
			return word(auxv + 8);
	return 0;
}

/*
 * Check the new program's stack against argv and envp (NULL-terminated),
 * Linux's layout, and the mm's arg/env bounds; the address of the auxv.
 */
static unsigned long check_stack(const char *const *argv, const char *const *envp)
{
	struct mm_struct *mm = current->mm;
	unsigned long sp = task_pt_regs(current)->rsp, p, strings;
	int argc = 0, envc = 0, i;

	while (argv[argc])
		argc++;
	while (envp[envc])
		envc++;
	assert_int_equal(sp % 16, 0);
	assert_int_equal(sp, mm->start_stack);
	assert_int_equal(word(sp), argc);
	/* argv strings then envp strings, contiguous, from arg_start */
	strings = mm->arg_start;
	for (i = 0; i < argc; i++) {
		p = word(sp + 8 + 8 * i);
		assert_int_equal(p, strings);
		assert_string_equal(ustr(p), argv[i]);
		strings += strlen(argv[i]) + 1;
	}
	assert_int_equal(word(sp + 8 + 8 * argc), 0);
	assert_int_equal(mm->arg_end, strings);
	assert_int_equal(mm->env_start, strings);
	for (i = 0; i < envc; i++) {
		p = word(sp + 16 + 8 * (argc + i));
		assert_int_equal(p, strings);
		assert_string_equal(ustr(p), envp[i]);
		strings += strlen(envp[i]) + 1;
	}
	assert_int_equal(word(sp + 16 + 8 * (argc + envc)), 0);
	assert_int_equal(mm->env_end, strings);
	return sp + 24 + 8 * (argc + envc);
}

/* The auxiliary vector of a program started with filename. */
static void check_auxv(unsigned long auxv, const char *filename, const struct elf_info *info)
{
	unsigned long execfn = auxv_get(auxv, AT_EXECFN), rnd = auxv_get(auxv, AT_RANDOM);
	static const unsigned long order[] = {
		AT_HWCAP, AT_PAGESZ, AT_CLKTCK, AT_PHDR, AT_PHENT, AT_PHNUM, AT_BASE, AT_FLAGS,
		AT_ENTRY, AT_UID, AT_EUID, AT_GID, AT_EGID, AT_SECURE, AT_RANDOM, AT_HWCAP2,
		AT_EXECFN, AT_PLATFORM, AT_NULL,
	};
	unsigned int i;
	uint8_t ab[16];

	for (i = 0; i < ARRAY_SIZE(order); i++)
		assert_int_equal(word(auxv + 16 * i), order[i]);
	assert_int_equal(auxv_get(auxv, AT_HWCAP), FAKE_HWCAP);
	assert_int_equal(auxv_get(auxv, AT_PAGESZ), PAGE_SIZE);
	assert_int_equal(auxv_get(auxv, AT_CLKTCK), 100);
	assert_int_equal(auxv_get(auxv, AT_PHDR), info->phdr_addr);
	assert_int_equal(auxv_get(auxv, AT_PHENT), sizeof(Elf64_Phdr));
	assert_int_equal(auxv_get(auxv, AT_PHNUM), info->phnum);
	assert_int_equal(auxv_get(auxv, AT_ENTRY), info->entry);
	assert_string_equal(ustr(auxv_get(auxv, AT_PLATFORM)), "x86_64");
	memset(ab, 0xab, sizeof(ab));
	assert_memory_equal(user_mem(rnd, 16), ab, 16);
	/* the file name sits at the top, above the strings, below 8 zero bytes */
	assert_string_equal(ustr(execfn), filename);
	assert_int_equal(execfn, current->mm->env_end);
	assert_int_equal(execfn + strlen(filename) + 1, STACK_TOP - 8);
	assert_int_equal(word(STACK_TOP - 8), 0);
	assert_true(rnd + 16 <= auxv_get(auxv, AT_PLATFORM));
	assert_true(auxv_get(auxv, AT_PLATFORM) + 7 <= current->mm->arg_start);
}

/* What elf.c says about a host file. */
static void parse_host(const char *path, struct elf_info *info)
{
	static uint8_t buf[BINPRM_BUF_SIZE];
	Elf64_Phdr phdrs[ELF_MAX_PHNUM];
	Elf64_Ehdr ehdr;
	FILE *f = fopen(path, "rb");
	long size = host_size(path);

	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf), f), sizeof(buf));
	assert_int_equal(elf_check_ehdr(buf, sizeof(buf), size, &ehdr), 0);
	fseek(f, ehdr.e_phoff, SEEK_SET);
	assert_int_equal(fread(phdrs, sizeof(Elf64_Phdr), ehdr.e_phnum, f), ehdr.e_phnum);
	fclose(f);
	assert_int_equal(elf_check_phdrs(&ehdr, phdrs, size, info), 0);
}

/*
 * A minimal static executable, /mini: one PT_LOAD (r-x, the first 0x200
 * bytes of the file, headers included) at vaddr, the entry 0x100 into it,
 * a PT_GNU_STACK with stack_flags, and when bss is not 0 a second PT_LOAD
 * (rw-) of bss bytes with nothing from the file at vaddr + 0x1800.
 */
static uint8_t mini_elf[0x200] __attribute__((aligned(8)));

static void build_mini(Elf64_Half type, uint64_t vaddr, Elf64_Word stack_flags, uint64_t bss)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)mini_elf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(mini_elf + sizeof(*eh));

	memset(mini_elf, 0, sizeof(mini_elf));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = type;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = vaddr + 0x100;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = bss ? 3 : 2;
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = vaddr,
			      .p_filesz = sizeof(mini_elf), .p_memsz = sizeof(mini_elf) };
	ph[1] = (Elf64_Phdr){ .p_type = PT_GNU_STACK, .p_flags = stack_flags };
	ph[2] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = 0x800,
			      .p_vaddr = vaddr + 0x1800, .p_memsz = bss };
	add_blob("/mini", S_IFREG | 0755, mini_elf, sizeof(mini_elf));
}

/* The old program is untouched (after a failed exec). */
static void check_unchanged(void)
{
	assert_ptr_equal(current->mm, &old_mm);
	assert_ptr_equal(loaded, &old_mm);
	assert_int_equal(old_mm.mm_users, 1);
	assert_int_equal(live_mms, 0);
	assert_string_equal(current->comm, "old");
	assert_ptr_equal(current->exe_path, old_exe_path);
	assert_int_equal(current->fsbase, 0x1234);
	assert_int_equal(fake_fsbase_written, ~0ull);
	assert_int_equal(task_pt_regs(current)->rip, 0x5a5a5a5a5a5a5a5aull);
	assert_int_equal(released + flushed + closed + fpu_resets, 0);
	assert_int_equal(open_files, 0);
}

/* Free what a successful exec installed: its mm and exe_path. */
static void drop_new_mm(void)
{
	loaded = NULL;
	mmput(current->mm);
	assert_int_equal(live_mms, 0);
	kfree(current->exe_path);
	current->exe_path = NULL;
}

/* After a successful exec and drop_new_mm: the old program again, for
 * another exec in the same test (its exe_path was freed: NULL now). */
static void again(void)
{
	old_exe_path = NULL;
	become_old_program();
}

/* ---- the tests ------------------------------------------------------------------- */

static void test_busybox(void **state)
{
	static const char *const argv[] = { "busybox", "ls", "-l", NULL };
	static const char *const envp[] = { "HOME=/", "TERM=linux", NULL };
	struct pt_regs *regs = task_pt_regs(current);
	struct elf_info *info = test_malloc(sizeof(*info));
	struct fake_mm *f;
	unsigned int i, m = 0;

	(void)state;
	parse_host("/bin/busybox", info);
	assert_int_equal(kernel_execve("/bin/busybox", argv, envp), 0);

	/* the switch: old mm released and dropped, the new one loaded */
	assert_int_equal(released, 1);
	assert_int_equal(old_mm.mm_users, 0);
	assert_ptr_not_equal(current->mm, &old_mm);
	assert_ptr_equal(loaded, current->mm);
	assert_int_equal(flushed, 1);
	assert_int_equal(closed, 1);
	assert_int_equal(fpu_resets, 1);
	assert_string_equal(current->comm, "busybox");
	assert_string_equal(current->exe_path, "/bin/busybox");
	assert_int_equal(current->fsbase, 0);
	assert_int_equal(fake_fsbase_written, 0);
	assert_int_equal(open_files, 0);

	/* the registers: entry, stack, zeros; the syscall bookkeeping kept */
	assert_int_equal(regs->rip, info->entry);
	assert_int_equal(regs->cs, __USER_CS);
	assert_int_equal(regs->ss, __USER_DS);
	assert_int_equal(regs->rflags, X86_EFLAGS_IF);
	assert_int_equal(regs->rax | regs->rdx | regs->rdi | regs->rsi | regs->rcx | regs->r11 |
			 regs->rbx | regs->rbp | regs->r8 | regs->r15, 0);
	assert_int_equal(regs->vector, SYSCALL_VECTOR);
	assert_int_equal(regs->orig_ax, 59);

	/* the mappings: each segment's file pages, the bss, the stack */
	f = to_fake(current->mm);
	for (i = 0; i < info->nr_segments; i++) {
		const struct elf_load_segment *seg = &info->segments[i];

		assert_int_equal(f->maps[m].start, seg->map_start);
		assert_int_equal(f->maps[m].end, seg->map_end);
		assert_int_equal(f->maps[m].pgoff, seg->pgoff);
		assert_int_equal(f->maps[m].prot, seg->prot);
		assert_int_equal(f->maps[m].flags, MAP_PRIVATE | MAP_FIXED);
		assert_true(f->maps[m++].file);
		if (seg->mem_end > seg->map_end) {
			assert_int_equal(f->maps[m].start, seg->map_end);
			assert_int_equal(f->maps[m].end, ALIGN_UP(seg->mem_end, PAGE_SIZE));
			assert_int_equal(f->maps[m++].vm_flags, VM_READ | VM_WRITE |
					 VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC);
			assert_int_equal(nr_cleared, 1);
			assert_int_equal(cleared[0].addr, seg->file_end);
			assert_int_equal(cleared[0].addr + cleared[0].len, seg->map_end);
		}
	}
	assert_int_equal(f->maps[m].end, STACK_TOP);
	assert_int_equal(f->maps[m].end - f->maps[m].start, STACK_INIT_SIZE);
	assert_int_equal(f->maps[m].prot, PROT_READ | PROT_WRITE);
	assert_int_equal(f->maps[m].flags, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_GROWSDOWN);
	assert_int_equal(f->nr_maps, m + 1);

	assert_int_equal(current->mm->start_code, info->start_code);
	assert_int_equal(current->mm->end_code, info->end_code);
	assert_int_equal(current->mm->start_data, info->start_data);
	assert_int_equal(current->mm->end_data, info->end_data);
	assert_int_equal(current->mm->start_brk, info->brk);
	assert_int_equal(current->mm->brk, info->brk);

	check_auxv(check_stack(argv, envp), "/bin/busybox", info);
	test_free(info);
	drop_new_mm();
}

/* execve(2) of a script run by a script: argv is rewritten twice. */
static void test_nested_scripts(void **state)
{
	static const char *const argv[] = { "name", "a1", NULL };
	static const char *const want[] = { "/bin/busybox", "sh -x", "/s1", "/s2", "a1", NULL };
	static const char *const none[] = { NULL };
	struct elf_info *info = test_malloc(sizeof(*info));

	(void)state;
	parse_host("/bin/busybox", info);
	assert_int_equal(sys_execve("/s2", argv, NULL), 0);
	check_auxv(check_stack(want, none), "/s2", info);
	assert_string_equal(current->comm, "s2");
	assert_string_equal(current->exe_path, "/bin/busybox");
	test_free(info);
	drop_new_mm();
}

/* A script run with an empty argv: nothing to drop before the rewrite. */
static void test_script_no_argv(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const want[] = { "/bin/busybox", "sh -x", "/s1", NULL };

	(void)state;
	assert_int_equal(kernel_execve("/s1", none, none), 0);
	check_stack(want, none);
	drop_new_mm();
}

/* #! lines, as Linux's load_script reads them. */
static void test_script_lines(void **state)
{
	static const char *const none[] = { NULL };
	static const struct {
		const char *text;
		int err;
		const char *argv1;	/* the argument, or NULL */
		size_t len;
	} cases[] = {
#define LINE(text, err, argv1) { text, err, argv1, sizeof(text) - 1 }
		LINE("#!/bin/busybox", 0, NULL),			/* no newline, short file */
		LINE("#!/bin/busybox\n", 0, NULL),
		LINE("#!  /bin/busybox\t \n", 0, NULL),
		LINE("#!/bin/busybox\targ\n", 0, "arg"),
		LINE("#!/bin/busybox  a b  c  \n", 0, "a b  c"),
		LINE("#!/bin/busybox\0junk\n", 0, NULL),
		LINE("#!\n", -ENOEXEC, NULL),
		LINE("#!  \t \n", -ENOEXEC, NULL),
		LINE("#!", -ENOENT, NULL),		/* Linux: the empty name "" */
		LINE("#!/nonexistent\n", -ENOENT, NULL),
		LINE("#!/text\n", -ENOEXEC, NULL),
		LINE("#!/noexec\n", -EACCES, NULL),
#undef LINE
	};
	static char long_line[BINPRM_BUF_SIZE + 64];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *with_arg[] = { "/bin/busybox", cases[i].argv1, "/t", NULL };
		const char *without[] = { "/bin/busybox", "/t", NULL };
		int err;

		add_blob("/t", S_IFREG | 0755, cases[i].text, cases[i].len);
		err = kernel_execve("/t", none, none);
		nr_files--;
		assert_int_equal(err, cases[i].err);
		if (err) {
			check_unchanged();
			continue;
		}
		check_stack(cases[i].argv1 ? with_arg : without, none);
		drop_new_mm();
		again();
	}

	/* an interpreter name cut by the buffer's end: refused */
	memcpy(long_line, "#!/", 3);
	memset(long_line + 3, 'a', sizeof(long_line) - 4);
	add_file("/long", S_IFREG | 0755, long_line, NULL);
	assert_int_equal(kernel_execve("/long", none, none), -ENOEXEC);
	/* but an argument cut there is fine: the name ends inside the buffer */
	memcpy(long_line, "#!/bin/busybox ", 15);
	assert_int_equal(kernel_execve("/long", none, none), 0);
	assert_int_equal(strlen(ustr(word(task_pt_regs(current)->rsp + 16))),
			 BINPRM_BUF_SIZE - 15 - 1);
	drop_new_mm();
}

/* Four scripts deep run; five are -ELOOP, as is a script naming itself. */
static void test_eloop(void **state)
{
	static const char *const none[] = { NULL };

	(void)state;
	add_file("/d1", S_IFREG | 0755, "#!/bin/busybox\n", NULL);
	add_file("/d2", S_IFREG | 0755, "#!/d1\n", NULL);
	add_file("/d3", S_IFREG | 0755, "#!/d2\n", NULL);
	add_file("/d4", S_IFREG | 0755, "#!/d3\n", NULL);
	add_file("/d5", S_IFREG | 0755, "#!/d4\n", NULL);
	assert_int_equal(kernel_execve("/loop", none, none), -ELOOP);
	check_unchanged();
	assert_int_equal(kernel_execve("/d5", none, none), -ELOOP);
	check_unchanged();
	assert_int_equal(kernel_execve("/d4", none, none), 0);
	drop_new_mm();
}

static void test_file_errors(void **state)
{
	static const char *const none[] = { NULL };

	(void)state;
	assert_int_equal(kernel_execve("/nonexistent", none, none), -ENOENT);
	check_unchanged();
	assert_int_equal(kernel_execve("/noexec", none, none), -EACCES);
	check_unchanged();
	assert_int_equal(kernel_execve("/dir", none, none), -EACCES);
	check_unchanged();
	assert_int_equal(kernel_execve("/text", none, none), -ENOEXEC);
	check_unchanged();
	assert_int_equal(kernel_execve("/empty", none, none), -ENOEXEC);
	check_unchanged();
	/* dynamically linked: PT_INTERP, and no dynamic loader */
	assert_int_equal(kernel_execve("/bin/ls", none, none), -ENOEXEC);
	check_unchanged();
	assert_int_equal(sys_execve((const char *)8, none, none), -EFAULT);
	check_unchanged();
	/* one execute bit is enough */
	assert_int_equal(kernel_execve("/xgroup", none, none), 0);
	drop_new_mm();
}

static void test_bad_pointers(void **state)
{
	static const char *const bad_str[] = { "ok", (const char *)16, NULL };
	static const char *const none[] = { NULL };

	(void)state;
	assert_int_equal(sys_execve("/bin/busybox", (const char *const *)8, none), -EFAULT);
	check_unchanged();
	assert_int_equal(sys_execve("/bin/busybox", none, (const char *const *)8), -EFAULT);
	check_unchanged();
	assert_int_equal(sys_execve("/bin/busybox", bad_str, none), -EFAULT);
	check_unchanged();
	assert_int_equal(sys_execve("/bin/busybox", none, bad_str), -EFAULT);
	check_unchanged();
	/* NULL arrays are empty ones */
	assert_int_equal(sys_execve("/bin/busybox", NULL, NULL), 0);
	assert_int_equal(word(task_pt_regs(current)->rsp), 0);
	drop_new_mm();
}

/* ARG_MAX: strings plus pointers; the limit itself still fits. */
static void test_e2big(void **state)
{
	static char big[ARG_MAX + 1];
	static const char *many[ARG_MAX / 10 + 2];
	const char *const one[] = { big, NULL };
	static const char *const none[] = { NULL };
	struct fake_mm *f;
	unsigned int i;

	(void)state;
	memset(big, 'x', ARG_MAX);
	assert_int_equal(sys_execve("/bin/busybox", one, none), -E2BIG);
	check_unchanged();
	big[ARG_MAX - 8] = '\0';	/* 1 byte too many with its NUL and pointer */
	assert_int_equal(sys_execve("/bin/busybox", one, none), -E2BIG);
	assert_int_equal(sys_execve("/bin/busybox", none, one), -E2BIG);
	check_unchanged();
	big[ARG_MAX - 9] = '\0';	/* exactly ARG_MAX */
	assert_int_equal(sys_execve("/bin/busybox", one, none), 0);
	/* the stack VMA grew past STACK_INIT_SIZE to hold it */
	f = to_fake(current->mm);
	assert_true(f->maps[f->nr_maps - 1].end - f->maps[f->nr_maps - 1].start > STACK_INIT_SIZE);
	assert_int_equal(strlen(ustr(word(task_pt_regs(current)->rsp + 8))), ARG_MAX - 9);
	drop_new_mm();
	again();

	/* many small strings: 10 bytes each with the pointer */
	for (i = 0; i < ARRAY_SIZE(many) - 1; i++)
		many[i] = "y";
	assert_int_equal(sys_execve("/bin/busybox", many, none), -E2BIG);
	check_unchanged();
	many[ARG_MAX / 10] = NULL;
	assert_int_equal(sys_execve("/bin/busybox", many, none), 0);
	assert_int_equal(word(task_pt_regs(current)->rsp), ARG_MAX / 10);
	drop_new_mm();
}

/* Every failure while the new mm is built leaves the old program as it
 * was, and frees the new mm. */
static void test_build_failures(void **state)
{
	static const char *const argv[] = { "busybox", NULL };
	int nr;

	(void)state;
	fail_mm_alloc = 1;
	assert_int_equal(kernel_execve("/bin/busybox", argv, argv), -ENOMEM);
	check_unchanged();
	fail_mm_alloc = 0;
	/* busybox: 4 file mappings, a bss, the stack */
	for (nr = 1; nr <= 6; nr++) {
		fail_map_nr = nr;
		assert_int_equal(kernel_execve("/bin/busybox", argv, argv), -ENOMEM);
		check_unchanged();
	}
	/* a segment where the stack goes */
	fail_map_nr = 0;
	build_mini(ET_EXEC, STACK_TOP - 0x10000, PF_R | PF_W, 0);
	assert_int_equal(kernel_execve("/mini", argv, argv), -ENOMEM);
	check_unchanged();
}

/* A static-pie (ET_DYN) runs at ELF_ET_DYN_BASE. */
static void test_static_pie(void **state)
{
	static const char *const argv[] = { "pie", NULL };
	static const char *const none[] = { NULL };
	struct fake_mm *f;
	unsigned long auxv;

	(void)state;
	build_mini(ET_DYN, 0, PF_R | PF_W, 0);
	assert_int_equal(kernel_execve("/mini", argv, none), 0);
	assert_int_equal(task_pt_regs(current)->rip, ELF_ET_DYN_BASE + 0x100);
	f = to_fake(current->mm);
	assert_int_equal(f->maps[0].start, ELF_ET_DYN_BASE);
	assert_int_equal(f->maps[1].prot, PROT_READ | PROT_WRITE);	/* the stack */
	auxv = check_stack(argv, none);
	assert_int_equal(auxv_get(auxv, AT_ENTRY), ELF_ET_DYN_BASE + 0x100);
	assert_int_equal(auxv_get(auxv, AT_PHDR), ELF_ET_DYN_BASE + sizeof(Elf64_Ehdr));
	assert_int_equal(auxv_get(auxv, AT_PHNUM), 2);
	assert_int_equal(current->mm->brk, ELF_ET_DYN_BASE + PAGE_SIZE);
	drop_new_mm();
}

/* PT_GNU_STACK with PF_X: an executable stack. */
static void test_exec_stack(void **state)
{
	static const char *const none[] = { NULL };
	struct fake_mm *f;

	(void)state;
	build_mini(ET_EXEC, 0x400000, PF_R | PF_W | PF_X, 0);
	assert_int_equal(kernel_execve("/mini", none, none), 0);
	f = to_fake(current->mm);
	assert_int_equal(f->nr_maps, 2);
	assert_int_equal(f->maps[1].prot, PROT_READ | PROT_WRITE | PROT_EXEC);
	drop_new_mm();
}

/* A segment that is all bss: anonymous pages from its first page, and
 * no file page to clear. */
static void test_bss_only_segment(void **state)
{
	static const char *const none[] = { NULL };
	struct fake_mm *f;

	(void)state;
	build_mini(ET_EXEC, 0x400000, PF_R | PF_W, 0x2000);
	assert_int_equal(kernel_execve("/mini", none, none), 0);
	f = to_fake(current->mm);
	assert_int_equal(f->nr_maps, 3);
	assert_int_equal(f->maps[0].start, 0x400000);
	assert_int_equal(f->maps[0].end, 0x401000);
	assert_false(f->maps[1].file);
	assert_int_equal(f->maps[1].start, 0x401000);
	assert_int_equal(f->maps[1].end, 0x404000);
	assert_int_equal(f->maps[1].vm_flags, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE |
			 VM_MAYEXEC);
	assert_int_equal(nr_cleared, 0);
	assert_int_equal(current->mm->brk, 0x404000);
	drop_new_mm();
}

/* A kernel thread (no mm, files or signal actions) becoming PID 1. */
static void test_from_kernel_thread(void **state)
{
	static const char *const argv[] = { "init", NULL };
	static const char *const envp[] = { "HOME=/", "TERM=linux", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL };

	(void)state;
	task.mm = loaded = NULL;
	task.files = NULL;
	task.sighand = NULL;
	assert_int_equal(kernel_execve("/bin/busybox", argv, envp), 0);
	assert_non_null(current->mm);
	assert_int_equal(released, 1);
	assert_int_equal(flushed + closed, 0);
	assert_string_equal(current->exe_path, "/bin/busybox");
	check_stack(argv, envp);
	drop_new_mm();
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_busybox),
		TEST(test_nested_scripts),
		TEST(test_script_no_argv),
		TEST(test_script_lines),
		TEST(test_eloop),
		TEST(test_file_errors),
		TEST(test_bad_pointers),
		TEST(test_e2big),
		TEST(test_build_failures),
		TEST(test_static_pie),
		TEST(test_exec_stack),
		TEST(test_bss_only_segment),
		TEST(test_from_kernel_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
