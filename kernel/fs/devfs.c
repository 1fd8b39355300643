/*
 * devfs: the device nodes of /dev (Linux's devtmpfs and the character
 * device table of fs/char_dev.c, reduced to one flat list).
 *
 * Drivers register nodes with devfs_register(): a name, a mode (S_IFCHR
 * or S_IFBLK and permissions), a device number, and the file_operations and
 * private data an open gets.  The list is global and only grows; node i
 * (from 0, in registration order) is inode number i + 2 of every devfs
 * mount, the root being 1, so nodes registered after a mount appear in
 * it, and two mounts show the same nodes.
 *
 * Opening a character device, on devfs or on any filesystem with device
 * inodes (ext2's, through init_special_inode), goes through
 * def_chr_fops: its open finds the node registered for the inode's
 * i_rdev (Linux's chrdev_open and cdev map), puts the driver's
 * file_operations and private data in the file and calls the driver's
 * own open if it has one.  A device number nobody registered is -ENXIO.
 *
 * A block device node is numbered apart from the character ones (ram0 is
 * block 1:0, /dev/mem would be character 1:0); opening it goes through
 * def_blk_fops (kernel/fs/block_dev.c), which finds the block device by
 * number.
 *
 * A devfs inode is a snapshot of its node; chmod changes both, so the
 * next mount's inode sees it.  devfs makes no files or directories of
 * its own (create, mkdir and unlink are -EPERM/-EACCES from the VFS).
 */
#include <asm/page.h>
#include <fs/devfs.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <uapi/errno.h>
#include <uapi/magic.h>

#define DEVFS_ROOT_INO	1

struct devfs_node {
	struct list_head list;		/* on devfs_nodes, by ino */
	uint64_t ino;
	umode_t mode;
	uint32_t rdev;
	uint64_t mtime;
	const struct file_operations *fops;
	void *priv;
	char name[];
};

static LIST_HEAD(devfs_nodes);
static uint64_t devfs_next_ino = DEVFS_ROOT_INO + 1;

static const struct inode_operations devfs_dir_inode_operations;
static const struct inode_operations devfs_node_inode_operations;
static const struct file_operations devfs_dir_operations;

static struct devfs_node *find_node_by_ino(uint64_t ino)
{
	struct devfs_node *node;

	list_for_each_entry(node, &devfs_nodes, list)
		if (node->ino == ino)
			return node;
	return NULL;
}

static struct devfs_node *find_node_by_name(const char *name)
{
	struct devfs_node *node;

	list_for_each_entry(node, &devfs_nodes, list)
		if (strcmp(node->name, name) == 0)
			return node;
	return NULL;
}

/* The node of device number rdev of type (S_IFCHR or S_IFBLK), or NULL. */
static struct devfs_node *find_node_by_rdev(umode_t type, uint32_t rdev)
{
	struct devfs_node *node;

	list_for_each_entry(node, &devfs_nodes, list)
		if (node->rdev == rdev && (node->mode & S_IFMT) == type)
			return node;
	return NULL;
}

int devfs_register(const char *name, umode_t mode, uint32_t rdev,
		   const struct file_operations *fops, void *priv)
{
	size_t len = name ? strnlen(name, NAME_MAX + 1) : 0;
	struct devfs_node *node;

	if (!len || len > NAME_MAX || memchr(name, '/', len) || !strcmp(name, ".") ||
	    !strcmp(name, "..") || !(S_ISCHR(mode) || S_ISBLK(mode)) || !fops)
		return -EINVAL;
	if (find_node_by_name(name) || find_node_by_rdev(mode & S_IFMT, rdev))
		return -EEXIST;
	node = kzalloc(sizeof(*node) + len + 1, GFP_KERNEL);
	if (!node)
		return -ENOMEM;
	memcpy(node->name, name, len + 1);
	node->ino = devfs_next_ino++;
	node->mode = mode & (S_IFMT | S_IALLUGO);
	node->rdev = rdev;
	node->fops = fops;
	node->priv = priv;
	list_add_tail(&node->list, &devfs_nodes);
	return 0;
}

/* --- opening a character device, wherever its inode lives ------------------------- */

static int chrdev_open(struct inode *inode, struct file *file)
{
	struct devfs_node *node = find_node_by_rdev(S_IFCHR, inode->i_rdev);

	if (!node)
		return -ENXIO;
	file->f_op = node->fops;
	file->private_data = node->priv;
	return file->f_op->open ? file->f_op->open(inode, file) : 0;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};

/* --- the filesystem ------------------------------------------------------------------ */

static int devfs_read_inode(struct inode *inode)
{
	struct devfs_node *node;

	inode->i_blksize = PAGE_SIZE;
	if (inode->i_ino == DEVFS_ROOT_INO) {
		inode->i_mode = S_IFDIR | 0755;
		inode->i_nlink = 2;
		inode->i_op = &devfs_dir_inode_operations;
		inode->i_fop = &devfs_dir_operations;
		return 0;
	}
	node = find_node_by_ino(inode->i_ino);
	if (!node)
		return -ENOENT;
	inode->i_nlink = 1;
	inode->i_mtime = node->mtime;
	inode->i_op = &devfs_node_inode_operations;
	init_special_inode(inode, node->mode, node->rdev);
	return 0;
}

static void devfs_evict_inode(struct inode *inode)
{
	(void)inode;	/* the nodes are devfs's, not the inode's */
}

static const struct super_operations devfs_sops = {
	.read_inode = devfs_read_inode,
	.evict_inode = devfs_evict_inode,
};

static int devfs_lookup(struct inode *dir, const char *name, struct inode **res)
{
	struct devfs_node *node = find_node_by_name(name);

	return node ? iget(dir->i_sb, node->ino, res) : -ENOENT;
}

/* chmod and utimensat: the inode and its node. */
static int devfs_setattr(struct inode *inode, const struct iattr *attr)
{
	struct devfs_node *node = find_node_by_ino(inode->i_ino);
	int err = simple_setattr(inode, attr);

	if (node) {
		node->mode = inode->i_mode;
		node->mtime = inode->i_mtime;
	}
	return err;
}

/* f_pos 0 is ".", 1 "..", then the inode number of the next node. */
static int devfs_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	struct devfs_node *node;

	if (file->f_pos < 0)
		return -EINVAL;
	if (file->f_pos == 0) {
		if (filldir(ctx, ".", 1, DEVFS_ROOT_INO, DT_DIR))
			return 0;
		file->f_pos = 1;
	}
	if (file->f_pos == 1) {
		if (filldir(ctx, "..", 2, DEVFS_ROOT_INO, DT_DIR))
			return 0;
		file->f_pos = 2;
	}
	list_for_each_entry(node, &devfs_nodes, list) {
		if (node->ino < (uint64_t)file->f_pos)
			continue;
		if (filldir(ctx, node->name, strlen(node->name), node->ino,
			    S_ISBLK(node->mode) ? DT_BLK : DT_CHR))
			return 0;
		file->f_pos = node->ino + 1;
	}
	return 0;
}

static const struct inode_operations devfs_dir_inode_operations = {
	.lookup = devfs_lookup,
	.setattr = simple_setattr,
};

static const struct inode_operations devfs_node_inode_operations = {
	.setattr = devfs_setattr,
};

static const struct file_operations devfs_dir_operations = {
	.iterate = devfs_iterate,
};

static int devfs_fill_super(struct super_block *sb)
{
	sb->s_op = &devfs_sops;
	sb->s_magic = TMPFS_MAGIC;	/* devtmpfs is a tmpfs on Linux */
	return iget(sb, DEVFS_ROOT_INO, &sb->s_root);
}

struct file_system_type devfs_fs_type = {
	.name = "devtmpfs",
	.mount = devfs_fill_super,
};
