/* What kmain() learned at boot, for any subsystem (and tests) to read. */
#ifndef PAGETURN_BOOT_H
#define PAGETURN_BOOT_H

#include <pageturn/multiboot2.h>

/* The parsed multiboot2 information (valid after kmain's first steps). */
extern struct boot_info boot_info;
extern phys_addr_t boot_info_phys;

/* Parse multiboot2 information; a malformed one is a panic naming the
 * reason (the kernel cannot run on boot information it cannot trust). */
void boot_info_parse_or_panic(const void *info, size_t size, struct boot_info *bi);

/* Print the boot report: loader, firmware, memory map, modules, video,
 * ACPI and CPU, one compact block. */
void boot_report(void);

#endif
