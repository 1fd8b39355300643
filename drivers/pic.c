/*
 * 8259A PIC pair.  The BIOS leaves IRQ 0-7 on vectors 8-15, where they
 * collide with CPU exceptions; pic_init() reprograms both chips so IRQ n
 * arrives on vector base + n.  Lines stay masked until a driver asks
 * (request_irq), and every handled IRQ is acknowledged with an EOI.
 */
#include <asm/io.h>
#include <drivers/pic.h>

#define PIC1_CMD   0x20
#define PIC1_DATA  0x21
#define PIC2_CMD   0xa0
#define PIC2_DATA  0xa1

#define ICW1_INIT  0x10
#define ICW1_ICW4  0x01
#define ICW4_8086  0x01
#define OCW2_EOI   0x20
#define OCW3_READ_ISR 0x0b
#define PIC_CASCADE_IRQ 2

static uint16_t irq_mask = 0xffff;	/* bit n set: IRQ n masked */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

void pic_init(unsigned int vector_base)
{
	outb(PIC1_CMD, ICW1_INIT | ICW1_ICW4);
	io_wait();
	outb(PIC2_CMD, ICW1_INIT | ICW1_ICW4);
	io_wait();
	outb(PIC1_DATA, vector_base);		/* ICW2: vector offsets */
	io_wait();
	outb(PIC2_DATA, vector_base + 8);
	io_wait();
	outb(PIC1_DATA, 1 << PIC_CASCADE_IRQ);	/* ICW3: slave on IRQ 2 */
	io_wait();
	outb(PIC2_DATA, PIC_CASCADE_IRQ);
	io_wait();
	outb(PIC1_DATA, ICW4_8086);
	io_wait();
	outb(PIC2_DATA, ICW4_8086);
	io_wait();
	irq_mask = 0xffff & ~(1u << PIC_CASCADE_IRQ);
	pic_write_mask();
}

void pic_unmask(unsigned int irq)
{
	irq_mask &= ~(1u << irq);
	pic_write_mask();
}

void pic_mask(unsigned int irq)
{
	irq_mask |= 1u << irq;
	pic_write_mask();
}

void pic_eoi(unsigned int irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

static uint8_t pic_read_isr(uint16_t cmd_port)
{
	outb(cmd_port, OCW3_READ_ISR);
	return inb(cmd_port);
}

bool pic_is_spurious(unsigned int irq)
{
	if (irq == 7)
		return !(pic_read_isr(PIC1_CMD) & 0x80);
	if (irq == 15 && !(pic_read_isr(PIC2_CMD) & 0x80)) {
		outb(PIC1_CMD, OCW2_EOI);	/* the master did see the cascade */
		return true;
	}
	return false;
}
