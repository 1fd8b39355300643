/*
 * /dev: a small in-memory filesystem of device nodes (Linux's devtmpfs,
 * simplified).  Drivers register a name, a mode, a device number and the
 * file_operations an open of the node gets; init mounts it on /dev
 * ("devtmpfs").  kernel/fs/devfs.c implements it; drivers/char/mem.c
 * registers null, zero, full, random and urandom.
 */
#ifndef FS_DEVFS_H
#define FS_DEVFS_H

#include <fs/vfs.h>

#define MKDEV(ma, mi)	((uint32_t)(((ma) << 8) | (mi)))	/* old 8:8 encoding */
#define MAJOR(dev)	((unsigned int)((dev) >> 8))
#define MINOR(dev)	((unsigned int)((dev) & 0xff))

/*
 * Add /dev/name: a character device node (mode S_IFCHR | perms) with
 * device number rdev.  open() of it gives a file with f_op = fops and
 * private_data = priv; fops->open-time work, if any, is the driver's
 * business in its read/write.  0, -EEXIST, -ENOMEM, -EINVAL.  Process
 * context (boot).
 */
int devfs_register(const char *name, umode_t mode, uint32_t rdev,
		   const struct file_operations *fops, void *priv);

extern struct file_system_type devfs_fs_type;

#endif
