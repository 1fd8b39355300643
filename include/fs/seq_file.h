/*
 * seq_file: build the text of a /proc file into a buffer, with Linux's
 * names (seq_printf, seq_puts).  A show function writes the whole file;
 * if the buffer is too small, seq_has_overflowed() says so and the caller
 * retries with a larger one, as Linux's seq_read does.
 */
#ifndef FS_SEQ_FILE_H
#define FS_SEQ_FILE_H

#include <pageturn/types.h>

struct seq_file {
	char *buf;
	size_t size;
	size_t count;		/* bytes written so far (<= size) */
	bool overflow;
};

static inline void seq_init(struct seq_file *m, char *buf, size_t size)
{
	m->buf = buf;
	m->size = size;
	m->count = 0;
	m->overflow = false;
}

static inline bool seq_has_overflowed(const struct seq_file *m)
{
	return m->overflow;
}

void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);
void seq_puts(struct seq_file *m, const char *s);

#endif
