/*
 * sysinfo(2)'s struct sysinfo, x86-64 Linux layout (linux/sysinfo.h):
 * 112 bytes.  Memory sizes are in units of mem_unit bytes; the load
 * averages are fixed point with SI_LOAD_SHIFT fractional bits.
 */
#ifndef PAGETURN_UAPI_SYSINFO_H
#define PAGETURN_UAPI_SYSINFO_H

#define SI_LOAD_SHIFT	16

struct sysinfo {
	long uptime;			/* seconds since boot */
	unsigned long loads[3];		/* 1, 5 and 15 minute load averages */
	unsigned long totalram;		/* usable main memory */
	unsigned long freeram;		/* free memory */
	unsigned long sharedram;	/* shared memory (tmpfs, shared anonymous) */
	unsigned long bufferram;	/* buffer cache */
	unsigned long totalswap;
	unsigned long freeswap;
	unsigned short procs;		/* tasks in existence */
	unsigned short pad;
	unsigned long totalhigh;	/* high memory: none on x86-64 */
	unsigned long freehigh;
	unsigned int mem_unit;		/* bytes per unit of the sizes above */
	char _f[20 - 2 * sizeof(long) - sizeof(int)];	/* 0 bytes on 64-bit: padding */
};

_Static_assert(sizeof(struct sysinfo) == 112, "struct sysinfo is 112 bytes on x86-64");

#endif
