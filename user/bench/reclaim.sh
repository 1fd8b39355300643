#!/bin/sh
# reclaim.sh [-t] NAME COMMAND [ARGS...]: one boot of `make bench`'s
# reclaim suite (tools/bench/reclaim.py), the same script on Pageturn and
# on Linux.
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
# mismatch lines go to the console as they come.  With -t, reclaim is
# traced while COMMAND runs (tracefs on /sys/kernel/tracing: kswapd,
# direct reclaim, the shrink events, the OOM killer, and on Pageturn its
# samplers; the events a kernel lacks are left out) and the trace is
# printed afterwards between "# reclaim-trace: begin" and "... end" lines,
# for tools/plot-reclaim.
trace=
if [ "$1" = "-t" ]; then
	trace=1
	shift
fi
name=$1
shift
T=/sys/kernel/tracing
EVENTS="vmscan:mm_vmscan_kswapd_wake vmscan:mm_vmscan_kswapd_sleep
	vmscan:mm_vmscan_wakeup_kswapd vmscan:mm_vmscan_direct_reclaim_begin
	vmscan:mm_vmscan_direct_reclaim_end vmscan:mm_vmscan_lru_shrink_inactive
	vmscan:mm_vmscan_lru_shrink_active oom:mark_victim
	pageturn:mm_lru_sample pageturn:mm_vmstat_sample"

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

if [ -n "$trace" ]; then
	[ -w $T/trace ] || mount -t tracefs nodev $T
	if [ -w $T/trace ]; then
		echo 0 > $T/tracing_on
		echo 8192 > $T/buffer_size_kb
		echo > $T/set_event
		for e in $EVENTS; do
			echo "$e" >> $T/set_event 2>/dev/null
		done
		echo > $T/trace
		echo 1 > $T/tracing_on
	else
		echo "bench=$name.trace error=no-tracefs"
		trace=
	fi
fi
snapshot "$name.vm0"
"$@" > /tmp/hog.out
status=$?
snapshot "$name.vm1"
if [ -n "$trace" ]; then
	echo 0 > $T/tracing_on
	echo "# reclaim-trace: begin"
	cat $T/trace
	echo "# reclaim-trace: end"
	echo > $T/set_event
fi
grep '^hog=' /tmp/hog.out | sed "s/^/bench=$name exit=$status /"
grep -v '^hog=' /tmp/hog.out
exit $status
