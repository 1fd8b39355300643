#!/bin/sh
# hogs_pressure.sh: a few memory hogs (user/hogs/, /usr/bin/hog-*) at
# sizes beyond the RAM, one after the other, on a Pageturn with swap on
# (the QEMU case hogs_swap_64m_bios boots with -m 64M and a swap disk).
# Each prints "# hogs_pressure.sh: COMMAND" and then its own lines; a hog
# that finds a page changed, or fails, makes the script's exit status 1.
# Last, /proc/vmstat's pswpin and pswpout: the case checks that pages
# went to swap and came back, and each hog's result line for result=ok.

status=0
run() {
	echo "# hogs_pressure.sh: $*"
	"$@" --quiet || status=1
}

run hog-seq --size 150% --passes 1 --rewrite
run hog-fork --size 60% --children 3 --passes 1
run hog-mlock --lock 10% --pressure 100%
run hog-desktop --size 120%
grep -E '^pswp(in|out) ' /proc/vmstat
echo "# hogs_pressure.sh: exit status $status"
exit $status
