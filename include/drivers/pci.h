/*
 * PCI: configuration space through the legacy ports 0xCF8/0xCFC
 * ("configuration mechanism #1"), and the list of functions found at boot
 * (Linux's names: struct pci_dev, pci_read_config_*, pci_get_device).
 *
 * pci_init() walks every bus, device and function once and fills a list
 * of struct pci_dev with what a driver needs: IDs, class, the decoded
 * BARs and the legacy interrupt line firmware routed (config 0x3c, an
 * IRQ of the 8259 PIC).  Drivers then find their hardware with
 * pci_get_device(), switch it on with pci_enable_device() (or map a
 * memory BAR and switch it on with pci_iomap()), claim its INTx line
 * with pci_request_irq(), and wait on its registers with
 * pci_mmio_poll(): what AHCI, xHCI and EHCI share.
 */
#ifndef DRIVERS_PCI_H
#define DRIVERS_PCI_H

#include <pageturn/list.h>
#include <pageturn/types.h>

/* The configuration mechanism #1 ports. */
#define PCI_CONFIG_ADDRESS	0xcf8
#define PCI_CONFIG_DATA		0xcfc
#define PCI_CONFIG_ENABLE	0x80000000u	/* bit 31 of CONFIG_ADDRESS */

/* Configuration-space registers (type 0 and the common part of type 1). */
#define PCI_VENDOR_ID		0x00	/* 16 bits; 0xffff: nothing there */
#define PCI_DEVICE_ID		0x02
#define PCI_COMMAND		0x04
#define  PCI_COMMAND_IO		0x0001	/* decode I/O BARs */
#define  PCI_COMMAND_MEMORY	0x0002	/* decode memory BARs */
#define  PCI_COMMAND_MASTER	0x0004	/* may start DMA */
#define  PCI_COMMAND_INTX_DISABLE 0x0400 /* no legacy INTx interrupts */
#define PCI_CLASS_REVISION	0x08	/* class << 8 | revision */
#define PCI_HEADER_TYPE		0x0e
#define  PCI_HEADER_TYPE_MASK	0x7f
#define  PCI_HEADER_TYPE_NORMAL	0
#define  PCI_HEADER_TYPE_BRIDGE	1
#define  PCI_HEADER_TYPE_CARDBUS 2
#define  PCI_HEADER_MULTIFUNC	0x80	/* function 0: functions 1-7 may exist */
#define PCI_BASE_ADDRESS_0	0x10
#define  PCI_BASE_ADDRESS_SPACE_IO	0x01
#define  PCI_BASE_ADDRESS_MEM_TYPE_MASK	0x06
#define  PCI_BASE_ADDRESS_MEM_TYPE_64	0x04
#define  PCI_BASE_ADDRESS_MEM_PREFETCH	0x08
#define  PCI_BASE_ADDRESS_MEM_MASK	(~0x0fu)
#define  PCI_BASE_ADDRESS_IO_MASK	(~0x03u)
#define PCI_INTERRUPT_LINE	0x3c	/* the PIC IRQ firmware routed INTx to */
#define PCI_INTERRUPT_PIN	0x3d	/* 0: none, 1-4: INTA#-INTD# */

#define PCI_MAX_BUS		256
#define PCI_MAX_SLOT		32
#define PCI_MAX_FUNC		8
#define PCI_STD_NUM_BARS	6	/* type 0; a bridge has 2, CardBus 1 */
#define PCI_IRQ_NONE		0xff	/* interrupt line "unknown / not connected" */
#define PCI_ANY_ID		0xffff

#define PCI_DEVFN(slot, func)	((((slot) & 0x1f) << 3) | ((func) & 0x07))
#define PCI_SLOT(devfn)		(((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn)		((devfn) & 0x07)

/* struct pci_resource.flags */
#define IORESOURCE_IO		0x1
#define IORESOURCE_MEM		0x2
#define IORESOURCE_PREFETCH	0x4
#define IORESOURCE_MEM_64	0x8

/* One decoded BAR: an empty one has size 0 and flags 0. */
struct pci_resource {
	uint64_t start;		/* bus address (I/O port or physical) */
	uint64_t size;		/* bytes */
	unsigned int flags;	/* IORESOURCE_* */
};

struct pci_dev {
	struct list_head list;		/* all functions, in bus order */
	uint8_t bus, devfn;
	uint16_t vendor, device;
	uint32_t class;			/* base << 16 | sub << 8 | prog-if */
	uint8_t revision;
	uint8_t hdr_type;		/* PCI_HEADER_TYPE_*, without the multifunction bit */
	uint8_t pin;			/* PCI_INTERRUPT_PIN */
	uint8_t irq;			/* PCI_INTERRUPT_LINE; PCI_IRQ_NONE when unusable */
	struct pci_resource resource[PCI_STD_NUM_BARS];
};

/* Configuration reads and writes of one function.  where is the register
 * offset, naturally aligned for its size.  Always return 0 (the Linux
 * signature; mechanism #1 cannot report an error: an absent function
 * reads as all ones). */
int pci_read_config_byte(const struct pci_dev *dev, int where, uint8_t *val);
int pci_read_config_word(const struct pci_dev *dev, int where, uint16_t *val);
int pci_read_config_dword(const struct pci_dev *dev, int where, uint32_t *val);
int pci_write_config_byte(const struct pci_dev *dev, int where, uint8_t val);
int pci_write_config_word(const struct pci_dev *dev, int where, uint16_t val);
int pci_write_config_dword(const struct pci_dev *dev, int where, uint32_t val);

/* Enumerate every bus once and print one line per function (later calls
 * do nothing).  Needs kmalloc. */
void pci_init(void);

/* The next function after from (NULL: the first) matching vendor and
 * device, either of which may be PCI_ANY_ID; NULL when there is none. */
struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device, struct pci_dev *from);

/* Let the function decode its I/O and memory BARs, master the bus (DMA)
 * and raise INTx.  Linux splits this into pci_enable_device() and
 * pci_set_master(); every driver here needs both. */
int pci_enable_device(struct pci_dev *dev);

/* Memory BAR bar of dev mapped uncached and dev enabled (Linux's
 * pci_iomap with pci_enable_device); NULL with a line naming who when
 * the BAR is not memory or cannot be mapped. */
volatile uint8_t *pci_iomap(struct pci_dev *dev, int bar, const char *who);

/*
 * handler on dev's INTx line (request_irq under name), unless *lines, the
 * caller's bitmap of the lines its handler already owns, has it: true
 * when the handler owns the line.  The kernel's PIC lines are not shared
 * between drivers, so false, with a line beginning with who ("ahci",
 * "usb1: xhci") and ending "completion polled", when dev has no line or
 * another driver's handler has it: the caller then polls.
 */
struct pt_regs;
bool pci_request_irq(const struct pci_dev *dev, void (*handler)(unsigned int irq, struct pt_regs *regs),
		     const char *name, const char *who, uint16_t *lines);

/* Poll the device register at reg until (value & mask) == want, for up
 * to ms milliseconds, interrupts on or off: true when it came.  For
 * resets and starts, and for drivers that complete by polling. */
bool pci_mmio_poll(volatile uint8_t *reg, uint32_t mask, uint32_t want, unsigned int ms);

static inline uint64_t pci_resource_start(const struct pci_dev *dev, int bar)
{
	return dev->resource[bar].start;
}

static inline uint64_t pci_resource_len(const struct pci_dev *dev, int bar)
{
	return dev->resource[bar].size;
}

static inline unsigned int pci_resource_flags(const struct pci_dev *dev, int bar)
{
	return dev->resource[bar].flags;
}

#endif
