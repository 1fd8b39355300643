/*
 * The OOM tracepoints (Linux's include/trace/events/oom.h): Linux 6.1's
 * names and printed fields.
 */
#ifndef TRACE_EVENTS_OOM_H
#define TRACE_EVENTS_OOM_H

#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/trace.h>

/* task's oom_score_adj was written (/proc/PID/oom_score_adj). */
static inline void trace_oom_score_adj_update(const struct task_struct *task)
{
#ifndef HOST_TEST
	if (unlikely(trace_event_enabled[TRACE_OOM_SCORE_ADJ_UPDATE])) {
		unsigned long args[2 + TASK_COMM_LEN / sizeof(unsigned long)];

		args[0] = task->pid;
		args[1] = (unsigned long)task->oom_score_adj;
		memcpy(&args[2], task->comm, TASK_COMM_LEN);
		trace_event_write(TRACE_OOM_SCORE_ADJ_UPDATE, args, ARRAY_SIZE(args));
	}
#else
	(void)task;
#endif
}

/* The OOM killer made pid a victim (PF_MEMDIE; Linux's mark_oom_victim). */
static inline void trace_mark_victim(int pid)
{
	TRACE_EVENT_WRITE(TRACE_MARK_VICTIM, pid);
}

#endif
