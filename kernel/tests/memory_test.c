/*
 * Suite "memory": process address spaces from the inside (mm/memory.c,
 * mm/fault.c, mm/uaccess.c).  Each case makes an address space with
 * mm_alloc, takes it on as a process would (current->mm set and its
 * tables loaded, Linux's use_mm) and maps memory with do_mmap_pgoff.  It
 * never dereferences a user address itself: every access goes through
 * copy_to_user/copy_from_user, so the faults are the real ones, taken in
 * kernel mode inside the user-copy routines and resolved or fixed up by
 * do_page_fault.  What is checked:
 *   - anonymous memory reads back zero, each touched page is one new
 *     anonymous page (PG_swapbacked, mapped once, on the active anon
 *     list: NR_ANON_PAGES and nr_active_anon grow by the pages touched)
 *     and munmap gives them all back; page tables are counted in
 *     NR_PAGETABLE and given back by mmput;
 *   - after dup_mm the pages are shared read-only, a write in one address
 *     space copies the page and the other still reads the old data; a page
 *     mapped once again is made writable in place;
 *   - a private file mapping maps the page-cache page until a write
 *     copies it (the file is unchanged); a shared one writes into the
 *     file; past the end of the file is SIGBUS (the copy fails);
 *   - msync(MS_SYNC) writes a page dirtied through a shared mapping of an
 *     ext2 file back to the disk, and a fault that reads counts as major;
 *   - the copy routines fail cleanly on unmapped and read-only memory,
 *     kernel addresses and ranges running out of a mapping; strings and
 *     path names; the stack grows down on a fault below it; PROT_NONE
 *     memory cannot be read and keeps its data;
 *   - page_referenced counts and clears the accessed bits the CPU set,
 *     flushing the TLB so the next access sets them again;
 *   - lock_page, which file faults take, sleeps while another task holds
 *     the page lock and gets it once that task unlocks.
 * Each case unmaps and frees what it made.
 */
#include <asm/uaccess.h>
#include <fs/vfs.h>
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pagemap.h>
#include <mm/pgtable.h>
#include <mm/rmap.h>
#include <mm/slab.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>

#define NPAGES		4
#define TMP_FILE	"/tmp/memory-test"
#define EXT2_FILE	"/memory-test"

/* Make mm current's address space, as a process's (Linux's use_mm);
 * returns the one it replaces, to be given back the same way. */
static struct mm_struct *enter_mm(struct mm_struct *mm)
{
	struct mm_struct *old = current->mm;

	current->mm = mm;
	switch_mm(mm);
	return old;
}

static unsigned long stat_of(enum zone_stat_item item)
{
	return global_page_state(item);
}

static unsigned long event_of(enum vm_event_item item)
{
	return vm_event_states.event[item];
}

/* The page mapped at user address addr of mm, and its PTE protection;
 * NULL when nothing is mapped there. */
static struct page *user_page(struct mm_struct *mm, unsigned long addr, uint64_t *prot)
{
	phys_addr_t pa;

	if (pt_lookup(mm->pgd, addr, &pa, prot, NULL))
		return NULL;
	return pfn_to_page(pa >> PAGE_SHIFT);
}

static long map_anon(struct mm_struct *mm, unsigned long len, unsigned long prot)
{
	return do_mmap_pgoff(mm, 0, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, NULL, 0);
}

/*
 * The start of a case: a new address space made current's (enter_mm;
 * the one it replaces in *old) holding one page of read-write anonymous
 * memory, mapped MAP_PRIVATE | MAP_ANONYMOUS | flags, at *addr.  Returns
 * the address space (given back with enter_mm(*old) and mmput), or
 * NULL, after a failed expectation and with nothing left to undo, when
 * either cannot be made.
 */
static struct mm_struct *enter_new_mm(struct ktest *t, unsigned long flags,
				      struct mm_struct **old, long *addr)
{
	struct mm_struct *mm = mm_alloc();

	KTEST_EXPECT(t, mm != NULL);
	if (!mm)
		return NULL;
	*old = enter_mm(mm);
	*addr = do_mmap_pgoff(mm, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | flags, NULL, 0);
	KTEST_EXPECT(t, *addr > 0);
	if (*addr > 0)
		return mm;
	enter_mm(*old);
	mmput(mm);
	return NULL;
}

/* Read len bytes at pos of path through read(): 0 or -errno. */
static long read_file(const char *path, uint64_t pos, void *buf, size_t len)
{
	struct file *f;
	long n = vfs_open(path, O_RDONLY, 0, &f);

	if (n)
		return n;
	if (vfs_llseek(f, pos, SEEK_SET) != (loff_t)pos)
		n = -EIO;
	else
		n = vfs_read(f, buf, len) == (long)len ? 0 : -EIO;
	vfs_close(f);
	return n;
}

KTEST(memory, anon_demand_zero_and_counters)
{
	unsigned long anon0 = stat_of(NR_ANON_PAGES), active0 = stat_of(NR_ACTIVE_ANON);
	unsigned long tables0 = stat_of(NR_PAGETABLE), faults0 = event_of(PGFAULT);
	unsigned long minflt0 = current->min_flt;
	struct mm_struct *mm = mm_alloc(), *old;
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL), zero[64];
	struct page *page;
	uint64_t prot;
	long addr;
	int i;

	KTEST_EXPECT(t, mm && buf);
	if (!mm || !buf)
		goto out;
	KTEST_EXPECT_EQ(t, mm->nr_ptes, 1);
	KTEST_EXPECT_EQ(t, stat_of(NR_PAGETABLE), tables0 + 1);
	old = enter_mm(mm);
	addr = map_anon(mm, NPAGES * PAGE_SIZE, PROT_READ | PROT_WRITE);
	KTEST_EXPECT(t, addr > 0 && IS_ALIGNED(addr, PAGE_SIZE));
	if (addr <= 0)
		goto leave;
	KTEST_EXPECT(t, user_page(mm, addr, NULL) == NULL);

	/* A read of page 0 and a write to page 2: two new pages. */
	memset(zero, 0, sizeof(zero));
	memset(buf, 0xff, 64);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(addr + 100), 64), 0);
	KTEST_EXPECT(t, memcmp(buf, zero, 64) == 0);
	ktest_fill_pattern(buf, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + 2 * PAGE_SIZE), buf, PAGE_SIZE), 0);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0 + 2);
	KTEST_EXPECT_EQ(t, stat_of(NR_ACTIVE_ANON), active0 + 2);
	KTEST_EXPECT_EQ(t, mm->anon_rss, 2);
	KTEST_EXPECT_EQ(t, mm->file_rss, 0);
	KTEST_EXPECT(t, mm->hiwater_rss >= 2);
	/* At least a PUD, a PMD and a page table below the PGD. */
	KTEST_EXPECT(t, mm->nr_ptes >= 4);
	KTEST_EXPECT_EQ(t, stat_of(NR_PAGETABLE), tables0 + mm->nr_ptes);
	KTEST_EXPECT(t, event_of(PGFAULT) - faults0 >= 2);
	KTEST_EXPECT(t, current->min_flt - minflt0 >= 2);

	for (i = 0; i < 3; i += 2) {
		page = user_page(mm, addr + i * PAGE_SIZE, &prot);
		KTEST_EXPECT(t, page != NULL);
		if (!page)
			continue;
		KTEST_EXPECT(t, PageSwapBacked(page) && PageAnon(page));
		KTEST_EXPECT(t, PageLRU(page) && PageActive(page));
		KTEST_EXPECT_EQ(t, page->_mapcount, 0);
		KTEST_EXPECT_EQ(t, page_count(page), 2);	/* the PTE's and the list's */
		KTEST_EXPECT(t, (prot & (_PAGE_USER | _PAGE_RW)) == (_PAGE_USER | _PAGE_RW));
	}
	memset(buf, 0, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(addr + 2 * PAGE_SIZE), PAGE_SIZE), 0);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 0, PAGE_SIZE));

	KTEST_EXPECT_EQ(t, do_munmap(mm, addr, NPAGES * PAGE_SIZE), 0);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0);
	KTEST_EXPECT_EQ(t, stat_of(NR_ACTIVE_ANON), active0);
	KTEST_EXPECT_EQ(t, mm->anon_rss, 0);
	KTEST_EXPECT(t, copy_from_user(buf, (void __user *)addr, 1) != 0);
leave:
	enter_mm(old);
	mmput(mm);
	mm = NULL;
	KTEST_EXPECT_EQ(t, stat_of(NR_PAGETABLE), tables0);
out:
	if (mm)
		mmput(mm);
	kfree(buf);
}

KTEST(memory, cow_after_dup_mm)
{
	unsigned long anon0 = stat_of(NR_ANON_PAGES);
	struct mm_struct *mm, *child = NULL, *old;
	uint8_t parent_data[64], child_data[64], buf[64];
	struct page *page, *cpage;
	uint64_t prot, cprot;
	long addr;

	mm = enter_new_mm(t, 0, &old, &addr);
	if (!mm)
		return;
	memset(parent_data, 'p', sizeof(parent_data));
	memset(child_data, 'c', sizeof(child_data));
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)addr, parent_data, 64), 0);
	page = user_page(mm, addr, NULL);

	child = dup_mm(mm);
	KTEST_EXPECT(t, child != NULL);
	if (!child || !page)
		goto leave;
	/* One page, two read-only PTEs. */
	KTEST_EXPECT(t, user_page(child, addr, &cprot) == page);
	KTEST_EXPECT(t, user_page(mm, addr, &prot) == page);
	KTEST_EXPECT(t, !(prot & _PAGE_RW) && !(cprot & _PAGE_RW));
	KTEST_EXPECT_EQ(t, page_mapcount(page), 2);
	KTEST_EXPECT_EQ(t, page_count(page), 3);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0 + 1);
	KTEST_EXPECT_EQ(t, child->anon_rss, 1);

	/* The child writes: it gets a copy, the parent keeps the page. */
	enter_mm(child);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, 64), 0);
	KTEST_EXPECT(t, memcmp(buf, parent_data, 64) == 0);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + 64), child_data, 64), 0);
	cpage = user_page(child, addr, &cprot);
	KTEST_EXPECT(t, cpage != NULL && cpage != page);
	KTEST_EXPECT(t, cprot & _PAGE_RW);
	KTEST_EXPECT_EQ(t, page_mapcount(page), 1);
	KTEST_EXPECT_EQ(t, page_count(page), 2);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0 + 2);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, 64), 0);
	KTEST_EXPECT(t, memcmp(buf, parent_data, 64) == 0);

	/* The parent still reads its data; its page is its own again, so a
	 * write makes it writable in place. */
	enter_mm(mm);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(addr + 64), 64), 0);
	KTEST_EXPECT(t, memcmp(buf, child_data, 64) != 0);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)addr, child_data, 1), 0);
	KTEST_EXPECT(t, user_page(mm, addr, &prot) == page);
	KTEST_EXPECT(t, prot & _PAGE_RW);

	mmput(child);
	child = NULL;
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0 + 1);
leave:
	enter_mm(old);
	if (child)
		mmput(child);
	mmput(mm);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0);
}

/*
 * page_referenced on the real CPU: it counts the PTEs the CPU marked
 * accessed, in the live address space and in one that is not loaded, and
 * clears them; the live one's TLB entry is flushed with it, so the next
 * access marks the PTE again (a stale TLB entry would let the CPU skip
 * the page-table walk that sets the bit).  An anonymous page cannot be
 * unmapped without a swap cache.
 */
KTEST(memory, page_referenced_sees_the_cpu)
{
	struct mm_struct *mm, *child = NULL, *old;
	struct page *page;
	uint8_t buf[8] = { 1 };
	long addr;

	mm = enter_new_mm(t, 0, &old, &addr);
	if (!mm)
		return;
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)addr, buf, sizeof(buf)), 0);
	page = user_page(mm, addr, NULL);
	child = dup_mm(mm);
	KTEST_EXPECT(t, child != NULL && page != NULL);
	if (!child || !page)
		goto leave;
	/* The parent's PTE is young from the write, the child's starts old. */
	KTEST_EXPECT_EQ(t, page_referenced(page, 0), 1);
	KTEST_EXPECT_EQ(t, page_referenced(page, 0), 0);
	/* The first read loads the TLB entry; after page_referenced the
	 * second must walk the page table again. */
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, page_referenced(page, 0), 1);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, page_referenced(page, 0), 1);
	enter_mm(child);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, sizeof(buf)), 0);
	enter_mm(mm);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, page_referenced(page, 0), 2);
	KTEST_EXPECT_EQ(t, page_referenced(page, 0), 0);

	lock_page(page);
	KTEST_EXPECT_EQ(t, try_to_unmap(page, 0), SWAP_FAIL);
	unlock_page(page);
	KTEST_EXPECT_EQ(t, page_mapcount(page), 2);
leave:
	enter_mm(old);
	if (child)
		mmput(child);
	mmput(mm);
}

KTEST(memory, file_private_and_shared)
{
	size_t size = 2 * PAGE_SIZE + 100;
	unsigned long mapped0, anon0;
	struct mm_struct *mm = mm_alloc(), *old;
	struct address_space *mapping;
	struct page *page, *cache;
	struct file *f = NULL;
	uint8_t buf[128], x[16];
	long priv = 0, shared = 0;
	uint64_t prot;

	KTEST_EXPECT(t, mm != NULL);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file(TMP_FILE, size), (long)size);
	KTEST_EXPECT_EQ(t, vfs_open(TMP_FILE, O_RDWR, 0, &f), 0);
	if (!mm || !f)
		goto out;
	mapping = f->f_inode->i_mapping;
	old = enter_mm(mm);
	priv = do_mmap_pgoff(mm, 0, NPAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, f, 0);
	shared = do_mmap_pgoff(mm, 0, NPAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	KTEST_EXPECT(t, priv > 0 && shared > 0);
	if (priv <= 0 || shared <= 0)
		goto leave;

	/* Private: the cache page itself, read-only, until a write. */
	mapped0 = stat_of(NR_FILE_MAPPED);
	anon0 = stat_of(NR_ANON_PAGES);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(priv + PAGE_SIZE), 128), 0);
	KTEST_EXPECT(t, ktest_check_pattern(buf, PAGE_SIZE, 128));
	cache = find_get_page(mapping, 1);
	page = user_page(mm, priv + PAGE_SIZE, &prot);
	KTEST_EXPECT(t, cache != NULL && page == cache);
	KTEST_EXPECT(t, !(prot & _PAGE_RW));
	KTEST_EXPECT_EQ(t, page_mapcount(cache), 1);
	/* Fault-around mapped the file's other two cached pages too. */
	KTEST_EXPECT_EQ(t, stat_of(NR_FILE_MAPPED), mapped0 + 3);
	KTEST_EXPECT_EQ(t, mm->file_rss, 3);
	memset(x, 'x', sizeof(x));
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(priv + PAGE_SIZE), x, sizeof(x)), 0);
	page = user_page(mm, priv + PAGE_SIZE, &prot);
	KTEST_EXPECT(t, page != cache && page && PageAnon(page) && (prot & _PAGE_RW));
	KTEST_EXPECT_EQ(t, stat_of(NR_FILE_MAPPED), mapped0 + 2);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0 + 1);
	KTEST_EXPECT_EQ(t, mm->file_rss, 2);
	KTEST_EXPECT_EQ(t, mm->anon_rss, 1);
	KTEST_EXPECT_EQ(t, read_file(TMP_FILE, PAGE_SIZE, buf, 128), 0);
	KTEST_EXPECT(t, ktest_check_pattern(buf, PAGE_SIZE, 128));
	if (cache)
		page_cache_release(cache);

	/* The partial last page reads zeroes past the end; the page after
	 * it is past the end of the file: SIGBUS, so the copy fails. */
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(priv + 2 * PAGE_SIZE + 64), 64), 0);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 2 * PAGE_SIZE + 64, 36));
	KTEST_EXPECT(t, buf[36] == 0 && buf[63] == 0);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(priv + 3 * PAGE_SIZE), 1), 1);

	/* Shared: writes go into the cache page, which is dirtied. */
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)shared, x, sizeof(x)), 0);
	cache = find_get_page(mapping, 0);
	page = user_page(mm, shared, &prot);
	KTEST_EXPECT(t, cache != NULL && page == cache && (prot & _PAGE_RW));
	KTEST_EXPECT(t, cache && PageDirty(cache));
	KTEST_EXPECT_EQ(t, read_file(TMP_FILE, 0, buf, sizeof(x)), 0);
	KTEST_EXPECT(t, memcmp(buf, x, sizeof(x)) == 0);
	KTEST_EXPECT_EQ(t, sys_msync(shared, NPAGES * PAGE_SIZE, MS_SYNC), 0);
	KTEST_EXPECT_EQ(t, sys_msync(shared + 1, PAGE_SIZE, MS_SYNC), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_msync(shared, PAGE_SIZE, MS_SYNC | MS_ASYNC), -EINVAL);
	if (cache)
		page_cache_release(cache);

	KTEST_EXPECT_EQ(t, do_munmap(mm, priv, NPAGES * PAGE_SIZE), 0);
	KTEST_EXPECT_EQ(t, do_munmap(mm, shared, NPAGES * PAGE_SIZE), 0);
	KTEST_EXPECT_EQ(t, mm->anon_rss + mm->file_rss, 0);
	KTEST_EXPECT_EQ(t, stat_of(NR_ANON_PAGES), anon0);
	KTEST_EXPECT_EQ(t, stat_of(NR_FILE_MAPPED), mapped0);
	/* The hole they left: -ENOMEM. */
	KTEST_EXPECT_EQ(t, sys_msync(shared, PAGE_SIZE, MS_ASYNC), -ENOMEM);
leave:
	enter_mm(old);
out:
	if (f)
		vfs_close(f);
	if (mm)
		mmput(mm);
	KTEST_EXPECT_EQ(t, vfs_unlink(TMP_FILE), 0);
}

KTEST(memory, msync_writes_back_and_major_faults)
{
	unsigned long dirty0, majflt0, pgmaj0;
	struct mm_struct *mm = mm_alloc(), *old;
	struct page *cache;
	struct file *f = NULL;
	uint8_t buf[64], x[64];
	long addr = 0;

	memset(x, 'm', sizeof(x));
	KTEST_EXPECT(t, mm != NULL);
	KTEST_EXPECT_EQ(t, ktest_write_pattern_file(EXT2_FILE, PAGE_SIZE), (long)PAGE_SIZE);
	drop_caches();		/* the file's pages leave the cache */
	KTEST_EXPECT_EQ(t, vfs_open(EXT2_FILE, O_RDWR, 0, &f), 0);
	if (!mm || !f)
		goto out;
	old = enter_mm(mm);
	addr = do_mmap_pgoff(mm, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	KTEST_EXPECT(t, addr > 0);
	if (addr <= 0)
		goto leave;

	majflt0 = current->maj_flt;
	pgmaj0 = event_of(PGMAJFAULT);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, 64), 0);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 0, 64));
	KTEST_EXPECT_EQ(t, current->maj_flt, majflt0 + 1);
	KTEST_EXPECT_EQ(t, event_of(PGMAJFAULT), pgmaj0 + 1);

	/* The first write dirties the page; msync writes it and waits. */
	dirty0 = stat_of(NR_FILE_DIRTY);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + 200), x, sizeof(x)), 0);
	KTEST_EXPECT_EQ(t, stat_of(NR_FILE_DIRTY), dirty0 + 1);
	KTEST_EXPECT_EQ(t, sys_msync(addr, PAGE_SIZE, MS_SYNC), 0);
	KTEST_EXPECT_EQ(t, stat_of(NR_FILE_DIRTY), dirty0);
	cache = find_get_page(f->f_inode->i_mapping, 0);
	KTEST_EXPECT(t, cache && !PageDirty(cache));

	/* A later write sets the PTE's dirty bit again; munmap hands it on. */
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + 300), x, sizeof(x)), 0);
	KTEST_EXPECT_EQ(t, do_munmap(mm, addr, PAGE_SIZE), 0);
	KTEST_EXPECT(t, cache && PageDirty(cache));
	if (cache)
		page_cache_release(cache);
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
leave:
	enter_mm(old);
out:
	if (f)
		vfs_close(f);
	if (mm)
		mmput(mm);
	/* From the disk, not the cache: both writes are there. */
	drop_caches();
	KTEST_EXPECT_EQ(t, read_file(EXT2_FILE, 200, buf, 64), 0);
	KTEST_EXPECT(t, memcmp(buf, x, 64) == 0);
	KTEST_EXPECT_EQ(t, read_file(EXT2_FILE, 300, buf, 64), 0);
	KTEST_EXPECT(t, memcmp(buf, x, 64) == 0);
	KTEST_EXPECT_EQ(t, read_file(EXT2_FILE, 0, buf, 64), 0);
	KTEST_EXPECT(t, ktest_check_pattern(buf, 0, 64));
	KTEST_EXPECT_EQ(t, vfs_unlink(EXT2_FILE), 0);
}

KTEST(memory, uaccess_errors)
{
	static const char str[] = "hello";
	struct mm_struct *mm, *old;
	uint8_t buf[128], ones[128];
	long addr, ro, len;
	char *name = NULL;
	uint64_t v = 0;
	int i;

	mm = enter_new_mm(t, 0, &old, &addr);
	if (!mm)
		return;
	ro = map_anon(mm, PAGE_SIZE, PROT_READ);
	KTEST_EXPECT(t, ro > 0);
	if (ro <= 0)
		goto leave;

	/* Nothing mapped: nothing copied, the kernel buffer zeroed. */
	memset(ones, 1, sizeof(ones));
	memset(buf, 1, sizeof(buf));
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)MMAP_MIN_ADDR, 128), 128);
	KTEST_EXPECT(t, buf[0] == 0 && buf[127] == 0);
	/* Running off the end of a mapping: the bytes past it are not copied. */
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + PAGE_SIZE - 50), ones, 128), 78);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(addr + PAGE_SIZE - 50), 128), 78);
	KTEST_EXPECT(t, memcmp(buf, ones, 50) == 0 && buf[50] == 0);
	/* Read-only memory, before and after it is faulted in. */
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)ro, ones, 8), 8);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)ro, 8), 0);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)ro, ones, 8), 8);
	KTEST_EXPECT_EQ(t, clear_user((void __user *)ro, 8), 8);
	KTEST_EXPECT_EQ(t, clear_user((void __user *)addr, PAGE_SIZE), 0);
	/* Kernel addresses never get near the copy routines. */
	KTEST_EXPECT_EQ(t, get_user(v, (uint64_t __user *)KERNEL_VMA), -EFAULT);
	KTEST_EXPECT_EQ(t, put_user(v, (uint64_t __user *)PAGE_OFFSET), -EFAULT);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)(TASK_SIZE - 64), 128), 128);
	KTEST_EXPECT(t, access_ok((void __user *)(TASK_SIZE - 1), 1));
	KTEST_EXPECT(t, !access_ok((void __user *)(TASK_SIZE - 1), 2));
	KTEST_EXPECT(t, !access_ok((void __user *)addr, ~0ul));
	/* Values and strings. */
	KTEST_EXPECT_EQ(t, put_user(0x1122334455667788ull, (uint64_t __user *)addr), 0);
	KTEST_EXPECT_EQ(t, get_user(v, (uint64_t __user *)addr), 0);
	KTEST_EXPECT_EQ(t, v, 0x1122334455667788ull);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + 8), str, sizeof(str)), 0);
	KTEST_EXPECT_EQ(t, strncpy_from_user((char *)buf, (const char __user *)(addr + 8), 64), 5);
	KTEST_EXPECT_STREQ(t, (char *)buf, str);
	KTEST_EXPECT_EQ(t, strncpy_from_user((char *)buf, (const char __user *)(addr + 8), 3), 3);
	KTEST_EXPECT_EQ(t, strncpy_from_user((char *)buf, (const char __user *)MMAP_MIN_ADDR, 3),
			-EFAULT);
	KTEST_EXPECT_EQ(t, getname((const char __user *)(addr + 8), &name), 0);
	KTEST_EXPECT_STREQ(t, name, str);
	putname(name);
	KTEST_EXPECT_EQ(t, getname((const char __user *)(addr + 13), &name), -ENOENT);
	KTEST_EXPECT_EQ(t, getname((const char __user *)MMAP_MIN_ADDR, &name), -EFAULT);
	/* A string running into the unmapped page after the mapping. */
	for (i = 0; i < 16; i++)
		KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr + PAGE_SIZE - 16 + i), "x", 1), 0);
	len = strncpy_from_user((char *)buf, (const char __user *)(addr + PAGE_SIZE - 16), 64);
	KTEST_EXPECT_EQ(t, len, -EFAULT);
	KTEST_EXPECT_EQ(t, getname((const char __user *)(addr + PAGE_SIZE - 16), &name), -EFAULT);
leave:
	enter_mm(old);
	mmput(mm);
}

KTEST(memory, stack_grows_down)
{
	struct mm_struct *mm, *old;
	struct vm_area_struct *vma;
	uint8_t x[8] = "stack";
	long addr;

	mm = enter_new_mm(t, MAP_GROWSDOWN, &old, &addr);
	if (!mm)
		return;
	vma = find_vma(mm, addr);
	KTEST_EXPECT(t, vma && (vma->vm_flags & VM_GROWSDOWN) && vma->vm_start == (unsigned long)addr);
	/* Two pages below the bottom: the VMA grows to cover them. */
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(addr - 2 * PAGE_SIZE + 8), x, sizeof(x)), 0);
	vma = find_vma(mm, addr);
	KTEST_EXPECT(t, vma && vma->vm_start == (unsigned long)addr - 2 * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, mm->anon_rss, 1);
	enter_mm(old);
	mmput(mm);
}

KTEST(memory, prot_none_keeps_data)
{
	struct mm_struct *mm, *old;
	uint8_t x[8] = "kept", buf[8];
	long addr;

	mm = enter_new_mm(t, 0, &old, &addr);
	if (!mm)
		return;
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)addr, x, sizeof(x)), 0);
	KTEST_EXPECT_EQ(t, do_mprotect(mm, addr, PAGE_SIZE, PROT_NONE), 0);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, sizeof(buf)), sizeof(buf));
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)addr, x, sizeof(x)), sizeof(x));
	KTEST_EXPECT_EQ(t, mm->anon_rss, 1);
	KTEST_EXPECT_EQ(t, do_mprotect(mm, addr, PAGE_SIZE, PROT_READ), 0);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (void __user *)addr, sizeof(buf)), 0);
	KTEST_EXPECT(t, memcmp(buf, x, sizeof(x)) == 0);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)addr, x, sizeof(x)), sizeof(x));
	enter_mm(old);
	mmput(mm);
}

struct lock_waiter {
	struct page *page;
	volatile bool locked;
};

static int lock_page_thread(void *data)
{
	struct lock_waiter *w = data;

	lock_page(w->page);
	w->locked = true;
	unlock_page(w->page);
	return 0;
}

KTEST(memory, lock_page_sleeps_until_unlock)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct lock_waiter w = { .page = page };
	struct task_struct *task;
	int i;

	KTEST_EXPECT(t, page != NULL);
	if (!page)
		return;
	KTEST_EXPECT(t, trylock_page(page));
	KTEST_EXPECT(t, !trylock_page(page));
	task = kthread_create(lock_page_thread, &w, "lock-waiter");
	KTEST_EXPECT(t, task != NULL);
	if (task) {
		wake_up_process(task);
		msleep(20);
		KTEST_EXPECT(t, !w.locked);
		KTEST_EXPECT_EQ(t, task->state, TASK_UNINTERRUPTIBLE);
	}
	unlock_page(page);
	for (i = 0; task && i < 100 && (!w.locked || PageLocked(page)); i++)
		msleep(10);
	KTEST_EXPECT(t, !task || w.locked);
	KTEST_EXPECT(t, !PageLocked(page));
	msleep(10);		/* let the thread finish before its data goes */
	__free_page(page);
}
