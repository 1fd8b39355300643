/*
 * Filesystem magic numbers: statfs(2)'s f_type (Linux's
 * include/uapi/linux/magic.h).  ext2's, 0xEF53, is EXT2_SUPER_MAGIC in
 * fs/ext2_fs.h, with the rest of its on-disk format.
 */
#ifndef PAGETURN_UAPI_MAGIC_H
#define PAGETURN_UAPI_MAGIC_H

#define PROC_SUPER_MAGIC	0x9fa0
#define TMPFS_MAGIC		0x01021994
#define RAMFS_MAGIC		0x858458f6
#define DEVPTS_SUPER_MAGIC	0x1cd1
#define PIPEFS_MAGIC		0x50495045
#define TRACEFS_MAGIC		0x74726163

#endif
