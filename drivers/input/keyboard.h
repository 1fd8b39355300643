/*
 * Scan code set 1 to terminal bytes (drivers/input/keyboard.c), for the
 * i8042 driver; pure, and unit-tested on the host.
 */
#ifndef DRIVERS_INPUT_KEYBOARD_H
#define DRIVERS_INPUT_KEYBOARD_H

#include <pageturn/types.h>

#define KBD_MAX_BYTES	8	/* the most bytes one key press produces */

/* What earlier scan codes left behind: the modifiers held, the locks,
 * and a prefix waiting for its key.  Starts zeroed (all up, locks off). */
struct kbd_state {
	bool shift_l, shift_r;
	bool ctrl_l, ctrl_r;
	bool alt_l, alt_r;
	bool caps_lock, num_lock;
	bool caps_down, num_down;	/* held: typematic repeats do not toggle */
	bool e0;			/* the last byte was the 0xE0 prefix */
	unsigned int e1_skip;		/* bytes of a Pause sequence still to come */
};

/*
 * Feed one byte from the keyboard (scan code set 1).  Writes the bytes
 * the key produces, at most KBD_MAX_BYTES, to buf and returns how many:
 * 0 for a release, a modifier, a prefix or a key that makes no input.
 * See keyboard.c for the map (Linux console conventions).
 */
size_t kbd_translate_scancode(struct kbd_state *kbd, uint8_t scancode, unsigned char *buf);

#endif
