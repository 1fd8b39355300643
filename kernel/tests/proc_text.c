/* /proc text for in-kernel tests (proc_text.h): a show function writes
 * into a seq_file over the caller's buffer, less one byte kept for the
 * NUL, so an overflow is seen and the text is always a string. */
#include "proc_text.h"

void ktest_render(struct ktest *t, void (*show)(struct seq_file *), char *buf, size_t size)
{
	struct seq_file m;

	seq_init(&m, buf, size - 1);
	show(&m);
	KTEST_EXPECT(t, !seq_has_overflowed(&m));
	buf[m.count] = '\0';
}

void ktest_render_task(struct ktest *t, int (*show)(struct seq_file *, struct task_struct *),
		       struct task_struct *task, char *buf, size_t size)
{
	struct seq_file m;

	seq_init(&m, buf, size - 1);
	KTEST_EXPECT_EQ(t, show(&m, task), 0);
	KTEST_EXPECT(t, !seq_has_overflowed(&m));
	buf[m.count] = '\0';
}
