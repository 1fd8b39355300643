/*
 * The CPU and scheduler statistics of /proc (Linux's fs/proc/stat.c,
 * uptime.c and loadavg.c): /proc/stat, /proc/uptime and /proc/loadavg,
 * in Linux's formats (busybox's top, vmstat, uptime and ps read them).
 *
 * Sources: kcpustat (ticks by kind, account_process_tick), the IRQ
 * counts (irq_count), nr_switches, the boot time of the CMOS clock
 * (getboottime_seconds), total_forks, nr_running(),
 * nr_uninterruptible(), avenrun[] and ktime_get_ns().  All times are in
 * USER_HZ ticks, which are HZ ticks here.  There is one CPU, so the
 * "cpu" and "cpu0" lines agree; there are no softirqs, so their line is
 * zeros; procs_blocked counts the tasks in uninterruptible sleep (Linux
 * counts those waiting for I/O, which Pageturn does not tell apart).
 */
#include <drivers/rtc.h>
#include <pageturn/irq.h>
#include <pageturn/kernel_stat.h>
#include <pageturn/sched.h>
#include <pageturn/time.h>
#include <uapi/time.h>

#include "internal.h"

#define NR_SOFTIRQS	10	/* Linux's softirq kinds: the columns of "softirq" */

/* The ten columns of a cpu line, in /proc/stat's order. */
static void show_cpu_line(struct seq_file *m, const char *name, const struct kernel_cpustat *k)
{
	static const enum cpu_usage_stat order[] = {
		CPUTIME_USER, CPUTIME_NICE, CPUTIME_SYSTEM, CPUTIME_IDLE, CPUTIME_IOWAIT,
		CPUTIME_IRQ, CPUTIME_SOFTIRQ, CPUTIME_STEAL, CPUTIME_GUEST, CPUTIME_GUEST_NICE,
	};
	unsigned int i;

	seq_puts(m, name);
	for (i = 0; i < ARRAY_SIZE(order); i++)
		seq_printf(m, " %llu", (unsigned long long)k->cpustat[order[i]]);
	seq_puts(m, "\n");
}

/*
 * /proc/stat:
 *   cpu  user nice system idle iowait irq softirq steal guest guest_nice
 *   cpu0 (the same)
 *   intr <total> <IRQ 0> ... <IRQ 15>
 *   ctxt, btime, processes, procs_running, procs_blocked
 *   softirq <total> <ten kinds>
 */
void stat_proc_show(struct seq_file *m)
{
	struct kernel_cpustat k = kcpustat;
	uint64_t sum = 0;
	unsigned int i;

	show_cpu_line(m, "cpu ", &k);
	show_cpu_line(m, "cpu0", &k);
	for (i = 0; i < NR_IRQS; i++)
		sum += irq_count(i);
	seq_printf(m, "intr %llu", (unsigned long long)sum);
	for (i = 0; i < NR_IRQS; i++)
		seq_printf(m, " %llu", (unsigned long long)irq_count(i));
	seq_printf(m, "\nctxt %llu\nbtime %llu\nprocesses %lu\nprocs_running %lu\nprocs_blocked %lu\n",
		   (unsigned long long)nr_switches, (unsigned long long)getboottime_seconds(),
		   total_forks, nr_running(), nr_uninterruptible());
	seq_puts(m, "softirq 0");
	for (i = 0; i < NR_SOFTIRQS; i++)
		seq_puts(m, " 0");
	seq_puts(m, "\n");
}

/* /proc/uptime: seconds since boot and seconds the CPU idled, both with
 * two decimals. */
void uptime_proc_show(struct seq_file *m)
{
	uint64_t ns = ktime_get_ns();
	uint64_t idle = kcpustat.cpustat[CPUTIME_IDLE];

	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(ns / NSEC_PER_SEC),
		   (unsigned long)(ns % NSEC_PER_SEC / (NSEC_PER_SEC / 100)),
		   (unsigned long)(idle / HZ), (unsigned long)(idle % HZ * 100 / HZ));
}

#define LOAD_INT(x)	((x) >> FSHIFT)
#define LOAD_FRAC(x)	LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/* The highest pid in use: /proc/loadavg's last field (Linux shows the
 * last pid handed out, which kernel/pid.c keeps to itself). */
static int highest_pid(void)
{
	struct task_struct *p;
	int pid = 0;

	list_for_each_entry(p, &task_list_head, tasks)
		pid = MAX(pid, p->pid);
	return pid;
}

/*
 * /proc/loadavg: "0.00 0.01 0.05 1/23 45": the three load averages
 * rounded to two decimals (Linux adds FIXED_1/200 first), runnable and
 * existing tasks, and a recent pid.
 */
void loadavg_proc_show(struct seq_file *m)
{
	unsigned long a[3];
	unsigned int i;

	for (i = 0; i < 3; i++)
		a[i] = avenrun[i] + FIXED_1 / 200;
	seq_printf(m, "%lu.%02lu %lu.%02lu %lu.%02lu %lu/%lu %d\n", LOAD_INT(a[0]), LOAD_FRAC(a[0]),
		   LOAD_INT(a[1]), LOAD_FRAC(a[1]), LOAD_INT(a[2]), LOAD_FRAC(a[2]), nr_running(),
		   nr_threads, highest_pid());
}
