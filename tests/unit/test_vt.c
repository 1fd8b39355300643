/*
 * Unit tests for the screen consoles' terminal (drivers/console/vt.c).
 *
 * Each test writes bytes to a vt over a fake screen (fake_vt.c: a cell
 * array whose operations assert that they stay inside the grid) and
 * checks the screen's characters, their attribute bytes and the cursor.
 * The busybox tests replay what busybox 1.35's line editing
 * (libbb/lineedit.c) writes for typing, backspace, Delete, the arrows,
 * Home/End across a wrapped line, history, Ctrl-U and Ctrl-L, and what
 * clear, top, less and vi send.  The fuzz test feeds random bytes, biased
 * towards the bytes escape sequences are made of, to grids from 1x1 to
 * 80x25, checking the vt's invariants after every chunk and that the
 * screen does not depend on how the stream is split.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <drivers/vt.h>

#include "fake_vt.h"

#define COLS	80
#define ROWS	25
#define PROMPT	"/ # "

/* PC attribute bytes: background << 4 | foreground, 1 blue 2 green 4 red. */
#define PC_BLACK	0
#define PC_BLUE		1
#define PC_GREEN	2
#define PC_BROWN	6
#define PC_RED		4
#define PC_GREY		7
#define PC_BRIGHT	8
#define ATTR(fg, bg)	((uint8_t)((bg) << 4 | (fg)))

static struct fake_screen scr;

static int setup(void **state)
{
	(void)state;
	fake_screen_init(&scr, COLS, ROWS);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_screen_free(&scr);
	return 0;
}

/* Start over with a blank screen of cols x rows. */
static void resize(unsigned int cols, unsigned int rows)
{
	fake_screen_free(&scr);
	fake_screen_init(&scr, cols, rows);
}

static void out(const char *s)
{
	fake_screen_puts(&scr, s);
}

static void expect_row(unsigned int row, const char *text)
{
	char buf[COLS + 1];

	assert_string_equal(fake_screen_row(&scr, row, buf), text);
}

static void expect_cursor(unsigned int col, unsigned int row)
{
	assert_int_equal(scr.vt.col, col);
	assert_int_equal(scr.vt.row, row);
}

static uint8_t attr_at(unsigned int col, unsigned int row)
{
	return fake_screen_cell(&scr, col, row)->attr;
}

/* Write text on every row: "r<row> abcdefghij", cursor left at the top. */
static void fill_rows(void)
{
	char line[48];
	unsigned int row;

	for (row = 0; row < scr.vt.rows; row++) {
		snprintf(line, sizeof(line), "\033[%u;1Hr%02u abcdefghij", row + 1, row);
		out(line);
	}
	out("\033[H");
}

/* --- text, wrapping, scrolling, control characters ------------------------ */

static void test_text_is_drawn_at_the_cursor(void **state)
{
	(void)state;
	out("hello");
	expect_row(0, "hello");
	expect_cursor(5, 0);
	assert_int_equal(attr_at(0, 0), ATTR(PC_GREY, PC_BLACK));
	out(", world\r\nnext");
	expect_row(0, "hello, world");
	expect_row(1, "next");
	expect_cursor(4, 1);
}

static void test_full_line_then_newline_takes_one_line(void **state)
{
	char line[COLS + 1];

	(void)state;
	memset(line, 'a', COLS);
	line[COLS] = '\0';
	out(line);
	expect_cursor(COLS - 1, 0);
	assert_true(scr.vt.need_wrap);
	out("\r\nb");
	expect_row(0, line);
	expect_row(1, "b");
	expect_cursor(1, 1);
}

static void test_character_after_last_column_wraps(void **state)
{
	char line[COLS + 1];

	(void)state;
	memset(line, 'a', COLS);
	line[COLS] = '\0';
	out(line);
	out("bc");
	expect_row(0, line);
	expect_row(1, "bc");
	expect_cursor(2, 1);
}

static void test_newline_on_last_row_scrolls(void **state)
{
	char line[16];
	unsigned int row;

	(void)state;
	for (row = 0; row < ROWS; row++) {
		snprintf(line, sizeof(line), "%sline %u", row ? "\n" : "", row);
		out(line);
	}
	expect_row(0, "line 0");
	expect_row(ROWS - 1, "line 24");
	out("\n");
	expect_row(0, "line 1");
	expect_row(ROWS - 2, "line 24");
	expect_row(ROWS - 1, "");
	expect_cursor(0, ROWS - 1);
	/* A scrolled-in row takes the current background (Linux's bce). */
	out("\033[44m\n");
	assert_int_equal(attr_at(0, ROWS - 1), ATTR(PC_GREY, PC_BLUE));
	assert_int_equal(attr_at(COLS - 1, ROWS - 1), ATTR(PC_GREY, PC_BLUE));
}

static void test_wrap_on_last_row_scrolls(void **state)
{
	(void)state;
	resize(4, 2);
	out("abcdefghi");
	expect_row(0, "efgh");
	expect_row(1, "i");
	expect_cursor(1, 1);
}

static void test_control_characters(void **state)
{
	(void)state;
	out("ab\bc");
	expect_row(0, "ac");
	expect_cursor(2, 0);
	out("\r\b");
	expect_cursor(0, 0);
	out("\tx");
	expect_row(0, "ac      x");
	expect_cursor(9, 0);
	out("\t");
	expect_cursor(16, 0);
	out("\033[1;79H\t");
	expect_cursor(COLS - 1, 0);
	out("\t");
	expect_cursor(COLS - 1, 0);
	/* BEL, NUL, SO, SI, DEL and the other C0 codes draw nothing. */
	out("\r\a");
	vt_write(&scr.vt, "\0\016\017\177\001\037", 6);
	expect_row(0, "ac      x");
	expect_cursor(0, 0);
	out("\n");
	expect_cursor(0, 1);
	out("ab\vc\fd");
	expect_row(1, "ab");
	expect_row(2, "c");
	expect_row(3, "d");
}

/* n_tty echoes an erase as "\b \b": at a full line it must blank the
 * last cell, not the one before. */
static void test_erase_echo_at_the_last_column(void **state)
{
	(void)state;
	resize(10, 3);
	out("0123456789");
	out("\b \b");
	expect_row(0, "012345678");
	expect_cursor(9, 0);
	out("\b \b");
	expect_row(0, "01234567");
	expect_cursor(8, 0);
	out("xy");
	expect_row(0, "01234567xy");
	expect_row(1, "");
}

static void test_high_bytes_are_glyphs(void **state)
{
	(void)state;
	out("\xc4\x9b\xff");
	assert_int_equal(fake_screen_cell(&scr, 0, 0)->c, 0xc4);
	assert_int_equal(fake_screen_cell(&scr, 1, 0)->c, 0x9b);
	assert_int_equal(fake_screen_cell(&scr, 2, 0)->c, 0xff);
	expect_cursor(3, 0);
}

/* --- cursor movement -------------------------------------------------------- */

static void test_cursor_up_down_right_left(void **state)
{
	(void)state;
	out("\033[10;20H");
	expect_cursor(19, 9);
	out("\033[A");
	expect_cursor(19, 8);
	out("\033[3A");
	expect_cursor(19, 5);
	out("\033[B");
	expect_cursor(19, 6);
	out("\033[2B");
	expect_cursor(19, 8);
	out("\033[C");
	expect_cursor(20, 8);
	out("\033[5C");
	expect_cursor(25, 8);
	out("\033[D");
	expect_cursor(24, 8);
	out("\033[4D");
	expect_cursor(20, 8);
	out("\033[0C");		/* 0 means 1 */
	expect_cursor(21, 8);
	out("\033[2a");		/* HPR */
	expect_cursor(23, 8);
	out("\033[2e");		/* VPR */
	expect_cursor(23, 10);
}

static void test_cursor_moves_stop_at_the_edges(void **state)
{
	(void)state;
	out("\033[10;10H\033[999D");
	expect_cursor(0, 9);
	out("\033[99999C");
	expect_cursor(COLS - 1, 9);
	out("\033[999A");
	expect_cursor(COLS - 1, 0);
	out("\033[999B");
	expect_cursor(COLS - 1, ROWS - 1);
	out("\033[99999999999999999999999999D");	/* saturates */
	expect_cursor(0, ROWS - 1);
	out("\033[999;999H");
	expect_cursor(COLS - 1, ROWS - 1);
}

static void test_cursor_absolute_positions(void **state)
{
	(void)state;
	out("\033[5;5H");
	expect_cursor(4, 4);
	out("\033[E");
	expect_cursor(0, 5);
	out("\033[3;9H\033[2E");
	expect_cursor(0, 4);
	out("\033[9C\033[2F");
	expect_cursor(0, 2);
	out("\033[40G");
	expect_cursor(39, 2);
	out("\033[G");
	expect_cursor(0, 2);
	out("\033[12`");
	expect_cursor(11, 2);
	out("\033[7d");
	expect_cursor(11, 6);
	out("\033[d");
	expect_cursor(11, 0);
	out("\033[H");
	expect_cursor(0, 0);
	out("\033[;5H");
	expect_cursor(4, 0);
	out("\033[3;0H");	/* busybox's ESC[%u;0H */
	expect_cursor(0, 2);
	out("\033[6;7f");
	expect_cursor(6, 5);
	out("\033[0;0H");
	expect_cursor(0, 0);
}

static void test_movement_cancels_pending_wrap(void **state)
{
	char line[COLS + 1];

	(void)state;
	memset(line, 'a', COLS);
	line[COLS] = '\0';
	out(line);
	out("\033[D");
	expect_cursor(COLS - 2, 0);
	assert_false(scr.vt.need_wrap);
	out("b");
	expect_cursor(COLS - 1, 0);
	out("\033[Cc");		/* at the last column already: overwrite */
	assert_int_equal(fake_screen_cell(&scr, COLS - 1, 0)->c, 'c');
	expect_row(1, "");
}

/* --- erasing, inserting, deleting -------------------------------------------- */

static void test_erase_display(void **state)
{
	unsigned int row;

	(void)state;
	fill_rows();
	out("\033[11;6H\033[J");
	expect_cursor(5, 10);
	expect_row(9, "r09 abcdefghij");
	expect_row(10, "r10 a");
	for (row = 11; row < ROWS; row++)
		expect_row(row, "");

	fill_rows();
	out("\033[11;6H\033[1J");
	for (row = 0; row < 10; row++)
		expect_row(row, "");
	expect_row(10, "      cdefghij");
	expect_row(11, "r11 abcdefghij");
	expect_cursor(5, 10);

	fill_rows();
	out("\033[11;6H\033[2J");
	for (row = 0; row < ROWS; row++)
		expect_row(row, "");
	expect_cursor(5, 10);

	fill_rows();
	out("\033[3J");
	for (row = 0; row < ROWS; row++)
		expect_row(row, "");

	fill_rows();
	out("\033[4J");		/* not a function: nothing */
	expect_row(0, "r00 abcdefghij");
}

static void test_erase_line(void **state)
{
	(void)state;
	out("abcdefghij\033[1;5H\033[K");
	expect_row(0, "abcd");
	expect_cursor(4, 0);
	out("\033[1;1Habcdefghij\033[1;5H\033[1K");
	expect_row(0, "     fghij");
	out("\033[2K");
	expect_row(0, "");
	expect_cursor(4, 0);
	out("\033[1;1Habcdefghij\033[1;5H\033[0K");
	expect_row(0, "abcd");
}

static void test_erase_characters(void **state)
{
	(void)state;
	out("abcdefghij\033[1;3H\033[3X");
	expect_row(0, "ab   fghij");
	expect_cursor(2, 0);
	out("\033[X");
	expect_row(0, "ab   fghij");
	out("\033[1;8H\033[X");
	expect_row(0, "ab   fg ij");
	out("\033[999X");
	expect_row(0, "ab   fg");
}

static void test_insert_and_delete_characters(void **state)
{
	(void)state;
	resize(10, 2);
	out("0123456789\033[1;6H\033[2@");
	expect_row(0, "01234  567");
	expect_cursor(5, 0);
	out("\033[2P");
	expect_row(0, "01234567");
	out("\033[P");
	expect_row(0, "0123467");
	out("\033[1;3H\033[99@");
	expect_row(0, "01");
	out("\033[1;1H\033[@");
	expect_row(0, " 01");
	out("\033[99P");
	expect_row(0, "");
	/* The last column: one cell to insert or delete. */
	out("0123456789\033[1;10H\033[5@");
	expect_row(0, "012345678");
	out("\033[1;10H9\033[1;10H\033[5P");
	expect_row(0, "012345678");
}

static void test_insert_and_delete_lines(void **state)
{
	(void)state;
	resize(6, 5);
	out("a\nb\nc\nd\ne\033[2;3H\033[L");
	expect_row(0, "a");
	expect_row(1, "");
	expect_row(2, "b");
	expect_row(3, "c");
	expect_row(4, "d");
	expect_cursor(2, 1);
	out("\033[M");
	expect_row(1, "b");
	expect_row(4, "");
	out("\033[2M");
	expect_row(0, "a");
	expect_row(1, "d");
	expect_row(2, "");
	out("\033[99L");
	expect_row(0, "a");
	expect_row(1, "");
	expect_row(4, "");
	out("\033[H\033[99M");
	expect_row(0, "");
}

static void test_insert_mode(void **state)
{
	(void)state;
	out("abc\033[1;1H\033[4hX");
	expect_row(0, "Xabc");
	expect_cursor(1, 0);
	out("\033[4lY");
	expect_row(0, "XYbc");
}

/* --- scrolling region, index, reverse index ---------------------------------- */

static void test_scrolling_region(void **state)
{
	(void)state;
	resize(4, 6);
	out("0\n1\n2\n3\n4\n5\033[2;4r");
	expect_cursor(0, 0);			/* DECSTBM homes the cursor */
	out("\033[4;1H\n");			/* the region's last row */
	expect_row(0, "0");
	expect_row(1, "2");
	expect_row(2, "3");
	expect_row(3, "");
	expect_row(4, "4");
	expect_row(5, "5");
	expect_cursor(0, 3);
	out("\033[2;1H\033M");			/* RI at the region's top */
	expect_row(1, "");
	expect_row(2, "2");
	expect_row(3, "3");
	expect_row(4, "4");
	expect_cursor(0, 1);
	out("\033[6;1H\n");			/* below the region: no scroll */
	expect_cursor(0, 5);
	expect_row(5, "5");
	out("\033[3;1H\033[L");			/* IL inside the region */
	expect_row(2, "");
	expect_row(3, "2");
	expect_row(4, "4");
	out("\033[4;2r");			/* invalid: ignored */
	expect_cursor(0, 2);
	assert_int_equal(scr.vt.top, 1);
	assert_int_equal(scr.vt.bottom, 4);
	out("\033[r\033[6;1H\n");		/* the whole screen again */
	expect_row(0, "");
	expect_row(4, "5");
	expect_row(5, "");
}

static void test_index_next_line_reverse_index(void **state)
{
	(void)state;
	out("abc\033Dx");
	expect_row(1, "   x");
	out("\033Ey");
	expect_row(2, "y");
	out("\033[H\033M");
	expect_row(0, "");
	expect_row(1, "abc");
	expect_row(2, "   x");
	expect_cursor(0, 0);
	out("\033[3;1H\033M");
	expect_cursor(0, 1);
}

/* --- colours ----------------------------------------------------------------- */

static uint8_t attr_of(const char *sgr)
{
	out("\033[H");
	out(sgr);
	out("x");
	return attr_at(0, 0);
}

static void test_sgr_colours_and_attributes(void **state)
{
	(void)state;
	assert_int_equal(attr_of(""), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[31m"), ATTR(PC_RED, PC_BLACK));
	assert_int_equal(attr_of("\033[1m"), ATTR(PC_RED | PC_BRIGHT, PC_BLACK));
	assert_int_equal(attr_of("\033[22m"), ATTR(PC_RED, PC_BLACK));
	assert_int_equal(attr_of("\033[7m"), ATTR(PC_BLACK, PC_RED));
	assert_int_equal(attr_of("\033[1m"), ATTR(PC_BLACK | PC_BRIGHT, PC_RED));
	assert_int_equal(attr_of("\033[27m"), ATTR(PC_RED | PC_BRIGHT, PC_BLACK));
	assert_int_equal(attr_of("\033[0m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[32;44m"), ATTR(PC_GREEN, PC_BLUE));
	assert_int_equal(attr_of("\033[39m"), ATTR(PC_GREY, PC_BLUE));
	assert_int_equal(attr_of("\033[49m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[94m"), ATTR(PC_BLUE | PC_BRIGHT, PC_BLACK));
	assert_int_equal(attr_of("\033[31m"), ATTR(PC_RED, PC_BLACK));
	assert_int_equal(attr_of("\033[103m"), ATTR(PC_RED, PC_BROWN));
	assert_int_equal(attr_of("\033[m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[97m\033[39m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[1;7;32;41m"), ATTR(PC_RED | PC_BRIGHT, PC_GREEN));
	assert_int_equal(attr_of("\033[;34m"), ATTR(PC_BLUE, PC_BLACK));	/* empty = 0 */
	/* dim, italic, underline, blink: ignored */
	assert_int_equal(attr_of("\033[0;2;3;4;5;21;24;25m"), ATTR(PC_GREY, PC_BLACK));
}

static void test_sgr_extended_colours(void **state)
{
	(void)state;
	assert_int_equal(attr_of("\033[38;5;1m"), ATTR(PC_RED, PC_BLACK));
	assert_int_equal(attr_of("\033[38;5;9m"), ATTR(PC_RED | PC_BRIGHT, PC_BLACK));
	assert_int_equal(attr_of("\033[48;5;4m"), ATTR(PC_RED | PC_BRIGHT, PC_BLUE));
	assert_int_equal(attr_of("\033[48;5;12m"), ATTR(PC_RED | PC_BRIGHT, PC_BLUE));
	assert_int_equal(attr_of("\033[0;38;5;200m"), ATTR(PC_GREY, PC_BLACK));
	/* 24-bit colours are skipped whole: the 32 after them still counts. */
	assert_int_equal(attr_of("\033[38;2;255;0;0;32m"), ATTR(PC_GREEN, PC_BLACK));
	assert_int_equal(attr_of("\033[48;2;1;2;3;45m"), ATTR(PC_GREEN, 5));
	/* Cut short: nothing after them is misread. */
	assert_int_equal(attr_of("\033[0;38;5m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[38;2;1m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[38m"), ATTR(PC_GREY, PC_BLACK));
	assert_int_equal(attr_of("\033[38;9;31m"), ATTR(PC_RED, PC_BLACK));
}

/* Erased cells take the current colours, neither bright nor reversed. */
static void test_erase_uses_the_current_background(void **state)
{
	(void)state;
	out("\033[1;7;33;44m\033[2K");
	assert_int_equal(attr_at(0, 0), ATTR(PC_BROWN, PC_BLUE));
	assert_int_equal(attr_at(COLS - 1, 0), ATTR(PC_BROWN, PC_BLUE));
	out("\033[m\033[2;1H\033[41m\033[J");
	assert_int_equal(attr_at(0, 1), ATTR(PC_GREY, PC_RED));
	assert_int_equal(attr_at(COLS - 1, ROWS - 1), ATTR(PC_GREY, PC_RED));
	assert_int_equal(attr_at(0, 0), ATTR(PC_BROWN, PC_BLUE));
}

/* --- saving, resetting, modes ---------------------------------------------- */

static void test_save_and_restore_cursor(void **state)
{
	(void)state;
	out("\033[8;9H\033[31m\0337\033[H\033[m\0338x");
	expect_cursor(9, 7);
	assert_int_equal(attr_at(8, 7), ATTR(PC_RED, PC_BLACK));
	out("\033[m\033[3;4H\033[s\033[20;20H\033[uy");
	assert_int_equal(fake_screen_cell(&scr, 3, 2)->c, 'y');
	assert_int_equal(attr_at(3, 2), ATTR(PC_GREY, PC_BLACK));
}

static void test_restore_without_save_goes_home(void **state)
{
	(void)state;
	out("\033[5;5H\033[32m\0338x");
	expect_row(0, "x");
	assert_int_equal(attr_at(0, 0), ATTR(PC_GREY, PC_BLACK));
}

static void test_reset(void **state)
{
	unsigned int row;

	(void)state;
	fill_rows();
	out("\033[44;31m\033[2;3r\033[?25l\033[4h\033[10;10H\033c");
	for (row = 0; row < ROWS; row++)
		expect_row(row, "");
	expect_cursor(0, 0);
	assert_int_equal(attr_at(5, 5), ATTR(PC_GREY, PC_BLACK));
	assert_true(scr.vt.cursor_visible);
	assert_false(scr.vt.insert_mode);
	assert_int_equal(scr.vt.top, 0);
	assert_int_equal(scr.vt.bottom, ROWS);
	out("x");
	assert_int_equal(attr_at(0, 0), ATTR(PC_GREY, PC_BLACK));
}

static void test_private_modes(void **state)
{
	(void)state;
	assert_true(scr.vt.cursor_visible);
	out("\033[?25l");
	assert_false(scr.vt.cursor_visible);
	out("\033[?25h");
	assert_true(scr.vt.cursor_visible);
	out("\033[?1049;25l");
	assert_false(scr.vt.cursor_visible);
	out("\033[?25h");
	out("ab\033[?1049h\033[?1h\033[?7l\033[?1c\033[>c\033[=3h\033[?6n\033[25l");
	expect_row(0, "ab");
	expect_cursor(2, 0);
	assert_true(scr.vt.cursor_visible);
	assert_false(scr.vt.insert_mode);
}

/* The queries are not answered (see vt.c) and leave no trace. */
static void test_queries_do_nothing(void **state)
{
	unsigned long ops;

	(void)state;
	out("ab");
	ops = scr.nr_ops;
	out("\033[6n\033[5n\033[c\033[0c\033Z\033[3g\033H\033[1q");
	assert_int_equal(scr.nr_ops, ops);
	expect_row(0, "ab");
	expect_cursor(2, 0);
}

/* --- malformed and unusual sequences --------------------------------------- */

/* Write s on a clear screen and then "ok": the screen must show just ok. */
static void expect_dropped(const char *s)
{
	out("\033[m\033[2J\033[H");
	out(s);
	out("ok");
	expect_row(0, "ok");
	expect_row(1, "");
	assert_int_equal(scr.vt.state, VT_NORMAL);
}

static void test_malformed_sequences_print_nothing(void **state)
{
	(void)state;
	expect_dropped("\033[1:2m");
	expect_dropped("\033[38:5:1m");
	expect_dropped("\033[1 q");		/* an intermediate byte */
	expect_dropped("\033[1?m");		/* a misplaced marker */
	expect_dropped("\033[1\xffm");
	expect_dropped("\033\xff");
	expect_dropped("\033[\xe2\x80\x9cm");
	expect_dropped("\033(B\033)0\033#8\033%G\033 F");
	expect_dropped("\033]0;a title\a");
	expect_dropped("\033]2;a title\033\\");
	expect_dropped("\033[12\030");		/* CAN */
	expect_dropped("\033[12;\032");		/* SUB */
	expect_dropped("\033[[A");		/* an echoed function key */
	expect_dropped("\033[?1;2c");
	expect_dropped("\033Z\033=\033>\033H\033N\033O");
	expect_dropped("\033[2$p");
	expect_dropped("\033[>0;1;2m");
	assert_int_equal(attr_at(0, 0), ATTR(PC_GREY, PC_BLACK));
	expect_dropped("\033\033\033[m");
}

/* An OSC string swallows text up to its end. */
static void test_unterminated_osc_swallows_text(void **state)
{
	(void)state;
	out("\033]P0000000 more text\r\n");
	expect_row(0, "");
	expect_cursor(0, 1);
	out("\033\\ok");
	expect_row(1, "ok");
}

static void test_sixteen_parameters_work_seventeen_are_dropped(void **state)
{
	(void)state;
	out("\033[0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;31mx");
	assert_int_equal(attr_at(0, 0), ATTR(PC_RED, PC_BLACK));
	out("\033[0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;32my");
	expect_row(0, "xy");
	assert_int_equal(attr_at(1, 0), ATTR(PC_RED, PC_BLACK));
}

static void test_escape_restarts_a_sequence(void **state)
{
	(void)state;
	out("\033[31\033[32mx");
	expect_row(0, "x");
	assert_int_equal(attr_at(0, 0), ATTR(PC_GREEN, PC_BLACK));
}

/* Control characters act inside a sequence, which then goes on. */
static void test_controls_inside_a_sequence(void **state)
{
	(void)state;
	out("abc\033[1\bDx");
	expect_row(0, "axc");
	out("\033[\r2Cy");
	expect_row(0, "axy");
	out("\033[\n1;31mz");
	expect_row(1, "z");
	assert_int_equal(attr_at(0, 1), ATTR(PC_RED | PC_BRIGHT, PC_BLACK));
}

static void test_sequences_split_across_writes(void **state)
{
	static const char s[] = "ab\033[1;31mc\033[2D\033[Kd\033]0;t\aef\033[2;5Hg";
	struct fake_screen whole;
	size_t i;

	(void)state;
	fake_screen_init(&whole, COLS, ROWS);
	fake_screen_puts(&whole, s);
	for (i = 0; i < sizeof(s) - 1; i++)
		vt_write(&scr.vt, &s[i], 1);
	assert_memory_equal(scr.cells, whole.cells, sizeof(*scr.cells) * COLS * ROWS);
	expect_cursor(whole.vt.col, whole.vt.row);
	expect_row(0, "adef");
	expect_row(1, "    g");
	fake_screen_free(&whole);
}

/* --- what busybox writes ---------------------------------------------------- */

/* Typing, then Backspace at the end: "\b" and ESC[J. */
static void test_busybox_typing_and_backspace(void **state)
{
	(void)state;
	out(PROMPT);
	out("e");
	out("c");
	out("h");
	out("o");
	expect_row(0, "/ # echo");
	expect_cursor(8, 0);
	out("\b\033[J");
	expect_row(0, "/ # ech");
	expect_cursor(7, 0);
}

/* Left arrow is "\b"; a character typed in the middle redraws the rest
 * of the line and goes back; Delete and Backspace in the middle likewise
 * with ESC[J to drop the old last character. */
static void test_busybox_editing_in_the_middle(void **state)
{
	(void)state;
	out(PROMPT "ech");
	out("\b");
	out("\b");
	expect_cursor(5, 0);
	out("Xch\b\b");			/* typed X: "eXch", cursor after X */
	expect_row(0, "/ # eXch");
	expect_cursor(6, 0);
	out("h\033[J\b");		/* Delete on c */
	expect_row(0, "/ # eXh");
	expect_cursor(6, 0);
	out("\b" "h\033[J" "\b");	/* Backspace on X */
	expect_row(0, "/ # eh");
	expect_cursor(5, 0);
	out("h");			/* Right arrow reprints the character */
	expect_cursor(6, 0);
	expect_row(0, "/ # eh");
}

/* Home with more than 4 characters to go back is ESC[<n>D, End
 * reprints the rest. */
static void test_busybox_home_and_end(void **state)
{
	(void)state;
	out(PROMPT "echo hello");
	out("\033[10D");
	expect_cursor(4, 0);
	out("echo hello");
	expect_cursor(14, 0);
	expect_row(0, "/ # echo hello");
}

/* A command longer than the line: at the margin busybox writes "\r\n"
 * itself (ONLCR makes it "\r\r\n"); Home goes up with "\r" ESC[1A and
 * right with ESC[<n>C; Up arrow redraws from the first line. */
static void test_busybox_wrapped_command_line(void **state)
{
	char cmd[101], first[COLS + 1];

	(void)state;
	memset(cmd, 'x', 100);
	cmd[100] = '\0';
	/* Typed: 76 characters fill the first line, then "\r\n". */
	out(PROMPT);
	vt_write(&scr.vt, cmd, 76);
	out("\r\r\n");
	vt_write(&scr.vt, cmd, 24);
	snprintf(first, sizeof(first), "%s%.76s", PROMPT, cmd);
	expect_row(0, first);
	expect_row(1, cmd + 76);
	expect_row(2, "");
	expect_cursor(24, 1);
	out("\r\033[1A\033[4C");	/* Home */
	expect_cursor(4, 0);
	vt_write(&scr.vt, cmd, 76);	/* End */
	out("\r\r\n");
	vt_write(&scr.vt, cmd, 24);
	expect_row(0, first);
	expect_cursor(24, 1);
	out("\033[1A\r" PROMPT "ls\033[J");	/* Up: history "ls" */
	expect_row(0, "/ # ls");
	expect_row(1, "");
	expect_cursor(6, 0);
}

/* Ctrl-U deletes before the cursor: redraw from "\r", then go back. */
static void test_busybox_ctrl_u(void **state)
{
	(void)state;
	out(PROMPT "ls -l\b\b");
	out("\r" PROMPT "-l\033[J\b\b");
	expect_row(0, "/ # -l");
	expect_cursor(4, 0);
}

/* Ctrl-L: ESC[H ESC[J, then the prompt and the line drawn again. */
static void test_busybox_ctrl_l(void **state)
{
	unsigned int row;

	(void)state;
	fill_rows();
	out("\033[12;1H" PROMPT "ls -l");
	out("\033[H\033[J");
	out("\r" PROMPT "ls -l\033[J\b\b\b");
	expect_row(0, "/ # ls -l");
	for (row = 1; row < ROWS; row++)
		expect_row(row, "");
	expect_cursor(6, 0);
}

/* ESC[6n (where is the cursor?) after the prompt is not answered and
 * draws nothing; Enter ends the line. */
static void test_busybox_prompt_with_cursor_query(void **state)
{
	(void)state;
	out(PROMPT "\033[6n");
	expect_row(0, "/ #");
	expect_cursor(4, 0);
	out("ls\r\nbin  dev  etc\r\n" PROMPT);
	expect_row(0, "/ # ls");
	expect_row(1, "bin  dev  etc");
	expect_cursor(4, 2);
}

/* clear, top's header in reverse video, less's prompt, vi's screen. */
static void test_busybox_full_screen_programs(void **state)
{
	unsigned int col;

	(void)state;
	fill_rows();
	out("\033[H\033[J");			/* clear */
	expect_row(0, "");
	expect_row(ROWS - 1, "");
	out("\033[H\033[J\033[7m  PID USER\033[m\r\n    1 root");
	expect_row(0, "  PID USER");
	expect_row(1, "    1 root");
	for (col = 0; col < 10; col++)
		assert_int_equal(attr_at(col, 0), ATTR(PC_BLACK, PC_GREY));
	assert_int_equal(attr_at(0, 1), ATTR(PC_GREY, PC_BLACK));
	out("\033[25;1H\033[K\033[7m(END)\033[m");	/* less */
	expect_row(ROWS - 1, "(END)");
	assert_int_equal(attr_at(0, ROWS - 1), ATTR(PC_BLACK, PC_GREY));
	out("\033[?1049h\033[H\033[J~\r\n~\r\n\033[25;1H\033[K\"f\" 0L, 0C\033[1;1H");	/* vi */
	expect_row(0, "~");
	expect_row(1, "~");
	expect_row(ROWS - 1, "\"f\" 0L, 0C");
	expect_cursor(0, 0);
	out("\033[999;999H\033[6n");		/* less/vi asking the size */
	expect_cursor(COLS - 1, ROWS - 1);
	out("\033[?1049l");
}

/* --- random bytes ----------------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Mostly the bytes sequences are made of, sometimes any byte. */
static unsigned char random_byte(void)
{
	static const char alphabet[] =
		"\033\033\033\033[[[[;;;;??0123456789012345678912 ab()#%]"
		"ABCDEFGHJKLMPX@`adefhlmnrsuc78DEMZ\a\b\t\n\r\030\032\177";

	if (rng() % 4 == 0)
		return (unsigned char)rng();
	return (unsigned char)alphabet[rng() % (sizeof(alphabet) - 1)];
}

static void check_invariants(const struct vt *vt)
{
	unsigned int i;

	assert_true(vt->row < vt->rows);
	assert_true(vt->col < vt->cols);
	assert_true(vt->top < vt->bottom && vt->bottom <= vt->rows);
	assert_true(vt->saved.row < vt->rows && vt->saved.col < vt->cols);
	assert_true(vt->npar < VT_NPAR);
	for (i = 0; i < VT_NPAR; i++)
		assert_true(vt->par[i] <= 65535);
	assert_true(vt->rend.fg < 8 && vt->rend.bg < 8);
	assert_int_equal(vt->attr & 0x80, 0);
	assert_int_equal(vt->erase_attr & 0x88, 0);
	assert_true(vt->state <= VT_OSC);
}

static void fuzz_grid(unsigned int cols, unsigned int rows, uint64_t seed, size_t len)
{
	struct fake_screen a, b;
	unsigned char *buf = malloc(len);
	size_t i, n;

	assert_non_null(buf);
	rng_state = seed;
	for (i = 0; i < len; i++)
		buf[i] = random_byte();
	fake_screen_init(&a, cols, rows);
	fake_screen_init(&b, cols, rows);
	/* a gets random chunks, checked after each; b gets it all at once. */
	for (i = 0; i < len; i += n) {
		n = 1 + rng() % 64;
		n = MIN(n, len - i);
		vt_write(&a.vt, (const char *)buf + i, n);
		check_invariants(&a.vt);
	}
	vt_write(&b.vt, (const char *)buf, len);
	assert_memory_equal(a.cells, b.cells, sizeof(*a.cells) * cols * rows);
	assert_int_equal(a.vt.row, b.vt.row);
	assert_int_equal(a.vt.col, b.vt.col);
	assert_int_equal(a.vt.state, b.vt.state);
	fake_screen_free(&a);
	fake_screen_free(&b);
	free(buf);
}

static void test_fuzz_random_bytes(void **state)
{
	static const unsigned int grids[][2] = {
		{ 1, 1 }, { 1, 5 }, { 5, 1 }, { 2, 2 }, { 3, 7 }, { 9, 4 },
		{ 16, 3 }, { 80, 25 }, { 160, 50 },
	};
	const char *env = getenv("VT_FUZZ_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 0x5eed1234abcdull;
	unsigned int i, round;

	(void)state;
	for (round = 0; round < 4; round++)
		for (i = 0; i < ARRAY_SIZE(grids); i++)
			fuzz_grid(grids[i][0], grids[i][1],
				  seed + round * 7919 + i * 104729, 50000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text_is_drawn_at_the_cursor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_line_then_newline_takes_one_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_character_after_last_column_wraps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newline_on_last_row_scrolls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_on_last_row_scrolls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_control_characters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_erase_echo_at_the_last_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_high_bytes_are_glyphs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_up_down_right_left, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_moves_stop_at_the_edges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_absolute_positions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_movement_cancels_pending_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_erase_display, setup, teardown),
		cmocka_unit_test_setup_teardown(test_erase_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_erase_characters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_insert_and_delete_characters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_insert_and_delete_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_insert_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scrolling_region, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_next_line_reverse_index, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sgr_colours_and_attributes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sgr_extended_colours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_erase_uses_the_current_background, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_and_restore_cursor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_without_save_goes_home, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_private_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queries_do_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed_sequences_print_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unterminated_osc_swallows_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sixteen_parameters_work_seventeen_are_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escape_restarts_a_sequence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_controls_inside_a_sequence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sequences_split_across_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_typing_and_backspace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_editing_in_the_middle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_home_and_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_wrapped_command_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_ctrl_u, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_ctrl_l, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_prompt_with_cursor_query, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busybox_full_screen_programs, setup, teardown),
		cmocka_unit_test(test_fuzz_random_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
