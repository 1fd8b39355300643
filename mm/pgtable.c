/*
 * Page tables: x86-64 4-level paging.
 *
 * A virtual address has 48 significant bits; bits 63-48 are copies of bit
 * 47 ("canonical"), which splits the space into a lower half (user,
 * 0 .. 0x00007fffffffffff) and an upper half (kernel, 0xffff800000000000 ..
 * the top) with a hole between.  The MMU translates an address by walking
 * four tables.  Each table is one 4 KiB page of 512 8-byte entries, indexed
 * by 9 bits of the address:
 *
 *   bits 47-39  PGD  (Intel: PML4)            an entry covers 512 GiB  level 4
 *   bits 38-30  PUD  (page-directory pointer) an entry covers   1 GiB  level 3
 *   bits 29-21  PMD  (page directory)         an entry covers   2 MiB  level 2
 *   bits 20-12  PTE  (page table)             an entry covers   4 KiB  level 1
 *   bits 11-0   the offset in the page
 *
 * CR3 holds the physical address of the PGD.  Every entry has the same
 * layout: bits 51-12 a physical address (PTE_PFN_MASK), bits 11-0 and 63
 * flags (asm/pgtable.h).  Without _PAGE_PRESENT nothing else in the entry
 * counts.  In a PUD or PMD entry, _PAGE_PSE says the entry maps a 1 GiB or
 * 2 MiB page itself, a large "leaf", instead of pointing at the next table;
 * its address is then aligned to that size.  A PTE is always a leaf.  (The
 * PAT bit, bit 7 of a PTE and bit 12 of a large leaf, is always 0 here.)
 *
 * What the CPU allows is decided by every level of the walk: a page is
 * writable only if each entry has _PAGE_RW, user-accessible only if each has
 * _PAGE_USER, executable only if none has _PAGE_NX.  This file makes entries
 * that point at tables permissive (_KERNPG_TABLE, plus _PAGE_USER when a
 * user page lies below, never _PAGE_NX) so that the leaf alone decides.
 *
 * Invariants of the tables built here:
 *  - an entry is 0 (not present), points at a table, or is a leaf; leaves
 *    are PTEs, or PMD and PUD entries with _PAGE_PSE;
 *  - a table page is referenced by exactly one entry (the PGD by CR3 or its
 *    owner), so a table is never shared and freeing it is always safe;
 *  - pt_unmap() frees a table below the PGD once its last entry is cleared.
 *    (Only pt_walk() can leave an empty table behind; pt_unmap() over the
 *    range frees it.)
 *
 * The CPU caches translations (the TLB) and entries that point at tables
 * (the paging-structure caches), but never an entry that is not present.
 * So filling an empty entry needs nothing more, while changing or clearing
 * a present entry must be followed by INVLPG of an address it covers, which
 * drops that translation and all cached table entries, before the change is
 * sure to be seen and before a freed table page may be reused.
 * set_entry() does this whenever the tables are the live ones.  A large page
 * is split by writing a table that maps the same pages with the same flags,
 * then pointing the entry at it: the translation never changes, only its
 * granularity, so code may run from, and the tables may live in, the page
 * being split.
 *
 * Ranges are walked by length, not by end address, so a range that ends at
 * the very top of the address space (its end wraps to 0) is no special case.
 * There is no locking: callers serialize changes to one address space.
 */
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/tlbflush.h>
#include <mm/pgtable.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define LOWER_HALF_END		(1ul << 47)	/* first non-canonical address */
#define UPPER_HALF_START	(~0ul << 47)	/* 0xffff800000000000 */
#define PHYS_ADDR_END		(1ull << 52)	/* beyond what an entry holds */

uint64_t __supported_pte_mask = ~0ull;

/* What one range operation needs at every level. */
struct pt_op {
	const struct pt_allocator *alloc;
	uint64_t prot;			/* leaf protection (map, protect) */
	enum pg_level max_level;	/* largest page pt_map() may use */
	bool live;			/* the tables are in CR3: flush */
};

static bool is_canonical(unsigned long va)
{
	return va < LOWER_HALF_END || va >= UPPER_HALF_START;
}

static bool is_leaf(pte_t e, enum pg_level level)
{
	return level == PG_LEVEL_4K || (e & _PAGE_PSE);
}

static pte_t *pt_table(pte_t e)
{
	return phys_to_virt(e & PTE_PFN_MASK);
}

/* The flags of an entry pointing at a table with a leaf of prot below. */
static pte_t table_flags(uint64_t prot)
{
	return _KERNPG_TABLE | (prot & _PAGE_USER);
}

/*
 * 0 when [va, va+size) is page aligned, not empty, and lies within one
 * canonical half (the upper one may run to the top: va + size wraps to 0).
 */
static int check_range(unsigned long va, unsigned long size)
{
	unsigned long room;

	if (!size || !IS_ALIGNED(va | size, PAGE_SIZE) || !is_canonical(va))
		return -EINVAL;
	room = va < LOWER_HALF_END ? LOWER_HALF_END - va : 0 - va;
	return size <= room ? 0 : -EINVAL;
}

/* 0 when prot can be a leaf's flags: present, and no address or PSE bits. */
static int check_prot(uint64_t prot)
{
	if (!(prot & _PAGE_PRESENT) || (prot & (PTE_PFN_MASK | _PAGE_PSE)))
		return -EINVAL;
	return 0;
}

/*
 * Store v in entry *p, which maps or leads to va.  The compiler barrier
 * makes everything written before (a new table's entries) reach memory
 * before the entry that lets the MMU walk it; x86 keeps stores in order.
 * If the old entry was present and the tables are live, flush va.
 */
static void set_entry(const struct pt_op *op, pte_t *p, pte_t v, unsigned long va)
{
	pte_t old = *p;

	__asm__ volatile("" ::: "memory");
	*(volatile pte_t *)p = v;
	if ((old & _PAGE_PRESENT) && op->live)
		flush_tlb_one(va);
}

/* A zeroed page from alloc, or 0 when out of memory. */
static phys_addr_t alloc_table(const struct pt_allocator *alloc)
{
	phys_addr_t pa = alloc->alloc(alloc->ctx);

	if (pa)
		clear_page(phys_to_virt(pa));
	return pa;
}

/* Point the empty entry *e, which leads to va, at a new empty table. */
static int install_table(const struct pt_op *op, pte_t *e, unsigned long va)
{
	phys_addr_t pa = alloc_table(op->alloc);

	if (!pa)
		return -ENOMEM;
	set_entry(op, e, pa | table_flags(op->prot), va);
	return 0;
}

/* Let the table entry *e on the way to va allow what a leaf of op->prot
 * needs: table flags, _PAGE_USER for a user leaf, no _PAGE_NX. */
static void open_table(const struct pt_op *op, pte_t *e, unsigned long va)
{
	pte_t v = (*e | table_flags(op->prot)) & ~_PAGE_NX;

	if (v != *e)
		set_entry(op, e, v, va);
}

/* Clear the table entry *e, which leads to va, and free its empty table. */
static void free_table(const struct pt_op *op, pte_t *e, unsigned long va)
{
	phys_addr_t pa = *e & PTE_PFN_MASK;

	set_entry(op, e, 0, va);
	op->alloc->free(pa, op->alloc->ctx);
}

static bool table_empty(const pte_t *table)
{
	int i;

	for (i = 0; i < PTRS_PER_TABLE; i++)
		if (table[i] & _PAGE_PRESENT)
			return false;
	return true;
}

/*
 * Replace the large leaf *e at level (2M or 1G), which covers va, by a table
 * of 512 leaves one level down mapping the same pages with the same flags
 * (a 1G page becomes 2M pages, a 2M page 4K pages).  0 or -ENOMEM, in which
 * case nothing changed.
 */
static int split_large(const struct pt_op *op, pte_t *e, enum pg_level level,
		       unsigned long va)
{
	enum pg_level child = level - 1;
	pte_t flags = *e & PTE_FLAGS_MASK & ~_PAGE_PSE;
	phys_addr_t pa = *e & PTE_PFN_MASK;
	phys_addr_t table_pa = alloc_table(op->alloc);
	pte_t *table;
	int i;

	if (!table_pa)
		return -ENOMEM;
	if (child > PG_LEVEL_4K)
		flags |= _PAGE_PSE;
	table = phys_to_virt(table_pa);
	for (i = 0; i < PTRS_PER_TABLE; i++)
		table[i] = (pa + i * page_level_size(child)) | flags;
	set_entry(op, e, table_pa | table_flags(flags), va);
	return 0;
}

/*
 * The range walkers below share one loop over the entries of one table
 * (of the given level) that [va, end) touches: len is how much of the range
 * falls under the entry, and len == size means the range covers it whole.
 */

/* Whether anything is mapped in [va, end) below table. */
static bool range_mapped(const pte_t *table, enum pg_level level,
			 unsigned long va, unsigned long end)
{
	unsigned long size = page_level_size(level), len;

	for (; va != end; va += len) {
		pte_t e = table[pt_index(va, level)];

		len = MIN(end - va, size - (va & (size - 1)));
		if (!(e & _PAGE_PRESENT))
			continue;
		if (is_leaf(e, level) || range_mapped(pt_table(e), level - 1, va, va + len))
			return true;
	}
	return false;
}

/* Map [va, end) to pa onward below table, where nothing is mapped yet.
 * 0 or -ENOMEM, leaving whatever was mapped so far. */
static int map_range(const struct pt_op *op, pte_t *table, enum pg_level level,
		     unsigned long va, unsigned long end, phys_addr_t pa)
{
	unsigned long size = page_level_size(level), len;
	int rc;

	for (; va != end; va += len, pa += len) {
		pte_t *e = &table[pt_index(va, level)];

		len = MIN(end - va, size - (va & (size - 1)));
		if (!(*e & _PAGE_PRESENT)) {
			if (len == size && IS_ALIGNED(pa, size) && level <= op->max_level) {
				set_entry(op, e, pa | op->prot |
					  (level > PG_LEVEL_4K ? _PAGE_PSE : 0), va);
				continue;
			}
			rc = install_table(op, e, va);
			if (rc)
				return rc;
		}
		open_table(op, e, va);
		rc = map_range(op, pt_table(*e), level - 1, va, va + len, pa);
		if (rc)
			return rc;
	}
	return 0;
}

/* Unmap [va, end) below table, freeing tables that become empty.
 * 0 or -ENOMEM, leaving the rest of the range as it was. */
static int unmap_range(const struct pt_op *op, pte_t *table, enum pg_level level,
		       unsigned long va, unsigned long end)
{
	unsigned long size = page_level_size(level), len;
	int rc;

	for (; va != end; va += len) {
		pte_t *e = &table[pt_index(va, level)];
		pte_t *child;

		len = MIN(end - va, size - (va & (size - 1)));
		if (!(*e & _PAGE_PRESENT))
			continue;
		if (is_leaf(*e, level)) {
			if (len == size) {
				set_entry(op, e, 0, va);
				continue;
			}
			rc = split_large(op, e, level, va);
			if (rc)
				return rc;
		}
		child = pt_table(*e);
		rc = unmap_range(op, child, level - 1, va, va + len);
		if (table_empty(child))
			free_table(op, e, va);
		if (rc)
			return rc;
	}
	return 0;
}

/* Give the leaves in [va, end) below table the protection op->prot.
 * 0 or -ENOMEM, leaving the rest of the range as it was. */
static int protect_range(const struct pt_op *op, pte_t *table, enum pg_level level,
			 unsigned long va, unsigned long end)
{
	unsigned long size = page_level_size(level), len;
	int rc;

	for (; va != end; va += len) {
		pte_t *e = &table[pt_index(va, level)];

		len = MIN(end - va, size - (va & (size - 1)));
		if (!(*e & _PAGE_PRESENT))
			continue;
		if (is_leaf(*e, level)) {
			pte_t v = (*e & (PTE_PFN_MASK | _PAGE_PSE | _PAGE_ACCESSED |
					 _PAGE_DIRTY)) | op->prot;

			if (v == *e)
				continue;
			if (len == size) {
				set_entry(op, e, v, va);
				continue;
			}
			rc = split_large(op, e, level, va);
			if (rc)
				return rc;
		}
		open_table(op, e, va);
		rc = protect_range(op, pt_table(*e), level - 1, va, va + len);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * pt_alloc_pgd - a new address space with nothing mapped.
 *
 * Returns the virtual address of a zeroed top-level table from alloc, or
 * NULL when alloc is out of memory.  The caller gives the page back with
 * alloc->free(virt_to_phys(pgd), ...) once pt_unmap() has emptied both
 * halves.
 */
pte_t *pt_alloc_pgd(const struct pt_allocator *alloc)
{
	phys_addr_t pa = alloc_table(alloc);

	return pa ? phys_to_virt(pa) : NULL;
}

/*
 * pt_map - map [va, va+size) to [pa, pa+size) with protection prot.
 *
 * va, pa and size must be page aligned, size non-zero, the range canonical
 * (wholly in one half) and the physical range below 2^52; prot must have
 * _PAGE_PRESENT and no address or _PAGE_PSE bits; max_level is PG_LEVEL_4K,
 * PG_LEVEL_2M, or PG_LEVEL_1G when the CPU has 1 GiB pages (CPUID pdpe1gb).
 * Otherwise -EINVAL, as for a NULL pgd or alloc.
 *
 * prot is ANDed with __supported_pte_mask.  Each piece of the range is
 * mapped with the largest page up to max_level whose size va and pa are
 * both aligned to, that the rest of the range covers, and whose entry is
 * still empty (where a table already exists, smaller pages go in it).
 * Large leaves get _PAGE_PSE.  Tables are created as needed; an existing
 * table entry on the way gains _PAGE_USER (flushed if live) when prot has it.
 *
 * All or nothing: -EEXIST, before any change, when anything in the range is
 * already mapped; -ENOMEM when alloc runs dry, after unmapping what this
 * call mapped and freeing the tables it created, so the range is unmapped
 * again (only _PAGE_USER added to existing table entries stays).
 */
int pt_map(pte_t *pgd, unsigned long va, phys_addr_t pa, unsigned long size,
	   uint64_t prot, enum pg_level max_level, const struct pt_allocator *alloc)
{
	struct pt_op op = {
		.alloc = alloc,
		.prot = prot & __supported_pte_mask,
		.max_level = max_level,
	};
	int rc;

	if (!pgd || !alloc || check_range(va, size) || check_prot(op.prot) ||
	    max_level < PG_LEVEL_4K || max_level > PG_LEVEL_1G ||
	    !IS_ALIGNED(pa, PAGE_SIZE) || pa >= PHYS_ADDR_END ||
	    size > PHYS_ADDR_END - pa)
		return -EINVAL;
	if (range_mapped(pgd, PG_LEVEL_512G, va, va + size))
		return -EEXIST;
	op.live = pt_is_live(pgd);
	rc = map_range(&op, pgd, PG_LEVEL_512G, va, va + size, pa);
	if (rc)
		unmap_range(&op, pgd, PG_LEVEL_512G, va, va + size);
	return rc;
}

/*
 * pt_unmap - unmap whatever is mapped in [va, va+size).
 *
 * va and size must be page aligned, size non-zero, the range canonical
 * (wholly in one half), pgd and alloc not NULL; otherwise -EINVAL.  Holes
 * in the range are fine.  A large page that the range covers only in part
 * is split first and keeps the rest of it mapped with the same flags.
 * Every table below the PGD left empty is cleared from its entry and given
 * back to alloc->free; the PGD itself stays.
 *
 * Returns 0, or -ENOMEM when a split finds alloc out of memory: the range
 * before that large page is unmapped, the large page and the rest are as
 * they were, and no empty table is left behind.
 */
int pt_unmap(pte_t *pgd, unsigned long va, unsigned long size,
	     const struct pt_allocator *alloc)
{
	struct pt_op op = { .alloc = alloc };

	if (!pgd || !alloc || check_range(va, size))
		return -EINVAL;
	op.live = pt_is_live(pgd);
	return unmap_range(&op, pgd, PG_LEVEL_512G, va, va + size);
}

/*
 * pt_protect - give the pages mapped in [va, va+size) protection prot.
 *
 * Arguments as for pt_unmap(), and prot as for pt_map() (also ANDed with
 * __supported_pte_mask); otherwise -EINVAL.  Holes in the range stay
 * unmapped.  Each leaf keeps its address, page size and the _PAGE_ACCESSED
 * and _PAGE_DIRTY bits the CPU set, and gets prot for the rest.  A large
 * page the range covers only in part is split first, unless it already has
 * that protection.  Table entries on the way gain _PAGE_USER when prot has
 * it; they never lose any right.
 *
 * Returns 0, or -ENOMEM when a split finds alloc out of memory: the range
 * before that large page has the new protection, the rest the old one.
 */
int pt_protect(pte_t *pgd, unsigned long va, unsigned long size, uint64_t prot,
	       const struct pt_allocator *alloc)
{
	struct pt_op op = { .alloc = alloc, .prot = prot & __supported_pte_mask };

	if (!pgd || !alloc || check_range(va, size) || check_prot(op.prot))
		return -EINVAL;
	op.live = pt_is_live(pgd);
	return protect_range(&op, pgd, PG_LEVEL_512G, va, va + size);
}

/*
 * pt_lookup - translate va as the CPU would.
 *
 * Returns 0 and fills in, for each output that is not NULL: *pa, the
 * physical address va translates to; *prot, the leaf's flags without
 * _PAGE_PSE, with _PAGE_RW and _PAGE_USER kept only if every level grants
 * them and _PAGE_NX added if any level sets it, i.e. what the CPU enforces;
 * *level, the size of the page (PG_LEVEL_4K, _2M or _1G).  Returns -ENOENT
 * when va is not mapped, -EINVAL for a NULL pgd or a non-canonical va.
 */
int pt_lookup(const pte_t *pgd, unsigned long va, phys_addr_t *pa,
	      uint64_t *prot, enum pg_level *level)
{
	const pte_t *table = pgd;
	uint64_t allow = _PAGE_RW | _PAGE_USER, nx = 0;
	enum pg_level l;
	pte_t e;

	if (!pgd || !is_canonical(va))
		return -EINVAL;
	for (l = PG_LEVEL_512G; ; l--) {
		e = table[pt_index(va, l)];
		if (!(e & _PAGE_PRESENT))
			return -ENOENT;
		if (is_leaf(e, l))
			break;
		allow &= e;
		nx |= e & _PAGE_NX;
		table = pt_table(e);
	}
	if (pa)
		*pa = (e & PTE_PFN_MASK) + (va & (page_level_size(l) - 1));
	if (prot)
		*prot = (e & PTE_FLAGS_MASK & ~(_PAGE_PSE | _PAGE_RW | _PAGE_USER)) |
			(e & allow) | nx;
	if (level)
		*level = l;
	return 0;
}

/*
 * pt_walk - the entry that maps, or would map, va (for the fault handler).
 *
 * Walks down from the PGD and returns a pointer to the first leaf on the
 * way (a PMD or PUD entry with _PAGE_PSE, *level PG_LEVEL_2M or _1G) or
 * else to va's PTE (*level PG_LEVEL_4K), present or not.  level may be NULL.
 *
 * With alloc NULL nothing changes, and a missing table returns NULL.  With
 * alloc, missing tables are created as for a leaf of protection prot (only
 * its _PAGE_USER counts), and existing table entries on the way are opened
 * as pt_map() opens them; NULL when alloc runs dry, leaving the tables
 * created so far in place (empty: pt_unmap() over va frees them).  NULL also
 * for a NULL pgd or a non-canonical va.
 *
 * The caller may write the entry.  Changing a present one is then the
 * caller's to flush: flush_tlb_one(va) if pt_is_live(pgd).
 */
pte_t *pt_walk(pte_t *pgd, unsigned long va, uint64_t prot,
	       const struct pt_allocator *alloc, enum pg_level *level)
{
	struct pt_op op = { .alloc = alloc, .prot = prot };
	pte_t *table = pgd, *e;
	enum pg_level l;

	if (!pgd || !is_canonical(va))
		return NULL;
	op.live = pt_is_live(pgd);
	for (l = PG_LEVEL_512G; ; l--) {
		e = &table[pt_index(va, l)];
		if (l == PG_LEVEL_4K || ((*e & _PAGE_PRESENT) && is_leaf(*e, l)))
			break;
		if (!(*e & _PAGE_PRESENT)) {
			if (!alloc || install_table(&op, e, va))
				return NULL;
		} else if (alloc) {
			open_table(&op, e, va);
		}
		table = pt_table(*e);
	}
	if (level)
		*level = l;
	return e;
}
