/*
 * Wait queues: see pageturn/wait.h.  Every operation runs with interrupts
 * disabled, since wake_up() is called from interrupt handlers.
 */
#include <asm/cpu.h>
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
