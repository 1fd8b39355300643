/*
 * Iterators over the memory a read or write moves data to or from
 * (Linux's include/linux/uio.h; kernel/lib/iov_iter.c implements them).
 *
 * A struct iov_iter walks a vector of segments in order:
 *   ITER_IOVEC  user memory: the iovecs of read(2), readv(2), pwrite64(2)
 *               and the rest, each range checked with access_ok when the
 *               iterator is set up (import_iovec, import_single_range);
 *   ITER_KVEC   kernel buffers: the kernel's own reads and writes
 *               (vfs_read, vfs_write, sendfile's buffer).
 * Its direction says which way data flows: READ fills the segments (the
 * iterator is the destination of a read), WRITE drains them (the source of
 * a write).
 *
 * State: the current segment (iov or kvec, nr_segs of them left), how far
 * into it the iterator is (iov_offset), and count, the bytes still to go
 * in the whole vector, which may be less than the segments hold
 * (iov_iter_truncate).  Invariants: count <= the bytes left in the
 * segments from iov_offset on; iov_offset <= the current segment's
 * length.  Zero-length segments are stepped over.
 *
 * Every copy advances the iterator by what it moved and returns that
 * count; a copy to or from user memory stops at the first byte that
 * cannot be touched, so a short count is how a fault is reported (the
 * callers turn "nothing at all" into -EFAULT).  A copy may sleep (a
 * fault in user memory reads a file page) unless page faults are disabled
 * (pagefault_disable in asm/uaccess.h), when it stops at the first page
 * that is not present instead.
 */
#ifndef FS_UIO_H
#define FS_UIO_H

#include <asm/page.h>
#include <asm/uaccess.h>
#include <pageturn/types.h>
#include <uapi/uio.h>

struct page;

/* A kernel buffer, the ITER_KVEC segment (Linux's struct kvec). */
struct kvec {
	void *iov_base;
	size_t iov_len;
};

enum iter_type {
	ITER_IOVEC,
	ITER_KVEC,
};

/* The direction of an iterator: a read fills it, a write drains it. */
#define READ	0
#define WRITE	1

#define UIO_FASTIOV	8	/* iovecs import_iovec takes without kmalloc */
/* The most bytes one read or write moves, so the count fits the return
 * value (Linux's INT_MAX & PAGE_MASK). */
#define MAX_RW_COUNT	(0x7fffffffu & ~(PAGE_SIZE - 1))

struct iov_iter {
	uint8_t iter_type;		/* enum iter_type */
	uint8_t data_source;		/* READ or WRITE */
	size_t iov_offset;		/* bytes of the current segment done */
	size_t count;			/* bytes still to go */
	union {
		const struct iovec *iov;
		const struct kvec *kvec;
	};
	unsigned long nr_segs;		/* segments from the current one on */
};

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

static inline bool iter_is_iovec(const struct iov_iter *i)
{
	return i->iter_type == ITER_IOVEC;
}

/* Let at most count bytes go through i (a limit on the transfer). */
static inline void iov_iter_truncate(struct iov_iter *i, size_t count)
{
	if (i->count > count)
		i->count = count;
}

/* Undo iov_iter_truncate: count bytes go through i again (no more than
 * its segments hold; the caller knows how many that is). */
static inline void iov_iter_reexpand(struct iov_iter *i, size_t count)
{
	i->count = count;
}

/* Set up i over nr_segs user iovecs holding count bytes, already checked
 * with access_ok. */
void iov_iter_init(struct iov_iter *i, unsigned int direction, const struct iovec *iov,
		   unsigned long nr_segs, size_t count);
/* Set up i over nr_segs kernel buffers holding count bytes. */
void iov_iter_kvec(struct iov_iter *i, unsigned int direction, const struct kvec *kvec,
		   unsigned long nr_segs, size_t count);

/*
 * Copy the user vector uvec[nr_segs] in and set up i over it.  The
 * vector lands in fast_iov when it has at most fast_segs entries, else in
 * a kmalloc'd array left in *iovp for the caller to kfree (NULL in the
 * first case, and on every error).  Returns the total byte count, cut to
 * MAX_RW_COUNT as Linux does, or -EINVAL (more than UIO_MAXIOV entries, a
 * length or the total past SSIZE_MAX), -EFAULT (the vector or a segment
 * is not user memory), -ENOMEM.
 */
long import_iovec(int direction, const struct iovec __user *uvec, unsigned long nr_segs,
		  unsigned long fast_segs, struct iovec *fast_iov, struct iovec **iovp,
		  struct iov_iter *i);
/* One user buffer as a vector of one (*iov holds it): 0 or -EFAULT. */
int import_single_range(int direction, void __user *buf, size_t len, struct iovec *iov,
			struct iov_iter *i);

/* Copy up to bytes into (copy_to_iter) or out of (copy_from_iter) i,
 * advancing it: the count moved. */
size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i);
size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i);
/* Zero up to bytes of i (a READ iterator), advancing it: the count. */
size_t iov_iter_zero(size_t bytes, struct iov_iter *i);

/* copy_to_iter from page's bytes [offset, offset + bytes), which lie in
 * the page. */
size_t copy_page_to_iter(struct page *page, size_t offset, size_t bytes, struct iov_iter *i);
/*
 * copy_from_iter into page's bytes [offset, offset + bytes) with page
 * faults disabled: never sleeps, and stops at the first user page that is
 * not present.  The bytes of the page past the copied ones are left as
 * they were (a short copy never zeroes file data).
 */
size_t copy_page_from_iter_atomic(struct page *page, size_t offset, size_t bytes,
				  struct iov_iter *i);

/* Step over bytes (at most the count) without copying. */
void iov_iter_advance(struct iov_iter *i, size_t bytes);
/* Step back over bytes that were advanced over. */
void iov_iter_revert(struct iov_iter *i, size_t bytes);

/*
 * Fault in the next bytes of i's user memory for reading (the source of a
 * write) or for writing (the destination of a read), without advancing:
 * the count of those bytes that could NOT be faulted in, counted from the
 * first that failed (0 for kernel memory), as Linux 5.16's.  May sleep.
 */
size_t fault_in_iov_iter_readable(const struct iov_iter *i, size_t bytes);
size_t fault_in_iov_iter_writeable(const struct iov_iter *i, size_t bytes);

#endif
