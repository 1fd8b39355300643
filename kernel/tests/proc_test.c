/*
 * Suite "proc": the text of the /proc files agrees with the kernel's own
 * counters, in Linux's formats.  The system files (meminfo, vmstat,
 * zoneinfo, stat, uptime, loadavg, version, cmdline, mounts) are
 * rendered by their show functions; /proc/PID is checked both through
 * the show functions, for the idle task (pid 0, which /proc does not
 * list) and a kernel thread, and through the VFS for that thread: its
 * directory is listed, its files read back the same text, and it goes
 * away when the thread exits.  meminfo is also printed as KTAP
 * diagnostics, so a boot log shows it.
 */
#include <drivers/rtc.h>
#include <fs/proc_fs.h>
#include <fs/vfs.h>
#include <mm/gfp.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/cmdline.h>
#include <pageturn/irq.h>
#include <pageturn/kernel_stat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#include "proc_text.h"

#define STAT_FIELDS	52	/* in /proc/PID/stat */

static char text[16384];
static char text2[16384];

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

/* Parse a decimal number at *p (an optional '-'), advancing *p. */
static long parse_long(const char **p)
{
	bool neg = **p == '-';
	long v = 0;

	if (neg)
		(*p)++;
	while (**p >= '0' && **p <= '9')
		v = v * 10 + (*(*p)++ - '0');
	return neg ? -v : v;
}

/* Read path whole into buf (NUL-terminated): the length, or -errno. */
static long read_file(const char *path, char *buf, size_t size)
{
	struct file *f = NULL;
	long n = 0, total = 0;
	int err = vfs_open(path, O_RDONLY, 0, &f);

	if (err)
		return err;
	while (total + 1 < (long)size && (n = vfs_read(f, buf + total, size - 1 - total)) > 0)
		total += n;
	buf[total] = '\0';
	vfs_close(f);
	return n < 0 ? n : total;
}

KTEST(proc, meminfo_matches_counters)
{
	const char *line, *end;
	long avail, file_lru;

	ktest_render(t, meminfo_proc_show, text, sizeof(text));
	KTEST_EXPECT_EQ(t, field("MemTotal:"), (long)totalram_pages * 4);
	KTEST_EXPECT_EQ(t, field("MemFree:"), (long)nr_free_pages() * 4);
	KTEST_EXPECT_EQ(t, field("Active(file):"), (long)global_page_state(NR_ACTIVE_FILE) * 4);
	KTEST_EXPECT_EQ(t, field("Inactive(anon):"), (long)global_page_state(NR_INACTIVE_ANON) * 4);
	KTEST_EXPECT_EQ(t, field("AnonPages:"), (long)global_page_state(NR_ANON_PAGES) * 4);
	KTEST_EXPECT_EQ(t, field("Mapped:"), (long)global_page_state(NR_FILE_MAPPED) * 4);
	KTEST_EXPECT_EQ(t, field("Buffers:"), (long)nr_blockdev_pages() * 4);
	KTEST_EXPECT_EQ(t, field("PageTables:"), (long)global_page_state(NR_PAGETABLE) * 4);
	KTEST_EXPECT_EQ(t, field("KernelStack:"), (long)(nr_threads * (THREAD_SIZE >> 10)));
	KTEST_EXPECT_EQ(t, field("Slab:"), field("SUnreclaim:"));
	KTEST_EXPECT_EQ(t, field("SwapTotal:"), 0);
	KTEST_EXPECT_EQ(t, field("CommitLimit:"), (long)totalram_pages / 2 * 4);
	KTEST_EXPECT(t, field("Committed_AS:") >= 0);
	/* Available: at most the free pages and the file LRU, at least 0. */
	avail = field("MemAvailable:");
	file_lru = field("Active(file):") + field("Inactive(file):");
	KTEST_EXPECT(t, avail >= 0 && avail <= field("MemFree:") + file_lru);
	/* Linux's order and layout: the value ends at column 24, then " kB". */
	KTEST_EXPECT(t, strncmp(text, "MemTotal:       ", 16) == 0);
	KTEST_EXPECT(t, text[24] == ' ' && text[25] == 'k' && text[26] == 'B');
	KTEST_EXPECT(t, strstr(text, "kB\nMemFree:") && strstr(text, "kB\nMemAvailable:") &&
		     strstr(text, "MemAvailable:") < strstr(text, "Buffers:") &&
		     strstr(text, "Buffers:") < strstr(text, "Cached:"));
	for (line = text; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		printk(KERN_INFO "    # %.*s\n", (int)(end - line), line);
	}
}

KTEST(proc, vmstat_matches_counters)
{
	ktest_render(t, vmstat_show, text, sizeof(text));
	KTEST_EXPECT_EQ(t, field("nr_free_pages"), (long)nr_free_pages());
	KTEST_EXPECT_EQ(t, field("nr_slab_unreclaimable"), (long)global_page_state(NR_SLAB_UNRECLAIMABLE));
	KTEST_EXPECT(t, field("pgfree") > 0);
	KTEST_EXPECT(t, field("pgalloc_dma32") > 0);
	KTEST_EXPECT(t, field("allocstall") >= 0);
}

KTEST(proc, zoneinfo_lists_zones)
{
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_DMA];

	ktest_render(t, zoneinfo_show, text, sizeof(text));
	KTEST_EXPECT(t, strstr(text, "Node 0, zone      DMA\n") != NULL);
	KTEST_EXPECT(t, strstr(text, "Node 0, zone    DMA32\n") != NULL);
	KTEST_EXPECT(t, strstr(text, "Node 0, zone   Normal\n") != NULL);
	/* The DMA block comes first: its fields are the first matches. */
	KTEST_EXPECT_EQ(t, field("        present"), (long)zone->present_pages);
	KTEST_EXPECT_EQ(t, field("        min"), (long)zone->pages_min);
	KTEST_EXPECT(t, strstr(text, "        protection: (0, ") != NULL);
}

/* The numbers of a line starting at p, after its first word: how many
 * (at most max) were stored in v. */
static unsigned int line_numbers(const char *p, long *v, unsigned int max)
{
	unsigned int n = 0;

	while (*p && *p != ' ' && *p != '\n')
		p++;
	while (*p == ' ' && n < max) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[n++] = parse_long(&p);
	}
	return n;
}

KTEST(proc, stat_fields)
{
	long cpu[11], cpu0[11], intr[NR_IRQS + 2], sum = 0;
	uint64_t irq0 = irq_count(0), idle0, idle1;
	unsigned int i, n;
	const char *p;

	idle0 = kcpustat.cpustat[CPUTIME_IDLE];
	ktest_render(t, stat_proc_show, text, sizeof(text));
	idle1 = kcpustat.cpustat[CPUTIME_IDLE];
	/* "cpu" and two spaces, then ten columns; cpu0 the same numbers. */
	KTEST_EXPECT(t, strncmp(text, "cpu  ", 5) == 0);
	KTEST_EXPECT_EQ(t, line_numbers(text, cpu, 11), 10);
	p = strstr(text, "\ncpu0 ");
	KTEST_EXPECT(t, p != NULL);
	if (p) {
		KTEST_EXPECT_EQ(t, line_numbers(p + 1, cpu0, 11), 10);
		KTEST_EXPECT(t, memcmp(cpu, cpu0, 10 * sizeof(long)) == 0);
	}
	/* idle is column 4, from the tick accounting (which may tick on). */
	KTEST_EXPECT(t, cpu[3] >= (long)idle0 && cpu[3] <= (long)idle1);
	/* intr: the total, then one count per IRQ line, adding up. */
	p = strstr(text, "\nintr ");
	KTEST_EXPECT(t, p != NULL);
	if (p) {
		n = line_numbers(p + 1, intr, NR_IRQS + 2);
		KTEST_EXPECT_EQ(t, n, NR_IRQS + 1);
		for (i = 1; i < n; i++)
			sum += intr[i];
		KTEST_EXPECT_EQ(t, intr[0], sum);
		KTEST_EXPECT(t, intr[1] >= (long)irq0);
	}
	KTEST_EXPECT_EQ(t, field("btime"), (long)getboottime_seconds());
	KTEST_EXPECT_EQ(t, field("processes"), (long)total_forks);
	KTEST_EXPECT(t, field("ctxt") >= 0);
	KTEST_EXPECT(t, field("procs_running") >= 0);	/* the idle task reading it does not count */
	KTEST_EXPECT(t, field("procs_blocked") >= 0);
	KTEST_EXPECT(t, strstr(text, "\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n") != NULL);
}

/* /proc/uptime's two numbers, in hundredths of a second. */
static void parse_uptime(struct ktest *t, long *up, long *idle)
{
	const char *p = text;

	*up = parse_long(&p) * 100;
	KTEST_EXPECT(t, *p == '.');
	p++;
	*up += parse_long(&p);
	KTEST_EXPECT(t, *p == ' ');
	p++;
	*idle = parse_long(&p) * 100;
	KTEST_EXPECT(t, *p == '.');
	p++;
	*idle += parse_long(&p);
	KTEST_EXPECT(t, *p == '\n' && p[1] == '\0');
}

KTEST(proc, uptime_is_monotonic)
{
	long up1, idle1, up2, idle2, before, after;

	ktest_render(t, uptime_proc_show, text, sizeof(text));
	parse_uptime(t, &up1, &idle1);
	msleep(50);
	before = ktime_get_ns() / 10000000;
	ktest_render(t, uptime_proc_show, text, sizeof(text));
	after = ktime_get_ns() / 10000000;
	parse_uptime(t, &up2, &idle2);
	/* Not up1 + 5: msleep counts ticks, and QEMU's PIT delivers ticks
	 * it fell behind on in a burst when the host was busy, so 50 ms
	 * of ticks can pass in less time by the clock /proc/uptime reads. */
	KTEST_EXPECT(t, up2 >= up1);
	/* The clock read just before and just after the rendering brackets
	 * it, however long an interrupt or a busy host stretched it. */
	KTEST_EXPECT(t, up2 >= before && up2 <= after);
	KTEST_EXPECT(t, idle2 >= idle1);
	/* Idle time is ticks; the uptime the TSC: a tick's slack. */
	KTEST_EXPECT(t, idle2 <= up2 + 1);
}

KTEST(proc, loadavg_format)
{
	const char *p = text;
	unsigned long before = avenrun[0], after;
	long v[3], running;
	unsigned int i;

	ktest_render(t, loadavg_proc_show, text, sizeof(text));
	after = avenrun[0];
	for (i = 0; i < 3; i++) {
		v[i] = parse_long(&p);
		KTEST_EXPECT(t, p[0] == '.' && p[1] >= '0' && p[1] <= '9' && p[2] >= '0' &&
			     p[2] <= '9' && p[3] == ' ');
		p += 4;
	}
	/* The 5-second update may come between the reads. */
	KTEST_EXPECT(t, v[0] == (long)((before + FIXED_1 / 200) >> FSHIFT) ||
		     v[0] == (long)((after + FIXED_1 / 200) >> FSHIFT));
	/* Runnable tasks: the test runs as the idle task, which does not
	 * count, so this may be 0. */
	running = parse_long(&p);
	KTEST_EXPECT(t, running >= 0 && running <= (long)nr_threads);
	KTEST_EXPECT(t, *p++ == '/');
	KTEST_EXPECT_EQ(t, parse_long(&p), (long)nr_threads);
	KTEST_EXPECT(t, *p++ == ' ');
	KTEST_EXPECT(t, parse_long(&p) >= 0);
	KTEST_EXPECT(t, p[0] == '\n' && p[1] == '\0');
}

/*
 * Split a /proc/PID/stat line: the pid, the comm between the first '('
 * and the last ')', then the fields from the state on, as text, into
 * f[2..] (f[0] and f[1] point at the pid and the comm).  The number of
 * fields, or 0 for a malformed line.
 */
static unsigned int split_stat(char *line, char **f, unsigned int max)
{
	char *open = strchr(line, '('), *close = NULL, *p;
	unsigned int n = 2;

	for (p = line; *p; p++)
		if (*p == ')')
			close = p;
	if (!open || !close || close < open || close[1] != ' ' || max < 2)
		return 0;
	open[-1] = '\0';
	*close = '\0';
	f[0] = line;
	f[1] = open + 1;
	for (p = close + 2; *p && *p != '\n' && n < max; n++) {
		f[n] = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

static long stat_field(char **f, unsigned int i)
{
	const char *p = f[i - 1];

	return parse_long(&p);
}

KTEST(proc, idle_task_stat)
{
	char *f[STAT_FIELDS + 1];
	struct inode *inode;
	char buf[16];

	ktest_render_task(t, proc_pid_stat, &init_task, text, sizeof(text));
	KTEST_EXPECT_EQ(t, split_stat(text, f, STAT_FIELDS + 1), STAT_FIELDS);
	KTEST_EXPECT_STREQ(t, f[0], "0");
	KTEST_EXPECT_STREQ(t, f[1], "swapper");
	KTEST_EXPECT_STREQ(t, f[2], "R");		/* it is running this test */
	KTEST_EXPECT(t, stat_field(f, 9) & PF_KTHREAD);
	KTEST_EXPECT_EQ(t, stat_field(f, 18), 20);	/* priority */
	KTEST_EXPECT_EQ(t, stat_field(f, 20), 1);	/* num_threads */
	KTEST_EXPECT_EQ(t, stat_field(f, 23), 0);	/* vsize: no mm */
	KTEST_EXPECT_EQ(t, stat_field(f, 24), 0);	/* rss */
	/* /proc lists no pid 0, and /proc/self names nothing for it. */
	KTEST_EXPECT_EQ(t, path_lookup("/proc/0", &inode), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_readlink("/proc/self", buf, sizeof(buf)), -ENOENT);
}

static DECLARE_WAIT_QUEUE_HEAD(sleeper_wq);
static volatile bool sleeper_stop, sleeper_done;

static int sleeper_thread(void *data)
{
	(void)data;
	wait_event(sleeper_wq, sleeper_stop);
	sleeper_done = true;
	return 0;
}

struct find_name {
	const char *name;
	bool found;
	unsigned int d_type;
};

static int match_name(void *ctx, const char *name, unsigned int name_len, uint64_t ino,
		      unsigned int d_type)
{
	struct find_name *fn = ctx;

	(void)ino;
	if (strlen(fn->name) == name_len && strncmp(fn->name, name, name_len) == 0) {
		fn->found = true;
		fn->d_type = d_type;
	}
	return 0;
}

/* Is name listed in directory path? */
static bool listed(const char *path, const char *name, unsigned int *d_type)
{
	struct find_name fn = { .name = name };
	struct file *f = NULL;

	if (vfs_open(path, O_RDONLY | O_DIRECTORY, 0, &f))
		return false;
	vfs_readdir(f, match_name, &fn);
	vfs_close(f);
	*d_type = fn.d_type;
	return fn.found;
}

KTEST(proc, kthread_pid_dir)
{
	struct task_struct *p;
	char *f[STAT_FIELDS + 1];
	char dir[32], path[48], buf[16];
	unsigned int d_type = 0;
	struct inode *inode;
	int pid;

	sleeper_stop = sleeper_done = false;
	p = kthread_create(sleeper_thread, NULL, "proc-sleeper");
	KTEST_EXPECT(t, p != NULL);
	if (!p)
		return;
	pid = p->pid;
	wake_up_process(p);
	while (p->state == TASK_RUNNING)
		yield();

	/* stat, from the show function. */
	ktest_render_task(t, proc_pid_stat, p, text, sizeof(text));
	KTEST_EXPECT(t, text[strlen(text) - 1] == '\n');
	KTEST_EXPECT_EQ(t, split_stat(text, f, STAT_FIELDS + 1), STAT_FIELDS);
	KTEST_EXPECT_EQ(t, stat_field(f, 1), pid);
	KTEST_EXPECT_STREQ(t, f[1], "proc-sleeper");
	KTEST_EXPECT_STREQ(t, f[2], "D");		/* wait_event sleeps uninterruptibly */
	KTEST_EXPECT(t, stat_field(f, 9) & PF_KTHREAD);
	KTEST_EXPECT_EQ(t, stat_field(f, 8), -1);	/* tpgid: no terminal */
	KTEST_EXPECT_EQ(t, stat_field(f, 19), 0);	/* nice */
	KTEST_EXPECT_EQ(t, stat_field(f, 20), 1);
	KTEST_EXPECT_EQ(t, stat_field(f, 22), (long)p->start_time);
	KTEST_EXPECT_EQ(t, stat_field(f, 23), 0);
	KTEST_EXPECT_EQ(t, stat_field(f, 35), 1);	/* wchan: asleep */

	/* The same text through the VFS, and the other files. */
	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	KTEST_EXPECT(t, listed("/proc", dir + 6, &d_type));
	KTEST_EXPECT_EQ(t, d_type, DT_DIR);
	KTEST_EXPECT(t, listed(dir, "status", &d_type) && d_type == DT_REG);
	KTEST_EXPECT(t, listed(dir, "exe", &d_type) && d_type == DT_LNK);
	ktest_render_task(t, proc_pid_stat, p, text, sizeof(text));
	snprintf(path, sizeof(path), "%s/stat", dir);
	KTEST_EXPECT_EQ(t, read_file(path, text2, sizeof(text2)), (long)strlen(text));
	KTEST_EXPECT_STREQ(t, text2, text);
	snprintf(path, sizeof(path), "%s/status", dir);
	KTEST_EXPECT(t, read_file(path, text2, sizeof(text2)) > 0);
	KTEST_EXPECT(t, strncmp(text2, "Name:\tproc-sleeper\n", 19) == 0);
	KTEST_EXPECT(t, strstr(text2, "\nState:\tD (disk sleep)\n") != NULL);
	KTEST_EXPECT(t, strstr(text2, "\nThreads:\t1\n") != NULL);
	KTEST_EXPECT(t, strstr(text2, "VmSize") == NULL);
	snprintf(path, sizeof(path), "%s/statm", dir);
	KTEST_EXPECT(t, read_file(path, text2, sizeof(text2)) > 0);
	KTEST_EXPECT_STREQ(t, text2, "0 0 0 0 0 0 0\n");
	snprintf(path, sizeof(path), "%s/comm", dir);
	KTEST_EXPECT(t, read_file(path, text2, sizeof(text2)) > 0);
	KTEST_EXPECT_STREQ(t, text2, "proc-sleeper\n");
	snprintf(path, sizeof(path), "%s/cmdline", dir);
	KTEST_EXPECT_EQ(t, read_file(path, text2, sizeof(text2)), 0);
	snprintf(path, sizeof(path), "%s/exe", dir);
	KTEST_EXPECT_EQ(t, vfs_readlink(path, buf, sizeof(buf)), -ENOENT);
	snprintf(path, sizeof(path), "%s/cwd", dir);
	KTEST_EXPECT_EQ(t, vfs_readlink(path, buf, sizeof(buf)), 1);
	KTEST_EXPECT(t, buf[0] == '/');

	/* Gone with the thread. */
	sleeper_stop = true;
	wake_up(&sleeper_wq);
	while (!sleeper_done)
		yield();
	yield();
	KTEST_EXPECT_EQ(t, path_lookup(dir, &inode), -ENOENT);
	KTEST_EXPECT(t, !listed("/proc", dir + 6, &d_type));
}

KTEST(proc, system_files)
{
	unsigned int d_type;

	ktest_render(t, version_proc_show, text, sizeof(text));
	KTEST_EXPECT(t, strncmp(text, "Pageturn version 6.1.0-pageturn (gcc version ", 45) == 0);
	KTEST_EXPECT(t, strstr(text, ") #1 ") != NULL);
	ktest_render(t, cmdline_proc_show, text, sizeof(text));
	KTEST_EXPECT(t, strncmp(text, boot_cmdline_raw(), strlen(boot_cmdline_raw())) == 0);
	KTEST_EXPECT_STREQ(t, text + strlen(boot_cmdline_raw()), "\n");
	ktest_render(t, mounts_proc_show, text, sizeof(text));
	KTEST_EXPECT(t, strstr(text, " / ext2 rw 0 0\n") != NULL);
	KTEST_EXPECT(t, strstr(text, "proc /proc proc rw 0 0\n") != NULL);
	ktest_render(t, filesystems_proc_show, text, sizeof(text));
	KTEST_EXPECT(t, strstr(text, "nodev\tproc\n") != NULL);
	KTEST_EXPECT(t, strstr(text, "\text2\n") != NULL);
	KTEST_EXPECT(t, listed("/proc", "self", &d_type) && d_type == DT_LNK);
	KTEST_EXPECT(t, listed("/proc", "loadavg", &d_type) && d_type == DT_REG);
}
