/*
 * Host unit tests for the text of /proc (kernel/fs/proc/array.c,
 * task_mmu.c, stat.c, meminfo.c with kernel/fs/seq_file.c): the exact
 * bytes of /proc/PID/stat, statm and maps, and of /proc/stat, uptime
 * and loadavg, for a made-up process and made-up counters, against
 * strings worked out by hand from Linux's formats; the computed lines of
 * status and meminfo.
 *
 * The process: pid 5 ("sh"), child of pid 1, asleep, on a terminal
 * (4:64, foreground group 5), with five VMAs: the program's text and
 * data (a file, inode 13 on device 00:01), the heap, a shared anonymous
 * mapping and the stack.  Everything procfs calls outside these files
 * (task_rlimit, task_fs, tty_devnum, path_lookup, the counters) is
 * defined below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <drivers/tty.h>
#include <fs/devfs.h>
#include <fs/file.h>
#include <fs/proc_fs.h>
#include <fs/vfs.h>
#include <mm/mmap.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/kernel_stat.h>
#include <pageturn/irq.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>

#include "kernel_stubs.h"

/* ---- what procfs reads ---------------------------------------------------- */

LIST_HEAD(task_list_head);
unsigned long nr_threads = 23;
unsigned long total_forks = 14;
unsigned long avenrun[3];
struct kernel_cpustat kcpustat;
uint64_t nr_switches = 1800;
struct fs_struct init_fs = { .umask = 022 };
long vm_stat[NR_VM_ZONE_STAT_ITEMS];
struct pglist_data contig_page_data;
unsigned long totalram_pages = 131072;
unsigned long totalreserve_pages = 100;

static uint64_t fake_irqs[NR_IRQS] = { 9925, 41, 0, 0, 55 };
static uint64_t fake_ktime_ns = 12345678901ull;

uint64_t irq_count(unsigned int irq)
{
	return irq < NR_IRQS ? fake_irqs[irq] : 0;
}

uint64_t getboottime_seconds(void)
{
	return 1709210091;
}

uint64_t ktime_get_ns(void)
{
	return fake_ktime_ns;
}

unsigned long nr_running(void)
{
	return 1;
}

unsigned long nr_uninterruptible(void)
{
	return 0;
}

unsigned long nr_blockdev_pages(void)
{
	return 7;
}

void si_swapinfo(unsigned long *totalswap, unsigned long *freeswap)
{
	*totalswap = 1000;
	*freeswap = 600;
}

unsigned long total_swapcache_pages(void)
{
	return 25;
}

unsigned long task_rlimit(const struct task_struct *p, unsigned int resource)
{
	(void)p;
	return resource == RLIMIT_SIGPENDING ? 64 : RLIM_INFINITY;
}

struct fs_struct *task_fs(struct task_struct *task)
{
	return task->fs ? task->fs : task->exit_state ? NULL : &init_fs;
}

uint32_t tty_devnum(const struct tty_struct *tty)
{
	(void)tty;
	return MKDEV(4, 64);
}

/* kstrdup and kfree for the one string procfs copies at a time (the
 * host's malloc cannot be declared next to the kernel's types). */
static char kstrdup_buf[256];
static bool kstrdup_used;

char *kstrdup(const char *s, gfp_t gfp)
{
	(void)gfp;
	assert_false(kstrdup_used);
	assert_true(strlen(s) < sizeof(kstrdup_buf));
	kstrdup_used = true;
	return strcpy(kstrdup_buf, s);
}

void kfree(const void *p)
{
	if (p) {
		assert_ptr_equal(p, kstrdup_buf);
		kstrdup_used = false;
	}
}

static struct super_block disk_sb = { .s_dev = MKDEV(0, 1) };
static struct inode exe_inode = { .i_ino = 13, .i_sb = &disk_sb };
static struct file exe_file = { .f_inode = &exe_inode };
static unsigned int exe_iputs;

int path_lookup(const char *path, struct inode **res)
{
	if (strcmp(path, "/bin/busybox") != 0)
		return -ENOENT;
	*res = &exe_inode;
	return 0;
}

void iput(struct inode *inode)
{
	assert_ptr_equal(inode, &exe_inode);
	exe_iputs++;
}

void mmput(struct mm_struct *mm)
{
	mm->mm_users--;
}

/* ---- the made-up process ------------------------------------------------- */

static struct task_struct init_proc, sh, sh_vfork_child, kthread, zombie;
static struct mm_struct mm;
static struct vm_area_struct vmas[5];
static struct sighand_struct sighand;
static struct tty_struct tty;
static struct fs_struct sh_fs = { .umask = 022 };
static struct files_struct sh_files;

static void add_vma(unsigned int i, unsigned long start, unsigned long end, unsigned long flags,
		    struct file *file, unsigned long pgoff)
{
	struct vm_area_struct *v = &vmas[i];

	v->vm_mm = &mm;
	v->vm_start = start;
	v->vm_end = end;
	v->vm_flags = flags | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	v->vm_file = file;
	v->vm_pgoff = pgoff;
	list_add_tail(&v->vm_list, &mm.mmap);
}

static void add_task(struct task_struct *p, int pid, const char *comm)
{
	p->pid = p->tgid = p->pgid = p->sid = pid;
	strcpy(p->comm, comm);
	list_add_tail(&p->tasks, &task_list_head);
}

static int setup(void **state)
{
	(void)state;
	memset(&mm, 0, sizeof(mm));
	INIT_LIST_HEAD(&mm.mmap);
	INIT_LIST_HEAD(&task_list_head);
	add_vma(0, 0x400000, 0x489000, VM_READ | VM_EXEC, &exe_file, 0);
	add_vma(1, 0x689000, 0x68b000, VM_READ | VM_WRITE, &exe_file, 0x89);
	add_vma(2, 0x68b000, 0x6ae000, VM_READ | VM_WRITE, NULL, 0);
	add_vma(3, 0x7ffff7ff0000, 0x7ffff7ff2000, VM_READ | VM_WRITE | VM_SHARED | VM_MAYSHARE,
		NULL, 0);
	add_vma(4, 0x7ffffffde000, 0x7ffffffff000, VM_READ | VM_WRITE | VM_GROWSDOWN, NULL, 0);
	mm.mm_users = 2;
	mm.total_vm = 209;
	mm.stack_vm = 33;
	mm.nr_ptes = 5;
	mm.anon_rss = 10;
	mm.file_rss = 20;
	mm.hiwater_rss = 40;
	mm.start_code = 0x400000;
	mm.end_code = 0x488123;
	mm.start_data = 0x689000;
	mm.end_data = 0x68a000;
	mm.start_brk = 0x68b000;
	mm.brk = 0x6ad123;
	mm.start_stack = 0x7ffffffde123;
	mm.arg_start = 0x7fffffffe000;
	mm.arg_end = mm.env_start = 0x7fffffffe010;
	mm.env_end = 0x7fffffffe100;

	memset(&sh, 0, sizeof(sh));
	add_task(&init_proc, 1, "init");
	add_task(&sh, 5, "sh");
	sh.parent = &init_proc;
	sh.state = TASK_INTERRUPTIBLE;
	sh.mm = &mm;
	sh.fs = &sh_fs;
	sh.files = &sh_files;
	sh.tty = &tty;
	tty.pgrp = 5;
	sh.min_flt = 120;
	sh.maj_flt = 3;
	sh.utime = 7;
	sh.stime = 11;
	sh.cutime = 2;
	sh.cstime = 4;
	sh.start_time = 345;
	sh.exit_signal = SIGCHLD;
	sh.pending = sigmask(SIGCHLD);
	sh.blocked = sigmask(SIGINT);
	sh.sighand = &sighand;
	sighand.action[SIGPIPE - 1].sa.sa_handler = SIG_IGN;
	sighand.action[SIGTERM - 1].sa.sa_handler = (void *)0x401000;
	sighand.action[40 - 1].sa.sa_handler = (void *)0x401000;
	sh.exe_path = "/bin/busybox";

	memset(&kthread, 0, sizeof(kthread));
	add_task(&kthread, 2, "flusher");
	kthread.state = TASK_UNINTERRUPTIBLE;
	memset(&zombie, 0, sizeof(zombie));
	add_task(&zombie, 7, "true");
	zombie.exit_state = EXIT_ZOMBIE;
	zombie.exit_code = 0x100;
	zombie.parent = &sh;
	exe_iputs = 0;
	return 0;
}

/* ---- rendering -------------------------------------------------------------- */

static char text[8192];

static const char *show_task(int (*show)(struct seq_file *, struct task_struct *),
			     struct task_struct *p)
{
	struct seq_file m;

	seq_init(&m, text, sizeof(text) - 1);
	assert_int_equal(show(&m, p), 0);
	assert_false(seq_has_overflowed(&m));
	text[m.count] = '\0';
	return text;
}

static const char *show(void (*fn)(struct seq_file *))
{
	struct seq_file m;

	seq_init(&m, text, sizeof(text) - 1);
	fn(&m);
	assert_false(seq_has_overflowed(&m));
	text[m.count] = '\0';
	return text;
}

/* ---- /proc/PID ---------------------------------------------------------------- */

static void test_stat_of_a_process(void **state)
{
	(void)state;
	assert_string_equal(show_task(proc_pid_stat, &sh),
		"5 (sh) S 1 5 5 1088 5 0 120 0 3 0 7 11 2 4 20 0 1 0 345 856064 30 "
		"18446744073709551615 4194304 4751651 140737488216355 0 0 65536 2 4096 16384 "
		"1 0 0 17 0 0 0 0 0 0 6852608 6856704 6860800 140737488347136 140737488347152 "
		"140737488347152 140737488347392 0\n");
}

static void test_stat_of_a_kthread_and_a_zombie(void **state)
{
	(void)state;
	assert_string_equal(show_task(proc_pid_stat, &kthread),
		"2 (flusher) D 0 2 2 0 -1 2097152 0 0 0 0 0 0 0 0 20 0 1 0 0 0 0 "
		"18446744073709551615 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
	assert_string_equal(show_task(proc_pid_stat, &zombie),
		"7 (true) Z 5 7 7 0 -1 4 0 0 0 0 0 0 0 0 20 0 1 0 0 0 0 "
		"18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 256\n");
}

static void test_statm(void **state)
{
	(void)state;
	assert_string_equal(show_task(proc_pid_statm, &sh), "209 30 20 137 0 70 0\n");
	assert_string_equal(show_task(proc_pid_statm, &kthread), "0 0 0 0 0 0 0\n");
}

static void test_status(void **state)
{
	const char *s;

	(void)state;
	s = show_task(proc_pid_status, &sh);
	assert_non_null(strstr(s, "Name:\tsh\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t5\n"
				  "Ngid:\t0\nPid:\t5\nPPid:\t1\nTracerPid:\t0\n"
				  "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t256\nGroups:\t \n"
				  "NStgid:\t5\nNSpid:\t5\nNSpgid:\t5\nNSsid:\t5\n"));
	assert_non_null(strstr(s, "\nVmPeak:\t     836 kB\nVmSize:\t     836 kB\n"
				  "VmLck:\t       0 kB\nVmPin:\t       0 kB\nVmHWM:\t     160 kB\n"
				  "VmRSS:\t     120 kB\nRssAnon:\t      40 kB\nRssFile:\t      80 kB\n"
				  "RssShmem:\t       0 kB\nVmData:\t     148 kB\nVmStk:\t     132 kB\n"
				  "VmExe:\t     548 kB\nVmLib:\t       0 kB\nVmPTE:\t      20 kB\n"
				  "VmSwap:\t       0 kB\nThreads:\t1\nSigQ:\t1/64\n"));
	assert_non_null(strstr(s, "\nSigPnd:\t0000000000010000\nShdPnd:\t0000000000000000\n"
				  "SigBlk:\t0000000000000002\nSigIgn:\t0000000000001000\n"
				  "SigCgt:\t0000008000004000\n"));
	assert_non_null(strstr(s, "\nCapEff:\t000001ffffffffff\n"));
	assert_true(s[strlen(s) - 1] == '\n');
	/* A kernel thread: init_fs's umask, no memory lines. */
	s = show_task(proc_pid_status, &kthread);
	assert_non_null(strstr(s, "Name:\tflusher\nUmask:\t0022\nState:\tD (disk sleep)\n"));
	assert_null(strstr(s, "Vm"));
	assert_non_null(strstr(s, "\nFDSize:\t0\n"));
	/* A zombie: no fs_struct, so no Umask. */
	s = show_task(proc_pid_status, &zombie);
	assert_non_null(strstr(s, "Name:\ttrue\nState:\tZ (zombie)\n"));
}

static void test_maps(void **state)
{
	(void)state;
	assert_string_equal(show_task(proc_pid_maps, &sh),
		"00400000-00489000 r-xp 00000000 00:01 13                                 /bin/busybox\n"
		"00689000-0068b000 rw-p 00089000 00:01 13                                 /bin/busybox\n"
		"0068b000-006ae000 rw-p 00000000 00:00 0                                  [heap]\n"
		"7ffff7ff0000-7ffff7ff2000 rw-s 00000000 00:00 0 \n"
		"7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0                          [stack]\n");
	/* The mm was held and let go, the program's inode looked up and put. */
	assert_int_equal(mm.mm_users, 2);
	assert_int_equal(exe_iputs, 1);
	assert_false(kstrdup_used);
	assert_string_equal(show_task(proc_pid_maps, &kthread), "");
}

/* ---- /proc/stat, uptime, loadavg --------------------------------------------- */

static void test_stat_file(void **state)
{
	(void)state;
	memset(&kcpustat, 0, sizeof(kcpustat));
	kcpustat.cpustat[CPUTIME_USER] = 12;
	kcpustat.cpustat[CPUTIME_SYSTEM] = 40;
	kcpustat.cpustat[CPUTIME_IDLE] = 9873;
	kcpustat.cpustat[CPUTIME_IRQ] = 3;
	assert_string_equal(show(stat_proc_show),
		"cpu  12 0 40 9873 0 3 0 0 0 0\n"
		"cpu0 12 0 40 9873 0 3 0 0 0 0\n"
		"intr 10021 9925 41 0 0 55 0 0 0 0 0 0 0 0 0 0 0\n"
		"ctxt 1800\n"
		"btime 1709210091\n"
		"processes 14\n"
		"procs_running 1\n"
		"procs_blocked 0\n"
		"softirq 0 0 0 0 0 0 0 0 0 0 0\n");
}

static void test_uptime(void **state)
{
	(void)state;
	kcpustat.cpustat[CPUTIME_IDLE] = 9873;
	assert_string_equal(show(uptime_proc_show), "12.34 98.73\n");
	fake_ktime_ns = 3000000000ull;
	kcpustat.cpustat[CPUTIME_IDLE] = 205;
	assert_string_equal(show(uptime_proc_show), "3.00 2.05\n");
	fake_ktime_ns = 12345678901ull;
}

/* Linux rounds to hundredths by adding FIXED_1 / 200 first; the last
 * field is the highest pid. */
static void test_loadavg(void **state)
{
	(void)state;
	avenrun[0] = FIXED_1 / 2;
	avenrun[1] = FIXED_1;
	avenrun[2] = 21;
	assert_string_equal(show(loadavg_proc_show), "0.50 1.00 0.01 1/23 7\n");
	avenrun[0] = 3 * FIXED_1 + FIXED_1 / 4 - 11;	/* 3.2446 */
	avenrun[1] = avenrun[2] = 0;
	assert_string_equal(show(loadavg_proc_show), "3.24 0.00 0.00 1/23 7\n");
}

/* ---- /proc/meminfo ------------------------------------------------------------- */

/* The number after label in text, -1 if absent. */
static long meminfo_field(const char *s, const char *label)
{
	const char *p = strstr(s, label);
	long v = 0;

	if (!p)
		return -1;
	for (p += strlen(label); *p == ' '; p++)
		;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

static void test_meminfo(void **state)
{
	struct zone *zone;
	const char *s;

	(void)state;
	memset(vm_stat, 0, sizeof(vm_stat));
	vm_stat[NR_FREE_PAGES] = 1000;
	vm_stat[NR_ACTIVE_FILE] = 300;
	vm_stat[NR_INACTIVE_FILE] = 100;
	vm_stat[NR_ANON_PAGES] = 11;
	vm_stat[NR_FILE_MAPPED] = 13;
	for_each_zone(zone)
		zone->pages_low = 50;
	/* A vfork child shares sh's mm: its commitments count once. */
	memset(&sh_vfork_child, 0, sizeof(sh_vfork_child));
	add_task(&sh_vfork_child, 6, "sh");
	sh_vfork_child.mm = &mm;

	s = show(meminfo_proc_show);
	assert_true(strncmp(s, "MemTotal:         524288 kB\nMemFree:            4000 kB\n"
			       "MemAvailable:       4600 kB\nBuffers:              28 kB\n", 105) == 0);
	assert_int_equal(meminfo_field(s, "AnonPages:"), 44);
	assert_int_equal(meminfo_field(s, "Mapped:"), 52);
	assert_int_equal(meminfo_field(s, "KernelStack:"), 23 * 16);
	assert_int_equal(meminfo_field(s, "SwapCached:"), 100);
	assert_int_equal(meminfo_field(s, "SwapTotal:"), 4000);
	assert_int_equal(meminfo_field(s, "SwapFree:"), 2400);
	assert_int_equal(meminfo_field(s, "CommitLimit:"), 262144);
	/* Private writable: data 2, heap 35, stack 33; shared anonymous 2. */
	assert_int_equal(meminfo_field(s, "Committed_AS:"), 72 * 4);
	assert_non_null(strstr(s, "kB\nCommitted_AS:"));
	assert_true(s[strlen(s) - 1] == '\n');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_stat_of_a_process, setup),
		cmocka_unit_test_setup(test_stat_of_a_kthread_and_a_zombie, setup),
		cmocka_unit_test_setup(test_statm, setup),
		cmocka_unit_test_setup(test_status, setup),
		cmocka_unit_test_setup(test_maps, setup),
		cmocka_unit_test_setup(test_stat_file, setup),
		cmocka_unit_test_setup(test_uptime, setup),
		cmocka_unit_test_setup(test_loadavg, setup),
		cmocka_unit_test_setup(test_meminfo, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
