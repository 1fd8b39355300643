/*
 * System V shared memory's arguments with Linux's x86-64 values
 * (include/uapi/linux/shm.h, asm-generic/shmbuf.h): shmget, shmat,
 * shmdt and shmctl.
 */
#ifndef PAGETURN_UAPI_SHM_H
#define PAGETURN_UAPI_SHM_H

#include <pageturn/types.h>
#include <uapi/ipc.h>

/* Limits, Linux's defaults: sizes in bytes, SHMALL in pages. */
#define SHMMIN		1
#define SHMMNI		4096
#define SHMMAX		(UINT64_MAX - (1ull << 24))
#define SHMALL		(UINT64_MAX - (1ull << 24))
#define SHMSEG		SHMMNI
#define SHMLBA		4096		/* attach addresses are multiples of this */

/* shmget's flags. */
#define SHM_HUGETLB	04000
#define SHM_NORESERVE	010000

/* shmat's flags. */
#define SHM_RDONLY	010000		/* attach read-only */
#define SHM_RND		020000		/* round the address down to SHMLBA */
#define SHM_REMAP	040000		/* replace what is mapped there */
#define SHM_EXEC	0100000		/* executable */

/* shmctl's own commands. */
#define SHM_LOCK	11		/* keep the pages off reclaim's lists */
#define SHM_UNLOCK	12
#define SHM_STAT	13		/* IPC_STAT by index */
#define SHM_INFO	14
#define SHM_STAT_ANY	15

/* shm_perm.mode bits beyond the permissions. */
#define SHM_DEST	01000		/* removed: dies at the last detach */
#define SHM_LOCKED	02000		/* SHM_LOCK is on */

/* IPC_STAT's answer (Linux's struct shmid64_ds: 112 bytes on x86-64). */
struct shmid64_ds {
	struct ipc64_perm shm_perm;
	uint64_t shm_segsz;		/* size in bytes */
	int64_t shm_atime;		/* last attach, seconds since the epoch */
	int64_t shm_dtime;		/* last detach */
	int64_t shm_ctime;		/* made or last changed by IPC_SET */
	int32_t shm_cpid;		/* creator */
	int32_t shm_lpid;		/* last to attach or detach */
	uint64_t shm_nattch;		/* attaches: VMAs mapping it */
	uint64_t __unused4, __unused5;
};

/* IPC_INFO's answer (Linux's struct shminfo64). */
struct shminfo64 {
	uint64_t shmmax, shmmin, shmmni, shmseg, shmall;
	uint64_t __unused1, __unused2, __unused3, __unused4;
};

/* SHM_INFO's answer (Linux's struct shm_info). */
struct shm_info {
	int32_t used_ids;
	uint64_t shm_tot;		/* pages the segments may hold */
	uint64_t shm_rss;		/* pages in memory */
	uint64_t shm_swp;		/* pages in swap */
	uint64_t swap_attempts, swap_successes;
};

#endif
