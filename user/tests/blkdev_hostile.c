/*
 * blkdev_hostile: what an unprivileged program can throw at block device
 * nodes (kernel/fs/block_dev.c), and the outcomes Linux 6.1 gives.  Needs
 * the disks of the QEMU case blkdev_hostile_virtio_bios: a scratch
 * /dev/vdb that may be overwritten, and /dev/vda, an ext2 of 4 KiB blocks
 * holding src1.bin and src2.bin (a page each of 'A' and 'B'), which this
 * program mounts on /mnt and at the end scribbles over.  Without a
 * writable /dev/vdb (the build machine) everything is skipped.
 *
 *   - ioctls with NULL, unmapped and kernel pointers are EFAULT; BLKRASET
 *     with a huge or "negative" value is EINVAL and changes nothing; an
 *     unknown ioctl is ENOTTY;
 *   - a transfer whose end passes the largest offset is EINVAL, and a
 *     negative offset too;
 *   - O_APPEND does not move a block device's writes (Linux's
 *     blkdev_write_iter ignores it): they go at the file position;
 *   - a write of a whole block whose source faults (a file mapping not
 *     yet read) keeps all its bytes even when another process reads the
 *     same block meanwhile;
 *   - mmap of the node either works (Linux) or is ENODEV, never a crash;
 *   - random bytes written over the metadata of the mounted ext2 through
 *     its node, then the filesystem used: the kernel survives (errors
 *     are fine; the QEMU case rejects any panic).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "testlib.h"

#define DISK		"/dev/vdb"

static void ioctls(int fd)
{
	static const unsigned long cmds[] = { BLKROGET, BLKGETSIZE, BLKRAGET, BLKSSZGET,
					      BLKGETSIZE64 };
	static const unsigned long bad[] = { 0, 1, 0x1000, KERNEL_DIRECT_MAP, KERNEL_TEXT,
					     0x00007ffffffffffcul, 0x0000800000000000ul };
	long ra = -1, ra2 = -1;
	int bad_ones = 0;

	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++)
		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			errno = 0;
			if (ioctl(fd, cmds[c], (void *)bad[b]) != -1 || errno != EFAULT) {
				tap_note("ioctl %#lx at %#lx: errno %d", cmds[c], bad[b], errno);
				bad_ones++;
			}
		}
	tap_check(bad_ones == 0, "BLK* ioctls with bad pointers are EFAULT", "%d wrong", bad_ones);

	tap_check(ioctl(fd, BLKRAGET, &ra) == 0 && ra >= 0, "BLKRAGET", "%ld", ra);
	errno = 0;
	tap_check(ioctl(fd, BLKRASET, (unsigned long)-1) == -1 && errno == EINVAL,
		  "BLKRASET -1 is EINVAL", "%s", strerror(errno));
	errno = 0;
	tap_check(ioctl(fd, BLKRASET, 1ul << 40) == -1 && errno == EINVAL,
		  "BLKRASET 2^40 is EINVAL", "%s", strerror(errno));
	tap_check(ioctl(fd, BLKRAGET, &ra2) == 0 && ra2 == ra, "a refused BLKRASET changes nothing",
		  "%ld, was %ld", ra2, ra);
	tap_check(ioctl(fd, BLKRASET, 7ul) == 0 && ioctl(fd, BLKRAGET, &ra2) == 0 && ra2 == 0,
		  "BLKRASET below a page reads back as 0", "%ld", ra2);
	tap_check(ioctl(fd, BLKRASET, (unsigned long)ra) == 0, "BLKRASET restores", NULL);
	errno = 0;
	tap_check(ioctl(fd, 0x12ff, 0) == -1 && errno == ENOTTY, "an unknown ioctl is ENOTTY",
		  "%s", strerror(errno));
}

static void offsets(int fd)
{
	char buf[16];
	ssize_t n;

	errno = 0;
	n = pread(fd, buf, 10, LLONG_MAX - 5);
	tap_check(n == -1 && errno == EINVAL, "pread whose end passes LLONG_MAX is EINVAL",
		  "%zd, %s", n, strerror(errno));
	errno = 0;
	n = pwrite(fd, buf, 10, LLONG_MAX - 5);
	tap_check(n == -1 && errno == EINVAL, "pwrite whose end passes LLONG_MAX is EINVAL",
		  "%zd, %s", n, strerror(errno));
	errno = 0;
	n = pread(fd, buf, 10, -4096);
	tap_check(n == -1 && errno == EINVAL, "pread at a negative offset is EINVAL", "%zd, %s", n,
		  strerror(errno));
	n = pread(fd, buf, 10, LLONG_MAX - 10);
	tap_check(n == 0, "pread far past the end is 0", "%zd, %s", n, strerror(errno));
	errno = 0;
	n = pwrite(fd, buf, 10, LLONG_MAX - 10);
	tap_check(n == -1 && errno == ENOSPC, "pwrite far past the end is ENOSPC", "%zd, %s", n,
		  strerror(errno));
	errno = 0;
	tap_check(lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL, "lseek to -1 is EINVAL", NULL);
}

static void append(void)
{
	static const char zero[4];
	char got[4] = "????";
	int fd = open(DISK, O_RDWR | O_APPEND);

	if (fd < 0)
		tap_bail("open " DISK " O_APPEND: %s", strerror(errno));
	tap_check(pwrite(fd, zero, 4, 0) == 4, "zero the first bytes", NULL);
	tap_check(lseek(fd, 65536, SEEK_SET) == 65536 && write(fd, "APND", 4) == 4,
		  "write with O_APPEND after lseek", "%s", strerror(errno));
	tap_check(lseek(fd, 0, SEEK_CUR) == 65540, "the position moved past the write", NULL);
	tap_check(pread(fd, got, 4, 65536) == 4 && !memcmp(got, "APND", 4),
		  "O_APPEND's write went to the file position", "%.4s", got);
	tap_check(pread(fd, got, 4, 0) == 4 && !memcmp(got, zero, 4),
		  "O_APPEND's write did not go to offset 0", "%02x%02x%02x%02x", got[0], got[1],
		  got[2], got[3]);
	tap_check(pwrite(fd, "PWRT", 4, 69632) == 4 && pread(fd, got, 4, 69632) == 4 &&
		  !memcmp(got, "PWRT", 4), "pwrite with O_APPEND goes to its offset", "%.4s", got);
	close(fd);
}

/*
 * Process A writes a whole 4 KiB block of the scratch disk from two file
 * mappings (half from each), the second not yet in the page cache, so its
 * copy sleeps in a page fault half way, with the block's buffer new and
 * not up to date; process
 * B, waiting for A's flag, reads the same block meanwhile.  A's bytes must
 * all be there afterwards.
 */
static void write_read_race(void)
{
	const off_t block = 1 << 20;
	volatile int *flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				  -1, 0);
	int fd = open(DISK, O_RDWR), f1 = open("/mnt/src1.bin", O_RDONLY),
	    f2 = open("/mnt/src2.bin", O_RDONLY);
	char *m1, *m2, got[4096];
	struct iovec iov[2];
	int status, bad = 0;
	ssize_t n;
	pid_t pid;

	if (flag == MAP_FAILED || fd < 0 || f1 < 0 || f2 < 0)
		tap_bail("race setup: %s", strerror(errno));
	m1 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, f1, 0);
	m2 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, f2, 0);
	if (m1 == MAP_FAILED || m2 == MAP_FAILED)
		tap_bail("mmap src: %s", strerror(errno));
	/* The first half's page is read now, so the copy has done 2048 bytes
	 * when it sleeps on the second half's. */
	if (*(volatile char *)(m1 + 2048) != 'A')
		tap_bail("src1.bin does not hold 'A'");
	*flag = 0;
	pid = test_fork();
	if (pid == 0) {
		while (!*flag)
			sched_yield();
		_exit(pread(fd, got, 4096, block) == 4096 ? 0 : 1);
	}
	sched_yield();
	iov[0] = (struct iovec){ m1 + 2048, 2048 };
	iov[1] = (struct iovec){ m2, 2048 };
	*flag = 1;
	n = pwritev(fd, iov, 2, block);
	test_wait(pid, &status, 0);
	tap_check(n == 4096, "pwritev of a block from faulting mappings", "%zd, %s", n,
		  strerror(errno));
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the racing reader read", NULL);
	tap_check(fsync(fd) == 0, "fsync", NULL);
	memset(got, 0, sizeof(got));
	n = pread(fd, got, 4096, block);
	for (int i = 0; i < 4096; i++)
		bad += got[i] != (i < 2048 ? 'A' : 'B');
	tap_check(n == 4096 && bad == 0, "every byte of the write is in the block",
		  "%zd, %d bytes differ", n, bad);
	munmap(m1, 4096);
	munmap(m2, 4096);
	close(f1);
	close(f2);
	close(fd);
}

static void node_mmap(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	char first[4];

	if (p == MAP_FAILED) {
		tap_check(errno == ENODEV, "mmap of a block device is ENODEV when it fails", "%s",
			  strerror(errno));
		return;
	}
	tap_check(pread(fd, first, 4, 0) == 4 && !memcmp(p, first, 4),
		  "mmap of a block device shows its bytes", NULL);
	munmap(p, 4096);
}

static unsigned long long rng = 88172645463325252ull;

static unsigned long long next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Use the filesystem under /mnt every way we can; every outcome is fine. */
static void use_fs(int round)
{
	char name[64], buf[8192];
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd;

	d = opendir("/mnt");
	while (d && (de = readdir(d))) {
		snprintf(name, sizeof(name), "/mnt/%.40s", de->d_name);
		if (stat(name, &st) == 0 && S_ISREG(st.st_mode)) {
			fd = open(name, O_RDONLY);
			while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
				;
			if (fd >= 0)
				close(fd);
		}
	}
	if (d)
		closedir(d);
	snprintf(name, sizeof(name), "/mnt/new%d", round);
	fd = open(name, O_RDWR | O_CREAT, 0644);
	if (fd >= 0) {
		memset(buf, 'n', sizeof(buf));
		for (int i = 0; i < 40; i++)
			if (write(fd, buf, sizeof(buf)) < 0)
				break;
		fsync(fd);
		ftruncate(fd, 5000);
		close(fd);
	}
	snprintf(name, sizeof(name), "/mnt/dir%d", round);
	mkdir(name, 0755);
	rename("/mnt/src1.bin", "/mnt/src1.moved");
	unlink("/mnt/src2.bin");
	sync();
}

/* Random bytes over the first blocks of the mounted ext2 (superblock,
 * descriptors, bitmaps, inode table), through its node, then use it. */
static void scribble_mounted(void)
{
	static unsigned char junk[4096];
	int fd = open("/dev/vda", O_RDWR), wrote = 0;

	if (fd < 0)
		tap_bail("open /dev/vda: %s", strerror(errno));
	for (int round = 0; round < 4; round++) {
		for (int blk = 0; blk < 48; blk++) {
			for (size_t i = 0; i < sizeof(junk); i += 8) {
				unsigned long long r = next_random();

				memcpy(junk + i, &r, 8);
			}
			/* Now and then a block of small numbers, which pass more checks. */
			if (blk % 3 == round % 3)
				for (size_t i = 0; i < sizeof(junk); i += 4)
					junk[i + 1] = junk[i + 2] = junk[i + 3] = 0;
			/* Keep the superblock's magic half the time. */
			if (pwrite(fd, junk, blk ? 4096 : (round & 1 ? 1024 : 4096),
				   (off_t)blk * 4096) > 0)
				wrote++;
		}
		if (round & 1)
			fsync(fd);
		use_fs(round);
	}
	close(fd);
	tap_check(wrote == 4 * 48, "scribbled over the mounted filesystem's metadata", "%d", wrote);
	umount("/mnt");
	tap_check(1, "the kernel survived using the scribbled filesystem", NULL);
}

int main(void)
{
	int fd = open(DISK, O_RDWR);

	if (fd < 0 || !on_pageturn()) {
		if (fd >= 0)
			close(fd);
		tap_skip("hostile block device use", "no writable " DISK " on Pageturn here");
		return tap_done();
	}
	if (mount("/dev/vda", "/mnt", "ext2", 0, NULL) != 0)
		tap_bail("mount /dev/vda: %s", strerror(errno));
	ioctls(fd);
	offsets(fd);
	node_mmap(fd);
	close(fd);
	append();
	write_read_race();
	scribble_mounted();
	return tap_done();
}
