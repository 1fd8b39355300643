/*
 * vfork_reap: a vfork parent that ignores SIGCHLD comes back from every
 * vfork, however quickly its child is reaped and its task reused.
 *
 * vfork suspends the parent until the child execs or exits.  When the
 * parent ignores SIGCHLD the kernel reaps the child the moment it exits:
 * nothing waits for a zombie.  So the parent must not learn that its
 * child is done by looking at the child's task, which may already be
 * freed, and even handed to the next fork, when the parent runs again.
 * Linux's parent sleeps on a completion of its own (vfork_done points at
 * it); the child completes it as it lets go of the address space.
 *
 * The test: a "vforker" process ignores SIGCHLD and makes VFORKS vforks
 * whose children exit or exec /bin/true at once, while FORKERS other
 * processes fork and reap children as fast as they can, so freed task
 * slots are reused at once.  The vforker counts its rounds in shared
 * memory; if the count stops moving for STALL_SECONDS the vforker is
 * stuck in the kernel: its /proc/PID/stat line is printed (state D is a
 * lost wakeup) and the check fails; SIGKILL must then still end it
 * within 2 seconds, or that fails too (the test then leaves it behind).
 *
 * Then a vfork parent whose child never execs nor exits (it pauses) is
 * sent SIGKILL.  Linux (since 3.6) ends the parent at once; Pageturn
 * keeps it asleep until the child lets go of their address space
 * (kernel/fork.c: a killed parent must not release its own vfork parent
 * while the child still runs on the mm), so there the parent must still
 * be alive while the child runs.  Once the child is killed too, the
 * parent must be dead of SIGKILL within 2 s, everywhere.
 */
#include "testlib.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define VFORKS		2000
#define FORKERS		3
#define STALL_SECONDS	10

struct shared {
	volatile long rounds;		/* vforks returned so far */
	volatile int stop;		/* tells the forkers to end */
	volatile pid_t paused_child;	/* the vfork child that never lets go */
};

static void vforker(struct shared *sh)
{
	signal(SIGCHLD, SIG_IGN);
	for (int i = 0; i < VFORKS; i++) {
		pid_t pid = vfork();

		if (pid == 0) {
			if (i % 4 == 0)
				execl("/bin/true", "true", (char *)NULL);
			_exit(0);
		}
		if (pid < 0)
			_exit(2);
		sh->rounds++;
	}
	/* With SIGCHLD ignored, every child is gone already. */
	_exit(waitpid(-1, NULL, 0) < 0 && errno == ECHILD ? 0 : 3);
}

static void forker(struct shared *sh)
{
	while (!sh->stop) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	_exit(0);
}

/* A vfork parent behind a child that pauses for ever, sent SIGKILL. */
static void check_killed_parent(struct shared *sh)
{
	pid_t parent = test_fork(), got = 0;
	int status = 0;
	char buf[64];

	if (parent == 0) {
		if (vfork() == 0) {
			sh->paused_child = getpid();
			for (;;)
				pause();
		}
		_exit(0);	/* never reached: the child does not let go */
	}
	while (!sh->paused_child)
		usleep(10000);
	kill(parent, SIGKILL);
	usleep(300000);
	if (on_pageturn())
		tap_check(test_wait(parent, &status, WNOHANG) == 0,
			  "a killed vfork parent sleeps on while its child runs on their memory",
			  "it ended: %s", test_status_str(status, buf, sizeof(buf)));
	else
		tap_skip("a killed vfork parent sleeps on while its child runs on their memory",
			 "Linux ends it at once");
	kill(sh->paused_child, SIGKILL);
	for (int i = 0; i < 200 && (got = test_wait(parent, &status, WNOHANG)) == 0; i++)
		usleep(10000);
	tap_check(got == parent && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "once its child is killed too, the vfork parent is dead of SIGKILL within 2 s",
		  "%s", got == parent ? test_status_str(status, buf, sizeof(buf)) : "still there");
}

int main(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t forkers[FORKERS], victim;
	long last = -1;
	time_t moved = time(NULL);
	int status;
	char buf[64];

	if (sh == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	for (int i = 0; i < FORKERS; i++)
		if ((forkers[i] = test_fork()) == 0)
			forker(sh);
	if ((victim = test_fork()) == 0)
		vforker(sh);

	for (;;) {
		if (test_wait(victim, &status, WNOHANG) == victim)
			break;
		if (sh->rounds != last) {
			last = sh->rounds;
			moved = time(NULL);
		} else if (time(NULL) - moved >= STALL_SECONDS) {
			char path[64], stat[512];

			snprintf(path, sizeof(path), "/proc/%d/stat", victim);
			read_file(path, stat, sizeof(stat));
			tap_note("the vforker is stuck after %ld vforks: %s", last, stat);
			kill(victim, SIGKILL);
			sleep(2);
			if (test_wait(victim, &status, WNOHANG) != victim) {
				tap_check(0, "SIGKILL ends a vforker stuck in the kernel", NULL);
				status = 0x7f;	/* not an exit: fails the check below */
			}
			break;
		}
		usleep(20000);
	}
	sh->stop = 1;
	for (int i = 0; i < FORKERS; i++)
		test_wait(forkers[i], NULL, 0);

	tap_check(sh->rounds == VFORKS, "every vfork returns with SIGCHLD ignored and task slots reused",
		  "%ld of %d", sh->rounds, VFORKS);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the vforker ends normally and has no child left to wait for", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	check_killed_parent(sh);
	return tap_done();
}
