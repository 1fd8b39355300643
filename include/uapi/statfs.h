/*
 * statfs(2)/fstatfs(2)'s result as x86-64 Linux lays it out (asm-generic
 * statfs.h with 64-bit longs: 120 bytes).  f_type is the filesystem's
 * magic number (uapi/magic.h).
 */
#ifndef PAGETURN_UAPI_STATFS_H
#define PAGETURN_UAPI_STATFS_H

#include <pageturn/types.h>

struct statfs {
	long f_type;
	long f_bsize;		/* block size of the counts below */
	uint64_t f_blocks;
	uint64_t f_bfree;
	uint64_t f_bavail;	/* free to unprivileged users */
	uint64_t f_files;
	uint64_t f_ffree;
	struct { int val[2]; } f_fsid;
	long f_namelen;
	long f_frsize;
	long f_flags;		/* ST_* */
	long f_spare[4];
};

_Static_assert(sizeof(struct statfs) == 120, "struct statfs must match x86-64 Linux");

#define ST_RDONLY	0x0001

#endif
