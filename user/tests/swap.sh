#!/bin/sh
# swap.sh: Debian's busybox mkswap, swapon and swapoff on Pageturn, each
# checked by /proc/swaps and /proc/meminfo.  The QEMU case swap_virtio_bios
# runs it as init's command (init=/sbin/init -- /bin/sh /usr/tests/swap.sh)
# on a boot with swap=vdb and three virtio disks:
#   /dev/vda  ext2 with 4 KiB blocks, for a swap file
#   /dev/vdb  256 MiB made by the host's mkswap, on since boot (swap=vdb)
#   /dev/vdc  8 MiB of zeroes, for busybox mkswap
# Debian's busybox swapon has neither -s nor -p: /proc/swaps is what
# swapon -s prints.  Prints TAP; ends with "# swap.sh: N passed, M failed"
# and exits 0 only if nothing failed.

n=0
failed=0

# check WHAT COMMAND...: one TAP line, ok when the command succeeds.
check() {
	what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		failed=$((failed + 1))
	fi
}

# fails COMMAND...: succeed when the command fails.
fails() {
	"$@" 2>/dev/null && return 1
	return 0
}

# swaps_has REGEX: a line of /proc/swaps matches the extended regex.
swaps_has() {
	grep -Eq "$1" /proc/swaps && return 0
	echo "# no line of /proc/swaps matches /$1/:"
	sed 's/^/#   /' /proc/swaps
	return 1
}

# swaps_lacks WORD: no line of /proc/swaps starts with WORD.
swaps_lacks() {
	grep -q "^$1 " /proc/swaps || return 0
	echo "# /proc/swaps still lists $1"
	return 1
}

# meminfo_is FIELD KB: /proc/meminfo's FIELD is KB.
meminfo_is() {
	got=$(grep "^$1:" /proc/meminfo | tr -s ' ' | cut -d' ' -f2)
	[ "$got" = "$2" ] && return 0
	echo "# $1 is '$got' kB, expected $2"
	return 1
}

HEADER="^Filename				Type		Size	Used	Priority$"

echo "# --- /proc/swaps at boot"
cat /proc/swaps
echo "# ---"
check "/proc/swaps has Linux's header line" swaps_has "$HEADER"
check "swap=vdb turned /dev/vdb on at boot: 262140 KiB, priority -1" \
	swaps_has "^/dev/vdb {32}partition	262140	0	-1$"
check "SwapTotal is /dev/vdb's size" meminfo_is SwapTotal 262140
check "SwapFree is all of it" meminfo_is SwapFree 262140

check "busybox mkswap /dev/vdc" mkswap /dev/vdc
check "swapon /dev/vdc" swapon /dev/vdc
check "/dev/vdc is listed: 8188 KiB, priority -2" \
	swaps_has "^/dev/vdc {32}partition	8188	0	-2$"
check "SwapTotal adds both areas" meminfo_is SwapTotal $((262140 + 8188))
check "a second swapon /dev/vdc fails" fails swapon /dev/vdc
check "swapon of the mounted root's device fails" fails swapon /dev/ram0
check "swapoff /dev/vdc" swapoff /dev/vdc
check "/dev/vdc is gone from /proc/swaps" swaps_lacks /dev/vdc
check "SwapTotal is /dev/vdb's again" meminfo_is SwapTotal 262140
check "swapoff /dev/vdc again fails" fails swapoff /dev/vdc

check "mount /dev/vda on /mnt" mount -t ext2 /dev/vda /mnt
check "swapon of a mounted device fails" fails swapon /dev/vda
check "a 16 MiB file written whole" dd if=/dev/zero of=/mnt/swapfile bs=1M count=16 2>/dev/null
check "busybox mkswap /mnt/swapfile" mkswap /mnt/swapfile
check "swapon /mnt/swapfile" swapon /mnt/swapfile
check "the file is listed: 16380 KiB, priority -2" \
	swaps_has "^/mnt/swapfile {27}file		16380	0	-2$"
check "a second swapon /mnt/swapfile fails" fails swapon /mnt/swapfile
check "swapoff /mnt/swapfile" swapoff /mnt/swapfile
check "/mnt/swapfile is gone from /proc/swaps" swaps_lacks /mnt/swapfile
check "a file with holes" dd if=/dev/zero of=/mnt/holes bs=1M seek=15 count=1 2>/dev/null
check "busybox mkswap /mnt/holes" mkswap /mnt/holes
check "swapon of a file with holes fails" fails swapon /mnt/holes
check "swapon of a directory fails" fails swapon /mnt
check "swapon of a missing file fails" fails swapon /mnt/missing
sync

check "swapoff /dev/vdb" swapoff /dev/vdb
check "SwapTotal is 0 with no area on" meminfo_is SwapTotal 0
check "/proc/swaps is its header alone" [ "$(wc -l < /proc/swaps)" -eq 1 ]

echo "1..$n"
echo "# swap.sh: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
