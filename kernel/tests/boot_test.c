/* Suite "boot": what kmain set up is there and consistent. */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <pageturn/boot.h>
#include <pageturn/cmdline.h>
#include <pageturn/ktest.h>
#include <pageturn/string.h>

KTEST(boot, multiboot2_info)
{
	unsigned int i, available = 0;

	KTEST_EXPECT(t, boot_info.total_size >= 16);
	KTEST_EXPECT(t, boot_info.nr_mmap > 0);
	for (i = 0; i < boot_info.nr_mmap; i++)
		if (boot_info.mmap[i].type == MB2_MEMORY_AVAILABLE)
			available++;
	KTEST_EXPECT(t, available > 0);
	KTEST_EXPECT(t, strncmp(boot_info.loader_name, "GRUB", 4) == 0);
}

KTEST(boot, cmdline_options)
{
	/* The test runner itself was selected through the command line. */
	KTEST_EXPECT(t, cmdline_has("test"));
	KTEST_EXPECT(t, strstr(boot_cmdline_raw(), cmdline_get("test")));
	KTEST_EXPECT(t, !cmdline_has("no-such-option"));
	KTEST_EXPECT_EQ(t, cmdline_get_long("no-such-option", 42), 42);
}

KTEST(boot, segments_and_tables)
{
	uint16_t cs, tr;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	__asm__ volatile("str %0" : "=r"(tr));
	KTEST_EXPECT_EQ(t, cs, __KERNEL_CS);
	KTEST_EXPECT_EQ(t, tr, GDT_TSS_SEL);
	/* The boot identity map is gone: PML4 slot 0 is empty. */
	KTEST_EXPECT_EQ(t, ((uint64_t *)phys_to_virt(read_cr3() & PTE_PFN_MASK))[0], 0);
}
