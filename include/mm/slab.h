/*
 * The slab allocator: kernel objects smaller than a page (Linux's
 * include/linux/slab.h and slab_def.h, v2.6.28 SLAB names).  mm/slab.c
 * explains how it works.
 *
 *   kmalloc(size, gfp) / kzalloc / kfree(p) / ksize(p)
 *       Any size up to KMALLOC_MAX_SIZE (4 MiB).  Sizes up to 4096 come from
 *       the caches "kmalloc-8" ... "kmalloc-4096" (malloc_sizes[]), larger
 *       ones straight from the page allocator.  An object of a power-of-two
 *       class is aligned to its size; kmalloc-96 and kmalloc-192 objects to
 *       32 and 64 bytes.
 *   kmem_cache_create(name, size, align, flags, ctor) / kmem_cache_alloc /
 *   kmem_cache_free / kmem_cache_shrink / kmem_cache_destroy
 *       A cache of objects of one type, e.g. one per struct the kernel
 *       allocates often.
 *
 * Allocation failure returns NULL and never panics.  Misuse is a kernel
 * bug and panics, naming the function and the pointer: a double free,
 * freeing a pointer kmalloc never returned, writing to an object after
 * freeing it, destroying a cache whose objects are still allocated.
 *
 * A new object is filled with POISON_INUSE (0x5a), or zeroes with
 * __GFP_ZERO (kzalloc), and then handed to the cache's ctor if it has one.
 * Allocations above 4096 bytes are not poisoned.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include <asm/page.h>
#include <mm/gfp.h>
#include <pageturn/list.h>
#include <pageturn/spinlock.h>

/* kmem_cache_create() flags (Linux's values). */
#define SLAB_HWCACHE_ALIGN	0x00002000ul	/* align objects on cache lines */
#define SLAB_PANIC		0x00040000ul	/* panic if the cache cannot be created */

/* Poison bytes (Linux's include/linux/poison.h). */
#define POISON_INUSE	0x5a	/* a new object: shows reads before the first write */
#define POISON_FREE	0x6b	/* a free object: shows writes after kfree */

/*
 * kmalloc(0) returns ZERO_SIZE_PTR: not NULL, which would read as "out of
 * memory", but an address in the unmapped first page, so using it faults.
 * kfree() and ksize() accept it.
 */
#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

#define KMALLOC_MAX_CACHE_SIZE	PAGE_SIZE			/* the largest cache */
#define KMALLOC_MAX_SIZE	(PAGE_SIZE << (MAX_ORDER - 1))	/* the largest kmalloc */

struct kmem_cache {
	spinlock_t lock;		/* the slab lists and every slab's state */
	struct list_head slabs_partial;	/* slabs with some objects allocated */
	struct list_head slabs_full;	/* slabs with every object allocated */
	struct list_head slabs_free;	/* slabs with none allocated */
	unsigned int buffer_size;	/* bytes per object, padding included */
	unsigned int num;		/* objects per slab */
	unsigned int gfporder;		/* a slab is 2^gfporder pages */
	unsigned int slab_size;		/* offset of object 0: descriptor and padding */
	void (*ctor)(void *obj);
	const char *name;
	struct list_head next;		/* on the list of all caches */
};

/* The kmalloc caches, smallest first, ending with cs_size == SIZE_MAX. */
struct cache_sizes {
	size_t cs_size;
	struct kmem_cache *cs_cachep;
	const char *cs_name;
};
extern struct cache_sizes malloc_sizes[];

/*
 * Keep freed objects in a quarantine of up to bytes (0: none) before they
 * can be handed out again, so that a use after free reads poison and a
 * write after free is reported naming who freed the object (mm/slab.c).
 * Called at boot, before anything is freed (boot option slab_quarantine=KiB).
 */
void slab_quarantine_init(size_t bytes);

/*
 * What a register or address holding value says, if it looks like slab
 * poison (a pointer loaded from a freed or never-written object): a
 * sentence for the oops report, or NULL.
 */
const char *slab_poison_hint(uint64_t value);

/*
 * Set up the slab allocator: called once, by mm_init() after the page
 * allocator works.  Nothing here may be called before it (panic).
 */
void kmem_cache_init(void);

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     unsigned long flags, void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *cachep);
void kmem_cache_shrink(struct kmem_cache *cachep);
void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *cachep, void *objp);

void *kmalloc(size_t size, gfp_t gfp);
void kfree(const void *objp);
size_t ksize(const void *objp);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

/* A kmalloc'd copy of the string s, or NULL when out of memory. */
char *kstrdup(const char *s, gfp_t gfp);

/* One KERN_INFO line per cache, with /proc/slabinfo's main columns. */
void slabinfo_report(void);

#endif
