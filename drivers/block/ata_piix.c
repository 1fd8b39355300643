/*
 * ATA disks through the legacy IDE interface, by PIO (Linux's ata_piix
 * and pata_legacy, reduced to what a disk needs): the two channels of a
 * PCI IDE function (class 01:01), at the legacy ports 0x1f0/0x3f6 and
 * 0x170/0x376 (IRQ 14/15, unused here) or, in native mode, at the
 * function's BARs; without a PCI IDE function, the legacy ports of an old
 * PC.  Channels are ata1, ata2, ... in that order; each has a master
 * (ataN.00) and a slave (ataN.01).  Disks are named by libata-core.c:
 * sda, sdb, ... shared with ahci.c.
 *
 * States of a channel:
 *   probed    the status register read 0xff (nothing drives the bus: no
 *             channel) or a soft reset did not finish: skipped, a line.
 *   found     reset; each device answered IDENTIFY DEVICE or not.  A
 *             device that is absent, ATAPI (a CD drive), without LBA or
 *             whose IDENTIFY fails is skipped with a line; an ATA disk
 *             is registered.
 *   busy      one command in progress, under the channel's lock (master
 *             and slave share the registers): held with interrupts off
 *             from the command to its last status check, so an
 *             interrupt that submits I/O to the other device of the
 *             channel cannot start a command in the middle of this one.
 *
 * I/O is polled PIO with the device's interrupt off (nIEN): queue_rq
 * issues one READ/WRITE SECTORS (EXT) for the whole request (at most 256
 * sectors, the LBA28 limit, so either form works), moves each sector's
 * 256 words when the device raises DRQ, checks the final status, and
 * completes the request before it returns, as the RAM disks do.  LBA48
 * is used when the disk has it, else LBA28.  Every wait is bounded by the
 * TSC clock (ktime_get_ns, which runs with interrupts off): a device that
 * does not answer in time, or sets ERR or DF, fails the request with
 * -EIO, a line naming the command and the registers, and a soft reset
 * of the channel.  Nothing is cached here: the drive's own write cache is
 * not flushed (the block layer has no flush requests).
 */
#include <asm/io.h>
#include <drivers/blkdev.h>
#include <drivers/pci.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

#include "blk.h"
#include "libata.h"

/* Registers, from the command block's base. */
#define ATA_REG_DATA		0
#define ATA_REG_ERR		1
#define ATA_REG_NSECT		2
#define ATA_REG_LBAL		3
#define ATA_REG_LBAM		4
#define ATA_REG_LBAH		5
#define ATA_REG_DEVICE		6
#define ATA_REG_STATUS		7	/* read */
#define ATA_REG_CMD		7	/* write */
/* The control block's one register: alternate status (read), device
 * control (write). */
#define ATA_NIEN		0x02
#define ATA_SRST		0x04

#define ATA_PRIMARY_CMD		0x1f0
#define ATA_PRIMARY_CTL		0x3f6
#define ATA_SECONDARY_CMD	0x170
#define ATA_SECONDARY_CTL	0x376

/* Bounds of the waits, milliseconds. */
#define ATA_TMOUT_RESET		5000
#define ATA_TMOUT_IDENTIFY	5000
#define ATA_TMOUT_CMD		5000

struct ata_port {
	unsigned int id;		/* ataN */
	uint16_t cmd, ctl;		/* register block bases */
	spinlock_t lock;		/* one command at a time (see the top) */
};

struct ata_disk {
	struct block_device bdev;
	struct ata_port *ap;
	unsigned int devno;		/* 0 master, 1 slave */
	bool lba48;
};

static uint8_t ata_status(const struct ata_port *ap)
{
	return inb(ap->cmd + ATA_REG_STATUS);
}

/* The 400 ns a device needs after it is selected or sent a command
 * before its status means anything: four reads of alternate status. */
static void ata_delay400(const struct ata_port *ap)
{
	int i;

	for (i = 0; i < 4; i++)
		inb(ap->ctl);
}

/* Wait up to ms for BSY to clear; the last status, with ATA_BUSY still
 * set when the time ran out. */
static uint8_t ata_wait_idle(const struct ata_port *ap, unsigned int ms)
{
	uint64_t deadline = ktime_get_ns() + (uint64_t)ms * 1000000;
	uint8_t st;

	while ((st = ata_status(ap)) & ATA_BUSY) {
		if (ktime_get_ns() > deadline)
			break;
		__asm__ volatile("pause");
	}
	return st;
}

/* Soft reset of the channel, interrupt left off; 0 or -ETIMEDOUT. */
static int ata_softreset(const struct ata_port *ap)
{
	outb(ap->ctl, ATA_SRST | ATA_NIEN);
	udelay(10);
	outb(ap->ctl, ATA_NIEN);
	mdelay(2);
	return ata_wait_idle(ap, ATA_TMOUT_RESET) & ATA_BUSY ? -ETIMEDOUT : 0;
}

static void ata_select(const struct ata_port *ap, unsigned int devno, uint8_t bits)
{
	outb(ap->cmd + ATA_REG_DEVICE, 0xa0 | bits | (devno ? ATA_DEV1 : 0));
	ata_delay400(ap);
}

/* Issue a read or write of n sectors at lba (n <= 256). */
static void ata_issue_rw(struct ata_disk *d, int rw, uint64_t lba, unsigned int n)
{
	const struct ata_port *ap = d->ap;
	bool ext = d->lba48;

	if (ext) {
		ata_select(ap, d->devno, ATA_LBA);
		outb(ap->cmd + ATA_REG_NSECT, (n >> 8) & 0xff);
		outb(ap->cmd + ATA_REG_LBAL, (lba >> 24) & 0xff);
		outb(ap->cmd + ATA_REG_LBAM, (lba >> 32) & 0xff);
		outb(ap->cmd + ATA_REG_LBAH, (lba >> 40) & 0xff);
	} else {
		ata_select(ap, d->devno, ATA_LBA | ((lba >> 24) & 0x0f));
	}
	outb(ap->cmd + ATA_REG_NSECT, n & 0xff);	/* 0 means 256 (LBA28) */
	outb(ap->cmd + ATA_REG_LBAL, lba & 0xff);
	outb(ap->cmd + ATA_REG_LBAM, (lba >> 8) & 0xff);
	outb(ap->cmd + ATA_REG_LBAH, (lba >> 16) & 0xff);
	outb(ap->cmd + ATA_REG_CMD, rw == WRITE ? (ext ? ATA_CMD_PIO_WRITE_EXT : ATA_CMD_PIO_WRITE)
						: (ext ? ATA_CMD_PIO_READ_EXT : ATA_CMD_PIO_READ));
	ata_delay400(ap);
}

/* Log a failed command and reset the channel. */
static void ata_fail(struct ata_disk *d, int rw, uint64_t lba, uint8_t st, const char *why)
{
	struct ata_port *ap = d->ap;

	printk(KERN_ERR "ata%u.%02u: %s of sector %lu failed: %s (status %#x error %#x)\n",
	       ap->id, d->devno, rw == WRITE ? "write" : "read", (unsigned long)lba, why, st,
	       inb(ap->cmd + ATA_REG_ERR));
	if (ata_softreset(ap))
		printk(KERN_ERR "ata%u: reset after the error timed out\n", ap->id);
}

/* The whole of rq by PIO; 0 or -EIO.  Called with the channel's lock. */
static int ata_pio_rq(struct ata_disk *d, struct request *rq)
{
	const struct ata_port *ap = d->ap;
	int rw = rq_data_dir(rq);
	uint64_t lba = blk_rq_pos(rq), sector = lba;
	struct req_iterator iter;
	struct bio_vec *bv;
	unsigned int off, i;
	uint8_t st;

	st = ata_wait_idle(ap, ATA_TMOUT_CMD);
	if (st & ATA_BUSY) {
		ata_fail(d, rw, lba, st, "device busy");
		return -EIO;
	}
	ata_issue_rw(d, rw, lba, blk_rq_sectors(rq));
	rq_for_each_segment(bv, rq, iter) {
		uint16_t *buf = (uint16_t *)((char *)page_address(bv->bv_page) + bv->bv_offset);

		for (off = 0; off < bv->bv_len; off += ATA_SECT_SIZE, sector++) {
			st = ata_wait_idle(ap, ATA_TMOUT_CMD);
			if ((st & (ATA_BUSY | ATA_ERR | ATA_DF)) || !(st & ATA_DRQ)) {
				ata_fail(d, rw, sector, st, st & ATA_BUSY ? "timeout" : "no data request");
				return -EIO;
			}
			for (i = 0; i < ATA_SECT_SIZE / 2; i++, buf++) {
				if (rw == WRITE)
					outw(ap->cmd + ATA_REG_DATA, *buf);
				else
					*buf = inw(ap->cmd + ATA_REG_DATA);
			}
		}
	}
	ata_delay400(ap);
	st = ata_wait_idle(ap, ATA_TMOUT_CMD);
	if (st & (ATA_BUSY | ATA_ERR | ATA_DF | ATA_DRQ)) {
		ata_fail(d, rw, lba, st, st & ATA_BUSY ? "timeout" : "error at the end");
		return -EIO;
	}
	return 0;
}

static void ata_piix_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct ata_disk *d = bdev->private;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&d->ap->lock, flags);
	err = ata_pio_rq(d, rq);
	spin_unlock_irqrestore(&d->ap->lock, flags);
	blk_end_request_all(rq, err);
}

const struct block_device_operations ata_piix_ops = {
	.queue_rq = ata_piix_queue_rq,
};

/*
 * IDENTIFY DEVICE on devno of ap into id: 0, -ENODEV (nothing there),
 * -EOPNOTSUPP (an ATAPI or unknown device), -EIO (it failed or timed
 * out).  Logs why a device that is there is skipped.
 */
static int ata_identify(const struct ata_port *ap, unsigned int devno, uint16_t *id)
{
	uint8_t st, lbam, lbah;
	int i;

	ata_select(ap, devno, 0);
	outb(ap->cmd + ATA_REG_NSECT, 0x55);	/* Linux's ata_devchk: do the */
	outb(ap->cmd + ATA_REG_LBAL, 0xaa);	/* registers hold what we write? */
	if (inb(ap->cmd + ATA_REG_NSECT) != 0x55 || inb(ap->cmd + ATA_REG_LBAL) != 0xaa)
		return -ENODEV;
	outb(ap->cmd + ATA_REG_NSECT, 0);
	outb(ap->cmd + ATA_REG_LBAL, 0);
	outb(ap->cmd + ATA_REG_LBAM, 0);
	outb(ap->cmd + ATA_REG_LBAH, 0);
	outb(ap->cmd + ATA_REG_CMD, ATA_CMD_ID_ATA);
	ata_delay400(ap);
	if (ata_status(ap) == 0)
		return -ENODEV;
	st = ata_wait_idle(ap, ATA_TMOUT_IDENTIFY);
	if (st & ATA_BUSY) {
		printk(KERN_WARNING "ata%u.%02u: IDENTIFY timed out, skipped\n", ap->id, devno);
		return -EIO;
	}
	lbam = inb(ap->cmd + ATA_REG_LBAM);
	lbah = inb(ap->cmd + ATA_REG_LBAH);
	if (lbam == 0x14 && lbah == 0xeb) {
		printk(KERN_INFO "ata%u.%02u: ATAPI device (a CD or DVD drive), not supported\n",
		       ap->id, devno);
		return -EOPNOTSUPP;
	}
	if (lbam || lbah) {
		printk(KERN_INFO "ata%u.%02u: unknown device (signature %#x %#x), skipped\n",
		       ap->id, devno, lbam, lbah);
		return -EOPNOTSUPP;
	}
	if ((st & (ATA_ERR | ATA_DF)) || !(st & ATA_DRQ)) {
		printk(KERN_WARNING "ata%u.%02u: IDENTIFY failed (status %#x), skipped\n",
		       ap->id, devno, st);
		return -EIO;
	}
	for (i = 0; i < ATA_ID_WORDS; i++)
		id[i] = inw(ap->cmd + ATA_REG_DATA);
	return 0;
}

/* Register devno of ap as a disk if it is one; true when it was. */
static bool ata_dev_probe(struct ata_port *ap, unsigned int devno)
{
	uint16_t id[ATA_ID_WORDS];
	struct ata_disk *d;
	char model[ATA_ID_PROD_LEN + 1];
	uint64_t sectors;
	int err;

	if (ata_identify(ap, devno, id))
		return false;
	ata_id_c_string(id, model, sizeof(model));
	sectors = ata_id_n_sectors(id);
	if (!ata_id_has_lba(id) || sectors == 0) {
		printk(KERN_INFO "ata%u.%02u: %s has no LBA addressing, not supported\n",
		       ap->id, devno, model);
		return false;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		printk(KERN_ERR "ata%u.%02u: out of memory\n", ap->id, devno);
		return false;
	}
	d->ap = ap;
	d->devno = devno;
	d->lba48 = ata_id_has_lba48(id);
	if (!d->lba48 && sectors > ATA_LBA28_LIMIT)
		sectors = ATA_LBA28_LIMIT;
	err = sd_name_disk(&d->bdev);
	if (!err) {
		d->bdev.sector_size = ATA_SECT_SIZE;
		d->bdev.nr_sectors = sectors;
		d->bdev.max_sectors = ATA_MAX_SECTORS_LBA28;
		d->bdev.ops = &ata_piix_ops;
		d->bdev.private = d;
		err = register_blkdev(&d->bdev);
	}
	if (err) {
		printk(KERN_ERR "ata%u.%02u: %s not registered: error %d\n", ap->id, devno, model, err);
		kfree(d);
		return false;
	}
	printk(KERN_INFO "ata%u.%02u: ATA disk \"%s\", %lu sectors, %s, PIO: %s\n", ap->id, devno,
	       model, (unsigned long)sectors, d->lba48 ? "LBA48" : "LBA28", d->bdev.name);
	return true;
}

/* Probe one channel (ataN, the next N): reset it, then both devices.
 * The port stays allocated while a disk of it is registered. */
static void ata_port_probe(uint16_t cmd, uint16_t ctl, const char *where)
{
	struct ata_port *ap = kzalloc(sizeof(*ap), GFP_KERNEL);
	unsigned int devno, disks = 0;

	if (!ap) {
		printk(KERN_ERR "ata: out of memory for the channel at %#x\n", cmd);
		return;
	}
	ap->id = ata_new_port_id();
	ap->cmd = cmd;
	ap->ctl = ctl;
	spin_lock_init(&ap->lock, "ata_port");
	if (ata_status(ap) == 0xff) {
		printk(KERN_INFO "ata%u: %s cmd %#x ctl %#x: nothing on the bus\n", ap->id, where, cmd, ctl);
	} else {
		printk(KERN_INFO "ata%u: %s cmd %#x ctl %#x, PIO\n", ap->id, where, cmd, ctl);
		if (ata_softreset(ap))
			printk(KERN_WARNING "ata%u: reset timed out, channel skipped\n", ap->id);
		else
			for (devno = 0; devno < 2; devno++)
				disks += ata_dev_probe(ap, devno);
	}
	if (!disks)
		kfree(ap);
}

void ata_piix_init(void)
{
	struct pci_dev *pdev = NULL;
	bool found = false;

	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev))) {
		uint8_t progif = pdev->class & 0xff;

		if ((pdev->class >> 8) != 0x0101)
			continue;
		found = true;
		pci_enable_device(pdev);
		/* prog-if bit 0 (2): the primary (secondary) channel is in
		 * native mode, at BAR0/BAR1 (BAR2/BAR3); else at the legacy
		 * ports.  The control register is at the control BAR + 2. */
		if ((progif & 0x01) && (pci_resource_flags(pdev, 0) & IORESOURCE_IO) &&
		    (pci_resource_flags(pdev, 1) & IORESOURCE_IO))
			ata_port_probe(pci_resource_start(pdev, 0), pci_resource_start(pdev, 1) + 2,
				       "PCI IDE native");
		else
			ata_port_probe(ATA_PRIMARY_CMD, ATA_PRIMARY_CTL, "PCI IDE legacy");
		if ((progif & 0x04) && (pci_resource_flags(pdev, 2) & IORESOURCE_IO) &&
		    (pci_resource_flags(pdev, 3) & IORESOURCE_IO))
			ata_port_probe(pci_resource_start(pdev, 2), pci_resource_start(pdev, 3) + 2,
				       "PCI IDE native");
		else
			ata_port_probe(ATA_SECONDARY_CMD, ATA_SECONDARY_CTL, "PCI IDE legacy");
	}
	if (!found && ata_status(&(struct ata_port){ .cmd = ATA_PRIMARY_CMD }) != 0xff) {
		ata_port_probe(ATA_PRIMARY_CMD, ATA_PRIMARY_CTL, "legacy IDE");
		ata_port_probe(ATA_SECONDARY_CMD, ATA_SECONDARY_CTL, "legacy IDE");
	}
}
