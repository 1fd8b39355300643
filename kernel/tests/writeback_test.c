/*
 * Suite "writeback": the flusher thread writes dirty page-cache pages back
 * on its own.  A file on / is written and kept open (the last close writes
 * an inode back by itself); the pages are still dirty right after the
 * write, since the flusher runs only when this task sleeps.  Then the test
 * sleeps in steps of 10 ms until Dirty: is 0.  The period is shortened to
 * 1 s for the test and restored afterwards; the flusher may be in the
 * middle of a 5 s sleep of the default period, so the wait allows for it.
 */
#include <fs/vfs.h>
#include <mm/vmstat.h>
#include <mm/writeback.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/fcntl.h>

#define TEST_FILE   "/writeback-test"
#define TEST_BYTES  (40 * 1024)
#define PERIOD_CS   100
#define WAIT_NS     (12ull * 1000000000ull)

KTEST(writeback, periodic_flusher_cleans_pages)
{
	unsigned int saved = dirty_writeback_centisecs;
	unsigned long rounds = nr_flusher_rounds;
	static char buf[TEST_BYTES];
	uint64_t start, deadline;
	struct file *file;
	int err;

	dirty_writeback_centisecs = PERIOD_CS;
	memset(buf, 'w', sizeof(buf));
	err = vfs_open(TEST_FILE, O_CREAT | O_TRUNC | O_WRONLY, 0644, &file);
	KTEST_EXPECT_EQ(t, err, 0);
	if (err)
		return;
	KTEST_EXPECT_EQ(t, vfs_write(file, buf, sizeof(buf)), (long)sizeof(buf));
	KTEST_EXPECT(t, global_page_state(NR_FILE_DIRTY) >= TEST_BYTES / 4096);

	start = ktime_get_ns();
	deadline = start + WAIT_NS;
	while (global_page_state(NR_FILE_DIRTY) && ktime_get_ns() < deadline)
		msleep(10);
	dirty_writeback_centisecs = saved;
	vfs_close(file);

	KTEST_EXPECT_EQ(t, global_page_state(NR_FILE_DIRTY), 0);
	KTEST_EXPECT(t, nr_flusher_rounds > rounds);
	printk(KERN_INFO "        # flusher cleaned %d KiB in %lu ms\n", TEST_BYTES / 1024,
	       (unsigned long)((ktime_get_ns() - start) / 1000000));
	KTEST_EXPECT_EQ(t, vfs_unlink(TEST_FILE), 0);
}
