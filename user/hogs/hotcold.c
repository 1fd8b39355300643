/*
 * hog-hotcold: a hot anonymous set used over and over beside a cold one
 * written once.
 *
 * Both sets are private anonymous memory.  The hog writes the hot set
 * (--hot), then the cold set (--cold), whose writing pushes the older
 * hot pages towards swap when the two do not fit in RAM together; then
 * it makes --passes passes over the hot set, checking every page, and
 * last one pass over the cold set.  Reclaim that learns from the
 * references which set is which moves the cold pages out and the hot
 * pages back in during the first passes, and the later passes run from
 * RAM: hot_last_ms drops towards what the set costs resident, and
 * hot_majflt counts what the passes had to bring back.  The final cold
 * pass checks that everything pushed out came back intact.
 *
 * Results: hot_fill_ms, cold_fill_ms, hot_first_ms, hot_median_ms,
 * hot_last_ms, hot_majflt, cold_check_ms, cold_majflt, total_ms.
 */
#include "hog.h"

#include <stdlib.h>

static const char usage[] =
	"hog-hotcold [options]\n"
	"Hot and cold anonymous sets: write --hot, then --cold, then check the hot set\n"
	"--passes times and the cold set once; the hot passes' times show whether\n"
	"reclaim kept the right set in RAM.";

static long hot, cold, passes;

static const struct hog_opt opts[] = {
	{ "hot", OPT_SIZE, &hot, "30%", "the hot set, checked every pass" },
	{ "cold", OPT_SIZE, &cold, "100%", "the cold set, written once and checked at the end" },
	{ "passes", OPT_LONG, &passes, "10", "passes over the hot set" },
	HOG_OPT_END
};

int main(int argc, char **argv)
{
	double start, *times;
	char *hot_mem, *cold_mem;
	long faults;

	hog_parse(argc, argv, "hotcold", usage, opts);
	if (passes < 1)
		hog_usage_error("--passes %ld: must be 1 or more", passes);
	hog_report("hot_mib", "%ld", hot * PAGE_SIZE >> 20);
	hog_report("cold_mib", "%ld", cold * PAGE_SIZE >> 20);
	times = calloc(passes, sizeof(*times));
	if (!times)
		hog_fail("calloc");
	hot_mem = hog_map_anon(hot);
	cold_mem = hog_map_anon(cold);

	start = hog_now_ms();
	hog_report("hot_fill_ms", "%.0f", hog_fill_set(hot_mem, hot, hog_stream(TAG_HOT, 0), "hot fill"));
	hog_report("cold_fill_ms", "%.0f",
		   hog_fill_set(cold_mem, cold, hog_stream(TAG_COLD, 0), "cold fill"));
	if (hog.corrupt_page >= 0 && hog.corrupt_page < hot)
		hog_corrupt_mem(hot_mem + hog.corrupt_page * PAGE_SIZE, hog.corrupt_page);
	hog_sync();

	faults = hog_majflt();
	for (long pass = 0; pass < passes; pass++)
		times[pass] = hog_check_set(hot_mem, hot, hog_stream(TAG_HOT, 0), "hot", "hot pass");
	hog_report("hot_majflt", "%ld", hog_majflt() - faults);
	hog_report("hot_first_ms", "%.0f", times[0]);
	hog_report("hot_last_ms", "%.0f", times[passes - 1]);
	hog_report("hot_median_ms", "%.0f", hog_median(times, passes));

	faults = hog_majflt();
	hog_report("cold_check_ms", "%.0f",
		   hog_check_set(cold_mem, cold, hog_stream(TAG_COLD, 0), "cold", "cold pass"));
	hog_report("cold_majflt", "%ld", hog_majflt() - faults);
	hog_report("total_ms", "%.0f", hog_now_ms() - start);
	return hog_finish();
}
