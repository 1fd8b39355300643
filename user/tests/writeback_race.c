/*
 * writeback_race: a file grown by write() while fsync is writing it back
 * keeps every byte, in the page cache and on the disk.
 *
 * Each round makes a file of one page that is a hole, dirties that page
 * through a shared mapping (so writeback must allocate its block and
 * write it alone, sleeping in the middle of its walk over the file's
 * pages), and has a child fsync it; while the child sleeps there, the
 * parent appends two and a half pages of a pattern.  The appended bytes
 * must read back at once, and be on the disk after sync: on Pageturn the
 * files are on /dev/vda (ext2_scratch) and stay there for the QEMU case
 * to read from the image (user_races_virtio_bios); elsewhere they are in
 * /tmp and removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define ROUNDS		8
#define APPEND		10240

static unsigned char pattern(int round, size_t i)
{
	return (unsigned char)(i * 13 + round * 7 + (i >> 9));
}

/* How many of the appended bytes of round's file differ from the pattern. */
static int damage(const char *path, int round)
{
	static unsigned char buf[4096 + APPEND];
	int fd = open(path, O_RDONLY), bad = 0;
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof(buf), 0);

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(buf))
		return -1;
	if (buf[0] != 'x')
		bad++;
	for (size_t i = 0; i < APPEND; i++)
		bad += buf[4096 + i] != pattern(round, i);
	return bad;
}

int main(void)
{
	const char *dir = ext2_scratch();
	static unsigned char data[APPEND];
	char path[ROUNDS][128];
	int bad_now = 0;

	for (int round = 0; round < ROUNDS; round++) {
		int go[2], fd, status, d;
		char *map;
		pid_t pid;

		snprintf(path[round], sizeof(path[round]), "%s/wbrace.%d", dir, round);
		unlink(path[round]);
		fd = open(path[round], O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || ftruncate(fd, 4096) != 0)
			tap_bail("%s: %s", path[round], strerror(errno));
		map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			tap_bail("mmap: %s", strerror(errno));
		sync();			/* nothing else dirty: the child's fsync sleeps in our file */
		map[0] = 'x';
		test_pipe(go);
		pid = test_fork();
		if (pid == 0) {
			char c;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(2);
			_exit(fsync(fd) == 0 ? 0 : 1);
		}
		close(go[0]);
		if (write(go[1], "g", 1) != 1)
			tap_bail("pipe: %s", strerror(errno));
		sched_yield();		/* the child starts its fsync and sleeps in it */
		for (size_t i = 0; i < APPEND; i++)
			data[i] = pattern(round, i);
		if (pwrite(fd, data, APPEND, 4096) != APPEND)
			tap_bail("pwrite: %s", strerror(errno));
		test_wait(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			tap_bail("the child's fsync failed: status %#x", status);
		close(go[1]);
		munmap(map, 4096);
		close(fd);
		d = damage(path[round], round);
		if (d)
			tap_note("round %d: %d bytes differ in the page cache", round, d);
		bad_now += d != 0;
	}
	tap_check(bad_now == 0, "bytes appended during an fsync read back", "%d of %d rounds",
		  bad_now, ROUNDS);

	/* On Pageturn's scratch disk the files stay, and the QEMU case reads
	 * them from the image (tests/qemu/cases.py: writeback_race_check). */
	sync();
	if (!on_pageturn() || strcmp(dir, "/mnt"))
		for (int round = 0; round < ROUNDS; round++)
			unlink(path[round]);
	return tap_done();
}
