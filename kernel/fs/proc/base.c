/*
 * /proc/PID: one directory per task (Linux's fs/proc/base.c).
 *
 * Which tasks: every task on task_list_head except the idle task (pid
 * 0, Linux's swapper, which /proc does not show either) and tasks
 * already dead (TASK_DEAD, EXIT_DEAD); kernel threads and zombies are
 * shown, as on Linux.  Processes are single-threaded, so a pid is a
 * process and there are no task/ subdirectories.
 *
 * What each directory holds (proc_pid_entries[]):
 *
 *   stat, status, statm   array.c
 *   maps                  task_mmu.c
 *   cmdline               the argument strings, NUL-separated, read from
 *                         the process's own memory [arg_start, arg_end)
 *                         through its page tables; empty for a kernel
 *                         thread or a zombie
 *   comm                  the name and a newline
 *   limits                the resource limits, Linux's columns (kernel/sys.c)
 *   oom_score             the OOM killer's view of the task, 0..2000
 *                         (mm/oom_kill.c's oom_badness, scaled as Linux 5.9)
 *   oom_score_adj         its bias, -1000..1000: read, and written with
 *                         one decimal, octal or hex number (else -EINVAL);
 *                         fork copies it, exec keeps it
 *   exe                   a symlink to the program's path (exe_path)
 *   cwd, root             symlinks to the working and root directories
 *
 * Reading another process's memory: the process is not running, so its
 * pages are found through its page tables (pt_lookup on mm->pgd) and
 * read through the direct map, page by page; a swapped page is read from
 * its slot without being mapped (mm/memory.c's access_swapped_page).  A
 * page neither present nor on swap ends the read early.  Nothing here
 * sleeps between finding the task and reading it, except where a
 * function says how it keeps what it uses alive.
 */
#include <asm/page.h>
#include <asm/pgtable.h>
#include <fs/vfs.h>
#include <mm/mm_types.h>
#include <mm/mmap.h>
#include <mm/oom.h>
#include <mm/pgtable.h>
#include <mm/slab.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/sysctl.h>
#include <trace/events/oom.h>
#include <uapi/errno.h>

#include "internal.h"

static int proc_exe_readlink(struct task_struct *task, char *buf, size_t len);
static int proc_cwd_readlink(struct task_struct *task, char *buf, size_t len);
static int proc_root_readlink(struct task_struct *task, char *buf, size_t len);

static const struct proc_entry proc_pid_entries[] = {
	{ "stat", S_IFREG | 0444, .show_task = proc_pid_stat },
	{ "status", S_IFREG | 0444, .show_task = proc_pid_status },
	{ "statm", S_IFREG | 0444, .show_task = proc_pid_statm },
	{ "maps", S_IFREG | 0444, .show_task = proc_pid_maps },
	{ "cmdline", S_IFREG | 0444, .show_task = proc_pid_cmdline },
	{ "comm", S_IFREG | 0444, .show_task = proc_pid_comm },
	{ "limits", S_IFREG | 0444, .show_task = proc_pid_limits },
	{ "oom_score", S_IFREG | 0444, .show_task = proc_oom_score_show },
	{ "oom_score_adj", S_IFREG | 0644, .show_task = proc_oom_score_adj_show,
	  .write_task = proc_oom_score_adj_write },
	{ "exe", S_IFLNK | 0777, .readlink = proc_exe_readlink },
	{ "cwd", S_IFLNK | 0777, .readlink = proc_cwd_readlink },
	{ "root", S_IFLNK | 0777, .readlink = proc_root_readlink },
};

_Static_assert(ARRAY_SIZE(proc_pid_entries) < PROC_PID_SLOTS,
	       "a pid's inode numbers: its directory and one per entry");

static const struct inode_operations proc_pid_dir_inode_operations;
static const struct file_operations proc_pid_dir_operations;

static bool proc_task_visible(const struct task_struct *p)
{
	return p->pid > 0 && p->state != TASK_DEAD && p->exit_state != EXIT_DEAD;
}

struct task_struct *proc_find_task(int pid)
{
	struct task_struct *p = pid > 0 ? find_task_by_pid(pid) : NULL;

	return p && proc_task_visible(p) ? p : NULL;
}

int proc_next_pid(int pid)
{
	struct task_struct *p;
	int best = -1;

	list_for_each_entry(p, &task_list_head, tasks)
		if (p->pid >= pid && proc_task_visible(p) && (best < 0 || p->pid < best))
			best = p->pid;
	return best;
}

int proc_pid_read_inode(struct inode *inode)
{
	unsigned int slot = proc_ino_slot(inode->i_ino);

	if (!proc_find_task(proc_ino_pid(inode->i_ino)))
		return -ENOENT;
	if (slot == 0) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &proc_pid_dir_inode_operations;
		inode->i_fop = &proc_pid_dir_operations;
		return 0;
	}
	if (slot - 1 >= ARRAY_SIZE(proc_pid_entries))
		return -ENOENT;
	proc_init_entry_inode(inode, &proc_pid_entries[slot - 1]);
	return 0;
}

static int proc_pid_lookup(struct inode *dir, const char *name, struct inode **res)
{
	int pid = proc_ino_pid(dir->i_ino);
	size_t i;

	if (strcmp(name, "..") == 0)
		return iget(dir->i_sb, PROC_ROOT_INO, res);
	for (i = 0; i < ARRAY_SIZE(proc_pid_entries); i++)
		if (strcmp(proc_pid_entries[i].name, name) == 0)
			return iget(dir->i_sb, proc_pid_ino(pid, i + 1), res);
	return -ENOENT;
}

/* f_pos 0 is ".", 1 "..", 2 + i entry i. */
static int proc_pid_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	uint64_t ino = file->f_inode->i_ino;
	int pid = proc_ino_pid(ino);
	const struct proc_entry *e;
	loff_t pos;

	if (!proc_find_task(pid))
		return -ENOENT;
	for (pos = file->f_pos; pos >= 0 && pos < (loff_t)ARRAY_SIZE(proc_pid_entries) + 2; pos++) {
		if (pos < 2) {
			if (filldir(ctx, pos ? ".." : ".", pos + 1, pos ? PROC_ROOT_INO : ino, DT_DIR))
				break;
		} else {
			e = &proc_pid_entries[pos - 2];
			if (filldir(ctx, e->name, strlen(e->name), proc_pid_ino(pid, pos - 1),
				    (e->mode & S_IFMT) >> 12))
				break;
		}
		file->f_pos = pos + 1;
	}
	return 0;
}

static const struct inode_operations proc_pid_dir_inode_operations = {
	.lookup = proc_pid_lookup,
};

static const struct file_operations proc_pid_dir_operations = {
	.iterate = proc_pid_iterate,
};

/*
 * Copy len bytes at user address addr of mm into buf through mm's page
 * tables (Linux's access_remote_vm): the bytes copied, fewer when a page
 * is neither present nor on swap, or not a user page.  A swapped page is
 * read from its slot without being mapped (access_swapped_page), which
 * sleeps: the caller holds mm (mm_users), and each page is looked up
 * afresh.
 */
static size_t access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len)
{
	size_t done = 0, n;
	phys_addr_t pa;
	uint64_t prot;
	int err;

	while (done < len) {
		n = MIN(len - done, PAGE_SIZE - (addr & ~PAGE_MASK));
		if (!pt_lookup(mm->pgd, addr, &pa, &prot, NULL)) {
			if (!(prot & _PAGE_USER))
				break;
			memcpy((char *)buf + done, phys_to_virt(pa), n);
		} else {
			err = access_swapped_page(mm, addr, (char *)buf + done, n);
			/* -EAGAIN: the page came back meanwhile; look again. */
			if (err == -EAGAIN && !pt_lookup(mm->pgd, addr, &pa, &prot, NULL))
				continue;
			if (err)
				break;
		}
		done += n;
		addr += n;
	}
	return done;
}

/*
 * The argument strings as exec laid them out, NULs included: read
 * straight into the seq_file's buffer (a whole write or, when it does not
 * fit, overflow and nothing, so procfs retries larger).
 */
int proc_pid_cmdline(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	size_t len;

	if (!mm || mm->arg_end <= mm->arg_start)
		return 0;
	len = mm->arg_end - mm->arg_start;
	if (len > m->size - m->count) {
		m->overflow = true;
		return 0;
	}
	/* Held across the reads of swapped pages, which sleep. */
	mm->mm_users++;
	m->count += access_remote_vm(mm, mm->arg_start, m->buf + m->count, len);
	mmput(mm);
	return 0;
}

/* The task's name and a newline. */
int proc_pid_comm(struct seq_file *m, struct task_struct *task)
{
	seq_printf(m, "%.*s\n", TASK_COMM_LEN, task->comm);
	return 0;
}

/* Copy the string s, without its NUL, into a readlink buffer. */
static int copy_link(const char *s, char *buf, size_t len)
{
	size_t n = MIN(len, strlen(s));

	memcpy(buf, s, n);
	return n;
}

/* The program a process runs; a kernel thread or a zombie has none. */
static int proc_exe_readlink(struct task_struct *task, char *buf, size_t len)
{
	if (!task->mm || !task->exe_path)
		return -ENOENT;
	return copy_link(task->exe_path, buf, len);
}

/*
 * The path of dir (a directory of task's fs_struct), relative to the
 * reader's root as Linux's d_path.  A kernel thread uses init_fs; a
 * zombie has no fs_struct (-ENOENT).  The inode is held across the walk,
 * which may sleep; nothing of the task is used after it.
 */
static int dir_readlink(struct inode *dir, char *buf, size_t len)
{
	char *path;
	long n;

	if (!dir)
		return -ENOENT;
	ihold(dir);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path) {
		iput(dir);
		return -ENOMEM;
	}
	n = vfs_dir_path(dir, path, PATH_MAX);
	iput(dir);
	if (n >= 0)
		n = copy_link(path, buf, len);
	kfree(path);
	return n;
}

struct fs_struct *task_fs(struct task_struct *task)
{
	if (task->fs)
		return task->fs;
	return task->exit_state ? NULL : &init_fs;
}

static int proc_cwd_readlink(struct task_struct *task, char *buf, size_t len)
{
	struct fs_struct *fs = task_fs(task);

	return dir_readlink(fs ? fs->pwd : NULL, buf, len);
}

static int proc_root_readlink(struct task_struct *task, char *buf, size_t len)
{
	struct fs_struct *fs = task_fs(task);

	return dir_readlink(fs ? fs->root : NULL, buf, len);
}

int proc_oom_score_adj_show(struct seq_file *m, struct task_struct *task)
{
	seq_printf(m, "%d\n", task->oom_score_adj);
	return 0;
}

/*
 * One number in -1000..1000, parsed as a /proc/sys integer
 * (proc_dointvec_minmax: blanks around it, a sign, decimal, octal or
 * hex); anything else is -EINVAL and changes nothing.
 */
int proc_oom_score_adj_write(struct task_struct *task, char *buf, size_t len)
{
	static int min = OOM_SCORE_ADJ_MIN, max = OOM_SCORE_ADJ_MAX;
	int value = task->oom_score_adj;
	struct ctl_table table = {
		.procname = "oom_score_adj", .data = &value, .maxlen = sizeof(int),
		.mode = 0644, .extra1 = &min, .extra2 = &max,
	};
	size_t used = len;
	loff_t pos = 0;
	int err;

	err = proc_dointvec_minmax(&table, 1, buf, &used, &pos);
	if (err)
		return err;
	if (used != len)	/* more than one number, or trailing garbage */
		return -EINVAL;
	task->oom_score_adj = (short)value;
	trace_oom_score_adj_update(task);
	return 0;
}

/*
 * oom_badness scaled into 0..2000 (Linux 5.9's proc_oom_score): 0 for a
 * task that is never chosen, else (1000 + badness * 1000 / totalpages)
 * * 2 / 3, badness lying between -totalpages and 2 * totalpages.
 */
int proc_oom_score_show(struct seq_file *m, struct task_struct *task)
{
	unsigned long totalpages = oom_totalpages();
	long badness = oom_badness(task, totalpages);
	unsigned long points = 0;

	if (badness != LONG_MIN && totalpages)
		points = (unsigned long)((1000 + badness * 1000 / (long)totalpages) * 2 / 3);
	seq_printf(m, "%lu\n", points);
	return 0;
}
