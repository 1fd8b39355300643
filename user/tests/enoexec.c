/*
 * enoexec: execve() refuses files it cannot run, with Linux's errno, and
 * the caller carries on.
 *
 * The test writes its specimens into a fresh directory under /tmp, all
 * mode 0755: ELF files that start from a correct x86-64 header and break
 * one field each (only the magic, e_type neither EXEC nor DYN, an ARM64
 * e_machine, a wrong e_phentsize, no program headers) must
 * fail with ENOEXEC, as must a "#!" line naming no interpreter; a "#!"
 * script whose interpreter does not exist fails with ENOENT; a file
 * without execute permission and a directory fail with EACCES.  Each
 * execve runs in a child that exits with the errno it got, so a kernel
 * that wrongly runs a specimen shows up as a crash or a wrong status
 * rather than ending the test.
 */
#include "testlib.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MISSING_INTERP "#!/no/such/interpreter\necho hi\n"
#define NOT_EXECUTABLE "#!/bin/sh\nexit 0\n"

static char dir[] = "/tmp/enoexec.XXXXXX";

static const char *specimen(const char *name, const void *data, size_t len, mode_t mode)
{
	static char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write_all(fd, data, len) != (ssize_t)len || fchmod(fd, mode) < 0)
		tap_bail("writing %s: %s", path, strerror(errno));
	close(fd);
	return path;
}

static void expect_errno(const char *path, int want, const char *what)
{
	char *argv[] = { (char *)path, NULL }, *envp[] = { NULL }, buf[64];
	int status;
	pid_t pid = test_fork();

	if (pid == 0) {
		execve(path, argv, envp);
		_exit(errno);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == want, what,
		  "%s (exit status = the errno execve returned; expected %d, %s)",
		  test_status_str(status, buf, sizeof(buf)), want, strerror(want));
}

/* A valid-looking x86-64 executable header with one program header after it. */
static void good_header(unsigned char *img)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh));

	memset(img, 0, sizeof(*eh) + sizeof(*ph));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = 0x400078;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_vaddr = 0x400000;
	ph->p_filesz = ph->p_memsz = sizeof(*eh) + sizeof(*ph);
	ph->p_align = 4096;
}

int main(void)
{
	enum { SIZE = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) };
	unsigned char img[SIZE];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	const char *path;

	if (!mkdtemp(dir))
		tap_bail("mkdtemp in /tmp: %s", strerror(errno));

	path = specimen("magic_only", ELFMAG, SELFMAG, 0755);
	expect_errno(path, ENOEXEC, "a file of just the ELF magic: ENOEXEC");
	unlink(path);

	good_header(img);
	eh->e_type = 0x1234;
	path = specimen("bad_type", img, SIZE, 0755);
	expect_errno(path, ENOEXEC, "ELF e_type neither ET_EXEC nor ET_DYN: ENOEXEC");
	unlink(path);

	good_header(img);
	eh->e_machine = EM_AARCH64;
	path = specimen("arm64", img, SIZE, 0755);
	expect_errno(path, ENOEXEC, "ELF for another machine (AArch64): ENOEXEC");
	unlink(path);

	good_header(img);
	eh->e_phentsize = 17;
	path = specimen("phentsize", img, SIZE, 0755);
	expect_errno(path, ENOEXEC, "ELF with a wrong e_phentsize: ENOEXEC");
	unlink(path);

	good_header(img);
	eh->e_phnum = 0;
	path = specimen("no_phdrs", img, SIZE, 0755);
	expect_errno(path, ENOEXEC, "ELF with no program headers: ENOEXEC");
	unlink(path);

	path = specimen("empty_shebang", "#!\n", strlen("#!\n"), 0755);
	expect_errno(path, ENOEXEC, "a \"#!\" line with no interpreter: ENOEXEC");
	unlink(path);

	path = specimen("missing_interp", MISSING_INTERP, strlen(MISSING_INTERP), 0755);
	expect_errno(path, ENOENT, "a \"#!\" script whose interpreter is missing: ENOENT");
	unlink(path);

	path = specimen("not_executable", NOT_EXECUTABLE, strlen(NOT_EXECUTABLE), 0644);
	expect_errno(path, EACCES, "a file without execute permission: EACCES");
	unlink(path);

	expect_errno(dir, EACCES, "a directory: EACCES");
	tap_check(rmdir(dir) == 0, "the caller goes on: its scratch directory is removed", "%s",
		  strerror(errno));
	return tap_done();
}
