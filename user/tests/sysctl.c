/*
 * sysctl: /proc/sys/vm as Linux has it.
 *
 *   - min_free_kbytes reads as "N\n", only at position 0; drop_caches
 *     (mode 0200) cannot be opened for reading, not even by root;
 *   - a shell's redirection opens them (O_TRUNC is accepted, as Linux's
 *     proc_sys_setattr accepts a size change and ignores it);
 *   - writes follow proc_dointvec_minmax's rules: whitespace around one
 *     number (decimal, 0x hex) is accepted, trailing bytes after a second
 *     number are left unconsumed (a short write), a write at a nonzero
 *     position is consumed and ignored; garbage, whitespace alone, a
 *     value out of bounds or an overflow is EINVAL;
 *   - writing min_free_kbytes recomputes every zone's watermarks as
 *     mm/page_alloc.c's setup_per_zone_pages_min says, and writing the
 *     old value back restores them;
 *   - drop_caches 1 drops a clean, unmapped file's pages (Cached falls by
 *     at least its size and reading it again reads the disk) but keeps a
 *     mapped file's pages (reading it reads nothing) and a dirty file's
 *     data; 2 shrinks the slab (Slab in /proc/meminfo falls after many
 *     inodes were cached, and slabs_scanned shows the shrinkers scanned
 *     at least that many objects); each counts in /proc/vmstat;
 *   - swappiness reads as "60\n" after boot (unless swappiness= was on
 *     the command line) and takes 0 to 100; 101 and -1 are EINVAL (Linux
 *     2.6.28's range; Linux 5.8 widened it to 200, so the build machine
 *     only reads it).
 *
 * The build machine lets an ordinary user read but not write /proc/sys:
 * the writing checks are skipped there, and the ones that change the
 * machine (watermarks, dropping caches) run on Pageturn only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#define MFK "/proc/sys/vm/min_free_kbytes"
#define DC "/proc/sys/vm/drop_caches"
#define FILE_KB 1024		/* each test file's size */
#define NR_INODES 300		/* files whose inodes drop_caches 2 frees */
#define MAX_ZONES 4

static char text[16384];

static long meminfo(const char *name)
{
	if (read_file("/proc/meminfo", text, sizeof(text)) < 0)
		tap_bail("read /proc/meminfo: %s", strerror(errno));
	return proc_field(text, name);
}

static long vmstat(const char *name)
{
	if (read_file("/proc/vmstat", text, sizeof(text)) < 0)
		tap_bail("read /proc/vmstat: %s", strerror(errno));
	return proc_field(text, name);
}

/* write(2) of s to path at position pos: the result, errno in *err. */
static long write_at(const char *path, const char *s, size_t len, off_t pos, int *err)
{
	int fd = open(path, O_WRONLY);
	long n;

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	n = pwrite(fd, s, len, pos);
	*err = n < 0 ? errno : 0;
	close(fd);
	return n;
}

static long write_str(const char *path, const char *s, int *err)
{
	return write_at(path, s, strlen(s), 0, err);
}

static long read_mfk(void)
{
	char buf[64];

	if (read_file(MFK, buf, sizeof(buf)) < 0)
		tap_bail("read %s: %s", MFK, strerror(errno));
	return atol(buf);
}

static void check_einval(const char *what, const char *s, size_t len, long before)
{
	int err;
	long n = write_at(MFK, s, len, 0, &err);

	tap_check(n == -1 && err == EINVAL && read_mfk() == before, what,
		  "write gave %ld (%s), value now %ld", n, strerror(err), read_mfk());
}

static void check_reads(void)
{
	char buf[64];
	ssize_t n;
	int fd;

	n = read_file(MFK, buf, sizeof(buf));
	tap_check(n >= 2 && buf[n - 1] == '\n' && strspn(buf, "0123456789") == (size_t)n - 1,
		  "min_free_kbytes reads as decimal and a newline", "read %zd bytes: \"%s\"", n,
		  buf);
	fd = open(MFK, O_RDONLY);
	if (fd < 0)
		tap_bail("open %s: %s", MFK, strerror(errno));
	n = pread(fd, buf, sizeof(buf), 1);
	tap_check(n == 0, "a read past position 0 is the end", "pread at 1 gave %zd", n);
	n = read(fd, buf, 1);
	tap_check(n == 1 && buf[0] >= '0' && buf[0] <= '9', "a 1-byte read gets the first digit",
		  "read gave %zd", n);
	n = read(fd, buf, sizeof(buf));
	tap_check(n == 0, "and the next read is the end", "read gave %zd", n);
	close(fd);

	fd = open(DC, O_RDONLY);
	tap_check(fd < 0 && errno == EACCES, "drop_caches (0200) cannot be opened for reading",
		  "open gave %d (%s)", fd, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* The parsing rules, on min_free_kbytes with its own value (so nothing
 * changes even where this runs as root on the build machine). */
static void check_parsing(long cur)
{
	char s[128];
	long n;
	int err;

	check_einval("\"abc\" is EINVAL", "abc", 3, cur);
	check_einval("\"12x\" is EINVAL", "12x", 3, cur);
	check_einval("\"\\n\" is EINVAL", "\n", 1, cur);
	check_einval("\"  \" is EINVAL", "  ", 2, cur);
	check_einval("\"-1\" is EINVAL (below extra1 = 0)", "-1", 2, cur);
	check_einval("\"+5\" is EINVAL", "+5", 2, cur);
	check_einval("\"2147483648\" (INT_MAX + 1) is EINVAL", "2147483648", 10, cur);
	check_einval("a number overflowing a long is EINVAL", "123456789012345678901234567890",
		     30, cur);
	n = write_at(MFK, "", 0, 0, &err);
	tap_check(n == 0, "an empty write writes nothing", "write gave %ld (%s)", n, strerror(err));

	snprintf(s, sizeof(s), "%ld\n", cur);
	n = write_str(MFK, s, &err);
	tap_check(n == (long)strlen(s) && read_mfk() == cur, "echo's \"N\\n\" is all consumed",
		  "write gave %ld (%s)", n, strerror(err));
	snprintf(s, sizeof(s), " \t%ld \n\n", cur);
	n = write_str(MFK, s, &err);
	tap_check(n == (long)strlen(s) && read_mfk() == cur, "whitespace around it is consumed",
		  "write gave %ld (%s)", n, strerror(err));
	snprintf(s, sizeof(s), "0x%lx", cur);
	n = write_str(MFK, s, &err);
	tap_check(n == (long)strlen(s) && read_mfk() == cur, "hexadecimal is accepted",
		  "write gave %ld (%s), value %ld", n, strerror(err), read_mfk());
	snprintf(s, sizeof(s), "%ld 7", cur);
	n = write_str(MFK, s, &err);
	tap_check(n == (long)strlen(s) - 1 && read_mfk() == cur,
		  "a second number is not consumed: a short write",
		  "write of %zu gave %ld (%s)", strlen(s), n, strerror(err));
	n = write_at(MFK, "7", 1, 3, &err);
	tap_check(n == 1 && read_mfk() == cur, "a write at position 3 is consumed and ignored",
		  "pwrite gave %ld (%s), value %ld", n, strerror(err), read_mfk());
}

struct zone_marks {
	long min, low, high, managed;
};

/* Each zone's watermarks and managed pages from /proc/zoneinfo. */
static int zone_marks(struct zone_marks *z)
{
	char *p = text;
	int n = -1;

	if (read_file("/proc/zoneinfo", text, sizeof(text)) < 0)
		tap_bail("read /proc/zoneinfo: %s", strerror(errno));
	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "Node ", 5) == 0) {
			if (++n == MAX_ZONES)
				tap_bail("/proc/zoneinfo lists more than %d zones", MAX_ZONES);
		} else if (n >= 0) {
			sscanf(p, " min %ld", &z[n].min);
			sscanf(p, " low %ld", &z[n].low);
			sscanf(p, " high %ld", &z[n].high);
			sscanf(p, " managed %ld", &z[n].managed);
		}
	}
	return n + 1;
}

static int marks_follow(long kbytes, const struct zone_marks *z, int nr, char *why, size_t len)
{
	long total = 0, tmp;
	int i;

	for (i = 0; i < nr; i++)
		total += z[i].managed;
	for (i = 0; i < nr; i++) {
		tmp = (kbytes >> 2) * z[i].managed / total;
		if (z[i].min != tmp || z[i].low != tmp + (tmp >> 2) || z[i].high != tmp + (tmp >> 1)) {
			snprintf(why, len, "zone %d: min %ld low %ld high %ld, want %ld %ld %ld", i,
				 z[i].min, z[i].low, z[i].high, tmp, tmp + (tmp >> 2), tmp + (tmp >> 1));
			return 0;
		}
	}
	return 1;
}

static void check_watermarks(long cur)
{
	struct zone_marks before[MAX_ZONES] = { 0 }, after[MAX_ZONES] = { 0 };
	int nr = zone_marks(before), i, err, same = 1;
	char s[32], why[160] = "";
	long n;

	snprintf(s, sizeof(s), "%ld\n", cur * 2);
	n = write_str(MFK, s, &err);
	tap_check(n == (long)strlen(s) && read_mfk() == cur * 2, "min_free_kbytes takes 2N",
		  "write gave %ld (%s)", n, strerror(err));
	zone_marks(after);
	tap_check(nr > 0 && marks_follow(cur * 2, after, nr, why, sizeof(why)),
		  "every zone's min/low/high follow 2N", "%s", why);
	snprintf(s, sizeof(s), "%ld", cur);
	write_str(MFK, s, &err);
	zone_marks(after);
	for (i = 0; i < nr; i++)
		same &= after[i].min == before[i].min && after[i].low == before[i].low &&
			after[i].high == before[i].high;
	tap_check(read_mfk() == cur && same, "writing N back restores every zone's watermarks",
		  NULL);
}

/* Make path a file of FILE_KB KiB of pattern seed; fsync'd when clean. */
static void make_file(const char *path, int seed, int clean)
{
	static char buf[FILE_KB * 1024];
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	if (fd < 0)
		tap_bail("create %s: %s", path, strerror(errno));
	memset(buf, seed, sizeof(buf));
	if (write_all(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || (clean && fsync(fd)))
		tap_bail("write %s: %s", path, strerror(errno));
	close(fd);
}

/* Read path whole; 1 if every byte is seed. */
static int file_is(const char *path, int seed)
{
	static char buf[FILE_KB * 1024];
	int fd = open(path, O_RDONLY);
	size_t i;

	if (fd < 0 || read_full(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		tap_bail("read %s: %s", path, strerror(errno));
	close(fd);
	for (i = 0; i < sizeof(buf); i++)
		if (buf[i] != (char)seed)
			return 0;
	return 1;
}

static void check_drop_pagecache(const char *dir)
{
	char clean[300], mapped[300], dirty[300];
	long cached0, cached1, ev0, n;
	unsigned long long rd0, rd1, rd2;
	int fd, err;
	char *map;

	snprintf(clean, sizeof(clean), "%s/clean", dir);
	snprintf(mapped, sizeof(mapped), "%s/mapped", dir);
	snprintf(dirty, sizeof(dirty), "%s/dirty", dir);
	make_file(clean, 'c', 1);
	make_file(mapped, 'm', 1);
	fd = open(mapped, O_RDONLY);
	map = mmap(NULL, FILE_KB * 1024, PROT_READ, MAP_SHARED, fd, 0);
	if (fd < 0 || map == MAP_FAILED)
		tap_bail("map %s: %s", mapped, strerror(errno));
	for (n = 0; n < FILE_KB * 1024; n += 4096)
		if (map[n] != 'm')
			tap_bail("%s: byte %ld is not 'm'", mapped, n);
	make_file(dirty, 'd', 0);
	file_is(clean, 'c');		/* all of it cached */

	cached0 = meminfo("Cached");
	ev0 = vmstat("drop_pagecache");
	n = write_str(DC, "1\n", &err);
	cached1 = meminfo("Cached");
	tap_check(n == 2, "echo 1 > drop_caches", "write gave %ld (%s)", n, strerror(err));
	tap_check(cached1 <= cached0 - FILE_KB, "Cached falls by at least the clean file",
		  "Cached %ld kB -> %ld kB", cached0, cached1);
	tap_check(vmstat("drop_pagecache") == ev0 + 1, "drop_pagecache in /proc/vmstat counts it",
		  NULL);

	rd0 = diskstats_sectors(0);
	tap_check(file_is(mapped, 'm'), "the mapped file reads back", NULL);
	rd1 = diskstats_sectors(0);
	tap_check(rd1 == rd0, "and its pages stayed cached: no disk reads",
		  "%llu sectors read", rd1 - rd0);
	tap_check(file_is(dirty, 'd'), "the dirty file's data is intact", NULL);
	rd1 = diskstats_sectors(0);
	tap_check(file_is(clean, 'c'), "the clean file reads back", NULL);
	rd2 = diskstats_sectors(0);
	tap_check(rd2 - rd1 >= FILE_KB * 2, "from the disk: its pages were dropped",
		  "%llu sectors read for %d KiB", rd2 - rd1, FILE_KB);
	tap_note("cold read after drop_caches: %llu sectors for a %d KiB file; Cached %ld -> %ld kB",
		 rd2 - rd1, FILE_KB, cached0, cached1);
	munmap(map, FILE_KB * 1024);
	close(fd);
	unlink(clean);
	unlink(mapped);
	unlink(dirty);
}

static void check_drop_slab(const char *dir)
{
	char path[300];
	long slab0, slab1, ev0, ev1, scanned0, n;
	struct stat st;
	int i, fd, err;

	for (i = 0; i < NR_INODES; i++) {
		snprintf(path, sizeof(path), "%s/i%03d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			tap_bail("create %s: %s", path, strerror(errno));
		close(fd);
	}
	sync();
	for (i = 0; i < NR_INODES; i++) {
		snprintf(path, sizeof(path), "%s/i%03d", dir, i);
		stat(path, &st);
	}
	slab0 = meminfo("Slab");
	ev0 = vmstat("drop_slab");
	ev1 = vmstat("drop_pagecache");
	scanned0 = vmstat("slabs_scanned");
	n = write_str(DC, "2", &err);
	slab1 = meminfo("Slab");
	tap_check(n == 1, "echo 2 > drop_caches", "write gave %ld (%s)", n, strerror(err));
	tap_check(slab1 < slab0, "Slab falls: the unused inodes were freed",
		  "Slab %ld kB -> %ld kB", slab0, slab1);
	tap_check(scanned0 >= 0 && vmstat("slabs_scanned") >= scanned0 + NR_INODES,
		  "the shrinkers scanned them: slabs_scanned rises", "slabs_scanned %ld -> %ld",
		  scanned0, vmstat("slabs_scanned"));
	tap_check(vmstat("drop_slab") == ev0 + 1 && vmstat("drop_pagecache") == ev1,
		  "drop_slab counts it, drop_pagecache does not", NULL);
	n = write_str(DC, "3", &err);
	tap_check(n == 1 && vmstat("drop_slab") == ev0 + 2 && vmstat("drop_pagecache") == ev1 + 1,
		  "3 does both", "write gave %ld (%s)", n, strerror(err));
	n = write_str(DC, "5", &err);
	tap_check(n == -1 && err == EINVAL, "5 is EINVAL (drop_caches takes 1..4)",
		  "write gave %ld (%s)", n, strerror(err));
	n = write_str(DC, "0", &err);
	tap_check(n == -1 && err == EINVAL, "0 is EINVAL", "write gave %ld (%s)", n, strerror(err));
	for (i = 0; i < NR_INODES; i++) {
		snprintf(path, sizeof(path), "%s/i%03d", dir, i);
		unlink(path);
	}
}

#define SWP "/proc/sys/vm/swappiness"

static void check_swappiness(void)
{
	char buf[64], orig[64];
	int err, ok = 1;

	if (read_file(SWP, orig, sizeof(orig)) < 0)
		tap_bail("read %s: %s", SWP, strerror(errno));
	if (!on_pageturn()) {
		tap_check(atoi(orig) >= 0 && strchr(orig, '\n'), "swappiness reads as a number",
			  "read \"%s\"", orig);
		tap_skip("writing swappiness", "it would change the build machine");
		return;
	}
	tap_check(strcmp(orig, "60\n") == 0, "swappiness reads \"60\\n\" after boot",
		  "read \"%s\"", orig);
	for (int v = 0; v <= 100; v += 25) {
		char want[16];

		snprintf(want, sizeof(want), "%d\n", v);
		write_str(SWP, want, &err);
		if (err || read_file(SWP, buf, sizeof(buf)) < 0 || strcmp(buf, want) != 0)
			ok = 0;
	}
	tap_check(ok, "swappiness takes 0, 25, 50, 75 and 100", NULL);
	tap_check(write_str(SWP, "101", &err) == -1 && err == EINVAL,
		  "swappiness 101 is EINVAL", "%s", strerror(err));
	tap_check(write_str(SWP, "-1", &err) == -1 && err == EINVAL,
		  "swappiness -1 is EINVAL", "%s", strerror(err));
	write_str(SWP, orig, &err);
	tap_check(read_file(SWP, buf, sizeof(buf)) >= 0 && strcmp(buf, orig) == 0,
		  "swappiness is back to its value", "read \"%s\"", buf);
}

int main(void)
{
	char dir[256];
	long cur;
	int fd;

	check_reads();
	fd = open(MFK, O_WRONLY);
	if (fd < 0) {
		tap_skip("writing /proc/sys/vm", strerror(errno));
		return tap_done();
	}
	close(fd);
	fd = open(MFK, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	tap_check(fd >= 0, "a shell's \"echo N > file\" open (O_CREAT | O_TRUNC) succeeds",
		  "open gave %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	cur = read_mfk();
	check_parsing(cur);
	check_swappiness();
	if (!on_pageturn()) {
		tap_skip("watermarks and drop_caches", "they would change the build machine");
		return tap_done();
	}
	check_watermarks(cur);
	snprintf(dir, sizeof(dir), "%s/sysctl.%d", ext2_scratch(), getpid());
	if (mkdir(dir, 0755) != 0)
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	check_drop_pagecache(dir);
	check_drop_slab(dir);
	rmdir(dir);
	return tap_done();
}
