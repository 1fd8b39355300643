; Bulk memory primitives: memcpy, memset, clear_page, copy_page (Linux's
; arch/x86/lib/memcpy_64.S, memset_64.S, clear_page_64.S, copy_page_64.S).
;
; Two ways to move bytes, chosen at boot by CPUID (string_ops_init in
; kernel/lib/string_ops.c):
;
;   fast strings   `rep movsb` / `rep stosb`, when the CPU has ERMS
;                  (Enhanced REP MOVSB/STOSB, CPUID.7.0:EBX bit 9) or FSRM
;                  (Fast Short REP MOVSB, CPUID.7.0:EDX bit 4): microcode
;                  then moves whole cache lines, faster than any loop;
;   loops          otherwise (old CPUs, and QEMU's default CPU), 64 bytes
;                  an iteration in eight 8-byte loads and stores, then
;                  8-byte words, then single bytes.  On a CPU without ERMS
;                  `rep movsb` may go a byte at a time: under QEMU's TCG
;                  it costs about ten times the loop.
;
; Linux patches the choice into each call site at boot (alternatives).
; Here every routine tests the byte x86_fast_strings, which is 0 until
; string_ops_init sets it: one well-predicted branch, and the loops are
; right on every CPU, so the routines work from the first instruction
; of the kernel.  kernel/lib/usercopy.asm makes the same choice for the
; copies to and from user memory.
;
; Each routine follows the C calling convention; DF is clear on entry as
; the ABI requires, and only caller-saved registers are used.

bits 64

section .data
global x86_fast_strings
x86_fast_strings: db 0			; 1: rep movsb/stosb are fast (ERMS or FSRM)

section .text

; void *memcpy(void *dst, const void *src, size_t n)
global memcpy
memcpy:
	mov rax, rdi
	cmp byte [rel x86_fast_strings], 0
	jne .fast
	mov rcx, rdx
	shr rcx, 6
	jz .words
.block:
	mov r8, [rsi]
	mov r9, [rsi + 8]
	mov r10, [rsi + 16]
	mov r11, [rsi + 24]
	mov [rdi], r8
	mov [rdi + 8], r9
	mov [rdi + 16], r10
	mov [rdi + 24], r11
	mov r8, [rsi + 32]
	mov r9, [rsi + 40]
	mov r10, [rsi + 48]
	mov r11, [rsi + 56]
	mov [rdi + 32], r8
	mov [rdi + 40], r9
	mov [rdi + 48], r10
	mov [rdi + 56], r11
	lea rsi, [rsi + 64]
	lea rdi, [rdi + 64]
	dec rcx
	jnz .block
.words:
	mov rcx, rdx
	and ecx, 63
	shr ecx, 3
	jz .bytes
.word:
	mov r8, [rsi]
	mov [rdi], r8
	lea rsi, [rsi + 8]
	lea rdi, [rdi + 8]
	dec ecx
	jnz .word
.bytes:
	and edx, 7
	jz .done
.byte:
	movzx ecx, byte [rsi]
	mov [rdi], cl
	inc rsi
	inc rdi
	dec edx
	jnz .byte
.done:
	ret
.fast:
	mov rcx, rdx
	rep movsb
	ret

; void *memset(void *s, int c, size_t n)
global memset
memset:
	mov r9, rdi
	movzx eax, sil
	cmp byte [rel x86_fast_strings], 0
	jne .fast
	mov r8, 0x0101010101010101
	imul rax, r8			; the byte in all eight lanes
	mov rcx, rdx
	shr rcx, 6
	jz .words
.block:
	mov [rdi], rax
	mov [rdi + 8], rax
	mov [rdi + 16], rax
	mov [rdi + 24], rax
	mov [rdi + 32], rax
	mov [rdi + 40], rax
	mov [rdi + 48], rax
	mov [rdi + 56], rax
	lea rdi, [rdi + 64]
	dec rcx
	jnz .block
.words:
	mov rcx, rdx
	and ecx, 63
	shr ecx, 3
	jz .bytes
.word:
	mov [rdi], rax
	lea rdi, [rdi + 8]
	dec ecx
	jnz .word
.bytes:
	and edx, 7
	jz .done
.byte:
	mov [rdi], al
	inc rdi
	dec edx
	jnz .byte
.done:
	mov rax, r9
	ret
.fast:
	mov rcx, rdx
	rep stosb
	mov rax, r9
	ret

; void clear_page(void *page): zero one 4 KiB page (page-aligned).
global clear_page
clear_page:
	xor esi, esi
	mov edx, 4096
	jmp memset

; void copy_page(void *to, void *from): copy one 4 KiB page (page-aligned).
global copy_page
copy_page:
	mov edx, 4096
	jmp memcpy

section .note.GNU-stack noalloc noexec nowrite progbits
