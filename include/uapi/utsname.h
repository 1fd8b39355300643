/*
 * uname(2)'s struct utsname, x86-64 Linux's `struct new_utsname`: six
 * NUL-terminated strings of at most 64 characters each, 390 bytes.
 */
#ifndef PAGETURN_UAPI_UTSNAME_H
#define PAGETURN_UAPI_UTSNAME_H

#define __NEW_UTS_LEN	64

struct utsname {
	char sysname[__NEW_UTS_LEN + 1];	/* the kernel's name */
	char nodename[__NEW_UTS_LEN + 1];	/* the host name (sethostname) */
	char release[__NEW_UTS_LEN + 1];	/* the kernel release, "6.1.0-..." */
	char version[__NEW_UTS_LEN + 1];	/* the build, "#1 ..." */
	char machine[__NEW_UTS_LEN + 1];	/* "x86_64" */
	char domainname[__NEW_UTS_LEN + 1];	/* the NIS domain, "(none)" */
};

_Static_assert(sizeof(struct utsname) == 390, "struct utsname is 6 x 65 bytes");

#endif
