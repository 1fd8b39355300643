/*
 * The cursor logic every screen console shares (VGA text, fbcon): a grid
 * of cols x rows character cells and a cursor that control characters
 * move.  The console supplies how to draw one cell and how to scroll.
 */
#ifndef DRIVERS_VT_H
#define DRIVERS_VT_H

#include <pageturn/types.h>

struct vt {
	unsigned int cols, rows;
	unsigned int row, col;	/* the cursor */
	/* Draw character c in cell (col, row). */
	void (*draw)(unsigned int col, unsigned int row, unsigned char c);
	/* Move every row up one, dropping the top one; blank the last row. */
	void (*scroll)(void);
};

/* Interpret len bytes: printable characters are drawn at the cursor,
 * '\n' '\r' '\t' '\b' move it, other control characters are ignored. */
void vt_write(struct vt *vt, const char *s, size_t len);

#endif
