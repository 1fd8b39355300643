/*
 * fake_mm: what the VMA layer (mm/mmap.c, mprotect.c, madvise.c, mlock.c)
 * leans on, faked for host unit tests (tests/unit/fake_mm.c).
 *
 *  - kmalloc/kfree on top of malloc, counting live objects and able to
 *    fail on demand (fake_kmalloc_fail_after).
 *  - mm/memory.c's page-table side, modelled as a set of "PTEs": one
 *    entry per present page of an mm, with its protection and the id of
 *    the page it maps.  populate_vma_range adds entries, zap_page_range
 *    removes them, change_protection rewrites their protection,
 *    copy_page_range copies them (same page ids) into the child, and
 *    free_pgtables insists that none is left.  Every call checks that its
 *    range is page-aligned and inside its VMA, which is on its mm's list,
 *    and is logged in fake_calls[] for tests to inspect.  populate and
 *    copy_page_range can be told to fail.
 *  - fget/fput over a small descriptor table of test-owned files,
 *    checking that no reference is dropped twice.
 *  - `current`, a task whose mm the tests set, and task_rlimit reading
 *    its limit table (fake_task.rlim), which fake_rlimits_reset leaves
 *    without limits for the tests to lower.
 */
#ifndef TESTS_UNIT_FAKE_MM_H
#define TESTS_UNIT_FAKE_MM_H

#include <fs/file.h>
#include <mm/mmap.h>

/* The kernel's sigset_t is not the host libc's, which cmocka's headers
 * bring in first: give the kernel's another name here. */
#define sigset_t kernel_sigset_t
#include <pageturn/sched.h>
#undef sigset_t

/* ---- kmalloc ---- */

/* kmalloc calls left before every call fails (-1: never fail). */
extern long fake_kmalloc_fail_after;
/* Objects allocated and not yet freed. */
extern long fake_kmalloc_live;

/* ---- page tables ---- */

enum fake_call_kind {
	FAKE_PGD_ALLOC,
	FAKE_FREE_PGTABLES,
	FAKE_ZAP,
	FAKE_CHANGE_PROT,
	FAKE_COPY,
	FAKE_POPULATE,
};

struct fake_call {
	enum fake_call_kind kind;
	struct mm_struct *mm;		/* the mm acted on (dst for COPY) */
	unsigned long start, end;	/* the range (a COPY: the VMA's) */
	uint64_t prot;			/* CHANGE_PROT's newprot */
	bool write;			/* POPULATE's write */
};

#define FAKE_MAX_CALLS 4096
extern struct fake_call fake_calls[FAKE_MAX_CALLS];
extern unsigned int fake_nr_calls;

/* Forget the logged calls. */
void fake_calls_reset(void);
/* How many logged calls are of kind. */
unsigned int fake_calls_count(enum fake_call_kind kind);

/* pgd_alloc fails while set. */
extern bool fake_pgd_fail;
/* copy_page_range calls left before one fails with -ENOMEM (-1: never). */
extern long fake_copy_fail_after;
/* populate_vma_range fails with this errno (0: succeeds). */
extern int fake_populate_error;

/* Is the page at addr present in mm?  Its protection and page id in
 * *prot and *page (either may be NULL). */
bool fake_pte_lookup(struct mm_struct *mm, unsigned long addr, uint64_t *prot, long *page);
/* The number of present pages of mm. */
unsigned long fake_pte_count(struct mm_struct *mm);

/* ---- files ---- */

#define FAKE_NR_FDS 8
/* fget(fd) hands out fake_fd_table[fd] (with a reference) when not NULL. */
extern struct file *fake_fd_table[FAKE_NR_FDS];

/* A file with an i_mapping (or without, when mappable is false), opened
 * with f_mode, holding one reference (the caller's).  fake_file_free
 * checks that exactly that reference is left. */
struct file *fake_file_new(unsigned int f_mode, bool mappable);

/* How many VMAs are on the mappable fake files' i_mmap (they share one
 * address_space). */
unsigned long fake_i_mmap_count(void);
void fake_file_free(struct file *file);

/* ---- the running task ---- */

extern struct task_struct fake_task;

/* Every limit of fake_task RLIM_INFINITY, soft and hard. */
void fake_rlimits_reset(void);

#endif
