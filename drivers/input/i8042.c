/*
 * The i8042 keyboard controller (Linux's drivers/input/serio/i8042.c,
 * much reduced): the PS/2 keyboard of PCs, or the emulation of one that
 * firmware provides for a USB keyboard, and QEMU's.
 *
 * The controller has a data port and a status/command port.  A byte from
 * the keyboard waits in the output buffer (status OBF) until the data port
 * is read; a byte from the auxiliary (mouse) port is flagged AUXDATA.  The
 * host writes a command to the command port once the input buffer is
 * empty (IBF clear); commands that answer put the answer in the output
 * buffer.  The controller configuration byte (CTR) says which ports
 * interrupt, whether they are enabled, and whether the controller
 * translates the keyboard's scan code set 2 into set 1.
 *
 * Probing (Linux's i8042_controller_check): with no controller the
 * status port reads 0xff, so OBF never clears; flushing more than a
 * buffer's worth of bytes means there is none.  Then the CTR is read
 * and rewritten: keyboard interrupt and translation on, keyboard port
 * enabled, the mouse port disabled with its interrupt off (no mouse
 * driver; a stray mouse byte is read and dropped).  The keyboard itself
 * is left as the firmware set it up.
 *
 * State: the tty the keys go to and the scan code decoder's state
 * (keyboard.c), touched only by the interrupt handler after init.
 */
#include <asm/io.h>
#include <drivers/tty.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <pageturn/time.h>
#include <uapi/errno.h>

#include "keyboard.h"

#define I8042_DATA_REG		0x60
#define I8042_STATUS_REG	0x64
#define I8042_COMMAND_REG	0x64

#define I8042_STR_OBF		0x01	/* output buffer full: a byte to read */
#define I8042_STR_IBF		0x02	/* input buffer full: busy */
#define I8042_STR_AUXDATA	0x20	/* the byte is from the mouse port */

#define I8042_CMD_CTL_RCTR	0x20	/* read the CTR */
#define I8042_CMD_CTL_WCTR	0x60	/* write the CTR (byte follows on data) */

#define I8042_CTR_KBDINT	0x01
#define I8042_CTR_AUXINT	0x02
#define I8042_CTR_KBDDIS	0x10
#define I8042_CTR_AUXDIS	0x20
#define I8042_CTR_XLATE		0x40

#define I8042_KBD_IRQ		1
#define I8042_BUFFER_SIZE	16	/* bytes the controller can hold */
#define I8042_POLL_US		50	/* between status polls */
#define I8042_CTL_TIMEOUT	10000	/* polls: half a second */

static struct tty_struct *kbd_tty;
static struct kbd_state kbd;

static uint8_t i8042_read_status(void)
{
	return inb(I8042_STATUS_REG);
}

static uint8_t i8042_read_data(void)
{
	return inb(I8042_DATA_REG);
}

/* Wait until the controller takes a byte: 0, or -EIO on a timeout. */
static int i8042_wait_write(void)
{
	unsigned int i;

	for (i = 0; i < I8042_CTL_TIMEOUT; i++) {
		if (!(i8042_read_status() & I8042_STR_IBF))
			return 0;
		udelay(I8042_POLL_US);
	}
	return -EIO;
}

/* Wait until a byte is there to read: 0, or -EIO on a timeout. */
static int i8042_wait_read(void)
{
	unsigned int i;

	for (i = 0; i < I8042_CTL_TIMEOUT; i++) {
		if (i8042_read_status() & I8042_STR_OBF)
			return 0;
		udelay(I8042_POLL_US);
	}
	return -EIO;
}

/* Empty the output buffer: 0, or -ENODEV when it never empties (the
 * status port of a missing controller reads 0xff). */
static int i8042_flush(void)
{
	unsigned int count = 0;

	while (i8042_read_status() & I8042_STR_OBF) {
		if (count++ == I8042_BUFFER_SIZE)
			return -ENODEV;
		udelay(I8042_POLL_US);
		i8042_read_data();
	}
	return 0;
}

static int i8042_read_ctr(uint8_t *ctr)
{
	int err = i8042_wait_write();

	if (err)
		return err;
	outb(I8042_COMMAND_REG, I8042_CMD_CTL_RCTR);
	err = i8042_wait_read();
	if (err)
		return err;
	*ctr = i8042_read_data();
	return 0;
}

static int i8042_write_ctr(uint8_t ctr)
{
	int err = i8042_wait_write();

	if (err)
		return err;
	outb(I8042_COMMAND_REG, I8042_CMD_CTL_WCTR);
	err = i8042_wait_write();
	if (err)
		return err;
	outb(I8042_DATA_REG, ctr);
	return 0;
}

/* IRQ 1: every byte waiting, the keyboard's through the keymap into the
 * tty, the mouse port's dropped. */
static void i8042_interrupt(unsigned int irq, struct pt_regs *regs)
{
	unsigned char buf[KBD_MAX_BYTES];
	uint8_t status, data;
	size_t n;

	(void)irq;
	(void)regs;
	while ((status = i8042_read_status()) & I8042_STR_OBF) {
		data = i8042_read_data();
		if (status & I8042_STR_AUXDATA)
			continue;
		n = kbd_translate_scancode(&kbd, data, buf);
		if (n)
			n_tty_receive_buf(kbd_tty, buf, n);
	}
}

int i8042_init(struct tty_struct *tty)
{
	uint8_t ctr;
	int err;

	err = i8042_flush();
	if (err)
		return err;
	err = i8042_read_ctr(&ctr);
	if (err)
		return err;
	ctr |= I8042_CTR_KBDINT | I8042_CTR_XLATE | I8042_CTR_AUXDIS;
	ctr &= ~(I8042_CTR_KBDDIS | I8042_CTR_AUXINT);
	err = i8042_write_ctr(ctr);
	if (err)
		return err;

	kbd_tty = tty;
	err = request_irq(I8042_KBD_IRQ, i8042_interrupt, "i8042");
	if (err)
		return err;
	printk(KERN_INFO "i8042: PS/2 keyboard on IRQ %d\n", I8042_KBD_IRQ);
	return 0;
}
