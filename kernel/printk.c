/*
 * printk: format a message and hand it to every registered console.
 *
 * State: a singly linked list of consoles (serial first, then the screen),
 * and whether the last message ended its line.  A message that starts a
 * new line gets a timestamp, seconds since boot, as Linux prints it:
 *     [    1.234567] message
 * Messages at a level numerically >= console_loglevel are dropped.
 *
 * Interrupts are disabled while a message is formatted and written, so a
 * message from an interrupt handler never lands inside another one.
 */
#include <asm/cpu.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/time.h>

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;

static struct console *consoles;
static bool at_line_start = true;
static int cont_level = LOGLEVEL_DEFAULT;	/* level of the unfinished line */

void register_console(struct console *con)
{
	struct console **p = &consoles;

	while (*p)
		p = &(*p)->next;
	con->next = NULL;
	*p = con;
}

void unregister_console(struct console *con)
{
	struct console **p;

	for (p = &consoles; *p; p = &(*p)->next) {
		if (*p == con) {
			*p = con->next;
			return;
		}
	}
}

bool console_registered(const char *name)
{
	struct console *con;

	for (con = consoles; con; con = con->next)
		if (strcmp(con->name, name) == 0)
			return true;
	return false;
}

void console_write_all(const char *s, size_t len)
{
	struct console *con;

	for (con = consoles; con; con = con->next)
		con->write(con, s, len);
}

static char log_buf[LOG_BUF_LEN];
static uint64_t log_next;	/* bytes logged since boot */

static void log_store(const char *s, size_t len)
{
	while (len--)
		log_buf[log_next++ % LOG_BUF_LEN] = *s++;
}

uint64_t log_end(void)
{
	return log_next;
}

size_t log_read(uint64_t *pos, char *buf, size_t len)
{
	uint64_t flags = local_irq_save();
	size_t n = 0;

	if (log_next - *pos > LOG_BUF_LEN)
		*pos = log_next - LOG_BUF_LEN;
	while (n < len && *pos < log_next)
		buf[n++] = log_buf[(*pos)++ % LOG_BUF_LEN];
	local_irq_restore(flags);
	return n;
}

/* Log text, putting a timestamp in front of every line it starts, and
 * show it on the consoles when its level passes console_loglevel. */
static void emit(const char *s, size_t len, bool show)
{
	while (len) {
		const char *nl = memchr(s, '\n', len);
		size_t chunk = nl ? (size_t)(nl - s) + 1 : len;

		if (at_line_start) {
			char stamp[24];
			uint64_t ns = ktime_get_ns();
			int n = snprintf(stamp, sizeof(stamp), "[%5lu.%06lu] ",
					 (unsigned long)(ns / 1000000000),
					 (unsigned long)(ns / 1000 % 1000000));
			log_store(stamp, n);
			if (show)
				console_write_all(stamp, n);
		}
		log_store(s, chunk);
		if (show)
			console_write_all(s, chunk);
		at_line_start = nl != NULL;
		s += chunk;
		len -= chunk;
	}
}

int vprintk(const char *fmt, va_list ap)
{
	static char buf[1024];
	int level = LOGLEVEL_DEFAULT;
	bool cont = false;
	uint64_t flags;
	int n;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		fmt += 2;
	} else if (!at_line_start) {
		cont = true;
	}

	flags = local_irq_save();
	if (cont && !at_line_start)
		level = cont_level;
	else if (!at_line_start)
		emit("\n", 1, true);	/* a new message ends the unfinished line */
	cont_level = level;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (n > 0)
		emit(buf, n, level < console_loglevel);
	local_irq_restore(flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
