/*
 * The slab allocator (Linux's mm/slab.c, v2.6.28 names): objects smaller
 * than a page, carved out of blocks of pages called slabs.
 *
 * Caches.  A cache (struct kmem_cache) hands out objects of one size,
 * buffer_size: the size asked for, rounded up to the alignment.  kmalloc()
 * is a row of caches, "kmalloc-8" ... "kmalloc-4096" (malloc_sizes[]),
 * plus the page allocator for anything larger.  The caches themselves are
 * objects of the cache "kmem_cache": cache_cache, a static struct that
 * kmem_cache_init() fills in by hand.  All caches are on cache_chain.
 *
 * Slabs.  A slab is 2^gfporder pages from alloc_pages().  Its descriptor,
 * struct slab, comes first, then the objects:
 *
 *   +------------+-------------------+-----+-------+-------+-----+-----------+
 *   | struct slab| bufctl[0..num-1]  | pad | obj 0 | obj 1 | ... | left over |
 *   +------------+-------------------+-----+-------+-------+-----+-----------+
 *   ^ page_address(first page)             ^ + cachep->slab_size
 *
 * bufctl[i] holds object i's state:
 *   BUFCTL_ACTIVE   allocated;
 *   anything else   free, and the value is the next free object
 *                   (BUFCTL_END: none), a list that starts at slab->free.
 * The free list lives in bufctl[] rather than in the free objects, so every
 * byte of a free object can hold poison, and a stray write into one cannot
 * corrupt the allocator.
 *
 * Every page of a slab has PG_slab set and page->private pointing at the
 * slab's descriptor: that is how kfree() gets from an address to its slab
 * and cache.  Slab pages use no other struct page field.
 *
 * A slab is on exactly one of its cache's three lists:
 *   slabs_free     inuse == 0
 *   slabs_partial  0 < inuse < num
 *   slabs_full     inuse == num
 * Allocation takes from the first partial slab, else a free one, else a new
 * slab (cache_grow).  A free that leaves a slab empty moves it to
 * slabs_free if that list is empty, and otherwise gives the slab back to
 * the page allocator: a cache keeps at most one empty slab, so that
 * allocating and freeing across a slab boundary does not call the page
 * allocator every time.  kmem_cache_shrink() gives that one back too.
 * NR_SLAB_UNRECLAIMABLE counts every slab page.
 *
 * Poison.  A free object is filled with POISON_FREE (0x6b).  Before an
 * object is handed out, and before a slab goes back to the page allocator,
 * its free objects are checked: any other byte means someone wrote to an
 * object after freeing it, and the kernel panics ("use after free").  A
 * new object is filled with POISON_INUSE (0x5a), or zeroes for __GFP_ZERO,
 * so a read before the first write shows a pattern; the cache's ctor, if
 * any, then runs on it (on every allocation, as Linux's SLAB does when
 * poisoning).
 *
 * Quarantine.  Poison shows a write to a free object only until the object
 * is handed out again, and a read of one only while the poison is still
 * there; with objects reused at once (the free list is LIFO) a
 * use-after-free mostly reads or writes the next owner's object.  With
 * slab_quarantine_init(bytes) (the boot option slab_quarantine=KiB, which
 * the test boots set) a freed object is poisoned and parked, bufctl
 * BUFCTL_QUARANTINED, in a FIFO of at most QUARANTINE_SLOTS objects and
 * that many bytes; only when newer frees push it out does it go on its
 * slab's free list, after its poison is checked.  So a stale pointer
 * reads poison for a long while: a pointer loaded from a freed object is
 * 0x6b6b6b6b6b6b6b6b, non-canonical, and the #GP report names it
 * (slab_poison_hint(), used by die()); a write shows when the object leaves
 * the quarantine, and the panic names the function that freed it.  A
 * quarantined object still counts as in use in its slab (inuse, slabinfo's
 * active objects), so its slab stays (the limit counts object bytes, so
 * a quarantine of small objects alone in their slabs can pin several
 * times its size in pages); kmem_cache_destroy() releases the cache's
 * quarantined objects first.
 *
 * Invariants, under cachep->lock:
 *   - slab->inuse is the number of objects whose bufctl is BUFCTL_ACTIVE
 *     or BUFCTL_QUARANTINED, and the list from slab->free visits every
 *     other object once;
 *   - a slab's list is the one its inuse says;
 *   - every byte of a free or quarantined object is POISON_FREE, unless a
 *     bug wrote to it.
 *
 * Kernel bugs panic, naming the function and the pointer: freeing an object
 * that is not allocated (double free), a pointer that is not the start of
 * an object, an object to the wrong cache, or memory kmalloc never handed
 * out; a write to a free object; destroying a cache with objects still
 * allocated.  A double free is caught only until the object is handed out
 * again: then it is allocated, and the second kfree takes it from its new
 * owner.  Every check runs while the cache is consistent, so a panic
 * leaves it usable (the host tests, whose panic() returns, rely on that).
 *
 * Locking.  Each cache's spinlock protects its slab lists and the
 * descriptors of its slabs; spin_lock_irqsave, since interrupt handlers
 * may allocate.  cache_chain_lock protects cache_chain, quarantine_lock
 * the quarantine FIFO.  Order: the chain, then the quarantine, then a
 * cache, then the page allocator's zone locks.  New slab pages are
 * allocated with the cache unlocked: a __GFP_WAIT allocation may sleep.
 *
 * Large kmalloc.  Above KMALLOC_MAX_CACHE_SIZE kmalloc() takes 2^order
 * pages straight from alloc_pages(), with page->mapping of the first page
 * set to KMALLOC_LARGE_MAPPING and page->private to the order.  Those
 * pages are not slab pages: they are neither counted nor poisoned.
 * Above KMALLOC_MAX_SIZE kmalloc() fails.  kmalloc(0) returns
 * ZERO_SIZE_PTR.
 */
#include <mm/mm.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/kallsyms.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

typedef unsigned short kmem_bufctl_t;

#define BUFCTL_END	((kmem_bufctl_t)0xffff)	/* end of the free list */
#define BUFCTL_ACTIVE	((kmem_bufctl_t)0xfffe)	/* the object is allocated */
#define BUFCTL_QUARANTINED ((kmem_bufctl_t)0xfffd) /* freed, waiting in the quarantine */
#define SLAB_LIMIT	0xfffcu			/* most objects in one slab */

/* Slabs grow past this order only for objects that need it. */
#define BREAK_GFP_ORDER	3
#define L1_CACHE_BYTES	64

#define SLAB_CREATE_MASK (SLAB_HWCACHE_ALIGN | SLAB_PANIC)

/* page->mapping of the first page of a large kmalloc: a poison value,
 * non-canonical, so it faults if anything takes it for an address_space. */
#define KMALLOC_LARGE_MAPPING ((struct address_space *)0xdead000000000600ull)

struct slab {
	struct list_head list;		/* on slabs_full, slabs_partial or slabs_free */
	struct kmem_cache *cache;
	unsigned int inuse;		/* objects allocated */
	kmem_bufctl_t free;		/* first free object, or BUFCTL_END */
	kmem_bufctl_t bufctl[];		/* per object: BUFCTL_ACTIVE or the next free */
};

static struct kmem_cache cache_cache;
static LIST_HEAD(cache_chain);
static DEFINE_SPINLOCK(cache_chain_lock);

#define CACHE(x) { .cs_size = (x), .cs_name = "kmalloc-" #x },
struct cache_sizes malloc_sizes[] = {
	CACHE(8) CACHE(16) CACHE(32) CACHE(64) CACHE(96) CACHE(128)
	CACHE(192) CACHE(256) CACHE(512) CACHE(1024) CACHE(2048) CACHE(4096)
	{ .cs_size = SIZE_MAX }
};
#undef CACHE

_Static_assert(4096 == KMALLOC_MAX_CACHE_SIZE, "malloc_sizes[] must end at KMALLOC_MAX_CACHE_SIZE");

/* The smallest order of a block of pages that holds size bytes. */
static unsigned int get_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

static void *index_to_obj(const struct kmem_cache *cachep, const struct slab *slabp,
			  unsigned int idx)
{
	return (char *)slabp + cachep->slab_size + (size_t)idx * cachep->buffer_size;
}

/* The bytes of a slab descriptor with num bufctls. */
static size_t slab_mgmt_size(size_t num)
{
	return sizeof(struct slab) + num * sizeof(kmem_bufctl_t);
}

/*
 * Choose the slab layout for objects of size bytes aligned to align: the
 * smallest order whose left-over bytes, in neither an object nor the
 * descriptor (the padding after it included), are at most an eighth of
 * the slab; from BREAK_GFP_ORDER on, the smallest that holds an object at
 * all.  Sets cachep->gfporder, num and slab_size; false if not even a
 * 2^(MAX_ORDER - 1)-page slab holds one object.
 */
static bool calculate_slab_order(struct kmem_cache *cachep, size_t size, size_t align)
{
	unsigned int order;

	for (order = 0; order < MAX_ORDER; order++) {
		size_t slab_bytes = PAGE_SIZE << order, left_over;
		size_t num = (slab_bytes - sizeof(struct slab)) / (size + sizeof(kmem_bufctl_t));

		num = MIN(num, SLAB_LIMIT);
		while (num && ALIGN_UP(slab_mgmt_size(num), align) + num * size > slab_bytes)
			num--;
		if (!num)
			continue;
		left_over = slab_bytes - slab_mgmt_size(num) - num * size;
		if (left_over * 8 <= slab_bytes || order >= BREAK_GFP_ORDER) {
			cachep->gfporder = order;
			cachep->num = num;
			cachep->slab_size = ALIGN_UP(slab_mgmt_size(num), align);
			return true;
		}
	}
	return false;
}

/*
 * Fill in a new cache (Linux's __kmem_cache_create): objects of size bytes,
 * aligned to align (0 or a power of two up to PAGE_SIZE) and at least to a
 * pointer, or to a cache line with SLAB_HWCACHE_ALIGN.  False if the
 * parameters cannot work.
 */
static bool kmem_cache_setup(struct kmem_cache *cachep, const char *name, size_t size,
			     size_t align, unsigned long flags, void (*ctor)(void *))
{
	if (!name || !size || size > KMALLOC_MAX_SIZE || align > PAGE_SIZE ||
	    (align & (align - 1)))
		return false;
	if (flags & SLAB_HWCACHE_ALIGN) {
		size_t ralign = L1_CACHE_BYTES;

		/* Small objects share a line rather than each using one. */
		while (size <= ralign / 2)
			ralign /= 2;
		align = MAX(align, ralign);
	}
	align = MAX(align, sizeof(void *));
	size = ALIGN_UP(size, align);
	if (!calculate_slab_order(cachep, size, align))
		return false;
	cachep->buffer_size = size;
	cachep->ctor = ctor;
	cachep->name = name;
	spin_lock_init(&cachep->lock, name);
	INIT_LIST_HEAD(&cachep->slabs_partial);
	INIT_LIST_HEAD(&cachep->slabs_full);
	INIT_LIST_HEAD(&cachep->slabs_free);
	return true;
}

/* The first byte of the free object objp that is not POISON_FREE, or
 * buffer_size when there is none. */
static size_t poison_bad_byte(const struct kmem_cache *cachep, const void *objp)
{
	const unsigned char *p = objp;
	size_t i;

	for (i = 0; i < cachep->buffer_size; i++)
		if (p[i] != POISON_FREE)
			break;
	return i;
}

/*
 * The report of a write after free: byte i of the free object objp, for
 * who; freed_by, when known (a quarantined object), is a return address
 * in the function that freed it.
 */
static __noreturn void poison_panic(const struct kmem_cache *cachep, const void *objp,
				    size_t i, const char *who, uintptr_t freed_by)
{
	const unsigned char *p = objp;
	const char *fn = NULL;
	uint64_t off = 0;

	if (freed_by)
		fn = kallsyms_lookup(freed_by, &off);
	if (fn)
		panic("%s: use after free: object %p of cache %s written after free "
		      "(byte %zu is 0x%02x, not 0x%02x); freed by %s+0x%lx",
		      who, objp, cachep->name, i, p[i], POISON_FREE, fn, (unsigned long)off);
	panic("%s: use after free: object %p of cache %s written after free "
	      "(byte %zu is 0x%02x, not 0x%02x)",
	      who, objp, cachep->name, i, p[i], POISON_FREE);
}

/* Panic naming who if a byte of the free object objp is not POISON_FREE. */
static void check_poison_obj(const struct kmem_cache *cachep, const void *objp,
			     const char *who)
{
	size_t i = poison_bad_byte(cachep, objp);

	if (i < cachep->buffer_size)
		poison_panic(cachep, objp, i, who, 0);
}

/*
 * Add a new slab to slabs_free, with pages from alloc_pages(gfp).  Called
 * with cachep->lock not held; false when the page allocator has none.
 */
static bool cache_grow(struct kmem_cache *cachep, gfp_t gfp)
{
	unsigned int i, nr_pages = 1u << cachep->gfporder;
	unsigned long flags;
	struct slab *slabp;
	struct page *page;

	page = alloc_pages(gfp & ~__GFP_ZERO, cachep->gfporder);
	if (!page)
		return false;
	slabp = page_address(page);
	slabp->cache = cachep;
	slabp->inuse = 0;
	slabp->free = 0;
	for (i = 0; i < cachep->num; i++) {
		slabp->bufctl[i] = i + 1 < cachep->num ? i + 1 : BUFCTL_END;
		memset(index_to_obj(cachep, slabp, i), POISON_FREE, cachep->buffer_size);
	}
	for (i = 0; i < nr_pages; i++) {
		SetPageSlab(page + i);
		page[i].private = (unsigned long)slabp;
	}

	spin_lock_irqsave(&cachep->lock, flags);
	list_add(&slabp->list, &cachep->slabs_free);
	__mod_zone_page_state(page_zone(page), NR_SLAB_UNRECLAIMABLE, nr_pages);
	spin_unlock_irqrestore(&cachep->lock, flags);
	return true;
}

/*
 * Give the empty slab slabp back to the page allocator, after checking the
 * poison of all its objects.  Called with cachep->lock held.
 */
static void slab_destroy(struct kmem_cache *cachep, struct slab *slabp, const char *who)
{
	struct page *page = virt_to_page(slabp);
	unsigned int i, nr_pages = 1u << cachep->gfporder;

	for (i = 0; i < cachep->num; i++)
		check_poison_obj(cachep, index_to_obj(cachep, slabp, i), who);
	list_del(&slabp->list);
	for (i = 0; i < nr_pages; i++) {
		ClearPageSlab(page + i);
		page[i].private = 0;
	}
	__mod_zone_page_state(page_zone(page), NR_SLAB_UNRECLAIMABLE, -(long)nr_pages);
	__free_pages(page, cachep->gfporder);
}

/* Destroy every slab on slabs_free.  Called with cachep->lock held. */
static void drain_freelist(struct kmem_cache *cachep, const char *who)
{
	while (!list_empty(&cachep->slabs_free))
		slab_destroy(cachep, list_first_entry(&cachep->slabs_free, struct slab, list), who);
}

/*
 * Allocate an object of cachep for who (the API function, for panic
 * messages): see kmem_cache_alloc().
 */
static void *__cache_alloc(struct kmem_cache *cachep, gfp_t gfp, const char *who)
{
	unsigned long flags;
	struct slab *slabp;
	unsigned int idx;
	void *objp;

	if (gfp & (__GFP_DMA | __GFP_DMA32))
		panic("%s: cache %s cannot honour GFP_DMA/GFP_DMA32: there are no DMA slabs",
		      who, cachep->name);

	spin_lock_irqsave(&cachep->lock, flags);
	for (;;) {
		if (!list_empty(&cachep->slabs_partial))
			slabp = list_first_entry(&cachep->slabs_partial, struct slab, list);
		else if (!list_empty(&cachep->slabs_free))
			slabp = list_first_entry(&cachep->slabs_free, struct slab, list);
		else
			slabp = NULL;
		if (slabp)
			break;
		spin_unlock_irqrestore(&cachep->lock, flags);
		if (!cache_grow(cachep, gfp))
			return NULL;
		spin_lock_irqsave(&cachep->lock, flags);
	}

	idx = slabp->free;
	objp = index_to_obj(cachep, slabp, idx);
	check_poison_obj(cachep, objp, who);
	slabp->free = slabp->bufctl[idx];
	slabp->bufctl[idx] = BUFCTL_ACTIVE;
	slabp->inuse++;
	list_move(&slabp->list, slabp->inuse == cachep->num ?
		  &cachep->slabs_full : &cachep->slabs_partial);
	spin_unlock_irqrestore(&cachep->lock, flags);

	memset(objp, gfp & __GFP_ZERO ? 0 : POISON_INUSE, cachep->buffer_size);
	if (cachep->ctor)
		cachep->ctor(objp);
	return objp;
}

/*
 * The struct page of the memory at objp, or panic naming who if objp is
 * not an address of RAM (a stack or user address, NULL, garbage).
 */
static struct page *obj_to_page(const void *objp, const char *who)
{
	unsigned long pfn = virt_to_phys(objp) >> PAGE_SHIFT;

	if (!pfn_valid(pfn))
		panic("%s: bad pointer %p: not an address of RAM", who, objp);
	return pfn_to_page(pfn);
}

/* The index of objp in slabp, or panic if objp is not the start of one. */
static unsigned int obj_to_index(const struct kmem_cache *cachep, const struct slab *slabp,
				 const void *objp, const char *who)
{
	uintptr_t offset = (uintptr_t)objp - (uintptr_t)index_to_obj(cachep, slabp, 0);

	/* Below object 0 the subtraction wraps, and the index is too big. */
	if (offset % cachep->buffer_size || offset / cachep->buffer_size >= cachep->num)
		panic("%s: bad pointer %p: not the start of an object of cache %s",
		      who, objp, cachep->name);
	return offset / cachep->buffer_size;
}

/*
 * Put object idx of slabp, free and poisoned, on slabp's free list, and
 * the slab on the list its inuse says (giving it back to the page
 * allocator when it is empty and the cache has an empty slab already).
 * Called with cachep->lock held.
 */
static void slab_put_obj(struct kmem_cache *cachep, struct slab *slabp, unsigned int idx,
			 const char *who)
{
	slabp->bufctl[idx] = slabp->free;
	slabp->free = idx;
	slabp->inuse--;

	if (slabp->inuse) {
		/* At the tail: the other objects get time to be freed too. */
		list_move_tail(&slabp->list, &cachep->slabs_partial);
	} else {
		bool keep = list_empty(&cachep->slabs_free);

		list_move(&slabp->list, &cachep->slabs_free);
		if (!keep)
			slab_destroy(cachep, slabp, who);
	}
}

/* ---- the quarantine ---------------------------------------------------- */

#define QUARANTINE_SLOTS 4096	/* most objects parked at once */

struct quarantine_entry {
	struct slab *slabp;
	void *objp;
	uintptr_t freed_by;		/* a return address in the freeing function */
};

static struct quarantine_entry quarantine[QUARANTINE_SLOTS];
static unsigned int quarantine_head, quarantine_count;	/* the FIFO's oldest entry, its length */
static size_t quarantine_bytes, quarantine_max_bytes;	/* 0: no quarantine */
static DEFINE_SPINLOCK(quarantine_lock);

void slab_quarantine_init(size_t bytes)
{
	quarantine_max_bytes = bytes;
	if (bytes)
		printk(KERN_INFO "slab: freed objects wait in a quarantine of %zu KiB, %u objects\n",
		       bytes >> 10, QUARANTINE_SLOTS);
}

/*
 * A quarantined object, its poison checked, goes on its slab's free list.
 * Called with no lock held: a quarantined object belongs to no one.
 */
static void quarantine_free(const struct quarantine_entry *e)
{
	struct kmem_cache *cachep = e->slabp->cache;
	unsigned int idx = obj_to_index(cachep, e->slabp, e->objp, "slab quarantine");
	unsigned long flags;

	spin_lock_irqsave(&cachep->lock, flags);
	if (e->slabp->bufctl[idx] != BUFCTL_QUARANTINED)
		panic("slab quarantine: object %p of cache %s is not quarantined", e->objp,
		      cachep->name);
	slab_put_obj(cachep, e->slabp, idx, "slab quarantine");
	spin_unlock_irqrestore(&cachep->lock, flags);
}

/* Take the oldest entry off the FIFO.  Called with quarantine_lock held. */
static struct quarantine_entry quarantine_pop(void)
{
	struct quarantine_entry e = quarantine[quarantine_head];

	quarantine_head = (quarantine_head + 1) % QUARANTINE_SLOTS;
	quarantine_count--;
	quarantine_bytes -= e.slabp->cache->buffer_size;
	return e;
}

/* Append e to the FIFO.  Called with quarantine_lock held and a slot free. */
static void quarantine_push(struct quarantine_entry e)
{
	quarantine[(quarantine_head + quarantine_count) % QUARANTINE_SLOTS] = e;
	quarantine_count++;
	quarantine_bytes += e.slabp->cache->buffer_size;
}

/*
 * Take the oldest entry off the FIFO into *e, its poison checked: a
 * write after free panics with the entry still in the FIFO, after
 * quarantine_lock is dropped (so a panic leaves the quarantine whole).
 * Called with quarantine_lock held (flags: what its irqsave saved) and
 * the FIFO not empty.
 */
static void quarantine_pop_checked(struct quarantine_entry *e, unsigned long flags)
{
	struct kmem_cache *cachep;
	size_t i;

	*e = quarantine[quarantine_head];
	cachep = e->slabp->cache;
	i = poison_bad_byte(cachep, e->objp);
	if (i < cachep->buffer_size) {
		spin_unlock_irqrestore(&quarantine_lock, flags);
		poison_panic(cachep, e->objp, i, "slab quarantine", e->freed_by);
	}
	quarantine_pop();
}

/*
 * Park object idx of slabp, which is being freed, in the quarantine:
 * first release the oldest objects while the FIFO is over its limits,
 * then poison it, mark it BUFCTL_QUARANTINED and append it.  Called with
 * no lock held; the object is still BUFCTL_ACTIVE and untouched until it
 * goes in, so a panic on an older object leaves it as it was.
 */
static void quarantine_put(struct slab *slabp, void *objp, unsigned int idx, uintptr_t freed_by)
{
	struct kmem_cache *cachep = slabp->cache;
	size_t size = cachep->buffer_size;

	for (;;) {
		struct quarantine_entry old;
		unsigned long flags, cflags;

		spin_lock_irqsave(&quarantine_lock, flags);
		if (quarantine_count < QUARANTINE_SLOTS &&
		    (!quarantine_count || quarantine_bytes + size <= quarantine_max_bytes)) {
			spin_lock_irqsave(&cachep->lock, cflags);
			memset(objp, POISON_FREE, size);
			slabp->bufctl[idx] = BUFCTL_QUARANTINED;
			spin_unlock_irqrestore(&cachep->lock, cflags);
			quarantine_push((struct quarantine_entry){ slabp, objp, freed_by });
			spin_unlock_irqrestore(&quarantine_lock, flags);
			return;
		}
		quarantine_pop_checked(&old, flags);
		spin_unlock_irqrestore(&quarantine_lock, flags);
		quarantine_free(&old);
	}
}

/* Release every quarantined object of cachep (it is being destroyed),
 * poison checked; the others keep their order.  An interrupt's kfree may
 * release entries while the lock is dropped: the FIFO may run out before
 * n does. */
static void quarantine_remove_cache(struct kmem_cache *cachep)
{
	unsigned int n;
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	for (n = quarantine_count; n > 0 && quarantine_count > 0; n--) {
		struct quarantine_entry e;

		if (quarantine[quarantine_head].slabp->cache != cachep) {
			quarantine_push(quarantine_pop());
			continue;
		}
		quarantine_pop_checked(&e, flags);
		spin_unlock_irqrestore(&quarantine_lock, flags);
		quarantine_free(&e);
		spin_lock_irqsave(&quarantine_lock, flags);
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
}

const char *slab_poison_hint(uint64_t value)
{
	/* A pointer loaded from poison, perhaps plus a field's offset, or a
	 * 32-bit field of it. */
	if (value >> 16 == 0x6b6b6b6b6b6bull || value == 0x6b6b6b6bull)
		return "POISON_FREE: loaded from a freed slab object (use after free)";
	if (value >> 16 == 0x5a5a5a5a5a5aull || value == 0x5a5a5a5aull)
		return "POISON_INUSE: loaded from a slab object before anything was stored there";
	return NULL;
}

/*
 * Free objp, an object of slabp, for who: see kmem_cache_free(); freed_by
 * is a return address in the caller, for the quarantine's reports.
 * Panics if objp is not an allocated object of slabp.
 */
static void __cache_free(struct slab *slabp, void *objp, const char *who, uintptr_t freed_by)
{
	struct kmem_cache *cachep = slabp->cache;
	unsigned int idx = obj_to_index(cachep, slabp, objp, who);
	unsigned long flags;

	spin_lock_irqsave(&cachep->lock, flags);
	if (slabp->bufctl[idx] == BUFCTL_QUARANTINED)
		panic("%s: double free of %p (cache %s), freed already and in the quarantine",
		      who, objp, cachep->name);
	if (slabp->bufctl[idx] != BUFCTL_ACTIVE)
		panic("%s: double free of %p (cache %s)", who, objp, cachep->name);
	if (quarantine_max_bytes) {
		spin_unlock_irqrestore(&cachep->lock, flags);
		quarantine_put(slabp, objp, idx, freed_by);
		return;
	}
	memset(objp, POISON_FREE, cachep->buffer_size);
	slab_put_obj(cachep, slabp, idx, who);
	spin_unlock_irqrestore(&cachep->lock, flags);
}

/*
 * kmem_cache_init: set up cache_cache and the kmalloc caches.  Called once,
 * when the page allocator works and before any other function here.
 * Panics if they cannot be set up: the kernel cannot run without them.
 */
void kmem_cache_init(void)
{
	struct cache_sizes *csizep;

	if (cache_cache.num)
		panic("kmem_cache_init: called twice");
	if (!kmem_cache_setup(&cache_cache, "kmem_cache", sizeof(struct kmem_cache), 0,
			      SLAB_HWCACHE_ALIGN, NULL))
		panic("kmem_cache_init: cannot set up the cache of caches");
	list_add(&cache_cache.next, &cache_chain);

	/* Each class aligned to the largest power of two dividing its size. */
	for (csizep = malloc_sizes; csizep->cs_size != SIZE_MAX; csizep++)
		csizep->cs_cachep = kmem_cache_create(csizep->cs_name, csizep->cs_size,
						      csizep->cs_size & -csizep->cs_size,
						      SLAB_PANIC, NULL);
}

/*
 * kmem_cache_create: a new cache of objects of size bytes, aligned to align
 * (0 or a power of two up to PAGE_SIZE; objects are always aligned to a
 * pointer), with flags SLAB_HWCACHE_ALIGN and SLAB_PANIC.  ctor, if not
 * NULL, runs on each object as it is allocated.  name is kept, not copied.
 * Returns NULL when size or align cannot work or there is no memory,
 * unless SLAB_PANIC asks for a panic instead.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     unsigned long flags, void (*ctor)(void *))
{
	struct kmem_cache *cachep;
	unsigned long irqflags;

	if (!cache_cache.num)
		panic("kmem_cache_create: cache %s created before kmem_cache_init", name);
	if (flags & ~SLAB_CREATE_MASK)
		panic("kmem_cache_create: cache %s: unknown flags %#lx",
		      name, flags & ~SLAB_CREATE_MASK);

	cachep = __cache_alloc(&cache_cache, GFP_KERNEL, "kmem_cache_create");
	if (cachep && !kmem_cache_setup(cachep, name, size, align, flags, ctor)) {
		kmem_cache_free(&cache_cache, cachep);
		cachep = NULL;
	}
	if (!cachep) {
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: cannot create cache %s", name);
		return NULL;
	}

	spin_lock_irqsave(&cache_chain_lock, irqflags);
	list_add(&cachep->next, &cache_chain);
	spin_unlock_irqrestore(&cache_chain_lock, irqflags);
	return cachep;
}

/* Objects and slabs of cachep, as /proc/slabinfo counts them. */
struct slab_counts {
	unsigned long active_objs, num_objs, active_slabs, num_slabs;
};

/* Count cachep's slabs and objects.  Called with cachep->lock held. */
static void count_slabs(const struct kmem_cache *cachep, struct slab_counts *c)
{
	const struct slab *slabp;

	c->active_objs = c->num_slabs = 0;
	list_for_each_entry(slabp, &cachep->slabs_full, list) {
		c->active_objs += slabp->inuse;
		c->num_slabs++;
	}
	list_for_each_entry(slabp, &cachep->slabs_partial, list) {
		c->active_objs += slabp->inuse;
		c->num_slabs++;
	}
	c->active_slabs = c->num_slabs;
	list_for_each_entry(slabp, &cachep->slabs_free, list)
		c->num_slabs++;
	c->num_objs = c->num_slabs * cachep->num;
}

/*
 * kmem_cache_destroy: give back cachep and its slabs.  Every object must
 * have been freed: a cache with objects still allocated is a kernel bug
 * (panic).  NULL is a no-op.
 */
void kmem_cache_destroy(struct kmem_cache *cachep)
{
	struct slab_counts c;
	unsigned long flags;

	if (!cachep)
		return;
	quarantine_remove_cache(cachep);
	spin_lock_irqsave(&cachep->lock, flags);
	if (!list_empty(&cachep->slabs_full) || !list_empty(&cachep->slabs_partial)) {
		count_slabs(cachep, &c);
		panic("kmem_cache_destroy: cache %s still has %lu objects allocated",
		      cachep->name, c.active_objs);
	}
	drain_freelist(cachep, "kmem_cache_destroy");
	spin_unlock_irqrestore(&cachep->lock, flags);

	spin_lock_irqsave(&cache_chain_lock, flags);
	list_del(&cachep->next);
	spin_unlock_irqrestore(&cache_chain_lock, flags);
	kmem_cache_free(&cache_cache, cachep);
}

/* kmem_cache_shrink: give cachep's empty slabs back to the page allocator. */
void kmem_cache_shrink(struct kmem_cache *cachep)
{
	unsigned long flags;

	spin_lock_irqsave(&cachep->lock, flags);
	drain_freelist(cachep, "kmem_cache_shrink");
	spin_unlock_irqrestore(&cachep->lock, flags);
}

/*
 * kmem_cache_alloc: an object of cachep, filled with POISON_INUSE or, with
 * __GFP_ZERO, zeroes, then passed to the ctor.  gfp is for the page
 * allocator when the cache needs a new slab; GFP_DMA and GFP_DMA32 are a
 * bug here (panic).  NULL when there is no memory.
 */
void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t gfp)
{
	return __cache_alloc(cachep, gfp, "kmem_cache_alloc");
}

/*
 * kmem_cache_free: free objp, an object kmem_cache_alloc(cachep) returned.
 * Panics if objp is not an allocated object of cachep.
 */
void kmem_cache_free(struct kmem_cache *cachep, void *objp)
{
	struct page *page = obj_to_page(objp, "kmem_cache_free");
	struct slab *slabp;

	if (!PageSlab(page))
		panic("kmem_cache_free: bad pointer %p: not a slab object", objp);
	slabp = (struct slab *)page->private;
	if (slabp->cache != cachep)
		panic("kmem_cache_free: bad pointer %p: object of cache %s, not %s",
		      objp, slabp->cache->name, cachep->name);
	__cache_free(slabp, objp, "kmem_cache_free", (uintptr_t)__builtin_return_address(0));
}

/*
 * Panic naming who unless objp, which is not in a slab, is a large kmalloc
 * starting at page: otherwise kmalloc never returned it (or it was freed).
 */
static void check_kmalloc_large(const struct page *page, const void *objp, const char *who)
{
	if (page->mapping != KMALLOC_LARGE_MAPPING || objp != page_address(page))
		panic("%s: bad pointer %p: not allocated by kmalloc", who, objp);
}

/*
 * kmalloc: size bytes of memory, filled with POISON_INUSE or, with
 * __GFP_ZERO, zeroes; aligned as the header says.  Returns ZERO_SIZE_PTR
 * for size 0, and NULL when there is no memory or size is above
 * KMALLOC_MAX_SIZE.  GFP_DMA and GFP_DMA32 work only above
 * KMALLOC_MAX_CACHE_SIZE.
 */
void *kmalloc(size_t size, gfp_t gfp)
{
	struct cache_sizes *csizep = malloc_sizes;
	unsigned int order;
	struct page *page;

	if (!size)
		return ZERO_SIZE_PTR;
	if (size > KMALLOC_MAX_CACHE_SIZE) {
		if (size > KMALLOC_MAX_SIZE)
			return NULL;
		order = get_order(size);
		page = alloc_pages(gfp, order);
		if (!page)
			return NULL;
		page->mapping = KMALLOC_LARGE_MAPPING;
		page->private = order;
		return page_address(page);
	}
	while (size > csizep->cs_size)
		csizep++;
	if (!csizep->cs_cachep)
		panic("kmalloc: called before kmem_cache_init");
	return __cache_alloc(csizep->cs_cachep, gfp, "kmalloc");
}

/*
 * kfree: free what kmalloc returned, or any slab object.  NULL and
 * ZERO_SIZE_PTR are no-ops.  Panics on a double free or a pointer kmalloc
 * did not return.
 */
void kfree(const void *objp)
{
	unsigned int order;
	struct page *page;

	if (ZERO_OR_NULL_PTR(objp))
		return;
	page = obj_to_page(objp, "kfree");
	if (PageSlab(page)) {
		__cache_free((struct slab *)page->private, (void *)objp, "kfree",
			     (uintptr_t)__builtin_return_address(0));
		return;
	}
	check_kmalloc_large(page, objp, "kfree");
	order = page->private;
	page->mapping = NULL;
	page->private = 0;
	__free_pages(page, order);
}

/*
 * ksize: the bytes usable at objp, which kmalloc returned: its size class,
 * which may be more than was asked for.  0 for NULL and ZERO_SIZE_PTR.
 */
size_t ksize(const void *objp)
{
	struct page *page;
	struct slab *slabp;

	if (ZERO_OR_NULL_PTR(objp))
		return 0;
	page = obj_to_page(objp, "ksize");
	if (PageSlab(page)) {
		slabp = (struct slab *)page->private;
		obj_to_index(slabp->cache, slabp, objp, "ksize");
		return slabp->cache->buffer_size;
	}
	check_kmalloc_large(page, objp, "ksize");
	return PAGE_SIZE << page->private;
}

/*
 * slabinfo_report: print /proc/slabinfo's main columns, one line per cache,
 * newest cache first.
 */
void slabinfo_report(void)
{
	struct kmem_cache *cachep;
	struct slab_counts c;
	unsigned long flags, cflags;

	printk(KERN_INFO "slabinfo: # name            <active_objs> <num_objs> <objsize> "
	       "<objperslab> <pagesperslab> : slabdata <active_slabs> <num_slabs>\n");
	spin_lock_irqsave(&cache_chain_lock, flags);
	list_for_each_entry(cachep, &cache_chain, next) {
		spin_lock_irqsave(&cachep->lock, cflags);
		count_slabs(cachep, &c);
		spin_unlock_irqrestore(&cachep->lock, cflags);
		printk(KERN_INFO "slabinfo: %-17s %6lu %6lu %6u %4u %4u : slabdata %6lu %6lu\n",
		       cachep->name, c.active_objs, c.num_objs, cachep->buffer_size,
		       cachep->num, 1u << cachep->gfporder, c.active_slabs, c.num_slabs);
	}
	spin_unlock_irqrestore(&cache_chain_lock, flags);
}

char *kstrdup(const char *s, gfp_t gfp)
{
	size_t len = strlen(s) + 1;
	char *copy = kmalloc(len, gfp);

	if (copy)
		memcpy(copy, s, len);
	return copy;
}
