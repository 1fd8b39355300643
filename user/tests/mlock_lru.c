/*
 * mlock_lru: locked memory stays resident under reclaim, and the
 * unevictable list and its counters follow mlock and munlock.
 *
 * The process locks 1 MiB of anonymous memory and a 1 MiB shared mapping
 * of the start of a file, then reads the whole file, which is twice the
 * size of RAM on Pageturn (made on the virtio disk, ext2_scratch), so
 * reclaim must free nearly every other file page.  Afterwards touching
 * the locked pages must not fault at all (getrusage: they stayed
 * mapped), and their data must be intact.  A 256 KiB MAP_SHARED
 * anonymous region is locked by the parent and, after fork, by the
 * child too: the parent's munlock must leave it locked for the child, the
 * child's munlock must release it.  VmLck (/proc/self/status) follows
 * every step, on Linux as on Pageturn.
 *
 * On Pageturn only (the global counters of a busy Linux host move under
 * other processes' feet): Mlocked and Unevictable in /proc/meminfo grow
 * by exactly the locked size and come back down after munlock, and
 * /proc/vmstat's unevictable_pgs_mlocked, _munlocked, _culled and
 * _rescued move as Linux 2.6.28's do.  On the build machine the file is
 * 16 MiB in /tmp.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define CHUNK		(1u << 20)
#define LOCKED		(1u << 20)		/* each of the anon and file locks */
#define SHARED		(256u << 10)		/* the region parent and child lock */
#define PAGES(bytes)	((long)(bytes) / 4096)

static char text[16384];

static long vmlck_kb(void)
{
	if (read_file("/proc/self/status", text, sizeof(text)) < 0)
		return -1;
	return proc_field(text, "VmLck");
}

static uint32_t word(uint64_t off)
{
	return (uint32_t)(off / 4) ^ 0x3c000000u;
}

/* Faults (minor + major) of this process so far. */
static long faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* Read every locked page once: the data must be as written. */
static size_t check_locked(const uint32_t *map, const unsigned char *anon)
{
	size_t bad = 0;

	for (size_t i = 0; i < LOCKED / 4; i += 1024)
		bad += map[i] != word((uint64_t)i * 4);
	for (size_t p = 0; p < LOCKED / 4096; p++)
		bad += anon[p * 4096] != (unsigned char)(p * 3);
	return bad;
}

struct counters {
	long culled, rescued, mlocked, munlocked, mlock_kb, unevictable_kb;
};

static void snapshot(struct counters *c)
{
	c->culled = vmstat_value("unevictable_pgs_culled");
	c->rescued = vmstat_value("unevictable_pgs_rescued");
	c->mlocked = vmstat_value("unevictable_pgs_mlocked");
	c->munlocked = vmstat_value("unevictable_pgs_munlocked");
	c->mlock_kb = meminfo_kb("Mlocked");
	c->unevictable_kb = meminfo_kb("Unevictable");
}

/* The parent and child lock the same shared pages; each munlock is
 * answered through pipes so the order is fixed. */
static void shared_lock(void)
{
	unsigned char *region = mmap(NULL, SHARED, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int to_child[2], to_parent[2];
	long base_kb, held_kb, after_kb;
	char c = 0;
	pid_t pid;
	int status;

	if (region == MAP_FAILED)
		tap_bail("mmap shared: %m");
	memset(region, 0x77, SHARED);
	base_kb = meminfo_kb("Mlocked");
	tap_check(mlock(region, SHARED) == 0, "parent mlocks a shared anonymous region", NULL);
	test_pipe(to_child);
	test_pipe(to_parent);
	pid = test_fork();
	if (pid == 0) {
		int ok = mlock(region, SHARED) == 0 && vmlck_kb() == SHARED / 1024;

		write(to_parent[1], &c, 1);
		read(to_child[0], &c, 1);		/* the parent has unlocked */
		ok &= munlock(region, SHARED) == 0 && vmlck_kb() == 0;
		write(to_parent[1], &c, 1);
		read(to_child[0], &c, 1);		/* the parent has looked */
		_exit(ok ? 0 : 1);
	}
	read(to_parent[0], &c, 1);
	tap_check(munlock(region, SHARED) == 0 && vmlck_kb() == 0,
		  "parent munlocks while the child keeps its lock", NULL);
	held_kb = meminfo_kb("Mlocked");
	write(to_child[1], &c, 1);
	read(to_parent[0], &c, 1);
	after_kb = meminfo_kb("Mlocked");
	write(to_child[1], &c, 1);
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the child locked and unlocked the same pages", NULL);
	if (on_pageturn()) {
		tap_check(held_kb - base_kb == SHARED / 1024,
			  "the child's lock keeps the pages Mlocked (try_to_munlock found it)",
			  "Mlocked %ld -> %ld kB", base_kb, held_kb);
		tap_check(after_kb == base_kb, "the child's munlock releases them",
			  "Mlocked %ld kB, was %ld kB", after_kb, base_kb);
	} else {
		tap_skip("Mlocked follows the shared lock", "a busy host's global counter");
		tap_skip("the child's munlock releases them", "a busy host's global counter");
	}
	munmap(region, SHARED);
}

int main(void)
{
	const char *dir = ext2_scratch();
	struct counters c0, c1, c2;
	uint64_t size = 16u << 20;
	unsigned char *anon;
	uint32_t *buf, *map;
	long steal0, f0, df;
	char path[128];
	size_t bad;
	int fd;

	if (on_pageturn()) {
		if (strcmp(dir, "/mnt") != 0) {
			tap_skip("locked memory under reclaim", "no virtio disk for the file");
			return tap_done();
		}
		size = ((uint64_t)meminfo_kb("MemTotal") * 1024 * 2 + (32u << 20) - 1) &
		       ~((uint64_t)(32u << 20) - 1);
	}
	snprintf(path, sizeof(path), "%s/mlock_lru.bin", dir);
	buf = malloc(CHUNK);
	if (!buf)
		tap_bail("no memory for the buffer");

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		tap_bail("create %s: %m", path);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		for (size_t i = 0; i < CHUNK / 4; i++)
			buf[i] = word(off + i * 4);
		if (write_all(fd, buf, CHUNK) != CHUNK)
			tap_bail("write %s: %m", path);
	}
	tap_note("wrote %llu MiB", (unsigned long long)(size >> 20));

	snapshot(&c0);
	anon = mmap(NULL, LOCKED, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	map = mmap(NULL, LOCKED, PROT_READ, MAP_SHARED, fd, 0);
	if (anon == MAP_FAILED || map == MAP_FAILED)
		tap_bail("mmap: %m");
	tap_check(mlock(anon, LOCKED) == 0, "mlock of 1 MiB of anonymous memory", NULL);
	for (size_t p = 0; p < LOCKED / 4096; p++)
		anon[p * 4096] = (unsigned char)(p * 3);
	tap_check(mlock(map, LOCKED) == 0, "mlock of a 1 MiB shared mapping of the file", NULL);
	tap_check(vmlck_kb() == 2 * LOCKED / 1024, "VmLck counts both", "VmLck %ld kB", vmlck_kb());
	snapshot(&c1);
	if (on_pageturn()) {
		tap_check(c1.mlock_kb - c0.mlock_kb == 2 * LOCKED / 1024 &&
			  c1.unevictable_kb - c0.unevictable_kb == 2 * LOCKED / 1024,
			  "Mlocked and Unevictable grew by 2 MiB", "Mlocked %ld -> %ld kB, "
			  "Unevictable %ld -> %ld kB", c0.mlock_kb, c1.mlock_kb, c0.unevictable_kb,
			  c1.unevictable_kb);
		tap_check(c1.mlocked - c0.mlocked == 2 * PAGES(LOCKED),
			  "unevictable_pgs_mlocked counted every page", "+%ld",
			  c1.mlocked - c0.mlocked);
		/* The file pages were on the file LRU and are moved; the anon
		 * pages were born mlocked, straight onto the unevictable list. */
		tap_check(c1.culled - c0.culled == PAGES(LOCKED),
			  "unevictable_pgs_culled counted the file pages moved", "+%ld",
			  c1.culled - c0.culled);
	}

	/* Pressure: read the whole file, twice the RAM. */
	steal0 = vmstat_value("pgsteal_file");
	lseek(fd, 0, SEEK_SET);
	for (uint64_t off = 0; off < size; off += CHUNK)
		if (read_full(fd, buf, CHUNK) != CHUNK)
			tap_bail("read %s: short", path);
	f0 = faults();
	bad = check_locked(map, anon);
	df = faults() - f0;
	tap_check(bad == 0, "the locked pages kept their data", "%zu words differ", bad);
	tap_check(df == 0, "the locked pages stayed mapped: touching them faults nowhere",
		  "%ld faults", df);
	if (on_pageturn()) {
		tap_note("pgsteal_file +%ld during the read", vmstat_value("pgsteal_file") - steal0);
		tap_check(vmstat_value("pgsteal_file") - steal0 >= (long)(size >> 12) / 2,
			  "reclaim freed file pages meanwhile", NULL);
		tap_check(meminfo_kb("Mlocked") == c1.mlock_kb &&
			  meminfo_kb("Unevictable") >= c1.unevictable_kb,
			  "Mlocked and Unevictable held through reclaim", "Mlocked %ld kB, "
			  "Unevictable %ld kB", meminfo_kb("Mlocked"), meminfo_kb("Unevictable"));
	}

	tap_check(munlock(map, LOCKED) == 0 && munlock(anon, LOCKED) == 0,
		  "munlock of both", NULL);
	tap_check(vmlck_kb() == 0, "VmLck back to 0", "VmLck %ld kB", vmlck_kb());
	snapshot(&c2);
	if (on_pageturn()) {
		tap_note("Mlocked %ld -> %ld -> %ld kB, Unevictable %ld -> %ld -> %ld kB",
			 c0.mlock_kb, c1.mlock_kb, c2.mlock_kb, c0.unevictable_kb,
			 c1.unevictable_kb, c2.unevictable_kb);
		tap_check(c2.mlock_kb == c0.mlock_kb && c2.unevictable_kb == c0.unevictable_kb,
			  "Mlocked and Unevictable back down", NULL);
		tap_check(c2.munlocked - c1.munlocked == 2 * PAGES(LOCKED) &&
			  c2.rescued - c1.rescued == 2 * PAGES(LOCKED),
			  "unevictable_pgs_munlocked and _rescued counted every page",
			  "munlocked +%ld, rescued +%ld", c2.munlocked - c1.munlocked,
			  c2.rescued - c1.rescued);
	}
	tap_check(check_locked(map, anon) == 0, "the data is still there after munlock", NULL);
	munmap(map, LOCKED);
	munmap(anon, LOCKED);
	close(fd);
	unlink(path);
	free(buf);

	shared_lock();
	return tap_done();
}
