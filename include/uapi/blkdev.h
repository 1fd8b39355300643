/*
 * Block device ioctls (Linux's include/uapi/linux/fs.h, the 0x12 group),
 * the ones Pageturn answers (kernel/fs/block_dev.c).  Values are Linux
 * x86-64's.
 */
#ifndef UAPI_BLKDEV_H
#define UAPI_BLKDEV_H

#define BLKROGET	0x125e		/* int *: 1 if read-only */
#define BLKGETSIZE	0x1260		/* unsigned long *: size in 512-byte sectors */
#define BLKFLSBUF	0x1261		/* write back and drop the device's buffers */
#define BLKRASET	0x1262		/* arg (a value): readahead, 512-byte sectors */
#define BLKRAGET	0x1263		/* long *: readahead, 512-byte sectors */
#define BLKSSZGET	0x1268		/* int *: logical sector size in bytes */
#define BLKGETSIZE64	0x80081272	/* uint64_t *: size in bytes */

#endif
