/*
 * testlib: what every user test program shares (user/tests/testlib.c).
 *
 * Output is TAP: "ok N - what" or "not ok N - what: details", "# note"
 * lines, and the plan "1..N" at the end.  A program's exit status is 0
 * only when every check passed (tap_done()).
 */
#ifndef PAGETURN_USER_TESTLIB_H
#define PAGETURN_USER_TESTLIB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A user address that is always the kernel's: the direct map (PAGE_OFFSET). */
#define KERNEL_DIRECT_MAP 0xffff888000000000ul
/* Where the kernel image is mapped. */
#define KERNEL_TEXT 0xffffffff80000000ul

/*
 * One check: print "ok N - what" when cond holds, else
 * "not ok N - what: details" with details formatted from fmt (which may be
 * NULL).  Arguments are evaluated by the caller in any case.  Returns cond.
 */
int tap_check(int cond, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A check that cannot be made here: print "ok N - what # skip reason"
 * (TAP's skip directive; it counts as passed).
 */
void tap_skip(const char *what, const char *reason);

/* A "# ..." diagnostic line. */
void tap_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Give up: the test cannot go on (a setup step failed).  Prints
 * "Bail out! ..." and exits with status 1.
 */
__attribute__((noreturn, format(printf, 1, 2)))
void tap_bail(const char *fmt, ...);

/* Print the plan "1..N"; return the exit status: 0 if nothing failed, else 1. */
int tap_done(void);

/*
 * fork() after flushing stdout (so no buffered text is written twice);
 * bails out if fork fails.  Children should leave with _exit().
 */
pid_t test_fork(void);

/*
 * waitpid(pid, &status, flags), retried on EINTR; bails out on any other
 * error.  Returns what waitpid returned (0 with WNOHANG and no change).
 */
pid_t test_wait(pid_t pid, int *status, int flags);

/* pipe(p); bails out if it fails. */
void test_pipe(int p[2]);

/* The signal's name ("SIGSEGV"), or "signal N" for one without a name here. */
const char *test_signame(int sig);

/*
 * A wait status in words: "exit status 3", "killed by SIGSEGV",
 * "stopped by SIGSTOP", "continued".  The text lives in buf (size bytes).
 */
const char *test_status_str(int status, char *buf, size_t size);

/* write() the whole buffer, retrying short writes and EINTR; -1 on error. */
ssize_t write_all(int fd, const void *buf, size_t len);

/* read() until len bytes or end of file, retrying EINTR; bytes read or -1. */
ssize_t read_full(int fd, void *buf, size_t len);

/*
 * Read from fd to its end, or until size - 1 bytes (size > 0), into buf,
 * then a NUL; fd stays open.  Only read(): no stdio, no malloc, so tests
 * that measure memory may call it.  Returns the bytes read, or -1 with
 * errno set (buf then holds "").
 */
ssize_t read_file_fd(int fd, char *buf, size_t size);

/* read_file_fd on the file at path (opened and closed here); -1 with
 * errno set, buf holding "", when it cannot be opened or read. */
ssize_t read_file(const char *path, char *buf, size_t size);

/*
 * The number after name at the start of a line of text, name followed
 * by ':' or ' ' ("MemFree:    123 kB" in /proc/meminfo, "pgfault 42" in
 * /proc/vmstat), as a decimal long; -1 when no line starts so.
 */
long proc_field(const char *text, const char *name);

/*
 * The pids of /proc's numbered directories (one per process), in the
 * order getdents64 gives them: the first max of them into pids (NULL
 * when max is 0), and how many there are in all.  Only open, getdents64
 * and close: no stdio, no malloc.  Bails out if /proc cannot be read.
 */
int proc_pids(int *pids, int max);

/* FNV-1a 64 of len bytes, continuing from hash (start with FNV1A_INIT). */
#define FNV1A_INIT 0xcbf29ce484222325ull
uint64_t fnv1a(uint64_t hash, const void *data, size_t len);

/*
 * Where the root filesystem's files are: "" on Pageturn, or the staged
 * tree on a development machine (environment variable PAGETURN_ROOT,
 * e.g. build/rootfs).  root_path() prefixes path with it; the result lives
 * in a static buffer overwritten by the next call.
 */
const char *root_path(const char *path);

/* The layout of a getdents64 record (Linux's struct linux_dirent64). */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* What freed slab memory reads as (the kernel's POISON_FREE, 0x6b, in
 * every byte): a d_ino or other value of this came from freed memory. */
#define SLAB_POISON_64 0x6b6b6b6b6b6b6b6bull

/* 1 on Pageturn (uname -s says "Pageturn"), 0 on the build machine's Linux. */
int on_pageturn(void);

/*
 * For the OOM tests (Pageturn only: on the build machine it would eat the
 * machine): MemTotal and MemFree of /proc/meminfo in KiB (-1 if absent),
 * and a machine small enough for them, MemTotal at most OOM_TEST_MAX_KB
 * (the QEMU case that runs them boots with -m 64M).
 */
#define OOM_TEST_MAX_KB (128 * 1024)
long meminfo_kb(const char *name);

/* The value of name in /proc/vmstat (-1 if absent). */
long vmstat_value(const char *name);

/* Sectors read (write 0) or written (write 1), summed over every disk in
 * /proc/diskstats (Linux's layout: fields 6 and 10). */
unsigned long long diskstats_sectors(int write);
int oom_test_machine(void);

/*
 * Map kb KiB of private anonymous memory and write a byte in every page;
 * returns 0 when every page was written, -1 when mmap failed.  Bigger
 * than RAM, it does not return: the OOM killer kills the caller.
 */
int touch_anon_kb(long kb);

/*
 * Where a test may make files on a disk-backed ext2 filesystem, for the
 * bugs that show only where file system code sleeps on I/O.  On Pageturn
 * with a virtio disk, "/mnt", where the disk (vda, an ext2 image the QEMU
 * case made) is mounted by the first caller; on Pageturn without one, "/"
 * (the root filesystem, ext2 on a RAM disk); on the build machine "/tmp"
 * (never a disk of its own).  Tests make their own directory under it.
 */
const char *ext2_scratch(void);

#endif
