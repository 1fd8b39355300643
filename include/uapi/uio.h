/*
 * readv(2)/writev(2)'s vector (Linux's include/uapi/linux/uio.h).
 */
#ifndef PAGETURN_UAPI_UIO_H
#define PAGETURN_UAPI_UIO_H

#include <pageturn/types.h>

struct iovec {
	void *iov_base;		/* a user address */
	size_t iov_len;
};

#define UIO_MAXIOV	1024	/* the most entries one call takes (Linux's IOV_MAX) */

#endif
