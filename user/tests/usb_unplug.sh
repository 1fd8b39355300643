#!/bin/sh
# usb_unplug.sh: a USB disk pulled out while it is in use.  The QEMU case
# usb_unplug_q35_bios unplugs /dev/sda through QEMU's monitor when this
# prints "unplug now".  Reads before that succeed; a read after it must
# fail with an I/O error (within seconds, not hang), and the shell goes
# on.  Reads go to blocks not read before, so the page cache cannot
# answer them.  Exits 0 when both hold.

dd if=/dev/sda of=/dev/null bs=65536 count=32 2>/dev/null ||
	{ echo "# usb_unplug.sh: a read before the unplug failed"; exit 1; }
echo "# usb_unplug.sh: unplug now"
n=64
while [ $n -lt 256 ]; do
	if ! dd if=/dev/sda of=/dev/null bs=65536 count=1 skip=$n 2>/dev/null; then
		echo "# usb_unplug.sh: a read after the unplug failed, the shell goes on"
		exit 0
	fi
	n=$((n + 1))
	sleep 1
done
echo "# usb_unplug.sh: every read after the unplug succeeded"
exit 1
