; Interrupt, exception and system-call entry, and the ways back to user mode.
;
; Every vector 0..47 has a small stub that makes the stack look the same:
; an error code (the CPU's, or 0 for vectors without one) and the vector
; number, then common_entry pushes the general registers.  The result is a
; struct pt_regs (asm/ptrace.h), handed to trap_dispatch(regs) in C.
; Returning from trap_dispatch restores the registers and irets, so a
; handler may change regs to change where the interrupted code resumes.

bits 64
section .text

extern trap_dispatch
extern do_syscall_64
extern schedule_tail
extern exit_to_user_mode
extern syscall_user_rsp
extern syscall_kernel_rsp

;
; The general registers, in the order struct pt_regs lists them from its
; end (rax is pushed first, r15 last, so r15 lands at the lowest address).
%macro PUSH_REGS 0
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
%endmacro

%macro POP_REGS 0
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
%endmacro

%macro STUB_NOERR 1
isr_stub_%1:
	push 0
	push %1
	jmp common_entry
%endmacro

%macro STUB_ERR 1
isr_stub_%1:
	push %1
	jmp common_entry
%endmacro

; Vectors with a CPU error code: 8, 10-14, 17, 21, 29, 30.
%assign v 0
%rep 48
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
	STUB_ERR v
%else
	STUB_NOERR v
%endif
%assign v v + 1
%endrep

common_entry:
	cld
	PUSH_REGS
	mov rdi, rsp
	; A frame record linking to the interrupted code, so backtraces
	; taken inside a handler continue into it.
	push qword [rsp + 17 * 8]	; interrupted rip
	push rbp
	mov rbp, rsp
	call trap_dispatch
	add rsp, 16
restore_regs_and_iret:
	POP_REGS
	add rsp, 16			; vector and error code
	iretq

;
; System calls: the SYSCALL instruction (MSR_LSTAR points here).
;
; SYSCALL leaves the user rip in rcx, the user rflags in r11, clears the
; flags in MSR_SYSCALL_MASK (IF among them, so interrupts are off until
; do_syscall_64 turns them on) and does not switch stacks.  There is one
; CPU and the kernel does not use GS, so instead of Linux's swapgs and
; per-CPU area the user rsp is parked in a variable and the task's kernel
; stack top is loaded from another (kept equal to TSS.RSP0 by the
; scheduler).  The frame built is a struct pt_regs like an interrupt's,
; with vector SYSCALL_VECTOR and the call number as orig_ax, so signal
; delivery, fork and execve see every entry alike.
;
; The way out: sysret when do_syscall_64 says the frame allows it (the
; return address canonical and in user space, rcx == rip and r11 ==
; rflags as sysret requires, no TF/RF); otherwise iretq, which restores
; every field of the frame exactly (execve, signal frames, sigreturn).
;
SYSCALL_VECTOR equ 0x100
USER_DS equ 0x2b
USER_CS equ 0x33

global entry_SYSCALL_64
entry_SYSCALL_64:
	mov [rel syscall_user_rsp], rsp
	mov rsp, [rel syscall_kernel_rsp]
	push USER_DS			; ss
	push qword [rel syscall_user_rsp]	; rsp
	push r11			; rflags
	push USER_CS			; cs
	push rcx			; rip
	push rax			; orig_ax
	push SYSCALL_VECTOR		; vector
	cld
	PUSH_REGS
	mov rdi, rsp
	push qword [rsp + 17 * 8]	; a frame record for backtraces, as above
	push rbp
	mov rbp, rsp
	call do_syscall_64		; interrupts are off again when it returns
	add rsp, 16
	test al, al
	jz restore_regs_and_iret
	POP_REGS
	mov rsp, [rsp + 5 * 8]		; over vector, orig_ax, rip, cs, rflags: the user rsp
	o64 sysret

; A forked child's first instructions (copy_process put its switch frame
; right under its pt_regs): finish the switch, then leave for user mode.
global ret_from_fork
ret_from_fork:
	mov rdi, rax			; prev, from switch_to_asm
	call schedule_tail
	mov rdi, rsp
	call exit_to_user_mode
	jmp restore_regs_and_iret

; void ret_to_user_mode(struct pt_regs *regs): leave the kernel for good
; through the frame at regs (the top of the current stack): how the first
; process, started from a kernel thread by kernel_execve, enters user mode.
global ret_to_user_mode
ret_to_user_mode:
	mov rsp, rdi
	mov rdi, rsp
	call exit_to_user_mode
	jmp restore_regs_and_iret

; Stub addresses, indexed by vector, for idt_init().
section .rodata
global isr_stub_table
isr_stub_table:
%assign v 0
%rep 48
	dq isr_stub_ %+ v
%assign v v + 1
%endrep

; void save_regs(struct pt_regs *regs): the caller's registers as they are
; at the call, with rip the return address and rsp the caller's stack.
section .text
global save_regs
save_regs:
	mov [rdi + 0 * 8], r15
	mov [rdi + 1 * 8], r14
	mov [rdi + 2 * 8], r13
	mov [rdi + 3 * 8], r12
	mov [rdi + 4 * 8], r11
	mov [rdi + 5 * 8], r10
	mov [rdi + 6 * 8], r9
	mov [rdi + 7 * 8], r8
	mov [rdi + 8 * 8], rbp
	mov [rdi + 9 * 8], rdi
	mov [rdi + 10 * 8], rsi
	mov [rdi + 11 * 8], rdx
	mov [rdi + 12 * 8], rcx
	mov [rdi + 13 * 8], rbx
	mov [rdi + 14 * 8], rax
	mov qword [rdi + 15 * 8], 0	; vector
	mov qword [rdi + 16 * 8], 0	; error code
	mov rax, [rsp]
	mov [rdi + 17 * 8], rax		; rip
	xor eax, eax
	mov ax, cs
	mov [rdi + 18 * 8], rax
	pushfq
	pop rax
	mov [rdi + 19 * 8], rax
	lea rax, [rsp + 8]
	mov [rdi + 20 * 8], rax		; rsp
	xor eax, eax
	mov ax, ss
	mov [rdi + 21 * 8], rax
	mov rax, [rdi + 14 * 8]
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
