/*
 * Iterators over user and kernel memory (Linux's lib/iov_iter.c): how
 * read() and write() move data straight between a file's pages, a pipe's
 * ring or a driver's buffer and the caller's memory.  fs/uio.h has the
 * states and invariants.
 *
 * Every copy goes through iterate(), which walks the segments from the
 * current position and hands each piece to a step function: memcpy-like
 * for ITER_KVEC, a user-copy routine (asm/uaccess.h) for ITER_IOVEC.  A
 * user step reports the bytes it could not move; the walk then stops
 * with the iterator just past the last byte moved, so a fault in the
 * middle of a vector leaves exactly the bytes before it done.
 */
#include <asm/uaccess.h>
#include <fs/uio.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

/* Move len bytes between the segment memory seg and buf: the bytes NOT
 * moved.  user says whether seg is user memory. */
typedef size_t (*iter_step_t)(void *seg, void *buf, size_t len, bool user);

static void *seg_base(const struct iov_iter *i)
{
	return iter_is_iovec(i) ? i->iov->iov_base : i->kvec->iov_base;
}

static size_t seg_len(const struct iov_iter *i)
{
	return iter_is_iovec(i) ? i->iov->iov_len : i->kvec->iov_len;
}

static void next_seg(struct iov_iter *i)
{
	if (iter_is_iovec(i))
		i->iov++;
	else
		i->kvec++;
	i->nr_segs--;
	i->iov_offset = 0;
}

/* Run step over up to bytes of i from its position, buf advancing with
 * it, and advance i by what was moved: the count moved. */
static size_t iterate(struct iov_iter *i, size_t bytes, char *buf, iter_step_t step)
{
	size_t done = 0, len, left;

	bytes = MIN(bytes, i->count);
	while (done < bytes) {
		len = MIN(seg_len(i) - i->iov_offset, bytes - done);
		if (len) {
			left = step((char *)seg_base(i) + i->iov_offset, buf ? buf + done : NULL, len,
				    iter_is_iovec(i));
			done += len - left;
			i->iov_offset += len - left;
			i->count -= len - left;
			if (left)
				break;
		}
		if (i->iov_offset == seg_len(i))
			next_seg(i);
	}
	return done;
}

void iov_iter_init(struct iov_iter *i, unsigned int direction, const struct iovec *iov,
		   unsigned long nr_segs, size_t count)
{
	*i = (struct iov_iter){ .iter_type = ITER_IOVEC, .data_source = direction,
				.count = count, .iov = iov, .nr_segs = nr_segs };
}

void iov_iter_kvec(struct iov_iter *i, unsigned int direction, const struct kvec *kvec,
		   unsigned long nr_segs, size_t count)
{
	*i = (struct iov_iter){ .iter_type = ITER_KVEC, .data_source = direction,
				.count = count, .kvec = kvec, .nr_segs = nr_segs };
}

long import_iovec(int direction, const struct iovec __user *uvec, unsigned long nr_segs,
		  unsigned long fast_segs, struct iovec *fast_iov, struct iovec **iovp,
		  struct iov_iter *i)
{
	struct iovec *iov = fast_iov;
	size_t total = 0;
	unsigned long s;

	*iovp = NULL;
	if (nr_segs > UIO_MAXIOV)
		return -EINVAL;
	if (nr_segs > fast_segs) {
		iov = kmalloc(nr_segs * sizeof(*iov), GFP_KERNEL);
		if (!iov)
			return -ENOMEM;
	}
	if (nr_segs && copy_from_user(iov, uvec, nr_segs * sizeof(*iov))) {
		total = -EFAULT;
		goto fail;
	}
	for (s = 0; s < nr_segs; s++) {
		if ((long)iov[s].iov_len < 0 ||
		    __builtin_add_overflow(total, iov[s].iov_len, &total) || (long)total < 0) {
			total = -EINVAL;
			goto fail;
		}
		if (!access_ok(iov[s].iov_base, iov[s].iov_len)) {
			total = -EFAULT;
			goto fail;
		}
	}
	total = MIN(total, MAX_RW_COUNT);
	iov_iter_init(i, direction, iov, nr_segs, total);
	if (iov != fast_iov)
		*iovp = iov;
	return total;
fail:
	if (iov != fast_iov)
		kfree(iov);
	return (long)total;
}

int import_single_range(int direction, void __user *buf, size_t len, struct iovec *iov,
			struct iov_iter *i)
{
	len = MIN(len, MAX_RW_COUNT);
	if (!access_ok(buf, len))
		return -EFAULT;
	iov->iov_base = buf;
	iov->iov_len = len;
	iov_iter_init(i, direction, iov, 1, len);
	return 0;
}

static size_t step_to(void *seg, void *buf, size_t len, bool user)
{
	if (user)
		return copy_to_user(seg, buf, len);
	memcpy(seg, buf, len);
	return 0;
}

static size_t step_from(void *seg, void *buf, size_t len, bool user)
{
	if (user)
		return raw_copy_from_user(buf, seg, len);
	memcpy(buf, seg, len);
	return 0;
}

static size_t step_zero(void *seg, void *buf, size_t len, bool user)
{
	(void)buf;
	if (user)
		return clear_user(seg, len);
	memset(seg, 0, len);
	return 0;
}

static size_t step_none(void *seg, void *buf, size_t len, bool user)
{
	(void)seg;
	(void)buf;
	(void)len;
	(void)user;
	return 0;
}

size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	return iterate(i, bytes, (char *)addr, step_to);
}

size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	return iterate(i, bytes, addr, step_from);
}

size_t iov_iter_zero(size_t bytes, struct iov_iter *i)
{
	return iterate(i, bytes, NULL, step_zero);
}

size_t copy_page_to_iter(struct page *page, size_t offset, size_t bytes, struct iov_iter *i)
{
	return copy_to_iter((char *)page_address(page) + offset, bytes, i);
}

size_t copy_page_from_iter_atomic(struct page *page, size_t offset, size_t bytes,
				  struct iov_iter *i)
{
	size_t n;

	pagefault_disable();
	n = copy_from_iter((char *)page_address(page) + offset, bytes, i);
	pagefault_enable();
	return n;
}

void iov_iter_advance(struct iov_iter *i, size_t bytes)
{
	iterate(i, bytes, NULL, step_none);
}

void iov_iter_revert(struct iov_iter *i, size_t bytes)
{
	size_t n;

	i->count += bytes;
	while (bytes) {
		if (!i->iov_offset) {
			/* Back into the previous segment, at its end. */
			if (iter_is_iovec(i))
				i->iov--;
			else
				i->kvec--;
			i->nr_segs++;
			i->iov_offset = seg_len(i);
		}
		n = MIN(bytes, i->iov_offset);
		i->iov_offset -= n;
		bytes -= n;
	}
}

/* fault_in_iov_iter_readable and _writeable: fault in each user segment
 * in turn until one fails. */
static size_t fault_in_iter(const struct iov_iter *i, size_t bytes, bool write)
{
	const struct iovec *iov = i->iov;
	size_t off = i->iov_offset, len, left;
	unsigned long s;

	if (!iter_is_iovec(i))
		return 0;
	bytes = MIN(bytes, i->count);
	for (s = 0; bytes && s < i->nr_segs; s++, iov++, off = 0) {
		len = MIN(iov->iov_len - off, bytes);
		if (!len)
			continue;
		left = write ? fault_in_writeable((char __user *)iov->iov_base + off, len) :
			       fault_in_readable((char __user *)iov->iov_base + off, len);
		if (left)
			return bytes - (len - left);
		bytes -= len;
	}
	return 0;
}

size_t fault_in_iov_iter_readable(const struct iov_iter *i, size_t bytes)
{
	return fault_in_iter(i, bytes, false);
}

size_t fault_in_iov_iter_writeable(const struct iov_iter *i, size_t bytes)
{
	return fault_in_iter(i, bytes, true);
}
