/*
 * memblock: boot memory bookkeeping (see include/mm/memblock.h).
 *
 * States: a byte of physical address space is either not memory, free
 * memory (in memory, not in reserved), or reserved.  Invariants of each
 * list: regions sorted by base, non-empty, not overlapping and not
 * touching (touching regions are merged), and cnt <= MEMBLOCK_MAX_REGIONS.
 * Reserved ranges may lie outside memory (firmware areas that were
 * reserved anyway); they simply never count as free.
 *
 * Pure C over two static arrays: unit-tested on the host
 * (tests/unit/test_memblock.c).
 */
#include <mm/memblock.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

struct memblock memblock;

void memblock_init(void)
{
	memset(&memblock, 0, sizeof(memblock));
	memblock.memory.name = "memory";
	memblock.reserved.name = "reserved";
}

static void remove_region(struct memblock_type *type, unsigned long i)
{
	memmove(&type->regions[i], &type->regions[i + 1],
		(type->cnt - i - 1) * sizeof(type->regions[0]));
	type->cnt--;
}

/* Add a range to a list, keeping it sorted and merged. */
static int memblock_add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size;
	unsigned long i;

	if (end < base)
		return -EINVAL;
	if (size == 0)
		return 0;

	/* Swallow every region that overlaps or touches [base, end). */
	for (i = 0; i < type->cnt;) {
		struct memblock_region *r = &type->regions[i];
		phys_addr_t rend = r->base + r->size;

		if (rend < base || r->base > end) {
			i++;
			continue;
		}
		base = MIN(base, r->base);
		end = MAX(end, rend);
		remove_region(type, i);
	}

	if (type->cnt == MEMBLOCK_MAX_REGIONS)
		return -ENOSPC;
	for (i = 0; i < type->cnt && type->regions[i].base < base; i++)
		;
	memmove(&type->regions[i + 1], &type->regions[i],
		(type->cnt - i) * sizeof(type->regions[0]));
	type->regions[i].base = base;
	type->regions[i].size = end - base;
	type->cnt++;
	return 0;
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_range(&memblock.memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_range(&memblock.reserved, base, size);
}

static phys_addr_t total_size(const struct memblock_type *type)
{
	phys_addr_t sum = 0;
	unsigned long i;

	for (i = 0; i < type->cnt; i++)
		sum += type->regions[i].size;
	return sum;
}

phys_addr_t memblock_phys_mem_size(void)
{
	return total_size(&memblock.memory);
}

phys_addr_t memblock_reserved_size(void)
{
	return total_size(&memblock.reserved);
}

phys_addr_t memblock_end_of_DRAM(void)
{
	const struct memblock_type *m = &memblock.memory;

	return m->cnt ? m->regions[m->cnt - 1].base + m->regions[m->cnt - 1].size : 0;
}

/*
 * The free ranges, in address order, numbered by *idx: for memory region
 * m, the gaps between the reserved regions that overlap it.  *idx encodes
 * (memory region << 32 | reserved region) of the next gap to look at.
 */
bool memblock_next_free_range(uint64_t *idx, phys_addr_t *out_start, phys_addr_t *out_end)
{
	const struct memblock_type *mem = &memblock.memory;
	const struct memblock_type *res = &memblock.reserved;
	unsigned long mi = *idx >> 32, ri = *idx & 0xffffffff;

	for (; mi < mem->cnt; mi++, ri = 0) {
		phys_addr_t mstart = mem->regions[mi].base;
		phys_addr_t mend = mstart + mem->regions[mi].size;

		/* Gap ri lies between reserved region ri-1 and ri. */
		for (; ri <= res->cnt; ri++) {
			phys_addr_t gstart = ri ? res->regions[ri - 1].base + res->regions[ri - 1].size : 0;
			phys_addr_t gend = ri < res->cnt ? res->regions[ri].base : MEMBLOCK_ALLOC_ANYWHERE;

			gstart = MAX(gstart, mstart);
			gend = MIN(gend, mend);
			if (gstart < gend) {
				*out_start = gstart;
				*out_end = gend;
				*idx = ((uint64_t)mi << 32) | (ri + 1);
				return true;
			}
			if (ri < res->cnt && res->regions[ri].base >= mend)
				break;
		}
	}
	*idx = (uint64_t)mi << 32;
	return false;
}

phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	phys_addr_t best = 0, fstart, fend;
	uint64_t i = 0;

	if (size == 0 || align == 0 || (align & (align - 1)))
		return 0;
	/* Top-down: the last fitting free range wins, at its highest spot. */
	while (memblock_next_free_range(&i, &fstart, &fend)) {
		phys_addr_t lo = MAX(fstart, start), hi = MIN(fend, end), cand;

		if (lo == 0)
			lo = align;	/* address 0 means failure */
		if (hi <= lo || hi - lo < size)
			continue;
		cand = ALIGN_DOWN(hi - size, align);
		if (cand >= lo)
			best = cand;
	}
	if (best && memblock_reserve(best, size) < 0)
		return 0;
	return best;
}
