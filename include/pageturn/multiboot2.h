/*
 * The multiboot2 boot information GRUB hands the kernel, parsed into a
 * struct boot_info.
 *
 * mb2_parse() (kernel/multiboot2.c) is pure and unit-tested on the host
 * against crafted buffers.  It trusts nothing: every tag must lie inside
 * the total size, be 8-byte aligned and at least 8 bytes long, the list
 * must end with an end tag, strings must be NUL-terminated inside their
 * tag, memory-map entries must fit, modules must have start <= end, a
 * framebuffer must have a sane geometry, and an ACPI RSDP must pass its
 * checksum.  Unknown tags are skipped, as the specification asks.
 */
#ifndef PAGETURN_MULTIBOOT2_H
#define PAGETURN_MULTIBOOT2_H

#include <pageturn/types.h>

#define MB2_BOOTLOADER_MAGIC 0x36d76289u

/* Tag types (multiboot2 specification, section 3.6). */
#define MB2_TAG_END              0
#define MB2_TAG_CMDLINE          1
#define MB2_TAG_LOADER_NAME      2
#define MB2_TAG_MODULE           3
#define MB2_TAG_BASIC_MEMINFO    4
#define MB2_TAG_BOOTDEV          5
#define MB2_TAG_MMAP             6
#define MB2_TAG_VBE              7
#define MB2_TAG_FRAMEBUFFER      8
#define MB2_TAG_ELF_SECTIONS     9
#define MB2_TAG_APM             10
#define MB2_TAG_EFI32           11
#define MB2_TAG_EFI64           12
#define MB2_TAG_SMBIOS          13
#define MB2_TAG_ACPI_OLD        14
#define MB2_TAG_ACPI_NEW        15
#define MB2_TAG_NETWORK         16
#define MB2_TAG_EFI_MMAP        17
#define MB2_TAG_EFI_BS          18
#define MB2_TAG_EFI32_IH        19
#define MB2_TAG_EFI64_IH        20
#define MB2_TAG_LOAD_BASE_ADDR  21

/* Memory map entry types.  Anything else is reserved. */
#define MB2_MEMORY_AVAILABLE        1
#define MB2_MEMORY_RESERVED         2
#define MB2_MEMORY_ACPI_RECLAIMABLE 3
#define MB2_MEMORY_NVS              4
#define MB2_MEMORY_BADRAM           5

/* Framebuffer types. */
#define MB2_FB_INDEXED  0
#define MB2_FB_RGB      1
#define MB2_FB_EGA_TEXT 2

#define BOOT_MMAP_MAX     512
#define BOOT_MODULES_MAX  16
#define MB2_INFO_MAX_SIZE (1u << 20)	/* a larger total_size is malformed */

struct boot_mmap_entry {
	uint64_t addr;
	uint64_t len;
	uint32_t type;
};

struct boot_module {
	uint64_t start;		/* physical, inclusive */
	uint64_t end;		/* physical, exclusive */
	const char *cmdline;	/* points into the boot info */
};

struct boot_framebuffer {
	uint64_t addr;		/* physical */
	uint32_t pitch;		/* bytes per line (for EGA text: bytes per row of cells) */
	uint32_t width;		/* pixels, or characters for EGA text */
	uint32_t height;
	uint8_t bpp;
	uint8_t type;		/* MB2_FB_* */
	uint8_t red_pos, red_size;
	uint8_t green_pos, green_size;
	uint8_t blue_pos, blue_size;
};

struct boot_info {
	uint32_t total_size;
	const char *cmdline;		/* "" when absent */
	const char *loader_name;	/* "" when absent */

	struct boot_mmap_entry mmap[BOOT_MMAP_MAX];
	unsigned int nr_mmap;

	struct boot_module modules[BOOT_MODULES_MAX];
	unsigned int nr_modules;

	bool has_framebuffer;
	struct boot_framebuffer fb;

	const void *rsdp;		/* the RSDP copy inside the boot info, or NULL */
	unsigned int rsdp_revision;	/* 0 = ACPI 1.0, 2 = ACPI 2.0+ */
	char rsdp_oem[7];

	bool efi;			/* booted by UEFI firmware (an EFI system table tag) */
	uint64_t efi_system_table;

	const char *error;		/* why mb2_parse() failed */
};

/*
 * Parse the boot information at info (the first byte of the fixed header:
 * total_size, reserved) into bi.  At most avail bytes may be read.
 * Returns 0, or -EINVAL with bi->error saying what is wrong, or -E2BIG when
 * there are more memory-map entries or modules than the kernel keeps.
 */
int mb2_parse(const void *info, size_t avail, struct boot_info *bi);

/* The name of a memory-map type ("available", "reserved", ...). */
const char *mb2_memory_type_name(uint32_t type);

#endif
