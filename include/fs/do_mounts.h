/*
 * Mounting the root filesystem at boot (Linux's init/do_mounts.c).
 */
#ifndef FS_DO_MOUNTS_H
#define FS_DO_MOUNTS_H

/*
 * Mount the device named by `root=` (default ram0, the GRUB module built
 * from rootfs/) as ext2 on "/", then proc on /proc and tmpfs on /tmp,
 * making /proc and /tmp on the root filesystem when missing.  Logs every outcome; never fatal:
 * without a root, boot goes on and path lookups give -ENOENT.
 */
void mount_root(void);

#endif
