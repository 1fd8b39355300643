; The instructions that touch user memory (Linux's arch/x86/lib/copy_user_64.S
; and strncpy_from_user, reduced to rep movsb / rep stosb / a byte loop).
;
; mm/uaccess.c checks the user range (access_ok) and calls these with the
; user's page tables loaded.  Each instruction here that reads or writes
; user memory has an exception-table entry (asm/extable.h).  When it
; faults, the page-fault handler first tries to make the access possible
; (a page not there yet, the stack to grow, a copy-on-write); the
; instruction is then simply restarted.  When the access is not allowed
; (no mapping, a read-only mapping), the handler resumes at the fixup
; instead, which returns what was not done.
;
; A string instruction that faults has rcx, rsi and rdi describing the
; iterations still to do (so it can be restarted): rcx is then exactly the
; number of bytes not copied.  Every routine follows the C calling
; convention, and DF is clear on entry as the ABI requires.

bits 64
section .text

; The entry {insn, fixup} for an instruction that may fault.
%macro EX_TABLE 2
	section __ex_table progbits alloc noexec nowrite align=8
	dq %1, %2
	section .text
%endmacro

; unsigned long __copy_user(void *to, const void *from, unsigned long n):
; copy n bytes; returns the number of bytes NOT copied (0 = all).
global __copy_user
__copy_user:
	mov rcx, rdx
copy_user_movsb:
	rep movsb
copy_user_done:
	mov rax, rcx
	ret
EX_TABLE copy_user_movsb, copy_user_done

; unsigned long __clear_user(void *to, unsigned long n):
; zero n bytes; returns the number of bytes NOT zeroed.
global __clear_user
__clear_user:
	mov rcx, rsi
	xor eax, eax
clear_user_stosb:
	rep stosb
clear_user_done:
	mov rax, rcx
	ret
EX_TABLE clear_user_stosb, clear_user_done

; long __strncpy_from_user(char *dst, const char *src, unsigned long count):
; copy bytes up to and including a NUL, at most count (count > 0); returns
; the length without the NUL, count if none came, or -EFAULT (-14).
global __strncpy_from_user
__strncpy_from_user:
	xor eax, eax
strncpy_next:
	cmp rax, rdx
	jae strncpy_done
strncpy_load:
	movzx ecx, byte [rsi + rax]
	mov [rdi + rax], cl
	test cl, cl
	jz strncpy_done
	inc rax
	jmp strncpy_next
strncpy_done:
	ret
strncpy_fault:
	mov rax, -14			; -EFAULT (uapi/errno.h)
	ret
EX_TABLE strncpy_load, strncpy_fault

section .note.GNU-stack noalloc noexec nowrite progbits
