"""Boot a kernel under QEMU for a benchmark and collect its console.

A Kernel knows how to make the QEMU command that boots it with a given
-m, disks and command (the program init runs, then powers off):

    PageturnKernel(build, name, options)
                            the ISO tools/mkiso.sh makes from build/kernel.elf
                            and build/root.img, with "OPTIONS init=/sbin/init -- COMMAND"
    LinuxKernel(linux, initrd)
                            Debian's vmlinuz with the bench initramfs
                            (initramfs.py), "-append console=ttyS0 ... -- COMMAND"

Both get the same machine from tools/qemu.py (q35, TCG unless told,
the CPU model QEMU picks, -no-reboot, no network), one vCPU, and the same
disks, each a fresh copy of its image per boot (virtio-blk, vda first).
boot() runs one and returns a Boot: the console's lines (cleaned of \\r,
terminal escapes and printk timestamps), QEMU's exit status (None after a
timeout) and the seconds it took.  Every boot's serial log is kept.
"""
import hashlib
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from qemu import qemu_command  # noqa: E402

import console  # noqa: E402

class Boot:
    def __init__(self, lines, status, seconds, log_path):
        self.lines = lines
        self.status = status
        self.seconds = seconds
        self.log_path = log_path

    @property
    def timed_out(self):
        return self.status is None


class PageturnKernel:
    def __init__(self, build, name="pageturn", options=""):
        self.build = build
        self.name = name
        self.options = options  # boot options before init=, e.g. "lru=single"
        self.elf = os.path.join(build, "kernel.elf")
        self.root = os.path.join(build, "root.img")

    def describe(self):
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True).stdout.strip()
        return "Pageturn (git %s)%s" % (rev or "unknown",
                                        ", " + self.options if self.options else "")

    def _iso(self, command, workdir):
        """The ISO whose command line runs command; one per command line,
        remade when the kernel or the root image is newer."""
        cmdline = (self.options + " init=/sbin/init -- " + command).lstrip()
        tag = hashlib.sha1(cmdline.encode()).hexdigest()[:12]
        iso = os.path.join(self.build, "bench", "iso", "pageturn-%s.iso" % tag)
        newest = max(os.path.getmtime(self.elf), os.path.getmtime(self.root))
        if not os.path.exists(iso) or os.path.getmtime(iso) < newest:
            os.makedirs(os.path.dirname(iso), exist_ok=True)
            subprocess.run(["sh", os.path.join(ROOT, "tools", "mkiso.sh"), self.elf,
                            self.root, cmdline, iso], check=True, stdout=subprocess.DEVNULL)
        return iso

    def argv(self, mem, command, workdir, accel):
        return qemu_command(self._iso(command, workdir), mem, accel, "bios", "cdrom", workdir)


class LinuxKernel:
    name = "linux"
    # quiet: the console carries the bench's lines, not the boot's.
    APPEND = "console=ttyS0 quiet panic=-1"

    def __init__(self, linux, initrd):
        self.linux = linux
        self.initrd = initrd

    def describe(self):
        return "Linux %s (Debian)" % self.linux.version

    def argv(self, mem, command, workdir, accel):
        return qemu_command(None, mem, accel, "bios", "cdrom", workdir,
                            ["-kernel", self.linux.vmlinuz, "-initrd", self.initrd,
                             "-append", "%s -- %s" % (self.APPEND, command)])


def disk_args(copies):
    args = []
    for i, path in enumerate(copies):
        args += ["-drive", "if=none,id=vd%d,format=raw,file=%s" % (i, path),
                 "-device", "virtio-blk-pci,drive=vd%d" % i]
    return args


def boot(kernel, command, workdir, mem="512M", disks=(), timeout=600, accel="tcg",
         keep_disks=False):
    """Boot kernel with command on fresh copies of the disk images disks
    (workdir/diskN.img, removed afterwards unless keep_disks); keep the
    console in workdir/serial.log; return a Boot."""
    os.makedirs(workdir, exist_ok=True)
    copies = []
    for i, image in enumerate(disks):
        copy = os.path.join(workdir, "disk%d.img" % i)
        subprocess.run(["cp", "--sparse=always", image, copy], check=True)
        copies.append(copy)
    argv = kernel.argv(mem, command, workdir, accel) + ["-smp", "1", "-display", "none",
                                                        "-monitor", "none", "-serial", "stdio"]
    argv += disk_args(copies)
    log_path = os.path.join(workdir, "serial.log")
    start = time.time()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            status = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            status = None
    seconds = time.time() - start
    with open(log_path, "rb") as f:
        lines = console.lines(f.read())
    if not keep_disks:
        for copy in copies:
            os.unlink(copy)
    return Boot(lines, status, seconds, log_path)


def qemu_version():
    out = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True, text=True)
    first = out.stdout.splitlines()[0] if out.stdout else "unknown"
    return first.replace("QEMU emulator version ", "")
