/*
 * The CMOS real-time clock (Motorola MC146818 and its PC descendants),
 * read once at boot to give the wall clock (Linux's drivers/rtc/rtc-cmos.c
 * and mc146818-lib.c, reduced to reading the time).
 *
 * The chip sits behind two ports: write a register number to 0x70, then
 * read its value from 0x71 (cmos_read).  It keeps seconds, minutes,
 * hours, day of month, month and a two-digit year, in BCD or in binary,
 * with 24-hour or 12-hour hours (bit 7 of the hour set for PM), as
 * register B says.  Once a second it updates the registers; while it does
 * (register A's UIP bit set, about 2 ms, raised 244 us ahead of the
 * update) they may be half old, half new.  So a reading waits for UIP to
 * clear, reads everything with interrupts off, and is kept only when a
 * second reading agrees with it: an update in between changes the
 * seconds.  The two-digit year means 1970-2069 (years 70-99 are 19xx),
 * as Linux's fallback when the ACPI tables name no century register;
 * Pageturn does not parse them.
 *
 * State: boot_real_ns, the wall time (ns since 1970-01-01 UTC) at which
 * ktime_get_ns() read 0.  It is 0 until rtc_init() and never changes
 * after it (there is no settimeofday), so CLOCK_REALTIME is
 * boot_real_ns + ktime_get_ns(): it advances exactly as CLOCK_MONOTONIC
 * does and never jumps.
 */
#include <asm/cpu.h>
#include <asm/io.h>
#include <drivers/rtc.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/time.h>

#define RTC_PORT_INDEX	0x70	/* select a CMOS register */
#define RTC_PORT_DATA	0x71	/* read it */

/* The clock's registers (Linux's mc146818rtc.h names). */
#define RTC_SECONDS		0x00
#define RTC_MINUTES		0x02
#define RTC_HOURS		0x04
#define RTC_DAY_OF_MONTH	0x07
#define RTC_MONTH		0x08
#define RTC_YEAR		0x09
#define RTC_REG_A		0x0a
#define RTC_REG_B		0x0b

#define RTC_UIP		0x80	/* register A: update in progress */
#define RTC_24H		0x02	/* register B: hours are 0-23 */
#define RTC_DM_BINARY	0x04	/* register B: values are binary, not BCD */
#define RTC_PM		0x80	/* hours register, 12-hour mode: afternoon */

#define RTC_UIP_TIMEOUT_US	10000	/* an update lasts about 2 ms */
#define RTC_READ_TRIES		5	/* readings that disagree before giving up */

/* One reading of the registers, as the chip holds them. */
struct cmos_time {
	uint8_t sec, min, hour, mday, mon, year;
	uint8_t ctrl;		/* register B: the encoding */
};

/* Linux's struct rtc_time: the fields of struct tm that the clock keeps. */
struct rtc_time {
	int tm_sec;	/* 0-59 */
	int tm_min;	/* 0-59 */
	int tm_hour;	/* 0-23 */
	int tm_mday;	/* 1-31 */
	int tm_mon;	/* 0-11 */
	int tm_year;	/* years since 1900 */
};

static uint64_t boot_real_ns;

static uint8_t cmos_read(uint8_t reg)
{
	outb(RTC_PORT_INDEX, reg);
	return inb(RTC_PORT_DATA);
}

/* Wait until the clock is not updating: false when it never stops (no
 * chip answers: the port reads 0xff). */
static bool cmos_wait_update_done(void)
{
	unsigned int waited;

	for (waited = 0; waited < RTC_UIP_TIMEOUT_US; waited += 10) {
		if (!(cmos_read(RTC_REG_A) & RTC_UIP))
			return true;
		udelay(10);
	}
	return false;
}

/* Read every time register between two updates: false on a timeout. */
static bool cmos_read_time(struct cmos_time *t)
{
	uint64_t flags;

	if (!cmos_wait_update_done())
		return false;
	flags = local_irq_save();
	t->sec = cmos_read(RTC_SECONDS);
	t->min = cmos_read(RTC_MINUTES);
	t->hour = cmos_read(RTC_HOURS);
	t->mday = cmos_read(RTC_DAY_OF_MONTH);
	t->mon = cmos_read(RTC_MONTH);
	t->year = cmos_read(RTC_YEAR);
	t->ctrl = cmos_read(RTC_REG_B);
	local_irq_restore(flags);
	return true;
}

static bool valid_bcd(uint8_t v)
{
	return (v & 0x0f) <= 9 && (v >> 4) <= 9;
}

static unsigned int bcd2bin(uint8_t v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

/* Decode a reading into tm: false when a field is out of range (or not
 * BCD in BCD mode). */
static bool cmos_decode(const struct cmos_time *t, struct rtc_time *tm)
{
	bool bcd = !(t->ctrl & RTC_DM_BINARY);
	bool h24 = t->ctrl & RTC_24H;
	uint8_t hour = h24 ? t->hour : t->hour & ~RTC_PM;
	uint8_t raw[6] = { t->sec, t->min, hour, t->mday, t->mon, t->year };
	unsigned int v[6], i;

	for (i = 0; i < ARRAY_SIZE(raw); i++) {
		if (bcd && !valid_bcd(raw[i]))
			return false;
		v[i] = bcd ? bcd2bin(raw[i]) : raw[i];
	}
	if (!h24) {
		/* 12 AM is midnight, 12 PM noon. */
		if (v[2] < 1 || v[2] > 12)
			return false;
		v[2] = v[2] % 12 + (t->hour & RTC_PM ? 12 : 0);
	}
	if (v[0] > 59 || v[1] > 59 || v[2] > 23 || v[3] < 1 || v[3] > 31 ||
	    v[4] < 1 || v[4] > 12 || v[5] > 99)
		return false;
	tm->tm_sec = v[0];
	tm->tm_min = v[1];
	tm->tm_hour = v[2];
	tm->tm_mday = v[3];
	tm->tm_mon = v[4] - 1;
	tm->tm_year = v[5] < 70 ? v[5] + 100 : v[5];
	return true;
}

/*
 * Seconds since 1970-01-01 00:00:00 of a Gregorian date (month 1-12),
 * Linux's mktime64.  Counting months from March puts the leap day at the
 * end of the year, so a month's first day is (153 * m + 2) / 5 days in;
 * 719468 is the day number of 1970-01-01 counted so from 0000-03-01.
 */
static uint64_t mktime64(unsigned int year, unsigned int mon, unsigned int day,
			 unsigned int hour, unsigned int min, unsigned int sec)
{
	uint64_t y = mon <= 2 ? year - 1 : year;
	uint64_t m = mon <= 2 ? mon + 9 : mon - 3;
	uint64_t days = 365 * y + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + day - 1 - 719468;

	return ((days * 24 + hour) * 60 + min) * 60 + sec;
}

void rtc_init(void)
{
	struct cmos_time a, b;
	struct rtc_time tm;
	const char *why = NULL;
	unsigned int tries;
	uint64_t secs;

	for (tries = 0; tries < RTC_READ_TRIES; tries++) {
		if (!cmos_read_time(&a) || !cmos_read_time(&b)) {
			why = "the clock never finishes its update (no CMOS clock?)";
			break;
		}
		if (memcmp(&a, &b, sizeof(a)) == 0)
			break;
	}
	if (!why && tries == RTC_READ_TRIES)
		why = "two readings never agree";
	if (!why && !cmos_decode(&a, &tm))
		why = "it holds an invalid date";
	if (why) {
		printk(KERN_WARNING "rtc: cannot read the CMOS clock: %s; the wall clock starts at 1970-01-01\n",
		       why);
		return;
	}
	secs = mktime64(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	boot_real_ns = secs * NSEC_PER_SEC - ktime_get_ns();
	printk(KERN_INFO "rtc: %04d-%02d-%02d %02d:%02d:%02d UTC (%lu)\n", tm.tm_year + 1900,
	       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned long)secs);
}

uint64_t ktime_get_real_ns(void)
{
	return boot_real_ns + ktime_get_ns();
}

uint64_t ktime_get_real_seconds(void)
{
	return ktime_get_real_ns() / NSEC_PER_SEC;
}

uint64_t getboottime_seconds(void)
{
	return boot_real_ns / NSEC_PER_SEC;
}
