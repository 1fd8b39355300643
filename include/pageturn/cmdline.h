/*
 * The kernel command line.
 *
 * The parser (kernel/cmdline.c) is pure: it splits a string into options
 * and is unit-tested on the host.  Syntax, as Linux's:
 *     key            a flag (value "")
 *     key=value      a value; double quotes may surround a value with spaces:
 *     key="a b"
 * Options are separated by spaces or tabs.  When a key appears twice the
 * last one wins.  A bare "--" ends the options: the text after it is left
 * unparsed for init (PID 1), whose arguments it is, as on Linux.
 *
 * The boot-time glue (kernel/boot_options.c) parses the line GRUB hands
 * over, checks every key against the options the kernel knows (declared
 * with BOOT_OPTION) and logs unknown ones; nothing on the command line is
 * ever fatal.
 */
#ifndef PAGETURN_CMDLINE_H
#define PAGETURN_CMDLINE_H

#include <pageturn/types.h>

#define CMDLINE_MAX_LEN  1024	/* bytes, without the terminating NUL */
#define CMDLINE_MAX_OPTS 64

struct cmdline_opt {
	const char *key;
	const char *value;	/* "" for a bare flag */
};

struct cmdline {
	char buf[CMDLINE_MAX_LEN + 1];	/* keys and values point in here */
	struct cmdline_opt opts[CMDLINE_MAX_OPTS];
	int nr_opts;
	const char *init_args;	/* the text after a bare "--", or NULL */
};

/*
 * Parse str into cl.  Returns the number of options, or
 *   -E2BIG  the line is longer than CMDLINE_MAX_LEN or has more than
 *           CMDLINE_MAX_OPTS options,
 *   -EINVAL a quote is not closed, or an option has an empty key ("=x").
 * On error cl holds no options.
 */
int cmdline_parse(struct cmdline *cl, const char *str);

/* The last option named key, or NULL. */
const struct cmdline_opt *cmdline_find(const struct cmdline *cl, const char *key);

/*
 * A size with Linux's memparse() suffixes: a decimal number, then
 * optionally K, M, G or T (either case, powers of 1024).  0 with *bytes
 * set, or -EINVAL for anything else (no digits, another suffix, trailing
 * text, more than 2^64 - 1 bytes).
 */
int memparse(const char *s, uint64_t *bytes);

/* --- the boot command line (kernel only) --------------------------------- */

struct boot_option {
	const char *name;
	const char *help;
};

/* Declare an option the kernel understands: BOOT_OPTION(loglevel, "0-7: ..."). */
#define BOOT_OPTION(id, text) \
	static const struct boot_option __boot_option_##id \
	__used __section(".boot_options") __aligned(8) = { #id, text }

/* An option whose name is not a C identifier ("brd.rd_size", as Linux's
 * module parameters): id names only the declaration. */
#define BOOT_OPTION_NAMED(id, name, text) \
	static const struct boot_option __boot_option_##id \
	__used __section(".boot_options") __aligned(8) = { name, text }

void boot_cmdline_init(const char *raw);
const char *boot_cmdline_raw(void);
/* The words after "--" for init's argv (split at blanks), or "". */
const char *boot_cmdline_init_args(void);
/* The value of an option, "" for a flag, NULL when absent. */
const char *cmdline_get(const char *key);
bool cmdline_has(const char *key);
/* A numeric option: def when absent; a malformed number is logged and
 * def returned. */
long cmdline_get_long(const char *key, long def);
/* A size option (memparse): def when absent; a malformed one is logged
 * and def returned. */
uint64_t cmdline_get_size(const char *key, uint64_t def);

#endif
