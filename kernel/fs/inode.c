/*
 * The inode cache (Linux's fs/inode.c: iget_locked, ihold, iput).
 *
 * Each super_block lists its in-core inodes on s_inodes.  iget() returns
 * the cached inode for a number, or makes one and lets the filesystem's
 * read_inode fill it, so two lookups of the same file share one struct
 * inode: its size, link count and mount flag are the same for everyone.
 *
 * An inode lives while referenced.  The last iput() lets the filesystem
 * release its private part (evict_inode: ext2 then frees an unlinked
 * file's blocks) and frees it; Linux keeps unused inodes cached for
 * reuse, Pageturn does not yet.  A linear list is fine at this size; a
 * hash table is the obvious next step.
 */
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/panic.h>
#include <uapi/errno.h>

int iget(struct super_block *sb, uint64_t ino, struct inode **res)
{
	struct inode *inode;
	int err;

	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		if (inode->i_ino == ino) {
			inode->i_count++;
			*res = inode;
			return 0;
		}
	}
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	if (!inode)
		return -ENOMEM;
	inode->i_ino = ino;
	inode->i_sb = sb;
	inode->i_count = 1;
	err = sb->s_op->read_inode(inode);
	if (err) {
		kfree(inode);
		return err;
	}
	list_add(&inode->i_sb_list, &sb->s_inodes);
	*res = inode;
	return 0;
}

void ihold(struct inode *inode)
{
	if (inode->i_count <= 0)
		panic("ihold: inode %lu is not held", (unsigned long)inode->i_ino);
	inode->i_count++;
}

void iput(struct inode *inode)
{
	if (inode->i_count <= 0)
		panic("iput: inode %lu put once too often", (unsigned long)inode->i_ino);
	if (--inode->i_count)
		return;
	list_del(&inode->i_sb_list);
	inode->i_sb->s_op->evict_inode(inode);
	kfree(inode);
}
