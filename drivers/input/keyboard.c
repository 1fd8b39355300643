/*
 * The keyboard map: scan code set 1 (what the i8042 hands over with its
 * translation on) to the bytes a terminal expects, after the Linux
 * console's default US keymap (TERM=linux).
 *
 * A key press is its make code, a release the same code with bit 7 set;
 * keys added after the original PC keyboard come after a 0xE0 prefix
 * (the right Ctrl and Alt, the cursor and editing keys, keypad Enter and
 * '/').  Pause sends a 6-byte sequence starting with 0xE1 and no release,
 * which is skipped.  Holding a key repeats its make code.
 *
 * State (struct kbd_state): whether each Shift, Ctrl and Alt is held, the
 * Caps Lock and Num Lock toggles, and a pending prefix.  Only presses
 * produce bytes:
 *   - character keys: the plain or shifted character; Caps Lock inverts
 *     Shift for letters only; Ctrl makes the control byte (Ctrl+letter
 *     and Ctrl+@[\]^_ -> 0x00..0x1f, Ctrl+Space/2 -> NUL, Ctrl+6 -> ^^,
 *     Ctrl+- -> ^_, Ctrl+? -> DEL, Ctrl+Backspace -> BS); Alt puts an
 *     ESC in front (the console's "meta sends escape");
 *   - Enter is '\r' (ICRNL makes it '\n'), Backspace DEL (the VERASE
 *     default), Tab '\t', Esc 0x1b;
 *   - cursor keys ESC [ A/B/C/D; Home, Insert, Delete, End, PgUp, PgDn
 *     ESC [ 1~ .. 6~; F1-F5 ESC [ [ A..E, F6-F12 ESC [ 17~ .. 24~
 *     (the Linux console's sequences);
 *   - the keypad: digits and '.' with Num Lock on (off at start, as on
 *     Linux), the editing keys' sequences with it off (5 is ESC [ G);
 *     '*', '-', '+', '/' and Enter always type themselves.
 * The lock LEDs are not driven.
 */
#include <drivers/tty.h>
#include <pageturn/string.h>

#include "keyboard.h"

#define SC_RELEASE	0x80	/* bit 7: the key went up */
#define SC_E0		0xe0	/* prefix of the extended keys */
#define SC_E1		0xe1	/* prefix of Pause */
#define SC_PAUSE_LEN	6	/* E1 1D 45 E1 9D C5 */

#define SC_ENTER	0x1c	/* E0: keypad Enter */
#define SC_CTRL		0x1d	/* E0: right Ctrl */
#define SC_LSHIFT	0x2a
#define SC_SLASH	0x35	/* E0: keypad '/' */
#define SC_RSHIFT	0x36
#define SC_ALT		0x38	/* E0: right Alt */
#define SC_CAPSLOCK	0x3a
#define SC_F1		0x3b
#define SC_F10		0x44
#define SC_NUMLOCK	0x45
#define SC_KP_FIRST	0x47	/* keypad 7; E0: Home */
#define SC_KP_LAST	0x53	/* keypad '.'; E0: Delete */
#define SC_F11		0x57
#define SC_F12		0x58

#define ESC		0x1b
#define DEL		0x7f

/* Character keys, unshifted (0: not a character key). */
static const unsigned char plain_map[] = {
	[0x01] = ESC,
	[0x02] = '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', DEL, '\t',
	[0x10] = 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r',
	[0x1e] = 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	[0x2b] = '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/',
	[0x37] = '*',
	[0x39] = ' ',
};

/* With Shift, where it differs (0: as unshifted). */
static const unsigned char shift_map[ARRAY_SIZE(plain_map)] = {
	[0x02] = '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+',
	[0x10] = 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}',
	[0x1e] = 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	[0x2b] = '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?',
};

static const char *const fkey_seq[] = {
	"\033[[A", "\033[[B", "\033[[C", "\033[[D", "\033[[E",		/* F1-F5 */
	"\033[17~", "\033[18~", "\033[19~", "\033[20~", "\033[21~",	/* F6-F10 */
	"\033[23~", "\033[24~",						/* F11, F12 */
};

/* The keypad (SC_KP_FIRST..SC_KP_LAST) with Num Lock off; the E0 editing
 * keys share these codes. */
static const char *const keypad_seq[] = {
	"\033[1~", "\033[A", "\033[5~", "-",	/* 7 Home, 8 Up, 9 PgUp, - */
	"\033[D", "\033[G", "\033[C", "+",	/* 4 Left, 5, 6 Right, + */
	"\033[4~", "\033[B", "\033[6~",		/* 1 End, 2 Down, 3 PgDn */
	"\033[2~", "\033[3~",			/* 0 Insert, . Delete */
};

/* ...and with Num Lock on. */
static const char keypad_chars[] = "789-456+1230.";

_Static_assert(ARRAY_SIZE(keypad_seq) == SC_KP_LAST - SC_KP_FIRST + 1, "keypad_seq");
_Static_assert(sizeof(keypad_chars) - 1 == SC_KP_LAST - SC_KP_FIRST + 1, "keypad_chars");

static size_t put_seq(unsigned char *buf, const char *seq)
{
	size_t n = strlen(seq);

	memcpy(buf, seq, n);
	return n;
}

/* The byte Ctrl makes of character c (c itself when none). */
static unsigned char ctrl_char(unsigned char c)
{
	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	if ((c >= '@' && c <= '_') || c == '?')
		return CTRL_CHAR(c);
	switch (c) {
	case ' ':
	case '2':
		return CTRL_CHAR('@');
	case '6':
		return CTRL_CHAR('^');
	case '-':
		return CTRL_CHAR('_');
	case DEL:
		return '\b';
	default:
		return c;
	}
}

/* A lock key: toggle on a press that is not a repeat. */
static void toggle_lock(bool *lock, bool *down, bool release)
{
	if (!release && !*down)
		*lock = !*lock;
	*down = !release;
}

static size_t char_key(struct kbd_state *kbd, uint8_t code, unsigned char *buf)
{
	bool shift = kbd->shift_l || kbd->shift_r;
	unsigned char c = plain_map[code];
	size_t n = 0;

	if (c >= 'a' && c <= 'z') {
		if (shift != kbd->caps_lock)
			c = shift_map[code];
	} else if (shift && shift_map[code]) {
		c = shift_map[code];
	}
	if (kbd->ctrl_l || kbd->ctrl_r)
		c = ctrl_char(c);
	if (kbd->alt_l || kbd->alt_r)
		buf[n++] = ESC;
	buf[n++] = c;
	return n;
}

static size_t keypad_key(struct kbd_state *kbd, uint8_t code, unsigned char *buf)
{
	if (kbd->num_lock) {
		buf[0] = keypad_chars[code - SC_KP_FIRST];
		return 1;
	}
	return put_seq(buf, keypad_seq[code - SC_KP_FIRST]);
}

/* A key after the E0 prefix. */
static size_t e0_key(uint8_t code, unsigned char *buf)
{
	switch (code) {
	case SC_ENTER:
		buf[0] = '\r';
		return 1;
	case SC_SLASH:
		buf[0] = '/';
		return 1;
	}
	if (code >= SC_KP_FIRST && code <= SC_KP_LAST)
		return put_seq(buf, keypad_seq[code - SC_KP_FIRST]);
	return 0;
}

size_t kbd_translate_scancode(struct kbd_state *kbd, uint8_t scancode, unsigned char *buf)
{
	bool release = scancode & SC_RELEASE;
	uint8_t code = scancode & ~SC_RELEASE;
	bool e0 = kbd->e0;

	if (kbd->e1_skip) {
		kbd->e1_skip--;
		return 0;
	}
	if (scancode == SC_E0) {
		kbd->e0 = true;
		return 0;
	}
	if (scancode == SC_E1) {
		kbd->e1_skip = SC_PAUSE_LEN - 1;
		return 0;
	}
	kbd->e0 = false;

	switch (code) {
	case SC_LSHIFT:
		if (!e0)	/* E0 2A: a "fake shift" around the editing keys */
			kbd->shift_l = !release;
		return 0;
	case SC_RSHIFT:
		if (!e0)
			kbd->shift_r = !release;
		return 0;
	case SC_CTRL:
		*(e0 ? &kbd->ctrl_r : &kbd->ctrl_l) = !release;
		return 0;
	case SC_ALT:
		*(e0 ? &kbd->alt_r : &kbd->alt_l) = !release;
		return 0;
	case SC_CAPSLOCK:
		toggle_lock(&kbd->caps_lock, &kbd->caps_down, release);
		return 0;
	case SC_NUMLOCK:
		toggle_lock(&kbd->num_lock, &kbd->num_down, release);
		return 0;
	}
	if (release)
		return 0;
	if (e0)
		return e0_key(code, buf);
	if (code >= SC_F1 && code <= SC_F10)
		return put_seq(buf, fkey_seq[code - SC_F1]);
	if (code == SC_F11 || code == SC_F12)
		return put_seq(buf, fkey_seq[SC_F10 - SC_F1 + 1 + code - SC_F11]);
	if (code >= SC_KP_FIRST && code <= SC_KP_LAST)
		return keypad_key(kbd, code, buf);
	if (code < ARRAY_SIZE(plain_map) && plain_map[code])
		return char_key(kbd, code, buf);
	return 0;
}
