/*
 * Kernel time.
 *
 * jiffies counts timer interrupts (HZ per second) from PIT channel 0.
 * ktime_get_ns() reads the TSC: at boot, time_init() counts TSC cycles over
 * 50 ms timed by PIT channel 2, giving tsc_khz, and from it a
 * multiplier so that ns = (cycles * mult) >> 32 without any division on
 * the read path.  Before calibration, ktime_get_ns() returns 0.
 * Each tick also calls trace_tick() (the LRU sampler, trace_pipe's readers)
 * and scheduler_tick() (time slices, msleep wakeups).
 */
#include <asm/cpu.h>
#include <drivers/pic.h>
#include <drivers/pit.h>
#include <pageturn/irq.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/time.h>
#include <pageturn/trace.h>

#define CALIBRATE_MS 50
#define NS_SHIFT 32

volatile uint64_t jiffies;
uint64_t tsc_khz;
static uint64_t tsc_at_boot;
static uint64_t ns_mult;

static void timer_interrupt(unsigned int irq, struct pt_regs *regs)
{
	(void)irq;
	jiffies++;
	trace_tick();
	scheduler_tick(user_mode(regs));
}

uint64_t ktime_get_ns(void)
{
	if (!ns_mult)
		return 0;
	return (uint64_t)(((unsigned __int128)(rdtsc() - tsc_at_boot) * ns_mult) >> NS_SHIFT);
}

void udelay(uint64_t us)
{
	uint64_t end = rdtsc() + us * tsc_khz / 1000;

	while (rdtsc() < end)
		cpu_relax();
}

void mdelay(uint64_t ms)
{
	udelay(ms * 1000);
}

void time_init(void)
{
	uint64_t cycles;
	int err;

	tsc_at_boot = rdtsc();
	cycles = pit_measure_tsc(CALIBRATE_MS);
	if (!cycles)
		panic("time_init: PIT channel 2 never counted down; cannot calibrate the TSC");
	tsc_khz = cycles / CALIBRATE_MS;
	ns_mult = (1000000ull << NS_SHIFT) / tsc_khz;

	pit_start_periodic(HZ);
	err = request_irq(0, timer_interrupt, "timer");
	if (err)
		panic("time_init: cannot install the timer interrupt (%d)", err);
	printk(KERN_INFO "time: TSC %lu.%03lu MHz, calibrated against the PIT over %d ms; tick %d Hz\n",
	       tsc_khz / 1000, tsc_khz % 1000, CALIBRATE_MS, HZ);
}
