/*
 * sysctl: kernel settings as files under /proc/sys (Linux's
 * include/linux/sysctl.h, the parts /proc/sys uses).
 *
 * A setting is one row of a struct ctl_table: its file name, the kernel
 * variable behind it (data, maxlen bytes), its mode, and the handler
 * that turns the variable into text for a read and text into the
 * variable for a write.  Tables nest one level: sysctl_base_table
 * (kernel/sysctl.c) names the directories of /proc/sys, each with a
 * child table of files, every table ending with an empty row.
 *
 * A handler is called as Linux calls it: buffer holds the bytes written
 * (NUL-terminated) or receives the text read; *lenp is the bytes offered
 * on entry and the bytes consumed or produced on return; *ppos is the
 * file position, advanced by the handler.  It returns 0 or -errno.
 */
#ifndef PAGETURN_SYSCTL_H
#define PAGETURN_SYSCTL_H

#include <fs/vfs.h>	/* loff_t, umode_t */

struct ctl_table;

typedef int proc_handler(const struct ctl_table *table, int write, void *buffer, size_t *lenp,
			 loff_t *ppos);

struct ctl_table {
	const char *procname;		/* the file's name; NULL ends a table */
	void *data;			/* the variable */
	int maxlen;			/* its size in bytes */
	umode_t mode;			/* permission bits: 0644, 0200, 0555 for a directory */
	const struct ctl_table *child;	/* a directory's entries */
	proc_handler *proc_handler;
	void *extra1, *extra2;		/* proc_dointvec_minmax's bounds (int *), NULL: none */
};

/* The directories of /proc/sys. */
extern const struct ctl_table sysctl_base_table[];

/* Linux's sysctl_vals[] constants, for extra1/extra2. */
extern int sysctl_vals_zero, sysctl_vals_one, sysctl_vals_four, sysctl_vals_hundred;
#define SYSCTL_ZERO	((void *)&sysctl_vals_zero)
#define SYSCTL_ONE	((void *)&sysctl_vals_one)
#define SYSCTL_FOUR	((void *)&sysctl_vals_four)
#define SYSCTL_HUNDRED	((void *)&sysctl_vals_hundred)

/*
 * The integers in data (maxlen / sizeof(int) of them) as decimal text:
 * a read gives them separated by tabs, then "\n", and only at position
 * 0 (a read further on is the end); a write parses whitespace-separated
 * decimal, octal ("0..") or hexadecimal ("0x..") numbers, each with an
 * optional '-', ended by whitespace (' ', '\t', '\n').  Garbage, a
 * number that overflows an int, or no number at all: -EINVAL.  A write
 * at a position other than 0 is consumed and ignored (Linux's
 * sysctl_writes_strict = 1).  Bytes after the last number that are not
 * whitespace are not consumed: *lenp comes back short.
 */
proc_handler proc_dointvec;
/* proc_dointvec, and a value below *extra1 or above *extra2 is -EINVAL
 * (the variable keeps its old value). */
proc_handler proc_dointvec_minmax;

/* The handlers the vm table uses: fs/inode.c, mm/page_alloc.c. */
extern int sysctl_drop_caches;
proc_handler drop_caches_sysctl_handler;
proc_handler min_free_kbytes_sysctl_handler;

#endif
