/*
 * What the ATA drivers share (Linux's include/linux/ata.h and libata.h):
 * the command set and IDENTIFY DEVICE's words.  A disk found by any of
 * them (ata_piix.c's legacy ports, ahci.c's SATA ports) becomes sda,
 * sdb, ... through sd_name_disk() (<drivers/scsi.h>).
 */
#ifndef DRIVERS_BLOCK_LIBATA_H
#define DRIVERS_BLOCK_LIBATA_H

#include <drivers/blkdev.h>
#include <drivers/scsi.h>

#define ATA_SECT_SIZE		512
#define ATA_ID_WORDS		256

/* Commands (ATA8-ACS). */
#define ATA_CMD_PIO_READ	0x20	/* READ SECTORS, LBA28 */
#define ATA_CMD_PIO_READ_EXT	0x24	/* READ SECTORS EXT, LBA48 */
#define ATA_CMD_PIO_WRITE	0x30
#define ATA_CMD_PIO_WRITE_EXT	0x34
#define ATA_CMD_READ_EXT	0x25	/* READ DMA EXT */
#define ATA_CMD_WRITE_EXT	0x35	/* WRITE DMA EXT */
#define ATA_CMD_ID_ATA		0xec	/* IDENTIFY DEVICE */

/* Status and error register bits, device register bits. */
#define ATA_BUSY		0x80
#define ATA_DRDY		0x40
#define ATA_DF			0x20
#define ATA_DRQ			0x08
#define ATA_ERR			0x01
#define ATA_LBA			0x40	/* device register: LBA addressing */
#define ATA_DEV1		0x10	/* device register: the slave */

/* IDENTIFY DEVICE words (Linux's ATA_ID_*). */
#define ATA_ID_PROD		27	/* model: 40 bytes, byte-swapped words */
#define ATA_ID_PROD_LEN		40
#define ATA_ID_CAPABILITY	49	/* bit 9: LBA */
#define ATA_ID_LBA_CAPACITY	60	/* LBA28 sectors: words 60-61 */
#define ATA_ID_COMMAND_SET_2	83	/* bit 10: LBA48 */
#define ATA_ID_LBA_CAPACITY_2	100	/* LBA48 sectors: words 100-103 */

/* LBA28 commands address below 2^28 and move at most 256 sectors. */
#define ATA_MAX_SECTORS_LBA28	256
#define ATA_LBA28_LIMIT		(1ull << 28)

bool ata_id_has_lba(const uint16_t *id);
bool ata_id_has_lba48(const uint16_t *id);
/* The capacity IDENTIFY reports, in 512-byte sectors: LBA48's count when
 * the disk has LBA48, else LBA28's. */
uint64_t ata_id_n_sectors(const uint16_t *id);
/* The model string, byte order fixed, trailing blanks cut, into buf. */
void ata_id_c_string(const uint16_t *id, char *buf, size_t len);

/* The next port number, ataN: ata_piix's channels and ahci's ports share
 * them, as Linux's libata does.  Boot only. */
unsigned int ata_new_port_id(void);


#endif
