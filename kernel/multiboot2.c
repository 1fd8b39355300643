/*
 * Parsing the multiboot2 boot information (see pageturn/multiboot2.h and
 * the multiboot2 specification, section 3.6).
 *
 * The information starts with a fixed part (u32 total_size, u32 reserved)
 * followed by tags, each starting 8-byte aligned with a header (u16 type,
 * u16 flags, u32 size) and ending with an end tag (type 0, size 8).  A
 * tag's size counts its header but not the padding to the next tag.
 *
 * mb2_parse() walks the tags once.  Invariants of the walk:
 *   - 16 <= total_size <= avail and total_size is a multiple of 8, so the
 *     walk never reads past avail;
 *   - off, the offset of the current tag, is a multiple of 8 and at most
 *     total_size; the tag header is read only when 8 bytes remain;
 *   - a tag is handled only once 8 <= size <= total_size - off, so its
 *     payload lies inside the information; each handler then checks that
 *     the fields it reads fit in size;
 *   - fields are copied out with memcpy into local structs: the buffer
 *     carries no alignment guarantee for them.
 *
 * On success every pointer in bi points inside info, strings are
 * NUL-terminated inside their tag, memory-map entries have a non-zero
 * length and addr + len does not wrap, modules have start <= end, a
 * framebuffer has a known type, a non-zero geometry, a pitch that holds a
 * line and an addr + pitch * height that does not wrap, and an RSDP has
 * passed its checksums.  When both ACPI tags are present the 2.0 one
 * wins; when both EFI system table tags are, the 64-bit one does.
 * On failure bi is reset (no entries, "" strings, NULL pointers) except
 * for bi->error.
 */
#include <pageturn/multiboot2.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

struct mb2_fixed {
	uint32_t total_size;
	uint32_t reserved;
};

struct mb2_tag {
	uint16_t type;
	uint16_t flags;
	uint32_t size;
};

struct mb2_module {
	uint32_t mod_start;
	uint32_t mod_end;
	/* the module's string follows */
};

struct mb2_mmap {
	uint32_t entry_size;
	uint32_t entry_version;
	/* entries of entry_size bytes follow */
};

struct mb2_mmap_entry {
	uint64_t base;
	uint64_t length;
	uint32_t type;
	uint32_t reserved;
};

/*
 * The framebuffer tag's fixed part.  The specification draws the reserved
 * field as one byte, but GRUB's struct (and so every loader) makes it two:
 * the colour information starts 32 bytes into the tag.
 */
struct mb2_fb {
	uint64_t addr;
	uint32_t pitch;
	uint32_t width;
	uint32_t height;
	uint8_t bpp;
	uint8_t type;
	uint16_t reserved;
};

/* Indexed colour: a u16 count (GRUB's width) then 3-byte palette entries. */
#define MB2_FB_PALETTE_COLOR_SIZE 3

struct mb2_fb_rgb {
	uint8_t red_pos, red_size;
	uint8_t green_pos, green_size;
	uint8_t blue_pos, blue_size;
};

/* ACPI 1.0 RSDP; ACPI 2.0 appends length, XSDT address, extended checksum. */
struct acpi_rsdp {
	char signature[8];
	uint8_t checksum;
	char oem_id[6];
	uint8_t revision;
	uint32_t rsdt_addr;
} __packed;

#define ACPI_RSDP_V2_LENGTH_OFF 20
#define ACPI_RSDP_V2_SIZE       36

_Static_assert(sizeof(struct mb2_tag) == 8, "mb2_tag layout");
_Static_assert(sizeof(struct mb2_mmap_entry) == 24, "mb2_mmap_entry layout");
_Static_assert(sizeof(struct mb2_fb) == 24, "mb2_fb layout");
_Static_assert(sizeof(struct acpi_rsdp) == 20, "acpi_rsdp layout");

#define TAG_HEADER_SIZE sizeof(struct mb2_tag)

static void reset(struct boot_info *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->cmdline = "";
	bi->loader_name = "";
}

static int fail(struct boot_info *bi, int err, const char *why)
{
	bi->error = why;
	return err;
}

/* s if one of its first len bytes is a NUL, else NULL. */
static const char *string_in(const uint8_t *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!s[i])
			return (const char *)s;
	return NULL;
}

/*
 * The parse_* helpers handle one tag each: tag points at its header and
 * size, its size, is at least 8 and keeps the tag inside the information.
 * Each returns 0, or a negative errno after setting bi->error.
 */
static int parse_module(struct boot_info *bi, const uint8_t *tag, uint32_t size)
{
	struct mb2_module m;
	struct boot_module *bm;
	const char *str;

	if (size < TAG_HEADER_SIZE + sizeof(m))
		return fail(bi, -EINVAL, "module tag is too short");
	memcpy(&m, tag + TAG_HEADER_SIZE, sizeof(m));
	str = string_in(tag + TAG_HEADER_SIZE + sizeof(m),
			size - TAG_HEADER_SIZE - sizeof(m));
	if (!str)
		return fail(bi, -EINVAL, "module string is not NUL-terminated inside its tag");
	if (m.mod_start > m.mod_end)
		return fail(bi, -EINVAL, "module starts after its end");
	if (bi->nr_modules == BOOT_MODULES_MAX)
		return fail(bi, -E2BIG, "more modules than BOOT_MODULES_MAX");
	bm = &bi->modules[bi->nr_modules++];
	bm->start = m.mod_start;
	bm->end = m.mod_end;
	bm->cmdline = str;
	return 0;
}

static int parse_mmap(struct boot_info *bi, const uint8_t *tag, uint32_t size)
{
	struct mb2_mmap mm;
	uint32_t off;

	if (size < TAG_HEADER_SIZE + sizeof(mm))
		return fail(bi, -EINVAL, "memory map tag is too short");
	memcpy(&mm, tag + TAG_HEADER_SIZE, sizeof(mm));
	if (mm.entry_size < sizeof(struct mb2_mmap_entry) || mm.entry_size % 8)
		return fail(bi, -EINVAL, "memory map entry size is below 24 or not a multiple of 8");
	if ((size - TAG_HEADER_SIZE - sizeof(mm)) % mm.entry_size)
		return fail(bi, -EINVAL, "memory map tag does not hold a whole number of entries");

	for (off = TAG_HEADER_SIZE + sizeof(mm); off < size; off += mm.entry_size) {
		struct mb2_mmap_entry e;
		struct boot_mmap_entry *be;

		memcpy(&e, tag + off, sizeof(e));
		if (!e.length)
			continue;
		if (e.length > UINT64_MAX - e.base)
			return fail(bi, -EINVAL, "memory map entry wraps past the end of the address space");
		if (bi->nr_mmap == BOOT_MMAP_MAX)
			return fail(bi, -E2BIG, "more memory map entries than BOOT_MMAP_MAX");
		be = &bi->mmap[bi->nr_mmap++];
		be->addr = e.base;
		be->len = e.length;
		be->type = e.type;
	}
	return 0;
}

static bool color_field_fits(uint8_t pos, uint8_t size, uint8_t bpp)
{
	return pos + size <= bpp;
}

static int parse_framebuffer(struct boot_info *bi, const uint8_t *tag, uint32_t size)
{
	const uint32_t color_off = TAG_HEADER_SIZE + sizeof(struct mb2_fb);
	struct boot_framebuffer *bf = &bi->fb;
	struct mb2_fb fb;
	struct mb2_fb_rgb rgb;
	uint16_t nr_colors;
	uint64_t bytes;

	if (size < color_off)
		return fail(bi, -EINVAL, "framebuffer tag is too short");
	memcpy(&fb, tag + TAG_HEADER_SIZE, sizeof(fb));
	if (!fb.width || !fb.height || !fb.pitch)
		return fail(bi, -EINVAL, "framebuffer has a zero width, height or pitch");

	memset(bf, 0, sizeof(*bf));
	switch (fb.type) {
	case MB2_FB_INDEXED:
	case MB2_FB_RGB:
		if (fb.bpp != 8 && fb.bpp != 15 && fb.bpp != 16 && fb.bpp != 24 && fb.bpp != 32)
			return fail(bi, -EINVAL, "framebuffer bits per pixel is not 8, 15, 16, 24 or 32");
		break;
	case MB2_FB_EGA_TEXT:
		if (fb.bpp != 16)
			return fail(bi, -EINVAL, "EGA text framebuffer does not have 16 bits per character");
		break;
	default:
		return fail(bi, -EINVAL, "framebuffer type is unknown");
	}

	if (fb.type == MB2_FB_INDEXED) {
		if (size < color_off + sizeof(nr_colors))
			return fail(bi, -EINVAL, "indexed framebuffer tag has no palette");
		memcpy(&nr_colors, tag + color_off, sizeof(nr_colors));
		if ((size - color_off - sizeof(nr_colors)) / MB2_FB_PALETTE_COLOR_SIZE < nr_colors)
			return fail(bi, -EINVAL, "framebuffer palette runs past its tag");
	} else if (fb.type == MB2_FB_RGB) {
		if (size < color_off + sizeof(rgb))
			return fail(bi, -EINVAL, "RGB framebuffer tag has no colour layout");
		memcpy(&rgb, tag + color_off, sizeof(rgb));
		if (!color_field_fits(rgb.red_pos, rgb.red_size, fb.bpp) ||
		    !color_field_fits(rgb.green_pos, rgb.green_size, fb.bpp) ||
		    !color_field_fits(rgb.blue_pos, rgb.blue_size, fb.bpp))
			return fail(bi, -EINVAL, "framebuffer colour field lies outside the pixel");
		bf->red_pos = rgb.red_pos;
		bf->red_size = rgb.red_size;
		bf->green_pos = rgb.green_pos;
		bf->green_size = rgb.green_size;
		bf->blue_pos = rgb.blue_pos;
		bf->blue_size = rgb.blue_size;
	}

	if ((uint64_t)fb.width * ((fb.bpp + 7) / 8) > fb.pitch)
		return fail(bi, -EINVAL, "framebuffer pitch is smaller than a line");
	bytes = (uint64_t)fb.pitch * fb.height;
	if (bytes > UINT64_MAX - fb.addr)
		return fail(bi, -EINVAL, "framebuffer wraps past the end of the address space");

	bf->addr = fb.addr;
	bf->pitch = fb.pitch;
	bf->width = fb.width;
	bf->height = fb.height;
	bf->bpp = fb.bpp;
	bf->type = fb.type;
	bi->has_framebuffer = true;
	return 0;
}

static uint8_t byte_sum(const uint8_t *p, size_t len)
{
	uint8_t sum = 0;

	while (len--)
		sum += *p++;
	return sum;
}

/* An ACPI old (v2 false) or new (v2 true) tag: a copy of the RSDP. */
static int parse_rsdp(struct boot_info *bi, const uint8_t *tag, uint32_t size, bool v2)
{
	const uint8_t *p = tag + TAG_HEADER_SIZE;
	uint32_t len = size - TAG_HEADER_SIZE;
	struct acpi_rsdp r;
	uint32_t length;

	if (len < sizeof(r))
		return fail(bi, -EINVAL, "ACPI RSDP tag is too short");
	memcpy(&r, p, sizeof(r));
	if (memcmp(r.signature, "RSD PTR ", sizeof(r.signature)))
		return fail(bi, -EINVAL, "ACPI RSDP signature is not \"RSD PTR \"");
	if (byte_sum(p, sizeof(r)))
		return fail(bi, -EINVAL, "ACPI RSDP checksum is wrong");
	if (v2) {
		if (len < ACPI_RSDP_V2_SIZE)
			return fail(bi, -EINVAL, "ACPI 2.0 RSDP tag is too short");
		if (r.revision < 2)
			return fail(bi, -EINVAL, "ACPI 2.0 RSDP has a revision below 2");
		memcpy(&length, p + ACPI_RSDP_V2_LENGTH_OFF, sizeof(length));
		if (length < ACPI_RSDP_V2_SIZE || length > len)
			return fail(bi, -EINVAL, "ACPI 2.0 RSDP length does not fit its tag");
		if (byte_sum(p, length))
			return fail(bi, -EINVAL, "ACPI 2.0 RSDP extended checksum is wrong");
	} else if (bi->rsdp && bi->rsdp_revision == 2) {
		return 0;
	}
	bi->rsdp = p;
	bi->rsdp_revision = v2 ? 2 : 0;
	memcpy(bi->rsdp_oem, r.oem_id, sizeof(r.oem_id));
	bi->rsdp_oem[sizeof(r.oem_id)] = '\0';
	return 0;
}

static int parse_efi(struct boot_info *bi, const uint8_t *tag, uint32_t size, bool is64)
{
	uint64_t st64;
	uint32_t st32;

	if (is64) {
		if (size < TAG_HEADER_SIZE + sizeof(st64))
			return fail(bi, -EINVAL, "EFI 64-bit system table tag is too short");
		memcpy(&st64, tag + TAG_HEADER_SIZE, sizeof(st64));
		bi->efi_system_table = st64;
	} else {
		if (size < TAG_HEADER_SIZE + sizeof(st32))
			return fail(bi, -EINVAL, "EFI 32-bit system table tag is too short");
		memcpy(&st32, tag + TAG_HEADER_SIZE, sizeof(st32));
		if (bi->efi)
			return 0;
		bi->efi_system_table = st32;
	}
	bi->efi = true;
	return 0;
}

static int parse_tag(struct boot_info *bi, const uint8_t *tag, const struct mb2_tag *t)
{
	const uint8_t *payload = tag + TAG_HEADER_SIZE;
	uint32_t len = t->size - TAG_HEADER_SIZE;

	switch (t->type) {
	case MB2_TAG_CMDLINE:
		bi->cmdline = string_in(payload, len);
		if (!bi->cmdline)
			return fail(bi, -EINVAL, "command line is not NUL-terminated inside its tag");
		return 0;
	case MB2_TAG_LOADER_NAME:
		bi->loader_name = string_in(payload, len);
		if (!bi->loader_name)
			return fail(bi, -EINVAL, "boot loader name is not NUL-terminated inside its tag");
		return 0;
	case MB2_TAG_MODULE:
		return parse_module(bi, tag, t->size);
	case MB2_TAG_MMAP:
		return parse_mmap(bi, tag, t->size);
	case MB2_TAG_FRAMEBUFFER:
		return parse_framebuffer(bi, tag, t->size);
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
		return parse_rsdp(bi, tag, t->size, t->type == MB2_TAG_ACPI_NEW);
	case MB2_TAG_EFI32:
	case MB2_TAG_EFI64:
		return parse_efi(bi, tag, t->size, t->type == MB2_TAG_EFI64);
	default:
		return 0;	/* unknown or unused: skipped, as the spec asks */
	}
}

static int walk(const uint8_t *info, size_t avail, struct boot_info *bi)
{
	struct mb2_fixed fixed;
	struct mb2_tag t;
	uint32_t off;

	if (!info)
		return fail(bi, -EINVAL, "boot information pointer is NULL");
	if (avail < sizeof(fixed))
		return fail(bi, -EINVAL, "boot information is shorter than its 8-byte header");
	memcpy(&fixed, info, sizeof(fixed));
	if (fixed.total_size < sizeof(fixed) + TAG_HEADER_SIZE)
		return fail(bi, -EINVAL, "boot information total_size is below 16");
	if (fixed.total_size > MB2_INFO_MAX_SIZE)
		return fail(bi, -EINVAL, "boot information total_size is above MB2_INFO_MAX_SIZE");
	if (fixed.total_size > avail)
		return fail(bi, -EINVAL, "boot information total_size is larger than the bytes available");
	if (fixed.total_size % 8)
		return fail(bi, -EINVAL, "boot information total_size is not a multiple of 8");

	for (off = sizeof(fixed);; off += ALIGN_UP(t.size, 8)) {
		int err;

		if (fixed.total_size - off < TAG_HEADER_SIZE)
			return fail(bi, -EINVAL, "boot information has no end tag");
		memcpy(&t, info + off, sizeof(t));
		if (t.size < TAG_HEADER_SIZE)
			return fail(bi, -EINVAL, "tag is shorter than its 8-byte header");
		if (t.size > fixed.total_size - off)
			return fail(bi, -EINVAL, "tag runs past total_size");
		if (t.type == MB2_TAG_END)
			break;
		err = parse_tag(bi, info + off, &t);
		if (err)
			return err;
	}
	bi->total_size = fixed.total_size;
	return 0;
}

/*
 * Parse the boot information at info (at most avail bytes) into bi, which
 * must not be NULL.  Returns 0, -EINVAL or -E2BIG as pageturn/multiboot2.h
 * says; on failure bi holds nothing but bi->error.
 */
int mb2_parse(const void *info, size_t avail, struct boot_info *bi)
{
	const char *why;
	int err;

	reset(bi);
	err = walk(info, avail, bi);
	if (err) {
		why = bi->error;
		reset(bi);
		bi->error = why;
	}
	return err;
}

const char *mb2_memory_type_name(uint32_t type)
{
	switch (type) {
	case MB2_MEMORY_AVAILABLE:
		return "available";
	case MB2_MEMORY_ACPI_RECLAIMABLE:
		return "ACPI reclaimable";
	case MB2_MEMORY_NVS:
		return "ACPI NVS";
	case MB2_MEMORY_BADRAM:
		return "bad RAM";
	default:
		return "reserved";
	}
}
