/*
 * COM1, a 16550 UART at I/O port 0x3f8, set to 115200 baud 8N1 with FIFOs.
 * It is the console that is always there: printk writes every message to
 * it, and under QEMU it is the log the tests read.  Output is polled (wait
 * for the transmit holding register to empty); input is polled too.
 */
#include <asm/io.h>
#include <drivers/serial.h>
#include <pageturn/printk.h>

#define COM1            0x3f8
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
#define UART_LSR_DR     0x01	/* data ready */
#define UART_LSR_THRE   0x20	/* transmit holding register empty */

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
		if (*s == '\n')
			serial_putc('\r');
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
