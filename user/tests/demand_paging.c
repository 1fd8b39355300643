/*
 * demand_paging: a large anonymous mapping costs nothing until it is
 * touched, then gets one zeroed page per page touched, keeps what is
 * written there, and gives the memory back on munmap.
 *
 * 256 MiB (65536 pages) are mapped; every page must first read as zero,
 * then gets a pattern that names its page, written one word per 512
 * bytes, and every written word is verified afterwards.  The machine
 * needs more than 256 MiB free: the QEMU case boots with -m 512M.
 * MemFree and AnonPages from /proc/meminfo and pgfault from /proc/vmstat
 * are printed before the mapping, after touching and after munmap when
 * those files exist ("# meminfo ..." lines) so the counters can be read
 * off the log; the checks here do not depend on them.
 */
#include "testlib.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIZE (256ul << 20)
#define STRIDE 512ul

/* The value of name (proc_field) in a /proc file, in its unit; -1 if absent. */
static long proc_value(const char *file, const char *name)
{
	static char text[32768];

	return read_file(file, text, sizeof(text)) > 0 ? proc_field(text, name) : -1;
}

static void counters(const char *when)
{
	tap_note("meminfo %s: MemFree %ld kB, AnonPages %ld kB, pgfault %ld", when,
		 proc_value("/proc/meminfo", "MemFree"), proc_value("/proc/meminfo", "AnonPages"),
		 proc_value("/proc/vmstat", "pgfault"));
}

static unsigned long word(unsigned long off)
{
	return (off / PAGE_SIZE) * 0x10001ul ^ off ^ 0x5a5a000000000000ul;
}

int main(void)
{
	unsigned long *map, first_nonzero = SIZE, first_bad = SIZE;
	unsigned char *bytes;

	counters("before mmap");
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap of 256 MiB: %s", strerror(errno));
	tap_check(((unsigned long)map & (PAGE_SIZE - 1)) == 0, "mmap of 256 MiB returns a page-aligned address",
		  "%p", (void *)map);
	counters("after mmap, nothing touched");
	bytes = (unsigned char *)map;

	/* First touch of every page is a read: it must be zero. */
	for (unsigned long off = 0; off < SIZE; off += PAGE_SIZE)
		if (bytes[off + (off / PAGE_SIZE) % PAGE_SIZE] && first_nonzero == SIZE)
			first_nonzero = off;
	tap_check(first_nonzero == SIZE, "every page of the fresh mapping reads zero",
		  "page at offset %#lx is not", first_nonzero);

	for (unsigned long off = 0; off < SIZE; off += STRIDE)
		map[off / sizeof(long)] = word(off);
	counters("after writing every page");
	for (unsigned long off = 0; off < SIZE; off += STRIDE)
		if (map[off / sizeof(long)] != word(off)) {
			first_bad = off;
			break;
		}
	tap_check(first_bad == SIZE, "all 65536 pages keep their pattern",
		  "offset %#lx holds %#lx, expected %#lx", first_bad,
		  first_bad < SIZE ? map[first_bad / sizeof(long)] : 0, word(first_bad));
	tap_check(bytes[SIZE - 1] == 0 && bytes[8] == 0, "bytes between the pattern words stay zero",
		  NULL);

	tap_check(munmap(map, SIZE) == 0, "munmap of the 256 MiB", "%s", strerror(errno));
	counters("after munmap");
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_check(map != MAP_FAILED, "the memory can be mapped again", "%s", strerror(errno));
	if (map != MAP_FAILED) {
		map[SIZE / sizeof(long) - 1] = 1;
		tap_check(map[0] == 0 && map[SIZE / sizeof(long) - 1] == 1,
			  "and the new mapping starts out zero", NULL);
		munmap(map, SIZE);
	}
	return tap_done();
}
