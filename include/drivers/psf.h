/*
 * PC Screen Font (PSF1 and PSF2), the format of Linux console fonts
 * (/usr/share/consolefonts).  psf_load() is pure and unit-tested on the
 * host against Debian's font files and corrupted copies of them.
 */
#ifndef DRIVERS_PSF_H
#define DRIVERS_PSF_H

#include <pageturn/types.h>

struct psf_font {
	const uint8_t *glyphs;		/* nr_glyphs * bytes_per_glyph */
	uint32_t nr_glyphs;
	uint32_t bytes_per_glyph;
	uint32_t width, height;		/* pixels */
	uint32_t bytes_per_row;		/* (width + 7) / 8 */
	uint16_t latin1_map[256];	/* code point -> glyph index */
};

/*
 * Parse a PSF1 or PSF2 font of len bytes.  When the font has a Unicode
 * table, latin1_map maps U+0000..U+00FF to glyphs (unmapped code points get
 * the glyph of '?', or 0); without one, code point i is glyph i.
 * Returns 0, or -EINVAL for a truncated or malformed font.
 */
int psf_load(const void *data, size_t len, struct psf_font *font);

/* The glyph bitmap for a Latin-1 character. */
const uint8_t *psf_glyph(const struct psf_font *font, unsigned char c);

#endif
