/*
 * Host unit tests for the multiboot2 boot-information parser
 * (kernel/multiboot2.c).
 *
 * Buffers are built with the mb_* helpers, then copied into a heap block
 * of exactly the size handed to mb2_parse(), so AddressSanitizer catches
 * any read past it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/multiboot2.h>
#include <uapi/errno.h>

/* --- building boot information ------------------------------------------ */

#define MB_MAX 16384

struct mb {
	uint8_t buf[MB_MAX] __aligned(8);
	size_t len;
};

static struct mb mb;
static struct boot_info bi;
static uint8_t *parsed;		/* the heap copy bi points into */
static size_t parsed_len;

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, sizeof(v)); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, sizeof(v)); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, sizeof(v)); }

static void mb_init(void)
{
	memset(&mb, 0, sizeof(mb));
	mb.len = 8;
}

/* Append a tag with n bytes of payload; returns its offset. */
static size_t mb_tag(uint16_t type, const void *payload, size_t n)
{
	size_t off = mb.len;
	uint32_t size = 8 + n;

	assert_true(off + ALIGN_UP(size, 8) <= MB_MAX);
	put16(mb.buf + off, type);
	put16(mb.buf + off + 2, 0);
	put32(mb.buf + off + 4, size);
	if (n)
		memcpy(mb.buf + off + 8, payload, n);
	mb.len = off + ALIGN_UP(size, 8);
	return off;
}

static size_t mb_string(uint16_t type, const char *s)
{
	return mb_tag(type, s, strlen(s) + 1);
}

static void mb_set_total(uint32_t total)
{
	put32(mb.buf, total);
}

static void mb_finish(void)
{
	mb_tag(MB2_TAG_END, NULL, 0);
	mb_set_total(mb.len);
}

/* A memory map tag of n entries {base, length, type} with entry_size esz. */
static size_t mb_mmap(const uint64_t (*e)[3], size_t n, uint32_t esz)
{
	static uint8_t p[MB_MAX];
	size_t i;

	assert_true(8 + n * esz <= sizeof(p));
	memset(p, 0, sizeof(p));
	put32(p, esz);
	put32(p + 4, 0);
	for (i = 0; i < n; i++) {
		put64(p + 8 + i * esz, e[i][0]);
		put64(p + 8 + i * esz + 8, e[i][1]);
		put32(p + 8 + i * esz + 16, e[i][2]);
	}
	return mb_tag(MB2_TAG_MMAP, p, 8 + n * esz);
}

static size_t mb_module(uint32_t start, uint32_t end, const char *s)
{
	uint8_t p[64];

	put32(p, start);
	put32(p + 4, end);
	strcpy((char *)p + 8, s);
	return mb_tag(MB2_TAG_MODULE, p, 8 + strlen(s) + 1);
}

/* The framebuffer tag's fixed payload (24 bytes) into p. */
static void fb_common(uint8_t *p, uint64_t addr, uint32_t pitch, uint32_t width,
		      uint32_t height, uint8_t bpp, uint8_t type)
{
	memset(p, 0, 24);
	put64(p, addr);
	put32(p + 8, pitch);
	put32(p + 12, width);
	put32(p + 16, height);
	p[20] = bpp;
	p[21] = type;
}

static size_t mb_fb_ega(uint32_t pitch, uint32_t width, uint32_t height, uint8_t bpp)
{
	uint8_t p[24];

	fb_common(p, 0xb8000, pitch, width, height, bpp, MB2_FB_EGA_TEXT);
	return mb_tag(MB2_TAG_FRAMEBUFFER, p, sizeof(p));
}

/* An RGB framebuffer: x1r5g5b5, r5g6b5 or x8r8g8b8 as bpp suggests. */
static size_t mb_fb_rgb(uint64_t addr, uint32_t pitch, uint32_t width,
			uint32_t height, uint8_t bpp)
{
	/* red position, size; green position, size; blue position, size */
	static const uint8_t rgb555[6] = { 10, 5, 5, 5, 0, 5 };
	static const uint8_t rgb565[6] = { 11, 5, 5, 6, 0, 5 };
	static const uint8_t rgb888[6] = { 16, 8, 8, 8, 0, 8 };
	uint8_t p[30];

	fb_common(p, addr, pitch, width, height, bpp, MB2_FB_RGB);
	memcpy(p + 24, bpp == 15 ? rgb555 : bpp == 16 ? rgb565 : rgb888, 6);
	return mb_tag(MB2_TAG_FRAMEBUFFER, p, sizeof(p));
}

/* An indexed framebuffer claiming nr_colors with room for have colours. */
static size_t mb_fb_indexed(uint16_t nr_colors, size_t have)
{
	uint8_t p[24 + 2 + 3 * 256];

	assert_true(have <= 256);
	memset(p, 0x55, sizeof(p));
	fb_common(p, 0xa0000, 320, 320, 200, 8, MB2_FB_INDEXED);
	put16(p + 24, nr_colors);
	return mb_tag(MB2_TAG_FRAMEBUFFER, p, 24 + 2 + 3 * have);
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

/* An RSDP with valid checksums: 20 bytes for revision 0, else 36. */
static size_t make_rsdp(uint8_t *r, uint8_t revision, const char *oem)
{
	memset(r, 0, 36);
	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, oem, 6);
	r[15] = revision;
	put32(r + 16, 0x1ffe1234);
	r[8] = -sum(r, 20);
	if (revision < 2)
		return 20;
	put32(r + 20, 36);
	put64(r + 24, 0x7fbfd0e8);
	r[32] = -sum(r, 36);
	return 36;
}

static size_t mb_rsdp(uint16_t type, uint8_t revision, const char *oem)
{
	uint8_t r[36];

	return mb_tag(type, r, make_rsdp(r, revision, oem));
}

static size_t mb_efi64(uint64_t st)
{
	return mb_tag(MB2_TAG_EFI64, &st, sizeof(st));
}

static size_t mb_efi32(uint32_t st)
{
	return mb_tag(MB2_TAG_EFI32, &st, sizeof(st));
}

/* --- parsing -------------------------------------------------------------- */

/* Parse the first avail bytes of buf from an exact-size heap copy. */
static int parse_bytes(const uint8_t *buf, size_t avail)
{
	free(parsed);
	parsed = malloc(avail ? avail : 1);
	assert_non_null(parsed);
	memcpy(parsed, buf, avail);
	parsed_len = avail;
	return mb2_parse(parsed, avail, &bi);
}

static int parse(void)
{
	return parse_bytes(mb.buf, mb.len);
}

static bool inside(const void *p)
{
	return (const uint8_t *)p >= parsed && (const uint8_t *)p < parsed + parsed_len;
}

/* What a failed mb2_parse() leaves: a reason and nothing else. */
static void check_failed(int rc)
{
	assert_true(rc == -EINVAL || rc == -E2BIG);
	assert_non_null(bi.error);
	assert_true(bi.error[0] != '\0');
	assert_string_equal(bi.cmdline, "");
	assert_string_equal(bi.loader_name, "");
	assert_int_equal(bi.nr_mmap, 0);
	assert_int_equal(bi.nr_modules, 0);
	assert_false(bi.has_framebuffer);
	assert_null(bi.rsdp);
	assert_false(bi.efi);
}

/* mb2_parse() failed with err and a reason mentioning word. */
static void expect_fail(int rc, int err, const char *word)
{
	check_failed(rc);
	assert_int_equal(rc, err);
	if (!strstr(bi.error, word))
		fail_msg("error \"%s\" does not mention \"%s\"", bi.error, word);
}

/* The invariants mb2_parse() promises on success. */
static void check_parsed(void)
{
	unsigned int i;

	assert_null(bi.error);
	assert_true(bi.total_size >= 16 && bi.total_size <= parsed_len);
	assert_true(bi.cmdline[0] == '\0' || inside(bi.cmdline));
	assert_true(bi.loader_name[0] == '\0' || inside(bi.loader_name));
	assert_true(bi.nr_mmap <= BOOT_MMAP_MAX);
	for (i = 0; i < bi.nr_mmap; i++) {
		assert_true(bi.mmap[i].len > 0);
		assert_true(bi.mmap[i].addr + bi.mmap[i].len > bi.mmap[i].addr);
	}
	assert_true(bi.nr_modules <= BOOT_MODULES_MAX);
	for (i = 0; i < bi.nr_modules; i++) {
		assert_true(bi.modules[i].start <= bi.modules[i].end);
		assert_true(inside(bi.modules[i].cmdline));
	}
	if (bi.has_framebuffer) {
		const struct boot_framebuffer *fb = &bi.fb;

		assert_true(fb->width && fb->height && fb->pitch);
		assert_true((uint64_t)fb->width * ((fb->bpp + 7) / 8) <= fb->pitch);
		assert_true(fb->addr + (uint64_t)fb->pitch * fb->height > fb->addr);
		assert_true(fb->type <= MB2_FB_EGA_TEXT);
	}
	if (bi.rsdp) {
		assert_true(inside(bi.rsdp));
		assert_memory_equal(bi.rsdp, "RSD PTR ", 8);
		assert_int_equal(bi.rsdp_oem[6], '\0');
	}
	/* NUL-terminated inside the buffer: ASan would catch a strlen past it. */
	assert_true(strlen(bi.cmdline) < MB2_INFO_MAX_SIZE);
	assert_true(strlen(bi.loader_name) < MB2_INFO_MAX_SIZE);
}

/* --- realistic boot information ------------------------------------------ */

static const uint64_t bios_mmap[][3] = {
	{ 0x0, 0x9fc00, MB2_MEMORY_AVAILABLE },
	{ 0x9fc00, 0x400, MB2_MEMORY_RESERVED },
	{ 0xf0000, 0x10000, MB2_MEMORY_RESERVED },
	{ 0x5000, 0, MB2_MEMORY_AVAILABLE },		/* zero length: skipped */
	{ 0x100000, 0x1fee0000, MB2_MEMORY_AVAILABLE },
	{ 0x1ffe0000, 0x20000, MB2_MEMORY_RESERVED },
	{ 0xfeffc000, 0x4000, MB2_MEMORY_RESERVED },
	{ 0xfffc0000, 0x40000, MB2_MEMORY_RESERVED },
};

/* What GRUB hands over under SeaBIOS, in GRUB's tag order. */
static void build_bios(void)
{
	uint32_t meminfo[2] = { 639, 523136 };
	uint32_t bootdev[3] = { 0xe0, 0xffffffff, 0xffffffff };

	mb_init();
	mb_string(MB2_TAG_CMDLINE, "loglevel=7 quiet");
	mb_string(MB2_TAG_LOADER_NAME, "GRUB 2.06-13+deb12u1");
	mb_module(0x200000, 0x201000, "initrd.tar");
	mb_tag(MB2_TAG_BASIC_MEMINFO, meminfo, sizeof(meminfo));
	mb_tag(MB2_TAG_BOOTDEV, bootdev, sizeof(bootdev));
	mb_mmap(bios_mmap, ARRAY_SIZE(bios_mmap), 24);
	mb_fb_ega(160, 80, 25, 16);
	mb_rsdp(MB2_TAG_ACPI_OLD, 0, "BOCHS ");
	mb_finish();
}

static const uint64_t uefi_mmap[][3] = {
	{ 0x0, 0xa0000, MB2_MEMORY_AVAILABLE },
	{ 0x100000, 0x7e00000, MB2_MEMORY_AVAILABLE },
	{ 0x7f00000, 0x78000, MB2_MEMORY_ACPI_RECLAIMABLE },
	{ 0x7f78000, 0x88000, MB2_MEMORY_NVS },
	{ 0x100000000, 0x40000000, 20 },
	{ 0xffc00000, 0x400000, MB2_MEMORY_RESERVED },
};

/* What GRUB hands over under OVMF: framebuffer, EFI64, both ACPI tags. */
static void build_uefi(void)
{
	mb_init();
	mb_string(MB2_TAG_CMDLINE, "console=fb init=\"/bin/sh -i\"");
	mb_string(MB2_TAG_LOADER_NAME, "GRUB 2.12");
	mb_mmap(uefi_mmap, ARRAY_SIZE(uefi_mmap), 24);
	mb_fb_rgb(0x80000000, 1280 * 4, 1280, 800, 32);
	mb_efi64(0x7f9ee018);
	mb_rsdp(MB2_TAG_ACPI_NEW, 2, "OVMFAC");
	mb_rsdp(MB2_TAG_ACPI_OLD, 0, "OLDOEM");
	mb_finish();
}

static void test_bios(void **state)
{
	unsigned int i, j;

	(void)state;
	build_bios();
	assert_int_equal(parse(), 0);
	check_parsed();
	assert_int_equal(bi.total_size, mb.len);
	assert_string_equal(bi.cmdline, "loglevel=7 quiet");
	assert_string_equal(bi.loader_name, "GRUB 2.06-13+deb12u1");

	assert_int_equal(bi.nr_mmap, ARRAY_SIZE(bios_mmap) - 1);
	for (i = 0, j = 0; i < ARRAY_SIZE(bios_mmap); i++) {
		if (!bios_mmap[i][1])
			continue;
		assert_int_equal(bi.mmap[j].addr, bios_mmap[i][0]);
		assert_int_equal(bi.mmap[j].len, bios_mmap[i][1]);
		assert_int_equal(bi.mmap[j].type, bios_mmap[i][2]);
		j++;
	}

	assert_int_equal(bi.nr_modules, 1);
	assert_int_equal(bi.modules[0].start, 0x200000);
	assert_int_equal(bi.modules[0].end, 0x201000);
	assert_string_equal(bi.modules[0].cmdline, "initrd.tar");

	assert_true(bi.has_framebuffer);
	assert_int_equal(bi.fb.type, MB2_FB_EGA_TEXT);
	assert_int_equal(bi.fb.addr, 0xb8000);
	assert_int_equal(bi.fb.pitch, 160);
	assert_int_equal(bi.fb.width, 80);
	assert_int_equal(bi.fb.height, 25);
	assert_int_equal(bi.fb.bpp, 16);

	assert_non_null(bi.rsdp);
	assert_int_equal(bi.rsdp_revision, 0);
	assert_string_equal(bi.rsdp_oem, "BOCHS ");
	assert_false(bi.efi);
	assert_int_equal(bi.efi_system_table, 0);
}

static void test_uefi(void **state)
{
	unsigned int i;

	(void)state;
	build_uefi();
	assert_int_equal(parse(), 0);
	check_parsed();
	assert_string_equal(bi.cmdline, "console=fb init=\"/bin/sh -i\"");
	assert_string_equal(bi.loader_name, "GRUB 2.12");

	assert_int_equal(bi.nr_mmap, ARRAY_SIZE(uefi_mmap));
	for (i = 0; i < ARRAY_SIZE(uefi_mmap); i++) {
		assert_int_equal(bi.mmap[i].addr, uefi_mmap[i][0]);
		assert_int_equal(bi.mmap[i].len, uefi_mmap[i][1]);
		assert_int_equal(bi.mmap[i].type, uefi_mmap[i][2]);
	}
	assert_int_equal(bi.nr_modules, 0);

	assert_true(bi.has_framebuffer);
	assert_int_equal(bi.fb.type, MB2_FB_RGB);
	assert_int_equal(bi.fb.addr, 0x80000000);
	assert_int_equal(bi.fb.pitch, 5120);
	assert_int_equal(bi.fb.width, 1280);
	assert_int_equal(bi.fb.height, 800);
	assert_int_equal(bi.fb.bpp, 32);
	assert_int_equal(bi.fb.red_pos, 16);
	assert_int_equal(bi.fb.red_size, 8);
	assert_int_equal(bi.fb.green_pos, 8);
	assert_int_equal(bi.fb.green_size, 8);
	assert_int_equal(bi.fb.blue_pos, 0);
	assert_int_equal(bi.fb.blue_size, 8);

	assert_true(bi.efi);
	assert_int_equal(bi.efi_system_table, 0x7f9ee018);

	/* The ACPI 2.0 tag wins over the 1.0 one that follows it. */
	assert_non_null(bi.rsdp);
	assert_int_equal(bi.rsdp_revision, 2);
	assert_string_equal(bi.rsdp_oem, "OVMFAC");
	assert_int_equal(((const uint8_t *)bi.rsdp)[15], 2);
}

static void test_minimal(void **state)
{
	(void)state;
	mb_init();
	mb_finish();
	assert_int_equal(mb.len, 16);
	assert_int_equal(parse(), 0);
	check_parsed();
	assert_string_equal(bi.cmdline, "");
	assert_string_equal(bi.loader_name, "");
	assert_int_equal(bi.nr_mmap, 0);
	assert_false(bi.has_framebuffer);
	assert_null(bi.rsdp);
}

/* Unknown tag types and the bytes after the end tag are ignored. */
static void test_unknown_tags(void **state)
{
	uint8_t junk[13] = { 1, 2, 3 };

	(void)state;
	mb_init();
	mb_tag(0x1234, junk, sizeof(junk));
	mb_tag(MB2_TAG_LOAD_BASE_ADDR, junk, 4);
	mb_string(MB2_TAG_CMDLINE, "x");
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_string_equal(bi.cmdline, "x");
}

static void test_acpi_new_before_old(void **state)
{
	(void)state;
	mb_init();
	mb_rsdp(MB2_TAG_ACPI_OLD, 0, "OLDOEM");
	mb_rsdp(MB2_TAG_ACPI_NEW, 2, "NEWOEM");
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.rsdp_revision, 2);
	assert_string_equal(bi.rsdp_oem, "NEWOEM");
}

static void test_efi32(void **state)
{
	(void)state;
	mb_init();
	mb_efi32(0x7fe0000);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_true(bi.efi);
	assert_int_equal(bi.efi_system_table, 0x7fe0000);

	/* The 64-bit pointer wins in either order. */
	mb_init();
	mb_efi64(0x123456789a);
	mb_efi32(0x7fe0000);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.efi_system_table, 0x123456789a);
}

/* entry_size may be larger than the 24 bytes the parser reads. */
static void test_mmap_large_entries(void **state)
{
	(void)state;
	mb_init();
	mb_mmap(uefi_mmap, ARRAY_SIZE(uefi_mmap), 32);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.nr_mmap, ARRAY_SIZE(uefi_mmap));
	assert_int_equal(bi.mmap[4].addr, 0x100000000);
	assert_int_equal(bi.mmap[4].type, 20);
}

static void test_framebuffer_formats(void **state)
{
	(void)state;
	mb_init();
	mb_fb_indexed(256, 256);
	mb_finish();
	assert_int_equal(parse(), 0);
	check_parsed();
	assert_int_equal(bi.fb.type, MB2_FB_INDEXED);
	assert_int_equal(bi.fb.bpp, 8);

	mb_init();
	mb_fb_rgb(0xfd000000, 1024 * 2, 1024, 768, 15);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.fb.bpp, 15);

	mb_init();
	mb_fb_rgb(0xfd000000, 1024 * 3, 1024, 768, 24);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.fb.pitch, 3072);

	mb_init();
	mb_fb_rgb(0xfd000000, 1024 * 2, 1024, 768, 16);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.fb.green_size, 6);

	/* Ending one byte below 2^64 is fine. */
	mb_init();
	mb_fb_rgb(UINT64_MAX - 5120ull * 800, 5120, 1280, 800, 32);
	mb_finish();
	assert_int_equal(parse(), 0);
}

static void test_memory_type_names(void **state)
{
	(void)state;
	assert_string_equal(mb2_memory_type_name(MB2_MEMORY_AVAILABLE), "available");
	assert_string_equal(mb2_memory_type_name(MB2_MEMORY_RESERVED), "reserved");
	assert_string_equal(mb2_memory_type_name(MB2_MEMORY_ACPI_RECLAIMABLE), "ACPI reclaimable");
	assert_string_equal(mb2_memory_type_name(MB2_MEMORY_NVS), "ACPI NVS");
	assert_string_equal(mb2_memory_type_name(MB2_MEMORY_BADRAM), "bad RAM");
	assert_string_equal(mb2_memory_type_name(0), "reserved");
	assert_string_equal(mb2_memory_type_name(20), "reserved");
	assert_string_equal(mb2_memory_type_name(0xffffffff), "reserved");
}

/* --- malformed headers and tag lists -------------------------------------- */

static void test_null_info(void **state)
{
	(void)state;
	expect_fail(mb2_parse(NULL, 64, &bi), -EINVAL, "NULL");
}

static void test_short_avail(void **state)
{
	(void)state;
	build_bios();
	expect_fail(parse_bytes(mb.buf, 7), -EINVAL, "header");
	expect_fail(parse_bytes(mb.buf, 0), -EINVAL, "header");
}

static void test_total_size_small(void **state)
{
	(void)state;
	build_bios();
	mb_set_total(8);
	expect_fail(parse(), -EINVAL, "below 16");
	mb_set_total(0);
	expect_fail(parse(), -EINVAL, "below 16");
}

static void test_total_size_beyond_avail(void **state)
{
	(void)state;
	build_bios();
	expect_fail(parse_bytes(mb.buf, mb.len - 8), -EINVAL, "available");
	expect_fail(parse_bytes(mb.buf, mb.len - 1), -EINVAL, "available");
}

static void test_total_size_huge(void **state)
{
	(void)state;
	build_bios();
	mb_set_total(MB2_INFO_MAX_SIZE + 8);
	expect_fail(parse(), -EINVAL, "MAX_SIZE");
	mb_set_total(0xfffffff8);
	expect_fail(parse(), -EINVAL, "MAX_SIZE");
}

static void test_total_size_unaligned(void **state)
{
	(void)state;
	build_bios();
	mb_set_total(mb.len - 4);
	expect_fail(parse(), -EINVAL, "multiple of 8");
}

static void test_tag_too_small(void **state)
{
	size_t off;

	(void)state;
	mb_init();
	mb_string(MB2_TAG_CMDLINE, "a");
	off = mb_tag(0x99, NULL, 0);
	mb_finish();
	put32(mb.buf + off + 4, 4);
	expect_fail(parse(), -EINVAL, "shorter than its 8-byte header");
	put32(mb.buf + off + 4, 0);
	expect_fail(parse(), -EINVAL, "shorter than its 8-byte header");
}

static void test_tag_past_total(void **state)
{
	size_t off;

	(void)state;
	mb_init();
	off = mb_string(MB2_TAG_CMDLINE, "abc");
	mb_finish();
	put32(mb.buf + off + 4, mb.len - off + 1);
	expect_fail(parse(), -EINVAL, "past total_size");
	put32(mb.buf + off + 4, 0xffffffff);
	expect_fail(parse(), -EINVAL, "past total_size");
}

static void test_no_end_tag(void **state)
{
	(void)state;
	mb_init();
	mb_string(MB2_TAG_CMDLINE, "abc");
	mb_set_total(mb.len);
	expect_fail(parse(), -EINVAL, "end tag");

	/* The end tag lies beyond total_size. */
	build_bios();
	mb_set_total(mb.len - 8);
	expect_fail(parse(), -EINVAL, "end tag");
}

/* --- malformed tags ----------------------------------------------------- */

static void test_strings_unterminated(void **state)
{
	(void)state;
	/* The padding after the tag is zero: it must not count. */
	mb_init();
	mb_tag(MB2_TAG_CMDLINE, "abc", 3);
	mb_finish();
	expect_fail(parse(), -EINVAL, "command line");

	mb_init();
	mb_tag(MB2_TAG_CMDLINE, NULL, 0);
	mb_finish();
	expect_fail(parse(), -EINVAL, "command line");

	mb_init();
	mb_tag(MB2_TAG_LOADER_NAME, "GRUB", 4);
	mb_finish();
	expect_fail(parse(), -EINVAL, "loader name");
}

static void test_module_malformed(void **state)
{
	uint8_t p[12] = { 0 };
	size_t off;

	(void)state;
	mb_init();
	off = mb_module(0x200000, 0x201000, "abc");
	mb_finish();
	put32(mb.buf + off + 4, 8 + 8 + 3);	/* drop the NUL */
	expect_fail(parse(), -EINVAL, "module string");

	mb_init();
	mb_tag(MB2_TAG_MODULE, p, 8);		/* no string at all */
	mb_finish();
	expect_fail(parse(), -EINVAL, "module string");

	mb_init();
	mb_tag(MB2_TAG_MODULE, p, 6);
	mb_finish();
	expect_fail(parse(), -EINVAL, "module tag");

	mb_init();
	mb_module(0x201000, 0x200000, "backwards");
	mb_finish();
	expect_fail(parse(), -EINVAL, "starts after its end");

	/* An empty module is fine. */
	mb_init();
	mb_module(0x200000, 0x200000, "");
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.nr_modules, 1);
	assert_string_equal(bi.modules[0].cmdline, "");
}

static void test_too_many_modules(void **state)
{
	int i;

	(void)state;
	mb_init();
	for (i = 0; i < BOOT_MODULES_MAX; i++)
		mb_module(0x200000 + i * 0x1000, 0x201000 + i * 0x1000, "m");
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.nr_modules, BOOT_MODULES_MAX);

	mb_init();
	for (i = 0; i <= BOOT_MODULES_MAX; i++)
		mb_module(0x200000 + i * 0x1000, 0x201000 + i * 0x1000, "m");
	mb_finish();
	expect_fail(parse(), -E2BIG, "modules");
}

static void test_mmap_entry_size(void **state)
{
	size_t off;

	(void)state;
	mb_init();
	mb_mmap(bios_mmap, 2, 16);
	mb_finish();
	expect_fail(parse(), -EINVAL, "entry size");

	mb_init();
	mb_mmap(bios_mmap, 2, 28);
	mb_finish();
	expect_fail(parse(), -EINVAL, "entry size");

	mb_init();
	mb_mmap(bios_mmap, 2, 0);
	mb_finish();
	expect_fail(parse(), -EINVAL, "entry size");

	/* A partial entry at the end. */
	mb_init();
	off = mb_mmap(bios_mmap, 2, 24);
	mb_finish();
	put32(mb.buf + off + 4, 16 + 24 + 16);
	expect_fail(parse(), -EINVAL, "whole number");

	/* No room for entry_size and entry_version. */
	mb_init();
	off = mb_mmap(bios_mmap, 0, 24);
	mb_finish();
	put32(mb.buf + off + 4, 12);
	expect_fail(parse(), -EINVAL, "memory map tag");
}

static void test_mmap_wraps(void **state)
{
	static const uint64_t e[][3] = {
		{ 0xfffffffffffff000, 0x1000, MB2_MEMORY_RESERVED },
	};
	static const uint64_t ok[][3] = {
		{ 0xfffffffffffff000, 0xfff, MB2_MEMORY_RESERVED },
	};

	(void)state;
	mb_init();
	mb_mmap(e, 1, 24);
	mb_finish();
	expect_fail(parse(), -EINVAL, "wraps");

	mb_init();
	mb_mmap(ok, 1, 24);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.nr_mmap, 1);
}

static void test_mmap_too_many(void **state)
{
	static uint64_t e[BOOT_MMAP_MAX + 2][3];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(e); i++) {
		e[i][0] = i * 0x1000;
		e[i][1] = 0x1000;
		e[i][2] = MB2_MEMORY_AVAILABLE;
	}

	/* BOOT_MMAP_MAX entries plus a zero-length one still fit. */
	e[7][1] = 0;
	mb_init();
	mb_mmap(e, BOOT_MMAP_MAX + 1, 24);
	mb_finish();
	assert_int_equal(parse(), 0);
	assert_int_equal(bi.nr_mmap, BOOT_MMAP_MAX);
	assert_int_equal(bi.mmap[7].addr, 8 * 0x1000);

	e[7][1] = 0x1000;
	mb_init();
	mb_mmap(e, BOOT_MMAP_MAX + 1, 24);
	mb_finish();
	expect_fail(parse(), -E2BIG, "memory map entries");

	/* Entries split over two tags count together. */
	mb_init();
	mb_mmap(e, BOOT_MMAP_MAX / 2 + 1, 24);
	mb_mmap(e, BOOT_MMAP_MAX / 2, 24);
	mb_finish();
	expect_fail(parse(), -E2BIG, "memory map entries");
}

static void test_fb_zero_geometry(void **state)
{
	(void)state;
	mb_init();
	mb_fb_rgb(0x80000000, 5120, 0, 800, 32);
	mb_finish();
	expect_fail(parse(), -EINVAL, "zero width");

	mb_init();
	mb_fb_rgb(0x80000000, 5120, 1280, 0, 32);
	mb_finish();
	expect_fail(parse(), -EINVAL, "zero width");

	mb_init();
	mb_fb_ega(0, 80, 25, 16);
	mb_finish();
	expect_fail(parse(), -EINVAL, "zero width");
}

static void test_fb_bpp(void **state)
{
	static const uint8_t bad[] = { 0, 1, 4, 7, 12, 17, 23, 31, 33, 64, 255 };
	size_t i;
	size_t off;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		mb_init();
		mb_fb_rgb(0x80000000, 1280 * 8, 1280, 800, bad[i]);
		mb_finish();
		expect_fail(parse(), -EINVAL, "bits per pixel");

		mb_init();
		off = mb_fb_indexed(16, 16);
		mb_finish();
		mb.buf[off + 8 + 20] = bad[i];
		expect_fail(parse(), -EINVAL, "bits per pixel");
	}

	mb_init();
	mb_fb_ega(160, 80, 25, 8);
	mb_finish();
	expect_fail(parse(), -EINVAL, "16 bits");
}

static void test_fb_pitch(void **state)
{
	(void)state;
	mb_init();
	mb_fb_rgb(0x80000000, 1280 * 4 - 1, 1280, 800, 32);
	mb_finish();
	expect_fail(parse(), -EINVAL, "pitch");

	mb_init();
	mb_fb_rgb(0x80000000, 1280 * 2 - 1, 1280, 800, 15);
	mb_finish();
	expect_fail(parse(), -EINVAL, "pitch");

	mb_init();
	mb_fb_ega(80, 80, 25, 16);
	mb_finish();
	expect_fail(parse(), -EINVAL, "pitch");

	/* width * bytes per pixel overflows 32 bits: still caught. */
	mb_init();
	mb_fb_rgb(0x80000000, 0x80000000, 0x40000000, 1, 32);
	mb_finish();
	expect_fail(parse(), -EINVAL, "pitch");
}

static void test_fb_wraps(void **state)
{
	(void)state;
	mb_init();
	mb_fb_rgb(0xfffffffffff00000, 5120, 1280, 800, 32);
	mb_finish();
	expect_fail(parse(), -EINVAL, "wraps");

	mb_init();
	mb_fb_rgb(UINT64_MAX - 5120ull * 800 + 1, 5120, 1280, 800, 32);
	mb_finish();
	expect_fail(parse(), -EINVAL, "wraps");

	mb_init();
	mb_fb_rgb(0x100, 0xffffffff, 1, 0xffffffff, 32);
	mb_finish();
	assert_int_equal(parse(), 0);
}

static void test_fb_malformed_tag(void **state)
{
	uint8_t p[24];
	size_t off;

	(void)state;
	mb_init();
	fb_common(p, 0x80000000, 5120, 1280, 800, 32, 3);
	mb_tag(MB2_TAG_FRAMEBUFFER, p, sizeof(p));
	mb_finish();
	expect_fail(parse(), -EINVAL, "type");

	mb_init();
	mb_tag(MB2_TAG_FRAMEBUFFER, p, 20);
	mb_finish();
	expect_fail(parse(), -EINVAL, "framebuffer tag");

	/* RGB without its colour layout. */
	mb_init();
	off = mb_fb_rgb(0x80000000, 5120, 1280, 800, 32);
	mb_finish();
	put32(mb.buf + off + 4, 8 + 24 + 5);
	expect_fail(parse(), -EINVAL, "colour layout");

	/* A colour field outside the 16-bit pixel: red at bits 12..16. */
	mb_init();
	off = mb_fb_rgb(0x80000000, 2560, 1280, 800, 16);
	mb_finish();
	mb.buf[off + 8 + 24] = 12;
	expect_fail(parse(), -EINVAL, "colour field");

	/* A palette longer than its tag, or no palette count at all. */
	mb_init();
	mb_fb_indexed(256, 255);
	mb_finish();
	expect_fail(parse(), -EINVAL, "palette");

	mb_init();
	off = mb_fb_indexed(0, 0);
	mb_finish();
	put32(mb.buf + off + 4, 8 + 24 + 1);
	expect_fail(parse(), -EINVAL, "palette");
}

static void test_rsdp_bad_signature(void **state)
{
	size_t off;

	(void)state;
	mb_init();
	off = mb_rsdp(MB2_TAG_ACPI_OLD, 0, "BOCHS ");
	mb_finish();
	mb.buf[off + 8 + 7] = 'X';
	mb.buf[off + 8 + 8] -= 'X' - ' ';	/* keep the checksum right */
	expect_fail(parse(), -EINVAL, "signature");

	mb_init();
	off = mb_rsdp(MB2_TAG_ACPI_NEW, 2, "BOCHS ");
	mb_finish();
	memcpy(mb.buf + off + 8, "RSDPTR  ", 8);
	expect_fail(parse(), -EINVAL, "signature");
}

static void test_rsdp_bad_checksum(void **state)
{
	size_t off;

	(void)state;
	mb_init();
	off = mb_rsdp(MB2_TAG_ACPI_OLD, 0, "BOCHS ");
	mb_finish();
	mb.buf[off + 8 + 9] ^= 1;	/* OEM id */
	expect_fail(parse(), -EINVAL, "checksum");

	/* The 2.0 part is covered by the extended checksum only. */
	mb_init();
	off = mb_rsdp(MB2_TAG_ACPI_NEW, 2, "BOCHS ");
	mb_finish();
	mb.buf[off + 8 + 24] ^= 1;	/* XSDT address */
	expect_fail(parse(), -EINVAL, "extended checksum");

	/* A bad 1.0 tag fails even when a good 2.0 one came first. */
	mb_init();
	mb_rsdp(MB2_TAG_ACPI_NEW, 2, "BOCHS ");
	off = mb_rsdp(MB2_TAG_ACPI_OLD, 0, "BOCHS ");
	mb_finish();
	mb.buf[off + 8 + 8] ^= 1;
	expect_fail(parse(), -EINVAL, "checksum");
}

static void test_rsdp_v2_malformed(void **state)
{
	uint8_t r[36];
	size_t off;

	(void)state;
	/* A 1.0 RSDP in the new tag. */
	mb_init();
	mb_tag(MB2_TAG_ACPI_NEW, r, make_rsdp(r, 0, "BOCHS "));
	mb_finish();
	expect_fail(parse(), -EINVAL, "too short");

	mb_init();
	make_rsdp(r, 2, "BOCHS ");
	r[15] = 1;
	r[8] += 1;	/* keep the 1.0 checksum right */
	r[32] = 0;
	r[32] = -sum(r, 36);
	mb_tag(MB2_TAG_ACPI_NEW, r, sizeof(r));
	mb_finish();
	expect_fail(parse(), -EINVAL, "revision");

	/* length larger than the tag, or smaller than 36. */
	mb_init();
	off = mb_rsdp(MB2_TAG_ACPI_NEW, 2, "BOCHS ");
	mb_finish();
	put32(mb.buf + off + 8 + 20, 40);
	expect_fail(parse(), -EINVAL, "length");
	put32(mb.buf + off + 8 + 20, 20);
	expect_fail(parse(), -EINVAL, "length");

	mb_init();
	mb_tag(MB2_TAG_ACPI_OLD, "RSD PTR ", 8);
	mb_finish();
	expect_fail(parse(), -EINVAL, "too short");
}

static void test_efi_malformed(void **state)
{
	uint32_t st = 0x1000;

	(void)state;
	mb_init();
	mb_tag(MB2_TAG_EFI64, &st, sizeof(st));
	mb_finish();
	expect_fail(parse(), -EINVAL, "EFI");

	mb_init();
	mb_tag(MB2_TAG_EFI32, &st, 2);
	mb_finish();
	expect_fail(parse(), -EINVAL, "EFI");
}

/* --- fuzzing ------------------------------------------------------------- */

static uint32_t rng_state;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void check_any(int rc)
{
	if (rc == 0)
		check_parsed();
	else
		check_failed(rc);
}

/* Truncate, resize and corrupt a valid buffer: never a crash, never a lie. */
static void fuzz(void)
{
	uint8_t orig[MB_MAX];
	size_t len = mb.len, off, n;
	int i;

	memcpy(orig, mb.buf, len);
	assert_int_equal(parse(), 0);

	for (n = 0; n < len; n++)
		check_failed(parse_bytes(orig, n));

	for (n = 0; n <= len + 8; n++) {
		memcpy(mb.buf, orig, len);
		mb_set_total(n);
		check_any(parse_bytes(mb.buf, len));
	}

	for (off = 0; off < len; off++) {
		static const uint8_t special[] = { 0x00, 0x01, 0x07, 0x08, 0x7f, 0x80, 0xff };

		for (i = 0; i < 24; i++) {
			memcpy(mb.buf, orig, len);
			if (i < (int)sizeof(special))
				mb.buf[off] = special[i];
			else
				mb.buf[off] = rng();
			check_any(parse_bytes(mb.buf, len));
		}
	}

	for (i = 0; i < 20000; i++) {
		int k, nr = 1 + rng() % 4;

		memcpy(mb.buf, orig, len);
		for (k = 0; k < nr; k++)
			mb.buf[rng() % len] = rng();
		check_any(parse_bytes(mb.buf, len));
	}
}

static void test_fuzz_bios(void **state)
{
	(void)state;
	rng_state = 0x2545f491;
	build_bios();
	fuzz();
}

static void test_fuzz_uefi(void **state)
{
	(void)state;
	rng_state = 0x9e3779b9;
	build_uefi();
	fuzz();
}

static int teardown(void **state)
{
	(void)state;
	free(parsed);
	parsed = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bios),
		cmocka_unit_test(test_uefi),
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_unknown_tags),
		cmocka_unit_test(test_acpi_new_before_old),
		cmocka_unit_test(test_efi32),
		cmocka_unit_test(test_mmap_large_entries),
		cmocka_unit_test(test_framebuffer_formats),
		cmocka_unit_test(test_memory_type_names),
		cmocka_unit_test(test_null_info),
		cmocka_unit_test(test_short_avail),
		cmocka_unit_test(test_total_size_small),
		cmocka_unit_test(test_total_size_beyond_avail),
		cmocka_unit_test(test_total_size_huge),
		cmocka_unit_test(test_total_size_unaligned),
		cmocka_unit_test(test_tag_too_small),
		cmocka_unit_test(test_tag_past_total),
		cmocka_unit_test(test_no_end_tag),
		cmocka_unit_test(test_strings_unterminated),
		cmocka_unit_test(test_module_malformed),
		cmocka_unit_test(test_too_many_modules),
		cmocka_unit_test(test_mmap_entry_size),
		cmocka_unit_test(test_mmap_wraps),
		cmocka_unit_test(test_mmap_too_many),
		cmocka_unit_test(test_fb_zero_geometry),
		cmocka_unit_test(test_fb_bpp),
		cmocka_unit_test(test_fb_pitch),
		cmocka_unit_test(test_fb_wraps),
		cmocka_unit_test(test_fb_malformed_tag),
		cmocka_unit_test(test_rsdp_bad_signature),
		cmocka_unit_test(test_rsdp_bad_checksum),
		cmocka_unit_test(test_rsdp_v2_malformed),
		cmocka_unit_test(test_efi_malformed),
		cmocka_unit_test(test_fuzz_bios),
		cmocka_unit_test(test_fuzz_uefi),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
