; Link a file into the kernel as read-only data:
;   nasm -f elf64 -DFILE='"path"' -DSYM=name tools/incbin.asm
; defines SYM (the first byte) and SYM_end (one past the last byte).
section .rodata align=16
global SYM, SYM %+ _end
SYM:
	incbin FILE
SYM %+ _end:

section .note.GNU-stack noalloc noexec nowrite progbits
