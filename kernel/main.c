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
 *   9. kmain becomes the idle task (pid 0, "swapper"): cpu_idle().
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/traps.h>
#include <drivers/blkdev.h>
#include <fs/do_mounts.h>
#include <drivers/console.h>
#include <drivers/pic.h>
#include <drivers/serial.h>
#include <generated/version.h>
#include <mm/early_ioremap.h>
#include <mm/init.h>
#include <mm/writeback.h>
#include <pageturn/boot.h>
#include <pageturn/cmdline.h>
#include <pageturn/irq.h>
#include <pageturn/ktest.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
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
	mm_init(&boot_info, boot_info_phys);

	pic_init(IRQ_VECTOR0);
	time_init();
	sti();
	blk_dev_init();
	mount_root();
	wb_flusher_init();

	boot_report();
	ktest_run_from_cmdline();

	printk(KERN_INFO "Pageturn is up. Nothing more to start yet: idling.\n");
	cpu_idle();
}
