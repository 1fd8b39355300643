/*
 * ramfs_lru: the pages of a ramfs file live on the unevictable list.
 *
 * ramfs (Linux's fs/ramfs; here a mount of mm/shmem.c's code without a
 * size limit) keeps file data in memory only, and nothing may ever evict
 * it: Linux 2.6.28 marks every ramfs mapping unevictable, and its pages
 * go to the unevictable list instead of being scanned.  The test mounts a
 * ramfs, writes 1 MiB to a file and checks that Unevictable in
 * /proc/meminfo grew by that much, that statfs says RAMFS_MAGIC, that
 * dropping the caches neither moves nor loses the pages, and that
 * removing the file gives them back.  On the build machine (which it
 * must not mount things on) it only skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "testlib.h"

#define RAMFS_MAGIC 0x858458f6
#define SIZE (1 << 20)

static unsigned char buf[SIZE];

int main(void)
{
	char dir[64], path[96];
	long before, during, after;
	struct statfs st;
	int fd, bad = 0;

	if (!on_pageturn()) {
		tap_skip("a ramfs file's pages are unevictable", "it would mount on the build machine");
		return tap_done();
	}
	snprintf(dir, sizeof(dir), "/tmp/ramfs_lru.%d", getpid());
	if (mkdir(dir, 0755) != 0)
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	tap_check(mount("ramfs", dir, "ramfs", 0, NULL) == 0, "mount -t ramfs", "%s",
		  strerror(errno));
	tap_check(statfs(dir, &st) == 0 && (unsigned long)st.f_type == RAMFS_MAGIC,
		  "statfs says RAMFS_MAGIC", "f_type %#lx", (unsigned long)st.f_type);

	before = meminfo_kb("Unevictable");
	snprintf(path, sizeof(path), "%s/data", dir);
	for (int i = 0; i < SIZE; i++)
		buf[i] = (unsigned char)(i * 7 + (i >> 12));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write_all(fd, buf, SIZE) != SIZE)
		tap_bail("write %s: %s", path, strerror(errno));
	close(fd);
	during = meminfo_kb("Unevictable");
	tap_check(during - before >= SIZE / 1024, "the file's pages are on the unevictable list",
		  "Unevictable %ld -> %ld kB", before, during);

	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	tap_check(fd >= 0 && write(fd, "3", 1) == 1, "drop_caches 3", "%s", strerror(errno));
	if (fd >= 0)
		close(fd);
	tap_check(meminfo_kb("Unevictable") >= during, "dropping the caches leaves them there",
		  "Unevictable %ld -> %ld kB", during, meminfo_kb("Unevictable"));
	fd = open(path, O_RDONLY);
	memset(buf, 0, SIZE);
	if (fd < 0 || read_full(fd, buf, SIZE) != SIZE)
		tap_bail("read %s: %s", path, strerror(errno));
	close(fd);
	for (int i = 0; i < SIZE; i++)
		bad += buf[i] != (unsigned char)(i * 7 + (i >> 12));
	tap_check(bad == 0, "and every byte is still there", "%d bytes differ", bad);

	unlink(path);
	after = meminfo_kb("Unevictable");
	tap_check(after <= before + 8, "removing the file gives its pages back",
		  "Unevictable %ld -> %ld -> %ld kB", before, during, after);
	return tap_done();
}
