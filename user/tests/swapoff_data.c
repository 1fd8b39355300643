/*
 * swapoff_data: swapoff brings every swapped page back bit-exact, and
 * refuses with ENOMEM, losing nothing, when memory could not hold them.
 *
 * Pageturn only, with one swap area on (the QEMU case gives /dev/vda):
 *   1. A third of RAM gets a per-page pattern, and so does a tmpfs file
 *      of a sixth of RAM; then a region of 1.5 x RAM is written, which
 *      pushes most of both out to swap, and is unmapped again (its slots
 *      are freed).  swapoff of the area must succeed: the region's pages
 *      are faulted back in and the file's read back into it
 *      (try_to_unuse, shmem_unuse), pswpin grows, SwapTotal is 0, and
 *      every word of both is still as written.  swapon puts the area
 *      back.
 *   2. Three times the RAM gets the pattern: swapoff must fail with
 *      ENOMEM, the area must still be listed in /proc/swaps with its
 *      slots counted, and every word must still be as written.
 * On the build machine (where it would need root and would disturb the
 * host's swap), or without a swap area, it skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <unistd.h>

#include "testlib.h"

#define PAGE		4096ul
#define WORDS		(PAGE / 8)

static char text[16384];

static uint64_t word(uint64_t page, uint64_t i, uint64_t salt)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (i << 40) ^ salt;
}

static uint64_t *fill(unsigned long size, uint64_t salt)
{
	uint64_t *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);

	if (mem == MAP_FAILED)
		tap_bail("mmap of %lu MiB: %s", size >> 20, strerror(errno));
	for (unsigned long p = 0; p < size / PAGE; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			mem[p * WORDS + i] = word(p, i, salt);
	return mem;
}

static unsigned long verify(const uint64_t *mem, unsigned long size, uint64_t salt)
{
	unsigned long bad = 0;

	for (unsigned long p = 0; p < size / PAGE; p++)
		for (unsigned long i = 0; i < WORDS; i++)
			bad += mem[p * WORDS + i] != word(p, i, salt);
	return bad;
}

/* The first area /proc/swaps lists, into dev; 0 if there is none. */
static int swap_device(char *dev, size_t len)
{
	char *line;

	if (read_file("/proc/swaps", text, sizeof(text)) < 0)
		return 0;
	line = strchr(text, '\n');
	if (!line || sscanf(line + 1, "%63s", dev) != 1 || len < 64)
		return 0;
	return 1;
}

int main(void)
{
	unsigned long ram, size, fsize, bad;
	int fd;
	long in0, used;
	char dev[64];
	uint64_t *mem, *push, *file;

	if (!on_pageturn()) {
		tap_skip("swapoff brings pages back", "it would need root and the host's swap");
		return tap_done();
	}
	if (!swap_device(dev, sizeof(dev))) {
		tap_skip("swapoff brings pages back", "no swap area is on");
		return tap_done();
	}
	ram = (unsigned long)meminfo_kb("MemTotal") * 1024;
	fsize = ram / 6 & ~(PAGE - 1);

	/* 1: a third of RAM and a tmpfs file through swap and back by swapoff. */
	size = ram / 3 & ~(PAGE - 1);
	mem = fill(size, 0x1111);
	file = fill(fsize, 0x4444);
	fd = open("/tmp/swapoff_data", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write_all(fd, file, fsize) != (ssize_t)fsize)
		tap_bail("write /tmp/swapoff_data: %s", strerror(errno));
	munmap(file, fsize);
	push = fill(ram * 3 / 2 & ~(PAGE - 1), 0x2222);
	munmap(push, ram * 3 / 2 & ~(PAGE - 1));
	used = meminfo_kb("SwapTotal") - meminfo_kb("SwapFree");
	tap_note("%ld kB of swap in use before swapoff", used);
	tap_check(used > 0, "the first region is partly on swap", "%ld kB used", used);
	in0 = vmstat_value("pswpin");
	tap_check(swapoff(dev) == 0, "swapoff with pages out succeeds", "swapoff %s: %s", dev,
		  strerror(errno));
	tap_check(vmstat_value("pswpin") > in0, "it read them back", "pswpin +%ld",
		  vmstat_value("pswpin") - in0);
	tap_check(meminfo_kb("SwapTotal") == 0 && meminfo_kb("SwapFree") == 0,
		  "no swap is left", "SwapTotal %ld kB", meminfo_kb("SwapTotal"));
	bad = verify(mem, size, 0x1111);
	tap_check(bad == 0, "every word came back as written", "%lu words differ", bad);
	munmap(mem, size);
	file = mmap(NULL, fsize, PROT_READ, MAP_SHARED, fd, 0);
	if (file == MAP_FAILED)
		tap_bail("mmap /tmp/swapoff_data: %s", strerror(errno));
	bad = verify(file, fsize, 0x4444);
	tap_check(bad == 0, "and every word of the tmpfs file", "%lu words differ", bad);
	munmap(file, fsize);
	close(fd);
	unlink("/tmp/swapoff_data");
	tap_check(swapon(dev, 0) == 0, "swapon puts the area back", "swapon %s: %s", dev,
		  strerror(errno));

	/* 2: more than memory can hold: ENOMEM, nothing lost. */
	size = ram * 3 & ~(PAGE - 1);
	mem = fill(size, 0x3333);
	used = meminfo_kb("SwapTotal") - meminfo_kb("SwapFree");
	errno = 0;
	tap_check(swapoff(dev) < 0 && errno == ENOMEM, "swapoff of too much for memory: ENOMEM",
		  "errno %s, %ld kB used", strerror(errno), used);
	tap_check(swap_device(dev, sizeof(dev)) && meminfo_kb("SwapTotal") > 0,
		  "the area is still on", "/proc/swaps:\n%s", text);
	bad = verify(mem, size, 0x3333);
	tap_check(bad == 0, "every word still as written", "%lu words differ", bad);
	munmap(mem, size);
	return tap_done();
}
