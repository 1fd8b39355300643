/*
 * partitions: disks with partition tables, as the QEMU case
 * partitions_virtio_bios gives them: /dev/vda (64 MiB) with an MBR made
 * by sfdisk (two primary partitions, an extended one holding logical
 * partitions 5 and 6) and /dev/vdb (64 MiB) with a GPT of three
 * partitions, the second an ext2 made by mke2fs -d.  Elsewhere (the
 * build machine, other boots) everything is skipped.
 *
 * Checks: /proc/partitions in Linux's layout lists every disk and
 * partition with Linux's numbers and sizes; vdb2 mounts as ext2 (and then
 * vdb itself is EBUSY, as on Linux), its file reads back and a new file is written (the host then runs e2fsck
 * -fn on the partition and reads the file); a pattern fills the whole
 * of vda6 through its node, reads back, and a write at its end is
 * ENOSPC (the host checks the pattern sits at vda6's sectors of the disk
 * and the sectors around it are untouched); /proc/diskstats counts the
 * writes on vda6.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "testlib.h"

#define VDA6_BYTES	(4u << 20)

/* The expected rows: major, minor, KiB, name (cases.py made the tables). */
static const struct { unsigned int major, minor; unsigned long kib; const char *name; } rows[] = {
	{ 254, 0, 65536, "vda" }, { 254, 1, 10240, "vda1" }, { 254, 2, 5120, "vda2" },
	{ 254, 3, 1, "vda3" }, { 254, 5, 4096, "vda5" }, { 254, 6, 4096, "vda6" },
	{ 254, 16, 65536, "vdb" }, { 254, 17, 10240, "vdb1" }, { 254, 18, 16384, "vdb2" },
	{ 254, 19, 4096, "vdb3" },
};

static char text[8192];

static void proc_partitions(void)
{
	const char *after, *at;
	char line[128];
	size_t i;

	read_file("/proc/partitions", text, sizeof(text));
	tap_check(strncmp(text, "major minor  #blocks  name\n\n", 28) == 0,
		  "/proc/partitions starts with Linux's header and a blank line", "%.60s", text);
	after = text;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(line, sizeof(line), "%4u  %7u %10lu %s\n", rows[i].major, rows[i].minor,
			 rows[i].kib, rows[i].name);
		at = strstr(after, line);
		if (!tap_check(at != NULL, "/proc/partitions row in order", "no \"%.*s\" after the rows before:\n%s",
			       (int)strlen(line) - 1, line, text))
			continue;
		after = at + strlen(line);
	}
	tap_check(strstr(text, "vda4") == NULL && strstr(text, "vdb4") == NULL,
		  "no partition for an empty slot or entry", NULL);
}

static void ext2_partition(void)
{
	int fd;

	if (!tap_check(mount("/dev/vdb2", "/mnt", "ext2", 0, NULL) == 0, "mount /dev/vdb2 (ext2 in a GPT partition)",
		       "%s", strerror(errno)))
		return;
	errno = 0;
	tap_check(mount("/dev/vdb", "/tmp", "ext2", 0, NULL) == -1 && errno == EBUSY,
		  "mounting the disk of a mounted partition is EBUSY", "%s", strerror(errno));
	read_file("/mnt/hello.txt", text, sizeof(text));
	tap_check(strcmp(text, "hello from vdb2\n") == 0, "a file of the partition's ext2 reads back",
		  "\"%s\"", text);
	fd = open("/mnt/written.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	tap_check(fd >= 0 && write(fd, "written in vdb2\n", 16) == 16 && close(fd) == 0,
		  "write a file on the partition", "%s", strerror(errno));
	sync();		/* there is no umount: the host reads the disk after power-off */
}

static unsigned char pattern(uint64_t pos)
{
	return (unsigned char)((pos * 13 + 5) ^ (pos >> 9));
}

static unsigned char buf[65536];

static void logical_partition(void)
{
	uint64_t size = 0, pos;
	size_t i, bad = 0;
	int fd = open("/dev/vda6", O_RDWR);

	if (!tap_check(fd >= 0, "open /dev/vda6 (a logical partition)", "%s", strerror(errno)))
		return;
	tap_check(ioctl(fd, BLKGETSIZE64, &size) == 0 && size == VDA6_BYTES, "BLKGETSIZE64 of vda6",
		  "%llu", (unsigned long long)size);
	for (pos = 0; pos < VDA6_BYTES; pos += sizeof(buf)) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = pattern(pos + i);
		if (pwrite(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			break;
	}
	tap_check(pos == VDA6_BYTES, "fill vda6 with a pattern", "stopped at %llu: %s",
		  (unsigned long long)pos, strerror(errno));
	errno = 0;
	tap_check(pwrite(fd, buf, 512, VDA6_BYTES) == -1 && errno == ENOSPC,
		  "a write at the partition's end is ENOSPC", "%s", strerror(errno));
	tap_check(fsync(fd) == 0, "fsync /dev/vda6", "%s", strerror(errno));
	for (pos = 0; pos < VDA6_BYTES; pos += sizeof(buf)) {
		if (pread(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			break;
		for (i = 0; i < sizeof(buf); i++)
			bad += buf[i] != pattern(pos + i);
	}
	tap_check(pos == VDA6_BYTES && bad == 0, "the pattern reads back", "%zu bytes differ, stopped at %llu",
		  bad, (unsigned long long)pos);
	close(fd);
}

static void diskstats(void)
{
	unsigned long written = 0;
	char *row;

	read_file("/proc/diskstats", text, sizeof(text));
	row = strstr(text, " vda6 ");
	if (row)
		sscanf(row, " vda6 %*u %*u %*u %*u %*u %*u %lu", &written);
	tap_check(written >= VDA6_BYTES / 512, "/proc/diskstats counts vda6's sectors written",
		  "%lu", written);
}

int main(void)
{
	if (!on_pageturn() || access("/dev/vdb2", F_OK) != 0) {
		tap_skip("partitions", "no /dev/vdb2: not the partitions QEMU case");
		return tap_done();
	}
	proc_partitions();
	ext2_partition();
	logical_partition();
	diskstats();
	return tap_done();
}
