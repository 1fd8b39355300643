/*
 * For unit tests that link mm/filemap.c or mm/vmscan.c without mm/rmap.c
 * and mm/memory.c: no process maps their pages, so truncation's
 * unmap_mapping_range has nothing to do (it checks that no VMA is on the
 * mapping's i_mmap), and reclaim's page_referenced and try_to_unmap find
 * no PTE (they check that the page is not mapped), nor do try_to_munlock
 * and writeback's page_mkclean.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fs/fs.h>
#include <mm/mmap.h>
#include <mm/rmap.h>

void unmap_mapping_range(struct address_space *mapping, uint64_t holebegin, uint64_t holelen)
{
	(void)holebegin;
	(void)holelen;
	assert_true(list_empty(&mapping->i_mmap));
}

int page_referenced(struct page *page, int is_locked)
{
	(void)is_locked;
	assert_false(page_mapped(page));
	return 0;
}

int try_to_unmap(struct page *page, int migration)
{
	(void)migration;
	assert_false(page_mapped(page));
	return SWAP_SUCCESS;
}

int try_to_munlock(struct page *page)
{
	assert_false(page_mapped(page));
	return SWAP_SUCCESS;
}

int page_mkclean(struct page *page)
{
	assert_false(page_mapped(page));
	return 0;
}
