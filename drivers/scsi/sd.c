/*
 * SCSI disks (Linux's drivers/scsi/sd.c, reduced): a logical unit a host
 * found becomes a block device, sda, sdb, ..., whose requests become
 * READ and WRITE commands the host carries.
 *
 * At probe, commands run one by one through scsi_execute(), which sleeps
 * until the host is done:
 *   INQUIRY            the unit is a direct-access device (type 0);
 *   TEST UNIT READY    until it is ready: a unit reports UNIT ATTENTION
 *                      once after power-on or a reset, NOT READY while it
 *                      spins up; no medium (sense 02/3a) skips it;
 *   READ CAPACITY(10)  its last block and block size, or (16) when the
 *                      last block does not fit 32 bits.
 *
 * States of a disk's I/O (struct scsi_disk, under its lock):
 *   idle     active is NULL, the queue is empty.
 *   busy     active's command is with the host; later requests wait on
 *            the queue in order.  sd_done(), in the host's thread, ends
 *            active and hands over the next.
 * A command whose transport failed in a way the host says is worth
 * another try (-EAGAIN), or that the unit answers with UNIT ATTENTION,
 * is sent again, up to SD_MAX_RETRIES times.  A
 * command fails its request with -EIO (a line naming the sector and the
 * sense key) when it still fails then, the unit reports any other CHECK
 * CONDITION, or fewer bytes moved than the request holds.
 * Requests are ended with the lock dropped: ending one may submit the
 * next (blk_end_request_all runs the queue, which calls sd_queue_rq).
 *
 * Reads and writes use the 10-byte commands while the blocks fit them
 * (32-bit LBA, 16-bit count) and the 16-byte ones beyond 2 TiB.
 */
#include <drivers/blkdev.h>
#include <drivers/scsi.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/completion.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

/* TEST UNIT READY tries and the pause between them (a unit may take
 * seconds to spin up). */
#define SD_TUR_TRIES		20
#define SD_TUR_PAUSE_MS		100
/* Times a request's command is sent again after a transport failure or
 * UNIT ATTENTION (a unit reports that once after a reset). */
#define SD_MAX_RETRIES		3
#define SD_INQUIRY_LEN		36
#define SD_CAP16_LEN		32

struct scsi_disk {
	struct block_device bdev;
	struct scsi_device *sdev;
	unsigned int block_shift;	/* log2(block size / 512) */
	bool use_16;			/* the disk is beyond READ(10)'s reach */
	spinlock_t lock;		/* the fields below */
	struct request *active;		/* with the host, or NULL */
	unsigned int retries;		/* of active's command */
	struct list_head queue;		/* requests waiting, by queuelist */
	struct scsi_cmnd cmd;		/* active's */
};

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The sense key of a CHECK CONDITION, or 0. */
static unsigned int sd_sense_key(const struct scsi_cmnd *cmd)
{
	return cmd->result == SAM_STAT_CHECK_CONDITION ? cmd->sense[2] & 0xf : 0;
}

/* Its additional sense code. */
static unsigned int sd_asc(const struct scsi_cmnd *cmd)
{
	return cmd->result == SAM_STAT_CHECK_CONDITION ? cmd->sense[12] : 0;
}

/*
 * Synchronous commands: probe time.
 */

static void scsi_execute_done(struct scsi_cmnd *cmd)
{
	complete(cmd->request);
}

/* Run cdb with len bytes of buf (kmalloc'd, within one page) in
 * direction dir and wait; *cmd holds the outcome.  0 when the host
 * carried it (cmd->result says what the unit said), else an errno. */
static int scsi_execute(struct scsi_device *sdev, struct scsi_cmnd *cmd, const uint8_t *cdb,
			unsigned int cdb_len, enum dma_data_direction dir, void *buf,
			unsigned int len)
{
	struct completion done;
	int err;

	memset(cmd, 0, sizeof(*cmd));
	cmd->device = sdev;
	memcpy(cmd->cmnd, cdb, cdb_len);
	cmd->cmd_len = cdb_len;
	cmd->sc_data_direction = len ? dir : DMA_NONE;
	if (len) {
		cmd->sg[0].dma_address = virt_to_phys(buf);
		cmd->sg[0].length = len;
		cmd->nsg = 1;
	}
	cmd->length = len;
	init_completion(&done);
	cmd->request = &done;
	cmd->scsi_done = scsi_execute_done;
	err = sdev->host->queuecommand(cmd);
	if (err)
		return err;
	wait_for_completion(&done);
	return cmd->result < 0 ? cmd->result : 0;
}

/* "scsi 0:0:0:0: Direct-Access     QEMU     QEMU HARDDISK    2.5+" */
static void sd_print_inquiry(const struct scsi_device *sdev, const uint8_t *inq)
{
	char vendor[9], model[17], rev[5];
	unsigned int i;

	for (i = 0; i < 8; i++)
		vendor[i] = inq[8 + i] >= 0x20 && inq[8 + i] < 0x7f ? inq[8 + i] : ' ';
	for (i = 0; i < 16; i++)
		model[i] = inq[16 + i] >= 0x20 && inq[16 + i] < 0x7f ? inq[16 + i] : ' ';
	for (i = 0; i < 4; i++)
		rev[i] = inq[32 + i] >= 0x20 && inq[32 + i] < 0x7f ? inq[32 + i] : ' ';
	vendor[8] = model[16] = rev[4] = '\0';
	printk(KERN_INFO "scsi %u:0:0:%u: %s %s %s %s%s\n", sdev->host_no, sdev->lun,
	       (inq[0] & 0x1f) == 0 ? "Direct-Access    " : "Other-Type       ", vendor, model, rev,
	       inq[1] & 0x80 ? " (removable)" : "");
}

/* Wait for the unit to be ready: 0, -ENOMEDIUM, or -EIO (logged). */
static int sd_wait_ready(struct scsi_device *sdev, struct scsi_cmnd *cmd)
{
	static const uint8_t tur[6] = { TEST_UNIT_READY };
	unsigned int i;
	int err = 0;

	for (i = 0; i < SD_TUR_TRIES; i++) {
		err = scsi_execute(sdev, cmd, tur, sizeof(tur), DMA_NONE, NULL, 0);
		if (!err && cmd->result == SAM_STAT_GOOD)
			return 0;
		if (!err && sd_sense_key(cmd) == NOT_READY && sd_asc(cmd) == 0x3a)
			return -ENOMEDIUM;
		if (!err && sd_sense_key(cmd) == UNIT_ATTENTION)
			continue;
		msleep(SD_TUR_PAUSE_MS);
	}
	printk(KERN_WARNING "sd %u:0:0:%u: not ready (error %d, sense key %#x/%#x)\n",
	       sdev->host_no, sdev->lun, err, sd_sense_key(cmd), sd_asc(cmd));
	return -EIO;
}

/* READ CAPACITY: the disk's last block and block size into sdkp; 0 or
 * -EIO (logged).  buf: SD_CAP16_LEN bytes of kmalloc'd memory. */
static int sd_read_capacity(struct scsi_disk *sdkp, struct scsi_cmnd *cmd, uint8_t *buf,
			    uint64_t *blocks, uint32_t *block_size)
{
	uint8_t cdb[16] = { READ_CAPACITY };
	int err;

	err = scsi_execute(sdkp->sdev, cmd, cdb, 10, DMA_FROM_DEVICE, buf, 8);
	if (!err && cmd->result == SAM_STAT_GOOD && cmd->resid == 0) {
		*blocks = (uint64_t)get_be32(buf) + 1;
		*block_size = get_be32(buf + 4);
		if (get_be32(buf) != 0xffffffffu)
			return 0;
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = SERVICE_ACTION_IN_16;
		cdb[1] = SAI_READ_CAPACITY_16;
		put_be32(cdb + 10, SD_CAP16_LEN);
		err = scsi_execute(sdkp->sdev, cmd, cdb, 16, DMA_FROM_DEVICE, buf, SD_CAP16_LEN);
		if (!err && cmd->result == SAM_STAT_GOOD && cmd->resid <= SD_CAP16_LEN - 12) {
			*blocks = ((uint64_t)get_be32(buf) << 32 | get_be32(buf + 4)) + 1;
			*block_size = get_be32(buf + 8);
			sdkp->use_16 = true;
			return 0;
		}
	}
	printk(KERN_WARNING "sd %u:0:0:%u: READ CAPACITY failed (error %d, status %#x)\n",
	       sdkp->sdev->host_no, sdkp->sdev->lun, err, cmd->result);
	return -EIO;
}

/*
 * The request path.
 */

/* Fill sdkp->cmd for rq.  Called with the disk's lock. */
static void sd_setup_rw(struct scsi_disk *sdkp, struct request *rq)
{
	struct scsi_cmnd *cmd = &sdkp->cmd;
	bool write = rq_data_dir(rq) == WRITE;
	uint64_t lba = blk_rq_pos(rq) >> sdkp->block_shift;
	uint32_t blocks = blk_rq_sectors(rq) >> sdkp->block_shift;
	struct req_iterator iter;
	struct bio_vec *bv;

	memset(cmd, 0, sizeof(*cmd));
	cmd->device = sdkp->sdev;
	if (sdkp->use_16) {
		cmd->cmnd[0] = write ? WRITE_16 : READ_16;
		put_be64(cmd->cmnd + 2, lba);
		put_be32(cmd->cmnd + 10, blocks);
		cmd->cmd_len = 16;
	} else {
		cmd->cmnd[0] = write ? WRITE_10 : READ_10;
		put_be32(cmd->cmnd + 2, (uint32_t)lba);
		cmd->cmnd[7] = blocks >> 8;
		cmd->cmnd[8] = blocks;
		cmd->cmd_len = 10;
	}
	cmd->sc_data_direction = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	rq_for_each_segment(bv, rq, iter) {
		cmd->sg[cmd->nsg].dma_address = page_to_phys(bv->bv_page) + bv->bv_offset;
		cmd->sg[cmd->nsg].length = bv->bv_len;
		cmd->nsg++;
	}
	cmd->length = blk_rq_bytes(rq);
	cmd->request = rq;
}

static void sd_done(struct scsi_cmnd *cmd);

/* Hand the oldest waiting request to the host, moving those it refuses
 * to done with rq->errors set.  Called with the lock, active NULL. */
static void sd_start_next(struct scsi_disk *sdkp, struct list_head *done)
{
	struct request *rq;

	while (!list_empty(&sdkp->queue)) {
		rq = list_first_entry(&sdkp->queue, struct request, queuelist);
		list_del_init(&rq->queuelist);
		sd_setup_rw(sdkp, rq);
		sdkp->cmd.scsi_done = sd_done;
		sdkp->active = rq;
		sdkp->retries = 0;
		if (!sdkp->sdev->host->queuecommand(&sdkp->cmd))
			return;
		printk(KERN_ERR "sd %s: the host refused a command\n", sdkp->bdev.name);
		sdkp->active = NULL;
		rq->errors = -EIO;
		list_add_tail(&rq->queuelist, done);
	}
}

static void sd_end_done(struct list_head *done)
{
	struct request *rq, *next;

	list_for_each_entry_safe(rq, next, done, queuelist) {
		list_del_init(&rq->queuelist);
		blk_end_request_all(rq, rq->errors);
	}
}

/* Should cmd go again: the host says it may (-EAGAIN: its transport
 * failed and it reset the device), or the unit reported UNIT ATTENTION,
 * and retries are left? */
static bool sd_retry(struct scsi_disk *sdkp, const struct scsi_cmnd *cmd)
{
	return (cmd->result == -EAGAIN || sd_sense_key(cmd) == UNIT_ATTENTION) &&
	       sdkp->retries < SD_MAX_RETRIES;
}

/* The host is done with the active command: send it again (sd_retry),
 * or end its request and start the next.  The host's thread, process
 * context, no lock held; active stays set, so nobody else touches cmd. */
static void sd_done(struct scsi_cmnd *cmd)
{
	struct scsi_disk *sdkp = container_of(cmd, struct scsi_disk, cmd);
	struct request *rq = cmd->request;
	unsigned long flags;
	LIST_HEAD(done);

	if (sd_retry(sdkp, cmd)) {
		sdkp->retries++;
		cmd->result = 0;
		cmd->resid = 0;
		memset(cmd->sense, 0, sizeof(cmd->sense));
		if (!sdkp->sdev->host->queuecommand(cmd))
			return;
		cmd->result = -EIO;
	}
	rq->errors = 0;
	if (cmd->result != SAM_STAT_GOOD || cmd->resid) {
		printk(KERN_ERR "sd %s: %s of sector %lu failed: %s %d, sense key %#x/%#x, %u bytes short\n",
		       sdkp->bdev.name, rq_data_dir(rq) == WRITE ? "write" : "read",
		       (unsigned long)blk_rq_pos(rq), cmd->result < 0 ? "error" : "status",
		       cmd->result, sd_sense_key(cmd), sd_asc(cmd), cmd->resid);
		rq->errors = -EIO;
	}
	spin_lock_irqsave(&sdkp->lock, flags);
	list_add_tail(&rq->queuelist, &done);
	sdkp->active = NULL;
	sd_start_next(sdkp, &done);
	spin_unlock_irqrestore(&sdkp->lock, flags);
	sd_end_done(&done);
}

static void sd_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct scsi_disk *sdkp = bdev->private;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&sdkp->lock, flags);
	list_add_tail(&rq->queuelist, &sdkp->queue);
	if (!sdkp->active)
		sd_start_next(sdkp, &done);
	spin_unlock_irqrestore(&sdkp->lock, flags);
	sd_end_done(&done);
}

const struct block_device_operations sd_ops = {
	.queue_rq = sd_queue_rq,
};

/* "16.8 MB/16.0 MiB", as Linux's sd prints a capacity: tenths, rounded. */
static void sd_format_size(char *buf, size_t len, uint64_t bytes)
{
	uint64_t mb = (bytes + 50000) / 100000, mib = (bytes * 10 + (1 << 19)) / (1 << 20);

	snprintf(buf, len, "%lu.%lu MB/%lu.%lu MiB", (unsigned long)(mb / 10),
		 (unsigned long)(mb % 10), (unsigned long)(mib / 10), (unsigned long)(mib % 10));
}

int sd_probe(struct scsi_device *sdev)
{
	static const uint8_t inquiry[6] = { INQUIRY, 0, 0, 0, SD_INQUIRY_LEN, 0 };
	struct scsi_disk *sdkp;
	struct scsi_cmnd *cmd;
	uint32_t block_size = 0;
	uint64_t blocks = 0;
	char size[40];
	uint8_t *buf;
	int err;

	sdkp = kzalloc(sizeof(*sdkp), GFP_KERNEL);
	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	buf = kzalloc(64, GFP_KERNEL);
	if (!sdkp || !cmd || !buf) {
		err = -ENOMEM;
		goto fail;
	}
	sdkp->sdev = sdev;
	spin_lock_init(&sdkp->lock, "scsi_disk");
	INIT_LIST_HEAD(&sdkp->queue);
	err = scsi_execute(sdev, cmd, inquiry, sizeof(inquiry), DMA_FROM_DEVICE, buf, SD_INQUIRY_LEN);
	if (err || cmd->result != SAM_STAT_GOOD || SD_INQUIRY_LEN - cmd->resid < 32) {
		printk(KERN_WARNING "scsi %u:0:0:%u: INQUIRY failed (error %d, status %#x)\n",
		       sdev->host_no, sdev->lun, err, cmd->result);
		err = -EIO;
		goto fail;
	}
	sd_print_inquiry(sdev, buf);
	if ((buf[0] & 0x1f) != 0 || (buf[0] >> 5) != 0) {
		err = -ENODEV;		/* not a disk, or no unit connected */
		goto fail;
	}
	err = sd_wait_ready(sdev, cmd);
	if (err == -ENOMEDIUM)
		printk(KERN_INFO "sd %u:0:0:%u: no medium, skipped\n", sdev->host_no, sdev->lun);
	if (err)
		goto fail;
	err = sd_read_capacity(sdkp, cmd, buf, &blocks, &block_size);
	if (err)
		goto fail;
	if (block_size < 512 || block_size > PAGE_SIZE || (block_size & (block_size - 1))) {
		printk(KERN_WARNING "sd %u:0:0:%u: a block size of %u bytes, not supported\n",
		       sdev->host_no, sdev->lun, block_size);
		err = -EINVAL;
		goto fail;
	}
	sdkp->block_shift = (unsigned int)__builtin_ctz(block_size) - SECTOR_SHIFT;
	err = sd_name_disk(&sdkp->bdev);
	if (err)
		goto fail;
	sdkp->bdev.sector_size = block_size;
	sdkp->bdev.nr_sectors = blocks << sdkp->block_shift;
	sdkp->bdev.max_sectors = sdev->max_sectors;
	sdkp->bdev.max_segments = SCSI_MAX_SG;
	sdkp->bdev.max_segment_size = PAGE_SIZE;
	sdkp->bdev.ops = &sd_ops;
	sdkp->bdev.private = sdkp;
	err = register_blkdev(&sdkp->bdev);
	if (err)
		goto fail;
	sd_format_size(size, sizeof(size), blocks * block_size);
	printk(KERN_INFO "sd %u:0:0:%u: [%s] %lu %u-byte logical blocks: (%s)\n", sdev->host_no,
	       sdev->lun, sdkp->bdev.name, (unsigned long)blocks, block_size, size);
	kfree(cmd);
	kfree(buf);
	return 0;
fail:
	kfree(sdkp);
	kfree(cmd);
	kfree(buf);
	return err;
}
