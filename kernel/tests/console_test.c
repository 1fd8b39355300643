/*
 * Suite "console": the right consoles are up, and (interactive) the screen
 * console really shows the text: screen_pattern prints more lines than the
 * screen has (so it scrolls) and then a known line, and waits.  The known
 * line is written with escape sequences in it (a colour, a cursor move
 * back over "XXX" and an erase to the end of the line), so it reads right
 * only on a screen that interprets them as a terminal does; the cursor
 * is hidden (DECTCEM, ESC [ ? 25 l) while the host looks, so none may
 * show, and shown again afterwards.  The host
 * looks at the screen (a QMP screendump of the framebuffer compared with
 * glyphs of the same PSF font, or a dump of VGA text memory) and sends a
 * byte on COM1.  See tests/qemu/cases.py.
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

#define SCROLL_LINES 60	/* more than any screen's rows: it must scroll */

KTEST_INTERACTIVE(console, screen_pattern)
{
	uint64_t deadline = ktime_get_ns() + HOST_WAIT_NS;
	int c = -1, i;

	KTEST_EXPECT(t, console_registered("fbcon") || console_registered("vga"));
	for (i = 0; i < SCROLL_LINES; i++)
		printk(KERN_INFO "scroll %02d\n", i);
	/* The cursor goes off a line before the one the host waits for: the
	 * serial console gets each piece of a line (the timestamp, then the
	 * text) before the screen does, so the host may look while the screen
	 * has drawn only the waiting line's timestamp. */
	printk(KERN_INFO "\033[?25lSCREEN-PATTERN The quick \033[1;32mbrown\033[m XXX\033[3D\033[K"
	       "fox 0123456789 #$%%&*+-=?@[]{}\n");
	printk(KERN_INFO "ktest: waiting for the host to look at the screen "
	       "(send a byte on COM1)\n");
	while (c < 0 && ktime_get_ns() < deadline)
		c = serial_getc_nowait();
	printk(KERN_INFO "\033[?25hktest: the host has looked\n");
	KTEST_EXPECT(t, c >= 0);
}
