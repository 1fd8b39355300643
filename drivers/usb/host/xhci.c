/*
 * USB 3 host controllers (xHCI 1.x; Linux's drivers/usb/host/xhci*.c,
 * reduced): PCI class 0c:03:30, registers in memory BAR 0, one event ring
 * on interrupter 0, completion by INTx or, when the line is another
 * driver's, by polling the event ring.  Every port on a PC's USB sockets
 * is a root port of one of these, USB 2 sticks included; devices behind
 * hubs get the route string and transaction translator the hub driver's
 * alloc_device asks for.
 *
 * The controller works through rings of 16-byte TRBs in memory, each
 * TRB owned by whoever's cycle bit it carries:
 *   command ring   the driver's requests to the controller (Enable Slot,
 *                  Address Device, Configure Endpoint, Reset Endpoint,
 *                  Stop Endpoint, Set TR Dequeue Pointer), one at a time
 *                  under cmd_mutex, announced by ringing doorbell 0;
 *   transfer rings one per endpoint in use: the TRBs of the transfers
 *                  (a TD: a control transfer's setup, data and status
 *                  stages, or a bulk transfer's Normal TRBs, chained),
 *                  announced by ringing the slot's doorbell;
 *   event ring     the controller's answers: command completions,
 *                  transfer events, port status changes.
 * Each ring is one page; the command and transfer rings end in a Link
 * TRB back to their start which toggles the cycle bit.  A ring never has
 * more than one TD or command outstanding, so it never fills.
 *
 * States of a transfer (struct xhci_td, one per endpoint):
 *   idle      no TD on the ring (active false).
 *   queued    its TRBs are on the ring, the first with its cycle bit held
 *             back; once active, the bit is flipped and the doorbell
 *             rung.  The event handler records the result and sets done;
 *             the waiter sleeps on wq (INTx) or polls the event ring
 *             itself.
 *   done      the status TRB (control) or the last TRB (bulk) completed,
 *             a short packet ended a bulk TD, or an error halted the
 *             endpoint; the waiter takes the result and the TD is idle.
 *   timed out no event by the deadline: the waiter stops the endpoint
 *             (Stop Endpoint), moves its dequeue pointer past the TD (Set
 *             TR Dequeue Pointer) and returns -ETIMEDOUT.
 *   gone      the device's root port lost its connection (a port status
 *             event): every TD of the slot ends with -ENODEV at once, and
 *             so does every later transfer.
 * An error completion (stall, transaction error, babble) halts the
 * endpoint on the controller; reset_endpoint (Reset Endpoint, then Set TR
 * Dequeue Pointer to the enqueue position) makes it usable again, and for
 * endpoint 0 the control path does that itself.
 *
 * Locks: lock (a spinlock, taken with interrupts off) covers the event
 * ring and every TD's state; cmd_mutex serialises commands.  A transfer
 * ring is used by one task at a time: endpoint 0 at probe, a storage
 * device's bulk endpoints by its own thread.  Waiters sleep with no lock
 * held; what they wait on (a TD of their own endpoint, the command slot
 * under cmd_mutex) cannot go away while they sleep: a slot's structures
 * are never freed, an unplugged device's included.
 *
 * Memory: pages from the page allocator at probe, zeroed; without 64-bit
 * addressing (HCCPARAMS1.AC64) a page above 4 GiB refuses the controller
 * or fails the transfer that needs it (-EIO, a line).
 */
#include <asm/io.h>
#include <drivers/pci.h>
#include <drivers/usb.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/irq.h>
#include <pageturn/mutex.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define PCI_CLASS_SERIAL_USB_XHCI	0x0c0330

/* Capability registers. */
#define XHCI_CAPLENGTH		0x00	/* byte; HCIVERSION is the word at 0x02 */
#define XHCI_HCSPARAMS1		0x04
#define XHCI_HCSPARAMS2		0x08
#define XHCI_HCCPARAMS1		0x10
#define  HCC_64BIT_ADDR		(1u << 0)
#define  HCC_64BYTE_CONTEXT	(1u << 2)
#define XHCI_DBOFF		0x14
#define XHCI_RTSOFF		0x18

/* Operational registers, at CAPLENGTH. */
#define XHCI_USBCMD		0x00
#define  CMD_RUN		(1u << 0)
#define  CMD_RESET		(1u << 1)
#define  CMD_EIE		(1u << 2)
#define XHCI_USBSTS		0x04
#define  STS_HALT		(1u << 0)
#define  STS_FATAL		(1u << 2)	/* host system error */
#define  STS_EINT		(1u << 3)
#define  STS_CNR		(1u << 11)	/* controller not ready */
#define  STS_HCE		(1u << 12)	/* host controller error */
#define XHCI_PAGESIZE		0x08
#define XHCI_CRCR		0x18
#define XHCI_DCBAAP		0x30
#define XHCI_CONFIG		0x38
#define XHCI_PORTSC(n)		(0x400 + 0x10 * ((n) - 1))
#define  PORT_CONNECT		(1u << 0)
#define  PORT_PE		(1u << 1)
#define  PORT_RESET		(1u << 4)
#define  PORT_POWER		(1u << 9)
#define  PORT_SPEED(p)		(((p) >> 10) & 0xf)
#define  PORT_CSC		(1u << 17)	/* connect status change */
#define  PORT_CHANGE_BITS	(0x7fu << 17)	/* CSC PEC WRC OCC PRC PLC CEC: write 1 to clear */
#define  PORT_RC		(1u << 21)	/* port reset change */
/* PORTSC bits that keep their value when written back: not the change
 * bits, nor PE (writing 1 disables the port), nor the reset. */
#define  PORT_RW_MASK		(PORT_POWER | (0x3u << 14) | (7u << 25))

/* Runtime registers: interrupter 0 at 0x20. */
#define XHCI_IMAN		0x20
#define  IMAN_IP		(1u << 0)
#define  IMAN_IE		(1u << 1)
#define XHCI_IMOD		0x24
#define XHCI_ERSTSZ		0x28
#define XHCI_ERSTBA		0x30
#define XHCI_ERDP		0x38
#define  ERDP_EHB		(1u << 3)	/* event handler busy: write 1 to clear */

/* Extended capabilities: the USB legacy support one (BIOS handoff). */
#define XHCI_EXT_CAPS_LEGACY	1
#define  XHCI_HC_BIOS_OWNED	(1u << 16)
#define  XHCI_HC_OS_OWNED	(1u << 24)
#define XHCI_LEGACY_CONTROL	4	/* USBLEGCTLSTS, after USBLEGSUP */
/* The reserved bits, kept when the SMI enables are cleared, and the SMI
 * events, written 1 to clear (Linux's XHCI_LEGACY_DISABLE_SMI, _SMI_EVENTS). */
#define  XHCI_LEGACY_DISABLE_SMI	((0x7u << 1) | (0xffu << 5) | (0x7u << 17))
#define  XHCI_LEGACY_SMI_EVENTS	(0x7u << 29)

/* TRBs. */
struct xhci_trb {
	uint64_t param;
	uint32_t status;
	uint32_t control;
};

#define TRB_CYCLE		(1u << 0)
#define TRB_TOGGLE		(1u << 1)	/* Link: toggle the cycle bit */
#define TRB_ISP			(1u << 2)	/* interrupt on short packet */
#define TRB_CHAIN		(1u << 4)
#define TRB_IOC			(1u << 5)
#define TRB_IDT			(1u << 6)	/* immediate data: the setup packet */
#define TRB_TYPE(t)		((uint32_t)(t) << 10)
#define TRB_FIELD_TYPE(c)	(((c) >> 10) & 0x3f)
#define TRB_DIR_IN		(1u << 16)	/* data and status stages */
#define TRB_TRT_OUT		(2u << 16)	/* setup: transfer type */
#define TRB_TRT_IN		(3u << 16)
#define TRB_SLOT(s)		((uint32_t)(s) << 24)
#define TRB_EP(dci)		((uint32_t)(dci) << 16)
#define TRB_TD_SIZE(n)		((uint32_t)MIN(n, 31u) << 17)

#define TRB_NORMAL		1
#define TRB_SETUP		2
#define TRB_DATA		3
#define TRB_STATUS		4
#define TRB_LINK		6
#define TRB_NOOP		8
#define TRB_ENABLE_SLOT		9
#define TRB_ADDR_DEV		11
#define TRB_CONFIG_EP		12
#define TRB_EVAL_CONTEXT	13
#define TRB_RESET_EP		14
#define TRB_STOP_RING		15
#define TRB_SET_DEQ		16
#define TRB_TRANSFER_EVENT	32
#define TRB_COMPLETION		33
#define TRB_PORT_STATUS		34

/* Completion codes (event status bits 31:24). */
#define COMP_SUCCESS		1
#define COMP_STALL		6
#define COMP_SHORT_PACKET	13
/* Not the controller's: the device was unplugged under the TD. */
#define COMP_GONE		0x100
#define EVENT_CODE(s)		((s) >> 24)
#define EVENT_RESIDUE(s)	((s) & 0xffffff)

#define TRBS_PER_RING		(PAGE_SIZE / sizeof(struct xhci_trb))

/* Context fields (xHCI 6.2). */
#define SLOT_SPEED(s)		((uint32_t)(s) << 20)
#define SLOT_HUB		(1u << 26)
#define LAST_CTX(n)		((uint32_t)(n) << 27)
#define ROOT_HUB_PORT(p)	((uint32_t)(p) << 16)
#define EP_TYPE(t)		((uint32_t)(t) << 3)
#define EP_CTRL			4
#define EP_BULK_OUT		2
#define EP_BULK_IN		6
#define ERROR_COUNT(n)		((uint32_t)(n) << 1)
#define MAX_BURST(b)		((uint32_t)(b) << 8)
#define MAX_PACKET(p)		((uint32_t)(p) << 16)
#define EP_AVG_TRB_LENGTH(n)	(n)
#define EP_STATE_MASK		7
#define EP_STATE_RUNNING	1
#define EP_STATE_HALTED		2

/* Bounds of the waits, milliseconds. */
#define XHCI_TMOUT_RESET	1000
#define XHCI_TMOUT_HANDOFF	1000
#define XHCI_TMOUT_PORT_RESET	500
#define XHCI_TMOUT_CMD		5000

#define XHCI_MAX_SLOTS		32
/* Endpoint contexts are numbered by DCI: 1 is endpoint 0, then
 * 2 * number + (IN ? 1 : 0). */
#define XHCI_MAX_DCI		31
/* TRBs of one bulk TD: one per piece (a piece never crosses a page). */
#define XHCI_MAX_TD_TRBS	(TRBS_PER_RING / 2)

struct xhci_ring {
	struct xhci_trb *trbs;		/* a page; the last TRB links back */
	phys_addr_t dma;
	unsigned int enqueue;		/* next TRB the driver fills */
	uint32_t cycle;			/* the producer's cycle bit */
};

/* The transfer outstanding on an endpoint (see the top for its states). */
struct xhci_td {
	bool active, done;
	struct xhci_trb *first;		/* queued with its cycle bit held back */
	bool control;			/* ends only at its status TRB */
	unsigned int ntrbs;
	phys_addr_t trb[XHCI_MAX_TD_TRBS];	/* the TD's TRBs, in order */
	unsigned int end[XHCI_MAX_TD_TRBS];	/* bytes up to and with TRB i */
	bool short_packet;		/* a short packet came: actual is final */
	unsigned int code;		/* the completion code that ended it */
	unsigned int actual;		/* bytes moved */
};

struct xhci_ep {
	unsigned int dci;
	uint32_t type;			/* EP_CTRL, EP_BULK_IN, EP_BULK_OUT */
	unsigned int maxpacket, maxburst;
	struct xhci_ring ring;
	struct xhci_td td;
};

struct xhci_hcd;

/* A device slot: the controller's state of one device. */
struct xhci_slot {
	struct xhci_hcd *xhci;
	unsigned int id;
	unsigned int port;		/* its root port */
	bool gone;			/* unplugged: every transfer fails, under lock */
	struct page *out_ctx;		/* the device context, the controller's */
	struct page *in_ctx;		/* input context for commands */
	struct xhci_ep *eps[XHCI_MAX_DCI + 1];
	struct usb_device udev;
};

struct xhci_hcd {
	struct usb_hcd hcd;
	struct pci_dev *pdev;
	volatile uint8_t *cap, *op, *run, *db;
	unsigned int max_slots, max_ports, ctx_size;
	uint16_t hci_version;		/* 0x100 for xHCI 1.0 */
	bool ac64;
	bool use_irq;
	bool running;			/* started: the interrupt handler may look */
	bool dead;			/* a fatal error: every call fails */
	spinlock_t lock;		/* the event ring and every TD */
	wait_queue_head_t wq;		/* waiters for a TD or a command */
	struct page *dcbaa;		/* device context base addresses, and the ERST */
	struct xhci_ring cmd_ring;
	struct xhci_ring event_ring;	/* enqueue: the dequeue index; cycle: ours */
	struct mutex cmd_mutex;
	/* The command outstanding, under lock. */
	phys_addr_t cmd_trb;
	bool cmd_done;
	unsigned int cmd_code, cmd_slot;
	struct xhci_slot *slots[XHCI_MAX_SLOTS + 1];
	struct list_head list;		/* walked by the interrupt handler */
};

static LIST_HEAD(xhci_hosts);		/* changed with interrupts off */
static uint16_t xhci_irq_lines;		/* bit n: our handler owns PIC line n */

static uint32_t xhci_readl(volatile uint8_t *base, unsigned int reg)
{
	return readl(base + reg);
}

static void xhci_writel(volatile uint8_t *base, unsigned int reg, uint32_t v)
{
	writel(v, base + reg);
}

/* 64-bit registers, written low half first as the specification allows
 * for controllers without 64-bit access. */
static void xhci_write64(volatile uint8_t *base, unsigned int reg, uint64_t v)
{
	writel((uint32_t)v, base + reg);
	writel((uint32_t)(v >> 32), base + reg + 4);
}

/* A zeroed page the controller can reach, or NULL (logged). */
static struct page *xhci_alloc_page(struct xhci_hcd *xhci)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	if (!page) {
		printk(KERN_ERR "xhci: out of memory\n");
		return NULL;
	}
	if (!xhci->ac64 && page_to_phys(page) >= (1ull << 32)) {
		printk(KERN_ERR "xhci: a page above 4 GiB, and the controller has 32-bit DMA\n");
		__free_page(page);
		return NULL;
	}
	return page;
}

static int xhci_ring_init(struct xhci_hcd *xhci, struct xhci_ring *ring, bool link)
{
	struct page *page = xhci_alloc_page(xhci);
	struct xhci_trb *last;

	if (!page)
		return -ENOMEM;
	ring->trbs = page_address(page);
	ring->dma = page_to_phys(page);
	ring->enqueue = 0;
	ring->cycle = 1;
	if (link) {
		last = &ring->trbs[TRBS_PER_RING - 1];
		last->param = ring->dma;
		last->control = TRB_TYPE(TRB_LINK) | TRB_TOGGLE;
	}
	return 0;
}

static phys_addr_t xhci_ring_pos(const struct xhci_ring *ring)
{
	return ring->dma + ring->enqueue * sizeof(struct xhci_trb);
}

/*
 * Put one TRB on a command or transfer ring and return its address.
 * The cycle bit goes in last, after a barrier, so the controller never
 * sees a half-written TRB; with hold, it goes in inverted, so that the
 * controller does not take the TRB (nor any after it) until
 * xhci_td_run() flips it (Linux's giveback_first_trb).  At the Link TRB
 * the ring wraps: the link takes the chain bit of the TRB before it (a
 * TD may span the wrap) and the producer's cycle, and the cycle toggles.
 */
static phys_addr_t xhci_queue_trb(struct xhci_ring *ring, uint64_t param, uint32_t status,
				  uint32_t control, bool hold)
{
	struct xhci_trb *trb = &ring->trbs[ring->enqueue];
	phys_addr_t addr = xhci_ring_pos(ring);

	trb->param = param;
	trb->status = status;
	__asm__ volatile("sfence" ::: "memory");
	trb->control = control | (ring->cycle ^ hold);
	if (++ring->enqueue == TRBS_PER_RING - 1) {
		struct xhci_trb *link = &ring->trbs[ring->enqueue];

		link->control = TRB_TYPE(TRB_LINK) | TRB_TOGGLE | (control & TRB_CHAIN);
		__asm__ volatile("sfence" ::: "memory");
		link->control |= ring->cycle;
		ring->cycle ^= 1;
		ring->enqueue = 0;
	}
	return addr;
}

static void xhci_ring_doorbell(struct xhci_hcd *xhci, unsigned int slot, unsigned int target)
{
	__asm__ volatile("mfence" ::: "memory");
	xhci_writel(xhci->db, 4 * slot, target);
}

/* Context i of a page of contexts (ctx_size bytes each). */
static uint32_t *xhci_ctx(struct xhci_hcd *xhci, struct page *page, unsigned int i)
{
	return (uint32_t *)((char *)page_address(page) + i * xhci->ctx_size);
}

/* The input context's parts: control (add flags in dword 1), slot, and
 * the endpoint context of dci. */
static uint32_t *in_ctrl(struct xhci_slot *slot)
{
	return xhci_ctx(slot->xhci, slot->in_ctx, 0);
}

static uint32_t *in_slot(struct xhci_slot *slot)
{
	return xhci_ctx(slot->xhci, slot->in_ctx, 1);
}

static uint32_t *in_ep(struct xhci_slot *slot, unsigned int dci)
{
	return xhci_ctx(slot->xhci, slot->in_ctx, dci + 1);
}

/*
 * Events.
 */

static struct xhci_ep *xhci_event_ep(struct xhci_hcd *xhci, const struct xhci_trb *ev)
{
	unsigned int slot = ev->control >> 24, dci = (ev->control >> 16) & 0x1f;

	if (slot == 0 || slot > XHCI_MAX_SLOTS || !xhci->slots[slot])
		return NULL;
	return xhci->slots[slot]->eps[dci];
}

/*
 * A transfer event: record what it says of the endpoint's TD.  A short
 * packet ends a bulk TD there; in a control TD it ends the data stage,
 * and the status stage still completes.  Success ends a TD at its last
 * TRB; an error code ends it at the TRB it names.  An event that names
 * no TRB of the outstanding TD is dropped, whatever its code: a stopped
 * TD's, or the second event an xHCI 1.0 controller sends for the last
 * TRB after a short packet (xHCI 4.10.1.1), which may come after the
 * next TD was queued.  Called with lock held.
 */
static void xhci_transfer_event(struct xhci_hcd *xhci, const struct xhci_trb *ev)
{
	struct xhci_ep *ep = xhci_event_ep(xhci, ev);
	unsigned int code = EVENT_CODE(ev->status), i, last;
	struct xhci_td *td;

	if (!ep || !ep->td.active || ep->td.done)
		return;
	td = &ep->td;
	last = td->ntrbs - 1;
	for (i = 0; i < td->ntrbs && td->trb[i] != ev->param; i++)
		;
	if (i == td->ntrbs)
		return;
	if (code == COMP_SHORT_PACKET && i < last) {
		td->actual = td->end[i] - MIN(EVENT_RESIDUE(ev->status), td->end[i]);
		td->short_packet = true;
		if (td->control)
			return;
	} else if (code == COMP_SUCCESS || code == COMP_SHORT_PACKET) {
		if (i != last)
			return;
		if (!td->short_packet)
			td->actual = td->end[last] - MIN(EVENT_RESIDUE(ev->status), td->end[last]);
	} else if (!td->short_packet) {
		/* An error: the bytes before it (a stall's event says how
		 * many of its TRB's moved, xHCI 6.4.2.1). */
		td->actual = td->end[i] - MIN(EVENT_RESIDUE(ev->status), td->end[i]);
	}
	td->code = code;
	td->done = true;
}

/* A command completion: record it for the waiter.  Called with lock held. */
static void xhci_cmd_event(struct xhci_hcd *xhci, const struct xhci_trb *ev)
{
	if (ev->param != xhci->cmd_trb || xhci->cmd_done)
		return;
	xhci->cmd_code = EVENT_CODE(ev->status);
	xhci->cmd_slot = ev->control >> 24;
	xhci->cmd_done = true;
}

/* End every TD of slot: its device is gone.  Called with lock held. */
static void xhci_slot_gone(struct xhci_slot *slot)
{
	unsigned int dci;

	slot->gone = true;
	for (dci = 1; dci <= XHCI_MAX_DCI; dci++) {
		struct xhci_ep *ep = slot->eps[dci];

		if (ep && ep->td.active && !ep->td.done) {
			ep->td.code = COMP_GONE;
			ep->td.done = true;
		}
	}
}

/*
 * A port status change.  A device pulled out of its root port (or pulled
 * and put back: a connect change on a port that has a slot) takes its
 * slot with it, so that nothing waits for it any more.  Every change bit
 * is cleared but the reset change, which xhci_port_reset() waits for at
 * probe: a change bit left set would keep the port from raising another
 * event (xHCI 4.19.2).  Called with lock held.
 */
static void xhci_port_event(struct xhci_hcd *xhci, const struct xhci_trb *ev)
{
	unsigned int port = (unsigned int)(ev->param >> 24) & 0xff, id;
	uint32_t portsc;

	if (port == 0 || port > xhci->max_ports)
		return;
	portsc = xhci_readl(xhci->op, XHCI_PORTSC(port));
	xhci_writel(xhci->op, XHCI_PORTSC(port),
		    (portsc & PORT_RW_MASK) | (portsc & PORT_CHANGE_BITS & ~PORT_RC));
	if ((portsc & PORT_CONNECT) && !(portsc & PORT_CSC))
		return;
	for (id = 1; id <= XHCI_MAX_SLOTS; id++) {
		struct xhci_slot *slot = xhci->slots[id];

		if (slot && slot->port == port && !slot->gone) {
			printk(KERN_WARNING "usb %s: USB disconnect, device number %u\n",
			       slot->udev.devpath, id);
			xhci_slot_gone(slot);
		}
	}
}

/* Take every event the controller has written, then tell it how far we
 * read.  Called with lock held; true when there was any. */
static bool xhci_handle_events(struct xhci_hcd *xhci)
{
	struct xhci_ring *er = &xhci->event_ring;
	bool any = false;

	/* Interrupt pending off first: an event written from here on raises
	 * a new interrupt, whoever reads the ring (the handler or a polling
	 * waiter). */
	xhci_writel(xhci->run, XHCI_IMAN, IMAN_IP | (xhci->use_irq ? IMAN_IE : 0));
	for (;;) {
		struct xhci_trb *ev = &er->trbs[er->enqueue];

		if ((ev->control & TRB_CYCLE) != er->cycle)
			break;
		__asm__ volatile("lfence" ::: "memory");
		switch (TRB_FIELD_TYPE(ev->control)) {
		case TRB_TRANSFER_EVENT:
			xhci_transfer_event(xhci, ev);
			break;
		case TRB_COMPLETION:
			xhci_cmd_event(xhci, ev);
			break;
		case TRB_PORT_STATUS:
			xhci_port_event(xhci, ev);
			break;
		default:
			break;
		}
		any = true;
		if (++er->enqueue == TRBS_PER_RING) {
			er->enqueue = 0;
			er->cycle ^= 1;
		}
	}
	if (any)
		xhci_write64(xhci->run, XHCI_ERDP, xhci_ring_pos(er) | ERDP_EHB);
	return any;
}

static void xhci_irq(unsigned int irq, struct pt_regs *regs)
{
	struct xhci_hcd *xhci;
	unsigned long flags;
	bool any = false;

	(void)regs;
	list_for_each_entry(xhci, &xhci_hosts, list) {
		if (xhci->pdev->irq != irq || !xhci->running)
			continue;
		xhci_writel(xhci->op, XHCI_USBSTS, STS_EINT);
		spin_lock_irqsave(&xhci->lock, flags);
		any |= xhci_handle_events(xhci);
		spin_unlock_irqrestore(&xhci->lock, flags);
		if (any)
			wake_up(&xhci->wq);
	}
}

/*
 * Sleep until *done (under lock) or ms pass; true when done.  With an
 * interrupt the handler wakes wq; polled, the waiter reads the event
 * ring itself between yields.  A controller that reports a host system
 * error or an internal error is dead (logged once) and ends the wait.
 * Process context, no lock held.
 */
static bool xhci_wait(struct xhci_hcd *xhci, const bool *done, unsigned int ms)
{
	uint64_t deadline = ktime_get_ns() + (uint64_t)ms * 1000000;
	unsigned long flags;
	DEFINE_WAIT(wait);
	bool ok;

	for (;;) {
		spin_lock_irqsave(&xhci->lock, flags);
		xhci_handle_events(xhci);
		ok = *done;
		if (!xhci->dead && (xhci_readl(xhci->op, XHCI_USBSTS) & (STS_FATAL | STS_HCE))) {
			printk(KERN_ERR "usb%u: xhci: the controller reports an error (USBSTS %#x); given up\n",
			       xhci->hcd.busnum, xhci_readl(xhci->op, XHCI_USBSTS));
			xhci->dead = true;
		}
		if (ok || xhci->dead || ktime_get_ns() > deadline) {
			spin_unlock_irqrestore(&xhci->lock, flags);
			return ok;
		}
		if (xhci->use_irq) {
			prepare_to_wait(&xhci->wq, &wait, TASK_UNINTERRUPTIBLE);
			spin_unlock_irqrestore(&xhci->lock, flags);
			schedule_timeout(HZ / 10);
			finish_wait(&xhci->wq, &wait);
		} else {
			spin_unlock_irqrestore(&xhci->lock, flags);
			yield();
		}
	}
}

/*
 * Commands.
 */

/* Run one command and wait for its completion: the completion code (a
 * missing completion counts as -ETIMEDOUT and kills the controller), the
 * slot it names in *slot_id when asked.  Process context. */
static int xhci_command(struct xhci_hcd *xhci, uint64_t param, uint32_t control,
			unsigned int *slot_id)
{
	unsigned long flags;
	int code;

	if (xhci->dead)
		return -ENODEV;
	mutex_lock(&xhci->cmd_mutex);
	spin_lock_irqsave(&xhci->lock, flags);
	xhci->cmd_done = false;
	xhci->cmd_trb = xhci_queue_trb(&xhci->cmd_ring, param, 0, control, false);
	spin_unlock_irqrestore(&xhci->lock, flags);
	xhci_ring_doorbell(xhci, 0, 0);
	if (!xhci_wait(xhci, &xhci->cmd_done, XHCI_TMOUT_CMD)) {
		printk(KERN_ERR "usb%u: xhci: command %u does not complete; controller given up\n",
		       xhci->hcd.busnum, TRB_FIELD_TYPE(control));
		xhci->dead = true;
		mutex_unlock(&xhci->cmd_mutex);
		return -ETIMEDOUT;
	}
	code = (int)xhci->cmd_code;
	if (slot_id)
		*slot_id = xhci->cmd_slot;
	mutex_unlock(&xhci->cmd_mutex);
	return code;
}

/* A command that must succeed: 0, or -EPROTO with a line naming what. */
static int xhci_command_ok(struct xhci_slot *slot, uint64_t param, uint32_t control,
			   const char *what)
{
	int code = xhci_command(slot->xhci, param, control | TRB_SLOT(slot->id), NULL);

	if (code == COMP_SUCCESS)
		return 0;
	if (code > 0)
		printk(KERN_ERR "usb %s: xhci: %s failed, completion code %d\n", slot->udev.devpath,
		       what, code);
	return code < 0 ? code : -EPROTO;
}

/* Point ep's controller state at its ring's enqueue position, dropping
 * whatever TD was on it.  The endpoint is stopped or halted. */
static int xhci_set_dequeue(struct xhci_slot *slot, struct xhci_ep *ep)
{
	return xhci_command_ok(slot, xhci_ring_pos(&ep->ring) | ep->ring.cycle,
			       TRB_TYPE(TRB_SET_DEQ) | TRB_EP(ep->dci), "Set TR Dequeue Pointer");
}

/* ep's context in the input context: its type, packet size and burst,
 * its ring from the enqueue position on. */
static void xhci_fill_ep_ctx(struct xhci_slot *slot, struct xhci_ep *ep)
{
	uint32_t *ctx = in_ep(slot, ep->dci);
	phys_addr_t deq = xhci_ring_pos(&ep->ring) | ep->ring.cycle;

	ctx[0] = 0;
	ctx[1] = ERROR_COUNT(3) | EP_TYPE(ep->type) | MAX_BURST(ep->maxburst) |
		 MAX_PACKET(ep->maxpacket);
	ctx[2] = (uint32_t)deq;
	ctx[3] = (uint32_t)(deq >> 32);
	ctx[4] = EP_AVG_TRB_LENGTH(ep->type == EP_CTRL ? 8 : PAGE_SIZE);
}

/* The slot context as the controller has it, into the input context,
 * with last as its last DCI. */
static void xhci_copy_slot_ctx(struct xhci_slot *slot, unsigned int last)
{
	uint32_t *ctx = in_slot(slot);

	memcpy(ctx, xhci_ctx(slot->xhci, slot->out_ctx, 0), slot->xhci->ctx_size);
	ctx[0] = (ctx[0] & ~LAST_CTX(0x1f)) | LAST_CTX(last);
	ctx[3] = 0;			/* the address and state are output only */
}

/*
 * Make ep usable again from its ring's enqueue position, with its data
 * toggle (or SuperSpeed sequence number) back at the start, as the
 * device's is after CLEAR_FEATURE(ENDPOINT_HALT) (USB 2.0 9.4.5):
 *   halted         Reset Endpoint, then Set TR Dequeue Pointer;
 *   stopped, or    (a timed-out TD was stopped and skipped) Configure
 *   running        Endpoint dropping and adding it again, stopped first
 *                  when running (Linux's xhci_endpoint_reset); one that
 *                  halts while it is being stopped is reset as halted.
 */
static int xhci_reset_ep(struct xhci_slot *slot, struct xhci_ep *ep)
{
	unsigned int state = xhci_ctx(slot->xhci, slot->out_ctx, ep->dci)[0] & EP_STATE_MASK;
	uint32_t *ctx;
	int err;

	if (state == EP_STATE_RUNNING && ep->dci != 1 &&
	    xhci_command(slot->xhci, 0, TRB_TYPE(TRB_STOP_RING) | TRB_SLOT(slot->id) |
			 TRB_EP(ep->dci), NULL) != COMP_SUCCESS) {
		/* It halted meanwhile (a context state error), or the
		 * controller is gone: look again. */
		state = xhci_ctx(slot->xhci, slot->out_ctx, ep->dci)[0] & EP_STATE_MASK;
		if (state != EP_STATE_HALTED)
			return -EPROTO;
	}
	if (state == EP_STATE_HALTED) {
		err = xhci_command_ok(slot, 0, TRB_TYPE(TRB_RESET_EP) | TRB_EP(ep->dci),
				      "Reset Endpoint");
		return err ? err : xhci_set_dequeue(slot, ep);
	}
	if (ep->dci == 1)
		return 0;		/* a control endpoint has no toggle to keep */
	memset(page_address(slot->in_ctx), 0, PAGE_SIZE);
	ctx = in_ctrl(slot);
	ctx[0] = 1u << ep->dci;			/* drop... */
	ctx[1] = 1u | 1u << ep->dci;		/* ...and add it, and the slot */
	xhci_copy_slot_ctx(slot, (xhci_ctx(slot->xhci, slot->out_ctx, 0)[0] >> 27) & 0x1f);
	xhci_fill_ep_ctx(slot, ep);
	return xhci_command_ok(slot, page_to_phys(slot->in_ctx), TRB_TYPE(TRB_CONFIG_EP),
			       "Configure Endpoint");
}

/*
 * Transfers.
 */

/*
 * Begin a TD of ntrbs TRBs on ep: when it would reach the Link TRB, the
 * rest of the ring is filled with No Op TRBs first, so no TD is ever
 * split by the link (xHCI 4.11.7.1 allows that only on a TD fragment's
 * boundary).  The TD is not active yet: xhci_td_run() makes it so.
 */
static void xhci_td_start(struct xhci_ep *ep, bool control, unsigned int ntrbs)
{
	struct xhci_td *td = &ep->td;

	if (ep->ring.enqueue + ntrbs > TRBS_PER_RING - 1)
		while (ep->ring.enqueue != 0)
			xhci_queue_trb(&ep->ring, 0, 0, TRB_TYPE(TRB_NOOP), false);
	td->done = false;
	td->control = control;
	td->ntrbs = 0;
	td->actual = 0;
	td->short_packet = false;
	td->code = 0;
}

/* Queue one TRB of td and remember where it went and where its bytes end. */
static void xhci_td_add(struct xhci_ep *ep, uint64_t param, uint32_t status, uint32_t control,
			unsigned int len)
{
	struct xhci_td *td = &ep->td;
	unsigned int before = td->ntrbs ? td->end[td->ntrbs - 1] : 0;

	td->end[td->ntrbs] = before + len;
	if (td->ntrbs == 0)
		td->first = &ep->ring.trbs[ep->ring.enqueue];
	td->trb[td->ntrbs] = xhci_queue_trb(&ep->ring, param, status, control, td->ntrbs == 0);
	td->ntrbs++;
}

/*
 * Make ep's TD active, ring its doorbell and wait for it: the bytes
 * moved, or an errno as struct hc_driver says.  A TD that times out is
 * stopped and skipped; one that halted the endpoint leaves it halted.
 */
static int xhci_td_run(struct xhci_slot *slot, struct xhci_ep *ep, unsigned int timeout_ms)
{
	struct xhci_hcd *xhci = slot->xhci;
	struct xhci_td *td = &ep->td;
	unsigned long flags;
	bool done;
	int ret;

	spin_lock_irqsave(&xhci->lock, flags);
	if (slot->gone) {		/* unplugged since the caller looked */
		spin_unlock_irqrestore(&xhci->lock, flags);
		return -ENODEV;
	}
	td->active = true;
	spin_unlock_irqrestore(&xhci->lock, flags);
	__asm__ volatile("sfence" ::: "memory");
	td->first->control ^= TRB_CYCLE;	/* the whole TD, at once */
	xhci_ring_doorbell(xhci, slot->id, ep->dci);
	done = xhci_wait(xhci, &td->done, timeout_ms);
	if (!done && !xhci->dead && !slot->gone) {
		xhci_command(xhci, 0, TRB_TYPE(TRB_STOP_RING) | TRB_SLOT(slot->id) | TRB_EP(ep->dci),
			     NULL);
		xhci_set_dequeue(slot, ep);
	}
	spin_lock_irqsave(&xhci->lock, flags);
	td->active = false;
	done = td->done;		/* it may have ended while it was being stopped */
	if (!done)
		ret = xhci->dead || slot->gone ? -ENODEV : -ETIMEDOUT;
	else if (td->code == COMP_SUCCESS || td->code == COMP_SHORT_PACKET)
		ret = (int)td->actual;
	else if (td->code == COMP_STALL)
		ret = -EPIPE;
	else if (td->code == COMP_GONE)
		ret = -ENODEV;
	else
		ret = -EPROTO;
	spin_unlock_irqrestore(&xhci->lock, flags);
	if (ret == -EPROTO)
		printk(KERN_WARNING "usb %s: xhci: endpoint %u: transfer failed, completion code %u\n",
		       slot->udev.devpath, ep->dci, td->code);
	return ret;
}

static bool xhci_reaches(struct xhci_hcd *xhci, phys_addr_t addr, unsigned int len)
{
	return xhci->ac64 || addr + len <= (1ull << 32);
}

/* The slot can take a transfer: 0, or -ENODEV when it or its controller
 * is gone. */
static int xhci_slot_alive(struct xhci_slot *slot)
{
	return slot->xhci->dead || slot->gone ? -ENODEV : 0;
}

static int xhci_control(struct usb_device *udev, const struct usb_ctrlrequest *setup,
			phys_addr_t buf, unsigned int len, unsigned int timeout_ms)
{
	struct xhci_slot *slot = udev->hcpriv;
	struct xhci_ep *ep = slot->eps[1];
	bool in = setup->bRequestType & USB_DIR_IN;
	uint64_t packet;
	int ret = xhci_slot_alive(slot);

	if (ret)
		return ret;
	if (len && !xhci_reaches(slot->xhci, buf, len))
		return -EIO;
	memcpy(&packet, setup, sizeof(packet));
	xhci_td_start(ep, true, 3);
	xhci_td_add(ep, packet, 8, TRB_TYPE(TRB_SETUP) | TRB_IDT |
		    (len ? (in ? TRB_TRT_IN : TRB_TRT_OUT) : 0), 0);
	if (len)
		xhci_td_add(ep, buf, len, TRB_TYPE(TRB_DATA) | TRB_ISP | (in ? TRB_DIR_IN : 0), len);
	xhci_td_add(ep, 0, 0, TRB_TYPE(TRB_STATUS) | TRB_IOC | (len && in ? 0 : TRB_DIR_IN), 0);
	ret = xhci_td_run(slot, ep, timeout_ms);
	if (ret == -EPIPE || ret == -EPROTO)
		xhci_reset_ep(slot, ep);
	return ret;
}

/*
 * TD Size of a TRB (xHCI 4.11.2.4, Linux's xhci_td_remainder): the
 * packets of the TD still to go after this TRB's bytes, at most 31; 0 in
 * the last TRB.  Before xHCI 1.0 it counted the KiB left instead.
 */
static unsigned int xhci_td_remainder(const struct xhci_hcd *xhci, unsigned int transferred,
				      unsigned int trb_len, unsigned int td_len,
				      unsigned int maxpacket, bool last)
{
	if (xhci->hci_version < 0x100)
		return MIN((td_len - transferred) >> 10, 31u);
	if (last)
		return 0;
	return MIN((td_len + maxpacket - 1) / maxpacket - (transferred + trb_len) / maxpacket, 31u);
}

static int xhci_bulk(struct usb_device *udev, struct usb_host_endpoint *hep,
		     const struct scatterlist *sg, unsigned int nsg, unsigned int *actual,
		     unsigned int timeout_ms)
{
	struct xhci_slot *slot = udev->hcpriv;
	struct xhci_ep *ep = hep->hcpriv;
	unsigned int i, total = 0, done = 0;
	uint32_t control, size;
	int ret = xhci_slot_alive(slot);

	if (ret)
		return ret;
	if (nsg == 0 || nsg > XHCI_MAX_TD_TRBS)
		return -EINVAL;
	for (i = 0; i < nsg; i++) {
		if (!sg[i].length || sg[i].length > PAGE_SIZE ||
		    (sg[i].dma_address & ~(phys_addr_t)(PAGE_SIZE - 1)) !=
		    ((sg[i].dma_address + sg[i].length - 1) & ~(phys_addr_t)(PAGE_SIZE - 1)))
			return -EINVAL;		/* a piece must stay in its page */
		if (!xhci_reaches(slot->xhci, sg[i].dma_address, sg[i].length)) {
			printk(KERN_ERR "usb %s: a buffer above 4 GiB, and the controller has 32-bit DMA\n",
			       udev->devpath);
			return -EIO;
		}
		total += sg[i].length;
	}
	xhci_td_start(ep, false, nsg);
	for (i = 0; i < nsg; i++) {
		control = TRB_TYPE(TRB_NORMAL) | TRB_ISP | (i + 1 < nsg ? TRB_CHAIN : TRB_IOC);
		size = xhci_td_remainder(slot->xhci, done, sg[i].length, total, ep->maxpacket,
					 i + 1 == nsg);
		xhci_td_add(ep, sg[i].dma_address, sg[i].length | TRB_TD_SIZE(size), control,
			    sg[i].length);
		done += sg[i].length;
	}
	ret = xhci_td_run(slot, ep, timeout_ms);
	*actual = ret >= 0 ? (unsigned int)ret : ep->td.actual;
	return ret < 0 ? ret : 0;
}

static int xhci_reset_endpoint(struct usb_device *udev, struct usb_host_endpoint *hep)
{
	int ret = xhci_slot_alive(udev->hcpriv);

	return ret ? ret : xhci_reset_ep(udev->hcpriv, hep->hcpriv);
}

/* The DCI of an endpoint address: 2 * number, plus one for IN. */
static unsigned int xhci_dci(uint8_t address)
{
	return 2 * (address & USB_ENDPOINT_NUMBER_MASK) + !!(address & USB_DIR_IN);
}

static int xhci_enable_endpoints(struct usb_device *udev)
{
	struct xhci_slot *slot = udev->hcpriv;
	struct xhci_hcd *xhci = slot->xhci;
	unsigned int i, dci, last = 1;
	uint32_t add = 1;		/* the slot context */
	int err;

	if (!udev->nr_ep)
		return 0;		/* a hub: its interrupt endpoint is not used */
	memset(page_address(slot->in_ctx), 0, PAGE_SIZE);
	for (i = 0; i < udev->nr_ep; i++) {
		struct usb_host_endpoint *hep = &udev->ep[i];
		struct xhci_ep *ep;

		dci = xhci_dci(hep->address);
		if (hep->type != USB_ENDPOINT_XFER_BULK || dci < 2 || slot->eps[dci] ||
		    !hep->maxpacket)
			return -EINVAL;
		ep = kzalloc(sizeof(*ep), GFP_KERNEL);
		if (!ep)
			return -ENOMEM;
		ep->dci = dci;
		ep->type = hep->address & USB_DIR_IN ? EP_BULK_IN : EP_BULK_OUT;
		ep->maxpacket = hep->maxpacket;
		ep->maxburst = hep->maxburst;
		err = xhci_ring_init(xhci, &ep->ring, true);
		if (err) {
			kfree(ep);
			return err;
		}
		slot->eps[dci] = ep;
		hep->hcpriv = ep;
		xhci_fill_ep_ctx(slot, ep);
		add |= 1u << dci;
		last = MAX(last, dci);
	}
	in_ctrl(slot)[1] = add;
	xhci_copy_slot_ctx(slot, last);
	return xhci_command_ok(slot, page_to_phys(slot->in_ctx), TRB_TYPE(TRB_CONFIG_EP),
			       "Configure Endpoint");
}

static struct usb_device *xhci_alloc_device(struct usb_device *hub, unsigned int port,
					    enum usb_device_speed speed);
static int xhci_update_hub(struct usb_device *hub, unsigned int nports, unsigned int think_time);

static const struct hc_driver xhci_hc_driver = {
	.control = xhci_control,
	.enable_endpoints = xhci_enable_endpoints,
	.bulk = xhci_bulk,
	.reset_endpoint = xhci_reset_endpoint,
	.update_hub = xhci_update_hub,
	.alloc_device = xhci_alloc_device,
};

/*
 * Devices on the root ports.
 */

static const char *const xhci_speed_name[] = {
	[USB_SPEED_LOW] = "low-speed", [USB_SPEED_FULL] = "full-speed",
	[USB_SPEED_HIGH] = "high-speed", [USB_SPEED_SUPER] = "SuperSpeed",
};

/* PORTSC's speed field (a Protocol Speed ID) as the USB speed, by the
 * default IDs controllers use for their USB 2 and 3 ports: 1 full, 2
 * low, 3 high, 4 SuperSpeed, 5 and up SuperSpeedPlus (driven here as
 * SuperSpeed: same endpoint 0, same bulk packets). */
static enum usb_device_speed xhci_port_speed(uint32_t portsc)
{
	switch (PORT_SPEED(portsc)) {
	case 0: return USB_SPEED_UNKNOWN;
	case 1: return USB_SPEED_FULL;
	case 2: return USB_SPEED_LOW;
	case 3: return USB_SPEED_HIGH;
	default: return USB_SPEED_SUPER;
	}
}

/* Endpoint 0's first max packet size: what the speed implies (a
 * full-speed device may say otherwise; 8 always works to start with). */
static unsigned int xhci_ep0_maxpacket(enum usb_device_speed speed)
{
	switch (speed) {
	case USB_SPEED_HIGH: return 64;
	case USB_SPEED_SUPER: return 512;
	default: return 8;
	}
}

/* Reset port n when a device is on it and the port is not enabled (a
 * USB 2 port; USB 3 ports enable themselves), and wait for it to be
 * enabled.  Returns PORTSC then, or 0 when the port has no device or
 * does not come up (logged). */
static uint32_t xhci_port_reset(struct xhci_hcd *xhci, unsigned int n)
{
	uint32_t portsc = xhci_readl(xhci->op, XHCI_PORTSC(n));

	if (!(portsc & PORT_CONNECT))
		return 0;
	if (!(portsc & PORT_PE)) {
		/* Old change bits off first, so that PRC means this reset's end. */
		xhci_writel(xhci->op, XHCI_PORTSC(n), (portsc & PORT_RW_MASK) | (portsc & PORT_CHANGE_BITS));
		xhci_writel(xhci->op, XHCI_PORTSC(n), (portsc & PORT_RW_MASK) | PORT_RESET);
		if (!pci_mmio_poll(xhci->op + XHCI_PORTSC(n), PORT_RC, PORT_RC, XHCI_TMOUT_PORT_RESET)) {
			printk(KERN_WARNING "usb%u: port %u does not finish its reset\n",
			       xhci->hcd.busnum, n);
			return 0;
		}
		mdelay(10);	/* reset recovery (USB 2.0 7.1.7.5, TRSTRCY) */
		portsc = xhci_readl(xhci->op, XHCI_PORTSC(n));
	}
	xhci_writel(xhci->op, XHCI_PORTSC(n), (portsc & PORT_RW_MASK) | (portsc & PORT_CHANGE_BITS));
	if (!(portsc & PORT_PE)) {
		printk(KERN_WARNING "usb%u: port %u: a device that does not enable\n",
		       xhci->hcd.busnum, n);
		return 0;
	}
	return portsc;
}

/* The slot's endpoint 0: its ring, and the slot and endpoint contexts
 * Address Device takes: the speed ID, the route string through the hubs
 * above, and for a full- or low-speed device behind a high-speed hub,
 * that hub's slot and port (its transaction translator). */
static int xhci_setup_ep0(struct xhci_slot *slot, uint32_t speed_id, uint32_t route,
			  unsigned int tt_slot, unsigned int tt_port)
{
	struct xhci_ep *ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	uint32_t *ctx;
	int err;

	if (!ep)
		return -ENOMEM;
	ep->dci = 1;
	ep->type = EP_CTRL;
	ep->maxpacket = xhci_ep0_maxpacket(slot->udev.speed);
	err = xhci_ring_init(slot->xhci, &ep->ring, true);
	if (err) {
		kfree(ep);
		return err;
	}
	slot->eps[1] = ep;
	in_ctrl(slot)[1] = 3;		/* add the slot and endpoint 0 */
	ctx = in_slot(slot);
	ctx[0] = route | SLOT_SPEED(speed_id) | LAST_CTX(1);
	ctx[1] = ROOT_HUB_PORT(slot->port);
	ctx[2] = tt_slot | tt_port << 8;
	xhci_fill_ep_ctx(slot, ep);
	return 0;
}

/* Tell the controller endpoint 0's real max packet size (a full-speed
 * device's bMaxPacketSize0) with Evaluate Context. */
static int xhci_update_ep0(struct xhci_slot *slot, unsigned int maxpacket)
{
	uint32_t *ctx;

	memset(page_address(slot->in_ctx), 0, PAGE_SIZE);
	in_ctrl(slot)[1] = 2;		/* endpoint 0 */
	memcpy(in_ep(slot, 1), xhci_ctx(slot->xhci, slot->out_ctx, 1), slot->xhci->ctx_size);
	ctx = in_ep(slot, 1);
	ctx[0] &= ~EP_STATE_MASK;
	ctx[1] = (ctx[1] & 0xffff) | MAX_PACKET(maxpacket);
	return xhci_command_ok(slot, page_to_phys(slot->in_ctx), TRB_TYPE(TRB_EVAL_CONTEXT),
			       "Evaluate Context");
}

/* The default speed ID of a device on a hub's port (a root port's is
 * in its PORTSC). */
static uint32_t xhci_speed_id(enum usb_device_speed speed)
{
	switch (speed) {
	case USB_SPEED_LOW: return 2;
	case USB_SPEED_HIGH: return 3;
	case USB_SPEED_SUPER: return 4;
	default: return 1;
	}
}

static struct xhci_slot *xhci_parent_slot(const struct xhci_slot *slot)
{
	return slot->udev.parent ? slot->udev.parent->hcpriv : NULL;
}

/*
 * A device of speed (speed_id in the slot context) on port of parent (a
 * hub's slot), or on root port port when parent is NULL: a slot for it
 * (Enable Slot), its contexts, endpoint 0 addressed (Address Device) and
 * its packet size known.  The slot, or NULL (logged).  A slot stays for
 * the whole boot, also when the core finds no driver for the device.
 */
static struct xhci_slot *xhci_alloc_dev(struct xhci_hcd *xhci, struct xhci_slot *parent,
					unsigned int port, enum usb_device_speed speed,
					uint32_t speed_id)
{
	unsigned int id, tt_slot = 0, tt_port = 0, pport = port;
	struct usb_device_descriptor *desc;
	struct xhci_slot *slot, *p;
	unsigned long flags;
	uint32_t route = 0;
	int code, len;

	code = xhci_command(xhci, 0, TRB_TYPE(TRB_ENABLE_SLOT), &id);
	if (code != COMP_SUCCESS || id == 0 || id > XHCI_MAX_SLOTS) {
		printk(KERN_WARNING "usb%u: port %u: no device slot (completion %d, slot %u)\n",
		       xhci->hcd.busnum, port, code, id);
		return NULL;
	}
	slot = kzalloc(sizeof(*slot), GFP_KERNEL);
	if (!slot || !(slot->out_ctx = xhci_alloc_page(xhci)) ||
	    !(slot->in_ctx = xhci_alloc_page(xhci))) {
		printk(KERN_ERR "usb%u: port %u: out of memory for the device\n", xhci->hcd.busnum, port);
		return NULL;	/* what was allocated stays with the enabled slot */
	}
	slot->xhci = xhci;
	slot->id = id;
	slot->port = parent ? parent->port : port;
	slot->udev.bus = &xhci->hcd;
	slot->udev.hcpriv = slot;
	slot->udev.busnum = xhci->hcd.busnum;
	slot->udev.parent = parent ? &parent->udev : NULL;
	slot->udev.portnum = port;
	slot->udev.level = parent ? parent->udev.level + 1 : 0;
	slot->udev.speed = speed;
	if (parent) {
		snprintf(slot->udev.devpath, sizeof(slot->udev.devpath), "%s.%u",
			 parent->udev.devpath, port);
		/* The route string: a nibble per hub below the root port. */
		route = (xhci_ctx(xhci, parent->out_ctx, 0)[0] & 0xfffff) |
			MIN(port, 15u) << (4 * parent->udev.level);
	} else {
		snprintf(slot->udev.devpath, sizeof(slot->udev.devpath), "%u-%u", xhci->hcd.busnum,
			 port);
	}
	if (speed == USB_SPEED_FULL || speed == USB_SPEED_LOW)
		for (p = parent; p; pport = p->udev.portnum, p = xhci_parent_slot(p))
			if (p->udev.speed == USB_SPEED_HIGH) {
				tt_slot = p->id;
				tt_port = pport;
				break;
			}
	if (xhci_setup_ep0(slot, speed_id, route, tt_slot, tt_port))
		return NULL;
	((uint64_t *)page_address(xhci->dcbaa))[id] = page_to_phys(slot->out_ctx);
	spin_lock_irqsave(&xhci->lock, flags);
	xhci->slots[id] = slot;
	spin_unlock_irqrestore(&xhci->lock, flags);
	if (xhci_command_ok(slot, page_to_phys(slot->in_ctx), TRB_TYPE(TRB_ADDR_DEV),
			    "Address Device"))
		return NULL;
	mdelay(2);			/* SET_ADDRESS recovery (USB 2.0 9.2.6.3) */
	printk(KERN_INFO "usb %s: new %s USB device number %u using xhci_hcd\n", slot->udev.devpath,
	       speed < ARRAY_SIZE(xhci_speed_name) && xhci_speed_name[speed] ?
	       xhci_speed_name[speed] : "unknown-speed", id);
	if (speed == USB_SPEED_FULL || speed == USB_SPEED_LOW) {
		/* Endpoint 0 starts at 8 bytes; the descriptor's first 8 say
		 * what it really takes (8, 16, 32 or 64). */
		desc = kmalloc(8, GFP_KERNEL);
		if (!desc)
			return NULL;
		len = usb_get_descriptor(&slot->udev, USB_DT_DEVICE, 0, desc, 8);
		len = len == 8 ? desc->bMaxPacketSize0 : 0;
		kfree(desc);
		if (len != 8 && len != 16 && len != 32 && len != 64) {
			printk(KERN_WARNING "usb %s: endpoint 0's packet size unreadable or invalid (%d), skipped\n",
			       slot->udev.devpath, len);
			return NULL;
		}
		if (len != 8 && xhci_update_ep0(slot, (unsigned int)len))
			return NULL;
	}
	return slot;
}

/* A device on root port n, whose PORTSC says its speed. */
static void xhci_new_device(struct xhci_hcd *xhci, unsigned int n, uint32_t portsc)
{
	enum usb_device_speed speed = xhci_port_speed(portsc);
	struct xhci_slot *slot;

	if (speed == USB_SPEED_UNKNOWN) {
		printk(KERN_WARNING "usb%u: port %u: a device of no known speed, skipped\n",
		       xhci->hcd.busnum, n);
		return;
	}
	slot = xhci_alloc_dev(xhci, NULL, n, speed, PORT_SPEED(portsc));
	if (slot)
		usb_new_device(&slot->udev);
}

static struct usb_device *xhci_alloc_device(struct usb_device *hub, unsigned int port,
					    enum usb_device_speed speed)
{
	struct xhci_slot *parent = hub->hcpriv;
	struct xhci_slot *slot;

	if (xhci_slot_alive(parent))
		return NULL;
	slot = xhci_alloc_dev(parent->xhci, parent, port, speed, xhci_speed_id(speed));
	return slot ? &slot->udev : NULL;
}

/* The hub's slot context says it is a hub: the Hub bit, its ports, and
 * its TT think time (for a high-speed hub, and always before xHCI 1.0),
 * with Configure Endpoint (Linux's xhci_update_hub_device); a 0.95
 * controller gets Evaluate Context, which takes none of these fields, so
 * devices behind a hub there are addressed without them. */
static int xhci_update_hub(struct usb_device *hub, unsigned int nports, unsigned int think_time)
{
	struct xhci_slot *slot = hub->hcpriv;
	uint32_t *ctx;
	int ret = xhci_slot_alive(slot);

	if (ret)
		return ret;
	memset(page_address(slot->in_ctx), 0, PAGE_SIZE);
	in_ctrl(slot)[1] = 1;		/* the slot context */
	xhci_copy_slot_ctx(slot, (xhci_ctx(slot->xhci, slot->out_ctx, 0)[0] >> 27) & 0x1f);
	ctx = in_slot(slot);
	ctx[0] |= SLOT_HUB;
	ctx[1] = (ctx[1] & 0x00ffffff) | (uint32_t)nports << 24;
	if (hub->speed == USB_SPEED_HIGH || slot->xhci->hci_version < 0x100)
		ctx[2] = (ctx[2] & ~(3u << 16)) | think_time << 16;
	return xhci_command_ok(slot, page_to_phys(slot->in_ctx),
			       TRB_TYPE(slot->xhci->hci_version > 0x95 ? TRB_CONFIG_EP :
					TRB_EVAL_CONTEXT), "Configure Endpoint for a hub");
}

/*
 * The controller.
 */

/* Take the controller from the firmware (xHCI 4.22.1): set the OS-owned
 * semaphore, wait for the BIOS to drop its own, turn its SMIs off. */
static void xhci_bios_handoff(struct xhci_hcd *xhci)
{
	unsigned int off = (xhci_readl(xhci->cap, XHCI_HCCPARAMS1) >> 16) << 2;
	uint32_t val;

	while (off) {
		val = xhci_readl(xhci->cap, off);
		if ((val & 0xff) == XHCI_EXT_CAPS_LEGACY) {
			if (val & XHCI_HC_BIOS_OWNED) {
				xhci_writel(xhci->cap, off, val | XHCI_HC_OS_OWNED);
				if (!pci_mmio_poll(xhci->cap + off, XHCI_HC_BIOS_OWNED, 0,
						    XHCI_TMOUT_HANDOFF)) {
					printk(KERN_WARNING "usb%u: the firmware does not hand the controller over; taking it\n",
					       xhci->hcd.busnum);
					xhci_writel(xhci->cap, off, (val & ~XHCI_HC_BIOS_OWNED) |
						    XHCI_HC_OS_OWNED);
				}
			}
			val = xhci_readl(xhci->cap, off + XHCI_LEGACY_CONTROL);
			xhci_writel(xhci->cap, off + XHCI_LEGACY_CONTROL,
				    (val & XHCI_LEGACY_DISABLE_SMI) | XHCI_LEGACY_SMI_EVENTS);
			return;
		}
		off = ((val >> 8) & 0xff) ? off + (((val >> 8) & 0xff) << 2) : 0;
	}
}

/* Intel's 7 and 8 series chipsets give their USB ports to the EHCI
 * controller beside the xHCI until the OS switches them over in the
 * xHCI's configuration space (Linux's usb_enable_intel_xhci_ports):
 * without it a stick in such a PC is not seen here. */
#define INTEL_USB3_PSSEN	0xd8	/* SuperSpeed enable, by port */
#define INTEL_USB3PRM		0xdc	/* ...which ports may be switched */
#define INTEL_XUSB2PR		0xd0	/* USB 2 ports routed to the xHCI */
#define INTEL_XUSB2PRM		0xd4	/* ...which may be */

static void xhci_intel_switch_ports(struct xhci_hcd *xhci)
{
	static const uint16_t switchable[] = { 0x1e31, 0x8c31, 0x9c31 };
	struct pci_dev *pdev = xhci->pdev;
	uint32_t mask;
	unsigned int i;

	if (pdev->vendor != 0x8086)
		return;
	for (i = 0; i < ARRAY_SIZE(switchable) && switchable[i] != pdev->device; i++)
		;
	if (i == ARRAY_SIZE(switchable))
		return;
	pci_read_config_dword(pdev, INTEL_USB3PRM, &mask);
	pci_write_config_dword(pdev, INTEL_USB3_PSSEN, mask);
	pci_read_config_dword(pdev, INTEL_XUSB2PRM, &mask);
	pci_write_config_dword(pdev, INTEL_XUSB2PR, mask);
	printk(KERN_INFO "usb%u: xhci: the chipset's USB ports switched over from EHCI (%#x)\n",
	       xhci->hcd.busnum, mask);
}

/* Halt and reset the controller; false (logged) when it does not. */
static bool xhci_reset(struct xhci_hcd *xhci)
{
	/* No operational register may be written before CNR clears (xHCI 4.2). */
	if (!pci_mmio_poll(xhci->op + XHCI_USBSTS, STS_CNR, 0, XHCI_TMOUT_RESET)) {
		printk(KERN_WARNING "usb%u: xhci: the controller is never ready, skipped\n",
		       xhci->hcd.busnum);
		return false;
	}
	xhci_writel(xhci->op, XHCI_USBCMD, xhci_readl(xhci->op, XHCI_USBCMD) & ~CMD_RUN);
	if (!pci_mmio_poll(xhci->op + XHCI_USBSTS, STS_HALT, STS_HALT, XHCI_TMOUT_RESET) ||
	    (xhci_writel(xhci->op, XHCI_USBCMD, CMD_RESET),
	     !pci_mmio_poll(xhci->op + XHCI_USBCMD, CMD_RESET, 0, XHCI_TMOUT_RESET)) ||
	    !pci_mmio_poll(xhci->op + XHCI_USBSTS, STS_CNR, 0, XHCI_TMOUT_RESET)) {
		printk(KERN_WARNING "usb%u: xhci: the controller does not reset, skipped\n",
		       xhci->hcd.busnum);
		return false;
	}
	return true;
}

/* Scratchpad buffers the controller asks for (HCSPARAMS2): an array of
 * page addresses in DCBAA entry 0.  0 or -ENOMEM. */
static int xhci_alloc_scratchpad(struct xhci_hcd *xhci)
{
	uint32_t p2 = xhci_readl(xhci->cap, XHCI_HCSPARAMS2);
	unsigned int n = ((p2 >> 21) & 0x1f) << 5 | (p2 >> 27), i;
	struct page *array, *buf;

	if (n == 0)
		return 0;
	if (n > PAGE_SIZE / sizeof(uint64_t) || !(array = xhci_alloc_page(xhci)))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!(buf = xhci_alloc_page(xhci)))
			return -ENOMEM;	/* kept: the controller is not started */
		((uint64_t *)page_address(array))[i] = page_to_phys(buf);
	}
	((uint64_t *)page_address(xhci->dcbaa))[0] = page_to_phys(array);
	return 0;
}

/* Rings, contexts and interrupter 0 set up, the controller started;
 * false (logged) when memory or the controller fails. */
static bool xhci_start(struct xhci_hcd *xhci)
{
	uint64_t *erst;

	if (!(xhci->dcbaa = xhci_alloc_page(xhci)) || xhci_alloc_scratchpad(xhci) ||
	    xhci_ring_init(xhci, &xhci->cmd_ring, true) ||
	    xhci_ring_init(xhci, &xhci->event_ring, false))
		return false;
	xhci_writel(xhci->op, XHCI_CONFIG, MIN(xhci->max_slots, XHCI_MAX_SLOTS));
	xhci_write64(xhci->op, XHCI_DCBAAP, page_to_phys(xhci->dcbaa));
	xhci_write64(xhci->op, XHCI_CRCR, xhci->cmd_ring.dma | 1);
	/* The event ring segment table: one entry, 64-byte aligned, at the
	 * end of the DCBAA's page, after the slots' entries. */
	erst = (uint64_t *)((char *)page_address(xhci->dcbaa) + PAGE_SIZE - 64);
	erst[0] = xhci->event_ring.dma;
	erst[1] = TRBS_PER_RING;
	xhci_writel(xhci->run, XHCI_ERSTSZ, 1);
	xhci_write64(xhci->run, XHCI_ERDP, xhci->event_ring.dma);
	xhci_write64(xhci->run, XHCI_ERSTBA, virt_to_phys(erst));
	xhci_writel(xhci->run, XHCI_IMOD, 0);
	xhci_writel(xhci->run, XHCI_IMAN, IMAN_IP | (xhci->use_irq ? IMAN_IE : 0));
	xhci->running = true;		/* its rings exist: the handler may read them */
	xhci_writel(xhci->op, XHCI_USBCMD, CMD_RUN | (xhci->use_irq ? CMD_EIE : 0));
	if (!pci_mmio_poll(xhci->op + XHCI_USBSTS, STS_HALT, 0, XHCI_TMOUT_RESET)) {
		printk(KERN_WARNING "usb%u: xhci: the controller does not start\n", xhci->hcd.busnum);
		return false;
	}
	return true;
}

static void xhci_probe(struct pci_dev *pdev)
{
	struct xhci_hcd *xhci = kzalloc(sizeof(*xhci), GFP_KERNEL);
	unsigned long flags;
	uint32_t portsc;
	unsigned int n;

	if (!xhci || !(xhci->cap = pci_iomap(pdev, 0, "xhci"))) {
		kfree(xhci);
		return;
	}
	xhci->pdev = pdev;
	xhci->hcd.driver = &xhci_hc_driver;
	xhci->hcd.busnum = usb_new_busnum();
	xhci->hcd.hcpriv = xhci;
	xhci->op = xhci->cap + (xhci_readl(xhci->cap, XHCI_CAPLENGTH) & 0xff);
	xhci->run = xhci->cap + (xhci_readl(xhci->cap, XHCI_RTSOFF) & ~0x1fu);
	xhci->db = xhci->cap + (xhci_readl(xhci->cap, XHCI_DBOFF) & ~0x3u);
	xhci->max_slots = xhci_readl(xhci->cap, XHCI_HCSPARAMS1) & 0xff;
	xhci->max_ports = xhci_readl(xhci->cap, XHCI_HCSPARAMS1) >> 24;
	xhci->ac64 = xhci_readl(xhci->cap, XHCI_HCCPARAMS1) & HCC_64BIT_ADDR;
	xhci->ctx_size = xhci_readl(xhci->cap, XHCI_HCCPARAMS1) & HCC_64BYTE_CONTEXT ? 64 : 32;
	xhci->hci_version = xhci_readl(xhci->cap, XHCI_CAPLENGTH) >> 16;
	spin_lock_init(&xhci->lock, "xhci");
	init_waitqueue_head(&xhci->wq);
	mutex_init(&xhci->cmd_mutex);
	printk(KERN_INFO "usb%u: xHCI %x.%02x at %#lx, %u ports, %u slots%s\n", xhci->hcd.busnum,
	       xhci->hci_version >> 8, xhci->hci_version & 0xff,
	       (unsigned long)pci_resource_start(pdev, 0), xhci->max_ports, xhci->max_slots, xhci->ac64 ? ", 64-bit DMA" : "");
	if (!(xhci_readl(xhci->op, XHCI_PAGESIZE) & 1)) {
		printk(KERN_WARNING "usb%u: xhci: no 4 KiB page size, skipped\n", xhci->hcd.busnum);
		return;
	}
	xhci_bios_handoff(xhci);
	if (!xhci_reset(xhci))
		return;
	xhci_intel_switch_ports(xhci);
	{
		char who[24];

		snprintf(who, sizeof(who), "usb%u: xhci", xhci->hcd.busnum);
		xhci->use_irq = pci_request_irq(pdev, xhci_irq, "xhci", who, &xhci_irq_lines);
	}
	flags = local_irq_save();	/* the handler walks xhci_hosts */
	list_add_tail(&xhci->list, &xhci_hosts);
	local_irq_restore(flags);
	if (!xhci_start(xhci))
		return;
	if (xhci->use_irq)
		printk(KERN_INFO "usb%u: xhci: completion by interrupt on IRQ %u\n",
		       xhci->hcd.busnum, pdev->irq);
	for (n = 1; n <= xhci->max_ports; n++) {
		portsc = xhci_readl(xhci->op, XHCI_PORTSC(n));
		if (!(portsc & PORT_POWER)) {
			xhci_writel(xhci->op, XHCI_PORTSC(n), (portsc & PORT_RW_MASK) | PORT_POWER);
			mdelay(20);
		}
	}
	mdelay(100);			/* devices connect after power (USB 2.0 7.1.7.3) */
	for (n = 1; n <= xhci->max_ports && !xhci->dead; n++) {
		portsc = xhci_port_reset(xhci, n);
		if (portsc)
			xhci_new_device(xhci, n, portsc);
	}
}

void xhci_init(void)
{
	struct pci_dev *pdev = NULL;

	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev)))
		if (pdev->class == PCI_CLASS_SERIAL_USB_XHCI)
			xhci_probe(pdev);
}
