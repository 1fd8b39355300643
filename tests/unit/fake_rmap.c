/*
 * For unit tests that link mm/filemap.c without mm/memory.c: no process
 * maps their files, so truncation's unmap_mapping_range has nothing to do;
 * it checks that no VMA is on the mapping's i_mmap.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fs/fs.h>
#include <mm/mmap.h>

void unmap_mapping_range(struct address_space *mapping, uint64_t holebegin, uint64_t holelen)
{
	(void)holebegin;
	(void)holelen;
	assert_true(list_empty(&mapping->i_mmap));
}
