/*
 * hog-seq: a sequential anonymous hog larger than RAM.
 *
 * It maps --size of private anonymous memory, writes every page in
 * order, then makes --passes passes over it in order, checking every
 * page.  Bigger than RAM (the default is 150% of MemTotal) the write
 * pushes the first pages to swap before the last are written, and every
 * pass faults them back while pushing out the ones it will want next:
 * the worst case for an LRU, which is the point (each page's way out and
 * back in is checked).
 *
 * With --rewrite each pass also writes every page it checked with the
 * next generation's pattern, so a page swapped in clean is dirtied again
 * and must go back to swap rather than being dropped: a kernel that
 * forgets the dirty bit hands the next pass the old generation.
 *
 * Results: write_ms, pass1_ms ... passN_ms, total_ms.
 */
#include "hog.h"

#include <stdio.h>

static const char usage[] =
	"hog-seq [options]\n"
	"Sequential anonymous hog: write --size of private anonymous memory in order, then\n"
	"check it in order --passes times (with --rewrite, rewriting each page with a new\n"
	"generation after checking it).  Bigger than RAM, it runs through swap.";

static long size, passes;
static int rewrite;

static const struct hog_opt opts[] = {
	{ "size", OPT_SIZE, &size, "150%", "anonymous memory to write" },
	{ "passes", OPT_LONG, &passes, "2", "checking passes after the write" },
	{ "rewrite", OPT_FLAG, &rewrite, NULL, "rewrite every page after checking it" },
	HOG_OPT_END
};

int main(int argc, char **argv)
{
	struct hog_progress progress;
	char *mem, key[32];
	double t0, start;
	uint64_t gen = 0;

	hog_parse(argc, argv, "seq", usage, opts);
	if (passes < 0)
		hog_usage_error("--passes %ld: must be 0 or more", passes);
	hog_report("size_mib", "%ld", size * PAGE_SIZE >> 20);
	hog_report("pages", "%ld", size);
	mem = hog_map_anon(size);

	start = hog_now_ms();
	hog_report("write_ms", "%.0f", hog_fill_set(mem, size, hog_stream(TAG_ANON, gen), "write"));
	if (hog.corrupt_page >= 0 && hog.corrupt_page < size)
		hog_corrupt_mem(mem + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);
	hog_sync();

	for (long pass = 1; pass <= passes; pass++) {
		t0 = hog_now_ms();
		hog_progress_start(&progress, rewrite ? "check and rewrite" : "check", size);
		for (long i = 0; i < size; i++) {
			char *page = mem + i * PAGE_SIZE;

			hog_check(page, hog_stream(TAG_ANON, gen), i, "anon");
			if (rewrite)
				hog_fill(page, hog_stream(TAG_ANON, gen + 1), i);
			hog_progress(&progress, i + 1);
		}
		gen += rewrite;
		snprintf(key, sizeof(key), "pass%ld_ms", pass);
		hog_report(key, "%.0f", hog_now_ms() - t0);
	}
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
