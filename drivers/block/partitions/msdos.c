/*
 * The MBR ("DOS") partition table (Linux's block/partitions/msdos.c,
 * msdos_partition and parse_extended, without the BSD/Solaris/Minix
 * subpartitions and the AIX and FAT boot-sector guesses).
 *
 * Sector 0 ends in 0x55 0xaa and holds four 16-byte entries at 0x1be:
 * partitions 1-4 by slot.  An entry of type 0x05, 0x0f or 0x85 is an
 * extended partition: a container whose first sector is an EBR, a
 * sector laid out as an MBR whose first data entry is a logical
 * partition (its start relative to that EBR) and whose first extended
 * entry links the next EBR (its start relative to the container).
 * Logical partitions are numbered 5, 6, ... in the chain's order, up to
 * the disk's limit; the container itself is recorded as its first two
 * sectors (one logical block when blocks are larger), as Linux does.
 *
 * A table is only believed when every boot indicator is 0 or 0x80 (the
 * same 0x55aa ends a FAT boot sector), and it is not ours when an entry
 * is 0xee: that MBR protects a GPT, which efi.c reads.  The chain is
 * followed at most 100 links without a data partition (Linux's loopct),
 * so a chain that loops ends; the numbers end at the limit anyway.
 * Entries are little-endian and unaligned: they are copied out of the
 * sector before use.
 */
#include <pageturn/string.h>

#include "check.h"

#define MSDOS_LABEL_MAGIC_OFFSET	510
#define MSDOS_PARTITION_OFFSET		0x1be

#define DOS_EXTENDED_PARTITION		0x05
#define WIN98_EXTENDED_PARTITION	0x0f
#define LINUX_EXTENDED_PARTITION	0x85
#define EFI_PMBR_OSTYPE_EFI_GPT		0xee

struct msdos_partition {
	uint8_t boot_ind;		/* 0x80: active */
	uint8_t head, sector, cyl;	/* CHS start: unused */
	uint8_t sys_ind;		/* the type */
	uint8_t end_head, end_sector, end_cyl;
	uint32_t start_sect;		/* little-endian */
	uint32_t nr_sects;
} __packed;

_Static_assert(sizeof(struct msdos_partition) == 16, "an MBR entry is 16 bytes");

static bool msdos_magic_present(const unsigned char *data)
{
	return data[MSDOS_LABEL_MAGIC_OFFSET] == 0x55 && data[MSDOS_LABEL_MAGIC_OFFSET + 1] == 0xaa;
}

static bool is_extended_partition(const struct msdos_partition *p)
{
	return p->sys_ind == DOS_EXTENDED_PARTITION || p->sys_ind == WIN98_EXTENDED_PARTITION ||
	       p->sys_ind == LINUX_EXTENDED_PARTITION;
}

/* The four entries of an MBR or EBR, copied out of data. */
static void read_entries(struct msdos_partition p[4], const unsigned char *data)
{
	memcpy(p, data + MSDOS_PARTITION_OFFSET, 4 * sizeof(*p));
}

/*
 * Logical partitions of the container at first_sector, first_size
 * sectors long.  this_sector and this_size are the current EBR's
 * extended partition (the container itself at first).
 */
static void parse_extended(struct parsed_partitions *state, sector_t first_sector,
			   sector_t first_size)
{
	sector_t this_sector = first_sector, this_size = first_size;
	sector_t ssz = state->sector_size / SECTOR_SIZE;
	int loopct = 0;		/* links followed without a data partition */
	struct msdos_partition p[4];
	const unsigned char *data;
	int i;

	for (;;) {
		if (++loopct > 100 || state->next == state->limit)
			return;
		data = read_part_sector(state, this_sector);
		if (!data || !msdos_magic_present(data))
			return;
		read_entries(p, data);
		/* The data partitions first: usually entry 0 only; entries 2 and
		 * 3 hold garbage in some tools' EBRs, so they must lie inside. */
		for (i = 0; i < 4; i++) {
			sector_t offs = (sector_t)p[i].start_sect * ssz;
			sector_t size = (sector_t)p[i].nr_sects * ssz;
			sector_t next = this_sector + offs;

			if (!size || is_extended_partition(&p[i]))
				continue;
			if (i >= 2 && (offs + size > this_size || next < first_sector ||
				       next + size > first_sector + first_size))
				continue;
			put_partition(state, state->next, next, size);
			loopct = 0;
			if (++state->next == state->limit)
				return;
		}
		/* Then the link to the next EBR: the first extended entry. */
		for (i = 0; i < 4; i++)
			if (p[i].nr_sects && is_extended_partition(&p[i]))
				break;
		if (i == 4)
			return;
		this_sector = first_sector + (sector_t)p[i].start_sect * ssz;
		this_size = (sector_t)p[i].nr_sects * ssz;
	}
}

int msdos_partition(struct parsed_partitions *state)
{
	sector_t ssz = state->sector_size / SECTOR_SIZE;
	struct msdos_partition p[4];
	const unsigned char *data;
	int slot;

	data = read_part_sector(state, 0);
	if (!data)
		return -1;
	if (!msdos_magic_present(data))
		return 0;
	read_entries(p, data);
	for (slot = 0; slot < 4; slot++)
		if (p[slot].boot_ind != 0 && p[slot].boot_ind != 0x80)
			return 0;
	for (slot = 0; slot < 4; slot++)
		if (p[slot].sys_ind == EFI_PMBR_OSTYPE_EFI_GPT)
			return 0;
	state->next = 5;
	for (slot = 0; slot < 4; slot++) {
		sector_t start = (sector_t)p[slot].start_sect * ssz;
		sector_t size = (sector_t)p[slot].nr_sects * ssz;

		if (!size)
			continue;
		if (is_extended_partition(&p[slot])) {
			put_partition(state, slot + 1, start, MIN(size, MAX(ssz, (sector_t)2)));
			state->parts[slot + 1].extended = true;
			pp_append(state, " <");
			parse_extended(state, start, size);
			pp_append(state, " >");
			continue;
		}
		put_partition(state, slot + 1, start, size);
	}
	return 1;
}
