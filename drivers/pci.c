/*
 * PCI enumeration and configuration access, configuration mechanism #1.
 *
 * A configuration access is two port accesses: the function's address
 * (bus, device, function, register) goes to CONFIG_ADDRESS (0xCF8), then
 * the data moves through CONFIG_DATA (0xCFC-0xCFF).  The pair must not be
 * split by another access, so every accessor holds pci_lock, which on
 * this one-CPU kernel means interrupts are off in between.
 *
 * pci_init() probes every bus (0-255) and device (0-31) by brute force:
 * no bridge walking, so a function behind a bridge is found wherever
 * firmware numbered its bus.  Function 0 must exist for a device to
 * exist; functions 1-7 are probed only when function 0's header has the
 * multifunction bit.  A function is present when its vendor ID is not
 * 0xffff (an absent one reads as all ones).
 *
 * BARs are decoded the standard way: read the BAR, write all ones, read
 * back which address bits stick (the size is the lowest one that does),
 * write the original back.  While the BAR holds all ones it could claim
 * any address, so decoding is off in the command register during the
 * sizing and interrupts are off (nothing may touch the function then).
 * A 64-bit memory BAR uses two slots; the second is not a BAR of its own.
 *
 * The list is built once at boot and never changes (no hotplug):
 * pci_get_device() walks it without a lock.
 */
#include <asm/cpu.h>
#include <asm/io.h>
#include <drivers/pci.h>
#include <mm/slab.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <pageturn/spinlock.h>
#include <pageturn/time.h>

static DEFINE_SPINLOCK(pci_lock);
static LIST_HEAD(pci_devices);
static bool pci_scanned;

/* Names for the functions QEMU's q35 machine and our tests have. */
static const struct {
	uint16_t vendor, device;
	const char *name;
} pci_names[] = {
	{ 0x8086, 0x29c0, "Intel Q35 host bridge" },
	{ 0x8086, 0x2918, "Intel ICH9 LPC bridge" },
	{ 0x8086, 0x2922, "Intel ICH9 AHCI controller" },
	{ 0x8086, 0x2930, "Intel ICH9 SMBus controller" },
	{ 0x8086, 0x10d3, "Intel 82574L Ethernet (e1000e)" },
	{ 0x1234, 0x1111, "QEMU standard VGA" },
	{ 0x1b36, 0x000d, "QEMU xHCI USB controller" },
	{ 0x1af4, 0x1000, "virtio network (transitional)" },
	{ 0x1af4, 0x1001, "virtio block (transitional)" },
	{ 0x1af4, 0x1042, "virtio block (modern)" },
};

static uint32_t pci_conf_address(const struct pci_dev *dev, int where)
{
	return PCI_CONFIG_ENABLE | (uint32_t)dev->bus << 16 |
	       (uint32_t)dev->devfn << 8 | (where & 0xfc);
}

/*
 * The six configuration accessors differ only in width and port offset
 * (Linux generates them the same way, PCI_OP_READ/PCI_OP_WRITE): select
 * the dword with CONFIG_ADDRESS, then move size bytes at the right offset
 * of CONFIG_DATA, under pci_lock.
 */
#define PCI_OP_READ(size, type, in, mask) \
int pci_read_config_##size(const struct pci_dev *dev, int where, type *val) \
{ \
	unsigned long flags; \
 \
	spin_lock_irqsave(&pci_lock, flags); \
	outl(PCI_CONFIG_ADDRESS, pci_conf_address(dev, where)); \
	*val = in(PCI_CONFIG_DATA + (where & (mask))); \
	spin_unlock_irqrestore(&pci_lock, flags); \
	return 0; \
}

#define PCI_OP_WRITE(size, type, out, mask) \
int pci_write_config_##size(const struct pci_dev *dev, int where, type val) \
{ \
	unsigned long flags; \
 \
	spin_lock_irqsave(&pci_lock, flags); \
	outl(PCI_CONFIG_ADDRESS, pci_conf_address(dev, where)); \
	out(PCI_CONFIG_DATA + (where & (mask)), val); \
	spin_unlock_irqrestore(&pci_lock, flags); \
	return 0; \
}

PCI_OP_READ(byte, uint8_t, inb, 3)
PCI_OP_READ(word, uint16_t, inw, 2)
PCI_OP_READ(dword, uint32_t, inl, 0)
PCI_OP_WRITE(byte, uint8_t, outb, 3)
PCI_OP_WRITE(word, uint16_t, outw, 2)
PCI_OP_WRITE(dword, uint32_t, outl, 0)

/* Write all ones to the dword at where, return what sticks, restore it. */
static uint32_t pci_probe_mask(const struct pci_dev *dev, int where, uint32_t orig)
{
	uint32_t mask;

	pci_write_config_dword(dev, where, ~0u);
	pci_read_config_dword(dev, where, &mask);
	pci_write_config_dword(dev, where, orig);
	return mask;
}

/*
 * Decode BAR number bar of dev into dev->resource[bar].  Called with
 * decoding off.  Returns how many BAR slots it used: 2 for a 64-bit
 * memory BAR, else 1.
 */
static int pci_read_bar(struct pci_dev *dev, int bar)
{
	int where = PCI_BASE_ADDRESS_0 + 4 * bar;
	struct pci_resource *res = &dev->resource[bar];
	uint32_t lo, hi = 0, lo_mask, hi_mask = 0;
	uint64_t base, mask;

	pci_read_config_dword(dev, where, &lo);
	lo_mask = pci_probe_mask(dev, where, lo);
	if (lo & PCI_BASE_ADDRESS_SPACE_IO) {
		base = lo & PCI_BASE_ADDRESS_IO_MASK;
		mask = lo_mask & PCI_BASE_ADDRESS_IO_MASK;
		res->flags = IORESOURCE_IO;
	} else {
		res->flags = IORESOURCE_MEM;
		if (lo & PCI_BASE_ADDRESS_MEM_PREFETCH)
			res->flags |= IORESOURCE_PREFETCH;
		if ((lo & PCI_BASE_ADDRESS_MEM_TYPE_MASK) == PCI_BASE_ADDRESS_MEM_TYPE_64 &&
		    bar + 1 < PCI_STD_NUM_BARS) {
			pci_read_config_dword(dev, where + 4, &hi);
			hi_mask = pci_probe_mask(dev, where + 4, hi);
			res->flags |= IORESOURCE_MEM_64;
		}
		base = (uint64_t)hi << 32 | (lo & PCI_BASE_ADDRESS_MEM_MASK);
		mask = (uint64_t)hi_mask << 32 | (lo_mask & PCI_BASE_ADDRESS_MEM_MASK);
	}
	if (mask) {
		res->start = base;
		res->size = mask & -mask;	/* the lowest address bit that sticks */
	} else {
		res->flags = 0;			/* the device has no such BAR */
	}
	return (res->flags & IORESOURCE_MEM_64) ? 2 : 1;
}

static void pci_read_bars(struct pci_dev *dev)
{
	int nr_bars, bar = 0;
	uint16_t cmd;
	unsigned long flags;

	switch (dev->hdr_type) {
	case PCI_HEADER_TYPE_NORMAL:
		nr_bars = PCI_STD_NUM_BARS;
		break;
	case PCI_HEADER_TYPE_BRIDGE:
		nr_bars = 2;
		break;
	default:
		nr_bars = 1;
		break;
	}
	flags = local_irq_save();
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	pci_write_config_word(dev, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	while (bar < nr_bars)
		bar += pci_read_bar(dev, bar);
	pci_write_config_word(dev, PCI_COMMAND, cmd);
	local_irq_restore(flags);
}

static const char *pci_name_of(const struct pci_dev *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pci_names); i++)
		if (pci_names[i].vendor == dev->vendor && pci_names[i].device == dev->device)
			return pci_names[i].name;
	return "";
}

/* One line per function, then one per implemented BAR, Linux-like. */
static void pci_report(const struct pci_dev *dev)
{
	char irq[16] = "";
	int bar;

	if (dev->irq != PCI_IRQ_NONE)
		snprintf(irq, sizeof(irq), " irq %u", dev->irq);
	printk(KERN_INFO "pci 0000:%02x:%02x.%u [%04x:%04x] class %#08x%s %s\n",
	       dev->bus, PCI_SLOT(dev->devfn), PCI_FUNC(dev->devfn),
	       dev->vendor, dev->device, dev->class, irq, pci_name_of(dev));
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		const struct pci_resource *res = &dev->resource[bar];

		if (!res->flags)
			continue;
		printk(KERN_INFO "pci 0000:%02x:%02x.%u: reg %#x: [%s %#lx-%#lx%s%s]\n",
		       dev->bus, PCI_SLOT(dev->devfn), PCI_FUNC(dev->devfn),
		       PCI_BASE_ADDRESS_0 + 4 * bar,
		       (res->flags & IORESOURCE_IO) ? "io " : "mem",
		       res->start, res->start + res->size - 1,
		       (res->flags & IORESOURCE_MEM_64) ? " 64bit" : "",
		       (res->flags & IORESOURCE_PREFETCH) ? " pref" : "");
	}
}

/* Record the function at bus/devfn, known to exist. */
static void pci_scan_function(uint8_t bus, uint8_t devfn)
{
	struct pci_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	uint32_t class_rev;
	uint8_t hdr, line;

	if (!dev) {
		printk(KERN_ERR "pci: out of memory at %02x:%02x.%u; enumeration incomplete\n",
		       bus, PCI_SLOT(devfn), PCI_FUNC(devfn));
		return;
	}
	dev->bus = bus;
	dev->devfn = devfn;
	pci_read_config_word(dev, PCI_VENDOR_ID, &dev->vendor);
	pci_read_config_word(dev, PCI_DEVICE_ID, &dev->device);
	pci_read_config_dword(dev, PCI_CLASS_REVISION, &class_rev);
	dev->class = class_rev >> 8;
	dev->revision = class_rev & 0xff;
	pci_read_config_byte(dev, PCI_HEADER_TYPE, &hdr);
	dev->hdr_type = hdr & PCI_HEADER_TYPE_MASK;
	pci_read_config_byte(dev, PCI_INTERRUPT_PIN, &dev->pin);
	pci_read_config_byte(dev, PCI_INTERRUPT_LINE, &line);
	/* Only a pin routed to one of the PIC's lines is usable. */
	dev->irq = (dev->pin && line < NR_IRQS) ? line : PCI_IRQ_NONE;
	pci_read_bars(dev);
	list_add_tail(&dev->list, &pci_devices);
	pci_report(dev);
}

void pci_init(void)
{
	unsigned int bus, slot, func, nr_funcs, found = 0;
	struct pci_dev probe = { 0 };
	uint16_t vendor;
	uint8_t hdr;

	if (pci_scanned)
		return;
	pci_scanned = true;
	for (bus = 0; bus < PCI_MAX_BUS; bus++) {
		for (slot = 0; slot < PCI_MAX_SLOT; slot++) {
			probe.bus = bus;
			probe.devfn = PCI_DEVFN(slot, 0);
			pci_read_config_word(&probe, PCI_VENDOR_ID, &vendor);
			if (vendor == 0xffff)
				continue;
			pci_read_config_byte(&probe, PCI_HEADER_TYPE, &hdr);
			nr_funcs = (hdr & PCI_HEADER_MULTIFUNC) ? PCI_MAX_FUNC : 1;
			for (func = 0; func < nr_funcs; func++) {
				probe.devfn = PCI_DEVFN(slot, func);
				pci_read_config_word(&probe, PCI_VENDOR_ID, &vendor);
				if (vendor == 0xffff)
					continue;
				pci_scan_function(bus, probe.devfn);
				found++;
			}
		}
	}
	printk(KERN_INFO "pci: %u functions\n", found);
}

struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device, struct pci_dev *from)
{
	struct list_head *pos = from ? from->list.next : pci_devices.next;

	for (; pos != &pci_devices; pos = pos->next) {
		struct pci_dev *dev = list_entry(pos, struct pci_dev, list);

		if ((vendor == PCI_ANY_ID || dev->vendor == vendor) &&
		    (device == PCI_ANY_ID || dev->device == device))
			return dev;
	}
	return NULL;
}

int pci_enable_device(struct pci_dev *dev)
{
	uint16_t cmd;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	cmd |= PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	cmd &= ~PCI_COMMAND_INTX_DISABLE;
	pci_write_config_word(dev, PCI_COMMAND, cmd);
	return 0;
}

volatile uint8_t *pci_iomap(struct pci_dev *dev, int bar, const char *who)
{
	uint64_t start = pci_resource_start(dev, bar);
	volatile uint8_t *regs;

	if (!(pci_resource_flags(dev, bar) & IORESOURCE_MEM) || !start) {
		printk(KERN_WARNING "%s %02x:%02x.%u: no memory BAR %d, skipped\n", who, dev->bus,
		       PCI_SLOT(dev->devfn), PCI_FUNC(dev->devfn), bar);
		return NULL;
	}
	regs = ioremap(start, pci_resource_len(dev, bar));
	if (!regs) {
		printk(KERN_ERR "%s: out of memory to map %#lx\n", who, (unsigned long)start);
		return NULL;
	}
	pci_enable_device(dev);
	return regs;
}

bool pci_request_irq(const struct pci_dev *dev, irq_handler_t handler, const char *name,
		     const char *who, uint16_t *lines)
{
	unsigned int irq = dev->irq;
	int err;

	if (irq == PCI_IRQ_NONE) {
		printk(KERN_INFO "%s: no interrupt line, completion polled\n", who);
		return false;
	}
	if (!(*lines & (1u << irq))) {
		err = request_irq(irq, handler, name);
		if (err) {
			printk(KERN_INFO "%s: IRQ %u is another driver's (error %d), completion polled\n",
			       who, irq, err);
			return false;
		}
		*lines |= 1u << irq;
	}
	return true;
}

bool pci_mmio_poll(volatile uint8_t *reg, uint32_t mask, uint32_t want, unsigned int ms)
{
	uint64_t deadline = ktime_get_ns() + (uint64_t)ms * 1000000;

	while ((readl(reg) & mask) != want) {
		if (ktime_get_ns() > deadline)
			return false;
		__asm__ volatile("pause");
	}
	return true;
}
