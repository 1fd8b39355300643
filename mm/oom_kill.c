/*
 * The OOM killer (Linux's mm/oom_kill.c): when reclaim can free nothing
 * and an allocation must still succeed, kill the process whose death
 * frees the most memory, so that the system goes on.
 *
 * Who calls it.  The page allocator, for an allocation of order <= 3 that
 * may call into filesystems (__GFP_FS, not __GFP_NORETRY), after direct
 * reclaim made no progress and a retry at pages_high failed
 * (mm/page_alloc.c); and the page-fault handler when a fault still got
 * VM_FAULT_OOM (pagefault_out_of_memory, mm/fault.c).
 *
 * The choice.  Every process is weighed by oom_badness: its resident
 * pages (anon_rss + file_rss), its swap entries (swap_ents) and its
 * page-table pages, plus oom_score_adj * totalpages / 1000,
 * so oom_score_adj 1000 puts a process ahead of anything real and -1000
 * removes it from the choice.  select_bad_process takes the highest
 * score (the last one listed on a tie).  Never chosen: init (pid 1),
 * kernel threads and zombies (no mm), a vfork child (it borrows its
 * parent's mm; the parent is weighed for it), oom_score_adj -1000.
 *
 * The states of a process, as the killer sees them:
 *
 *   candidate   has an mm, none of the exclusions above, not dying.
 *   victim      chosen: PF_MEMDIE set, SIGKILL pending.  PF_MEMDIE lets
 *               its allocations go below every watermark (the reserves),
 *               so it can fault, finish its system call and exit.  The
 *               SIGKILL wakes it from an interruptible sleep (pipe,
 *               wait4, nanosleep) or a stop; an uninterruptible sleep
 *               (disk I/O, a page lock) ends by itself.  Every other
 *               process sharing its mm (CLONE_VM, vfork) gets SIGKILL
 *               too, or the memory would stay mapped.
 *   exiting     PF_EXITING (in do_exit) and still holding its mm.
 *   gone        exit_mm dropped the mm: its memory is back.
 *
 * Invariant: while any task is a victim or exiting and still has its mm,
 * no second process is killed: select_bad_process answers
 * OOM_ABORT_SELECT and the allocator naps and retries, at most
 * OOM_WAIT_RETRIES times (mm/page_alloc.c).  A current task that is
 * itself dying (SIGKILL pending, or exiting) is made a victim without a
 * report, so it gets the reserves and goes.
 *
 * The report, in Linux's words (the lines tests look for):
 *
 *   <comm> invoked oom-killer: gfp_mask=0x.., order=N, oom_score_adj=N
 *   Mem-Info: ... per-zone lines ... (show_free_areas, mm/page_alloc.c)
 *   Tasks state (memory values in pages):
 *   [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name
 *   Out of memory: Killed process N (comm) total-vm:NkB, anon-rss:NkB, ...
 *
 * and each kill counts the oom_kill event of /proc/vmstat.
 *
 * Where it differs from Linux.  The policy is Linux 4.19's (oom_badness,
 * oom_score_adj; 2.6.28 still had the older badness() heuristic of CPU
 * time, nice and children); the place it is called from is 2.6.28's.
 * There is no oom_reaper: the victim frees its own memory as it exits,
 * which one CPU without preemption lets it do as soon as it runs.  When
 * nothing can be killed, Linux panics; here the allocation fails
 * (OOM_NO_VICTIM), and a page fault kills the faulting process instead.
 * Everyone is root, so lowering oom_score_adj needs no privilege.
 * Shared-memory pages count in file-rss (no separate counter), and the
 * report prints shmem-rss:0kB.  One CPU and no preemption: nothing here
 * sleeps, so the task list cannot change under a walk, and no OOM lock
 * is needed.
 */
#include <mm/mm_types.h>
#include <mm/oom.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/time.h>
#include <trace/events/oom.h>

#define K(pages) ((pages) << (PAGE_SHIFT - 10))

unsigned long oom_totalpages(void)
{
	return totalram_pages;
}

/* Never a victim, whatever its score (Linux's oom_unkillable_task, plus
 * what find_lock_task_mm finds no mm for: kernel threads, zombies). */
static bool oom_unkillable_task(const struct task_struct *p)
{
	return p->pid <= INIT_PID || !p->mm || p->state == TASK_DEAD || p->exit_state;
}

/* A vfork child running on its parent's mm (Linux's in_vfork). */
static bool in_vfork(const struct task_struct *p)
{
	return p->vfork_done && p->parent && p->parent->mm == p->mm;
}

static unsigned long get_mm_rss(const struct mm_struct *mm)
{
	return mm->anon_rss + mm->file_rss;
}

long oom_badness(struct task_struct *p, unsigned long totalpages)
{
	long points, adj;

	if (oom_unkillable_task(p))
		return LONG_MIN;
	adj = p->oom_score_adj;
	if (adj == OOM_SCORE_ADJ_MIN || in_vfork(p))
		return LONG_MIN;

	/* Resident pages, swap entries, page-table pages. */
	points = (long)(get_mm_rss(p->mm) + p->mm->swap_ents + p->mm->nr_ptes);

	/* oom_score_adj is a share of memory, in thousandths. */
	adj *= (long)(totalpages / 1000);
	return points + adj;
}

/* Is p killed or on its way out, still holding its memory? */
static bool oom_task_dying(const struct task_struct *p)
{
	return (p->flags & (PF_MEMDIE | PF_EXITING)) != 0;
}

struct task_struct *select_bad_process(unsigned long totalpages, long *ppoints)
{
	struct task_struct *p, *chosen = NULL;
	long chosen_points = LONG_MIN;

	list_for_each_entry(p, &task_list_head, tasks) {
		long points;

		if (oom_unkillable_task(p))
			continue;
		if (oom_task_dying(p))
			return OOM_ABORT_SELECT;
		points = oom_badness(p, totalpages);
		if (points == LONG_MIN || points < chosen_points)
			continue;
		chosen = p;
		chosen_points = points;
	}
	*ppoints = chosen_points;
	return chosen;
}

/* "Tasks state": one line per process that could be killed (Linux's
 * dump_tasks; memory in pages, page tables in bytes). */
static void dump_tasks(void)
{
	struct task_struct *p;

	printk(KERN_INFO "Tasks state (memory values in pages):\n");
	printk(KERN_INFO "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents "
	       "oom_score_adj name\n");
	list_for_each_entry(p, &task_list_head, tasks) {
		if (oom_unkillable_task(p))
			continue;
		printk(KERN_INFO "[%7d] %5d %5d %8lu %8lu %8lu %8lu         %5d %s\n",
		       p->pid, 0, p->tgid, p->mm->total_vm, get_mm_rss(p->mm),
		       p->mm->nr_ptes * PAGE_SIZE, p->mm->swap_ents, p->oom_score_adj, p->comm);
	}
}

static void dump_header(gfp_t gfp_mask, int order)
{
	printk(KERN_WARNING "%s invoked oom-killer: gfp_mask=0x%x, order=%d, oom_score_adj=%d\n",
	       current->comm, gfp_mask, order, current->oom_score_adj);
	show_free_areas();
	dump_tasks();
}

/*
 * Make p a victim: PF_MEMDIE, then SIGKILL to it and to every other
 * process on its mm.  The line is printed first, while the mm's counters
 * still say what it held.
 */
static void oom_kill_process(struct task_struct *victim, const char *message)
{
	struct mm_struct *mm = victim->mm;
	struct task_struct *p;

	printk(KERN_ERR "%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:%lukB, shmem-rss:%lukB, UID:%d pgtables:%lukB oom_score_adj:%d\n",
	       message, victim->pid, victim->comm, K(mm->total_vm), K(mm->anon_rss),
	       K(mm->file_rss), 0ul, 0, K(mm->nr_ptes), victim->oom_score_adj);
	victim->flags |= PF_MEMDIE;
	trace_mark_victim(victim->pid);
	force_sig(SIGKILL, victim);
	count_vm_event(OOM_KILL);
	list_for_each_entry(p, &task_list_head, tasks)
		if (p != victim && p->mm == mm && !oom_unkillable_task(p))
			force_sig(SIGKILL, p);
}

enum oom_result out_of_memory(gfp_t gfp_mask, int order)
{
	unsigned long totalpages = oom_totalpages();
	struct task_struct *victim;
	long points;

	/*
	 * current will free its memory as soon as it gets out of the
	 * kernel: let it have the reserves for that, and kill nobody.
	 */
	if (current->mm && (fatal_signal_pending(current) || (current->flags & PF_EXITING))) {
		current->flags |= PF_MEMDIE;
		trace_mark_victim(current->pid);
		return OOM_KILLED;
	}

	victim = select_bad_process(totalpages, &points);
	if (victim == OOM_ABORT_SELECT)
		return OOM_VICTIM_EXITING;
	dump_header(gfp_mask, order);
	if (victim == NULL) {
		printk(KERN_WARNING "Out of memory and no killable processes...\n");
		return OOM_NO_VICTIM;
	}
	oom_kill_process(victim, "Out of memory");
	return OOM_KILLED;
}

bool pagefault_out_of_memory(void)
{
	if (fatal_signal_pending(current))
		return false;
	if (out_of_memory(0, 0) == OOM_KILLED) {
		if (fatal_signal_pending(current))
			return false;
		msleep(1000 / HZ);	/* the victim runs and exits */
		return true;
	}
	/*
	 * Nobody else can be killed, or the last victim does not go away:
	 * the faulting process goes, as every fault that failed for lack
	 * of memory did before Linux 2.6.29.
	 */
	printk(KERN_ERR "Out of memory: killing pid %d (%s)\n", current->pid, current->comm);
	force_sig_fault(SIGKILL, SI_KERNEL, 0);
	return false;
}
