/*
 * SATA disks behind an AHCI host bus adapter (Linux's drivers/ata/ahci.c
 * and libahci.c, reduced): PCI class 01:06:01, registers in memory BAR 5
 * (ABAR), one command at a time per port (no NCQ), DMA through a PRDT
 * built from the request's segments, completion signalled by INTx.
 * Disks are named by libata-core.c: sda, sdb, ... after ata_piix's.
 *
 * States of a port (ataN, numbered after ata_piix's channels):
 *   empty     no device on the link (SStatus DET is not 3), or not a
 *             disk (an ATAPI signature), or IDENTIFY failed: skipped, a
 *             line (none for an empty link).
 *   idle      a disk is registered; the port runs (PxCMD.ST and FRE
 *             set); active is NULL and the queue is empty.
 *   busy      command slot 0 holds active (PxCI bit 0), issued before
 *             deadline_ns; later requests wait on the port's queue, in
 *             order.  active, the queue and the registers change only
 *             under the port's lock.
 *
 * Completion: the HBA's interrupt (INTx, the function's PIC line) reads
 * which ports raised it and, for each, ends active (-EIO with a line and
 * a port restart when the task file or the HBA reports an error) and
 * issues the next request.  A command that does not finish by its
 * deadline (AHCI_TMOUT_CMD) is failed the same way by the "ata_eh"
 * thread, which looks every second, so every wait is bounded.  Requests
 * are ended after the lock is dropped: ending one may submit the next
 * (blk_end_request_all runs the queue, which calls queue_rq).
 *
 * When the PIC line already has another driver's handler (the kernel's
 * lines are not shared between drivers), the HBA is driven polled
 * instead, with a line saying so: queue_rq issues the command, polls
 * PxCI with the lock held and interrupts off, and ends the request
 * before it returns.  IDENTIFY at probe time is always polled, before
 * the port's interrupts are enabled.
 *
 * Memory: each port has one zeroed page for its DMA structures, at
 * offsets the AHCI specification aligns: the command list (1 KiB, slot 0
 * used), the received-FIS area (256 bytes) and slot 0's command table
 * (the command FIS, then AHCI_MAX_PRD physical region descriptors, so a
 * request has at most that many segments: max_segments).  Without
 * 64-bit addressing (CAP.S64A) a segment above 4 GiB fails the request.
 */
#include <asm/io.h>
#include <drivers/blkdev.h>
#include <drivers/pci.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

#include "blk.h"
#include "libata.h"

#define PCI_CLASS_STORAGE_SATA_AHCI	0x010601
#define AHCI_PCI_BAR			5

/* HBA registers. */
#define HOST_CAP		0x00
#define  HOST_CAP_S64A		(1u << 31)
#define HOST_CTL		0x04
#define  HOST_RESET		(1u << 0)
#define  HOST_IRQ_EN		(1u << 1)
#define  HOST_AHCI_EN		(1u << 31)
#define HOST_IRQ_STAT		0x08
#define HOST_PORTS_IMPL		0x0c
#define HOST_VERSION		0x10
#define AHCI_MAX_PORTS		32

/* Port registers, at 0x100 + port * 0x80. */
#define PORT_LST_ADDR		0x00
#define PORT_LST_ADDR_HI	0x04
#define PORT_FIS_ADDR		0x08
#define PORT_FIS_ADDR_HI	0x0c
#define PORT_IRQ_STAT		0x10
#define PORT_IRQ_MASK		0x14
#define PORT_CMD		0x18
#define  PORT_CMD_START		(1u << 0)
#define  PORT_CMD_SPIN_UP	(1u << 1)
#define  PORT_CMD_POWER_ON	(1u << 2)
#define  PORT_CMD_FIS_RX	(1u << 4)
#define  PORT_CMD_FIS_ON	(1u << 14)
#define  PORT_CMD_LIST_ON	(1u << 15)
#define PORT_TFDATA		0x20
#define PORT_SIG		0x24
#define PORT_SCR_STAT		0x28
#define PORT_SCR_ERR		0x30
#define PORT_CMD_ISSUE		0x38
/* PORT_IRQ_STAT bits that mean the command failed. */
#define PORT_IRQ_TF_ERR		(1u << 30)
#define PORT_IRQ_HBUS_ERR	(1u << 29)
#define PORT_IRQ_HBUS_DATA_ERR	(1u << 28)
#define PORT_IRQ_IF_ERR		(1u << 27)
#define PORT_IRQ_ERROR		(PORT_IRQ_TF_ERR | PORT_IRQ_HBUS_ERR | PORT_IRQ_HBUS_DATA_ERR | \
				 PORT_IRQ_IF_ERR)
/* What a port interrupts for: a register, PIO setup, DMA setup or set
 * device bits FIS from the device, and the errors. */
#define PORT_IRQ_DEFAULT	(PORT_IRQ_ERROR | 0xf)

#define SATA_SIG_ATA		0x00000101
#define SATA_SIG_ATAPI		0xeb140101

/* The port's page: command list, received FIS, slot 0's command table. */
#define AHCI_CL_OFF		0x000
#define AHCI_RX_FIS_OFF		0x400
#define AHCI_CMD_TBL_OFF	0x500
#define AHCI_CMD_TBL_HDR	0x80	/* the command FIS area, then the PRDT */
#define AHCI_MAX_PRD		((PAGE_SIZE - AHCI_CMD_TBL_OFF - AHCI_CMD_TBL_HDR) / 16)

/* Bounds of the waits, milliseconds. */
#define AHCI_TMOUT_RESET	1000
#define AHCI_TMOUT_PORT		500
#define AHCI_TMOUT_CMD		10000

struct ahci_cmd_hdr {
	uint32_t opts;		/* CFL (dwords) | W bit 6 | PRDTL << 16 */
	uint32_t status;	/* bytes transferred, written by the HBA */
	uint32_t tbl_addr;
	uint32_t tbl_addr_hi;
	uint32_t reserved[4];
};

struct ahci_sg {
	uint32_t addr;
	uint32_t addr_hi;
	uint32_t reserved;
	uint32_t flags_size;	/* byte count - 1 */
};

struct ahci_port {
	struct block_device bdev;
	unsigned int id;	/* ataN */
	volatile uint8_t *mmio;	/* the port's registers */
	struct page *dma;	/* command list, FIS area, command table */
	bool s64a;
	bool use_irq;		/* completion by interrupt, else polled */
	spinlock_t lock;	/* the fields below, the registers */
	struct request *active;	/* in slot 0, or NULL */
	uint64_t deadline_ns;	/* when active times out */
	struct list_head queue;	/* requests waiting, by queuelist */
};

/* An HBA driven by interrupts: its handler finds it by line. */
struct ahci_host {
	volatile uint8_t *mmio;
	unsigned int irq;
	struct ahci_port *ports[AHCI_MAX_PORTS];
	struct list_head list;
};

static LIST_HEAD(ahci_hosts);		/* walked by the handler: changed with interrupts off */
static uint16_t ahci_irq_lines;		/* bit n: our handler owns PIC line n */
static bool ahci_eh_started;

static uint32_t port_read(const struct ahci_port *pp, unsigned int reg)
{
	return readl(pp->mmio + reg);
}

static void port_write(const struct ahci_port *pp, unsigned int reg, uint32_t v)
{
	writel(v, pp->mmio + reg);
}

/* Stop the port's command engine and FIS receive; false on a timeout. */
static bool ahci_stop_port(struct ahci_port *pp)
{
	port_write(pp, PORT_CMD, port_read(pp, PORT_CMD) & ~PORT_CMD_START);
	if (!pci_mmio_poll(pp->mmio + PORT_CMD, PORT_CMD_LIST_ON, 0, AHCI_TMOUT_PORT))
		return false;
	port_write(pp, PORT_CMD, port_read(pp, PORT_CMD) & ~PORT_CMD_FIS_RX);
	return pci_mmio_poll(pp->mmio + PORT_CMD, PORT_CMD_FIS_ON, 0, AHCI_TMOUT_PORT);
}

/* Point the port at its page, clear its errors, start it (its
 * interrupts on when use_irq); false on a timeout. */
static bool ahci_start_port(struct ahci_port *pp)
{
	phys_addr_t base = page_to_phys(pp->dma);

	port_write(pp, PORT_LST_ADDR, (uint32_t)(base + AHCI_CL_OFF));
	port_write(pp, PORT_LST_ADDR_HI, (uint32_t)((base + AHCI_CL_OFF) >> 32));
	port_write(pp, PORT_FIS_ADDR, (uint32_t)(base + AHCI_RX_FIS_OFF));
	port_write(pp, PORT_FIS_ADDR_HI, (uint32_t)((base + AHCI_RX_FIS_OFF) >> 32));
	port_write(pp, PORT_SCR_ERR, 0xffffffffu);
	port_write(pp, PORT_IRQ_STAT, 0xffffffffu);
	port_write(pp, PORT_IRQ_MASK, pp->use_irq ? PORT_IRQ_DEFAULT : 0);
	port_write(pp, PORT_CMD, port_read(pp, PORT_CMD) | PORT_CMD_FIS_RX |
				 PORT_CMD_SPIN_UP | PORT_CMD_POWER_ON);
	if (!pci_mmio_poll(pp->mmio + PORT_TFDATA, ATA_BUSY | ATA_DRQ, 0, AHCI_TMOUT_CMD))
		return false;
	port_write(pp, PORT_CMD, port_read(pp, PORT_CMD) | PORT_CMD_START);
	return true;
}

/* After an error: stop, clear, start again; logs when that fails too. */
static void ahci_recover(struct ahci_port *pp)
{
	if (!ahci_stop_port(pp) || !ahci_start_port(pp))
		printk(KERN_ERR "ata%u: port does not restart after an error\n", pp->id);
}

static void *ahci_cmd_tbl(const struct ahci_port *pp)
{
	return (char *)page_address(pp->dma) + AHCI_CMD_TBL_OFF;
}

/* Slot 0's command FIS: cmd at lba for count sectors (LBA48 form). */
static void ahci_fill_fis(struct ahci_port *pp, uint8_t cmd, uint64_t lba, unsigned int count)
{
	uint8_t *fis = ahci_cmd_tbl(pp);

	memset(fis, 0, AHCI_CMD_TBL_HDR);
	fis[0] = 0x27;			/* Register FIS, host to device */
	fis[1] = 0x80;			/* a command */
	fis[2] = cmd;
	fis[4] = lba & 0xff;
	fis[5] = (lba >> 8) & 0xff;
	fis[6] = (lba >> 16) & 0xff;
	fis[7] = ATA_LBA;
	fis[8] = (lba >> 24) & 0xff;
	fis[9] = (lba >> 32) & 0xff;
	fis[10] = (lba >> 40) & 0xff;
	fis[12] = count & 0xff;
	fis[13] = (count >> 8) & 0xff;
}

/* Set PRD i to len bytes at pa; false when the HBA cannot reach pa. */
static bool ahci_fill_sg(struct ahci_port *pp, unsigned int i, phys_addr_t pa, unsigned int len)
{
	struct ahci_sg *sg = (struct ahci_sg *)((char *)ahci_cmd_tbl(pp) + AHCI_CMD_TBL_HDR) + i;

	if (!pp->s64a && pa + len > (1ull << 32))
		return false;
	sg->addr = (uint32_t)pa;
	sg->addr_hi = (uint32_t)(pa >> 32);
	sg->reserved = 0;
	sg->flags_size = len - 1;
	return true;
}

/* Issue slot 0 with nsg PRDs.  Called with the port's lock. */
static void ahci_issue(struct ahci_port *pp, bool write, unsigned int nsg)
{
	struct ahci_cmd_hdr *hdr = (struct ahci_cmd_hdr *)((char *)page_address(pp->dma) + AHCI_CL_OFF);
	phys_addr_t tbl = page_to_phys(pp->dma) + AHCI_CMD_TBL_OFF;

	hdr->opts = 5 | (write ? 1u << 6 : 0) | nsg << 16;
	hdr->status = 0;
	hdr->tbl_addr = (uint32_t)tbl;
	hdr->tbl_addr_hi = (uint32_t)(tbl >> 32);
	__asm__ volatile("mfence" ::: "memory");
	port_write(pp, PORT_IRQ_STAT, 0xffffffffu);
	port_write(pp, PORT_CMD_ISSUE, 1);
}

/* The result of slot 0's finished command, irq_stat being the port's
 * interrupt status: 0, or -EIO (logged, the port restarted). */
static int ahci_result(struct ahci_port *pp, uint32_t irq_stat, const char *what, uint64_t lba)
{
	uint32_t tfd = port_read(pp, PORT_TFDATA);

	if (!(irq_stat & PORT_IRQ_ERROR) && !(tfd & (ATA_ERR | ATA_DF)))
		return 0;
	printk(KERN_ERR "ata%u: %s of sector %lu failed: irq status %#x, tfd %#x\n", pp->id,
	       what, (unsigned long)lba, irq_stat, tfd);
	ahci_recover(pp);
	return -EIO;
}

static void ahci_timed_out(struct ahci_port *pp, const char *what, uint64_t lba)
{
	printk(KERN_ERR "ata%u: %s of sector %lu timed out (tfd %#x)\n", pp->id, what,
	       (unsigned long)lba, port_read(pp, PORT_TFDATA));
	ahci_recover(pp);
}

/* Issue slot 0 with nsg PRDs and poll until it is done; 0 or -EIO.
 * Called with the port's lock. */
static int ahci_exec_polled(struct ahci_port *pp, bool write, unsigned int nsg, const char *what,
			    uint64_t lba)
{
	ahci_issue(pp, write, nsg);
	if (!pci_mmio_poll(pp->mmio + PORT_CMD_ISSUE, 1, 0, AHCI_TMOUT_CMD)) {
		ahci_timed_out(pp, what, lba);
		return -EIO;
	}
	return ahci_result(pp, port_read(pp, PORT_IRQ_STAT), what, lba);
}

/* Fill slot 0 for rq: its FIS and one PRD per segment; -EIO when a
 * segment is out of the HBA's reach. */
static int ahci_prep_rq(struct ahci_port *pp, struct request *rq, unsigned int *nsg)
{
	bool write = rq_data_dir(rq) == WRITE;
	struct req_iterator iter;
	struct bio_vec *bv;

	*nsg = 0;
	ahci_fill_fis(pp, write ? ATA_CMD_WRITE_EXT : ATA_CMD_READ_EXT, blk_rq_pos(rq),
		      blk_rq_sectors(rq));
	rq_for_each_segment(bv, rq, iter) {
		if (!ahci_fill_sg(pp, (*nsg)++, page_to_phys(bv->bv_page) + bv->bv_offset, bv->bv_len)) {
			printk(KERN_ERR "ata%u: a segment above 4 GiB, and the HBA has no 64-bit DMA\n",
			       pp->id);
			return -EIO;
		}
	}
	return 0;
}

static const char *rq_what(const struct request *rq)
{
	return rq_data_dir(rq) == WRITE ? "write" : "read";
}

/*
 * Interrupt mode: issue the oldest waiting request that can go, moving
 * those that cannot (errors) to done with rq->errors set.  Called with
 * the port's lock, active NULL.
 */
static void ahci_issue_next(struct ahci_port *pp, struct list_head *done)
{
	struct request *rq;
	unsigned int nsg;

	while (!list_empty(&pp->queue)) {
		rq = list_first_entry(&pp->queue, struct request, queuelist);
		list_del_init(&rq->queuelist);
		rq->errors = ahci_prep_rq(pp, rq, &nsg);
		if (rq->errors) {
			list_add_tail(&rq->queuelist, done);
			continue;
		}
		pp->active = rq;
		pp->deadline_ns = ktime_get_ns() + (uint64_t)AHCI_TMOUT_CMD * 1000000;
		ahci_issue(pp, rq_data_dir(rq) == WRITE, nsg);
		return;
	}
}

/* End active with err, onto done, and issue the next.  Port lock held. */
static void ahci_finish_active(struct ahci_port *pp, int err, struct list_head *done)
{
	pp->active->errors = err;
	list_add_tail(&pp->active->queuelist, done);
	pp->active = NULL;
	ahci_issue_next(pp, done);
}

/* End the requests on done (no lock held). */
static void ahci_end_done(struct list_head *done)
{
	struct request *rq, *next;

	list_for_each_entry_safe(rq, next, done, queuelist) {
		list_del_init(&rq->queuelist);
		blk_end_request_all(rq, rq->errors);
	}
}

/* A port's part of an interrupt: is its command done? */
static void ahci_port_intr(struct ahci_port *pp, struct list_head *done)
{
	unsigned long flags;
	uint32_t is;

	spin_lock_irqsave(&pp->lock, flags);
	is = port_read(pp, PORT_IRQ_STAT);
	port_write(pp, PORT_IRQ_STAT, is);
	if (pp->active && ((is & PORT_IRQ_ERROR) || !(port_read(pp, PORT_CMD_ISSUE) & 1)))
		ahci_finish_active(pp, ahci_result(pp, is, rq_what(pp->active),
						   blk_rq_pos(pp->active)), done);
	spin_unlock_irqrestore(&pp->lock, flags);
}

static void ahci_interrupt(unsigned int irq, struct pt_regs *regs)
{
	struct ahci_host *host;
	uint32_t stat;
	unsigned int n;
	LIST_HEAD(done);

	(void)regs;
	list_for_each_entry(host, &ahci_hosts, list) {
		if (host->irq != irq)
			continue;
		stat = readl(host->mmio + HOST_IRQ_STAT);
		for (n = 0; n < AHCI_MAX_PORTS; n++)
			if ((stat & (1u << n)) && host->ports[n])
				ahci_port_intr(host->ports[n], &done);
		writel(stat, host->mmio + HOST_IRQ_STAT);
	}
	ahci_end_done(&done);
}

/* Fail the commands past their deadline, every second (see the top). */
static int ahci_eh_thread(void *data)
{
	struct ahci_host *host;
	struct ahci_port *pp;
	unsigned long flags;
	unsigned int n;

	(void)data;
	for (;;) {
		LIST_HEAD(done);

		msleep(1000);
		list_for_each_entry(host, &ahci_hosts, list) {
			for (n = 0; n < AHCI_MAX_PORTS; n++) {
				pp = host->ports[n];
				if (!pp)
					continue;
				spin_lock_irqsave(&pp->lock, flags);
				if (pp->active && ktime_get_ns() > pp->deadline_ns) {
					ahci_timed_out(pp, rq_what(pp->active), blk_rq_pos(pp->active));
					ahci_finish_active(pp, -EIO, &done);
				}
				spin_unlock_irqrestore(&pp->lock, flags);
			}
		}
		ahci_end_done(&done);
	}
	return 0;
}

static void ahci_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct ahci_port *pp = bdev->private;
	unsigned long flags;
	unsigned int nsg;
	int err;
	LIST_HEAD(done);

	spin_lock_irqsave(&pp->lock, flags);
	if (pp->use_irq) {
		list_add_tail(&rq->queuelist, &pp->queue);
		if (!pp->active)
			ahci_issue_next(pp, &done);
		spin_unlock_irqrestore(&pp->lock, flags);
		ahci_end_done(&done);
		return;
	}
	err = ahci_prep_rq(pp, rq, &nsg);
	if (!err)
		err = ahci_exec_polled(pp, rq_data_dir(rq) == WRITE, nsg, rq_what(rq), blk_rq_pos(rq));
	spin_unlock_irqrestore(&pp->lock, flags);
	blk_end_request_all(rq, err);
}

const struct block_device_operations ahci_ops = {
	.queue_rq = ahci_queue_rq,
};

/* IDENTIFY DEVICE into id (a page of the caller's); 0 or -EIO. */
static int ahci_identify(struct ahci_port *pp, struct page *buf)
{
	unsigned long flags;
	int err;

	spin_lock_irqsave(&pp->lock, flags);
	ahci_fill_fis(pp, ATA_CMD_ID_ATA, 0, 0);
	if (ahci_fill_sg(pp, 0, page_to_phys(buf), ATA_ID_WORDS * 2))
		err = ahci_exec_polled(pp, false, 1, "IDENTIFY", 0);
	else
		err = -EIO;	/* the buffer is out of the HBA's reach */
	spin_unlock_irqrestore(&pp->lock, flags);
	return err;
}

/* Bring up port n of the HBA at mmio, polled; the port when a disk was
 * registered, else NULL. */
static struct ahci_port *ahci_port_probe(volatile uint8_t *mmio, unsigned int n, bool s64a,
					 struct page *idbuf)
{
	struct ahci_port *pp;
	volatile uint8_t *pmmio = mmio + 0x100 + n * 0x80;
	uint32_t ssts = readl(pmmio + PORT_SCR_STAT), sig;
	unsigned int id = ata_new_port_id();
	char model[ATA_ID_PROD_LEN + 1];
	const uint16_t *ident;
	uint64_t sectors;
	int err;

	if ((ssts & 0xf) != 3)
		return NULL;		/* no device on the link */
	pp = kzalloc(sizeof(*pp), GFP_KERNEL);
	if (pp)
		pp->dma = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!pp || !pp->dma) {
		printk(KERN_ERR "ata%u: out of memory for the port\n", id);
		kfree(pp);
		return NULL;
	}
	pp->id = id;
	pp->mmio = pmmio;
	pp->s64a = s64a;
	spin_lock_init(&pp->lock, "ahci_port");
	INIT_LIST_HEAD(&pp->queue);
	if (!pp->s64a && page_to_phys(pp->dma) >= (1ull << 32)) {
		printk(KERN_ERR "ata%u: the port's memory is above 4 GiB, skipped\n", id);
		goto out;
	}
	if (!ahci_stop_port(pp) || !ahci_start_port(pp)) {
		printk(KERN_WARNING "ata%u: SATA port %u does not start, skipped\n", id, n);
		goto out;
	}
	sig = port_read(pp, PORT_SIG);
	if (sig == SATA_SIG_ATAPI) {
		printk(KERN_INFO "ata%u: SATA port %u: ATAPI device (a CD or DVD drive), not supported\n",
		       id, n);
		goto stop;
	}
	if (sig != SATA_SIG_ATA) {
		printk(KERN_INFO "ata%u: SATA port %u: unknown device (signature %#x), skipped\n",
		       id, n, sig);
		goto stop;
	}
	if (ahci_identify(pp, idbuf)) {
		printk(KERN_WARNING "ata%u: IDENTIFY failed, skipped\n", id);
		goto stop;
	}
	ident = page_address(idbuf);
	ata_id_c_string(ident, model, sizeof(model));
	sectors = ata_id_n_sectors(ident);
	if (!ata_id_has_lba48(ident) || sectors == 0) {
		printk(KERN_INFO "ata%u: %s has no LBA48, not supported\n", id, model);
		goto stop;
	}
	err = sd_name_disk(&pp->bdev);
	if (!err) {
		pp->bdev.sector_size = ATA_SECT_SIZE;
		pp->bdev.nr_sectors = sectors;
		pp->bdev.max_segments = AHCI_MAX_PRD;
		pp->bdev.ops = &ahci_ops;
		pp->bdev.private = pp;
		err = register_blkdev(&pp->bdev);
	}
	if (err) {
		printk(KERN_ERR "ata%u: %s not registered: error %d\n", id, model, err);
		goto stop;
	}
	printk(KERN_INFO "ata%u: SATA port %u: ATA disk \"%s\", %lu sectors, DMA: %s\n", id, n,
	       model, (unsigned long)sectors, pp->bdev.name);
	return pp;
stop:
	ahci_stop_port(pp);
out:
	__free_page(pp->dma);
	kfree(pp);
	return NULL;
}

/* Interrupts for an HBA on pdev's line, which has disks: true when our
 * handler owns the line (now or already) and ata_eh runs, false when not
 * (logged). */
static bool ahci_setup_irq(struct pci_dev *pdev)
{
	struct task_struct *eh;

	if (!pci_request_irq(pdev, ahci_interrupt, "ahci", "ahci", &ahci_irq_lines))
		return false;
	if (!ahci_eh_started) {
		eh = kthread_create(ahci_eh_thread, NULL, "ata_eh");
		if (!eh) {
			printk(KERN_INFO "ahci: no memory for the ata_eh thread, completion polled\n");
			return false;
		}
		wake_up_process(eh);
		ahci_eh_started = true;
	}
	return true;
}

static void ahci_probe(struct pci_dev *pdev, struct page *idbuf)
{
	uint64_t bar = pci_resource_start(pdev, AHCI_PCI_BAR);
	volatile uint8_t *mmio;
	struct ahci_host *host;
	uint32_t cap, pi;
	unsigned int n, disks = 0;
	unsigned long irq_flags;

	mmio = pci_iomap(pdev, AHCI_PCI_BAR, "ahci");	/* the ABAR */
	if (!mmio)
		return;
	writel(readl(mmio + HOST_CTL) | HOST_AHCI_EN, mmio + HOST_CTL);
	/* CAP and PI are set by the firmware, and some HBAs forget them in
	 * a reset: keep them across it (Linux's ahci_save_initial_config). */
	cap = readl(mmio + HOST_CAP);
	pi = readl(mmio + HOST_PORTS_IMPL);
	writel(readl(mmio + HOST_CTL) | HOST_RESET, mmio + HOST_CTL);
	if (!pci_mmio_poll(mmio + HOST_CTL, HOST_RESET, 0, AHCI_TMOUT_RESET)) {
		printk(KERN_WARNING "ahci: HBA at %#lx does not come out of reset, skipped\n",
		       (unsigned long)bar);
		return;
	}
	writel(HOST_AHCI_EN, mmio + HOST_CTL);	/* AHCI mode, interrupts off */
	writel(cap, mmio + HOST_CAP);
	writel(pi, mmio + HOST_PORTS_IMPL);
	printk(KERN_INFO "ahci: AHCI %x.%x at %#lx, %u ports (implemented %#x)%s\n",
	       readl(mmio + HOST_VERSION) >> 16, readl(mmio + HOST_VERSION) & 0xffff,
	       (unsigned long)bar, (cap & 0x1f) + 1, pi, cap & HOST_CAP_S64A ? ", 64-bit DMA" : "");
	mdelay(10);			/* links come up after the reset */
	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host) {
		printk(KERN_ERR "ahci: out of memory\n");
		return;
	}
	host->mmio = mmio;
	host->irq = pdev->irq;
	for (n = 0; n < AHCI_MAX_PORTS; n++)
		if (pi & (1u << n))
			disks += !!(host->ports[n] = ahci_port_probe(mmio, n, cap & HOST_CAP_S64A, idbuf));
	if (!disks || !ahci_setup_irq(pdev)) {
		kfree(host);		/* polled: the ports keep their own pointers */
		return;
	}
	/* No request has run yet (partitions are read after every driver's
	 * probe); the switch is made under each port's lock all the same. */
	for (n = 0; n < AHCI_MAX_PORTS; n++) {
		struct ahci_port *pp = host->ports[n];

		if (!pp)
			continue;
		spin_lock_irqsave(&pp->lock, irq_flags);
		pp->use_irq = true;
		port_write(pp, PORT_IRQ_STAT, 0xffffffffu);
		port_write(pp, PORT_IRQ_MASK, PORT_IRQ_DEFAULT);
		spin_unlock_irqrestore(&pp->lock, irq_flags);
	}
	irq_flags = local_irq_save();	/* the handler walks ahci_hosts */
	list_add_tail(&host->list, &ahci_hosts);
	local_irq_restore(irq_flags);
	writel(HOST_AHCI_EN | HOST_IRQ_EN, mmio + HOST_CTL);
	printk(KERN_INFO "ahci: completion by interrupt on IRQ %u\n", pdev->irq);
}

void ahci_init(void)
{
	struct pci_dev *pdev = NULL;
	struct page *idbuf = NULL;

	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev))) {
		if (pdev->class != PCI_CLASS_STORAGE_SATA_AHCI)
			continue;
		if (!idbuf)
			idbuf = alloc_page(GFP_KERNEL);
		if (!idbuf) {
			printk(KERN_ERR "ahci: out of memory\n");
			return;
		}
		ahci_probe(pdev, idbuf);
	}
	if (idbuf)
		__free_page(idbuf);
}
