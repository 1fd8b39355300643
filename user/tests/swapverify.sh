#!/bin/sh
# swapverify.sh TESTS DEVICE [file MIB]: give Pageturn swap made inside
# it and run the user tests TESTS (comma-separated: swap_verify, ...) on
# it.  Without "file", busybox mkswap makes DEVICE
# itself the swap area (a SATA disk, an IDE disk, a RAM disk carved from
# RAM above mem=); with "file", DEVICE is an ext2 disk with 4 KiB blocks,
# mounted on /mnt, and the area is a swap file of MIB MiB written with
# zeroes (no holes) on it.  The QEMU cases swap_*_verify run it as init's
# command.  Exits with the runner's status, after swapoff.

tests=$(echo "$1" | tr , ' ')
shift
dev=$1
area=$dev
if [ "$2" = file ]; then
	mount -t ext2 "$dev" /mnt || exit 1
	area=/mnt/swapfile
	dd if=/dev/zero of="$area" bs=1048576 count="$3" 2>/dev/null || exit 1
fi
mkswap "$area" >/dev/null || exit 1
swapon "$area" || exit 1
echo "# swapverify.sh: swap on $area"
/usr/tests/runner $tests
status=$?
swapoff "$area" || status=1
exit $status
