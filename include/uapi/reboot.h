/*
 * reboot(2)'s magic numbers and commands (linux/reboot.h).  The two
 * magic arguments guard against a stray call: magic1 must be
 * LINUX_REBOOT_MAGIC1 and magic2 one of the four MAGIC2 values (dates
 * of birth in hexadecimal, Linux's joke).
 */
#ifndef PAGETURN_UAPI_REBOOT_H
#define PAGETURN_UAPI_REBOOT_H

#define LINUX_REBOOT_MAGIC1	0xfee1dead
#define LINUX_REBOOT_MAGIC2	672274793
#define LINUX_REBOOT_MAGIC2A	85072278
#define LINUX_REBOOT_MAGIC2B	369367448
#define LINUX_REBOOT_MAGIC2C	537993216

#define LINUX_REBOOT_CMD_RESTART	0x01234567	/* reset the machine */
#define LINUX_REBOOT_CMD_HALT		0xCDEF0123	/* stop the CPU, power stays on */
#define LINUX_REBOOT_CMD_CAD_ON		0x89ABCDEF	/* Ctrl-Alt-Del reboots */
#define LINUX_REBOOT_CMD_CAD_OFF	0x00000000	/* Ctrl-Alt-Del sends SIGINT to init */
#define LINUX_REBOOT_CMD_POWER_OFF	0x4321FEDC	/* switch off */
#define LINUX_REBOOT_CMD_RESTART2	0xA1B2C3D4	/* reset with a command string */
#define LINUX_REBOOT_CMD_SW_SUSPEND	0xD000FCE2	/* hibernate */
#define LINUX_REBOOT_CMD_KEXEC		0x45584543	/* boot a loaded kernel */

#endif
