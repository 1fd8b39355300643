/*
 * hog-tmpfs: a file in tmpfs pushed to swap by anonymous memory.
 *
 * tmpfs pages are page cache with no disk behind them: swap-backed, on
 * the anonymous LRU lists, written to swap by reclaim like anonymous
 * memory, found again through the file's own swap entries.  The hog
 * writes a file of --size in --dir (tmpfs: /tmp on Pageturn and on most
 * Linux systems) with pwrite(), then writes and checks --pressure of
 * anonymous memory, then reads the file back --passes times with pread(),
 * checking every page, and removes it.  The file counts against the
 * tmpfs's own size limit (half of RAM by default, Linux's and
 * Pageturn's), so a bigger --size needs a tmpfs mounted with size=.
 *
 * The file is DIR/hog-tmpfs.PID, removed at exit however the run ends
 * (but not if the process is killed).
 *
 * Results: size_mib, write_ms, pressure_fill_ms, pressure_check_ms,
 * read1_ms ... readN_ms, total_ms.
 */
#include "hog.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const char usage[] =
	"hog-tmpfs [options]\n"
	"Write a file of --size in --dir (a tmpfs), write and check --pressure of anonymous\n"
	"memory, then read the file back --passes times, checking every page.";

static long size, pressure, passes;
static const char *dir;
static char path[4096];

static const struct hog_opt opts[] = {
	{ "dir", OPT_STR, &dir, "/tmp", "where the file goes (a tmpfs)" },
	{ "size", OPT_SIZE, &size, "40%", "the file's size" },
	{ "pressure", OPT_SIZE, &pressure, "100%", "anonymous memory written and checked between" },
	{ "passes", OPT_LONG, &passes, "1", "reads of the file" },
	HOG_OPT_END
};

static void remove_file(void)
{
	unlink(path);
}

int main(int argc, char **argv)
{
	double start, t0;
	char *mem, key[32];
	int fd;

	hog_parse(argc, argv, "tmpfs", usage, opts);
	if (passes < 1)
		hog_usage_error("--passes %ld: must be 1 or more", passes);
	hog_report("size_mib", "%ld", size * PAGE_SIZE >> 20);
	hog_report("pressure_mib", "%ld", pressure * PAGE_SIZE >> 20);
	snprintf(path, sizeof(path), "%s/hog-tmpfs.%d", dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		hog_fail("open_file");
	atexit(remove_file);

	start = t0 = hog_now_ms();
	hog_file_write(fd, size, hog_stream(TAG_TMPFS, 0), "write");
	hog_report("write_ms", "%.0f", hog_now_ms() - t0);
	if (hog.corrupt_page >= 0 && hog.corrupt_page < size)
		hog_corrupt_file(path, hog.corrupt_page);

	mem = hog_map_anon(pressure);
	hog_report("pressure_fill_ms", "%.0f",
		   hog_fill_set(mem, pressure, hog_stream(TAG_PRESSURE, 0), "pressure fill"));
	hog_sync();
	hog_report("pressure_check_ms", "%.0f",
		   hog_check_set(mem, pressure, hog_stream(TAG_PRESSURE, 0), "pressure",
				 "pressure check"));
	munmap(mem, pressure * PAGE_SIZE);

	for (long pass = 1; pass <= passes; pass++) {
		struct hog_progress progress;

		t0 = hog_now_ms();
		hog_progress_start(&progress, "read", size);
		hog_file_read_check(fd, 0, size, hog_stream(TAG_TMPFS, 0), "tmpfs", &progress);
		snprintf(key, sizeof(key), "read%ld_ms", pass);
		hog_report(key, "%.0f", hog_now_ms() - t0);
	}
	close(fd);
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
