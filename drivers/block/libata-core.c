/*
 * The parts of ATA the drivers share (Linux's libata-core.c, reduced):
 * reading IDENTIFY DEVICE's words, and numbering the ports.
 */
#include <pageturn/string.h>

#include "libata.h"

bool ata_id_has_lba(const uint16_t *id)
{
	return id[ATA_ID_CAPABILITY] & (1u << 9);
}

bool ata_id_has_lba48(const uint16_t *id)
{
	/* Bits 15:14 of word 83 must read 01 for its other bits to mean anything. */
	return (id[ATA_ID_COMMAND_SET_2] & 0xc000) == 0x4000 &&
	       (id[ATA_ID_COMMAND_SET_2] & (1u << 10));
}

uint64_t ata_id_n_sectors(const uint16_t *id)
{
	if (ata_id_has_lba48(id))
		return (uint64_t)id[ATA_ID_LBA_CAPACITY_2] |
		       (uint64_t)id[ATA_ID_LBA_CAPACITY_2 + 1] << 16 |
		       (uint64_t)id[ATA_ID_LBA_CAPACITY_2 + 2] << 32 |
		       (uint64_t)id[ATA_ID_LBA_CAPACITY_2 + 3] << 48;
	return (uint64_t)id[ATA_ID_LBA_CAPACITY] | (uint64_t)id[ATA_ID_LBA_CAPACITY + 1] << 16;
}

void ata_id_c_string(const uint16_t *id, char *buf, size_t len)
{
	size_t i, n = MIN(len - 1, (size_t)ATA_ID_PROD_LEN);

	for (i = 0; i < n; i++) {
		uint16_t w = id[ATA_ID_PROD + i / 2];
		char c = (char)(i % 2 ? w & 0xff : w >> 8);

		buf[i] = c >= 0x20 && c < 0x7f ? c : ' ';
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

static unsigned int nr_ata_ports;

unsigned int ata_new_port_id(void)
{
	return ++nr_ata_ports;
}
