/*
 * The boot command line: parsed once by boot_cmdline_init() from the
 * string GRUB hands over, then read by any subsystem with cmdline_get().
 *
 * Options the kernel understands are declared with BOOT_OPTION() next to
 * the code that reads them; they land in the .boot_options section, so
 * this file can tell a typo from a real option.  Unknown options and a
 * malformed line are logged, never fatal: a bad line is ignored as a whole
 * and the kernel boots with defaults.
 */
#include <pageturn/cmdline.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

extern const struct boot_option __boot_options_start[], __boot_options_end[];

static struct cmdline boot_cmdline;
static const char *raw_cmdline = "";

BOOT_OPTION(loglevel, "console log level 0-7: messages below it are printed (default 7)");

static const struct boot_option *find_boot_option(const char *name)
{
	const struct boot_option *o;

	for (o = __boot_options_start; o < __boot_options_end; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

void boot_cmdline_init(const char *raw)
{
	int i, n;
	long level;

	raw_cmdline = raw ? raw : "";
	n = cmdline_parse(&boot_cmdline, raw_cmdline);
	if (n < 0) {
		printk(KERN_ERR "cmdline: ignoring the whole command line: %s\n",
		       n == -E2BIG ? "too long or too many options" : "unbalanced quote or empty option name");
		return;
	}
	for (i = 0; i < n; i++)
		if (!find_boot_option(boot_cmdline.opts[i].key))
			printk(KERN_WARNING "cmdline: unknown option '%s' ignored\n",
			       boot_cmdline.opts[i].key);

	level = cmdline_get_long("loglevel", CONSOLE_LOGLEVEL_DEFAULT);
	if (level < 0 || level > 7)
		printk(KERN_WARNING "cmdline: loglevel=%ld out of range 0-7, ignored\n", level);
	else
		console_loglevel = (int)level;
}

const char *boot_cmdline_raw(void)
{
	return raw_cmdline;
}

const char *boot_cmdline_init_args(void)
{
	return boot_cmdline.init_args ? boot_cmdline.init_args : "";
}

const char *cmdline_get(const char *key)
{
	const struct cmdline_opt *o = cmdline_find(&boot_cmdline, key);

	return o ? o->value : NULL;
}

bool cmdline_has(const char *key)
{
	return cmdline_get(key) != NULL;
}

long cmdline_get_long(const char *key, long def)
{
	const char *s = cmdline_get(key);
	const char *p;
	bool neg = false;
	long v = 0;

	if (!s)
		return def;
	p = s;
	if (*p == '-') {
		neg = true;
		p++;
	}
	if (!*p)
		goto bad;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > (__LONG_MAX__ - 9) / 10)
			goto bad;
		v = v * 10 + (*p - '0');
	}
	return neg ? -v : v;
bad:
	printk(KERN_WARNING "cmdline: %s=%s is not a number, using %ld\n", key, s, def);
	return def;
}

uint64_t cmdline_get_size(const char *key, uint64_t def)
{
	const char *s = cmdline_get(key);
	uint64_t v;

	if (!s)
		return def;
	if (memparse(s, &v) == 0)
		return v;
	printk(KERN_WARNING "cmdline: %s=%s is not a size (a number, then K, M, G or T), ignored\n",
	       key, s);
	return def;
}
