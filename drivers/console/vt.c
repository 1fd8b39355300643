/*
 * vt: the terminal behaviour shared by the screen consoles.
 *
 * State: the cursor (row, col).  Invariants: row < rows and col <= cols.
 * col == cols means the line is full: the next printable character wraps
 * to a new line first (as Linux's console does), so a line of exactly
 * cols characters followed by '\n' takes one screen line, not two.
 * '\n' also returns to column 0 (the kernel writes bare newlines), '\t'
 * moves to the next multiple of 8 without drawing, '\b' moves left
 * without erasing.
 *
 * There is no lock: printk serialises console writes (interrupts off).
 */
#include <drivers/vt.h>

#define TAB_WIDTH 8

static void vt_newline(struct vt *vt)
{
	vt->col = 0;
	if (vt->row + 1 < vt->rows)
		vt->row++;
	else
		vt->scroll();
}

static void vt_putc(struct vt *vt, unsigned char c)
{
	switch (c) {
	case '\n':
		vt_newline(vt);
		break;
	case '\r':
		vt->col = 0;
		break;
	case '\t':
		if (vt->col >= vt->cols)
			vt_newline(vt);
		vt->col = MIN(ALIGN_UP(vt->col + 1, TAB_WIDTH), vt->cols);
		break;
	case '\b':
		if (vt->col > 0)
			vt->col--;
		break;
	default:
		if (c < ' ' || c == 0x7f)
			break;
		if (vt->col >= vt->cols)
			vt_newline(vt);
		vt->draw(vt->col, vt->row, c);
		vt->col++;
		break;
	}
}

void vt_write(struct vt *vt, const char *s, size_t len)
{
	while (len--)
		vt_putc(vt, (unsigned char)*s++);
}
