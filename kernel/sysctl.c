/*
 * sysctl tables and their integer handlers (Linux's kernel/sysctl.c).
 *
 * sysctl_base_table lists the directories of /proc/sys, each row
 * pointing at its table of files; the proc glue (fs/proc/proc_sysctl.c)
 * turns these rows into inodes and calls a row's proc_handler for each
 * read and write.  The rows are Linux 6.1's for the settings Pageturn
 * has: same names, modes, bounds and handlers.
 *
 * proc_dointvec and proc_dointvec_minmax follow Linux's text rules to the
 * byte (__do_proc_dointvec, proc_get_long), so a script that works on
 * Linux works here and one that fails there fails here: see sysctl.h.
 * They only touch buffer, the variable and *lenp and *ppos, so the host's
 * unit test runs them as they are.
 */
#include <asm/page.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>
#include <pageturn/sysctl.h>
#include <uapi/errno.h>

#ifndef INT_MAX
#define INT_MAX		0x7fffffff
#endif

int sysctl_vals_zero = 0, sysctl_vals_one = 1, sysctl_vals_four = 4, sysctl_vals_hundred = 100;

#define TMPBUFLEN 22		/* a long's digits, a sign and a NUL */

static const char proc_wspace_sep[] = { ' ', '\t', '\n' };

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Skip whitespace (isspace's) at *buf; the count skipped. */
static size_t proc_skip_spaces(char **buf, size_t left)
{
	size_t n = 0;

	while (n < left && is_space((*buf)[n]))
		n++;
	*buf += n;
	return n;
}

static int digit_value(char c, unsigned int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned int)v < base ? v : -1;
}

/*
 * Linux's strtoul_lenient with base 0: "0x" hexadecimal, "0" octal,
 * else decimal; the digits up to the first that is not one.  -EINVAL
 * when the value overflows an unsigned long.  s starts with a digit.
 */
static int strtoul_lenient(const char *s, const char **end, unsigned long *res)
{
	unsigned int base = 10;
	unsigned long val = 0;
	int d;

	if (s[0] == '0') {
		base = 8;
		if ((s[1] == 'x' || s[1] == 'X') && digit_value(s[2], 16) >= 0) {
			base = 16;
			s += 2;
		}
	}
	for (; (d = digit_value(*s, base)) >= 0; s++) {
		if (val > (~0ul - (unsigned long)d) / base)
			return -EINVAL;
		val = val * base + (unsigned long)d;
	}
	*end = s;
	*res = val;
	return 0;
}

/*
 * Linux's proc_get_long: the number at *buf (size bytes left), with an
 * optional '-' (*neg), which must be followed by one of the separators
 * (or the end).  Advances *buf and *size past it.
 */
static int proc_get_long(char **buf, size_t *size, unsigned long *val, bool *neg)
{
	char tmp[TMPBUFLEN];
	const char *p;
	size_t len;

	if (!*size)
		return -EINVAL;
	len = MIN(*size, (size_t)TMPBUFLEN - 1);
	memcpy(tmp, *buf, len);
	tmp[len] = 0;
	p = tmp;
	*neg = *p == '-' && *size > 1;
	if (*neg)
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	if (strtoul_lenient(p, &p, val))
		return -EINVAL;
	len = p - tmp;
	/* Linux's guard: a number that fills the window may go on past it. */
	if (len == TMPBUFLEN - 1)
		return -EINVAL;
	if (len < *size && !memchr(proc_wspace_sep, *p, sizeof(proc_wspace_sep)))
		return -EINVAL;
	*buf += len;
	*size -= len;
	return 0;
}

/* Linux's proc_put_long: the number's text, cut at *size bytes. */
static void proc_put_long(char **buf, size_t *size, unsigned long val, bool neg)
{
	char tmp[TMPBUFLEN];
	size_t len;

	len = snprintf(tmp, sizeof(tmp), "%s%lu", neg ? "-" : "", val);
	len = MIN(len, *size);
	memcpy(*buf, tmp, len);
	*size -= len;
	*buf += len;
}

static void proc_put_char(char **buf, size_t *size, char c)
{
	if (*size) {
		**buf = c;
		(*buf)++;
		(*size)--;
	}
}

/* The bounds of proc_dointvec_minmax: NULL for none. */
struct do_proc_dointvec_minmax_conv_param {
	const int *min, *max;
};

/*
 * Between text and an int: for a write, the parsed number into *valp
 * (-EINVAL if it is no int, or out of param's bounds); for a read,
 * *valp's sign and magnitude.
 */
static int do_proc_dointvec_conv(bool *negp, unsigned long *lvalp, int *valp, int write,
				 const struct do_proc_dointvec_minmax_conv_param *param)
{
	int tmp;

	if (write) {
		if (*negp) {
			if (*lvalp > (unsigned long)INT_MAX + 1)
				return -EINVAL;
			tmp = (int)-(long)*lvalp;
		} else {
			if (*lvalp > (unsigned long)INT_MAX)
				return -EINVAL;
			tmp = (int)*lvalp;
		}
		if (param && ((param->min && *param->min > tmp) ||
			      (param->max && *param->max < tmp)))
			return -EINVAL;
		*valp = tmp;
	} else {
		*negp = *valp < 0;
		*lvalp = *negp ? -(unsigned long)(long)*valp : (unsigned long)*valp;
	}
	return 0;
}

/* Linux's __do_proc_dointvec, with sysctl_writes_strict = 1. */
static int __do_proc_dointvec(const struct ctl_table *table, int write, void *buffer,
			      size_t *lenp, loff_t *ppos,
			      const struct do_proc_dointvec_minmax_conv_param *param)
{
	int *i = table->data, vleft, err = 0;
	bool first = true;
	size_t left;
	char *p = buffer;

	if (!table->data || !table->maxlen || !*lenp || (*ppos && !write)) {
		*lenp = 0;
		return 0;
	}
	vleft = table->maxlen / (int)sizeof(*i);
	left = *lenp;
	if (write) {
		if (*ppos)		/* strict: a write must start at 0 */
			goto out;
		if (left > PAGE_SIZE - 1)
			left = PAGE_SIZE - 1;
	}
	for (; left && vleft--; i++, first = false) {
		unsigned long lval;
		bool neg;

		if (write) {
			left -= proc_skip_spaces(&p, left);
			if (!left)
				break;
			err = proc_get_long(&p, &left, &lval, &neg);
			if (err)
				break;
			if (do_proc_dointvec_conv(&neg, &lval, i, 1, param)) {
				err = -EINVAL;
				break;
			}
		} else {
			do_proc_dointvec_conv(&neg, &lval, i, 0, NULL);
			if (!first)
				proc_put_char(&p, &left, '\t');
			proc_put_long(&p, &left, lval, neg);
		}
	}
	if (!write && !first && left && !err)
		proc_put_char(&p, &left, '\n');
	if (write && !err && left)
		left -= proc_skip_spaces(&p, left);
	if (write && first)
		return err ? err : -EINVAL;
	*lenp -= left;
out:
	*ppos += *lenp;
	return err;
}

int proc_dointvec(const struct ctl_table *table, int write, void *buffer, size_t *lenp,
		  loff_t *ppos)
{
	return __do_proc_dointvec(table, write, buffer, lenp, ppos, NULL);
}

int proc_dointvec_minmax(const struct ctl_table *table, int write, void *buffer, size_t *lenp,
			 loff_t *ppos)
{
	struct do_proc_dointvec_minmax_conv_param param = {
		.min = table->extra1,
		.max = table->extra2,
	};

	return __do_proc_dointvec(table, write, buffer, lenp, ppos, &param);
}

/* /proc/sys/vm: Linux 6.1's rows for what Pageturn has. */
/* vm.page-cluster's ceiling (Linux's page_cluster_max). */
static const int page_cluster_max = 31;

static const struct ctl_table vm_table[] = {
	{
		.procname = "page-cluster",
		.data = &page_cluster,
		.maxlen = sizeof(page_cluster),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = SYSCTL_ZERO,
		.extra2 = (void *)&page_cluster_max,
	},
	{
		.procname = "swappiness",
		.data = &vm_swappiness,
		.maxlen = sizeof(vm_swappiness),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = SYSCTL_ZERO,
		.extra2 = SYSCTL_HUNDRED,
	},
	{
		.procname = "drop_caches",
		.data = &sysctl_drop_caches,
		.maxlen = sizeof(int),
		.mode = 0200,
		.proc_handler = drop_caches_sysctl_handler,
		.extra1 = SYSCTL_ONE,
		.extra2 = SYSCTL_FOUR,
	},
	{
		.procname = "min_free_kbytes",
		.data = &min_free_kbytes,
		.maxlen = sizeof(min_free_kbytes),
		.mode = 0644,
		.proc_handler = min_free_kbytes_sysctl_handler,
		.extra1 = SYSCTL_ZERO,
	},
	{ }
};

const struct ctl_table sysctl_base_table[] = {
	{ .procname = "vm", .mode = 0555, .child = vm_table },
	{ }
};
