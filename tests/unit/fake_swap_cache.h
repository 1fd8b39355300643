/* fake_swap_cache.c's knob: the free pages swapoff's memory check sees. */
#ifndef FAKE_SWAP_CACHE_H
#define FAKE_SWAP_CACHE_H

extern unsigned long fake_free_pages;

#endif
