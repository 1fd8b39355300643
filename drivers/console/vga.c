/*
 * The VGA text console: the screen a BIOS boot leaves behind, 80x25
 * character cells at physical 0xb8000.  Each cell is 16 bits, the
 * character in the low byte and its colour attribute in the high byte,
 * which is exactly the attribute byte the vt hands over.
 *
 * State: the cell array and its row stride; the grid, the cursor and the
 * colours are a struct vt (drivers/console/vt.c interprets the text).
 * After every write the hardware cursor is moved to the vt's cursor, and
 * shown or hidden as the vt says (cursor_shown mirrors the CRTC's state).
 */
#include <asm/io.h>
#include <asm/page.h>
#include <drivers/console.h>
#include <drivers/vt.h>
#include <mm/early_ioremap.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

#define VGA_TEXT_PHYS		0xb8000
#define VGA_TEXT_WINDOW		0x8000	/* 0xb8000..0xbffff */
#define VGA_TEXT_COLS		80
#define VGA_TEXT_ROWS		25

/*
 * The CRT controller: write a register's number to the index port, then
 * read or write its value at the data port.
 */
#define CRTC_INDEX		0x3d4
#define CRTC_DATA		0x3d5
#define CRTC_MAX_SCAN_LINE	0x09	/* bits 0-4: character height - 1 */
#define CRTC_CURSOR_START	0x0a	/* bits 0-4: first scan line; bit 5: off */
#define CRTC_CURSOR_END		0x0b	/* bits 0-4: last scan line */
#define CRTC_CURSOR_LOC_HIGH	0x0e	/* cursor position, in cells */
#define CRTC_CURSOR_LOC_LOW	0x0f
#define CRTC_SCAN_LINE_MASK	0x1f
#define CRTC_CURSOR_DISABLE	0x20

static volatile uint16_t *cells;
static unsigned int stride;		/* cells from one row to the next */
static struct vt vt;
static bool cursor_shown;

static uint8_t crtc_read(uint8_t reg)
{
	outb(CRTC_INDEX, reg);
	return inb(CRTC_DATA);
}

static void crtc_write(uint8_t reg, uint8_t val)
{
	outb(CRTC_INDEX, reg);
	outb(CRTC_DATA, val);
}

/* Show the hardware cursor as an underline on the last two scan lines of
 * the character cell (GRUB may have turned it off). */
static void vga_enable_cursor(void)
{
	uint8_t last = crtc_read(CRTC_MAX_SCAN_LINE) & CRTC_SCAN_LINE_MASK;
	uint8_t first = last ? last - 1 : 0;
	uint8_t start = crtc_read(CRTC_CURSOR_START);
	uint8_t end = crtc_read(CRTC_CURSOR_END);

	start &= ~(CRTC_SCAN_LINE_MASK | CRTC_CURSOR_DISABLE);
	end &= ~CRTC_SCAN_LINE_MASK;
	crtc_write(CRTC_CURSOR_START, start | first);
	crtc_write(CRTC_CURSOR_END, end | last);
}

static void vga_disable_cursor(void)
{
	crtc_write(CRTC_CURSOR_START, crtc_read(CRTC_CURSOR_START) | CRTC_CURSOR_DISABLE);
}

/* Move the hardware cursor to the software one, and show or hide it. */
static void vga_update_cursor(void)
{
	unsigned int pos = vt.row * stride + vt.col;

	crtc_write(CRTC_CURSOR_LOC_HIGH, (pos >> 8) & 0xff);
	crtc_write(CRTC_CURSOR_LOC_LOW, pos & 0xff);
	if (vt.cursor_visible != cursor_shown) {
		if (vt.cursor_visible)
			vga_enable_cursor();
		else
			vga_disable_cursor();
		cursor_shown = vt.cursor_visible;
	}
}

static uint16_t vga_cell(unsigned char c, uint8_t attr)
{
	return (uint16_t)(attr << 8 | c);
}

static void vga_putc(struct vt *v, unsigned int col, unsigned int row,
		     unsigned char c, uint8_t attr)
{
	(void)v;
	cells[row * stride + col] = vga_cell(c, attr);
}

static void vga_clear(struct vt *v, unsigned int col, unsigned int row,
		      unsigned int width, unsigned int height, uint8_t attr)
{
	unsigned int y, x;

	(void)v;
	for (y = row; y < row + height; y++)
		for (x = col; x < col + width; x++)
			cells[y * stride + x] = vga_cell(' ', attr);
}

/* Copy cell by cell, in the order that reads each source cell before it
 * is overwritten: backwards when the destination lies after the source. */
static void vga_bmove(struct vt *v, unsigned int scol, unsigned int srow,
		      unsigned int dcol, unsigned int drow,
		      unsigned int width, unsigned int height)
{
	size_t src = (size_t)srow * stride + scol, dst = (size_t)drow * stride + dcol;
	unsigned int y, x;

	(void)v;
	if (dst <= src) {
		for (y = 0; y < height; y++)
			for (x = 0; x < width; x++)
				cells[dst + y * stride + x] = cells[src + y * stride + x];
	} else {
		for (y = height; y-- > 0;)
			for (x = width; x-- > 0;)
				cells[dst + y * stride + x] = cells[src + y * stride + x];
	}
}

static const struct vt_ops vga_vt_ops = {
	.putc = vga_putc,
	.clear = vga_clear,
	.bmove = vga_bmove,
};

static void vga_console_write(struct console *con, const char *s, size_t len)
{
	(void)con;
	vt_write(&vt, s, len);
	vga_update_cursor();
}

static struct console vga_console = {
	.name = "vga",
	.write = vga_console_write,
};

/*
 * Take over the text screen if the boot left one: an EGA-text framebuffer
 * tag, or no framebuffer tag at all on a BIOS boot (the BIOS default mode).
 * Clears the screen and registers the console.  Returns 0, -ENODEV when
 * there is no text screen, or -EINVAL for a geometry that makes no sense.
 */
int vga_console_init(const struct boot_info *bi)
{
	phys_addr_t addr;
	uint32_t pitch, cols, rows;
	uint64_t size;

	if (bi->has_framebuffer) {
		if (bi->fb.type != MB2_FB_EGA_TEXT)
			return -ENODEV;
		addr = bi->fb.addr;
		cols = bi->fb.width;
		rows = bi->fb.height;
		pitch = bi->fb.pitch;
	} else if (!bi->efi) {
		addr = VGA_TEXT_PHYS;
		cols = VGA_TEXT_COLS;
		rows = VGA_TEXT_ROWS;
		pitch = VGA_TEXT_COLS * sizeof(uint16_t);
	} else {
		return -ENODEV;
	}

	size = (uint64_t)pitch * rows;
	if (cols == 0 || rows == 0 || pitch % sizeof(uint16_t) ||
	    pitch / sizeof(uint16_t) < cols || size > VGA_TEXT_WINDOW)
		return -EINVAL;
	cells = early_memremap(addr, size);
	if (!cells)
		return -EINVAL;

	stride = pitch / sizeof(uint16_t);
	vt_init(&vt, cols, rows, &vga_vt_ops);
	vga_clear(&vt, 0, 0, cols, rows, VT_ATTR_DEFAULT);
	vga_enable_cursor();
	cursor_shown = true;
	vga_update_cursor();
	register_console(&vga_console);
	return 0;
}
