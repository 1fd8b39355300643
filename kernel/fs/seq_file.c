/*
 * seq_file output (see fs/seq_file.h).  Invariant: buf[0..count) holds
 * whole writes only; a write that does not fit sets overflow and adds
 * nothing, so a truncated file never ends in half a line.
 */
#include <fs/seq_file.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	size_t room = m->size - m->count;
	va_list ap;
	int n;

	if (m->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->count, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		m->overflow = true;
		return;
	}
	m->count += n;
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}
