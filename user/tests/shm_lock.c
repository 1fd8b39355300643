/*
 * shm_lock: System V shared memory, and SHM_LOCK keeping a segment's
 * pages on the unevictable list.
 *
 * The calls as Linux x86-64 answers them: shmget's IPC_PRIVATE, keys,
 * IPC_CREAT|IPC_EXCL, a size beyond an existing segment and sizes out of
 * range; shmat at an address mmap picks, at a given one (SHM_RND rounding,
 * -EINVAL unaligned or over a mapping), read-only (a store is SIGSEGV);
 * shm_nattch counting attaches, forks and detaches; shmdt only at an
 * attach's address; IPC_STAT and IPC_SET; IPC_RMID of an attached segment
 * (SHM_DEST, key IPC_PRIVATE, still usable until the last detach, then
 * gone).
 *
 * Then SHM_LOCK: a segment locked before it is touched gets every page
 * straight onto the unevictable list.  On Pageturn (where the global
 * counters are this test's alone) Unevictable grows by its size and
 * stays so while a file of twice the RAM is read (ext2_scratch's virtio
 * disk), the data stays intact, and SHM_UNLOCK hands the pages back:
 * Unevictable drops again and unevictable_pgs_rescued counts them.  On
 * the build machine, where SHM_LOCK needs RLIMIT_MEMLOCK room, an EPERM
 * or ENOMEM skips the lock checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define SEG		(1u << 20)		/* the first segment's size, plus ODD */
#define ODD		100
#define LOCKSEG		(2u << 20)		/* the locked segment */
#define CHUNK		(1u << 20)

static unsigned long nattch(int id)
{
	struct shmid_ds ds;

	return shmctl(id, IPC_STAT, &ds) == 0 ? (unsigned long)ds.shm_nattch : (unsigned long)-1;
}

/* Does a store to p kill a child with SIGSEGV? */
static int store_faults(volatile char *p)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		*p = 1;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

static void test_get(void)
{
	key_t key = (key_t)(0x50540000 | (getpid() & 0xffff));
	int a, b;

	a = shmget(key, SEG, IPC_CREAT | IPC_EXCL | 0600);
	tap_check(a >= 0, "shmget IPC_CREAT|IPC_EXCL of a new key", "%s", strerror(errno));
	b = shmget(key, SEG, IPC_CREAT | IPC_EXCL | 0600);
	tap_check(b < 0 && errno == EEXIST, "again: EEXIST", "%d %s", b, strerror(errno));
	b = shmget(key, SEG / 2, 0);
	tap_check(b == a, "shmget of the key finds the same id", "%d, not %d", b, a);
	b = shmget(key, SEG + 4096, 0);
	tap_check(b < 0 && errno == EINVAL, "a size beyond the segment: EINVAL", "%d %s", b,
		  strerror(errno));
	tap_check(shmctl(a, IPC_RMID, NULL) == 0, "IPC_RMID of an unattached segment", "%s",
		  strerror(errno));
	b = shmget(key, SEG, 0);
	tap_check(b < 0 && errno == ENOENT, "then the key is gone: ENOENT", "%d %s", b,
		  strerror(errno));
	tap_check(shmctl(a, IPC_STAT, &(struct shmid_ds){ 0 }) < 0 && errno == EINVAL,
		  "and so is the id: EINVAL", "%s", strerror(errno));
	b = shmget(IPC_PRIVATE, 0, IPC_CREAT | 0600);
	tap_check(b < 0 && errno == EINVAL, "size 0: EINVAL", "%d %s", b, strerror(errno));
	tap_check(shmctl(-1, IPC_STAT, &(struct shmid_ds){ 0 }) < 0 && errno == EINVAL,
		  "IPC_STAT of id -1: EINVAL", "%s", strerror(errno));
	tap_check(shmat(0x7fffffff, NULL, 0) == (void *)-1 && errno == EINVAL,
		  "shmat of an id never made: EINVAL", "%s", strerror(errno));

	a = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	tap_check(shmctl(a, IPC_STAT, (struct shmid_ds *)8) < 0 && errno == EFAULT,
		  "IPC_STAT into a bad pointer: EFAULT", "%s", strerror(errno));
	tap_check(shmctl(a, IPC_SET, NULL) < 0 && errno == EFAULT,
		  "IPC_SET from NULL: EFAULT", "%s", strerror(errno));
	tap_check(shmctl(a, 77, NULL) < 0 && errno == EINVAL, "an unknown command: EINVAL", "%s",
		  strerror(errno));
	tap_check(shmctl(a, IPC_RMID, NULL) == 0, "IPC_RMID", "%s", strerror(errno));
}

static void test_attach(void)
{
	int id = shmget(IPC_PRIVATE, SEG + ODD, IPC_CREAT | 0640);
	struct shmid_ds ds;
	char *p, *q, *r;
	int status, bad = 0;
	pid_t pid;

	if (id < 0)
		tap_bail("shmget: %s", strerror(errno));
	tap_check(shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_segsz == SEG + ODD &&
		  ds.shm_nattch == 0 && (ds.shm_perm.mode & 0777) == 0640 &&
		  ds.shm_cpid == getpid(), "IPC_STAT of a new segment",
		  "segsz %zu nattch %lu mode %o cpid %d", ds.shm_segsz,
		  (unsigned long)ds.shm_nattch, ds.shm_perm.mode, ds.shm_cpid);

	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		tap_bail("shmat: %s", strerror(errno));
	tap_check(((uintptr_t)p & 4095) == 0 && nattch(id) == 1, "shmat: page-aligned, nattch 1",
		  "%p nattch %lu", (void *)p, nattch(id));
	for (unsigned i = 0; i < SEG + ODD; i++)
		bad += p[i] != 0;
	tap_check(bad == 0, "a new segment reads as zeroes", "%d bytes not", bad);
	for (unsigned i = 0; i < SEG; i += 4096)
		p[i] = (char)(i >> 12);

	q = shmat(id, NULL, SHM_RDONLY);
	tap_check(q != (void *)-1 && q != p && nattch(id) == 2 && q[8192] == 2,
		  "a second, read-only attach sees the same pages", "%p nattch %lu", (void *)q,
		  nattch(id));
	tap_check(store_faults(q), "a store through it is SIGSEGV", NULL);
	tap_check(nattch(id) == 2, "the forked child's attaches came and went with it",
		  "nattch %lu", nattch(id));
	tap_check(shmdt(q + 4096) < 0 && errno == EINVAL, "shmdt inside an attach: EINVAL", "%s",
		  strerror(errno));
	tap_check(shmdt(q) == 0 && nattch(id) == 1, "shmdt of it", "nattch %lu", nattch(id));

	/* At a given address: SHM_RND rounds it down, unaligned is refused,
	 * and so is one over an existing mapping. */
	r = mmap(NULL, 4 * SEG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	q = shmat(id, r + 123, 0);
	tap_check(q == (void *)-1 && errno == EINVAL, "an unaligned address: EINVAL", "%p %s",
		  (void *)q, strerror(errno));
	q = shmat(id, r, 0);
	tap_check(q == (void *)-1 && errno == EINVAL, "over a mapping: EINVAL", "%p %s",
		  (void *)q, strerror(errno));
	munmap(r, 4 * SEG);
	q = shmat(id, r + 123, SHM_RND);
	tap_check(q == r && q[4096] == 1, "SHM_RND rounds down to SHMLBA", "%p, asked %p",
		  (void *)q, (void *)r);

	/* Splitting an attach makes two VMAs: each counts, as in Linux. */
	tap_check(mprotect(q, 4096, PROT_READ) == 0 && nattch(id) == 3,
		  "mprotect of part of an attach counts its pieces", "nattch %lu", nattch(id));
	tap_check(shmdt(q) == 0 && nattch(id) == 1, "shmdt takes every piece of the attach",
		  "nattch %lu", nattch(id));

	pid = fork();
	if (pid == 0) {
		int ok = nattch(id) == 2 && p[4096 * 5] == 5;

		p[SEG] = 'c';
		_exit(ok ? 0 : 1);
	}
	tap_check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		  WEXITSTATUS(status) == 0, "a forked child shares the attach (nattch 2)", NULL);
	tap_check(p[SEG] == 'c' && nattch(id) == 1,
		  "its store reaches the parent, and its exit detaches it",
		  "byte %#x nattch %lu", p[SEG], nattch(id));

	ds.shm_perm.mode = 0600;
	tap_check(shmctl(id, IPC_SET, &ds) == 0 && shmctl(id, IPC_STAT, &ds) == 0 &&
		  (ds.shm_perm.mode & 0777) == 0600, "IPC_SET changes the mode", "mode %o",
		  ds.shm_perm.mode);
	tap_check(shmctl(id, IPC_RMID, NULL) == 0 && shmctl(id, IPC_STAT, &ds) == 0 &&
		  (ds.shm_perm.mode & SHM_DEST) && ds.shm_perm.__key == IPC_PRIVATE,
		  "IPC_RMID of an attached segment: SHM_DEST, key IPC_PRIVATE", "mode %o key %d",
		  ds.shm_perm.mode, ds.shm_perm.__key);
	tap_check(p[4096 * 7] == 7, "its pages stay until the last detach", NULL);
	tap_check(shmdt(p) == 0, "the last shmdt", "%s", strerror(errno));
	tap_check(shmctl(id, IPC_STAT, &ds) < 0 && errno == EINVAL, "then the segment is gone",
		  "%s", strerror(errno));
	tap_check(shmdt(p) < 0 && errno == EINVAL, "shmdt of no attach: EINVAL", "%s",
		  strerror(errno));
}

/* shmdt after the attach's first page was unmapped, and SHM_STAT by a
 * full id, as Linux answers both. */
static void test_detach_rest(void)
{
	int id = shmget(IPC_PRIVATE, 4 * 4096, IPC_CREAT | 0600);
	struct shmid_ds ds;
	char *p;

	if (id < 0)
		tap_bail("shmget: %s", strerror(errno));
	tap_check(shmctl(id, SHM_STAT, &ds) == id, "SHM_STAT of a full id answers the id",
		  "%s", strerror(errno));
	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		tap_bail("shmat: %s", strerror(errno));
	p[3 * 4096] = 1;
	tap_check(munmap(p, 4096) == 0 && nattch(id) == 1, "munmap of the attach's first page",
		  "nattch %lu", nattch(id));
	tap_check(shmdt(p + 4096) < 0 && errno == EINVAL, "shmdt of its second page: EINVAL", "%s",
		  strerror(errno));
	tap_check(shmdt(p) == 0 && nattch(id) == 0, "shmdt at the attach's address takes the rest",
		  "nattch %lu", nattch(id));
	shmctl(id, IPC_RMID, NULL);
}

/* A file of twice the RAM on Pageturn (16 MiB on the build machine),
 * read once; its path is removed afterwards.  0 when there is no disk
 * for it (Pageturn without a virtio disk). */
static int read_big_file(void)
{
	const char *dir = ext2_scratch();
	uint64_t size = 16u << 20;
	char path[128];
	char *buf = malloc(CHUNK);
	int fd;

	if (!buf)
		tap_bail("no memory for the buffer");
	if (on_pageturn() && strcmp(dir, "/mnt") != 0) {
		free(buf);
		return 0;
	}
	if (on_pageturn())
		size = ((uint64_t)meminfo_kb("MemTotal") * 1024 * 2 + CHUNK - 1) & ~(uint64_t)(CHUNK - 1);
	snprintf(path, sizeof(path), "%s/shm_lock.bin", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		tap_bail("create %s: %s", path, strerror(errno));
	memset(buf, 0x5a, CHUNK);
	for (uint64_t off = 0; off < size; off += CHUNK)
		if (write_all(fd, buf, CHUNK) != CHUNK)
			tap_bail("write %s: %s", path, strerror(errno));
	lseek(fd, 0, SEEK_SET);
	for (uint64_t off = 0; off < size; off += CHUNK)
		if (read_full(fd, buf, CHUNK) != CHUNK)
			tap_bail("read %s: short", path);
	close(fd);
	unlink(path);
	free(buf);
	tap_note("read a file of %llu MiB", (unsigned long long)(size >> 20));
	return 1;
}

static void test_lock(void)
{
	int id = shmget(IPC_PRIVATE, LOCKSEG, IPC_CREAT | 0600);
	long unev0, unev1, unev2, rescued0, steal0;
	struct shmid_ds ds;
	int pt = on_pageturn(), bad = 0, read;
	char *p;

	if (id < 0)
		tap_bail("shmget: %s", strerror(errno));
	if (shmctl(id, SHM_LOCK, NULL) != 0) {
		tap_check(!pt && (errno == EPERM || errno == ENOMEM), "SHM_LOCK", "%s",
			  strerror(errno));
		shmctl(id, IPC_RMID, NULL);
		return;
	}
	tap_check(shmctl(id, IPC_STAT, &ds) == 0 && (ds.shm_perm.mode & SHM_LOCKED),
		  "SHM_LOCK sets SHM_LOCKED", "mode %o", ds.shm_perm.mode);
	unev0 = meminfo_kb("Unevictable");
	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		tap_bail("shmat: %s", strerror(errno));
	for (unsigned i = 0; i < LOCKSEG; i += 4096)
		memset(p + i, (int)(i >> 12) & 0xff, 4096);
	unev1 = meminfo_kb("Unevictable");
	if (pt)
		tap_check(unev1 - unev0 == LOCKSEG / 1024,
			  "the locked segment's pages went to the unevictable list",
			  "Unevictable %ld -> %ld kB", unev0, unev1);

	steal0 = vmstat_value("pgsteal_file");
	read = read_big_file();
	if (!read) {
		tap_skip("the locked segment under reclaim", "no virtio disk for the file");
	} else {
		for (unsigned i = 0; i < LOCKSEG; i++)
			bad += p[i] != (char)((i >> 12) & 0xff);
		tap_check(bad == 0, "its data is intact after the read", "%d bytes differ", bad);
	}
	if (pt && read) {
		tap_check(vmstat_value("pgsteal_file") - steal0 > 0, "reclaim ran during the read",
			  "pgsteal_file +%ld", vmstat_value("pgsteal_file") - steal0);
		tap_check(meminfo_kb("Unevictable") >= unev1,
			  "and the pages stayed on the unevictable list", "Unevictable %ld -> %ld kB",
			  unev1, meminfo_kb("Unevictable"));
	}

	rescued0 = vmstat_value("unevictable_pgs_rescued");
	unev1 = meminfo_kb("Unevictable");
	tap_check(shmctl(id, SHM_UNLOCK, NULL) == 0 && shmctl(id, IPC_STAT, &ds) == 0 &&
		  !(ds.shm_perm.mode & SHM_LOCKED), "SHM_UNLOCK clears SHM_LOCKED", "mode %o",
		  ds.shm_perm.mode);
	unev2 = meminfo_kb("Unevictable");
	if (pt) {
		tap_check(unev1 - unev2 == LOCKSEG / 1024,
			  "and hands the pages back to the anon lists", "Unevictable %ld -> %ld kB",
			  unev1, unev2);
		tap_check(vmstat_value("unevictable_pgs_rescued") - rescued0 == LOCKSEG / 4096,
			  "unevictable_pgs_rescued counts them", "+%ld",
			  vmstat_value("unevictable_pgs_rescued") - rescued0);
	}
	tap_check(shmctl(id, IPC_RMID, NULL) == 0 && shmdt(p) == 0, "IPC_RMID and shmdt", "%s",
		  strerror(errno));
}

int main(void)
{
	test_get();
	test_attach();
	test_detach_rest();
	test_lock();
	return tap_done();
}
