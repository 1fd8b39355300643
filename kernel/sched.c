/*
 * The scheduler: kernel threads on one CPU, round-robin, not preemptive
 * inside the kernel.
 *
 * Tasks.  The boot context is task 0, init_task ("swapper"): kmain runs
 * the boot and the tests as it, then ends in cpu_idle().  Every other task
 * is a kernel thread from kthread_create(), with its own kernel stack: an
 * order-2 block of four pages whose lowest page is unmapped from the direct
 * map (pt_unmap on init_pgd, which splits a 2 MiB page if needed), so the
 * stack proper is 12 KiB and an overflow faults on the guard page.  Nothing
 * in the TSS switches stacks for a #PF, so the CPU's push of the fault
 * frame onto the guard page double-faults onto IST1, as the boot stack's
 * overflow does: "Oops: Double Fault (#DF)" with the overflowing function
 * in RIP.  When a thread's function returns, the thread is TASK_DEAD and
 * switches away for good; the next task frees its stack and task_struct
 * (finish_task_switch), since no task can free the stack it is running on.
 *
 * The run queue holds every TASK_RUNNING task except current, in FIFO
 * order; schedule() puts current at its tail when it is still runnable and
 * runs its head.  The idle task is a task like the others there, so a test
 * in kmain's context can sleep (msleep, wait_event) and yield; cpu_idle()
 * calls schedule() whenever the queue is not empty, so idle costs the
 * others nothing.  When nothing at all is runnable (every task asleep, the
 * idle task too), schedule() halts on the current stack with interrupts on
 * until an interrupt's wakeup makes a task runnable.
 *
 * Processes.  A user process is a task with an mm (kernel/fork.c,
 * kernel/exec.c); its pt_regs sit at the top of its kernel stack.  A
 * switch also switches what lives outside the stack: CR3 when the mm
 * differs, the FS base of the user's TLS, and the FPU/SSE registers
 * (FXSAVE/FXRSTOR, asm/fpu.h).  Zombies keep their task_struct after
 * the stack is freed, until wait4 reaps them (kernel/exit.c).  All tasks
 * are on task_list_head, for find_task_by_pid, kill and /proc.
 *
 * Preemption of user code, not of the kernel (Linux's
 * CONFIG_PREEMPT_NONE).  The timer tick counts down the running task's
 * time slice (SCHED_TIMESLICE ticks) and then sets need_resched; the
 * switch happens at an explicit point: schedule(), a sleep (wait_event,
 * msleep), cond_resched(), and on every return to user mode
 * (exit_to_user_mode), so a process that computes in a loop is preempted
 * at the tick that ends its slice.  The rest of the kernel
 * depends on this: the page cache, the LRU lists, the filesystems and the
 * block layer keep state in plain variables, and their spinlocks only
 * disable interrupts, which on one CPU excludes interrupt handlers but
 * would not exclude another task if the timer could switch in the middle
 * of a critical section.  A task switches only where it chose to, with no
 * lock held (schedule() would take the interrupt flag with it).
 *
 * Wakeups come from interrupt handlers (the tick, I/O completion), so the
 * queue is changed with interrupts disabled, and a sleeper sets its state
 * before it tests its condition (wait.h): a wakeup in between makes it
 * runnable again, and schedule() then just puts it back on the queue.
 *
 * msleep() keeps, per task, the jiffies value to wake at and a link on one
 * list of sleepers; scheduler_tick() walks that list on every tick and
 * wakes the tasks whose time has come.  A list walk per tick is fine for
 * the few tasks a teaching kernel has; Linux keeps timers in a wheel.
 */
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/fpu.h>
#include <drivers/blkdev.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/pgtable.h>
#include <mm/slab.h>
#include <pageturn/kernel_stat.h>
#include <pageturn/panic.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/time.h>

extern uint8_t boot_stack_top[];

struct task_struct *switch_to_asm(struct task_struct *prev, struct task_struct *next);
void ret_from_kthread(void);
__noreturn void kthread_start(struct task_struct *prev);

_Static_assert(offsetof(struct task_struct, thread_rsp) == 0, "switch.asm reads thread_rsp at offset 0");

struct task_struct init_task = {
	.pid = 0,
	.comm = "swapper",
	.state = TASK_RUNNING,
	.run_list = LIST_HEAD_INIT(init_task.run_list),
	.timer_list = LIST_HEAD_INIT(init_task.timer_list),
	.tasks = LIST_HEAD_INIT(init_task.tasks),
	.children = LIST_HEAD_INIT(init_task.children),
	.sibling = LIST_HEAD_INIT(init_task.sibling),
	.stack_top = (uint64_t)boot_stack_top,
	.time_slice = SCHED_TIMESLICE,
};

struct task_struct *current = &init_task;
unsigned long nr_threads;
unsigned long total_forks;
LIST_HEAD(task_list_head);
static LIST_HEAD(run_queue);
static LIST_HEAD(sleepers);

/* Page-table pages for splitting the direct map around a guard page. */
static phys_addr_t stack_table_alloc(void *ctx)
{
	struct page *page = alloc_page(GFP_KERNEL);

	(void)ctx;
	return page ? page_to_phys(page) : 0;
}

static void stack_table_free(phys_addr_t pa, void *ctx)
{
	(void)ctx;
	__free_page(pfn_to_page(pa >> PAGE_SHIFT));
}

static const struct pt_allocator stack_tables = {
	.alloc = stack_table_alloc,
	.free = stack_table_free,
};

/* Map the guard page back and give the block back to the buddy allocator,
 * which must never hand out an unmapped page. */
void free_thread_stack(void *stack)
{
	int err = pt_map(init_pgd, (unsigned long)stack, virt_to_phys(stack), PAGE_SIZE,
			 PAGE_KERNEL, PG_LEVEL_4K, &stack_tables);

	if (err)
		panic("sched: cannot map the stack guard page at %p back (%d)", stack, err);
	__free_pages(virt_to_page(stack), THREAD_ORDER);
}

/* Forget a task for good: off the task list, its FPU area and itself freed.
 * Its stack is already gone (finish_task_switch). */
void free_task(struct task_struct *p)
{
	uint64_t flags = local_irq_save();

	/* Interrupt handlers walk the task list (kill_pgrp, run_alarms). */
	list_del(&p->tasks);
	local_irq_restore(flags);
	kfree(p->fpu_state);
	kfree(p);
	nr_threads--;
}

/*
 * Runs on next's stack right after the switch: a dead prev's stack is
 * freed now that nothing runs on it.  A kernel thread, or a process
 * nobody will wait for, goes entirely; a zombie keeps its task_struct,
 * with the exit status, until its parent's wait4 reaps it.
 */
void finish_task_switch(struct task_struct *prev)
{
	if (prev->state != TASK_DEAD)
		return;
	free_thread_stack(prev->stack);
	prev->stack = NULL;
	if (prev->exit_state != EXIT_ZOMBIE)
		free_task(prev);
}

/*
 * The per-task CPU state that lives outside the kernel stack: the user
 * address space (CR3), the FS base of user TLS, and the FPU/SSE registers,
 * which user code uses and the kernel (-mgeneral-regs-only) never touches,
 * so they are saved and restored here rather than on every entry.
 */
static void switch_task_state(struct task_struct *prev, struct task_struct *next)
{
	if (prev->fpu_state)
		fxsave(prev->fpu_state);
	if (next->fpu_state)
		fxrstor(next->fpu_state);
	if (next->mm != prev->mm)
		switch_mm(next->mm);
	if (next->mm)
		wrmsr(MSR_FS_BASE, next->fsbase);
}

bool cpu_halted;

/* Halt until an interrupt, with interrupts off before and after: the
 * ticks that find the CPU here are idle time (/proc/stat, uptime). */
static void cpu_halt(void)
{
	cpu_halted = true;
	safe_halt();
	cli();
	cpu_halted = false;
}

/*
 * A task about to sleep first dispatches the bios its plug holds (Linux's
 * sched_submit_work), so it never waits for I/O it is itself holding
 * back.  The flush only hands requests to drivers; one that sleeps inside
 * (a RAM disk allocating a page) leaves the task running, and its wait
 * loop tests its condition again, as after any early wakeup.
 */
void schedule(void)
{
	struct task_struct *prev = current, *next;
	uint64_t flags;

	if (prev->plug && prev->state != TASK_RUNNING)
		blk_flush_plug(prev->plug);
	flags = local_irq_save();

	prev->need_resched = false;
	for (;;) {
		if (prev->state == TASK_RUNNING && list_empty(&prev->run_list))
			list_add_tail(&prev->run_list, &run_queue);
		if (!list_empty(&run_queue))
			break;
		/* Nothing runnable: wait here for an interrupt's wakeup. */
		cpu_halt();
	}
	next = list_first_entry(&run_queue, struct task_struct, run_list);
	list_del_init(&next->run_list);
	next->time_slice = SCHED_TIMESLICE;
	if (next != prev) {
		nr_switches++;
		switch_task_state(prev, next);
		current = next;
		tss_set_rsp0(next->stack_top);
		finish_task_switch(switch_to_asm(prev, next));
	}
	local_irq_restore(flags);
}

void yield(void)
{
	schedule();
}

void cond_resched(void)
{
	if (current->need_resched)
		schedule();
}

bool wake_up_process(struct task_struct *p)
{
	uint64_t flags = local_irq_save();
	bool woken = p->state != TASK_RUNNING && p->state != TASK_DEAD;

	if (woken) {
		p->state = TASK_RUNNING;
		if (p != current) {
			list_add_tail(&p->run_list, &run_queue);
			current->need_resched = true;
		}
	}
	local_irq_restore(flags);
	return woken;
}

/* Called by ret_from_kthread (switch.asm) on the new thread's stack. */
__noreturn void kthread_start(struct task_struct *prev)
{
	finish_task_switch(prev);
	sti();
	current->threadfn(current->data);

	cli();
	current->state = TASK_DEAD;
	schedule();
	panic("sched: dead task %d (%s) was scheduled", current->pid, current->comm);
}

struct task_struct *alloc_task(const char *name)
{
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);
	struct page *page;
	uint64_t flags;
	int err;

	if (!p)
		return NULL;
	page = alloc_pages(GFP_KERNEL, THREAD_ORDER);
	if (!page) {
		kfree(p);
		return NULL;
	}
	p->stack = page_address(page);
	err = pt_unmap(init_pgd, (unsigned long)p->stack, PAGE_SIZE, &stack_tables);
	if (err) {
		__free_pages(page, THREAD_ORDER);
		kfree(p);
		return NULL;
	}

	p->pid = alloc_pid();
	p->tgid = p->pid;
	memcpy(p->comm, name, strnlen(name, TASK_COMM_LEN - 1));
	p->state = TASK_UNINTERRUPTIBLE;
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->timer_list);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	p->stack_top = (uint64_t)p->stack + THREAD_SIZE;
	p->start_time = jiffies;
	flags = local_irq_save();
	list_add_tail(&p->tasks, &task_list_head);
	local_irq_restore(flags);
	nr_threads++;
	return p;
}

/* Build the frame switch_to_asm pops (r15..rbp zero, then the return
 * address) at sp, so the first switch to p "returns" into entry. */
void set_switch_frame(struct task_struct *p, uint64_t *sp, void (*entry)(void))
{
	*--sp = (uint64_t)entry;
	memset(sp - 6, 0, 6 * sizeof(*sp));
	p->thread_rsp = (uint64_t)(sp - 6);
}

struct task_struct *kthread_create(int (*fn)(void *data), void *data, const char *name)
{
	struct task_struct *p = alloc_task(name);

	if (!p)
		return NULL;
	p->threadfn = fn;
	p->data = data;
	/* Below the pt_regs slot, as every task's stack: a thread that
	 * becomes a process (init, via kernel_execve) fills it. */
	set_switch_frame(p, (uint64_t *)task_pt_regs(p), ret_from_kthread);
	return p;
}

void msleep(unsigned int ms)
{
	uint64_t flags = local_irq_save();

	/* +1: the current tick is partly gone, and ms is a minimum. */
	current->wakeup_jiffies = jiffies + ((uint64_t)ms * HZ + 999) / 1000 + 1;
	list_add_tail(&current->timer_list, &sleepers);
	while (!list_empty(&current->timer_list)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	local_irq_restore(flags);
}

long schedule_timeout(long timeout)
{
	uint64_t flags = local_irq_save();
	uint64_t expire = jiffies + (uint64_t)timeout;

	current->wakeup_jiffies = expire;
	list_add_tail(&current->timer_list, &sleepers);
	schedule();
	list_del_init(&current->timer_list);
	current->state = TASK_RUNNING;
	local_irq_restore(flags);
	return jiffies >= expire ? 0 : (long)(expire - jiffies);
}

long schedule_timeout_interruptible(long timeout)
{
	set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

unsigned long nr_running(void)
{
	uint64_t flags = local_irq_save();
	/* The idle task does not count, though it queues itself whenever
	 * cpu_idle() hands over; nor does a task halted in schedule(). */
	unsigned long n = current != &init_task && current->state == TASK_RUNNING;
	struct task_struct *p;

	list_for_each_entry(p, &run_queue, run_list)
		n += p != &init_task;
	local_irq_restore(flags);
	return n;
}

unsigned long nr_uninterruptible(void)
{
	uint64_t flags = local_irq_save();
	unsigned long n = 0;
	struct task_struct *p;

	/* Processes waiting for I/O; kernel threads sleep uninterruptibly
	 * between rounds of work, which is not load. */
	list_for_each_entry(p, &task_list_head, tasks)
		if (p->state == TASK_UNINTERRUPTIBLE && p->mm)
			n++;
	local_irq_restore(flags);
	return n;
}

/* Interrupt context, interrupts off. */
void scheduler_tick(bool user_tick)
{
	struct task_struct *p, *n;

	list_for_each_entry_safe(p, n, &sleepers, timer_list) {
		if (jiffies >= p->wakeup_jiffies) {
			list_del_init(&p->timer_list);
			wake_up_process(p);
		}
	}
	account_process_tick(current, user_tick);
	run_alarms();
	calc_global_load();
	if (current->time_slice && --current->time_slice == 0)
		current->need_resched = true;
}

__noreturn void cpu_idle(void)
{
	for (;;) {
		cli();
		if (list_empty(&run_queue))
			cpu_halt();
		else
			schedule();
	}
}
