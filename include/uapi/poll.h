/*
 * poll(2) and ppoll(2) (Linux's include/uapi/asm-generic/poll.h).
 */
#ifndef PAGETURN_UAPI_POLL_H
#define PAGETURN_UAPI_POLL_H

#define POLLIN		0x0001	/* there is data to read */
#define POLLPRI		0x0002
#define POLLOUT		0x0004	/* writing will not block */
#define POLLERR		0x0008	/* an error (always reported) */
#define POLLHUP		0x0010	/* the other end hung up (always reported) */
#define POLLNVAL	0x0020	/* fd is not open (always reported) */
#define POLLRDNORM	0x0040
#define POLLRDBAND	0x0080
#define POLLWRNORM	0x0100
#define POLLWRBAND	0x0200

struct pollfd {
	int fd;			/* negative: ignored, revents 0 */
	short events;		/* asked for */
	short revents;		/* returned */
};

#endif
