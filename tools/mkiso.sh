#!/bin/sh
# Build a bootable hybrid image (BIOS + UEFI; CD, disk or USB stick).
#   sh tools/mkiso.sh KERNEL.elf ROOT.img "KERNEL COMMAND LINE" OUT.iso [GRUB_TIMEOUT]
# The kernel is copied without debug information (gdb uses build/kernel.elf);
# ROOT.img, the root filesystem, becomes GRUB's boot module "rootfs".
set -eu
kernel=$1
rootimg=$2
cmdline=$3
out=$4
timeout=${5:-0}
here=$(dirname "$0")
version=$(sed -n 's/^VERSION *:= *//p' "$here/../Makefile")

case "$cmdline" in
*[\;\&\|\$\`\\\'\"\{\}]*)
	echo "mkiso: the command line may not contain GRUB script characters: $cmdline" >&2
	exit 1
	;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/boot/grub"
"${OBJCOPY:-objcopy}" --strip-debug "$kernel" "$root/boot/kernel.elf"
cp "$rootimg" "$root/boot/root.img"
sed -e "s|@CMDLINE@|$cmdline|" -e "s|@TIMEOUT@|$timeout|" -e "s|@VERSION@|$version|" \
	"$here/../iso/grub.cfg.in" > "$root/boot/grub/grub.cfg"
mkdir -p "$(dirname "$out")"
if ! grub-mkrescue --fonts= --locales= --themes= -o "$out.tmp" "$root" > "$work/log" 2>&1; then
	cat "$work/log" >&2
	exit 1
fi
mv "$out.tmp" "$out"
