/*
 * The kernel's bulk memory routines (kernel/lib/string_64.asm and
 * usercopy.asm) against a byte loop, both ways they can run: the
 * unrolled loops (x86_fast_strings 0) and rep movsb/stosb (1).
 *
 * The assembly is built for the host with every global name prefixed
 * "host_" (nasm --gprefix), so it sits beside the C library's memcpy.
 * Sizes and alignments are random (a fixed seed), bytes around the
 * destination must stay as they were, and the copies to and from "user"
 * memory run into a PROT_NONE page: a SIGSEGV handler plays the kernel's
 * page-fault handler, looking the faulting instruction up in __ex_table
 * and resuming at its fixup, and the count of bytes not copied must be
 * exactly those past the boundary.
 */
#define _GNU_SOURCE		/* REG_RIP */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

extern uint8_t host_x86_fast_strings;
void *host_memcpy(void *dst, const void *src, size_t n);
void *host_memset(void *s, int c, size_t n);
void host_clear_page(void *page);
void host_copy_page(void *to, void *from);
unsigned long host___copy_user(void *to, const void *from, unsigned long n);
unsigned long host___clear_user(void *to, unsigned long n);

/* {instruction, fixup} pairs, as asm/extable.h lays them out. */
extern const uint64_t __start___ex_table[], __stop___ex_table[];

#define PAGE 4096
#define ROUNDS 3000
#define MAX_LEN (3 * PAGE)

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void fill_random(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)rng();
}

/* A length: small ones often (the tails), up to MAX_LEN. */
static size_t random_len(void)
{
	switch (rng() % 4) {
	case 0:
		return rng() % 16;
	case 1:
		return rng() % 200;
	default:
		return rng() % MAX_LEN;
	}
}

static unsigned char src[MAX_LEN + 128], dst[MAX_LEN + 256], want[MAX_LEN + 256];

static void check_memcpy(void)
{
	for (int r = 0; r < ROUNDS; r++) {
		size_t n = random_len(), so = rng() % 64, doff = rng() % 64 + 64;

		fill_random(src, sizeof(src));
		fill_random(dst, sizeof(dst));
		memcpy(want, dst, sizeof(dst));
		for (size_t i = 0; i < n; i++)
			want[doff + i] = src[so + i];
		assert_ptr_equal(host_memcpy(dst + doff, src + so, n), dst + doff);
		if (memcmp(dst, want, sizeof(dst)))
			fail_msg("memcpy of %zu bytes, src +%zu, dst +%zu: wrong bytes", n, so, doff);
	}
}

static void check_memset(void)
{
	for (int r = 0; r < ROUNDS; r++) {
		size_t n = random_len(), doff = rng() % 64 + 64;
		int c = (int)(rng() % 256) | (rng() % 2 ? 0x7f00 : 0);	/* only the low byte counts */

		fill_random(dst, sizeof(dst));
		memcpy(want, dst, sizeof(dst));
		for (size_t i = 0; i < n; i++)
			want[doff + i] = (unsigned char)c;
		assert_ptr_equal(host_memset(dst + doff, c, n), dst + doff);
		if (memcmp(dst, want, sizeof(dst)))
			fail_msg("memset of %zu bytes at +%zu with 0x%x: wrong bytes", n, doff, c);
	}
}

static void check_pages(void)
{
	unsigned char *pages = aligned_alloc(PAGE, 4 * PAGE);

	assert_non_null(pages);
	fill_random(pages, 4 * PAGE);
	memcpy(want, pages, 4 * PAGE > sizeof(want) ? sizeof(want) : 4 * PAGE);
	host_copy_page(pages + PAGE, pages + 2 * PAGE);
	assert_memory_equal(pages + PAGE, pages + 2 * PAGE, PAGE);
	assert_memory_equal(pages, want, PAGE);
	host_clear_page(pages + 2 * PAGE);
	for (int i = 0; i < PAGE; i++)
		assert_int_equal(pages[2 * PAGE + i], 0);
	free(pages);
}

static void test_loops(void **state)
{
	(void)state;
	host_x86_fast_strings = 0;
	check_memcpy();
	check_memset();
	check_pages();
}

static void test_fast_strings(void **state)
{
	(void)state;
	host_x86_fast_strings = 1;
	check_memcpy();
	check_memset();
	check_pages();
	host_x86_fast_strings = 0;
}

/* ---- user copies that fault ------------------------------------------ */

static int faults;

/* The kernel's fixup_exception: resume at the instruction's fixup. */
static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];

	(void)sig;
	(void)si;
	for (const uint64_t *e = __start___ex_table; e < __stop___ex_table; e += 2) {
		if (e[0] == rip) {
			uc->uc_mcontext.gregs[REG_RIP] = (greg_t)e[1];
			faults++;
			return;
		}
	}
	abort();	/* a fault outside the table: a bug in the routine */
}

/* Two readable, writable pages, then a PROT_NONE one: "user" memory
 * whose end is at boundary. */
static unsigned char *area, *boundary;

static void check_user_copies(void)
{
	for (int r = 0; r < ROUNDS; r++) {
		size_t n = random_len() % (2 * PAGE) + 1;
		size_t start = 2 * PAGE - (rng() % (n + 64));	/* often across the boundary */
		size_t ok = start + n <= 2 * PAGE ? n : 2 * PAGE - start;
		unsigned long left;

		/* From user memory into the kernel: reads fault. */
		fill_random(area, 2 * PAGE);
		fill_random(dst, sizeof(dst));
		memcpy(want, dst, sizeof(dst));
		memcpy(want + 64, area + start, ok);
		left = host___copy_user(dst + 64, area + start, n);
		if (left != n - ok || memcmp(dst, want, 64 + n))
			fail_msg("copy from user of %zu bytes at %zu: %lu not copied, expected %zu",
				 n, start, left, n - ok);

		/* From the kernel into user memory: writes fault. */
		fill_random(src, sizeof(src));
		fill_random(area, 2 * PAGE);
		memcpy(want, area, 2 * PAGE);
		memcpy(want + start, src, ok);
		left = host___copy_user(area + start, src, n);
		if (left != n - ok || memcmp(area, want, 2 * PAGE))
			fail_msg("copy to user of %zu bytes at %zu: %lu not copied, expected %zu",
				 n, start, left, n - ok);

		/* Zeroing user memory. */
		fill_random(area, 2 * PAGE);
		memcpy(want, area, 2 * PAGE);
		memset(want + start, 0, ok);
		left = host___clear_user(area + start, n);
		if (left != n - ok || memcmp(area, want, 2 * PAGE))
			fail_msg("clear_user of %zu bytes at %zu: %lu not zeroed, expected %zu",
				 n, start, left, n - ok);
	}
}

static void test_user_copies_fault_exactly(void **state)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO }, old;

	(void)state;
	area = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(area != MAP_FAILED);
	boundary = area + 2 * PAGE;
	assert_int_equal(mprotect(boundary, PAGE, PROT_NONE), 0);
	sigaction(SIGSEGV, &sa, &old);

	for (int fast = 0; fast <= 1; fast++) {
		host_x86_fast_strings = (uint8_t)fast;
		faults = 0;
		check_user_copies();
		assert_true(faults > ROUNDS / 4);	/* the boundary was crossed often */
	}
	host_x86_fast_strings = 0;
	sigaction(SIGSEGV, &old, NULL);
	munmap(area, 3 * PAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_fast_strings),
		cmocka_unit_test(test_user_copies_fault_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
