/*
 * Host unit tests for the ELF parser (kernel/elf.c).
 *
 * Each test builds a small executable image in memory: an ELF header, a
 * program header table at offset 64 and three PT_LOAD segments (read-only
 * headers, code, data with bss), as a static linker lays them out; once as
 * an ET_EXEC at 0x400000, once as an ET_DYN (static-pie) at 0.  parse()
 * hands it to the parser the way kernel/exec.c does: the header from the
 * file's first BINPRM_BUF_SIZE bytes, then the program header table read
 * from e_phoff, each in a heap buffer of exactly that size so ASan catches
 * any read beyond it.
 *
 * The good images must give the exact mapping plan; each malformed image
 * (one field broken) must give -ENOEXEC.  The fuzz tests flip random
 * bytes of a good image, and write random values into program header
 * fields, and require that the parser never crashes (ASan/UBSan) and that
 * every image it accepts satisfies the invariants kernel/elf.c promises
 * (check_invariants).  Finally the real static binaries of this machine
 * must parse: Debian's /bin/busybox (glibc, ET_EXEC) and, when musl-gcc
 * is installed, a program it links with -static.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <mm/mmap.h>
#include <pageturn/binfmts.h>
#include <pageturn/elf.h>
#include <uapi/errno.h>
#include <uapi/mman.h>

#define IMG_SIZE	0x3000
#define NPHDR		6
#define PH_TEXT		1	/* the code segment's index */
#define PH_DATA		2	/* the data segment's index */
#define PH_EXTRA	3	/* a non-PT_LOAD header tests may repurpose */

static uint8_t img[IMG_SIZE] __attribute__((aligned(8)));
static size_t img_len;

static Elf64_Ehdr *eh(void)
{
	return (Elf64_Ehdr *)img;
}

static Elf64_Phdr *ph(int i)
{
	return (Elf64_Phdr *)(img + sizeof(Elf64_Ehdr)) + i;
}

static void set_phdr(int i, Elf64_Word type, Elf64_Word flags, uint64_t offset,
		     uint64_t vaddr, uint64_t filesz, uint64_t memsz)
{
	*ph(i) = (Elf64_Phdr){ .p_type = type, .p_flags = flags, .p_offset = offset,
			       .p_vaddr = vaddr, .p_paddr = vaddr, .p_filesz = filesz,
			       .p_memsz = memsz, .p_align = PAGE_SIZE };
}

/*
 * A static executable whose addresses start at base:
 *   LOAD R    file [0, 0x200)        at base           (headers)
 *   LOAD R X  file [0x1000, 0x1800)  at base + 0x1000  (code, the entry)
 *   LOAD R W  file [0x2010, 0x2110)  at base + 0x3010, 0x3000 bytes (data + bss)
 *   NOTE, TLS, GNU_STACK (RW)
 * The file is 0x2110 bytes long.
 */
static void build(Elf64_Half type, uint64_t base)
{
	memset(img, 0, sizeof(img));
	memcpy(eh()->e_ident, ELFMAG, SELFMAG);
	eh()->e_ident[EI_CLASS] = ELFCLASS64;
	eh()->e_ident[EI_DATA] = ELFDATA2LSB;
	eh()->e_ident[EI_VERSION] = EV_CURRENT;
	eh()->e_type = type;
	eh()->e_machine = EM_X86_64;
	eh()->e_version = EV_CURRENT;
	eh()->e_entry = base + 0x1000;
	eh()->e_phoff = sizeof(Elf64_Ehdr);
	eh()->e_ehsize = sizeof(Elf64_Ehdr);
	eh()->e_phentsize = sizeof(Elf64_Phdr);
	eh()->e_phnum = NPHDR;
	set_phdr(0, PT_LOAD, PF_R, 0, base, 0x200, 0x200);
	set_phdr(PH_TEXT, PT_LOAD, PF_R | PF_X, 0x1000, base + 0x1000, 0x800, 0x800);
	set_phdr(PH_DATA, PT_LOAD, PF_R | PF_W, 0x2010, base + 0x3010, 0x100, 0x3000);
	set_phdr(PH_EXTRA, PT_NOTE, PF_R, 0x190, base + 0x190, 0x20, 0x20);
	set_phdr(4, PT_TLS, PF_R, 0x2010, base + 0x3010, 0x10, 0x20);
	set_phdr(5, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	memset(img + 0x1000, 0x90, 0x800);
	img_len = 0x2110;
}

static void build_exec(void)
{
	build(ET_EXEC, 0x400000);
}

/* The ET_DYN flavour also says where its headers are with PT_PHDR. */
static void build_dyn(void)
{
	build(ET_DYN, 0);
	set_phdr(PH_EXTRA, PT_PHDR, PF_R, sizeof(Elf64_Ehdr), sizeof(Elf64_Ehdr),
		 NPHDR * sizeof(Elf64_Phdr), NPHDR * sizeof(Elf64_Phdr));
}

/* Parse file[0, len) as exec does; the header buffer and the table each
 * get a heap block of exactly their size. */
static int parse(const uint8_t *file, size_t len, struct elf_info *info)
{
	size_t head_len = len < BINPRM_BUF_SIZE ? len : BINPRM_BUF_SIZE;
	uint8_t *head = malloc(head_len ? head_len : 1);
	Elf64_Phdr *table;
	Elf64_Ehdr ehdr;
	size_t table_size;
	int err;

	assert_non_null(head);
	memcpy(head, file, head_len);
	err = elf_check_ehdr(head, head_len, len, &ehdr);
	free(head);
	if (err)
		return err;
	table_size = ehdr.e_phnum * sizeof(Elf64_Phdr);
	assert_true(ehdr.e_phoff + table_size <= len);
	table = malloc(table_size);
	assert_non_null(table);
	memcpy(table, file + ehdr.e_phoff, table_size);
	err = elf_check_phdrs(&ehdr, table, len, info);
	free(table);
	return err;
}

static struct elf_info info;

static int parse_img(void)
{
	return parse(img, img_len, &info);
}

/* What elf.c promises about every image it accepts from a file of
 * file_size bytes. */
static void check_invariants(const struct elf_info *in, uint64_t file_size)
{
	unsigned long prev_end = 0;
	unsigned int i;

	assert_true(in->load_bias == 0 || in->load_bias == ELF_ET_DYN_BASE);
	assert_true(in->entry < TASK_SIZE);
	assert_true(in->nr_segments >= 1 && in->nr_segments <= ELF_MAX_PHNUM);
	for (i = 0; i < in->nr_segments; i++) {
		const struct elf_load_segment *s = &in->segments[i];

		assert_true(IS_ALIGNED(s->map_start, PAGE_SIZE));
		assert_true(IS_ALIGNED(s->map_end, PAGE_SIZE));
		assert_true(s->map_start >= MMAP_MIN_ADDR);
		assert_true(s->map_start >= prev_end);
		assert_true(s->map_end >= s->map_start);
		assert_true(s->file_end >= s->map_start);
		assert_true(s->mem_end >= s->file_end);
		assert_true(s->mem_end > s->map_start);
		assert_true(s->mem_end <= TASK_SIZE);
		if (s->map_end > s->map_start) {
			/* the file bytes mapped are inside the file */
			assert_true(s->map_end == ALIGN_UP(s->file_end, PAGE_SIZE));
			assert_true((s->pgoff << PAGE_SHIFT) + (s->file_end - s->map_start) <= file_size);
		} else {
			assert_true(s->file_end - s->map_start < PAGE_SIZE);
		}
		assert_true((s->prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC)) == 0);
		prev_end = ALIGN_UP(s->mem_end, PAGE_SIZE);
	}
	assert_true(in->brk == prev_end);
}

/* ---- the good images -------------------------------------------------- */

static void test_good_exec(void **state)
{
	const struct elf_load_segment *s = info.segments;

	(void)state;
	build_exec();
	assert_int_equal(parse_img(), 0);
	check_invariants(&info, img_len);
	assert_int_equal(info.load_bias, 0);
	assert_int_equal(info.entry, 0x401000);
	assert_int_equal(info.phdr_addr, 0x400040);	/* inside the first PT_LOAD */
	assert_int_equal(info.phnum, NPHDR);
	assert_false(info.executable_stack);
	assert_int_equal(info.nr_segments, 3);

	assert_int_equal(s[0].map_start, 0x400000);
	assert_int_equal(s[0].map_end, 0x401000);
	assert_int_equal(s[0].pgoff, 0);
	assert_int_equal(s[0].file_end, 0x400200);
	assert_int_equal(s[0].mem_end, 0x400200);
	assert_int_equal(s[0].prot, PROT_READ);

	assert_int_equal(s[1].map_start, 0x401000);
	assert_int_equal(s[1].map_end, 0x402000);
	assert_int_equal(s[1].pgoff, 1);
	assert_int_equal(s[1].file_end, 0x401800);
	assert_int_equal(s[1].mem_end, 0x401800);
	assert_int_equal(s[1].prot, PROT_READ | PROT_EXEC);

	assert_int_equal(s[2].map_start, 0x403000);
	assert_int_equal(s[2].map_end, 0x404000);
	assert_int_equal(s[2].pgoff, 2);
	assert_int_equal(s[2].file_end, 0x403110);
	assert_int_equal(s[2].mem_end, 0x406010);
	assert_int_equal(s[2].prot, PROT_READ | PROT_WRITE);

	assert_int_equal(info.start_code, 0x401000);
	assert_int_equal(info.end_code, 0x401800);
	assert_int_equal(info.start_data, 0x403010);
	assert_int_equal(info.end_data, 0x403110);
	assert_int_equal(info.brk, 0x407000);
}

static void test_good_dyn(void **state)
{
	const unsigned long bias = ELF_ET_DYN_BASE;

	(void)state;
	build_dyn();
	assert_int_equal(parse_img(), 0);
	check_invariants(&info, img_len);
	assert_int_equal(info.load_bias, bias);
	assert_int_equal(info.entry, bias + 0x1000);
	assert_int_equal(info.phdr_addr, bias + 0x40);	/* from PT_PHDR */
	assert_int_equal(info.nr_segments, 3);
	assert_int_equal(info.segments[0].map_start, bias);
	assert_int_equal(info.segments[2].map_start, bias + 0x3000);
	assert_int_equal(info.segments[2].pgoff, 2);
	assert_int_equal(info.segments[2].mem_end, bias + 0x6010);
	assert_int_equal(info.start_code, bias + 0x1000);
	assert_int_equal(info.brk, bias + 0x7000);
}

static void test_executable_stack(void **state)
{
	(void)state;
	build_exec();
	ph(5)->p_flags = PF_R | PF_W | PF_X;
	assert_int_equal(parse_img(), 0);
	assert_true(info.executable_stack);

	/* no PT_GNU_STACK at all: not executable (x86-64 Linux) */
	build_exec();
	ph(5)->p_type = PT_NOTE;
	assert_int_equal(parse_img(), 0);
	assert_false(info.executable_stack);
}

/* Headers outside every PT_LOAD and no PT_PHDR: AT_PHDR is 0. */
static void test_phdrs_not_mapped(void **state)
{
	(void)state;
	build_exec();
	ph(0)->p_offset = 0x200;
	ph(0)->p_vaddr = 0x400200;
	ph(0)->p_filesz = ph(0)->p_memsz = 0x100;
	assert_int_equal(parse_img(), 0);
	assert_int_equal(info.phdr_addr, 0);
}

/* A segment that is all bss, and an empty PT_LOAD, which maps nothing. */
static void test_bss_only_and_empty(void **state)
{
	(void)state;
	build_exec();
	set_phdr(PH_EXTRA, PT_LOAD, PF_R | PF_W, 0x2800, 0x407800, 0, 0x1000);
	set_phdr(4, PT_LOAD, PF_R, 0, 0x500000, 0, 0);
	assert_int_equal(parse_img(), 0);
	check_invariants(&info, img_len);
	assert_int_equal(info.nr_segments, 4);
	assert_int_equal(info.segments[3].map_start, 0x407000);
	assert_int_equal(info.segments[3].map_end, 0x407000);
	assert_int_equal(info.segments[3].file_end, 0x407800);
	assert_int_equal(info.segments[3].mem_end, 0x408800);
	assert_int_equal(info.brk, 0x409000);
}

/* ---- malformed headers -------------------------------------------------- */

static void expect_noexec(void)
{
	assert_int_equal(parse_img(), -ENOEXEC);
}

static void test_truncated(void **state)
{
	Elf64_Ehdr ehdr;

	(void)state;
	build_exec();
	img_len = sizeof(Elf64_Ehdr) - 1;
	expect_noexec();
	img_len = 0;
	expect_noexec();
	assert_int_equal(elf_check_ehdr(NULL, 0, 0, &ehdr), -ENOEXEC);
	/* the header is whole but the file ends inside the table */
	build_exec();
	img_len = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
	expect_noexec();
}

static void test_bad_ident(void **state)
{
	(void)state;
	build_exec();
	eh()->e_ident[0] = 0x7e;
	expect_noexec();
	build_exec();
	eh()->e_ident[3] = 'f';
	expect_noexec();
	build_exec();
	eh()->e_ident[EI_CLASS] = ELFCLASS32;
	expect_noexec();
	build_exec();
	eh()->e_ident[EI_DATA] = ELFDATA2MSB;
	expect_noexec();
	build_exec();
	eh()->e_ident[EI_VERSION] = 0;
	expect_noexec();
	build_exec();
	eh()->e_version = 2;
	expect_noexec();
}

static void test_bad_machine_and_type(void **state)
{
	(void)state;
	build_exec();
	eh()->e_machine = EM_386;
	expect_noexec();
	build_exec();
	eh()->e_type = ET_REL;
	expect_noexec();
	build_exec();
	eh()->e_type = ET_CORE;
	expect_noexec();
	build_exec();
	eh()->e_type = 0;
	expect_noexec();
}

static void test_bad_table(void **state)
{
	(void)state;
	build_exec();
	eh()->e_phentsize = sizeof(Elf64_Phdr) + 8;
	expect_noexec();
	build_exec();
	eh()->e_phentsize = 32;		/* Elf32_Phdr */
	expect_noexec();
	build_exec();
	eh()->e_phnum = 0;
	expect_noexec();
	build_exec();
	eh()->e_phnum = ELF_MAX_PHNUM + 1;
	expect_noexec();
	build_exec();
	eh()->e_phnum = 0xffff;		/* PN_XNUM: extended numbering */
	expect_noexec();
	build_exec();
	eh()->e_phoff = img_len;
	expect_noexec();
	build_exec();
	eh()->e_phoff = img_len - sizeof(Elf64_Phdr);
	expect_noexec();
	build_exec();
	eh()->e_phoff = UINT64_MAX - 16;	/* wraps around */
	expect_noexec();
}

static void test_bad_entry(void **state)
{
	(void)state;
	build_exec();
	eh()->e_entry = TASK_SIZE;
	expect_noexec();
	build_exec();
	eh()->e_entry = 0xffffffff81000000ul;
	expect_noexec();
	build_dyn();
	eh()->e_entry = UINT64_MAX - 0x1000;	/* wraps with the bias */
	expect_noexec();
}

/* ---- malformed segments -------------------------------------------------- */

static void test_filesz_over_memsz(void **state)
{
	(void)state;
	build_exec();
	ph(PH_DATA)->p_filesz = ph(PH_DATA)->p_memsz + 1;
	expect_noexec();
	/* even for an otherwise empty segment */
	build_exec();
	set_phdr(PH_EXTRA, PT_LOAD, PF_R, 0x1000, 0x500000, 0x10, 0);
	expect_noexec();
}

static void test_misaligned_offset(void **state)
{
	(void)state;
	build_exec();
	ph(PH_DATA)->p_offset = 0x2018;		/* vaddr ends in 0x010 */
	expect_noexec();
	build_exec();
	ph(PH_TEXT)->p_vaddr = 0x401800;
	expect_noexec();
}

static void test_beyond_file(void **state)
{
	(void)state;
	build_exec();
	ph(PH_DATA)->p_filesz = 0x101;		/* one byte past the end */
	expect_noexec();
	build_exec();
	ph(PH_TEXT)->p_offset = 0x2000;		/* [0x2000, 0x2800) */
	expect_noexec();
	build_exec();
	ph(PH_DATA)->p_offset = UINT64_MAX - 0xfef;	/* offset + filesz wraps */
	ph(PH_DATA)->p_vaddr = 0x403010;
	expect_noexec();
}

static void test_bad_addresses(void **state)
{
	(void)state;
	/* vaddr + memsz wraps around */
	build_exec();
	ph(PH_DATA)->p_memsz = UINT64_MAX - 0x1000;
	expect_noexec();
	/* a kernel address */
	build_exec();
	ph(PH_DATA)->p_vaddr = 0xffffffff80003010ul;
	expect_noexec();
	/* crossing TASK_SIZE */
	build_exec();
	ph(PH_DATA)->p_vaddr = TASK_SIZE - 0x1000 + 0x10;
	expect_noexec();
	/* ending exactly at TASK_SIZE is fine */
	build_exec();
	ph(PH_DATA)->p_vaddr = TASK_SIZE - 0x3000 + 0x10;
	ph(PH_DATA)->p_memsz = 0x3000 - 0x10;
	assert_int_equal(parse_img(), 0);
	assert_int_equal(info.brk, TASK_SIZE);
	/* below MMAP_MIN_ADDR: page zero, or close to it */
	build_exec();
	ph(0)->p_vaddr = 0;
	expect_noexec();
	build_exec();
	ph(0)->p_vaddr = MMAP_MIN_ADDR - PAGE_SIZE;
	expect_noexec();
	/* an ET_DYN whose offsets run past TASK_SIZE with the bias */
	build_dyn();
	ph(PH_DATA)->p_vaddr = TASK_SIZE - ELF_ET_DYN_BASE - 0xff0;
	expect_noexec();
	build_dyn();
	ph(PH_EXTRA)->p_vaddr = UINT64_MAX - 0x10;	/* PT_PHDR wraps */
	expect_noexec();
}

static void test_overlap_and_order(void **state)
{
	(void)state;
	/* data overlapping code */
	build_exec();
	ph(PH_DATA)->p_vaddr = 0x401010;
	ph(PH_DATA)->p_offset = 0x2010;
	expect_noexec();
	/* sharing a page without overlapping a byte */
	build_exec();
	ph(PH_DATA)->p_vaddr = 0x401810;
	ph(PH_DATA)->p_offset = 0x2810 - 0x1000;
	expect_noexec();
	/* in descending order */
	build_exec();
	ph(0)->p_vaddr = 0x500000;
	expect_noexec();
	/* the last page of bss against the next segment */
	build_exec();
	set_phdr(PH_EXTRA, PT_LOAD, PF_R, 0x2000, 0x406000, 0x10, 0x10);
	expect_noexec();
}

static void test_interp(void **state)
{
	(void)state;
	build_exec();
	set_phdr(PH_EXTRA, PT_INTERP, PF_R, 0x190, 0x400190, 0x1c, 0x1c);
	memcpy(img + 0x190, "/lib64/ld-linux-x86-64.so.2", 0x1c);
	expect_noexec();
	build_dyn();
	ph(5)->p_type = PT_INTERP;
	expect_noexec();
}

static void test_no_load(void **state)
{
	int i;

	(void)state;
	build_exec();
	for (i = 0; i < 3; i++)
		ph(i)->p_type = PT_NOTE;
	expect_noexec();
	build_exec();
	for (i = 0; i < 3; i++)
		ph(i)->p_memsz = ph(i)->p_filesz = 0;
	expect_noexec();
}

/* ---- fuzzing -------------------------------------------------------------- */

#define FUZZ_ROUNDS	200000

/* A fixed xorshift generator, so a failure can be replayed. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Values likely to hit the edges of the checks. */
static uint64_t interesting(void)
{
	static const uint64_t v[] = {
		0, 1, 0x40, 0xfff, 0x1000, 0x1001, 0x2110, 0x400000, 0x401000,
		MMAP_MIN_ADDR - 1, MMAP_MIN_ADDR, TASK_SIZE - 1, TASK_SIZE,
		TASK_SIZE + 1, ELF_ET_DYN_BASE, 0x7fffffffffffffffull,
		0x8000000000000000ull, UINT64_MAX - 0xfff, UINT64_MAX,
	};

	return (rng() & 1) ? v[rng() % ARRAY_SIZE(v)] : rng();
}

static void fuzz_one(const uint8_t *good, size_t good_len, unsigned int *accepted)
{
	uint8_t *file = malloc(IMG_SIZE);
	size_t len = good_len;
	unsigned int flips, i;

	assert_non_null(file);
	memcpy(file, good, IMG_SIZE);
	if (rng() & 1) {
		/* random bytes, mostly in the headers */
		flips = 1 + rng() % 8;
		for (i = 0; i < flips; i++) {
			size_t at = (rng() & 3) ? rng() % (sizeof(Elf64_Ehdr) + NPHDR * sizeof(Elf64_Phdr))
						: rng() % IMG_SIZE;
			file[at] = (rng() & 1) ? (uint8_t)rng() : file[at] ^ (1u << (rng() % 8));
		}
	} else {
		/* whole fields of program headers */
		flips = 1 + rng() % 3;
		for (i = 0; i < flips; i++) {
			Elf64_Phdr *p = (Elf64_Phdr *)(file + sizeof(Elf64_Ehdr)) + rng() % NPHDR;
			uint64_t val = interesting();

			switch (rng() % 6) {
			case 0: p->p_type = (rng() & 1) ? PT_LOAD : (Elf64_Word)val; break;
			case 1: p->p_offset = val; break;
			case 2: p->p_vaddr = val; break;
			case 3: p->p_filesz = val; break;
			case 4: p->p_memsz = val; break;
			default: ((Elf64_Ehdr *)file)->e_entry = val; break;
			}
		}
	}
	if ((rng() % 16) == 0)
		len = rng() % (good_len + 1);
	if (parse(file, len, &info) == 0) {
		check_invariants(&info, len);
		(*accepted)++;
	}
	free(file);
}

static void test_fuzz(void **state)
{
	static uint8_t good[2][IMG_SIZE] __attribute__((aligned(8)));
	size_t good_len[2];
	unsigned int accepted = 0, round;

	(void)state;
	build_exec();
	memcpy(good[0], img, IMG_SIZE);
	good_len[0] = img_len;
	build_dyn();
	memcpy(good[1], img, IMG_SIZE);
	good_len[1] = img_len;
	for (round = 0; round < FUZZ_ROUNDS; round++)
		fuzz_one(good[round & 1], good_len[round & 1], &accepted);
	/* both outcomes must be exercised */
	assert_true(accepted > FUZZ_ROUNDS / 100);
	assert_true(accepted < FUZZ_ROUNDS - FUZZ_ROUNDS / 100);
}

/* ---- real binaries ---------------------------------------------------- */

static uint8_t *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long size;

	if (!f)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	buf = malloc(size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, size, f), (size_t)size);
	fclose(f);
	*len = size;
	return buf;
}

/* A real static executable parses, and its plan is consistent: the entry
 * point and the program headers lie in mapped segments, the entry in an
 * executable one. */
static void check_real(const char *path)
{
	const struct elf_load_segment *s;
	bool entry_ok = false, phdr_ok = false;
	size_t len;
	uint8_t *file = read_whole(path, &len);
	unsigned int i;

	assert_non_null(file);
	assert_int_equal(parse(file, len, &info), 0);
	check_invariants(&info, len);
	assert_int_equal(info.entry, ((Elf64_Ehdr *)file)->e_entry + info.load_bias);
	for (i = 0; i < info.nr_segments; i++) {
		s = &info.segments[i];
		if (info.entry >= s->map_start && info.entry < s->file_end && (s->prot & PROT_EXEC))
			entry_ok = true;
		if (info.phdr_addr >= s->map_start &&
		    info.phdr_addr + info.phnum * sizeof(Elf64_Phdr) <= s->file_end)
			phdr_ok = true;
	}
	assert_true(entry_ok);
	assert_true(phdr_ok);
	assert_true(info.brk > info.end_data);
	free(file);
}

static void test_busybox(void **state)
{
	(void)state;
	if (access("/bin/busybox", R_OK) != 0)
		skip();
	check_real("/bin/busybox");
	assert_int_equal(info.load_bias, 0);
}

static void test_musl_static(void **state)
{
	char dir[] = "/tmp/test_elf.XXXXXX", src[64], prog[64], cmd[256];
	FILE *f;

	(void)state;
	if (system("command -v musl-gcc >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/hello.c", dir);
	snprintf(prog, sizeof(prog), "%s/hello", dir);
	f = fopen(src, "w");
	assert_non_null(f);
	fputs("#include <stdio.h>\nint big[4096];\nint main(void) { puts(\"hi\"); return big[1]; }\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "musl-gcc -static -O2 -o %s %s", prog, src);
	assert_int_equal(system(cmd), 0);
	check_real(prog);
	unlink(prog);
	unlink(src);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_exec),
		cmocka_unit_test(test_good_dyn),
		cmocka_unit_test(test_executable_stack),
		cmocka_unit_test(test_phdrs_not_mapped),
		cmocka_unit_test(test_bss_only_and_empty),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_ident),
		cmocka_unit_test(test_bad_machine_and_type),
		cmocka_unit_test(test_bad_table),
		cmocka_unit_test(test_bad_entry),
		cmocka_unit_test(test_filesz_over_memsz),
		cmocka_unit_test(test_misaligned_offset),
		cmocka_unit_test(test_beyond_file),
		cmocka_unit_test(test_bad_addresses),
		cmocka_unit_test(test_overlap_and_order),
		cmocka_unit_test(test_interp),
		cmocka_unit_test(test_no_load),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_busybox),
		cmocka_unit_test(test_musl_static),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
