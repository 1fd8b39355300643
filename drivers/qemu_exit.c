/* Leaving QEMU through its isa-debug-exit device (see drivers/qemu_exit.h). */
#include <asm/cpu.h>
#include <asm/io.h>
#include <drivers/qemu_exit.h>

__noreturn void qemu_exit(uint8_t code)
{
	outl(QEMU_EXIT_PORT, code);
	/* Not under QEMU (or the device is absent): stop here. */
	halt_forever();
}
