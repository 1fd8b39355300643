/*
 * Pageturn's ext2 driver: the in-kernel interface (kernel/fs/ext2/).
 *
 * The driver exports plain functions over two objects that the VFS
 * adapter (kernel/fs/ext2_vfs.c) wraps: the mounted filesystem
 * (ext2_sb_info, a super_block's s_fs_info) and the in-core inode
 * (ext2_inode_info, a VFS inode's i_private).  Names are single path components; walking paths
 * is the VFS's job.
 *
 * In-core inodes are shared and counted: ext2_iget() returns the same
 * object for the same number until the last ext2_iput().  The last iput of
 * an inode whose link count reached zero frees its blocks and the inode,
 * so an unlinked file stays readable while held, as on Linux.
 *
 * Every function returns 0 (or a byte count) or a negative errno:
 *   -ENOENT -EEXIST -ENOTDIR -EISDIR -ENOTEMPTY -ENOSPC -ENAMETOOLONG
 *   -EFBIG -EINVAL -EROFS -ENOMEM -EIO (corrupt metadata or a failed I/O;
 *   one printk line says which)
 * Nothing on the disk can make the driver panic or loop forever.
 *
 * Regular file data goes through the page cache (mm/filemap.c): each
 * in-core inode has an address_space whose pages hold the file; metadata
 * and directories go through the buffer cache.  File data reaches the
 * disk at ext2_sync(), ext2_unmount() and the last ext2_iput() of an
 * inode; metadata at ext2_sync(), ext2_unmount() and whenever the buffer
 * cache writes back to make room.
 *
 * Every disk read or write, and every allocation, may sleep, and another
 * process may then run in the driver.  The kernel is one CPU and never
 * preempted, so code between two sleeps is atomic; the driver's rule is
 * that every pointer held and every decision taken across a possible
 * sleep is checked again after it (or made safe before it: a bitmap bit
 * is claimed before the inode it names is initialised).  The calls that
 * change names (namei.c) check more than one sleep can keep true, and
 * run one at a time per filesystem.
 */
#ifndef FS_EXT2_H
#define FS_EXT2_H

#include <drivers/blkdev.h>
#include <fs/buffer_head.h>
#include <fs/ext2_fs.h>
#include <fs/fs.h>
#include <fs/uio.h>
#include <pageturn/list.h>

struct ext2_sb_info {
	struct block_device *s_bdev;
	struct buffer_head *s_sbh;		/* holds the superblock */
	struct ext2_super_block *s_es;		/* inside s_sbh */
	struct buffer_head **s_group_desc;	/* the descriptor table's blocks */
	unsigned int s_gdb_count;
	unsigned int s_groups_count;
	unsigned int s_blocksize;
	unsigned int s_blocksize_bits;
	unsigned int s_addr_per_block;		/* block numbers per indirect block */
	unsigned int s_addr_per_block_bits;
	unsigned int s_desc_per_block;
	unsigned int s_inode_size;
	unsigned int s_inodes_per_block;
	unsigned int s_itb_per_group;		/* inode table blocks per group */
	uint32_t s_blocks_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_first_ino;
	uint32_t s_first_data_block;
	uint32_t s_blocks_count;
	uint32_t s_inodes_count;
	bool s_read_only;			/* unknown RO_COMPAT features */
	bool s_filetype;			/* INCOMPAT_FILETYPE: dirents carry a type */
	struct list_head s_inodes;		/* the in-core inodes */
	bool s_names_locked;			/* a name-changing call is running (namei.c) */
};

struct ext2_inode_info {
	struct ext2_sb_info *i_sb;
	uint32_t i_ino;
	int i_count;				/* ext2_iget references */
	bool i_dirty;				/* i_raw newer than the inode table */
	bool i_freeing;				/* the last ext2_iput is writing or freeing it */
	struct ext2_inode i_raw;		/* the on-disk inode's first 128 bytes */
	struct list_head i_list;		/* on i_sb->s_inodes */
	struct address_space i_mapping;		/* the file's pages (host: this inode) */
};

/*
 * Called by ext2_readdir() for each entry, in directory order.  Returns 0
 * to go on, anything else to stop (the entry is then not consumed).
 */
typedef int (*ext2_filldir_t)(void *ctx, const char *name, unsigned int name_len,
			      uint32_t ino, unsigned int file_type);

/* super.c */
/* Mount the ext2 filesystem on bdev; NULL with *err set on failure. */
struct ext2_sb_info *ext2_mount(struct block_device *bdev, int *err);
/* Write everything back: 0 or -EIO. */
int ext2_sync(struct ext2_sb_info *sbi);
/* Sync and forget the filesystem; -EBUSY (and nothing done) while an
 * inode is still held. */
int ext2_unmount(struct ext2_sb_info *sbi);

/* inode.c */
/* The in-core inode ino, referenced; NULL with *err set on failure. */
struct ext2_inode_info *ext2_iget(struct ext2_sb_info *sbi, uint32_t ino, int *err);
void ext2_iput(struct ext2_inode_info *inode);
uint64_t ext2_isize(const struct ext2_inode_info *inode);
/* Read at off into to (until it is full or the file ends); the count
 * read (0 at end of file; short when a copy to user memory faulted). */
long ext2_read(struct ext2_inode_info *inode, uint64_t off, struct iov_iter *to);
/* Write all of from at off, growing the file; the count written (short on
 * -ENOSPC or a bad source byte after some progress, when no block is left
 * past the new end of the file).  The caller keeps other writers and
 * truncates of the file out (the VFS: i_mutex). */
long ext2_write(struct ext2_inode_info *inode, uint64_t off, struct iov_iter *from);

/* ext2_read and ext2_write with a kernel buffer (an ITER_KVEC of one), for
 * the kernel and host tests that drive ext2 without a struct file. */
static inline long ext2_read_buf(struct ext2_inode_info *inode, uint64_t off, void *buf,
				 size_t len)
{
	struct kvec kv = { buf, len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, READ, &kv, 1, len);
	return ext2_read(inode, off, &iter);
}

static inline long ext2_write_buf(struct ext2_inode_info *inode, uint64_t off, const void *buf,
				  size_t len)
{
	struct kvec kv = { (void *)buf, len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, WRITE, &kv, 1, len);
	return ext2_write(inode, off, &iter);
}

/* Set the size of a regular file; blocks and cached pages past it are
 * freed. */
int ext2_truncate(struct ext2_inode_info *inode, uint64_t size);
/* chmod: the permission bits of mode (07777) replace the inode's. */
int ext2_set_mode(struct ext2_inode_info *inode, unsigned int mode);
/* utimensat: the modification time, seconds since the epoch. */
int ext2_set_mtime(struct ext2_inode_info *inode, uint32_t mtime);

/* symlink.c */
/* A symbolic link's target: up to len bytes (no NUL) into buf, the
 * count copied; -EINVAL for an inode that is no symlink, -EIO. */
long ext2_readlink(struct ext2_inode_info *inode, char *buf, size_t len);

/* dir.c */
int ext2_lookup(struct ext2_inode_info *dir, const char *name, uint32_t *ino);
/* Call filldir for the entries from byte *pos on; *pos moves past each
 * entry consumed.  0 at the end or when filldir stopped. */
int ext2_readdir(struct ext2_inode_info *dir, uint64_t *pos, ext2_filldir_t filldir, void *ctx);

/* namei.c: mode carries permission bits only; the type is implied
 * (but for ext2_mknod). */
int ext2_create(struct ext2_inode_info *dir, const char *name, unsigned int mode, uint32_t *ino);
/* A device, FIFO or socket node: mode is EXT2_S_IFCHR, _IFBLK, _IFIFO
 * or _IFSOCK with permission bits (else -EINVAL); rdev a device's number
 * in st_rdev's encoding (Linux's new_encode_dev), ignored for the others. */
int ext2_mknod(struct ext2_inode_info *dir, const char *name, unsigned int mode, uint32_t rdev,
	       uint32_t *ino);
/* A symbolic link to target (1 byte to a block less one: -ENOENT,
 * -ENAMETOOLONG), mode 0777: fast under 60 bytes, else in one block. */
int ext2_symlink(struct ext2_inode_info *dir, const char *name, const char *target,
		 uint32_t *ino);
/* Another name for inode (held by the caller): -EPERM for a directory,
 * -ENOENT when it has no links left, -EMLINK at 32000, -EXDEV when it is
 * on another filesystem; else its link count grows. */
int ext2_link(struct ext2_inode_info *dir, const char *name, struct ext2_inode_info *inode);
int ext2_unlink(struct ext2_inode_info *dir, const char *name);
int ext2_mkdir(struct ext2_inode_info *dir, const char *name, unsigned int mode, uint32_t *ino);
int ext2_rmdir(struct ext2_inode_info *dir, const char *name);
int ext2_rename(struct ext2_inode_info *old_dir, const char *old_name,
		struct ext2_inode_info *new_dir, const char *new_name);

/* --- shared inside kernel/fs/ext2 only ----------------------------------- */

/* super.c */
bool ext2_valid_block(const struct ext2_sb_info *sbi, uint32_t block);
/* The descriptor of group, inside its buffer (held by the mount). */
struct ext2_group_desc *ext2_group_desc(struct ext2_sb_info *sbi, unsigned int group,
					struct buffer_head **bh);
void ext2_sb_dirty(struct ext2_sb_info *sbi);

/* alloc.c: block and inode bitmaps, with the counts in the group
 * descriptors and the superblock kept in step. */
int ext2_new_block(struct ext2_sb_info *sbi, uint32_t goal, uint32_t *block);
int ext2_free_block(struct ext2_sb_info *sbi, uint32_t block);
int ext2_new_inode(struct ext2_inode_info *dir, unsigned int mode, uint32_t *ino);
int ext2_free_inode(struct ext2_sb_info *sbi, uint32_t ino, bool is_dir);

/* inode.c */
/* Map file block lblk to *block (0: a hole); with create, fill a hole,
 * setting *fresh when the block is new (its contents are garbage). */
int ext2_get_block(struct ext2_inode_info *inode, uint64_t lblk, bool create,
		   uint32_t *block, bool *fresh);
/* Map file block lblk, filling a hole, and hold its buffer in *bhp,
 * zero-filled for the caller to fill, mark dirty and brelse: 0, an
 * ext2_get_block error, or -ENOMEM. */
int ext2_get_zeroed_block(struct ext2_inode_info *inode, uint64_t lblk, struct buffer_head **bhp);
void ext2_set_isize(struct ext2_inode_info *inode, uint64_t size);
/* Write the inode's dirty page-cache pages back: 0 or the first error. */
int ext2_writeback_pages(struct ext2_inode_info *inode);
void ext2_mark_inode_dirty(struct ext2_inode_info *inode);
int ext2_write_inode(struct ext2_inode_info *inode);

/* dir.c */
int ext2_add_link(struct ext2_inode_info *dir, const char *name, uint32_t ino,
		  unsigned int mode);
int ext2_delete_entry(struct ext2_inode_info *dir, const char *name);
/* Point the existing entry name at ino. */
int ext2_set_link(struct ext2_inode_info *dir, const char *name, uint32_t ino,
		  unsigned int mode);
/* Give the new directory inode its "." and ".." block. */
int ext2_make_empty(struct ext2_inode_info *inode, uint32_t parent);
/* 1 when the directory holds only "." and "..", 0 if not, or -errno. */
int ext2_empty_dir(struct ext2_inode_info *inode);
/* Check a name: 0, -ENOENT (empty) or -ENAMETOOLONG. */
int ext2_check_name(const char *name);

/* symlink.c */
/* Store target (under a block) in the new symlink inode, not linked yet:
 * in i_block[] under 60 bytes, else in a new block 0.  -ENAMETOOLONG,
 * -ENOSPC, -EIO. */
int ext2_write_symlink(struct ext2_inode_info *inode, const char *target);

#endif
