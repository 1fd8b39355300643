/* The running task and the OOM killer under the real page allocator: see
 * fake_zones.h. */
#include <mm/oom.h>
#include <pageturn/sched.h>

#include "fake_zones.h"

struct task_struct fake_task = { .comm = "fake" };
struct task_struct *current = &fake_task;
unsigned int *fake_task_flags = &fake_task.flags;
const unsigned int fake_pf_memalloc = PF_MEMALLOC, fake_pf_memdie = PF_MEMDIE;
unsigned int hardirq_count;
unsigned long oom_calls, nr_naps;
enum oom_result oom_answer = OOM_NO_VICTIM;
void (*oom_free_hook)(void);

enum oom_result out_of_memory(gfp_t gfp_mask, int order)
{
	(void)gfp_mask;
	(void)order;
	oom_calls++;
	if (oom_answer == OOM_KILLED && oom_free_hook)
		oom_free_hook();
	return oom_answer;
}

void msleep(unsigned int ms)
{
	(void)ms;
	nr_naps++;
}

void cond_resched(void)
{
}

void fake_alloc_env_reset(void)
{
	fake_task.flags = 0;
	hardirq_count = 0;
	oom_calls = nr_naps = 0;
	oom_answer = OOM_NO_VICTIM;
	oom_free_hook = NULL;
}
