/* FNV-1a, 64 bits: the checksum the build and the tests record for files
 * (tools/mkrootfs.py and tests/qemu/cases.py compute the same). */
#ifndef PAGETURN_HASH_H
#define PAGETURN_HASH_H

#include <pageturn/types.h>

#define FNV1A64_INIT  0xcbf29ce484222325ull
#define FNV1A64_PRIME 0x100000001b3ull

/* Continue hash h over n bytes at p (start with FNV1A64_INIT). */
static inline uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * FNV1A64_PRIME;
	return h;
}

#endif
