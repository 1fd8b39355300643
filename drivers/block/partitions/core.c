/*
 * Finding a disk's partitions (Linux's block/partitions/core.c,
 * check_partition and the bounds checks of blk_add_partition): try each
 * parser in Linux's order (GPT first, so a disk with a protective MBR is
 * read as GPT), then judge what the winner found.
 *
 * The parsers trust nothing but they do not judge the layout: a table
 * may name a partition past the end of the disk, or two partitions over
 * the same sectors.  Linux cuts a partition at the end of the disk and
 * lets partitions overlap; here such a partition is refused whole, with
 * a console line, so a swap area or filesystem is never put where the
 * disk or another partition ends it.  The one overlap allowed is an
 * extended partition's container with its own logical partitions (the
 * container is recorded as its first one or two sectors, Linux's
 * size, so a mistaken mkfs cannot reach the logical ones).
 *
 * State: one page of the disk cached in state->buf (buf_pos names it),
 * so parsers reading sector by sector read each page once.
 */
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#include "check.h"

void parsed_partitions_init(struct parsed_partitions *state, const char *name,
			    sector_t capacity, unsigned int sector_size,
			    int (*read_page)(void *, uint64_t, void *, unsigned int), void *ctx)
{
	memset(state, 0, sizeof(*state));
	state->name = name;
	state->capacity = capacity;
	state->sector_size = sector_size;
	state->limit = DISK_MAX_PARTS;
	state->read_page = read_page;
	state->read_ctx = ctx;
	state->buf_pos = UINT64_MAX;
	snprintf(state->pp_buf, sizeof(state->pp_buf), " %s:", name);
}

const unsigned char *read_part_sector(struct parsed_partitions *state, sector_t n)
{
	uint64_t pos, page, end;

	if (n >= state->capacity) {
		state->access_beyond_eod = true;
		return NULL;
	}
	pos = (uint64_t)n << SECTOR_SHIFT;
	page = pos & ~(uint64_t)(PART_READ_SIZE - 1);
	if (page != state->buf_pos) {
		end = (uint64_t)state->capacity << SECTOR_SHIFT;
		state->buf_pos = UINT64_MAX;
		if (state->read_page(state->read_ctx, page, state->buf,
				     (unsigned int)MIN((uint64_t)PART_READ_SIZE, end - page)))
			return NULL;
		state->buf_pos = page;
	}
	return state->buf + (pos - page);
}

void pp_append(struct parsed_partitions *state, const char *text)
{
	size_t used = strlen(state->pp_buf);

	snprintf(state->pp_buf + used, sizeof(state->pp_buf) - used, "%s", text);
}

/* Linux's disk_name(): "vda1", but "nvme0n1p1" after a digit. */
static void part_name(char *buf, size_t len, const char *disk, int n)
{
	size_t l = strlen(disk);
	bool digit = l && disk[l - 1] >= '0' && disk[l - 1] <= '9';

	snprintf(buf, len, "%s%s%d", disk, digit ? "p" : "", n);
}

void put_partition(struct parsed_partitions *state, int n, sector_t from, sector_t size)
{
	char name[24];

	if (n <= 0 || n >= state->limit)
		return;
	state->parts[n].from = from;
	state->parts[n].size = size;
	state->parts[n].extended = false;
	part_name(name, sizeof(name), state->name, n);
	pp_append(state, " ");
	pp_append(state, name);
}

/* Refuse partitions outside the disk or over an earlier one (see top). */
static void check_bounds(struct parsed_partitions *state)
{
	int p, q;

	for (p = 1; p < state->limit; p++) {
		sector_t from = state->parts[p].from, size = state->parts[p].size;

		if (!size)
			continue;
		if (from >= state->capacity || size > state->capacity - from) {
			printk(KERN_WARNING "%s: p%d (sectors %lu-%lu) is beyond the end of the disk (%lu sectors), ignored\n",
			       state->name, p, (unsigned long)from, (unsigned long)(from + size - 1),
			       (unsigned long)state->capacity);
			state->parts[p].size = 0;
			continue;
		}
		for (q = 1; q < p; q++) {
			sector_t qf = state->parts[q].from, qs = state->parts[q].size;

			if (!qs || state->parts[q].extended || state->parts[p].extended)
				continue;
			if (from < qf + qs && qf < from + size) {
				printk(KERN_WARNING "%s: p%d (sectors %lu-%lu) overlaps p%d, ignored\n",
				       state->name, p, (unsigned long)from,
				       (unsigned long)(from + size - 1), q);
				state->parts[p].size = 0;
				break;
			}
		}
	}
}

int check_partition(struct parsed_partitions *state)
{
	static int (*const check_part[])(struct parsed_partitions *) = {
		efi_partition,
		msdos_partition,
	};
	int res = 0, err = 0;
	unsigned int i;

	for (i = 0; !res && i < ARRAY_SIZE(check_part); i++) {
		memset(state->parts, 0, sizeof(state->parts));
		res = check_part[i](state);
		if (res < 0) {		/* a read error: let the others try */
			err = res;
			res = 0;
		}
	}
	if (res > 0) {
		printk(KERN_INFO "%s\n", state->pp_buf);
		check_bounds(state);
		return 1;
	}
	memset(state->parts, 0, sizeof(state->parts));
	if (err || state->access_beyond_eod) {
		printk(KERN_WARNING "%s unable to read partition table\n", state->pp_buf);
		return -EIO;
	}
	printk(KERN_INFO "%s unknown partition table\n", state->pp_buf);
	return 0;
}
