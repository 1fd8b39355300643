/*
 * sync_merge: sync(2) after many small files are made on ext2 writes the
 * dirty metadata (inode table blocks, bitmaps, directory blocks) as
 * merged requests (kernel/fs/buffer.c's sync_blockdev under a plug,
 * drivers/block/blk-core.c).  The write columns of /proc/diskstats, summed
 * over the disks, must show bios merged into requests: "merged" grows,
 * and fewer requests complete than bios were written.  Only Pageturn's
 * counters are known to behave so (the build machine's Linux may write
 * its /tmp any way it likes): elsewhere the check is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#define NR_FILES 300

/* Write requests completed and write bios merged, over every disk. */
static int write_counts(unsigned long long *requests, unsigned long long *merged)
{
	unsigned long long rd, rdm, rds, rdt, wr, wrm;
	char line[512], name[64];
	unsigned int major, minor;
	FILE *f = fopen("/proc/diskstats", "r");

	if (!f)
		return -1;
	*requests = *merged = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu", &major, &minor, name,
			   &rd, &rdm, &rds, &rdt, &wr, &wrm) != 9)
			continue;
		*requests += wr;
		*merged += wrm;
	}
	fclose(f);
	return 0;
}

int main(void)
{
	unsigned long long req0, merged0, req1, merged1;
	char dir[256], path[300];
	int i, fd, made = 0;

	if (!on_pageturn()) {
		tap_skip("merged metadata writes", "Pageturn's disk counters, not this machine's");
		return tap_done();
	}
	snprintf(dir, sizeof(dir), "%s/sync_merge.%d", ext2_scratch(), getpid());
	if (mkdir(dir, 0755) != 0)
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	sync();
	for (i = 0; i < NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%03d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			break;
		made += write(fd, path, 100) == 100;
		close(fd);
	}
	tap_check(made == NR_FILES, "300 small files made", "%d", made);
	if (write_counts(&req0, &merged0) != 0)
		tap_bail("/proc/diskstats: %s", strerror(errno));
	sync();
	write_counts(&req1, &merged1);
	tap_note("sync: %llu write requests, %llu bios merged into them", req1 - req0,
		 merged1 - merged0);
	tap_check(req1 > req0, "sync wrote", "%llu requests", req1 - req0);
	tap_check(merged1 > merged0, "sync merged adjacent writes (diskstats' write merges grew)",
		  "%llu -> %llu", merged0, merged1);
	for (i = 0; i < NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%03d", dir, i);
		unlink(path);
	}
	tap_check(rmdir(dir) == 0, "cleaned up", "%s", strerror(errno));
	sync();
	return tap_done();
}
