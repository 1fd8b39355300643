/*
 * init: Pageturn's PID 1.
 *
 * The kernel mounts / and starts this program with no open files, argv
 * from the words after " -- " on its command line, and envp HOME=/
 * TERM=linux PATH=....  init then:
 *
 *  1. mounts devtmpfs on /dev, proc on /proc, tmpfs on /tmp and tracefs
 *     on /sys/kernel/tracing (one that
 *     is already mounted, EBUSY, is fine);
 *  2. opens /dev/console as fds 0, 1 and 2, becomes a session leader
 *     (setsid) and makes the console its controlling terminal
 *     (TIOCSCTTY);
 *  3. with arguments ("init -- /usr/tests/runner all"): runs them as a
 *     command (looked up in PATH unless it has a '/'), waits for it, and
 *     powers the machine off, which under QEMU
 *     ends the run (the harness judges the console output);
 *     without: runs /etc/rc with /bin/sh, then keeps a login shell
 *     ("-sh", which reads /etc/profile) on the console, starting a new
 *     one whenever the last one exits.
 *
 * Children.  Each child gets a process group of its own and is made the
 * console's foreground group before it execs (init ignores SIGTTOU, so
 * the child may call tcsetpgrp from what is still a background group; the
 * signals init ignores or catches are back to default in the child).  A
 * shell started later thus always owns the terminal, whatever the last
 * one left behind, and Ctrl-C goes to the shell's foreground job, never
 * to init.
 *
 * Zombies.  Every orphan becomes init's child, so init's only loop is
 * waitpid(-1): it collects whatever exits, and acts when the one it
 * waits for (the command, the rc script, the shell) is among them.
 *
 * Shutdown.  busybox's poweroff, halt and reboot signal PID 1 (SIGUSR2,
 * SIGUSR1, SIGTERM), as they do to busybox's own init.  The handler does
 * the whole shutdown itself, so no signal can slip in between a flag test
 * and a blocking waitpid: SIGTERM to every other process, up to a second
 * for them to go, SIGKILL to the rest, sync(), then reboot() with the
 * matching command.  The same path powers off after a command.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONSOLE "/dev/console"
#define SHELL "/bin/sh"
#define RC "/etc/rc"

static const int ignored_signals[] = { SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU };
static const int shutdown_signals[] = { SIGUSR1, SIGUSR2, SIGTERM };

/* A line "init: ..." on stderr (the console once it is open). */
__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, "init: ", 6) == 6)
		write(STDERR_FILENO, line, n);
}

static void describe(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "wait status 0x%x", (unsigned)status);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Signal every other process and collect them: TERM, up to 1 s, then KILL. */
static void end_all_processes(void)
{
	pid_t r;

	kill(-1, SIGTERM);
	for (int i = 0; i < 20; i++) {
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (r < 0 && errno == ECHILD)
			return;
		sleep_ms(50);
	}
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

static void shut_down(int cmd, const char *what)
{
	say("%s", what);
	end_all_processes();
	sync();
	reboot(cmd);
	say("%s failed: reboot: %s", what, strerror(errno));
}

static void on_shutdown_signal(int sig)
{
	if (sig == SIGTERM)
		shut_down(RB_AUTOBOOT, "rebooting");
	else if (sig == SIGUSR1)
		shut_down(RB_HALT_SYSTEM, "halting");
	else
		shut_down(RB_POWER_OFF, "powering off");
}

static void setup_signals(void)
{
	struct sigaction sa = { .sa_handler = on_shutdown_signal };

	for (size_t i = 0; i < sizeof(shutdown_signals) / sizeof(shutdown_signals[0]); i++)
		sigaddset(&sa.sa_mask, shutdown_signals[i]);
	for (size_t i = 0; i < sizeof(shutdown_signals) / sizeof(shutdown_signals[0]); i++)
		sigaction(shutdown_signals[i], &sa, NULL);
	for (size_t i = 0; i < sizeof(ignored_signals) / sizeof(ignored_signals[0]); i++)
		signal(ignored_signals[i], SIG_IGN);
}

/* Mount type on dir; errno of the failure, or 0 (EBUSY: already mounted, fine). */
static int mount_fs(const char *type, const char *dir)
{
	if (mount(type, dir, type, 0, NULL) == 0 || errno == EBUSY)
		return 0;
	return errno;
}

/* fds 0, 1, 2 on the console, which becomes the controlling terminal. */
static int open_console(void)
{
	int fd = open(CONSOLE, O_RDWR | O_NOCTTY);

	if (fd < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (fd != i && dup2(fd, i) < 0)
			return -1;
	if (fd > 2)
		close(fd);
	if (setsid() < 0 && errno != EPERM)
		say("setsid: %s", strerror(errno));
	if (ioctl(STDIN_FILENO, TIOCSCTTY, 0) < 0)
		say("%s cannot be the controlling terminal: %s", CONSOLE, strerror(errno));
	return 0;
}

/*
 * Start the program file (a path, or a name looked up in PATH) with argv
 * in a child that owns the console.  Returns the child's pid, or -1.
 */
static pid_t spawn(const char *file, char *const argv[])
{
	sigset_t none;
	pid_t pid = fork();

	if (pid < 0) {
		say("fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0)
		return pid;
	for (size_t i = 0; i < sizeof(shutdown_signals) / sizeof(shutdown_signals[0]); i++)
		signal(shutdown_signals[i], SIG_DFL);
	setpgid(0, 0);
	if (tcsetpgrp(STDIN_FILENO, getpid()) < 0)      /* SIGTTOU is still ignored */
		say("tcsetpgrp for %s: %s", file, strerror(errno));
	for (size_t i = 0; i < sizeof(ignored_signals) / sizeof(ignored_signals[0]); i++)
		signal(ignored_signals[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(file, argv);
	say("cannot run %s: %s", file, strerror(errno));
	_exit(127);
}

/* Collect children until pid is among them; its wait status. */
static int wait_for(pid_t pid)
{
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(-1, &status, 0);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR) {
			say("waitpid: %s", strerror(errno));
			return -1;
		}
	}
}

static void run_command(char **argv)
{
	char how[64];
	pid_t pid;
	int status;

	say("running %s", argv[0]);
	pid = spawn(argv[0], argv);
	if (pid > 0) {
		status = wait_for(pid);
		describe(status, how, sizeof(how));
		say("%s finished: %s", argv[0], how);
	}
	shut_down(RB_POWER_OFF, "powering off");
}

int main(int argc, char **argv)
{
	static char *rc_argv[] = { SHELL, RC, NULL };
	static char *shell_argv[] = { "-sh", NULL };
	int dev_err = mount_fs("devtmpfs", "/dev"), err;
	struct timespec started, now;
	char how[64];

	setup_signals();
	if (open_console() < 0)
		return 1;       /* nowhere to say it; the kernel reports init's death */
	say("Pageturn init, pid %d", (int)getpid());
	if (dev_err)
		say("mount devtmpfs on /dev: %s", strerror(dev_err));
	if ((err = mount_fs("proc", "/proc")))
		say("mount proc on /proc: %s", strerror(err));
	if ((err = mount_fs("tmpfs", "/tmp")))
		say("mount tmpfs on /tmp: %s", strerror(err));
	if ((err = mount_fs("tracefs", "/sys/kernel/tracing")))
		say("mount tracefs on /sys/kernel/tracing: %s", strerror(err));

	if (argc > 1) {
		run_command(argv + 1);
		return 1;       /* reboot failed: init's death makes the kernel say so */
	}

	if (access(RC, R_OK) == 0) {
		pid_t rc = spawn(SHELL, rc_argv);

		if (rc > 0) {
			int status = wait_for(rc);

			if (status != 0) {
				describe(status, how, sizeof(how));
				say("%s finished: %s", RC, how);
			}
		}
	}

	for (;;) {
		pid_t shell;
		int status;

		clock_gettime(CLOCK_MONOTONIC, &started);
		shell = spawn(SHELL, shell_argv);
		if (shell < 0) {
			sleep_ms(1000);
			continue;
		}
		status = wait_for(shell);
		describe(status, how, sizeof(how));
		say("%s exited (%s); starting a new one", SHELL, how);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - started.tv_sec < 1)
			sleep_ms(1000);         /* a shell that cannot start must not spin */
	}
}
