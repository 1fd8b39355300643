/*
 * CRC-32 (IEEE 802.3, the reflected polynomial 0xedb88320), Linux's
 * crc32_le from lib/crc32.c: crc32_le(seed, p, len) continues a CRC over
 * len more bytes.  The usual CRC-32 of a buffer (zlib's, GPT's) is
 * crc32_le(~0u, p, len) ^ ~0u; a buffer read in pieces is checked by
 * passing each piece's result as the next seed before that final xor.
 */
#ifndef PAGETURN_CRC32_H
#define PAGETURN_CRC32_H

#include <pageturn/types.h>

uint32_t crc32_le(uint32_t crc, const void *p, size_t len);

#endif
