; The context switch (Linux's __switch_to_asm and ret_from_fork).
;
; A task switched out is nothing but its stack: switch_to_asm pushes the
; callee-saved registers (the C calling convention lets the caller assume
; nothing else survives a call), stores rsp in prev->thread_rsp (offset 0
; of struct task_struct), loads next's, pops next's registers and returns
; on next's stack, into the schedule() call that switched next out.  It
; returns prev, the task switched away from, as seen by next.
;
; A new kernel thread's stack is built by kthread_create() to look like a
; task switched out just before ret_from_kthread: six zero registers (rbp
; 0 ends backtraces) and ret_from_kthread as the return address.

bits 64
section .text

extern kthread_start

; struct task_struct *switch_to_asm(struct task_struct *prev, struct task_struct *next)
global switch_to_asm
switch_to_asm:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, [rsi]
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	mov rax, rdi
	ret

; The first return of a new kernel thread: kthread_start(prev) never returns.
global ret_from_kthread
ret_from_kthread:
	mov rdi, rax
	call kthread_start
	ud2

section .note.GNU-stack noalloc noexec nowrite progbits
