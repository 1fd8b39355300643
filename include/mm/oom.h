/*
 * The OOM killer's interface (Linux's include/linux/oom.h): what the page
 * allocator and the page-fault handler call when memory cannot be found,
 * and what /proc/PID/oom_score and oom_score_adj read.  mm/oom_kill.c
 * explains the policy.
 */
#ifndef MM_OOM_H
#define MM_OOM_H

#include <limits.h>
#include <mm/gfp.h>
#include <pageturn/types.h>

struct task_struct;

/* task->oom_score_adj's range; OOM_SCORE_ADJ_MIN means "never kill". */
#define OOM_SCORE_ADJ_MIN	(-1000)
#define OOM_SCORE_ADJ_MAX	1000

/*
 * How long an allocation keeps trying (mm/page_alloc.c): reclaims in a
 * row that freed nothing (Linux 4.7's MAX_RECLAIM_RETRIES), and naps of a
 * tick while out_of_memory finds only its last victim still exiting.
 */
#define MAX_RECLAIM_RETRIES	16
#define OOM_WAIT_RETRIES	100

/* What out_of_memory did. */
enum oom_result {
	OOM_KILLED,		/* a victim was chosen and sent SIGKILL (maybe current) */
	OOM_VICTIM_EXITING,	/* an earlier victim, or an exiting task, still holds its memory */
	OOM_NO_VICTIM,		/* nothing may be killed: only init, kernel threads, -1000 */
};

/* The pages oom_badness weighs against: RAM (and swap, when it exists). */
unsigned long oom_totalpages(void);

/*
 * How much killing p would free, in pages (resident + swap entries +
 * page-table pages), plus oom_score_adj * totalpages / 1000; LONG_MIN
 * when p may not be killed (init, a kernel thread, no mm, a vfork child,
 * oom_score_adj -1000).  Linux 4.19's oom_badness.  Interrupts on or off.
 */
long oom_badness(struct task_struct *p, unsigned long totalpages);

/*
 * The task with the highest oom_badness, its score in *points; NULL when
 * there is none; OOM_ABORT_SELECT when a task already killed or exiting
 * still holds memory (wait for it rather than kill another).
 */
#define OOM_ABORT_SELECT	((struct task_struct *)-1l)
struct task_struct *select_bad_process(unsigned long totalpages, long *points);

/*
 * The allocator is out of memory for an allocation of this gfp_mask and
 * order (reclaim freed nothing): choose a victim, print the report, kill
 * it.  Current itself, when it is already dying, gets the reserves
 * instead (PF_MEMDIE), without a report.  Process context; does not
 * sleep.
 */
enum oom_result out_of_memory(gfp_t gfp_mask, int order);

/*
 * A page fault got VM_FAULT_OOM (the allocator gave up): run the OOM
 * killer as Linux 2.6.29's pagefault_out_of_memory does.  Returns true
 * when the fault should be tried again (another process was killed and
 * has had a tick to exit); false when it must not: current is dying, or
 * nothing else could be killed and current was killed instead (the
 * console line "Out of memory: killing pid N (comm)").  Process context;
 * may sleep.
 */
bool pagefault_out_of_memory(void);

#endif
