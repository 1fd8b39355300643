/*
 * The text of Pageturn's /proc files, in Linux's formats and names.  Each
 * show function writes a whole file into a seq_file; procfs (with the
 * VFS) serves them, and in-kernel tests call them directly.
 * kernel/fs/proc/root.c explains the filesystem and docs/procfs.md every
 * file's format and sources.
 *
 * A show function only appends to the seq_file; when the text does not
 * fit, seq_has_overflowed() says so and procfs calls it again with a
 * larger buffer.  Process context (some read other processes' memory or
 * walk directories).
 */
#ifndef FS_PROC_FS_H
#define FS_PROC_FS_H

#include <fs/seq_file.h>

struct task_struct;

/* /proc's own files. */
void meminfo_proc_show(struct seq_file *m);	/* /proc/meminfo (proc/meminfo.c) */
void vmstat_show(struct seq_file *m);		/* /proc/vmstat (mm/vmstat.c) */
void zoneinfo_show(struct seq_file *m);		/* /proc/zoneinfo (mm/vmstat.c) */
void stat_proc_show(struct seq_file *m);	/* /proc/stat (proc/stat.c) */
void uptime_proc_show(struct seq_file *m);	/* /proc/uptime (proc/stat.c) */
void loadavg_proc_show(struct seq_file *m);	/* /proc/loadavg (proc/stat.c) */
void cmdline_proc_show(struct seq_file *m);	/* /proc/cmdline (proc/root.c) */
void mounts_proc_show(struct seq_file *m);	/* /proc/mounts (proc/root.c) */
void diskstats_show(struct seq_file *m);	/* /proc/diskstats (drivers/block/blk-core.c) */
void partitions_proc_show(struct seq_file *m);	/* /proc/partitions (drivers/block/genhd.c) */
void version_proc_show(struct seq_file *m);	/* /proc/version (kernel/sys.c: the utsname) */
/* /proc/filesystems: "nodev\tproc" or "\text2", one line per registered
 * type, in registration order (kernel/fs/super.c: the type list). */
void filesystems_proc_show(struct seq_file *m);

/*
 * The files of /proc/PID for task (any task, running or not, a kernel
 * thread, a zombie): 0, or -errno with nothing useful written.
 */
int proc_pid_stat(struct seq_file *m, struct task_struct *task);	/* stat (proc/array.c) */
int proc_pid_status(struct seq_file *m, struct task_struct *task);	/* status (proc/array.c) */
int proc_pid_statm(struct seq_file *m, struct task_struct *task);	/* statm (proc/array.c) */
int proc_pid_maps(struct seq_file *m, struct task_struct *task);	/* maps (proc/task_mmu.c) */
int proc_pid_cmdline(struct seq_file *m, struct task_struct *task);	/* cmdline (proc/base.c) */
int proc_pid_comm(struct seq_file *m, struct task_struct *task);	/* comm (proc/base.c) */

/* Pages of the buffer cache (kernel/fs/buffer.c; Linux's
 * nr_blockdev_pages): meminfo's Buffers, sysinfo's bufferram. */
unsigned long nr_blockdev_pages(void);

#endif
