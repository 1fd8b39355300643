#!/usr/bin/python3
"""Build QEMU command lines for Pageturn, in one place.

`make run`, `make run-gui` and `make debug` call this as a program; the
integration tests (tests/run.py) import qemu_command() so every boot uses
the same machine.

Machine: q35, TCG unless --accel kvm (nested KVM is slower here, see
docs/boot.md), isa-debug-exit at port 0xf4 so the kernel can end QEMU with
a status (kernel writes v, QEMU exits with (v << 1) | 1), no reboot on a
triple fault.  Firmware: SeaBIOS (bios) or OVMF (uefi, with a private copy
of the variable store).  Medium: the ISO as a CD, or as a USB stick behind
an xHCI controller, the way a hobbyist boots a real PC.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
QEMU = "qemu-system-x86_64"


def qemu_command(iso, mem="512M", accel="tcg", firmware="bios", medium="cdrom",
                 workdir=None, extra=(), cpu=None):
    """Return the argv list (without display/serial options) to boot iso
    (None: no boot medium; tools/bench/ adds -kernel and -initrd for Linux).
    cpu names a QEMU CPU model (default: QEMU's own, qemu64 with NX; note
    that -cpu host/max abort under the nested KVM of these machines)."""
    if accel not in ("tcg", "kvm"):
        raise ValueError("accel must be tcg or kvm, not %r" % accel)
    cpu = ["-cpu", cpu] if cpu else []
    argv = [QEMU, "-machine", "q35", "-accel", accel] + cpu + ["-m", mem,
            "-no-reboot", "-nic", "none",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if firmware == "uefi":
        if workdir is None:
            raise ValueError("uefi needs a workdir for the OVMF variable store")
        vars_copy = os.path.join(workdir, "OVMF_VARS.fd")
        shutil.copyfile(OVMF_VARS, vars_copy)
        argv += ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF_CODE,
                 "-drive", "if=pflash,format=raw,unit=1,file=" + vars_copy]
    elif firmware != "bios":
        raise ValueError("firmware must be bios or uefi, not %r" % firmware)
    if iso is None:
        pass            # the caller boots a kernel directly (-kernel, -initrd)
    elif medium == "cdrom":
        argv += ["-drive", "media=cdrom,readonly=on,format=raw,file=" + iso]
    elif medium == "usb":
        argv += ["-device", "qemu-xhci,id=xhci",
                 "-drive", "if=none,id=stick,format=raw,readonly=on,file=" + iso,
                 "-device", "usb-storage,bus=xhci.0,drive=stick,bootindex=0"]
    else:
        raise ValueError("medium must be cdrom or usb, not %r" % medium)
    return argv + list(extra)


def main():
    ap = argparse.ArgumentParser(description="Boot a Pageturn ISO in QEMU.")
    ap.add_argument("--iso", required=True)
    ap.add_argument("--mem", default="512M")
    ap.add_argument("--accel", default="tcg", choices=("tcg", "kvm"))
    ap.add_argument("--firmware", default="bios", choices=("bios", "uefi"))
    ap.add_argument("--medium", default="cdrom", choices=("cdrom", "usb"))
    ap.add_argument("--mode", default="serial", choices=("serial", "gui"),
                    help="serial: console in this terminal; gui: a QEMU window")
    ap.add_argument("--gdb", action="store_true",
                    help="start halted with a gdb stub on localhost:1234")
    ap.add_argument("--swap", metavar="IMG",
                    help="attach IMG (a swap area made by mkswap) as the first virtio disk")
    args = ap.parse_args()

    if not os.path.exists(args.iso):
        sys.exit("qemu.py: no such image: %s (run `make iso`)" % args.iso)
    if shutil.which(QEMU) is None:
        sys.exit("qemu.py: %s not found; run `make deps`" % QEMU)
    with tempfile.TemporaryDirectory(prefix="pageturn-qemu-") as work:
        extra = ["-nographic"] if args.mode == "serial" else ["-serial", "mon:stdio"]
        if args.gdb:
            extra += ["-s", "-S"]
        if args.swap:
            extra += ["-drive", "if=none,id=swap0,format=raw,file=" + args.swap,
                      "-device", "virtio-blk-pci,drive=swap0"]
        argv = qemu_command(args.iso, args.mem, args.accel, args.firmware,
                            args.medium, work, extra)
        status = subprocess.call(argv)
    # The kernel's isa-debug-exit codes: 33 = tests passed, 35 = failed, 37 = panic.
    meaning = {0: "", 33: " (tests passed)", 35: " (tests failed)", 37: " (kernel panic)"}
    print("\nqemu exited with status %d%s" % (status, meaning.get(status, "")))
    sys.exit(0 if status in (0, 33) else status)


if __name__ == "__main__":
    main()
