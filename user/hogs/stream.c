/*
 * hog-stream: a hot anonymous set kept in use while a file larger than
 * RAM streams through once.
 *
 * The story the split LRU tells (Rik van Riel's series, Linux 2.6.28): a
 * file read once must not push out the memory a program keeps using.
 * The hog makes (or finds) --file, --file-size long, then writes a hot
 * set of --hot anonymous pages and times one pass over it (before),
 * then reads the file from start to end with pread(), checking every
 * page, and after each --interval of it makes another pass over the hot
 * set (during), and one more pass when the file is done (after).  Each
 * pass reads and checks every hot page, so the set is referenced all
 * along.  A kernel that keeps the hot set resident makes the during and
 * after passes as fast as the before pass; one that lets the stream
 * evict it swaps the set back in each time (hot_*_majflt counts that).
 *
 * --prepare only makes the file (its pattern comes from --file-seed, so
 * a file made by one run, or on another machine, serves the next).
 *
 * Results: file_made, hot_fill_ms, hot_before_ms, stream_ms (the reads
 * alone), stream_mib_s, hot_during_passes, hot_during_ms (median),
 * hot_during_max_ms, hot_during_majflt, hot_after_ms, hot_after_majflt,
 * total_ms.
 */
#include "hog.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static const char usage[] =
	"hog-stream --file PATH [options]\n"
	"A hot anonymous set (--hot) checked before, during and after a file larger than\n"
	"RAM (--file, made if missing) is read once from start to end; the hot set's pass\n"
	"times show whether the stream pushed it out.";

static long hot, file_size, interval, file_corrupt = -1;
static const char *file;
static int prepare;

static const struct hog_opt opts[] = {
	{ "file", OPT_STR, &file, NULL, "the file to stream (required; made if missing)" },
	{ "file-size", OPT_SIZE, &file_size, "200%", "the file's size" },
	{ "hot", OPT_SIZE, &hot, "25%", "the hot anonymous set" },
	{ "interval", OPT_SIZE, &interval, NULL,
	  "file read between hot passes during the stream (default: the hot set's size)" },
	{ "prepare", OPT_FLAG, &prepare, NULL, "make the file and exit" },
	{ "corrupt-file-page", OPT_LONG, &file_corrupt, NULL,
	  "debug: flip a byte of the file's page N before the stream" },
	HOG_FILE_SEED_OPT,
	HOG_OPT_END
};

int main(int argc, char **argv)
{
	struct hog_progress progress;
	double start, t0, stream_ms = 0, *during;
	long passes = 0, faults;
	char *mem;
	int fd;

	hog_parse(argc, argv, "stream", usage, opts);
	if (!file)
		hog_usage_error("--file PATH is required");
	if (!interval)
		interval = hot;
	hog_report("file_mib", "%ld", file_size * PAGE_SIZE >> 20);
	hog_file_prepare(file, file_size);
	if (prepare)
		return hog_finish();
	if (file_corrupt >= 0 && file_corrupt < file_size)
		hog_corrupt_file(file, file_corrupt);
	hog_report("hot_mib", "%ld", hot * PAGE_SIZE >> 20);
	during = calloc(file_size / interval + 1, sizeof(*during));
	if (!during)
		hog_fail("calloc");
	fd = open(file, O_RDONLY);
	if (fd < 0)
		hog_fail("open_file");

	start = hog_now_ms();
	mem = hog_map_anon(hot);
	hog_report("hot_fill_ms", "%.0f", hog_fill_set(mem, hot, hog_stream(TAG_HOT, 0), "hot fill"));
	if (hog.corrupt_page >= 0 && hog.corrupt_page < hot)
		hog_corrupt_mem(mem + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);
	hog_report("hot_before_ms", "%.0f",
		   hog_check_set(mem, hot, hog_stream(TAG_HOT, 0), "hot", "hot pass before"));

	faults = hog_majflt();
	hog_progress_start(&progress, "stream", file_size);
	for (long first = 0; first < file_size; first += interval) {
		long n = file_size - first < interval ? file_size - first : interval;

		t0 = hog_now_ms();
		hog_file_read_check(fd, first, n, hog_file_stream(), "file", NULL);
		stream_ms += hog_now_ms() - t0;
		hog_progress(&progress, first + n);
		during[passes++] = hog_check_set(mem, hot, hog_stream(TAG_HOT, 0), "hot", "hot pass");
	}
	close(fd);
	hog_report("stream_ms", "%.0f", stream_ms);
	hog_report("stream_mib_s", "%.1f",
		   stream_ms > 0 ? (file_size * PAGE_SIZE >> 20) / (stream_ms / 1000) : 0);
	hog_report("hot_during_passes", "%ld", passes);
	hog_report("hot_during_ms", "%.0f", hog_median(during, passes));
	hog_report("hot_during_max_ms", "%.0f", during[passes - 1]);
	hog_report("hot_during_majflt", "%ld", hog_majflt() - faults);

	faults = hog_majflt();
	hog_report("hot_after_ms", "%.0f",
		   hog_check_set(mem, hot, hog_stream(TAG_HOT, 0), "hot", "hot pass after"));
	hog_report("hot_after_majflt", "%ld", hog_majflt() - faults);
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
