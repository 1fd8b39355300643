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

#include <errno.h>
#include <fcntl.h>
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
static volatile sig_atomic_t bus_errors;

static void on_sigbus(int sig)
{
	(void)sig;
	bus_errors++;
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

/* ---- the table --------------------------------------------------------- */

static const struct scenario {
	const char *name;
	void (*run)(uint64_t seed);
} scenarios[] = {
	{ "forks", scenario_forks },
	{ "maps", scenario_maps },
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
