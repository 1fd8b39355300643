/*
 * swapon: swapon(2) and swapoff(2) at the system-call level, without
 * busybox, and /proc/swaps against /proc/meminfo and sysinfo(2).
 *
 * Everywhere: the sizes /proc/swaps lists add up to SwapTotal, the used
 * ones to SwapTotal - SwapFree, and sysinfo says the same in bytes.
 *
 * Root on the build machine's Linux: a file in /tmp without a swap
 * signature is refused (EINVAL) and left as it was, and swapoff of a
 * file that is not swap is EINVAL.  Other users get EPERM there, so
 * those checks are skipped.
 *
 * On Pageturn, in the QEMU case swap_virtio_bios (swap=vdb, /dev/vda an
 * ext2 with 4 KiB blocks, /dev/vdb 256 MiB made by the host's mkswap,
 * /dev/vdc 8 MiB of zeroes), also:
 *   - /dev/vdc without a signature: EINVAL, its first page unchanged;
 *   - /dev/vdb, on since boot: a second swapon and a mount are EBUSY;
 *   - /dev/vdc with a header written here (version 1, bad page 3):
 *     swapon with SWAP_FLAG_PREFER | 7 lists it first with priority 7
 *     and one page less; a header of version 2 is EINVAL;
 *   - on /dev/vda: a swap file with holes is EINVAL, a whole one goes on
 *     and off, and cannot be truncated while on (ETXTBSY);
 *   - swapoff of a non-swap file and of a missing one: EINVAL, ENOENT.
 * Without those disks (any other boot) the Pageturn checks are skipped.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define PAGE 4096
#define PROC_SWAPS_HEADER "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n"

/* What /proc/swaps lists: sums of its Size and Used columns (KiB), the
 * number of areas, and the priority and size of the line for name (or
 * -1000 and -1 when there is none). */
struct swaps {
	long size, used, areas, prio, name_size;
};

static int read_swaps(const char *name, struct swaps *s)
{
	static char text[8192];
	char *line, *save, path[256], type[32];
	long size, used, prio;

	memset(s, 0, sizeof(*s));
	s->prio = -1000;
	s->name_size = -1;
	if (read_file("/proc/swaps", text, sizeof(text)) < 0)
		return -1;
	/* Linux 2.6.28's header on Pageturn; Linux 5.x widened it. */
	if (on_pageturn() && strncmp(text, PROC_SWAPS_HEADER, strlen(PROC_SWAPS_HEADER)) != 0)
		return -1;
	if (strncmp(text, "Filename", 8) != 0 || !strchr(text, '\n'))
		return -1;
	for (line = strtok_r(strchr(text, '\n') + 1, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%255s %31s %ld %ld %ld", path, type, &size, &used, &prio) != 5)
			return -1;
		s->size += size;
		s->used += used;
		s->areas++;
		if (name && strcmp(path, name) == 0) {
			s->prio = prio;
			s->name_size = size;
		}
	}
	return 0;
}

static void check_totals_agree(const char *when)
{
	struct swaps s = { 0 };
	struct sysinfo si;
	long total = meminfo_kb("SwapTotal"), free_kb = meminfo_kb("SwapFree");
	char what[160];

	snprintf(what, sizeof(what), "%s: /proc/swaps, /proc/meminfo and sysinfo agree", when);
	if (read_swaps(NULL, &s) || sysinfo(&si)) {
		tap_check(0, what, "cannot read /proc/swaps or sysinfo");
		return;
	}
	tap_check(s.size == total && s.used == total - free_kb &&
		  (long)(si.totalswap * si.mem_unit / 1024) == total &&
		  (long)(si.freeswap * si.mem_unit / 1024) == free_kb, what,
		  "swaps size %ld used %ld; SwapTotal %ld SwapFree %ld; sysinfo %lu/%lu bytes",
		  s.size, s.used, total, free_kb, si.totalswap * si.mem_unit,
		  si.freeswap * si.mem_unit);
}

/* Write a version-1 header for pages pages with the given bad pages. */
static int write_header(int fd, unsigned int pages, unsigned int version, const unsigned int *bad,
			unsigned int nr_bad)
{
	static unsigned char page[PAGE];
	unsigned int *info = (unsigned int *)(page + 1024);

	memset(page, 0, sizeof(page));
	info[0] = version;
	info[1] = pages - 1;		/* last_page */
	info[2] = nr_bad;
	for (unsigned int i = 0; i < nr_bad; i++)
		info[128 + i] = bad[i];	/* badpages[], after uuid, volume, padding */
	memcpy(page + PAGE - 10, "SWAPSPACE2", 10);
	return pwrite(fd, page, PAGE, 0) == PAGE ? 0 : -1;
}

/* The errno of the last call checked below (0 if it succeeded): read
 * here, since a check's arguments may be evaluated before the call. */
static int got_errno;

static int expect_errno(long ret, int err)
{
	got_errno = ret == -1 ? errno : 0;
	return ret == -1 && errno == err;
}

static int succeeds(long ret)
{
	got_errno = ret == -1 ? errno : 0;
	return ret == 0;
}

/* tap_check of cond (a call through expect_errno or succeeds), with the
 * call's errno in the details: cond is evaluated first. */
#define check_call(cond, what) do { \
		int ok_ = (cond); \
		tap_check(ok_, what, "errno %d", got_errno); \
	} while (0)

/* The host: a plain file is no swap area. */
static void host_checks(void)
{
	char path[] = "/tmp/swapon_test_XXXXXX", before[PAGE], after[PAGE];
	int fd;

	if (geteuid() != 0) {
		tap_skip("swapon of a file without a signature is EINVAL", "not root");
		tap_skip("swapoff of a file that is not swap is EINVAL", "not root");
		return;
	}
	fd = mkstemp(path);
	if (fd < 0)
		tap_bail("mkstemp: %s", strerror(errno));
	memset(before, 0x5a, sizeof(before));
	for (int i = 0; i < 16; i++)
		if (write_all(fd, before, sizeof(before)) < 0)
			tap_bail("write %s: %s", path, strerror(errno));
	if (swapon(path, 0) == -1 && errno == EPERM) {
		/* A container's root without CAP_SYS_ADMIN. */
		tap_skip("swapon of a file without a signature is EINVAL", "EPERM here");
		tap_skip("swapoff of a file that is not swap is EINVAL", "EPERM here");
		close(fd);
		unlink(path);
		return;
	}
	check_call(expect_errno(swapon(path, 0), EINVAL),
		  "swapon of a file without a signature is EINVAL");
	tap_check(pread(fd, after, PAGE, 0) == PAGE && !memcmp(before, after, PAGE),
		  "the file is unchanged", NULL);
	check_call(expect_errno(swapoff(path), EINVAL), "swapoff of a file that is not swap is EINVAL");
	close(fd);
	unlink(path);
}

static void device_checks(void)
{
	static const unsigned int bad[] = { 3 };
	char before[PAGE], after[PAGE];
	struct swaps s = { 0 };
	int fd = open("/dev/vdc", O_RDWR);

	if (fd < 0)
		tap_bail("open /dev/vdc: %s", strerror(errno));
	if (pread(fd, before, PAGE, 0) != PAGE)
		tap_bail("read /dev/vdc: %s", strerror(errno));
	check_call(expect_errno(swapon("/dev/vdc", 0), EINVAL),
		  "swapon of a device without a signature is EINVAL");
	tap_check(pread(fd, after, PAGE, 0) == PAGE && !memcmp(before, after, PAGE),
		  "the device is unchanged", NULL);
	check_call(expect_errno(swapon("/dev/vdb", 0), EBUSY),
		  "a second swapon of /dev/vdb (on since boot) is EBUSY");
	check_call(expect_errno(mount("/dev/vdb", "/mnt", "ext2", 0, NULL), EBUSY),
		  "mounting a swap device is EBUSY");
	check_call(expect_errno(swapoff("/dev/vdc"), EINVAL),
		  "swapoff of a device that is not swap is EINVAL");

	if (write_header(fd, 2048, 2, NULL, 0) || fsync(fd))
		tap_bail("writing a header to /dev/vdc: %s", strerror(errno));
	check_call(expect_errno(swapon("/dev/vdc", 0), EINVAL),
		  "a header of version 2 is EINVAL");
	if (write_header(fd, 4096, 1, NULL, 0) || fsync(fd))
		tap_bail("writing a header to /dev/vdc: %s", strerror(errno));
	check_call(expect_errno(swapon("/dev/vdc", 0), EINVAL),
		  "a header bigger than the device is EINVAL");
	if (write_header(fd, 2048, 1, bad, 1) || fsync(fd))
		tap_bail("writing a header to /dev/vdc: %s", strerror(errno));
	check_call(succeeds(swapon("/dev/vdc", SWAP_FLAG_PREFER | 7)),
		  "swapon /dev/vdc with priority 7 and one bad page");
	tap_check(!read_swaps("/dev/vdc", &s) && s.prio == 7 && s.name_size == 2046 * 4 &&
		  s.areas == 2, "/proc/swaps lists it: priority 7, 8184 KiB",
		  "priority %ld, %ld KiB, %ld areas", s.prio, s.name_size, s.areas);
	check_totals_agree("two areas on");
	check_call(succeeds(swapoff("/dev/vdc")), "swapoff /dev/vdc");
	tap_check(!read_swaps("/dev/vdc", &s) && s.name_size == -1 && s.areas == 1,
		  "it left /proc/swaps", "%ld areas", s.areas);
	close(fd);
}

/* Swap files on the ext2 of /dev/vda, mounted on /mnt. */
static void file_checks(void)
{
	static char zeroes[PAGE];
	struct swaps s = { 0 };
	int fd;

	if (mount("/dev/vda", "/mnt", "ext2", 0, NULL))
		tap_bail("mount /dev/vda: %s", strerror(errno));
	check_call(expect_errno(swapon("/dev/vda", 0), EBUSY), "swapon of a mounted device is EBUSY");

	fd = open("/mnt/holes", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write_header(fd, 64, 1, NULL, 0) || ftruncate(fd, 64 * PAGE) || fsync(fd))
		tap_bail("making /mnt/holes: %s", strerror(errno));
	close(fd);
	check_call(expect_errno(swapon("/mnt/holes", 0), EINVAL), "a swap file with holes is EINVAL");

	fd = open("/mnt/swapfile", O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (int i = 0; fd >= 0 && i < 64; i++)
		if (write_all(fd, zeroes, PAGE) < 0)
			tap_bail("writing /mnt/swapfile: %s", strerror(errno));
	if (fd < 0 || write_header(fd, 64, 1, NULL, 0) || fsync(fd))
		tap_bail("making /mnt/swapfile: %s", strerror(errno));
	check_call(succeeds(swapon("/mnt/swapfile", 0)), "swapon of a whole swap file");
	tap_check(!read_swaps("/mnt/swapfile", &s) && s.name_size == 63 * 4 && s.prio == -2,
		  "/proc/swaps lists it: 252 KiB, priority -2", "%ld KiB, priority %ld",
		  s.name_size, s.prio);
	check_call(expect_errno(swapon("/mnt/swapfile", 0), EBUSY), "a second swapon of it is EBUSY");
	check_call(expect_errno(ftruncate(fd, PAGE), ETXTBSY), "truncating it is ETXTBSY");
	check_call(expect_errno(pwrite(fd, "x", 1, PAGE) == 1 ? 0 : -1, ETXTBSY),
		   "writing to it is ETXTBSY");
	check_totals_agree("with a swap file on");
	check_call(succeeds(swapoff("/mnt/swapfile")), "swapoff of the swap file");
	check_call(succeeds(ftruncate(fd, PAGE)), "off, it can be truncated");
	close(fd);
	check_call(expect_errno(swapoff("/mnt/holes"), EINVAL), "swapoff of a non-swap file is EINVAL");
	check_call(expect_errno(swapoff("/mnt/missing"), ENOENT), "swapoff of a missing file is ENOENT");
	unlink("/mnt/holes");
	unlink("/mnt/swapfile");
	sync();
}

int main(void)
{
	struct stat st;

	check_totals_agree("as found");
	if (!on_pageturn()) {
		host_checks();
		return tap_done();
	}
	if (stat("/dev/vdc", &st) || stat("/dev/vda", &st) || meminfo_kb("SwapTotal") != 262140) {
		tap_skip("swapon and swapoff of devices and files", "not the swap_virtio_bios machine");
		return tap_done();
	}
	device_checks();
	file_checks();
	check_totals_agree("at the end");
	return tap_done();
}
