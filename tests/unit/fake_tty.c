/* The n_tty unit tests' kill_pgrp, wake_up and tty driver: see fake_tty.h. */
#include <string.h>

#include <pageturn/signal.h>
#include <pageturn/wait.h>

#include "fake_tty.h"

struct fake_kill fake_kills[FAKE_MAX_KILLS];
unsigned int fake_nr_kills;
unsigned int fake_read_wakeups, fake_write_wakeups;
char fake_output[1 << 16];
size_t fake_output_len;

static struct tty_struct *fake_tty;

int kill_pgrp(int pgrp, int sig)
{
	if (fake_nr_kills < FAKE_MAX_KILLS)
		fake_kills[fake_nr_kills] = (struct fake_kill){ pgrp, sig };
	fake_nr_kills++;
	return 0;
}

void wake_up(wait_queue_head_t *wq)
{
	if (wq == &fake_tty->read_wait)
		fake_read_wakeups++;
	else if (wq == &fake_tty->write_wait)
		fake_write_wakeups++;
}

static void fake_write(struct tty_struct *tty, const unsigned char *buf, size_t count)
{
	(void)tty;
	if (count > sizeof(fake_output) - 1 - fake_output_len)
		count = sizeof(fake_output) - 1 - fake_output_len;
	memcpy(fake_output + fake_output_len, buf, count);
	fake_output_len += count;
	fake_output[fake_output_len] = '\0';
}

static const struct tty_operations fake_ops = {
	.write = fake_write,
};

void fake_tty_reset_output(void)
{
	fake_output_len = 0;
	fake_output[0] = '\0';
}

void fake_tty_init(struct tty_struct *tty, int pgrp)
{
	memset(tty, 0, sizeof(*tty));
	fake_tty = tty;
	tty->ops = &fake_ops;
	tty->termios = tty_std_termios;
	tty->pgrp = pgrp;
	init_waitqueue_head(&tty->read_wait);
	init_waitqueue_head(&tty->write_wait);
	n_tty_open(tty);
	fake_nr_kills = 0;
	fake_read_wakeups = fake_write_wakeups = 0;
	fake_tty_reset_output();
}
