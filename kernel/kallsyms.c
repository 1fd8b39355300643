/*
 * Address-to-name lookup for backtraces.  The table is generated from the
 * kernel's own link (tools/kallsyms.sh) and linked into the .kallsyms
 * section in a second pass; see the Makefile and linker.ld.
 */
#include <pageturn/kallsyms.h>

extern const uint64_t kallsyms_num;
extern const uint64_t kallsyms_addresses[];
extern const uint32_t kallsyms_offsets[];
extern const char kallsyms_names[];
extern const char __text_end[];

/* Binary search for the last symbol at or below addr. */
const char *kallsyms_lookup(uint64_t addr, uint64_t *offset)
{
	uint64_t lo = 0, hi = kallsyms_num;

	if (kallsyms_num == 0 || addr < kallsyms_addresses[0] || addr >= (uint64_t)__text_end)
		return NULL;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (kallsyms_addresses[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (offset)
		*offset = addr - kallsyms_addresses[lo];
	return kallsyms_names + kallsyms_offsets[lo];
}
