/*
 * enosys: a system call number the kernel does not know fails with
 * ENOSYS and nothing else happens.
 *
 * Numbers past the end of the x86-64 table (499, 1000) and -1 (the top of
 * the unsigned range, which a bounds check must not wrap) each return
 * -1/ENOSYS through syscall(); a raw unknown syscall keeps every register
 * the ABI says a syscall keeps (all but rax, rcx and r11); and the process
 * carries on: getpid() through syscall() still matches getpid().
 */
#include "testlib.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void unknown(long nr)
{
	char what[64];
	long r;

	errno = 0;
	r = syscall(nr);
	snprintf(what, sizeof(what), "syscall(%ld) fails with ENOSYS", nr);
	tap_check(r == -1 && errno == ENOSYS, what, "returned %ld, errno %d (%s)", r, errno,
		  strerror(errno));
}

int main(void)
{
	long ret = 499;
	register long r8 __asm__("r8") = 0x0808080808080808l;
	register long r9 __asm__("r9") = 0x0909090909090909l;
	register long r10 __asm__("r10") = 0x1010101010101010l;
	long rdi = 0x7777, rsi = 0x6666, rdx = 0x5555;

	__asm__ volatile("syscall"
			 : "+a"(ret), "+r"(r8), "+r"(r9), "+r"(r10), "+D"(rdi), "+S"(rsi), "+d"(rdx)
			 :
			 : "rcx", "r11", "memory");
	long got8 = r8, got9 = r9, got10 = r10;

	tap_check(ret == -ENOSYS, "a raw syscall 499 returns -ENOSYS in rax", "rax %ld", ret);
	tap_check(got8 == 0x0808080808080808l && got9 == 0x0909090909090909l &&
		  got10 == 0x1010101010101010l && rdi == 0x7777 && rsi == 0x6666 && rdx == 0x5555,
		  "and keeps rdi, rsi, rdx, r8, r9, r10",
		  "rdi %#lx rsi %#lx rdx %#lx r8 %#lx r9 %#lx r10 %#lx", rdi, rsi, rdx, got8,
		  got9, got10);
	unknown(499);
	unknown(1000);
	unknown(-1);
	tap_check(syscall(SYS_getpid) == getpid(), "the process goes on: getpid() still works", NULL);
	return tap_done();
}
