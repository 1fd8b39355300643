/*
 * COM1, a 16550 UART at I/O port 0x3f8, set to 115200 baud 8N1 with FIFOs.
 * It is the console that is always there: printk writes every message to
 * it, and under QEMU it is the log the tests read.
 *
 * Output is polled (wait for the transmit holding register to empty).  A
 * serial terminal needs "\r\n" to start a new line; printk writes bare
 * '\n', and the console tty writes "\r\n" already (ONLCR), so the console
 * puts a '\r' before every '\n' that does not follow one.
 *
 * Input: polled with serial_getc_nowait() until serial_start_rx() hands
 * the port to a tty; from then on the receive interrupt (IRQ 4, the
 * FIFO's trigger level of one byte) delivers every byte waiting to the
 * line discipline, and polling would race with it.
 */
#include <asm/io.h>
#include <drivers/serial.h>
#include <drivers/tty.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <uapi/errno.h>

#define COM1            0x3f8
#define COM1_IRQ        4
#define UART_BAUD       115200
#define UART_CLOCK      115200	/* divisor = UART_CLOCK / baud */

/* Register offsets from the base port. */
#define UART_RX         0	/* receive buffer (read, DLAB=0) */
#define UART_TX         0	/* transmit holding (write, DLAB=0) */
#define UART_DLL        0	/* divisor latch low (DLAB=1) */
#define UART_IER        1	/* interrupt enable (DLAB=0) */
#define UART_DLM        1	/* divisor latch high (DLAB=1) */
#define UART_FCR        2	/* FIFO control */
#define UART_LCR        3	/* line control */
#define UART_MCR        4	/* modem control */
#define UART_LSR        5	/* line status */

#define UART_LCR_8N1    0x03
#define UART_LCR_DLAB   0x80
#define UART_FCR_ENABLE_CLEAR 0x07	/* enable FIFOs, clear RX and TX */
#define UART_MCR_DTR_RTS_OUT2 0x0b
#define UART_IER_RDI    0x01	/* interrupt when received data is available */
#define UART_LSR_DR     0x01	/* data ready */
#define UART_LSR_THRE   0x20	/* transmit holding register empty */
#define UART_LSR_ABSENT 0xff	/* what the floating bus reads without a UART */
#define UART_FIFO_SIZE  16

static struct tty_struct *serial_tty;	/* where received bytes go, once started */
static bool serial_last_cr;		/* the last byte sent was '\r' */

static void uart_write_reg(unsigned int reg, uint8_t v) { outb(COM1 + reg, v); }
static uint8_t uart_read_reg(unsigned int reg) { return inb(COM1 + reg); }

static void serial_putc(char c)
{
	while (!(uart_read_reg(UART_LSR) & UART_LSR_THRE))
		;
	uart_write_reg(UART_TX, (uint8_t)c);
}

static void serial_console_write(struct console *con, const char *s, size_t len)
{
	(void)con;
	while (len--) {
		if (*s == '\n' && !serial_last_cr)
			serial_putc('\r');
		serial_last_cr = *s == '\r';
		serial_putc(*s++);
	}
}

static struct console serial_console = {
	.name = "ttyS0",
	.write = serial_console_write,
};

int serial_getc_nowait(void)
{
	if (!(uart_read_reg(UART_LSR) & UART_LSR_DR))
		return -1;
	return uart_read_reg(UART_RX);
}

/* IRQ 4: hand every byte the FIFO holds to the tty, so the line goes
 * quiet and the next byte raises a new edge. */
static void serial_interrupt(unsigned int irq, struct pt_regs *regs)
{
	unsigned char buf[UART_FIFO_SIZE];
	size_t n = 0;

	(void)irq;
	(void)regs;
	while (uart_read_reg(UART_LSR) & UART_LSR_DR) {
		buf[n++] = uart_read_reg(UART_RX);
		if (n == sizeof(buf)) {
			n_tty_receive_buf(serial_tty, buf, n);
			n = 0;
		}
	}
	if (n)
		n_tty_receive_buf(serial_tty, buf, n);
}

int serial_start_rx(struct tty_struct *tty)
{
	int err;

	if (uart_read_reg(UART_LSR) == UART_LSR_ABSENT)
		return -ENODEV;
	serial_tty = tty;
	err = request_irq(COM1_IRQ, serial_interrupt, "ttyS0");
	if (err)
		return err;
	uart_write_reg(UART_IER, UART_IER_RDI);
	return 0;
}

void serial_init(void)
{
	unsigned int divisor = UART_CLOCK / UART_BAUD;

	uart_write_reg(UART_IER, 0);
	uart_write_reg(UART_LCR, UART_LCR_DLAB);
	uart_write_reg(UART_DLL, divisor & 0xff);
	uart_write_reg(UART_DLM, divisor >> 8);
	uart_write_reg(UART_LCR, UART_LCR_8N1);
	uart_write_reg(UART_FCR, UART_FCR_ENABLE_CLEAR);
	uart_write_reg(UART_MCR, UART_MCR_DTR_RTS_OUT2);
	register_console(&serial_console);
}
