#!/bin/sh
# reclaim.sh NAME COMMAND [ARGS...]: one boot of `make bench`'s reclaim
# suite (tools/bench/reclaim.py), the same script on Pageturn and on Linux.
#
# Switches swap on on /dev/vda, mounts the data disk /dev/vdb (ext2) on
# /mnt, then runs COMMAND (a hog, user/hogs/) between two snapshots of
# /proc/vmstat.  Prints, each as one line for tools/bench/console.py:
#
#   bench=NAME.vm0 KEY=VALUE ...       /proc/vmstat before, and kswapd_ticks,
#   bench=NAME.vm1 KEY=VALUE ...       kswapd0's CPU time (ticks); after
#   bench=NAME exit=STATUS hog=... result=ok ...   the hog's result line
#
# or bench=NAME error=WHAT when the set-up fails.  The hog's progress and
# mismatch lines go to the console as they come.
name=$1
shift

# Linux's virtio-blk probes asynchronously: give the disks 10 s to appear.
i=0
while { [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
swapon /dev/vda || { echo "bench=$name error=swapon"; exit 1; }
mount -t ext2 /dev/vdb /mnt || { echo "bench=$name error=mount"; exit 1; }

# kswapd0's CPU time so far, in clock ticks (utime + stime of its stat).
kswapd_ticks() {
	for d in /proc/[0-9]*; do
		if [ "$(cat "$d/comm" 2>/dev/null)" = kswapd0 ]; then
			awk '{ print $14 + $15 }' "$d/stat"
			return
		fi
	done
	echo 0
}

snapshot() {
	awk -v tag="$1" -v ks="$(kswapd_ticks)" 'BEGIN { printf "bench=%s", tag }
		{ printf " %s=%s", $1, $2 } END { print " kswapd_ticks=" ks }' /proc/vmstat
}

snapshot "$name.vm0"
"$@" > /tmp/hog.out
status=$?
snapshot "$name.vm1"
grep '^hog=' /tmp/hog.out | sed "s/^/bench=$name exit=$status /"
grep -v '^hog=' /tmp/hog.out
exit $status
