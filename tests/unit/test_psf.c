/*
 * Unit tests for drivers/console/psf.c.
 *
 * psf_load() is fed the console font the kernel links in (build/font.psf,
 * or $PSF_FONT), Debian's PSF1 512-glyph and PSF2 fonts when installed,
 * small PSF1 and PSF2 fonts crafted here, and truncated and corrupted
 * copies of all of them.  Every call goes through load_exact(), which
 * hands psf_load() a buffer of exactly the font's length, so that
 * AddressSanitizer reports any read past the end, and which checks the
 * invariants psf.h promises whenever a font is accepted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <drivers/psf.h>
#include <uapi/errno.h>

#define CONSOLEFONTS	"/usr/share/consolefonts"
#define DEFAULT_FONT	"build/font.psf"

#define PSF1_HEADER	4
#define PSF2_HEADER	32

struct blob {
	uint8_t *data;
	size_t len;
};

/* Read all of stream f into b. */
static void read_stream(FILE *f, struct blob *b)
{
	size_t cap = 0, n;

	b->data = NULL;
	b->len = 0;
	for (;;) {
		if (b->len == cap) {
			cap = cap ? 2 * cap : 65536;
			b->data = realloc(b->data, cap);
			assert_non_null(b->data);
		}
		n = fread(b->data + b->len, 1, cap - b->len, f);
		if (n == 0)
			break;
		b->len += n;
	}
}

/* Read the file at path into b; false when it cannot be opened. */
static bool read_file(const char *path, struct blob *b)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	read_stream(f, b);
	fclose(f);
	return true;
}

/* Decompress the gzip file at path into b with gzip(1); false when the
 * file does not exist. */
static bool gunzip_file(const char *path, struct blob *b)
{
	char cmd[512];
	FILE *f;

	if (access(path, R_OK) != 0)
		return false;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	read_stream(f, b);
	assert_int_equal(pclose(f), 0);
	assert_true(b->len > 0);
	return true;
}

/* Where load_exact() puts what it reads, so the reads are not optimised out. */
static volatile unsigned int glyph_sink;

/*
 * psf_load() on a copy of data[0..len) in a buffer of exactly len bytes.
 * When the font is accepted, check psf.h's promises: consistent geometry,
 * a glyph table inside the buffer, every latin1_map entry a real glyph;
 * then read every mapped glyph so ASan sees each byte.  *font gets the
 * geometry with glyphs set to NULL, since the copy is freed.
 */
static int load_exact(const uint8_t *data, size_t len, struct psf_font *font)
{
	uint8_t *copy = malloc(len);
	const uint8_t *g;
	unsigned int c, i, sum = 0;
	size_t off;
	int err;

	assert_true(copy != NULL || len == 0);
	if (len)
		memcpy(copy, data, len);
	err = psf_load(copy, len, font);
	if (err == 0) {
		assert_true(font->width > 0 && font->height > 0);
		assert_int_equal(font->bytes_per_row, (font->width + 7) / 8);
		assert_int_equal(font->bytes_per_glyph,
				 font->height * font->bytes_per_row);
		assert_true(font->nr_glyphs > 0);
		assert_true(font->glyphs >= copy && font->glyphs <= copy + len);
		off = (size_t)(font->glyphs - copy);
		assert_true((size_t)font->nr_glyphs * font->bytes_per_glyph <=
			    len - off);
		for (c = 0; c < 256; c++) {
			assert_true(font->latin1_map[c] < font->nr_glyphs);
			g = psf_glyph(font, (unsigned char)c);
			for (i = 0; i < font->bytes_per_glyph; i++)
				sum += g[i];
		}
		font->glyphs = NULL;
	}
	free(copy);
	glyph_sink = sum;
	return err;
}

/* psf_load() must reject every proper prefix of a valid font. */
static void check_all_prefixes_rejected(const uint8_t *data, size_t len)
{
	struct psf_font font;
	size_t n;

	for (n = 0; n < len; n++) {
		if (load_exact(data, n, &font) != -EINVAL)
			fail_msg("prefix of %zu of %zu bytes accepted", n, len);
	}
	assert_int_equal(load_exact(data, len, &font), 0);
}

/* A small deterministic PRNG (xorshift32) for the fuzz loops. */
static uint32_t rand_next(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* Flip a few random bytes of the font, many times over: psf_load() may
 * accept or reject each copy, but must never read out of bounds, and an
 * accepted font must keep the invariants (load_exact checks both). */
static void fuzz(const uint8_t *data, size_t len, uint32_t seed, int rounds)
{
	uint8_t *mutant = malloc(len);
	struct psf_font font;
	size_t span, at;
	int r, k, flips;

	assert_non_null(mutant);
	for (r = 0; r < rounds; r++) {
		memcpy(mutant, data, len);
		flips = 1 + rand_next(&seed) % 4;
		for (k = 0; k < flips; k++) {
			/* Every other flip hits the header, where damage
			 * matters most. */
			span = (k & 1) ? len : MIN(len, PSF2_HEADER);
			at = rand_next(&seed) % span;
			mutant[at] ^= (uint8_t)(1 + rand_next(&seed) % 255);
		}
		load_exact(mutant, len, &font);
	}
	free(mutant);
}

static bool glyph_blank(const struct psf_font *f, unsigned char c)
{
	const uint8_t *g = psf_glyph(f, c);
	unsigned int i;

	for (i = 0; i < f->bytes_per_glyph; i++)
		if (g[i])
			return false;
	return true;
}

static bool glyphs_equal(const struct psf_font *f, unsigned char a,
			 unsigned char b)
{
	return memcmp(psf_glyph(f, a), psf_glyph(f, b), f->bytes_per_glyph) == 0;
}

static unsigned int glyph_index(const struct psf_font *f, unsigned char c)
{
	return (unsigned int)((psf_glyph(f, c) - f->glyphs) / f->bytes_per_glyph);
}

/* The checks every real Latin font must pass. */
static void check_latin_glyphs(const struct psf_font *f)
{
	unsigned int c;

	assert_false(glyph_blank(f, 'A'));
	assert_false(glyphs_equal(f, 'A', 'B'));
	assert_true(glyph_blank(f, ' '));
	for (c = '!'; c <= '~'; c++)
		if (glyph_blank(f, (unsigned char)c))
			fail_msg("glyph of '%c' is blank", c);
}

/* --- crafting fonts ------------------------------------------------------ */

struct writer {
	uint8_t buf[1 << 18];
	size_t len;
};

static void put8(struct writer *w, unsigned int v)
{
	assert_true(w->len < sizeof(w->buf));
	w->buf[w->len++] = (uint8_t)v;
}

static void put16(struct writer *w, unsigned int v)
{
	put8(w, v & 0xff);
	put8(w, v >> 8);
}

static void put32(struct writer *w, uint32_t v)
{
	put16(w, v & 0xffff);
	put16(w, v >> 16);
}

static void set32(struct writer *w, size_t at, uint32_t v)
{
	w->buf[at] = v & 0xff;
	w->buf[at + 1] = (v >> 8) & 0xff;
	w->buf[at + 2] = (v >> 16) & 0xff;
	w->buf[at + 3] = v >> 24;
}

static void put_bytes(struct writer *w, const char *s)
{
	while (*s)
		put8(w, (uint8_t)*s++);
}

/* nr glyphs of size bytes each; every byte of glyph i is (uint8_t)i, so a
 * glyph's first byte tells which one it is. */
static void put_glyphs(struct writer *w, unsigned int nr, unsigned int size)
{
	unsigned int i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; j < size; j++)
			put8(w, i);
}

static void psf1_start(struct writer *w, unsigned int mode,
		       unsigned int charsize)
{
	w->len = 0;
	put8(w, 0x36);
	put8(w, 0x04);
	put8(w, mode);
	put8(w, charsize);
	put_glyphs(w, (mode & 0x01) ? 512 : 256, charsize);
}

/* PSF2 header fields, by offset. */
#define PSF2_VERSION_AT		4
#define PSF2_HEADERSIZE_AT	8
#define PSF2_FLAGS_AT		12
#define PSF2_LENGTH_AT		16
#define PSF2_CHARSIZE_AT	20
#define PSF2_HEIGHT_AT		24
#define PSF2_WIDTH_AT		28

static void psf2_start(struct writer *w, uint32_t headersize, uint32_t flags,
		       uint32_t nr, uint32_t height, uint32_t width)
{
	uint32_t charsize = height * ((width + 7) / 8);

	w->len = 0;
	put8(w, 0x72);
	put8(w, 0xb5);
	put8(w, 0x4a);
	put8(w, 0x86);
	put32(w, 0);
	put32(w, headersize);
	put32(w, flags);
	put32(w, nr);
	put32(w, charsize);
	put32(w, height);
	put32(w, width);
	while (w->len < headersize)
		put8(w, 0xee);
	put_glyphs(w, nr, charsize);
}

static struct writer w;

/* --- the kernel's console font ------------------------------------------- */

static struct blob console;

static int console_font_setup(void **state)
{
	const char *path = getenv("PSF_FONT");

	(void)state;
	if (!path)
		path = DEFAULT_FONT;
	if (!read_file(path, &console)) {
		fprintf(stderr, "test_psf: cannot read %s (make %s)\n",
			path, DEFAULT_FONT);
		return -1;
	}
	return 0;
}

static int console_font_teardown(void **state)
{
	(void)state;
	free(console.data);
	return 0;
}

static void test_console_font_geometry(void **state)
{
	struct psf_font f;

	(void)state;
	assert_int_equal(psf_load(console.data, console.len, &f), 0);
	assert_int_equal(f.width, 8);
	assert_int_equal(f.height, 16);
	assert_int_equal(f.nr_glyphs, 256);
	assert_int_equal(f.bytes_per_row, 1);
	assert_int_equal(f.bytes_per_glyph, 16);
	assert_ptr_equal(f.glyphs, console.data + PSF1_HEADER);
	assert_int_equal(load_exact(console.data, console.len, &f), 0);
}

static void test_console_font_glyphs(void **state)
{
	struct psf_font f;
	unsigned int a, b;

	(void)state;
	assert_int_equal(psf_load(console.data, console.len, &f), 0);
	check_latin_glyphs(&f);
	/* Each printable ASCII character has a glyph of its own. */
	for (a = ' '; a <= '~'; a++)
		for (b = a + 1; b <= '~'; b++)
			if (f.latin1_map[a] == f.latin1_map[b])
				fail_msg("'%c' and '%c' share a glyph", a, b);
}

static void test_console_font_truncated(void **state)
{
	(void)state;
	check_all_prefixes_rejected(console.data, console.len);
}

static void test_console_font_corrupted(void **state)
{
	uint8_t *bad = malloc(console.len);
	struct psf_font f;
	int i;

	(void)state;
	assert_non_null(bad);
	assert_true(console.len < PSF1_HEADER + 512 * 16);

	for (i = 0; i < 2; i++) {
		memcpy(bad, console.data, console.len);
		bad[i] ^= 0x40;
		assert_int_equal(load_exact(bad, console.len, &f), -EINVAL);
	}
	/* 512 glyphs: the glyph table runs past the end of the file. */
	memcpy(bad, console.data, console.len);
	bad[2] |= 0x01;
	assert_int_equal(load_exact(bad, console.len, &f), -EINVAL);
	/* Zero height. */
	memcpy(bad, console.data, console.len);
	bad[3] = 0;
	assert_int_equal(load_exact(bad, console.len, &f), -EINVAL);
	/* A mode bit PSF1 does not define. */
	memcpy(bad, console.data, console.len);
	bad[2] |= 0x08;
	assert_int_equal(load_exact(bad, console.len, &f), -EINVAL);

	free(bad);
	fuzz(console.data, console.len, 0x1234567, 3000);
}

/* --- crafted PSF1 fonts -------------------------------------------------- */

static void test_psf1_without_table(void **state)
{
	struct psf_font f;
	unsigned int c;

	(void)state;
	psf1_start(&w, 0x00, 8);
	assert_int_equal(psf_load(w.buf, w.len, &f), 0);
	assert_int_equal(f.width, 8);
	assert_int_equal(f.height, 8);
	assert_int_equal(f.nr_glyphs, 256);
	assert_ptr_equal(f.glyphs, w.buf + PSF1_HEADER);
	for (c = 0; c < 256; c++) {
		assert_int_equal(f.latin1_map[c], c);
		assert_int_equal(psf_glyph(&f, (unsigned char)c)[0], c);
	}
	check_all_prefixes_rejected(w.buf, w.len);
}

static void test_psf1_with_table(void **state)
{
	struct psf_font f;
	unsigned int g, c;

	(void)state;
	psf1_start(&w, 0x03, 4);	/* 512 glyphs and a table */
	for (g = 0; g < 512; g++) {
		switch (g) {
		case 1:
			put16(&w, 'A');
			put16(&w, 0x0391);	/* GREEK CAPITAL ALPHA: ignored */
			break;
		case 300:
			put16(&w, 0xe9);	/* e acute */
			put16(&w, 0xfffe);	/* a sequence: B + acute */
			put16(&w, 'B');
			put16(&w, 0x0301);
			break;
		case 301:
			put16(&w, '?');
			break;
		case 302:
			put16(&w, 'A');		/* already glyph 1's */
			break;
		case 511:
			put16(&w, 'Z');
			break;
		}
		put16(&w, 0xffff);
	}
	assert_int_equal(psf_load(w.buf, w.len, &f), 0);
	assert_int_equal(f.nr_glyphs, 512);
	assert_int_equal(f.height, 4);
	assert_int_equal(glyph_index(&f, 'A'), 1);
	assert_int_equal(glyph_index(&f, 0xe9), 300);
	assert_int_equal(glyph_index(&f, '?'), 301);
	assert_int_equal(glyph_index(&f, 'Z'), 511);
	assert_int_equal(psf_glyph(&f, 'Z')[0], 511 & 0xff);
	/* Unmapped characters, and those only in a sequence, get '?'. */
	for (c = 0; c < 256; c++)
		if (c != 'A' && c != 0xe9 && c != '?' && c != 'Z')
			assert_int_equal(glyph_index(&f, (unsigned char)c), 301);
	check_all_prefixes_rejected(w.buf, w.len);
}

static void test_psf1_sequences_mode(void **state)
{
	struct psf_font f;
	unsigned int g;

	(void)state;
	psf1_start(&w, 0x04, 2);	/* "has sequences" implies a table */
	for (g = 0; g < 256; g++) {
		if (g == 5)
			put16(&w, 'x');
		put16(&w, 0xffff);
	}
	assert_int_equal(psf_load(w.buf, w.len, &f), 0);
	assert_int_equal(glyph_index(&f, 'x'), 5);
	assert_int_equal(glyph_index(&f, 'y'), 0);	/* no '?' either */
}

static void test_psf1_bad(void **state)
{
	struct psf_font f;
	unsigned int g;

	(void)state;
	/* A table flag but no table. */
	psf1_start(&w, 0x02, 8);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	/* A table missing its last glyph's list. */
	for (g = 0; g < 255; g++)
		put16(&w, 0xffff);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	put8(&w, 0xff);		/* half an entry */
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	put8(&w, 0xff);
	assert_int_equal(load_exact(w.buf, w.len, &f), 0);
	/* Trailing bytes after the table are harmless. */
	put16(&w, 'q');
	assert_int_equal(load_exact(w.buf, w.len, &f), 0);

	/* Too tall. */
	psf1_start(&w, 0x00, 200);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	/* 256 glyphs where the header promises 512. */
	psf1_start(&w, 0x00, 8);
	w.buf[2] = 0x01;
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	fuzz(w.buf, w.len, 42, 1000);
}

/* --- crafted PSF2 fonts -------------------------------------------------- */

static void test_psf2_without_table(void **state)
{
	struct psf_font f;
	unsigned int c;

	(void)state;
	psf2_start(&w, PSF2_HEADER, 0, 100, 6, 12);
	assert_int_equal(psf_load(w.buf, w.len, &f), 0);
	assert_int_equal(f.width, 12);
	assert_int_equal(f.height, 6);
	assert_int_equal(f.bytes_per_row, 2);
	assert_int_equal(f.bytes_per_glyph, 12);
	assert_int_equal(f.nr_glyphs, 100);
	assert_ptr_equal(f.glyphs, w.buf + PSF2_HEADER);
	/* Code point c is glyph c; past the last glyph, '?'. */
	for (c = 0; c < 256; c++) {
		assert_int_equal(glyph_index(&f, (unsigned char)c),
				 c < 100 ? c : '?');
		assert_int_equal(psf_glyph(&f, (unsigned char)c)[11],
				 c < 100 ? c : '?');
	}
	check_all_prefixes_rejected(w.buf, w.len);
}

static void test_psf2_with_table(void **state)
{
	struct psf_font f;
	unsigned int c;

	(void)state;
	/* A longer header than PSF2's 32 bytes: the glyphs follow it. */
	psf2_start(&w, 40, 0x01, 4, 8, 8);
	put8(&w, 0xff);					/* glyph 0: nothing */
	put_bytes(&w, "a\xc3\xbf\xe2\x94\x80\xff");	/* 1: a, y diaeresis, U+2500 */
	put_bytes(&w, "\xfe" "b\xcc\x81\xff");		/* 2: only b + acute */
	put_bytes(&w, "\xf0\x9f\x98\x80" "c\xfe" "ab\xfe" "d\xff"); /* 3 */
	assert_int_equal(psf_load(w.buf, w.len, &f), 0);
	assert_ptr_equal(f.glyphs, w.buf + 40);
	assert_int_equal(f.nr_glyphs, 4);
	assert_int_equal(glyph_index(&f, 'a'), 1);
	assert_int_equal(glyph_index(&f, 0xff), 1);
	assert_int_equal(glyph_index(&f, 'c'), 3);
	assert_int_equal(psf_glyph(&f, 'c')[7], 3);
	/* No '?' in the font: unmapped characters get glyph 0. */
	for (c = 0; c < 256; c++)
		if (c != 'a' && c != 0xff && c != 'c')
			assert_int_equal(glyph_index(&f, (unsigned char)c), 0);
	check_all_prefixes_rejected(w.buf, w.len);
	fuzz(w.buf, w.len, 7, 3000);
}

/* A one-glyph PSF2 font whose Unicode table is the string table. */
static int load_psf2_table(const char *table, size_t len)
{
	struct psf_font f;
	size_t i;

	psf2_start(&w, PSF2_HEADER, 0x01, 1, 8, 8);
	for (i = 0; i < len; i++)
		put8(&w, (uint8_t)table[i]);
	return load_exact(w.buf, w.len, &f);
}

#define TABLE(s) s, sizeof(s) - 1

static void test_psf2_bad_utf8(void **state)
{
	(void)state;
	assert_int_equal(load_psf2_table(TABLE("\xc3\xa9\xff")), 0);
	assert_int_equal(load_psf2_table(TABLE("")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("a")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\x80\xff")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xc3\xff")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xc3" "A\xff")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xc3")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xe2\x94")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xc1\x81\xff")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xe0\x80\x80\xff")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xed\xa0\x80\xff")), -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xf4\x90\x80\x80\xff")),
			 -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xf8\x88\x80\x80\x80\xff")),
			 -EINVAL);
	assert_int_equal(load_psf2_table(TABLE("\xfe\x80\xff")), -EINVAL);
}

static void test_psf2_bad_headers(void **state)
{
	static const struct {
		size_t at;
		uint32_t value;
	} bad[] = {
		{ PSF2_VERSION_AT, 1 },
		{ PSF2_HEADERSIZE_AT, 0 },
		{ PSF2_HEADERSIZE_AT, 31 },
		{ PSF2_HEADERSIZE_AT, 33 },		/* glyphs past the end */
		{ PSF2_HEADERSIZE_AT, 0xffffffff },
		{ PSF2_LENGTH_AT, 0 },
		{ PSF2_LENGTH_AT, 5 },			/* glyphs past the end */
		{ PSF2_LENGTH_AT, 65537 },
		{ PSF2_LENGTH_AT, 0xffffffff },
		{ PSF2_CHARSIZE_AT, 0 },
		{ PSF2_CHARSIZE_AT, 7 },
		{ PSF2_CHARSIZE_AT, 16 },
		{ PSF2_CHARSIZE_AT, 0xffffffff },
		{ PSF2_HEIGHT_AT, 0 },
		{ PSF2_HEIGHT_AT, 0xffffffff },
		{ PSF2_WIDTH_AT, 0 },
		{ PSF2_WIDTH_AT, 0xffffffff },
	};
	struct psf_font f;
	size_t i;

	(void)state;
	psf2_start(&w, PSF2_HEADER, 0, 4, 8, 8);
	assert_int_equal(load_exact(w.buf, w.len, &f), 0);
	for (i = 0; i < 4; i++) {
		w.buf[i] ^= 0x01;
		assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
		w.buf[i] ^= 0x01;
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		psf2_start(&w, PSF2_HEADER, 0, 4, 8, 8);
		set32(&w, bad[i].at, bad[i].value);
		if (load_exact(w.buf, w.len, &f) != -EINVAL)
			fail_msg("field at %zu = %#x accepted",
				 bad[i].at, bad[i].value);
	}

	/* Zero height with a matching zero charsize. */
	psf2_start(&w, PSF2_HEADER, 0, 4, 8, 8);
	set32(&w, PSF2_HEIGHT_AT, 0);
	set32(&w, PSF2_CHARSIZE_AT, 0);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	/* Absurd but self-consistent sizes. */
	psf2_start(&w, PSF2_HEADER, 0, 1, 8, 65);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	psf2_start(&w, PSF2_HEADER, 0, 1, 129, 8);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
	/* The largest sizes accepted, and one glyph too many. */
	psf2_start(&w, PSF2_HEADER, 0, 1, 128, 64);
	assert_int_equal(load_exact(w.buf, w.len, &f), 0);
	psf2_start(&w, PSF2_HEADER, 0, 65536, 1, 1);
	assert_int_equal(load_exact(w.buf, w.len, &f), 0);
	psf2_start(&w, PSF2_HEADER, 0, 65537, 1, 1);
	assert_int_equal(load_exact(w.buf, w.len, &f), -EINVAL);
}

/* --- Debian's other fonts, when installed -------------------------------- */

static void test_debian_psf1_512(void **state)
{
	const char *path = CONSOLEFONTS "/Uni2-VGA16.psf.gz";
	struct psf_font f;
	struct blob b;

	(void)state;
	if (!gunzip_file(path, &b)) {
		print_message("skipping: %s is not installed\n", path);
		skip();
	}
	assert_int_equal(b.data[0], 0x36);
	assert_int_equal(b.data[1], 0x04);
	assert_int_equal(psf_load(b.data, b.len, &f), 0);
	assert_int_equal(f.nr_glyphs, 512);
	assert_int_equal(f.width, 8);
	assert_int_equal(f.height, 16);
	check_latin_glyphs(&f);
	assert_false(glyph_blank(&f, 0xe9));
	assert_false(glyphs_equal(&f, 'e', 0xe9));
	check_all_prefixes_rejected(b.data, b.len);
	free(b.data);
}

static void test_debian_psf2(void **state)
{
	static const char *const candidates[] = {
		CONSOLEFONTS "/Lat15-Terminus32x16.psf.gz",
		CONSOLEFONTS "/Uni2-Terminus32x16.psf.gz",
		CONSOLEFONTS "/Uni2-VGA32x16.psf.gz",
	};
	static const uint8_t magic[4] = { 0x72, 0xb5, 0x4a, 0x86 };
	struct psf_font f;
	struct blob b;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(candidates); i++)
		if (gunzip_file(candidates[i], &b))
			break;
	if (i == ARRAY_SIZE(candidates)) {
		print_message("skipping: no PSF2 font in %s\n", CONSOLEFONTS);
		skip();
	}
	assert_true(b.len > PSF2_HEADER);
	assert_memory_equal(b.data, magic, sizeof(magic));
	assert_int_equal(psf_load(b.data, b.len, &f), 0);
	assert_int_equal(f.width, 16);
	assert_int_equal(f.height, 32);
	assert_int_equal(f.bytes_per_row, 2);
	assert_int_equal(f.bytes_per_glyph, 64);
	assert_ptr_equal(f.glyphs, b.data + PSF2_HEADER);
	check_latin_glyphs(&f);
	check_all_prefixes_rejected(b.data, b.len);
	fuzz(b.data, b.len, 99, 1000);
	free(b.data);
}

int main(void)
{
	const struct CMUnitTest console_tests[] = {
		cmocka_unit_test(test_console_font_geometry),
		cmocka_unit_test(test_console_font_glyphs),
		cmocka_unit_test(test_console_font_truncated),
		cmocka_unit_test(test_console_font_corrupted),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psf1_without_table),
		cmocka_unit_test(test_psf1_with_table),
		cmocka_unit_test(test_psf1_sequences_mode),
		cmocka_unit_test(test_psf1_bad),
		cmocka_unit_test(test_psf2_without_table),
		cmocka_unit_test(test_psf2_with_table),
		cmocka_unit_test(test_psf2_bad_utf8),
		cmocka_unit_test(test_psf2_bad_headers),
		cmocka_unit_test(test_debian_psf1_512),
		cmocka_unit_test(test_debian_psf2),
	};
	int failed;

	failed = cmocka_run_group_tests(console_tests, console_font_setup,
					console_font_teardown);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	return failed ? 1 : 0;
}
