/*
 * The text of Pageturn's /proc files, in Linux's formats and names.  Each
 * show function writes a whole file into a seq_file; procfs (with the
 * VFS) serves them, and in-kernel tests read them directly.
 */
#ifndef FS_PROC_FS_H
#define FS_PROC_FS_H

#include <fs/seq_file.h>

void meminfo_proc_show(struct seq_file *m);	/* /proc/meminfo */
void vmstat_show(struct seq_file *m);		/* /proc/vmstat (mm/vmstat.c) */
void zoneinfo_show(struct seq_file *m);		/* /proc/zoneinfo (mm/vmstat.c) */

#endif
