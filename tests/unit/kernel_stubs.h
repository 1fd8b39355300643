/*
 * kernel_stubs: the panic() and printk() that host unit tests link in place
 * of the kernel's (tests/unit/kernel_stubs.c).
 *
 * panic() records its message in panic_msg.  Inside expect_panic() it
 * longjmps back there; anywhere else it fails the running test.  The
 * kernel's panic never returns, so after expect_panic() any lock the
 * panicking function held is still held.
 *
 * printk() appends each message to log_buf as printk received it, level
 * prefix and all (KERN_INFO "..."), except that a KERN_CONT marker is
 * dropped so a continued line reads as one.
 *
 * kallsyms_lookup() names nothing: the host tests have no kernel symbol
 * table.
 */
#ifndef TESTS_UNIT_KERNEL_STUBS_H
#define TESTS_UNIT_KERNEL_STUBS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <pageturn/types.h>

extern jmp_buf panic_env;
extern bool panic_expected;
extern char panic_msg[512];

/* stmt must panic with a message containing substr. */
#define expect_panic(stmt, substr) do { \
	panic_msg[0] = '\0'; \
	panic_expected = true; \
	if (setjmp(panic_env) == 0) { \
		stmt; \
		panic_expected = false; \
		fail_msg("no panic from %s", #stmt); \
	} \
	if (strstr(panic_msg, substr) == NULL) \
		fail_msg("panic \"%s\" does not say \"%s\"", panic_msg, substr); \
} while (0)

extern char log_buf[1 << 16];

/* Empty log_buf. */
void log_clear(void);
/* How many times substr occurs in log_buf. */
unsigned int log_count(const char *substr);

#endif
