/*
 * Host unit tests for the OOM killer (mm/oom_kill.c): oom_badness and
 * select_bad_process over made-up tasks, against the formula worked out
 * here (and over random task lists against an oracle); out_of_memory's
 * kill, report and bookkeeping; pagefault_out_of_memory's two answers.
 *
 * The tasks are static task_structs with made-up mm_structs on a
 * task_list_head of the test's own.  What oom_kill.c calls outside
 * itself is faked below: force_sig and force_sig_fault record the signal
 * (and set it pending, as the real ones do), msleep counts naps,
 * show_free_areas prints one marker line.  printk is kernel_stubs.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <mm/mm_types.h>
#include <mm/oom.h>
#include <mm/page_alloc.h>
#include <mm/swap.h>
#include <mm/vmstat.h>
#include <pageturn/completion.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>

#include "kernel_stubs.h"

/* ---- what oom_kill.c calls --------------------------------------------- */

LIST_HEAD(task_list_head);
unsigned long totalram_pages;
struct vm_event_state vm_event_states;
static struct task_struct idle = { .pid = 0, .comm = "swapper" };
struct task_struct *current = &idle;
static unsigned long naps, faults_forced;

void force_sig(int sig, struct task_struct *p)
{
	p->pending |= sigmask(sig);
}

void force_sig_fault(int sig, int code, unsigned long addr)
{
	(void)code;
	(void)addr;
	faults_forced++;
	current->pending |= sigmask(sig);
}

void msleep(unsigned int ms)
{
	(void)ms;
	naps++;
}

void show_free_areas(void)
{
	printk(KERN_INFO "SHOW_FREE_AREAS\n");
}

/* ---- made-up tasks ----------------------------------------------------- */

#define NR_FAKE 16

static struct task_struct tasks[NR_FAKE];
static struct mm_struct mms[NR_FAKE];

/* Task i: pid i + 1 (so tasks[0] is init), its own mm with anon and
 * file pages and page tables, on the task list. */
static struct task_struct *add_task(int i, const char *comm, unsigned long anon,
				    unsigned long file, unsigned long ptes, short adj)
{
	struct task_struct *p = &tasks[i];
	struct mm_struct *mm = &mms[i];

	memset(p, 0, sizeof(*p));
	memset(mm, 0, sizeof(*mm));
	p->pid = p->tgid = i + 1;
	strncpy(p->comm, comm, TASK_COMM_LEN - 1);
	mm->anon_rss = anon;
	mm->file_rss = file;
	mm->nr_ptes = ptes;
	mm->total_vm = anon + file + 100;
	p->mm = mm;
	p->oom_score_adj = adj;
	list_add_tail(&p->tasks, &task_list_head);
	return p;
}

static int setup(void **state)
{
	(void)state;
	INIT_LIST_HEAD(&task_list_head);
	memset(&vm_event_states, 0, sizeof(vm_event_states));
	totalram_pages = 10000;
	idle.pending = 0;
	idle.flags = 0;
	current = &idle;
	naps = faults_forced = 0;
	log_clear();
	return 0;
}

/* ---- oom_badness ------------------------------------------------------- */

static void test_badness_formula(void **state)
{
	struct task_struct *init = add_task(0, "init", 50, 10, 3, 0);
	struct task_struct *p = add_task(1, "p", 300, 40, 5, 0);
	struct task_struct *kthread = add_task(2, "kswapd0", 0, 0, 0, 0);

	(void)state;
	kthread->mm = NULL;
	assert_int_equal(oom_badness(init, 10000), LONG_MIN);
	assert_int_equal(oom_badness(kthread, 10000), LONG_MIN);
	assert_int_equal(oom_badness(p, 10000), 300 + 40 + 5);

	/* oom_score_adj counts thousandths of totalpages (rounded down). */
	p->oom_score_adj = 500;
	assert_int_equal(oom_badness(p, 10000), 345 + 5000);
	assert_int_equal(oom_badness(p, 10999), 345 + 5000);
	p->oom_score_adj = -200;
	assert_int_equal(oom_badness(p, 10000), 345 - 2000);
	p->oom_score_adj = 1000;
	assert_int_equal(oom_badness(p, 999), 345);
	p->oom_score_adj = OOM_SCORE_ADJ_MIN;
	assert_int_equal(oom_badness(p, 10000), LONG_MIN);

	/* A zombie (exit_state) and a dead task have nothing to free. */
	p->oom_score_adj = 0;
	p->exit_state = EXIT_ZOMBIE;
	assert_int_equal(oom_badness(p, 10000), LONG_MIN);
	p->exit_state = 0;
	p->state = TASK_DEAD;
	assert_int_equal(oom_badness(p, 10000), LONG_MIN);
}

/* A vfork child runs on its parent's mm: the parent is weighed for it. */
static void test_vfork_child_not_weighed(void **state)
{
	struct task_struct *parent = add_task(1, "sh", 100, 0, 2, 0);
	struct task_struct *child = add_task(2, "sh", 0, 0, 0, 0);
	struct completion done;

	(void)state;
	child->mm = parent->mm;
	child->parent = parent;
	child->vfork_done = &done;
	assert_int_equal(oom_badness(child, 10000), LONG_MIN);
	assert_int_equal(oom_badness(parent, 10000), 102);
	child->vfork_done = NULL;		/* after exec or exit: its own again */
	assert_int_equal(oom_badness(child, 10000), 102);
}

/* ---- select_bad_process ------------------------------------------------ */

static void test_select_biggest_and_adj(void **state)
{
	struct task_struct *big, *small, *chosen;
	long points;

	(void)state;
	add_task(0, "init", 5000, 0, 10, 0);		/* biggest, but init */
	add_task(1, "sh", 20, 5, 2, 0);
	big = add_task(2, "hog", 3000, 10, 8, 0);
	small = add_task(3, "small", 400, 0, 3, 0);
	chosen = select_bad_process(10000, &points);
	assert_ptr_equal(chosen, big);
	assert_int_equal(points, 3018);

	/* oom_score_adj 1000 puts the smaller one first... */
	small->oom_score_adj = 1000;
	assert_ptr_equal(select_bad_process(10000, &points), small);
	assert_int_equal(points, 403 + 10000);
	/* ...and -1000 on the bigger one leaves the smaller in any case. */
	small->oom_score_adj = 0;
	big->oom_score_adj = OOM_SCORE_ADJ_MIN;
	assert_ptr_equal(select_bad_process(10000, &points), small);

	/* On a tie the task listed last wins (Linux's "points <" test). */
	big->oom_score_adj = 0;
	small->mm->anon_rss = 3005;
	small->mm->nr_ptes = 13;
	assert_ptr_equal(select_bad_process(10000, &points), small);
}

static void test_select_waits_for_dying(void **state)
{
	struct task_struct *a, *b;
	long points;

	(void)state;
	add_task(0, "init", 10, 0, 1, 0);
	a = add_task(1, "a", 100, 0, 1, 0);
	b = add_task(2, "b", 900, 0, 1, 0);
	a->flags |= PF_MEMDIE;
	assert_ptr_equal(select_bad_process(10000, &points), OOM_ABORT_SELECT);
	a->flags = PF_EXITING;
	assert_ptr_equal(select_bad_process(10000, &points), OOM_ABORT_SELECT);

	/* Once its mm is gone, it holds nothing: the choice goes on. */
	a->mm = NULL;
	assert_ptr_equal(select_bad_process(10000, &points), b);

	/* Nothing killable: NULL. */
	b->oom_score_adj = OOM_SCORE_ADJ_MIN;
	assert_null(select_bad_process(10000, &points));
}

/* A simple LCG, so the random lists are the same on every run. */
static unsigned long rnd_state = 12345;

static unsigned long rnd(unsigned long n)
{
	rnd_state = rnd_state * 6364136223846793005ul + 1442695040888963407ul;
	return (rnd_state >> 33) % n;
}

/* Random task lists: the chosen task has the highest score of the
 * formula, computed here apart from oom_kill.c; the last one on a tie. */
static void test_select_random_oracle(void **state)
{
	(void)state;
	for (int round = 0; round < 2000; round++) {
		unsigned long totalpages = 1000 + rnd(100000);
		int n = 1 + (int)rnd(NR_FAKE - 1), want = -1;
		long best = LONG_MIN, points;
		struct task_struct *chosen;

		INIT_LIST_HEAD(&task_list_head);
		for (int i = 0; i < n; i++) {
			static const short adjs[] = { 0, 0, 0, -1000, -500, -1, 1, 300, 1000 };
			struct task_struct *p = add_task(i, "t", rnd(5000), rnd(500), rnd(20),
							 adjs[rnd(sizeof(adjs) / sizeof(adjs[0]))]);
			long score;

			if (rnd(8) == 0)
				p->mm = NULL;
			if (i == 0 || !p->mm || p->oom_score_adj == OOM_SCORE_ADJ_MIN)
				continue;
			score = (long)(p->mm->anon_rss + p->mm->file_rss + p->mm->nr_ptes) +
				p->oom_score_adj * (long)(totalpages / 1000);
			if (score >= best) {
				best = score;
				want = i;
			}
		}
		chosen = select_bad_process(totalpages, &points);
		if (want < 0) {
			assert_null(chosen);
		} else {
			assert_ptr_equal(chosen, &tasks[want]);
			assert_int_equal(points, best);
		}
	}
}

/* ---- out_of_memory ----------------------------------------------------- */

static void test_out_of_memory_kills_and_reports(void **state)
{
	struct task_struct *sh, *hog, *twin;

	(void)state;
	add_task(0, "init", 10, 0, 1, 0);
	sh = add_task(1, "sh", 20, 5, 2, 0);
	twin = add_task(3, "hogthread", 0, 0, 0, -5);
	hog = add_task(2, "hog", 3000, 10, 8, -5);
	twin->mm = hog->mm;	/* CLONE_VM: the same memory; hog, listed last, wins the tie */
	current = sh;

	assert_int_equal(out_of_memory(GFP_KERNEL, 2), OOM_KILLED);
	assert_true(hog->flags & PF_MEMDIE);
	assert_true(fatal_signal_pending(hog));
	assert_true(fatal_signal_pending(twin));	/* or the memory would stay */
	assert_false(twin->flags & PF_MEMDIE);
	assert_false(fatal_signal_pending(sh));
	assert_int_equal(vm_event_states.event[OOM_KILL], 1);

	assert_int_equal(log_count("sh invoked oom-killer: gfp_mask=0xd0, order=2, "
				   "oom_score_adj=0\n"), 1);
	assert_int_equal(log_count("SHOW_FREE_AREAS\n"), 1);
	assert_int_equal(log_count("Tasks state (memory values in pages):\n"), 1);
	assert_int_equal(log_count("[  pid  ]   uid  tgid total_vm      rss pgtables_bytes "
				   "swapents oom_score_adj name\n"), 1);
	assert_int_equal(log_count("[      2]     0     2      125       25     8192        0"
				   "             0 sh\n"), 1);
	assert_int_equal(log_count("[      3]     0     3     3110     3010    32768        0"
				   "            -5 hog\n"), 1);
	assert_int_equal(log_count(" init\n"), 0);	/* never a candidate, not listed */
	assert_int_equal(log_count("Out of memory: Killed process 3 (hog) total-vm:12440kB, "
				   "anon-rss:12000kB, file-rss:40kB, shmem-rss:0kB, UID:0 "
				   "pgtables:32kB oom_score_adj:-5\n"), 1);

	/* The victim has not gone yet: nobody else is killed. */
	log_clear();
	assert_int_equal(out_of_memory(GFP_KERNEL, 0), OOM_VICTIM_EXITING);
	assert_false(fatal_signal_pending(sh));
	assert_int_equal(log_count("invoked oom-killer"), 0);
	assert_int_equal(vm_event_states.event[OOM_KILL], 1);
}

static void test_out_of_memory_no_victim(void **state)
{
	struct task_struct *keep;

	(void)state;
	add_task(0, "init", 10, 0, 1, 0);
	keep = add_task(1, "keep", 3000, 0, 5, OOM_SCORE_ADJ_MIN);
	current = keep;
	assert_int_equal(out_of_memory(GFP_KERNEL, 0), OOM_NO_VICTIM);
	assert_false(fatal_signal_pending(keep));
	assert_int_equal(log_count("Out of memory and no killable processes...\n"), 1);
	assert_int_equal(vm_event_states.event[OOM_KILL], 0);

	/* A fault with nobody to kill kills the faulting process. */
	log_clear();
	assert_false(pagefault_out_of_memory());
	assert_int_equal(faults_forced, 1);
	assert_int_equal(log_count("Out of memory: killing pid 2 (keep)\n"), 1);
	assert_int_equal(naps, 0);
}

/* current already dying gets the reserves, without a report or a kill. */
static void test_out_of_memory_current_dying(void **state)
{
	struct task_struct *me;

	(void)state;
	add_task(0, "init", 10, 0, 1, 0);
	add_task(1, "big", 5000, 0, 5, 0);
	me = add_task(2, "me", 10, 0, 1, 0);
	current = me;
	me->pending = sigmask(SIGKILL);
	assert_int_equal(out_of_memory(GFP_KERNEL, 0), OOM_KILLED);
	assert_true(me->flags & PF_MEMDIE);
	assert_int_equal(log_count("invoked oom-killer"), 0);
	assert_int_equal(vm_event_states.event[OOM_KILL], 0);
	assert_false(pagefault_out_of_memory());	/* dying: no retry */
}

/* A fault that got another process killed is retried after a nap. */
static void test_pagefault_kills_another(void **state)
{
	struct task_struct *me, *big;

	(void)state;
	add_task(0, "init", 10, 0, 1, 0);
	big = add_task(1, "big", 5000, 0, 5, 0);
	me = add_task(2, "me", 10, 0, 1, 0);
	current = me;
	assert_true(pagefault_out_of_memory());
	assert_int_equal(naps, 1);
	assert_true(fatal_signal_pending(big));
	assert_false(fatal_signal_pending(me));
	assert_int_equal(log_count("me invoked oom-killer: gfp_mask=0x0, order=0"), 1);
	assert_int_equal(faults_forced, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_badness_formula, setup),
		cmocka_unit_test_setup(test_vfork_child_not_weighed, setup),
		cmocka_unit_test_setup(test_select_biggest_and_adj, setup),
		cmocka_unit_test_setup(test_select_waits_for_dying, setup),
		cmocka_unit_test_setup(test_select_random_oracle, setup),
		cmocka_unit_test_setup(test_out_of_memory_kills_and_reports, setup),
		cmocka_unit_test_setup(test_out_of_memory_no_victim, setup),
		cmocka_unit_test_setup(test_out_of_memory_current_dying, setup),
		cmocka_unit_test_setup(test_pagefault_kills_another, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
