/*
 * Unit tests for the partition table parsers (drivers/block/partitions/:
 * core.c, msdos.c, efi.c).
 *
 * Each table is made by the real tool, sfdisk (Debian's fdisk package),
 * on an image file, which is loaded into a buffer of exactly the disk's
 * size (so AddressSanitizer sees a read past it) and read through
 * read_page as the kernel's disk.  The corrupted copies are made by
 * changing bytes of those images: header and entry-array CRCs broken,
 * entries past the end of the disk or over each other, an extended
 * chain that loops, a disk cut shorter than its table, and random
 * tables.  Whatever check_partition() accepts must lie inside the disk
 * and overlap nothing but its own extended container (check_result).
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

#include <pageturn/crc32.h>
#include <uapi/errno.h>

#include "../../drivers/block/partitions/check.h"
#include "kernel_stubs.h"

#define SFDISK		"/usr/sbin/sfdisk"
#define MIB_SECTORS	2048

static char tmpdir[64];

struct disk {
	unsigned char *data;
	uint64_t bytes;
	unsigned int reads;
};

static struct disk disk;
static struct parsed_partitions state;

static int mem_read_page(void *ctx, uint64_t pos, void *buf, unsigned int len)
{
	struct disk *d = ctx;

	assert_true(pos % PART_READ_SIZE == 0);
	assert_true(len > 0 && len <= PART_READ_SIZE && pos + len <= d->bytes);
	memcpy(buf, d->data + pos, len);
	d->reads++;
	return 0;
}

/* Run sfdisk with script on a fresh image of mib MiB and load it. */
static void make_disk(unsigned int mib, const char *script)
{
	char path[128], cmd[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/disk.img", tmpdir);
	snprintf(cmd, sizeof(cmd), "rm -f %s && truncate -s %uM %s && printf '%s' | " SFDISK " -q %s",
		 path, mib, path, script, path);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
	free(disk.data);
	disk.bytes = (uint64_t)mib << 20;
	disk.data = malloc(disk.bytes);
	assert_non_null(disk.data);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(disk.data, 1, disk.bytes, f), disk.bytes);
	fclose(f);
}

/* Cut the loaded disk to sectors (a smaller disk with the same start). */
static void shrink_disk(uint64_t sectors)
{
	unsigned char *d = malloc(sectors * SECTOR_SIZE);

	assert_non_null(d);
	memcpy(d, disk.data, sectors * SECTOR_SIZE);
	free(disk.data);
	disk.data = d;
	disk.bytes = sectors * SECTOR_SIZE;
}

/* Accepted partitions lie inside the disk and over no other but an
 * extended container. */
static void check_result(void)
{
	uint64_t cap = disk.bytes / SECTOR_SIZE;
	int p, q;

	for (p = 1; p < state.limit; p++) {
		if (!state.parts[p].size)
			continue;
		assert_true(state.parts[p].from < cap);
		assert_true(state.parts[p].size <= cap - state.parts[p].from);
		for (q = 1; q < p; q++) {
			if (!state.parts[q].size || state.parts[p].extended || state.parts[q].extended)
				continue;
			assert_false(state.parts[p].from < state.parts[q].from + state.parts[q].size &&
				     state.parts[q].from < state.parts[p].from + state.parts[p].size);
		}
	}
}

static int parse(void)
{
	int res;

	log_clear();
	disk.reads = 0;
	parsed_partitions_init(&state, "sda", disk.bytes / SECTOR_SIZE, SECTOR_SIZE,
			       mem_read_page, &disk);
	res = check_partition(&state);
	check_result();
	return res;
}

static void expect_part(int n, uint64_t from, uint64_t size)
{
	if (state.parts[n].from != from || state.parts[n].size != size)
		fail_msg("sda%d is %lu+%lu, not %lu+%lu\n%s", n, (unsigned long)state.parts[n].from,
			 (unsigned long)state.parts[n].size, (unsigned long)from,
			 (unsigned long)size, log_buf);
}

static int count_parts(void)
{
	int p, n = 0;

	for (p = 1; p < state.limit; p++)
		n += state.parts[p].size != 0;
	return n;
}

static void expect_log(const char *text)
{
	if (!log_count(text))
		fail_msg("the log does not say \"%s\":\n%s", text, log_buf);
}

static uint32_t get32(uint64_t off)
{
	uint32_t v;

	memcpy(&v, disk.data + off, 4);
	return v;
}

static void put32(uint64_t off, uint32_t v)
{
	memcpy(disk.data + off, &v, 4);
}

static uint64_t get64(uint64_t off)
{
	uint64_t v;

	memcpy(&v, disk.data + off, 8);
	return v;
}

static void put64(uint64_t off, uint64_t v)
{
	memcpy(disk.data + off, &v, 8);
}

static const char mbr_script[] =
	"label: dos\\n"
	"start=2048, size=20480, type=83\\n"
	"start=22528, size=10240, type=82\\n"
	"start=32768, size=65536, type=5\\n"
	"start=34816, size=8192, type=83\\n"
	"start=45056, size=8192, type=82\\n";

static const char gpt_script[] =
	"label: gpt\\n"
	"start=2048, size=20480, type=L\\n"
	"start=22528, size=10240, type=S\\n"
	"start=40960, size=8192, type=L\\n";

static void expect_mbr_layout(void)
{
	expect_part(1, 2048, 20480);
	expect_part(2, 22528, 10240);
	expect_part(3, 32768, 2);	/* the container: Linux's two sectors */
	assert_true(state.parts[3].extended);
	expect_part(5, 34816, 8192);
	expect_part(6, 45056, 8192);
	assert_int_equal(count_parts(), 5);
}

static void expect_gpt_layout(void)
{
	expect_part(1, 2048, 20480);
	expect_part(2, 22528, 10240);
	expect_part(3, 40960, 8192);
	assert_int_equal(count_parts(), 3);
}

static void mbr_primary_and_logical(void **s)
{
	(void)s;
	make_disk(64, mbr_script);
	assert_int_equal(parse(), 1);
	expect_mbr_layout();
	expect_log(" sda: sda1 sda2 sda3 < sda5 sda6 >");
}

static void gpt_from_sfdisk(void **s)
{
	(void)s;
	make_disk(64, gpt_script);
	assert_int_equal(parse(), 1);
	expect_gpt_layout();
	expect_log(" sda: sda1 sda2 sda3\n");
	assert_int_equal(log_count("invalid"), 0);
	assert_int_equal(log_count("ignored"), 0);
}

/* The last LBA of the loaded disk, 512-byte sectors. */
static uint64_t last_lba(void)
{
	return disk.bytes / SECTOR_SIZE - 1;
}

static void gpt_primary_header_crc_bad(void **s)
{
	(void)s;
	make_disk(64, gpt_script);
	disk.data[SECTOR_SIZE + 60] ^= 0x01;	/* a byte of the disk GUID */
	assert_int_equal(parse(), 1);
	expect_log("GPT header at LBA 1 is invalid: bad header CRC");
	expect_log("Primary GPT is invalid, using alternate GPT.");
	expect_gpt_layout();
}

static void gpt_primary_entries_crc_bad(void **s)
{
	(void)s;
	make_disk(64, gpt_script);
	disk.data[2 * SECTOR_SIZE + 128 + 40] ^= 0xff;	/* entry 2's ending LBA */
	assert_int_equal(parse(), 1);
	expect_log("GPT header at LBA 1 is invalid: bad entry array CRC");
	expect_gpt_layout();	/* from the alternate's intact entries */
}

static void gpt_both_headers_bad(void **s)
{
	(void)s;
	make_disk(64, gpt_script);
	disk.data[SECTOR_SIZE + 60] ^= 0x01;
	disk.data[last_lba() * SECTOR_SIZE + 60] ^= 0x01;
	assert_int_equal(parse(), 0);
	assert_int_equal(count_parts(), 0);
	expect_log("bad header CRC");
	expect_log("unknown partition table");
}

static void gpt_header_fields_refused(void **s)
{
	static const struct {
		unsigned int off, size;
		uint64_t value;
		const char *why;
	} cases[] = {
		{ 12, 4, 91, "bad header size" },
		{ 12, 4, 513, "bad header size" },
		{ 24, 8, 7, "bad my_lba" },
		{ 48, 8, ~0ull, "bad usable LBAs" },
		{ 84, 4, 64, "bad entry size" },
		{ 80, 4, 0, "bad entry count" },
		{ 80, 4, 0x10000000, "bad entry count" },
		{ 72, 8, 1ull << 40, "bad entry array beyond the disk" },
	};
	unsigned int i;
	uint32_t crc;

	(void)s;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		make_disk(16, "label: gpt\\nstart=2048, size=4096\\n");
		/* Change the primary header's field, then make its CRC right
		 * again so the field itself is what is judged. */
		if (cases[i].size == 4)
			put32(SECTOR_SIZE + cases[i].off, (uint32_t)cases[i].value);
		else
			put64(SECTOR_SIZE + cases[i].off, cases[i].value);
		put32(SECTOR_SIZE + 16, 0);
		crc = crc32_le(~0u, disk.data + SECTOR_SIZE,
			       MIN(get32(SECTOR_SIZE + 12), (uint32_t)SECTOR_SIZE)) ^ ~0u;
		put32(SECTOR_SIZE + 16, crc);
		assert_int_equal(parse(), 1);
		expect_log(cases[i].why);
		expect_log("Primary GPT is invalid, using alternate GPT.");
		expect_part(1, 2048, 4096);
	}
}

/* Set entry n (0-based) of the header at lba's array and fix both CRCs. */
static void gpt_set_ending(uint64_t lba, unsigned int n, uint64_t ending)
{
	uint64_t hdr = lba * SECTOR_SIZE;
	uint64_t array = get64(hdr + 72) * SECTOR_SIZE;
	uint32_t entries = get32(hdr + 80), crc;

	put64(array + n * 128 + 40, ending);
	put32(hdr + 88, crc32_le(~0u, disk.data + array, entries * 128) ^ ~0u);
	put32(hdr + 16, 0);
	crc = crc32_le(~0u, disk.data + hdr, get32(hdr + 12)) ^ ~0u;
	put32(hdr + 16, crc);
}

static void gpt_entry_outside_disk(void **s)
{
	(void)s;
	make_disk(64, gpt_script);
	gpt_set_ending(1, 2, last_lba() + 10);
	gpt_set_ending(last_lba(), 2, last_lba() + 10);
	assert_int_equal(parse(), 1);
	assert_int_equal(log_count("invalid"), 0);	/* both headers good */
	expect_log("GPT entry 3 (LBAs 40960-131081) is not inside the disk, ignored");
	expect_part(1, 2048, 20480);
	expect_part(2, 22528, 10240);
	assert_int_equal(count_parts(), 2);
}

static void gpt_entries_overlap(void **s)
{
	(void)s;
	make_disk(64, gpt_script);
	gpt_set_ending(1, 1, 45000);	/* sda2 now runs into sda3 */
	gpt_set_ending(last_lba(), 1, 45000);
	assert_int_equal(parse(), 1);
	expect_log("sda: p3 (sectors 40960-49151) overlaps p2, ignored");
	expect_part(2, 22528, 45000 - 22528 + 1);
	assert_int_equal(count_parts(), 2);
}

static void mbr_overlap_refused(void **s)
{
	(void)s;
	make_disk(64, mbr_script);
	put32(0x1be + 16 + 8, 10000);		/* sda2 starts inside sda1 */
	assert_int_equal(parse(), 1);
	expect_log("sda: p2 (sectors 10000-20239) overlaps p1, ignored");
	assert_int_equal(state.parts[2].size, 0);
	expect_part(5, 34816, 8192);
}

static void mbr_disk_cut_short(void **s)
{
	(void)s;
	make_disk(64, mbr_script);
	shrink_disk(32768);		/* ends where the extended partition starts */
	assert_int_equal(parse(), 1);
	expect_part(1, 2048, 20480);
	expect_part(2, 22528, 10240);
	expect_log("sda: p3 (sectors 32768-32769) is beyond the end of the disk (32768 sectors), ignored");
	assert_int_equal(count_parts(), 2);
}

static void mbr_entry_past_end(void **s)
{
	(void)s;
	make_disk(64, mbr_script);
	put32(0x1be + 16 + 12, 200000);		/* sda2 grows past 64 MiB */
	assert_int_equal(parse(), 1);
	expect_log("sda: p2 (sectors 22528-222527) is beyond the end of the disk (131072 sectors), ignored");
	assert_int_equal(state.parts[2].size, 0);
	expect_part(1, 2048, 20480);
}

static void mbr_extended_chain_loops(void **s)
{
	uint64_t ebr = 32768ull * SECTOR_SIZE;

	(void)s;
	make_disk(64, mbr_script);
	put32(ebr + 0x1be + 16 + 8, 0);	/* the first EBR links to itself */
	assert_int_equal(parse(), 1);
	expect_part(5, 34816, 8192);
	/* Each turn of the loop finds the same logical partition again: the
	 * numbers run out at 15, and every copy is refused as an overlap. */
	expect_log("sda: p15 (sectors 34816-43007) overlaps p5, ignored");
	assert_int_equal(count_parts(), 4);
}

static void mbr_link_loop_without_data(void **s)
{
	uint64_t ebr = 32768ull * SECTOR_SIZE;

	(void)s;
	make_disk(64, mbr_script);
	memset(disk.data + ebr + 0x1be, 0, 16);	/* no data entry */
	put32(ebr + 0x1be + 16 + 8, 0);		/* and a link to itself */
	assert_int_equal(parse(), 1);
	assert_int_equal(count_parts(), 3);	/* sda1-3: the chain gave up */
	assert_true(disk.reads < 10);		/* the EBR's page, cached */
}

static void not_a_table(void **s)
{
	(void)s;
	make_disk(16, "label: dos\\n");
	memset(disk.data, 0, SECTOR_SIZE);
	assert_int_equal(parse(), 0);
	expect_log(" sda: unknown partition table");
	/* 0x55aa with a boot indicator that is neither 0 nor 0x80: a FAT
	 * boot sector, not a table. */
	disk.data[510] = 0x55;
	disk.data[511] = 0xaa;
	disk.data[0x1be] = 0x12;
	put32(0x1be + 12, 100);
	assert_int_equal(parse(), 0);
}

static void tiny_disks(void **s)
{
	unsigned int sectors;

	(void)s;
	make_disk(1, "label: gpt\\n");
	for (sectors = 3; sectors >= 1; sectors--) {
		shrink_disk(sectors);
		assert_true(parse() <= 0);
		assert_int_equal(count_parts(), 0);
	}
}

/* Random MBRs and EBRs over a small disk: nothing crashes, and whatever
 * is accepted keeps check_result's promises. */
static void random_tables(void **s)
{
	unsigned int iter, i;
	uint64_t cap = 4096;

	(void)s;
	srand(1);
	free(disk.data);
	disk.bytes = cap * SECTOR_SIZE;
	disk.data = calloc(1, disk.bytes);
	assert_non_null(disk.data);
	for (iter = 0; iter < 3000; iter++) {
		memset(disk.data, 0, disk.bytes);
		for (i = 0; i < 8; i++) {	/* sector 0 and a few EBRs */
			uint64_t sec = i ? (uint64_t)rand() % cap : 0;
			unsigned char *b = disk.data + sec * SECTOR_SIZE;
			unsigned int e;

			b[510] = 0x55;
			b[511] = 0xaa;
			for (e = 0; e < 4; e++) {
				unsigned char *p = b + 0x1be + 16 * e;
				static const uint8_t types[] = { 0, 0x83, 0x82, 0x05, 0x0f, 0x85, 0xee };

				p[0] = rand() % 16 ? 0 : 0x80;
				p[4] = types[rand() % ARRAY_SIZE(types)];
				memcpy(p + 8, &(uint32_t){ rand() % (cap + 100) }, 4);
				memcpy(p + 12, &(uint32_t){ rand() % 3 ? (uint32_t)(rand() % 600) : (uint32_t)rand() }, 4);
			}
		}
		(void)parse();
	}
}

static int setup(void **s)
{
	(void)s;
	if (access(SFDISK, X_OK)) {
		fprintf(stderr, "test_partitions: needs " SFDISK " (Debian's fdisk package)\n");
		return 1;
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pageturn-partitions-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : 1;
}

static int teardown(void **s)
{
	char cmd[128];

	(void)s;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	free(disk.data);
	return system(cmd) == 0 ? 0 : 1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mbr_primary_and_logical),
		cmocka_unit_test(gpt_from_sfdisk),
		cmocka_unit_test(gpt_primary_header_crc_bad),
		cmocka_unit_test(gpt_primary_entries_crc_bad),
		cmocka_unit_test(gpt_both_headers_bad),
		cmocka_unit_test(gpt_header_fields_refused),
		cmocka_unit_test(gpt_entry_outside_disk),
		cmocka_unit_test(gpt_entries_overlap),
		cmocka_unit_test(mbr_overlap_refused),
		cmocka_unit_test(mbr_disk_cut_short),
		cmocka_unit_test(mbr_entry_past_end),
		cmocka_unit_test(mbr_extended_chain_loops),
		cmocka_unit_test(mbr_link_loop_without_data),
		cmocka_unit_test(not_a_table),
		cmocka_unit_test(tiny_disks),
		cmocka_unit_test(random_tables),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
