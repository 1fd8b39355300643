/*
 * mm/swapfile.c on the host: swap areas made by the host's mkswap
 * (util-linux) on fake disks (host files, fake_machine.c), switched on and
 * off through sys_swapon/sys_swapoff; the slot allocator against an
 * oracle that is Linux 2.6.28's scan_swap_map written out plainly; the
 * header checks against corrupted copies; and the swap entry encodings
 * of mm/swapops.h.
 *
 * The VFS below swapon is faked here: vfs_open of "/dev/fakeN" gives a
 * block device file of fake disk N, which file_bdev() returns.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fake_machine.h"
#include "fake_swap_cache.h"
#include "kernel_stubs.h"

#include <fs/devfs.h>
#include <fs/seq_file.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/swapops.h>
#include <pageturn/mutex.h>
#include <pageturn/syscalls.h>
#include <uapi/swap.h>

#define NR_DISKS	4
#define AREA_PAGES	2048		/* 8 MiB images */

static struct fake_disk disks[NR_DISKS];
static char disk_paths[NR_DISKS][64];
static const char *boot_swap_option;

/* ---- the fakes ------------------------------------------------------------ */

static const struct file_operations fake_blk_fops;

int vfs_open(const char *path, unsigned int flags, umode_t mode, struct file **res)
{
	struct file *file;
	struct inode *inode;
	int n;

	(void)flags;
	(void)mode;
	if (sscanf(path, "/dev/fake%d", &n) != 1 || n < 0 || n >= NR_DISKS || disks[n].fd <= 0)
		return -ENOENT;
	file = calloc(1, sizeof(*file));
	inode = calloc(1, sizeof(*inode));
	inode->i_mode = S_IFBLK | 0660;
	file->f_inode = inode;
	file->f_op = &fake_blk_fops;
	file->private_data = &disks[n].bdev;
	file->f_count = 1;
	*res = file;
	return 0;
}

int vfs_close(struct file *file)
{
	free(file->f_inode);
	free(file);
	return 0;
}

struct block_device *file_bdev(struct file *file)
{
	return file->f_op == &fake_blk_fops ? file->private_data : NULL;
}

int bd_claim(struct block_device *bdev, void *holder)
{
	if (bdev->bd_holder)
		return -EBUSY;
	bdev->bd_holder = holder;
	return 0;
}

void bd_release(struct block_device *bdev)
{
	bdev->bd_holder = NULL;
}

struct block_device *lookup_bdev(const char *name)
{
	int n;

	if (sscanf(name, "fake%d", &n) != 1 || n < 0 || n >= NR_DISKS || disks[n].fd <= 0)
		return NULL;
	return &disks[n].bdev;
}

int sync_blockdev(struct block_device *bdev)
{
	(void)bdev;
	return 0;
}

long vfs_read(struct file *file, void *buf, size_t len)
{
	(void)file; (void)buf; (void)len;
	fail_msg("vfs_read: a block device's header is read with a bio");
	return -EIO;
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	(void)file; (void)offset; (void)whence;
	return -EINVAL;
}

long vfs_dir_path(struct inode *dir, char *buf, size_t size)
{
	(void)dir;
	return snprintf(buf, size, "/");
}

struct fs_struct init_fs;

struct fs_struct *current_fs(void)
{
	return &init_fs;
}

long getname(const char __user *filename, char **res)
{
	*res = strdup((const char *)filename);
	return *res ? 0 : -ENOMEM;
}

void putname(char *name)
{
	free(name);
}

const char *cmdline_get(const char *key)
{
	return strcmp(key, "swap") == 0 ? boot_swap_option : NULL;
}

void __mutex_init(struct mutex *lock, const char *name)
{
	(void)lock; (void)name;
}

void mutex_lock(struct mutex *lock)
{
	(void)lock;
}

void mutex_unlock(struct mutex *lock)
{
	(void)lock;
}

/* ---- images --------------------------------------------------------------- */

/* Disk n: a fresh image of pages pages, formatted by mkswap unless raw. */
static void make_disk(int n, unsigned long pages, bool raw)
{
	char cmd[256];
	FILE *f;

	if (disks[n].fd > 0)
		fake_disk_close(&disks[n]);
	snprintf(disk_paths[n], sizeof(disk_paths[n]), "/tmp/test_swapfile.%d.%d.img", (int)getpid(), n);
	f = fopen(disk_paths[n], "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(truncate(disk_paths[n], (off_t)pages * PAGE_SIZE), 0);
	if (!raw) {
		snprintf(cmd, sizeof(cmd), "mkswap %s >/dev/null 2>&1", disk_paths[n]);
		assert_int_equal(system(cmd), 0);
	}
	assert_true(fake_disk_open(&disks[n], disk_paths[n], false));
	snprintf(disks[n].bdev.name, sizeof(disks[n].bdev.name), "fake%d", n);
}

static void drop_disks(void)
{
	for (int n = 0; n < NR_DISKS; n++) {
		if (disks[n].fd > 0) {
			fake_disk_close(&disks[n]);
			unlink(disk_paths[n]);
		}
		memset(&disks[n], 0, sizeof(disks[n]));
	}
}

static void read_header(int n, union swap_header *h)
{
	assert_int_equal(pread(disks[n].fd, h, PAGE_SIZE, 0), PAGE_SIZE);
}

static void write_header(int n, const union swap_header *h)
{
	assert_int_equal(pwrite(disks[n].fd, h, PAGE_SIZE, 0), PAGE_SIZE);
}

static long swapon_fake(int n, int flags)
{
	char name[32];

	snprintf(name, sizeof(name), "/dev/fake%d", n);
	return sys_swapon((const char __user *)name, flags);
}

static long swapoff_fake(int n)
{
	char name[32];

	snprintf(name, sizeof(name), "/dev/fake%d", n);
	return sys_swapoff((const char __user *)name);
}

static const char *proc_swaps(void)
{
	static char buf[4096];
	struct seq_file m;

	seq_init(&m, buf, sizeof(buf));
	swaps_proc_show(&m);
	buf[m.count] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	log_clear();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	drop_disks();
	assert_int_equal(nr_swap_pages, 0);
	assert_int_equal(total_swap_pages, 0);
	return 0;
}

/* ---- swap entries --------------------------------------------------------- */

static void test_pte_encoding_round_trips(void **state)
{
	static const unsigned long offsets[] = { 1, 2, 255, 256, 4095, 65535, 0x123456789ul,
		(1ul << 40) + 3, (1ul << 54) - 1 };
	(void)state;
	for (unsigned int type = 0; type < MAX_SWAPFILES; type++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(offsets); i++) {
			swp_entry_t e = swp_entry(type, offsets[i]), back;
			pte_t pte = swp_entry_to_pte(e);

			assert_int_equal(swp_type(e), type);
			assert_int_equal(swp_offset(e), offsets[i]);
			assert_true(pte != 0);
			assert_false(pte & _PAGE_PRESENT);
			assert_false(pte & _PAGE_PROTNONE);
			assert_false(pte & _PAGE_NX);
			assert_true(is_swap_pte(pte));
			back = pte_to_swp_entry(pte);
			assert_int_equal(back.val, e.val);
		}
		/* Offset 0 is never a slot, but another type's entry is not 0. */
		if (type)
			assert_true(is_swap_pte(swp_entry_to_pte(swp_entry(type, 0))));
	}
	/* Present, PROT_NONE and none PTEs are no swap PTEs. */
	assert_false(is_swap_pte(0));
	assert_false(is_swap_pte(0x1000 | _PAGE_PRESENT | _PAGE_RW));
	assert_false(is_swap_pte(0x1000 | _PAGE_PROTNONE | _PAGE_ACCESSED));
}

static void test_radix_encoding_round_trips(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	(void)state;
	for (unsigned int type = 0; type < MAX_SWAPFILES; type++) {
		for (unsigned long off = 1; off < (1ul << 57); off = off * 3 + 1) {
			swp_entry_t e = swp_entry(type, off);
			void *item = swp_to_radix_entry(e);

			assert_true(radix_tree_exceptional_entry(item));
			assert_int_equal(radix_to_swp_entry(item).val, e.val);
		}
	}
	assert_false(radix_tree_exceptional_entry(page));
	__free_page(page);
}

/* ---- the header ----------------------------------------------------------- */

static void test_header_from_mkswap(void **state)
{
	union swap_header *h = malloc(PAGE_SIZE);
	unsigned short *map = calloc(AREA_PAGES, sizeof(unsigned short));
	(void)state;
	make_disk(0, AREA_PAGES, false);
	read_header(0, h);
	assert_memory_equal(h->magic.magic, "SWAPSPACE2", 10);
	assert_int_equal(h->info.version, 1);
	assert_int_equal(h->info.last_page, AREA_PAGES - 1);
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), AREA_PAGES);
	assert_int_equal(setup_swap_map("t", h, map, AREA_PAGES), AREA_PAGES - 1);
	assert_int_equal(map[0], SWAP_MAP_BAD);
	for (int i = 1; i < AREA_PAGES; i++)
		assert_int_equal(map[i], 0);

	/* A bad-block list, as mkswap -c would have written it. */
	memset(map, 0, AREA_PAGES * sizeof(*map));
	h->info.nr_badpages = 3;
	h->info.badpages[0] = 5;
	h->info.badpages[1] = 1000;
	h->info.badpages[2] = AREA_PAGES - 2;
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), AREA_PAGES);
	assert_int_equal(setup_swap_map("t", h, map, AREA_PAGES), AREA_PAGES - 4);
	assert_int_equal(map[5], SWAP_MAP_BAD);
	assert_int_equal(map[1000], SWAP_MAP_BAD);
	assert_int_equal(map[AREA_PAGES - 2], SWAP_MAP_BAD);
	assert_int_equal(map[6], 0);
	free(map);
	free(h);
}

/* Each corruption: swapon refuses with one console line saying why. */
static void test_header_corruptions_refused(void **state)
{
	union swap_header *good = malloc(PAGE_SIZE), *h = malloc(PAGE_SIZE);
	unsigned short *map = calloc(AREA_PAGES, sizeof(unsigned short));
	(void)state;
	make_disk(0, AREA_PAGES, false);
	read_header(0, good);

	memcpy(h, good, PAGE_SIZE);
	memcpy(h->magic.magic, "SWAPSPACE3", 10);
	log_clear();
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), 0);
	assert_int_equal(log_count("Unable to find swap-space signature"), 1);

	memcpy(h->magic.magic, "SWAP-SPACE", 10);
	log_clear();
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), 0);
	assert_int_equal(log_count("version 0 swap is no longer supported"), 1);

	memcpy(h, good, PAGE_SIZE);
	h->info.version = 2;
	log_clear();
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), 0);
	assert_int_equal(log_count("Unable to handle swap header version 2"), 1);

	memcpy(h, good, PAGE_SIZE);
	h->info.last_page = AREA_PAGES;
	log_clear();
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), 0);
	assert_int_equal(log_count("Swap area shorter than signature indicates"), 1);
	/* A header for a bigger device on a smaller one. */
	assert_int_equal(read_swap_header("t", good, AREA_PAGES - 1), 0);

	memcpy(h, good, PAGE_SIZE);
	h->info.nr_badpages = MAX_SWAP_BADPAGES + 1;
	log_clear();
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), 0);
	assert_int_equal(log_count("more than the header holds (637)"), 1);
	h->info.nr_badpages = MAX_SWAP_BADPAGES;
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), AREA_PAGES);

	memcpy(h, good, PAGE_SIZE);
	h->info.nr_badpages = 1;
	h->info.badpages[0] = AREA_PAGES - 1;	/* must be below last_page */
	log_clear();
	assert_int_equal(setup_swap_map("t", h, map, AREA_PAGES), 0);
	assert_int_equal(log_count("bad page 2047 is outside the area"), 1);
	h->info.badpages[0] = 0;
	assert_int_equal(setup_swap_map("t", h, map, AREA_PAGES), 0);

	/* Nothing usable: a two-page area whose one slot is bad cannot be
	 * said in the list (badpage < last_page), so a one-slot area with
	 * the header alone is "empty" only when last_page is 0. */
	memcpy(h, good, PAGE_SIZE);
	h->info.last_page = 0;
	log_clear();
	memset(map, 0, AREA_PAGES * sizeof(*map));
	assert_int_equal(read_swap_header("t", h, AREA_PAGES), 1);
	assert_int_equal(setup_swap_map("t", h, map, 1), 0);
	assert_int_equal(log_count("Empty swap-file"), 1);
	free(map);
	free(h);
	free(good);
}

/* ---- swapon and swapoff --------------------------------------------------- */

static void test_swapon_refusals_write_nothing(void **state)
{
	union swap_header *before = malloc(PAGE_SIZE), *after = malloc(PAGE_SIZE);
	(void)state;
	make_disk(0, AREA_PAGES, true);
	read_header(0, before);
	log_clear();
	assert_int_equal(swapon_fake(0, 0), -EINVAL);
	assert_int_equal(log_count("swapon /dev/fake0: Unable to find swap-space signature"), 1);
	read_header(0, after);
	assert_memory_equal(before, after, PAGE_SIZE);
	assert_int_equal(swapon_fake(3, 0), -ENOENT);
	assert_int_equal(swapon_fake(0, 0x80000), -EINVAL);	/* not a swapon flag */
	assert_int_equal(total_swap_pages, 0);

	/* A one-page device is too small to hold anything. */
	make_disk(1, 1, true);
	log_clear();
	assert_int_equal(swapon_fake(1, 0), -EINVAL);
	assert_int_equal(log_count("too small for a swap area"), 1);

	/* Swap file rules do not apply to devices: bad pages are fine. */
	make_disk(2, AREA_PAGES, false);
	read_header(2, before);
	before->info.nr_badpages = 1;
	before->info.badpages[0] = 7;
	write_header(2, before);
	assert_int_equal(swapon_fake(2, 0), 0);
	assert_int_equal(total_swap_pages, AREA_PAGES - 2);
	/* In use: a second swapon, and a mount, are refused. */
	assert_int_equal(swapon_fake(2, 0), -EBUSY);
	assert_int_equal(bd_claim(&disks[2].bdev, (void *)1), -EBUSY);
	assert_int_equal(swapoff_fake(0), -EINVAL);	/* not swap */
	assert_int_equal(swapoff_fake(2), 0);
	assert_null(disks[2].bdev.bd_holder);
	assert_int_equal(swapoff_fake(2), -EINVAL);
	free(before);
	free(after);
}

static void test_proc_swaps_and_priorities(void **state)
{
	unsigned long total, free_;
	char line[256];
	(void)state;
	make_disk(0, AREA_PAGES, false);
	make_disk(1, AREA_PAGES, false);
	make_disk(2, AREA_PAGES / 2, false);
	assert_int_equal(swapon_fake(0, 0), 0);
	assert_int_equal(swapon_fake(1, SWAP_FLAG_PREFER | 5), 0);
	assert_int_equal(swapon_fake(2, 0), 0);
	snprintf(line, sizeof(line),
		 "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n"
		 "/dev/fake0%30s%s\t%d\t0\t-1\n"
		 "/dev/fake1%30s%s\t%d\t0\t5\n"
		 "/dev/fake2%30s%s\t%d\t0\t-2\n",
		 " ", "partition", (AREA_PAGES - 1) * 4,
		 " ", "partition", (AREA_PAGES - 1) * 4,
		 " ", "partition", (AREA_PAGES / 2 - 1) * 4);
	assert_string_equal(proc_swaps(), line);
	si_swapinfo(&total, &free_);
	assert_int_equal(total, 2 * (AREA_PAGES - 1) + AREA_PAGES / 2 - 1);
	assert_int_equal(free_, total);
	assert_false(vm_swap_full());

	/* Priority 5 first, then -1, then -2. */
	swp_entry_t e = get_swap_page();
	assert_int_equal(swp_type(e), 1);
	assert_int_equal(swp_offset(e), 1);
	swap_free(e);

	/* swapoff of -1 moves -2 up to -1 (2.6.28's renumbering). */
	assert_int_equal(swapoff_fake(0), 0);
	assert_non_null(strstr(proc_swaps(), "\t-1\n"));
	assert_null(strstr(proc_swaps(), "\t-2\n"));
	assert_int_equal(swapoff_fake(1), 0);
	assert_int_equal(swapoff_fake(2), 0);
	assert_string_equal(proc_swaps(), "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n");
}

/* Equal priorities take turns; a lower one only when they are full. */
static void test_round_robin_then_lower_priority(void **state)
{
	swp_entry_t got[3 * AREA_PAGES];
	unsigned int per_type[3] = { 0 };
	unsigned long n = 0, i;
	(void)state;
	make_disk(0, AREA_PAGES, false);
	make_disk(1, AREA_PAGES, false);
	make_disk(2, AREA_PAGES, false);
	assert_int_equal(swapon_fake(0, SWAP_FLAG_PREFER | 3), 0);
	assert_int_equal(swapon_fake(1, SWAP_FLAG_PREFER | 3), 0);
	assert_int_equal(swapon_fake(2, SWAP_FLAG_PREFER | 1), 0);
	for (i = 0; i < 2 * (AREA_PAGES - 1); i++) {
		got[n] = get_swap_page();
		assert_true(got[n].val);
		per_type[swp_type(got[n])]++;
		/* The two areas of priority 3 alternate. */
		if (i > 0 && i < 2 * (AREA_PAGES - 2))
			assert_int_not_equal(swp_type(got[n]), swp_type(got[n - 1]));
		n++;
	}
	assert_int_equal(per_type[0], AREA_PAGES - 1);
	assert_int_equal(per_type[1], AREA_PAGES - 1);
	assert_int_equal(per_type[2], 0);
	got[n] = get_swap_page();
	assert_int_equal(swp_type(got[n]), 2);
	n++;
	while ((got[n] = get_swap_page()).val)
		n++;
	assert_int_equal(n, 3 * (AREA_PAGES - 1));
	assert_int_equal(nr_swap_pages, 0);
	assert_true(vm_swap_full());
	/* Memory too small for an area's used slots: ENOMEM, and the area
	 * stays on, counted. */
	fake_free_pages = AREA_PAGES / 2;
	assert_int_equal(swapoff_fake(2), -ENOMEM);
	assert_int_equal(total_swap_pages, 3 * (AREA_PAGES - 1));
	fake_free_pages = 1ul << 20;
	/* Slots no process or swap-cache page holds cannot be emptied. */
	assert_int_equal(swapoff_fake(2), -EBUSY);
	assert_int_equal(log_count("slots still in use"), 1);
	assert_int_equal(total_swap_pages, 3 * (AREA_PAGES - 1));
	/* A freed slot of the higher priority is used again first. */
	swap_free(got[5]);
	assert_int_equal(get_swap_page().val, got[5].val);
	for (i = 0; i < n; i++)
		swap_free(got[i]);
	assert_int_equal(nr_swap_pages, 3 * (AREA_PAGES - 1));
	for (int d = 0; d < 3; d++)
		assert_int_equal(swapoff_fake(d), 0);
}

/* ---- the allocator against an oracle -------------------------------------- */

/* Linux 2.6.28's scan_swap_map and swap_entry_free over one area, plainly. */
struct oracle {
	unsigned short map[AREA_PAGES];
	unsigned int lowest, highest, next, cluster_nr, pages, inuse, max;
};

static void oracle_init(struct oracle *o, const unsigned short *bad_map, unsigned int pages)
{
	memcpy(o->map, bad_map, sizeof(o->map));
	o->lowest = 1;
	o->highest = AREA_PAGES - 1;
	o->next = 1;
	o->cluster_nr = 0;
	o->pages = pages;
	o->inuse = 0;
	o->max = AREA_PAGES;
}

static unsigned int oracle_first_free(const struct oracle *o, unsigned int from)
{
	for (unsigned int off = from; off <= o->highest; off++)
		if (!o->map[off])
			return off;
	return 0;
}

static unsigned int oracle_alloc(struct oracle *o)
{
	unsigned int off = 0, run;

	if (o->inuse == o->pages)
		return 0;
	if (o->cluster_nr == 0) {
		o->cluster_nr = SWAPFILE_CLUSTER - 1;
		if (o->pages - o->inuse >= SWAPFILE_CLUSTER) {
			/* The lowest start of SWAPFILE_CLUSTER free slots in a row. */
			run = 0;
			for (unsigned int i = o->lowest; i <= o->highest; i++) {
				run = o->map[i] ? 0 : run + 1;
				if (run == SWAPFILE_CLUSTER) {
					off = i - SWAPFILE_CLUSTER + 1;
					break;
				}
			}
		}
		if (!off)
			off = o->lowest;
	} else {
		o->cluster_nr--;
		off = o->next > o->highest ? o->lowest : o->next;
	}
	if (o->map[off]) {
		unsigned int f = oracle_first_free(o, off + 1);

		off = f ? f : oracle_first_free(o, o->lowest);
	}
	assert_true(off);
	if (off == o->lowest)
		o->lowest++;
	if (off == o->highest)
		o->highest--;
	if (++o->inuse == o->pages) {
		o->lowest = o->max;
		o->highest = 0;
	}
	o->map[off] = 1;
	o->next = off + 1;
	return off;
}

static void oracle_free(struct oracle *o, unsigned int off)
{
	if (o->map[off] >= SWAP_MAP_MAX)
		return;
	if (--o->map[off] == 0) {
		if (off < o->lowest)
			o->lowest = off;
		if (off > o->highest)
			o->highest = off;
		o->inuse--;
	}
}

static void check_against_oracle(const unsigned int *bad, unsigned int nr_bad, unsigned int seed)
{
	union swap_header *h = malloc(PAGE_SIZE);
	struct oracle *o = malloc(sizeof(*o));
	unsigned short bad_map[AREA_PAGES] = { SWAP_MAP_BAD };
	/* The users handed out: one entry per slot count (a slot appears
	 * once per swap_duplicate). */
	unsigned int *used = malloc(4 * AREA_PAGES * sizeof(*used)), nr_used = 0, i, off, k;
	struct swap_info_struct *si;

	make_disk(0, AREA_PAGES, false);
	read_header(0, h);
	h->info.nr_badpages = nr_bad;
	for (i = 0; i < nr_bad; i++) {
		h->info.badpages[i] = bad[i];
		bad_map[bad[i]] = SWAP_MAP_BAD;
	}
	write_header(0, h);
	assert_int_equal(swapon_fake(0, 0), 0);
	si = get_swap_info_struct(0);
	assert_non_null(si);
	oracle_init(o, bad_map, AREA_PAGES - 1 - nr_bad);
	srandom(seed);
	for (i = 0; i < 20000; i++) {
		long r = random() % 100;

		if (r < 55 || nr_used == 0) {
			swp_entry_t e = get_swap_page();

			off = oracle_alloc(o);
			assert_int_equal(swp_offset(e), off);
			if (off) {
				assert_int_equal(swp_type(e), 0);
				used[nr_used++] = off;
			}
		} else if (r < 65 && nr_used < 3 * AREA_PAGES) {
			k = random() % nr_used;
			off = used[k];
			assert_int_equal(swap_duplicate(swp_entry(0, off)), 1);
			o->map[off]++;
			used[nr_used++] = off;	/* one more user to free later */
		} else {
			k = random() % nr_used;
			off = used[k];
			used[k] = used[--nr_used];
			swap_free(swp_entry(0, off));
			oracle_free(o, off);
		}
		assert_int_equal(si->inuse_pages, o->inuse);
		assert_int_equal(si->lowest_bit, o->lowest);
		assert_int_equal(si->highest_bit, o->highest);
		assert_int_equal(nr_swap_pages, (long)(o->pages - o->inuse));
		if (i % 997 == 0)
			assert_memory_equal(si->swap_map, o->map, sizeof(o->map));
	}
	assert_memory_equal(si->swap_map, o->map, sizeof(o->map));
	while (nr_used)
		swap_free(swp_entry(0, used[--nr_used]));
	assert_int_equal(swapoff_fake(0), 0);
	free(used);
	free(o);
	free(h);
}

static void test_allocator_matches_oracle(void **state)
{
	static const unsigned int bad[] = { 3, 4, 300, 301, 700, 1500, 2040 };
	(void)state;
	check_against_oracle(NULL, 0, 1);
	check_against_oracle(NULL, 0, 2);
	check_against_oracle(bad, ARRAY_SIZE(bad), 3);
}

/* Clusters: 256 in a row, then a new free run found past a busy slot. */
static void test_cluster_scan_and_wrap(void **state)
{
	swp_entry_t e[AREA_PAGES];
	unsigned int i;
	(void)state;
	make_disk(0, AREA_PAGES, false);
	assert_int_equal(swapon_fake(0, 0), 0);
	for (i = 0; i < SWAPFILE_CLUSTER; i++) {
		e[i] = get_swap_page();
		assert_int_equal(swp_offset(e[i]), i + 1);
	}
	/* Free slot 10: the next cluster is still the run after 256, since
	 * the search wants 256 free in a row. */
	swap_free(e[9]);
	e[9] = get_swap_page();
	assert_int_equal(swp_offset(e[9]), SWAPFILE_CLUSTER + 1);
	/* Fill everything: the last slots come from the wrap to lowest_bit. */
	for (i = SWAPFILE_CLUSTER; i < AREA_PAGES - 1; i++) {
		e[i] = get_swap_page();
		assert_true(e[i].val);
	}
	/* With fewer than 256 free in a row left, the next cluster starts
	 * at lowest_bit (slot 10), then goes on past the busy slots. */
	for (i = SWAPFILE_CLUSTER; swp_offset(e[i]) != 1792; i++)
		assert_int_equal(swp_offset(e[i + 1]), swp_offset(e[i]) + 1);
	assert_int_equal(swp_offset(e[i + 1]), 10);
	assert_int_equal(swp_offset(e[i + 2]), 1793);
	assert_int_equal(swp_offset(e[AREA_PAGES - 2]), AREA_PAGES - 1);
	assert_int_equal(get_swap_page().val, 0);
	assert_int_equal(nr_swap_pages, 0);
	for (i = 0; i < AREA_PAGES - 1; i++)
		swap_free(e[i]);
	assert_int_equal(swapoff_fake(0), 0);
}

static void test_duplicate_sticks_at_max(void **state)
{
	swp_entry_t e;
	struct swap_info_struct *si;
	unsigned int i;
	(void)state;
	make_disk(0, AREA_PAGES, false);
	assert_int_equal(swapon_fake(0, 0), 0);
	si = get_swap_info_struct(0);
	e = get_swap_page();
	for (i = 1; i < SWAP_MAP_MAX - 1; i++)
		assert_int_equal(swap_duplicate(e), 1);
	assert_int_equal(si->swap_map[swp_offset(e)], SWAP_MAP_MAX - 1);
	log_clear();
	assert_int_equal(swap_duplicate(e), 1);
	assert_int_equal(si->swap_map[swp_offset(e)], SWAP_MAP_MAX);
	assert_int_equal(log_count("swap_dup: swap entry overflow"), 1);
	assert_int_equal(swap_duplicate(e), 1);
	swap_free(e);
	assert_int_equal(si->swap_map[swp_offset(e)], SWAP_MAP_MAX);	/* sticky */
	/* Bad entries are logged and change nothing. */
	log_clear();
	assert_int_equal(swap_duplicate(swp_entry(0, 2)), 0);
	assert_int_equal(log_count("Unused swap offset entry"), 1);
	assert_int_equal(swap_duplicate(swp_entry(0, 0)), 0);
	swap_free(swp_entry(0, AREA_PAGES));
	assert_int_equal(log_count("Bad swap offset entry"), 1);
	swap_free(swp_entry(7, 1));
	assert_int_equal(log_count("Bad swap file entry"), 1);
	assert_int_equal(si->inuse_pages, 1);
	/* An area with a sticky slot stays busy for good; the test machine
	 * forgets it by hand. */
	assert_int_equal(swapoff_fake(0), -EBUSY);
	si->swap_map[swp_offset(e)] = 1;
	swap_free(e);
	assert_int_equal(swapoff_fake(0), 0);
}

static void test_boot_option(void **state)
{
	(void)state;
	make_disk(0, AREA_PAGES, false);
	make_disk(1, AREA_PAGES, true);
	boot_swap_option = "fake0,/dev/fake1,missing";
	log_clear();
	swapon_boot();
	boot_swap_option = NULL;
	assert_int_equal(total_swap_pages, AREA_PAGES - 1);
	assert_int_equal(log_count("Adding 8188k swap on /dev/fake0.  Priority:-1"), 1);
	assert_int_equal(log_count("swap=: swapon /dev/fake1 failed (error -22)"), 1);
	assert_int_equal(log_count("swap=: swapon /dev/missing failed (error -2)"), 1);
	assert_non_null(strstr(proc_swaps(), "/dev/fake0"));
	/* swapoff by the node's path finds the area swap= made. */
	assert_int_equal(swapoff_fake(0), 0);
}

static void test_map_swap_page(void **state)
{
	struct swap_info_struct *si;
	(void)state;
	make_disk(0, AREA_PAGES, false);
	assert_int_equal(swapon_fake(0, 0), 0);
	si = get_swap_info_struct(0);
	assert_int_equal(map_swap_page(si, 1), 8);
	assert_int_equal(map_swap_page(si, AREA_PAGES - 1), (AREA_PAGES - 1) * 8);
	assert_int_equal(swapoff_fake(0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pte_encoding_round_trips),
		cmocka_unit_test_setup_teardown(test_radix_encoding_round_trips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_from_mkswap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_corruptions_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swapon_refusals_write_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_swaps_and_priorities, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_robin_then_lower_priority, setup, teardown),
		cmocka_unit_test_setup_teardown(test_allocator_matches_oracle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cluster_scan_and_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_sticks_at_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_boot_option, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map_swap_page, setup, teardown),
	};

	fake_machine_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
