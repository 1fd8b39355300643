/*
 * The trace ring buffer (Linux's kernel/trace/ring_buffer.c, one CPU,
 * fixed-size entries).
 *
 * The buffer is an array of pages, each holding ENTRIES_PER_PAGE struct
 * trace_entry; it is allocated by ring_buffer_resize(), in process
 * context, before any event can be enabled (tracefs's enable files call
 * it first), and never while an event is being written.  Entries are
 * numbered by two counters that only grow:
 *
 *   read_seq   the oldest entry still in the buffer (the next one
 *              trace_pipe consumes)
 *   write_seq  the next entry to be written
 *
 * Entry seq lives in slot seq % nr_entries; the buffer holds write_seq -
 * read_seq <= nr_entries entries.  Writing into a full buffer overwrites
 * the oldest entry: read_seq moves on and overrun counts it (Linux's
 * overwrite mode, the default).  consumed counts the entries trace_pipe
 * took.  Everything here is under rb_lock, taken with interrupts off,
 * and nothing else is ever taken under it, so an event may be written
 * from any context: an interrupt handler, a holder of zone->lru_lock.
 * Writing never sleeps and never allocates.
 *
 * Recording stops while tracing_on is 0 or a reader of the trace file is
 * open (Linux's pause-on-trace option, on by default), so that file
 * shows a buffer that does not move under it.
 */
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <pageturn/sched.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

#include "trace.h"

#define ENTRIES_PER_PAGE	(PAGE_SIZE / sizeof(struct trace_entry))

static DEFINE_SPINLOCK(rb_lock);
static struct page **rb_pages;		/* NULL until the first resize */
static unsigned long rb_nr_pages;
static unsigned long rb_nr_entries;
static uint64_t read_seq, write_seq;
static unsigned long overrun, consumed;
static bool in_tick;			/* trace_tick is writing: the 'h' flag */

bool tracing_on = true;
static unsigned int trace_pause_count;	/* readers of the trace file */

unsigned long trace_buf_size_kb = TRACE_BUF_SIZE_DEFAULT_KB;

static struct trace_entry *rb_slot(uint64_t seq)
{
	unsigned long i = seq % rb_nr_entries;

	return (struct trace_entry *)page_address(rb_pages[i / ENTRIES_PER_PAGE]) +
	       i % ENTRIES_PER_PAGE;
}

void trace_event_write(enum trace_event_id id, const unsigned long *args, unsigned int n)
{
	struct trace_entry *e;
	uint64_t flags;

	spin_lock_irqsave(&rb_lock, flags);
	if (rb_pages && tracing_on && !trace_pause_count && n <= TRACE_MAX_ARGS) {
		if (write_seq - read_seq == rb_nr_entries) {
			read_seq++;
			overrun++;
		}
		e = rb_slot(write_seq++);
		e->ts = ktime_get_ns();
		e->type = id;
		e->nargs = n;
		e->flags = (flags & X86_EFLAGS_IF ? 0 : TRACE_FLAG_IRQS_OFF) |
			   (in_tick ? TRACE_FLAG_HARDIRQ : 0);
		e->pid = current->pid;
		memcpy(e->comm, current->comm, TASK_COMM_LEN);
		e->comm[TASK_COMM_LEN - 1] = '\0';
		memcpy(e->args, args, n * sizeof(*args));
	}
	spin_unlock_irqrestore(&rb_lock, flags);
}

void trace_tick_write(enum trace_event_id id, const unsigned long *args, unsigned int n)
{
	in_tick = true;
	trace_event_write(id, args, n);
	in_tick = false;
}

/*
 * Make the buffer size_kb KiB (rounded up to whole pages), empty.
 * Process context; sleeps.  Called with trace_types_lock held, so resizes
 * do not race.  0, -EINVAL (0 KiB) or -ENOMEM (more than a quarter of
 * RAM, or no pages), which leaves the buffer as it was.
 */
int ring_buffer_resize(unsigned long size_kb)
{
	unsigned long nr_pages, i, old_nr;
	struct page **pages, **old;
	uint64_t flags;

	if (size_kb == 0)
		return -EINVAL;
	if (size_kb / (PAGE_SIZE / 1024) >= totalram_pages / 4)
		return -ENOMEM;
	nr_pages = (size_kb + PAGE_SIZE / 1024 - 1) / (PAGE_SIZE / 1024);
	pages = kmalloc(nr_pages * sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < nr_pages; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			while (i--)
				__free_page(pages[i]);
			kfree(pages);
			return -ENOMEM;
		}
	}
	spin_lock_irqsave(&rb_lock, flags);
	old = rb_pages;
	old_nr = rb_nr_pages;
	rb_pages = pages;
	rb_nr_pages = nr_pages;
	rb_nr_entries = nr_pages * ENTRIES_PER_PAGE;
	read_seq = write_seq = 0;
	overrun = consumed = 0;
	spin_unlock_irqrestore(&rb_lock, flags);
	trace_buf_size_kb = size_kb;
	for (i = 0; i < old_nr; i++)
		__free_page(old[i]);
	kfree(old);
	return 0;
}

bool ring_buffer_allocated(void)
{
	return rb_pages != NULL;
}

/* Empty the buffer and zero its counters (a write to the trace file). */
void ring_buffer_reset(void)
{
	uint64_t flags;

	spin_lock_irqsave(&rb_lock, flags);
	read_seq = write_seq = 0;
	overrun = consumed = 0;
	spin_unlock_irqrestore(&rb_lock, flags);
}

/*
 * Copy entry *seq into e: true, with *seq the entry's number; when
 * entry *seq was overwritten or consumed, the oldest entry after it.
 * False when no entry is at or after *seq.
 */
bool ring_buffer_peek(uint64_t *seq, struct trace_entry *e)
{
	bool found = false;
	uint64_t flags;

	spin_lock_irqsave(&rb_lock, flags);
	if (*seq < read_seq)
		*seq = read_seq;
	if (*seq < write_seq) {
		*e = *rb_slot(*seq);
		found = true;
	}
	spin_unlock_irqrestore(&rb_lock, flags);
	return found;
}

/* Take the oldest entry out into e (trace_pipe): false when empty. */
bool ring_buffer_consume(struct trace_entry *e)
{
	bool found = false;
	uint64_t flags;

	spin_lock_irqsave(&rb_lock, flags);
	if (read_seq < write_seq) {
		*e = *rb_slot(read_seq++);
		consumed++;
		found = true;
	}
	spin_unlock_irqrestore(&rb_lock, flags);
	return found;
}

void ring_buffer_stats(struct ring_buffer_stats *st)
{
	uint64_t flags;

	spin_lock_irqsave(&rb_lock, flags);
	st->first_seq = read_seq;
	st->end_seq = write_seq;
	st->entries = write_seq - read_seq;
	st->overrun = overrun;
	st->consumed = consumed;
	st->oldest_ts = st->entries ? rb_slot(read_seq)->ts : 0;
	st->bytes = st->entries * sizeof(struct trace_entry);
	spin_unlock_irqrestore(&rb_lock, flags);
}

/* A reader of the trace file opens (pause) or closes (resume). */
void tracing_pause(bool pause)
{
	uint64_t flags;

	spin_lock_irqsave(&rb_lock, flags);
	if (pause)
		trace_pause_count++;
	else
		trace_pause_count--;
	spin_unlock_irqrestore(&rb_lock, flags);
}
