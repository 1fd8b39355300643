/*
 * printk: the kernel log.  Every message goes to every registered console
 * (serial always; VGA text or the framebuffer when present) if its level is
 * below console_loglevel (`loglevel=` on the command line, default 7).
 *
 * Levels are Linux's: a message starts with KERN_<LEVEL>, e.g.
 *     printk(KERN_ERR "disk: bad sector %lu\n", n);
 * A message without a level prints at KERN_INFO... unless it continues a
 * line that has no newline yet (KERN_CONT, or no prefix after a partial line).
 */
#ifndef PAGETURN_PRINTK_H
#define PAGETURN_PRINTK_H

#include <pageturn/types.h>

#define KERN_SOH     "\001"
#define KERN_EMERG   KERN_SOH "0"
#define KERN_ALERT   KERN_SOH "1"
#define KERN_CRIT    KERN_SOH "2"
#define KERN_ERR     KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE  KERN_SOH "5"
#define KERN_INFO    KERN_SOH "6"
#define KERN_DEBUG   KERN_SOH "7"
#define KERN_CONT    KERN_SOH "c"

#define LOGLEVEL_DEFAULT 6	/* level of a message without a prefix */
#define CONSOLE_LOGLEVEL_DEFAULT 7

/* A console: somewhere printk text ends up. */
struct console {
	const char *name;
	void (*write)(struct console *con, const char *s, size_t len);
	struct console *next;
};

void register_console(struct console *con);
void unregister_console(struct console *con);
bool console_registered(const char *name);

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

/* Write straight to the consoles, ignoring levels: used by panic(). */
void console_write_all(const char *s, size_t len);

extern int console_loglevel;

/*
 * The kernel log (Linux's __log_buf): every message, at every level, with
 * its timestamp, in a ring of LOG_BUF_LEN bytes that keeps the newest
 * text; what dmesg reads through syslog(2).  Positions count bytes ever
 * logged, so a reader's position stays meaningful as the ring wraps.
 */
#define LOG_BUF_LEN	(64 * 1024)

/* Bytes logged since boot (the position after the newest byte). */
uint64_t log_end(void);
/* Copy the logged bytes from position *pos on (moved up to the oldest
 * byte still held) into buf, at most len: the count; *pos advances. */
size_t log_read(uint64_t *pos, char *buf, size_t len);

#define pr_emerg(fmt, ...)  printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)    printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)   printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)   printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)  printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...)   printk(KERN_CONT fmt, ##__VA_ARGS__)

/* kernel/lib/vsprintf.c: the formatter behind printk.  Linux's subset:
 * %d %i %u %x %X %o %c %s %p %% with flags '-', '0', ' ', '+', '#', width,
 * precision (also '*') and the length modifiers hh h l ll z t.
 * Returns the length the full output would have (like C's snprintf). */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
