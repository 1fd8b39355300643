/*
 * truncate_mmap: truncating a file that processes have mapped takes the
 * pages past the new end away from every one of them, as Linux's
 * truncate does (unmap_mapping_range, private copies included).
 *
 * A file of four pages is mapped MAP_SHARED by a parent and MAP_PRIVATE
 * by its child, which reads every page and writes pages 0 and 3 (its own
 * copies).  The parent then truncates the file to a page and a half.
 * Afterwards, in both processes:
 *   - touching pages 2 and 3 raises SIGBUS (the child's private copy of
 *     page 3 is gone too);
 *   - page 0 still holds what each process saw there (the file's data in
 *     the parent, the child's own write in the child), and the first half
 *     of page 1 the file's data; in the parent, the rest of page 1 reads
 *     zero (truncation zeroes the cached page past the end).
 * When the file grows back to four pages, page 3 reads zero in both: the
 * child's written copy did not survive.
 *
 * Done on tmpfs (/tmp) and on ext2 (ext2_scratch()); on the build
 * machine's Linux both are /tmp.  SIGBUS is caught (sigsetjmp), and the
 * child reports what it saw through a pipe.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 4
#define NEW_SIZE (PAGE_SIZE + PAGE_SIZE / 2)
#define CHILD_BYTE 0xc5

static sigjmp_buf bus_env;
static volatile unsigned char sink;	/* where pages are read to fault them in */

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_env, 1);
}

static unsigned char content(size_t i)
{
	return (i * 13 + (i >> 12) * 7 + 1) & 0xff;
}

/* Does reading p raise SIGBUS?  *value gets the byte otherwise. */
static int read_bus(const volatile unsigned char *p, unsigned char *value)
{
	if (sigsetjmp(bus_env, 1))
		return 1;
	*value = *p;
	return 0;
}

/* What a process sees after the truncation, one bit per finding. */
enum {
	SEEN_BUS_PAGE2 = 1,
	SEEN_BUS_PAGE3 = 2,
	SEEN_PAGE0_OK = 4,
	SEEN_PAGE1_HEAD_OK = 8,
	SEEN_PAGE1_TAIL_ZERO = 16,
	SEEN_REGROWN_ZERO = 32,
};

/* Look at map (PAGES pages) after the truncation; page 0 should hold
 * page0 (a byte to compare everywhere, or -1 for the file's data). */
static int inspect(unsigned char *map, int page0)
{
	unsigned char v;
	int seen = 0, ok = 1;
	size_t i;

	if (read_bus(map + 2 * PAGE_SIZE, &v))
		seen |= SEEN_BUS_PAGE2;
	if (read_bus(map + 3 * PAGE_SIZE + 5, &v))
		seen |= SEEN_BUS_PAGE3;
	for (i = 0; i < PAGE_SIZE; i++)
		if (map[i] != (page0 < 0 ? content(i) : (unsigned char)page0))
			ok = 0;
	if (ok)
		seen |= SEEN_PAGE0_OK;
	ok = 1;
	for (i = PAGE_SIZE; i < NEW_SIZE; i++)
		if (map[i] != content(i))
			ok = 0;
	if (ok)
		seen |= SEEN_PAGE1_HEAD_OK;
	ok = 1;
	for (i = NEW_SIZE; i < 2 * PAGE_SIZE; i++)
		if (map[i])
			ok = 0;
	if (ok)
		seen |= SEEN_PAGE1_TAIL_ZERO;
	return seen;
}

/* After the file grew back: page 3 reads zero, without SIGBUS. */
static int inspect_regrown(unsigned char *map)
{
	unsigned char v = 1;
	size_t i;

	for (i = 3 * PAGE_SIZE; i < 4 * PAGE_SIZE; i += 512)
		if (read_bus(map + i, &v) || v)
			return 0;
	return SEEN_REGROWN_ZERO;
}

static void child(const char *path, int ready_fd, int go_fd, int report_fd)
{
	unsigned char *map;
	int fd = open(path, O_RDONLY), seen;
	char c;

	if (fd < 0)
		_exit(2);
	map = mmap(NULL, PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		_exit(3);
	for (size_t i = 0; i < PAGES; i++)
		sink = map[i * PAGE_SIZE];
	memset(map, CHILD_BYTE, PAGE_SIZE);
	memset(map + 3 * PAGE_SIZE, CHILD_BYTE, PAGE_SIZE);
	if (write(ready_fd, "r", 1) != 1 || read(go_fd, &c, 1) != 1)
		_exit(4);
	seen = inspect(map, CHILD_BYTE);
	if (write(ready_fd, "t", 1) != 1 || read(go_fd, &c, 1) != 1)
		_exit(5);
	seen |= inspect_regrown(map);
	if (write(report_fd, &seen, sizeof(seen)) != sizeof(seen))
		_exit(6);
	_exit(0);
}

static void check_seen(const char *fs, const char *who, int seen, int tail_zero)
{
	char what[128];

	snprintf(what, sizeof(what), "%s: %s: touching page 2 past the new end raises SIGBUS", fs, who);
	tap_check(seen & SEEN_BUS_PAGE2, what, NULL);
	snprintf(what, sizeof(what), "%s: %s: touching page 3 (%s) raises SIGBUS", fs, who,
		 tail_zero ? "shared" : "its written private copy");
	tap_check(seen & SEEN_BUS_PAGE3, what, NULL);
	snprintf(what, sizeof(what), "%s: %s: page 0 keeps its data", fs, who);
	tap_check(seen & SEEN_PAGE0_OK, what, NULL);
	snprintf(what, sizeof(what), "%s: %s: page 1 keeps the file's data up to the end", fs, who);
	tap_check(seen & SEEN_PAGE1_HEAD_OK, what, NULL);
	if (tail_zero) {
		snprintf(what, sizeof(what), "%s: %s: page 1 reads zero past the end", fs, who);
		tap_check(seen & SEEN_PAGE1_TAIL_ZERO, what, NULL);
	}
	snprintf(what, sizeof(what), "%s: %s: grown back, page 3 reads zero", fs, who);
	tap_check(seen & SEEN_REGROWN_ZERO, what, NULL);
}

static void run(const char *fs, const char *dir)
{
	unsigned char buf[PAGES * PAGE_SIZE], *map;
	int ready[2], go[2], report[2], fd, seen, child_seen = 0, status;
	char path[256], path2[128], c;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/truncate_mmap.%d", dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		tap_bail("%s: open %s: %s", fs, path, strerror(errno));
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = content(i);
	if (write_all(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		tap_bail("%s: write %s: %s", fs, path, strerror(errno));
	map = mmap(NULL, PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("%s: mmap: %s", fs, strerror(errno));
	for (size_t i = 0; i < PAGES; i++)
		sink = map[i * PAGE_SIZE];

	test_pipe(ready);
	test_pipe(go);
	test_pipe(report);
	pid = test_fork();
	if (pid == 0) {
		close(ready[0]);
		close(go[1]);
		close(report[0]);
		child(path, ready[1], go[0], report[1]);
	}
	close(ready[1]);
	close(go[0]);
	close(report[1]);
	if (read(ready[0], &c, 1) != 1)
		tap_bail("%s: the child did not get ready", fs);

	snprintf(path2, sizeof(path2), "%s: ftruncate to a page and a half", fs);
	tap_check(ftruncate(fd, NEW_SIZE) == 0, path2, "%s", strerror(errno));
	seen = inspect(map, -1);
	if (write(go[1], "g", 1) != 1 || read(ready[0], &c, 1) != 1)
		tap_bail("%s: the child went away", fs);
	if (ftruncate(fd, PAGES * PAGE_SIZE))
		tap_bail("%s: ftruncate back: %s", fs, strerror(errno));
	seen |= inspect_regrown(map);
	if (write(go[1], "g", 1) != 1)
		tap_bail("%s: the child went away", fs);
	if (read_full(report[0], &child_seen, sizeof(child_seen)) != sizeof(child_seen))
		tap_note("%s: no report from the child", fs);
	test_wait(pid, &status, 0);
	snprintf(path2, sizeof(path2), "%s: the child finished", fs);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, path2, "%s",
		  test_status_str(status, (char *)buf, sizeof(buf)));
	check_seen(fs, "MAP_SHARED", seen, 1);
	check_seen(fs, "MAP_PRIVATE", child_seen, 0);

	munmap(map, PAGES * PAGE_SIZE);
	close(fd);
	close(ready[0]);
	close(go[1]);
	close(report[0]);
	unlink(path);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		tap_bail("sigaction: %s", strerror(errno));
	run("tmpfs", "/tmp");
	run("ext2", ext2_scratch());
	return tap_done();
}
