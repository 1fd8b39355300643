/*
 * sh_script: execve() of a "#!" script runs its interpreter with the
 * script's path and the caller's arguments.
 *
 * Two scripts are written into a fresh directory under /tmp: one with
 * "#!/bin/sh" and one with "#! /bin/busybox sh" (a space after "#!" and
 * an interpreter argument).  Each is executed in a child with arguments
 * that contain a space and an empty string and with its own environment;
 * the script prints $0, $#, each argument and a variable from the
 * environment into a pipe and exits with status 7.  The output must be
 * exactly what the kernel's rule implies: $0 is the path given to
 * execve, then the arguments in order.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BODY "echo \"0=$0\"\necho \"argc=$#\"\nfor a in \"$@\"; do echo \"arg=[$a]\"; done\n" \
	"echo \"greeting=$GREETING\"\nexit 7\n"

static void run_script(const char *dir, const char *name, const char *shebang)
{
	char path[128], out[1024], want[1024], what[128], buf[64];
	char *argv[] = { "argv0-is-replaced", "one two", "", "three", NULL };
	char *envp[] = { "GREETING=hello from envp", "PATH=/bin:/usr/bin", NULL };
	int fd, p[2], status;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write_all(fd, shebang, strlen(shebang)) < 0 ||
	    write_all(fd, BODY, strlen(BODY)) < 0)
		tap_bail("writing %s: %s", path, strerror(errno));
	close(fd);
	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execve(path, argv, envp);
		_exit(100 + errno);
	}
	close(p[1]);
	n = read_full(p[0], out, sizeof(out) - 1);
	out[n < 0 ? 0 : n] = 0;
	close(p[0]);
	test_wait(pid, &status, 0);

	snprintf(what, sizeof(what), "\"%.*s\" script runs and exits with its status (7)",
		 (int)strcspn(shebang, "\n"), shebang);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 7, what,
		  "%s (100 + errno: execve failed)", test_status_str(status, buf, sizeof(buf)));
	snprintf(want, sizeof(want),
		 "0=%s\nargc=3\narg=[one two]\narg=[]\narg=[three]\ngreeting=hello from envp\n", path);
	snprintf(what, sizeof(what), "\"%.*s\" script sees $0, its arguments and envp",
		 (int)strcspn(shebang, "\n"), shebang);
	tap_check(!strcmp(out, want), what, "printed \"%s\"", out);
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/sh_script.XXXXXX";

	if (!mkdtemp(dir))
		tap_bail("mkdtemp in /tmp: %s", strerror(errno));
	run_script(dir, "plain.sh", "#!/bin/sh\n");
	run_script(dir, "with_arg.sh", "#! /bin/busybox sh\n");
	rmdir(dir);
	return tap_done();
}
