/*
 * Suite "proc": the text of /proc/meminfo, /proc/vmstat and /proc/zoneinfo
 * agrees with the kernel's own counters, in Linux's formats.  meminfo is
 * also printed as KTAP diagnostics, so a boot log shows it.
 */
#include <fs/proc_fs.h>
#include <mm/gfp.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

static char text[16384];

/* The number after "label" at the start of a line, or -1. */
static long field(const char *label)
{
	const char *p = text;
	size_t n = strlen(label);
	long v = 0;

	while (p && *p) {
		if (strncmp(p, label, n) == 0) {
			p += n;
			while (*p == ' ')
				p++;
			if (*p < '0' || *p > '9')
				return -1;
			while (*p >= '0' && *p <= '9')
				v = v * 10 + (*p++ - '0');
			return v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static void render(struct ktest *t, void (*show)(struct seq_file *))
{
	struct seq_file m;

	seq_init(&m, text, sizeof(text));
	show(&m);
	KTEST_EXPECT(t, !seq_has_overflowed(&m));
	text[m.count] = '\0';
}

KTEST(proc, meminfo_matches_counters)
{
	const char *line, *end;

	render(t, meminfo_proc_show);
	KTEST_EXPECT_EQ(t, field("MemTotal:"), (long)totalram_pages * 4);
	KTEST_EXPECT_EQ(t, field("MemFree:"), (long)nr_free_pages() * 4);
	KTEST_EXPECT_EQ(t, field("Active(file):"), (long)global_page_state(NR_ACTIVE_FILE) * 4);
	KTEST_EXPECT_EQ(t, field("Inactive(anon):"), (long)global_page_state(NR_INACTIVE_ANON) * 4);
	KTEST_EXPECT_EQ(t, field("SwapTotal:"), 0);
	/* Linux's layout: the value ends at column 24, then " kB". */
	KTEST_EXPECT(t, strncmp(text, "MemTotal:       ", 16) == 0);
	KTEST_EXPECT(t, text[24] == ' ' && text[25] == 'k' && text[26] == 'B');
	for (line = text; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		printk(KERN_INFO "    # %.*s\n", (int)(end - line), line);
	}
}

KTEST(proc, vmstat_matches_counters)
{
	render(t, vmstat_show);
	KTEST_EXPECT_EQ(t, field("nr_free_pages"), (long)nr_free_pages());
	KTEST_EXPECT_EQ(t, field("nr_slab_unreclaimable"), (long)global_page_state(NR_SLAB_UNRECLAIMABLE));
	KTEST_EXPECT(t, field("pgfree") > 0);
	KTEST_EXPECT(t, field("pgalloc_dma32") > 0);
	KTEST_EXPECT(t, field("allocstall") >= 0);
}

KTEST(proc, zoneinfo_lists_zones)
{
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_DMA];

	render(t, zoneinfo_show);
	KTEST_EXPECT(t, strstr(text, "Node 0, zone      DMA\n") != NULL);
	KTEST_EXPECT(t, strstr(text, "Node 0, zone    DMA32\n") != NULL);
	KTEST_EXPECT(t, strstr(text, "Node 0, zone   Normal\n") != NULL);
	/* The DMA block comes first: its fields are the first matches. */
	KTEST_EXPECT_EQ(t, field("        present"), (long)zone->present_pages);
	KTEST_EXPECT_EQ(t, field("        min"), (long)zone->pages_min);
	KTEST_EXPECT(t, strstr(text, "        protection: (0, ") != NULL);
}
