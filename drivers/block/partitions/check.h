/*
 * Reading a disk's partition table (Linux's block/partitions/check.h):
 * what the parsers (efi.c, msdos.c) and their driver (core.c) share.
 *
 * A parser sees the disk only through read_part_sector() and fills
 * state->parts[]: partition p (1 .. limit-1, Linux's numbers: the four
 * MBR slots are 1-4, logical partitions 5 on, a GPT's entry i is i+1)
 * starts at parts[p].from and has parts[p].size 512-byte sectors; size
 * 0 means there is none.  Parsers only read what the table says; the
 * bounds of each partition against the disk and against the others are
 * checked once, by check_partition(), after the parser that recognised
 * the table.  Nothing here allocates or sleeps except the caller's
 * read_page, so the host unit test (tests/unit/test_partitions.c) runs
 * the same code over image files made by sfdisk.
 */
#ifndef DRIVERS_BLOCK_PARTITIONS_CHECK_H
#define DRIVERS_BLOCK_PARTITIONS_CHECK_H

#include <drivers/blkdev.h>

/* A disk's minors: the whole disk and partitions 1-15 (sd's 16, vd's 16). */
#define DISK_MAX_PARTS		16
/* read_page's unit: pages of the disk, from byte 0. */
#define PART_READ_SIZE		4096u

struct parsed_partitions {
	const char *name;		/* the disk's, for messages: "vda" */
	sector_t capacity;		/* the disk's, in 512-byte sectors */
	unsigned int sector_size;	/* its logical block size, bytes */
	int limit;			/* partition numbers are below it */
	int next;			/* msdos: the next logical partition's number */
	struct {
		sector_t from, size;	/* 512-byte sectors; size 0: none */
		bool extended;		/* an MBR extended partition (a container) */
	} parts[DISK_MAX_PARTS];
	char pp_buf[256];		/* the boot line: " vda: vda1 vda2 < vda5 >" */
	/*
	 * Fill buf with len bytes of the disk at byte pos (pos a multiple of
	 * PART_READ_SIZE, len that or less where the disk ends); 0 or -EIO.
	 */
	int (*read_page)(void *ctx, uint64_t pos, void *buf, unsigned int len);
	void *read_ctx;
	unsigned char buf[PART_READ_SIZE];	/* the last page read */
	uint64_t buf_pos;		/* its byte offset, or UINT64_MAX */
	bool access_beyond_eod;		/* a parser asked for a sector past the end */
};

/* Set state up to read the disk: name, capacity and sector size given. */
void parsed_partitions_init(struct parsed_partitions *state, const char *name,
			    sector_t capacity, unsigned int sector_size,
			    int (*read_page)(void *, uint64_t, void *, unsigned int), void *ctx);

/*
 * The 512 bytes of sector n (512-byte units), or NULL when n is past the
 * end (access_beyond_eod is set) or the read failed.  The bytes stay
 * valid until the next call: a parser copies what it keeps.
 */
const unsigned char *read_part_sector(struct parsed_partitions *state, sector_t n);

/* Record partition n and name it in pp_buf. */
void put_partition(struct parsed_partitions *state, int n, sector_t from, sector_t size);
/* Append text to pp_buf (cut where it is full). */
void pp_append(struct parsed_partitions *state, const char *text);

/*
 * The parsers: 1 when the table was theirs (parts[] filled), 0 when it
 * is not (parts[] untouched), -1 on a read error.
 */
int efi_partition(struct parsed_partitions *state);
int msdos_partition(struct parsed_partitions *state);

/*
 * Find the disk's table: the GPT, else the MBR.  Logs the boot line,
 * then refuses (with a line each, and size set to 0) a partition that
 * does not lie inside the disk or overlaps one numbered before it.
 * Returns 1 with state->parts[] filled, 0 for no known table, -EIO when
 * it could not be read.
 */
int check_partition(struct parsed_partitions *state);

#endif
