/*
 * Which way kernel/lib/string_64.asm and usercopy.asm move bytes: with
 * `rep movsb`/`rep stosb` when the CPU says they are fast (ERMS or FSRM in
 * CPUID leaf 7), with unrolled 64-byte loops otherwise (see the essay
 * at the top of string_64.asm).
 */
#include <asm/cpu.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

#define CPUID_7_EBX_ERMS	(1u << 9)	/* Enhanced REP MOVSB/STOSB */
#define CPUID_7_EDX_FSRM	(1u << 4)	/* Fast Short REP MOV */

extern uint8_t x86_fast_strings;

void string_ops_init(void)
{
	uint32_t max, a, b, c, d;

	cpuid(0, 0, &max, &b, &c, &d);
	if (max >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		x86_fast_strings = (b & CPUID_7_EBX_ERMS) || (d & CPUID_7_EDX_FSRM);
	}
	printk(KERN_INFO "cpu: %s\n", x86_fast_strings ?
	       "fast strings (ERMS/FSRM): memcpy, memset and user copies use rep movsb/stosb" :
	       "no ERMS or FSRM: memcpy, memset and user copies use 64-byte loops");
}
