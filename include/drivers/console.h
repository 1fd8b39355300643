/*
 * Screen consoles.  BIOS boots keep VGA text mode (80x25 at 0xb8000);
 * UEFI boots get a linear framebuffer from GRUB, on which fbcon draws text
 * with a PSF console font from Debian's console-setup.
 */
#ifndef DRIVERS_CONSOLE_H
#define DRIVERS_CONSOLE_H

#include <pageturn/types.h>
#include <pageturn/multiboot2.h>

/* Register the VGA text console; -ENODEV when there is no text mode. */
int vga_console_init(const struct boot_info *bi);
/* Register the framebuffer console; -ENODEV without an RGB framebuffer,
 * -EINVAL when the font or the framebuffer cannot be used. */
int fbcon_init(const struct boot_info *bi);

/* The PSF font linked into the kernel (tools/incbin.asm). */
extern const uint8_t console_font[];
extern const uint8_t console_font_end[];

#endif
