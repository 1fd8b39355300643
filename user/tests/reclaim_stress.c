/*
 * reclaim_stress: every path that allocates while holding something,
 * run while reclaim is busy freeing the page cache under it.
 *
 * Reclaim runs inside any allocation that may sleep, and kswapd runs
 * whenever the others sleep: a page-table walk, a copy-on-write or a
 * page-cache insert may find, after its allocation, that a page it looked
 * at was unmapped or freed.  Four processes run at once, each checking
 * every byte it reads, while one more streams a file larger than RAM so
 * that reclaim never rests:
 *
 *   fork    a process with a private file mapping (read, so its PTEs map
 *           page-cache pages reclaim may unmap) and an anonymous buffer
 *           forks over and over; each child checks both and exits
 *           (copy_page_range under reclaim);
 *   cow     a parent and its child write every page of a shared
 *           anonymous buffer and of a private file mapping, each its own
 *           pattern, and check what they read back (do_wp_page and the
 *           file fault's copy under reclaim);
 *   faults  reads a mapped file in random order, twice (filemap_fault,
 *           fault-around);
 *   inserts writes, reads back and removes small files (page-cache
 *           inserts with the radix tree preloaded).
 *
 * On Pageturn it runs on the virtio disk (ext2_scratch) at -m 64M with
 * freed slab objects quarantined (reclaim_stress_64m_bios), so a use
 * after free reads poison and the checks catch it.  Without a disk it
 * skips; on the build machine it runs small, in /tmp.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define CHUNK		(256u << 10)

static uint64_t stream_size = 8u << 20;	/* the file that keeps reclaim busy */
static uint64_t map_size = 4u << 20;	/* the mapped file */
static unsigned int rounds = 4;

static char dir[128];
static char text[16384];

static uint32_t word(uint64_t off, uint32_t salt)
{
	return (uint32_t)(off / 4) ^ salt;
}

static void make_file(const char *path, uint64_t size, uint32_t salt)
{
	static uint32_t buf[CHUNK / 4];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		tap_bail("create %s: %m", path);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		for (size_t i = 0; i < CHUNK / 4; i++)
			buf[i] = word(off + i * 4, salt);
		if (write_all(fd, buf, CHUNK) != CHUNK)
			tap_bail("write %s: %m", path);
	}
	close(fd);
}

/* Words of the mapping of a salted file that differ, sampled per page. */
static size_t check_map(const uint32_t *map, uint64_t size, uint32_t salt)
{
	size_t bad = 0;

	for (uint64_t off = 0; off < size; off += 4096)
		bad += map[off / 4] != word(off, salt) || map[(off + 4092) / 4] != word(off + 4092, salt);
	return bad;
}

static const uint32_t *map_file(const char *path, uint64_t size, int prot, int flags)
{
	int fd = open(path, prot & PROT_WRITE ? O_RDWR : O_RDONLY);
	void *p = fd < 0 ? MAP_FAILED : mmap(NULL, size, prot, flags, fd, 0);

	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED)
		tap_bail("mmap %s: %m", path);
	return p;
}

/* ---- the workers: each exits 0 when every check held ------------------- */

static int streamer(const char *path)
{
	static uint32_t buf[CHUNK / 4];

	for (;;) {
		int fd = open(path, O_RDONLY);

		if (fd < 0)
			return 1;
		for (uint64_t off = 0; off < stream_size; off += CHUNK) {
			if (read_full(fd, buf, CHUNK) != CHUNK)
				return 1;
			if (buf[0] != word(off, 0x11000000) || buf[CHUNK / 4 - 1] !=
			    word(off + CHUNK - 4, 0x11000000))
				return 2;
		}
		close(fd);
	}
}

static int forker(const char *path)
{
	const uint32_t *map = map_file(path, map_size, PROT_READ, MAP_PRIVATE);
	size_t anon_size = 2u << 20;
	unsigned char *anon = malloc(anon_size);

	if (!anon)
		return 1;
	for (size_t i = 0; i < anon_size; i++)
		anon[i] = (unsigned char)(i * 7);
	for (unsigned int r = 0; r < rounds * 8; r++) {
		pid_t pid;
		int status;

		check_map(map, map_size, 0x22000000);	/* map every page */
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			size_t bad = check_map(map, map_size, 0x22000000);

			for (size_t i = 0; i < anon_size; i += 511)
				bad += anon[i] != (unsigned char)(i * 7);
			_exit(bad ? 3 : 0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 4;
	}
	return 0;
}

static int cow_one(const char *path, unsigned char *anon, size_t anon_size, unsigned char me)
{
	uint32_t *map = (uint32_t *)map_file(path, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	size_t bad = 0;

	for (unsigned int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < anon_size; i += 4096)
			anon[i] = (unsigned char)(me + r);
		for (uint64_t off = 0; off < map_size; off += 4096)
			map[off / 4] = word(off, 0x33000000) + me + r;
		for (size_t i = 0; i < anon_size; i += 4096)
			bad += anon[i] != (unsigned char)(me + r);
		for (uint64_t off = 0; off < map_size; off += 4096)
			bad += map[off / 4] != word(off, 0x33000000) + me + r ||
			       map[off / 4 + 1] != word(off + 4, 0x33000000);
	}
	munmap(map, map_size);
	return bad ? 5 : 0;
}

static int cower(const char *path)
{
	size_t anon_size = 4u << 20;
	unsigned char *anon = mmap(NULL, anon_size, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int status, mine;
	pid_t pid;

	if (anon == MAP_FAILED)
		return 1;
	memset(anon, 0x5a, anon_size);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		_exit(cow_one(path, anon, anon_size, 100));
	mine = cow_one(path, anon, anon_size, 1);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 6;
	return mine ? mine : WEXITSTATUS(status);
}

static int faulter(const char *path)
{
	const uint32_t *map = map_file(path, map_size, PROT_READ, MAP_SHARED);
	unsigned int seed = 7;

	for (unsigned int r = 0; r < rounds * 2; r++)
		for (uint64_t n = 0; n < map_size / 4096; n++) {
			uint64_t off = (uint64_t)(rand_r(&seed) % (map_size / 4096)) * 4096;

			if (map[off / 4] != word(off, 0x44000000))
				return 7;
		}
	return 0;
}

static int inserter(void)
{
	static unsigned char buf[3 * 4096 + 100], back[sizeof(buf)];
	char path[192];

	for (unsigned int r = 0; r < rounds * 16; r++) {
		int fd;

		snprintf(path, sizeof(path), "%s/small.%u", dir, r % 8);
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (unsigned char)(i + r);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write_all(fd, buf, sizeof(buf)) != sizeof(buf))
			return 1;
		if (pread(fd, back, sizeof(back), 0) != sizeof(back) ||
		    memcmp(buf, back, sizeof(buf)))
			return 8;
		close(fd);
		if (r % 3 == 0)
			unlink(path);
	}
	for (unsigned int i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "%s/small.%u", dir, i);
		unlink(path);
	}
	return 0;
}

static pid_t start(int (*fn)(const char *), const char *arg)
{
	pid_t pid = fork();

	if (pid < 0)
		tap_bail("fork: %m");
	if (pid == 0)
		_exit(fn(arg));
	return pid;
}

static int inserter_arg(const char *unused)
{
	(void)unused;
	return inserter();
}

int main(void)
{
	static const struct { const char *name; int (*fn)(const char *); int file; } workers[] = {
		{ "fork", forker, 1 },
		{ "cow", cower, 2 },
		{ "faults", faulter, 3 },
		{ "inserts", inserter_arg, 0 },
	};
	const char *scratch = ext2_scratch();
	char path[4][160];
	long steal0;
	pid_t streamer_pid, pid[4];

	if (on_pageturn()) {
		long mem_kb;

		if (strcmp(scratch, "/mnt") != 0) {
			tap_skip("reclaim under every allocating path", "no virtio disk");
			return tap_done();
		}
		if (read_file("/proc/meminfo", text, sizeof(text)) < 0)
			tap_bail("read /proc/meminfo: %m");
		mem_kb = proc_field(text, "MemTotal");
		stream_size = ((uint64_t)mem_kb << 10) * 3 / 2 & ~(uint64_t)(CHUNK - 1);
		map_size = 8u << 20;
		rounds = 6;
	}
	snprintf(dir, sizeof(dir), "%s/reclaim_stress.%d", scratch, getpid());
	if (mkdir(dir, 0755) != 0)
		tap_bail("mkdir %s: %m", dir);
	for (int i = 0; i < 4; i++)
		snprintf(path[i], sizeof(path[i]), "%s/file.%d", dir, i);
	make_file(path[0], stream_size, 0x11000000);
	make_file(path[1], map_size, 0x22000000);
	make_file(path[2], map_size, 0x33000000);
	make_file(path[3], map_size, 0x44000000);
	tap_note("streaming %llu MiB while four workers run",
		 (unsigned long long)(stream_size >> 20));

	if (read_file("/proc/vmstat", text, sizeof(text)) < 0)
		tap_bail("read /proc/vmstat: %m");
	steal0 = proc_field(text, "pgsteal_file");
	streamer_pid = start(streamer, path[0]);
	for (int i = 0; i < 4; i++)
		pid[i] = start(workers[i].fn, path[workers[i].file]);
	for (int i = 0; i < 4; i++) {
		int status;

		test_wait(pid[i], &status, 0);
		tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  workers[i].name, "status 0x%x", status);
	}
	kill(streamer_pid, SIGKILL);
	{
		int status;

		test_wait(streamer_pid, &status, 0);
		tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
			  "the streamer read the right data until it was stopped", "status 0x%x",
			  status);
	}
	if (read_file("/proc/vmstat", text, sizeof(text)) < 0)
		tap_bail("read /proc/vmstat: %m");
	if (on_pageturn())
		tap_check(proc_field(text, "pgsteal_file") > steal0, "reclaim ran meanwhile",
			  "pgsteal_file +%ld", proc_field(text, "pgsteal_file") - steal0);
	for (int i = 0; i < 4; i++)
		unlink(path[i]);
	rmdir(dir);
	return tap_done();
}
