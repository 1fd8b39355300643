/*
 * kmain: the first C code.  boot/boot.asm calls it on the boot stack, in
 * long mode, with the multiboot2 magic and the physical address of the
 * boot information.  The order matters:
 *
 *   1. serial console, so anything that goes wrong from here is reported;
 *   2. GDT/TSS and IDT, so a fault gives a panic report, not a triple fault;
 *   3. drop the boot identity map (the boot GDT lived there);
 *   4. check and parse the multiboot2 information (malformed -> panic
 *      with the reason);
 *   5. screen consoles (VGA text or framebuffer), banner, command line;
 *   6. the memory manager: kernel page tables, zones, buddy, slab;
 *   7. PIC, TSC calibration and the timer tick; interrupts on;
 *   8. the flusher thread, the boot report; then the in-kernel tests if
 *      `test=` asks for them;
 *   9. the first process: a kernel thread that becomes PID 1 by executing
 *      init (kernel_init below), and kmain becomes the idle task (pid 0,
 *      "swapper"): cpu_idle().
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/fpu.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <drivers/blkdev.h>
#include <fs/buffer_head.h>
#include <fs/do_mounts.h>
#include <drivers/console.h>
#include <drivers/pic.h>
#include <drivers/rtc.h>
#include <drivers/tty.h>
#include <fs/devfs.h>
#include <fs/file.h>
#include <fs/vfs.h>
#include <drivers/serial.h>
#include <generated/version.h>
#include <mm/early_ioremap.h>
#include <mm/init.h>
#include <mm/swap.h>
#include <mm/writeback.h>
#include <pageturn/boot.h>
#include <pageturn/cmdline.h>
#include <pageturn/irq.h>
#include <pageturn/ktest.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/binfmts.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/time.h>

struct boot_info boot_info;
phys_addr_t boot_info_phys;

static void drop_identity_map(void)
{
	uint64_t *pml4 = phys_to_virt(read_cr3() & PTE_PFN_MASK);

	pml4[0] = 0;
	write_cr3(read_cr3());
}

static void parse_boot_info(uint32_t magic, uint32_t info_phys)
{
	const uint32_t *header;
	const void *info;

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("kmain: bad multiboot2 magic 0x%x (expected 0x%x)", magic, MB2_BOOTLOADER_MAGIC);
	if (info_phys == 0 || !IS_ALIGNED(info_phys, 8))
		panic("multiboot2: boot information at 0x%x is not 8-byte aligned", info_phys);

	header = early_memremap(info_phys, 8);
	if (!header)
		panic("multiboot2: cannot map the boot information at 0x%x", info_phys);
	if (header[0] > MB2_INFO_MAX_SIZE)
		panic("multiboot2: malformed boot information: total size %u is too large", header[0]);
	info = early_memremap(info_phys, header[0] >= 8 ? header[0] : 8);
	if (!info)
		panic("multiboot2: cannot map %u bytes of boot information", header[0]);

	boot_info_parse_or_panic(info, header[0] >= 8 ? header[0] : 8, &boot_info);
	boot_info_phys = info_phys;
}

void boot_info_parse_or_panic(const void *info, size_t size, struct boot_info *bi)
{
	if (mb2_parse(info, size, bi) < 0)
		panic("multiboot2: malformed boot information: %s", bi->error);
}

BOOT_OPTION(init, "the program PID 1 runs (default /sbin/init); words after -- are its arguments");

#define INIT_MAX_ARGS	32

static const char *const init_envp[] = {
	"HOME=/", "TERM=linux", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL,
};

/* Split the words after "--" into argv[1..] (argv[0] is set by the
 * caller): blanks separate, nothing is quoted, as Linux passes them. */
static void init_argv(char *args, const char *argv[INIT_MAX_ARGS + 2])
{
	int n = 1;

	while (*args && n <= INIT_MAX_ARGS) {
		while (*args == ' ' || *args == '\t')
			*args++ = '\0';
		if (!*args)
			break;
		argv[n++] = args;
		while (*args && *args != ' ' && *args != '\t')
			args++;
	}
	argv[n] = NULL;
}

/* Give current what a process has: an empty descriptor table, the
 * boot root and cwd, default signal actions, an FPU area; a session and
 * process group of its own, and the first resource limits. */
static int become_process(void)
{
	current->files = dup_fd(NULL);
	current->fs = copy_fs_struct(&init_fs);
	current->sighand = copy_sighand(NULL);
	if (!current->files || !current->fs || !current->sighand || fpu_alloc(current, false))
		return -ENOMEM;
	current->pgid = current->sid = current->pid;
	memcpy(current->rlim, init_rlimits, sizeof(current->rlim));
	/* The user frame kernel_execve fills: not a system call's. */
	memset(task_pt_regs(current), 0, sizeof(struct pt_regs));
	task_pt_regs(current)->orig_ax = (uint64_t)-1;
	return 0;
}

/*
 * The first process (Linux's kernel_init): a kernel thread that takes a
 * process's resources and executes init, then leaves for user mode
 * through the registers kernel_execve set.  The program is `init=`'s,
 * else the usual places, as Linux tries them; none working is fatal, as
 * on Linux: there is nothing left for the system to do.
 */
static int kernel_init(void *unused)
{
	static char args[CMDLINE_MAX_LEN + 1];
	static const char *const fallbacks[] = { "/sbin/init", "/etc/init", "/bin/init", "/bin/sh" };
	const char *argv[INIT_MAX_ARGS + 2];
	const char *path = cmdline_get("init");
	unsigned int i;
	int err;

	(void)unused;
	if (become_process())
		panic("kernel_init: out of memory for the first process");
	strlcpy(args, boot_cmdline_init_args(), sizeof(args));
	init_argv(args, argv);
	swapon_boot();

	if (path && *path) {
		argv[0] = path;
		err = kernel_execve(path, argv, init_envp);
		if (!err)
			ret_to_user_mode(task_pt_regs(current));
		printk(KERN_ERR "init: cannot run %s (error %d); trying the defaults\n", path, err);
	}
	for (i = 0; i < ARRAY_SIZE(fallbacks); i++) {
		argv[0] = fallbacks[i];
		if (!kernel_execve(fallbacks[i], argv, init_envp))
			ret_to_user_mode(task_pt_regs(current));
	}
	panic("No working init found.  Try passing init= (see README.md).");
}

/* Create PID 1 and let it run. */
static void start_init(void)
{
	struct task_struct *init = kthread_create(kernel_init, NULL, "init");

	if (!init)
		panic("start_init: out of memory for the init task");
	init->pid = init->tgid = INIT_PID;
	wake_up_process(init);
}

void kmain(uint32_t magic, uint32_t info_phys)
{
	serial_init();
	gdt_init();
	trap_init();
	drop_identity_map();
	parse_boot_info(magic, info_phys);

	if (vga_console_init(&boot_info) < 0 && fbcon_init(&boot_info) < 0)
		printk(KERN_NOTICE "console: no screen console; serial only\n");
	printk(KERN_INFO "Pageturn %s (git %s): a teaching kernel for split-LRU page reclaim\n",
	       PAGETURN_VERSION, PAGETURN_GIT_REV);
	boot_cmdline_init(boot_info.cmdline);
	string_ops_init();
	mm_init(&boot_info, boot_info_phys);

	fpu_init();
	syscall_init();
	pic_init(IRQ_VECTOR0);
	time_init();
	rtc_init();
	sti();
	buffer_init();
	inode_init();
	blk_dev_init();
	mount_root();
	chr_dev_init();
	wb_flusher_init();
	swap_cache_init();
	kswapd_init();

	boot_report();
	ktest_run_from_cmdline();

	/* After the tests: from here the TTY owns the serial port's input. */
	tty_init();
	start_init();
	cpu_idle();
}
