/*
 * poll(2), ppoll(2), select(2) and pselect6(2) (Linux's fs/select.c).
 *
 * Each call makes passes over its descriptors, asking each file's
 * f_op->poll for the events ready now (a file without one is always
 * readable and writable, Linux's DEFAULT_POLLMASK; a descriptor that is
 * not open, or open with O_PATH, has POLLNVAL).  poll counts the pollfds
 * with any event asked for, POLLERR and POLLHUP being reported whether
 * asked for or not; select counts the bits it sets in its three result
 * sets: readable on POLLIN, POLLRDNORM, POLLRDBAND, POLLHUP or POLLERR,
 * writable on POLLOUT, POLLWRNORM, POLLWRBAND or POLLERR, "exceptional"
 * on POLLPRI (Linux's POLLIN_SET, POLLOUT_SET, POLLEX_SET).  select
 * refuses a set naming a descriptor that is not open (-EBADF) before any
 * pass; poll reports it (POLLNVAL).
 *
 * The passes are one loop for both (do_poll_loop).  The first pass also
 * registers current on every wait queue the files name (poll_wait; the
 * entries are chained pages of the poll_table), where it stays until
 * the call ends.  When nothing is ready, the call sleeps
 * TASK_INTERRUPTIBLE until a queue is woken, a signal comes
 * (-ERESTARTNOHAND: restarted unless a handler ran, then -EINTR) or the
 * timeout ends (0 ready), and makes another pass.
 *
 * No wakeup is lost between the last pass and the sleep: the check just
 * before sleeping runs with interrupts disabled, as wait_event's does,
 * and they stay disabled until schedule() switches away, so a wakeup
 * from an interrupt handler comes after the task is asleep (and makes
 * it runnable) or before the check (which then sees the event).  No
 * other task runs in between: the kernel is not preemptive.  Passes
 * without registration call f_op->poll with interrupts disabled; a
 * file's poll must not sleep (none does: pipes and TTYs look at their
 * buffers).
 *
 * The files are held for the whole call (fget; select takes fget_raw's,
 * so that an O_PATH descriptor counts as open, never ready, as on
 * Linux), so the wait queues they own outlive the entries on them.
 *
 * Timeouts.  A finite timeout is rounded up to whole ticks (HZ); one of
 * more than MAX_SCHEDULE_TIMEOUT ticks never ends.  select, pselect6 and
 * ppoll write the time left back into the caller's timeval or timespec,
 * as Linux does (not for a zero timeout): the time asked for less the
 * whole ticks that passed, never below zero.  If that write fails the
 * call's result stands, but an interrupted call is not restarted (its
 * timeout would be the old one): -EINTR.  select takes a tv_usec outside
 * 0..999999 as Linux does, carried into the seconds; the time is then
 * invalid (-EINVAL) when the seconds or the rest are negative.
 *
 * select reads and writes only the set words holding descriptors below
 * n, n cut to NR_OPEN (Linux cuts it to the descriptor table's size);
 * bits at n and above are ignored on the way in and come back clear.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <mm/slab.h>
#include <pageturn/resource.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/select.h>
#include <uapi/time.h>

#define DEFAULT_POLLMASK	(POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define POLLIN_SET		(POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET		(POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET		(POLLPRI)
#define ENTRIES_PER_PAGE	((PAGE_SIZE - sizeof(struct poll_table_page)) / \
				 sizeof(struct poll_table_entry))

void poll_wait(struct file *filp, wait_queue_head_t *wq, poll_table *pt)
{
	struct poll_table_page *page;
	struct poll_table_entry *entry;
	uint64_t flags;

	(void)filp;
	if (!pt || !wq)
		return;
	page = pt->table;
	if (!page || page->nr == ENTRIES_PER_PAGE) {
		page = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!page) {
			pt->error = -ENOMEM;
			return;
		}
		page->nr = 0;
		page->next = pt->table;
		pt->table = page;
	}
	entry = &page->entries[page->nr++];
	entry->wq = wq;
	entry->wait.task = current;
	INIT_LIST_HEAD(&entry->wait.entry);
	flags = local_irq_save();
	list_add_tail(&entry->wait.entry, &wq->task_list);
	local_irq_restore(flags);
}

/* Take current off every queue of pt and free its pages. */
static void poll_freewait(poll_table *pt)
{
	struct poll_table_page *page, *next;
	unsigned int i;
	uint64_t flags;

	for (page = pt->table; page; page = next) {
		next = page->next;
		flags = local_irq_save();
		for (i = 0; i < page->nr; i++)
			list_del(&page->entries[i].wait.entry);
		local_irq_restore(flags);
		kfree(page);
	}
	pt->table = NULL;
}

/* The events file has ready (pt: register for the changes). */
static unsigned int file_poll_mask(struct file *file, poll_table *pt)
{
	if (!file || (file->f_flags & O_PATH))
		return POLLNVAL;
	if (file->f_op && file->f_op->poll)
		return file->f_op->poll(file, pt);
	return DEFAULT_POLLMASK;
}

/* Sleep for up to timeout ticks (MAX_SCHEDULE_TIMEOUT: until woken);
 * interrupts are disabled: the ticks left. */
static long poll_schedule_timeout(long timeout)
{
	if (timeout != MAX_SCHEDULE_TIMEOUT)
		return schedule_timeout_interruptible(timeout);
	set_current_state(TASK_INTERRUPTIBLE);
	schedule();
	set_current_state(TASK_RUNNING);
	return timeout;
}

/* One pass over a call's files (fds): the number ready (pt: register). */
typedef unsigned int (*poll_pass_t)(void *fds, poll_table *pt);

/* The passes of poll and select for up to timeout ticks: the number
 * ready, 0 on timeout, -ERESTARTNOHAND on a signal or -ENOMEM. */
static long do_poll_loop(poll_pass_t pass, void *fds, long timeout)
{
	poll_table pt = { NULL, 0 };
	poll_table *wait = &pt;
	unsigned int count;
	uint64_t flags;
	long err = 0;

	for (;;) {
		count = pass(fds, wait);
		wait = NULL;
		if (count || !timeout)
			break;
		if (pt.error) {
			err = pt.error;
			break;
		}
		if (signal_pending(current)) {
			err = -ERESTARTNOHAND;
			break;
		}
		flags = local_irq_save();
		if (!pass(fds, NULL) && !signal_pending(current))
			timeout = poll_schedule_timeout(timeout);
		local_irq_restore(flags);
	}
	poll_freewait(&pt);
	return err ? err : count;
}

/* --- timeouts ------------------------------------------------------------------------- */

/* A timeout as the caller asked, for the time left. */
struct poll_timeout {
	long ticks;			/* rounded up; MAX_SCHEDULE_TIMEOUT: never ends */
	struct timespec req;		/* as asked */
	uint64_t start;			/* jiffies when the call began */
};

/* Linux's poll_select_set_timeout: 0, or -EINVAL for a negative or
 * unnormalised time. */
static int poll_set_timeout(struct poll_timeout *to, int64_t sec, long nsec)
{
	if (sec < 0 || nsec < 0 || nsec >= NSEC_PER_SEC)
		return -EINVAL;
	to->req.tv_sec = sec;
	to->req.tv_nsec = nsec;
	to->start = jiffies;
	if (sec >= MAX_SCHEDULE_TIMEOUT / HZ - 1)
		to->ticks = MAX_SCHEDULE_TIMEOUT;
	else
		to->ticks = sec * HZ + (nsec * HZ + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	return 0;
}

/*
 * ppoll's and pselect6's timeout: the user's timespec at tsp into *to, or
 * for tsp NULL no timeout (to->ticks MAX_SCHEDULE_TIMEOUT only; pass
 * poll_select_finish NULL then).  0, -EFAULT, or -EINVAL for a negative
 * or unnormalised time.
 */
static int poll_timeout_from_user(struct poll_timeout *to, const struct timespec __user *tsp)
{
	struct timespec ts;

	to->ticks = MAX_SCHEDULE_TIMEOUT;
	if (!tsp)
		return 0;
	if (copy_from_user(&ts, tsp, sizeof(ts)))
		return -EFAULT;
	return poll_set_timeout(to, ts.tv_sec, ts.tv_nsec);
}

/* The time asked for less the whole ticks that passed, at least 0. */
static struct timespec poll_time_left(const struct poll_timeout *to)
{
	uint64_t elapsed = jiffies - to->start;
	struct timespec left = to->req;
	int64_t sec = elapsed / HZ;
	long nsec = elapsed % HZ * TICK_NSEC;

	if (left.tv_sec < sec || (left.tv_sec == sec && left.tv_nsec <= nsec)) {
		left.tv_sec = left.tv_nsec = 0;
		return left;
	}
	left.tv_sec -= sec;
	left.tv_nsec -= nsec;
	if (left.tv_nsec < 0) {
		left.tv_sec--;
		left.tv_nsec += NSEC_PER_SEC;
	}
	return left;
}

/*
 * The end of select, pselect6 and ppoll (Linux's poll_select_finish
 * without the mask): write the time left to the user's timeval
 * (is_timeval) or timespec at utime, unless there was no timeout (to
 * NULL) or a zero one.  Returns ret, but -EINTR for -ERESTARTNOHAND when
 * the write fails.
 */
static long poll_select_finish(const struct poll_timeout *to, void __user *utime,
			       bool is_timeval, long ret)
{
	struct timespec left;
	struct timeval tv;
	int err;

	if (!to || (!to->req.tv_sec && !to->req.tv_nsec))
		return ret;
	left = poll_time_left(to);
	if (is_timeval) {
		tv.tv_sec = left.tv_sec;
		tv.tv_usec = left.tv_nsec / NSEC_PER_USEC;
		err = copy_to_user(utime, &tv, sizeof(tv));
	} else {
		err = copy_to_user(utime, &left, sizeof(left));
	}
	if (err && ret == -ERESTARTNOHAND)
		ret = -EINTR;
	return ret;
}

/* --- poll ------------------------------------------------------------------------------ */

/* A poll call's descriptors. */
struct poll_fds {
	struct pollfd *fds;
	struct file **files;		/* held; NULL: not open (or fd < 0) */
	unsigned int nfds;
};

/* One pass: each pollfd's revents; the number with any (pt: register). */
static unsigned int do_pollfds(void *arg, poll_table *pt)
{
	struct poll_fds *p = arg;
	unsigned int i, count = 0, mask;

	for (i = 0; i < p->nfds; i++) {
		if (p->fds[i].fd < 0) {
			p->fds[i].revents = 0;
			continue;
		}
		mask = file_poll_mask(p->files[i], pt);
		mask &= (unsigned int)(uint16_t)p->fds[i].events | POLLERR | POLLHUP | POLLNVAL;
		p->fds[i].revents = mask;
		if (mask)
			count++;
	}
	return count;
}

/* Poll the user's nfds pollfds for up to timeout ticks: the number
 * ready, 0 on timeout, or -errno. */
static long do_sys_poll(struct pollfd __user *ufds, unsigned int nfds, long timeout)
{
	struct poll_fds p = { NULL, NULL, nfds };
	unsigned int i;
	long ret = 0;

	/* Linux's rule: more entries than the process may have files. */
	if (nfds > NR_OPEN || nfds > task_rlimit(current, RLIMIT_NOFILE))
		return -EINVAL;
	if (nfds) {
		p.fds = kmalloc(nfds * sizeof(*p.fds), GFP_KERNEL);
		p.files = kzalloc(nfds * sizeof(*p.files), GFP_KERNEL);
		if (!p.fds || !p.files) {
			ret = -ENOMEM;
			goto out;
		}
		if (copy_from_user(p.fds, ufds, nfds * sizeof(*p.fds))) {
			ret = -EFAULT;
			goto out;
		}
	}
	for (i = 0; i < nfds; i++)
		if (p.fds[i].fd >= 0)
			p.files[i] = fget(p.fds[i].fd);
	ret = do_poll_loop(do_pollfds, &p, timeout);
	for (i = 0; i < nfds; i++)
		if (p.files[i])
			fput(p.files[i]);
	/* Linux writes back only revents. */
	for (i = 0; ret >= 0 && i < nfds; i++)
		if (put_user(p.fds[i].revents, &ufds[i].revents))
			ret = -EFAULT;
out:
	kfree(p.files);
	kfree(p.fds);
	return ret;
}

long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs)
{
	long timeout = MAX_SCHEDULE_TIMEOUT;

	if (timeout_msecs >= 0)
		timeout = ((long)timeout_msecs * HZ + 999) / 1000;
	return do_sys_poll(ufds, nfds, timeout);
}

long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds, struct timespec __user *tsp,
	       const void __user *sigmask, size_t sigsetsize)
{
	struct poll_timeout to;
	long ret;

	ret = poll_timeout_from_user(&to, tsp);
	if (ret)
		return ret;
	ret = set_user_sigmask((const sigset_t *)sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, to.ticks);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	return poll_select_finish(tsp ? &to : NULL, tsp, false, ret);
}

/* --- select ------------------------------------------------------------------------------ */

/* A select call's descriptors 0..n-1: three sets asked about and three
 * results (res_in, res_out, res_ex one after another, so one memset
 * clears them), words longs each, and the files of the descriptors
 * asked about. */
struct select_fds {
	unsigned int n, words;
	unsigned long *in, *out, *ex;
	unsigned long *res_in, *res_out, *res_ex;
	struct file **files;		/* held for each descriptor in a set */
};

/* One pass: the result sets; the number of bits set (pt: register). */
static unsigned int do_selectfds(void *arg, poll_table *pt)
{
	struct select_fds *s = arg;
	unsigned int fd, w, count = 0, mask;
	unsigned long bit;

	memset(s->res_in, 0, 3 * s->words * sizeof(unsigned long));
	for (fd = 0; fd < s->n; fd++) {
		w = fd / __NFDBITS;
		bit = 1ul << (fd % __NFDBITS);
		if (!((s->in[w] | s->out[w] | s->ex[w]) & bit))
			continue;
		mask = file_poll_mask(s->files[fd], pt);
		if ((s->in[w] & bit) && (mask & POLLIN_SET)) {
			s->res_in[w] |= bit;
			count++;
		}
		if ((s->out[w] & bit) && (mask & POLLOUT_SET)) {
			s->res_out[w] |= bit;
			count++;
		}
		if ((s->ex[w] & bit) && (mask & POLLEX_SET)) {
			s->res_ex[w] |= bit;
			count++;
		}
	}
	return count;
}

/* Copy a user set in (NULL: empty): 0 or -EFAULT. */
static int get_fd_set(const struct select_fds *s, const fd_set __user *ufds, unsigned long *set)
{
	size_t bytes = s->words * sizeof(unsigned long);

	if (!ufds) {
		memset(set, 0, bytes);
		return 0;
	}
	return copy_from_user(set, ufds, bytes) ? -EFAULT : 0;
}

/* Copy a result set out to a set the user gave: 0 or -EFAULT. */
static int set_fd_set(const struct select_fds *s, fd_set __user *ufds, const unsigned long *set)
{
	if (!ufds)
		return 0;
	return copy_to_user(ufds, set, s->words * sizeof(unsigned long)) ? -EFAULT : 0;
}

/* Hold the file of each descriptor in a set: 0, or -EBADF for one not open. */
static int select_get_files(struct select_fds *s)
{
	unsigned int fd, w;
	unsigned long bit;

	for (fd = 0; fd < s->n; fd++) {
		w = fd / __NFDBITS;
		bit = 1ul << (fd % __NFDBITS);
		if (!((s->in[w] | s->out[w] | s->ex[w]) & bit))
			continue;
		s->files[fd] = fget_raw(fd);
		if (!s->files[fd])
			return -EBADF;
	}
	return 0;
}

/* select's work for up to timeout ticks (Linux's core_sys_select). */
static long core_sys_select(int n, fd_set __user *inp, fd_set __user *outp,
			    fd_set __user *exp, long timeout)
{
	struct select_fds s = { 0 };
	unsigned long *bits = NULL;
	unsigned int fd;
	long ret;

	if (n < 0)
		return -EINVAL;
	s.n = MIN((unsigned int)n, NR_OPEN);
	s.words = (s.n + __NFDBITS - 1) / __NFDBITS;
	if (s.n) {
		bits = kmalloc(6 * s.words * sizeof(unsigned long), GFP_KERNEL);
		s.files = kzalloc(s.n * sizeof(*s.files), GFP_KERNEL);
		if (!bits || !s.files) {
			ret = -ENOMEM;
			goto out;
		}
		s.in = bits;
		s.out = bits + s.words;
		s.ex = bits + 2 * s.words;
		s.res_in = bits + 3 * s.words;
		s.res_out = bits + 4 * s.words;
		s.res_ex = bits + 5 * s.words;
	}
	ret = -EFAULT;
	if (s.n && (get_fd_set(&s, inp, s.in) || get_fd_set(&s, outp, s.out) ||
		    get_fd_set(&s, exp, s.ex)))
		goto out;
	ret = s.n ? select_get_files(&s) : 0;
	if (!ret)
		ret = do_poll_loop(do_selectfds, &s, timeout);
	if (ret >= 0 && s.n && (set_fd_set(&s, inp, s.res_in) || set_fd_set(&s, outp, s.res_out) ||
				set_fd_set(&s, exp, s.res_ex)))
		ret = -EFAULT;
out:
	for (fd = 0; s.files && fd < s.n; fd++)
		if (s.files[fd])
			fput(s.files[fd]);
	kfree(s.files);
	kfree(bits);
	return ret;
}

long sys_select(int n, fd_set __user *inp, fd_set __user *outp, fd_set __user *exp,
		struct timeval __user *tvp)
{
	struct poll_timeout to, *top = NULL;
	struct timeval tv;
	int64_t sec;
	long ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		if (__builtin_add_overflow(tv.tv_sec, tv.tv_usec / USEC_PER_SEC, &sec))
			sec = tv.tv_sec < 0 ? -1 : INT64_MAX;
		if (poll_set_timeout(&to, sec, tv.tv_usec % USEC_PER_SEC * NSEC_PER_USEC))
			return -EINVAL;
		top = &to;
	}
	ret = core_sys_select(n, inp, outp, exp, top ? to.ticks : MAX_SCHEDULE_TIMEOUT);
	return poll_select_finish(top, tvp, true, ret);
}

/* pselect6's sixth argument (Linux's struct sigset_argpack): the mask
 * to select with, and its size. */
struct sigset_argpack {
	const sigset_t __user *p;
	size_t size;
};

long sys_pselect6(int n, fd_set __user *inp, fd_set __user *outp, fd_set __user *exp,
		  struct timespec __user *tsp, void __user *sig)
{
	struct sigset_argpack pack = { NULL, 0 };
	struct poll_timeout to;
	long ret;

	ret = poll_timeout_from_user(&to, tsp);
	if (ret)
		return ret;
	if (sig && copy_from_user(&pack, sig, sizeof(pack)))
		return -EFAULT;
	ret = set_user_sigmask(pack.p, pack.size);
	if (ret)
		return ret;
	ret = core_sys_select(n, inp, outp, exp, to.ticks);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	return poll_select_finish(tsp ? &to : NULL, tsp, false, ret);
}
