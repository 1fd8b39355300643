/*
 * The GUID Partition Table (Linux's block/partitions/efi.c: efi_partition,
 * find_valid_gpt, is_gpt_valid, is_pmbr_valid; the UEFI specification's
 * layout).  Block numbers here are the disk's logical blocks (LBAs of
 * sector_size bytes); a partition is recorded in 512-byte sectors.
 *
 *   LBA 0          a protective MBR: one entry of type 0xee starting at
 *                  LBA 1 and covering the disk (or 2 TiB); a "hybrid" MBR
 *                  with other entries beside it is accepted too.
 *   LBA 1          the primary header: "EFI PART", its own CRC-32, where
 *                  it is (my_lba), where the other copy is, the usable
 *                  LBAs, and where the entry array is, how many entries
 *                  of how many bytes, and the array's CRC-32.
 *   last LBA       the alternate header, describing its own entry array
 *                  (just before it).
 *
 * A header is believed only when all of that holds (is_gpt_valid): the
 * signature, a size from 92 bytes to one sector, its CRC with the CRC
 * field zeroed, my_lba where it was read, usable LBAs inside the disk and
 * in order, 128-byte entries, an array of at most 4 MiB (Linux's bound,
 * KMALLOC_MAX_SIZE) whose CRC matches.  The primary is used when valid,
 * else the alternate, with a line saying so; with neither the disk has
 * no GPT here (its protective MBR then keeps msdos.c away too).  Entry i
 * is partition i+1; an entry whose type GUID is zero is unused.  Only the
 * first limit-1 entries can be partitions; check_partition() refuses one
 * outside the disk or over another.
 *
 * The entry array is read sector by sector (through the parser's page),
 * its CRC computed on the way, so nothing is allocated.  All fields are
 * little-endian; headers and entries are copied out of the sector first.
 */
#include <pageturn/crc32.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

#include "check.h"

#define GPT_HEADER_SIGNATURE		0x5452415020494645ULL	/* "EFI PART" */
#define GPT_PRIMARY_PARTITION_TABLE_LBA	1
#define EFI_PMBR_OSTYPE_EFI_GPT		0xee
#define GPT_MAX_PT_SIZE			(4u << 20)

enum { GPT_MBR_NONE, GPT_MBR_PROTECTIVE, GPT_MBR_HYBRID };

typedef struct {
	uint8_t b[16];
} efi_guid_t;

typedef struct _gpt_header {
	uint64_t signature;
	uint32_t revision;
	uint32_t header_size;
	uint32_t header_crc32;
	uint32_t reserved1;
	uint64_t my_lba;
	uint64_t alternate_lba;
	uint64_t first_usable_lba;
	uint64_t last_usable_lba;
	efi_guid_t disk_guid;
	uint64_t partition_entry_lba;
	uint32_t num_partition_entries;
	uint32_t sizeof_partition_entry;
	uint32_t partition_entry_array_crc32;
} __packed gpt_header;

typedef struct _gpt_entry {
	efi_guid_t partition_type_guid;
	efi_guid_t unique_partition_guid;
	uint64_t starting_lba;
	uint64_t ending_lba;
	uint64_t attributes;
	uint16_t partition_name[36];
} __packed gpt_entry;

struct gpt_mbr_record {
	uint8_t boot_indicator;
	uint8_t start_head, start_sector, start_track;
	uint8_t os_type;
	uint8_t end_head, end_sector, end_track;
	uint32_t starting_lba;
	uint32_t size_in_lba;
} __packed;

_Static_assert(sizeof(gpt_header) == 92, "the GPT header is 92 bytes");
_Static_assert(sizeof(gpt_entry) == 128, "a GPT entry is 128 bytes");
_Static_assert(SECTOR_SIZE % sizeof(gpt_entry) == 0, "entries do not cross sectors");

/* The CRC-32 GPT uses (Linux's efi_crc32). */
static uint32_t efi_crc32(const void *buf, size_t len)
{
	return crc32_le(~0u, buf, len) ^ ~0u;
}

static uint64_t last_lba(const struct parsed_partitions *state)
{
	return state->capacity / (state->sector_size / SECTOR_SIZE) - 1;
}

/* The first 512 bytes of logical block lba. */
static const unsigned char *read_lba(struct parsed_partitions *state, uint64_t lba)
{
	return read_part_sector(state, lba * (state->sector_size / SECTOR_SIZE));
}

/* Is sector 0 a protective (or hybrid) MBR for a disk of total_sectors LBAs? */
static int is_pmbr_valid(const unsigned char *mbr, uint64_t total_sectors)
{
	struct gpt_mbr_record rec[4];
	int i, part = -1, ret = GPT_MBR_NONE;

	if (mbr[510] != 0x55 || mbr[511] != 0xaa)
		return GPT_MBR_NONE;
	memcpy(rec, mbr + 0x1be, sizeof(rec));
	for (i = 0; i < 4; i++) {
		if (rec[i].os_type == EFI_PMBR_OSTYPE_EFI_GPT &&
		    rec[i].starting_lba == GPT_PRIMARY_PARTITION_TABLE_LBA) {
			part = i;
			ret = GPT_MBR_PROTECTIVE;
			break;
		}
	}
	if (ret != GPT_MBR_PROTECTIVE)
		return GPT_MBR_NONE;
	for (i = 0; i < 4; i++)
		if (rec[i].os_type != EFI_PMBR_OSTYPE_EFI_GPT && rec[i].os_type != 0)
			ret = GPT_MBR_HYBRID;
	/* A protective MBR covers the disk, or 2 TiB of it; a hybrid one
	 * need not. */
	if (ret == GPT_MBR_PROTECTIVE && rec[part].size_in_lba != (uint32_t)(total_sectors - 1) &&
	    rec[part].size_in_lba != 0xffffffffu)
		return GPT_MBR_NONE;
	return ret;
}

/* Is the header at lba valid (see the top)?  Copies it into gpt. */
static bool is_gpt_valid(struct parsed_partitions *state, uint64_t lba, gpt_header *gpt)
{
	const unsigned char *data = read_lba(state, lba);
	unsigned char hdr[SECTOR_SIZE];
	uint32_t crc, want, left;
	uint64_t lastlba = last_lba(state), pt_size, sector;
	const char *why = NULL;

	if (!data)
		return false;
	memcpy(hdr, data, sizeof(hdr));
	memcpy(gpt, hdr, sizeof(*gpt));
	if (gpt->signature != GPT_HEADER_SIGNATURE)
		return false;	/* no GPT here: not worth a line */
	if (gpt->header_size < sizeof(gpt_header) || gpt->header_size > SECTOR_SIZE) {
		why = "header size";
	} else {
		want = gpt->header_crc32;
		memset(hdr + offsetof(gpt_header, header_crc32), 0, sizeof(uint32_t));
		crc = efi_crc32(hdr, gpt->header_size);
		if (crc != want)
			why = "header CRC";
	}
	if (!why && gpt->my_lba != lba)
		why = "my_lba";
	else if (!why && (gpt->first_usable_lba > lastlba || gpt->last_usable_lba > lastlba ||
			  gpt->last_usable_lba < gpt->first_usable_lba))
		why = "usable LBAs";
	else if (!why && gpt->sizeof_partition_entry != sizeof(gpt_entry))
		why = "entry size";
	pt_size = (uint64_t)gpt->num_partition_entries * sizeof(gpt_entry);
	if (!why && (pt_size == 0 || pt_size > GPT_MAX_PT_SIZE))
		why = "entry count";
	if (!why && (gpt->partition_entry_lba > lastlba ||
		     (pt_size + state->sector_size - 1) / state->sector_size >
		     lastlba - gpt->partition_entry_lba + 1))
		why = "entry array beyond the disk";
	if (!why) {
		crc = ~0u;
		sector = gpt->partition_entry_lba * (state->sector_size / SECTOR_SIZE);
		for (left = (uint32_t)pt_size; left; left -= MIN(left, SECTOR_SIZE), sector++) {
			data = read_part_sector(state, sector);
			if (!data)
				return false;
			crc = crc32_le(crc, data, MIN(left, SECTOR_SIZE));
		}
		if ((crc ^ ~0u) != gpt->partition_entry_array_crc32)
			why = "entry array CRC";
	}
	if (why) {
		printk(KERN_WARNING "%s: GPT header at LBA %lu is invalid: bad %s\n", state->name,
		       (unsigned long)lba, why);
		return false;
	}
	return true;
}

/* The header to use, copied into gpt; false when there is none. */
static bool find_valid_gpt(struct parsed_partitions *state, gpt_header *gpt)
{
	const unsigned char *mbr = read_part_sector(state, 0);
	uint64_t lastlba;
	gpt_header agpt;
	bool good_pgpt, good_agpt;

	if (!mbr || state->capacity < 2 * (state->sector_size / SECTOR_SIZE))
		return false;
	lastlba = last_lba(state);
	if (is_pmbr_valid(mbr, lastlba + 1) == GPT_MBR_NONE)
		return false;
	good_pgpt = is_gpt_valid(state, GPT_PRIMARY_PARTITION_TABLE_LBA, gpt);
	good_agpt = is_gpt_valid(state, good_pgpt ? gpt->alternate_lba : lastlba, &agpt);
	if (!good_agpt && good_pgpt && gpt->alternate_lba != lastlba)
		good_agpt = is_gpt_valid(state, lastlba, &agpt);
	if (good_pgpt) {
		if (!good_agpt)
			printk(KERN_WARNING "%s: Alternate GPT is invalid, using primary GPT.\n",
			       state->name);
		return true;
	}
	if (good_agpt) {
		printk(KERN_WARNING "%s: Primary GPT is invalid, using alternate GPT.\n", state->name);
		*gpt = agpt;
		return true;
	}
	return false;
}

static bool efi_guid_is_null(const efi_guid_t *g)
{
	unsigned int i;

	for (i = 0; i < sizeof(g->b); i++)
		if (g->b[i])
			return false;
	return true;
}

int efi_partition(struct parsed_partitions *state)
{
	sector_t ssz = state->sector_size / SECTOR_SIZE;
	const unsigned char *data;
	gpt_header gpt;
	gpt_entry pte;
	uint32_t i;

	if (!find_valid_gpt(state, &gpt))
		return state->access_beyond_eod ? -1 : 0;
	for (i = 0; i < gpt.num_partition_entries && i < (uint32_t)state->limit - 1; i++) {
		uint64_t off = (uint64_t)i * sizeof(gpt_entry);

		data = read_part_sector(state, gpt.partition_entry_lba * ssz + off / SECTOR_SIZE);
		if (!data)
			return -1;
		memcpy(&pte, data + off % SECTOR_SIZE, sizeof(pte));
		if (efi_guid_is_null(&pte.partition_type_guid))
			continue;
		if (pte.ending_lba < pte.starting_lba || pte.ending_lba > last_lba(state)) {
			printk(KERN_WARNING "%s: GPT entry %u (LBAs %lu-%lu) is not inside the disk, ignored\n",
			       state->name, i + 1, (unsigned long)pte.starting_lba,
			       (unsigned long)pte.ending_lba);
			continue;
		}
		put_partition(state, (int)i + 1, pte.starting_lba * ssz,
			      (pte.ending_lba - pte.starting_lba + 1) * ssz);
	}
	return 1;
}
