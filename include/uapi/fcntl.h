/*
 * open() flags and lseek() origins, with Linux's x86-64 values
 * (asm-generic/fcntl.h, linux/fs.h), the numbers user programs pass.
 * The low two bits of the flags are the access mode; the rest are
 * independent bits.
 */
#ifndef PAGETURN_UAPI_FCNTL_H
#define PAGETURN_UAPI_FCNTL_H

#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100	/* create the file if missing */
#define O_EXCL		00000200	/* with O_CREAT: fail with EEXIST if it exists */
#define O_NOCTTY	00000400
#define O_TRUNC		00001000	/* cut a regular file to size 0 */
#define O_APPEND	00002000	/* every write goes to the end */
#define O_NONBLOCK	00004000
#define O_DIRECTORY	00200000	/* fail with ENOTDIR unless a directory */
#define O_NOFOLLOW	00400000
#define O_CLOEXEC	02000000

#define SEEK_SET	0	/* from the start */
#define SEEK_CUR	1	/* from the current position */
#define SEEK_END	2	/* from the end of the file */

#define AT_FDCWD	-100	/* *at() calls: relative to the working directory */

#endif
