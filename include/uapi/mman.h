/*
 * mmap(), mprotect(), madvise() and mlock() arguments with Linux's x86-64
 * values (asm-generic/mman-common.h, mman.h), the numbers user programs pass.
 */
#ifndef PAGETURN_UAPI_MMAN_H
#define PAGETURN_UAPI_MMAN_H

#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#define PROT_SEM	0x8		/* accepted and ignored, as on x86 Linux */
#define PROT_GROWSDOWN	0x01000000

#define MAP_SHARED	0x01		/* changes reach the file and other mappers */
#define MAP_PRIVATE	0x02		/* changes are copy-on-write, private */
#define MAP_TYPE	0x0f
#define MAP_FIXED	0x10		/* exactly at addr, replacing what is there */
#define MAP_ANONYMOUS	0x20		/* no file: zero-filled memory */
#define MAP_GROWSDOWN	0x0100
#define MAP_DENYWRITE	0x0800		/* ignored, as Linux does */
#define MAP_EXECUTABLE	0x1000		/* ignored */
#define MAP_LOCKED	0x2000
#define MAP_NORESERVE	0x4000		/* ignored: nothing is reserved */
#define MAP_POPULATE	0x8000
#define MAP_NONBLOCK	0x10000
#define MAP_STACK	0x20000		/* ignored */
#define MAP_FIXED_NOREPLACE 0x100000	/* MAP_FIXED, but -EEXIST over a mapping */

#define MAP_FAILED	((void *)-1)

#define MREMAP_MAYMOVE	1

#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_WILLNEED	3
#define MADV_DONTNEED	4		/* drop the pages; anon reads back zero */
#define MADV_FREE	8
#define MADV_PAGEOUT	21		/* reclaim the range's pages now (Linux 5.4) */

#define MCL_CURRENT	1
#define MCL_FUTURE	2

#define MS_ASYNC	1
#define MS_INVALIDATE	2
#define MS_SYNC		4

#endif
