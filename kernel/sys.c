/*
 * System calls about the system and the calling process's identity,
 * limits and usage (Linux's kernel/sys.c, with reboot.c, the load average
 * of sched/loadavg.c, the tick accounting of sched/cputime.c and
 * getrandom of drivers/char/random.c).  The clocks, sleeps and futexes
 * are in kernel/sys_time.c.
 *
 * State kept here:
 *
 *   init_utsname  uname's six strings.  Everything is fixed at build
 *                 time except nodename, which sethostname changes for
 *                 the whole system (one UTS namespace): "pageturn" until
 *                 init sets it, e.g. from /etc/hostname.
 *   avenrun[3]    the 1, 5 and 15 minute load averages, fixed point
 *                 with FSHIFT bits.  calc_global_load(), on every tick,
 *                 folds the number of runnable plus uninterruptible tasks
 *                 in every LOAD_FREQ ticks (5 s), Linux's way:
 *                 load = load * e + active * (1 - e) with e = exp(-5s/1min),
 *                 exp(-5s/5min) and exp(-5s/15min) in fixed point.
 *   kcpustat      where the CPU's ticks went (user, system, idle), and
 *   nr_switches   the context switches, both since boot, for /proc/stat.
 *
 * Identity: there is one user.  Every process is root (uid, gid, euid,
 * suid all 0) with no supplementary groups and every capability; the
 * set* calls accept exactly that (0, or an empty group list) and refuse
 * anything else with -EPERM, since nothing records another identity.
 *
 * Limits: each process has its own table (task_struct's rlim), which
 * PID 1 gets from init_rlimits, fork copies and exec keeps; kernel
 * threads keep a zero table and are given init_rlimits (task_rlimit).
 * getrlimit, setrlimit and prlimit64 follow Linux's do_prlimit: the soft
 * limit may not exceed the hard one (-EINVAL), nor RLIMIT_NOFILE's hard
 * limit NR_OPEN (-EPERM, Linux's nr_open), and raising a hard limit
 * needs CAP_SYS_RESOURCE, which everyone has.  Who enforces which:
 *
 *   RLIMIT_STACK    expand_stack (mm/mmap.c): the stack VMA's size
 *   RLIMIT_AS       mmap, brk, mremap and stack growth (mm/mmap.c)
 *   RLIMIT_DATA     brk (mm/mmap.c), as Linux before 4.7 (not mmap)
 *   RLIMIT_NOFILE   descriptor allocation (kernel/fs/file.c): -EMFILE,
 *                   and dup2/dup3 to a descriptor at or above it -EBADF
 *   RLIMIT_CPU      here, on the tick: SIGXCPU at the soft limit and
 *                   every second after it, SIGKILL at the hard limit
 *   RLIMIT_FSIZE    writes and truncates of regular files
 *                   (kernel/fs/internal.h): SIGXFSZ and -EFBIG
 *   RLIMIT_MEMLOCK  not enforced: root is exempt (CAP_IPC_LOCK)
 *   RLIMIT_NPROC    not enforced: root is exempt (CAP_SYS_RESOURCE)
 *
 * The rest are recorded and reported only: no core dumps are written
 * (CORE), pending signals are a mask of one
 * each (SIGPENDING), and there are no file locks, message queues,
 * priorities or real-time scheduling (LOCKS, MSGQUEUE, NICE, RTPRIO,
 * RTTIME); Linux ignores RSS too.  A kernel thread's limits are the
 * kernel's own: prlimit64 reads them, and cannot change them (-EPERM).
 * proc_pid_limits shows a task's table as /proc/PID/limits.
 *
 * Nice: the scheduler has no priorities, every task has nice 0
 * (getpriority's 20), and setpriority accepts only that.
 */
#include <asm/cpu.h>
#include <asm/io.h>
#include <asm/uaccess.h>
#include <drivers/qemu_exit.h>
#include <fs/file.h>
#include <fs/proc_fs.h>
#include <fs/vfs.h>
#include <generated/version.h>
#include <mm/gfp.h>
#include <mm/mmap.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/kernel_stat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/random.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <mm/slab.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/reboot.h>
#include <uapi/signal.h>
#include <uapi/sysinfo.h>
#include <uapi/time.h>
#include <uapi/utsname.h>

#define UTS_SYSNAME	"Pageturn"
/* glibc refuses to start on a kernel older than the one it was built
 * for ("FATAL: kernel too old"): it parses this release. */
#define UTS_RELEASE	"6.1.0-pageturn"
#define UTS_VERSION	"#1 " PAGETURN_VERSION " " PAGETURN_GIT_REV

static struct utsname init_utsname = {
	.sysname = UTS_SYSNAME,
	.nodename = "pageturn",
	.release = UTS_RELEASE,
	.version = UTS_VERSION,
	.machine = "x86_64",
	.domainname = "(none)",
};

/* uname(2): the six strings: 0 or -EFAULT. */
long sys_uname(struct utsname __user *name)
{
	return copy_to_user(name, &init_utsname, sizeof(init_utsname)) ? -EFAULT : 0;
}

/* sethostname(2): name[0, len) (no NUL needed) becomes the node name:
 * 0, -EINVAL (len not in 0..64), -EFAULT. */
long sys_sethostname(const char __user *name, int len)
{
	char tmp[__NEW_UTS_LEN];

	if (len < 0 || len > __NEW_UTS_LEN)
		return -EINVAL;
	if (copy_from_user(tmp, name, len))
		return -EFAULT;
	memset(init_utsname.nodename, 0, sizeof(init_utsname.nodename));
	memcpy(init_utsname.nodename, tmp, len);
	return 0;
}

/* Linux's /proc/version: "Linux version <release> (<builder>)
 * (<compiler>) <version>", with Pageturn's name and no builder. */
void version_proc_show(struct seq_file *m)
{
	seq_printf(m, "%s version %s (gcc version %s) %s\n", init_utsname.sysname,
		   init_utsname.release, __VERSION__, init_utsname.version);
}

/* ---- identity: everyone is root ---------------------------------------- */

/* The ids of the caller: root's, 0. */
long sys_getuid(void)
{
	return 0;
}

long sys_geteuid(void)
{
	return 0;
}

long sys_getgid(void)
{
	return 0;
}

long sys_getegid(void)
{
	return 0;
}

/* Become uid (gid): only root's own 0 is possible (-EPERM). */
long sys_setuid(unsigned int uid)
{
	return uid == 0 ? 0 : -EPERM;
}

long sys_setgid(unsigned int gid)
{
	return gid == 0 ? 0 : -EPERM;
}

/* Store 0 in each of three user words. */
static long put_three_zeros(unsigned int __user *a, unsigned int __user *b, unsigned int __user *c)
{
	if (put_user(0u, a) || put_user(0u, b) || put_user(0u, c))
		return -EFAULT;
	return 0;
}

/* The real, effective and saved ids, all 0: 0 or -EFAULT. */
long sys_getresuid(unsigned int __user *ruid, unsigned int __user *euid, unsigned int __user *suid)
{
	return put_three_zeros(ruid, euid, suid);
}

long sys_getresgid(unsigned int __user *rgid, unsigned int __user *egid, unsigned int __user *sgid)
{
	return put_three_zeros(rgid, egid, sgid);
}

#define NGROUPS_MAX	65536

/* The supplementary groups: none, so 0 whatever the room (-EINVAL if
 * negative). */
long sys_getgroups(int gidsetsize, unsigned int __user *grouplist)
{
	(void)grouplist;	/* no supplementary groups to copy */
	return gidsetsize < 0 ? -EINVAL : 0;
}

/* Set the supplementary groups: an empty list is what there is (0);
 * any other is -EPERM; a size beyond NGROUPS_MAX -EINVAL. */
long sys_setgroups(int gidsetsize, const unsigned int __user *grouplist)
{
	(void)grouplist;
	if (gidsetsize < 0 || gidsetsize > NGROUPS_MAX)
		return -EINVAL;
	return gidsetsize == 0 ? 0 : -EPERM;
}

/* ---- the load average and the tick accounting ------------------------- */

#define LOAD_FREQ	(5 * HZ + 1)	/* ticks between updates: 5 s, off the tick's beat */
#define EXP_1		1884		/* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5		2014		/* FIXED_1 / exp(5 s / 5 min) */
#define EXP_15		2037		/* FIXED_1 / exp(5 s / 15 min) */

unsigned long avenrun[3];
static uint64_t calc_load_update = LOAD_FREQ;

struct kernel_cpustat kcpustat;
uint64_t nr_switches;

/* One step of an exponential average, rounding up while the load rises
 * so that a constant load is eventually reached exactly (Linux's). */
static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

void calc_global_load(void)
{
	unsigned long active;

	if (jiffies < calc_load_update)
		return;
	active = (nr_running() + nr_uninterruptible()) * FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
	calc_load_update += LOAD_FREQ;
}

static void check_rlimit_cpu(struct task_struct *p);

void account_process_tick(struct task_struct *p, bool user_tick)
{
	if (user_tick) {
		p->utime++;
		kcpustat.cpustat[CPUTIME_USER]++;
	} else if (cpu_halted) {
		kcpustat.cpustat[CPUTIME_IDLE]++;
	} else {
		p->stime++;
		kcpustat.cpustat[CPUTIME_SYSTEM]++;
	}
	check_rlimit_cpu(p);
}

/* ---- sysinfo ------------------------------------------------------------ */

/* sysinfo(2): uptime, loads, memory in bytes (mem_unit 1), task count:
 * 0 or -EFAULT. */
long sys_sysinfo(struct sysinfo __user *info)
{
	struct sysinfo s;
	uint64_t ns = ktime_get_ns();
	unsigned int i;

	memset(&s, 0, sizeof(s));
	/* Linux rounds the uptime up. */
	s.uptime = ns / NSEC_PER_SEC + (ns % NSEC_PER_SEC ? 1 : 0);
	for (i = 0; i < 3; i++)
		s.loads[i] = avenrun[i] << (SI_LOAD_SHIFT - FSHIFT);
	s.totalram = totalram_pages * PAGE_SIZE;
	s.freeram = global_page_state(NR_FREE_PAGES) * PAGE_SIZE;
	s.sharedram = global_page_state(NR_SHMEM) * PAGE_SIZE;
	s.bufferram = nr_blockdev_pages() * PAGE_SIZE;
	si_swapinfo(&s.totalswap, &s.freeswap);
	s.totalswap *= PAGE_SIZE;
	s.freeswap *= PAGE_SIZE;
	s.procs = nr_threads;
	s.mem_unit = 1;
	return copy_to_user(info, &s, sizeof(s)) ? -EFAULT : 0;
}

/* ---- getrandom ------------------------------------------------------------ */

#define GRND_NONBLOCK	0x0001
#define GRND_RANDOM	0x0002
#define GRND_INSECURE	0x0004
/* The most one call returns: Linux's historical INT_MAX >> 6. */
#define GETRANDOM_MAX	33554431ul
#define GETRANDOM_CHUNK	256

/*
 * The generator is seeded before the first process runs and never runs
 * dry, so getrandom never blocks and every flag combination Linux
 * accepts gives the same bytes.  A signal stops a long request at a page
 * boundary with the count so far, as on Linux.
 */
long sys_getrandom(char __user *buf, size_t count, unsigned int flags)
{
	uint8_t tmp[GETRANDOM_CHUNK];
	size_t done = 0, n;
	long ret = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	count = MIN(count, GETRANDOM_MAX);
	while (done < count) {
		n = MIN(count - done, sizeof(tmp));
		get_random_bytes(tmp, n);
		if (copy_to_user(buf + done, tmp, n)) {
			ret = -EFAULT;
			break;
		}
		done += n;
		if (done % PAGE_SIZE == 0 && done < count) {
			if (signal_pending(current))
				break;
			cond_resched();
		}
	}
	memset(tmp, 0, sizeof(tmp));
	return done ? (long)done : ret;
}

/* ---- resource limits and usage ------------------------------------------- */

#define MLOCK_LIMIT	(8ul << 20)	/* Linux's default RLIMIT_MEMLOCK */
#define MQ_BYTES_MAX	819200ul	/* Linux's default RLIMIT_MSGQUEUE */

const struct task_rlimit init_rlimits[RLIM_NLIMITS] = {
	[RLIMIT_CPU]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_FSIZE]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_DATA]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_STACK]		= { STACK_RLIMIT_DEFAULT, RLIM_INFINITY },
	[RLIMIT_CORE]		= { 0, RLIM_INFINITY },
	[RLIMIT_RSS]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_NPROC]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_NOFILE]		= { NR_OPEN, NR_OPEN },
	[RLIMIT_MEMLOCK]	= { MLOCK_LIMIT, MLOCK_LIMIT },
	[RLIMIT_AS]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_LOCKS]		= { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_SIGPENDING]	= { _NSIG, _NSIG },
	[RLIMIT_MSGQUEUE]	= { MQ_BYTES_MAX, MQ_BYTES_MAX },
	[RLIMIT_NICE]		= { 0, 0 },
	[RLIMIT_RTPRIO]		= { 0, 0 },
	[RLIMIT_RTTIME]		= { RLIM_INFINITY, RLIM_INFINITY },
};

/* Is p a kernel thread, whose table is zero and whose limits are
 * init_rlimits (see the top of the file)?  PID 1 began as one;
 * become_process gave it a table of its own. */
static bool uses_init_rlimits(const struct task_struct *p)
{
	return p == &init_task || (p->threadfn && p->pid != INIT_PID);
}

/* p's limits of resource (< RLIM_NLIMITS). */
static const struct task_rlimit *task_rlim(const struct task_struct *p, unsigned int resource)
{
	return uses_init_rlimits(p) ? &init_rlimits[resource] : &p->rlim[resource];
}

unsigned long task_rlimit(const struct task_struct *p, unsigned int resource)
{
	return resource < RLIM_NLIMITS ? task_rlim(p, resource)->rlim_cur : RLIM_INFINITY;
}

/*
 * RLIMIT_CPU, on every tick of p (Linux's check_process_timers), in
 * whole seconds of user plus system time: at the hard limit SIGKILL; at
 * the soft limit SIGXCPU, and the soft limit moves up a second so that
 * the next SIGXCPU comes a second later, as on Linux (getrlimit shows
 * the moved limit).  Interrupt context.
 */
static void check_rlimit_cpu(struct task_struct *p)
{
	struct task_rlimit *rlim = &p->rlim[RLIMIT_CPU];
	unsigned long secs;

	if (uses_init_rlimits(p) || rlim->rlim_cur == RLIM_INFINITY)
		return;
	secs = (p->utime + p->stime) / HZ;
	if (rlim->rlim_max != RLIM_INFINITY && secs >= rlim->rlim_max) {
		send_sig(SIGKILL, p);
		return;
	}
	if (secs >= rlim->rlim_cur) {
		rlim->rlim_cur++;
		send_sig(SIGXCPU, p);
	}
}

/* Linux's do_prlimit: report p's old limit, then set the new one (the
 * rules are at the top of the file).  0, -EINVAL, -EPERM. */
static int do_prlimit(struct task_struct *p, unsigned int resource,
		      const struct rlimit *new_rlim, struct rlimit *old_rlim)
{
	const struct task_rlimit *cur;

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (new_rlim) {
		if (new_rlim->rlim_cur > new_rlim->rlim_max)
			return -EINVAL;
		if (resource == RLIMIT_NOFILE && new_rlim->rlim_max > NR_OPEN)
			return -EPERM;
		if (uses_init_rlimits(p))
			return -EPERM;
	}
	cur = task_rlim(p, resource);
	if (old_rlim) {
		old_rlim->rlim_cur = cur->rlim_cur;
		old_rlim->rlim_max = cur->rlim_max;
	}
	if (new_rlim) {
		p->rlim[resource].rlim_cur = new_rlim->rlim_cur;
		p->rlim[resource].rlim_max = new_rlim->rlim_max;
	}
	return 0;
}

/* prlimit64(2) on pid (0: the caller): the old limit out, then the new
 * one in: 0, -ESRCH, -EFAULT, -EINVAL, -EPERM. */
long sys_prlimit64(int pid, unsigned int resource, const struct rlimit __user *new_rlim,
		   struct rlimit __user *old_rlim)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;
	struct rlimit new, old;
	int err;

	if (!p)
		return -ESRCH;
	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	err = do_prlimit(p, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL);
	if (err)
		return err;
	if (old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* getrlimit(2): 0, -EINVAL (unknown resource), -EFAULT. */
long sys_getrlimit(unsigned int resource, struct rlimit __user *rlim)
{
	struct rlimit r;
	int err = do_prlimit(current, resource, NULL, &r);

	if (err)
		return err;
	return copy_to_user(rlim, &r, sizeof(r)) ? -EFAULT : 0;
}

/* setrlimit(2): 0, -EINVAL, -EPERM, -EFAULT. */
long sys_setrlimit(unsigned int resource, const struct rlimit __user *rlim)
{
	struct rlimit r;

	if (copy_from_user(&r, rlim, sizeof(r)))
		return -EFAULT;
	return do_prlimit(current, resource, &r, NULL);
}

/* Linux's names and units for /proc/PID/limits (fs/proc/base.c's
 * lnames); nice and rtprio have no unit. */
static const struct {
	const char *name;
	const char *unit;
} limit_names[RLIM_NLIMITS] = {
	[RLIMIT_CPU]		= { "Max cpu time", "seconds" },
	[RLIMIT_FSIZE]		= { "Max file size", "bytes" },
	[RLIMIT_DATA]		= { "Max data size", "bytes" },
	[RLIMIT_STACK]		= { "Max stack size", "bytes" },
	[RLIMIT_CORE]		= { "Max core file size", "bytes" },
	[RLIMIT_RSS]		= { "Max resident set", "bytes" },
	[RLIMIT_NPROC]		= { "Max processes", "processes" },
	[RLIMIT_NOFILE]		= { "Max open files", "files" },
	[RLIMIT_MEMLOCK]	= { "Max locked memory", "bytes" },
	[RLIMIT_AS]		= { "Max address space", "bytes" },
	[RLIMIT_LOCKS]		= { "Max file locks", "locks" },
	[RLIMIT_SIGPENDING]	= { "Max pending signals", "signals" },
	[RLIMIT_MSGQUEUE]	= { "Max msgqueue size", "bytes" },
	[RLIMIT_NICE]		= { "Max nice priority", NULL },
	[RLIMIT_RTPRIO]		= { "Max realtime priority", NULL },
	[RLIMIT_RTTIME]		= { "Max realtime timeout", "us" },
};

/* One limit in its 20-character column and the space after it. */
static void limit_show(struct seq_file *m, unsigned long limit)
{
	if (limit == RLIM_INFINITY)
		seq_printf(m, "%-20s ", "unlimited");
	else
		seq_printf(m, "%-20lu ", limit);
}

int proc_pid_limits(struct seq_file *m, struct task_struct *task)
{
	const struct task_rlimit *rlim;
	unsigned int i;

	seq_printf(m, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit", "Hard Limit", "Units");
	for (i = 0; i < RLIM_NLIMITS; i++) {
		rlim = task_rlim(task, i);
		seq_printf(m, "%-25s ", limit_names[i].name);
		limit_show(m, rlim->rlim_cur);
		limit_show(m, rlim->rlim_max);
		if (limit_names[i].unit)
			seq_printf(m, "%-10s\n", limit_names[i].unit);
		else
			seq_puts(m, "\n");
	}
	return 0;
}

void getrusage(struct task_struct *p, int who, struct rusage *r)
{
	uint64_t utime = 0, stime = 0;
	unsigned long rss;

	memset(r, 0, sizeof(*r));
	if (who != RUSAGE_CHILDREN) {
		utime += p->utime;
		stime += p->stime;
		r->ru_minflt = p->min_flt;
		r->ru_majflt = p->maj_flt;
		if (p->mm) {
			rss = p->mm->anon_rss + p->mm->file_rss;
			r->ru_maxrss = MAX(p->mm->hiwater_rss, rss) << (PAGE_SHIFT - 10);
		}
	}
	if (who == RUSAGE_CHILDREN || who == RUSAGE_BOTH) {
		utime += p->cutime;
		stime += p->cstime;
	}
	jiffies_to_timeval(utime, &r->ru_utime);
	jiffies_to_timeval(stime, &r->ru_stime);
}

/* getrusage(2) of the caller (RUSAGE_SELF, _THREAD) or its reaped
 * children (RUSAGE_CHILDREN): 0, -EINVAL, -EFAULT. */
long sys_getrusage(int who, struct rusage __user *ru)
{
	struct rusage r;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	getrusage(current, who, &r);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

/* Clock ticks since boot; user and system times in ticks (USER_HZ ==
 * HZ, so no conversion). */
long sys_times(struct tms __user *tbuf)
{
	if (tbuf) {
		struct tms t = {
			.tms_utime = current->utime,
			.tms_stime = current->stime,
			.tms_cutime = current->cutime,
			.tms_cstime = current->cstime,
		};

		if (copy_to_user(tbuf, &t, sizeof(t)))
			return -EFAULT;
	}
	return jiffies;
}

/* ---- priorities ----------------------------------------------------------- */

/*
 * Does any task match which/who?  PRIO_PROCESS names a pid (0: the
 * caller), PRIO_PGRP a process group (0: the caller's), PRIO_USER a uid
 * (0: the caller's; every task is root's).  0, -EINVAL, -ESRCH.
 */
static int prio_targets_exist(int which, int who)
{
	struct task_struct *p;

	switch (which) {
	case PRIO_PROCESS:
		return !who || find_task_by_pid(who) ? 0 : -ESRCH;
	case PRIO_PGRP:
		if (!who)
			who = current->pgid;
		list_for_each_entry(p, &task_list_head, tasks)
			if (p->pgid == who)
				return 0;
		return -ESRCH;
	case PRIO_USER:
		return who == 0 ? 0 : -ESRCH;
	default:
		return -EINVAL;
	}
}

/* The raw syscall returns 20 - nice (1..40) so that no success looks
 * like an error; every task has nice 0. */
long sys_getpriority(int which, int who)
{
	int err = prio_targets_exist(which, who);

	return err ? err : 20;
}

long sys_setpriority(int which, int who, int niceval)
{
	int err = prio_targets_exist(which, who);

	if (err)
		return err;
	niceval = MAX(MIN_NICE, MIN(niceval, MAX_NICE));
	return niceval == 0 ? 0 : -EPERM;
}

/* ---- prctl, rseq, sched_getaffinity --------------------------------------- */

#define PR_GET_DUMPABLE		3
#define PR_SET_DUMPABLE		4
#define PR_SET_NAME		15
#define PR_GET_NAME		16
#define SUID_DUMP_DISABLE	0
#define SUID_DUMP_USER		1

/*
 * The name (comm, 15 characters at most) and the dumpable flag.  No core
 * dumps are written, so dumpable has no effect: PR_SET_DUMPABLE accepts
 * Linux's two values and PR_GET_DUMPABLE always says SUID_DUMP_USER.
 * Every other option is -EINVAL, as Linux says of one it lacks.
 */
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5)
{
	char comm[TASK_COMM_LEN];

	(void)arg3;
	(void)arg4;
	(void)arg5;
	switch (option) {
	case PR_SET_NAME:
		memset(comm, 0, sizeof(comm));
		if (strncpy_from_user(comm, (const char __user *)arg2, sizeof(comm) - 1) < 0)
			return -EFAULT;
		comm[sizeof(comm) - 1] = '\0';
		memcpy(current->comm, comm, sizeof(comm));
		return 0;
	case PR_GET_NAME:
		return copy_to_user((void __user *)arg2, current->comm, sizeof(current->comm)) ? -EFAULT : 0;
	case PR_GET_DUMPABLE:
		return SUID_DUMP_USER;
	case PR_SET_DUMPABLE:
		return arg2 == SUID_DUMP_DISABLE || arg2 == SUID_DUMP_USER ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/* Restartable sequences are not supported; glibc then does without. */
long sys_rseq(void __user *rseq, uint32_t rseq_len, int flags, uint32_t sig)
{
	(void)rseq;
	(void)rseq_len;
	(void)flags;
	(void)sig;
	return -ENOSYS;
}

#define NR_CPUS		1

/* One CPU: the mask is bit 0, and the call returns the bytes it wrote,
 * one unsigned long (Linux's cpumask_size() for up to 64 CPUs).  len
 * must hold NR_CPUS bits and be a multiple of a long (-EINVAL). */
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	unsigned long mask = 1;

	if (len * 8 < NR_CPUS || (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	if (pid && !find_task_by_pid(pid))
		return -ESRCH;
	if (copy_to_user(user_mask_ptr, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

/* ---- syslog ------------------------------------------------------------------ */

#define SYSLOG_ACTION_CLOSE		0
#define SYSLOG_ACTION_OPEN		1
#define SYSLOG_ACTION_READ		2
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CLEAR		5
#define SYSLOG_ACTION_CONSOLE_OFF	6
#define SYSLOG_ACTION_CONSOLE_ON	7
#define SYSLOG_ACTION_CONSOLE_LEVEL	8
#define SYSLOG_ACTION_SIZE_UNREAD	9
#define SYSLOG_ACTION_SIZE_BUFFER	10
#define MINIMUM_CONSOLE_LOGLEVEL	1	/* CONSOLE_OFF still shows KERN_EMERG */

static int saved_console_loglevel = -1;
static uint64_t syslog_seq;	/* SYSLOG_ACTION_READ's position */
static uint64_t clear_seq;	/* where the log starts after a CLEAR */

/* Copy the log from *pos on to the user's buffer, at most len bytes:
 * the count or -EFAULT. */
static long syslog_copy(uint64_t *pos, char __user *buf, int len)
{
	char *kbuf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	long done = 0;
	size_t n;

	if (!kbuf)
		return -ENOMEM;
	while (done < len && (n = log_read(pos, kbuf, MIN((size_t)(len - done), PAGE_SIZE)))) {
		if (copy_to_user(buf + done, kbuf, n)) {
			done = done ? done : -EFAULT;
			break;
		}
		done += (long)n;
	}
	kfree(kbuf);
	return done;
}

/*
 * syslog(2) (klogctl in the C libraries), Linux's actions over the kernel
 * log (printk.h): READ_ALL gives the newest len bytes since the last
 * CLEAR without consuming them (dmesg), READ consumes from its own
 * position and waits for new text, SIZE_BUFFER is the ring's size.  The
 * console actions change console_loglevel.
 */
long sys_syslog(int type, char __user *buf, int len)
{
	uint64_t pos;
	long ret;

	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	case SYSLOG_ACTION_SIZE_UNREAD:
		pos = MAX(syslog_seq, log_end() > LOG_BUF_LEN ? log_end() - LOG_BUF_LEN : 0);
		return (long)(log_end() - pos);
	case SYSLOG_ACTION_CLEAR:
		clear_seq = log_end();
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		if (!access_ok(buf, len))
			return -EFAULT;
		if (type == SYSLOG_ACTION_READ) {
			while (syslog_seq >= log_end()) {
				if (signal_pending(current))
					return -ERESTARTSYS;
				schedule_timeout_interruptible(HZ / 10);
			}
			return syslog_copy(&syslog_seq, buf, len);
		}
		pos = MAX(clear_seq, log_end() > (uint64_t)len ? log_end() - (uint64_t)len : 0);
		ret = syslog_copy(&pos, buf, len);
		if (ret >= 0 && type == SYSLOG_ACTION_READ_CLEAR)
			clear_seq = log_end();
		return ret;
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel == -1)
			saved_console_loglevel = console_loglevel;
		console_loglevel = MINIMUM_CONSOLE_LOGLEVEL;
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel != -1) {
			console_loglevel = saved_console_loglevel;
			saved_console_loglevel = -1;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel = MAX(len, MINIMUM_CONSOLE_LOGLEVEL);
		saved_console_loglevel = -1;
		return 0;
	default:
		return -EINVAL;
	}
}

/* ---- reboot ------------------------------------------------------------------ */

#define I8042_COMMAND_REG	0x64
#define I8042_STATUS_IBF	0x02	/* input buffer full: not ready for a command */
#define I8042_CMD_PULSE_RESET	0xfe	/* pulse output line 0: the CPU's reset */

/* Wait (up to ~100 ms) until the keyboard controller takes a command. */
static void kb_wait(void)
{
	unsigned int i;

	for (i = 0; i < 50000; i++) {
		if (!(inb(I8042_COMMAND_REG) & I8042_STATUS_IBF))
			return;
		udelay(2);
	}
}

/*
 * Reset the machine (Linux's machine_restart with reboot=kbd,triple):
 * first through the keyboard controller, whose output line 0 is wired to
 * the CPU's reset; if that does nothing, by a triple fault: with an
 * empty IDT the breakpoint cannot be delivered, nor the double fault
 * that follows, and the CPU resets itself.
 */
static __noreturn void machine_restart(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed no_idt = { 0, 0 };
	unsigned int i;

	cli();
	for (i = 0; i < 10; i++) {
		kb_wait();
		outb(I8042_COMMAND_REG, I8042_CMD_PULSE_RESET);
		udelay(50);
	}
	__asm__ volatile("lidt %0; int3" : : "m"(no_idt));
	halt_forever();
}

/*
 * reboot(2), root only as on Linux (and everyone is root).  After the
 * magic numbers (-EINVAL when wrong):
 *   POWER_OFF, HALT  "reboot: Power down" / "reboot: System halted",
 *                    write every filesystem back, run the in-kernel tests
 *                    test_at_poweroff= names (kernel/ktest.c), then leave
 *                    QEMU through isa-debug-exit with QEMU_EXIT_PASS (or
 *                    the tests' FAIL); where no such
 *                    device answers, qemu_exit() halts the CPU for good
 *                    with interrupts off.
 *   RESTART(2)       "reboot: Restarting system", write back, reset.
 *   CAD_ON, CAD_OFF  accepted: the keyboard does not act on Ctrl-Alt-Del.
 * KEXEC, SW_SUSPEND and unknown commands are -EINVAL (not configured).
 */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void __user *arg)
{
	char why[256];

	if ((unsigned int)magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		return 0;
	case LINUX_REBOOT_CMD_POWER_OFF:
	case LINUX_REBOOT_CMD_HALT:
		printk(KERN_EMERG "reboot: %s\n",
		       cmd == LINUX_REBOOT_CMD_HALT ? "System halted" : "Power down");
		sync_filesystems();
		qemu_exit(ktest_exit_status_at_poweroff());
	case LINUX_REBOOT_CMD_RESTART2:
		if (strncpy_from_user(why, arg, sizeof(why) - 1) < 0)
			return -EFAULT;
		why[sizeof(why) - 1] = '\0';
		printk(KERN_EMERG "reboot: Restarting system with command '%s'\n", why);
		sync_filesystems();
		machine_restart();
	case LINUX_REBOOT_CMD_RESTART:
		printk(KERN_EMERG "reboot: Restarting system\n");
		sync_filesystems();
		machine_restart();
	default:
		return -EINVAL;
	}
}
