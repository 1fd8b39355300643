/*
 * mount_rename: a directory being mounted on cannot be renamed over.
 *
 * rename(2) refuses to replace a mount point (EBUSY).  The check has to
 * be made under the target's i_mutex: a mount holds the mount point's
 * lock while the filesystem reads its superblock (it sleeps on the disk),
 * and a rename that checked before waiting for that lock went on with a
 * stale answer, replaced the directory the mount had just been put on,
 * and left the new filesystem mounted on a removed directory, out of
 * reach (with no umount to get it back).
 *
 * The race: one process keeps making "src" and renaming it over "t",
 * while the test mounts the second virtio disk (vdb, an ext2 image the
 * QEMU case user_races_virtio_bios attaches) on "t", retrying while the
 * directory it found was renamed away first (ENOENT: it died).  Once the
 * mount has succeeded, "t" must be the mounted filesystem's root (another
 * device, a lost+found inside), /proc/mounts must list it, and renaming
 * over it must fail with EBUSY.
 *
 * Only Pageturn with a vdb can run it: elsewhere (the build machine, or
 * the boots without a second disk) it says so and skips.
 */
#include "testlib.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR	"/tmp/mount_rename"
#define SRC	DIR "/src"
#define TARGET	DIR "/t"
#define MOUNT_TRIES 50

/* Did the kernel find a second virtio disk?  Its boot log says so
 * ("blk: vdb ..."); devtmpfs has no block device nodes to look at. */
static int has_vdb(void)
{
	static char log[65536];
	int n = klogctl(3, log, sizeof(log) - 1);	/* SYSLOG_ACTION_READ_ALL */

	if (n < 0)
		tap_bail("klogctl: %s", strerror(errno));
	log[n] = '\0';
	return strstr(log, "blk: vdb ") != NULL;
}

int main(void)
{
	volatile int *stop;
	struct stat dir_st, t_st, lf_st;
	char mounts[8192];
	int err = 0, tries, status;
	pid_t renamer;

	if (!on_pageturn() || !has_vdb()) {
		tap_skip("a rename does not replace a directory being mounted on",
			 "needs Pageturn with a second virtio disk");
		return tap_done();
	}
	stop = mmap(NULL, sizeof(*stop), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stop == MAP_FAILED || mkdir(DIR, 0755) || mkdir(TARGET, 0755))
		tap_bail("set up %s: %s", DIR, strerror(errno));

	renamer = test_fork();
	if (renamer == 0) {
		while (!*stop) {
			mkdir(SRC, 0755);
			rename(SRC, TARGET);
		}
		_exit(0);
	}
	for (tries = 0; tries < MOUNT_TRIES; tries++) {
		err = mount("/dev/vdb", TARGET, "ext2", 0, NULL) ? errno : 0;
		if (err != ENOENT)
			break;
	}
	*stop = 1;
	test_wait(renamer, &status, 0);
	tap_check(err == 0, "mounting vdb on a directory being renamed over succeeds",
		  "after %d tries: %s", tries, strerror(err));
	if (err)
		return tap_done();
	read_file("/proc/mounts", mounts, sizeof(mounts));
	tap_check(stat(DIR, &dir_st) == 0 && stat(TARGET, &t_st) == 0 &&
		  t_st.st_dev != dir_st.st_dev && stat(TARGET "/lost+found", &lf_st) == 0,
		  "afterwards the name is the mounted filesystem's root",
		  "%s is on device %lu like its parent, or has no lost+found",
		  TARGET, (unsigned long)t_st.st_dev);
	tap_check(strstr(mounts, "/dev/vdb " TARGET " ext2") != NULL, "/proc/mounts lists the mount",
		  "%s", mounts);
	mkdir(SRC, 0755);
	tap_check(rename(SRC, TARGET) == -1 && errno == EBUSY,
		  "renaming over the mount point is EBUSY", "%s", strerror(errno));
	return tap_done();
}
