/*
 * hog-mlock: a locked set that pressure must not move.
 *
 * The hog maps --lock of anonymous memory, mlock()s it (which faults
 * every page in), writes it, then writes and checks --pressure of other
 * anonymous memory, and last checks the locked set.  Locked pages live
 * on the unevictable list (Linux 2.6.28's design): reclaim must never
 * take them, so the final check makes no major fault (locked_majflt=0)
 * however much the pressure pushed to swap, and the data is intact.
 * (The program's own code, stack and data are not locked: locked_majflt
 * counts only the faults made while a locked page was being checked.)
 * Mlocked after the pressure (mlocked_after_kb) must still cover the set.
 *
 * The facts around it, read where the kernel shows them: Mlocked and
 * Unevictable of /proc/meminfo after the mlock less before it
 * (mlocked_kb, unevictable_kb: other processes' locks may move them
 * too), and VmLck of /proc/self/status (vmlck_kb, -1 where the kernel
 * has no such line, as Pageturn).  RLIMIT_MEMLOCK is raised to the lock
 * size first where the process may (root); if mlock fails the run does.
 *
 * Results: lock_ms (mlock), fill_ms, mlocked_kb, unevictable_kb,
 * vmlck_kb, pressure_fill_ms, pressure_check_ms, pressure_majflt,
 * locked_check_ms, locked_majflt, mlocked_after_kb, total_ms.
 */
#include "hog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

static const char usage[] =
	"hog-mlock [options]\n"
	"mlock --lock of anonymous memory and write it, then write and check --pressure of\n"
	"other anonymous memory, then check the locked set: it must not have moved.";

static long lock, pressure;

static const struct hog_opt opts[] = {
	{ "lock", OPT_SIZE, &lock, "25%", "anonymous memory locked with mlock" },
	{ "pressure", OPT_SIZE, &pressure, "100%", "anonymous memory written and checked beside it" },
	HOG_OPT_END
};

/* VmLck of /proc/self/status in KiB, or -1 where there is no such line. */
static long vmlck_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmLck:", 6))
			kb = strtol(line + 6, NULL, 10);
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	long mlocked0, unevictable0, faults;
	struct hog_progress progress;
	struct rlimit rl;
	double start, t0;
	char *locked, *other;

	hog_parse(argc, argv, "mlock", usage, opts);
	hog_report("lock_mib", "%ld", lock * PAGE_SIZE >> 20);
	hog_report("pressure_mib", "%ld", pressure * PAGE_SIZE >> 20);
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)(lock * PAGE_SIZE)) {
		rl.rlim_cur = rl.rlim_max = lock * PAGE_SIZE;
		setrlimit(RLIMIT_MEMLOCK, &rl);	/* may fail: then mlock says so */
	}
	mlocked0 = hog_meminfo_kb("Mlocked");
	unevictable0 = hog_meminfo_kb("Unevictable");
	locked = hog_map_anon(lock);

	start = t0 = hog_now_ms();
	if (mlock(locked, lock * PAGE_SIZE) < 0)
		hog_fail("mlock");
	hog_report("lock_ms", "%.0f", hog_now_ms() - t0);
	hog_report("fill_ms", "%.0f", hog_fill_set(locked, lock, hog_stream(TAG_LOCKED, 0), "locked fill"));
	hog_report("mlocked_kb", "%ld", hog_meminfo_kb("Mlocked") - mlocked0);
	hog_report("unevictable_kb", "%ld", hog_meminfo_kb("Unevictable") - unevictable0);
	hog_report("vmlck_kb", "%ld", vmlck_kb());
	if (hog.corrupt_page >= 0 && hog.corrupt_page < lock)
		hog_corrupt_mem(locked + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);

	other = hog_map_anon(pressure);
	faults = hog_majflt();
	hog_report("pressure_fill_ms", "%.0f",
		   hog_fill_set(other, pressure, hog_stream(TAG_PRESSURE, 0), "pressure fill"));
	hog_report("pressure_check_ms", "%.0f",
		   hog_check_set(other, pressure, hog_stream(TAG_PRESSURE, 0), "pressure",
				 "pressure check"));
	hog_report("pressure_majflt", "%ld", hog_majflt() - faults);

	/*
	 * Each locked page is checked between two getrusage() calls, and a
	 * major fault in between is that page's: the check's own code and
	 * stack are in use all along, while the program's other pages (not
	 * locked, so pressure may have pushed them out, and kswapd may still
	 * be at work) fault back in outside the brackets and are not counted.
	 */
	faults = 0;
	t0 = hog_now_ms();
	hog_progress_start(&progress, "locked check", lock);
	for (long i = 0; i < lock; i++) {
		long before = hog_majflt();

		hog_check(locked + i * PAGE_SIZE, hog_stream(TAG_LOCKED, 0), i, "locked");
		faults += hog_majflt() != before;
		hog_progress(&progress, i + 1);
	}
	hog_report("locked_check_ms", "%.0f", hog_now_ms() - t0);
	hog_report("locked_majflt", "%ld", faults);
	hog_report("mlocked_after_kb", "%ld", hog_meminfo_kb("Mlocked") - mlocked0);
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
