/*
 * exec_args: execve() hands the new program exactly the argv and envp it
 * was given, an auxiliary vector, and the parts of the process that
 * survive exec; everything else is replaced.
 *
 * The test re-executes its own binary as a helper ("--report" mode) in a
 * child, with a crafted argv (an empty string, spaces, UTF-8, an 8 KiB
 * string, 200 more words) and envp, and reads back the helper's report
 * through a pipe: one "key value" line per fact it observed (the
 * strings as length and FNV-1a hash).  The parent compares each with
 * what it passed.  Before the exec the child also prepares what exec
 * must keep or drop: a close-on-exec fd and a plain one, a caught signal
 * (reset to default), an ignored one (stays ignored), a blocked one
 * (stays blocked) and a private mapping at a fixed address (gone).  The
 * auxiliary vector must carry AT_PAGESZ, AT_RANDOM (16 bytes, different
 * in two execs), AT_PHDR/AT_PHENT/AT_PHNUM describing the loaded image
 * and AT_ENTRY = _start.
 */
#include "testlib.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLOEXEC_FD 20
#define KEPT_FD 21
#define OLD_MAP ((void *)0x300000000ul)
#define NR_WORDS 200
#define LONG_ARG 8192
#define REPORT_MAX 65536

extern char **environ;
extern void _start(void);

static const char *sigstate(int sig)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa) < 0)
		return "error";
	if (sa.sa_handler == SIG_DFL)
		return "default";
	return sa.sa_handler == SIG_IGN ? "ignored" : "handler";
}

/* 1 if addr is mapped readable (a write() from it works), 0 if not, -1 on error. */
static int is_mapped(void *addr)
{
	int p[2], mapped;

	if (pipe(p) < 0)
		return -1;
	mapped = write(p[1], addr, 1) == 1;
	close(p[0]);
	close(p[1]);
	return mapped;
}

/* Does a PT_LOAD header of the table at AT_PHDR cover this function? */
static int phdrs_cover_text(void)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM), text = (unsigned long)&sigstate;

	if (!ph || getauxval(AT_PHENT) != sizeof(Elf64_Phdr))
		return 0;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr <= text &&
		    text < ph[i].p_vaddr + ph[i].p_memsz)
			return 1;
	return 0;
}

/* Helper mode: print what this process received, one fact a line. */
static int report(int argc, char **argv)
{
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	sigset_t blocked;
	int envc = 0, mapped;

	printf("pid %d\n", (int)getpid());
	printf("argc %d\n", argc);
	for (int i = 0; i < argc; i++)
		printf("arg %d %zu %016llx\n", i, strlen(argv[i]),
		       (unsigned long long)fnv1a(FNV1A_INIT, argv[i], strlen(argv[i])));
	printf("argv_terminated %d\n", argv[argc] == NULL);
	for (; environ[envc]; envc++)
		printf("env %d %zu %016llx\n", envc, strlen(environ[envc]),
		       (unsigned long long)fnv1a(FNV1A_INIT, environ[envc], strlen(environ[envc])));
	printf("envc %d\n", envc);
	printf("pagesz %lu\n", getauxval(AT_PAGESZ));
	printf("random ");
	if (rnd)
		for (int i = 0; i < 16; i++)
			printf("%02x", rnd[i]);
	else
		printf("none");
	printf("\n");
	printf("entry_is_start %d\n", getauxval(AT_ENTRY) == (unsigned long)&_start);
	printf("phdrs_cover_text %d\n", phdrs_cover_text());
	printf("cloexec_fd %s\n", fcntl(CLOEXEC_FD, F_GETFD) < 0 ? "closed" : "open");
	printf("kept_fd %s\n", fcntl(KEPT_FD, F_GETFD) < 0 ? "closed" : "open");
	printf("caught_sigusr1 %s\n", sigstate(SIGUSR1));
	printf("ignored_sigusr2 %s\n", sigstate(SIGUSR2));
	sigprocmask(SIG_BLOCK, NULL, &blocked);
	printf("blocked_sighup %d\n", sigismember(&blocked, SIGHUP));
	mapped = is_mapped(OLD_MAP);
	printf("old_mapping %s\n", mapped < 0 ? "error" : mapped ? "mapped" : "unmapped");
	return fflush(stdout) ? 1 : 0;
}

static void on_sigusr1(int sig)
{
	(void)sig;
}

/* The child's side: set up what exec must keep or drop, then exec. */
static void exec_helper(const char *self, char **args, char **envp, int out)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	sigset_t hup;
	int p[2];

	if (dup2(out, STDOUT_FILENO) < 0 || pipe(p) < 0 ||
	    dup2(p[0], CLOEXEC_FD) < 0 || dup2(p[1], KEPT_FD) < 0 ||
	    fcntl(CLOEXEC_FD, F_SETFD, FD_CLOEXEC) < 0)
		_exit(120);
	if (sigaction(SIGUSR1, &sa, NULL) < 0 || signal(SIGUSR2, SIG_IGN) == SIG_ERR)
		_exit(121);
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &hup, NULL) < 0)
		_exit(122);
	if (mmap(OLD_MAP, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != OLD_MAP)
		_exit(123);
	execve(self, args, envp);
	_exit(124);
}

struct run {
	pid_t pid;
	int status;
	char text[REPORT_MAX];
};

static void run_helper(const char *self, char **args, char **envp, struct run *r)
{
	int p[2];
	ssize_t n;

	test_pipe(p);
	r->pid = test_fork();
	if (r->pid == 0) {
		close(p[0]);
		exec_helper(self, args, envp, p[1]);
	}
	close(p[1]);
	n = read_full(p[0], r->text, sizeof(r->text) - 1);
	r->text[n < 0 ? 0 : n] = 0;
	close(p[0]);
	test_wait(r->pid, &r->status, 0);
}

/* The value after "key " on its line of the report, or "(missing)", in out. */
static const char *value(const struct run *r, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	for (const char *line = r->text; *line; ) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > klen && !strncmp(line, key, klen) && line[klen] == ' ') {
			snprintf(out, size, "%.*s", (int)(len - klen - 1), line + klen + 1);
			return out;
		}
		line += len + (end != NULL);
	}
	snprintf(out, size, "(missing)");
	return out;
}

static int expect_value(const struct run *r, const char *key, const char *want, const char *what)
{
	char got[256];

	value(r, key, got, sizeof(got));
	return tap_check(!strcmp(got, want), what, "%s is \"%s\", expected \"%s\"", key, got, want);
}

/* Do the reported strings (key "arg" or "env") match strs, in order? */
static void expect_strings(const struct run *r, const char *key, char **strs, int n,
			   const char *what)
{
	char k[32], want[64], got[256] = "";
	int i;

	for (i = 0; i < n; i++) {
		snprintf(k, sizeof(k), "%s %d", key, i);
		snprintf(want, sizeof(want), "%zu %016llx", strlen(strs[i]),
			 (unsigned long long)fnv1a(FNV1A_INIT, strs[i], strlen(strs[i])));
		if (strcmp(value(r, k, got, sizeof(got)), want))
			break;
	}
	tap_check(i == n, what, "%s %d (\"%.40s\") arrived as \"%s\" (length, FNV-1a)", key, i,
		  i < n ? strs[i] : "", got);
}

int main(int argc, char **argv)
{
	static struct run first, second;
	static char long_arg[LONG_ARG + 1], long_env[4000 + 6], words[NR_WORDS][8];
	char *args[6 + NR_WORDS + 1], *envp[] = { "A=1", "EMPTY=", long_env, NULL };
	char buf[64], num[16], rnd1[64], rnd2[64];
	int nargs = 0, status, err;
	pid_t pid;

	if (argc >= 2 && !strcmp(argv[1], "--report"))
		return report(argc, argv);

	memset(long_arg, 'L', LONG_ARG);
	memcpy(long_env, "LONG=", 5);
	memset(long_env + 5, 'e', 4000);
	args[nargs++] = "renamed-argv0";
	args[nargs++] = "--report";
	args[nargs++] = "";
	args[nargs++] = "two words";
	args[nargs++] = "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb6" "d" "\xc3\xa9";
	args[nargs++] = long_arg;
	for (int i = 0; i < NR_WORDS; i++) {
		snprintf(words[i], sizeof(words[i]), "w%d", i);
		args[nargs++] = words[i];
	}
	args[nargs] = NULL;

	run_helper(argv[0], args, envp, &first);
	if (!tap_check(WIFEXITED(first.status) && WEXITSTATUS(first.status) == 0,
		       "the helper runs and reports", "%s (120-124: setup or execve failed)",
		       test_status_str(first.status, buf, sizeof(buf))))
		return tap_done();
	snprintf(num, sizeof(num), "%d", (int)first.pid);
	expect_value(&first, "pid", num, "exec keeps the process id");
	snprintf(num, sizeof(num), "%d", nargs);
	expect_value(&first, "argc", num, "argc counts every argument");
	expect_strings(&first, "arg", args, nargs,
		       "argv arrives intact (empty, spaces, UTF-8, 8 KiB, 200 words)");
	expect_value(&first, "argv_terminated", "1", "argv[argc] is NULL");
	expect_value(&first, "envc", "3", "the environment has exactly the strings given");
	expect_strings(&first, "env", envp, 3, "envp arrives intact");
	expect_value(&first, "pagesz", "4096", "AT_PAGESZ is 4096");
	value(&first, "random", rnd1, sizeof(rnd1));
	tap_check(strlen(rnd1) == 32 && strcmp(rnd1, "00000000000000000000000000000000"),
		  "AT_RANDOM points to 16 bytes", "random is \"%s\"", rnd1);
	expect_value(&first, "entry_is_start", "1", "AT_ENTRY is the program's _start");
	expect_value(&first, "phdrs_cover_text", "1",
		     "AT_PHDR/AT_PHENT/AT_PHNUM describe the loaded program");
	expect_value(&first, "cloexec_fd", "closed", "a close-on-exec fd is closed by exec");
	expect_value(&first, "kept_fd", "open", "a plain fd stays open across exec");
	expect_value(&first, "caught_sigusr1", "default", "a caught signal is reset to default");
	expect_value(&first, "ignored_sigusr2", "ignored", "an ignored signal stays ignored");
	expect_value(&first, "blocked_sighup", "1", "the signal mask survives exec");
	expect_value(&first, "old_mapping", "unmapped", "the old address space is gone");

	run_helper(argv[0], args, envp, &second);
	value(&second, "random", rnd2, sizeof(rnd2));
	tap_check(strcmp(rnd1, rnd2), "AT_RANDOM differs between two execs", "both \"%s\"", rnd1);

	pid = test_fork();
	if (pid == 0) {
		execve("/no/such/program", args, envp);
		_exit(errno);
	}
	test_wait(pid, &status, 0);
	err = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	tap_check(err == ENOENT, "execve of a missing file fails with ENOENT", "%s",
		  test_status_str(status, buf, sizeof(buf)));
	return tap_done();
}
