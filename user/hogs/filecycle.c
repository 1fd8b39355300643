/*
 * hog-filecycle: a file read again and again while anonymous memory
 * comes and goes.
 *
 * The working set of a program that rereads its data files (an index, a
 * set of headers) beside one that allocates and frees big buffers.  The
 * hog makes (or finds) --file, --file-size long, then --passes times:
 * reads the whole file with pread(), checking every page, then maps
 * --anon of anonymous memory, writes it, checks it and unmaps it.  The
 * first read comes from the disk; whether the later ones do depends on
 * what reclaim took while the anonymous memory was mapped: the page
 * cache that is used every pass, or the anonymous memory (which, freed
 * at munmap, needs nothing written if it went to swap only when it had
 * to).
 *
 * Results: file_made, file_first_ms, file_last_ms, file_median_ms
 * (passes 2..N), anon_median_ms (one map, write, check and unmap),
 * total_ms.
 */
#include "hog.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const char usage[] =
	"hog-filecycle --file PATH [options]\n"
	"A file (--file, made if missing) read whole --passes times; between two reads\n"
	"--anon of anonymous memory is mapped, written, checked and unmapped.";

static long file_size, anon, passes, file_corrupt = -1;
static const char *file;

static const struct hog_opt opts[] = {
	{ "file", OPT_STR, &file, NULL, "the file to reread (required; made if missing)" },
	{ "file-size", OPT_SIZE, &file_size, "50%", "the file's size" },
	{ "anon", OPT_SIZE, &anon, "75%", "anonymous memory mapped, used and unmapped each pass" },
	{ "passes", OPT_LONG, &passes, "5", "reads of the file" },
	{ "corrupt-file-page", OPT_LONG, &file_corrupt, NULL,
	  "debug: flip a byte of the file's page N before the first read" },
	HOG_FILE_SEED_OPT,
	HOG_OPT_END
};

int main(int argc, char **argv)
{
	double start, t0, *file_ms, *anon_ms;
	int fd;

	hog_parse(argc, argv, "filecycle", usage, opts);
	if (!file)
		hog_usage_error("--file PATH is required");
	if (passes < 1)
		hog_usage_error("--passes %ld: must be 1 or more", passes);
	hog_report("file_mib", "%ld", file_size * PAGE_SIZE >> 20);
	hog_report("anon_mib", "%ld", anon * PAGE_SIZE >> 20);
	file_ms = calloc(passes, sizeof(*file_ms));
	anon_ms = calloc(passes, sizeof(*anon_ms));
	if (!file_ms || !anon_ms)
		hog_fail("calloc");
	hog_file_prepare(file, file_size);
	if (file_corrupt >= 0 && file_corrupt < file_size)
		hog_corrupt_file(file, file_corrupt);
	fd = open(file, O_RDONLY);
	if (fd < 0)
		hog_fail("open_file");

	start = hog_now_ms();
	for (long pass = 0; pass < passes; pass++) {
		struct hog_progress progress;
		char *mem;

		t0 = hog_now_ms();
		hog_progress_start(&progress, "file read", file_size);
		hog_file_read_check(fd, 0, file_size, hog_file_stream(), "file", &progress);
		file_ms[pass] = hog_now_ms() - t0;

		t0 = hog_now_ms();
		mem = hog_map_anon(anon);
		hog_fill_set(mem, anon, hog_stream(TAG_CYCLE, pass), "anon write");
		if (pass == 0 && hog.corrupt_page >= 0 && hog.corrupt_page < anon)
			hog_corrupt_mem(mem + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);
		if (pass == 0)
			t0 += hog_sync();
		hog_check_set(mem, anon, hog_stream(TAG_CYCLE, pass), "anon", "anon check");
		if (munmap(mem, anon * PAGE_SIZE) < 0)
			hog_fail("munmap");
		anon_ms[pass] = hog_now_ms() - t0;
	}
	close(fd);
	hog_report("file_first_ms", "%.0f", file_ms[0]);
	hog_report("file_last_ms", "%.0f", file_ms[passes - 1]);
	hog_report("file_median_ms", "%.0f", passes > 1 ? hog_median(file_ms + 1, passes - 1) : 0);
	hog_report("anon_median_ms", "%.0f", hog_median(anon_ms, passes));
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
