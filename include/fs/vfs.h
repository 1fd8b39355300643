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
 * one at the working directory (init_fs.pwd, until there are processes);
 * repeated slashes count as one; a trailing slash requires a directory;
 * "" is -ENOENT; a component longer than NAME_MAX is -ENAMETOOLONG; a
 * non-directory in the middle is -ENOTDIR.  Symbolic links are not
 * followed yet.
 *
 * Every function returns 0, a byte count or a position, or a negative
 * errno; bad arguments (NULL, an unknown whence) are -EINVAL; unknown
 * open flags are ignored, as Linux's open(2) ignores them,
 * never a crash.  There are no users yet: the one permission rule is that
 * writing needs a write bit in the mode (so read-only /proc files give
 * -EACCES, as they do for Linux's non-root users).
 *
 * The kernel runs one thread: nothing here locks.  A scheduler will need
 * a lock around the mount table and each super_block's inode cache.
 */
#ifndef FS_VFS_H
#define FS_VFS_H

#include <drivers/blkdev.h>
#include <pageturn/list.h>
#include <pageturn/types.h>
#include <uapi/fcntl.h>
#include <uapi/stat.h>

#define NAME_MAX	255	/* bytes in a path component */
#define PATH_MAX	4096	/* bytes in a path, its NUL included */

typedef int64_t loff_t;
typedef unsigned int umode_t;

struct super_block;
struct inode;
struct file;
struct address_space;
struct poll_table_struct;

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
};

struct vfsmount {
	struct super_block *mnt_sb;
	struct inode *mnt_mountpoint;	/* held; NULL for the root mount */
	struct list_head mnt_list;	/* on the mount table */
};

struct super_block {
	struct file_system_type *s_type;
	const struct super_operations *s_op;
	struct inode *s_root;		/* held while mounted */
	struct block_device *s_bdev;	/* NULL for a filesystem without one */
	void *s_fs_info;		/* the filesystem's own super block */
	struct vfsmount *s_mount;	/* where it is mounted */
	struct list_head s_inodes;	/* the inode cache */
};

/* --- inodes -------------------------------------------------------------- */

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
	/* src is old_name's inode, target new_name's or NULL (held). */
	int (*rename)(struct inode *old_dir, const char *old_name, struct inode *src,
		      struct inode *new_dir, const char *new_name, struct inode *target);
	/* Set the size of a regular file. */
	int (*truncate)(struct inode *inode, loff_t size);
	/* A symbolic link's target: copy at most len bytes (no NUL) into
	 * the kernel buffer buf; the target's length or -errno.  Path walks
	 * follow it (at most 40 links deep: -ELOOP), readlink(2) reads it. */
	int (*readlink)(struct inode *inode, char *buf, size_t len);
};

/*
 * Called by iterate for each directory entry.  Returns 0 to go on,
 * anything else to stop; the entry that stopped it is not consumed, so
 * the next call returns it again (getdents64's "buffer full").
 */
typedef int (*filldir_t)(void *ctx, const char *name, unsigned int name_len,
			 uint64_t ino, unsigned int d_type);

struct file_operations {
	/* Optional: called by vfs_open after the file is set up (a TTY
	 * picks its device and may become the controlling terminal): 0 or
	 * -errno, which fails the open. */
	int (*open)(struct inode *inode, struct file *file);
	/* Read or write at *pos, advancing it: the count, 0 at the end. */
	long (*read)(struct file *file, void *buf, size_t len, loff_t *pos);
	long (*write)(struct file *file, const void *buf, size_t len, loff_t *pos);
	/* Call filldir from file->f_pos on, advancing it; 0 at the end. */
	int (*iterate)(struct file *file, filldir_t filldir, void *ctx);
	int (*fsync)(struct file *file);
	/* The last close. */
	void (*release)(struct file *file);
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
	void *i_private;		/* the filesystem's inode */
	struct list_head i_sb_list;	/* on i_sb->s_inodes */
	struct list_head i_lru;		/* on inode_unused while i_count is 0 */
	struct address_space *i_mapping;	/* its page cache, NULL if none (mmap needs one) */
	uint32_t i_rdev;		/* a device node's device number */
	uint64_t i_mtime;		/* seconds since the epoch: st_mtime (and atime, ctime) */
};

/* What stat() reports (Linux's struct kstat); uapi's struct stat is
 * filled from it. */
struct kstat {
	uint64_t ino;
	umode_t mode;
	unsigned int nlink;
	loff_t size;
	uint64_t blocks;		/* 512-byte units */
	unsigned int blksize;
};

/* --- open files ---------------------------------------------------------- */

#define FMODE_READ	1u
#define FMODE_WRITE	2u

struct file {
	struct inode *f_inode;		/* held */
	loff_t f_pos;
	unsigned int f_flags;		/* the O_* flags it was opened with */
	unsigned int f_mode;		/* FMODE_READ, FMODE_WRITE */
	const struct file_operations *f_op;
	int f_count;			/* references; the last vfs_close releases */
	void *private_data;		/* the filesystem's, e.g. procfs's text */
};

/* The root and working directory paths are resolved against (Linux's
 * fs_struct): each process has its own (copied at fork); kernel threads
 * and the boot code use init_fs.  current_fs() says which applies. */
struct fs_struct {
	int users;			/* tasks sharing it */
	struct inode *root;		/* held once the root is mounted */
	struct inode *pwd;		/* held */
	umode_t umask;
};
extern struct fs_struct init_fs;
struct fs_struct *current_fs(void);

/* --- super.c: filesystem types, mounting ----------------------------------- */

/* Register ext2 and proc; mount_root() calls it once at boot. */
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
/* Evict up to nr unused inodes, least recently used first: the number
 * evicted.  The hook for reclaim's inode shrinker. */
unsigned long prune_icache(unsigned long nr);
/* Evict every unused inode of sb (for unmount): 0, or 1 when some inode
 * of sb is still held. */
int invalidate_inodes(struct super_block *sb);
/*
 * Linux's "echo 3 > /proc/sys/vm/drop_caches": sync, evict every unused
 * inode (and with it its page cache), drop the unreferenced buffers of
 * every mounted device and give the kmalloc caches' empty slabs back.
 */
void drop_caches(void);

/* --- namei.c: paths ---------------------------------------------------------- */

/* The inode path names, held in *res. */
int path_lookup(const char *path, struct inode **res);
int vfs_mkdir(const char *path, umode_t mode);
int vfs_rmdir(const char *path);
int vfs_unlink(const char *path);
int vfs_rename(const char *oldpath, const char *newpath);
/* Make path (a directory) the working directory. */
int vfs_chdir(const char *path);

/* --- open.c: opening and the attributes -------------------------------------- */

/*
 * Open path with O_* flags (mode: the permission bits of a file O_CREAT
 * makes); *res is a new file.  Besides the path errors: -EEXIST (O_CREAT
 * | O_EXCL), -EISDIR (a directory for writing, or O_CREAT on one),
 * -ENOTDIR (O_DIRECTORY), -EACCES (writing without a write bit), -EINVAL.
 */
int vfs_open(const char *path, unsigned int flags, umode_t mode, struct file **res);
/* Drop a reference to file; the last releases it. */
int vfs_close(struct file *file);
int vfs_stat(const char *path, struct kstat *st);
int vfs_fstat(struct file *file, struct kstat *st);
/* Set the size of the regular file path: -EISDIR, -EINVAL (negative,
 * not regular), -EACCES. */
int vfs_truncate(const char *path, loff_t length);

/* --- read_write.c: data --------------------------------------------------- */

/* -EBADF when not open for reading (writing), -EISDIR on a directory. */
long vfs_read(struct file *file, void *buf, size_t len);
long vfs_write(struct file *file, const void *buf, size_t len);
/* The new position, or -EINVAL (bad whence, negative result). */
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
/* Call filldir for the entries from f_pos on: 0 at the end or when
 * filldir stopped; -ENOTDIR on a non-directory. */
int vfs_readdir(struct file *file, filldir_t filldir, void *ctx);
/* Write the file's filesystem back. */
int vfs_fsync(struct file *file);

/* --- filesystems -------------------------------------------------------- */

extern struct file_system_type ext2_fs_type;	/* kernel/fs/ext2_vfs.c */
extern struct file_system_type proc_fs_type;	/* kernel/fs/proc/root.c */

#endif
