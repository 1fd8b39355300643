/*
 * The terminal files (Linux's drivers/tty/tty_io.c, tty_ioctl.c and
 * tty_jobctrl.c): the console tty, the read/write/poll/ioctl of its
 * device nodes, and controlling terminals.  docs/tty.md has the picture.
 *
 * One tty.  console_tty writes to every console printk writes to (serial
 * COM1 and the screen, through console_write_all: no timestamps) and
 * reads from the serial port and the PS/2 keyboard, whose interrupt
 * handlers feed n_tty_receive_buf.  /dev/console, /dev/tty0 and
 * /dev/ttyS0 all open it; /dev/tty opens the caller's controlling tty.
 *
 * Locking.  The line discipline's state is shared with the input
 * interrupts, so every n_tty call here is made with interrupts disabled
 * (local_irq_save).  Nothing else needs a lock: the kernel is not
 * preemptive, so the process-side fields (termios, winsize, pgrp,
 * session, each task's ->tty) change only in process context, between
 * sleeps.  Interrupt handlers read termios and pgrp, which are written
 * with interrupts disabled where it matters (TCSETS*).
 *
 * Reading (Linux's n_tty_read).  A reader faults its destination in
 * first (bytes taken from the line discipline cannot be put back), then
 * sleeps on read_wait until n_tty_input_available; the bytes are moved
 * to a kernel buffer with interrupts off and copied to the caller's
 * iov_iter afterwards.  Canonical mode returns at most one line.
 * Otherwise VMIN and VTIME (tenths of a second) decide, as POSIX says:
 *   MIN 0, TIME 0: whatever is there, maybe nothing;
 *   MIN 0, TIME t: wait up to t for the first byte;
 *   MIN m, TIME 0: wait for m bytes (or the buffer's size);
 *   MIN m, TIME t: wait for the first byte, then until m bytes or t
 *                  passes without a new one.
 * O_NONBLOCK gives -EAGAIN instead of sleeping, a signal -ERESTARTSYS;
 * either way the bytes already moved are returned.
 *
 * Writing copies the caller's bytes a chunk at a time into a kernel
 * buffer, sleeps while output is stopped (^S, TCOOFF), then passes the
 * chunk through n_tty_write, interrupts disabled per chunk so an echo
 * never lands inside another write.  A source that faults ends the write
 * with the chunks before it.
 *
 * Controlling terminal and job control (Linux's rules).  A session leader
 * without a controlling tty acquires one by opening a tty (not
 * /dev/console, not with O_NOCTTY) that no session has, or by TIOCSCTTY;
 * the tty then records the session and, as foreground process group, the
 * leader's group.  Children inherit ->tty at fork.  A process of the
 * session that is not in the foreground group and reads gets SIGTTIN
 * sent to its group (-EIO if it ignores or blocks SIGTTIN, or if its group
 * is orphaned); likewise SIGTTOU for changing the terminal's modes, and
 * for writing when TOSTOP is set, unless SIGTTOU is ignored or blocked.
 * When the session leader exits, the foreground group gets SIGHUP and the
 * tty is free for a new session (disassociate_ctty).  The console is
 * never hung up: open descriptors keep working.
 */
#include <asm/cpu.h>
#include <asm/uaccess.h>
#include <drivers/console.h>
#include <drivers/psf.h>
#include <drivers/serial.h>
#include <drivers/tty.h>
#include <fs/devfs.h>
#include <fs/poll.h>
#include <fs/uio.h>
#include <mm/slab.h>
#include <pageturn/boot.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/ioctls.h>

#define TTY_MAJOR		4	/* tty0 (4:0), ttyS0 (4:64) */
#define TTYAUX_MAJOR		5	/* tty (5:0), console (5:1) */
#define DEV_TTY			MKDEV(TTYAUX_MAJOR, 0)
#define DEV_CONSOLE		MKDEV(TTYAUX_MAJOR, 1)

#define TTY_WRITE_CHUNK		128	/* bytes written per interrupts-off stretch */
#define TICKS_PER_VTIME		(HZ / 10)	/* VTIME counts tenths of a second */

#define SERIAL_COLS		80	/* the window without a screen console */
#define SERIAL_ROWS		24
#define VGA_BIOS_COLS		80	/* the BIOS text mode, when GRUB says nothing */
#define VGA_BIOS_ROWS		25

static struct tty_struct console_tty;

/* --- the console driver -------------------------------------------------- */

static void console_tty_write(struct tty_struct *tty, const unsigned char *buf, size_t count)
{
	(void)tty;
	console_write_all((const char *)buf, count);
}

static const struct tty_operations console_tty_ops = {
	.write = console_tty_write,
};

/*
 * The text grid of the screen console, if there is one: the one
 * vga_console_init or fbcon_init chose from the same boot information
 * (an EGA text mode GRUB describes, the BIOS's 80x25, or the
 * framebuffer divided into cells of the console font).  A serial-only
 * machine gets 80x24.
 */
static void tty_default_winsize(struct winsize *ws)
{
	const struct boot_framebuffer *fb = &boot_info.fb;
	struct psf_font font;

	ws->ws_col = SERIAL_COLS;
	ws->ws_row = SERIAL_ROWS;
	if (console_registered("vga")) {
		ws->ws_col = boot_info.has_framebuffer ? fb->width : VGA_BIOS_COLS;
		ws->ws_row = boot_info.has_framebuffer ? fb->height : VGA_BIOS_ROWS;
	} else if (console_registered("fbcon") &&
		   psf_load(console_font, (size_t)(console_font_end - console_font), &font) == 0) {
		ws->ws_col = fb->width / font.width;
		ws->ws_row = fb->height / font.height;
	}
}

/* --- sessions and job control ---------------------------------------------- */

/* Every task of session sid loses its controlling tty. */
static void session_clear_tty(int sid)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list_head, tasks)
		if (p->sid == sid)
			p->tty = NULL;
}

/* tty becomes current's controlling terminal, its group the foreground. */
static void proc_set_tty(struct tty_struct *tty)
{
	tty->session = current->sid;
	tty->pgrp = current->pgid;
	current->tty = tty;
}

/* The foreground group gets SIGHUP (and SIGCONT unless the leader is
 * exiting) and the session loses the tty (Linux's disassociate_ctty). */
static void tty_disassociate(bool on_exit)
{
	struct tty_struct *tty = current->tty;

	if (!tty)
		return;
	if (tty->pgrp) {
		kill_pgrp(tty->pgrp, SIGHUP);
		if (!on_exit)
			kill_pgrp(tty->pgrp, SIGCONT);
	}
	tty->session = 0;
	tty->pgrp = 0;
	session_clear_tty(current->sid);
}

void disassociate_ctty(void)
{
	tty_disassociate(true);
}

static bool is_ignored(int sig)
{
	return (current->blocked & sigmask(sig)) ||
	       (current->sighand && current->sighand->action[sig - 1].sa.sa_handler == SIG_IGN);
}

/*
 * Is current's process group orphaned: does no member have a parent in
 * another group of the same session (init does not count)?  Nobody is
 * left to continue such a group if the terminal stops it.
 */
static bool is_current_pgrp_orphaned(void)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list_head, tasks) {
		if (p->pgid != current->pgid || p->exit_state)
			continue;
		if (p->parent && p->parent->pid != INIT_PID && p->parent->pgid != p->pgid &&
		    p->parent->sid == p->sid)
			return false;
	}
	return true;
}

/*
 * May current read (sig SIGTTIN) or change (SIGTTOU) tty?  Yes (0) unless
 * it is current's controlling tty and current is in a background group;
 * then its group is sent sig and the call restarts after the stop
 * (-ERESTARTSYS), or -EIO for an orphaned group or an ignored SIGTTIN.
 * An ignored or blocked SIGTTOU lets the change through (Linux's
 * __tty_check_change).
 */
static int tty_check_change(struct tty_struct *tty, int sig)
{
	if (current->tty != tty || !tty->pgrp || current->pgid == tty->pgrp)
		return 0;
	if (is_ignored(sig))
		return sig == SIGTTIN ? -EIO : 0;
	if (is_current_pgrp_orphaned())
		return -EIO;
	kill_pgrp(current->pgid, sig);
	return -ERESTARTSYS;
}

/* --- file operations -------------------------------------------------------- */

static int tty_open(struct inode *inode, struct file *file)
{
	struct tty_struct *tty;
	bool noctty;

	stream_open(inode, file);	/* no seeking; one read per read(2) */
	if (inode->i_rdev == DEV_TTY) {
		if (!current->tty)
			return -ENXIO;
		file->private_data = current->tty;
		return 0;
	}
	tty = file->private_data;
	noctty = (file->f_flags & O_NOCTTY) || inode->i_rdev == DEV_CONSOLE;
	if (!noctty && current->sid == current->pid && !current->tty && !tty->session &&
	    (file->f_mode & FMODE_READ))
		proc_set_tty(tty);
	return 0;
}

static long tty_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct tty_struct *tty = file->private_data;
	long timeout = MAX_SCHEDULE_TIMEOUT, time = 0, ret = 0;
	size_t nr = MIN(iov_iter_count(to), N_TTY_BUF_SIZE), copied = 0, minimum = 0;
	unsigned char *kbuf;
	uint64_t flags;
	DEFINE_WAIT(wait);

	ret = tty_check_change(tty, SIGTTIN);
	if (ret)
		return ret;
	/* The bytes taken cannot be put back: the destination must be
	 * there before they are. */
	nr -= fault_in_iov_iter_writeable(to, nr);
	if (!nr)
		return -EFAULT;
	kbuf = kmalloc(nr, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;

	flags = local_irq_save();
	if (!tty->ldata.icanon) {
		minimum = MIN_CHAR(tty);
		if (minimum) {
			time = TIME_CHAR(tty) * TICKS_PER_VTIME;
		} else {
			timeout = TIME_CHAR(tty) * TICKS_PER_VTIME;
			minimum = 1;
		}
	}
	for (;;) {
		prepare_to_wait(&tty->read_wait, &wait, TASK_INTERRUPTIBLE);
		if (n_tty_input_available(tty, false)) {
			copied += n_tty_copy_from_read_buf(tty, kbuf + copied, nr - copied);
			if (tty->ldata.icanon || copied >= minimum || copied == nr)
				break;
			if (time)
				timeout = time;
			continue;
		}
		if (!timeout)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (timeout == MAX_SCHEDULE_TIMEOUT)
			schedule();
		else
			timeout = schedule_timeout_interruptible(timeout);
	}
	finish_wait(&tty->read_wait, &wait);
	local_irq_restore(flags);

	if (copied) {
		/* Faulted in above, and a process's mappings change only
		 * through its own system calls: this copy does not fail. */
		ret = (long)copy_to_iter(kbuf, copied, to);
	}
	kfree(kbuf);
	return ret;
}

static long tty_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct tty_struct *tty = file->private_data;
	unsigned char kbuf[TTY_WRITE_CHUNK];
	size_t written = 0, n;
	uint64_t flags;
	long ret = 0;

	if (L_TOSTOP(tty)) {
		ret = tty_check_change(tty, SIGTTOU);
		if (ret)
			return ret;
	}
	while (iov_iter_count(from)) {
		n = copy_from_iter(kbuf, MIN(iov_iter_count(from), sizeof(kbuf)), from);
		if (!n) {
			ret = -EFAULT;
			break;
		}
		if (tty->stopped && (file->f_flags & O_NONBLOCK)) {
			ret = -EAGAIN;
			break;
		}
		ret = wait_event_interruptible(tty->write_wait, !tty->stopped);
		if (ret)
			break;
		flags = local_irq_save();
		n_tty_write(tty, kbuf, n);
		local_irq_restore(flags);
		written += n;
		cond_resched();
	}
	return written ? (long)written : ret;
}

static unsigned int tty_poll(struct file *file, struct poll_table_struct *wait)
{
	struct tty_struct *tty = file->private_data;
	unsigned int mask = 0;
	uint64_t flags;

	poll_wait(file, &tty->read_wait, wait);
	poll_wait(file, &tty->write_wait, wait);
	flags = local_irq_save();
	if (n_tty_input_available(tty, true))
		mask |= POLLIN | POLLRDNORM;
	if (!tty->stopped)
		mask |= POLLOUT | POLLWRNORM;
	local_irq_restore(flags);
	return mask;
}

/* --- ioctls ------------------------------------------------------------------- */

/* TCSETS, TCSETSW, TCSETSF: output is written synchronously, so there
 * is never anything to drain; TCSETSF also drops the input. */
static int tty_set_termios(struct tty_struct *tty, unsigned int cmd, const void __user *arg)
{
	struct termios tmp, old;
	uint64_t flags;
	int ret;

	ret = tty_check_change(tty, SIGTTOU);
	if (ret)
		return ret;
	if (copy_from_user(&tmp, arg, sizeof(tmp)))
		return -EFAULT;
	tmp.c_line = N_TTY;	/* the only line discipline */
	flags = local_irq_save();
	if (cmd == TCSETSF)
		n_tty_flush_buffer(tty);
	old = tty->termios;
	tty->termios = tmp;
	n_tty_set_termios(tty, &old);
	local_irq_restore(flags);
	return 0;
}

/* TIOCSWINSZ: a new size is announced to the foreground group. */
static int tiocswinsz(struct tty_struct *tty, const void __user *arg)
{
	struct winsize ws;

	if (copy_from_user(&ws, arg, sizeof(ws)))
		return -EFAULT;
	if (ws.ws_row == tty->winsize.ws_row && ws.ws_col == tty->winsize.ws_col &&
	    ws.ws_xpixel == tty->winsize.ws_xpixel && ws.ws_ypixel == tty->winsize.ws_ypixel)
		return 0;
	if (tty->pgrp)
		kill_pgrp(tty->pgrp, SIGWINCH);
	tty->winsize = ws;
	return 0;
}

/*
 * TIOCSPGRP: make pgrp, a group of current's session, the foreground
 * group of current's controlling tty.  -ENOTTY when tty is not that,
 * -ESRCH for no such group, -EPERM for a group of another session.
 */
static int tiocspgrp(struct tty_struct *tty, int __user *arg)
{
	int pgrp, ret;

	ret = tty_check_change(tty, SIGTTOU);
	if (ret == -EIO)
		return -ENOTTY;
	if (ret)
		return ret;
	if (get_user(pgrp, arg))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	if (current->tty != tty || tty->session != current->sid)
		return -ENOTTY;
	if (!pgrp_in_session(pgrp, current->sid))
		return find_task_by_pid(pgrp) ? -EPERM : -ESRCH;
	tty->pgrp = pgrp;
	return 0;
}

/*
 * TIOCSCTTY: make tty the controlling terminal of current, a session
 * leader without one.  A tty another session holds is taken from it
 * only when arg is 1 (Linux lets root steal; everyone is root here).
 */
static int tiocsctty(struct tty_struct *tty, struct file *file, unsigned long arg)
{
	if (current->sid == current->pid && tty->session == current->sid)
		return 0;
	if (current->sid != current->pid || current->tty)
		return -EPERM;
	if (tty->session) {
		if (arg != 1)
			return -EPERM;
		session_clear_tty(tty->session);
	}
	if (!(file->f_mode & FMODE_READ))
		return -EPERM;
	proc_set_tty(tty);
	return 0;
}

/* TIOCNOTTY: current gives up its controlling tty; a session leader
 * takes the whole session off it (with SIGHUP and SIGCONT). */
static int tiocnotty(struct tty_struct *tty)
{
	if (current->tty != tty)
		return -ENOTTY;
	if (current->sid == current->pid)
		tty_disassociate(false);
	current->tty = NULL;
	return 0;
}

/* TCFLSH: the input queue can be flushed; output has no queue. */
static int tty_flush(struct tty_struct *tty, unsigned long arg)
{
	uint64_t flags;
	int ret;

	ret = tty_check_change(tty, SIGTTOU);
	if (ret)
		return ret;
	switch (arg) {
	case TCIFLUSH:
	case TCIOFLUSH:
		flags = local_irq_save();
		n_tty_flush_buffer(tty);
		local_irq_restore(flags);
		return 0;
	case TCOFLUSH:
		return 0;
	default:
		return -EINVAL;
	}
}

/* TCXONC: stop or restart output; send the STOP or START char. */
static int tty_xonc(struct tty_struct *tty, unsigned long arg)
{
	uint64_t flags;
	unsigned char c;
	int ret;

	ret = tty_check_change(tty, SIGTTOU);
	if (ret)
		return ret;
	flags = local_irq_save();
	switch (arg) {
	case TCOOFF:
		if (!tty->flow_stopped) {
			tty->flow_stopped = true;
			stop_tty(tty);
		}
		break;
	case TCOON:
		if (tty->flow_stopped) {
			tty->flow_stopped = false;
			start_tty(tty);
		}
		break;
	case TCIOFF:
	case TCION:
		c = arg == TCIOFF ? STOP_CHAR(tty) : START_CHAR(tty);
		if (c != __DISABLED_CHAR)
			tty->ops->write(tty, &c, 1);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	local_irq_restore(flags);
	return ret;
}

/* The requests docs/tty.md lists; -ENOTTY for any other. */
static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tty_struct *tty = file->private_data;
	void __user *p = (void __user *)arg;
	uint64_t flags;
	int n;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &tty->termios, sizeof(tty->termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return tty_set_termios(tty, cmd, p);
	case TIOCGWINSZ:
		return copy_to_user(p, &tty->winsize, sizeof(tty->winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		return tiocswinsz(tty, p);
	case TIOCGPGRP:
		if (current->tty != tty)
			return -ENOTTY;
		return put_user(tty->pgrp, (int __user *)p);
	case TIOCSPGRP:
		return tiocspgrp(tty, p);
	case TIOCGSID:
		if (current->tty != tty || !tty->session)
			return -ENOTTY;
		return put_user(tty->session, (int __user *)p);
	case TIOCSCTTY:
		return tiocsctty(tty, file, arg);
	case TIOCNOTTY:
		return tiocnotty(tty);
	case FIONREAD:
		flags = local_irq_save();
		n = (int)n_tty_inq(tty);
		local_irq_restore(flags);
		return put_user(n, (int __user *)p);
	case TIOCOUTQ:
		return put_user(0, (int __user *)p);
	case TIOCGETD:
		return put_user(N_TTY, (int __user *)p);
	case TCFLSH:
		return tty_flush(tty, arg);
	case TCXONC:
		return tty_xonc(tty, arg);
	case TCSBRK:
	case TCSBRKP:
		return 0;	/* tcdrain: already drained; a break means nothing here */
	default:
		return -ENOTTY;
	}
}

static const struct file_operations tty_fops = {
	.open = tty_open,
	.read_iter = tty_read_iter,
	.write_iter = tty_write_iter,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
};

/* --- boot ------------------------------------------------------------------------ */

/* There is one terminal; ps and /proc name it by its serial node, the
 * console a test or a USB-booted PC's user reaches it through first. */
uint32_t tty_devnum(const struct tty_struct *tty)
{
	(void)tty;
	return MKDEV(TTY_MAJOR, 64);
}

static const struct {
	const char *name;
	umode_t mode;
	uint32_t rdev;
} tty_nodes[] = {
	{ "tty",	S_IFCHR | 0666, DEV_TTY },
	{ "console",	S_IFCHR | 0600, DEV_CONSOLE },
	{ "tty0",	S_IFCHR | 0620, MKDEV(TTY_MAJOR, 0) },
	{ "ttyS0",	S_IFCHR | 0660, MKDEV(TTY_MAJOR, 64) },
};

void tty_init(void)
{
	struct tty_struct *tty = &console_tty;
	uint64_t flags;
	unsigned int i;
	int err;

	tty->ops = &console_tty_ops;
	tty->termios = tty_std_termios;
	tty_default_winsize(&tty->winsize);
	init_waitqueue_head(&tty->read_wait);
	init_waitqueue_head(&tty->write_wait);
	flags = local_irq_save();
	n_tty_open(tty);
	local_irq_restore(flags);

	for (i = 0; i < ARRAY_SIZE(tty_nodes); i++) {
		err = devfs_register(tty_nodes[i].name, tty_nodes[i].mode, tty_nodes[i].rdev,
				     &tty_fops, tty);
		if (err)
			printk(KERN_ERR "tty: cannot register /dev/%s: error %d\n",
			       tty_nodes[i].name, err);
	}

	err = serial_start_rx(tty);
	if (err)
		printk(KERN_WARNING "tty: no input from ttyS0: error %d\n", err);
	err = i8042_init(tty);
	if (err == -ENODEV)
		printk(KERN_INFO "i8042: no keyboard controller\n");
	else if (err)
		printk(KERN_WARNING "i8042: keyboard controller not usable: error %d\n", err);
	printk(KERN_INFO "tty: /dev/console, tty0, ttyS0: one terminal, %ux%u\n",
	       tty->winsize.ws_col, tty->winsize.ws_row);
}
