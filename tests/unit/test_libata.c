/*
 * Unit tests for drivers/block/libata-core.c: IDENTIFY DEVICE's words as
 * the ATA drivers read them (capacity by LBA28 or LBA48, the validity
 * bits of word 83, the byte-swapped model string), and sd naming: sda
 * 8:0 ... sdp 8:240, then -ENOSPC.  The identify blocks are laid out
 * here word by word as ATA8-ACS describes them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <uapi/errno.h>

#include "../../drivers/block/libata.h"
#include "kernel_stubs.h"

/* Put s in the model words, two characters a word, first in the high byte. */
static void set_model(uint16_t *id, const char *s)
{
	char buf[ATA_ID_PROD_LEN];
	int i;

	memset(buf, ' ', sizeof(buf));
	memcpy(buf, s, strlen(s));
	for (i = 0; i < ATA_ID_PROD_LEN / 2; i++)
		id[ATA_ID_PROD + i] = (uint16_t)((uint8_t)buf[2 * i] << 8 | (uint8_t)buf[2 * i + 1]);
}

static void lba28_disk(void **state)
{
	uint16_t id[ATA_ID_WORDS] = { 0 };

	(void)state;
	id[ATA_ID_CAPABILITY] = 1u << 9;
	id[ATA_ID_LBA_CAPACITY] = 0x5678;
	id[ATA_ID_LBA_CAPACITY + 1] = 0x0123;
	assert_true(ata_id_has_lba(id));
	assert_false(ata_id_has_lba48(id));
	assert_true(ata_id_n_sectors(id) == 0x01235678);
	/* LBA48 counts are ignored without the LBA48 bit. */
	id[ATA_ID_LBA_CAPACITY_2] = 0xffff;
	assert_true(ata_id_n_sectors(id) == 0x01235678);
}

static void lba48_disk(void **state)
{
	uint16_t id[ATA_ID_WORDS] = { 0 };

	(void)state;
	id[ATA_ID_CAPABILITY] = 1u << 9;
	id[ATA_ID_LBA_CAPACITY] = 0xffff;
	id[ATA_ID_LBA_CAPACITY + 1] = 0x0fff;		/* LBA28 saturated */
	id[ATA_ID_COMMAND_SET_2] = 0x4000 | (1u << 10);
	id[ATA_ID_LBA_CAPACITY_2] = 0x0000;
	id[ATA_ID_LBA_CAPACITY_2 + 1] = 0x7470;
	id[ATA_ID_LBA_CAPACITY_2 + 2] = 0x0001;	/* 0x174700000 sectors: 3 TiB */
	assert_true(ata_id_has_lba48(id));
	assert_true(ata_id_n_sectors(id) == 0x174700000ull);
}

static void word83_not_valid(void **state)
{
	uint16_t id[ATA_ID_WORDS] = { 0 };

	(void)state;
	/* Bits 15:14 must read 01: 0xffff (no device answered) is not LBA48. */
	id[ATA_ID_COMMAND_SET_2] = 0xffff;
	assert_false(ata_id_has_lba48(id));
	id[ATA_ID_COMMAND_SET_2] = 1u << 10;
	assert_false(ata_id_has_lba48(id));
	assert_false(ata_id_has_lba(id));
}

static void model_string(void **state)
{
	uint16_t id[ATA_ID_WORDS] = { 0 };
	char model[ATA_ID_PROD_LEN + 1];
	char small[6];

	(void)state;
	set_model(id, "QEMU HARDDISK");
	ata_id_c_string(id, model, sizeof(model));
	assert_string_equal(model, "QEMU HARDDISK");
	ata_id_c_string(id, small, sizeof(small));
	assert_string_equal(small, "QEMU");		/* cut, trailing blank dropped */
	set_model(id, "A\tB\x7f");
	ata_id_c_string(id, model, sizeof(model));
	assert_string_equal(model, "A B");		/* unprintable bytes become blanks */
	memset(id + ATA_ID_PROD, 0, ATA_ID_PROD_LEN);
	ata_id_c_string(id, model, sizeof(model));
	assert_string_equal(model, "");
}

static void sd_names(void **state)
{
	struct block_device bdev;
	char want[8];
	int i;

	(void)state;
	assert_int_equal(ata_new_port_id(), 1);
	assert_int_equal(ata_new_port_id(), 2);
	for (i = 0; i < SD_MAX_DISKS; i++) {
		memset(&bdev, 0, sizeof(bdev));
		assert_int_equal(sd_name_disk(&bdev), 0);
		snprintf(want, sizeof(want), "sd%c", 'a' + i);
		assert_string_equal(bdev.name, want);
		assert_int_equal(bdev.major, SCSI_DISK0_MAJOR);
		assert_int_equal(bdev.minor, i * SD_MINORS);
		assert_int_equal(bdev.minors, SD_MINORS);
	}
	memset(&bdev, 0, sizeof(bdev));
	assert_int_equal(sd_name_disk(&bdev), -ENOSPC);
	assert_string_equal(bdev.name, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lba28_disk),
		cmocka_unit_test(lba48_disk),
		cmocka_unit_test(word83_not_valid),
		cmocka_unit_test(model_string),
		cmocka_unit_test(sd_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
