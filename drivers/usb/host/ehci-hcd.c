/*
 * USB 2 host controllers (EHCI 1.0; Linux's drivers/usb/host/ehci-hcd.c,
 * ehci-q.c and ehci-hub.c, reduced to the asynchronous schedule): PCI
 * class 0c:03:20, registers in memory BAR 0, completion by INTx or, when
 * the line is another driver's, by polling.  PCs from before xHCI (about
 * 2012) have these for their high-speed ports, with UHCI or OHCI
 * companion controllers taking the full- and low-speed devices, which
 * are handed to those and not driven here (a line says so).
 *
 * The controller walks the asynchronous schedule: a ring of queue heads
 * (QH), one per endpoint in use, starting at a head QH that has no
 * endpoint (the H bit).  Each QH's overlay holds the transfer descriptor
 * (qTD) it works on; a transfer is a chain of qTDs, one per piece of the
 * buffer (a control transfer: setup, data, status), hung on the QH by
 * writing its first qTD into the overlay's next pointer.  The controller
 * clears each qTD's Active bit when it is done with it, so completion is
 * read from the qTDs themselves; the interrupt (IOC on the last qTD, a
 * short packet, an error) only wakes the waiter.
 *
 * States of an endpoint (struct ehci_ep), changed only by the task that
 * owns the endpoint (endpoint 0 at probe, a storage device's bulk
 * endpoints by its thread):
 *   idle      the overlay's next pointer is the terminator: nothing to do.
 *   running   a chain of ntd qTDs hangs on it; the waiter reads their
 *             tokens: the last done, a short packet on an IN (a bulk
 *             transfer ends there; a control transfer goes on to its
 *             status stage through the alternate next pointer), or a
 *             halt (a stall, or a transaction error after three tries).
 *   halted    the overlay's Halted bit: the controller skips the QH,
 *             and a transfer fails at once with -EPROTO, until
 *             reset_endpoint clears it (endpoint 0 clears it itself).
 * A device whose root port loses its connection or is disabled is gone:
 * its transfers end with -ENODEV, and its disconnect is logged once.
 * A transfer that does not end by its deadline is cancelled the only
 * safe way: its QH is unlinked from the ring, the Interrupt on Async
 * Advance doorbell says when the controller no longer holds it, its
 * state is cleared, and it is linked again.
 *
 * Bulk QHs keep the data toggle in their overlay (DTC 0): a cancel keeps
 * it, and reset_endpoint sets it back to DATA0, as CLEAR_FEATURE
 * (ENDPOINT_HALT) does on the device; endpoint 0 takes its toggle from
 * each qTD.  The overlay of a linked QH is only written while the queue
 * is idle, in an order that never lets the controller follow a stale
 * pointer (ehci_qh_idle()).
 *
 * Memory: each endpoint has two pages below 4 GiB (GFP_DMA32, so
 * CTRLDSSEGMENT stays 0): its QH, then EHCI_MAX_QTD qTDs, then an
 * always-inactive one the alternate next pointers of bulk IN transfers
 * lead to.  Data above 4 GiB needs the 64-bit capability (the qTDs' high
 * buffer pointers), else the transfer fails with -EIO and a line.
 */
#include <asm/io.h>
#include <drivers/pci.h>
#include <drivers/usb.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <pageturn/irq.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/spinlock.h>
#include <pageturn/string.h>
#include <pageturn/time.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>

#define PCI_CLASS_SERIAL_USB_EHCI	0x0c0320

/* Capability registers. */
#define EHCI_CAPLENGTH		0x00	/* byte; HCIVERSION is the word at 0x02 */
#define EHCI_HCSPARAMS		0x04
#define  HCS_N_PORTS(p)		((p) & 0xf)
#define  HCS_PPC		(1u << 4)	/* ports have power switches */
#define  HCS_N_CC(p)		(((p) >> 12) & 0xf)	/* companion controllers */
#define EHCI_HCCPARAMS		0x08
#define  HCC_64BIT_ADDR		(1u << 0)
#define  HCC_EXT_CAPS(p)	(((p) >> 8) & 0xff)	/* in PCI configuration space */

/* Operational registers, at CAPLENGTH. */
#define EHCI_USBCMD		0x00
#define  CMD_RUN		(1u << 0)
#define  CMD_RESET		(1u << 1)
#define  CMD_ASE		(1u << 5)	/* asynchronous schedule enable */
#define  CMD_IAAD		(1u << 6)	/* interrupt on async advance doorbell */
#define  CMD_ITC_1MS		(8u << 16)	/* interrupt threshold: 8 microframes */
#define EHCI_USBSTS		0x04
#define  STS_INT		(1u << 0)
#define  STS_ERR		(1u << 1)
#define  STS_PCD		(1u << 2)
#define  STS_FLR		(1u << 3)
#define  STS_FATAL		(1u << 4)	/* host system error */
#define  STS_IAA		(1u << 5)
#define  STS_HALT		(1u << 12)
#define  STS_ASS		(1u << 15)	/* asynchronous schedule status */
/* What the interrupt handler acknowledges: not IAA, which a waiter polls. */
#define  STS_ACK		(STS_INT | STS_ERR | STS_PCD | STS_FLR | STS_FATAL)
#define EHCI_USBINTR		0x08
#define EHCI_CTRLDSSEGMENT	0x10
#define EHCI_ASYNCLISTADDR	0x18
#define EHCI_CONFIGFLAG		0x40	/* 1: every port routed to this controller */
#define EHCI_PORTSC(n)		(0x44 + 4 * ((n) - 1))
#define  PORT_CONNECT		(1u << 0)
#define  PORT_CSC		(1u << 1)
#define  PORT_PE		(1u << 2)
#define  PORT_PEC		(1u << 3)
#define  PORT_OCC		(1u << 5)
#define  PORT_RESET		(1u << 8)
#define  PORT_LS(p)		(((p) >> 10) & 3)	/* line status: 1 is a low-speed K state */
#define  PORT_POWER		(1u << 12)
#define  PORT_OWNER		(1u << 13)	/* 1: the companion controller's */
/* PORTSC bits written back as they are: not the change bits (1 clears
 * them) and not PE (0 disables the port). */
#define  PORT_RWC_BITS		(PORT_CSC | PORT_PEC | PORT_OCC)

/* Legacy support, in PCI configuration space at HCC_EXT_CAPS. */
#define EHCI_USBLEGSUP_ID	1
#define  EHCI_BIOS_OWNED	(1u << 16)
#define  EHCI_OS_OWNED		(1u << 24)
#define EHCI_USBLEGCTLSTS	4

/* Link pointers (QH horizontal links, qTD next pointers). */
#define EHCI_LIST_END		1u	/* the T bit */
#define QH_TYPE			(1u << 1)

/* qTD token. */
#define QTD_ACTIVE		(1u << 7)
#define QTD_HALTED		(1u << 6)
#define QTD_BUFERR		(1u << 5)
#define QTD_BABBLE		(1u << 4)
#define QTD_XACT		(1u << 3)
#define QTD_PID_OUT		(0u << 8)
#define QTD_PID_IN		(1u << 8)
#define QTD_PID_SETUP		(2u << 8)
#define QTD_CERR		(3u << 10)	/* three tries */
#define QTD_IOC			(1u << 15)
#define QTD_LENGTH(tok)		(((tok) >> 16) & 0x7fff)	/* bytes not moved */
#define QTD_TOGGLE		(1u << 31)

/* QH endpoint characteristics (info1) and capabilities (info2). */
#define QH_ADDR(a)		((uint32_t)(a))
#define QH_ENDPT(e)		((uint32_t)(e) << 8)
#define QH_HIGH_SPEED		(2u << 12)
#define QH_TOGGLE_CTL		(1u << 14)	/* DTC: the toggle comes from each qTD */
#define QH_HEAD			(1u << 15)	/* the head of the reclamation list */
#define QH_MAXPACKET(m)		((uint32_t)(m) << 16)
#define QH_NAK_RELOAD		(4u << 28)
#define QH_MULT1		(1u << 30)

struct ehci_qtd {
	uint32_t next, alt_next, token;
	uint32_t buf[5], buf_hi[5];
	uint32_t pad[3];		/* 64 bytes: qTDs are 32-byte aligned */
};

struct ehci_qh {
	uint32_t hlink, info1, info2, current;
	/* The overlay: the qTD being worked on. */
	uint32_t next, alt_next, token;
	uint32_t buf[5], buf_hi[5];
	uint32_t pad[15];		/* 128 bytes; the controller reads 68 */
};

/* qTDs and QHs are 32-byte aligned (EHCI 3.5, 3.6): they follow each
 * other in an endpoint's pages at these sizes. */
_Static_assert(sizeof(struct ehci_qtd) == 64, "a qTD is 64 bytes here");
_Static_assert(sizeof(struct ehci_qh) == 128, "a QH is 128 bytes here");

#define EHCI_EP_ORDER		1	/* two pages an endpoint */
/* qTDs an endpoint's pages hold after its QH (two qTDs' room), less the
 * inactive one at the end. */
#define EHCI_MAX_QTD		((PAGE_SIZE << EHCI_EP_ORDER) / sizeof(struct ehci_qtd) - 3)
_Static_assert(sizeof(struct ehci_qh) + (EHCI_MAX_QTD + 1) * sizeof(struct ehci_qtd) <=
	       (PAGE_SIZE << EHCI_EP_ORDER), "the QH and every qTD fit an endpoint's pages");

/* Bounds of the waits, milliseconds. */
#define EHCI_TMOUT_RESET	250
#define EHCI_TMOUT_HANDOFF	1000
#define EHCI_TMOUT_IAA		100

struct ehci_hcd;

struct ehci_ep {
	struct page *pages;
	struct ehci_qh *qh;
	phys_addr_t qh_dma;
	struct ehci_qtd *qtd;		/* EHCI_MAX_QTD, then the inactive one */
	phys_addr_t qtd_dma;
	bool control;
	unsigned int maxpacket;
	/* The transfer hanging on it: its qTDs, each one's length, and
	 * which of them carry data (a control transfer's setup and status
	 * do not count in the bytes moved). */
	unsigned int ntd;
	unsigned int actual;		/* bytes moved, as far as the qTDs tell */
	unsigned int len[EHCI_MAX_QTD];
	bool data[EHCI_MAX_QTD];
	struct ehci_ep *next;		/* the ring after the head, in software */
};

/* A device on a root port, or behind a hub on one. */
struct ehci_dev {
	struct ehci_hcd *ehci;
	struct ehci_ep *ep0;
	unsigned int port;		/* the root port */
	bool gone;			/* its disconnect was logged */
	struct usb_device udev;
};

struct ehci_hcd {
	struct usb_hcd hcd;
	struct pci_dev *pdev;
	volatile uint8_t *cap, *op;
	unsigned int n_ports;
	bool addr64;
	bool use_irq;
	bool running;			/* started: the interrupt handler may look */
	bool dead;			/* a host system error: every call fails */
	spinlock_t lock;		/* the ring's links */
	wait_queue_head_t wq;		/* waiters for a transfer */
	struct ehci_ep *head;		/* the head QH, no endpoint */
	unsigned int next_address;
	struct list_head list;		/* walked by the interrupt handler */
};

static LIST_HEAD(ehci_hosts);		/* changed with interrupts off */
static uint16_t ehci_irq_lines;		/* bit n: our handler owns PIC line n */

static uint32_t ehci_readl(volatile uint8_t *base, unsigned int reg)
{
	return readl(base + reg);
}

static void ehci_writel(volatile uint8_t *base, unsigned int reg, uint32_t v)
{
	writel(v, base + reg);
}

/* A new endpoint's QH and qTDs, zeroed, idle; NULL when memory is short. */
static struct ehci_ep *ehci_ep_alloc(void)
{
	struct ehci_ep *ep = kzalloc(sizeof(*ep), GFP_KERNEL);

	if (!ep)
		return NULL;
	ep->pages = alloc_pages(GFP_KERNEL | GFP_DMA32 | __GFP_ZERO, EHCI_EP_ORDER);
	if (!ep->pages || page_to_phys(ep->pages) >= (1ull << 32)) {
		if (ep->pages)
			__free_pages(ep->pages, EHCI_EP_ORDER);
		kfree(ep);
		return NULL;
	}
	ep->qh = page_address(ep->pages);
	ep->qh_dma = page_to_phys(ep->pages);
	ep->qtd = (struct ehci_qtd *)(ep->qh + 1);
	ep->qtd_dma = ep->qh_dma + sizeof(struct ehci_qh);
	ep->qh->next = EHCI_LIST_END;
	ep->qh->alt_next = EHCI_LIST_END;
	ep->qtd[EHCI_MAX_QTD].next = EHCI_LIST_END;	/* the inactive qTD */
	ep->qtd[EHCI_MAX_QTD].alt_next = EHCI_LIST_END;
	return ep;
}

static phys_addr_t ehci_qtd_dma(const struct ehci_ep *ep, unsigned int i)
{
	return ep->qtd_dma + i * sizeof(struct ehci_qtd);
}

/* Link ep into the ring after the head.  The controller may be walking
 * it: ep's own link is set before the head points at it. */
static void ehci_link(struct ehci_hcd *ehci, struct ehci_ep *ep)
{
	unsigned long flags;

	spin_lock_irqsave(&ehci->lock, flags);
	ep->qh->hlink = ehci->head->qh->hlink;
	ep->next = ehci->head->next;
	__asm__ volatile("sfence" ::: "memory");
	ehci->head->qh->hlink = (uint32_t)ep->qh_dma | QH_TYPE;
	ehci->head->next = ep;
	spin_unlock_irqrestore(&ehci->lock, flags);
}

/* Wait for the controller to let go of what was unlinked: the Interrupt
 * on Async Advance doorbell (EHCI 4.8.2).  Some controllers clear IAAD
 * without setting IAA; that counts too (Linux's ehci_iaa_watchdog).
 * Polls; false when neither came. */
static bool ehci_async_advance(struct ehci_hcd *ehci)
{
	ehci_writel(ehci->op, EHCI_USBSTS, STS_IAA);
	ehci_writel(ehci->op, EHCI_USBCMD, ehci_readl(ehci->op, EHCI_USBCMD) | CMD_IAAD);
	if (!pci_mmio_poll(ehci->op + EHCI_USBSTS, STS_IAA, STS_IAA, EHCI_TMOUT_IAA) &&
	    ((ehci_readl(ehci->op, EHCI_USBCMD) & CMD_IAAD) ||
	     (ehci_readl(ehci->op, EHCI_USBSTS) & STS_HALT)))
		return false;
	ehci_writel(ehci->op, EHCI_USBSTS, STS_IAA);
	return true;
}

/*
 * Stop whatever ep's QH is doing: unlink it, wait until the controller
 * no longer holds it, clear its overlay (the data toggle kept, as
 * xHCI's Stop Endpoint keeps it) and qTDs, link it again.  A controller
 * that answers the doorbell neither by IAA nor by clearing IAAD is dead.
 */
static void ehci_cancel(struct ehci_hcd *ehci, struct ehci_ep *ep)
{
	struct ehci_ep *prev;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&ehci->lock, flags);
	for (prev = ehci->head; prev->next && prev->next != ep; prev = prev->next)
		;
	prev->qh->hlink = ep->qh->hlink;
	prev->next = ep->next;
	spin_unlock_irqrestore(&ehci->lock, flags);
	if (!ehci_async_advance(ehci)) {
		printk(KERN_ERR "usb%u: ehci: the controller does not advance its schedule; given up\n",
		       ehci->hcd.busnum);
		ehci->dead = true;
		return;
	}
	ep->qh->next = EHCI_LIST_END;
	ep->qh->alt_next = EHCI_LIST_END;
	ep->qh->token &= QTD_TOGGLE;
	for (i = 0; i < ep->ntd; i++)
		ep->qtd[i].token = 0;
	ehci_link(ehci, ep);
}

/*
 * Transfers.
 */

/* Fill qTD i of ep: len bytes at addr (within one page, or 0 bytes),
 * with token bits tok; next is the following qTD.  false when the
 * controller cannot reach addr. */
static bool ehci_fill_qtd(struct ehci_hcd *ehci, struct ehci_ep *ep, unsigned int i,
			  phys_addr_t addr, unsigned int len, uint32_t tok, bool data)
{
	struct ehci_qtd *qtd = &ep->qtd[i];

	if (len && !ehci->addr64 && addr + len > (1ull << 32))
		return false;
	memset(qtd, 0, sizeof(*qtd));
	qtd->next = (uint32_t)ehci_qtd_dma(ep, i + 1);
	qtd->alt_next = EHCI_LIST_END;
	qtd->buf[0] = (uint32_t)addr;
	qtd->buf_hi[0] = (uint32_t)(addr >> 32);
	qtd->token = tok | QTD_ACTIVE | QTD_CERR | (uint32_t)len << 16;
	ep->len[i] = len;
	ep->data[i] = data;
	return true;
}

/* Where ep's transfer stands: -EINPROGRESS, the bytes moved, or -EPIPE
 * (a stall: halted with tries left, whatever errors the tries before it
 * had, as Linux's qtd_copy_status reads it) or -EPROTO (babble, or three
 * transaction or buffer errors). */
static int ehci_td_status(struct ehci_ep *ep)
{
	unsigned int i, moved = 0;

	for (i = 0; i < ep->ntd; i++) {
		uint32_t tok = ((volatile struct ehci_qtd *)&ep->qtd[i])->token;

		if (tok & QTD_ACTIVE)
			return -EINPROGRESS;
		if (ep->data[i])
			moved += ep->len[i] - MIN(QTD_LENGTH(tok), ep->len[i]);
		ep->actual = moved;
		if (tok & QTD_HALTED)
			return !(tok & QTD_BABBLE) && (tok & QTD_CERR) ? -EPIPE : -EPROTO;
		if (QTD_LENGTH(tok) && ep->data[i] && !ep->control)
			break;		/* a short packet ends a bulk transfer */
	}
	return (int)moved;
}

/* Has dev (or the hub on its root port that leads to it) been pulled
 * out, or replaced: no connection there, or the port disabled?  Logged
 * once. */
static bool ehci_dev_gone(struct ehci_dev *dev)
{
	if ((ehci_readl(dev->ehci->op, EHCI_PORTSC(dev->port)) & (PORT_CONNECT | PORT_PE)) ==
	    (PORT_CONNECT | PORT_PE))
		return false;
	if (!dev->gone && (dev->ep0->qh->info1 & 0x7f))	/* announced: it has an address */
		printk(KERN_WARNING "usb %s: USB disconnect, device number %u\n", dev->udev.devpath,
		       dev->ep0->qh->info1 & 0x7f);
	dev->gone = true;
	return true;
}

static void ehci_irq(unsigned int irq, struct pt_regs *regs)
{
	struct ehci_hcd *ehci;
	uint32_t sts;

	(void)regs;
	list_for_each_entry(ehci, &ehci_hosts, list) {
		if (ehci->pdev->irq != irq || !ehci->running)
			continue;
		sts = ehci_readl(ehci->op, EHCI_USBSTS) & STS_ACK;
		if (!sts)
			continue;
		ehci_writel(ehci->op, EHCI_USBSTS, sts);
		wake_up(&ehci->wq);
	}
}

/*
 * ep's transfer has ended (or its QH is halted): leave the QH idle and
 * clean, so that nothing stale can be followed.  The controller writes
 * the overlay only while the queue is active, and it is not now: no qTD
 * it could reach is active.  First the overlay's next pointer, so that
 * it leads nowhere (after a short packet it still points into the
 * chain); then the qTDs a short packet or a halt left active.  The
 * controller retires a qTD after writing the overlay back (EHCI 4.10.3,
 * 4.10.4), but a controller that did it the other way round would still
 * be writing: the overlay's Active bit is waited for, briefly, before
 * the overlay is touched.  Then only a short end needs more: its byte
 * count cleared (the toggle kept), so that the queue is idle, not
 * waiting on its alternate pointer.  False when the overlay stayed
 * active: the caller cancels.
 */
static bool ehci_qh_idle(struct ehci_ep *ep)
{
	uint64_t deadline = ktime_get_ns() + 1000000;
	unsigned int i;
	uint32_t tok;

	ep->qh->next = EHCI_LIST_END;
	__asm__ volatile("sfence" ::: "memory");
	for (i = 0; i < ep->ntd; i++)
		ep->qtd[i].token &= ~QTD_ACTIVE;
	while ((tok = ((volatile struct ehci_qh *)ep->qh)->token) & QTD_ACTIVE)
		if (ktime_get_ns() > deadline)
			return false;
	if (!(tok & QTD_HALTED) && QTD_LENGTH(tok)) {
		ep->qh->alt_next = EHCI_LIST_END;
		__asm__ volatile("sfence" ::: "memory");
		ep->qh->token = tok & QTD_TOGGLE;
	}
	return true;
}

/*
 * Hang ep's ntd qTDs on its idle QH (one write: the overlay's next
 * pointer) and wait until they end or timeout_ms pass: the bytes moved or
 * an errno as struct hc_driver says.  A device pulled out of its port
 * (or replaced: its port no longer enabled) ends the wait with -ENODEV.
 * Process context.
 */
static int ehci_td_run(struct ehci_dev *dev, struct ehci_ep *ep, unsigned int timeout_ms)
{
	struct ehci_hcd *ehci = dev->ehci;
	uint64_t deadline = ktime_get_ns() + (uint64_t)timeout_ms * 1000000;
	DEFINE_WAIT(wait);
	uint64_t flags;
	int ret;

	if (ep->qh->token & QTD_HALTED)
		return -EPROTO;		/* until reset_endpoint: the controller skips it */
	ep->qtd[ep->ntd - 1].next = EHCI_LIST_END;
	ep->qtd[ep->ntd - 1].token |= QTD_IOC;
	__asm__ volatile("sfence" ::: "memory");
	ep->qh->next = (uint32_t)ehci_qtd_dma(ep, 0);
	for (;;) {
		ret = ehci_td_status(ep);
		if (ret != -EINPROGRESS) {
			if (!ehci_qh_idle(ep))
				ehci_cancel(ehci, ep);
			return ret;
		}
		if (ehci_readl(ehci->op, EHCI_USBSTS) & STS_FATAL) {
			if (!ehci->dead)
				printk(KERN_ERR "usb%u: ehci: host system error; given up\n",
				       ehci->hcd.busnum);
			ehci->dead = true;
			return -ENODEV;
		}
		if (ehci_dev_gone(dev)) {
			ehci_cancel(ehci, ep);
			return -ENODEV;
		}
		if (ktime_get_ns() > deadline) {
			ehci_cancel(ehci, ep);
			return -ETIMEDOUT;
		}
		if (ehci->use_irq) {
			flags = local_irq_save();
			prepare_to_wait(&ehci->wq, &wait, TASK_UNINTERRUPTIBLE);
			if (ehci_td_status(ep) == -EINPROGRESS) {
				local_irq_restore(flags);
				schedule_timeout(HZ / 10);
			} else {
				local_irq_restore(flags);
			}
			finish_wait(&ehci->wq, &wait);
		} else {
			yield();
		}
	}
}

static struct ehci_dev *ehci_dev(struct usb_device *udev)
{
	return udev->hcpriv;
}

static int ehci_alive(struct ehci_dev *dev)
{
	return dev->ehci->dead || ehci_dev_gone(dev) ? -ENODEV : 0;
}

static int ehci_control(struct usb_device *udev, const struct usb_ctrlrequest *setup,
			phys_addr_t buf, unsigned int len, unsigned int timeout_ms)
{
	struct ehci_dev *dev = ehci_dev(udev);
	struct ehci_ep *ep = dev->ep0;
	bool in = setup->bRequestType & USB_DIR_IN;
	int ret = ehci_alive(dev);
	unsigned int n = 0;

	if (ret)
		return ret;
	if (len > PAGE_SIZE || (len && (buf & (PAGE_SIZE - 1)) + len > PAGE_SIZE))
		return -EINVAL;		/* one qTD, one page */
	/* The setup packet goes out of the QH's spare bytes, past what the
	 * controller reads of it. */
	memcpy(ep->qh->pad, setup, sizeof(*setup));
	ehci_fill_qtd(dev->ehci, ep, n++, ep->qh_dma + offsetof(struct ehci_qh, pad), 8,
		      QTD_PID_SETUP, false);
	if (len && !ehci_fill_qtd(dev->ehci, ep, n++, buf, len,
				  (in ? QTD_PID_IN : QTD_PID_OUT) | QTD_TOGGLE, true))
		return -EIO;
	ehci_fill_qtd(dev->ehci, ep, n, 0, 0, (len && in ? QTD_PID_OUT : QTD_PID_IN) | QTD_TOGGLE,
		      false);
	if (len && in)			/* a short IN goes on to the status stage */
		ep->qtd[1].alt_next = (uint32_t)ehci_qtd_dma(ep, n);
	ep->ntd = n + 1;
	ret = ehci_td_run(dev, ep, timeout_ms);
	if (ret == -EPIPE || ret == -EPROTO)
		ep->qh->token = 0;	/* un-halted, idle: its next leads nowhere */
	return ret;
}

static int ehci_bulk(struct usb_device *udev, struct usb_host_endpoint *hep,
		     const struct scatterlist *sg, unsigned int nsg, unsigned int *actual,
		     unsigned int timeout_ms)
{
	struct ehci_dev *dev = ehci_dev(udev);
	struct ehci_ep *ep = hep->hcpriv;
	bool in = hep->address & USB_DIR_IN;
	int ret = ehci_alive(dev);
	unsigned int i;

	if (ret)
		return ret;
	if (nsg == 0 || nsg > EHCI_MAX_QTD)
		return -EINVAL;
	for (i = 0; i < nsg; i++) {
		if (!sg[i].length || sg[i].length > PAGE_SIZE ||
		    (sg[i].dma_address & (PAGE_SIZE - 1)) + sg[i].length > PAGE_SIZE)
			return -EINVAL;		/* a piece must stay in its page */
		if (i + 1 < nsg && sg[i].length % ep->maxpacket)
			return -EINVAL;		/* no packet may span two qTDs */
		if (!ehci_fill_qtd(dev->ehci, ep, i, sg[i].dma_address, sg[i].length,
				   in ? QTD_PID_IN : QTD_PID_OUT, true)) {
			printk(KERN_ERR "usb %s: a buffer above 4 GiB, and the controller has 32-bit DMA\n",
			       udev->devpath);
			return -EIO;
		}
		if (in)			/* a short packet stops at the inactive qTD */
			ep->qtd[i].alt_next = (uint32_t)ehci_qtd_dma(ep, EHCI_MAX_QTD);
	}
	ep->ntd = nsg;
	ep->actual = 0;
	ret = ehci_td_run(dev, ep, timeout_ms);
	*actual = ret >= 0 ? (unsigned int)ret : ep->actual;
	return ret < 0 ? ret : 0;
}

/* Start a bulk endpoint afresh: not halted, the toggle at DATA0.  The
 * QH is halted or idle with its next pointer leading nowhere (every
 * transfer ends in ehci_qh_idle()), so the controller does not write it
 * meanwhile. */
static int ehci_reset_endpoint(struct usb_device *udev, struct usb_host_endpoint *hep)
{
	struct ehci_ep *ep = hep->hcpriv;
	int ret = ehci_alive(ehci_dev(udev));

	if (ret)
		return ret;
	ep->qh->alt_next = EHCI_LIST_END;
	__asm__ volatile("sfence" ::: "memory");
	ep->qh->token = 0;
	return 0;
}

/* A QH for endpoint number endpt of the device at address: high speed,
 * its packet size; control: the toggle from each qTD. */
static void ehci_qh_init(struct ehci_ep *ep, unsigned int address, unsigned int endpt,
			 unsigned int maxpacket, bool control)
{
	ep->control = control;
	ep->maxpacket = maxpacket;
	ep->qh->info1 = QH_ADDR(address) | QH_ENDPT(endpt) | QH_HIGH_SPEED |
			(control ? QH_TOGGLE_CTL : 0) | QH_MAXPACKET(maxpacket) | QH_NAK_RELOAD;
	ep->qh->info2 = QH_MULT1;
}

static int ehci_enable_endpoints(struct usb_device *udev)
{
	struct ehci_dev *dev = ehci_dev(udev);
	unsigned int i;

	for (i = 0; i < udev->nr_ep; i++) {
		struct usb_host_endpoint *hep = &udev->ep[i];
		struct ehci_ep *ep;

		if (hep->type != USB_ENDPOINT_XFER_BULK || !hep->maxpacket)
			return -EINVAL;
		ep = ehci_ep_alloc();
		if (!ep)
			return -ENOMEM;
		ehci_qh_init(ep, dev->ep0->qh->info1 & 0x7f, hep->address & USB_ENDPOINT_NUMBER_MASK,
			     hep->maxpacket, false);
		hep->hcpriv = ep;
		ehci_link(dev->ehci, ep);
	}
	return 0;
}

static struct usb_device *ehci_alloc_device(struct usb_device *hub, unsigned int port,
					    enum usb_device_speed speed);
static int ehci_update_hub(struct usb_device *hub, unsigned int nports, unsigned int think_time);

static const struct hc_driver ehci_hc_driver = {
	.control = ehci_control,
	.enable_endpoints = ehci_enable_endpoints,
	.bulk = ehci_bulk,
	.reset_endpoint = ehci_reset_endpoint,
	.update_hub = ehci_update_hub,
	.alloc_device = ehci_alloc_device,
};

/*
 * Root ports.
 */

/* Give port n to the companion controller (a full- or low-speed device),
 * when there is one (HCSPARAMS N_CC); either way it is not driven here. */
static void ehci_release_port(struct ehci_hcd *ehci, unsigned int n, const char *speed)
{
	uint32_t portsc = ehci_readl(ehci->op, EHCI_PORTSC(n));
	bool companion = HCS_N_CC(ehci_readl(ehci->cap, EHCI_HCSPARAMS)) != 0;

	printk(KERN_INFO "usb%u: port %u: a %s device, %s (not driven)\n", ehci->hcd.busnum, n,
	       speed, companion ? "handed to the companion controller" : "and no companion controller");
	if (companion)
		ehci_writel(ehci->op, EHCI_PORTSC(n),
			    (portsc & ~(PORT_RWC_BITS | PORT_PE)) | PORT_OWNER);
}

/* Reset port n if a device is on it (USB 2.0 7.1.7.5: 50 ms, then 10 ms
 * of recovery): true when a high-speed device is then enabled there. */
static bool ehci_port_reset(struct ehci_hcd *ehci, unsigned int n)
{
	uint32_t portsc = ehci_readl(ehci->op, EHCI_PORTSC(n));

	if (!(portsc & PORT_CONNECT) || (portsc & PORT_OWNER))
		return false;
	if (PORT_LS(portsc) == 1) {
		ehci_release_port(ehci, n, "low-speed");
		return false;
	}
	portsc &= ~(PORT_RWC_BITS | PORT_PE);
	ehci_writel(ehci->op, EHCI_PORTSC(n), portsc | PORT_RESET);
	mdelay(50);
	ehci_writel(ehci->op, EHCI_PORTSC(n), portsc & ~PORT_RESET);
	if (!pci_mmio_poll(ehci->op + EHCI_PORTSC(n), PORT_RESET, 0, EHCI_TMOUT_RESET)) {
		printk(KERN_WARNING "usb%u: port %u does not finish its reset\n", ehci->hcd.busnum, n);
		return false;
	}
	mdelay(10);
	portsc = ehci_readl(ehci->op, EHCI_PORTSC(n));
	ehci_writel(ehci->op, EHCI_PORTSC(n), portsc);	/* change bits off, PE kept */
	if (!(portsc & PORT_CONNECT))
		return false;		/* gone during the reset */
	if (!(portsc & PORT_PE)) {
		ehci_release_port(ehci, n, "full-speed");
		return false;
	}
	return true;
}

/*
 * A high-speed device on port of parent (a hub's device), or on root
 * port port when parent is NULL: endpoint 0 at address 0, SET_ADDRESS.
 * The device, or NULL (logged).  Its structures stay for the whole boot.
 */
static struct ehci_dev *ehci_alloc_dev(struct ehci_hcd *ehci, struct ehci_dev *parent,
				       unsigned int port)
{
	struct ehci_dev *dev;
	unsigned int address;
	int ret;

	if (ehci->next_address >= 127) {
		printk(KERN_WARNING "usb%u: port %u: no USB address left\n", ehci->hcd.busnum, port);
		return NULL;
	}
	address = ++ehci->next_address;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev || !(dev->ep0 = ehci_ep_alloc())) {
		printk(KERN_ERR "usb%u: port %u: out of memory for the device\n", ehci->hcd.busnum,
		       port);
		kfree(dev);
		return NULL;
	}
	dev->ehci = ehci;
	dev->port = parent ? parent->port : port;
	dev->udev.bus = &ehci->hcd;
	dev->udev.hcpriv = dev;
	dev->udev.busnum = ehci->hcd.busnum;
	dev->udev.parent = parent ? &parent->udev : NULL;
	dev->udev.portnum = port;
	dev->udev.level = parent ? parent->udev.level + 1 : 0;
	dev->udev.speed = USB_SPEED_HIGH;
	if (parent)
		snprintf(dev->udev.devpath, sizeof(dev->udev.devpath), "%s.%u", parent->udev.devpath,
			 port);
	else
		snprintf(dev->udev.devpath, sizeof(dev->udev.devpath), "%u-%u", ehci->hcd.busnum, port);
	ehci_qh_init(dev->ep0, 0, 0, 64, true);
	ehci_link(ehci, dev->ep0);
	ret = usb_control_msg(&dev->udev, USB_REQ_SET_ADDRESS, USB_DIR_OUT, (uint16_t)address, 0,
			      NULL, 0, USB_CTRL_SET_TIMEOUT);
	if (ret < 0) {
		printk(KERN_WARNING "usb %s: SET_ADDRESS failed (%d)\n", dev->udev.devpath, ret);
		return NULL;
	}
	mdelay(2);			/* SET_ADDRESS recovery (USB 2.0 9.2.6.3) */
	/* Endpoint 0's QH is idle: its address can change in place. */
	dev->ep0->qh->info1 = (dev->ep0->qh->info1 & ~0x7fu) | QH_ADDR(address);
	printk(KERN_INFO "usb %s: new high-speed USB device number %u using ehci-pci\n",
	       dev->udev.devpath, address);
	return dev;
}

/* A device behind a hub: high-speed only (a full- or low-speed one would
 * need split transactions through the hub's transaction translator). */
static struct usb_device *ehci_alloc_device(struct usb_device *hub, unsigned int port,
					    enum usb_device_speed speed)
{
	struct ehci_dev *parent = ehci_dev(hub), *dev;

	if (ehci_alive(parent))
		return NULL;
	if (speed != USB_SPEED_HIGH) {
		printk(KERN_INFO "usb %s: port %u: a %s device behind a hub, not driven on EHCI\n",
		       hub->devpath, port, speed == USB_SPEED_LOW ? "low-speed" : "full-speed");
		return NULL;
	}
	dev = ehci_alloc_dev(parent->ehci, parent, port);
	return dev ? &dev->udev : NULL;
}

/* Nothing to tell an EHCI controller about a hub. */
static int ehci_update_hub(struct usb_device *hub, unsigned int nports, unsigned int think_time)
{
	(void)nports;
	(void)think_time;
	return ehci_alive(ehci_dev(hub));
}

/*
 * The controller.
 */

/* Take the controller from the firmware (EHCI 5.1): set the OS-owned
 * semaphore, wait for the BIOS to drop its own, turn its SMIs off. */
static void ehci_bios_handoff(struct ehci_hcd *ehci)
{
	unsigned int off = HCC_EXT_CAPS(ehci_readl(ehci->cap, EHCI_HCCPARAMS)), caps = 0;
	uint64_t deadline;
	uint32_t cap;

	while (off >= 0x40 && caps++ < 48) {
		pci_read_config_dword(ehci->pdev, (int)off, &cap);
		if ((cap & 0xff) == EHCI_USBLEGSUP_ID) {
			if (cap & EHCI_BIOS_OWNED) {
				pci_write_config_dword(ehci->pdev, (int)off, cap | EHCI_OS_OWNED);
				deadline = ktime_get_ns() + (uint64_t)EHCI_TMOUT_HANDOFF * 1000000;
				do {
					mdelay(10);
					pci_read_config_dword(ehci->pdev, (int)off, &cap);
				} while ((cap & EHCI_BIOS_OWNED) && ktime_get_ns() < deadline);
				if (cap & EHCI_BIOS_OWNED) {
					printk(KERN_WARNING "usb%u: the firmware does not hand the controller over; taking it\n",
					       ehci->hcd.busnum);
					pci_write_config_dword(ehci->pdev, (int)off,
							       (cap & ~EHCI_BIOS_OWNED) | EHCI_OS_OWNED);
				}
			}
			pci_write_config_dword(ehci->pdev, (int)off + EHCI_USBLEGCTLSTS, 0);
			return;
		}
		off = (cap >> 8) & 0xff;
	}
}

/* Halt and reset the controller, then start it with the head QH as its
 * asynchronous schedule and every port routed to it; false (logged)
 * when it does not. */
static bool ehci_start(struct ehci_hcd *ehci)
{
	ehci_writel(ehci->op, EHCI_USBCMD, ehci_readl(ehci->op, EHCI_USBCMD) & ~CMD_RUN);
	if (!pci_mmio_poll(ehci->op + EHCI_USBSTS, STS_HALT, STS_HALT, EHCI_TMOUT_RESET) ||
	    (ehci_writel(ehci->op, EHCI_USBCMD, CMD_RESET),
	     !pci_mmio_poll(ehci->op + EHCI_USBCMD, CMD_RESET, 0, EHCI_TMOUT_RESET))) {
		printk(KERN_WARNING "usb%u: ehci: the controller does not reset, skipped\n",
		       ehci->hcd.busnum);
		return false;
	}
	ehci->head = ehci_ep_alloc();
	if (!ehci->head) {
		printk(KERN_ERR "usb%u: ehci: out of memory\n", ehci->hcd.busnum);
		return false;
	}
	ehci->head->qh->hlink = (uint32_t)ehci->head->qh_dma | QH_TYPE;
	ehci->head->qh->info1 = QH_HEAD;
	ehci->head->qh->token = QTD_HALTED;
	if (ehci->addr64)		/* the register exists only then */
		ehci_writel(ehci->op, EHCI_CTRLDSSEGMENT, 0);
	ehci_writel(ehci->op, EHCI_ASYNCLISTADDR, (uint32_t)ehci->head->qh_dma);
	ehci_writel(ehci->op, EHCI_USBINTR, ehci->use_irq ? STS_INT | STS_ERR | STS_FATAL : 0);
	ehci->running = true;
	ehci_writel(ehci->op, EHCI_USBCMD, CMD_RUN | CMD_ASE | CMD_ITC_1MS);
	ehci_writel(ehci->op, EHCI_CONFIGFLAG, 1);
	if (!pci_mmio_poll(ehci->op + EHCI_USBSTS, STS_HALT | STS_ASS, STS_ASS, EHCI_TMOUT_RESET)) {
		printk(KERN_WARNING "usb%u: ehci: the controller does not start\n", ehci->hcd.busnum);
		return false;
	}
	return true;
}

static void ehci_probe(struct pci_dev *pdev)
{
	struct ehci_hcd *ehci = kzalloc(sizeof(*ehci), GFP_KERNEL);
	unsigned long flags;
	uint32_t portsc;
	unsigned int n;

	if (!ehci || !(ehci->cap = pci_iomap(pdev, 0, "ehci"))) {
		kfree(ehci);
		return;
	}
	ehci->pdev = pdev;
	ehci->hcd.driver = &ehci_hc_driver;
	ehci->hcd.busnum = usb_new_busnum();
	ehci->hcd.hcpriv = ehci;
	ehci->op = ehci->cap + (ehci_readl(ehci->cap, EHCI_CAPLENGTH) & 0xff);
	ehci->n_ports = HCS_N_PORTS(ehci_readl(ehci->cap, EHCI_HCSPARAMS));
	ehci->addr64 = ehci_readl(ehci->cap, EHCI_HCCPARAMS) & HCC_64BIT_ADDR;
	spin_lock_init(&ehci->lock, "ehci");
	init_waitqueue_head(&ehci->wq);
	printk(KERN_INFO "usb%u: EHCI %x.%02x at %#lx, %u ports%s\n", ehci->hcd.busnum,
	       ehci_readl(ehci->cap, EHCI_CAPLENGTH) >> 24,
	       (ehci_readl(ehci->cap, EHCI_CAPLENGTH) >> 16) & 0xff,
	       (unsigned long)pci_resource_start(pdev, 0),
	       ehci->n_ports, ehci->addr64 ? ", 64-bit DMA" : "");
	ehci_bios_handoff(ehci);
	{
		char who[24];

		snprintf(who, sizeof(who), "usb%u: ehci", ehci->hcd.busnum);
		ehci->use_irq = pci_request_irq(pdev, ehci_irq, "ehci", who, &ehci_irq_lines);
	}
	flags = local_irq_save();	/* the handler walks ehci_hosts */
	list_add_tail(&ehci->list, &ehci_hosts);
	local_irq_restore(flags);
	if (!ehci_start(ehci))
		return;
	if (ehci->use_irq)
		printk(KERN_INFO "usb%u: ehci: completion by interrupt on IRQ %u\n",
		       ehci->hcd.busnum, pdev->irq);
	if (ehci_readl(ehci->cap, EHCI_HCSPARAMS) & HCS_PPC)
		for (n = 1; n <= ehci->n_ports; n++) {
			portsc = ehci_readl(ehci->op, EHCI_PORTSC(n));
			ehci_writel(ehci->op, EHCI_PORTSC(n),
				    (portsc & ~(PORT_RWC_BITS | PORT_PE)) | PORT_POWER);
		}
	mdelay(200);			/* attach and debounce after power (USB 2.0 7.1.7.3) */
	for (n = 1; n <= ehci->n_ports && !ehci->dead; n++) {
		struct ehci_dev *dev;

		if (!ehci_port_reset(ehci, n))
			continue;
		dev = ehci_alloc_dev(ehci, NULL, n);
		if (dev) {
			usb_new_device(&dev->udev);
		} else {
			/* Disabled, so that the next device at address 0 is
			 * not this one. */
			portsc = ehci_readl(ehci->op, EHCI_PORTSC(n));
			ehci_writel(ehci->op, EHCI_PORTSC(n), portsc & ~(PORT_RWC_BITS | PORT_PE));
		}
	}
}

void ehci_init(void)
{
	struct pci_dev *pdev = NULL;

	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev)))
		if (pdev->class == PCI_CLASS_SERIAL_USB_EHCI)
			ehci_probe(pdev);
}
