/* The OOM killer and interrupt context under the real page allocator:
 * see fake_zones.h.  current is fake_wait.c's. */
#include <mm/oom.h>
#include <pageturn/sched.h>

#include "fake_wait.h"
#include "fake_zones.h"

const unsigned int fake_pf_memalloc = PF_MEMALLOC, fake_pf_memdie = PF_MEMDIE;
unsigned int hardirq_count;
unsigned long oom_calls;
enum oom_result oom_answer = OOM_NO_VICTIM;
void (*oom_free_hook)(void);

unsigned int *fake_current_flags(void)
{
	return &current->flags;
}

enum oom_result out_of_memory(gfp_t gfp_mask, int order)
{
	(void)gfp_mask;
	(void)order;
	oom_calls++;
	if (oom_answer == OOM_KILLED && oom_free_hook)
		oom_free_hook();
	return oom_answer;
}

void fake_alloc_env_reset(void)
{
	current->flags = 0;
	hardirq_count = 0;
	oom_calls = fake_naps = 0;
	oom_answer = OOM_NO_VICTIM;
	oom_free_hook = NULL;
}
