/*
 * reclaim_file: the page cache of a file twice the size of RAM.
 *
 * The file does not fit, so reclaim must free its pages as it goes:
 * dirty ones written back (pageout) while it is written, clean ones
 * dropped while it is read, mapped ones unmapped while it is read through
 * a mapping.  Every 32-bit word must come back as written (the word at
 * byte offset o is o / 4 ^ SALT), twice by read() and once through the
 * mapping; the QEMU case then reads the file from the disk image with
 * debugfs.  Without swap only file pages may be reclaimed: pgsteal_file
 * grows, pgsteal_anon does not, and this process's own anonymous memory
 * (a 2 MiB buffer it keeps touching) stays resident and intact.  Under
 * the split lists (lru=split, the default) no anon page is even scanned:
 * pgscan_anon stays.  Under lru=single (/proc/vmstat's lru_single 1) both
 * kinds share one active list, and its scan (2.6.27's shrink_active_list)
 * must wade through the anon pages it may not deactivate without swap:
 * /proc/zoneinfo's recent_scanned_anon, the anon pages reclaim took off a
 * list, grows by at least the buffer's pages; the log shows it, and
 * pgrefill beside pgdeactivate (the difference: pages kept active), for
 * both policies.  No anon page is freed under either.  kswapd0 did part
 * of the work (pageoutrun, kswapd_steal) and sleeps again afterwards
 * (state S in /proc/PID/stat, with CPU time).
 *
 * On Pageturn the file is 2 x MemTotal (rounded up to 32 MiB) on the
 * virtio disk (ext2_scratch), and stays there for the host to check;
 * without a disk the test skips.  On the build machine it is a 16 MiB
 * file in /tmp, the data checks run and the counter checks are skipped.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testlib.h"

#define SALT		0x5a000000u
#define CHUNK		(1u << 20)
#define ANON_SIZE	(2u << 20)

static char text[16384];

/* Active pages reclaim took off an active list, over all zones. */
static long pgrefill(void)
{
	return vmstat_value("pgrefill_dma") + vmstat_value("pgrefill_dma32") + vmstat_value("pgrefill_normal");
}

/* A /proc/zoneinfo field summed over the zones. */
static long zoneinfo_sum(const char *name)
{
	size_t len = strlen(name);
	long sum = 0;
	char *p;

	if (read_file("/proc/zoneinfo", text, sizeof(text)) < 0)
		return -1;
	for (p = strstr(text, name); p; p = strstr(p + len, name))
		if (p[len] == ':')
			sum += strtol(p + len + 1, NULL, 10);
	return sum;
}

static void fill(uint32_t *buf, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len / 4; i++)
		buf[i] = (uint32_t)((off / 4 + i) ^ SALT);
}

/* Words of buf (at file offset off) that differ from the pattern. */
static size_t mismatches(const uint32_t *buf, uint64_t off, size_t len)
{
	size_t bad = 0;

	for (size_t i = 0; i < len / 4; i++)
		bad += buf[i] != (uint32_t)((off / 4 + i) ^ SALT);
	return bad;
}

/* The anonymous buffer: every page holds its index; returns bad pages. */
static size_t touch_anon(unsigned char *anon, int check)
{
	size_t bad = 0;

	for (size_t p = 0; p < ANON_SIZE / 4096; p++) {
		if (check)
			bad += anon[p * 4096] != (unsigned char)p;
		anon[p * 4096] = (unsigned char)p;
	}
	return bad;
}

static size_t read_pass(const char *path, uint64_t size, uint32_t *buf, unsigned char *anon)
{
	int fd = open(path, O_RDONLY);
	size_t bad = 0;

	if (fd < 0)
		tap_bail("open %s: %m", path);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		if (read_full(fd, buf, CHUNK) != CHUNK)
			tap_bail("read %s at %llu: short", path, (unsigned long long)off);
		bad += mismatches(buf, off, CHUNK);
		bad += touch_anon(anon, 1);
	}
	close(fd);
	return bad;
}

/* kswapd0's /proc/PID/stat state and utime+stime, or 0 if not found. */
static char kswapd_state(long *ticks)
{
	int pids[256], n = proc_pids(pids, 256);
	char path[64], buf[512];

	for (int i = 0; i < n && i < 256; i++) {
		char *p, state;
		long utime = 0, stime = 0;

		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		if (read_file(path, buf, sizeof(buf)) < 0 || !strstr(buf, "(kswapd0)"))
			continue;
		p = strrchr(buf, ')');
		/* ") S ppid pgrp session tty tpgid flags minflt cminflt majflt
		 * cmajflt utime stime" */
		if (sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld",
			   &state, &utime, &stime) != 3)
			return 0;
		*ticks = utime + stime;
		return state;
	}
	return 0;
}

/* Reclaim's per-zone state for the log (the docs' worked example). */
static void note_zoneinfo(void)
{
	static const char *const keys[] = {
		"zone", "scanned", "lru_policy", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
		"nr_active_file", "all_unreclaimable", "inactive_ratio", "recent_",
	};
	char *line, *save;

	if (read_file("/proc/zoneinfo", text, sizeof(text)) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (strstr(line, keys[k])) {
				tap_note("zoneinfo: %s", line);
				break;
			}
}

int main(void)
{
	const char *dir = ext2_scratch();
	long scan_anon0, steal_anon0, steal_file0, write0, active_anon0, mem_kb, seen_anon0;
	long refill0, deact0;
	uint64_t size = 16u << 20;
	unsigned char *anon;
	char path[128];
	uint32_t *buf;
	size_t bad;
	int fd, single;

	mem_kb = meminfo_kb("MemTotal");
	single = on_pageturn() && vmstat_value("lru_single") == 1;
	if (on_pageturn()) {
		if (strcmp(dir, "/mnt") != 0) {
			tap_skip("a file twice the size of RAM", "no virtio disk to hold it");
			return tap_done();
		}
		size = ((uint64_t)mem_kb * 1024 * 2 + (32u << 20) - 1) & ~((uint64_t)(32u << 20) - 1);
	}
	snprintf(path, sizeof(path), "%s/reclaim_file.bin", dir);
	buf = malloc(CHUNK);
	anon = mmap(NULL, ANON_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!buf || anon == MAP_FAILED)
		tap_bail("no memory for the buffers");
	touch_anon(anon, 0);

	scan_anon0 = vmstat_value("pgscan_anon");
	steal_anon0 = vmstat_value("pgsteal_anon");
	steal_file0 = vmstat_value("pgsteal_file");
	write0 = vmstat_value("nr_vmscan_write");
	active_anon0 = meminfo_kb("Active(anon)");
	seen_anon0 = zoneinfo_sum("recent_scanned_anon");
	refill0 = pgrefill();
	deact0 = vmstat_value("pgdeactivate");

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		tap_bail("create %s: %m", path);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		fill(buf, off, CHUNK);
		if (write_all(fd, buf, CHUNK) != CHUNK)
			tap_bail("write %s at %llu: %m", path, (unsigned long long)off);
		touch_anon(anon, 0);
	}
	if (close(fd) != 0)
		tap_bail("close %s: %m", path);
	tap_note("wrote %llu MiB (MemTotal %ld kB); reclaim wrote %ld pages itself",
		 (unsigned long long)(size >> 20), mem_kb, vmstat_value("nr_vmscan_write") - write0);

	bad = read_pass(path, size, buf, anon);
	tap_check(bad == 0, "first read of the file: every word as written", "%zu words differ", bad);
	bad = read_pass(path, size, buf, anon);
	tap_check(bad == 0, "second read of the file: every word as written", "%zu words differ", bad);

	fd = open(path, O_RDONLY);
	{
		const uint32_t *map = fd < 0 ? MAP_FAILED :
			mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);

		if (map == MAP_FAILED)
			tap_bail("mmap %s: %m", path);
		bad = 0;
		for (uint64_t off = 0; off < size; off += CHUNK) {
			bad += mismatches(map + off / 4, off, CHUNK);
			bad += touch_anon(anon, 1);
		}
		munmap((void *)map, size);
		close(fd);
	}
	tap_check(bad == 0, "a read through a shared mapping: every word as written",
		  "%zu words differ", bad);
	tap_check(touch_anon(anon, 1) == 0, "the anonymous buffer kept its data", NULL);

	if (!on_pageturn()) {
		tap_skip("reclaim freed file pages only", "Linux has swap and its own balance");
		unlink(path);
		free(buf);
		return tap_done();
	}
	tap_note("pgsteal_file +%ld, pgsteal_anon +%ld, pgscan_anon +%ld; Active(anon) %ld -> %ld kB",
		 vmstat_value("pgsteal_file") - steal_file0, vmstat_value("pgsteal_anon") - steal_anon0,
		 vmstat_value("pgscan_anon") - scan_anon0, active_anon0, meminfo_kb("Active(anon)"));
	tap_check(vmstat_value("pgsteal_file") - steal_file0 >= (long)(size >> 12),
		  "reclaim freed at least the file's size in file pages", "pgsteal_file +%ld",
		  vmstat_value("pgsteal_file") - steal_file0);
	{
		long refill = pgrefill() - refill0;
		long deact = vmstat_value("pgdeactivate") - deact0;
		long seen_anon = zoneinfo_sum("recent_scanned_anon") - seen_anon0;

		tap_note("LRU policy: %s; pgrefill +%ld, pgdeactivate +%ld; recent_scanned_anon +%ld",
			 single ? "single" : "split", refill, deact, seen_anon);
		if (single)
			tap_check(seen_anon >= (long)(ANON_SIZE / 4096),
				  "lru=single: the active list scan went through the anon pages",
				  "recent_scanned_anon +%ld", seen_anon);
	}
	if (single)
		tap_check(vmstat_value("pgsteal_anon") == steal_anon0,
			  "lru=single without swap: no anon page was freed", "pgsteal_anon +%ld",
			  vmstat_value("pgsteal_anon") - steal_anon0);
	else
		tap_check(vmstat_value("pgscan_anon") == scan_anon0 && vmstat_value("pgsteal_anon") == steal_anon0,
			  "without swap, no anon page was scanned or freed", NULL);
	tap_check(meminfo_kb("Active(anon)") >= active_anon0 - 256,
		  "Active(anon) was left alone", "%ld -> %ld kB", active_anon0,
		  meminfo_kb("Active(anon)"));
	{
		long ticks = 0;
		char state = kswapd_state(&ticks);

		tap_note("pageoutrun %ld, kswapd_steal %ld, allocstall %ld; kswapd0 state %c, %ld ticks",
			 vmstat_value("pageoutrun"), vmstat_value("kswapd_steal"), vmstat_value("allocstall"),
			 state ? state : '?', ticks);
		tap_check(vmstat_value("pageoutrun") > 0 && vmstat_value("kswapd_steal") > 0,
			  "kswapd0 woke and freed pages", NULL);
		sleep(1);
		state = kswapd_state(&ticks);
		tap_check(state == 'S', "kswapd0 sleeps again once the zones are balanced",
			  "state %c", state ? state : '?');
	}
	note_zoneinfo();
	free(buf);
	return tap_done();
}
