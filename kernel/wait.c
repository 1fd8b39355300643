/*
 * Wait queues and the completions built on them: see pageturn/wait.h and
 * pageturn/completion.h.  Every operation runs with interrupts disabled,
 * since wake_up() and complete() are called from interrupt handlers.
 */
#include <asm/cpu.h>
#include <pageturn/completion.h>
#include <pageturn/wait.h>

void prepare_to_wait(wait_queue_head_t *wq, wait_queue_entry_t *wait, long state)
{
	uint64_t flags = local_irq_save();

	if (list_empty(&wait->entry))
		list_add_tail(&wait->entry, &wq->task_list);
	set_current_state(state);
	local_irq_restore(flags);
}

void finish_wait(wait_queue_head_t *wq, wait_queue_entry_t *wait)
{
	uint64_t flags = local_irq_save();

	(void)wq;
	set_current_state(TASK_RUNNING);
	if (!list_empty(&wait->entry))
		list_del_init(&wait->entry);
	local_irq_restore(flags);
}

void wake_up(wait_queue_head_t *wq)
{
	uint64_t flags = local_irq_save();
	wait_queue_entry_t *wait;

	list_for_each_entry(wait, &wq->task_list, entry)
		wake_up_process(wait->task);
	local_irq_restore(flags);
}

void complete(struct completion *x)
{
	uint64_t flags = local_irq_save();

	x->done++;
	wake_up(&x->wait);
	local_irq_restore(flags);
}

void wait_for_completion(struct completion *x)
{
	wait_event(x->wait, x->done);
	x->done--;
}
