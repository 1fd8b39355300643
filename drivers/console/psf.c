/*
 * PC Screen Font: the format of the Linux console fonts in
 * /usr/share/consolefonts.
 *
 * A font file is a header, a table of glyph bitmaps, and optionally a
 * Unicode table saying which characters each glyph draws.
 *
 * A glyph is a bitmap of height rows, top row first.  Each row is
 * (width + 7) / 8 bytes, most significant bit leftmost, a set bit an "on"
 * pixel, padding bits on the right.  Glyph i starts i * charsize bytes
 * into the glyph table.
 *
 * PSF1 (from the kbd package) has a 4-byte header:
 *
 *	magic 0x36 0x04, mode, charsize
 *
 * Glyphs are 8 pixels wide and charsize rows high.  Mode bit 0x01 means
 * 512 glyphs instead of 256; bit 0x02 (or 0x04, "has sequences") means a
 * Unicode table follows the glyphs.  The table lists, for each glyph in
 * turn, the UCS-2 code points it draws as little-endian 16-bit values,
 * ended by 0xFFFF.  A 0xFFFE inside a list starts sequences (a base
 * character plus combining marks) that run up to the 0xFFFF.
 *
 * PSF2 has a 32-byte header of little-endian 32-bit fields:
 *
 *	magic 0x72 0xb5 0x4a 0x86, version (0), headersize, flags,
 *	length (number of glyphs), charsize (bytes per glyph), height, width
 *
 * The glyphs start at headersize.  Flag bit 0 means a Unicode table
 * follows them, written in UTF-8: for each glyph its characters, then
 * optionally 0xFE and sequences, then 0xFF to end the entry.  0xFE and
 * 0xFF never occur in UTF-8, which is why they were picked.
 *
 * The kernel only needs Latin-1 (U+0000..U+00FF), so psf_load() keeps a
 * 256-entry map and ignores every other code point and all sequences.
 * When two glyphs claim the same character, the first one wins.
 *
 * Nothing in the file is trusted: every read is checked against len
 * first, sizes are bounded so that no product overflows, and the Unicode
 * table must hold a complete, well-formed entry for every glyph.  After
 * psf_load() returns 0, the whole glyph table lies inside the buffer and
 * every latin1_map entry is below nr_glyphs, so psf_glyph() needs no
 * checks.  The font points into the caller's buffer, which must outlive it.
 */
#include <drivers/psf.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define PSF1_MAGIC0		0x36
#define PSF1_MAGIC1		0x04
#define PSF1_HEADER_SIZE	4
#define PSF1_MODE512		0x01
#define PSF1_MODEHASTAB		0x02
#define PSF1_MODEHASSEQ		0x04
#define PSF1_MODE_KNOWN		(PSF1_MODE512 | PSF1_MODEHASTAB | PSF1_MODEHASSEQ)
#define PSF1_WIDTH		8
#define PSF1_SEPARATOR		0xFFFF
#define PSF1_STARTSEQ		0xFFFE

#define PSF2_MAGIC		0x864ab572u	/* 72 b5 4a 86, read little-endian */
#define PSF2_HEADER_SIZE	32
#define PSF2_VERSION		0
#define PSF2_HAS_UNICODE_TABLE	0x01
#define PSF2_SEPARATOR		0xFF
#define PSF2_STARTSEQ		0xFE

/* Bounds well beyond any real console font.  Glyph indices must fit the
 * uint16_t entries of latin1_map. */
#define PSF_MAX_WIDTH		64
#define PSF_MAX_HEIGHT		128
#define PSF_MAX_GLYPHS		65536

#define LATIN1_CHARS		256

enum psf_table {
	TABLE_NONE,
	TABLE_UCS2,		/* PSF1 */
	TABLE_UTF8,		/* PSF2 */
};

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Parse a PSF1 header (magic already matched) into f's geometry, and say
 * where the glyphs start and which Unicode table follows them.
 */
static int psf1_header(const uint8_t *p, size_t len, struct psf_font *f,
		       size_t *glyphs_off, enum psf_table *table)
{
	uint8_t mode, charsize;

	if (len < PSF1_HEADER_SIZE)
		return -EINVAL;
	mode = p[2];
	charsize = p[3];
	if ((mode & ~PSF1_MODE_KNOWN) || charsize == 0 ||
	    charsize > PSF_MAX_HEIGHT)
		return -EINVAL;

	f->nr_glyphs = (mode & PSF1_MODE512) ? 512 : 256;
	f->width = PSF1_WIDTH;
	f->height = charsize;
	f->bytes_per_row = 1;
	f->bytes_per_glyph = charsize;
	*glyphs_off = PSF1_HEADER_SIZE;
	*table = (mode & (PSF1_MODEHASTAB | PSF1_MODEHASSEQ)) ?
		 TABLE_UCS2 : TABLE_NONE;
	return 0;
}

/* The same for a PSF2 header. */
static int psf2_header(const uint8_t *p, size_t len, struct psf_font *f,
		       size_t *glyphs_off, enum psf_table *table)
{
	uint32_t version, headersize, flags, length, charsize, height, width;

	if (len < PSF2_HEADER_SIZE)
		return -EINVAL;
	version = get_le32(p + 4);
	headersize = get_le32(p + 8);
	flags = get_le32(p + 12);
	length = get_le32(p + 16);
	charsize = get_le32(p + 20);
	height = get_le32(p + 24);
	width = get_le32(p + 28);

	if (version != PSF2_VERSION || headersize < PSF2_HEADER_SIZE)
		return -EINVAL;
	if (length == 0 || length > PSF_MAX_GLYPHS)
		return -EINVAL;
	if (width == 0 || width > PSF_MAX_WIDTH ||
	    height == 0 || height > PSF_MAX_HEIGHT)
		return -EINVAL;
	if (charsize != height * ((width + 7) / 8))
		return -EINVAL;

	f->nr_glyphs = length;
	f->width = width;
	f->height = height;
	f->bytes_per_row = (width + 7) / 8;
	f->bytes_per_glyph = charsize;
	*glyphs_off = headersize;
	*table = (flags & PSF2_HAS_UNICODE_TABLE) ? TABLE_UTF8 : TABLE_NONE;
	return 0;
}

/* Glyph draws code point cp: remember it if cp is Latin-1 and unclaimed. */
static void map_char(struct psf_font *f, bool *mapped, uint32_t cp,
		     uint32_t glyph)
{
	if (cp >= LATIN1_CHARS || mapped[cp])
		return;
	f->latin1_map[cp] = (uint16_t)glyph;
	mapped[cp] = true;
}

/* Read f's PSF1 Unicode table t of len bytes into its map.  Returns 0, or
 * -EINVAL when the table ends before every glyph's list is complete. */
static int psf1_read_table(const uint8_t *t, size_t len, struct psf_font *f,
			   bool *mapped)
{
	uint32_t glyph = 0;
	bool in_seq = false;
	size_t pos = 0;
	uint16_t u;

	while (glyph < f->nr_glyphs) {
		if (len - pos < 2)
			return -EINVAL;
		u = get_le16(t + pos);
		pos += 2;
		if (u == PSF1_SEPARATOR) {
			glyph++;
			in_seq = false;
		} else if (u == PSF1_STARTSEQ) {
			in_seq = true;
		} else if (!in_seq) {
			map_char(f, mapped, u, glyph);
		}
	}
	return 0;
}

/*
 * Decode the UTF-8 character at s (avail bytes readable) into *cp.
 * Returns its length in bytes, or -EINVAL for a malformed, truncated,
 * overlong or out-of-range encoding, or a UTF-16 surrogate.
 */
static int utf8_decode(const uint8_t *s, size_t avail, uint32_t *cp)
{
	static const uint32_t min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	uint32_t c = s[0];
	int n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		n = 2;
		c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		n = 3;
		c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		n = 4;
		c &= 0x07;
	} else {
		return -EINVAL;
	}
	if (avail < (size_t)n)
		return -EINVAL;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -EINVAL;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min_cp[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return -EINVAL;
	*cp = c;
	return n;
}

/* Read f's PSF2 Unicode table t of len bytes into its map.  Returns 0, or
 * -EINVAL when the table is truncated or holds malformed UTF-8. */
static int psf2_read_table(const uint8_t *t, size_t len, struct psf_font *f,
			   bool *mapped)
{
	uint32_t glyph = 0, cp;
	bool in_seq = false;
	size_t pos = 0;
	int n;

	while (glyph < f->nr_glyphs) {
		if (pos >= len)
			return -EINVAL;
		if (t[pos] == PSF2_SEPARATOR) {
			pos++;
			glyph++;
			in_seq = false;
		} else if (t[pos] == PSF2_STARTSEQ) {
			pos++;
			in_seq = true;
		} else {
			n = utf8_decode(t + pos, len - pos, &cp);
			if (n < 0)
				return n;
			pos += n;
			if (!in_seq)
				map_char(f, mapped, cp, glyph);
		}
	}
	return 0;
}

/* Point every unmapped Latin-1 character at the glyph of '?', or glyph 0
 * when '?' is unmapped too. */
static void map_fallback(struct psf_font *f, const bool *mapped)
{
	uint16_t fallback = mapped['?'] ? f->latin1_map['?'] : 0;
	unsigned int c;

	for (c = 0; c < LATIN1_CHARS; c++)
		if (!mapped[c])
			f->latin1_map[c] = fallback;
}

int psf_load(const void *data, size_t len, struct psf_font *font)
{
	const uint8_t *p = data;
	bool mapped[LATIN1_CHARS];
	size_t glyphs_off, glyphs_len, table_off;
	enum psf_table table;
	struct psf_font f;
	unsigned int c;
	int err;

	memset(&f, 0, sizeof(f));
	if (len >= 2 && p[0] == PSF1_MAGIC0 && p[1] == PSF1_MAGIC1)
		err = psf1_header(p, len, &f, &glyphs_off, &table);
	else if (len >= 4 && get_le32(p) == PSF2_MAGIC)
		err = psf2_header(p, len, &f, &glyphs_off, &table);
	else
		err = -EINVAL;
	if (err)
		return err;

	/* At most PSF_MAX_GLYPHS * PSF_MAX_HEIGHT * 8 bytes: no overflow. */
	glyphs_len = (size_t)f.nr_glyphs * f.bytes_per_glyph;
	if (glyphs_off > len || len - glyphs_off < glyphs_len)
		return -EINVAL;
	f.glyphs = p + glyphs_off;
	table_off = glyphs_off + glyphs_len;

	for (c = 0; c < LATIN1_CHARS; c++)
		mapped[c] = false;
	switch (table) {
	case TABLE_UCS2:
		err = psf1_read_table(p + table_off, len - table_off, &f,
				      mapped);
		break;
	case TABLE_UTF8:
		err = psf2_read_table(p + table_off, len - table_off, &f,
				      mapped);
		break;
	case TABLE_NONE:
		for (c = 0; c < LATIN1_CHARS && c < f.nr_glyphs; c++) {
			f.latin1_map[c] = (uint16_t)c;
			mapped[c] = true;
		}
		break;
	}
	if (err)
		return err;
	map_fallback(&f, mapped);

	*font = f;
	return 0;
}

const uint8_t *psf_glyph(const struct psf_font *font, unsigned char c)
{
	return font->glyphs +
	       (size_t)font->latin1_map[c] * font->bytes_per_glyph;
}
