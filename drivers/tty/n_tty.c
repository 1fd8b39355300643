/*
 * n_tty: the line discipline (Linux's drivers/tty/n_tty.c, same rules and
 * names), the part of a terminal between the device and read(2)/write(2).
 *
 * Input.  Each byte from the device (an interrupt handler calls
 * n_tty_receive_buf) goes through, in order:
 *   1. ISTRIP and IUCLC;
 *   2. a literal-next (^V) pending: the byte is queued as it is;
 *   3. if it is special (char_map, rebuilt from termios on every
 *      n_tty_set_termios): IXON's START/STOP, ISIG's INTR/QUIT/SUSP
 *      (kill_pgrp of the foreground group, and the input flushed unless
 *      NOFLSH), IGNCR/ICRNL/INLCR, and in canonical mode the editing
 *      characters (ERASE, KILL, WERASE, LNEXT, REPRINT) and the line
 *      ends ('\n', EOL, EOL2, EOF);
 *   4. otherwise it is queued, and echoed if ECHO.
 * A c_cc entry of 0 disables its function: byte 0 is never special.
 *
 * The buffer.  read_buf is a ring of N_TTY_BUF_SIZE bytes with
 * free-running counters read_tail <= canon_head <= read_head (tty.h).  In
 * canonical mode a line becomes readable when its end arrives: the end's
 * position gets a bit in read_flags (and in eof_flags for an EOF, which
 * holds the EOF char and which a read consumes without returning), and
 * canon_head moves past it.  Editing works on [canon_head, read_head) and
 * never crosses canon_head.  An ordinary byte needs two free bytes in
 * canonical mode (one stays for the line end) and one otherwise; a byte
 * that does not fit is dropped, unechoed.
 *
 * Echo and output.  Echoed bytes go through the same output processing as
 * written ones (OPOST: ONLCR, OCRNL, ONOCR, ONLRET, OLCUC, XTABS), and
 * the discipline tracks the output column: canon_column is where the
 * line being edited began, so erasing a tab can move back to exactly
 * where the tab started.  With ECHOCTL a control byte other than tab and
 * newline echoes as ^X (two columns), and erasing it erases both.  Echo
 * is written at once (there is no echo buffer as in Linux), even while
 * output is stopped.  Output is staged in a small buffer (struct tty_out)
 * and handed to the driver's write in runs.
 *
 * Control bytes are ASCII's (below 0x20, and 0x7f); UTF-8 bytes never
 * count as control, and with IUTF8 an erase removes a whole character.
 *
 * Not implemented: PARMRK/INPCK (no parity errors are reported), ECHOPRT,
 * PENDIN, FLUSHO, XCASE, IMAXBEL, and VDISCARD; their flags are stored
 * and read back by TCGETS but have no effect.
 *
 * Context: every function here runs with interrupts disabled (tty.h), so
 * the interrupt handlers and process context never see a half-updated
 * state, and never sleeps.
 */
#include <drivers/tty.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>

#define MASK(x)		((x) & (N_TTY_BUF_SIZE - 1))
#define TAB_WIDTH	8
#define OUT_STAGE_SIZE	64

const struct termios tty_std_termios = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B38400 | CS8 | CREAD | HUPCL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.c_line = N_TTY,
	.c_cc = {
		[VINTR] = CTRL_CHAR('C'),
		[VQUIT] = CTRL_CHAR('\\'),
		[VERASE] = CTRL_CHAR('?'),
		[VKILL] = CTRL_CHAR('U'),
		[VEOF] = CTRL_CHAR('D'),
		[VSTART] = CTRL_CHAR('Q'),
		[VSTOP] = CTRL_CHAR('S'),
		[VSUSP] = CTRL_CHAR('Z'),
		[VREPRINT] = CTRL_CHAR('R'),
		[VDISCARD] = CTRL_CHAR('O'),
		[VWERASE] = CTRL_CHAR('W'),
		[VLNEXT] = CTRL_CHAR('V'),
		[VMIN] = 1,
	},
};

/* Bytes on their way to the driver. */
struct tty_out {
	struct tty_struct *tty;
	size_t len;
	unsigned char buf[OUT_STAGE_SIZE];
};

static bool flag_test(const uint64_t *map, size_t bit)
{
	return (map[bit / 64] >> (bit % 64)) & 1;
}

static void flag_set(uint64_t *map, size_t bit)
{
	map[bit / 64] |= 1ull << (bit % 64);
}

static void flag_clear(uint64_t *map, size_t bit)
{
	map[bit / 64] &= ~(1ull << (bit % 64));
}

static bool is_cntrl(unsigned char c)
{
	return c < ' ' || c == 0x7f;
}

static bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static unsigned char to_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static unsigned char to_upper(unsigned char c)
{
	return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

/* A UTF-8 continuation byte, when the terminal is in UTF-8 mode. */
static bool is_continuation(struct tty_struct *tty, unsigned char c)
{
	return I_IUTF8(tty) && (c & 0xc0) == 0x80;
}

static unsigned char read_buf(const struct n_tty_data *ldata, size_t i)
{
	return ldata->read_buf[MASK(i)];
}

/* Is there room for one more byte, keeping one free for a line end in
 * canonical mode unless this byte ends the line? */
static bool has_room(const struct n_tty_data *ldata, bool line_end)
{
	size_t used = ldata->read_head - ldata->read_tail;
	size_t limit = ldata->icanon && !line_end ? N_TTY_BUF_SIZE - 1 : N_TTY_BUF_SIZE;

	return used < limit;
}

static void put_tty_queue(struct n_tty_data *ldata, unsigned char c)
{
	ldata->read_buf[MASK(ldata->read_head)] = c;
	ldata->read_head++;
}

/* --- output ------------------------------------------------------------- */

static void out_flush(struct tty_out *o)
{
	if (o->len) {
		o->tty->ops->write(o->tty, o->buf, o->len);
		o->len = 0;
	}
}

static void out_put(struct tty_out *o, unsigned char c)
{
	if (o->len == sizeof(o->buf))
		out_flush(o);
	o->buf[o->len++] = c;
}

/* One byte through the output modes (Linux's do_output_char). */
static void do_output_char(struct tty_out *o, unsigned char c)
{
	struct tty_struct *tty = o->tty;
	struct n_tty_data *ldata = &tty->ldata;
	unsigned int spaces;

	if (!O_OPOST(tty)) {
		out_put(o, c);
		return;
	}
	switch (c) {
	case '\n':
		if (O_ONLRET(tty))
			ldata->column = 0;
		if (O_ONLCR(tty)) {
			ldata->canon_column = ldata->column = 0;
			out_put(o, '\r');
			break;
		}
		ldata->canon_column = ldata->column;
		break;
	case '\r':
		if (O_ONOCR(tty) && ldata->column == 0)
			return;
		if (O_OCRNL(tty)) {
			c = '\n';
			if (O_ONLRET(tty))
				ldata->canon_column = ldata->column = 0;
			break;
		}
		ldata->canon_column = ldata->column = 0;
		break;
	case '\t':
		spaces = TAB_WIDTH - ldata->column % TAB_WIDTH;
		ldata->column += spaces;
		if (O_TABDLY(tty) == XTABS) {
			while (spaces--)
				out_put(o, ' ');
			return;
		}
		break;
	case '\b':
		if (ldata->column > 0)
			ldata->column--;
		break;
	default:
		if (!is_cntrl(c)) {
			if (O_OLCUC(tty))
				c = to_upper(c);
			if (!is_continuation(tty, c))
				ldata->column++;
		}
		break;
	}
	out_put(o, c);
}

void n_tty_write(struct tty_struct *tty, const unsigned char *buf, size_t count)
{
	struct tty_out o = { .tty = tty };

	while (count--)
		do_output_char(&o, *buf++);
	out_flush(&o);
}

/* --- echo --------------------------------------------------------------- */

/* Echo c as ^X when ECHOCTL says so, else through the output modes. */
static void echo_char(struct tty_out *o, unsigned char c)
{
	struct tty_struct *tty = o->tty;

	if (L_ECHOCTL(tty) && is_cntrl(c) && c != '\t') {
		out_put(o, '^');
		out_put(o, CTRL_CHAR(c));
		tty->ldata.column += 2;
	} else {
		do_output_char(o, c);
	}
}

/* The first byte of a new line is about to be echoed: remember where the
 * line starts on the screen. */
static void echo_set_canon_col(struct n_tty_data *ldata)
{
	if (ldata->canon_head == ldata->read_head)
		ldata->canon_column = ldata->column;
}

static void echo_erase_one(struct tty_out *o)
{
	do_output_char(o, '\b');
	do_output_char(o, ' ');
	do_output_char(o, '\b');
}

/*
 * A tab has just been erased: move the cursor back to where it started.
 * The columns the line's characters take since the previous tab (or since
 * the line's start, which is at canon_column) say how wide the tab was.
 */
static void echo_erase_tab(struct tty_out *o)
{
	struct tty_struct *tty = o->tty;
	struct n_tty_data *ldata = &tty->ldata;
	unsigned int num_chars = 0, num_bs;
	bool after_tab = false;
	size_t tail = ldata->read_head;
	unsigned char c;

	while (tail != ldata->canon_head) {
		c = read_buf(ldata, --tail);
		if (c == '\t') {
			after_tab = true;
			break;
		} else if (is_cntrl(c)) {
			if (L_ECHOCTL(tty))
				num_chars += 2;
		} else if (!is_continuation(tty, c)) {
			num_chars++;
		}
	}
	if (!after_tab)
		num_chars += ldata->canon_column;
	num_bs = TAB_WIDTH - num_chars % TAB_WIDTH;
	if (num_bs > ldata->column)
		num_bs = ldata->column;
	while (num_bs--) {
		out_put(o, '\b');
		ldata->column--;
	}
}

/* --- canonical editing --------------------------------------------------- */

enum kill_type { ERASE, WERASE, KILL };

/*
 * ERASE, WERASE or KILL (c says which) in the line being edited, with its
 * echo (Linux's eraser): ERASE removes one character, WERASE the word
 * before the cursor (trailing non-word bytes, then alphanumerics and
 * '_'), KILL the whole line.  Without ECHOE an erase echoes the ERASE
 * char itself; without ECHOKE a kill echoes the KILL char (and a newline
 * with ECHOK) instead of wiping the line visibly.
 */
static void eraser(struct tty_out *o, unsigned char c)
{
	struct tty_struct *tty = o->tty;
	struct n_tty_data *ldata = &tty->ldata;
	enum kill_type kill_type;
	unsigned int seen_alnums = 0;
	size_t head;

	if (ldata->read_head == ldata->canon_head)
		return;
	if (c == ERASE_CHAR(tty)) {
		kill_type = ERASE;
	} else if (c == WERASE_CHAR(tty)) {
		kill_type = WERASE;
	} else {
		if (!L_ECHO(tty)) {
			ldata->read_head = ldata->canon_head;
			return;
		}
		if (!L_ECHOK(tty) || !L_ECHOKE(tty) || !L_ECHOE(tty)) {
			ldata->read_head = ldata->canon_head;
			echo_char(o, KILL_CHAR(tty));
			if (L_ECHOK(tty))
				do_output_char(o, '\n');
			return;
		}
		kill_type = KILL;
	}

	while (ldata->read_head != ldata->canon_head) {
		head = ldata->read_head;
		/* One character: with IUTF8, its continuation bytes too. */
		do {
			c = read_buf(ldata, --head);
		} while (is_continuation(tty, c) && head != ldata->canon_head);
		if (is_continuation(tty, c))
			break;	/* a stray continuation byte: never erase half a character */
		if (kill_type == WERASE) {
			if (is_alnum(c) || c == '_')
				seen_alnums++;
			else if (seen_alnums)
				break;
		}
		ldata->read_head = head;
		if (L_ECHO(tty)) {
			if (kill_type == ERASE && !L_ECHOE(tty)) {
				echo_char(o, ERASE_CHAR(tty));
			} else if (c == '\t') {
				echo_erase_tab(o);
			} else {
				if (is_cntrl(c) && L_ECHOCTL(tty))
					echo_erase_one(o);	/* the '^' */
				if (!is_cntrl(c) || L_ECHOCTL(tty))
					echo_erase_one(o);
			}
		}
		if (kill_type == ERASE)
			break;
	}
}

/* Drop every byte of input (Linux's reset_buffer_flags). */
void n_tty_flush_buffer(struct tty_struct *tty)
{
	struct n_tty_data *ldata = &tty->ldata;

	ldata->read_head = ldata->canon_head = ldata->read_tail = 0;
	memset(ldata->read_flags, 0, sizeof(ldata->read_flags));
	memset(ldata->eof_flags, 0, sizeof(ldata->eof_flags));
	ldata->lnext = false;
}

/* Queue a line end and make the line readable. */
static void handle_newline(struct n_tty_data *ldata, unsigned char c, bool eof)
{
	size_t pos = MASK(ldata->read_head);

	flag_set(ldata->read_flags, pos);
	if (eof)
		flag_set(ldata->eof_flags, pos);
	put_tty_queue(ldata, c);
	ldata->canon_head = ldata->read_head;
}

/* --- receiving ---------------------------------------------------------- */

void stop_tty(struct tty_struct *tty)
{
	tty->stopped = true;
}

void start_tty(struct tty_struct *tty)
{
	if (!tty->stopped || tty->flow_stopped)
		return;
	tty->stopped = false;
	wake_up(&tty->write_wait);
}

/* IXANY: any byte restarts output stopped by the STOP char. */
static void ixany_restart(struct tty_struct *tty)
{
	if (tty->stopped && !tty->flow_stopped && I_IXON(tty) && I_IXANY(tty))
		start_tty(tty);
}

/* INTR, QUIT or SUSP: signal the foreground group, flush the input unless
 * NOFLSH, restart output, echo the char (Linux's order). */
static void receive_signal_char(struct tty_out *o, int sig, unsigned char c)
{
	struct tty_struct *tty = o->tty;

	if (tty->pgrp > 0)
		kill_pgrp(tty->pgrp, sig);
	if (!L_NOFLSH(tty))
		n_tty_flush_buffer(tty);
	if (I_IXON(tty))
		start_tty(tty);
	if (L_ECHO(tty))
		echo_char(o, c);
}

/* An ordinary byte: echo it and queue it. */
static void receive_plain(struct tty_out *o, unsigned char c)
{
	struct tty_struct *tty = o->tty;
	struct n_tty_data *ldata = &tty->ldata;

	ixany_restart(tty);
	if (!has_room(ldata, false))
		return;
	if (L_ECHO(tty)) {
		echo_set_canon_col(ldata);
		echo_char(o, c);
	}
	put_tty_queue(ldata, c);
}

/* REPRINT: echo the char, a newline, and the line being edited again. */
static void reprint(struct tty_out *o, unsigned char c)
{
	struct n_tty_data *ldata = &o->tty->ldata;
	size_t tail;

	echo_char(o, c);
	do_output_char(o, '\n');
	for (tail = ldata->canon_head; tail != ldata->read_head; tail++)
		echo_char(o, read_buf(ldata, tail));
}

/*
 * The canonical-mode meaning of c, if it has one: true when c was
 * handled (editing or a line end), false when it is an ordinary byte.
 */
static bool receive_canon_char(struct tty_out *o, unsigned char c)
{
	struct tty_struct *tty = o->tty;
	struct n_tty_data *ldata = &tty->ldata;

	if (c == ERASE_CHAR(tty) || c == KILL_CHAR(tty) ||
	    (c == WERASE_CHAR(tty) && L_IEXTEN(tty))) {
		eraser(o, c);
		return true;
	}
	if (c == LNEXT_CHAR(tty) && L_IEXTEN(tty)) {
		ldata->lnext = true;
		if (L_ECHO(tty) && L_ECHOCTL(tty)) {
			do_output_char(o, '^');
			do_output_char(o, '\b');
		}
		return true;
	}
	if (c == REPRINT_CHAR(tty) && L_ECHO(tty) && L_IEXTEN(tty)) {
		reprint(o, c);
		return true;
	}
	if (c == '\n') {
		if (has_room(ldata, true)) {
			if (L_ECHO(tty) || L_ECHONL(tty))
				do_output_char(o, '\n');
			handle_newline(ldata, c, false);
		}
		return true;
	}
	if (c == EOF_CHAR(tty)) {
		if (has_room(ldata, true))
			handle_newline(ldata, c, true);
		return true;
	}
	if (c == EOL_CHAR(tty) || (c == EOL2_CHAR(tty) && L_IEXTEN(tty))) {
		if (has_room(ldata, true)) {
			if (L_ECHO(tty)) {
				echo_set_canon_col(ldata);
				echo_char(o, c);
			}
			handle_newline(ldata, c, false);
		}
		return true;
	}
	return false;
}

/* A byte char_map marks as special (Linux's n_tty_receive_char_special). */
static void receive_special(struct tty_out *o, unsigned char c)
{
	struct tty_struct *tty = o->tty;
	struct n_tty_data *ldata = &tty->ldata;

	if (I_IXON(tty)) {
		if (c == START_CHAR(tty)) {
			start_tty(tty);
			return;
		}
		if (c == STOP_CHAR(tty)) {
			stop_tty(tty);
			return;
		}
	}
	if (L_ISIG(tty)) {
		if (c == INTR_CHAR(tty)) {
			receive_signal_char(o, SIGINT, c);
			return;
		}
		if (c == QUIT_CHAR(tty)) {
			receive_signal_char(o, SIGQUIT, c);
			return;
		}
		if (c == SUSP_CHAR(tty)) {
			receive_signal_char(o, SIGTSTP, c);
			return;
		}
	}
	ixany_restart(tty);
	if (c == '\r') {
		if (I_IGNCR(tty))
			return;
		if (I_ICRNL(tty))
			c = '\n';
	} else if (c == '\n' && I_INLCR(tty)) {
		c = '\r';
	}
	if (ldata->icanon && receive_canon_char(o, c))
		return;

	if (!has_room(ldata, false))
		return;
	if (L_ECHO(tty)) {
		if (c == '\n') {
			do_output_char(o, '\n');
		} else {
			echo_set_canon_col(ldata);
			echo_char(o, c);
		}
	}
	put_tty_queue(ldata, c);
}

void n_tty_receive_buf(struct tty_struct *tty, const unsigned char *cp, size_t count)
{
	struct n_tty_data *ldata = &tty->ldata;
	struct tty_out o = { .tty = tty };
	unsigned char c;

	while (count--) {
		c = *cp++;
		if (I_ISTRIP(tty))
			c &= 0x7f;
		if (I_IUCLC(tty) && L_IEXTEN(tty))
			c = to_lower(c);
		if (ldata->lnext) {
			ldata->lnext = false;
			receive_plain(&o, c);
		} else if (flag_test(ldata->char_map, c)) {
			receive_special(&o, c);
		} else {
			receive_plain(&o, c);
		}
	}
	out_flush(&o);
	if (n_tty_input_available(tty, false))
		wake_up(&tty->read_wait);
}

/* --- modes --------------------------------------------------------------- */

void n_tty_set_termios(struct tty_struct *tty, const struct termios *old)
{
	struct n_tty_data *ldata = &tty->ldata;
	uint64_t *map = ldata->char_map;

	if (!old || ((old->c_lflag ^ tty->termios.c_lflag) & ICANON)) {
		memset(ldata->read_flags, 0, sizeof(ldata->read_flags));
		memset(ldata->eof_flags, 0, sizeof(ldata->eof_flags));
		if (!L_ICANON(tty) || ldata->read_head == ldata->read_tail) {
			ldata->canon_head = ldata->read_tail;
		} else {
			/* Pending raw input becomes one complete line. */
			flag_set(ldata->read_flags, MASK(ldata->read_head - 1));
			ldata->canon_head = ldata->read_head;
		}
		ldata->lnext = false;
	}
	ldata->icanon = L_ICANON(tty) != 0;

	memset(ldata->char_map, 0, sizeof(ldata->char_map));
	if (I_IGNCR(tty) || I_ICRNL(tty))
		flag_set(map, '\r');
	if (I_INLCR(tty))
		flag_set(map, '\n');
	if (L_ICANON(tty)) {
		flag_set(map, ERASE_CHAR(tty));
		flag_set(map, KILL_CHAR(tty));
		flag_set(map, EOF_CHAR(tty));
		flag_set(map, '\n');
		flag_set(map, EOL_CHAR(tty));
		if (L_IEXTEN(tty)) {
			flag_set(map, WERASE_CHAR(tty));
			flag_set(map, LNEXT_CHAR(tty));
			flag_set(map, EOL2_CHAR(tty));
			if (L_ECHO(tty))
				flag_set(map, REPRINT_CHAR(tty));
		}
	}
	if (I_IXON(tty)) {
		flag_set(map, START_CHAR(tty));
		flag_set(map, STOP_CHAR(tty));
	}
	if (L_ISIG(tty)) {
		flag_set(map, INTR_CHAR(tty));
		flag_set(map, QUIT_CHAR(tty));
		flag_set(map, SUSP_CHAR(tty));
	}
	flag_clear(map, __DISABLED_CHAR);

	/* Output stopped by the STOP char restarts when IXON goes. */
	if (!I_IXON(tty) && old && (old->c_iflag & IXON))
		start_tty(tty);
	if (n_tty_input_available(tty, false))
		wake_up(&tty->read_wait);
}

void n_tty_open(struct tty_struct *tty)
{
	tty->ldata.column = tty->ldata.canon_column = 0;
	n_tty_flush_buffer(tty);
	n_tty_set_termios(tty, NULL);
}

/* --- reading ------------------------------------------------------------ */

bool n_tty_input_available(struct tty_struct *tty, bool poll)
{
	const struct n_tty_data *ldata = &tty->ldata;
	size_t amt = 1;

	if (ldata->icanon)
		return ldata->canon_head != ldata->read_tail;
	if (poll && !TIME_CHAR(tty) && MIN_CHAR(tty))
		amt = MIN_CHAR(tty);
	return ldata->read_head - ldata->read_tail >= amt;
}

/* Move n bytes from the ring's tail to kb. */
static void copy_from_ring(struct n_tty_data *ldata, unsigned char *kb, size_t n)
{
	size_t tail = MASK(ldata->read_tail);
	size_t first = MIN(n, N_TTY_BUF_SIZE - tail);

	memcpy(kb, ldata->read_buf + tail, first);
	memcpy(kb + first, ldata->read_buf, n - first);
	ldata->read_tail += n;
}

/*
 * Canonical read: the first line's bytes up to nr.  The line end is
 * looked for one byte beyond nr, so that an EOF right after nr bytes is
 * consumed with them rather than read as an end of file next time.
 */
static size_t canon_copy_from_read_buf(struct n_tty_data *ldata, unsigned char *kb, size_t nr)
{
	size_t avail = ldata->canon_head - ldata->read_tail;
	size_t i, pos;

	for (i = 0; i < avail && i <= nr; i++) {
		pos = MASK(ldata->read_tail + i);
		if (!flag_test(ldata->read_flags, pos))
			continue;
		if (flag_test(ldata->eof_flags, pos)) {
			copy_from_ring(ldata, kb, i);
			ldata->read_tail++;
		} else if (i < nr) {
			copy_from_ring(ldata, kb, ++i);
		} else {
			break;	/* the line end does not fit: leave it */
		}
		flag_clear(ldata->read_flags, pos);
		flag_clear(ldata->eof_flags, pos);
		return i;
	}
	i = MIN(nr, avail);
	copy_from_ring(ldata, kb, i);
	return i;
}

size_t n_tty_copy_from_read_buf(struct tty_struct *tty, unsigned char *kb, size_t nr)
{
	struct n_tty_data *ldata = &tty->ldata;
	size_t n;

	if (ldata->icanon)
		return canon_copy_from_read_buf(ldata, kb, nr);
	n = MIN(nr, ldata->read_head - ldata->read_tail);
	copy_from_ring(ldata, kb, n);
	return n;
}

size_t n_tty_inq(struct tty_struct *tty)
{
	const struct n_tty_data *ldata = &tty->ldata;
	size_t tail, nr;

	if (!ldata->icanon)
		return ldata->read_head - ldata->read_tail;
	nr = ldata->canon_head - ldata->read_tail;
	for (tail = ldata->read_tail; tail != ldata->canon_head; tail++)
		if (flag_test(ldata->eof_flags, MASK(tail)))
			nr--;
	return nr;
}
