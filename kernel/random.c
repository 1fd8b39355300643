/*
 * Kernel random numbers (Linux's drivers/char/random.c "crng", reduced
 * to one CPU and no entropy accounting).
 *
 * The generator is ChaCha20 (D. J. Bernstein; the block function of RFC
 * 7539, with the original 64-bit block counter and 64-bit nonce): a
 * 256-bit key, a counter and a nonce give 64 bytes that look random to
 * anyone without the key.
 *
 * State: crng_key (the key), crng_generation (how many times it has
 * changed, the nonce of its next use), crng_seeded and the jiffies of
 * the next reseed.
 *
 * Seeding.  The first call, and every CRNG_RESEED_INTERVAL after it,
 * XORs into the key what the machine offers that an observer cannot
 * predict: 32 bytes from RDRAND when CPUID says the CPU has it, the TSC
 * and the wall clock (the CMOS clock's reading plus the TSC-based time
 * since boot).  Every call also XORs the TSC in, so the timing of the
 * calls themselves keeps adding a little.  Without RDRAND the seed is
 * weak (the TSC and the time of day), good enough for AT_RANDOM and
 * hash seeds in a teaching kernel, not for keys.
 *
 * Output (fast key erasure, as Linux's crng): each call runs the block
 * function once on the key, with the generation as nonce, and splits the
 * 64 bytes in two: the first 32 become the new key, the other 32 a key
 * used for this call only, from which the caller's bytes are generated
 * with the counter counting blocks.  The old key is overwritten before
 * any output leaves, so the state at any moment reveals nothing of what
 * was handed out before it.
 *
 * Context.  The key changes with interrupts off, so a call from an
 * interrupt handler in the middle of another call takes a key of its
 * own; the output itself is generated with interrupts on, from the
 * call's private key.  Nothing here sleeps: any context.
 */
#include <asm/cpu.h>
#include <drivers/rtc.h>
#include <pageturn/random.h>
#include <pageturn/string.h>
#include <pageturn/time.h>

#define CHACHA_BLOCK_WORDS	16
#define CHACHA_BLOCK_SIZE	64
#define CHACHA_KEY_WORDS	8
#define CHACHA_ROUNDS		20
#define CRNG_RESEED_INTERVAL	(60 * HZ)	/* Linux's, in ticks */
#define RDRAND_RETRY_LOOPS	10		/* Intel's advice for a transient failure */
#define X86_FEATURE_RDRAND	(1u << 30)	/* CPUID leaf 1, ECX */

static uint32_t crng_key[CHACHA_KEY_WORDS];
static uint64_t crng_generation;
static uint64_t crng_next_reseed;
static bool crng_seeded;

static inline uint32_t rol32(uint32_t v, unsigned int s)
{
	return (v << s) | (v >> (32 - s));
}

#define QUARTERROUND(x, a, b, c, d) do { \
	x[a] += x[b]; x[d] = rol32(x[d] ^ x[a], 16); \
	x[c] += x[d]; x[b] = rol32(x[b] ^ x[c], 12); \
	x[a] += x[b]; x[d] = rol32(x[d] ^ x[a], 8); \
	x[c] += x[d]; x[b] = rol32(x[b] ^ x[c], 7); \
} while (0)

/* One ChaCha20 block: 16 words (64 bytes, little-endian) of key stream
 * for key at block number counter under nonce. */
static void chacha20_block(const uint32_t key[CHACHA_KEY_WORDS], uint64_t counter,
			   uint64_t nonce, uint32_t out[CHACHA_BLOCK_WORDS])
{
	/* "expand 32-byte k" */
	uint32_t in[CHACHA_BLOCK_WORDS] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	unsigned int i;

	memcpy(&in[4], key, CHACHA_KEY_WORDS * sizeof(uint32_t));
	in[12] = (uint32_t)counter;
	in[13] = (uint32_t)(counter >> 32);
	in[14] = (uint32_t)nonce;
	in[15] = (uint32_t)(nonce >> 32);
	memcpy(out, in, sizeof(in));
	for (i = 0; i < CHACHA_ROUNDS; i += 2) {
		/* a column round, then a diagonal round */
		QUARTERROUND(out, 0, 4, 8, 12);
		QUARTERROUND(out, 1, 5, 9, 13);
		QUARTERROUND(out, 2, 6, 10, 14);
		QUARTERROUND(out, 3, 7, 11, 15);
		QUARTERROUND(out, 0, 5, 10, 15);
		QUARTERROUND(out, 1, 6, 11, 12);
		QUARTERROUND(out, 2, 7, 8, 13);
		QUARTERROUND(out, 3, 4, 9, 14);
	}
	for (i = 0; i < CHACHA_BLOCK_WORDS; i++)
		out[i] += in[i];
}

static bool cpu_has_rdrand(void)
{
	uint32_t a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	return c & X86_FEATURE_RDRAND;
}

/* One 64-bit word from the CPU's generator: false when it has none to give. */
static bool rdrand_long(uint64_t *v)
{
	unsigned int i;
	bool ok;

	for (i = 0; i < RDRAND_RETRY_LOOPS; i++) {
		__asm__ volatile("rdrand %0" : "=r"(*v), "=@ccc"(ok));
		if (ok)
			return true;
	}
	return false;
}

/* XOR a 64-bit value into key words i and i + 1 (mod the key size). */
static void crng_mix(unsigned int i, uint64_t v)
{
	crng_key[i % CHACHA_KEY_WORDS] ^= (uint32_t)v;
	crng_key[(i + 1) % CHACHA_KEY_WORDS] ^= (uint32_t)(v >> 32);
}

/* Mix the machine's unpredictable values into the key.  Interrupts off. */
static void crng_reseed(void)
{
	uint64_t v;
	unsigned int i;

	if (cpu_has_rdrand())
		for (i = 0; i < CHACHA_KEY_WORDS; i += 2)
			if (rdrand_long(&v))
				crng_mix(i, v);
	crng_mix(2, ktime_get_real_ns());
	crng_mix(4, rdtsc());
	crng_seeded = true;
	crng_next_reseed = jiffies + CRNG_RESEED_INTERVAL;
}

void get_random_bytes(void *buf, size_t len)
{
	uint32_t block[CHACHA_BLOCK_WORDS], key[CHACHA_KEY_WORDS];
	uint8_t *p = buf;
	uint64_t flags, counter;
	size_t n;

	flags = local_irq_save();
	if (!crng_seeded || jiffies >= crng_next_reseed)
		crng_reseed();
	crng_mix(0, rdtsc());
	chacha20_block(crng_key, 0, crng_generation++, block);
	memcpy(crng_key, block, sizeof(crng_key));
	memcpy(key, &block[CHACHA_KEY_WORDS], sizeof(key));
	local_irq_restore(flags);

	for (counter = 0; len; counter++) {
		chacha20_block(key, counter, 0, block);
		n = MIN(len, (size_t)CHACHA_BLOCK_SIZE);
		memcpy(p, block, n);
		p += n;
		len -= n;
	}
	memset(block, 0, sizeof(block));
	memset(key, 0, sizeof(key));
}
