/* swapon(2)'s flags (Linux's include/uapi/linux/swap.h). */
#ifndef UAPI_SWAP_H
#define UAPI_SWAP_H

#define SWAP_FLAG_PREFER	0x8000	/* the priority in the low bits is set */
#define SWAP_FLAG_PRIO_MASK	0x7fff
#define SWAP_FLAG_PRIO_SHIFT	0
#define SWAP_FLAG_DISCARD	0x10000	/* discard freed slots (no effect here) */
#define SWAP_FLAG_DISCARD_ONCE	0x20000	/* discard the area once at swapon (no effect here) */
#define SWAP_FLAG_DISCARD_PAGES	0x40000	/* discard pages as they are freed (no effect here) */

#define SWAP_FLAGS_VALID	(SWAP_FLAG_PRIO_MASK | SWAP_FLAG_PREFER | SWAP_FLAG_DISCARD | \
				 SWAP_FLAG_DISCARD_ONCE | SWAP_FLAG_DISCARD_PAGES)

#endif
