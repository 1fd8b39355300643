/*
 * Suite "traps": exceptions the kernel survives, and suite "crash": the
 * ones it must not survive.  Each crash case ends in a panic report that
 * the QEMU tests read (vector name, CR2, registers, backtrace naming the
 * crash_* function below), so these functions are never inlined.
 */
#include <asm/page.h>
#include <asm/traps.h>
#include <pageturn/boot.h>
#include <pageturn/string.h>
#include <pageturn/ktest.h>
#include <pageturn/panic.h>

KTEST(traps, breakpoint_resumes)
{
	uint64_t before = nr_breakpoints;

	__asm__ volatile("int3");
	__asm__ volatile("int3");
	KTEST_EXPECT_EQ(t, nr_breakpoints, before + 2);
}

KTEST(traps, trap_names)
{
	KTEST_EXPECT_STREQ(t, trap_name(X86_TRAP_PF), "Page Fault (#PF)");
	KTEST_EXPECT_STREQ(t, trap_name(X86_TRAP_GP), "General Protection (#GP)");
	KTEST_EXPECT_STREQ(t, trap_name(40), "Hardware Interrupt");
}

/* An address in the lower half that nothing maps. */
#define UNMAPPED_ADDR 0x00000dead0000badull

__noinline void crash_page_fault_victim(void)
{
	*(volatile uint64_t *)UNMAPPED_ADDR = 0x5a5a5a5a;
}

__noinline void crash_invalid_opcode_victim(void)
{
	__asm__ volatile("ud2");
}

__noinline void crash_divide_error_victim(void)
{
	volatile unsigned int zero = 0;
	volatile unsigned int x = 42 / zero;

	(void)x;
}

__noinline void crash_general_protection_victim(void)
{
	/* A non-canonical address faults with #GP, not #PF. */
	*(volatile uint64_t *)0x8000000000000000ull = 1;
}

__noinline void crash_bug_on_victim(void)
{
	volatile int impossible = 1;

	BUG_ON(impossible);
}

KTEST_CRASHER(crash, page_fault) { (void)t; crash_page_fault_victim(); }
KTEST_CRASHER(crash, invalid_opcode) { (void)t; crash_invalid_opcode_victim(); }
KTEST_CRASHER(crash, divide_error) { (void)t; crash_divide_error_victim(); }
KTEST_CRASHER(crash, general_protection) { (void)t; crash_general_protection_victim(); }
KTEST_CRASHER(crash, bug_on) { (void)t; crash_bug_on_victim(); }

/* A copy of the real boot information whose first tag claims to run past
 * the end: the boot path must panic naming the problem. */
__noinline void crash_malformed_boot_info_victim(void)
{
	static uint8_t copy[4096] __aligned(8);
	const uint32_t *real = phys_to_virt(boot_info_phys);
	static struct boot_info bi;
	uint32_t bad_size = 0xfff0;

	memcpy(copy, real, MIN(real[0], sizeof(copy)));
	memcpy(copy + 8 + 4, &bad_size, 4);	/* first tag's size field */
	boot_info_parse_or_panic(copy, MIN(real[0], sizeof(copy)), &bi);
}

KTEST_CRASHER(crash, malformed_boot_info) { (void)t; crash_malformed_boot_info_victim(); }
