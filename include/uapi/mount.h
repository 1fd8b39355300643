/*
 * mount(2)'s flags (Linux's include/uapi/linux/mount.h), those Pageturn
 * looks at.  The others are accepted and ignored.
 */
#ifndef PAGETURN_UAPI_MOUNT_H
#define PAGETURN_UAPI_MOUNT_H

#define MS_RDONLY	0x0001		/* writes refused with EROFS */
#define MS_NOSUID	0x0002
#define MS_NODEV	0x0004
#define MS_NOEXEC	0x0008
#define MS_REMOUNT	0x0020		/* change the flags of a mount */
#define MS_BIND		0x1000
#define MS_MOVE		0x2000
#define MS_MGC_VAL	0xC0ED0000u	/* old magic in the top 16 bits, ignored */
#define MS_MGC_MSK	0xffff0000u

#endif
