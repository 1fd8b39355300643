/* The host unit tests' panic() and printk(): see kernel_stubs.h. */
#include <stdio.h>
#include <stdlib.h>

#include <pageturn/kallsyms.h>
#include <pageturn/panic.h>
#include <pageturn/printk.h>

#include "kernel_stubs.h"

jmp_buf panic_env;
bool panic_expected;
char panic_msg[512];

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	if (panic_expected) {
		panic_expected = false;
		longjmp(panic_env, 1);
	}
	fail_msg("unexpected panic: %s", panic_msg);
	abort();
}

char log_buf[1 << 16];
static size_t log_len;

/* A message that does not fit is cut short; log_buf stays a string. */
int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (fmt[0] == KERN_CONT[0] && fmt[1] == KERN_CONT[1])
		fmt += 2;
	n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		log_len = MIN(log_len + n, sizeof(log_buf) - 1);
	return n;
}

void log_clear(void)
{
	log_len = 0;
	log_buf[0] = '\0';
}

unsigned int log_count(const char *substr)
{
	unsigned int n = 0;
	const char *p = log_buf;

	while ((p = strstr(p, substr)) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* The host tests have no kernel symbol table: addresses stay unnamed. */
const char *kallsyms_lookup(uint64_t addr, uint64_t *offset)
{
	(void)addr;
	*offset = 0;
	return NULL;
}
