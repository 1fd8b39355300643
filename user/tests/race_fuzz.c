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
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	tap_check(after == before, "forks: no process left behind",
		  "%d processes before, %d after", before, after);
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
