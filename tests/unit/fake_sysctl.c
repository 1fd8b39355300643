/*
 * What kernel/sysctl.c's vm table names from kernel/fs/inode.c, for unit
 * tests that link kernel/sysctl.c without the VFS: the variable, and a
 * handler that only parses (nothing to drop here).
 */
#include <pageturn/sysctl.h>

int sysctl_drop_caches;

int drop_caches_sysctl_handler(const struct ctl_table *table, int write, void *buffer,
			       size_t *lenp, loff_t *ppos)
{
	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}

/* mm/vmscan.c's and mm/swap_state.c's, for the tests that do not link
 * them. */
__attribute__((weak)) int vm_swappiness = 60;
__attribute__((weak)) int page_cluster = 3;
