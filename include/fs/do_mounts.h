/*
 * Mounting the root filesystem at boot (Linux's init/do_mounts.c).
 */
#ifndef FS_DO_MOUNTS_H
#define FS_DO_MOUNTS_H

/*
 * Register the filesystem types (vfs_init), mount the device named by
 * `root=` (default ram0, the GRUB module built from rootfs/) as ext2 on
 * "/", and make /proc, /tmp and /dev on it when missing.  Only with
 * `test=` on the command line (in-kernel tests, no init) also mount proc
 * on /proc and tmpfs on /tmp; otherwise init mounts them.  Logs every
 * outcome; never fatal: without a root, boot goes on and path lookups
 * give -ENOENT.
 */
void mount_root(void);

#endif
