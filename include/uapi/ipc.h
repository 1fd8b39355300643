/*
 * System V IPC's common arguments with Linux's x86-64 values
 * (include/uapi/linux/ipc.h, asm-generic/ipcbuf.h).
 */
#ifndef PAGETURN_UAPI_IPC_H
#define PAGETURN_UAPI_IPC_H

#include <pageturn/types.h>

#define IPC_PRIVATE	0		/* a key that always makes a new object */

/* The *get calls' flags, above the nine permission bits. */
#define IPC_CREAT	00001000	/* make the object if the key has none */
#define IPC_EXCL	00002000	/* with IPC_CREAT: fail if it exists */
#define IPC_NOWAIT	00004000

/* The *ctl calls' common commands. */
#define IPC_RMID	0
#define IPC_SET		1
#define IPC_STAT	2
#define IPC_INFO	3

/* An object's owner and permissions (Linux's struct ipc64_perm: 48
 * bytes on x86-64). */
struct ipc64_perm {
	int32_t key;
	uint32_t uid, gid, cuid, cgid;
	uint32_t mode;			/* the 9 permission bits, and SHM_DEST, SHM_LOCKED */
	uint16_t seq;
	uint16_t __pad2;
	uint64_t __unused1, __unused2;
};

#endif
