/*
 * The text of the trace (Linux's kernel/trace/trace_output.c and the
 * header of trace.c): every line as Linux 6.1 prints an event with the
 * default options,
 *
 *              cat-117     [000] d.h..     1.602243: mm_vmscan_kswapd_wake: nid=0 order=0
 *
 * the task's comm right-aligned in 16 columns, "-", its pid left-aligned
 * in 7, the CPU (always 000), the five irq-info columns (irqs-off 'd',
 * need-resched, hardirq 'h', preempt depth, migrate-disable: Pageturn
 * fills in 'd' and 'h' and prints '.' for the rest), the time since boot
 * in seconds with microseconds, and the event's name and fields.  The
 * idle task is "<idle>-0", as on Linux.
 */
#include <pageturn/time.h>
#include <uapi/errno.h>

#include "trace.h"

void trace_print_line(struct seq_file *m, const struct trace_entry *e)
{
	uint64_t usecs = e->ts / 1000;

	seq_printf(m, "%16s-%-7d [000] %c.%c.. %5lu.%06lu: %s: ",
		   e->pid ? e->comm : "<idle>", e->pid, e->flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.',
		   e->flags & TRACE_FLAG_HARDIRQ ? 'h' : '.', (unsigned long)(usecs / 1000000),
		   (unsigned long)(usecs % 1000000), trace_events[e->type].name);
	trace_events[e->type].print(m, e->args);
	seq_puts(m, "\n");
}

void trace_print_header(struct seq_file *m, const struct ring_buffer_stats *st)
{
	seq_printf(m, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %lu/%lu   #P:1\n#\n",
		   st->entries, st->entries + st->overrun);
	seq_puts(m, "#                                _-----=> irqs-off/BH-disabled\n"
		    "#                               / _----=> need-resched\n"
		    "#                              | / _---=> hardirq/softirq\n"
		    "#                              || / _--=> preempt-depth\n"
		    "#                              ||| / _-=> migrate-disable\n"
		    "#                              |||| /     delay\n"
		    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		    "#              | |         |   |||||     |         |\n");
}

static void print_ts(struct seq_file *m, const char *label, uint64_t ns)
{
	uint64_t usecs = ns / 1000;

	seq_printf(m, "%s%5lu.%06lu\n", label, (unsigned long)(usecs / 1000000),
		   (unsigned long)(usecs % 1000000));
}

/* per_cpu/cpu0/stats, Linux's tracing_stats_read lines. */
void trace_print_stats(struct seq_file *m)
{
	struct ring_buffer_stats st;

	ring_buffer_stats(&st);
	seq_printf(m, "entries: %lu\noverrun: %lu\ncommit overrun: 0\nbytes: %lu\n", st.entries,
		   st.overrun, st.bytes);
	print_ts(m, "oldest event ts: ", st.oldest_ts);
	print_ts(m, "now ts: ", ktime_get_ns());
	seq_printf(m, "dropped events: 0\nread events: %lu\n", st.consumed);
}

int trace_parse_ulong(const char *buf, size_t len, unsigned long *val)
{
	unsigned long v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9' || v > (~0ul - 9) / 10)
			return -EINVAL;
		v = v * 10 + (buf[i] - '0');
	}
	*val = v;
	return 0;
}
