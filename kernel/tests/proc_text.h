/* In-kernel tests that read /proc text: render a show function's text
 * into a buffer, as a read of the file would return it. */
#ifndef KERNEL_TESTS_PROC_TEXT_H
#define KERNEL_TESTS_PROC_TEXT_H

#include <fs/seq_file.h>
#include <pageturn/ktest.h>
#include <pageturn/sched.h>

/*
 * Render a /proc system file (meminfo_proc_show...) into buf, size
 * bytes with its NUL; expects the text to fit.
 */
void ktest_render(struct ktest *t, void (*show)(struct seq_file *), char *buf, size_t size);

/*
 * Render a /proc/PID file of task (proc_pid_stat...) into buf, size
 * bytes with its NUL; expects show to return 0 and the text to fit.
 */
void ktest_render_task(struct ktest *t, int (*show)(struct seq_file *, struct task_struct *),
		       struct task_struct *task, char *buf, size_t size);

#endif
