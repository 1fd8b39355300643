/*
 * tmpfs: a filesystem that lives in RAM (Linux's mm/shmem.c, without
 * swap).
 *
 * File data.  A regular file's bytes live only in the page cache of its
 * own address_space, which is swap-backed (AS_SWAPBACKED): there is no
 * backing store but swap.  So add_to_page_cache_lru gives every page
 * PG_swapbacked and puts it on the active anon list (as Linux 2.6.28's
 * shmem does): /proc/meminfo shows tmpfs data under Active(anon)/Inactive(anon)
 * and in Cached (NR_FILE_PAGES), never on the file lists.  read() and
 * write() are filemap_read and generic_perform_write; the address_space_operations
 * are:
 *
 *   readpage       a page on swap is copied back from its slot (and is
 *                  dirty from then on: memory holds the only copy); a
 *                  page that was never written (a hole, or past a
 *                  write's partial page) reads as zeroes;
 *   prepare_write  charges a new page against the size limit (a page on
 *                  swap that the write covers is charged already: its
 *                  entry is dropped);
 *   writepage      moves the page to the swap cache, its slot's entry
 *                  taking its place in the file's swap tree (see "Swap"
 *                  below); without a free slot, or for an unevictable
 *                  mapping, AOP_WRITEPAGE_ACTIVATE: the page stays dirty
 *                  (written pages are dirty for life, so reclaim never
 *                  takes them for clean) and reclaim activates it, as
 *                  Linux's shmem_writepage asks when swap is off or full.
 *                  fsync has nothing to write and returns 0.
 *
 * Swap.  A regular file's pages on swap are entries in its swap_tree
 * (index -> swap entry, each holding one count of its slot; Linux 2.6.28
 * kept a swap vector), counted in info->swapped and still charged
 * against the size limit.  The file is on shmem_swaplist from its first
 * swapped page until it is evicted, for swapoff (shmem_unuse) and the
 * swap ktest.  Truncation and eviction free the entries.  A file's page
 * and its swap entry never coexist: writepage moves one to the other
 * under tree_lock, and readpage, which holds the new page's lock, takes
 * the entry out only after copying the slot.
 *
 * ramfs.  The same code mounted as "ramfs" (Linux's fs/ramfs: no size
 * limit, RAMFS_MAGIC) marks each regular file's mapping unevictable
 * (AS_UNEVICTABLE), so its pages go straight to the unevictable list and
 * reclaim never looks at them; everything else is tmpfs's.
 *
 * SysV shared memory (kernel/ipc/shm.c).  A segment is a regular file
 * that shmem_file_setup makes on the kernel's own instance (kern_mount:
 * in no namespace, no size limit, as Linux's shm_mnt) with no name, so
 * its last fput frees it.  SHM_LOCK is shmem_lock: the file's mapping
 * becomes AS_UNEVICTABLE as ramfs's are, and SHM_UNLOCK clears it and
 * lets scan_mapping_unevictable_pages hand the pages back to reclaim.
 *
 * The size limit (size=, default half of RAM as Linux's) counts the pages
 * in the files' caches, in sbinfo->used_blocks: a page is charged when it
 * enters a cache (readpage, or prepare_write of a page about to be wholly
 * overwritten) and -ENOSPC refuses it past the limit, so write() fails
 * cleanly and the page is dropped again.  Each inode counts its charged
 * pages in alloced; after pages leave the cache shmem_recalc_inode
 * returns the difference to the super block, as Linux's
 * shmem_recalc_inode does.  Pages leave by truncate and the last iput,
 * and also behind tmpfs's back: a page read from a hole is clean, and
 * reclaim frees a clean page it isolated (lumpy reclaim takes pages from
 * the anon lists too) as it frees a clean file page.  So each charge
 * first takes back what left meanwhile (Linux's shmem_getpage does too),
 * and a hole read, dropped and read again is charged once.  A read of a hole caches a zero page
 * (Linux maps ZERO_PAGE instead), so it is charged too: reading a hole of
 * a full tmpfs fails with -ENOSPC rather than pass the limit.
 *
 * The namespace.  Every tmpfs inode is in the VFS inode cache for as long
 * as it exists: a directory entry (struct shmem_dirent, on its
 * directory's list) holds a reference to the inode it names, as Linux's
 * pinned dentries do, and the super block holds the root.  So lookup
 * returns the entry's inode with another reference, and s_op->read_inode
 * is only reached by shmem_get_inode for a fresh inode number.  Removing
 * the last name (unlink, rmdir, rename over it) drops the link count to 0
 * and that reference; the inode dies at the last iput, from the name or
 * from an open file, when evict_inode drops its pages (off the cache and
 * the anon LRU, back to the allocator) and returns their charge.
 * Directories have nlink 2 plus one per subdirectory and a bogus size of
 * 20 bytes per entry (Linux's BOGO_DIRENT_SIZE).  A directory holds a
 * reference to its parent (its ".."), as a Linux dentry holds its
 * d_parent, moved with it by rename.  The reference goes when the
 * directory is removed (rmdir, or a rename over it): the VFS never asks
 * anything of a removed directory (IS_DEADDIR: no lookup, no "..", no
 * create, no readdir), so a dead directory's parent pointer is itself.
 * Dropping it then, not at eviction, matters: a chain of removed
 * directories each held only by its child's reference would otherwise be
 * freed by iput calling iput, one stack frame per level, until the
 * kernel stack overflows.  Nor does the VFS move a directory under
 * itself.
 *
 * The other kinds of inode.  A hard link is one more entry holding the
 * same inode, whose i_nlink counts its entries (a directory gets none:
 * the VFS refuses).  A symbolic link keeps its target in a kmalloc'd
 * string (i_size bytes; Linux keeps short ones inline), freed with the
 * inode.  Device, FIFO and socket nodes are init_special_inode's: a
 * character device opens through its driver, the others cannot be
 * opened (fs/vfs.h).
 *
 * Attributes: a regular file's inode->i_mapping is its address_space
 * (mmap maps it); mtime is the wall clock at creation and at each write;
 * chmod and utimensat change the in-core inode, which is all there is
 * (simple_setattr).  statfs counts pages: the size limit and what is
 * free under it.
 *
 * readdir positions: 0 is ".", 1 is "..", and each entry gets the next
 * number of its directory (cookie, from 2) when it is made, so the list
 * is in cookie order and f_pos is the cookie to resume from: entries
 * removed or added during a listing do not make it repeat or skip others.
 *
 * Nothing here sleeps, so nothing here locks beyond the VFS's i_mutex
 * rules (fs/vfs.h), which the operations are called under.
 */
#include <drivers/rtc.h>
#include <fs/vfs.h>
#include <mm/mm.h>
#include <mm/pagemap.h>
#include <mm/shmem.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <mm/vmstat.h>
#include <pageturn/mutex.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <uapi/errno.h>
#include <uapi/fcntl.h>
#include <uapi/magic.h>

#define BOGO_DIRENT_SIZE	20	/* a directory's i_size per entry */
#define SHMEM_ROOT_MODE		(S_IFDIR | S_ISVTX | S_IRWXU | S_IRWXG | S_IRWXO)	/* 1777, as /tmp */
#define BLOCKS_PER_PAGE		(PAGE_SIZE / 512)

struct shmem_sb_info {
	unsigned long max_blocks;	/* the size limit in pages; 0: none */
	unsigned long used_blocks;	/* pages charged, in all the files */
	uint64_t next_ino;
	bool ramfs;			/* mounted as ramfs: file pages unevictable */
};

struct shmem_dirent {
	struct list_head list;		/* on the directory's entries, by cookie */
	struct inode *inode;		/* held: the link */
	uint64_t cookie;		/* readdir position */
	char name[];
};

struct shmem_inode_info {
	struct address_space mapping;	/* a regular file's data */
	/* A regular file's pages on swap: index -> swp_to_radix_entry(entry),
	 * each holding one count of its slot (Linux 2.6.28's swap vector). */
	struct radix_tree_root swap_tree;
	unsigned long swapped;		/* entries in swap_tree */
	struct list_head swaplist;	/* on shmem_swaplist once a page went to swap */
	unsigned long alloced;		/* pages charged to the super block */
	struct list_head entries;	/* a directory's shmem_dirents */
	uint64_t next_cookie;		/* a directory's next readdir position */
	struct inode *parent;		/* a directory's "..", held (not for the root) */
	char *symlink;			/* a symlink's target, i_size bytes and a NUL */
};

static const struct inode_operations shmem_dir_inode_operations;
static const struct inode_operations shmem_file_inode_operations;
static const struct inode_operations shmem_symlink_inode_operations;
static const struct inode_operations shmem_special_inode_operations;
static const struct file_operations shmem_dir_operations;
static const struct file_operations shmem_file_operations;
static const struct address_space_operations shmem_aops;

static struct shmem_inode_info *SHMEM_I(const struct inode *inode)
{
	return inode->i_private;
}

static struct shmem_sb_info *SHMEM_SB(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/* --- the size limit ------------------------------------------------------------ */

/*
 * Return the charge of the pages that have left inode's cache.  pending
 * pages of the cache are not charged yet: the one shmem_charge is
 * charging, which is in the cache already (0 from anywhere else).
 */
static void shmem_recalc_inode(struct inode *inode, unsigned long pending)
{
	struct shmem_inode_info *info = SHMEM_I(inode);
	unsigned long freed = info->alloced + pending - info->mapping.nrpages - info->swapped;

	SHMEM_SB(inode->i_sb)->used_blocks -= freed;
	info->alloced -= freed;
	inode->i_blocks = info->alloced * BLOCKS_PER_PAGE;
}

/*
 * Charge a new page of inode, in its cache already: 0 or -ENOSPC.
 * Reclaim may have dropped clean pages of the file since the last charge
 * (see the top of the file): their charge comes back first, as Linux's
 * shmem_getpage recalculates before it allocates.
 */
static int shmem_charge(struct inode *inode)
{
	struct shmem_sb_info *sbinfo = SHMEM_SB(inode->i_sb);
	struct shmem_inode_info *info = SHMEM_I(inode);

	shmem_recalc_inode(inode, 1);
	if (sbinfo->max_blocks && sbinfo->used_blocks >= sbinfo->max_blocks)
		return -ENOSPC;
	sbinfo->used_blocks++;
	info->alloced++;
	inode->i_blocks = info->alloced * BLOCKS_PER_PAGE;
	return 0;
}

/*
 * Parse a size= value into pages: N bytes, Nk, Nm, Ng (either case), or
 * N% of RAM; rounded up.  0 or -EINVAL.
 */
static int shmem_parse_size(const char *s, unsigned long *pages)
{
	uint64_t n = 0, bytes;
	unsigned int shift = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++)
		if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, *s - '0', &n))
			return -EINVAL;
	if (*s == '%') {
		if (s[1] || n > 100)
			return -EINVAL;
		*pages = totalram_pages * n / 100;
		return 0;
	}
	switch (*s) {
	case 'g': case 'G':
		shift += 10;
		/* fall through */
	case 'm': case 'M':
		shift += 10;
		/* fall through */
	case 'k': case 'K':
		shift += 10;
		s++;
	}
	if (*s || n > (~0ull >> shift) - PAGE_SIZE)
		return -EINVAL;
	bytes = n << shift;
	*pages = (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT;
	return 0;
}

/* Parse comma-separated options into *max_blocks: 0 or -EINVAL. */
static int shmem_parse_options(const char *options, unsigned long *max_blocks)
{
	const char *comma;
	char opt[32];
	size_t len;
	int err;

	while (*options) {
		comma = strchr(options, ',');
		len = comma ? (size_t)(comma - options) : strlen(options);
		if (len >= sizeof(opt))
			return -EINVAL;
		memcpy(opt, options, len);
		opt[len] = '\0';
		options += len + (comma != NULL);
		if (strncmp(opt, "size=", 5) != 0)
			return -EINVAL;
		err = shmem_parse_size(opt + 5, max_blocks);
		if (err)
			return err;
	}
	return 0;
}

/* --- swap ------------------------------------------------------------------------ */

/* The regular files that have had a page on swap, for swapoff and the
 * swap ktest (Linux's shmem_swaplist): a file joins when its first page
 * goes to swap and leaves when it is evicted. */
static LIST_HEAD(shmem_swaplist);

/*
 * The page at index of a file is on swap: take its entry out of the
 * swap tree and, if data is not NULL, copy the slot's contents there (from
 * the swap cache, or read together with the slots around it,
 * swapin_readahead, as Linux's shmem_swapin: a file's pages went out
 * together and come back together).  The entry's slot count goes
 * (free_swap_and_cache); the page stays charged.  0 when there was no
 * entry, 1 when there was, -EIO when the slot could not be read, -ENOMEM:
 * then the entry stays.  Called with the file's new page at index locked
 * (so no other reader of index runs); may sleep.
 */
static int shmem_unswap(struct shmem_inode_info *info, pgoff_t index, void *data)
{
	void *item = radix_tree_lookup(&info->swap_tree, index);
	swp_entry_t entry;
	struct page *page;
	unsigned long flags;

	if (!item)
		return 0;
	entry = radix_to_swp_entry(item);
	if (data) {
		page = swapin_readahead(entry, GFP_USER);
		if (!page)
			return -ENOMEM;
		lock_page(page);
		if (!PageUptodate(page)) {
			unlock_page(page);
			put_page(page);
			return -EIO;
		}
		copy_page(data, page_address(page));
		unlock_page(page);
		put_page(page);
	}
	/* The reads slept, but only a holder of this index's page lock
	 * changes its entry: it is still ours. */
	spin_lock_irqsave(&info->mapping.tree_lock, flags);
	radix_tree_delete(&info->swap_tree, index);
	info->swapped--;
	spin_unlock_irqrestore(&info->mapping.tree_lock, flags);
	free_swap_and_cache(entry);
	return 1;
}

/* Drop the swap entries of indices >= start (truncation and eviction). */
static void shmem_free_swap(struct shmem_inode_info *info, pgoff_t start)
{
	unsigned long indices[16], flags;
	void *items[16];
	unsigned int i, n;

	while (info->swapped &&
	       (n = radix_tree_gang_lookup_index(&info->swap_tree, items, indices, start, 16))) {
		spin_lock_irqsave(&info->mapping.tree_lock, flags);
		for (i = 0; i < n; i++)
			radix_tree_delete(&info->swap_tree, indices[i]);
		info->swapped -= n;
		spin_unlock_irqrestore(&info->mapping.tree_lock, flags);
		for (i = 0; i < n; i++)
			free_swap_and_cache(radix_to_swp_entry(items[i]));
		start = indices[n - 1] + 1;
	}
}

/* --- the page cache's operations --------------------------------------------------- */

static int shmem_readpage(struct address_space *mapping, struct page *page)
{
	struct inode *inode = mapping->host;
	int ret = shmem_unswap(SHMEM_I(inode), page->index, page_address(page));

	if (ret < 0)
		return ret;
	if (ret) {
		/* Back from swap, whose copy is gone: memory holds the only one. */
		SetPageDirty(page);
	} else {
		/* A hole: a new page, charged. */
		ret = shmem_charge(inode);
		if (ret)
			return ret;
		clear_page(page_address(page));
	}
	SetPageUptodate(page);
	return 0;
}

static int shmem_prepare_write(struct address_space *mapping, struct page *page,
			       unsigned int from, unsigned int to)
{
	struct inode *inode = mapping->host;
	int ret;

	(void)from;
	(void)to;
	/* An uptodate page was charged when it entered the cache. */
	if (PageUptodate(page))
		return 0;
	/* The write covers the page: a copy on swap is stale, and already
	 * charged. */
	ret = shmem_unswap(SHMEM_I(inode), page->index, NULL);
	return ret ? 0 : shmem_charge(inode);
}

/*
 * Reclaim's write of a tmpfs page (Linux's shmem_writepage): called by
 * pageout with the page locked, isolated, unmapped, dirty bit cleared.
 * The page moves from the file's cache to the swap cache, its slot's
 * entry taking its place in the swap tree, and is written there; reclaim
 * then frees it from the swap cache.  Without a free slot, or memory for
 * the trees' nodes, AOP_WRITEPAGE_ACTIVATE: the page stays, activated.
 * Never sleeps but for the write.
 */
static int shmem_writepage(struct address_space *mapping, struct page *page)
{
	struct shmem_inode_info *info = SHMEM_I(mapping->host);
	unsigned long flags;
	swp_entry_t entry;
	int err;

	if (mapping_unevictable(mapping))
		return AOP_WRITEPAGE_ACTIVATE;
	entry = get_swap_page();
	if (!entry.val)
		return AOP_WRITEPAGE_ACTIVATE;
	/* One count for the swap tree (get_swap_page's), one for the cache. */
	swap_duplicate(entry);
	err = radix_tree_preload(__GFP_HIGH | __GFP_NOMEMALLOC | __GFP_NOWARN);
	if (err)
		goto fail;
	spin_lock_irqsave(&mapping->tree_lock, flags);
	err = radix_tree_insert(&info->swap_tree, page->index, swp_to_radix_entry(entry));
	if (!err) {
		radix_tree_delete(&mapping->page_tree, page->index);
		page->mapping = NULL;
		mapping->nrpages--;
		info->swapped++;
		if (list_empty(&info->swaplist))
			list_add_tail(&info->swaplist, &shmem_swaplist);
	}
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	radix_tree_preload_end();
	if (err)
		goto fail;
	dec_zone_page_state(page, NR_FILE_PAGES);
	dec_zone_page_state(page, NR_SHMEM);
	/* The file cache's page reference is the swap cache's now. */
	if (add_to_swap_cache(page, entry, __GFP_HIGH | __GFP_NOMEMALLOC | __GFP_NOWARN))
		panic("shmem_writepage: slot %#lx is in the swap cache already", entry.val);
	put_page(page);
	return swap_writepage(mapping, page);
fail:
	swap_free(entry);
	swap_free(entry);
	return AOP_WRITEPAGE_ACTIVATE;
}

static const struct address_space_operations shmem_aops = {
	.readpage = shmem_readpage,
	.writepage = shmem_writepage,
	.prepare_write = shmem_prepare_write,
};

/* --- inodes ---------------------------------------------------------------------- */

/* Only for a fresh inode number (see the top of the file): an empty inode. */
static int shmem_read_inode(struct inode *inode)
{
	struct shmem_inode_info *info = kzalloc(sizeof(*info), GFP_KERNEL);

	if (!info)
		return -ENOMEM;
	INIT_LIST_HEAD(&info->entries);
	inode->i_private = info;
	inode->i_blksize = PAGE_SIZE;
	return 0;
}

static void shmem_evict_inode(struct inode *inode)
{
	struct shmem_inode_info *info = SHMEM_I(inode);

	if (S_ISREG(inode->i_mode)) {
		truncate_inode_pages(&info->mapping, 0);
		shmem_free_swap(info, 0);
		list_del_init(&info->swaplist);
		shmem_recalc_inode(inode, 0);
	}
	if (S_ISDIR(inode->i_mode) && info->parent != inode)
		iput(info->parent);
	kfree(info->symlink);
	kfree(info);
}

/* Linux's generic_delete_inode: the names hold the inodes, so an inode
 * nobody references is one that never got a name (shmem_new_child's
 * error path). */
static bool shmem_drop_inode(struct inode *inode)
{
	(void)inode;
	return true;
}

static int shmem_statfs(struct super_block *sb, struct kstatfs *buf)
{
	struct shmem_sb_info *sbinfo = SHMEM_SB(sb);

	buf->f_bsize = PAGE_SIZE;
	if (sbinfo->max_blocks) {
		buf->f_blocks = sbinfo->max_blocks;
		buf->f_bavail = buf->f_bfree = sbinfo->max_blocks - sbinfo->used_blocks;
	}
	return 0;
}

static const struct super_operations shmem_sops = {
	.read_inode = shmem_read_inode,
	.drop_inode = shmem_drop_inode,
	.evict_inode = shmem_evict_inode,
	.statfs = shmem_statfs,
};

/*
 * A new inode of mode (type and permissions) whose parent is dir (NULL:
 * the root, its own parent), held in *res; not linked yet.  dev is a
 * device node's number; a symlink gets its target from the caller.
 */
static int shmem_get_inode(struct super_block *sb, struct inode *dir, umode_t mode,
			   uint32_t dev, struct inode **res)
{
	struct inode *inode;
	int err = iget(sb, SHMEM_SB(sb)->next_ino++, &inode);

	if (err)
		return err;
	inode->i_mode = mode;
	inode->i_mtime = ktime_get_real_seconds();
	if (S_ISDIR(mode)) {
		inode->i_nlink = 2;
		inode->i_op = &shmem_dir_inode_operations;
		inode->i_fop = &shmem_dir_operations;
		if (dir)
			ihold(dir);
		SHMEM_I(inode)->parent = dir ? dir : inode;
		SHMEM_I(inode)->next_cookie = 2;
	} else if (S_ISLNK(mode)) {
		inode->i_nlink = 1;
		inode->i_op = &shmem_symlink_inode_operations;
	} else if (!S_ISREG(mode)) {
		inode->i_nlink = 1;
		inode->i_op = &shmem_special_inode_operations;
		init_special_inode(inode, mode, dev);
	} else {
		inode->i_nlink = 1;
		inode->i_op = &shmem_file_inode_operations;
		inode->i_fop = &shmem_file_operations;
		address_space_init(&SHMEM_I(inode)->mapping, inode, &shmem_aops, true);
		INIT_RADIX_TREE(&SHMEM_I(inode)->swap_tree, GFP_ATOMIC);
		INIT_LIST_HEAD(&SHMEM_I(inode)->swaplist);
		/* ramfs: never evicted (Linux 2.6.28's ramfs_get_inode). */
		if (SHMEM_SB(sb)->ramfs)
			mapping_set_unevictable(&SHMEM_I(inode)->mapping);
		inode->i_mapping = &SHMEM_I(inode)->mapping;
	}
	*res = inode;
	return 0;
}

/* --- directory entries ------------------------------------------------------------- */

static struct shmem_dirent *shmem_find_entry(struct inode *dir, const char *name)
{
	struct shmem_dirent *de;

	list_for_each_entry(de, &SHMEM_I(dir)->entries, list)
		if (strcmp(de->name, name) == 0)
			return de;
	return NULL;
}

/* Link inode as name in dir, taking a reference for the link: 0 or -ENOMEM. */
static int shmem_add_entry(struct inode *dir, const char *name, struct inode *inode)
{
	size_t len = strlen(name);
	struct shmem_dirent *de = kmalloc(sizeof(*de) + len + 1, GFP_KERNEL);

	if (!de)
		return -ENOMEM;
	memcpy(de->name, name, len + 1);
	ihold(inode);
	de->inode = inode;
	de->cookie = SHMEM_I(dir)->next_cookie++;
	list_add_tail(&de->list, &SHMEM_I(dir)->entries);
	dir->i_size += BOGO_DIRENT_SIZE;
	return 0;
}

/* Unlink an entry of dir, dropping the link's reference. */
static void shmem_del_entry(struct inode *dir, struct shmem_dirent *de)
{
	list_del(&de->list);
	dir->i_size -= BOGO_DIRENT_SIZE;
	iput(de->inode);
	kfree(de);
}

/* The link count of inode, which just lost its name in dir. */
static void shmem_drop_nlink(struct inode *dir, struct inode *inode)
{
	if (S_ISDIR(inode->i_mode)) {
		inode->i_nlink = 0;
		dir->i_nlink--;		/* inode's ".." */
	} else {
		inode->i_nlink--;
	}
}

/* --- inode_operations --------------------------------------------------------------- */

static int shmem_lookup(struct inode *dir, const char *name, struct inode **res)
{
	struct shmem_dirent *de;

	if (strcmp(name, "..") == 0) {
		ihold(SHMEM_I(dir)->parent);
		*res = SHMEM_I(dir)->parent;
		return 0;
	}
	de = shmem_find_entry(dir, name);
	if (!de)
		return -ENOENT;
	ihold(de->inode);
	*res = de->inode;
	return 0;
}

/* Make and link a new inode of mode (dev: a device node's number) as
 * name in dir, held in *res. */
static int shmem_new_child(struct inode *dir, const char *name, umode_t mode, uint32_t dev,
			   struct inode **res)
{
	struct inode *inode;
	int err;

	if (shmem_find_entry(dir, name))
		return -EEXIST;
	err = shmem_get_inode(dir->i_sb, dir, mode, dev, &inode);
	if (err)
		return err;
	err = shmem_add_entry(dir, name, inode);
	if (err) {
		iput(inode);
		return err;
	}
	if (S_ISDIR(mode))
		dir->i_nlink++;
	*res = inode;
	return 0;
}

static int shmem_create(struct inode *dir, const char *name, umode_t mode, struct inode **res)
{
	return shmem_new_child(dir, name, S_IFREG | (mode & S_IALLUGO), 0, res);
}

static int shmem_mkdir(struct inode *dir, const char *name, umode_t mode)
{
	struct inode *inode;
	int err = shmem_new_child(dir, name, S_IFDIR | (mode & S_IALLUGO), 0, &inode);

	if (!err)
		iput(inode);
	return err;
}

static int shmem_mknod(struct inode *dir, const char *name, umode_t mode, uint32_t dev)
{
	struct inode *inode;
	int err = shmem_new_child(dir, name, mode, dev, &inode);

	if (!err)
		iput(inode);
	return err;
}

static int shmem_symlink(struct inode *dir, const char *name, const char *target)
{
	size_t len = strlen(target);
	char *copy = kmalloc(len + 1, GFP_KERNEL);
	struct inode *inode;
	int err;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, target, len + 1);
	err = shmem_new_child(dir, name, S_IFLNK | S_IRWXU | S_IRWXG | S_IRWXO, 0, &inode);
	if (err) {
		kfree(copy);
		return err;
	}
	SHMEM_I(inode)->symlink = copy;
	inode->i_size = len;
	iput(inode);
	return 0;
}

static int shmem_readlink(struct inode *inode, char *buf, size_t len)
{
	size_t n = MIN((size_t)inode->i_size, len);

	memcpy(buf, SHMEM_I(inode)->symlink, n);
	return n;
}

static int shmem_link(struct inode *old, struct inode *dir, const char *name)
{
	int err;

	if (shmem_find_entry(dir, name))
		return -EEXIST;
	err = shmem_add_entry(dir, name, old);
	if (!err)
		old->i_nlink++;
	return err;
}

static int shmem_unlink(struct inode *dir, const char *name, struct inode *victim)
{
	struct shmem_dirent *de = shmem_find_entry(dir, name);

	if (!de || de->inode != victim)
		return -ENOENT;
	shmem_drop_nlink(dir, victim);
	shmem_del_entry(dir, de);
	return 0;
}

/*
 * A directory dies (rmdir, or a rename replaced it): it lets its parent
 * go and points at itself (see the top of the file).  The caller holds
 * both.
 */
static void shmem_dir_dies(struct inode *dir)
{
	struct shmem_inode_info *info = SHMEM_I(dir);

	if (info->parent != dir) {
		iput(info->parent);
		info->parent = dir;
	}
}

static int shmem_rmdir(struct inode *dir, const char *name, struct inode *victim)
{
	int err;

	if (!list_empty(&SHMEM_I(victim)->entries))
		return -ENOTEMPTY;
	err = shmem_unlink(dir, name, victim);
	if (!err)
		shmem_dir_dies(victim);
	return err;
}

/*
 * Move src from old_name in old_dir to new_name in new_dir, replacing
 * target if there is one (the VFS has checked the types match, and that
 * src is no ancestor of new_dir).  Nothing changes on an error: -ENOENT
 * (a name is gone), -ENOTEMPTY, -ENOMEM.
 */
static int shmem_rename(struct inode *old_dir, const char *old_name, struct inode *src,
			struct inode *new_dir, const char *new_name, struct inode *target)
{
	struct shmem_dirent *old_de = shmem_find_entry(old_dir, old_name);
	struct shmem_dirent *new_de = shmem_find_entry(new_dir, new_name);
	int err;

	if (!old_de || old_de->inode != src || (new_de ? new_de->inode : NULL) != target)
		return -ENOENT;
	if (target && S_ISDIR(target->i_mode) && !list_empty(&SHMEM_I(target)->entries))
		return -ENOTEMPTY;
	if (target) {
		/* The entry now names src; the link to target goes. */
		shmem_drop_nlink(new_dir, target);
		if (S_ISDIR(target->i_mode))
			shmem_dir_dies(target);
		ihold(src);
		new_de->inode = src;
		iput(target);
	} else {
		err = shmem_add_entry(new_dir, new_name, src);
		if (err)
			return err;
	}
	if (S_ISDIR(src->i_mode) && old_dir != new_dir) {
		old_dir->i_nlink--;
		new_dir->i_nlink++;
		ihold(new_dir);
		SHMEM_I(src)->parent = new_dir;
		iput(old_dir);	/* src's reference; the caller holds old_dir too */
	}
	shmem_del_entry(old_dir, old_de);
	return 0;
}

/* The size goes first, as in Linux's vmtruncate: a fault while
 * truncate_inode_pages sleeps for a page lock sees the new end. */
static int shmem_truncate(struct inode *inode, loff_t size)
{
	loff_t old = inode->i_size;

	inode->i_size = size;
	if (size < old) {
		truncate_inode_pages(&SHMEM_I(inode)->mapping, size);
		shmem_free_swap(SHMEM_I(inode), (size + PAGE_SIZE - 1) >> PAGE_SHIFT);
		shmem_recalc_inode(inode, 0);
	}
	return 0;
}

static const struct inode_operations shmem_dir_inode_operations = {
	.lookup = shmem_lookup,
	.create = shmem_create,
	.mknod = shmem_mknod,
	.symlink = shmem_symlink,
	.link = shmem_link,
	.mkdir = shmem_mkdir,
	.rmdir = shmem_rmdir,
	.unlink = shmem_unlink,
	.rename = shmem_rename,
	.setattr = simple_setattr,
};

static const struct inode_operations shmem_file_inode_operations = {
	.truncate = shmem_truncate,
	.setattr = simple_setattr,
};

static const struct inode_operations shmem_symlink_inode_operations = {
	.readlink = shmem_readlink,
	.setattr = simple_setattr,
};

static const struct inode_operations shmem_special_inode_operations = {
	.setattr = simple_setattr,
};

/* --- file_operations ------------------------------------------------------------------ */

static long shmem_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = iocb->ki_filp->f_inode;
	long n;

	if (iocb->ki_pos < 0)
		return -EINVAL;
	n = filemap_read(&SHMEM_I(inode)->mapping, iocb->ki_pos, to, inode->i_size);
	if (n > 0)
		iocb->ki_pos += n;
	return n;
}

/* Called with the inode's i_mutex held. */
static long shmem_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = iocb->ki_filp->f_inode;
	loff_t end;
	long n;

	if (iocb->ki_pos < 0)
		return -EINVAL;
	if (__builtin_add_overflow(iocb->ki_pos, (loff_t)iov_iter_count(from), &end))
		return -EFBIG;
	n = generic_perform_write(&SHMEM_I(inode)->mapping, from, iocb->ki_pos);
	if (n > 0) {
		iocb->ki_pos += n;
		inode->i_mtime = ktime_get_real_seconds();
		if (iocb->ki_pos > inode->i_size)
			inode->i_size = iocb->ki_pos;
	}
	return n;
}

/* The data is in memory, which is where fsync would put it. */
static int shmem_fsync(struct file *file)
{
	(void)file;
	return 0;
}

static int shmem_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	struct inode *dir = file->f_inode;
	struct shmem_dirent *de;

	if (file->f_pos < 0)
		return -EINVAL;
	if (file->f_pos == 0) {
		if (filldir(ctx, ".", 1, dir->i_ino, DT_DIR))
			return 0;
		file->f_pos = 1;
	}
	if (file->f_pos == 1) {
		if (filldir(ctx, "..", 2, SHMEM_I(dir)->parent->i_ino, DT_DIR))
			return 0;
		file->f_pos = 2;
	}
	list_for_each_entry(de, &SHMEM_I(dir)->entries, list) {
		if (de->cookie < (uint64_t)file->f_pos)
			continue;
		if (filldir(ctx, de->name, strlen(de->name), de->inode->i_ino,
			    S_DT(de->inode->i_mode)))
			return 0;
		file->f_pos = de->cookie + 1;
	}
	return 0;
}

static const struct file_operations shmem_file_operations = {
	.read_iter = shmem_file_read_iter,
	.write_iter = shmem_file_write_iter,
	.fsync = shmem_fsync,
};

static const struct file_operations shmem_dir_operations = {
	.iterate = shmem_iterate,
	.fsync = shmem_fsync,
};

/* --- the type ----------------------------------------------------------------------------- */

static int shmem_fill_super_common(struct super_block *sb, bool ramfs)
{
	struct shmem_sb_info *sbinfo = kzalloc(sizeof(*sbinfo), GFP_KERNEL);
	int err;

	if (!sbinfo)
		return -ENOMEM;
	/* The kernel's own instance (SysV shm's) has no limit, as Linux's. */
	/* Half of RAM and swap (on at mount time). */
	sbinfo->max_blocks = ramfs || (sb->s_flags & SB_NOUSER) ? 0 :
			     (totalram_pages + (unsigned long)total_swap_pages) / 2;
	sbinfo->ramfs = ramfs;
	sbinfo->next_ino = 1;
	sb->s_fs_info = sbinfo;
	sb->s_op = &shmem_sops;
	sb->s_magic = ramfs ? RAMFS_MAGIC : TMPFS_MAGIC;
	err = shmem_get_inode(sb, NULL, SHMEM_ROOT_MODE, 0, &sb->s_root);
	if (err)
		kfree(sbinfo);
	return err;
}

static int shmem_fill_super(struct super_block *sb)
{
	return shmem_fill_super_common(sb, false);
}

static int ramfs_fill_super(struct super_block *sb)
{
	return shmem_fill_super_common(sb, true);
}

struct file_system_type shmem_fs_type = {
	.name = "tmpfs",
	.mount = shmem_fill_super,
};

static struct file_system_type ramfs_fs_type = {
	.name = "ramfs",
	.mount = ramfs_fill_super,
};

int shmem_init(void)
{
	return register_filesystem(&shmem_fs_type) ?: register_filesystem(&ramfs_fs_type);
}

/* The super block of the tmpfs whose root is dir, in *res. */
static int shmem_get_sb(const char *dir, struct super_block **res)
{
	struct inode *inode;
	int err = path_lookup(dir, &inode);

	if (err)
		return err;
	if (inode->i_sb->s_type != &shmem_fs_type || inode != inode->i_sb->s_root)
		err = -EINVAL;
	*res = inode->i_sb;
	iput(inode);	/* the super block holds its root */
	return err;
}

int shmem_remount(const char *dir, const char *options)
{
	struct super_block *sb;
	unsigned long max_blocks;
	int err;

	if (!options)
		return -EINVAL;
	err = shmem_get_sb(dir, &sb);
	if (err)
		return err;
	max_blocks = SHMEM_SB(sb)->max_blocks;
	err = shmem_parse_options(options, &max_blocks);
	if (err)
		return err;
	if (max_blocks && max_blocks < SHMEM_SB(sb)->used_blocks)
		return -EINVAL;
	SHMEM_SB(sb)->max_blocks = max_blocks;
	return 0;
}

int shmem_usage(const char *dir, unsigned long *max_pages, unsigned long *used_pages)
{
	struct super_block *sb;
	int err;

	if (!max_pages || !used_pages)
		return -EINVAL;
	err = shmem_get_sb(dir, &sb);
	if (err)
		return err;
	*max_pages = SHMEM_SB(sb)->max_blocks;
	*used_pages = SHMEM_SB(sb)->used_blocks;
	return 0;
}

struct address_space *shmem_mapping(struct inode *inode)
{
	if (!inode || inode->i_sb->s_type != &shmem_fs_type)
		return NULL;
	return inode->i_mapping;
}

/* The tmpfs instance behind shmem_file_setup (Linux's shm_mnt), made at
 * the first call; shm_mnt_mutex keeps two first calls from making two. */
static struct super_block *shm_mnt;
static DEFINE_MUTEX(shm_mnt_mutex);

int shmem_file_setup(loff_t size, struct file **res)
{
	struct inode *inode;
	int err = 0;

	if (size < 0)
		return -EINVAL;
	mutex_lock(&shm_mnt_mutex);
	if (!shm_mnt)
		err = kern_mount(&shmem_fs_type, &shm_mnt);
	mutex_unlock(&shm_mnt_mutex);
	if (err)
		return err;
	err = shmem_get_inode(shm_mnt, NULL, S_IFREG | S_IRWXU | S_IRWXG | S_IRWXO, 0, &inode);
	if (err)
		return err;
	/* No name holds it: the last iput, from the last file, frees it. */
	inode->i_nlink = 0;
	inode->i_size = size;
	return vfs_open_inode(inode, O_RDWR, res);
}

void shmem_lock(struct file *file, int lock)
{
	struct address_space *mapping = file->f_inode->i_mapping;

	if (lock)
		mapping_set_unevictable(mapping);
	else
		mapping_clear_unevictable(mapping);
}

/* The first index at or after start of info's swap tree whose entry is on
 * area type, in *index: 1, or 0 if there is none.  Never sleeps. */
static int shmem_find_swap(struct shmem_inode_info *info, unsigned int type, pgoff_t start,
			   pgoff_t *index)
{
	unsigned long indices[16];
	void *items[16];
	unsigned int i, n;

	while ((n = radix_tree_gang_lookup_index(&info->swap_tree, items, indices, start, 16))) {
		for (i = 0; i < n; i++)
			if (swp_type(radix_to_swp_entry(items[i])) == type) {
				*index = indices[i];
				return 1;
			}
		start = indices[n - 1] + 1;
	}
	return 0;
}

/* Bring the page at index of a tmpfs file back from swap into its cache,
 * as a read would (shmem_readpage).  0, -ENOMEM or -EIO.  May sleep. */
static int shmem_swapin_index(struct inode *inode, pgoff_t index)
{
	struct address_space *mapping = inode->i_mapping;
	struct page *page = find_get_page(mapping, index);
	int err;

	if (page) {
		/* A read put it there, and took the entry, or failed to. */
		put_page(page);
		return radix_tree_lookup(&SHMEM_I(inode)->swap_tree, index) ? -EIO : 0;
	}
	page = alloc_page(GFP_USER);
	if (!page)
		return -ENOMEM;
	err = add_to_page_cache_lru(page, mapping, index, GFP_KERNEL);
	if (err) {
		put_page(page);
		return err == -EEXIST ? 0 : err;
	}
	err = shmem_readpage(mapping, page);
	unlock_page(page);
	put_page(page);
	return err;
}

int shmem_unuse(unsigned int type)
{
	struct shmem_inode_info *info;
	struct inode *inode;
	pgoff_t index;
	int err;

again:
	list_for_each_entry(info, &shmem_swaplist, swaplist) {
		if (!info->swapped || !shmem_find_swap(info, type, 0, &index))
			continue;
		/* Held across the sleeps; the list is looked at afresh after. */
		inode = info->mapping.host;
		ihold(inode);
		err = shmem_swapin_index(inode, index);
		iput(inode);
		if (err)
			return err;
		cond_resched();
		goto again;
	}
	return 0;
}

void shmem_count_swap(unsigned int type, unsigned int *counts, unsigned long max)
{
	struct shmem_inode_info *info;
	pgoff_t index;

	list_for_each_entry(info, &shmem_swaplist, swaplist)
		for (index = 0; shmem_find_swap(info, type, index, &index); index++) {
			swp_entry_t e = radix_to_swp_entry(radix_tree_lookup(&info->swap_tree, index));

			if (swp_offset(e) < max)
				counts[swp_offset(e)]++;
		}
}
