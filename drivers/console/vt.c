/*
 * vt: the terminal behaviour shared by the screen consoles, a small
 * VT102 / Linux console (console_codes(4)), so that what busybox's line
 * editing, clear, top, less and vi write shows on the screen as it does on
 * the user's terminal emulator at the other end of the serial line.
 *
 * The screen.  The cursor (row, col) is always a cell of the grid:
 * row < rows and col < cols.  Drawing a character in the last column
 * leaves the cursor there with need_wrap set, and the next printable
 * character first moves to the start of the next line (Linux's vc_need_wrap):
 * a line of exactly cols characters followed by "\r\n" takes one screen
 * line, not two.  Any cursor movement clears need_wrap; '\b' from that
 * state only clears it, so that the echo of an erase, "\b \b", blanks the
 * last cell of a full line (Linux would move to the column before).
 * Line feeds scroll the region rows [top, bottom) (DECSTBM; the whole
 * screen unless a program sets it), and top < bottom <= rows always.
 * '\n', VT and FF also return to column 0: the kernel writes bare
 * newlines (Linux's LF/NL mode, always on here).  '\t' moves to the next
 * multiple of 8, at most to the last column, without drawing.
 *
 * Colours.  rend holds what SGR set (ANSI colour numbers, bold, bright,
 * reverse); attr is the PC attribute byte characters are drawn with and
 * erase_attr the one erased and scrolled-in cells get: the current
 * colours, neither bright nor reversed (Linux's vc_video_erase_char).  Both
 * are recomputed whenever rend changes.
 *
 * The parser, one byte at a time (Linux's do_con_trol):
 *
 *   VT_NORMAL      printable bytes are drawn
 *   VT_ESC         after ESC: the next byte picks the function
 *   VT_ESC_INTER   after ESC and an intermediate byte (0x20-0x2f, as in
 *                  ESC ( B, ESC # 8, ESC % G): bytes are swallowed up to
 *                  the final one, and the sequence does nothing
 *   VT_CSI_ENTRY   after ESC [: a private marker '<' '=' '>' '?' may come
 *   VT_CSI_PARAM   decimal parameters separated by ';' up to a final byte
 *                  (0x40-0x7e), which runs the function
 *   VT_CSI_IGNORE  a malformed CSI sequence (a 17th parameter, ':', an
 *                  intermediate byte, a misplaced marker, a byte >= 0x80):
 *                  swallowed up to its final byte, nothing done
 *   VT_FUNCKEY     after ESC [ [ (an echoed function key): one more byte
 *                  is swallowed
 *   VT_OSC         after ESC ]: the string is swallowed up to BEL (or the
 *                  ESC of ST, or CAN, SUB)
 *
 * Control characters act at once in every state, even inside a sequence
 * (console_codes(4)): ESC starts a new sequence, dropping an unfinished
 * one, CAN and SUB drop it, DEL and the C0 codes without a function (NUL,
 * BEL, SO, SI...) do nothing.  So no byte of a sequence is ever drawn.
 * Invariants: npar < VT_NPAR and every par[i] <= VT_PAR_MAX (larger
 * numbers saturate).  Every count is clamped to the grid before it
 * reaches the console's operations.
 *
 * Nothing answers the queries (DSR ESC [ 6 n, DA ESC [ c, ESC Z): the
 * console tty's output also goes to the serial line, whose terminal
 * answers, and two answers would reach the reader (docs/tty.md section 7).
 *
 * There is no lock: every writer (printk, the console tty a chunk at a
 * time) calls with interrupts off, so one vt_write never runs inside
 * another.  A sequence a program splits between two writes can still get
 * another writer's bytes (a kernel message, an echo) inside it, and then
 * be misread, as on Linux.
 */
#include <drivers/vt.h>

#define TAB_WIDTH	8
#define VT_PAR_MAX	65535

#define BEL	0x07
#define CAN	0x18
#define SUB	0x1a
#define ESC	0x1b

#define DEFAULT_FG	7	/* white (light grey) */
#define DEFAULT_BG	0	/* black */
#define ATTR_BRIGHT	0x08

/* ANSI colour numbers (1 red, 4 blue) to PC ones (1 blue, 4 red). */
static const uint8_t ansi_to_pc[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };

static void vt_update_attr(struct vt *vt)
{
	const struct vt_rendition *r = &vt->rend;
	uint8_t fg = ansi_to_pc[r->fg], bg = ansi_to_pc[r->bg];

	vt->erase_attr = (uint8_t)(bg << 4 | fg);
	if (r->reverse) {
		uint8_t t = fg;

		fg = bg;
		bg = t;
	}
	if (r->bold || r->fg_bright)
		fg |= ATTR_BRIGHT;
	vt->attr = (uint8_t)(bg << 4 | fg);
}

static void vt_default_rendition(struct vt *vt)
{
	vt->rend = (struct vt_rendition){ .fg = DEFAULT_FG, .bg = DEFAULT_BG };
	vt_update_attr(vt);
}

/* --- cursor movement and scrolling ----------------------------------------- */

static unsigned int clamp_index(long v, unsigned int n)
{
	if (v < 0)
		return 0;
	return v >= (long)n ? n - 1 : (unsigned int)v;
}

/* Move the cursor to (col, row), clamped to the grid (Linux's gotoxy). */
static void vt_gotoxy(struct vt *vt, long col, long row)
{
	vt->col = clamp_index(col, vt->cols);
	vt->row = clamp_index(row, vt->rows);
	vt->need_wrap = false;
}

/* Rows [top, bottom) move up n (1 <= n): the top n go, blank rows come in
 * at the bottom.  The caller ensures top < bottom <= rows. */
static void vt_scroll_up(struct vt *vt, unsigned int top, unsigned int bottom,
			 unsigned int n)
{
	unsigned int height = bottom - top;

	n = MIN(n, height);
	if (n < height)
		vt->ops->bmove(vt, 0, top + n, 0, top, vt->cols, height - n);
	vt->ops->clear(vt, 0, bottom - n, vt->cols, n, vt->erase_attr);
}

/* Rows [top, bottom) move down n (1 <= n), blank rows come in at the top. */
static void vt_scroll_down(struct vt *vt, unsigned int top, unsigned int bottom,
			   unsigned int n)
{
	unsigned int height = bottom - top;

	n = MIN(n, height);
	if (n < height)
		vt->ops->bmove(vt, 0, top, 0, top + n, vt->cols, height - n);
	vt->ops->clear(vt, 0, top, vt->cols, n, vt->erase_attr);
}

/* Line feed: down one row, scrolling when leaving the region's last row. */
static void vt_lf(struct vt *vt)
{
	if (vt->row + 1 == vt->bottom)
		vt_scroll_up(vt, vt->top, vt->bottom, 1);
	else if (vt->row + 1 < vt->rows)
		vt->row++;
	vt->need_wrap = false;
}

/* Reverse line feed (ESC M): up one row, scrolling down at the region's top. */
static void vt_ri(struct vt *vt)
{
	if (vt->row == vt->top)
		vt_scroll_down(vt, vt->top, vt->bottom, 1);
	else if (vt->row > 0)
		vt->row--;
	vt->need_wrap = false;
}

static void vt_cr(struct vt *vt)
{
	vt->col = 0;
	vt->need_wrap = false;
}

static void vt_bs(struct vt *vt)
{
	if (vt->need_wrap)
		vt->need_wrap = false;
	else if (vt->col > 0)
		vt->col--;
}

static void vt_tab(struct vt *vt)
{
	vt->col = MIN(ALIGN_DOWN(vt->col, TAB_WIDTH) + TAB_WIDTH, vt->cols - 1);
}

/* --- erasing, inserting, deleting ------------------------------------------ */

/* Blank count cells of row from col (count may be 0). */
static void vt_erase_cells(struct vt *vt, unsigned int row, unsigned int col,
			   unsigned int count)
{
	if (count)
		vt->ops->clear(vt, col, row, count, 1, vt->erase_attr);
}

/* Blank count whole rows from row (count may be 0). */
static void vt_erase_rows(struct vt *vt, unsigned int row, unsigned int count)
{
	if (count)
		vt->ops->clear(vt, 0, row, vt->cols, count, vt->erase_attr);
}

/* A count parameter: 0 or absent means 1; at most max. */
static unsigned int vt_count(unsigned int par, unsigned int max)
{
	return MIN(par ? par : 1, max);
}

/* ICH: n blanks at the cursor push the rest of the line right. */
static void vt_insert_chars(struct vt *vt, unsigned int par)
{
	unsigned int room = vt->cols - vt->col;
	unsigned int n = vt_count(par, room);

	if (n < room)
		vt->ops->bmove(vt, vt->col, vt->row, vt->col + n, vt->row, room - n, 1);
	vt_erase_cells(vt, vt->row, vt->col, n);
	vt->need_wrap = false;
}

/* DCH: n characters at the cursor go, the rest of the line moves left. */
static void vt_delete_chars(struct vt *vt, unsigned int par)
{
	unsigned int room = vt->cols - vt->col;
	unsigned int n = vt_count(par, room);

	if (n < room)
		vt->ops->bmove(vt, vt->col + n, vt->row, vt->col, vt->row, room - n, 1);
	vt_erase_cells(vt, vt->row, vt->cols - n, n);
	vt->need_wrap = false;
}

/* ED: erase in display. */
static void vt_erase_display(struct vt *vt, unsigned int how)
{
	switch (how) {
	case 0:		/* the cursor to the end */
		vt_erase_cells(vt, vt->row, vt->col, vt->cols - vt->col);
		vt_erase_rows(vt, vt->row + 1, vt->rows - vt->row - 1);
		break;
	case 1:		/* the start to the cursor */
		vt_erase_rows(vt, 0, vt->row);
		vt_erase_cells(vt, vt->row, 0, vt->col + 1);
		break;
	case 2:		/* all of it */
	case 3:		/* and the scroll-back, which there is none of */
		vt_erase_rows(vt, 0, vt->rows);
		break;
	default:
		return;
	}
	vt->need_wrap = false;
}

/* EL: erase in line. */
static void vt_erase_line(struct vt *vt, unsigned int how)
{
	switch (how) {
	case 0:
		vt_erase_cells(vt, vt->row, vt->col, vt->cols - vt->col);
		break;
	case 1:
		vt_erase_cells(vt, vt->row, 0, vt->col + 1);
		break;
	case 2:
		vt_erase_cells(vt, vt->row, 0, vt->cols);
		break;
	default:
		return;
	}
	vt->need_wrap = false;
}

/* --- printing --------------------------------------------------------------- */

static void vt_put_glyph(struct vt *vt, unsigned char c)
{
	if (vt->need_wrap) {
		vt_cr(vt);
		vt_lf(vt);
	}
	if (vt->insert_mode)
		vt_insert_chars(vt, 1);
	vt->ops->putc(vt, vt->col, vt->row, c, vt->attr);
	if (vt->col + 1 < vt->cols)
		vt->col++;
	else
		vt->need_wrap = true;
}

/* --- state: save, restore, reset -------------------------------------------- */

static void vt_save(struct vt *vt)
{
	vt->saved.row = vt->row;
	vt->saved.col = vt->col;
	vt->saved.rend = vt->rend;
}

static void vt_restore(struct vt *vt)
{
	vt_gotoxy(vt, vt->saved.col, vt->saved.row);
	vt->rend = vt->saved.rend;
	vt_update_attr(vt);
}

/* Everything but the screen's contents as after power-on. */
static void vt_reset_state(struct vt *vt)
{
	vt->row = vt->col = 0;
	vt->need_wrap = false;
	vt->top = 0;
	vt->bottom = vt->rows;
	vt->cursor_visible = true;
	vt->insert_mode = false;
	vt_default_rendition(vt);
	vt_save(vt);
	vt->state = VT_NORMAL;
}

/* --- CSI functions ---------------------------------------------------------- */

/* SGR 38 / 48 at par[i]: "5;n" is colour n of 256, of which 0-15 are
 * used (8-15 bright; a background is never bright), "2;r;g;b" a 24-bit
 * colour, ignored.  Returns how many parameters after par[i] it takes. */
static unsigned int vt_sgr_extended(struct vt *vt, unsigned int i, bool fg)
{
	unsigned int left = vt->npar - i;
	unsigned int n;

	if (left == 0)
		return 0;
	switch (vt->par[i + 1]) {
	case 5:
		if (left < 2)
			return left;
		n = vt->par[i + 2];
		if (n < 16 && fg) {
			vt->rend.fg = n & 7;
			vt->rend.fg_bright = n >= 8;
		} else if (n < 16) {
			vt->rend.bg = n & 7;
		}
		return 2;
	case 2:
		return MIN(left, 4u);
	default:
		return 1;
	}
}

/* SGR: select graphic rendition, every parameter in turn. */
static void vt_sgr(struct vt *vt)
{
	struct vt_rendition *r = &vt->rend;
	unsigned int i, p;

	for (i = 0; i <= vt->npar; i++) {
		p = vt->par[i];
		switch (p) {
		case 0:
			*r = (struct vt_rendition){ .fg = DEFAULT_FG, .bg = DEFAULT_BG };
			break;
		case 1:
			r->bold = true;
			break;
		case 7:
			r->reverse = true;
			break;
		case 22:
			r->bold = false;
			break;
		case 27:
			r->reverse = false;
			break;
		case 30 ... 37:
			r->fg = p - 30;
			r->fg_bright = false;
			break;
		case 38:
		case 48:
			i += vt_sgr_extended(vt, i, p == 38);
			break;
		case 39:
			r->fg = DEFAULT_FG;
			r->fg_bright = false;
			break;
		case 40 ... 47:
			r->bg = p - 40;
			break;
		case 49:
			r->bg = DEFAULT_BG;
			break;
		case 90 ... 97:
			r->fg = p - 90;
			r->fg_bright = true;
			break;
		case 100 ... 107:	/* no bright backgrounds, as on Linux */
			r->bg = p - 100;
			break;
		default:	/* dim, italic, underline, blink, fonts...: ignored */
			break;
		}
	}
	vt_update_attr(vt);
}

/* SM / RM (h / l): insert mode (4) is the only ANSI mode kept. */
static void vt_set_modes(struct vt *vt, bool on)
{
	unsigned int i;

	for (i = 0; i <= vt->npar; i++)
		if (vt->par[i] == 4)
			vt->insert_mode = on;
}

/* DECSET / DECRST (? h / ? l): cursor visibility (25) is the only private
 * mode kept; the others (cursor keys, autowrap, alternate screen, mouse...)
 * are accepted and ignored. */
static void vt_set_dec_modes(struct vt *vt, bool on)
{
	unsigned int i;

	for (i = 0; i <= vt->npar; i++)
		if (vt->par[i] == 25)
			vt->cursor_visible = on;
}

/* DECSTBM: the scrolling region, rows par[0]..par[1] (1-based; default
 * the whole screen); a valid one also homes the cursor. */
static void vt_set_region(struct vt *vt)
{
	unsigned int top = vt->par[0] ? vt->par[0] : 1;
	unsigned int bottom = vt->par[1] ? vt->par[1] : vt->rows;

	if (top < bottom && bottom <= vt->rows) {
		vt->top = top - 1;
		vt->bottom = bottom;
		vt_gotoxy(vt, 0, 0);
	}
}

/* Run the CSI function of final byte c with the parameters collected. */
static void vt_do_csi(struct vt *vt, unsigned char c)
{
	unsigned int p0 = vt->par[0];
	long row = vt->row, col = vt->col;

	if (vt->priv) {
		if (vt->priv == '?' && (c == 'h' || c == 'l'))
			vt_set_dec_modes(vt, c == 'h');
		return;
	}
	switch (c) {
	case 'A':	/* CUU */
		vt_gotoxy(vt, col, row - vt_count(p0, VT_PAR_MAX));
		break;
	case 'B':	/* CUD */
	case 'e':	/* VPR */
		vt_gotoxy(vt, col, row + vt_count(p0, VT_PAR_MAX));
		break;
	case 'C':	/* CUF */
	case 'a':	/* HPR */
		vt_gotoxy(vt, col + vt_count(p0, VT_PAR_MAX), row);
		break;
	case 'D':	/* CUB */
		vt_gotoxy(vt, col - vt_count(p0, VT_PAR_MAX), row);
		break;
	case 'E':	/* CNL */
		vt_gotoxy(vt, 0, row + vt_count(p0, VT_PAR_MAX));
		break;
	case 'F':	/* CPL */
		vt_gotoxy(vt, 0, row - vt_count(p0, VT_PAR_MAX));
		break;
	case 'G':	/* CHA */
	case '`':	/* HPA */
		vt_gotoxy(vt, (long)p0 - 1, row);
		break;
	case 'd':	/* VPA */
		vt_gotoxy(vt, col, (long)p0 - 1);
		break;
	case 'H':	/* CUP */
	case 'f':	/* HVP */
		vt_gotoxy(vt, (long)vt->par[1] - 1, (long)p0 - 1);
		break;
	case 'J':
		vt_erase_display(vt, p0);
		break;
	case 'K':
		vt_erase_line(vt, p0);
		break;
	case 'X':	/* ECH */
		vt_erase_cells(vt, vt->row, vt->col, vt_count(p0, vt->cols - vt->col));
		vt->need_wrap = false;
		break;
	case '@':
		vt_insert_chars(vt, p0);
		break;
	case 'P':
		vt_delete_chars(vt, p0);
		break;
	case 'L':	/* IL: the region's rows from the cursor's move down */
		if (vt->row < vt->bottom)
			vt_scroll_down(vt, vt->row, vt->bottom, vt_count(p0, VT_PAR_MAX));
		vt->need_wrap = false;
		break;
	case 'M':	/* DL */
		if (vt->row < vt->bottom)
			vt_scroll_up(vt, vt->row, vt->bottom, vt_count(p0, VT_PAR_MAX));
		vt->need_wrap = false;
		break;
	case 'm':
		vt_sgr(vt);
		break;
	case 'h':
	case 'l':
		vt_set_modes(vt, c == 'h');
		break;
	case 'r':
		vt_set_region(vt);
		break;
	case 's':
		vt_save(vt);
		break;
	case 'u':
		vt_restore(vt);
		break;
	default:	/* n (DSR), c (DA), g (tab stops), q (LEDs)...: nothing */
		break;
	}
}

/* --- the parser ------------------------------------------------------------- */

static void vt_csi_param(struct vt *vt, unsigned char c)
{
	if (c >= '0' && c <= '9') {
		unsigned int *p = &vt->par[vt->npar];

		*p = MIN(*p * 10 + (c - '0'), (unsigned int)VT_PAR_MAX);
	} else if (c == ';') {
		if (vt->npar + 1 < VT_NPAR)
			vt->npar++;
		else
			vt->state = VT_CSI_IGNORE;
	} else if (c >= 0x40 && c <= 0x7e) {
		vt->state = VT_NORMAL;
		vt_do_csi(vt, c);
	} else {
		vt->state = VT_CSI_IGNORE;
	}
}

static void vt_csi_entry(struct vt *vt, unsigned char c)
{
	unsigned int i;

	vt->priv = 0;
	vt->npar = 0;
	for (i = 0; i < VT_NPAR; i++)
		vt->par[i] = 0;
	if (c == '[') {
		vt->state = VT_FUNCKEY;
		return;
	}
	vt->state = VT_CSI_PARAM;
	if (c >= '<' && c <= '?')
		vt->priv = (char)c;
	else
		vt_csi_param(vt, c);
}

/* The byte after ESC. */
static void vt_do_esc(struct vt *vt, unsigned char c)
{
	vt->state = VT_NORMAL;
	switch (c) {
	case '[':
		vt->state = VT_CSI_ENTRY;
		break;
	case ']':
		vt->state = VT_OSC;
		break;
	case 'c':	/* RIS */
		vt_reset_state(vt);
		vt_erase_rows(vt, 0, vt->rows);
		break;
	case 'D':	/* IND */
		vt_lf(vt);
		break;
	case 'E':	/* NEL */
		vt_cr(vt);
		vt_lf(vt);
		break;
	case 'M':	/* RI */
		vt_ri(vt);
		break;
	case '7':	/* DECSC */
		vt_save(vt);
		break;
	case '8':	/* DECRC */
		vt_restore(vt);
		break;
	default:	/* ESC H, ESC Z, ESC = ESC >, unknown: nothing */
		if (c >= 0x20 && c <= 0x2f)
			vt->state = VT_ESC_INTER;
		break;
	}
}

static void vt_control(struct vt *vt, unsigned char c)
{
	switch (c) {
	case BEL:
		if (vt->state == VT_OSC)
			vt->state = VT_NORMAL;
		break;
	case '\b':
		vt_bs(vt);
		break;
	case '\t':
		vt_tab(vt);
		break;
	case '\n':
	case '\v':
	case '\f':
		vt_cr(vt);
		vt_lf(vt);
		break;
	case '\r':
		vt_cr(vt);
		break;
	case CAN:
	case SUB:
		vt->state = VT_NORMAL;
		break;
	case ESC:
		vt->state = VT_ESC;
		break;
	default:	/* NUL, SO, SI, DEL...: nothing */
		break;
	}
}

static void vt_putc(struct vt *vt, unsigned char c)
{
	if (c < 0x20 || c == 0x7f) {
		vt_control(vt, c);
		return;
	}
	switch (vt->state) {
	case VT_NORMAL:
		vt_put_glyph(vt, c);
		break;
	case VT_ESC:
		vt_do_esc(vt, c);
		break;
	case VT_ESC_INTER:
		if (c > 0x2f)
			vt->state = VT_NORMAL;
		break;
	case VT_CSI_ENTRY:
		vt_csi_entry(vt, c);
		break;
	case VT_CSI_PARAM:
		vt_csi_param(vt, c);
		break;
	case VT_CSI_IGNORE:
		if (c >= 0x40 && c <= 0x7e)
			vt->state = VT_NORMAL;
		break;
	case VT_FUNCKEY:
		vt->state = VT_NORMAL;
		break;
	case VT_OSC:
		break;
	}
}

void vt_init(struct vt *vt, unsigned int cols, unsigned int rows,
	     const struct vt_ops *ops)
{
	*vt = (struct vt){ .cols = cols, .rows = rows, .ops = ops };
	vt_reset_state(vt);
}

void vt_write(struct vt *vt, const char *s, size_t len)
{
	while (len--)
		vt_putc(vt, (unsigned char)*s++);
}
