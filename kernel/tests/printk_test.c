/* Suite "printk": levels filter, lines get timestamps, KERN_CONT continues. */
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

KTEST(printk, loglevel_filters)
{
	const char *captured;

	/* As in Linux: a message shows when its level < console_loglevel. */
	ktest_capture_start(5);
	printk(KERN_NOTICE "notice-is-hidden\n");
	printk(KERN_INFO "info-is-hidden\n");
	printk(KERN_DEBUG "debug-is-hidden\n");
	printk(KERN_WARNING "warning-%d-shown\n", 4);
	printk(KERN_ERR "error-shown\n");
	printk("default-level-is-info-so-hidden\n");
	captured = ktest_capture_stop();

	KTEST_EXPECT(t, strstr(captured, "hidden") == NULL);
	KTEST_EXPECT(t, strstr(captured, "warning-4-shown\n") != NULL);
	KTEST_EXPECT(t, strstr(captured, "error-shown\n") != NULL);
	KTEST_EXPECT(t, !console_registered("ktest-capture"));
}

KTEST(printk, timestamps_and_continuation)
{
	const char *captured, *line;

	ktest_capture_start(8);
	printk(KERN_NOTICE "first half, ");
	pr_cont("second half\n");
	printk(KERN_NOTICE "next line\n");
	captured = ktest_capture_stop();

	/* "[    0.123456] first half, second half\n[    0.123457] next line\n" */
	KTEST_EXPECT(t, captured[0] == '[');
	line = strstr(captured, "] first half, second half\n");
	KTEST_EXPECT(t, line != NULL && line - captured == 13);
	KTEST_EXPECT(t, strstr(captured, "half\n[") != NULL);
	KTEST_EXPECT(t, strstr(captured, "] next line\n") != NULL);
}

KTEST(printk, unfinished_line_is_ended_by_next_message)
{
	const char *captured;

	ktest_capture_start(8);
	printk(KERN_NOTICE "no newline");
	printk(KERN_NOTICE "another message\n");
	captured = ktest_capture_stop();

	KTEST_EXPECT(t, strstr(captured, "no newline\n[") != NULL);
}
