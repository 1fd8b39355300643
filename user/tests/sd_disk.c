/*
 * sd_disk: two sd disks, by an ATA driver of drivers/block/ or over USB
 * (the QEMU cases ata_piix_pc_bios, ahci_q35_bios and usb_storage_q35_bios
 * give them): /dev/sda, an ext2
 * made by mke2fs -d holding hello.txt, and /dev/sdb, 8 MiB of zeroes.
 * Elsewhere (no /dev/sdb, the build machine) everything is skipped.
 *
 * Checks: /proc/partitions lists both with Linux's numbers (8:0, 8:16);
 * sda mounts as ext2, hello.txt reads back, and written.bin (256 KiB of
 * a pattern) is written and synced (the host then runs e2fsck -fn and
 * reads the file back); a pattern fills all of sdb through its node, a
 * write at its end is ENOSPC, and after fsync and drop_caches the
 * pattern reads back (the host checks every byte of the image).
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

#define SDB_BYTES	(8u << 20)
#define WRITTEN_BYTES	(256u << 10)

static unsigned char buf[65536];
static char text[4096];

/* The patterns the host checks (tests/qemu/cases.py knows them). */
static unsigned char sdb_pattern(uint64_t pos)
{
	return (unsigned char)((pos * 11 + 7) ^ (pos >> 10));
}

static unsigned char file_pattern(uint64_t pos)
{
	return (unsigned char)((pos * 5 + 1) ^ (pos >> 8));
}

static void ext2_on_sda(void)
{
	uint64_t pos;
	size_t i;
	int fd;

	if (!tap_check(mount("/dev/sda", "/mnt", "ext2", 0, NULL) == 0, "mount /dev/sda", "%s",
		       strerror(errno)))
		return;
	read_file("/mnt/hello.txt", text, sizeof(text));
	tap_check(strcmp(text, "hello from sda\n") == 0, "hello.txt reads back", "\"%s\"", text);
	fd = open("/mnt/written.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (pos = 0; fd >= 0 && pos < WRITTEN_BYTES; pos += sizeof(buf)) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = file_pattern(pos + i);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
	}
	tap_check(fd >= 0 && pos == WRITTEN_BYTES && close(fd) == 0, "write written.bin on sda",
		  "%s", strerror(errno));
	sync();		/* there is no umount: the host reads the disk after power-off */
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok = fd >= 0 && write(fd, "3", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok;
}

static void pattern_on_sdb(void)
{
	uint64_t pos, size = 0;
	size_t i, bad = 0;
	int fd = open("/dev/sdb", O_RDWR);

	if (!tap_check(fd >= 0, "open /dev/sdb", "%s", strerror(errno)))
		return;
	tap_check(ioctl(fd, BLKGETSIZE64, &size) == 0 && size == SDB_BYTES, "BLKGETSIZE64 of sdb",
		  "%llu", (unsigned long long)size);
	for (pos = 0; pos < SDB_BYTES; pos += sizeof(buf)) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = sdb_pattern(pos + i);
		if (pwrite(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			break;
	}
	tap_check(pos == SDB_BYTES, "fill sdb with a pattern", "stopped at %llu: %s",
		  (unsigned long long)pos, strerror(errno));
	errno = 0;
	tap_check(pwrite(fd, buf, 512, SDB_BYTES) == -1 && errno == ENOSPC,
		  "a write at sdb's end is ENOSPC", "%s", strerror(errno));
	tap_check(fsync(fd) == 0, "fsync /dev/sdb", "%s", strerror(errno));
	tap_check(drop_caches(), "drop_caches 3", "%s", strerror(errno));
	for (pos = 0; pos < SDB_BYTES; pos += sizeof(buf)) {
		if (pread(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			break;
		for (i = 0; i < sizeof(buf); i++)
			bad += buf[i] != sdb_pattern(pos + i);
	}
	tap_check(pos == SDB_BYTES && bad == 0, "the pattern reads back", "%zu bytes differ, stopped at %llu",
		  bad, (unsigned long long)pos);
	close(fd);
}

int main(void)
{
	if (!on_pageturn() || access("/dev/sdb", F_OK) != 0) {
		tap_skip("sd_disk", "no /dev/sdb: not an ATA QEMU case");
		return tap_done();
	}
	read_file("/proc/partitions", text, sizeof(text));
	tap_check(strstr(text, "   8        0 ") && strstr(text, " sda\n") &&
		  strstr(text, "   8       16       8192 sdb\n"),
		  "/proc/partitions lists sda (8:0) and sdb (8:16)", "%s", text);
	ext2_on_sda();
	pattern_on_sdb();
	return tap_done();
}
