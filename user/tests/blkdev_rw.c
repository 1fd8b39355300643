/*
 * blkdev_rw: read() and write() of block device nodes, Linux 6.1's
 * def_blk_fops semantics (kernel/fs/block_dev.c), and busybox's tools on
 * them.  Needs a scratch disk /dev/vdb that may be overwritten (the QEMU
 * case blkdev_rw_virtio_bios gives one of 8 MiB, a read-only /dev/vdc,
 * and an ext2 /dev/vda).  Without a writable /dev/vdb (the build
 * machine) everything is skipped.
 *
 * On /dev/vdb: patterns written at unaligned offsets and lengths (within
 * a block, across blocks, whole aligned blocks) read back the same, by
 * read() and by busybox dd; a write running past the end is cut there,
 * one at or past it is ENOSPC; a read at the end returns 0 and one
 * running past it is cut; lseek SEEK_END is BLKGETSIZE64; an O_RDONLY
 * descriptor's write is EBADF; busybox dd of= writes; busybox mkswap
 * writes a swap header that hexdump -C shows.  On /dev/vdc (read-only)
 * a write is EPERM, as Linux 6.1's blkdev_write_iter.  /dev/vda, mounted,
 * still reads (its ext2 magic).  The host then checks every byte written
 * and the swap header in the image (tests/qemu/cases.py: the offsets and
 * the pattern are shared with it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define BLKGETSIZE64	0x80081272
#define DISK		"/dev/vdb"

/* The byte at disk offset pos in the pattern of seed (cases.py knows it). */
static unsigned char pattern(uint64_t pos, unsigned int seed)
{
	return (unsigned char)((pos * 7 + seed) ^ (pos >> 8));
}

static void fill(unsigned char *buf, uint64_t pos, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(pos + i, seed);
}

static size_t mismatches(const unsigned char *buf, uint64_t pos, size_t len, unsigned int seed)
{
	size_t bad = 0;

	for (size_t i = 0; i < len; i++)
		bad += buf[i] != pattern(pos + i, seed);
	return bad;
}

/* The writes the host checks: offset, length, seed. */
static const struct { uint64_t pos; size_t len; unsigned int seed; } spans[] = {
	{ 5000, 3000, 1 },		/* inside one 4 KiB block, then across into the next */
	{ 12345, 10000, 2 },		/* several blocks, unaligned at both ends */
	{ 65536, 8192, 3 },		/* two whole aligned blocks: not read first */
	{ 100000, 1, 4 },		/* one byte */
};

static unsigned char buf[16384], back[16384];

static void patterns(int fd)
{
	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		ssize_t n;

		fill(buf, spans[i].pos, spans[i].len, spans[i].seed);
		n = pwrite(fd, buf, spans[i].len, spans[i].pos);
		tap_check(n == (ssize_t)spans[i].len, "pwrite of a pattern", "%zu at %llu: %zd, %s",
			  spans[i].len, (unsigned long long)spans[i].pos, n, strerror(errno));
	}
	tap_check(fsync(fd) == 0, "fsync of the node", "%s", strerror(errno));
	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		ssize_t n;

		memset(back, 0, sizeof(back));
		n = pread(fd, back, spans[i].len, spans[i].pos);
		tap_check(n == (ssize_t)spans[i].len && !mismatches(back, spans[i].pos, n, spans[i].seed),
			  "pread returns the pattern", "%zu at %llu: %zd", spans[i].len,
			  (unsigned long long)spans[i].pos, n);
	}
}

static void edges(int fd, uint64_t size)
{
	ssize_t n;
	off_t end = lseek(fd, 0, SEEK_END);

	tap_check(end == (off_t)size, "lseek SEEK_END is the device's size", "%lld, %llu",
		  (long long)end, (unsigned long long)size);
	tap_check(lseek(fd, -10, SEEK_END) == (off_t)size - 10, "lseek -10 from SEEK_END", NULL);
	n = read(fd, back, 100);
	tap_check(n == 10, "a read running past the end is cut there", "%zd", n);
	n = read(fd, back, 100);
	tap_check(n == 0, "a read at the end returns 0", "%zd", n);
	n = pread(fd, back, 100, size + 4096);
	tap_check(n == 0, "a read past the end returns 0", "%zd", n);

	fill(buf, size - 100, 300, 5);
	n = pwrite(fd, buf, 300, size - 100);
	tap_check(n == 100, "a write running past the end is cut there", "%zd, %s", n,
		  strerror(errno));
	n = pwrite(fd, buf, 10, size);
	tap_check(n == -1 && errno == ENOSPC, "a write at the end is ENOSPC", "%zd, %s", n,
		  strerror(errno));
	n = pwrite(fd, buf, 10, size + 5000);
	tap_check(n == -1 && errno == ENOSPC, "a write past the end is ENOSPC", "%zd, %s", n,
		  strerror(errno));
	n = pwrite(fd, buf, 0, size + 5000);
	tap_check(n == 0, "an empty write past the end is 0", "%zd, %s", n, strerror(errno));
}

/* Run a shell command; 1 if it exited 0. */
static int run(const char *cmd)
{
	int status = system(cmd);

	return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void busybox_tools(void)
{
	char line[256];
	int found = 0;
	FILE *f;

	fill(buf, 153600, 1024, 6);
	f = fopen("/tmp/blkdev_rw.src", "w");
	if (!f || fwrite(buf, 1, 1024, f) != 1024 || fclose(f) != 0)
		tap_bail("/tmp/blkdev_rw.src: %s", strerror(errno));
	tap_check(run("dd if=/tmp/blkdev_rw.src of=" DISK " bs=512 seek=300 count=2 conv=notrunc "
		      "2>/dev/null"), "dd of=/dev/vdb", NULL);
	tap_check(run("dd if=" DISK " of=/tmp/blkdev_rw.out bs=1000 skip=5 count=3 2>/dev/null"),
		  "dd if=/dev/vdb", NULL);
	f = fopen("/tmp/blkdev_rw.out", "r");
	memset(back, 0, sizeof(back));
	tap_check(f && fread(back, 1, 3001, f) == 3000 && !mismatches(back, 5000, 3000, 1),
		  "dd if= reads the pattern back", NULL);
	if (f)
		fclose(f);
	unlink("/tmp/blkdev_rw.src");
	unlink("/tmp/blkdev_rw.out");

	tap_check(run("mkswap " DISK " >/dev/null"), "busybox mkswap /dev/vdb", NULL);
	f = popen("hexdump -C " DISK " | head -n 300", "r");
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "SWAPSPACE2|") != NULL;
	tap_check(f && pclose(f) == 0 && found, "hexdump -C /dev/vdb shows SWAPSPACE2", NULL);
}

int main(void)
{
	uint64_t size = 0;
	unsigned char magic[2];
	int fd, ro;
	ssize_t n;

	fd = open(DISK, O_RDWR);
	if (fd < 0 || !on_pageturn()) {
		if (fd >= 0)
			close(fd);
		tap_skip("block device read and write", "no writable " DISK " on Pageturn here");
		return tap_done();
	}
	tap_check(ioctl(fd, BLKGETSIZE64, &size) == 0 && size >= (1 << 20),
		  "BLKGETSIZE64 of the scratch disk", "%llu", (unsigned long long)size);
	patterns(fd);
	edges(fd, size);
	close(fd);

	ro = open(DISK, O_RDONLY);
	n = write(ro, "x", 1);
	tap_check(n == -1 && errno == EBADF, "write on an O_RDONLY descriptor is EBADF", "%zd, %s",
		  n, strerror(errno));
	n = pread(ro, back, 3000, 5000);
	tap_check(n == 3000 && !mismatches(back, 5000, 3000, 1), "an O_RDONLY descriptor reads",
		  "%zd", n);
	close(ro);

	busybox_tools();

	fd = open("/dev/vdc", O_RDWR);
	n = fd < 0 ? -2 : write(fd, "x", 1);
	tap_check(n == -1 && errno == EPERM, "a write to a read-only disk is EPERM", "%zd, %s", n,
		  strerror(errno));
	if (fd >= 0)
		close(fd);

	ext2_scratch();		/* mounts /dev/vda on /mnt */
	fd = open("/dev/vda", O_RDONLY);
	n = fd < 0 ? -1 : pread(fd, magic, 2, 1080);
	tap_check(n == 2 && magic[0] == 0x53 && magic[1] == 0xef,
		  "the mounted ext2 disk reads through its node (magic EF53)", "%zd", n);
	if (fd >= 0)
		close(fd);
	sync();
	return tap_done();
}
