/*
 * The ELF executable parser: is this file something exec can load, and
 * where does each piece of it go?  (The checks of Linux's
 * fs/binfmt_elf.c: load_elf_binary, elf_map, elf_load.)
 *
 * The parser is pure.  It is handed bytes a caller read from a file, and
 * the file's size; it reads nothing else and changes nothing but the
 * header copy and the elf_info it fills, so every check here runs on the
 * host too (tests/unit/test_elf.c fuzzes it under ASan and UBSan).  The
 * input is hostile: anyone who can write a file and exec it chooses
 * every byte.  So every offset and size is checked before it is used,
 * every sum is checked for wrapping (__builtin_add_overflow), nothing is
 * indexed by a value from the file without a bound, and the header is
 * copied out with memcpy so the caller's buffer needs no alignment.  The
 * answer is 0 or -ENOEXEC, for any input.
 *
 * Two steps, because the program headers can lie anywhere in the file:
 *
 *   elf_check_ehdr   the ELF header: a little-endian, 64-bit, version-1
 *                    x86-64 executable (ET_EXEC, or ET_DYN for a static
 *                    position-independent one), whose program header table
 *                    has 1 to ELF_MAX_PHNUM entries of the expected size,
 *                    all inside the file.  exec then reads that table.
 *   elf_check_phdrs  the table: every PT_LOAD, the entry point, PT_INTERP,
 *                    PT_GNU_STACK, the headers' own address (AT_PHDR).
 *
 * What an accepted file guarantees (the invariants exec relies on, and
 * that the fuzz test checks on every image the parser accepts):
 *
 *   - The load bias is 0 (ET_EXEC: addresses are absolute) or
 *     ELF_ET_DYN_BASE (ET_DYN: addresses are offsets, Linux's placement
 *     without randomization).  Every address below has the bias added.
 *   - Each segment with memory becomes one elf_load_segment: its file
 *     bytes [p_offset, p_offset + p_filesz) lie inside the file, its
 *     memory [start, start + p_memsz) lies inside [MMAP_MIN_ADDR,
 *     TASK_SIZE) with no wrap-around, p_filesz <= p_memsz, and p_offset
 *     and p_vaddr agree modulo PAGE_SIZE, so the file can be mapped page
 *     by page (a MAP_PRIVATE mapping of whole file pages) with each byte
 *     landing at its address.
 *   - The segments are in ascending order and no two share a page.  Linux
 *     only relies on the ELF rule that PT_LOADs are sorted; here a shared
 *     page is refused too, because the second MAP_FIXED mapping would
 *     replace the first one's page (its protection, and its zeroed bss
 *     tail).  Linkers start each segment in a page of its own, as Debian's
 *     busybox-static and musl-gcc -static binaries show.
 *   - The entry point is below TASK_SIZE (a non-canonical rip would fault
 *     in the kernel's return to user mode, not in the program).
 *
 * PT_INTERP makes the file unloadable: a dynamically linked program needs
 * its dynamic loader (ld.so) mapped beside it, and this kernel loads only
 * static executables.  exec then fails with -ENOEXEC, as it would on Linux
 * with the loader missing.
 */
#include <mm/mmap.h>
#include <pageturn/elf.h>
#include <pageturn/string.h>
#include <uapi/errno.h>
#include <uapi/mman.h>

int elf_check_ehdr(const void *buf, size_t len, uint64_t file_size, Elf64_Ehdr *ehdr)
{
	uint64_t table_end;

	if (!buf || len < sizeof(*ehdr))
		return -ENOEXEC;
	memcpy(ehdr, buf, sizeof(*ehdr));
	if (memcmp(ehdr->e_ident, ELFMAG, SELFMAG) != 0 ||
	    ehdr->e_ident[EI_CLASS] != ELFCLASS64 ||
	    ehdr->e_ident[EI_DATA] != ELFDATA2LSB ||
	    ehdr->e_ident[EI_VERSION] != EV_CURRENT ||
	    ehdr->e_version != EV_CURRENT)
		return -ENOEXEC;
	if (ehdr->e_machine != EM_X86_64)
		return -ENOEXEC;
	if (ehdr->e_type != ET_EXEC && ehdr->e_type != ET_DYN)
		return -ENOEXEC;
	if (ehdr->e_phentsize != sizeof(Elf64_Phdr) ||
	    ehdr->e_phnum == 0 || ehdr->e_phnum > ELF_MAX_PHNUM)
		return -ENOEXEC;
	if (__builtin_add_overflow(ehdr->e_phoff,
				   (uint64_t)ehdr->e_phnum * sizeof(Elf64_Phdr), &table_end) ||
	    table_end > file_size)
		return -ENOEXEC;
	return 0;
}

/* mmap's PROT_* for a segment's p_flags (Linux's make_prot). */
static unsigned long make_prot(Elf64_Word p_flags)
{
	unsigned long prot = PROT_NONE;

	if (p_flags & PF_R)
		prot |= PROT_READ;
	if (p_flags & PF_W)
		prot |= PROT_WRITE;
	if (p_flags & PF_X)
		prot |= PROT_EXEC;
	return prot;
}

/*
 * Check one PT_LOAD with memory (p_memsz > 0) of a file of file_size
 * bytes, loaded at bias, and describe it in *seg: 0 or -ENOEXEC.
 */
static int check_load(const Elf64_Phdr *ph, unsigned long bias, uint64_t file_size,
		      struct elf_load_segment *seg)
{
	unsigned long start, mem_end;
	uint64_t file_last;

	if ((ph->p_offset & ~PAGE_MASK) != (ph->p_vaddr & ~PAGE_MASK))
		return -ENOEXEC;
	if (ph->p_filesz &&
	    (__builtin_add_overflow(ph->p_offset, ph->p_filesz, &file_last) ||
	     file_last > file_size))
		return -ENOEXEC;
	if (__builtin_add_overflow(bias, ph->p_vaddr, &start) ||
	    __builtin_add_overflow(start, ph->p_memsz, &mem_end) ||
	    mem_end > TASK_SIZE || ALIGN_DOWN(start, PAGE_SIZE) < MMAP_MIN_ADDR)
		return -ENOEXEC;
	seg->map_start = ALIGN_DOWN(start, PAGE_SIZE);
	seg->file_end = start + ph->p_filesz;
	seg->map_end = ph->p_filesz ? ALIGN_UP(seg->file_end, PAGE_SIZE) : seg->map_start;
	seg->pgoff = ph->p_offset >> PAGE_SHIFT;
	seg->mem_end = mem_end;
	seg->prot = make_prot(ph->p_flags);
	return 0;
}

int elf_check_phdrs(const Elf64_Ehdr *ehdr, const Elf64_Phdr *phdrs, uint64_t file_size,
		    struct elf_info *info)
{
	unsigned long pt_phdr_addr = 0, load_phdr_addr = 0, prev_end = 0;
	bool have_pt_phdr = false;
	uint64_t table_end;
	unsigned int i;

	memset(info, 0, sizeof(*info));
	if (ehdr->e_phnum > ELF_MAX_PHNUM ||
	    __builtin_add_overflow(ehdr->e_phoff,
				   (uint64_t)ehdr->e_phnum * sizeof(Elf64_Phdr), &table_end))
		return -ENOEXEC;
	info->load_bias = ehdr->e_type == ET_DYN ? ELF_ET_DYN_BASE : 0;
	info->phnum = ehdr->e_phnum;
	info->start_code = ~0ul;
	if (__builtin_add_overflow(info->load_bias, ehdr->e_entry, &info->entry) ||
	    info->entry >= TASK_SIZE)
		return -ENOEXEC;

	for (i = 0; i < ehdr->e_phnum; i++) {
		const Elf64_Phdr *ph = &phdrs[i];
		struct elf_load_segment *seg;
		unsigned long start;

		switch (ph->p_type) {
		case PT_INTERP:
			/* Dynamically linked: there is no dynamic loader. */
			return -ENOEXEC;
		case PT_GNU_STACK:
			info->executable_stack = (ph->p_flags & PF_X) != 0;
			break;
		case PT_PHDR:
			if (__builtin_add_overflow(info->load_bias, ph->p_vaddr, &pt_phdr_addr) ||
			    pt_phdr_addr >= TASK_SIZE)
				return -ENOEXEC;
			have_pt_phdr = true;
			break;
		case PT_LOAD:
			if (ph->p_filesz > ph->p_memsz)
				return -ENOEXEC;
			if (ph->p_memsz == 0)
				break;
			seg = &info->segments[info->nr_segments];
			if (check_load(ph, info->load_bias, file_size, seg) || seg->map_start < prev_end)
				return -ENOEXEC;
			prev_end = ALIGN_UP(seg->mem_end, PAGE_SIZE);
			info->nr_segments++;

			/* Linux's start_code ... end_data (sorted segments:
			 * the data bounds are the last segment's). */
			start = info->load_bias + ph->p_vaddr;
			if (ph->p_flags & PF_X) {
				info->start_code = MIN(info->start_code, start);
				info->end_code = MAX(info->end_code, seg->file_end);
			}
			info->start_data = start;
			info->end_data = seg->file_end;
			info->brk = prev_end;

			/* This segment's file bytes hold the whole header table. */
			if (ph->p_offset <= ehdr->e_phoff &&
			    table_end <= ph->p_offset + ph->p_filesz)
				load_phdr_addr = start + (ehdr->e_phoff - ph->p_offset);
			break;
		default:
			break;
		}
	}
	if (info->nr_segments == 0)
		return -ENOEXEC;
	if (info->start_code == ~0ul)
		info->start_code = 0;
	info->phdr_addr = have_pt_phdr ? pt_phdr_addr : load_phdr_addr;
	return 0;
}
