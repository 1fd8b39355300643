/*
 * Host unit tests for the kernel's random generator (kernel/random.c).
 *
 * The file is included whole, so its static ChaCha20 block function can
 * be checked against RFC 7539's test vector.  asm/cpu.h is replaced by
 * the stand-ins below (its include guard is taken first): no interrupts
 * to turn off, a TSC the test sets, and a CPU without RDRAND, so the
 * generator's only inputs are the ones the test controls.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/types.h>

#define ASM_CPU_H
static uint64_t fake_tsc;
static inline uint64_t local_irq_save(void) { return 0; }
static inline void local_irq_restore(uint64_t flags) { (void)flags; }
static inline uint64_t rdtsc(void) { return fake_tsc; }
static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	(void)leaf;
	(void)sub;
	*a = *b = *c = *d = 0;
}

#include "../../kernel/random.c"

volatile uint64_t jiffies;
static uint64_t fake_real_ns = 1700000000ull * 1000000000ull;

uint64_t ktime_get_real_ns(void)
{
	return fake_real_ns;
}

static void from_hex(const char *hex, uint8_t *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int byte;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &byte), 1);
		out[i] = byte;
	}
}

/* RFC 7539 section 2.3.2: key 00..1f, block count 1, nonce
 * 00:00:00:09:00:00:00:4a:00:00:00:00 (words 13-15 of the state). */
static void test_chacha20_rfc7539_block(void **state)
{
	uint32_t key[8], out[16];
	uint8_t expect[64];
	unsigned int i;

	(void)state;
	for (i = 0; i < 32; i++)
		((uint8_t *)key)[i] = i;
	from_hex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
		 "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e", expect, 64);
	chacha20_block(key, 1 | (uint64_t)0x09000000 << 32, 0x4a000000, out);
	assert_memory_equal(out, expect, 64);
}

/* The 64-bit counter fills words 12-13 and the nonce 14-15, low half
 * first (checked against OpenSSL's ChaCha20 with the same 16 words). */
static void test_chacha20_counter_and_nonce_words(void **state)
{
	uint32_t key[8], out[16];
	uint8_t expect[64];
	unsigned int i;

	(void)state;
	for (i = 0; i < 32; i++)
		((uint8_t *)key)[i] = (i * 7 + 3) & 255;
	from_hex("0ca1d3474966627c20282b81d41a4577a1dca63ca03406b32302849f30dba638"
		 "da31154eef99e1c4252b831fc91e2d2d3ba2e7a5ac05ceb316b829b048118ee5", expect, 64);
	chacha20_block(key, 7 | (uint64_t)0x11223344 << 32, 0x55667788 | (uint64_t)0x99aabbcc << 32, out);
	assert_memory_equal(out, expect, 64);
}

/* Exactly len bytes are written, for lengths around the block size. */
static void test_get_random_bytes_fills_exactly(void **state)
{
	static const size_t lens[] = { 0, 1, 31, 63, 64, 65, 128, 1000 };
	uint8_t buf[1024 + 16];
	unsigned int i;
	size_t j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		memset(buf, 0xa5, sizeof(buf));
		get_random_bytes(buf, lens[i]);
		for (j = lens[i]; j < sizeof(buf); j++)
			assert_int_equal(buf[j], 0xa5);
		if (lens[i] >= 16) {
			/* 16 bytes all 0xa5 by chance: 2^-128. */
			uint8_t pattern[16];

			memset(pattern, 0xa5, sizeof(pattern));
			assert_memory_not_equal(buf, pattern, 16);
		}
	}
}

/* Fast key erasure: every call replaces the key, so the same inputs
 * (TSC, time) never give the same bytes twice, and the key after a call
 * is not the one that made its output. */
static void test_every_call_rekeys(void **state)
{
	uint32_t before[8];
	uint8_t a[64], b[64];

	(void)state;
	fake_tsc = 42;
	get_random_bytes(a, sizeof(a));
	memcpy(before, crng_key, sizeof(before));
	get_random_bytes(b, sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
	assert_memory_not_equal(before, crng_key, sizeof(before));
	assert_true(crng_seeded);
}

/* The first call seeds; CRNG_RESEED_INTERVAL ticks later the next call
 * mixes the clock and the TSC in again. */
static void test_reseed_after_interval(void **state)
{
	uint8_t buf[8];
	uint64_t next;

	(void)state;
	jiffies = 1000;
	crng_seeded = false;
	get_random_bytes(buf, sizeof(buf));
	assert_int_equal(crng_next_reseed, 1000 + CRNG_RESEED_INTERVAL);
	next = crng_next_reseed;
	jiffies = next - 1;
	get_random_bytes(buf, sizeof(buf));
	assert_int_equal(crng_next_reseed, next);
	jiffies = next;
	get_random_bytes(buf, sizeof(buf));
	assert_int_equal(crng_next_reseed, next + CRNG_RESEED_INTERVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chacha20_rfc7539_block),
		cmocka_unit_test(test_chacha20_counter_and_nonce_words),
		cmocka_unit_test(test_get_random_bytes_fills_exactly),
		cmocka_unit_test(test_every_call_rekeys),
		cmocka_unit_test(test_reseed_after_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
