/*
 * pipes: data through pipe(2) between processes, end of file, and what
 * happens to a writer whose reader is gone.
 *
 * Round trips: the parent sends messages to a child through one pipe and
 * the child returns them, transformed, through another.  End of file: a
 * read returns 0 only once every write end is closed (also one kept by a
 * dup, and one closed by the writer's exit).  Large transfers: 1 MiB plus
 * an odd tail each way, in irregular chunk sizes, so that writes block on
 * a full pipe and reads return partial data; both sides check length and
 * FNV-1a hash.  A writer with no reader is killed by SIGPIPE, and gets
 * EPIPE when SIGPIPE is ignored or caught (the handler runs).  Non-blocking
 * ends: an empty pipe reads EAGAIN, and a full one refuses a write with
 * EAGAIN after at least PIPE_BUF bytes.  pipe2(O_CLOEXEC) sets FD_CLOEXEC.
 * sendfile from a pipe into a pipe with little room loses no byte.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/wait.h>
#include <unistd.h>

#define BULK ((1u << 20) + 4321)

static unsigned char bulk_byte(size_t i)
{
	return (i * 7 + (i >> 11) * 13) & 0xff;
}

/* Chunk sizes that vary from 1 byte to 70000, to cross page and pipe sizes. */
static size_t chunk_size(unsigned n)
{
	static const size_t sizes[] = { 1, 4095, 4096, 4097, 70000, 17, 65536, 12345, 100 };

	return sizes[n % (sizeof(sizes) / sizeof(sizes[0]))];
}

/* Send BULK pattern bytes in irregular chunks; 0 on success. */
static int send_bulk(int fd)
{
	static unsigned char buf[70000];
	size_t done = 0;

	for (unsigned n = 0; done < BULK; n++) {
		size_t len = chunk_size(n);

		if (len > BULK - done)
			len = BULK - done;
		for (size_t i = 0; i < len; i++)
			buf[i] = bulk_byte(done + i);
		if (write_all(fd, buf, len) != (ssize_t)len)
			return -1;
		done += len;
	}
	return 0;
}

/* Read to end of file in irregular chunks; count bytes, first mismatch, hash. */
static void receive_bulk(int fd, size_t *total, long *bad_at, uint64_t *hash)
{
	static unsigned char buf[70000];
	ssize_t n;

	*total = 0;
	*bad_at = -1;
	*hash = FNV1A_INIT;
	for (unsigned k = 3; ; k++) {
		n = read(fd, buf, chunk_size(k));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++)
			if (*bad_at < 0 && buf[i] != bulk_byte(*total + i))
				*bad_at = *total + i;
		*hash = fnv1a(*hash, buf, n);
		*total += n;
	}
}

static uint64_t bulk_hash(void)
{
	uint64_t h = FNV1A_INIT;

	for (size_t i = 0; i < BULK; i++) {
		unsigned char b = bulk_byte(i);

		h = fnv1a(h, &b, 1);
	}
	return h;
}

static void round_trip(void)
{
	int down[2], up[2], status, good = 0;
	char msg[200], back[200];
	pid_t pid;

	test_pipe(down);
	test_pipe(up);
	pid = test_fork();
	if (pid == 0) {
		ssize_t n;

		close(down[1]);
		close(up[0]);
		/* Echo each message with its bytes incremented, until end of file. */
		while ((n = read(down[0], msg, sizeof(msg))) > 0) {
			for (ssize_t i = 0; i < n; i++)
				msg[i]++;
			if (write_all(up[1], msg, n) != n)
				_exit(2);
		}
		_exit(n == 0 ? 0 : 1);
	}
	close(down[0]);
	close(up[1]);
	for (int round = 0; round < 20; round++) {
		int len = snprintf(msg, sizeof(msg), "message %d through two pipes", round);

		if (write_all(down[1], msg, len) != len || read_full(up[0], back, len) != len)
			break;
		for (int i = 0; i < len; i++)
			msg[i]++;
		good += !memcmp(msg, back, len);
	}
	tap_check(good == 20, "20 messages go to a child and come back transformed",
		  "%d came back right", good);
	close(down[1]);         /* the child sees end of file and exits */
	tap_check(read(up[0], back, 1) == 0, "end of file once the child exits", NULL);
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the child saw end of file when the parent closed its write end",
		  "status 0x%x", (unsigned)status);
	close(up[0]);
}

static void end_of_file(void)
{
	int p[2], extra;
	char c = 'x';
	ssize_t n;

	test_pipe(p);
	extra = dup(p[1]);
	write_all(p[1], &c, 1);
	close(p[1]);
	n = read(p[0], &c, 1);
	tap_check(n == 1 && c == 'x', "data written before the close is still read", "read %zd", n);
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
		tap_bail("fcntl O_NONBLOCK: %s", strerror(errno));
	errno = 0;
	n = read(p[0], &c, 1);
	tap_check(n < 0 && errno == EAGAIN,
		  "no end of file while a dup of the write end is open (EAGAIN when non-blocking)",
		  "read %zd, %s", n, strerror(errno));
	close(extra);
	n = read(p[0], &c, 1);
	tap_check(n == 0, "end of file after the last write end is closed", "read %zd", n);
	close(p[0]);
}

static void bulk(void)
{
	int p[2], status;
	size_t total;
	long bad_at;
	uint64_t hash;
	char buf[64];
	pid_t pid;

	/* Child to parent. */
	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		close(p[0]);
		_exit(send_bulk(p[1]) ? 1 : 0);
	}
	close(p[1]);
	receive_bulk(p[0], &total, &bad_at, &hash);
	close(p[0]);
	test_wait(pid, &status, 0);
	tap_check(total == BULK && bad_at < 0 && hash == bulk_hash(),
		  "1 MiB + 4321 bytes from child to parent, length and checksum",
		  "%zu bytes, first wrong byte at %ld, hash %016llx", total, bad_at,
		  (unsigned long long)hash);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the sender finished", "%s",
		  test_status_str(status, buf, sizeof(buf)));

	/* Parent to child: the child checks and reports through its exit status. */
	test_pipe(p);
	pid = test_fork();
	if (pid == 0) {
		close(p[1]);
		receive_bulk(p[0], &total, &bad_at, &hash);
		_exit(total != BULK ? 1 : bad_at >= 0 ? 2 : hash != bulk_hash() ? 3 : 0);
	}
	close(p[0]);
	tap_check(send_bulk(p[1]) == 0, "1 MiB + 4321 bytes written from parent to child",
		  "%s", strerror(errno));
	close(p[1]);
	test_wait(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the child received them intact", "%s (1: length, 2: content, 3: checksum)",
		  test_status_str(status, buf, sizeof(buf)));
}

static volatile sig_atomic_t sigpipes;

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static void no_reader(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe };
	int p[2], status;
	char buf[64];
	ssize_t n;
	pid_t pid;

	test_pipe(p);
	close(p[0]);
	pid = test_fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		write(p[1], "x", 1);
		_exit(0);
	}
	test_wait(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE,
		  "writing to a pipe with no reader kills with SIGPIPE", "%s",
		  test_status_str(status, buf, sizeof(buf)));

	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	n = write(p[1], "x", 1);
	tap_check(n < 0 && errno == EPIPE, "with SIGPIPE ignored the write fails with EPIPE",
		  "write %zd, %s", n, strerror(errno));

	sigaction(SIGPIPE, &sa, NULL);
	errno = 0;
	n = write(p[1], "x", 1);
	tap_check(n < 0 && errno == EPIPE && sigpipes == 1,
		  "with a SIGPIPE handler: the handler runs once and write fails with EPIPE",
		  "write %zd, %s, handler ran %d times", n, strerror(errno), (int)sigpipes);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

static void nonblocking_full(void)
{
	static char chunk[4096], sink[4096];
	int p[2];
	size_t filled = 0, drained = 0;
	ssize_t n;

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0)
		tap_bail("pipe2: %s", strerror(errno));
	tap_check((fcntl(p[0], F_GETFD) & FD_CLOEXEC) && (fcntl(p[1], F_GETFD) & FD_CLOEXEC),
		  "pipe2(O_CLOEXEC) sets FD_CLOEXEC on both ends", NULL);
	tap_check((fcntl(p[0], F_GETFL) & O_NONBLOCK) != 0, "pipe2(O_NONBLOCK) sets O_NONBLOCK", NULL);
	errno = 0;
	n = read(p[0], sink, 1);
	tap_check(n < 0 && errno == EAGAIN, "reading an empty non-blocking pipe: EAGAIN",
		  "read %zd, %s", n, strerror(errno));
	memset(chunk, 'f', sizeof(chunk));
	for (;;) {
		n = write(p[1], chunk, sizeof(chunk));
		if (n <= 0)
			break;
		filled += n;
		if (filled > (64u << 20))
			break;
	}
	tap_check(n < 0 && errno == EAGAIN && filled >= PIPE_BUF,
		  "a full non-blocking pipe refuses a write with EAGAIN", "after %zu bytes: %s",
		  filled, n < 0 ? strerror(errno) : "no error");
	tap_note("pipe capacity: %zu bytes", filled);
	while ((n = read(p[0], sink, sizeof(sink))) > 0)
		drained += n;
	tap_check(drained == filled, "everything written can be read back", "%zu of %zu bytes",
		  drained, filled);
	close(p[0]);
	close(p[1]);
}

/*
 * sendfile(to, from) with from a pipe holding 5000 bytes and to a
 * non-blocking pipe with 100 bytes of room: every byte is either moved
 * (the count) or still in from, none taken from one and lost before
 * reaching the other.  (Linux says EAGAIN here, and EINVAL for a pipe
 * source whenever the destination is not a pipe.)
 */
static void sendfile_from_pipe(void)
{
	static char chunk[4096], got[8192];
	size_t filled = 0, in_to = 0, in_from = 0, moved;
	int from[2], to[2];
	ssize_t n, sent;
	int err;

	if (pipe2(from, O_NONBLOCK) < 0 || pipe2(to, O_NONBLOCK) < 0)
		tap_bail("pipe2: %s", strerror(errno));
	memset(chunk, 's', sizeof(chunk));
	while ((n = write(to[1], chunk, sizeof(chunk))) > 0)
		filled += n;
	if (read(to[0], got, 100) != 100 || write(from[1], got, 5000) != 5000)
		tap_bail("setting up the pipes: %s", strerror(errno));
	filled -= 100;
	sent = sendfile(to[1], from[0], NULL, 5000);
	err = errno;
	while ((n = read(to[0], got, sizeof(got))) > 0)
		in_to += n;
	while ((n = read(from[0], got, sizeof(got))) > 0)
		in_from += n;
	if (sent < 0)
		moved = 0;
	else
		moved = (size_t)sent;
	tap_check(in_to == filled + moved && in_from + moved == 5000,
		  "sendfile from a pipe to a nearly full pipe loses no byte",
		  "sendfile gave %zd (%s), %zu bytes arrived, %zu left of 5000", sent,
		  sent < 0 ? strerror(err) : "", in_to - filled, in_from);
	close(from[0]);
	close(from[1]);
	close(to[0]);
	close(to[1]);
}

int main(void)
{
	round_trip();
	end_of_file();
	bulk();
	no_reader();
	nonblocking_full();
	sendfile_from_pipe();
	return tap_done();
}
