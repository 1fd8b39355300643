/*
 * Suite "console": the right consoles are up, and (interactive) the
 * framebuffer console really draws: fb_screendump prints a known line, the
 * host takes a QMP screendump and compares it with glyphs rendered from
 * the same PSF font (tests/qemu/fbcheck.py), then sends a byte on COM1.
 */
#include <drivers/serial.h>
#include <pageturn/boot.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/time.h>

#define HOST_WAIT_NS (120ull * 1000000000ull)

KTEST(console, screen_console_matches_firmware)
{
	KTEST_EXPECT(t, console_registered("ttyS0"));
	if (boot_info.efi) {
		KTEST_EXPECT(t, console_registered("fbcon"));
		KTEST_EXPECT(t, !console_registered("vga"));
	} else {
		KTEST_EXPECT(t, console_registered("vga"));
		KTEST_EXPECT(t, !console_registered("fbcon"));
	}
}

KTEST_INTERACTIVE(console, fb_screendump)
{
	uint64_t deadline = ktime_get_ns() + HOST_WAIT_NS;
	int c = -1;

	KTEST_EXPECT(t, console_registered("fbcon"));
	printk(KERN_INFO "FBCON-PATTERN The quick brown fox jumps over the lazy dog 0123456789 #$%%&*+-=?@[]{}\n");
	printk(KERN_INFO "ktest: waiting for the host's screendump (send a byte on COM1)\n");
	while (c < 0 && ktime_get_ns() < deadline)
		c = serial_getc_nowait();
	KTEST_EXPECT(t, c >= 0);
}
