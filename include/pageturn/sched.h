/*
 * Tasks and the scheduler (Linux's include/linux/sched.h and
 * kernel/kthread.c names), for one CPU.  kernel/sched.c explains the
 * design: kernel threads, a round-robin run queue, and no preemption
 * inside the kernel (CONFIG_PREEMPT_NONE).
 */
#ifndef PAGETURN_SCHED_H
#define PAGETURN_SCHED_H

#include <asm/page.h>
#include <asm/ptrace.h>
#include <pageturn/list.h>
#include <pageturn/types.h>

/* Task states (Linux's values). */
#define TASK_RUNNING		0	/* running, or on the run queue */
#define TASK_INTERRUPTIBLE	1	/* asleep; no signals yet, so as below */
#define TASK_UNINTERRUPTIBLE	2	/* asleep until wake_up_process() */
#define TASK_STOPPED		4	/* stopped by SIGSTOP/SIGTSTP until SIGCONT */
#define TASK_DEAD		64	/* exited; freed by the next task */

/* exit_state (Linux's values): a process that exited and has not been
 * waited for is a zombie; its task_struct keeps the status for wait4. */
#define EXIT_ZOMBIE		16
#define EXIT_DEAD		32

#define TASK_COMM_LEN	16
#define INIT_PID	1	/* the first process, reaper of orphans */
#define THREAD_ORDER	2			/* a kernel stack: 4 pages... */
#define THREAD_SIZE	(PAGE_SIZE << THREAD_ORDER)	/* ...of which the lowest is the guard */
#define SCHED_TIMESLICE	10			/* ticks before need_resched */

struct completion;
struct mm_struct;
struct files_struct;
struct fs_struct;
struct sighand_struct;
struct tty_struct;
struct blk_plug;

typedef uint64_t sigset_t;		/* bit (sig - 1) for signal sig, 1..64 */

/* sigaltstack(2)'s stack_t, x86-64 layout. */
typedef struct sigaltstack {
	void *ss_sp;
	int ss_flags;
	size_t ss_size;
} stack_t;

struct task_struct {
	uint64_t thread_rsp;		/* saved rsp while switched out: offset 0, see switch.asm */
	int pid;
	char comm[TASK_COMM_LEN];
	volatile long state;
	void *stack;			/* lowest address of the stack block (guard page), or NULL */
	uint64_t stack_top;		/* TSS.RSP0 while this task runs */
	struct list_head run_list;	/* on the run queue; empty when not queued */
	struct list_head timer_list;	/* on the msleep list; empty when not sleeping there */
	struct list_head tasks;		/* on task_list_head while it exists */
	uint64_t wakeup_jiffies;	/* msleep: when timer_list ends */
	unsigned int time_slice;	/* ticks left */
	volatile bool need_resched;	/* switch at the next explicit point */
	int (*threadfn)(void *data);
	void *data;

	/*
	 * A user process (kernel/fork.c, kernel/exit.c, kernel/exec.c).  A
	 * kernel thread has mm, files, fs and sighand NULL.  Processes are
	 * single-threaded: tgid == pid.
	 */
	struct mm_struct *mm;			/* its address space; shared by a vfork child */
	struct files_struct *files;		/* open files (fs/file.h) */
	struct fs_struct *fs;			/* root and working directory (fs/vfs.h) */
	struct sighand_struct *sighand;		/* signal actions (pageturn/signal.h) */
	sigset_t blocked;			/* rt_sigprocmask */
	sigset_t pending;			/* sent, not yet delivered */
	sigset_t saved_sigmask;			/* restored after a handler (rt_sigsuspend) */
	stack_t sas;				/* sigaltstack; ss_size 0 = none */
	int tgid, pgid, sid;			/* thread group (= pid), process group, session */
	struct task_struct *parent;		/* who wait4s for it (init once orphaned) */
	struct list_head children;		/* its children, by sibling */
	struct list_head sibling;		/* on parent->children */
	int exit_state;				/* 0, EXIT_ZOMBIE, EXIT_DEAD */
	int exit_code;				/* the wait status (W* encoding) */
	int exit_signal;			/* sent to the parent at exit: SIGCHLD, or 0 */
	struct completion *vfork_done;		/* a vfork child: its parent's, completed at exec/exit */
	int *clear_child_tid;			/* set_tid_address: zeroed at exit (user pointer) */
	int *set_child_tid;			/* CLONE_CHILD_SETTID: pid stored there at first run */
	uint64_t robust_list;			/* set_robust_list: recorded only */
	uint64_t fsbase;			/* MSR_FS_BASE while it runs (arch_prctl) */
	void *fpu_state;			/* 512-byte FXSAVE image, 16-aligned; NULL for kthreads */
	struct tty_struct *tty;			/* controlling terminal, or NULL */
	char *exe_path;				/* kmalloc'd path of the running program, or NULL */
	uint64_t utime, stime;			/* ticks spent in user and kernel mode */
	uint64_t start_time;			/* jiffies at fork */
	unsigned long min_flt, maj_flt;		/* page faults without and with I/O */
	uint64_t cutime, cstime;		/* reaped children's utime and stime */
	unsigned long cmin_flt, cmaj_flt;	/* reaped children's page faults */
	int stop_report;			/* a stop/continue wait4 has not seen: its W* status, or 0 */
	uint64_t alarm_jiffies;			/* alarm(2): when SIGALRM is due, 0 = none */
	uint64_t alarm_interval;		/* setitimer(ITIMER_REAL): re-arm period in ticks, 0 = once */
	int pagefault_disabled;			/* pagefault_disable depth (asm/uaccess.h) */
	unsigned int flags;			/* PF_* below */
	short oom_score_adj;			/* -1000..1000: the OOM killer's bias (mm/oom_kill.c) */
	struct blk_plug *plug;			/* bios held back (drivers/blkdev.h), or NULL */

	/*
	 * Resource limits, one per RLIMIT_* (RLIM_NLIMITS of
	 * uapi/resource.h, not included here: host unit tests mix this
	 * header with the C library's): the soft limit rlim_cur, which is
	 * enforced, and the hard limit rlim_max it may be raised to (Linux
	 * keeps them in signal_struct).  PID 1 starts with init_rlimits,
	 * fork copies the parent's, exec keeps them; kernel threads leave
	 * them zero and task_rlimit gives them init_rlimits
	 * (pageturn/resource.h, kernel/sys.c).
	 */
	struct task_rlimit {
		unsigned long rlim_cur, rlim_max;
	} rlim[16];
};

/*
 * task->flags, with Linux's values (they show in /proc/PID/stat field 9).
 * PF_EXITING and PF_KTHREAD are derived from exit_state and mm when
 * /proc shows them; the others are set and cleared by their owners.
 */
#define PF_EXITING	0x00000004	/* getting shut down (a zombie) */
#define PF_MEMALLOC	0x00000800	/* in reclaim: may use the reserves, never reclaims again */
#define PF_MEMDIE	0x00001000	/* an OOM victim: may use the reserves to exit (Linux's
					 * TIF_MEMDIE; early 2.6 kept it here, as PF_MEMDIE) */
#define PF_KSWAPD	0x00040000	/* kswapd itself */
#define PF_KTHREAD	0x00200000	/* a kernel thread */
#define PF_SWAPWRITE	0x00800000	/* may write pages out from reclaim (kswapd) */

/* The user registers of a process: the frame its syscall or interrupt
 * entry built at the top of its kernel stack. */
static inline struct pt_regs *task_pt_regs(struct task_struct *p)
{
	return (struct pt_regs *)p->stack_top - 1;
}

/* A signal is deliverable: pending and not blocked (SIGKILL and SIGSTOP
 * cannot be blocked: rt_sigprocmask never sets their bits). */
static inline bool signal_pending(const struct task_struct *p)
{
	return (p->pending & ~p->blocked) != 0;
}

/* Sleep in the state the caller set (set_current_state, prepare_to_wait)
 * for up to timeout ticks (jiffies), waking early on wake_up_process (a
 * signal, a wait queue); a wakeup that came after the state was set and
 * before this call returns at once.  The ticks left, 0 when the time ran
 * out; current is TASK_RUNNING after.  Process context. */
long schedule_timeout(long timeout);
/* The same, TASK_INTERRUPTIBLE. */
long schedule_timeout_interruptible(long timeout);
/* A timeout that never runs out (Linux's value). */
#define MAX_SCHEDULE_TIMEOUT	((long)(~0ul >> 1))

/*
 * The process side of exec and exit (kernel/fork.c, Linux's mm_release):
 * the task lets go of its old address space, so a vfork parent waiting for
 * it is woken, and a set_tid_address pointer is cleared.
 */
void mm_release(struct task_struct *tsk);

/* Tell t's parent that t changed state (exit, stop, continue): wakes a
 * wait4 sleeping on it (kernel/exit.c). */
void wake_up_parent(struct task_struct *t);

/* Give current a fresh FPU/SSE state (exec): x87 and MXCSR defaults. */
void fpu_reset(struct task_struct *t);

/* Timer-tick hooks, interrupt context: SIGALRM for due alarms
 * (kernel/signal.c) and the load average (kernel/sys.c). */
void run_alarms(void);
void calc_global_load(void);
/* The load averages, fixed point with FSHIFT bits (Linux's avenrun). */
#define FSHIFT		11
#define FIXED_1		(1ul << FSHIFT)
extern unsigned long avenrun[3];

/* Tasks on the run queue or running now (Linux's nr_running), and those
 * asleep TASK_UNINTERRUPTIBLE (for /proc/stat and the load average). */
unsigned long nr_running(void);
unsigned long nr_uninterruptible(void);
/* Processes forked since boot (/proc/stat "processes"). */
extern unsigned long total_forks;

/* Does some live process have pgid pgrp within session sid? (kernel/pid.c) */
bool pgrp_in_session(int pgrp, int sid);

/* Every task, for kill(-1), /proc and wait4 (on tasks_list). */
extern struct list_head task_list_head;
struct task_struct *find_task_by_pid(int pid);

/* The running task; &init_task (pid 0, "swapper": kmain) at boot. */
extern struct task_struct *current;
extern struct task_struct init_task;

#define set_current_state(s) (current->state = (s))

/* Give up the CPU: run the next task on the run queue, round-robin.
 * current goes back on the queue when its state is TASK_RUNNING, else
 * sleeps until wake_up_process().  Process context only; returns with
 * the interrupt flag as it was. */
void schedule(void);

/* schedule() with current staying runnable: let the others run once. */
void yield(void);

/* schedule() if the tick said current's time slice is used up (or a
 * wakeup asked for it).  Long kernel loops call it. */
void cond_resched(void);

/* Make p runnable (queue it); false when it was runnable already or dead.
 * Any context, interrupts on or off. */
bool wake_up_process(struct task_struct *p);

/*
 * A new kernel thread running fn(data), named name (cut to 15 chars), not
 * yet runnable: wake_up_process() starts it.  It exits when fn returns; the
 * task and its stack are freed by the task that runs after it.  NULL when
 * out of memory.  Process context, interrupts on.
 */
struct task_struct *kthread_create(int (*fn)(void *data), void *data, const char *name);

/* Sleep for at least ms milliseconds (a tick's granularity).  Any task,
 * the idle task included; process context. */
void msleep(unsigned int ms);

/* Called on every timer interrupt: time slices, msleep wakeups, CPU time
 * (user_tick: the tick interrupted user mode), alarms, load average. */
void scheduler_tick(bool user_tick);

/* Is the CPU halted, waiting for an interrupt (nothing runnable)?  What
 * the tick counts as idle time. */
extern bool cpu_halted;

/* kmain's end: the idle task runs whatever is runnable, else halts. */
__noreturn void cpu_idle(void);

/*
 * Task life cycle, for kernel/fork.c and kernel/exit.c (kernel/sched.c):
 * alloc_task: a task_struct with a guarded kernel stack, a pid, on the
 * task list, not runnable (NULL when out of memory); set_switch_frame:
 * make p's first switch return into entry with rsp = sp; free_thread_stack
 * and free_task undo them; finish_task_switch runs after every switch on
 * the new stack (frees a dead predecessor); alloc_pid: kernel/pid.c.
 */
struct task_struct *alloc_task(const char *name);
void set_switch_frame(struct task_struct *p, uint64_t *sp, void (*entry)(void));
void free_thread_stack(void *stack);
void free_task(struct task_struct *p);
void finish_task_switch(struct task_struct *prev);
int alloc_pid(void);

/* Tasks created and not yet freed (for tests). */
extern unsigned long nr_threads;

#endif
