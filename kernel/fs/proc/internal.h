/*
 * What the files of procfs share and nothing else needs (Linux's
 * fs/proc/internal.h): the entry tables' type, the inode numbering and
 * the operations root.c provides for every file and symlink.
 */
#ifndef KERNEL_FS_PROC_INTERNAL_H
#define KERNEL_FS_PROC_INTERNAL_H

#include <fs/proc_fs.h>
#include <fs/vfs.h>

struct task_struct;

/*
 * One name in a procfs directory: /proc/sys (mode S_IFDIR | 0555, no
 * functions: proc_sysctl.c makes it), a regular file (mode S_IFREG | 0444)
 * whose text show (for /proc) or show_task (for /proc/PID) writes, or
 * a symbolic link (S_IFLNK | 0777) whose target readlink copies into
 * buf (at most len bytes, no NUL): the bytes copied or -errno; its task
 * is NULL for a link of /proc itself.  A /proc/PID file with mode 0644
 * also takes writes: write_task gets the bytes written (at most
 * PROC_WRITE_MAX of them, NUL-terminated) and returns 0 or -errno.
 */
struct proc_entry {
	const char *name;
	umode_t mode;
	void (*show)(struct seq_file *m);
	int (*show_task)(struct seq_file *m, struct task_struct *task);
	int (*readlink)(struct task_struct *task, char *buf, size_t len);
	int (*write_task)(struct task_struct *task, char *buf, size_t len);
};

#define PROC_WRITE_MAX	63	/* bytes of a write a write_task sees (Linux: PROC_NUMBUF - 1 and more) */

/*
 * Inode numbers: 1 is /proc, 2 + i the i-th entry of /proc, and each
 * pid owns PROC_PID_SLOTS numbers from PROC_PID_INO_BASE + pid *
 * PROC_PID_SLOTS: slot 0 its directory, slot i + 1 its i-th entry.  An
 * inode number alone says what an inode is and, for /proc/PID, which
 * task: no inode keeps a pointer to a task, which may be gone by the
 * time the inode is used.
 */
#define PROC_ROOT_INO		1
#define PROC_PID_INO_BASE	0x10000ul
#define PROC_PID_SLOTS		16

static inline uint64_t proc_pid_ino(int pid, unsigned int slot)
{
	return PROC_PID_INO_BASE + (uint64_t)pid * PROC_PID_SLOTS + slot;
}

static inline bool proc_ino_is_pid(uint64_t ino)
{
	return ino >= PROC_PID_INO_BASE;
}

static inline int proc_ino_pid(uint64_t ino)
{
	return (ino - PROC_PID_INO_BASE) / PROC_PID_SLOTS;
}

static inline unsigned int proc_ino_slot(uint64_t ino)
{
	return (ino - PROC_PID_INO_BASE) % PROC_PID_SLOTS;
}

/* root.c: make inode entry e's file or symlink (i_private = e). */
void proc_init_entry_inode(struct inode *inode, const struct proc_entry *e);

/* proc_sysctl.c: /proc/sys.  Its files' inode numbers lie between
 * /proc's entries and PROC_PID_INO_BASE. */
void proc_sys_init_root(struct inode *inode);
bool proc_ino_is_sys(uint64_t ino);
int proc_sys_read_inode(struct inode *inode);

/* base.c: /proc/PID. */
/* The task /proc shows as pid, or NULL: every task but the idle task
 * (pid 0) and dead ones (a zombie is shown). */
struct task_struct *proc_find_task(int pid);
/* The smallest pid >= pid that /proc shows, or -1. */
int proc_next_pid(int pid);
/* read_inode for an inode number of a pid (proc_ino_is_pid). */
int proc_pid_read_inode(struct inode *inode);
/* The root and working directory task resolves paths against: its
 * fs_struct, init_fs for a kernel thread, NULL for a zombie. */
struct fs_struct *task_fs(struct task_struct *task);

/* base.c: /proc/PID/oom_score_adj and oom_score. */
int proc_oom_score_adj_show(struct seq_file *m, struct task_struct *task);
int proc_oom_score_adj_write(struct task_struct *task, char *buf, size_t len);
int proc_oom_score_show(struct seq_file *m, struct task_struct *task);

/* task_mmu.c: the memory lines of status, and statm's counts. */
void task_mem(struct seq_file *m, struct mm_struct *mm);
unsigned long task_statm(struct mm_struct *mm, unsigned long *shared, unsigned long *text,
			 unsigned long *data, unsigned long *resident);

#endif
