/* Suite "printk": levels filter, lines get timestamps, KERN_CONT continues. */
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

static char captured[1024];
static size_t captured_len;

static void capture_write(struct console *con, const char *s, size_t len)
{
	(void)con;
	len = MIN(len, sizeof(captured) - 1 - captured_len);
	memcpy(captured + captured_len, s, len);
	captured_len += len;
	captured[captured_len] = '\0';
}

static struct console capture_console = { .name = "ktest-capture", .write = capture_write };

static void capture_start(int loglevel, int *saved)
{
	captured_len = 0;
	captured[0] = '\0';
	*saved = console_loglevel;
	console_loglevel = loglevel;
	register_console(&capture_console);
}

static void capture_stop(int saved)
{
	unregister_console(&capture_console);
	console_loglevel = saved;
}

KTEST(printk, loglevel_filters)
{
	int saved;

	/* As in Linux: a message shows when its level < console_loglevel. */
	capture_start(5, &saved);
	printk(KERN_NOTICE "notice-is-hidden\n");
	printk(KERN_INFO "info-is-hidden\n");
	printk(KERN_DEBUG "debug-is-hidden\n");
	printk(KERN_WARNING "warning-%d-shown\n", 4);
	printk(KERN_ERR "error-shown\n");
	printk("default-level-is-info-so-hidden\n");
	capture_stop(saved);

	KTEST_EXPECT(t, strstr(captured, "hidden") == NULL);
	KTEST_EXPECT(t, strstr(captured, "warning-4-shown\n") != NULL);
	KTEST_EXPECT(t, strstr(captured, "error-shown\n") != NULL);
	KTEST_EXPECT(t, !console_registered("ktest-capture"));
}

KTEST(printk, timestamps_and_continuation)
{
	const char *line;
	int saved;

	capture_start(8, &saved);
	printk(KERN_NOTICE "first half, ");
	pr_cont("second half\n");
	printk(KERN_NOTICE "next line\n");
	capture_stop(saved);

	/* "[    0.123456] first half, second half\n[    0.123457] next line\n" */
	KTEST_EXPECT(t, captured[0] == '[');
	line = strstr(captured, "] first half, second half\n");
	KTEST_EXPECT(t, line != NULL && line - captured == 13);
	KTEST_EXPECT(t, strstr(captured, "half\n[") != NULL);
	KTEST_EXPECT(t, strstr(captured, "] next line\n") != NULL);
}

KTEST(printk, unfinished_line_is_ended_by_next_message)
{
	int saved;

	capture_start(8, &saved);
	printk(KERN_NOTICE "no newline");
	printk(KERN_NOTICE "another message\n");
	capture_stop(saved);

	KTEST_EXPECT(t, strstr(captured, "no newline\n[") != NULL);
}
