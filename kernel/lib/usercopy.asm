; The instructions that touch user memory (Linux's arch/x86/lib/copy_user_64.S,
; clear_user and strncpy_from_user): rep movsb / rep stosb where the CPU's
; fast strings make them the quickest way, unrolled loops elsewhere, chosen
; by x86_fast_strings as in kernel/lib/string_64.asm.
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
; number of bytes not copied.  The loops keep their counters so that a
; fixup can tell the same.  Every routine follows the C calling
; convention, and DF is clear on entry as the ABI requires.

bits 64
extern x86_fast_strings

section .text

; The entry {insn, fixup} for an instruction that may fault.
%macro EX_TABLE 2
	section __ex_table progbits alloc noexec nowrite align=8
	dq %1, %2
	section .text
%endmacro

; unsigned long __copy_user(void *to, const void *from, unsigned long n):
; copy n bytes; returns the number of bytes NOT copied (0 = all).
;
; With fast strings one `rep movsb`, whose rcx at a fault is what is left.
; Otherwise 64-byte blocks, then 8-byte words, as memcpy; a fault there
; resumes at a fixup that counts what is left from the loop's counters
; (the block or word being moved is redone whole) and finishes a byte at
; a time, so the count returned is exact: every byte before the first
; one that cannot be read or written is copied.
global __copy_user
__copy_user:
	cmp byte [rel x86_fast_strings], 0
	jne copy_user_fast
	mov rcx, rdx
	shr rcx, 6
	jz copy_user_words
	and edx, 63			; rdx: bytes after the blocks
copy_user_block:
cu_b0:	mov r8, [rsi]
cu_b1:	mov r9, [rsi + 8]
cu_b2:	mov r10, [rsi + 16]
cu_b3:	mov r11, [rsi + 24]
cu_b4:	mov [rdi], r8
cu_b5:	mov [rdi + 8], r9
cu_b6:	mov [rdi + 16], r10
cu_b7:	mov [rdi + 24], r11
cu_b8:	mov r8, [rsi + 32]
cu_b9:	mov r9, [rsi + 40]
cu_b10:	mov r10, [rsi + 48]
cu_b11:	mov r11, [rsi + 56]
cu_b12:	mov [rdi + 32], r8
cu_b13:	mov [rdi + 40], r9
cu_b14:	mov [rdi + 48], r10
cu_b15:	mov [rdi + 56], r11
	lea rsi, [rsi + 64]
	lea rdi, [rdi + 64]
	dec rcx
	jnz copy_user_block
copy_user_words:
	mov rcx, rdx
	shr rcx, 3
	jz copy_user_tail
	and edx, 7			; rdx: bytes after the words
copy_user_word:
cu_w0:	mov r8, [rsi]
cu_w1:	mov [rdi], r8
	lea rsi, [rsi + 8]
	lea rdi, [rdi + 8]
	dec rcx
	jnz copy_user_word
copy_user_tail:
	mov rcx, rdx
copy_user_bytes:			; rcx bytes left, a byte at a time
	test rcx, rcx
	jz copy_user_done
cu_y0:	mov al, [rsi]
cu_y1:	mov [rdi], al
	inc rsi
	inc rdi
	dec rcx
	jmp copy_user_bytes
copy_user_block_fault:			; rcx blocks (this one included) and rdx bytes left
	shl rcx, 6
	add rcx, rdx
	jmp copy_user_bytes
copy_user_word_fault:			; rcx words (this one included) and rdx bytes left
	shl rcx, 3
	add rcx, rdx
	jmp copy_user_bytes
copy_user_fast:
	mov rcx, rdx
copy_user_movsb:
	rep movsb
copy_user_done:
	mov rax, rcx
	ret
%assign i 0
%rep 16
	EX_TABLE cu_b %+ i, copy_user_block_fault
%assign i i + 1
%endrep
EX_TABLE cu_w0, copy_user_word_fault
EX_TABLE cu_w1, copy_user_word_fault
EX_TABLE cu_y0, copy_user_done
EX_TABLE cu_y1, copy_user_done
EX_TABLE copy_user_movsb, copy_user_done

; unsigned long __clear_user(void *to, unsigned long n):
; zero n bytes; returns the number of bytes NOT zeroed, exact as
; __copy_user's count.
global __clear_user
__clear_user:
	xor eax, eax
	cmp byte [rel x86_fast_strings], 0
	jne clear_user_fast
	mov rcx, rsi
	shr rcx, 3
	jz clear_user_tail
	and esi, 7			; rsi: bytes after the words
clear_user_word:
cz_w0:	mov [rdi], rax
	lea rdi, [rdi + 8]
	dec rcx
	jnz clear_user_word
clear_user_tail:
	mov rcx, rsi
clear_user_bytes:			; rcx bytes left, a byte at a time
	test rcx, rcx
	jz clear_user_done
cz_y0:	mov [rdi], al
	inc rdi
	dec rcx
	jmp clear_user_bytes
clear_user_word_fault:			; rcx words (this one included) and rsi bytes left
	shl rcx, 3
	add rcx, rsi
	jmp clear_user_bytes
clear_user_fast:
	mov rcx, rsi
clear_user_stosb:
	rep stosb
clear_user_done:
	mov rax, rcx
	ret
EX_TABLE cz_w0, clear_user_word_fault
EX_TABLE cz_y0, clear_user_done
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
