/*
 * Kernel random numbers (Linux's get_random_bytes): a ChaCha20-based
 * generator seeded at boot from RDRAND when the CPU has it, the TSC and
 * the boot time.  Not for cryptography in a teaching kernel, but
 * unpredictable enough for AT_RANDOM, getrandom(2) and /dev/urandom.
 * kernel/random.c implements it.  Any context.
 */
#ifndef PAGETURN_RANDOM_H
#define PAGETURN_RANDOM_H

#include <pageturn/types.h>

void get_random_bytes(void *buf, size_t len);

#endif
