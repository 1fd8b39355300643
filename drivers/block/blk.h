/*
 * What the block layer core and its drivers share, and nobody else needs
 * (Linux's block/blk.h): the drivers' start functions, called once by
 * blk_dev_init(), and their operations, by which the core names a
 * device's driver in the boot report.
 */
#ifndef DRIVERS_BLOCK_BLK_H
#define DRIVERS_BLOCK_BLK_H

#include <drivers/blkdev.h>

/* Device numbers, Linux's: RAM disks are major 1 (ram0 is 1:0); virtio-blk
 * gets a dynamic major in Linux, 254 on a typical system, and 16 minors
 * per disk (vda is 254:0, vdb 254:16). */
#define RAMDISK_MAJOR		1
#define VIRTBLK_MAJOR		254
#define VIRTBLK_MINORS		16

/* Register ram0.. for the boot modules, then the RAM disks asked for on
 * the command line. */
void ramdisk_init(void);
extern const struct block_device_operations ramdisk_ops;

/* Probe the IDE channels (PCI IDE functions, else the legacy ports) and
 * register their ATA disks as sda, sdb, ... (ata_piix.c). */
void ata_piix_init(void);
extern const struct block_device_operations ata_piix_ops;

/* Find every AHCI HBA (PCI class 01:06:01) and register its SATA disks
 * as the next sd names (ahci.c). */
void ahci_init(void);
extern const struct block_device_operations ahci_ops;

/* Find every virtio-blk PCI function and register vda, vdb, ... */
void virtio_blk_init(void);
extern const struct block_device_operations virtio_blk_ops;

#endif
