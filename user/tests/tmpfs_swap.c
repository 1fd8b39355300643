/*
 * tmpfs_swap: a tmpfs file twice the size of RAM goes to swap and comes
 * back bit-exact.
 *
 * The file is written in /tmp (tmpfs, whose default size is half of RAM
 * and swap) with a pattern derived from each word's offset, read back
 * twice by read() and once through a shared mapping, then removed.  It
 * cannot all be resident: reclaim must move its pages to swap
 * (shmem_writepage: the page leaves the file for the swap cache, its
 * slot's entry takes its place in the file's swap tree) and reads must
 * bring them back (shmem_readpage).  On Pageturn with swap: pswpout
 * grows, every word is as written, and once the file is gone SwapFree is
 * back where it was, within a few pages others may have had swapped
 * meanwhile.  Without swap on Pageturn it skips; on the build machine it
 * checks the data of a 32 MiB file.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testlib.h"

#define CHUNK		(1u << 20)

static uint64_t word(uint64_t off)
{
	return (off >> 3) * 0xff51afd7ed558ccdull ^ 0x7f00000000000000ull;
}

/* Words of the file that differ from the pattern, by read(). */
static unsigned long check_read(int fd, uint64_t size, uint64_t *buf)
{
	unsigned long bad = 0;

	lseek(fd, 0, SEEK_SET);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		if (read_full(fd, buf, CHUNK) != CHUNK)
			tap_bail("short read at %llu", (unsigned long long)off);
		for (size_t i = 0; i < CHUNK / 8; i++)
			bad += buf[i] != word(off + i * 8);
	}
	return bad;
}

int main(void)
{
	uint64_t size = 32u << 20;
	long swapfree0 = 0, out0 = 0;
	unsigned long bad;
	char path[64];
	uint64_t *buf, *map;
	int fd, pt = on_pageturn();

	if (pt) {
		if (meminfo_kb("SwapTotal") <= 0) {
			tap_skip("a tmpfs file through swap", "no swap area is on");
			return tap_done();
		}
		size = ((uint64_t)meminfo_kb("MemTotal") * 1024 * 2 + CHUNK - 1) & ~(uint64_t)(CHUNK - 1);
		swapfree0 = meminfo_kb("SwapFree");
		out0 = vmstat_value("pswpout");
	}
	buf = malloc(CHUNK);
	if (!buf)
		tap_bail("no memory for the buffer");
	snprintf(path, sizeof(path), "/tmp/tmpfs_swap.%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		tap_bail("create %s: %m", path);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		for (size_t i = 0; i < CHUNK / 8; i++)
			buf[i] = word(off + i * 8);
		if (write_all(fd, buf, CHUNK) != CHUNK)
			tap_bail("write %s at %llu: %m", path, (unsigned long long)off);
	}
	tap_note("wrote %llu MiB to %s", (unsigned long long)(size >> 20), path);
	if (pt)
		tap_check(vmstat_value("pswpout") > out0, "its pages went out to swap", "pswpout +%ld",
			  vmstat_value("pswpout") - out0);
	bad = check_read(fd, size, buf);
	tap_check(bad == 0, "read() finds every word", "%lu words differ", bad);
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap: %m");
	bad = 0;
	for (uint64_t i = 0; i < size / 8; i++)
		bad += map[i] != word(i * 8);
	tap_check(bad == 0, "so does a shared mapping", "%lu words differ", bad);
	munmap(map, size);
	bad = check_read(fd, size, buf);
	tap_check(bad == 0, "and read() again", "%lu words differ", bad);
	close(fd);
	unlink(path);
	if (pt)
		tap_check(meminfo_kb("SwapFree") >= swapfree0 - 1024, "removing it frees its slots",
			  "SwapFree %ld kB before, %ld kB after", swapfree0, meminfo_kb("SwapFree"));
	return tap_done();
}
