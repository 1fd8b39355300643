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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MISSING_INTERP "#!/no/such/interpreter\necho hi\n"
#define NOT_EXECUTABLE "#!/bin/sh\nexit 0\n"

static char dir[] = "/tmp/enoexec.XXXXXX";

/* An ELF header broken in one Elf64_Half field: execve must say ENOEXEC. */
struct bad_field {
	const char *name;	/* of the specimen file */
	size_t offset;		/* of the field in Elf64_Ehdr */
	Elf64_Half value;
	const char *what;
};

static const struct bad_field bad_fields[] = {
	{ "bad_type", offsetof(Elf64_Ehdr, e_type), 0x1234,
	  "ELF e_type neither ET_EXEC nor ET_DYN: ENOEXEC" },
	{ "arm64", offsetof(Elf64_Ehdr, e_machine), EM_AARCH64,
	  "ELF for another machine (AArch64): ENOEXEC" },
	{ "phentsize", offsetof(Elf64_Ehdr, e_phentsize), 17, "ELF with a wrong e_phentsize: ENOEXEC" },
	{ "no_phdrs", offsetof(Elf64_Ehdr, e_phnum), 0, "ELF with no program headers: ENOEXEC" },
};

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

/*
 * Write the specimen name (len bytes of data, then mode) into the scratch
 * directory, check that execve of it fails with want (what), and remove it.
 */
static void expect_specimen_errno(const char *name, const void *data, size_t len, mode_t mode,
				  int want, const char *what)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write_all(fd, data, len) != (ssize_t)len || fchmod(fd, mode) < 0)
		tap_bail("writing %s: %s", path, strerror(errno));
	close(fd);
	expect_errno(path, want, what);
	unlink(path);
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

	if (!mkdtemp(dir))
		tap_bail("mkdtemp in /tmp: %s", strerror(errno));

	expect_specimen_errno("magic_only", ELFMAG, SELFMAG, 0755, ENOEXEC,
			      "a file of just the ELF magic: ENOEXEC");
	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
		const struct bad_field *f = &bad_fields[i];

		good_header(img);
		memcpy(img + f->offset, &f->value, sizeof(f->value));
		expect_specimen_errno(f->name, img, SIZE, 0755, ENOEXEC, f->what);
	}
	expect_specimen_errno("empty_shebang", "#!\n", strlen("#!\n"), 0755, ENOEXEC,
			      "a \"#!\" line with no interpreter: ENOEXEC");
	expect_specimen_errno("missing_interp", MISSING_INTERP, strlen(MISSING_INTERP), 0755, ENOENT,
			      "a \"#!\" script whose interpreter is missing: ENOENT");
	expect_specimen_errno("not_executable", NOT_EXECUTABLE, strlen(NOT_EXECUTABLE), 0644, EACCES,
			      "a file without execute permission: EACCES");

	expect_errno(dir, EACCES, "a directory: EACCES");
	tap_check(rmdir(dir) == 0, "the caller goes on: its scratch directory is removed", "%s",
		  strerror(errno));
	return tap_done();
}
