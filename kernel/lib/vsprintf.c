/*
 * vsnprintf: the formatter behind printk (see pageturn/printk.h for the
 * supported conversions).  Pure C with no kernel dependencies, so the host
 * unit tests (tests/unit/test_vsprintf.c) check it against expected strings.
 *
 * Output is written while it fits in size - 1 bytes and always
 * NUL-terminated when size > 0; the return value is the length the whole
 * output would have had.
 */
#include <pageturn/printk.h>
#include <pageturn/string.h>

struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

#define F_LEFT  1
#define F_ZERO  2
#define F_PLUS  4
#define F_SPACE 8
#define F_ALT   16

struct spec {
	int flags;
	int width;
	int precision;	/* -1: none */
};

static void put_str(struct outbuf *o, const char *s, const struct spec *sp)
{
	size_t n;
	int pad;

	if (!s)
		s = "(null)";
	n = sp->precision >= 0 ? strnlen(s, sp->precision) : strlen(s);
	pad = sp->width > (int)n ? sp->width - (int)n : 0;
	if (!(sp->flags & F_LEFT))
		put_repeat(o, ' ', pad);
	while (n--)
		put(o, *s++);
	if (sp->flags & F_LEFT)
		put_repeat(o, ' ', pad);
}

static void put_num(struct outbuf *o, unsigned long long v, bool negative,
		    unsigned int base, bool upper, const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	bool zero = v == 0;
	char tmp[24];
	int n = 0, zeros = 0, pad;
	const char *prefix = "";
	int plen;

	if (zero && sp->precision == 0)
		n = 0;
	else
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);

	if (negative)
		prefix = "-";
	else if (sp->flags & F_PLUS)
		prefix = "+";
	else if (sp->flags & F_SPACE)
		prefix = " ";
	/*
	 * '#': 0x before any hex digits, zero included as in Linux (C prints
	 * a bare 0), so "%#018lx" lines up addresses; octal gets a leading
	 * zero unless its first digit already is one ("%#.0o" of 0 is "0").
	 */
	if ((sp->flags & F_ALT) && base == 16 && n > 0)
		prefix = upper ? "0X" : "0x";
	else if ((sp->flags & F_ALT) && base == 8 && sp->precision <= n &&
		 !(zero && n == 1))
		prefix = "0";
	plen = strlen(prefix);

	if (sp->precision > n)
		zeros = sp->precision - n;
	else if ((sp->flags & F_ZERO) && !(sp->flags & F_LEFT) && sp->precision < 0 &&
		 sp->width > n + plen)
		zeros = sp->width - n - plen;
	pad = sp->width - n - zeros - plen;

	if (!(sp->flags & F_LEFT))
		put_repeat(o, ' ', pad);
	while (*prefix)
		put(o, *prefix++);
	put_repeat(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (sp->flags & F_LEFT)
		put_repeat(o, ' ', pad);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		struct spec sp = { 0, 0, -1 };
		int lmod = 0;	/* -2 hh, -1 h, 0 int, 1 long, 2 long long */
		unsigned long long u;
		long long s;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				sp.flags |= F_LEFT;
			else if (*fmt == '0')
				sp.flags |= F_ZERO;
			else if (*fmt == '+')
				sp.flags |= F_PLUS;
			else if (*fmt == ' ')
				sp.flags |= F_SPACE;
			else if (*fmt == '#')
				sp.flags |= F_ALT;
			else
				break;
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.flags |= F_LEFT;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				sp.width = sp.width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			sp.precision = 0;
			if (*fmt == '*') {
				sp.precision = va_arg(ap, int);
				if (sp.precision < 0)
					sp.precision = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					sp.precision = sp.precision * 10 + (*fmt++ - '0');
			}
		}
		for (;; fmt++) {
			if (*fmt == 'h')
				lmod = lmod == -1 ? -2 : -1;
			else if (*fmt == 'l')
				lmod = lmod == 1 ? 2 : 1;
			else if (*fmt == 'z' || *fmt == 't')
				lmod = 1;
			else
				break;
		}

		switch (*fmt) {
		case 'd':
		case 'i':
			if (lmod == 2)
				s = va_arg(ap, long long);
			else if (lmod == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (lmod == -1)
				s = (short)s;
			else if (lmod == -2)
				s = (signed char)s;
			u = s < 0 ? -(unsigned long long)s : (unsigned long long)s;
			put_num(&o, u, s < 0, 10, false, &sp);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lmod == 2)
				u = va_arg(ap, unsigned long long);
			else if (lmod == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lmod == -1)
				u = (unsigned short)u;
			else if (lmod == -2)
				u = (unsigned char)u;
			sp.flags &= ~(F_PLUS | F_SPACE);	/* signed conversions only */
			put_num(&o, u, false, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16,
				*fmt == 'X', &sp);
			break;
		case 'p':
			/* Linux style: always 0x and 16 hex digits. */
			sp.flags = (sp.flags & F_LEFT) | F_ALT;
			sp.precision = 16;
			put_num(&o, (uintptr_t)va_arg(ap, void *), false, 16, false, &sp);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			int pad = sp.width > 1 ? sp.width - 1 : 0;

			if (!(sp.flags & F_LEFT))
				put_repeat(&o, ' ', pad);
			put(&o, c);
			if (sp.flags & F_LEFT)
				put_repeat(&o, ' ', pad);
			break;
		}
		case 's':
			put_str(&o, va_arg(ap, const char *), &sp);
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;	/* a lone '%' at the end: stop at the NUL */
			break;
		default:
			/* Unknown conversion: print it as written. */
			put(&o, '%');
			put(&o, *fmt);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
