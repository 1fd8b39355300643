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
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
__attribute__((unused)) static const char *scenario_dir(const char *base, const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/race_%s.XXXXXX", strcmp(base, "/") ? base : "", name);
	if (!mkdtemp(path))
		tap_bail("mkdtemp %s: %s", path, strerror(errno));
	return path;
}

/* Remove dir and everything under it (what the workers left). */
__attribute__((unused)) static void remove_tree(const char *dir)
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
	tap_check(after == before, "forks: no process left behind",
		  "%d processes before, %d after", before, after);
}

/* ---- the table --------------------------------------------------------- */

static const struct scenario {
	const char *name;
	void (*run)(uint64_t seed);
} scenarios[] = {
	{ "forks", scenario_forks },
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
