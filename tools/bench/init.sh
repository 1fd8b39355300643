#!/bin/sh
# /init of the bench's Linux initramfs (tools/bench/initramfs.py): set up
# what Pageturn's init sets up, load the disk's modules, run the command
# given after " -- " on the kernel command line, power off.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin HOME=/ TERM=linux
mount -t devtmpfs devtmpfs /dev
exec 0</dev/console 1>/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
for m in $(cat /lib/modules/load-order); do
	insmod "/lib/modules/$m" || echo "init: insmod $m failed"
done
# virtio-blk probes asynchronously: wait up to 10 s for the disk.
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ $# -gt 0 ]; then
	echo "init: running $1"
	"$@"
	echo "init: $1 finished: exit status $?"
fi
sync
echo "init: powering off"
poweroff -f
