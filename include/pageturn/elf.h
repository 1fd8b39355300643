/*
 * ELF64 executables for x86-64 (the System V ABI's names and values, as
 * Linux's include/uapi/linux/elf.h and auxvec.h spell them), and the
 * parser that checks one before exec maps it (kernel/elf.c).
 *
 * The parser is pure: it reads only the buffers it is given and calls
 * nothing in the kernel, so the host unit test (tests/unit/test_elf.c)
 * runs it on crafted, fuzzed and real binaries.  kernel/exec.c reads the
 * file's first bytes and its program headers, asks the parser whether
 * they describe an executable it can load, and maps the segments the
 * parser lists.
 */
#ifndef PAGETURN_ELF_H
#define PAGETURN_ELF_H

#include <asm/page.h>
#include <mm/mm_types.h>
#include <pageturn/types.h>

typedef uint64_t Elf64_Addr;
typedef uint64_t Elf64_Off;
typedef uint16_t Elf64_Half;
typedef uint32_t Elf64_Word;
typedef uint64_t Elf64_Xword;

/* e_ident[] */
#define EI_NIDENT	16
#define EI_CLASS	4
#define EI_DATA		5
#define EI_VERSION	6
#define ELFMAG		"\177ELF"
#define SELFMAG		4
#define ELFCLASS32	1
#define ELFCLASS64	2
#define ELFDATA2LSB	1	/* little-endian */
#define ELFDATA2MSB	2
#define EV_CURRENT	1

/* e_type */
#define ET_REL		1
#define ET_EXEC		2
#define ET_DYN		3	/* a shared object, or a position-independent executable */
#define ET_CORE		4

/* e_machine */
#define EM_386		3
#define EM_X86_64	62

typedef struct {
	unsigned char e_ident[EI_NIDENT];
	Elf64_Half e_type;
	Elf64_Half e_machine;
	Elf64_Word e_version;
	Elf64_Addr e_entry;	/* the first instruction */
	Elf64_Off e_phoff;	/* the program headers' file offset */
	Elf64_Off e_shoff;
	Elf64_Word e_flags;
	Elf64_Half e_ehsize;
	Elf64_Half e_phentsize;	/* bytes per program header */
	Elf64_Half e_phnum;	/* program headers */
	Elf64_Half e_shentsize;
	Elf64_Half e_shnum;
	Elf64_Half e_shstrndx;
} Elf64_Ehdr;

/* p_type */
#define PT_LOAD		1	/* a segment to map */
#define PT_INTERP	3	/* the path of a dynamic loader */
#define PT_NOTE		4
#define PT_PHDR		6	/* where the program headers are in memory */
#define PT_TLS		7
#define PT_GNU_STACK	0x6474e551	/* its p_flags say whether the stack is executable */

/* p_flags */
#define PF_X		0x1
#define PF_W		0x2
#define PF_R		0x4

typedef struct {
	Elf64_Word p_type;
	Elf64_Word p_flags;
	Elf64_Off p_offset;	/* the segment's file offset */
	Elf64_Addr p_vaddr;	/* its address */
	Elf64_Addr p_paddr;
	Elf64_Xword p_filesz;	/* bytes from the file */
	Elf64_Xword p_memsz;	/* bytes in memory: the rest is zero (bss) */
	Elf64_Xword p_align;
} Elf64_Phdr;

_Static_assert(sizeof(Elf64_Ehdr) == 64, "the ELF64 header is 64 bytes");
_Static_assert(sizeof(Elf64_Phdr) == 56, "an ELF64 program header is 56 bytes");

/* The auxiliary vector's keys (Linux's include/uapi/linux/auxvec.h). */
#define AT_NULL		0
#define AT_PHDR		3	/* the program headers in memory */
#define AT_PHENT	4	/* sizeof(Elf64_Phdr) */
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7	/* the dynamic loader's base: 0, there is none */
#define AT_FLAGS	8
#define AT_ENTRY	9	/* the program's entry point */
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15	/* a string naming the CPU: "x86_64" */
#define AT_HWCAP	16	/* CPUID.1:EDX */
#define AT_CLKTCK	17	/* times(2)'s ticks per second */
#define AT_SECURE	23
#define AT_RANDOM	25	/* 16 random bytes (the C library's stack canary) */
#define AT_HWCAP2	26
#define AT_EXECFN	31	/* the file name given to execve */

/*
 * Where a position-independent executable (ET_DYN, e.g. static-pie) is
 * loaded: Linux's ELF_ET_DYN_BASE on x86-64, two thirds of the 47-bit user
 * space, page-aligned, without randomization.  Its p_vaddr and e_entry are
 * offsets from this base.
 */
#define ELF_ET_DYN_BASE	0x555555554000ul

/* At most this many program headers, so that they fit in one page (Linux
 * refuses a larger table too). */
#define ELF_MAX_PHNUM	(PAGE_SIZE / sizeof(Elf64_Phdr))

/*
 * One PT_LOAD segment as exec maps it, every address with the load bias
 * added.  [map_start, map_end) is the file part, whole pages of the file
 * from page pgoff (empty when the segment has no file bytes); the
 * segment's bytes are [file_end - p_filesz, mem_end), and [file_end,
 * mem_end) must read as zero (bss): the rest of file_end's page is
 * cleared and the pages from map_end to the page-rounded mem_end are
 * anonymous.
 */
struct elf_load_segment {
	unsigned long map_start;	/* page-aligned */
	unsigned long map_end;		/* page-aligned, >= map_start */
	pgoff_t pgoff;			/* file page mapped at map_start */
	unsigned long file_end;		/* the end of the file bytes */
	unsigned long mem_end;		/* the end of the segment, > file_end when it has bss */
	unsigned long prot;		/* PROT_* from p_flags */
};

/*
 * What the parser found: everything exec needs besides the file.
 * Segments are listed in address order, never sharing a page, every one
 * inside [MMAP_MIN_ADDR, TASK_SIZE).
 */
struct elf_info {
	unsigned long load_bias;	/* 0 for ET_EXEC, ELF_ET_DYN_BASE for ET_DYN */
	unsigned long entry;		/* AT_ENTRY: e_entry + load_bias, below TASK_SIZE */
	unsigned long phdr_addr;	/* AT_PHDR, or 0 when no segment maps the headers */
	unsigned int phnum;		/* AT_PHNUM */
	bool executable_stack;		/* PT_GNU_STACK says PF_X */
	/* The mm's code and data bounds, as Linux's load_elf_binary computes
	 * them (start_code/end_code 0 when no segment is executable). */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long brk;		/* the page-rounded end of the highest segment */
	unsigned int nr_segments;
	struct elf_load_segment segments[ELF_MAX_PHNUM];
};

/*
 * Check the ELF header at the start of buf (len bytes read from the
 * start of a file of file_size bytes) and copy it into *ehdr: a 64-bit,
 * little-endian, version-1 x86-64 ET_EXEC or ET_DYN, with 1 to
 * ELF_MAX_PHNUM program headers of sizeof(Elf64_Phdr) bytes lying inside
 * the file.  0 or -ENOEXEC.  buf needs no alignment.  Any context.
 */
int elf_check_ehdr(const void *buf, size_t len, uint64_t file_size, Elf64_Ehdr *ehdr);

/*
 * Check the program headers of a file whose header passed
 * elf_check_ehdr: phdrs holds ehdr->e_phnum of them (read from
 * e_phoff), file_size is the file's size.  Fills *info and returns 0,
 * or -ENOEXEC when the file cannot be loaded as it says:
 *   - a PT_INTERP (a dynamically linked program: this kernel has no
 *     dynamic loader, only static executables run);
 *   - a PT_LOAD with p_filesz > p_memsz, p_offset and p_vaddr not equal
 *     modulo PAGE_SIZE, file bytes beyond the end of the file, or memory
 *     (after the load bias) outside [MMAP_MIN_ADDR, TASK_SIZE) or
 *     wrapping around;
 *   - PT_LOADs not in ascending address order or sharing a page;
 *   - no PT_LOAD with memory, or an entry point at or above TASK_SIZE.
 * A PT_LOAD with p_memsz 0 maps nothing and is skipped.  Any input is
 * safe.  Any context.
 */
int elf_check_phdrs(const Elf64_Ehdr *ehdr, const Elf64_Phdr *phdrs, uint64_t file_size,
		    struct elf_info *info);

#endif
