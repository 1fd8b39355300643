/*
 * The terminal every screen console shares (VGA text, fbcon): a grid of
 * cols x rows character cells, a cursor, and the part of the Linux
 * console's control characters and ECMA-48 / VT102 escape sequences
 * (console_codes(4)) that moves the cursor, erases, inserts, deletes and
 * colours cells.  drivers/console/vt.c interprets the bytes; the console
 * supplies three cell operations, after Linux 2.6's struct consw
 * (con_putc, con_clear, con_bmove).  docs/tty.md section 7 lists the
 * sequences.
 *
 * Cell attributes are PC text-mode attribute bytes, the format VGA text
 * memory stores: bits 0-3 the foreground colour (bit 3 bright), bits 4-6
 * the background colour, in the PC's colour order (1 blue, 2 green, 4 red).
 * The vt never sets bit 7 (blink or bright background).
 */
#ifndef DRIVERS_VT_H
#define DRIVERS_VT_H

#include <pageturn/types.h>

#define VT_NPAR			16	/* numeric parameters of a CSI sequence */
#define VT_ATTR_DEFAULT		0x07	/* light grey on black */

struct vt;

/*
 * How a console draws.  Every call stays inside the grid: col + width <=
 * cols and row + height <= rows, width and height at least 1.  Called
 * from vt_write() with the caller's context (interrupts off under printk).
 */
struct vt_ops {
	/* Draw character c with attribute attr in cell (col, row). */
	void (*putc)(struct vt *vt, unsigned int col, unsigned int row,
		     unsigned char c, uint8_t attr);
	/* Blank the width x height cells from (col, row): spaces with attr. */
	void (*clear)(struct vt *vt, unsigned int col, unsigned int row,
		      unsigned int width, unsigned int height, uint8_t attr);
	/* Copy the width x height cells at (scol, srow) to (dcol, drow),
	 * as if through a buffer (the two rectangles may overlap). */
	void (*bmove)(struct vt *vt, unsigned int scol, unsigned int srow,
		      unsigned int dcol, unsigned int drow,
		      unsigned int width, unsigned int height);
};

/* Where the parser is inside an escape sequence (vt.c explains each). */
enum vt_parse_state {
	VT_NORMAL,
	VT_ESC,
	VT_ESC_INTER,
	VT_CSI_ENTRY,
	VT_CSI_PARAM,
	VT_CSI_IGNORE,
	VT_FUNCKEY,
	VT_OSC,
};

/* The graphic rendition SGR sets: ANSI colour numbers 0-7 (1 red, 4 blue). */
struct vt_rendition {
	uint8_t fg, bg;
	bool bold;		/* SGR 1: bright foreground */
	bool fg_bright;		/* SGR 90-97 */
	bool reverse;		/* SGR 7 */
};

struct vt {
	unsigned int cols, rows;
	unsigned int row, col;		/* the cursor: row < rows, col < cols */
	bool need_wrap;			/* a character was drawn in the last column */
	unsigned int top, bottom;	/* scrolling region: rows [top, bottom) */
	bool cursor_visible;		/* DECTCEM; the console shows the cursor */
	bool insert_mode;		/* IRM: characters push the line right */
	struct vt_rendition rend;
	uint8_t attr;			/* rend as an attribute byte, for drawing */
	uint8_t erase_attr;		/* what erased and scrolled-in cells get */
	struct {			/* ESC 7 / CSI s */
		unsigned int row, col;
		struct vt_rendition rend;
	} saved;

	enum vt_parse_state state;
	char priv;			/* CSI private marker: '?', '>', '=', '<' or 0 */
	unsigned int npar;		/* index of the parameter being read */
	unsigned int par[VT_NPAR];

	const struct vt_ops *ops;
};

/*
 * Set up vt for a grid of cols x rows cells (both at least 1) drawn by
 * ops: cursor at the top left, default colours, no sequence pending.
 * Draws nothing; the console's screen must already be blank.
 */
void vt_init(struct vt *vt, unsigned int cols, unsigned int rows,
	     const struct vt_ops *ops);

/*
 * Interpret len bytes: printable bytes (0x20-0x7e and 0x80-0xff) are
 * drawn at the cursor, control characters and escape sequences act, a
 * sequence may be split across calls.  Never fails: what it does not
 * understand is dropped.  No lock; the caller serialises (printk writes
 * with interrupts off).
 */
void vt_write(struct vt *vt, const char *s, size_t len);

#endif
