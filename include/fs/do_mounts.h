/*
 * Mounting the root filesystem at boot (Linux's init/do_mounts.c).
 * Until the VFS exists, the mounted root is an ext2 filesystem reached
 * through root_ext2 and ext2's own calls; the VFS will take it over.
 */
#ifndef FS_DO_MOUNTS_H
#define FS_DO_MOUNTS_H

#include <fs/ext2.h>

/* The root filesystem, or NULL when mounting failed (boot goes on). */
extern struct ext2_sb_info *root_ext2;

/* Mount the device named by `root=` (default ram0, the GRUB module built
 * from rootfs/) as ext2.  Logs the outcome; never fatal. */
void mount_root(void);

/*
 * Walk an absolute path from the root, component by component, and return
 * its inode held (release with ext2_iput), or NULL with *err: -ENOENT,
 * -ENOTDIR, -ENAMETOOLONG, -EINVAL (not absolute), -ENODEV (no root).
 */
struct ext2_inode_info *root_path_lookup(const char *path, int *err);

#endif
