/*
 * The kernel's own GDT and TSS (the boot GDT in boot/boot.asm only served
 * the jump to long mode).  The TSS gives the CPU known-good stacks for the
 * exceptions that must work even when the kernel stack does not: double
 * fault, NMI and machine check each run on their own IST stack.
 */
#include <asm/desc.h>
#include <asm/syscall.h>
#include <asm/page.h>
#include <pageturn/string.h>

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __packed;

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

/* Flat 64-bit descriptors: access byte and flags for each kind. */
#define SEG_KERNEL_CODE32 0x00cf9a000000ffffull
#define SEG_KERNEL_CODE64 0x00af9a000000ffffull
#define SEG_KERNEL_DATA   0x00cf92000000ffffull
#define SEG_USER_CODE32   0x00cffa000000ffffull
#define SEG_USER_DATA     0x00cff2000000ffffull
#define SEG_USER_CODE64   0x00affa000000ffffull
#define TSS_TYPE_AVAILABLE 0x89

static uint64_t gdt[10] __aligned(16);
static struct tss tss __aligned(16);
/* Each IST stack is preceded by a guard page (unmapped by mm init). */
struct ist_stack {
	uint8_t guard[PAGE_SIZE];
	uint8_t stack[IST_STACK_SIZE];
};

static struct ist_stack ist_stacks[3] __aligned(PAGE_SIZE);
extern uint8_t boot_stack_guard[];

static void set_tss_descriptor(unsigned int index, const struct tss *t)
{
	uint64_t base = (uint64_t)t;
	uint64_t limit = sizeof(*t) - 1;

	gdt[index] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		     ((uint64_t)TSS_TYPE_AVAILABLE << 40) |
		     (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[index + 1] = base >> 32;
}

void gdt_init(void)
{
	struct desc_ptr gdtr = { sizeof(gdt) - 1, (uint64_t)gdt };
	unsigned int i;

	gdt[__KERNEL_CS / 8 - 1] = SEG_KERNEL_CODE32;
	gdt[__KERNEL_CS / 8] = SEG_KERNEL_CODE64;
	gdt[__KERNEL_DS / 8] = SEG_KERNEL_DATA;
	gdt[__USER32_CS / 8] = SEG_USER_CODE32;
	gdt[__USER_DS / 8] = SEG_USER_DATA;
	gdt[__USER_CS / 8] = SEG_USER_CODE64;

	memset(&tss, 0, sizeof(tss));
	for (i = 0; i < ARRAY_SIZE(ist_stacks); i++)
		tss.ist[i] = (uint64_t)&ist_stacks[i].stack[IST_STACK_SIZE];
	tss.iomap_base = sizeof(tss);	/* no I/O permission bitmap */
	set_tss_descriptor(GDT_TSS_SEL / 8, &tss);

	__asm__ volatile(
		"lgdt %0\n\t"
		"mov %1, %%ds\n\t"
		"mov %1, %%es\n\t"
		"mov %1, %%ss\n\t"
		"xor %%eax, %%eax\n\t"
		"mov %%ax, %%fs\n\t"
		"mov %%ax, %%gs\n\t"
		"pushq %2\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"ltr %w3"
		:: "m"(gdtr), "r"((uint64_t)__KERNEL_DS), "i"(__KERNEL_CS), "r"(GDT_TSS_SEL)
		: "rax", "memory");
}

void tss_set_rsp0(uint64_t rsp0)
{
	tss.rsp[0] = rsp0;
	syscall_kernel_rsp = rsp0;
}

unsigned int kernel_stack_guards(uint64_t *guards, unsigned int max)
{
	unsigned int i, n = 0;

	if (n < max)
		guards[n++] = (uint64_t)boot_stack_guard;
	for (i = 0; i < ARRAY_SIZE(ist_stacks) && n < max; i++)
		guards[n++] = (uint64_t)ist_stacks[i].guard;
	return n;
}
