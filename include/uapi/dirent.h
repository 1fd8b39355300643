/*
 * getdents64(2)'s record (Linux's struct linux_dirent64, fs/readdir.c).
 * Records are packed one after another, each d_reclen bytes long, a
 * multiple of 8; d_name is NUL-terminated.  d_off is the directory
 * position just after the entry (what lseek takes to resume there).
 */
#ifndef PAGETURN_UAPI_DIRENT_H
#define PAGETURN_UAPI_DIRENT_H

#include <pageturn/types.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;		/* DT_* (uapi/stat.h) */
	char d_name[];
};

#endif
