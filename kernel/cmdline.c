/*
 * The command-line parser (see pageturn/cmdline.h for the syntax).
 *
 * cmdline_parse() copies the line into cl->buf and splits it there, in
 * place: each option's key and value become NUL-terminated strings inside
 * buf, with the quotes removed.  The write position never passes the read
 * position (quotes are dropped, a separator or the first '=' becomes a
 * NUL), so one pass over buf is enough.
 *
 * Rules, as in Linux:
 *   - spaces and tabs outside double quotes separate options;
 *   - a double quote toggles quoting and is removed, so key="a b",
 *     key=a" "b and "key=a b" all give key "key", value "a b";
 *   - the first '=' of an option ends its key; later ones belong to the
 *     value (opt=a=b has value "a=b"); without '=' the value is "".
 *
 * memparse() reads a size value as Linux's does (mem=96M), refusing
 * anything it cannot read whole instead of stopping at the first
 * unknown character.
 */
#include <pageturn/cmdline.h>
#include <pageturn/string.h>
#include <uapi/errno.h>

static bool is_separator(char c)
{
	return c == ' ' || c == '\t';
}

static int parse_fail(struct cmdline *cl, int err)
{
	cl->nr_opts = 0;
	cl->buf[0] = '\0';
	return err;
}

/*
 * Parse str into cl (cl != NULL; a NULL str is an empty line).  Returns the
 * number of options, or -E2BIG / -EINVAL as pageturn/cmdline.h says; on
 * error cl->nr_opts is 0.
 */
int cmdline_parse(struct cmdline *cl, const char *str)
{
	size_t len, r = 0, w = 0;

	cl->nr_opts = 0;
	cl->init_args = NULL;
	if (!str)
		str = "";
	len = strnlen(str, CMDLINE_MAX_LEN + 1);
	if (len > CMDLINE_MAX_LEN)
		return parse_fail(cl, -E2BIG);
	memcpy(cl->buf, str, len);
	cl->buf[len] = '\0';

	for (;;) {
		struct cmdline_opt *opt;
		bool quoted = false;
		char *key;

		while (is_separator(cl->buf[r]))
			r++;
		if (!cl->buf[r])
			break;
		if (cl->nr_opts == CMDLINE_MAX_OPTS)
			return parse_fail(cl, -E2BIG);

		opt = &cl->opts[cl->nr_opts];
		key = &cl->buf[w];
		opt->key = key;
		opt->value = NULL;
		for (; cl->buf[r]; r++) {
			char c = cl->buf[r];

			if (c == '"') {
				quoted = !quoted;
			} else if (is_separator(c) && !quoted) {
				break;
			} else if (c == '=' && !opt->value) {
				cl->buf[w++] = '\0';
				opt->value = &cl->buf[w];
			} else {
				cl->buf[w++] = c;
			}
		}
		if (quoted)
			return parse_fail(cl, -EINVAL);
		if (cl->buf[r])
			r++;	/* skip the separator: w stays behind r */
		cl->buf[w++] = '\0';
		if (!*key)
			return parse_fail(cl, -EINVAL);
		if (!opt->value && strcmp(key, "--") == 0) {
			/* The rest is init's: buf[r..] is still unread text. */
			cl->init_args = &cl->buf[r];
			break;
		}
		if (!opt->value)
			opt->value = &cl->buf[w - 1];	/* the key's NUL: "" */
		cl->nr_opts++;
	}
	return cl->nr_opts;
}

/* The last option named key in cl, or NULL (also for a NULL key). */
const struct cmdline_opt *cmdline_find(const struct cmdline *cl, const char *key)
{
	int i;

	if (!key)
		return NULL;
	for (i = cl->nr_opts - 1; i >= 0; i--)
		if (strcmp(cl->opts[i].key, key) == 0)
			return &cl->opts[i];
	return NULL;
}

int memparse(const char *s, uint64_t *bytes)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (*p) {
	case 'T': case 't':
		shift += 10;
		/* fall through */
	case 'G': case 'g':
		shift += 10;
		/* fall through */
	case 'M': case 'm':
		shift += 10;
		/* fall through */
	case 'K': case 'k':
		shift += 10;
		p++;
		break;
	default:
		break;
	}
	if (*p || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*bytes = v << shift;
	return 0;
}
