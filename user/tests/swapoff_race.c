/*
 * swapoff_race: swapoff works on a process's swapped pages while the
 * process changes the VMAs around them.
 *
 * swapoff faults each swapped page of every process back in, and sleeps
 * for each read; meanwhile the owner runs.  A child fills 24 MiB with its
 * pattern; the parent pushes it out to swap (writing 96 MiB twice of its
 * own), then switches the area off while the child unmaps and remaps its
 * region's first page and mprotects pages of it back and forth (splitting
 * and merging the VMA swapoff is working in, freeing VMAs).  swapoff must
 * succeed, the child must see every word of the rest of its region and
 * take no fault; afterwards the area goes back on, the child is pushed out
 * once more and checks again.  Pageturn only (it switches the host's swap
 * off otherwise), with a swap area on; else it skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define REGION	(24ul << 20)
#define PAGE	4096ul

static char text[4096];

static uint64_t word(unsigned long i)
{
	return i * 0x9e3779b97f4a7c15ull;
}

/* Write mib MiB of anonymous memory twice, then let it go. */
static void push_out(unsigned long mib)
{
	unsigned long size = mib << 20;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	for (int pass = 0; pass < 2; pass++)
		for (unsigned long off = 0; off < size; off += PAGE)
			p[off] = (char)(off >> 12);
	munmap(p, size);
}

static unsigned long check(const uint64_t *r)
{
	unsigned long bad = 0;

	for (unsigned long i = PAGE / 8; i < REGION / 8; i++)
		bad += r[i] != word(i);
	return bad;
}

static int child(int to_parent, int from_parent)
{
	uint64_t *r = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	char *base = (char *)r, c;
	unsigned long rounds = 0, bad;

	if (r == MAP_FAILED)
		return 2;
	for (unsigned long i = 0; i < REGION / 8; i++)
		r[i] = word(i);
	if (write(to_parent, "f", 1) != 1 || read(from_parent, &c, 1) != 1)
		return 2;
	fcntl(from_parent, F_SETFL, O_NONBLOCK);
	do {
		char *page = base + (1 + rounds % 64) * PAGE;

		munmap(base, PAGE);
		mmap(base, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		     -1, 0);
		base[0] = 1;
		mprotect(page, PAGE, PROT_READ);
		mprotect(page, PAGE, PROT_READ | PROT_WRITE);
		rounds++;
	} while (read(from_parent, &c, 1) != 1);
	fcntl(from_parent, F_SETFL, 0);
	bad = check(r);
	printf("# child: %lu rounds of VMA changes during swapoff, %lu words wrong\n", rounds, bad);
	if (write(to_parent, "c", 1) != 1 || read(from_parent, &c, 1) != 1)
		return 2;
	bad += check(r);
	return bad ? 1 : 0;
}

int main(void)
{
	int up[2], down[2], status, err;
	char dev[64], c, *line;
	pid_t pid;

	if (!on_pageturn() || read_file("/proc/swaps", text, sizeof(text)) < 0 ||
	    !(line = strchr(text, '\n')) || sscanf(line + 1, "%63s", dev) != 1) {
		tap_skip("swapoff while the owner changes its VMAs", "Pageturn with swap on only");
		return tap_done();
	}
	if (pipe(up) || pipe(down))
		tap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child(up[1], down[0]));
	if (read(up[0], &c, 1) != 1)
		tap_bail("the child did not start");
	push_out(96);
	if (write(down[1], "g", 1) != 1)
		tap_bail("pipe");
	err = swapoff(dev) ? errno : 0;
	tap_check(err == 0, "swapoff while the child changes its VMAs", "swapoff %s: %s", dev,
		  strerror(err));
	tap_check(swapon(dev, 0) == 0, "swapon again", "%s", strerror(errno));
	if (write(down[1], "s", 1) != 1 || read(up[0], &c, 1) != 1)
		tap_bail("the child died: see above");
	push_out(96);
	if (write(down[1], "v", 1) != 1)
		tap_bail("pipe");
	tap_check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status),
		  "the child saw every word and took no fault", "status %#x", status);
	return tap_done();
}
