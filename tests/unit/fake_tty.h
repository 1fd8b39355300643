/*
 * fake_tty: what drivers/tty/n_tty.c calls outside itself, for the host
 * unit tests (tests/unit/fake_tty.c).
 *
 * kill_pgrp() records each call (group and signal) instead of signalling;
 * wake_up() counts the wakeups of each of the tty's two queues.  A tty
 * made by fake_tty_init() has Linux's default termios and a driver whose
 * write appends to fake_output (a NUL-terminated string of everything
 * written since the last fake_tty_reset_output()).
 */
#ifndef TESTS_UNIT_FAKE_TTY_H
#define TESTS_UNIT_FAKE_TTY_H

#include <drivers/tty.h>

#define FAKE_MAX_KILLS	16

struct fake_kill {
	int pgrp;
	int sig;
};

extern struct fake_kill fake_kills[FAKE_MAX_KILLS];
extern unsigned int fake_nr_kills;
extern unsigned int fake_read_wakeups, fake_write_wakeups;
extern char fake_output[1 << 16];
extern size_t fake_output_len;

/* A fresh tty (tty_std_termios, n_tty_open) with pgrp as its foreground
 * group; the records above are cleared. */
void fake_tty_init(struct tty_struct *tty, int pgrp);
void fake_tty_reset_output(void);

#endif
