/*
 * fake_vt: a screen for the host unit tests of drivers/console/vt.c
 * (tests/unit/fake_vt.c): a cols x rows array of cells (character and
 * attribute byte) behind the struct vt_ops a console supplies.
 *
 * The cells are one malloc'd block of exactly cols * rows, and every
 * operation first checks (cmocka assertions) that it stays inside the
 * grid with a non-empty rectangle, as include/drivers/vt.h promises; so
 * a vt bug shows as a failed assertion, or an AddressSanitizer report.
 * bmove copies through a temporary buffer, the semantics the contract
 * asks for.  A new screen is blank: spaces, VT_ATTR_DEFAULT.
 */
#ifndef TESTS_UNIT_FAKE_VT_H
#define TESTS_UNIT_FAKE_VT_H

#include <drivers/vt.h>

struct fake_cell {
	unsigned char c;
	uint8_t attr;
};

struct fake_screen {
	struct vt vt;
	struct fake_cell *cells;	/* row-major, vt.cols per row */
	unsigned long nr_ops;		/* operations called since init */
};

/* A blank screen of cols x rows (both >= 1) with a vt_init()ed vt. */
void fake_screen_init(struct fake_screen *fs, unsigned int cols, unsigned int rows);
void fake_screen_free(struct fake_screen *fs);

/* vt_write() the NUL-terminated string s. */
void fake_screen_puts(struct fake_screen *fs, const char *s);

struct fake_cell *fake_screen_cell(struct fake_screen *fs, unsigned int col,
				   unsigned int row);

/* The characters of row, trailing spaces dropped, NUL-terminated, in buf
 * (at least cols + 1 bytes); returns buf. */
char *fake_screen_row(struct fake_screen *fs, unsigned int row, char *buf);

#endif
