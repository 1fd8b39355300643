/*
 * The boot report: one compact block telling a student (or a test) what
 * the machine and the loader handed over.  Memory-map lines use Linux's
 * "[mem 0x...-0x...]" form with inclusive ends.
 */
#include <asm/cpu.h>
#include <asm/pgtable.h>
#include <pageturn/boot.h>
#include <pageturn/printk.h>
#include <pageturn/string.h>

static void report_cpu(void)
{
	uint32_t a, b, c, d, max_ext;
	char vendor[13];
	char brand[49];
	int i;

	cpuid(0, 0, &a, &b, &c, &d);
	memcpy(vendor + 0, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';

	brand[0] = '\0';
	cpuid(0x80000000, 0, &max_ext, &b, &c, &d);
	if (max_ext >= 0x80000004) {
		for (i = 0; i < 3; i++) {
			cpuid(0x80000002 + i, 0, &a, &b, &c, &d);
			memcpy(brand + i * 16 + 0, &a, 4);
			memcpy(brand + i * 16 + 4, &b, 4);
			memcpy(brand + i * 16 + 8, &c, 4);
			memcpy(brand + i * 16 + 12, &d, 4);
		}
		brand[48] = '\0';
	}
	printk(KERN_INFO "cpu: %s \"%s\", NX %s\n", vendor, brand,
	       rdmsr(MSR_EFER) & EFER_NXE ? "on" : "not supported");
}

static void report_memory(const struct boot_info *bi)
{
	uint64_t avail = 0, above4g = 0;
	unsigned int i, ranges = 0;

	for (i = 0; i < bi->nr_mmap; i++) {
		const struct boot_mmap_entry *e = &bi->mmap[i];

		printk(KERN_INFO "mem: [mem %#018lx-%#018lx] %s\n", e->addr, e->addr + e->len - 1,
		       mb2_memory_type_name(e->type));
		if (e->type != MB2_MEMORY_AVAILABLE)
			continue;
		ranges++;
		avail += e->len;
		if (e->addr + e->len > (4ull << 30))
			above4g += e->addr + e->len - MAX(e->addr, 4ull << 30);
	}
	printk(KERN_INFO "mem: %lu MiB available in %u ranges, %lu MiB above 4 GiB\n",
	       avail >> 20, ranges, above4g >> 20);
}

static void report_video(const struct boot_info *bi)
{
	const struct boot_framebuffer *fb = &bi->fb;

	if (!bi->has_framebuffer) {
		printk(KERN_INFO "video: no framebuffer information%s\n",
		       bi->efi ? "" : " (BIOS text mode assumed)");
		return;
	}
	if (fb->type == MB2_FB_EGA_TEXT)
		printk(KERN_INFO "video: EGA text %ux%u at %#lx\n", fb->width, fb->height, fb->addr);
	else
		printk(KERN_INFO "video: %s framebuffer %ux%ux%u at %#lx, pitch %u\n",
		       fb->type == MB2_FB_RGB ? "RGB" : "indexed", fb->width, fb->height,
		       fb->bpp, fb->addr, fb->pitch);
}

void boot_report(void)
{
	const struct boot_info *bi = &boot_info;
	unsigned int i;

	printk(KERN_INFO "boot: firmware %s, loader \"%s\", %u bytes of boot information at %#lx\n",
	       bi->efi ? "UEFI" : "BIOS", bi->loader_name, bi->total_size, boot_info_phys);
	printk(KERN_INFO "boot: command line \"%s\"\n", bi->cmdline);
	report_memory(bi);
	if (!bi->nr_modules)
		printk(KERN_INFO "boot: no modules\n");
	for (i = 0; i < bi->nr_modules; i++)
		printk(KERN_INFO "boot: module %u [mem %#018lx-%#018lx] \"%s\"\n", i,
		       bi->modules[i].start, bi->modules[i].end - 1, bi->modules[i].cmdline);
	report_video(bi);
	if (bi->rsdp)
		printk(KERN_INFO "acpi: RSDP revision %u, OEM \"%s\"\n", bi->rsdp_revision, bi->rsdp_oem);
	else
		printk(KERN_INFO "acpi: no RSDP from the loader\n");
	report_cpu();
}
