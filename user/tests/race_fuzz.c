/*
 * race_fuzz: several processes work on the same kernel objects at once,
 * and the kernel keeps its promises: no crash, no hang, no freed memory
 * read back, no file system left inconsistent.
 *
 * syscall_fuzz throws hostile arguments at one process at a time; the
 * bugs it cannot find are those of interleaving.  A kernel path that
 * sleeps (disk I/O, an allocation, a lock, cond_resched) lets another
 * process change what the sleeper looked at before it slept: a directory
 * removed, an inode claimed, a mapping unmapped, a child reaped.  Each
 * scenario here starts a few worker processes on one shared object, lets
 * them race for a bounded number of rounds with random choices, then
 * judges what is left.
 *
 *     race_fuzz [SEED [ROUNDS]] [SCENARIO...]
 *
 * SEED (default 0x7ace2026, printed first) seeds every worker, so a run
 * can be repeated (the interleaving still depends on the scheduler);
 * ROUNDS (default 1) repeats each scenario with seeds drawn from it.  With
 * no SCENARIO names every scenario runs.
 *
 * How a scenario is judged:
 *   - every worker must end with exit status 0; a worker that sees the
 *     kernel break a rule prints "# WORKER: what" and exits 1;
 *   - a worker still running after WORKER_TIMEOUT seconds is a hang: its
 *     /proc/PID/stat line is printed and it is killed (a kernel that
 *     sleeps uninterruptibly forever shows as state D there);
 *   - the scenario's own checks of what the workers left behind;
 *   - afterwards the machine must still be usable: a fork, an exec and a
 *     file write must work.
 * On Pageturn, disk-backed scenarios run on ext2_scratch()'s filesystem
 * (a virtio disk when the QEMU case gives one, and the case then runs
 * e2fsck -fn on it); on the build machine on /tmp.
 */
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_SEED	0x7ace2026u
#define MAX_WORKERS	8
#define WORKER_TIMEOUT	60	/* seconds: longer means the kernel hung a worker */

/* One worker's random numbers: xorshift64*, seeded per worker. */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

/* A number in [0, n). */
static unsigned int below(struct rng *r, unsigned int n)
{
	return (unsigned int)(rng_next(r) % n);
}

static struct rng rng_seeded(uint64_t seed)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ull + 1 };

	rng_next(&r);
	return r;
}

/* What a worker gets: its number, its random numbers, the scenario's
 * shared directory (or "" when it has none). */
struct worker {
	int id;
	struct rng rng;
	const char *dir;
};

/* A worker saw the kernel break a rule: say what, and fail. */
__attribute__((noreturn, format(printf, 2, 3)))
static void worker_fail(const struct worker *w, const char *fmt, ...);

static void worker_fail(const struct worker *w, const char *fmt, ...)
{
	va_list ap;

	printf("# worker %d: ", w->id);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	_exit(1);
}

/*
 * Run fn in n worker processes, each with its own seed drawn from seed,
 * all on dir; wait for them under the hang watchdog.  Returns how many
 * did not end with status 0 (each reported with a "#" line).
 */
static int run_workers(const char *scenario, int n, uint64_t seed, const char *dir,
		       void (*fn)(struct worker *w))
{
	pid_t pids[MAX_WORKERS];
	int bad = 0, left = n;
	time_t deadline = time(NULL) + WORKER_TIMEOUT;

	for (int i = 0; i < n; i++) {
		pids[i] = test_fork();
		if (pids[i] == 0) {
			struct worker w = { i, rng_seeded(seed + (uint64_t)i), dir };

			fn(&w);
			_exit(0);
		}
	}
	while (left > 0) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid < 0 && errno != EINTR)
			tap_bail("%s: waitpid: %s", scenario, strerror(errno));
		if (pid > 0) {
			for (int i = 0; i < n; i++) {
				if (pids[i] != pid)
					continue;
				pids[i] = 0;
				left--;
				if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
					char buf[64];

					tap_note("%s: worker %d (pid %d) ended with %s", scenario, i, pid,
						 test_status_str(status, buf, sizeof(buf)));
					bad++;
				}
			}
			continue;
		}
		if (time(NULL) > deadline) {
			for (int i = 0; i < n; i++) {
				char path[64], stat[512];

				if (!pids[i])
					continue;
				snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
				read_file(path, stat, sizeof(stat));
				tap_note("%s: worker %d hung for %d s: %s", scenario, i, WORKER_TIMEOUT,
					 stat);
				kill(pids[i], SIGKILL);
				bad++;
			}
			deadline = time(NULL) + WORKER_TIMEOUT;
			continue;
		}
		usleep(10000);
	}
	return bad;
}

/*
 * A fresh directory for one scenario, under base; bails out if it cannot
 * be made.  The name lives in a static buffer.
 */
static const char *scenario_dir(const char *base, const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/race_%s.XXXXXX", strcmp(base, "/") ? base : "", name);
	if (!mkdtemp(path))
		tap_bail("mkdtemp %s: %s", path, strerror(errno));
	return path;
}

/* Remove dir and everything under it (what the workers left). */
static void remove_tree(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		tap_note("could not remove %s", dir);
}

/* ---- forks: children exiting with SIGCHLD ignored ---------------------- */

/*
 * With SIGCHLD ignored a child is reaped by the kernel the moment it
 * exits, so its task_struct is freed while the parent may still be
 * looking at it (a vfork parent waiting for the child to let go of the
 * address space).  Each worker ignores SIGCHLD and makes children by
 * fork, vfork and vfork+exec that exit at once, while the other workers
 * do the same, so freed task slots are reused quickly.  A vfork must
 * return after its child exits, and wait must then say ECHILD: nothing
 * is left to reap.
 */
static void forks_worker(struct worker *w)
{
	signal(SIGCHLD, SIG_IGN);
	for (int i = 0; i < 300; i++) {
		pid_t pid;

		switch (below(&w->rng, 3)) {
		case 0:
			pid = fork();
			if (pid == 0)
				_exit(0);
			break;
		case 1:
			pid = vfork();
			if (pid == 0)
				_exit(0);
			break;
		default:
			pid = vfork();
			if (pid == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			break;
		}
		if (pid < 0)
			worker_fail(w, "fork/vfork: %s", strerror(errno));
		if (below(&w->rng, 4) == 0)
			sched_yield();
	}
	/* Every child was reaped by the kernel: wait has nothing to give. */
	while (waitpid(-1, NULL, 0) >= 0 || errno == EINTR)
		;
	if (errno != ECHILD)
		worker_fail(w, "wait with SIGCHLD ignored: %s, not ECHILD", strerror(errno));
}

static void scenario_forks(uint64_t seed)
{
	int before = proc_pids(NULL, 0), after;
	int bad = run_workers("forks", 4, seed, "", forks_worker);

	tap_check(bad == 0, "forks: fork, vfork and vfork+exec with SIGCHLD ignored, 4 workers",
		  "%d workers failed", bad);
	after = proc_pids(NULL, 0);
	if (on_pageturn())
		tap_check(after == before, "forks: no process left behind",
			  "%d processes before, %d after", before, after);
	else
		tap_skip("forks: no process left behind", "other processes come and go here");
}

/* ---- maps: a file's mappings faulted while it is cut and regrown -------- */

/*
 * A file of MAP_FILE_PAGES pages is mapped MAP_SHARED by every worker.
 * Faulters read and write random pages through their mappings (and map
 * private copies with MAP_POPULATE) while the truncater cuts the file to
 * random lengths and writes it back, and the remapper maps, unmaps,
 * mprotects and MADV_DONTNEEDs its own mappings of it, partly from vfork
 * children that borrow its address space.  The fault paths sleep (page
 * cache lookups, disk reads on ext2) while the file changes under them.
 * The rules: a fault past the end of the file is SIGBUS, never a kernel
 * crash or a page of another file; every byte read is 0 or one of the
 * values the workers write (MAP_BYTE + worker id), so a page that was
 * freed and reused shows; and the workers end.
 */
#define MAP_FILE_PAGES	64
#define MAP_BYTE	0xa0
#define MAP_ROUNDS	1500

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* Is every byte of the page at p 0 or a value a worker writes? */
static bool page_bytes_known(const volatile unsigned char *p, long page_size)
{
	for (long i = 0; i < page_size; i += 64)
		if (p[i] != 0 && (p[i] < MAP_BYTE || p[i] >= MAP_BYTE + MAX_WORKERS))
			return false;
	return true;
}

static void maps_worker(struct worker *w)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)MAP_FILE_PAGES * psz;
	char path[300];
	int fd;
	volatile unsigned char *map;
	struct sigaction sa = { .sa_handler = on_sigbus };

	snprintf(path, sizeof(path), "%s/file", w->dir);
	fd = open(path, O_RDWR);
	if (fd < 0)
		worker_fail(w, "open %s: %s", path, strerror(errno));
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		worker_fail(w, "mmap: %s", strerror(errno));
	sigaction(SIGBUS, &sa, NULL);

	for (int round = 0; round < MAP_ROUNDS; round++) {
		long pg = below(&w->rng, MAP_FILE_PAGES);
		volatile unsigned char *page = map + pg * psz;

		if (w->id == 0) {
			/* The truncater. */
			off_t size = (off_t)below(&w->rng, MAP_FILE_PAGES + 1) * psz;
			unsigned char buf[512];

			if (ftruncate(fd, size) < 0)
				worker_fail(w, "ftruncate: %s", strerror(errno));
			memset(buf, MAP_BYTE + w->id, sizeof(buf));
			if (pwrite(fd, buf, sizeof(buf), pg * psz) != (ssize_t)sizeof(buf))
				worker_fail(w, "pwrite: %s", strerror(errno));
			continue;
		}
		if (w->id == 1 && below(&w->rng, 4) == 0) {
			/* The remapper, sometimes through a vfork child. */
			void *p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
			pid_t pid;

			if (p == MAP_FAILED)
				worker_fail(w, "mmap MAP_POPULATE: %s", strerror(errno));
			pid = vfork();
			if (pid == 0) {
				mprotect(p, len / 2, PROT_NONE);
				madvise((char *)map + pg * psz, psz, MADV_DONTNEED);
				munmap(p, len);
				_exit(0);
			}
			if (pid < 0)
				worker_fail(w, "vfork: %s", strerror(errno));
			waitpid(pid, NULL, 0);
			continue;
		}
		if (sigsetjmp(bus_jmp, 1))
			continue;	/* past the end of the file just now */
		switch (below(&w->rng, 3)) {
		case 0:
			page[below(&w->rng, psz)] = MAP_BYTE + w->id;
			break;
		case 1:
			if (!page_bytes_known(page, psz))
				worker_fail(w, "page %ld of the shared mapping holds a byte no worker wrote",
					    pg);
			break;
		default: {
			unsigned char *priv = mmap(NULL, len, PROT_READ | PROT_WRITE,
						   MAP_PRIVATE | MAP_POPULATE, fd, 0);

			if (priv == MAP_FAILED)
				worker_fail(w, "mmap MAP_PRIVATE|MAP_POPULATE: %s", strerror(errno));
			priv[pg * psz] = MAP_BYTE + w->id;
			munmap(priv, len);
			break;
		}
		}
	}
}

static void maps_on(const char *base, uint64_t seed)
{
	const char *dir = scenario_dir(base, "maps");
	char path[300];
	long psz = sysconf(_SC_PAGESIZE);
	int fd, bad;

	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)MAP_FILE_PAGES * psz) < 0)
		tap_bail("%s: %s", path, strerror(errno));
	close(fd);
	bad = run_workers("maps", 4, seed, dir, maps_worker);
	tap_note("maps on %s: %d workers failed", base, bad);
	tap_check(bad == 0, "maps: shared and private mappings faulted while the file is cut, "
		  "rewritten and remapped, 4 workers", "on %s", base);
	remove_tree(dir);
}

static void scenario_maps(uint64_t seed)
{
	maps_on("/tmp", seed);
	maps_on(ext2_scratch(), seed + 50);
}

/* ---- dirs: directories removed while others work in them ------------ */

/*
 * Some workers make and remove directories of a small shared tree (two
 * levels, d0..d3 and dI/d0..d3; rmdir of a non-empty one too, which is
 * ENOTEMPTY, and renames of directories, into their own subtree too,
 * which is EINVAL), while the others use the same directories: chdir
 * into them and make names there by relative path, keep them open and
 * make names through the old descriptors with the *at() calls, list them
 * with getdents64, ask getcwd, link and rename files between them.  A
 * directory removed under a user is dead: whatever is made there must
 * fail with ENOENT (Linux's rule), and a listing must never show freed
 * memory (d_ino 0x6b6b6b6b6b6b6b6b, slab poison).  Each call may fail
 * only with the errnos Linux gives for such a race.  Afterwards every
 * directory's link count must be 2 plus its subdirectories, every file's
 * the number of its names, and every entry must stat().
 */
#define DIRS_FANOUT	4	/* d0..d3 at each of the two levels */
#define DIRS_OPS	2000	/* calls per worker */
#define DIRS_FDS	4	/* descriptors a user keeps open */

/* The errnos a call may give in this scenario, as bits. */
#define E_NOENT		(1u << 0)
#define E_NOTEMPTY	(1u << 1)
#define E_EXIST		(1u << 2)
#define E_NOTDIR	(1u << 3)
#define E_ISDIR		(1u << 4)
#define E_INVAL		(1u << 5)

static unsigned int errno_bit(int e)
{
	switch (e) {
	case ENOENT: return E_NOENT;
	case ENOTEMPTY: return E_NOTEMPTY;
	case EEXIST: return E_EXIST;
	case ENOTDIR: return E_NOTDIR;
	case EISDIR: return E_ISDIR;
	case EINVAL: return E_INVAL;
	default: return 0;
	}
}

/* A call returned ret (errno when -1): it must have worked or failed
 * with one of the errnos in allowed.  Returns whether it worked. */
static bool dirs_check(const struct worker *w, long ret, unsigned int allowed, const char *what,
		       const char *path)
{
	int e = errno;

	if (ret >= 0)
		return true;
	if (!(errno_bit(e) & allowed))
		worker_fail(w, "%s %s: %s, which Linux does not give here", what, path, strerror(e));
	return false;
}

/* A random directory of the tree, relative ("d1" or "d1/d3"). */
static void dirs_pick(struct worker *w, char *buf, size_t size)
{
	if (below(&w->rng, 3) == 0)
		snprintf(buf, size, "d%u", below(&w->rng, DIRS_FANOUT));
	else
		snprintf(buf, size, "d%u/d%u", below(&w->rng, DIRS_FANOUT),
			 below(&w->rng, DIRS_FANOUT));
}


/* List fd with getdents64 to its end: ENOENT allowed (a dead directory),
 * a poisoned d_ino never. */
static void dirs_list(const struct worker *w, int fd, const char *path)
{
	char buf[1024];
	long n;

	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			if (d->d_ino == SLAB_POISON_64)
				worker_fail(w, "getdents64 of %s: entry %s has d_ino 0x6b6b6b6b6b6b6b6b "
					    "(freed memory)", path, d->d_name);
			if (d->d_reclen == 0)
				worker_fail(w, "getdents64 of %s: a record of length 0", path);
			off += d->d_reclen;
		}
	}
	dirs_check(w, n, E_NOENT, "getdents64", path);
}

/* The tree's keepers: mkdir, rmdir (also of non-empty directories),
 * unlink of the users' files, renames of directories. */
static void dirs_keeper(struct worker *w)
{
	char p[64], q[64], f[80];

	if (chdir(w->dir) != 0)
		worker_fail(w, "chdir %s: %s", w->dir, strerror(errno));
	for (int i = 0; i < DIRS_OPS; i++) {
		dirs_pick(w, p, sizeof(p));
		switch (below(&w->rng, 6)) {
		case 0:
		case 1:
			dirs_check(w, mkdir(p, 0755), E_NOENT | E_EXIST, "mkdir", p);
			break;
		case 2:
		case 3:
			dirs_check(w, rmdir(p), E_NOENT | E_NOTEMPTY, "rmdir", p);
			break;
		case 4:
			snprintf(f, sizeof(f), "%s/f%u", p, below(&w->rng, 2));
			dirs_check(w, unlink(f), E_NOENT, "unlink", f);
			break;
		default:
			dirs_pick(w, q, sizeof(q));
			/* Into its own subtree: EINVAL; over a non-empty
			 * directory: ENOTEMPTY or EEXIST. */
			dirs_check(w, rename(p, q), E_NOENT | E_NOTEMPTY | E_EXIST | E_INVAL,
				   "rename", p);
			break;
		}
		if (below(&w->rng, 8) == 0)
			sched_yield();
	}
}

/* The tree's users: they work inside directories that may vanish. */
static void dirs_user(struct worker *w)
{
	int fds[DIRS_FDS];
	char p[64], q[64], f[80], g[80], cwd[256];

	for (int i = 0; i < DIRS_FDS; i++)
		fds[i] = -1;
	for (int i = 0; i < DIRS_OPS; i++) {
		int slot = below(&w->rng, DIRS_FDS), fd = fds[slot];
		char name[8];
		long ret;

		if (chdir(w->dir) != 0)
			worker_fail(w, "chdir %s: %s", w->dir, strerror(errno));
		dirs_pick(w, p, sizeof(p));
		snprintf(name, sizeof(name), "f%u", below(&w->rng, 2));
		switch (below(&w->rng, 9)) {
		case 0:		/* in it as the working directory */
			if (!dirs_check(w, chdir(p), E_NOENT, "chdir", p))
				break;
			if (below(&w->rng, 2))
				sched_yield();
			ret = open(name, O_CREAT | O_WRONLY, 0644);
			if (dirs_check(w, ret, E_NOENT, "open(O_CREAT) in cwd", p))
				close(ret);
			dirs_check(w, mkdir("x", 0755), E_NOENT | E_EXIST, "mkdir in cwd", p);
			dirs_check(w, rmdir("x"), E_NOENT, "rmdir in cwd", p);
			dirs_check(w, getcwd(cwd, sizeof(cwd)) ? 0 : -1, E_NOENT, "getcwd in", p);
			ret = open(".", O_RDONLY | O_DIRECTORY);
			if (dirs_check(w, ret, 0, "open . in", p)) {
				dirs_list(w, ret, p);
				close(ret);
			}
			break;
		case 1:		/* keep it open */
			if (fd >= 0)
				close(fd);
			ret = open(p, O_RDONLY | O_DIRECTORY);
			fds[slot] = dirs_check(w, ret, E_NOENT, "open", p) ? ret : -1;
			break;
		case 2:		/* files through an old descriptor */
			if (fd < 0)
				break;
			ret = openat(fd, name, O_CREAT | O_WRONLY, 0644);
			if (dirs_check(w, ret, E_NOENT, "openat(O_CREAT) via dirfd", name))
				close(ret);
			dirs_check(w, mknodat(fd, "n", S_IFIFO | 0644, 0), E_NOENT | E_EXIST,
				   "mknodat via dirfd", "n");
			dirs_check(w, unlinkat(fd, "n", 0), E_NOENT, "unlinkat via dirfd", "n");
			break;
		case 3:		/* a directory and a symlink through it */
			if (fd < 0)
				break;
			dirs_check(w, mkdirat(fd, "x", 0755), E_NOENT | E_EXIST, "mkdirat via dirfd", "x");
			dirs_check(w, unlinkat(fd, "x", AT_REMOVEDIR), E_NOENT,
				   "rmdir via dirfd", "x");
			dirs_check(w, symlinkat("target", fd, "s"), E_NOENT | E_EXIST,
				   "symlinkat via dirfd", "s");
			dirs_check(w, unlinkat(fd, "s", 0), E_NOENT, "unlinkat via dirfd", "s");
			break;
		case 4:
			if (fd >= 0)
				dirs_list(w, fd, "a kept descriptor");
			break;
		case 5:		/* chdir into a kept descriptor's directory */
			if (fd < 0 || !dirs_check(w, fchdir(fd), 0, "fchdir", "a kept descriptor"))
				break;
			dirs_check(w, getcwd(cwd, sizeof(cwd)) ? 0 : -1, E_NOENT, "getcwd after fchdir",
				   "");
			ret = open(name, O_CREAT | O_WRONLY, 0644);
			if (dirs_check(w, ret, E_NOENT, "open(O_CREAT) after fchdir", name))
				close(ret);
			break;
		case 6:		/* a hard link between two directories */
			dirs_pick(w, q, sizeof(q));
			snprintf(f, sizeof(f), "%s/%s", p, name);
			snprintf(g, sizeof(g), "%s/f%u", q, below(&w->rng, 2));
			dirs_check(w, link(f, g), E_NOENT | E_EXIST, "link", g);
			break;
		case 7:		/* a file moved between two directories */
			dirs_pick(w, q, sizeof(q));
			snprintf(f, sizeof(f), "%s/%s", p, name);
			snprintf(g, sizeof(g), "%s/f%u", q, below(&w->rng, 2));
			dirs_check(w, rename(f, g), E_NOENT, "rename", g);
			break;
		default:	/* a file through an old descriptor into another */
			if (fd < 0 || fds[(slot + 1) % DIRS_FDS] < 0)
				break;
			ret = renameat(fd, name, fds[(slot + 1) % DIRS_FDS], "f1");
			dirs_check(w, ret, E_NOENT, "renameat between dirfds", name);
			break;
		}
	}
	for (int i = 0; i < DIRS_FDS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static void dirs_worker(struct worker *w)
{
	if (w->id % 2 == 0)
		dirs_keeper(w);
	else
		dirs_user(w);
}

/* What the walk of the tree found wrong, and each file's names. */
struct dirs_walk {
	int problems;
	int files;
	struct { ino_t ino; nlink_t nlink; int names; } file[512];
};

/* Walk dir: each directory's links against its subdirectories, each
 * file's names counted by inode. */
static void dirs_walk(const char *dir, struct dirs_walk *wk)
{
	DIR *d;
	struct dirent *de;
	struct stat st;
	nlink_t subdirs = 0;
	char path[512];

	if (strlen(dir) > 300) {
		/* Deeper than the workers can make it in DIRS_OPS calls. */
		tap_note("dirs: %s: a directory loop", dir);
		wk->problems++;
		return;
	}
	d = opendir(dir);
	if (!d) {
		tap_note("dirs: opendir %s: %s", dir, strerror(errno));
		wk->problems++;
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) != 0) {
			tap_note("dirs: %s is listed but does not stat: %s", path, strerror(errno));
			wk->problems++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			subdirs++;
			dirs_walk(path, wk);
			continue;
		}
		int i;

		for (i = 0; i < wk->files && wk->file[i].ino != st.st_ino; i++)
			;
		if (i == wk->files && wk->files < (int)(sizeof(wk->file) / sizeof(wk->file[0]))) {
			wk->file[i].ino = st.st_ino;
			wk->file[i].nlink = st.st_nlink;
			wk->file[i].names = 0;
			wk->files++;
		}
		if (i < wk->files)
			wk->file[i].names++;
	}
	closedir(d);
	if (stat(dir, &st) != 0 || st.st_nlink != 2 + subdirs) {
		tap_note("dirs: %s has %lu links, with %lu subdirectories", dir,
			 (unsigned long)st.st_nlink, (unsigned long)subdirs);
		wk->problems++;
	}
}

static void dirs_on(uint64_t seed, const char *base, const char *fs)
{
	char dir[256], what[128];
	static struct dirs_walk wk;
	int bad;

	snprintf(dir, sizeof(dir), "%s", scenario_dir(base, "dirs"));
	bad = run_workers("dirs", 4, seed, dir, dirs_worker);
	snprintf(what, sizeof(what), "dirs on %s: 2 keepers and 2 users of a shared tree, "
		 "only Linux's errnos, no freed memory listed", fs);
	tap_check(bad == 0, what, "%d workers failed", bad);
	memset(&wk, 0, sizeof(wk));
	dirs_walk(dir, &wk);
	for (int i = 0; i < wk.files; i++) {
		if (wk.file[i].nlink != (nlink_t)wk.file[i].names) {
			tap_note("dirs: inode %lu has %lu links and %d names",
				 (unsigned long)wk.file[i].ino, (unsigned long)wk.file[i].nlink,
				 wk.file[i].names);
			wk.problems++;
		}
	}
	snprintf(what, sizeof(what), "dirs on %s: afterwards every link count is right and "
		 "every entry stats", fs);
	tap_check(wk.problems == 0, what, "%d problems (above)", wk.problems);
	remove_tree(dir);
}

static void scenario_dirs(uint64_t seed)
{
	dirs_on(seed, "/tmp", "tmpfs");
	dirs_on(seed + 1, ext2_scratch(), "ext2");
}

/* ---- names: one directory changed by every worker at once -------------- */

/*
 * Every name-changing call that sleeps on the disk between finding a name
 * and changing it can act on a name that changed meanwhile: two creates
 * of one name both succeed, an unlink drops the link of the file renamed
 * over its name, a rmdir removes a directory a create just put a name in.
 * The workers share NAMES_N names in one directory of ext2_scratch() and
 * make, link, symlink, rename (over files and directories too), unlink,
 * mkdir, rmdir and append to them at random, so the calls collide.  A
 * fifth worker churns the kernel's buffer cache (a sparse file whose every
 * byte needs an indirect block of its own, more blocks than the cache
 * keeps), so the directory's blocks, the bitmaps and the inode table keep
 * leaving the cache and the name calls sleep reading them back.  Each
 * call may fail only with an errno Linux gives for the state the names
 * could be in; afterwards the directory must list each name once, every
 * entry must stat, each file's link count must be the number of its
 * names, the directory's 2 + its subdirectories, and each appended file
 * must hold whole records.
 */
#define NAMES_N		6
#define NAMES_WORKERS	5		/* four on the names, one churning */
#define NAMES_OPS	600
#define NAMES_CHURN	3000		/* indirect blocks: several times the 512 buffers */
#define RECORD		"0123456789abcdef"
#define RECORD_LEN	16

static void name_path(const struct worker *w, unsigned int n, char *buf, size_t size)
{
	snprintf(buf, size, "%s/n%u", w->dir, n);
}

static bool errno_in(int err, const int *allowed)
{
	for (; *allowed; allowed++)
		if (err == *allowed)
			return true;
	return false;
}

/*
 * Keep the buffer cache full of dirty buffers: bytes 256 KiB apart in a
 * file's double- and triple-indirect range, each in a block mapped by a
 * new indirect block; on a small filesystem (the RAM-disk root, where
 * nothing sleeps anyway) no more than an eighth of its free space.  The
 * file goes at the end.
 */
static void churn_worker(struct worker *w)
{
	struct statvfs sv;
	long long n = NAMES_CHURN, room;
	char path[256];
	int fd;

	if (statvfs(w->dir, &sv))
		worker_fail(w, "statvfs %s: %s", w->dir, strerror(errno));
	room = (long long)(sv.f_bavail * sv.f_frsize / 1024 / 16);
	if (room < n)
		n = room;
	snprintf(path, sizeof(path), "%s/churn", w->dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		worker_fail(w, "create %s: %s", path, strerror(errno));
	for (long long i = 0; i < n; i++) {
		off_t off = (off_t)(300 + 256 * i) * 1024;

		if (pwrite(fd, "x", 1, off) != 1)
			worker_fail(w, "pwrite %s at %lld: %s", path, (long long)off, strerror(errno));
	}
	close(fd);
	if (unlink(path))
		worker_fail(w, "unlink %s: %s", path, strerror(errno));
}

/* Workers 0..3 change the names; the last churns the cache. */
static void names_worker(struct worker *w)
{
	/* What Linux may answer, by call, whatever the names hold now. */
	static const int open_errs[] = { ENOENT, EISDIR, ELOOP, ENOTDIR, 0 };
	static const int link_errs[] = { ENOENT, EEXIST, EPERM, 0 };
	static const int make_errs[] = { EEXIST, 0 };
	static const int rename_errs[] = { ENOENT, EISDIR, ENOTDIR, ENOTEMPTY, EEXIST, 0 };
	static const int unlink_errs[] = { ENOENT, EISDIR, 0 };
	static const int rmdir_errs[] = { ENOENT, ENOTDIR, ENOTEMPTY, 0 };
	char a[256], b[256], inner[300], target[16];

	if (w->id == NAMES_WORKERS - 1) {
		churn_worker(w);
		return;
	}
	for (int i = 0; i < NAMES_OPS; i++) {
		unsigned int op = below(&w->rng, 9);
		const char *call = "?";
		const int *allowed = NULL;
		int ret = 0, fd;

		name_path(w, below(&w->rng, NAMES_N), a, sizeof(a));
		name_path(w, below(&w->rng, NAMES_N), b, sizeof(b));
		switch (op) {
		case 0:		/* create or append a record */
		case 1:
			call = op ? "append" : "create";
			allowed = open_errs;
			fd = open(a, O_WRONLY | O_APPEND | (op ? 0 : O_CREAT), 0644);
			if (fd < 0) {
				ret = -1;
				break;
			}
			if (write(fd, RECORD, RECORD_LEN) != RECORD_LEN)
				worker_fail(w, "append to %s: %s", a, strerror(errno));
			close(fd);
			break;
		case 2:
			call = "link";
			allowed = link_errs;
			ret = link(a, b);
			break;
		case 3:
			call = "symlink";
			allowed = make_errs;
			snprintf(target, sizeof(target), "n%u", below(&w->rng, NAMES_N));
			ret = symlink(target, b);
			break;
		case 4:
		case 5:
			call = "rename";
			allowed = rename_errs;
			ret = rename(a, b);
			break;
		case 6:
			call = "unlink";
			allowed = unlink_errs;
			ret = unlink(a);
			break;
		case 7:
			call = "mkdir";
			allowed = make_errs;
			ret = mkdir(a, 0755);
			break;
		default:	/* rmdir, or fill a directory so rmdir and rename meet ENOTEMPTY */
			if (below(&w->rng, 2)) {
				call = "rmdir";
				allowed = rmdir_errs;
				ret = rmdir(a);
			} else {
				call = "create inside";
				allowed = open_errs;
				snprintf(inner, sizeof(inner), "%s/f", a);
				fd = open(inner, O_WRONLY | O_CREAT, 0644);
				ret = fd < 0 ? -1 : close(fd);
			}
			break;
		}
		if (ret < 0 && !errno_in(errno, allowed))
			worker_fail(w, "%s %s %s: %s, which Linux does not give here", call, a, b,
				    strerror(errno));
	}
}

/* One directory entry seen by the judge. */
struct seen {
	char name[16];
	struct stat st;
};

/* Judge dir after the workers: each line of trouble is a note; the count. */
static int names_judge(const char *dir, int *nentries)
{
	struct seen seen[64];
	int n = 0, bad = 0, subdirs = 0;
	char path[512];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		tap_bail("opendir %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (int i = 0; i < n; i++) {
			if (!strcmp(seen[i].name, de->d_name)) {
				tap_note("names: %s listed twice", de->d_name);
				bad++;
			}
		}
		if (n == 64 || strlen(de->d_name) >= sizeof(seen[0].name)) {
			tap_note("names: unexpected entry %s", de->d_name);
			bad++;
			continue;
		}
		snprintf(seen[n].name, sizeof(seen[n].name), "%s", de->d_name);
		snprintf(path, sizeof(path), "%.255s/%.15s", dir, de->d_name);
		if (lstat(path, &seen[n].st)) {
			tap_note("names: %s listed but lstat: %s", de->d_name, strerror(errno));
			bad++;
			continue;
		}
		n++;
	}
	closedir(d);
	*nentries = n;
	for (int i = 0; i < n; i++) {
		struct stat *s = &seen[i].st;
		unsigned long names = 0;

		snprintf(path, sizeof(path), "%.255s/%.15s", dir, seen[i].name);
		if (S_ISDIR(s->st_mode)) {
			subdirs++;
			/* Only files are made inside: two links. */
			if (s->st_nlink != 2) {
				tap_note("names: directory %s has %lu links, not 2", seen[i].name,
					 (unsigned long)s->st_nlink);
				bad++;
			}
			continue;
		}
		for (int j = 0; j < n; j++)
			names += seen[j].st.st_ino == s->st_ino;
		if (s->st_nlink != names) {
			tap_note("names: %s (inode %lu) has %lu links but %lu names", seen[i].name,
				 (unsigned long)s->st_ino, (unsigned long)s->st_nlink, names);
			bad++;
		}
		if (S_ISREG(s->st_mode)) {
			char buf[4096];
			ssize_t got = read_file(path, buf, sizeof(buf));

			if (got < 0 || got % RECORD_LEN ||
			    (got > 0 && s->st_size != got && s->st_size < (off_t)sizeof(buf) - 1)) {
				tap_note("names: %s holds %zd bytes (size %lld), not whole records",
					 seen[i].name, got, (long long)s->st_size);
				bad++;
			}
			for (ssize_t k = 0; k + RECORD_LEN <= got; k += RECORD_LEN) {
				if (memcmp(buf + k, RECORD, RECORD_LEN)) {
					tap_note("names: %s: record at %zd is not ours", seen[i].name, k);
					bad++;
					break;
				}
			}
		}
	}
	if (stat(dir, &st) || st.st_nlink != (nlink_t)(2 + subdirs)) {
		tap_note("names: the directory has %lu links, with %d subdirectories",
			 (unsigned long)st.st_nlink, subdirs);
		bad++;
	}
	return bad;
}

static void scenario_names(uint64_t seed)
{
	const char *dir = scenario_dir(ext2_scratch(), "names");
	char path[256];
	int bad, judged, entries;

	snprintf(path, sizeof(path), "%s", dir);
	tap_note("names: in %s", path);
	bad = run_workers("names", NAMES_WORKERS, seed, path, names_worker);
	tap_check(bad == 0, "names: create, link, symlink, rename, unlink, mkdir, rmdir and "
		  "appends on 6 names in one directory, 4 workers and a cache churner",
		  "%d workers failed", bad);
	judged = names_judge(path, &entries);
	tap_check(judged == 0, "names: each name listed once, every entry stats, link counts "
		  "match the names and subdirectories, appends whole",
		  "%d problems among %d entries", judged, entries);
	remove_tree(path);
}

/* ---- the table --------------------------------------------------------- */

static const struct scenario {
	const char *name;
	void (*run)(uint64_t seed);
} scenarios[] = {
	{ "forks", scenario_forks },
	{ "maps", scenario_maps },
	{ "dirs", scenario_dirs },
	{ "names", scenario_names },
};
#define NR_SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

/* The machine still works: a fork, an exec and a file write. */
static void check_alive(void)
{
	int status;
	pid_t pid = test_fork();

	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "afterwards fork and exec of /bin/true work", "status 0x%x", status);

	char path[] = "/tmp/race_alive.XXXXXX";
	int fd = mkstemp(path);

	tap_check(fd >= 0 && write(fd, "alive", 5) == 5,
		  "afterwards a file can be written on /tmp", "%s", strerror(errno));
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = DEFAULT_SEED;
	long rounds = 1;
	int first = 1;

	if (argc > first && argv[first][0] >= '0' && argv[first][0] <= '9')
		seed = strtoull(argv[first++], NULL, 0);
	if (argc > first && argv[first][0] >= '0' && argv[first][0] <= '9')
		rounds = strtol(argv[first++], NULL, 0);
	tap_note("race_fuzz seed 0x%llx, %ld round(s), on %s", (unsigned long long)seed, rounds,
		 on_pageturn() ? "Pageturn" : "the build machine");

	for (int a = first; a < argc; a++) {
		bool known = false;

		for (size_t i = 0; i < NR_SCENARIOS; i++)
			known |= !strcmp(argv[a], scenarios[i].name);
		if (!known)
			tap_bail("no scenario named %s", argv[a]);
	}
	for (size_t i = 0; i < NR_SCENARIOS; i++) {
		bool chosen = argc == first;

		for (int a = first; a < argc; a++)
			chosen |= !strcmp(argv[a], scenarios[i].name);
		if (!chosen)
			continue;
		for (long r = 0; r < rounds; r++)
			scenarios[i].run(seed + (uint64_t)r * 1000 + i * 100);
	}
	check_alive();
	return tap_done();
}
