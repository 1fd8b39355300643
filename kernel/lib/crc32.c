/*
 * CRC-32, bit by bit (Linux's lib/crc32.c with CRC_LE_BITS == 1): no
 * table, eight shifts per byte.  Its one user, the GPT parser, checks a
 * few KiB once per disk at boot, so speed does not matter.
 */
#include <pageturn/crc32.h>

#define CRC32_POLY_LE	0xedb88320u

uint32_t crc32_le(uint32_t crc, const void *p, size_t len)
{
	const unsigned char *s = p;
	int i;

	while (len--) {
		crc ^= *s++;
		for (i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (crc & 1 ? CRC32_POLY_LE : 0);
	}
	return crc;
}
