/* The two cascaded 8259A interrupt controllers of the PC. */
#ifndef DRIVERS_PIC_H
#define DRIVERS_PIC_H

#include <pageturn/types.h>

/* Remap IRQ 0-15 to vectors base..base+15, all lines masked. */
void pic_init(unsigned int vector_base);
void pic_unmask(unsigned int irq);
void pic_mask(unsigned int irq);
void pic_eoi(unsigned int irq);
/* True when an IRQ 7 or 15 is spurious (not in the in-service register);
 * a spurious IRQ 15 still needs an EOI to the master, done here. */
bool pic_is_spurious(unsigned int irq);

#endif
