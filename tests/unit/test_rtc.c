/*
 * Host unit tests for the CMOS clock driver (drivers/rtc.c).
 *
 * The file is included whole, with asm/io.h and asm/cpu.h replaced by
 * the stand-ins below (their include guards are taken first): port 0x70
 * selects a register of fake_cmos[] and port 0x71 reads it, so a test
 * writes the registers a clock would hold and checks the wall time
 * rtc_init() derives.  Register A's update-in-progress bit can be kept
 * set for a number of reads (uip_reads), and the seconds can tick over
 * after a number of reads of them (tick_after), to exercise the waits
 * and the agreeing-readings rule.  printk is kernel_stubs.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/types.h>

#define ASM_CPU_H
static inline uint64_t local_irq_save(void) { return 0; }
static inline void local_irq_restore(uint64_t flags) { (void)flags; }

#define ASM_IO_H
static uint8_t fake_cmos[128];
static uint8_t cmos_index;
static unsigned int uip_reads;		/* reads of register A that still show UIP */
static unsigned int tick_after;		/* reads of the seconds before they advance, 0 = never */
static unsigned int sec_reads;

static inline void outb(uint16_t port, uint8_t v)
{
	if (port == 0x70)
		cmos_index = v & 0x7f;
}

static inline uint8_t inb(uint16_t port)
{
	if (port != 0x71)
		return 0xff;
	if (cmos_index == 0x0a && uip_reads) {
		uip_reads--;
		return 0x80;
	}
	if (cmos_index == 0x00 && tick_after && ++sec_reads == tick_after)
		fake_cmos[0]++;
	return fake_cmos[cmos_index];
}

#include "../../drivers/rtc.c"
#include "kernel_stubs.h"

static uint64_t fake_ktime_ns;
static uint64_t udelay_us;

uint64_t ktime_get_ns(void)
{
	return fake_ktime_ns;
}

void udelay(uint64_t us)
{
	udelay_us += us;
}

/* A clock reading the given registers (BCD or binary as ctrl says). */
static void set_cmos(uint8_t sec, uint8_t min, uint8_t hour, uint8_t mday, uint8_t mon,
		     uint8_t year, uint8_t ctrl)
{
	memset(fake_cmos, 0, sizeof(fake_cmos));
	fake_cmos[RTC_SECONDS] = sec;
	fake_cmos[RTC_MINUTES] = min;
	fake_cmos[RTC_HOURS] = hour;
	fake_cmos[RTC_DAY_OF_MONTH] = mday;
	fake_cmos[RTC_MONTH] = mon;
	fake_cmos[RTC_YEAR] = year;
	fake_cmos[RTC_REG_B] = ctrl;
	uip_reads = tick_after = sec_reads = 0;
	udelay_us = 0;
	boot_real_ns = 0;
	log_clear();
}

static void test_mktime64(void **state)
{
	(void)state;
	assert_int_equal(mktime64(1970, 1, 1, 0, 0, 0), 0);
	assert_int_equal(mktime64(2000, 3, 1, 0, 0, 0), 951868800);
	assert_int_equal(mktime64(2024, 2, 29, 12, 34, 56), 1709210096);
	assert_int_equal(mktime64(1999, 12, 31, 13, 0, 0), 946645200);
	assert_int_equal(mktime64(2069, 12, 31, 23, 59, 59), 3155759999);
}

/* The usual PC setting: BCD, 24-hour.  Boot was ktime 0, 5 s before the
 * reading. */
static void test_bcd_24h(void **state)
{
	(void)state;
	set_cmos(0x56, 0x34, 0x12, 0x29, 0x02, 0x24, RTC_24H);
	fake_ktime_ns = 5000000000ull;
	rtc_init();
	assert_int_equal(getboottime_seconds(), 1709210096 - 5);
	assert_int_equal(ktime_get_real_seconds(), 1709210096);
	assert_int_equal(ktime_get_real_ns(), 1709210096ull * 1000000000ull);
	assert_non_null(strstr(log_buf, "rtc: 2024-02-29 12:34:56 UTC"));
	fake_ktime_ns = 0;
}

/* Binary, 12-hour: bit 7 of the hour is PM; 12 AM is 0 h, 12 PM 12 h. */
static void test_binary_12h(void **state)
{
	(void)state;
	set_cmos(7, 5, 0x80 | 12, 29, 2, 24, RTC_DM_BINARY);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 1709208307);
	set_cmos(7, 5, 12, 29, 2, 24, RTC_DM_BINARY);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 1709165107);
	set_cmos(0, 0, 0x80 | 1, 31, 12, 99, RTC_DM_BINARY);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 946645200);
}

/* Two-digit years: 70-99 are 19xx, 00-69 20xx. */
static void test_century(void **state)
{
	(void)state;
	set_cmos(0x59, 0x59, 0x23, 0x31, 0x12, 0x69, RTC_24H);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 3155759999);
	set_cmos(0x00, 0x00, 0x00, 0x01, 0x01, 0x70, RTC_24H);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 0);
	assert_non_null(strstr(log_buf, "rtc: 1970-01-01 00:00:00 UTC"));
}

/* Nonsense is reported, never believed: a bad month, a BCD digit over 9,
 * a 12-hour hour of 0. */
static void test_invalid_dates(void **state)
{
	(void)state;
	set_cmos(0x00, 0x00, 0x00, 0x01, 0x13, 0x24, RTC_24H);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 0);
	assert_non_null(strstr(log_buf, "invalid date"));
	set_cmos(0x0a, 0x00, 0x00, 0x01, 0x01, 0x24, RTC_24H);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 0);
	set_cmos(0, 0, 0, 1, 1, 24, RTC_DM_BINARY);
	rtc_init();
	assert_int_equal(getboottime_seconds(), 0);
	assert_non_null(strstr(log_buf, "invalid date"));
}

/* No chip: every port reads 0xff, so UIP never clears; the wait gives up
 * after RTC_UIP_TIMEOUT_US. */
static void test_no_clock(void **state)
{
	(void)state;
	set_cmos(0, 0, 0, 1, 1, 24, RTC_DM_BINARY | RTC_24H);
	memset(fake_cmos, 0xff, sizeof(fake_cmos));
	rtc_init();
	assert_int_equal(getboottime_seconds(), 0);
	assert_int_equal(udelay_us, RTC_UIP_TIMEOUT_US);
	assert_non_null(strstr(log_buf, "never finishes its update"));
}

/* An update in progress is waited out. */
static void test_waits_for_update(void **state)
{
	(void)state;
	set_cmos(0x56, 0x34, 0x12, 0x29, 0x02, 0x24, RTC_24H);
	uip_reads = 30;
	rtc_init();
	assert_int_equal(udelay_us, 300);
	assert_int_equal(getboottime_seconds(), 1709210096);
}

/* The seconds tick between the two readings of a try: they disagree, so
 * the next try reads again, and its (later) time is the one kept. */
static void test_readings_must_agree(void **state)
{
	(void)state;
	set_cmos(0x55, 0x34, 0x12, 0x29, 0x02, 0x24, RTC_24H);
	tick_after = 2;
	rtc_init();
	assert_int_equal(getboottime_seconds(), 1709210096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mktime64),
		cmocka_unit_test(test_bcd_24h),
		cmocka_unit_test(test_binary_12h),
		cmocka_unit_test(test_century),
		cmocka_unit_test(test_invalid_dates),
		cmocka_unit_test(test_no_clock),
		cmocka_unit_test(test_waits_for_update),
		cmocka_unit_test(test_readings_must_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
