/*
 * Suite "tmpfs": the RAM filesystem mount_root puts on /tmp (mm/shmem.c),
 * through the VFS.  Files are created, written across pages, read back,
 * truncated, renamed and deleted; directories made, listed and removed,
 * with every namespace error tmpfs adds (-ENOTEMPTY, -EINVAL for a
 * directory moved into itself, -ENOENT in a removed directory) and the
 * VFS's -EXDEV between / and /tmp.  The memory side: N pages written to a
 * tmpfs file raise Active(anon) + Inactive(anon) by N and leave the file
 * lists alone, each page has PG_swapbacked, and deleting the file (also
 * while it is open: the last close frees it) gives the anon pages and the
 * free pages back.  A second tmpfs, mounted on /tmp/small and limited to
 * 64 KiB with shmem_remount (do_mount has no options argument), fills to
 * -ENOSPC; its hole pages, once reclaim has dropped them (they are clean),
 * can be read again without the limit counting them twice.  Each case
 * removes what it made; /tmp/small stays mounted, as there is no umount.
 */
#include <fs/vfs.h>
#include <mm/gfp.h>
#include <mm/mm_inline.h>
#include <mm/pagemap.h>
#include <mm/rmap.h>
#include <mm/shmem.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

#define LRU_PAGES	8	/* pages written by the LRU case */
#define SMALL_LIMIT	(64 * 1024)

static void shrink_kmalloc_caches(void)
{
	struct cache_sizes *cs;

	for (cs = malloc_sizes; cs->cs_size != SIZE_MAX; cs++)
		kmem_cache_shrink(cs->cs_cachep);
}

/* The free page count once the caches have given back what they can. */
static unsigned long settle(void)
{
	drop_caches();	/* unused inodes of / and /proc keep memory too */
	shrink_kmalloc_caches();
	return nr_free_pages();
}

static unsigned long anon_pages(void)
{
	return global_page_state(NR_ACTIVE_ANON) + global_page_state(NR_INACTIVE_ANON);
}

static unsigned long file_lru_pages(void)
{
	return global_page_state(NR_ACTIVE_FILE) + global_page_state(NR_INACTIVE_FILE);
}

/* Read all of path in chunks of chunk bytes; is it len pattern bytes? */
static bool file_matches(const char *path, size_t len, size_t chunk)
{
	uint8_t *buf = kmalloc(chunk, GFP_KERNEL);
	uint64_t off = 0;
	bool ok = buf != NULL;
	struct file *f;
	long n;

	if (!ok || vfs_open(path, O_RDONLY, 0, &f)) {
		kfree(buf);
		return false;
	}
	while (ok && (n = vfs_read(f, buf, chunk)) > 0) {
		ok = ktest_check_pattern(buf, off, n);
		off += n;
	}
	vfs_close(f);
	kfree(buf);
	return ok && n == 0 && off == len;
}

static loff_t stat_size(const char *path)
{
	struct kstat st;
	int err = vfs_stat(path, &st);

	return err ? err : st.size;
}

KTEST(tmpfs, create_write_read_truncate_rename_delete)
{
	size_t len = 3 * PAGE_SIZE + 100;
	unsigned long free_before = settle();
	uint8_t zero[64], buf[64];
	struct kstat st;
	struct file *f;

	KTEST_EXPECT_EQ(t, vfs_stat("/tmp", &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFDIR | 01777);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/a", len), len);
	KTEST_EXPECT(t, file_matches("/tmp/a", len, 1000));
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/a", &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0644);
	KTEST_EXPECT_EQ(t, st.size, len);
	KTEST_EXPECT_EQ(t, st.nlink, 1);
	KTEST_EXPECT_EQ(t, st.blocks, 4 * PAGE_SIZE / 512);
	KTEST_EXPECT_EQ(t, st.blksize, PAGE_SIZE);

	/* Shrink into the second page, grow again: the rest reads as zeroes. */
	KTEST_EXPECT_EQ(t, vfs_truncate("/tmp/a", PAGE_SIZE + 10), 0);
	KTEST_EXPECT(t, file_matches("/tmp/a", PAGE_SIZE + 10, 333));
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/a", &st), 0);
	KTEST_EXPECT_EQ(t, st.blocks, 2 * PAGE_SIZE / 512);
	KTEST_EXPECT_EQ(t, vfs_truncate("/tmp/a", 3 * PAGE_SIZE), 0);
	memset(zero, 0, sizeof(zero));
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/a", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, PAGE_SIZE + 10, SEEK_SET), PAGE_SIZE + 10);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), sizeof(buf));
	KTEST_EXPECT(t, memcmp(buf, zero, sizeof(buf)) == 0);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 2 * PAGE_SIZE + 5, SEEK_SET), 2 * PAGE_SIZE + 5);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), sizeof(buf));
	KTEST_EXPECT(t, memcmp(buf, zero, sizeof(buf)) == 0);
	vfs_close(f);

	/* Rename within a directory, into a subdirectory, over another file. */
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/a", len), len);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/a", "/tmp/b"), 0);
	KTEST_EXPECT_EQ(t, stat_size("/tmp/a"), -ENOENT);
	KTEST_EXPECT(t, file_matches("/tmp/b", len, PAGE_SIZE));
	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/d", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/d", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 2);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/b", "/tmp/d/c"), 0);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/e", 10), 10);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/e", "/tmp/d/c"), 0);
	KTEST_EXPECT_EQ(t, stat_size("/tmp/d/c"), 10);
	KTEST_EXPECT(t, file_matches("/tmp/d/c", 10, 3));
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/d"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/d/c"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/d"), 0);
	KTEST_EXPECT_EQ(t, stat_size("/tmp/d"), -ENOENT);
	KTEST_EXPECT_EQ(t, settle(), free_before);
}

KTEST(tmpfs, pages_are_swapbacked_on_anon_lists)
{
	unsigned long free_before = settle(), anon_before = anon_pages();
	unsigned long file_before = file_lru_pages(), i;
	struct address_space *mapping;
	struct page *page;
	struct file *f;

	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/lru", LRU_PAGES * PAGE_SIZE), LRU_PAGES * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, anon_pages(), anon_before + LRU_PAGES);
	KTEST_EXPECT_EQ(t, file_lru_pages(), file_before);
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/lru", O_RDWR, 0, &f), 0);
	mapping = shmem_mapping(f->f_inode);
	KTEST_EXPECT(t, mapping != NULL);
	KTEST_EXPECT_EQ(t, mapping ? mapping->nrpages : 0, LRU_PAGES);
	for (i = 0; mapping && i < LRU_PAGES; i++) {
		page = find_get_page(mapping, i);
		KTEST_EXPECT(t, page != NULL);
		if (!page)
			continue;
		KTEST_EXPECT(t, PageSwapBacked(page));
		KTEST_EXPECT_EQ(t, page_is_file_cache(page), 0);
		KTEST_EXPECT(t, PageLRU(page) && PageDirty(page));
		/* No swap area on (this boot has none): writepage keeps the
		 * page, dirty. */
		lock_page(page);
		KTEST_EXPECT_EQ(t, write_one_page(page), AOP_WRITEPAGE_ACTIVATE);
		KTEST_EXPECT(t, PageDirty(page));
		unlock_page(page);
		page_cache_release(page);
	}
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	KTEST_EXPECT(t, file_matches("/tmp/lru", LRU_PAGES * PAGE_SIZE, 5000));

	/* Unlinked while open: the pages stay until the last close. */
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/lru"), 0);
	KTEST_EXPECT_EQ(t, anon_pages(), anon_before + LRU_PAGES);
	KTEST_EXPECT_EQ(t, vfs_write(f, "x", 1), 1);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, anon_pages(), anon_before);
	KTEST_EXPECT_EQ(t, file_lru_pages(), file_before);
	KTEST_EXPECT_EQ(t, settle(), free_before);
}

struct listing {
	char names[8][8];
	unsigned int types[8];
	unsigned int n, stop_at;
};

static int list_one(void *ctx, const char *name, unsigned int name_len, uint64_t ino,
		    unsigned int d_type)
{
	struct listing *l = ctx;

	(void)ino;
	if (l->n == l->stop_at || l->n == ARRAY_SIZE(l->names) || name_len >= 8)
		return 1;
	memcpy(l->names[l->n], name, name_len);
	l->names[l->n][name_len] = '\0';
	l->types[l->n++] = d_type;
	return 0;
}

KTEST(tmpfs, readdir)
{
	static const char *const want[] = { ".", "..", "f1", "sub", "f2" };
	unsigned long free_before = settle();
	struct listing l = { .stop_at = 2 };
	struct file *dir;
	unsigned int i;

	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/rd", 0755), 0);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/rd/f1", 1), 1);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/rd/sub", 0755), 0);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/rd/gone", 1), 1);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/rd/f2", 1), 1);
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/rd", O_RDONLY | O_DIRECTORY, 0, &dir), 0);

	/* Two entries, then a removal: the listing resumes where it stopped. */
	KTEST_EXPECT_EQ(t, vfs_readdir(dir, list_one, &l), 0);
	KTEST_EXPECT_EQ(t, l.n, 2);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/rd/gone"), 0);
	l.stop_at = ARRAY_SIZE(l.names);
	KTEST_EXPECT_EQ(t, vfs_readdir(dir, list_one, &l), 0);
	KTEST_EXPECT_EQ(t, l.n, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want) && i < l.n; i++) {
		KTEST_EXPECT_STREQ(t, l.names[i], want[i]);
		KTEST_EXPECT_EQ(t, l.types[i], strcmp(want[i], "f1") && strcmp(want[i], "f2") ?
					       DT_DIR : DT_REG);
	}
	vfs_close(dir);

	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/rd/f1"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/rd/f2"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/rd/sub"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/rd"), 0);
	KTEST_EXPECT_EQ(t, settle(), free_before);
}

KTEST(tmpfs, namespace_errors)
{
	unsigned long free_before = settle();
	struct kstat st;

	/* Across filesystems the VFS refuses. */
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/x", 5), 5);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/x", "/x"), -EXDEV);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp", "/tmp2"), -EBUSY);
	KTEST_EXPECT_EQ(t, stat_size("/x"), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/x"), 0);

	/* Directories: link counts, moving into itself, over a full one. */
	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/p", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/p/q", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/p", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/p", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 3);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/p", "/tmp/p/q/r"), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/p", "/tmp/p/q"), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/tmp/s", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/s", "/tmp/p"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/p/q", "/tmp/s"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/p", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 2);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/s", "/tmp/p/q"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/p", &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 3);
	KTEST_EXPECT_EQ(t, stat_size("/tmp/s"), -ENOENT);

	/* Nothing can be made in a removed directory, and .. is gone. */
	KTEST_EXPECT_EQ(t, vfs_chdir("/tmp/p/q"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/p/q"), 0);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("new", 1), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_mkdir("newdir", 0755), -ENOENT);
	KTEST_EXPECT_EQ(t, stat_size(".."), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_chdir("/"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/p"), 0);
	KTEST_EXPECT_EQ(t, settle(), free_before);
}

KTEST(tmpfs, size_limit_enospc)
{
	unsigned long max_pages, used_pages;
	uint8_t *buf = kmalloc(2 * SMALL_LIMIT, GFP_KERNEL);
	struct file *f;
	int err;

	KTEST_EXPECT(t, buf != NULL);
	if (!buf)
		return;
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, max_pages, totalram_pages / 2);
	KTEST_EXPECT_EQ(t, shmem_usage("/", &max_pages, &used_pages), -EINVAL);
	KTEST_EXPECT_EQ(t, shmem_remount("/", "size=1m"), -EINVAL);

	/* /tmp/small stays mounted (no umount): a second run finds it so. */
	err = vfs_mkdir("/tmp/small", 0755);
	KTEST_EXPECT(t, err == 0 || err == -EEXIST);
	err = do_mount("none", "/tmp/small", "tmpfs");
	KTEST_EXPECT(t, err == 0 || err == -EBUSY);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=64k"), 0);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, max_pages, SMALL_LIMIT / PAGE_SIZE);
	KTEST_EXPECT_EQ(t, used_pages, 0);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=1k,size=3M"), 0);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, max_pages, 3 * 256);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=50%"), 0);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, max_pages, totalram_pages / 2);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=65536"), 0);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size="), -EINVAL);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=12x"), -EINVAL);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=101%"), -EINVAL);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "nr_inodes=5"), -EINVAL);

	/* A write past the limit stops short, the next one fails. */
	ktest_fill_pattern(buf, 0, 2 * SMALL_LIMIT);
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/small/f", O_RDWR | O_CREAT | O_TRUNC, 0644, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, buf, 2 * SMALL_LIMIT), SMALL_LIMIT);
	KTEST_EXPECT_EQ(t, vfs_write(f, buf + SMALL_LIMIT, 1), -ENOSPC);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, used_pages, SMALL_LIMIT / PAGE_SIZE);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=32k"), -EINVAL);
	/* A hole caches a zero page, which must be charged too. */
	KTEST_EXPECT_EQ(t, vfs_truncate("/tmp/small/f", 2 * SMALL_LIMIT), 0);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 1), -ENOSPC);
	KTEST_EXPECT_EQ(t, vfs_truncate("/tmp/small/f", SMALL_LIMIT), 0);
	vfs_close(f);
	KTEST_EXPECT(t, file_matches("/tmp/small/f", SMALL_LIMIT, 7000));

	/* Space comes back with truncation and deletion. */
	KTEST_EXPECT_EQ(t, vfs_truncate("/tmp/small/f", SMALL_LIMIT / 2), 0);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, used_pages, SMALL_LIMIT / PAGE_SIZE / 2);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/small/f"), 0);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, used_pages, 0);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file("/tmp/small/g", SMALL_LIMIT), SMALL_LIMIT);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/small/g"), 0);
	KTEST_EXPECT_EQ(t, vfs_rename("/tmp/small", "/tmp/big"), -EBUSY);
	KTEST_EXPECT_EQ(t, vfs_rmdir("/tmp/small"), -EBUSY);
	kfree(buf);
}

/*
 * What shrink_page_list does to a clean page lumpy reclaim isolated (an
 * order > 0 allocation takes every page of a block, from the anon lists
 * too): isolate it, lock it, take it out of its mapping (__remove_mapping)
 * and free it.  A tmpfs page read from a hole is such a page.  Returns
 * whether page index of mapping was dropped.
 */
static bool reclaim_clean_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page = find_get_page(mapping, index);
	bool dropped = false;

	if (!page)
		return false;
	if (isolate_lru_page(page) == 0) {
		if (trylock_page(page)) {
			if (!PageDirty(page) && !page_mapped(page) && page_count(page) == 3) {
				remove_from_page_cache(page);
				page_cache_release(page);	/* the cache's */
				dropped = true;
			}
			unlock_page(page);
		}
		if (dropped) {
			ClearPageActive(page);		/* as clear_active_flags */
			page_cache_release(page);	/* the isolation's */
		}
		else
			putback_lru_page(page);
	}
	page_cache_release(page);
	return dropped;
}

KTEST(tmpfs, reclaimed_holes_are_not_charged_twice)
{
	unsigned long max_pages, used_pages, i, n = SMALL_LIMIT / PAGE_SIZE;
	struct address_space *mapping;
	uint8_t byte;
	struct file *f;
	int err, round;

	err = vfs_mkdir("/tmp/small", 0755);
	KTEST_EXPECT(t, err == 0 || err == -EEXIST);
	err = do_mount("none", "/tmp/small", "tmpfs");
	KTEST_EXPECT(t, err == 0 || err == -EBUSY);
	KTEST_EXPECT_EQ(t, shmem_remount("/tmp/small", "size=64k"), 0);

	/* A file of holes as large as the limit: reading it all fills it. */
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/small/holes", O_RDWR | O_CREAT | O_TRUNC, 0644, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_truncate("/tmp/small/holes", SMALL_LIMIT), 0);
	mapping = shmem_mapping(f->f_inode);
	KTEST_EXPECT(t, mapping != NULL);
	if (!mapping) {
		vfs_close(f);
		return;
	}
	for (round = 0; round < 3; round++) {
		for (i = 0; i < n; i++) {
			KTEST_EXPECT_EQ(t, vfs_llseek(f, i * PAGE_SIZE, SEEK_SET), i * PAGE_SIZE);
			KTEST_EXPECT_EQ(t, vfs_read(f, &byte, 1), 1);
			KTEST_EXPECT_EQ(t, byte, 0);
		}
		KTEST_EXPECT_EQ(t, mapping->nrpages, n);
		KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
		KTEST_EXPECT_EQ(t, used_pages, n);
		/* Reclaim drops every one of them: each is clean. */
		for (i = 0; i < n; i++)
			KTEST_EXPECT(t, reclaim_clean_page(mapping, i));
		KTEST_EXPECT_EQ(t, mapping->nrpages, 0);
	}
	vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/small/holes"), 0);
	KTEST_EXPECT_EQ(t, shmem_usage("/tmp/small", &max_pages, &used_pages), 0);
	KTEST_EXPECT_EQ(t, used_pages, 0);
}
