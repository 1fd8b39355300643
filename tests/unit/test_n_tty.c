/*
 * Unit tests for the line discipline (drivers/tty/n_tty.c) and the
 * keyboard map (drivers/input/keyboard.c).
 *
 * Each test makes a tty with Linux's default termios (fake_tty.c), types
 * bytes into it as an input interrupt would (n_tty_receive_buf), and
 * checks what a read would get (n_tty_input_available and
 * n_tty_copy_from_read_buf: the non-sleeping half of read(2)), what was
 * echoed (the fake driver's output) and which signals were sent (the
 * fake kill_pgrp).  The keyboard tests feed scan code set 1 sequences.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <drivers/tty.h>
#include <uapi/signal.h>

#include "../../drivers/input/keyboard.h"
#include "fake_tty.h"

#define FG_PGRP	42

static struct tty_struct tty;

static void type(const char *s)
{
	n_tty_receive_buf(&tty, (const unsigned char *)s, strlen(s));
}

static void type_byte(unsigned char c)
{
	n_tty_receive_buf(&tty, &c, 1);
}

/* Read like read(2) with a buffer of nr bytes: the bytes, NUL-ended, in
 * buf; their count. */
static size_t do_read(char *buf, size_t nr)
{
	size_t n = n_tty_copy_from_read_buf(&tty, (unsigned char *)buf, nr);

	buf[n] = '\0';
	return n;
}

/* Change termios as TCSETS does. */
static void set_lflag(tcflag_t on, tcflag_t off)
{
	struct termios old = tty.termios;

	tty.termios.c_lflag = (tty.termios.c_lflag | on) & ~off;
	n_tty_set_termios(&tty, &old);
}

static void set_iflag(tcflag_t on, tcflag_t off)
{
	struct termios old = tty.termios;

	tty.termios.c_iflag = (tty.termios.c_iflag | on) & ~off;
	n_tty_set_termios(&tty, &old);
}

static void set_cc(unsigned int idx, cc_t value)
{
	struct termios old = tty.termios;

	tty.termios.c_cc[idx] = value;
	n_tty_set_termios(&tty, &old);
}

static int setup(void **state)
{
	(void)state;
	fake_tty_init(&tty, FG_PGRP);
	return 0;
}

/* --- canonical mode ------------------------------------------------------ */

static void test_defaults_are_linux(void **state)
{
	(void)state;
	assert_int_equal(tty.termios.c_iflag, ICRNL | IXON);
	assert_int_equal(tty.termios.c_oflag, OPOST | ONLCR);
	assert_int_equal(tty.termios.c_cflag, B38400 | CS8 | CREAD | HUPCL);
	assert_int_equal(tty.termios.c_lflag,
			 ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN);
	assert_int_equal(tty.termios.c_cc[VINTR], 0x03);
	assert_int_equal(tty.termios.c_cc[VQUIT], 0x1c);
	assert_int_equal(tty.termios.c_cc[VERASE], 0x7f);
	assert_int_equal(tty.termios.c_cc[VKILL], 0x15);
	assert_int_equal(tty.termios.c_cc[VEOF], 0x04);
	assert_int_equal(tty.termios.c_cc[VMIN], 1);
	assert_int_equal(tty.termios.c_cc[VTIME], 0);
	assert_int_equal(tty.termios.c_cc[VSUSP], 0x1a);
	assert_int_equal(tty.termios.c_cc[VWERASE], 0x17);
	assert_int_equal(tty.termios.c_cc[VLNEXT], 0x16);
	assert_int_equal(tty.termios.c_cc[VREPRINT], 0x12);
	assert_int_equal(sizeof(struct termios), 36);
}

static void test_line_is_readable_only_when_complete(void **state)
{
	char buf[64];

	(void)state;
	type("abc");
	assert_false(n_tty_input_available(&tty, false));
	assert_int_equal(fake_read_wakeups, 0);
	type("\r");	/* Enter: ICRNL makes it '\n' */
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(fake_read_wakeups, 1);
	assert_int_equal(do_read(buf, sizeof(buf)), 4);
	assert_string_equal(buf, "abc\n");
	assert_false(n_tty_input_available(&tty, false));
	assert_string_equal(fake_output, "abc\r\n");
}

static void test_read_returns_one_line_at_a_time(void **state)
{
	char buf[64];

	(void)state;
	type("one\rtwo\rthr");
	assert_int_equal(n_tty_inq(&tty), 8);
	assert_int_equal(do_read(buf, sizeof(buf)), 4);
	assert_string_equal(buf, "one\n");
	assert_int_equal(do_read(buf, 2), 2);
	assert_string_equal(buf, "tw");
	assert_int_equal(do_read(buf, sizeof(buf)), 2);
	assert_string_equal(buf, "o\n");
	assert_false(n_tty_input_available(&tty, false));
}

static void test_erase(void **state)
{
	char buf[64];

	(void)state;
	type("abd\x7f" "c\r");
	assert_string_equal(fake_output, "abd\b \bc\r\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "abc\n");
}

static void test_erase_at_line_start_does_nothing(void **state)
{
	char buf[64];

	(void)state;
	type("x\r\x7f\x7f");
	assert_string_equal(fake_output, "x\r\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "x\n");
}

static void test_erase_without_echoe_echoes_the_erase_char(void **state)
{
	(void)state;
	set_lflag(0, ECHOE);
	type("ab\x7f");
	assert_string_equal(fake_output, "ab^?");
}

static void test_erase_control_char_erases_both_columns(void **state)
{
	char buf[64];

	(void)state;
	type("a\x01");
	assert_string_equal(fake_output, "a^A");
	assert_int_equal(tty.ldata.column, 3);
	type("\x7f");
	assert_string_equal(fake_output, "a^A\b \b\b \b");
	assert_int_equal(tty.ldata.column, 1);
	type("\r");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "a\n");
}

static void test_erase_tab_goes_back_to_its_start(void **state)
{
	char buf[64];

	(void)state;
	type("ab\t");
	assert_int_equal(tty.ldata.column, 8);
	fake_tty_reset_output();
	type("\x7f");
	assert_string_equal(fake_output, "\b\b\b\b\b\b");
	assert_int_equal(tty.ldata.column, 2);
	type("\r");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "ab\n");
}

static void test_kill_with_echoke_wipes_the_line(void **state)
{
	char buf[64];

	(void)state;
	type("hey\x15");
	assert_string_equal(fake_output, "hey\b \b\b \b\b \b");
	assert_false(n_tty_input_available(&tty, false));
	type("x\r");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "x\n");
}

static void test_kill_without_echoke_echoes_kill_and_newline(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ECHOKE);
	type("hey\x15" "ok\r");
	assert_string_equal(fake_output, "hey^U\r\nok\r\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "ok\n");
}

static void test_werase(void **state)
{
	char buf[64];

	(void)state;
	type("foo bar  \x17" "\r");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "foo \n");

	type("cd /usr/lo\x17" "\x17" "\r");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "cd /\n");
}

static void test_werase_needs_iexten(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, IEXTEN);
	type("ab\x17\r");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "ab\x17\n");
}

static void test_eof_returns_the_partial_line(void **state)
{
	char buf[64];

	(void)state;
	type("abc\x04");
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(n_tty_inq(&tty), 3);
	assert_int_equal(do_read(buf, sizeof(buf)), 3);
	assert_string_equal(buf, "abc");
	assert_false(n_tty_input_available(&tty, false));
	assert_string_equal(fake_output, "abc");	/* EOF is not echoed */
}

static void test_eof_at_line_start_reads_zero(void **state)
{
	char buf[64];

	(void)state;
	type("\x04");
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(n_tty_inq(&tty), 0);
	assert_int_equal(do_read(buf, sizeof(buf)), 0);
	assert_false(n_tty_input_available(&tty, false));
}

static void test_eof_right_after_a_full_buffer_is_consumed(void **state)
{
	char buf[64];

	(void)state;
	type("abc\x04");
	assert_int_equal(do_read(buf, 3), 3);
	assert_false(n_tty_input_available(&tty, false));
}

static void test_newline_that_does_not_fit_stays(void **state)
{
	char buf[64];

	(void)state;
	type("abc\r");
	assert_int_equal(do_read(buf, 3), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(do_read(buf, 3), 1);
	assert_string_equal(buf, "\n");
}

static void test_icrnl_off_keeps_cr(void **state)
{
	char buf[64];

	(void)state;
	set_iflag(0, ICRNL);
	type("ab\r");
	assert_false(n_tty_input_available(&tty, false));
	type("\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "ab\r\n");
}

static void test_igncr_and_inlcr(void **state)
{
	char buf[64];

	(void)state;
	set_iflag(IGNCR, 0);
	type("a\rb\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "ab\n");

	set_iflag(INLCR, IGNCR | ICRNL);
	set_lflag(0, ICANON);
	type("x\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "x\r");
}

static void test_echo_off(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ECHO);
	type("secret\r");
	assert_string_equal(fake_output, "");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "secret\n");
}

static void test_echonl_without_echo(void **state)
{
	(void)state;
	set_lflag(ECHONL, ECHO);
	type("pw\r");
	assert_string_equal(fake_output, "\r\n");
}

static void test_echoctl_off_echoes_raw(void **state)
{
	(void)state;
	set_lflag(0, ECHOCTL);
	type("a\x1b");
	assert_string_equal(fake_output, "a\x1b");
}

static void test_lnext_quotes_the_next_byte(void **state)
{
	char buf[64];

	(void)state;
	type("\x16\x03\x16\x7f\r");
	assert_int_equal(fake_nr_kills, 0);
	assert_string_equal(fake_output, "^\b^C^\b^?\r\n");
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "\x03\x7f\n");
}

static void test_reprint(void **state)
{
	(void)state;
	type("ab\x12");
	assert_string_equal(fake_output, "ab^R\r\nab");
}

static void test_eol_char_ends_a_line(void **state)
{
	char buf[64];

	(void)state;
	set_cc(VEOL, ';');
	type("ls;");
	assert_true(n_tty_input_available(&tty, false));
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "ls;");
}

static void test_full_buffer_keeps_room_for_the_line_end(void **state)
{
	static char big[N_TTY_BUF_SIZE + 16];
	size_t i;

	(void)state;
	set_lflag(0, ECHO);
	for (i = 0; i < N_TTY_BUF_SIZE + 10; i++)
		type_byte('x');
	assert_false(n_tty_input_available(&tty, false));
	type("\x7f" "y\r");
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(do_read(big, sizeof(big)), N_TTY_BUF_SIZE);
	assert_int_equal(big[N_TTY_BUF_SIZE - 2], 'y');
	assert_int_equal(big[N_TTY_BUF_SIZE - 1], '\n');
}

static void test_ring_wraps(void **state)
{
	char buf[64];
	unsigned int i;

	(void)state;
	set_lflag(0, ECHO);
	for (i = 0; i < 1000; i++) {
		type("0123456789\r");
		assert_int_equal(do_read(buf, sizeof(buf)), 11);
		assert_string_equal(buf, "0123456789\n");
	}
	assert_true(tty.ldata.read_tail > N_TTY_BUF_SIZE);
}

/* --- signals -------------------------------------------------------------- */

static void test_intr_sends_sigint_and_flushes(void **state)
{
	(void)state;
	type("done\rhalf");
	type("\x03");
	assert_int_equal(fake_nr_kills, 1);
	assert_int_equal(fake_kills[0].pgrp, FG_PGRP);
	assert_int_equal(fake_kills[0].sig, SIGINT);
	assert_false(n_tty_input_available(&tty, false));
	assert_int_equal(n_tty_inq(&tty), 0);
	assert_string_equal(fake_output, "done\r\nhalf^C");
}

static void test_quit_and_susp(void **state)
{
	(void)state;
	type("\x1c\x1a");
	assert_int_equal(fake_nr_kills, 2);
	assert_int_equal(fake_kills[0].sig, SIGQUIT);
	assert_int_equal(fake_kills[1].sig, SIGTSTP);
	assert_string_equal(fake_output, "^\\^Z");
}

static void test_noflsh_keeps_input(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(NOFLSH, 0);
	type("keep\r\x03");
	assert_int_equal(fake_nr_kills, 1);
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "keep\n");
}

static void test_signals_in_raw_mode_and_without_isig(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ICANON | ECHO);
	type("\x03");
	assert_int_equal(fake_nr_kills, 1);

	set_lflag(0, ISIG);
	type("\x03");
	assert_int_equal(fake_nr_kills, 1);
	assert_int_equal(do_read(buf, sizeof(buf)), 1);
	assert_int_equal(buf[0], 0x03);
}

static void test_disabled_intr_char_is_ordinary(void **state)
{
	char buf[64];

	(void)state;
	set_cc(VINTR, __DISABLED_CHAR);
	type("\x03\r");
	assert_int_equal(fake_nr_kills, 0);
	do_read(buf, sizeof(buf));
	assert_string_equal(buf, "\x03\n");

	type_byte('\0');	/* a NUL never matches a disabled entry */
	type("\r");
	assert_int_equal(do_read(buf, sizeof(buf)), 2);
	assert_int_equal(buf[0], '\0');
}

static void test_no_foreground_group_no_signal(void **state)
{
	(void)state;
	tty.pgrp = 0;
	type("\x03");
	assert_int_equal(fake_nr_kills, 0);
}

/* --- flow control ---------------------------------------------------------- */

static void test_ixon_stop_and_start(void **state)
{
	(void)state;
	type("\x13");
	assert_true(tty.stopped);
	type("a");
	assert_true(tty.stopped);
	type("\x11");
	assert_false(tty.stopped);
	assert_int_equal(fake_write_wakeups, 1);
	assert_int_equal(tty.ldata.read_head, 1);	/* only the 'a' is input */
}

static void test_ixany_restarts_on_any_key(void **state)
{
	(void)state;
	set_iflag(IXANY, 0);
	type("\x13" "a");
	assert_false(tty.stopped);
}

static void test_tcooff_is_not_undone_by_start_char(void **state)
{
	(void)state;
	tty.flow_stopped = true;
	stop_tty(&tty);
	type("\x11");
	assert_true(tty.stopped);
}

/* --- non-canonical mode ----------------------------------------------------- */

static void test_raw_vmin0_vtime0_returns_what_is_there(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ICANON | ECHO);
	set_cc(VMIN, 0);
	assert_false(n_tty_input_available(&tty, false));
	assert_int_equal(do_read(buf, sizeof(buf)), 0);
	type("ab");
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(do_read(buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
}

static void test_raw_vmin_counts_for_poll(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ICANON | ECHO);
	set_cc(VMIN, 3);
	type("ab");
	assert_true(n_tty_input_available(&tty, false));	/* read takes what it can */
	assert_false(n_tty_input_available(&tty, true));	/* poll waits for VMIN */
	type("c");
	assert_true(n_tty_input_available(&tty, true));
	assert_int_equal(do_read(buf, 2), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(do_read(buf, sizeof(buf)), 1);
	assert_string_equal(buf, "c");

	set_cc(VTIME, 5);	/* with VTIME, poll reports the first byte */
	type("d");
	assert_true(n_tty_input_available(&tty, true));
}

static void test_raw_mode_keeps_editing_chars(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ICANON);
	type("a\x7f\x15\x04\r");
	assert_int_equal(do_read(buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "a\x7f\x15\x04\n", 5);
	assert_string_equal(fake_output, "a^?^U^D\r\n");
}

static void test_leaving_canonical_mode_makes_the_line_readable(void **state)
{
	char buf[64];

	(void)state;
	type("par");
	set_lflag(0, ICANON);
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(do_read(buf, sizeof(buf)), 3);
	assert_string_equal(buf, "par");
}

static void test_entering_canonical_mode_pushes_pending_input(void **state)
{
	char buf[64];

	(void)state;
	set_lflag(0, ICANON | ECHO);
	type("xyz");
	set_lflag(ICANON, 0);
	assert_true(n_tty_input_available(&tty, false));
	assert_int_equal(do_read(buf, sizeof(buf)), 3);
	assert_string_equal(buf, "xyz");
	assert_false(n_tty_input_available(&tty, false));
}

/* --- output --------------------------------------------------------------- */

static void test_output_onlcr(void **state)
{
	(void)state;
	n_tty_write(&tty, (const unsigned char *)"a\nb\n", 4);
	assert_string_equal(fake_output, "a\r\nb\r\n");
	assert_int_equal(tty.ldata.column, 0);
}

static void test_output_without_opost_is_raw(void **state)
{
	struct termios old = tty.termios;

	(void)state;
	tty.termios.c_oflag &= ~OPOST;
	n_tty_set_termios(&tty, &old);
	n_tty_write(&tty, (const unsigned char *)"a\nb\t", 4);
	assert_string_equal(fake_output, "a\nb\t");
}

static void test_output_xtabs_ocrnl_onocr_olcuc(void **state)
{
	(void)state;
	tty.termios.c_oflag |= XTABS;
	n_tty_write(&tty, (const unsigned char *)"ab\tc", 4);
	assert_string_equal(fake_output, "ab      c");

	fake_tty_reset_output();
	tty.termios.c_oflag = OPOST | ONOCR;
	n_tty_write(&tty, (const unsigned char *)"\r", 1);	/* column 9: sent */
	n_tty_write(&tty, (const unsigned char *)"\r", 1);	/* column 0: dropped */
	assert_string_equal(fake_output, "\r");

	fake_tty_reset_output();
	tty.termios.c_oflag = OPOST | OCRNL | OLCUC;
	n_tty_write(&tty, (const unsigned char *)"hi\r", 3);
	assert_string_equal(fake_output, "HI\n");
}

static void test_long_write_is_passed_whole(void **state)
{
	static unsigned char data[1000];

	(void)state;
	memset(data, 'z', sizeof(data));
	n_tty_write(&tty, data, sizeof(data));
	assert_int_equal(fake_output_len, sizeof(data));
	assert_int_equal(tty.ldata.column, sizeof(data));
}

/* --- the keyboard map --------------------------------------------------------- */

static struct kbd_state kbd;
static size_t keys_len;

/* Feed scan codes; the bytes all of them produced, NUL-ended (their
 * count in keys_len). */
static const char *keys(const uint8_t *codes, size_t n)
{
	static char out[64];
	size_t len = 0, i;

	for (i = 0; i < n; i++) {
		unsigned char buf[KBD_MAX_BYTES];
		size_t k = kbd_translate_scancode(&kbd, codes[i], buf);

		assert_true(k <= KBD_MAX_BYTES);
		memcpy(out + len, buf, k);
		len += k;
	}
	out[len] = '\0';
	keys_len = len;
	return out;
}

#define KEYS(...) ({ static const uint8_t _c[] = { __VA_ARGS__ }; keys(_c, sizeof(_c)); })

static int kbd_setup(void **state)
{
	(void)state;
	memset(&kbd, 0, sizeof(kbd));
	return 0;
}

static void test_kbd_letters_digits_punctuation(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x1e, 0x9e, 0x30, 0xb0, 0x02, 0x82, 0x0c, 0x8c, 0x39, 0xb9), "ab1- ");
	assert_string_equal(KEYS(0x1a, 0x1b, 0x27, 0x28, 0x29, 0x2b, 0x33, 0x34, 0x35, 0x0d), "[];'`\\,./=");
}

static void test_kbd_shift(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x2a, 0x1e, 0x02, 0x0c, 0x28, 0x35, 0xaa, 0x1e), "A!_\"?a");
	assert_string_equal(KEYS(0x36, 0x2b, 0x29, 0xb6, 0x2b), "|~\\");
}

static void test_kbd_caps_lock(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x3a, 0xba, 0x1e, 0x02), "A1");
	assert_string_equal(KEYS(0x2a, 0x1e, 0x02, 0xaa), "a!");
	/* A held Caps Lock repeats its make code: it toggles once. */
	assert_string_equal(KEYS(0x3a, 0x3a, 0x3a, 0xba, 0x1e), "a");
}

static void test_kbd_ctrl(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x1d, 0x2e), "\x03");
	assert_string_equal(KEYS(0x20, 0x2b, 0x1a), "\x04\x1c\x1b");
	assert_string_equal(KEYS(0x9d, 0x2e), "c");
	assert_string_equal(KEYS(0xe0, 0x1d, 0x16, 0xe0, 0x9d, 0x16), "\x15u");	/* right Ctrl */
	assert_int_equal(KEYS(0x1d, 0x39, 0x9d)[0], '\0');	/* Ctrl+Space: NUL */
	assert_int_equal(keys_len, 1);
	assert_string_equal(KEYS(0x1d, 0x0e, 0x9d, 0x0e), "\b\x7f");	/* Ctrl+Backspace */
}

static void test_kbd_special_keys(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x1c, 0x0e, 0x0f, 0x01), "\r\x7f\t\x1b");
	assert_string_equal(KEYS(0xe0, 0x1c, 0xe0, 0x35), "\r/");	/* keypad Enter, / */
}

static void test_kbd_arrows_and_editing_keys(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0xe0, 0x48, 0xe0, 0xc8), "\033[A");
	assert_string_equal(KEYS(0xe0, 0x50, 0xe0, 0x4d, 0xe0, 0x4b), "\033[B\033[C\033[D");
	assert_string_equal(KEYS(0xe0, 0x47, 0xe0, 0x4f, 0xe0, 0x53), "\033[1~\033[4~\033[3~");
	assert_string_equal(KEYS(0xe0, 0x52, 0xe0, 0x49, 0xe0, 0x51), "\033[2~\033[5~\033[6~");
	/* With Num Lock on, the grey keys send "fake shifts" around them. */
	assert_string_equal(KEYS(0xe0, 0x2a, 0xe0, 0x48, 0xe0, 0xc8, 0xe0, 0xaa, 0x1e), "\033[Aa");
}

static void test_kbd_function_keys(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x3b, 0x3f, 0x40, 0x44), "\033[[A\033[[E\033[17~\033[21~");
	assert_string_equal(KEYS(0x57, 0x58), "\033[23~\033[24~");
}

static void test_kbd_keypad_and_num_lock(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x48, 0x4c, 0x4a, 0x37), "\033[A\033[G-*");
	assert_string_equal(KEYS(0x45, 0xc5, 0x48, 0x4f, 0x53, 0x4e), "81.+");
}

static void test_kbd_alt_sends_escape_prefix(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0x38, 0x30, 0xb8, 0x30), "\033bb");
	assert_string_equal(KEYS(0xe0, 0x38, 0x21, 0xe0, 0xb8), "\033f");
}

static void test_kbd_pause_and_noise_make_nothing(void **state)
{
	(void)state;
	assert_string_equal(KEYS(0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5, 0x1e), "a");
	assert_string_equal(KEYS(0xfa, 0xaa, 0x00, 0x5b, 0xe0, 0x5b), "");
	assert_false(kbd.num_lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_defaults_are_linux, setup),
		cmocka_unit_test_setup(test_line_is_readable_only_when_complete, setup),
		cmocka_unit_test_setup(test_read_returns_one_line_at_a_time, setup),
		cmocka_unit_test_setup(test_erase, setup),
		cmocka_unit_test_setup(test_erase_at_line_start_does_nothing, setup),
		cmocka_unit_test_setup(test_erase_without_echoe_echoes_the_erase_char, setup),
		cmocka_unit_test_setup(test_erase_control_char_erases_both_columns, setup),
		cmocka_unit_test_setup(test_erase_tab_goes_back_to_its_start, setup),
		cmocka_unit_test_setup(test_kill_with_echoke_wipes_the_line, setup),
		cmocka_unit_test_setup(test_kill_without_echoke_echoes_kill_and_newline, setup),
		cmocka_unit_test_setup(test_werase, setup),
		cmocka_unit_test_setup(test_werase_needs_iexten, setup),
		cmocka_unit_test_setup(test_eof_returns_the_partial_line, setup),
		cmocka_unit_test_setup(test_eof_at_line_start_reads_zero, setup),
		cmocka_unit_test_setup(test_eof_right_after_a_full_buffer_is_consumed, setup),
		cmocka_unit_test_setup(test_newline_that_does_not_fit_stays, setup),
		cmocka_unit_test_setup(test_icrnl_off_keeps_cr, setup),
		cmocka_unit_test_setup(test_igncr_and_inlcr, setup),
		cmocka_unit_test_setup(test_echo_off, setup),
		cmocka_unit_test_setup(test_echonl_without_echo, setup),
		cmocka_unit_test_setup(test_echoctl_off_echoes_raw, setup),
		cmocka_unit_test_setup(test_lnext_quotes_the_next_byte, setup),
		cmocka_unit_test_setup(test_reprint, setup),
		cmocka_unit_test_setup(test_eol_char_ends_a_line, setup),
		cmocka_unit_test_setup(test_full_buffer_keeps_room_for_the_line_end, setup),
		cmocka_unit_test_setup(test_ring_wraps, setup),
		cmocka_unit_test_setup(test_intr_sends_sigint_and_flushes, setup),
		cmocka_unit_test_setup(test_quit_and_susp, setup),
		cmocka_unit_test_setup(test_noflsh_keeps_input, setup),
		cmocka_unit_test_setup(test_signals_in_raw_mode_and_without_isig, setup),
		cmocka_unit_test_setup(test_disabled_intr_char_is_ordinary, setup),
		cmocka_unit_test_setup(test_no_foreground_group_no_signal, setup),
		cmocka_unit_test_setup(test_ixon_stop_and_start, setup),
		cmocka_unit_test_setup(test_ixany_restarts_on_any_key, setup),
		cmocka_unit_test_setup(test_tcooff_is_not_undone_by_start_char, setup),
		cmocka_unit_test_setup(test_raw_vmin0_vtime0_returns_what_is_there, setup),
		cmocka_unit_test_setup(test_raw_vmin_counts_for_poll, setup),
		cmocka_unit_test_setup(test_raw_mode_keeps_editing_chars, setup),
		cmocka_unit_test_setup(test_leaving_canonical_mode_makes_the_line_readable, setup),
		cmocka_unit_test_setup(test_entering_canonical_mode_pushes_pending_input, setup),
		cmocka_unit_test_setup(test_output_onlcr, setup),
		cmocka_unit_test_setup(test_output_without_opost_is_raw, setup),
		cmocka_unit_test_setup(test_output_xtabs_ocrnl_onocr_olcuc, setup),
		cmocka_unit_test_setup(test_long_write_is_passed_whole, setup),
		cmocka_unit_test_setup(test_kbd_letters_digits_punctuation, kbd_setup),
		cmocka_unit_test_setup(test_kbd_shift, kbd_setup),
		cmocka_unit_test_setup(test_kbd_caps_lock, kbd_setup),
		cmocka_unit_test_setup(test_kbd_ctrl, kbd_setup),
		cmocka_unit_test_setup(test_kbd_special_keys, kbd_setup),
		cmocka_unit_test_setup(test_kbd_arrows_and_editing_keys, kbd_setup),
		cmocka_unit_test_setup(test_kbd_function_keys, kbd_setup),
		cmocka_unit_test_setup(test_kbd_keypad_and_num_lock, kbd_setup),
		cmocka_unit_test_setup(test_kbd_alt_sends_escape_prefix, kbd_setup),
		cmocka_unit_test_setup(test_kbd_pause_and_noise_make_nothing, kbd_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
