/*
 * poll(2) and ppoll(2) (Linux's fs/select.c).  select(2) and pselect6 are
 * not implemented: the C libraries Pageturn runs use poll.
 *
 * A poll makes passes over its descriptors, asking each file's f_op->poll
 * for the events ready now (a file without one is always readable and
 * writable, Linux's DEFAULT_POLLMASK); POLLERR and POLLHUP are reported
 * whether asked for or not, and a descriptor that is not open gets
 * POLLNVAL.  The first pass also registers current on every wait queue
 * the files name (poll_wait; the entries are chained pages of the
 * poll_table), where it stays until the poll ends.  When nothing is
 * ready, poll sleeps TASK_INTERRUPTIBLE until a queue is woken, a signal
 * comes (-ERESTARTNOHAND: restarted unless a handler ran, then -EINTR)
 * or the timeout ends (0 ready), and makes another pass.
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
 * The files are held (fget) for the whole call, so the wait queues they
 * own outlive the entries on them.  A finite timeout is rounded up to
 * whole ticks; ppoll does not write the time left back.
 */
#include <asm/cpu.h>
#include <asm/page.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <mm/slab.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/time.h>

#define DEFAULT_POLLMASK	(POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
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

/* One pass: each pollfd's revents; the number with any (pt: register). */
static unsigned int do_pollfds(struct pollfd *fds, struct file **files, unsigned int nfds,
			       poll_table *pt)
{
	unsigned int i, count = 0, mask;

	for (i = 0; i < nfds; i++) {
		if (fds[i].fd < 0) {
			fds[i].revents = 0;
			continue;
		}
		if (!files[i]) {
			mask = POLLNVAL;
		} else if (files[i]->f_op && files[i]->f_op->poll) {
			mask = files[i]->f_op->poll(files[i], pt);
			mask &= (unsigned int)(uint16_t)fds[i].events | POLLERR | POLLHUP;
		} else {
			mask = DEFAULT_POLLMASK & ((unsigned int)(uint16_t)fds[i].events | POLLERR | POLLHUP);
		}
		fds[i].revents = mask;
		if (mask)
			count++;
	}
	return count;
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

/* Poll the user's nfds pollfds for up to timeout ticks: the number
 * ready, 0 on timeout, or -errno. */
static long do_sys_poll(struct pollfd __user *ufds, unsigned int nfds, long timeout)
{
	poll_table pt = { NULL, 0 };
	poll_table *wait = &pt;
	struct file **files = NULL;
	struct pollfd *fds = NULL;
	unsigned int i, count = 0;
	uint64_t flags;
	long err = 0;

	if (nfds > NR_OPEN)
		return -EINVAL;
	if (nfds) {
		fds = kmalloc(nfds * sizeof(*fds), GFP_KERNEL);
		files = kzalloc(nfds * sizeof(*files), GFP_KERNEL);
		if (!fds || !files) {
			err = -ENOMEM;
			goto out;
		}
		if (copy_from_user(fds, ufds, nfds * sizeof(*fds))) {
			err = -EFAULT;
			goto out;
		}
	}
	for (i = 0; i < nfds; i++)
		if (fds[i].fd >= 0)
			files[i] = fget(fds[i].fd);
	for (;;) {
		count = do_pollfds(fds, files, nfds, wait);
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
		if (!do_pollfds(fds, files, nfds, NULL) && !signal_pending(current))
			timeout = poll_schedule_timeout(timeout);
		local_irq_restore(flags);
	}
	poll_freewait(&pt);
	for (i = 0; i < nfds; i++)
		if (files[i])
			fput(files[i]);
	/* Linux writes back only revents. */
	for (i = 0; !err && i < nfds; i++)
		if (put_user(fds[i].revents, &ufds[i].revents))
			err = -EFAULT;
out:
	kfree(files);
	kfree(fds);
	return err ? err : count;
}

long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs)
{
	long timeout = MAX_SCHEDULE_TIMEOUT;

	if (timeout_msecs >= 0)
		timeout = ((long)timeout_msecs * HZ + 999) / 1000;
	return do_sys_poll(ufds, nfds, timeout);
}

long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds, const struct timespec __user *tsp,
	       const void __user *sigmask, size_t sigsetsize)
{
	long timeout = MAX_SCHEDULE_TIMEOUT, ret;
	struct timespec ts;

	if (tsp) {
		if (copy_from_user(&ts, tsp, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		if (ts.tv_sec >= MAX_SCHEDULE_TIMEOUT / HZ - 1)
			timeout = MAX_SCHEDULE_TIMEOUT;
		else
			timeout = ts.tv_sec * HZ + (ts.tv_nsec * HZ + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	}
	ret = set_user_sigmask((const sigset_t *)sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, timeout);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	return ret;
}
