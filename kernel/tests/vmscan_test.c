/*
 * Suite "vmscan": page reclaim on the real machine.
 *
 *   lists_match_counters  every zone's LRU lists against their counters
 *                         and the flags of every page on them, as they are
 *                         at boot (and in every suite run after pressure);
 *   reclaim_big_file      with a virtio disk holding big.bin (the QEMU
 *                         case vmscan_virtio_64m_bios: twice the RAM, each
 *                         32-bit word its offset / 4 ^ 0x77000000), read
 *                         it twice, checking every word, while reclaim
 *                         frees the cache behind the reader; then the
 *                         lists must still match their counters;
 *   direct_reclaim        take pages with GFP_KERNEL until the allocator
 *                         has had to reclaim for us (allocstall rises),
 *                         give them back, and check the lists again.
 * Without a vda the file case passes with a "# skipped" line.
 */
#include <fs/ext2.h>
#include <mm/gfp.h>
#include <mm/mm_inline.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>

#include "vda_ext2.h"

#define BIG_SALT	0x77000000u
#define CHUNK		(64u * 1024)

static unsigned long events(enum vm_event_item item)
{
	unsigned long ev[NR_VM_EVENT_ITEMS];

	all_vm_events(ev);
	return ev[item];
}

/*
 * Walk every list of every zone under its lru_lock: each page has PG_lru
 * and sits on the list its page_lru() is kept on (physical_lru: under
 * lru=single both kinds share the inactive and the active list), and
 * each list is as long as the counters of the page_lru()s kept on it.
 * Returns the number of problems (each printed).
 */
static unsigned long check_lists(void)
{
	unsigned long problems = 0;
	struct zone *zone;

	for_each_zone(zone) {
		unsigned long flags;
		enum lru_list l;

		spin_lock_irqsave(&zone->lru_lock, flags);
		for_each_lru(l) {
			unsigned long n = 0, want = 0;
			struct page *page;
			enum lru_list c;

			for_each_lru(c)
				if (physical_lru(c) == l)
					want += zone_page_state(zone,
						(enum zone_stat_item)(NR_LRU_BASE + c));
			list_for_each_entry(page, &zone->lru[l].list, lru) {
				if (n++ > want + 1)
					break;
				if (!PageLRU(page) || physical_lru(page_lru(page)) != l ||
				    page_zone(page) != zone || page_count(page) <= 0) {
					if (problems++ < 8)
						printk(KERN_INFO "        # pfn %lu on %s list %d: flags %#lx "
						       "count %d\n", page_to_pfn(page), zone->name, l,
						       page->flags, page_count(page));
				}
			}
			if (n != want) {
				problems++;
				printk(KERN_INFO "        # %s list %d: %lu pages, counter %lu\n",
				       zone->name, l, n, want);
			}
		}
		spin_unlock_irqrestore(&zone->lru_lock, flags);
	}
	return problems;
}

KTEST(vmscan, lists_match_counters)
{
	KTEST_EXPECT_EQ(t, check_lists(), 0);
}

KTEST(vmscan, reclaim_big_file)
{
	struct ext2_inode_info *root, *file = NULL;
	struct ext2_sb_info *sbi = ktest_mount_vda(t, &root);
	unsigned long steal0, bad = 0;
	uint64_t size = 0;
	uint32_t ino, *buf;
	int err;

	if (!sbi)
		return;
	buf = kmalloc(CHUNK, GFP_KERNEL);
	KTEST_EXPECT(t, buf != NULL);
	KTEST_EXPECT_EQ(t, ext2_lookup(root, "big.bin", &ino), 0);
	if (buf && ext2_lookup(root, "big.bin", &ino) == 0)
		file = ext2_iget(sbi, ino, &err);
	if (file) {
		size = ext2_isize(file);
		KTEST_EXPECT(t, size > (uint64_t)totalram_pages << PAGE_SHIFT);
		steal0 = events(PGSTEAL_FILE);
		for (int pass = 0; pass < 2; pass++)
			for (uint64_t off = 0; off < size; off += CHUNK) {
				if (ext2_read_buf(file, off, buf, CHUNK) != CHUNK) {
					bad++;
					break;
				}
				for (unsigned int i = 0; i < CHUNK / 4; i++)
					bad += buf[i] != ((uint32_t)((off >> 2) + i) ^ BIG_SALT);
			}
		KTEST_EXPECT_EQ(t, bad, 0);
		KTEST_EXPECT(t, events(PGSTEAL_FILE) - steal0 >= size >> PAGE_SHIFT);
		printk(KERN_INFO "        # big.bin: %llu MiB read twice, %lu words wrong; "
		       "pgsteal_file +%lu, pageoutrun %lu, allocstall %lu\n",
		       (unsigned long long)(size >> 20), bad, events(PGSTEAL_FILE) - steal0,
		       events(PAGEOUTRUN), events(ALLOCSTALL));
		ext2_iput(file);
	}
	kfree(buf);
	ktest_unmount_vda(t, sbi, root);
	KTEST_EXPECT_EQ(t, check_lists(), 0);
}

/* Pages held by direct_reclaim, chained through their first word. */
KTEST(vmscan, direct_reclaim)
{
	unsigned long stall0 = events(ALLOCSTALL), n = 0;
	void *head = NULL;
	/* Allocate until the allocator had to reclaim for us once (or memory
	 * ran out, which the expectation below then reports). */
	while (events(ALLOCSTALL) == stall0) {
		void **p = (void **)__get_free_page(GFP_KERNEL | __GFP_NOWARN);

		if (!p)
			break;
		*p = head;
		head = p;
		n++;
	}
	printk(KERN_INFO "        # held %lu pages; allocstall +%lu\n", n, events(ALLOCSTALL) - stall0);
	KTEST_EXPECT(t, events(ALLOCSTALL) != stall0);
	while (head) {
		void *next = *(void **)head;

		free_page((unsigned long)head);
		head = next;
	}
	KTEST_EXPECT_EQ(t, check_lists(), 0);
}
