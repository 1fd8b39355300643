/*
 * efault: a system call handed a bad user pointer fails with EFAULT, and
 * the process goes on as if nothing happened.
 *
 * Bad pointers: NULL, a kernel address (the direct map at
 * 0xffff888000000000, which user space may never name), and user pages
 * that exist but do not allow the access (a PROT_READ page to read into,
 * a PROT_NONE page to write from), for read() and write() on a regular
 * file in /tmp and on a pipe.  Path arguments: NULL, a kernel address,
 * and a string that runs off the end of its mapping into a PROT_NONE
 * page without a terminating NUL.  Result buffers: fstat(), uname() and
 * pipe() writing to a kernel address.  execve() with a kernel address as
 * argv runs in a child, which reports errno through its exit status.
 * After all of that, ordinary reads and writes still work.
 */
#include "testlib.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>


/* Kept in volatile variables so that the compiler cannot reason about them. */
static void *volatile null_ptr;
static void *volatile kernel_ptr = (void *)KERNEL_DIRECT_MAP;

/* Did the call fail with EFAULT?  rets is its return value, errno as it left it. */
static void expect_efault(long ret, const char *what)
{
	int err = errno;

	tap_check(ret == -1 && err == EFAULT, what, "returned %ld, errno %d (%s)", ret, err,
		  strerror(err));
	errno = 0;
}

int main(void)
{
	char tmpl[] = "/tmp/efault.XXXXXX", good[64];
	char *ro, *none, *edge;
	int fd, p[2], status;
	struct stat st;
	pid_t pid;

	fd = mkstemp(tmpl);
	if (fd < 0)
		tap_bail("mkstemp in /tmp: %s", strerror(errno));
	unlink(tmpl);
	if (write_all(fd, "0123456789abcdef", 16) != 16 || pipe(p) < 0)
		tap_bail("setup: %s", strerror(errno));
	ro = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none = mmap(NULL, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	edge = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED || none == MAP_FAILED || edge == MAP_FAILED ||
	    mprotect(edge + PAGE_SIZE, PAGE_SIZE, PROT_NONE) < 0)
		tap_bail("mmap/mprotect: %s", strerror(errno));
	memset(edge, 'a', PAGE_SIZE);        /* no NUL before the PROT_NONE page */
	errno = 0;

	expect_efault(pread(fd, null_ptr, 16, 0), "read() from a file into NULL: EFAULT");
	expect_efault(pread(fd, kernel_ptr, 16, 0), "read() from a file into a kernel address: EFAULT");
	expect_efault(pread(fd, ro, 16, 0), "read() from a file into a PROT_READ page: EFAULT");
	expect_efault(write(fd, null_ptr, 16), "write() to a file from NULL: EFAULT");
	expect_efault(write(fd, kernel_ptr, 16), "write() to a file from a kernel address: EFAULT");
	expect_efault(write(fd, none, 16), "write() to a file from a PROT_NONE page: EFAULT");

	write_all(p[1], "pipe", 4);
	expect_efault(read(p[0], null_ptr, 4), "read() from a pipe into NULL: EFAULT");
	expect_efault(read(p[0], kernel_ptr, 4), "read() from a pipe into a kernel address: EFAULT");
	expect_efault(read(p[0], ro, 4), "read() from a pipe into a PROT_READ page: EFAULT");
	expect_efault(write(p[1], null_ptr, 4), "write() to a pipe from NULL: EFAULT");
	expect_efault(write(p[1], kernel_ptr, 4), "write() to a pipe from a kernel address: EFAULT");

	expect_efault(open(null_ptr, O_RDONLY), "open() of a NULL path: EFAULT");
	expect_efault(open(kernel_ptr, O_RDONLY), "open() of a path at a kernel address: EFAULT");
	expect_efault(open(edge + PAGE_SIZE - 100, O_RDONLY),
		      "open() of a path running into a PROT_NONE page: EFAULT");
	/* Raw calls: musl's stat() and fstat() copy the result in user space. */
	expect_efault(syscall(SYS_stat, kernel_ptr, &st), "stat() of a path at a kernel address: EFAULT");
	expect_efault(syscall(SYS_fstat, fd, kernel_ptr), "fstat() into a kernel address: EFAULT");
	expect_efault(syscall(SYS_uname, kernel_ptr), "uname() into a kernel address: EFAULT");
	expect_efault(pipe(kernel_ptr), "pipe() into a kernel address: EFAULT");

	pid = test_fork();
	if (pid == 0) {
		execve("/bin/false", kernel_ptr, NULL);
		_exit(errno == EFAULT ? 100 : 101);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 100,
		  "execve() with argv at a kernel address: EFAULT",
		  "%s (100: EFAULT, 101: another error, 1: it ran /bin/false)",
		  test_status_str(status, good, sizeof(good)));

	memset(good, 0, sizeof(good));
	tap_check(pread(fd, good, 16, 0) == 16 && !memcmp(good, "0123456789abcdef", 16),
		  "the process survives: the file reads back intact", "read \"%.16s\"", good);
	tap_check(write_all(p[1], "more", 4) == 4, "and the pipe still takes writes", "%s",
		  strerror(errno));
	tap_check(getppid() > 0 && kill(getpid(), 0) == 0, "and system calls still work", NULL);
	return tap_done();
}
