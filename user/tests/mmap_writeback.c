/*
 * mmap_writeback: a store through a shared file mapping after the page
 * was written back is written back again.
 *
 * Writeback cleans a page (PG_dirty off) before it writes it.  If the
 * store's PTE stayed writable, a later store would go to the page with no
 * fault and nothing would mark it dirty: fsync and sync would skip it and
 * the file on disk would keep the old bytes for as long as the mapping
 * lives.  Linux write-protects every shared PTE of the page at writeback
 * (page_mkclean), so the next store faults and dirties the page again;
 * mprotect back to writable keeps a clean page's PTEs read-only for the
 * same reason.  Each round stores through the mapping, checks that the
 * page is counted dirty at once (nr_dirty, what the flusher looks at),
 * fsyncs, and checks that fsync wrote to the disk (sectors written in /proc/diskstats grow,
 * on Pageturn, whose scratch directory is on a disk) and that the file
 * reads back what was stored: after a first fsync, after a second store
 * with no fault expected, and after mprotect(PROT_READ) then
 * PROT_READ | PROT_WRITE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testlib.h"

#define SIZE (4 * 4096)

static long nr_dirty(void)
{
	static char text[8192];

	if (read_file("/proc/vmstat", text, sizeof(text)) < 0)
		tap_bail("read /proc/vmstat: %s", strerror(errno));
	return proc_field(text, "nr_dirty");
}

static void store_and_sync(const char *what, int fd, char *map, char c)
{
	unsigned long long before = diskstats_sectors(1);
	long dirty = nr_dirty();
	char back;

	map[100] = c;
	/* The store faulted and dirtied the page: the flusher sees it too. */
	if (on_pageturn())
		tap_check(nr_dirty() > dirty, "the store dirtied the page (nr_dirty grew)",
			  "nr_dirty %ld before, %ld after", dirty, nr_dirty());
	tap_check(fsync(fd) == 0, what, "fsync: %s", strerror(errno));
	if (on_pageturn())
		tap_check(diskstats_sectors(1) > before, "fsync wrote the page to the disk",
			  "%llu sectors written before and after", before);
	tap_check(pread(fd, &back, 1, 100) == 1 && back == c, "the file reads the stored byte",
		  "read '%c', stored '%c'", back, c);
}

int main(void)
{
	char path[160];
	char *map;
	int fd;

	snprintf(path, sizeof(path), "%s/mmap_writeback.%d", ext2_scratch(), getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, SIZE) != 0)
		tap_bail("create %s: %s", path, strerror(errno));
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));

	store_and_sync("a first store, then fsync", fd, map, 'A');
	store_and_sync("a store after writeback, then fsync", fd, map, 'B');
	tap_check(mprotect(map, SIZE, PROT_READ) == 0 &&
		  mprotect(map, SIZE, PROT_READ | PROT_WRITE) == 0,
		  "mprotect read-only, then read-write", "%s", strerror(errno));
	store_and_sync("a store after mprotect back to writable, then fsync", fd, map, 'C');

	munmap(map, SIZE);
	close(fd);
	unlink(path);
	return tap_done();
}
