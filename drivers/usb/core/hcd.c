/*
 * What the host controller drivers share (Linux's drivers/usb/core/hcd.c
 * and hcd-pci.c, reduced): mapping a controller's registers from its PCI
 * function, claiming its INTx line, and waiting on a register.
 */
#include <asm/io.h>
#include <drivers/pci.h>
#include <drivers/usb.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <pageturn/time.h>

volatile uint8_t *usb_hcd_pci_map(struct pci_dev *pdev, const char *name)
{
	uint64_t bar = pci_resource_start(pdev, 0);
	volatile uint8_t *regs;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM) || !bar) {
		printk(KERN_WARNING "%s %02x:%02x.%u: no register BAR, skipped\n", name, pdev->bus,
		       PCI_SLOT(pdev->devfn), PCI_FUNC(pdev->devfn));
		return NULL;
	}
	regs = ioremap(bar, pci_resource_len(pdev, 0));
	if (!regs) {
		printk(KERN_ERR "%s: out of memory to map %#lx\n", name, (unsigned long)bar);
		return NULL;
	}
	pci_enable_device(pdev);
	return regs;
}

bool usb_hcd_request_irq(const struct usb_hcd *hcd, const struct pci_dev *pdev,
			 irq_handler_t handler, const char *name, uint16_t *lines)
{
	unsigned int irq = pdev->irq;
	int err;

	if (irq == PCI_IRQ_NONE) {
		printk(KERN_INFO "usb%u: %s: no interrupt line, completion polled\n", hcd->busnum,
		       name);
		return false;
	}
	if (!(*lines & (1u << irq))) {
		err = request_irq(irq, handler, name);
		if (err) {
			printk(KERN_INFO "usb%u: %s: IRQ %u is another driver's (error %d), completion polled\n",
			       hcd->busnum, name, irq, err);
			return false;
		}
		*lines |= 1u << irq;
	}
	return true;
}

bool usb_hcd_handshake(volatile uint8_t *reg, uint32_t mask, uint32_t want, unsigned int ms)
{
	uint64_t deadline = ktime_get_ns() + (uint64_t)ms * 1000000;

	while ((readl(reg) & mask) != want) {
		if (ktime_get_ns() > deadline)
			return false;
		__asm__ volatile("pause");
	}
	return true;
}
