/*
 * open() flags, fcntl() commands, the *at() calls' dirfd and flags, and
 * lseek() origins, with Linux's x86-64 values (asm-generic/fcntl.h,
 * linux/fcntl.h, linux/fs.h), the numbers user programs pass.  The low
 * two bits of the open flags are the access mode; the rest are
 * independent bits.
 */
#ifndef PAGETURN_UAPI_FCNTL_H
#define PAGETURN_UAPI_FCNTL_H

#include <pageturn/types.h>

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
#define O_DSYNC		00010000
#define O_ASYNC		00020000
#define O_DIRECT	00040000
#define O_LARGEFILE	00100000
#define O_DIRECTORY	00200000	/* fail with ENOTDIR unless a directory */
#define O_NOFOLLOW	00400000	/* fail with ELOOP if the last component is a symlink */
#define O_NOATIME	01000000
#define O_CLOEXEC	02000000	/* set FD_CLOEXEC on the new descriptor */
#define O_SYNC		04010000
#define O_PATH		010000000
#define O_TMPFILE	020200000
#define O_NDELAY	O_NONBLOCK

#define SEEK_SET	0	/* from the start */
#define SEEK_CUR	1	/* from the current position */
#define SEEK_END	2	/* from the end of the file */

/* fcntl(2) commands. */
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_GETLK		5
#define F_SETLK		6
#define F_SETLKW	7
#define F_SETOWN	8
#define F_GETOWN	9
#define F_DUPFD_CLOEXEC	1030

#define FD_CLOEXEC	1	/* F_GETFD/F_SETFD: close on exec */

/* struct flock's l_type. */
#define F_RDLCK		0
#define F_WRLCK		1
#define F_UNLCK		2

/* F_GETLK, F_SETLK, F_SETLKW's argument (x86-64: 32 bytes). */
struct flock {
	short l_type;
	short l_whence;
	int64_t l_start;
	int64_t l_len;
	int l_pid;
};

_Static_assert(sizeof(struct flock) == 32, "struct flock must match x86-64 Linux");

/* The *at() calls. */
#define AT_FDCWD		-100	/* relative to the working directory */
#define AT_SYMLINK_NOFOLLOW	0x100	/* do not follow a symlink at the end */
#define AT_EACCESS		0x200	/* faccessat: effective ids (there is one user) */
#define AT_REMOVEDIR		0x200	/* unlinkat: rmdir instead */
#define AT_SYMLINK_FOLLOW	0x400
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000	/* "" names dirfd itself */

/* access(2) modes. */
#define F_OK	0
#define X_OK	1
#define W_OK	2
#define R_OK	4

#endif
