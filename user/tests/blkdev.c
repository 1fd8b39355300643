/*
 * blkdev: block device nodes and their ioctls (kernel/fs/block_dev.c).
 *
 * Everywhere: the block ioctls on a regular file and on /dev/null are
 * -ENOTTY, as Linux's.  On Pageturn, /dev/ram1 (the 4 MiB RAM disk every
 * boot has, block 1:1): its node's type and number, BLKGETSIZE64,
 * BLKGETSIZE, BLKSSZGET, BLKROGET, BLKRAGET (256 sectors: 128 KiB by
 * default) and BLKRASET (the next BLKRAGET sees it; an absurd window is
 * -EINVAL), BLKFLSBUF, -EFAULT for bad result pointers, -ENOTTY for an
 * unknown request, a byte from read() of the node, and ram1's line of
 * /proc/diskstats in Linux's 20-column layout.  The build machine's Linux
 * has no such disk: those checks are skipped there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "testlib.h"

#define BLKROGET	0x125e
#define BLKGETSIZE	0x1260
#define BLKFLSBUF	0x1261
#define BLKRASET	0x1262
#define BLKRAGET	0x1263
#define BLKSSZGET	0x1268
#define BLKGETSIZE64	0x80081272

#define RAM1_BYTES	(4u << 20)

static void not_a_block_device(const char *path, int flags)
{
	uint64_t size;
	int fd = open(path, flags, 0600), r;

	if (fd < 0)
		tap_bail("open %s: %s", path, strerror(errno));
	r = ioctl(fd, BLKGETSIZE64, &size);
	tap_check(r == -1 && errno == ENOTTY, "BLKGETSIZE64 is ENOTTY", "%s: %d, %s", path, r,
		  strerror(errno));
	r = ioctl(fd, BLKRAGET, &size);
	tap_check(r == -1 && errno == ENOTTY, "BLKRAGET is ENOTTY", "%s: %d, %s", path, r,
		  strerror(errno));
	close(fd);
}

/* ram1's line of /proc/diskstats: 1 if it is there with 20 columns. */
static int diskstats_has_ram1(void)
{
	char line[256], name[32];
	unsigned int major, minor;
	int found = 0, fields, n;
	FILE *f = fopen("/proc/diskstats", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %31s%n", &major, &minor, name, &n) != 3 || strcmp(name, "ram1"))
			continue;
		fields = 3;
		for (char *p = line + n; *p; ) {
			while (*p == ' ')
				p++;
			if (*p == '\n' || !*p)
				break;
			fields++;
			while (*p && *p != ' ' && *p != '\n')
				p++;
		}
		found = major == 1 && minor == 1 && fields == 20;
	}
	fclose(f);
	return found;
}

static void ram1(void)
{
	unsigned long sectors = 0;
	uint64_t bytes = 0;
	long ra = 0;
	int fd, ro = -1, ssz = 0, r;
	struct stat st;
	char c;

	r = stat("/dev/ram1", &st);
	tap_check(r == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 1,
		  "/dev/ram1 is block device 1:1", "stat %d, mode %o, rdev %u:%u", r,
		  (unsigned int)st.st_mode, major(st.st_rdev), minor(st.st_rdev));
	fd = open("/dev/ram1", O_RDONLY);
	if (fd < 0)
		tap_bail("open /dev/ram1: %s", strerror(errno));
	r = ioctl(fd, BLKGETSIZE64, &bytes);
	tap_check(r == 0 && bytes == RAM1_BYTES, "BLKGETSIZE64 is 4 MiB", "%d, %llu", r,
		  (unsigned long long)bytes);
	r = ioctl(fd, BLKGETSIZE, &sectors);
	tap_check(r == 0 && sectors == RAM1_BYTES / 512, "BLKGETSIZE is 8192 sectors", "%d, %lu", r,
		  sectors);
	r = ioctl(fd, BLKSSZGET, &ssz);
	tap_check(r == 0 && ssz == 512, "BLKSSZGET is 512", "%d, %d", r, ssz);
	r = ioctl(fd, BLKROGET, &ro);
	tap_check(r == 0 && ro == 0, "BLKROGET is 0", "%d, %d", r, ro);
	r = ioctl(fd, BLKRAGET, &ra);
	tap_check(r == 0 && ra == 256, "BLKRAGET is 256 sectors (128 KiB)", "%d, %ld", r, ra);
	r = ioctl(fd, BLKRASET, 512ul);
	tap_check(r == 0 && ioctl(fd, BLKRAGET, &ra) == 0 && ra == 512,
		  "BLKRASET 512 then BLKRAGET is 512", "%d, %ld", r, ra);
	r = ioctl(fd, BLKRASET, 1ul << 40);
	tap_check(r == -1 && errno == EINVAL, "BLKRASET of 2^40 sectors is EINVAL", "%d, %s", r,
		  strerror(errno));
	r = ioctl(fd, BLKRASET, 256ul);
	tap_check(r == 0 && ioctl(fd, BLKRAGET, &ra) == 0 && ra == 256, "BLKRASET 256 restores it",
		  "%d, %ld", r, ra);
	r = ioctl(fd, BLKRAGET, (void *)0);
	tap_check(r == -1 && errno == EFAULT, "BLKRAGET to NULL is EFAULT", "%d, %s", r, strerror(errno));
	r = ioctl(fd, BLKGETSIZE64, (void *)KERNEL_DIRECT_MAP);
	tap_check(r == -1 && errno == EFAULT, "BLKGETSIZE64 to kernel memory is EFAULT", "%d, %s", r,
		  strerror(errno));
	r = ioctl(fd, BLKFLSBUF, 0);
	tap_check(r == 0, "BLKFLSBUF", "%d, %s", r, strerror(errno));
	r = ioctl(fd, 0x12ff, 0);
	tap_check(r == -1 && errno == ENOTTY, "an unknown 0x12 request is ENOTTY", "%d, %s", r,
		  strerror(errno));
	r = read(fd, &c, 1);
	tap_check(r == 1, "read() of the node reads a byte", "%d, %s", r, strerror(errno));
	close(fd);
	tap_check(diskstats_has_ram1(), "/proc/diskstats has ram1 as 1:1 with 20 columns", NULL);
}

int main(void)
{
	char path[] = "/tmp/blkdev.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		tap_bail("mkstemp: %s", strerror(errno));
	close(fd);
	not_a_block_device(path, O_RDWR);
	unlink(path);
	not_a_block_device("/dev/null", O_RDWR);
	if (on_pageturn())
		ram1();
	else
		tap_skip("/dev/ram1 and its ioctls", "Pageturn's RAM disk, not on this machine");
	return tap_done();
}
