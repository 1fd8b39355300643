/*
 * fbcon: a text console drawn on the linear framebuffer that UEFI boots
 * get from GRUB, using the PSF font linked into the kernel.
 *
 * Layout: the screen is a grid of cols x rows character cells of
 * font.width x font.height pixels, starting at pixel (0,0); cell (col,row)
 * covers x = col * font.width, y = row * font.height onwards.  Pixels right
 * of and below the grid stay black.  A cell's colours come from its PC
 * attribute byte (include/drivers/vt.h) through the 16 colours of the VGA
 * text palette; text is light grey on black unless a program asks for
 * colours.
 *
 * The cursor is an underline, as Linux's console draws it by default:
 * the bottom CURSOR_LINES pixel lines of the cursor's cell, inverted
 * (XOR with the grey-on-black difference, so drawing it twice removes
 * it).  It is taken off before each write and put back after it where
 * the vt left the cursor, unless a program hid it (DECTCEM, ESC [ ? 25 l):
 * nothing draws on the screen between, so whatever the write drew or
 * scrolled never mixes with an inverted line.
 *
 * Pixels are 32, 24 or 16 bits, little-endian, with red, green and blue
 * at the bit positions and sizes the bootloader reports (mb2_parse() has
 * checked that each field lies inside the pixel).
 *
 * State: the framebuffer mapping and geometry, the font, the palette's
 * 16 pixel values, where the cursor is drawn; the grid, the cursor and
 * the colours are a struct vt (drivers/console/vt.c interprets the text).
 */
#include <asm/cpu.h>
#include <drivers/console.h>
#include <drivers/psf.h>
#include <drivers/vt.h>
#include <mm/early_ioremap.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define NR_COLOURS	16
/* Pixel lines of the underline cursor (Linux's: 1 for fonts under 10
 * lines, else 2). */
#define CURSOR_LINES(font_height)	((font_height) < 10 ? 1u : 2u)

/* The VGA text palette, indexed by PC colour number (1 blue, 4 red, 8-15
 * bright): red, green, blue. */
static const uint8_t vga_palette[NR_COLOURS][3] = {
	{ 0x00, 0x00, 0x00 }, { 0x00, 0x00, 0xaa }, { 0x00, 0xaa, 0x00 }, { 0x00, 0xaa, 0xaa },
	{ 0xaa, 0x00, 0x00 }, { 0xaa, 0x00, 0xaa }, { 0xaa, 0x55, 0x00 }, { 0xaa, 0xaa, 0xaa },
	{ 0x55, 0x55, 0x55 }, { 0x55, 0x55, 0xff }, { 0x55, 0xff, 0x55 }, { 0x55, 0xff, 0xff },
	{ 0xff, 0x55, 0x55 }, { 0xff, 0x55, 0xff }, { 0xff, 0xff, 0x55 }, { 0xff, 0xff, 0xff },
};

static struct {
	uint8_t *base;		/* pixel (0,0) */
	uint32_t pitch;		/* bytes from one pixel line to the next */
	uint32_t width, height;	/* pixels */
	unsigned int bytes_pp;	/* bytes per pixel: 2, 3 or 4 */
	uint32_t palette[NR_COLOURS];	/* pixel values */
	bool cursor_drawn;		/* the underline is on the screen, at: */
	unsigned int cursor_col, cursor_row;
} fb;

static struct psf_font font;
static struct vt vt;

/* Scale an 8-bit colour component to size bits and shift it to pos.
 * The caller ensures pos + size <= 32. */
static uint32_t fb_component(uint8_t v, uint8_t pos, uint8_t size)
{
	uint32_t c;

	if (size == 0)
		return 0;
	c = size >= 8 ? (uint32_t)v << (size - 8) : (uint32_t)v >> (8 - size);
	return c << pos;
}

/* The pixel value of colour (r, g, b) in the framebuffer's format. */
static uint32_t fb_rgb(const struct boot_framebuffer *f, uint8_t r,
		       uint8_t g, uint8_t b)
{
	return fb_component(r, f->red_pos, f->red_size) |
	       fb_component(g, f->green_pos, f->green_size) |
	       fb_component(b, f->blue_pos, f->blue_size);
}

static uint8_t *fb_pixel(unsigned int x, unsigned int y)
{
	return fb.base + (size_t)y * fb.pitch + (size_t)x * fb.bytes_pp;
}

/* Store pixel value px as pixel x of the line at dst. */
static void fb_store(uint8_t *dst, unsigned int x, uint32_t px)
{
	switch (fb.bytes_pp) {
	case 4:
		((uint32_t *)dst)[x] = px;
		break;
	case 3:
		dst[3 * x] = px & 0xff;
		dst[3 * x + 1] = (px >> 8) & 0xff;
		dst[3 * x + 2] = (px >> 16) & 0xff;
		break;
	case 2:
		((uint16_t *)dst)[x] = (uint16_t)px;
		break;
	}
}

/* Set n pixels starting at dst to pixel value px. */
static void fb_fill(uint8_t *dst, unsigned int n, uint32_t px)
{
	unsigned int x;

	for (x = 0; x < n; x++)
		fb_store(dst, x, px);
}

/* Pixel lines [y0, y1), from x for n pixels, become pixel value px. */
static void fb_fill_lines(unsigned int x, unsigned int y0, unsigned int y1,
			  unsigned int n, uint32_t px)
{
	unsigned int y;

	for (y = y0; y < y1; y++)
		fb_fill(fb_pixel(x, y), n, px);
}

static uint32_t attr_fg(uint8_t attr)
{
	return fb.palette[attr & 0x0f];
}

static uint32_t attr_bg(uint8_t attr)
{
	return fb.palette[(attr >> 4) & 0x07];
}

static bool glyph_bit(const uint8_t *bits, unsigned int x)
{
	return bits[x / 8] & (0x80 >> (x % 8));
}

/* Draw one pixel row of a glyph (bits, leftmost pixel in the top bit) at
 * dst: every pixel of the cell's row is written, pixel value fg or bg.
 * The common 32-bpp case stores words directly. */
static void fbcon_draw_glyph_row(uint8_t *dst, const uint8_t *bits,
				 uint32_t fg, uint32_t bg)
{
	unsigned int x, n = font.width;

	if (fb.bytes_pp == 4) {
		for (x = 0; x < n; x++)
			((uint32_t *)dst)[x] = glyph_bit(bits, x) ? fg : bg;
		return;
	}
	for (x = 0; x < n; x++)
		fb_store(dst, x, glyph_bit(bits, x) ? fg : bg);
}

/* Draw character c in cell (col, row) with attribute attr, replacing
 * what was there. */
static void fbcon_putc(struct vt *v, unsigned int col, unsigned int row,
		       unsigned char c, uint8_t attr)
{
	const uint8_t *bits = psf_glyph(&font, c);
	uint8_t *line = fb_pixel(col * font.width, row * font.height);
	uint32_t fg = attr_fg(attr), bg = attr_bg(attr);
	unsigned int y;

	(void)v;
	for (y = 0; y < font.height; y++) {
		fbcon_draw_glyph_row(line, bits, fg, bg);
		bits += font.bytes_per_row;
		line += fb.pitch;
	}
}

static void fbcon_clear(struct vt *v, unsigned int col, unsigned int row,
			unsigned int width, unsigned int height, uint8_t attr)
{
	(void)v;
	fb_fill_lines(col * font.width, row * font.height, (row + height) * font.height,
		      width * font.width, attr_bg(attr));
}

/* Copy a block of cells pixel line by pixel line (the pitch may be wider
 * than the visible line), bottom-up when moving down so that no source
 * line is overwritten before it is read; memmove handles a move along a
 * line. */
static void fbcon_bmove(struct vt *v, unsigned int scol, unsigned int srow,
			unsigned int dcol, unsigned int drow,
			unsigned int width, unsigned int height)
{
	unsigned int sx = scol * font.width, sy = srow * font.height;
	unsigned int dx = dcol * font.width, dy = drow * font.height;
	unsigned int lines = height * font.height, y;
	size_t bytes = (size_t)width * font.width * fb.bytes_pp;

	(void)v;
	if (dy <= sy) {
		for (y = 0; y < lines; y++)
			memmove(fb_pixel(dx, dy + y), fb_pixel(sx, sy + y), bytes);
	} else {
		for (y = lines; y-- > 0;)
			memmove(fb_pixel(dx, dy + y), fb_pixel(sx, sy + y), bytes);
	}
}

/* Invert the underline of cell (col, row): draws the cursor, or takes it
 * away again. */
static void fbcon_invert_cursor(unsigned int col, unsigned int row)
{
	uint32_t mask = fb.palette[7] ^ fb.palette[0];
	unsigned int lines = CURSOR_LINES(font.height);
	unsigned int y = (row + 1) * font.height - lines, x, i;

	for (; lines; lines--, y++) {
		uint8_t *dst = fb_pixel(col * font.width, y);

		for (x = 0; x < font.width; x++) {
			switch (fb.bytes_pp) {
			case 4:
				((uint32_t *)dst)[x] ^= mask;
				break;
			case 3:
				for (i = 0; i < 3; i++)
					dst[3 * x + i] ^= (mask >> (8 * i)) & 0xff;
				break;
			case 2:
				((uint16_t *)dst)[x] ^= (uint16_t)mask;
				break;
			}
		}
	}
}

static const struct vt_ops fbcon_vt_ops = {
	.putc = fbcon_putc,
	.clear = fbcon_clear,
	.bmove = fbcon_bmove,
};

/* Write through the vt, with the cursor off the screen meanwhile;
 * interrupts off, so a printk from an interrupt handler cannot draw in
 * the middle (the TTY writes with them on). */
static void fbcon_write(struct console *con, const char *s, size_t len)
{
	uint64_t flags = local_irq_save();

	(void)con;
	if (fb.cursor_drawn)
		fbcon_invert_cursor(fb.cursor_col, fb.cursor_row);
	vt_write(&vt, s, len);
	fb.cursor_drawn = vt.cursor_visible;
	if (fb.cursor_drawn) {
		fb.cursor_col = vt.col;
		fb.cursor_row = vt.row;
		fbcon_invert_cursor(fb.cursor_col, fb.cursor_row);
	}
	local_irq_restore(flags);
}

static struct console fbcon_console = {
	.name = "fbcon",
	.write = fbcon_write,
};

/*
 * Take over an RGB framebuffer: load the console font, map the
 * framebuffer, clear it and register the console.  Returns 0, -ENODEV
 * without an RGB framebuffer of 16, 24 or 32 bits per pixel, or -EINVAL
 * when the font, the geometry or the mapping is unusable.
 */
int fbcon_init(const struct boot_info *bi)
{
	const struct boot_framebuffer *f = &bi->fb;
	unsigned int cols, rows;
	size_t size;
	unsigned int i;
	int err;

	if (!bi->has_framebuffer || f->type != MB2_FB_RGB)
		return -ENODEV;
	if (f->bpp != 32 && f->bpp != 24 && f->bpp != 16)
		return -ENODEV;

	err = psf_load(console_font, (size_t)(console_font_end - console_font),
		       &font);
	if (err)
		return -EINVAL;

	fb.bytes_pp = f->bpp / 8;
	if (f->width == 0 || f->height == 0 ||
	    f->pitch / fb.bytes_pp < f->width)
		return -EINVAL;
	cols = f->width / font.width;
	rows = f->height / font.height;
	if (cols == 0 || rows == 0)
		return -EINVAL;

	size = (size_t)f->pitch * f->height;
	fb.base = early_memremap(f->addr, size);
	if (!fb.base)
		return -EINVAL;
	fb.pitch = f->pitch;
	fb.width = f->width;
	fb.height = f->height;
	for (i = 0; i < NR_COLOURS; i++)
		fb.palette[i] = fb_rgb(f, vga_palette[i][0], vga_palette[i][1],
				       vga_palette[i][2]);

	fb_fill_lines(0, 0, fb.height, fb.width, fb.palette[0]);
	vt_init(&vt, cols, rows, &fbcon_vt_ops);
	register_console(&fbcon_console);
	return 0;
}
