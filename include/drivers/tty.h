/*
 * The TTY layer (Linux's include/linux/tty.h, n_tty and tty_io names):
 * one console terminal whose output goes to every console and whose input
 * comes from the serial port and the PS/2 keyboard.  docs/tty.md explains
 * the whole path; drivers/tty/n_tty.c the line discipline, and
 * drivers/tty/tty_io.c the files, ioctls and controlling terminals.
 *
 * Locking: the n_tty state is shared between the input interrupts and
 * process context, so every n_tty_* function (and start_tty/stop_tty) is
 * called with interrupts disabled, never sleeps, and calls the driver's
 * write with interrupts still disabled.
 */
#ifndef DRIVERS_TTY_H
#define DRIVERS_TTY_H

#include <pageturn/types.h>
#include <pageturn/wait.h>
#include <uapi/termios.h>

#define N_TTY_BUF_SIZE	4096	/* bytes of input a tty holds (a power of 2) */
#define __DISABLED_CHAR	'\0'	/* a c_cc entry of 0 disables that function */
/* The control byte "^X" names: CTRL_CHAR('C') is 0x03, CTRL_CHAR('?') 0x7f. */
#define CTRL_CHAR(ch)	((unsigned char)((ch) ^ 0x40))

struct tty_struct;

struct tty_operations {
	/* Send count bytes, already through output processing, to the
	 * device.  Interrupts disabled; must not sleep. */
	void (*write)(struct tty_struct *tty, const unsigned char *buf, size_t count);
};

/*
 * The line discipline's state (Linux's struct n_tty_data).  read_buf is
 * a ring indexed by free-running counters (masked by N_TTY_BUF_SIZE - 1):
 *
 *     read_tail <= canon_head <= read_head
 *
 * [read_tail, read_head) is the input not yet read.  In canonical mode
 * [read_tail, canon_head) holds complete lines, each ending at a byte
 * whose bit is set in read_flags (a newline, EOL, EOL2 or an EOF, which
 * eof_flags marks and a read drops), and [canon_head, read_head) is the
 * line being edited.  In non-canonical mode everything is readable and
 * canon_head is not used.
 */
struct n_tty_data {
	size_t read_head, canon_head, read_tail;
	unsigned char read_buf[N_TTY_BUF_SIZE];
	uint64_t read_flags[N_TTY_BUF_SIZE / 64];
	uint64_t eof_flags[N_TTY_BUF_SIZE / 64];
	uint64_t char_map[256 / 64];	/* the bytes that need special handling */
	unsigned int column;		/* output column of the cursor */
	unsigned int canon_column;	/* column where the edited line began */
	bool icanon;			/* ICANON as of the last set_termios */
	bool lnext;			/* the next byte is literal (^V) */
};

struct tty_struct {
	const struct tty_operations *ops;
	struct termios termios;
	struct winsize winsize;
	int pgrp;			/* foreground process group; 0: none */
	int session;			/* session it is the controlling tty of; 0: none */
	bool stopped;			/* output stopped (STOP char or TCOOFF) */
	bool flow_stopped;		/* ...by TCOOFF, which only TCOON undoes */
	wait_queue_head_t read_wait;	/* readers and pollers */
	wait_queue_head_t write_wait;	/* writers waiting for output to restart */
	struct n_tty_data ldata;
};

/* Linux's defaults for a new terminal (tty_std_termios). */
extern const struct termios tty_std_termios;

#define I_FLAG(tty, f)	((tty)->termios.c_iflag & (f))
#define O_FLAG(tty, f)	((tty)->termios.c_oflag & (f))
#define L_FLAG(tty, f)	((tty)->termios.c_lflag & (f))
#define I_ISTRIP(tty)	I_FLAG((tty), ISTRIP)
#define I_INLCR(tty)	I_FLAG((tty), INLCR)
#define I_IGNCR(tty)	I_FLAG((tty), IGNCR)
#define I_ICRNL(tty)	I_FLAG((tty), ICRNL)
#define I_IUCLC(tty)	I_FLAG((tty), IUCLC)
#define I_IXON(tty)	I_FLAG((tty), IXON)
#define I_IXANY(tty)	I_FLAG((tty), IXANY)
#define I_IUTF8(tty)	I_FLAG((tty), IUTF8)
#define O_OPOST(tty)	O_FLAG((tty), OPOST)
#define O_OLCUC(tty)	O_FLAG((tty), OLCUC)
#define O_ONLCR(tty)	O_FLAG((tty), ONLCR)
#define O_OCRNL(tty)	O_FLAG((tty), OCRNL)
#define O_ONOCR(tty)	O_FLAG((tty), ONOCR)
#define O_ONLRET(tty)	O_FLAG((tty), ONLRET)
#define O_TABDLY(tty)	O_FLAG((tty), TABDLY)
#define L_ISIG(tty)	L_FLAG((tty), ISIG)
#define L_ICANON(tty)	L_FLAG((tty), ICANON)
#define L_ECHO(tty)	L_FLAG((tty), ECHO)
#define L_ECHOE(tty)	L_FLAG((tty), ECHOE)
#define L_ECHOK(tty)	L_FLAG((tty), ECHOK)
#define L_ECHONL(tty)	L_FLAG((tty), ECHONL)
#define L_NOFLSH(tty)	L_FLAG((tty), NOFLSH)
#define L_TOSTOP(tty)	L_FLAG((tty), TOSTOP)
#define L_ECHOCTL(tty)	L_FLAG((tty), ECHOCTL)
#define L_ECHOKE(tty)	L_FLAG((tty), ECHOKE)
#define L_IEXTEN(tty)	L_FLAG((tty), IEXTEN)

#define TTY_CC(tty, v)		((tty)->termios.c_cc[(v)])
#define INTR_CHAR(tty)		TTY_CC((tty), VINTR)
#define QUIT_CHAR(tty)		TTY_CC((tty), VQUIT)
#define ERASE_CHAR(tty)		TTY_CC((tty), VERASE)
#define KILL_CHAR(tty)		TTY_CC((tty), VKILL)
#define EOF_CHAR(tty)		TTY_CC((tty), VEOF)
#define TIME_CHAR(tty)		TTY_CC((tty), VTIME)
#define MIN_CHAR(tty)		TTY_CC((tty), VMIN)
#define START_CHAR(tty)		TTY_CC((tty), VSTART)
#define STOP_CHAR(tty)		TTY_CC((tty), VSTOP)
#define SUSP_CHAR(tty)		TTY_CC((tty), VSUSP)
#define EOL_CHAR(tty)		TTY_CC((tty), VEOL)
#define REPRINT_CHAR(tty)	TTY_CC((tty), VREPRINT)
#define WERASE_CHAR(tty)	TTY_CC((tty), VWERASE)
#define LNEXT_CHAR(tty)		TTY_CC((tty), VLNEXT)
#define EOL2_CHAR(tty)		TTY_CC((tty), VEOL2)

/* --- n_tty.c: the line discipline (interrupts disabled, never sleeps) --- */

/* Empty the input and take up tty->termios (which the caller has set):
 * a tty's first use. */
void n_tty_open(struct tty_struct *tty);

/*
 * tty->termios has just changed from *old: recompute which bytes are
 * special.  Switching canonical mode off makes all pending input
 * readable; switching it on turns pending input into one complete line
 * (Linux's rules).
 */
void n_tty_set_termios(struct tty_struct *tty, const struct termios *old);

/*
 * Input from the device: count bytes through the input modes (c_iflag),
 * signals (ISIG: kill_pgrp of the foreground group), start/stop (IXON),
 * line editing (ICANON) and echo (ECHO*, written through the output
 * modes).  Wakes read_wait when a read would now return.  Bytes that do
 * not fit in the buffer are dropped (in canonical mode the last free byte
 * is kept for a line end, so a full line can still be finished).  Any
 * context, usually an input interrupt.
 */
void n_tty_receive_buf(struct tty_struct *tty, const unsigned char *cp, size_t count);

/*
 * Would a read return now (Linux's input_available_p)?  Canonical mode:
 * a complete line (or an EOF) is buffered.  Otherwise at least one byte;
 * for poll (poll true) with VTIME 0, at least VMIN bytes.
 */
bool n_tty_input_available(struct tty_struct *tty, bool poll);

/*
 * Move up to nr bytes of readable input to kb: the count moved.
 * Canonical mode moves at most one line (its end included, an EOF char
 * dropped: a line that is only an EOF moves 0 bytes and is consumed);
 * the rest of a line longer than nr stays for the next read.
 */
size_t n_tty_copy_from_read_buf(struct tty_struct *tty, unsigned char *kb, size_t nr);

/* The bytes a read could return now (FIONREAD): complete lines in
 * canonical mode, EOF chars not counted. */
size_t n_tty_inq(struct tty_struct *tty);

/* Drop all buffered input, complete lines included (TCIFLUSH). */
void n_tty_flush_buffer(struct tty_struct *tty);

/* Send count bytes through the output modes (OPOST: ONLCR, OCRNL, ONOCR,
 * ONLRET, OLCUC, XTABS) to the driver, tracking the column. */
void n_tty_write(struct tty_struct *tty, const unsigned char *buf, size_t count);

/* Stop and restart output (Linux's stop_tty/start_tty); start_tty wakes
 * writers.  flow_stopped (TCOOFF) is the caller's to set and clear. */
void stop_tty(struct tty_struct *tty);
void start_tty(struct tty_struct *tty);

/* --- tty_io.c: the console tty and controlling terminals ------------ */

/*
 * Set up the console tty (Linux's termios defaults; the window size of
 * the screen console, else 80x24), register /dev/console (5:1), /dev/tty
 * (5:0), /dev/tty0 (4:0) and /dev/ttyS0 (4:64), and start the serial
 * port's and the PS/2 keyboard's input interrupts.  Once, at boot, in
 * process context with interrupts on, after devfs is initialised.
 */
void tty_init(void);

/*
 * current, a session leader, is exiting (do_exit): its controlling tty
 * sends SIGHUP to the foreground process group, stops being anyone's
 * controlling terminal (every task of the session loses it) and forgets
 * its session and group.  Does nothing without a controlling tty.  The
 * caller clears current->tty.  Process context.
 */
void disassociate_ctty(void);

/* --- drivers/input/i8042.c: the PS/2 keyboard -------------------------- */

/*
 * Find the i8042 keyboard controller, turn on its keyboard interrupt
 * (IRQ 1, scan code set 1 through the controller's translation) and feed
 * the keys, as bytes, to tty.  0, -ENODEV when there is no controller
 * (a PC without legacy PS/2 emulation), -EIO when it does not answer, or
 * request_irq's error.  Once, at boot, process context.
 */
int i8042_init(struct tty_struct *tty);

/* The device number of terminal tty, 8:8 encoded (Linux's tty_devnum):
 * /proc/PID/stat's tty_nr. */
uint32_t tty_devnum(const struct tty_struct *tty);

#endif
