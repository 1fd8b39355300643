; Pageturn boot path: multiboot2 header, 32-bit entry, switch to long mode.
;
; GRUB jumps to _start in 32-bit protected mode, paging off, with
;   EAX = 0x36d76289 (multiboot2 magic), EBX = physical address of the info.
; We check the CPU, build boot page tables, enable PAE, long mode and NX,
; and jump to the higher-half kernel, which calls kmain(magic, info).
;
; Boot page tables (2 MiB pages, all in .boot.bss):
;   PML4[0]   -> identity map of 0..1 GiB     (only to survive the switch;
;                                              kmain drops it)
;   PML4[273] -> direct map 0..4 GiB at PAGE_OFFSET = 0xffff888000000000
;   PML4[511] -> PDPT[510]: 0..1 GiB at KERNEL_VMA = 0xffffffff80000000
; The first PD (0..1 GiB) is shared by all three.

%include "asm/boot_defs.inc"

extern __boot_bss_start, __boot_bss_end

MB2_MAGIC        equ 0xE85250D6
MB2_ARCH_I386    equ 0
MB2_BOOT_MAGIC   equ 0x36d76289

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd 0x100000000 - (MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; module alignment tag: modules start on page boundaries
	align 8
	dw 6, 0
	dd 8
	; end tag
	align 8
	dw 0, 0
	dd 8
mb2_header_end:

section .boot.bss nobits alloc noexec write align=4096
boot_pml4:        resb 4096
boot_pdpt_ident:  resb 4096
boot_pdpt_direct: resb 4096
boot_pdpt_kernel: resb 4096
boot_pd:          resb 4096 * 4		; 2048 entries x 2 MiB = 4 GiB
boot_stack32:     resb 1024
boot_stack32_top:

section .boot.data progbits alloc noexec write align=16
boot_mb_magic:   dd 0
boot_mb_info:    dd 0

; Temporary 64-bit GDT: null, code (0x08), data (0x10).  kmain loads the real one.
align 16
boot_gdt:
	dq 0
	dq 0x00209A0000000000		; 64-bit code, present, DPL 0
	dq 0x0000920000000000		; data, present, writable
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dq boot_gdt

msg_no_multiboot: db "Pageturn: not started by a multiboot2 loader (boot it with GRUB).", 13, 10, 0
msg_no_cpuid:     db "Pageturn: this CPU has no CPUID instruction; a 64-bit CPU is required.", 13, 10, 0
msg_no_longmode:  db "Pageturn: this CPU does not support 64-bit long mode; Pageturn needs an x86-64 CPU.", 13, 10, 0

section .boot.text progbits alloc exec nowrite align=16
bits 32
global _start
_start:
	cli
	cld
	mov esp, boot_stack32_top
	mov [boot_mb_magic], eax
	mov [boot_mb_info], ebx

	cmp eax, MB2_BOOT_MAGIC
	mov esi, msg_no_multiboot
	jne boot_fail

	; CPUID exists if EFLAGS.ID (bit 21) can be toggled.
	pushfd
	pop eax
	mov ecx, eax
	xor eax, 1 << 21
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	xor eax, ecx
	mov esi, msg_no_cpuid
	jz boot_fail

	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	mov esi, msg_no_longmode
	jb boot_fail
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29		; LM
	jz boot_fail
	mov ebp, edx			; keep feature bits for the NX test below

	; Zero the page tables (and the boot stack: nothing may be on it now).
	mov edi, __boot_bss_start
	mov ecx, __boot_bss_end
	sub ecx, edi
	shr ecx, 2
	xor eax, eax
	rep stosd

	; 2048 PD entries: entry i maps physical i * 2 MiB.
	mov ebx, boot_pd
	xor ecx, ecx
.fill_pd:
	mov eax, ecx
	shl eax, 21
	or eax, _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE
	mov [ebx + ecx * 8], eax
	inc ecx
	cmp ecx, 2048
	jb .fill_pd

	; Identity PDPT[0] and kernel PDPT[510] -> first PD; direct PDPT[0..3] -> PD 0..3.
	mov eax, boot_pd + (_PAGE_PRESENT | _PAGE_RW)
	mov [boot_pdpt_ident], eax
	mov [boot_pdpt_kernel + 510 * 8], eax
	mov [boot_pdpt_direct + 0 * 8], eax
	add eax, 4096
	mov [boot_pdpt_direct + 1 * 8], eax
	add eax, 4096
	mov [boot_pdpt_direct + 2 * 8], eax
	add eax, 4096
	mov [boot_pdpt_direct + 3 * 8], eax

	mov dword [boot_pml4 + 0 * 8], boot_pdpt_ident + (_PAGE_PRESENT | _PAGE_RW)
	mov dword [boot_pml4 + PML4_DIRECT * 8], boot_pdpt_direct + (_PAGE_PRESENT | _PAGE_RW)
	mov dword [boot_pml4 + 511 * 8], boot_pdpt_kernel + (_PAGE_PRESENT | _PAGE_RW)

	; PAE on, then CR3.
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, boot_pml4
	mov cr3, eax

	; EFER: long mode enable, and no-execute enable when the CPU has it.
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	test ebp, 1 << 20		; NX
	jz .no_nx
	or eax, EFER_NXE
.no_nx:
	wrmsr

	; Paging on (with write protection honoured in ring 0): long mode is active.
	mov eax, cr0
	or eax, CR0_PG | CR0_WP | CR0_PE
	mov cr0, eax

	lgdt [boot_gdt_ptr]
	jmp 0x08:long_entry

; Print the message at ESI on COM1 and on the VGA text screen, then halt.
boot_fail:
	mov edi, 0xb8000
.next:
	lodsb
	test al, al
	jz .halt
	mov ah, 0x4f			; white on red
	mov [edi], ax
	add edi, 2
	mov bl, al
	mov dx, 0x3f8 + 5		; COM1 line status
.wait:
	in al, dx
	test al, 0x20			; transmitter holding register empty
	jz .wait
	mov dx, 0x3f8
	mov al, bl
	out dx, al
	jmp .next
.halt:
	cli
	hlt
	jmp .halt

bits 64
long_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rax, higher_half_entry
	jmp rax

BOOT_STACK_SIZE equ 16384

; The boot stack, with a guard page below it that the kernel page tables
; leave unmapped: an overflow faults instead of overwriting other data.
section .bss.stack nobits alloc noexec write align=4096
global boot_stack_guard, boot_stack_top
boot_stack_guard:	resb 4096
boot_stack:		resb BOOT_STACK_SIZE
boot_stack_top:

section .text
extern kmain, __bss_start, __bss_end
higher_half_entry:
	mov rdi, __bss_start
	mov rcx, __bss_end
	sub rcx, rdi
	shr rcx, 3
	xor eax, eax
	rep stosq

	mov rsp, boot_stack_top
	xor ebp, ebp
	push rbp			; a return address of 0, so backtraces
	push rbp			; end here (twice: kmain gets an ABI-aligned stack)
	mov edi, [boot_mb_magic]
	mov esi, [boot_mb_info]
	call kmain
.hang:
	cli
	hlt
	jmp .hang

section .note.GNU-stack noalloc noexec nowrite progbits
