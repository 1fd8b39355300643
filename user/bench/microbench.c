/*
 * microbench: the micro-benchmarks of `make bench`, one subcommand per row.
 *
 * The same static binary runs on Pageturn and on Linux (tools/bench/ boots
 * both under the same QEMU); every result is one line on stdout,
 *
 *     bench=NAME KEY=VALUE ...
 *
 * whose first KEY after bench= is the row's measure (lower is better), for
 * example "bench=null_syscall ns_per_op=160.2 ops=6000000 secs=0.962".  A
 * row that cannot run prints "bench=NAME error=WHAT errno=N (...)" and the
 * others go on.
 * "bench-done rows=N errors=N" ends the run.
 *
 * Timing.  Every row times a batch of operations with
 * clock_gettime(CLOCK_MONOTONIC) around it, never one operation, so the
 * clock's own cost (a system call on Pageturn) is spread thin.  The
 * time-driven rows first run a warm-up (a tenth of --seconds: caches, the
 * page allocator's free lists, the first fork's page tables), then repeat
 * batches until --seconds have passed, so each row takes about as long on
 * a fast kernel as on a slow one.
 *
 * The file rows use an ext2 disk that --dev names (mounted on --dir with
 * mount(2), EBUSY meaning it already is); the files on it come from the
 * host (tools/bench/disks.py): DIR/read.bin for the sequential reads and
 * DIR/map.bin for the mapped reads.  ext2_cold_read is only cold when it
 * is the first reader of read.bin since the boot, which is how the bench
 * runs it (a fresh boot, the disk mounted just before).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE_SIZE	4096
#define IO_SIZE		(64 * 1024)	/* the sequential rows' read()/write() size */
#define TMPFS_FILE_SIZE	(1024 * 1024)
#define ANON_SIZE	(16 * 1024 * 1024)

static struct {
	const char *dev;	/* ext2 disk to mount on dir, or NULL */
	const char *dir;	/* where read.bin and map.bin are */
	const char *tmp;	/* a tmpfs directory */
	const char *nop;	/* the small static program fork_exec runs */
	double seconds;		/* how long each time-driven row runs */
	long write_mib;		/* ext2_write_sync's file size */
} opt = {
	.dev = NULL, .dir = "/mnt", .tmp = "/tmp", .nop = "/usr/lib/bench/nop",
	.seconds = 1.0, .write_mib = 128,
};

static int errors;
static char iobuf[IO_SIZE] __attribute__((aligned(PAGE_SIZE)));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "bench=NAME error=WHAT errno=N (strerror)": the row failed; WHAT is one word. */
static int fail(const char *name, const char *what)
{
	int e = errno;

	printf("bench=%s error=%s errno=%d (%s)\n", name, what, e, strerror(e));
	fflush(stdout);
	errors++;
	return -1;
}

static void result(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("bench=%s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static char *path_in(const char *dir, const char *file)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return path;
}

/*
 * A batch of operations the time-driven rows repeat: run(n) does n of
 * them and returns 0, or -1 with errno set.
 */
typedef int (*batch_fn)(long n);

/*
 * Warm up, then run batches of batch operations until opt.seconds have
 * passed.  Returns the seconds the timed batches took and sets *ops, or
 * a negative number if a batch failed.
 */
static double timed(batch_fn run, long batch, long *ops)
{
	double start, t, warm_end = now() + opt.seconds / 10;

	do {
		if (run(batch) < 0)
			return -1;
	} while (now() < warm_end);
	*ops = 0;
	start = now();
	do {
		if (run(batch) < 0)
			return -1;
		*ops += batch;
		t = now() - start;
	} while (t < opt.seconds);
	return t;
}

/* --- the file rows ------------------------------------------------------ */

/* Read path to its end with IO_SIZE read()s; the seconds it took, or -1. */
static double read_whole(const char *path, long long *bytes)
{
	double start = now();
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, iobuf, IO_SIZE)) > 0)
		total += n;
	close(fd);
	if (n < 0)
		return -1;
	*bytes = total;
	return now() - start;
}

static int ext2_cold_read(const char *name)
{
	long long bytes;
	double t = read_whole(path_in(opt.dir, "read.bin"), &bytes);

	if (t < 0)
		return fail(name, "read.bin");
	result(name, "s=%.3f mib=%.1f mib_per_s=%.1f", t, bytes / 1048576.0,
	       bytes / 1048576.0 / t);
	return 0;
}

/*
 * The second and third reads of read.bin: the page cache's speed.  The
 * measure is their mean; if nothing read the file since the boot, the
 * first (cold) read happens here, untimed.
 */
static int ext2_cached_read(const char *name)
{
	const char *path = path_in(opt.dir, "read.bin");
	long long bytes;
	double t[3];

	for (int i = 0; i < 3; i++) {
		t[i] = read_whole(path, &bytes);
		if (t[i] < 0)
			return fail(name, "read.bin");
	}
	result(name, "ms=%.2f ms_2nd=%.2f ms_3rd=%.2f mib=%.1f", (t[1] + t[2]) / 2 * 1e3,
	       t[1] * 1e3, t[2] * 1e3, bytes / 1048576.0);
	return 0;
}

/* Write opt.write_mib MiB with IO_SIZE write()s to a new file, then sync(). */
static int ext2_write_sync(const char *name)
{
	long long total = opt.write_mib * 1024 * 1024;
	double start, written, synced;
	int fd;

	for (size_t i = 0; i < IO_SIZE; i++)
		iobuf[i] = (char)(i * 7 + (i >> 12));
	fd = open(path_in(opt.dir, "write.bin"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail(name, "open");
	start = now();
	for (long long done = 0; done < total; done += IO_SIZE) {
		if (write(fd, iobuf, IO_SIZE) != IO_SIZE) {
			close(fd);
			return fail(name, "write");
		}
	}
	written = now();
	sync();
	synced = now();
	close(fd);
	result(name, "s=%.3f write_s=%.3f sync_s=%.3f mib=%ld", synced - start,
	       written - start, synced - written, opt.write_mib);
	return 0;
}

/* --- read() of a cached tmpfs file --------------------------------------- */

static int tmpfs_fd = -1;
static off_t tmpfs_off;

static int tmpfs_batch(long n)
{
	for (long i = 0; i < n; i++) {
		if (tmpfs_off == TMPFS_FILE_SIZE) {
			if (lseek(tmpfs_fd, 0, SEEK_SET) != 0)
				return -1;
			tmpfs_off = 0;
		}
		if (read(tmpfs_fd, iobuf, PAGE_SIZE) != PAGE_SIZE)
			return errno = EIO, -1;
		tmpfs_off += PAGE_SIZE;
	}
	return 0;
}

static int tmpfs_read4k(const char *name)
{
	const char *path = path_in(opt.tmp, "microbench.tmpfs");
	long ops;
	double t;

	memset(iobuf, 0x5a, IO_SIZE);
	tmpfs_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (tmpfs_fd < 0)
		return fail(name, "open");
	unlink(path);
	for (int i = 0; i < TMPFS_FILE_SIZE / IO_SIZE; i++) {
		if (write(tmpfs_fd, iobuf, IO_SIZE) != IO_SIZE) {
			close(tmpfs_fd);
			return fail(name, "write");
		}
	}
	tmpfs_off = TMPFS_FILE_SIZE;
	t = timed(tmpfs_batch, 256, &ops);
	close(tmpfs_fd);
	if (t < 0)
		return fail(name, "read");
	result(name, "us_per_op=%.3f ops=%ld secs=%.3f", t / ops * 1e6, ops, t);
	return 0;
}

/* --- page faults --------------------------------------------------------- */

/*
 * An anonymous mapping of size bytes with 4 KiB pages: Debian's Linux
 * backs anonymous memory with 2 MiB pages where it can
 * (CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS), and these rows measure the 4 KiB
 * fault path.  A kernel without the advice (-EINVAL) faults 4 KiB pages
 * anyway.
 */
static char *map_anon(size_t size)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_NOHUGEPAGE
	madvise(p, size, MADV_NOHUGEPAGE);
#endif
	return p;
}

static void touch_pages(volatile char *p, size_t size)
{
	for (size_t off = 0; off < size; off += PAGE_SIZE)
		p[off] = 1;
}

/*
 * Rounds of: map ANON_SIZE, write one byte to each page (timed), unmap.
 * The first round warms up.
 */
static int anon_fault(const char *name)
{
	long pages = 0;
	double t = 0, start, end = now() + opt.seconds;

	for (int round = 0; round < 2 || now() < end; round++) {
		char *p = map_anon(ANON_SIZE);

		if (!p)
			return fail(name, "mmap");
		start = now();
		touch_pages(p, ANON_SIZE);
		if (round > 0) {
			t += now() - start;
			pages += ANON_SIZE / PAGE_SIZE;
		}
		munmap(p, ANON_SIZE);
		if (round == 0)
			end = now() + opt.seconds;
	}
	result(name, "us_per_page=%.3f pages=%ld secs=%.3f", t / pages * 1e6, pages, t);
	return 0;
}

/*
 * The parent writes every page of ANON_SIZE, then forks rounds of
 * children that each write every page again (a copy-on-write fault each,
 * timed in the child, which sends its time down a pipe) and exit.
 */
static int cow_fault(const char *name)
{
	long pages = 0;
	double t = 0, end;
	char *p = map_anon(ANON_SIZE);
	int fds[2];

	if (!p)
		return fail(name, "mmap");
	touch_pages(p, ANON_SIZE);
	if (pipe(fds) < 0)
		return fail(name, "pipe");
	end = now() + opt.seconds;
	for (int round = 0; round < 2 || now() < end; round++) {
		double child_t;
		int status;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return fail(name, "fork");
		if (pid == 0) {
			double start = now();

			touch_pages(p, ANON_SIZE);
			child_t = now() - start;
			_exit(write(fds[1], &child_t, sizeof(child_t)) == sizeof(child_t) ? 0 : 1);
		}
		if (waitpid(pid, &status, 0) != pid || status != 0 ||
		    read(fds[0], &child_t, sizeof(child_t)) != sizeof(child_t))
			return fail(name, "child");
		if (round > 0) {
			t += child_t;
			pages += ANON_SIZE / PAGE_SIZE;
		}
		if (round == 0)
			end = now() + opt.seconds;
	}
	close(fds[0]);
	close(fds[1]);
	munmap(p, ANON_SIZE);
	result(name, "us_per_page=%.3f pages=%ld secs=%.3f", t / pages * 1e6, pages, t);
	return 0;
}

/*
 * Read faults on DIR/map.bin, all of it in the page cache (a read() of
 * the whole file first): rounds of mmap, one byte read from each page
 * (timed), munmap.
 */
static int file_fault(const char *name)
{
	const char *path = path_in(opt.dir, "map.bin");
	long pages = 0;
	long long bytes;
	double t = 0, end;
	struct stat st;
	int fd;

	if (read_whole(path, &bytes) < 0)
		return fail(name, "map.bin");
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		return fail(name, "map.bin");
	size_t size = st.st_size & ~(size_t)(PAGE_SIZE - 1);
	if (size == 0) {
		close(fd);
		errno = EINVAL;
		return fail(name, "map.bin_empty");
	}
	end = now() + opt.seconds;
	for (int round = 0; round < 2 || now() < end; round++) {
		volatile char *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		double start;
		char sum = 0;

		if (p == MAP_FAILED) {
			close(fd);
			return fail(name, "mmap");
		}
		start = now();
		for (size_t off = 0; off < size; off += PAGE_SIZE)
			sum += p[off];
		if (round > 0) {
			t += now() - start;
			pages += size / PAGE_SIZE;
		}
		munmap((void *)p, size);
		(void)sum;
		if (round == 0)
			end = now() + opt.seconds;
	}
	close(fd);
	result(name, "us_per_page=%.3f pages=%ld secs=%.3f", t / pages * 1e6, pages, t);
	return 0;
}

/* --- system calls and processes ------------------------------------------ */

static int null_batch(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

static int null_syscall(const char *name)
{
	long ops;
	double t = timed(null_batch, 1000, &ops);

	result(name, "ns_per_op=%.1f ops=%ld secs=%.3f", t / ops * 1e9, ops, t);
	return 0;
}

/* Wait for pid; 0 if it exited with status 0, else -1. */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return errno = ECHILD, -1;
	return 0;
}

static int fork_exit_batch(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(0);
		if (reap(pid) < 0)
			return -1;
	}
	return 0;
}

static int fork_exit(const char *name)
{
	long ops;
	double t;

	fflush(stdout);
	t = timed(fork_exit_batch, 10, &ops);
	if (t < 0)
		return fail(name, "fork");
	result(name, "us_per_op=%.1f ops=%ld secs=%.3f", t / ops * 1e6, ops, t);
	return 0;
}

static int fork_exec_batch(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			char *argv[] = { (char *)opt.nop, NULL };
			char *envp[] = { NULL };

			execve(opt.nop, argv, envp);
			_exit(127);
		}
		if (reap(pid) < 0)
			return -1;
	}
	return 0;
}

static int fork_exec(const char *name)
{
	long ops;
	double t;

	if (access(opt.nop, X_OK) < 0)
		return fail(name, opt.nop);
	fflush(stdout);
	t = timed(fork_exec_batch, 5, &ops);
	if (t < 0)
		return fail(name, "fork+exec");
	result(name, "ms_per_op=%.3f ops=%ld secs=%.3f", t / ops * 1e3, ops, t);
	return 0;
}

static int ping[2], pong[2];

static int pipe_batch(long n)
{
	char c = 'x';

	for (long i = 0; i < n; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return errno = errno ? errno : EIO, -1;
	}
	return 0;
}

/* A child echoes each byte from ping back on pong: one round trip per op. */
static int pipe_rtt(const char *name)
{
	long ops;
	double t;
	pid_t pid;

	if (pipe(ping) < 0 || pipe(pong) < 0)
		return fail(name, "pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail(name, "fork");
	if (pid == 0) {
		char c;

		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	t = timed(pipe_batch, 100, &ops);
	close(ping[1]);
	close(pong[0]);
	if (reap(pid) < 0 || t < 0)
		return fail(name, "round trip");
	result(name, "us_per_op=%.2f ops=%ld secs=%.3f", t / ops * 1e6, ops, t);
	return 0;
}

/* --- the table ------------------------------------------------------------ */

static const struct row {
	const char *name;
	int (*run)(const char *name);
	int needs_disk;
	const char *what;
} rows[] = {
	{ "ext2_cold_read", ext2_cold_read, 1,
	  "first read of DIR/read.bin since boot, 64 KiB read()s (seconds)" },
	{ "ext2_cached_read", ext2_cached_read, 1,
	  "second and third read of DIR/read.bin, page cache (ms, their mean)" },
	{ "tmpfs_read4k", tmpfs_read4k, 0, "read() of a cached 1 MiB tmpfs file, per 4 KiB (us)" },
	{ "anon_fault", anon_fault, 0, "first write to anonymous memory, per 4 KiB page (us)" },
	{ "cow_fault", cow_fault, 0, "copy-on-write fault in a forked child, per page (us)" },
	{ "file_fault", file_fault, 1, "read fault on a mapped cached DIR/map.bin, per page (us)" },
	{ "null_syscall", null_syscall, 0, "getppid(), per call (ns)" },
	{ "fork_exit", fork_exit, 0, "fork + _exit + waitpid (us)" },
	{ "fork_exec", fork_exec, 0, "fork + execve of --nop + waitpid (ms)" },
	{ "pipe_rtt", pipe_rtt, 0, "1-byte round trip over two pipes between two processes (us)" },
	{ "ext2_write_sync", ext2_write_sync, 1,
	  "write --write-mib MiB to DIR/write.bin in 64 KiB write()s, then sync() (seconds)" },
};
#define NR_ROWS (sizeof(rows) / sizeof(rows[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: microbench [OPTIONS] ROW... | all\n"
		"Runs the rows named, in the order given (all: the table's order), and\n"
		"prints one line per row: bench=ROW MEASURE=VALUE ... (lower is better).\n"
		"options:\n"
		"  --dev DEV        mount the ext2 disk DEV on DIR first (default: none)\n"
		"  --dir DIR        where read.bin and map.bin are (default /mnt)\n"
		"  --tmp DIR        a tmpfs directory (default /tmp)\n"
		"  --nop PATH       the program fork_exec runs (default /usr/lib/bench/nop)\n"
		"  --seconds S      how long each time-driven row runs (default 1.0)\n"
		"  --write-mib N    ext2_write_sync's size (default 128)\n"
		"  --quick          --seconds 0.2 --write-mib 8\n"
		"  --help           this text\n"
		"rows:\n");
	for (size_t i = 0; i < NR_ROWS; i++)
		fprintf(f, "  %-17s%s\n", rows[i].name, rows[i].what);
}

static const struct row *find_row(const char *name)
{
	for (size_t i = 0; i < NR_ROWS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

static int mount_disk(void)
{
	if (mount(opt.dev, opt.dir, "ext2", 0, NULL) == 0 || errno == EBUSY)
		return 0;
	printf("bench-error mount %s on %s: %s\n", opt.dev, opt.dir, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	const struct row *chosen[64];
	size_t n = 0;
	int i, disk = 0;

	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(o, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(o, "--quick") == 0) {
			opt.seconds = 0.2;
			opt.write_mib = 8;
			continue;
		}
		if (!val) {
			fprintf(stderr, "microbench: %s needs a value\n", o);
			return 2;
		}
		i++;
		if (strcmp(o, "--dev") == 0)
			opt.dev = val;
		else if (strcmp(o, "--dir") == 0)
			opt.dir = val;
		else if (strcmp(o, "--tmp") == 0)
			opt.tmp = val;
		else if (strcmp(o, "--nop") == 0)
			opt.nop = val;
		else if (strcmp(o, "--seconds") == 0 && (opt.seconds = atof(val)) > 0)
			;
		else if (strcmp(o, "--write-mib") == 0 && (opt.write_mib = atol(val)) > 0)
			;
		else {
			fprintf(stderr, "microbench: bad option %s %s (--help lists them)\n", o, val);
			return 2;
		}
	}
	for (; i < argc; i++) {
		if (strcmp(argv[i], "all") == 0) {
			for (size_t r = 0; r < NR_ROWS && n < 64; r++)
				chosen[n++] = &rows[r];
			continue;
		}
		const struct row *r = find_row(argv[i]);
		if (!r) {
			fprintf(stderr, "microbench: no row %s (--help lists them)\n", argv[i]);
			return 2;
		}
		if (n < 64)
			chosen[n++] = r;
	}
	if (n == 0) {
		usage(stderr);
		return 2;
	}
	for (size_t r = 0; r < n; r++)
		disk |= chosen[r]->needs_disk;
	if (disk && opt.dev && mount_disk() < 0)
		return 1;
	for (size_t r = 0; r < n; r++)
		chosen[r]->run(chosen[r]->name);
	printf("bench-done rows=%zu errors=%d\n", n, errors);
	return errors ? 1 : 0;
}
