/*
 * select(2) and pselect6(2)'s descriptor sets (Linux's
 * include/uapi/linux/posix_types.h): a bitmap of FD_SETSIZE bits in
 * unsigned longs, bit fd % 64 of word fd / 64 for descriptor fd.  The
 * calls read and write only the words holding descriptors below their
 * first argument.
 */
#ifndef PAGETURN_UAPI_SELECT_H
#define PAGETURN_UAPI_SELECT_H

#define FD_SETSIZE	1024
#define __NFDBITS	(8 * sizeof(unsigned long))	/* bits per word */

typedef struct fd_set {
	unsigned long fds_bits[FD_SETSIZE / __NFDBITS];
} fd_set;

#endif
