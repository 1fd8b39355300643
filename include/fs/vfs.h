/*
 * The virtual filesystem switch (Linux's include/linux/fs.h, mount.h and
 * namei.h, simplified): one tree of names over every mounted filesystem,
 * and one kernel API to open, read, write and change files in it.
 *
 * The objects, as Linux names them:
 *
 *   file_system_type  a kind of filesystem ("ext2", "proc"), registered
 *                     once; its mount op fills in a new super_block.
 *   super_block       one mounted filesystem: its root inode, its
 *                     super_operations and private data (s_fs_info, e.g.
 *                     ext2's ext2_sb_info), its device if it has one.
 *   inode             one file or directory.  Each super_block keeps a
 *                     cache of its in-core inodes, so one on-disk inode has
 *                     exactly one struct inode, shared and counted
 *                     (iget/iput); the last iput keeps an inode that has
 *                     links cached unused (the inode_unused LRU) until
 *                     prune_icache or drop_caches evicts it, and hands
 *                     one without links to the filesystem's evict_inode
 *                     and frees it.  i_op holds the namespace operations,
 *                     i_fop those of an open file, i_private the
 *                     filesystem's own inode.
 *   file              one open of an inode: position, flags, f_op.
 *   vfsmount          a super_block grafted onto a directory (the mount
 *                     point) of another; the root mount has none.
 *
 * There are no dentries: a path is walked inode by inode, asking each
 * directory's lookup for the next component.  Two rules make the walk
 * cross mounts:
 *   - down: a directory that is a mount point (i_mounted) is replaced by
 *     the root of the filesystem mounted on it;
 *   - up: `..` at the root of a mounted filesystem is taken from the
 *     mount point instead, so /proc/.. is /; `..` at the root of the tree
 *     stays there.  Anywhere else `..` is the filesystem's own lookup of
 *     "..", which ext2 answers from the directory itself.
 * A super_block is mounted at most once, and on a directory that is not
 * already a mount point, so a directory inode alone says where it is.
 *
 * Path rules (Linux's): an absolute path starts at the root, a relative
 * one at the working directory of current_fs() (the process's, or
 * init_fs for kernel threads) or, for the *at() calls, at the directory
 * a descriptor names; repeated slashes count as one; a trailing slash
 * requires a directory; "" is -ENOENT; a component longer than NAME_MAX
 * is -ENAMETOOLONG; a non-directory in the middle is -ENOTDIR.  Symbolic
 * links are followed in the middle of a path always, and at its end
 * unless the caller says not to (lstat, O_NOFOLLOW, AT_SYMLINK_NOFOLLOW);
 * an absolute target starts again at the root, a relative one in the
 * link's directory; more than 40 links in one walk is -ELOOP.
 *
 * Every function returns 0, a byte count or a position, or a negative
 * errno; bad arguments (NULL, an unknown whence) are -EINVAL; unknown
 * open flags are ignored, as Linux's open(2) ignores them,
 * never a crash.  There is one user, root, but the one permission rule is
 * still that writing needs a write bit in the mode (so read-only /proc
 * files give -EACCES, as they do for Linux's non-root users), and that a
 * filesystem mounted read-only (MS_RDONLY) refuses changes with -EROFS.
 *
 * Locking.  The kernel is not preemptive (sched.h): a task switches only
 * where it sleeps, so code that does not sleep needs no lock.  But
 * filesystems sleep (ext2 waits for its disk), and a change to a
 * directory is a lookup, a check, then the change, with sleeps in
 * between.  So each inode has a sleeping lock, i_mutex (Linux's), which
 * the VFS takes as Linux 2.6.28 does (the order and every place are at
 * the top of kernel/fs/namei.c):
 *   - a directory's i_mutex around every lookup in it and every change
 *     to its entries (create, mkdir, mknod, symlink, link, unlink, rmdir,
 *     rename) and around readdir;
 *   - a victim's i_mutex too, for unlink, rmdir and rename over it;
 *     rmdir and rename over a directory mark it S_DEAD under it;
 *   - s_vfs_rename_mutex (per super_block) around a rename between two
 *     directories, so the tree's shape cannot change while the VFS works
 *     out which parent is the other's ancestor.
 * The inode_operations that change names are called with the parent's
 * i_mutex held (and the victim's, where there is one), lookup with the
 * directory's, and file_operations.iterate with the directory's.  Every
 * pointer held across a possible sleep is re-validated after it: what
 * no held lock protects may have changed while the task slept.
 *
 * Dead directories.  A directory removed while someone still holds it
 * (a working directory, an open descriptor) is dead: S_DEAD in i_flags,
 * set by rmdir (or a rename over it) under its i_mutex once the
 * filesystem has removed it.  Nothing is ever made in it, looked up in
 * it (not even ".."), or read from it: -ENOENT, as Linux's IS_DEADDIR
 * checks give.
 */
#ifndef FS_VFS_H
#define FS_VFS_H

#include <drivers/blkdev.h>
#include <pageturn/list.h>
#include <pageturn/mutex.h>
#include <pageturn/types.h>
#include <uapi/fcntl.h>
#include <uapi/stat.h>
#include <uapi/statfs.h>

#define NAME_MAX	255	/* bytes in a path component */
#define PATH_MAX	4096	/* bytes in a path, its NUL included */
#define PIPE_BUF	4096	/* bytes a pipe write keeps together (atomic) */

typedef int64_t loff_t;
typedef unsigned int umode_t;

struct super_block;
struct inode;
struct file;
struct address_space;
struct poll_table_struct;
struct kstatfs;
struct iattr;
struct vm_area_struct;

/* --- filesystem types and super blocks ---------------------------------- */

#define FS_REQUIRES_DEV	1	/* mounts a block device named by dev_name */

struct file_system_type {
	const char *name;
	unsigned int fs_flags;
	/*
	 * Fill sb (s_bdev is set when FS_REQUIRES_DEV): s_op, s_fs_info and
	 * s_root, held.  0 or -errno, with everything undone on failure.
	 */
	int (*mount)(struct super_block *sb);
	struct list_head fs_list;	/* on the registered types */
};

struct super_operations {
	/* Fill a new in-core inode from inode->i_ino: 0 or -errno. */
	int (*read_inode)(struct inode *inode);
	/* The last iput: should the inode go now rather than stay cached
	 * unused?  Optional: by default an inode goes when it has no links
	 * (Linux's generic_drop_inode); tmpfs always says yes. */
	bool (*drop_inode)(struct inode *inode);
	/* Eviction (the last iput, or an unused inode pruned): release
	 * i_private. */
	void (*evict_inode)(struct inode *inode);
	/* Write back dirty data and metadata: 0 or -errno.  Optional: a
	 * filesystem without a backing store (proc, tmpfs) has none. */
	int (*sync_fs)(struct super_block *sb);
	/* statfs(2)'s counts (the VFS fills f_type, f_fsid and f_flags
	 * first; the rest is zero).  Optional: without it the counts stay
	 * 0, as Linux's simple_statfs leaves them for proc. */
	int (*statfs)(struct super_block *sb, struct kstatfs *buf);
};

struct vfsmount {
	struct super_block *mnt_sb;
	struct inode *mnt_mountpoint;	/* held; NULL for the root mount */
	struct list_head mnt_list;	/* on the mount table */
};

/* super_block.s_flags (Linux's SB_* values, which equal MS_*) */
#define SB_RDONLY	1	/* mounted read-only: changes give -EROFS */
#define SB_NOUSER	(1ul << 31)	/* kern_mount's: in no namespace (Linux's) */

struct super_block {
	struct file_system_type *s_type;
	uint32_t s_dev;			/* st_dev: MKDEV(0, n), unique per mount */
	unsigned long s_magic;		/* statfs's f_type (uapi/magic.h); 0 = unknown */
	unsigned long s_flags;		/* SB_RDONLY */
	const struct super_operations *s_op;
	struct inode *s_root;		/* held while mounted */
	struct block_device *s_bdev;	/* NULL for a filesystem without one */
	void *s_fs_info;		/* the filesystem's own super block */
	struct vfsmount *s_mount;	/* where it is mounted */
	struct list_head s_inodes;	/* the inode cache */
	/* Held across a rename between two directories (namei.c's
	 * lock_rename), so no directory moves while it is held. */
	struct mutex s_vfs_rename_mutex;
};

/* --- inodes -------------------------------------------------------------- */

/*
 * The operations on directories are called with dir->i_mutex held (both
 * parents' for rename), and never on a dead directory: the VFS has
 * checked IS_DEADDIR under that lock.  rmdir, unlink and rename also
 * hold the victim's (target's) i_mutex, link the old inode's.
 */
struct inode_operations {
	/*
	 * The child name of dir, held in *res: 0, -ENOENT.  name is never
	 * ".", and ".." only for a directory that is not its filesystem's
	 * root (the VFS climbs out of roots itself).
	 */
	int (*lookup)(struct inode *dir, const char *name, struct inode **res);
	/* A new regular file name in dir, held in *res. */
	int (*create)(struct inode *dir, const char *name, umode_t mode, struct inode **res);
	int (*mkdir)(struct inode *dir, const char *name, umode_t mode);
	/* victim is the inode name denotes (held by the caller). */
	int (*rmdir)(struct inode *dir, const char *name, struct inode *victim);
	int (*unlink)(struct inode *dir, const char *name, struct inode *victim);
	/* src is old_name's inode, target new_name's or NULL (held).  The
	 * VFS has refused moving a directory under itself. */
	int (*rename)(struct inode *old_dir, const char *old_name, struct inode *src,
		      struct inode *new_dir, const char *new_name, struct inode *target);
	/* Set the size of a regular file. */
	int (*truncate)(struct inode *inode, loff_t size);
	/* A symbolic link's target: copy at most len bytes (no NUL) into
	 * the kernel buffer buf; the number of bytes copied or -errno.
	 * Path walks follow it (at most 40 links: -ELOOP), readlink(2)
	 * reads it.  Called with len up to PATH_MAX. */
	int (*readlink)(struct inode *inode, char *buf, size_t len);
	/* A new symbolic link name in dir whose target is the string
	 * target, stored as given (1 to PATH_MAX - 1 bytes: the VFS checks;
	 * a filesystem may allow fewer, -ENAMETOOLONG). */
	int (*symlink)(struct inode *dir, const char *name, const char *target);
	/* A new name in dir for old (held by the caller): the VFS has
	 * checked that old is no directory, has links left and is on dir's
	 * filesystem.  old's link count grows; -EMLINK at the
	 * filesystem's limit. */
	int (*link)(struct inode *old, struct inode *dir, const char *name);
	/* A new device, FIFO or socket node: mode is S_IFCHR, S_IFBLK,
	 * S_IFIFO or S_IFSOCK with permission bits, dev a device's number
	 * in st_rdev's encoding (0 for a FIFO or socket). */
	int (*mknod)(struct inode *dir, const char *name, umode_t mode, uint32_t dev);
	/* Change the attributes attr->ia_valid names (chmod, utimensat):
	 * update the in-core inode and write it back if the filesystem has
	 * a backing store.  0 or -errno (-EROFS).  Optional: without it
	 * such changes are -EPERM. */
	int (*setattr)(struct inode *inode, const struct iattr *attr);
};

/* What setattr changes (Linux's struct iattr, the fields Pageturn has). */
#define ATTR_MODE	1	/* the permission bits: ia_mode & S_IALLUGO */
#define ATTR_MTIME	32	/* ia_mtime */

struct iattr {
	unsigned int ia_valid;
	umode_t ia_mode;
	uint64_t ia_mtime;
};

/* The getdents64 d_type of an inode mode (Linux's S_DT: DT_* is the
 * S_IFMT field shifted down). */
#define S_DT(mode)	(((mode) & S_IFMT) >> 12)

/* In-core only (tmpfs, devfs, pipes): the one setattr they need. */
int simple_setattr(struct inode *inode, const struct iattr *attr);

/*
 * Called by iterate for each directory entry.  Returns 0 to go on,
 * anything else to stop; the entry that stopped it is not consumed, so
 * the next call returns it again (getdents64's "buffer full").
 */
typedef int (*filldir_t)(void *ctx, const char *name, unsigned int name_len,
			 uint64_t ino, unsigned int d_type);

/* One read or write in progress (Linux's struct kiocb): the file and the
 * position it moves at, which read_write.c copies back where it belongs
 * (f_pos, or pread's own) when the call returns. */
struct kiocb {
	struct file *ki_filp;
	loff_t ki_pos;
};

struct iov_iter;

struct file_operations {
	/* Optional: called by vfs_open after the file is set up (a TTY
	 * picks its device and may become the controlling terminal): 0 or
	 * -errno, which fails the open. */
	int (*open)(struct inode *inode, struct file *file);
	/*
	 * Read into to (write from from) at iocb->ki_pos, advancing both by
	 * the bytes moved: the count (0 at the end), or -errno when none
	 * moved.  Called by read_write.c only, after its checks, with
	 * iov_iter_count at most MAX_RW_COUNT; a regular file's write_iter
	 * with the inode's i_mutex held.  A copy to or from user memory that
	 * comes up short ends the call with the count so far (-EFAULT if
	 * nothing moved); a stream's bytes are consumed only once copied.
	 */
	long (*read_iter)(struct kiocb *iocb, struct iov_iter *to);
	long (*write_iter)(struct kiocb *iocb, struct iov_iter *from);
	/* Call filldir from file->f_pos on, advancing it; 0 at the end.
	 * Called with the directory's i_mutex held, never on a dead one. */
	int (*iterate)(struct file *file, filldir_t filldir, void *ctx);
	int (*fsync)(struct file *file);
	/* Optional lseek(2) (a block device's SEEK_END is its size); without
	 * it, vfs_llseek's own against i_size. */
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	/* The last close. */
	void (*release)(struct file *file);
	/* Optional: mmap_region calls it with a VMA that is filled in but not
	 * yet in its mm, before anything in the mm changes, so it may refuse
	 * (an errno) or set vm_ops and call their open.  It may not sleep. */
	int (*mmap)(struct file *file, struct vm_area_struct *vma);
	/* ioctl(2): the result, or -ENOTTY for a request it does not know.
	 * arg is a user pointer or value as the request says. */
	long (*ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	/* poll(2): POLLIN/POLLOUT/POLLHUP bits ready now; when wait is not
	 * NULL the caller will sleep, so add current to the queues that
	 * signal a change (poll_wait).  NULL: always readable and writable. */
	unsigned int (*poll)(struct file *file, struct poll_table_struct *wait);
};

struct inode {
	uint64_t i_ino;
	umode_t i_mode;			/* S_IF* type and permission bits */
	unsigned int i_nlink;
	loff_t i_size;
	uint64_t i_blocks;		/* 512-byte units */
	unsigned int i_blksize;		/* the preferred I/O size (st_blksize) */
	struct super_block *i_sb;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	int i_count;			/* iget references */
	bool i_mounted;			/* a filesystem is mounted on it */
	unsigned int i_flags;		/* S_DEAD, S_SWAPFILE */
	unsigned int i_state;		/* I_NEW: iget is still reading it */
	/* A directory's: held around lookups in it, changes to its entries
	 * and readdir; a victim's: around unlink, rmdir and rename over it
	 * (the rules at the top of this file and of kernel/fs/namei.c). */
	struct mutex i_mutex;
	void *i_private;		/* the filesystem's inode */
	struct list_head i_sb_list;	/* on i_sb->s_inodes */
	struct list_head i_lru;		/* on inode_unused while i_count is 0 */
	struct address_space *i_mapping;	/* its page cache, NULL if none (mmap needs one) */
	uint32_t i_rdev;		/* a device node's device number */
	uint64_t i_mtime;		/* seconds since the epoch: st_mtime (and atime, ctime) */
};

/* inode.i_state (Linux's): set from the moment iget puts a new inode in
 * the cache until read_inode has filled it; other igets of it wait. */
#define I_NEW		8

/* inode.i_flags (Linux's S_* inode flags) */
#define S_DEAD		16	/* a removed directory: set by rmdir under its i_mutex */
#define IS_DEADDIR(inode)	((inode)->i_flags & S_DEAD)
#define S_SWAPFILE	256	/* an active swap file (mm/swapfile.c): its size stays */
#define IS_SWAPFILE(inode)	((inode)->i_flags & S_SWAPFILE)

/* What stat() reports (Linux's struct kstat); uapi's struct stat is
 * filled from it. */
struct kstat {
	uint64_t ino;
	umode_t mode;
	unsigned int nlink;
	loff_t size;
	uint64_t blocks;		/* 512-byte units */
	unsigned int blksize;
	uint32_t dev;			/* the filesystem's s_dev */
	uint32_t rdev;			/* a device node's number */
	uint64_t mtime;			/* seconds since the epoch */
};

/* What statfs() reports (Linux's struct kstatfs); uapi's struct statfs
 * is filled from it. */
struct kstatfs {
	unsigned long f_type;
	unsigned long f_bsize;
	uint64_t f_blocks;
	uint64_t f_bfree;
	uint64_t f_bavail;
	uint64_t f_files;
	uint64_t f_ffree;
	unsigned long f_namelen;
	unsigned long f_flags;		/* ST_RDONLY */
	uint32_t f_fsid;
};

/* --- open files ---------------------------------------------------------- */

#define FMODE_READ	1u
#define FMODE_WRITE	2u
#define FMODE_STREAM	4u	/* no position: lseek, pread, pwrite give -ESPIPE */

struct file {
	struct inode *f_inode;		/* held */
	loff_t f_pos;
	unsigned int f_flags;		/* the O_* status flags (no O_CREAT, O_EXCL,
					 * O_NOCTTY, O_TRUNC, O_CLOEXEC); F_SETFL
					 * changes O_APPEND and O_NONBLOCK */
	unsigned int f_mode;		/* FMODE_READ, FMODE_WRITE */
	const struct file_operations *f_op;
	int f_count;			/* references; the last vfs_close releases */
	void *private_data;		/* the filesystem's, e.g. procfs's text */
};

/*
 * A file_operations.open for files without a position (pipes, TTYs:
 * Linux's stream_open): sets FMODE_STREAM.  Always 0.
 */
int stream_open(struct inode *inode, struct file *file);

/* The root and working directory paths are resolved against (Linux's
 * fs_struct): each process has its own (copied at fork); kernel threads
 * and the boot code use init_fs (users 1, umask 022), whose root and pwd
 * the root mount sets.  current_fs() says which applies.
 * kernel/fs/fs_struct.c. */
struct fs_struct {
	int users;			/* tasks sharing it */
	struct inode *root;		/* held once the root is mounted */
	struct inode *pwd;		/* held */
	umode_t umask;			/* bits open(O_CREAT) and mkdir(2) clear */
};
extern struct fs_struct init_fs;
/* current->fs, or &init_fs for a kernel thread (and the boot code). */
struct fs_struct *current_fs(void);

/* --- super.c: filesystem types, mounting ----------------------------------- */

/* Register ext2, proc, tmpfs, devtmpfs and tracefs; mount_root() calls it once
 * at boot. */
void vfs_init(void);
/* 0, or -EBUSY when a type of that name exists. */
int register_filesystem(struct file_system_type *fs);
/*
 * Mount a new instance of fstype (on block device dev_name, "/dev/"
 * optional, when the type needs one) on directory dir; dir "/" mounts the
 * root, once.  0 or -ENODEV (unknown type), -ENOENT (no such device or
 * dir), -EBUSY (device already mounted, dir already a mount point),
 * -ENOTDIR, or the filesystem's error.
 */
int do_mount(const char *dev_name, const char *dir, const char *fstype);

/* mount(2)'s work: do_mount with MS_RDONLY honoured (the new
 * super_block refuses changes with -EROFS), or with MS_REMOUNT the
 * read-only flag of the filesystem whose root dir is changed. */
int do_mount_flags(const char *dev_name, const char *dir, const char *fstype,
		   unsigned long flags);

/* A new instance of type for the kernel's own use, on no mount point and
 * in no namespace (Linux's kern_mount; SysV shm's tmpfs): SB_NOUSER.  It
 * lives for ever.  0 with the super block in *res, -ENOMEM, -EMFILE or
 * the type's mount error. */
int kern_mount(struct file_system_type *type, struct super_block **res);

/* statfs(2)'s work for the filesystem holding inode. */
int vfs_statfs(struct inode *inode, struct kstatfs *buf);

/* Write back every mounted filesystem (sync(2) without the syscall):
 * 0, or the first error (every filesystem is still tried). */
int sync_filesystems(void);
/* Call f on every mounted super_block. */
void iterate_supers(void (*f)(struct super_block *sb, void *arg), void *arg);

/* --- inode.c: the inode cache ---------------------------------------------- */

/* The inode ino of sb, held: from the cache, or read by s_op->read_inode. */
int iget(struct super_block *sb, uint64_t ino, struct inode **res);
/* Take another reference to an inode already held. */
void ihold(struct inode *inode);
/*
 * Drop a reference.  The last one of an inode that still has links keeps
 * it cached, unused, with its page cache (see fs/inode.c); one without
 * links is evicted.
 */
void iput(struct inode *inode);
/* Inodes cached with no reference (on the inode_unused LRU). */
extern unsigned long nr_unused_inodes;
/* Register the inode cache's shrinker, which prunes unused inodes, least
 * recently used first, under memory pressure.  Boot, before any mount. */
void inode_init(void);
/* Evict every unused inode of sb (for unmount): 0, or 1 when some inode
 * of sb is still held. */
int invalidate_inodes(struct super_block *sb);
/*
 * A clean slate for the kernel's tests: sync, evict every unused inode
 * (and with it its page cache), drop the unreferenced buffers of every
 * mounted device and give the kmalloc caches' empty slabs back.  More
 * than "echo 3 > /proc/sys/vm/drop_caches" (drop_caches_sysctl_handler),
 * which writes nothing back, keeps what the shrinkers' batches do not
 * reach and keeps the dirty buffers.
 */
void drop_caches(void);

/*
 * Set up a device, FIFO or socket inode (Linux's init_special_inode): a
 * character device gets def_chr_fops, whose open finds the driver by
 * rdev (fs/devfs.h); the others get no file operations, so opening them
 * is -ENXIO.
 */
void init_special_inode(struct inode *inode, umode_t mode, uint32_t rdev);

/* --- namei.c: paths ---------------------------------------------------------- */

/* The most symbolic links one path walk follows (Linux's MAXSYMLINKS). */
#define MAXSYMLINKS	40

/* Path walk flags (Linux's LOOKUP_*). */
#define LOOKUP_FOLLOW		1	/* follow a symlink at the end */
#define LOOKUP_DIRECTORY	2	/* the end must be a directory */
#define LOOKUP_EMPTY		4	/* "" names the start directory (AT_EMPTY_PATH) */

/* The inode path names, held in *res; symlinks followed. */
int path_lookup(const char *path, struct inode **res);
/*
 * The inode path names, held in *res: a relative path starts at the
 * directory open as dfd (AT_FDCWD: the working directory; -EBADF, or
 * -ENOTDIR for a non-directory), flags LOOKUP_*.
 */
int path_lookupat(int dfd, const char *path, unsigned int flags, struct inode **res);
/*
 * The path of directory dir from the root (Linux's d_path for a
 * directory, found by climbing ".." and searching each parent for the
 * child's inode number) into buf, NUL-terminated: its length without the
 * NUL, -ERANGE when it does not fit in size, -ENOENT when dir was
 * removed or is not below the root.
 */
long vfs_dir_path(struct inode *dir, char *buf, size_t size);
int vfs_mkdir(const char *path, umode_t mode);
int vfs_rmdir(const char *path);
int vfs_unlink(const char *path);
int vfs_rename(const char *oldpath, const char *newpath);
/*
 * symlink(2): a new symbolic link path with target target (not
 * resolved): -ENOENT for an empty target, -ENAMETOOLONG for one of
 * PATH_MAX bytes or more; -EEXIST when path exists (a dangling link
 * too), -ENOENT for a missing name with a trailing slash, -EPERM on a
 * filesystem without symlinks.
 */
int vfs_symlink(const char *target, const char *path);
/*
 * link(2): newpath becomes another name of oldpath's inode (a symlink at
 * the end of oldpath is not followed, as Linux's link(2)).  -EPERM for a
 * directory or a filesystem without hard links, -EXDEV across
 * filesystems, -EEXIST, -ENOENT (an inode whose links are all gone),
 * -EMLINK.
 */
int vfs_link(const char *oldpath, const char *newpath);
/*
 * mknod(2): a new node path of mode (type and permission bits, no umask
 * applied): S_IFREG or no type makes a regular file; S_IFCHR and S_IFBLK
 * a device node of number dev (st_rdev's encoding); S_IFIFO, S_IFSOCK a
 * FIFO or socket.  -EPERM for S_IFDIR or a filesystem without mknod,
 * -EINVAL for other types, -EEXIST.
 */
int vfs_mknod(const char *path, umode_t mode, uint32_t dev);
/* Make path (a directory) the working directory of current_fs(). */
int vfs_chdir(const char *path);
/* Read the symbolic link path names (not followed) into the kernel
 * buffer buf: the bytes copied, -EINVAL if it is no symlink. */
int vfs_readlink(const char *path, char *buf, size_t len);

/* --- open.c: opening and the attributes -------------------------------------- */

/*
 * Open path with O_* flags (mode: the permission bits of a file O_CREAT
 * makes, no umask applied); *res is a new file.  A symlink at the end is
 * followed, also for O_CREAT (a dangling link's target is created),
 * except with O_NOFOLLOW (-ELOOP) or O_CREAT | O_EXCL (-EEXIST).
 * Besides the path errors: -EEXIST (O_CREAT | O_EXCL), -EISDIR (a
 * directory for writing, or O_CREAT on one or with a trailing slash),
 * -ENOTDIR (O_DIRECTORY), -EACCES (writing without a write bit), -EROFS,
 * -ENXIO (a FIFO, socket or block device node, or a character device no
 * driver registered), -EOPNOTSUPP (O_TMPFILE), -EINVAL.  O_PATH gives a
 * file that only names the inode.
 */
int vfs_open(const char *path, unsigned int flags, umode_t mode, struct file **res);
/* Drop a reference to file; the last releases it. */
int vfs_close(struct file *file);
/* Open the inode itself (its reference is taken over, and dropped on
 * failure), as vfs_open does after the walk: may_open checks, O_TRUNC,
 * then f_op->open. */
int vfs_open_inode(struct inode *inode, unsigned int flags, struct file **res);
int vfs_stat(const char *path, struct kstat *st);
/* vfs_stat without following a symlink at the end. */
int vfs_lstat(const char *path, struct kstat *st);
int vfs_fstat(struct file *file, struct kstat *st);
void generic_fillattr(const struct inode *inode, struct kstat *st);
/* Change an inode's attributes through i_op->setattr: -EPERM without
 * one, -EROFS on a read-only mount. */
int notify_change(struct inode *inode, const struct iattr *attr);
/* Set the size of the regular file path: -EISDIR, -EINVAL (negative,
 * not regular), -EACCES. */
int vfs_truncate(const char *path, loff_t length);

/* --- read_write.c: data --------------------------------------------------- */

/* Read into (write from) the kernel buffer buf at f_pos, through the
 * same checks and f_op->read_iter/write_iter as read(2) and write(2)
 * (Linux's kernel_read/kernel_write over an ITER_KVEC): the count, or
 * -EBADF when not open for reading (writing), -EISDIR on a directory. */
long vfs_read(struct file *file, void *buf, size_t len);
long vfs_write(struct file *file, const void *buf, size_t len);
/* The new position, or -EINVAL (bad whence, negative result). */
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
/* Set file->f_pos from offset and whence, with eof as SEEK_END's base:
 * the new position, or -EINVAL for a bad whence or a negative or
 * overflowing result (Linux's generic_file_llseek_size). */
loff_t generic_file_llseek_size(struct file *file, loff_t offset, int whence, loff_t eof);
/* Call filldir for the entries from f_pos on, under the directory's
 * i_mutex: 0 at the end or when filldir stopped; -ENOTDIR on a
 * non-directory, -ENOENT on a dead one. */
int vfs_readdir(struct file *file, filldir_t filldir, void *ctx);
/* Write the file's filesystem back. */
int vfs_fsync(struct file *file);

/* --- pipe.c ---------------------------------------------------------------- */

/* pipe2's work without the descriptors: the read end in res[0] and the
 * write end in res[1] of a new pipe, O_NONBLOCK from flags. */
int create_pipe_files(struct file **res, unsigned int flags);

/* --- filesystems -------------------------------------------------------- */

extern struct file_system_type ext2_fs_type;	/* kernel/fs/ext2_vfs.c */
extern struct file_system_type proc_fs_type;	/* kernel/fs/proc/root.c */
extern struct file_system_type tracefs_fs_type;	/* kernel/fs/tracefs.c */

#endif
