/*
 * /dev: a small in-memory filesystem of device nodes (Linux's devtmpfs,
 * simplified).  Drivers register a name, a mode, a device number and the
 * file_operations an open of the node gets; init mounts it on /dev
 * ("devtmpfs").  kernel/fs/devfs.c implements it; drivers/char/mem.c
 * registers null, zero, full, random and urandom.  Device numbers use the
 * old 8:8 encoding, which is also how st_rdev reads for numbers below
 * 256.
 */
#ifndef FS_DEVFS_H
#define FS_DEVFS_H

#include <fs/vfs.h>

#define MKDEV(ma, mi)	((uint32_t)(((ma) << 8) | (mi)))	/* old 8:8 encoding */
#define MAJOR(dev)	((unsigned int)((dev) >> 8))
#define MINOR(dev)	((unsigned int)((dev) & 0xff))

/*
 * Add /dev/name: a character device node (mode S_IFCHR | perms) with
 * device number rdev, which also registers the driver for rdev: opening
 * any inode of that number (on devfs or, say, an ext2 device node) gives
 * a file with f_op = fops and private_data = priv, then calls fops->open
 * if set (a TTY's, which may refuse).  Or a block device node (S_IFBLK),
 * whose opens go through def_blk_fops whatever fops says.  0, -EEXIST
 * (the name, or rdev for that type, is taken), -ENOMEM, -EINVAL (a bad
 * name, neither S_IFCHR nor S_IFBLK, no fops).  Process
 * context; works any time after kmalloc does, before or after a mount:
 * there is nothing to initialise first.
 */
int devfs_register(const char *name, umode_t mode, uint32_t rdev,
		   const struct file_operations *fops, void *priv);

/* A character device inode's i_fop (init_special_inode): its open looks
 * the driver up by i_rdev, -ENXIO when none registered it. */
extern const struct file_operations def_chr_fops;

/* What an S_IFBLK inode's open goes through (kernel/fs/block_dev.c). */
extern const struct file_operations def_blk_fops;

/* Take bdev for holder alone (a mount, a swap area): 0, or -EBUSY when
 * someone holds it already.  bd_release gives it back.  Any context. */
int bd_claim(struct block_device *bdev, void *holder);
void bd_release(struct block_device *bdev);
/* The device an open block device node reads and writes, or NULL if
 * file is not one. */
struct block_device *file_bdev(struct file *file);

/* Add a /dev node (S_IFBLK) for every registered block device whose
 * minor fits the 8:8 encoding; called once by blk_dev_init(). */
void blkdev_register_nodes(void);

/* Write every block device's dirty buffers (sync(2), after the
 * filesystems). */
void sync_bdevs(void);

extern struct file_system_type devfs_fs_type;	/* "devtmpfs" */

/* Register the memory devices of drivers/char/mem.c: null (1:3), zero
 * (1:5), full (1:7), random (1:8) and urandom (1:9), mode 0666.  Once,
 * at boot, in process context. */
void chr_dev_init(void);

#endif
