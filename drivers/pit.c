/*
 * PIT: channel 0 drives the periodic tick on IRQ 0; channel 2, whose gate
 * and output are wired to port 0x61, times a fixed interval for TSC
 * calibration (the same method Linux's pit_calibrate_tsc uses).
 */
#include <asm/cpu.h>
#include <asm/io.h>
#include <drivers/pit.h>

#define PIT_CH0       0x40
#define PIT_CH2       0x42
#define PIT_CMD       0x43
#define PIT_MAX_COUNT 0xffff	/* 16-bit counter: about 54 ms */
#define PORT_B        0x61	/* bit 0: channel 2 gate, bit 1: speaker, bit 5: channel 2 out */

#define PIT_SEL_CH0   0x00
#define PIT_SEL_CH2   0x80
#define PIT_LOHI      0x30
#define PIT_MODE0     0x00	/* interrupt on terminal count */
#define PIT_MODE2     0x04	/* rate generator */
#define PORTB_GATE2   0x01
#define PORTB_SPEAKER 0x02
#define PORTB_OUT2    0x20

void pit_start_periodic(unsigned int hz)
{
	unsigned int divisor = (PIT_TICK_RATE + hz / 2) / hz;

	outb(PIT_CMD, PIT_SEL_CH0 | PIT_LOHI | PIT_MODE2);
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
}

uint64_t pit_measure_tsc(unsigned int ms)
{
	unsigned int latch = PIT_TICK_RATE * ms / 1000;
	uint64_t t0, t1, spins = 0;

	if (ms == 0 || latch > PIT_MAX_COUNT)
		return 0;

	/* Gate high, speaker off; channel 2 counts down once from latch. */
	outb(PORT_B, (inb(PORT_B) & ~PORTB_SPEAKER) | PORTB_GATE2);
	outb(PIT_CMD, PIT_SEL_CH2 | PIT_LOHI | PIT_MODE0);
	outb(PIT_CH2, latch & 0xff);
	outb(PIT_CH2, latch >> 8);

	t0 = rdtsc();
	while (!(inb(PORT_B) & PORTB_OUT2)) {
		if (++spins > 100000000ull)
			return 0;
	}
	t1 = rdtsc();
	return t1 - t0;
}
