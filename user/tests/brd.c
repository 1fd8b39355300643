/*
 * brd: a RAM disk carved from the RAM above mem=, as the QEMU case
 * brd_mem_limit_bios boots it (-m 256M, mem=96M brd.rd_size=65536):
 * /dev/ram1 (ram0 is the root image) is 64 MiB, the page allocator sees
 * at most 96 MiB (MemTotal), and the disk's memory did not come from it
 * (MemFree is still more than the disk would have left).  A pattern
 * written over the whole disk through its node, synced and with the
 * caches dropped, reads back.  Elsewhere (another size of ram1, the build
 * machine) everything is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "testlib.h"

#define DISK		"/dev/ram1"
#define DISK_BYTES	(64ull << 20)
#define LIMIT_KB	(96 * 1024)

static unsigned char buf[65536];

static unsigned char pattern(uint64_t pos)
{
	return (unsigned char)((pos * 29 + 3) ^ (pos >> 12));
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok = fd >= 0 && write(fd, "3", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok;
}

int main(void)
{
	uint64_t size = 0, pos;
	long total = meminfo_kb("MemTotal"), free_kb = meminfo_kb("MemFree");
	size_t i, bad = 0;
	char text[4096];
	int fd;

	fd = open(DISK, O_RDWR);
	if (!on_pageturn() || fd < 0 || ioctl(fd, BLKGETSIZE64, &size) != 0 || size != DISK_BYTES) {
		tap_skip("brd", "no 64 MiB /dev/ram1: not the brd_mem_limit QEMU case");
		return tap_done();
	}
	/* Below the limit: the 16 MiB root image, the kernel, mem_map. */
	tap_check(total > 0 && total <= LIMIT_KB && total >= LIMIT_KB - 32 * 1024,
		  "MemTotal is under mem=96M and within 32 MiB of it", "%ld kB", total);
	tap_check(free_kb > (long)(DISK_BYTES >> 10) / 2,
		  "MemFree: the disk's 64 MiB did not come from the page allocator", "%ld kB", free_kb);
	read_file("/proc/partitions", text, sizeof(text));
	tap_check(strstr(text, "   1        1      65536 ram1\n") != NULL, "/proc/partitions lists ram1's 64 MiB",
		  "%s", text);
	for (pos = 0; pos < DISK_BYTES; pos += sizeof(buf)) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = pattern(pos + i);
		if (pwrite(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			break;
	}
	tap_check(pos == DISK_BYTES, "fill ram1 with a pattern", "stopped at %llu: %s",
		  (unsigned long long)pos, strerror(errno));
	tap_check(fsync(fd) == 0, "fsync " DISK, "%s", strerror(errno));
	tap_check(drop_caches(), "drop_caches 3", "%s", strerror(errno));
	for (pos = 0; pos < DISK_BYTES; pos += sizeof(buf)) {
		if (pread(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			break;
		for (i = 0; i < sizeof(buf); i++)
			bad += buf[i] != pattern(pos + i);
	}
	tap_check(pos == DISK_BYTES && bad == 0, "the pattern reads back", "%zu bytes differ, stopped at %llu",
		  bad, (unsigned long long)pos);
	close(fd);
	return tap_done();
}
