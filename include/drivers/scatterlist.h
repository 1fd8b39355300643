/*
 * A buffer for DMA in pieces (Linux's struct scatterlist, reduced to its
 * DMA half): each piece is one physically contiguous run, given by the
 * bus address the device uses and its length.  Pageturn maps no IOMMU,
 * so a piece's address is its physical address.  Used where a request's
 * pages pass through more than one layer on their way to a controller
 * (SCSI commands carried over USB).
 */
#ifndef DRIVERS_SCATTERLIST_H
#define DRIVERS_SCATTERLIST_H

#include <pageturn/types.h>

struct scatterlist {
	phys_addr_t dma_address;
	unsigned int length;		/* bytes */
};

#endif
