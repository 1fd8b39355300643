/*
 * What the files of kernel/trace/ and tracefs share (Linux's
 * kernel/trace/trace.h): the entry format, the ring buffer's calls, the
 * event table and the text of a trace line.
 */
#ifndef KERNEL_TRACE_TRACE_H
#define KERNEL_TRACE_TRACE_H

#include <fs/seq_file.h>
#include <pageturn/mutex.h>
#include <pageturn/sched.h>
#include <pageturn/trace.h>
#include <pageturn/wait.h>

#define TRACE_BUF_SIZE_DEFAULT_KB	1408	/* Linux's default per CPU */

/* trace_entry.flags: the irq-info columns of a line. */
#define TRACE_FLAG_IRQS_OFF	1	/* 'd': interrupts were off */
#define TRACE_FLAG_HARDIRQ	2	/* 'h': written by the timer interrupt */

/* One event in the ring buffer. */
struct trace_entry {
	uint64_t ts;			/* ktime_get_ns() */
	int32_t pid;			/* current's */
	uint8_t type;			/* enum trace_event_id */
	uint8_t nargs;
	uint8_t flags;			/* TRACE_FLAG_* */
	char comm[TASK_COMM_LEN];	/* current's, NUL-terminated */
	unsigned long args[TRACE_MAX_ARGS];
};

struct ring_buffer_stats {
	uint64_t first_seq, end_seq;	/* the entries in the buffer: [first, end) */
	unsigned long entries;		/* in the buffer, not consumed */
	unsigned long overrun;		/* overwritten before anyone read them */
	unsigned long consumed;		/* read by trace_pipe */
	unsigned long bytes;		/* the entries' bytes */
	uint64_t oldest_ts;
};

/* ring_buffer.c */
extern bool tracing_on;			/* the tracing_on file */
extern unsigned long trace_buf_size_kb;	/* the buffer_size_kb file */
int ring_buffer_resize(unsigned long size_kb);
bool ring_buffer_allocated(void);
void ring_buffer_reset(void);
bool ring_buffer_peek(uint64_t *seq, struct trace_entry *e);
bool ring_buffer_consume(struct trace_entry *e);
void ring_buffer_stats(struct ring_buffer_stats *st);
void tracing_pause(bool pause);
/* trace_event_write from the timer tick: marks the entry 'h'. */
void trace_tick_write(enum trace_event_id id, const unsigned long *args, unsigned int n);

/* trace_events.c: the table of events. */
struct trace_event_class {
	const char *system;		/* "vmscan" */
	const char *name;		/* "mm_vmscan_kswapd_wake" */
	/* Write the fields of an entry after "name: " (Linux's TP_printk). */
	void (*print)(struct seq_file *m, const unsigned long *args);
};
extern const struct trace_event_class trace_events[NR_TRACE_EVENTS];
/* The systems, in the order of the events directory. */
extern const char *const trace_systems[];
extern const unsigned int nr_trace_systems;

/*
 * Turn event id on or off (allocating the buffer first if it has none):
 * 0 or -ENOMEM.  Process context; sleeps.
 */
int trace_event_enable(enum trace_event_id id, bool on);

/* trace_pipe's readers sleep here; trace_tick wakes them. */
extern wait_queue_head_t trace_wait;

/* trace_output.c: the text. */
/* One line of entry e, with its newline (Linux's print_trace_line). */
void trace_print_line(struct seq_file *m, const struct trace_entry *e);
/* The trace file's header, as Linux's trace_default_header. */
void trace_print_header(struct seq_file *m, const struct ring_buffer_stats *st);
/* per_cpu/cpu0/stats. */
void trace_print_stats(struct seq_file *m);
/* "1\n"-style numbers written to a control file: decimal, one optional
 * trailing newline (Linux's kstrtoul): 0 or -EINVAL. */
int trace_parse_ulong(const char *buf, size_t len, unsigned long *val);

/* The lock of every change to the events and the buffer's size (Linux's
 * trace_types_lock and event_mutex in one). */
extern struct mutex trace_types_lock;

#endif
