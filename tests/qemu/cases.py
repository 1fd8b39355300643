"""The QEMU integration tests: what each boot must show.

Kernel-side tests run through `test=` (KTAP on the serial console); the
harness checks the QEMU exit status, the boot report and, for the crash
cases, the panic report: vector name, CR2, registers and a backtrace that
names the function that faulted.  The user_* cases boot /sbin/init and
judge user programs: the test runner's verdicts, a busybox script, a
shell session typed on the serial console and on the PS/2 keyboard, and
that shell as the VGA text screen and the UEFI framebuffer show it.
"""
import array
import glob
import hashlib
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time

from harness import EXIT_FAIL, EXIT_PANIC, QMP, Keys, QemuCase
import fbcheck
import psf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "bench"))
import console as bench_console  # noqa: E402
import disks as bench_disks  # noqa: E402
import micro as bench_micro  # noqa: E402
import reclaim as bench_reclaim  # noqa: E402

BOOT_REPORT = [
    r"Pageturn \d+\.\d+\.\d+ \(git \S+\)",
    r"boot: firmware (BIOS|UEFI), loader \"GRUB",
    r"boot: command line \"",
    r"mem: \[mem 0x0000000000000000-0x[0-9a-f]{16}\] available",
    r"mem: \d+ MiB available in \d+ ranges",
    r"time: TSC \d+\.\d{3} MHz, calibrated against the PIT",
    r"cpu: \S+ .*NX on",
    r"boot: module 0 \[mem 0x[0-9a-f]{16}-0x[0-9a-f]{16}\] \"rootfs\"",
    r"blk: ram0 16 MiB \(32768 sectors of 512 bytes\), ramdisk$",
    r"VFS: Mounted root \(ext2 filesystem\) on device ram0\.",
    r"tmpfs: mounted on /tmp, size limit \d+ MiB",
    r"^KTAP version 1",
]

# The kernel sees -m minus firmware holes: 512M gives 511 MiB under SeaBIOS,
# about 505 MiB under OVMF.
MEM_512M = r"mem: 5(0\d|1[01]) MiB available"


def all_suites_pass(firmware):
    return BOOT_REPORT + [
        r"boot: firmware %s" % ("UEFI" if firmware == "uefi" else "BIOS"),
        MEM_512M,
        r"cmdline: unknown option 'no_such_option' ignored",
        r"cmdline: loglevel=abc is not a number",
        r"^ok \d+ boot$", r"^ok \d+ timer$", r"^ok \d+ traps$", r"^ok \d+ console$",
        r"^ok \d+ mm$", r"^ok \d+ slab$", r"^ok \d+ block$", r"^ok \d+ lru$", r"^ok \d+ vmscan$", r"^ok \d+ proc$",
        r"^ok \d+ ext2$", r"^ok \d+ rootfs$", r"^ok \d+ writeback$", r"^ok \d+ vfs$",
        r"^ok \d+ tmpfs$", r"^ok \d+ sched$", r"^ok \d+ memory$", r"^ok \d+ fd$",
        r"^ok \d+ signal$", r"^ok \d+ itimer$", r"^ok \d+ rlimit$", r"^ok \d+ flusher$",
        r"^ok \d+ shrinker$",
        r"# ktest: \d+ suites, 0 failed: PASS",
    ]


def crash(name, victim, report, firmware="bios", rip=None, trace=None, cmdline=""):
    """A deliberate kernel exception: the panic report must name it.
    victim is the function that faults; rip the function the registers
    were taken in (default: victim); trace the functions the backtrace
    must show (default: the victim, its test case, the test runner, kmain)."""
    if trace is None:
        trace = [victim, "ktest_crash_" + name, "ktest_run_from_cmdline", "kmain"]
    return QemuCase(
        "crash_%s_%s" % (name, firmware), ("test=crash.%s " % name) + cmdline, firmware=firmware,
        status=EXIT_PANIC, timeout=60 if firmware == "bios" else 150,
        expect=report + [
            r"RIP: 0010:ffffffff8[0-9a-f]{7} <%s\+0x[0-9a-f]+>" % (rip or victim),
            r"RAX: [0-9a-f]{16} RBX: [0-9a-f]{16} RCX: [0-9a-f]{16}",
            r"R13: [0-9a-f]{16} R14: [0-9a-f]{16} R15: [0-9a-f]{16}",
            r"Call Trace:",
            r"---\[ end Kernel panic \]---",
        ] + [r"\[<ffffffff8[0-9a-f]{7}>\] %s\+0x" % fn for fn in trace])


SCREEN_PATTERN = "SCREEN-PATTERN The quick brown fox 0123456789 #$%&*+-=?@[]{}"
VGA_TEXT = 0xb8000
VGA_COLS, VGA_ROWS = 80, 25


def screen_problems(found):
    """found(text) -> bool: is text on the screen?  The kernel printed
    scroll 00..59 and then the pattern, so the screen must have scrolled."""
    problems = []
    for text, want in ((SCREEN_PATTERN, True), ("scroll 59", True), ("scroll 00", False)):
        if found(text) != want:
            problems.append("screen %s %r" % ("lacks" if want else "still shows", text))
    return problems


def fb_screen_case(build, name, medium="cdrom"):
    """UEFI: a screendump of the framebuffer console, compared pixel by
    pixel with glyphs rendered from the kernel's own PSF font; the test
    hid the cursor (DECTCEM), so none may show."""
    def grab(session):
        session.screendump("screen.png")
        session.send_serial(b"\n")

    def check(session):
        png = os.path.join(session.workdir, "screen.png")
        if not os.path.exists(png):
            return ["no screendump was taken"]
        with open(os.path.join(build, "font.psf"), "rb") as f:
            font = psf.Font(f.read())
        problems = screen_problems(lambda text: fbcheck.find_text(png, font, text) is not None)
        cursors = fbcheck.Screenshot(png, font).cursors
        if cursors:
            problems.append("a cursor shows at %s (col, row) after ESC [ ? 25 l hid it" % cursors)
        return ["%s: %s" % (png, p) for p in problems]

    return QemuCase(name, "test=console,console.screen_pattern", firmware="uefi",
                    medium=medium, timeout=180,
                    expect=[r"SCREEN-PATTERN", r"^ok 1 console$"],
                    on_line=[(r"waiting for the host to look at the screen", grab)],
                    check=check)


def vga_rows(path):
    """The characters of a dump of VGA text memory (character, attribute
    pairs), one string per screen row."""
    with open(path, "rb") as f:
        cells = f.read()
    return [bytes(cells[(r * VGA_COLS + c) * 2] for c in range(VGA_COLS)).decode("latin-1")
            for r in range(VGA_ROWS)]


def vga_screen_case():
    """BIOS: VGA text memory (character, attribute pairs at 0xb8000),
    read through QMP's pmemsave and decoded row by row."""
    def grab(session):
        session.memsave("vga.bin", VGA_TEXT, VGA_COLS * VGA_ROWS * 2)
        session.send_serial(b"\n")

    def check(session):
        path = os.path.join(session.workdir, "vga.bin")
        if not os.path.exists(path):
            return ["VGA text memory was not saved"]
        rows = vga_rows(path)
        return ["VGA text: %s" % p for p in screen_problems(lambda text: any(text in r for r in rows))]

    return QemuCase("vga_text_bios", "test=console,console.screen_pattern",
                    expect=[r"SCREEN-PATTERN", r"^ok 1 console$"],
                    on_line=[(r"waiting for the host to look at the screen", grab)],
                    check=check)


VIRTIO_DISK_BYTES = 16 << 20
SECTOR = 512
PATTERN_MULT = 0x9e3779b97f4a7c15


def sector_pattern(sector):
    """The 512 bytes kernel/tests/block_test.c writes to a sector."""
    return struct.pack("<64Q", *((((sector + 1) * PATTERN_MULT) & (2**64 - 1)) ^ w
                                 for w in range(64)))


def gdb_backtrace_case(build):
    """make debug's gdb: QEMU halted with a gdb stub, gdb loads
    build/kernel.elf, a hardware breakpoint on trap_init is hit, and the
    backtrace reads trap_init <- kmain <- higher_half_entry and ends
    there (on the return address 0 the boot code pushed), with no
    complaint about the boot code's debug information;
    then gdb detaches and the boot goes on to its test."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    gdb_out = []

    def attach():
        out = subprocess.run(
            ["gdb", "-batch", "-nx", "-ex", "set confirm off",
             "-ex", "set architecture i386:x86-64",
             "-ex", "file " + os.path.join(build, "kernel.elf"),
             "-ex", "target remote 127.0.0.1:%d" % port, "-ex", "hbreak trap_init",
             "-ex", "continue", "-ex", "bt", "-ex", "detach"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, timeout=60)
        gdb_out.append(out.stdout)
        return []

    def check(session):
        out = "".join(gdb_out)
        frames = re.findall(r"^#\d+\s+(?:(0x[0-9a-f]+) in )?(\S+) \(", out, re.M)
        names = [name if name != "??" else "?? at " + pc for pc, name in frames]
        problems = []
        # The boot code's return address 0 shows as one last frame.
        if names != ["trap_init", "kmain", "higher_half_entry", "?? at 0x0000000000000000"]:
            problems.append("gdb's backtrace is %s, not trap_init <- kmain <- "
                            "higher_half_entry <- 0:\n%s" % (names, out))
        if re.search(r"error|warning", out, re.I):
            problems.append("gdb complained:\n%s" % out)
        return problems

    return QemuCase("gdb_backtrace_bios", "test=boot", timeout=120,
                    qemu_args=["-S", "-gdb", "tcp:127.0.0.1:%d" % port], script=attach,
                    expect=[r"^ok 1 boot$"], check=check)


def virtio_blk_case(build, firmware):
    """test=block with a 16 MiB virtio disk: the kernel writes a pattern to
    every sector and reads it back; afterwards the host reads the image and
    must find the pattern, so the data really reached the disk.  The image
    is made here, zeroed and sparse, before any QEMU starts."""
    name = "virtio_blk_%s" % firmware
    workdir = os.path.join(build, "tests", name)
    os.makedirs(workdir, exist_ok=True)
    image = os.path.join(workdir, "disk.img")
    with open(image, "wb") as f:
        f.truncate(VIRTIO_DISK_BYTES)
    nr_sectors = VIRTIO_DISK_BYTES // SECTOR

    def check(session):
        problems = []
        with open(image, "rb") as f:
            for sector in (0, nr_sectors // 2, nr_sectors - 1):
                f.seek(sector * SECTOR)
                if f.read(SECTOR) != sector_pattern(sector):
                    problems.append("%s: sector %d does not hold the kernel's pattern"
                                    % (image, sector))
        return problems

    return QemuCase(
        name, "test=block", firmware=firmware, timeout=90 if firmware == "bios" else 180,
        qemu_args=VDA_ARGS,
        expect=[r"pci 0000:00:[0-9a-f]{2}\.0 \[1af4:1001\] class 0x010000 irq \d+",
                r"blk: vda 16 MiB \(32768 sectors of 512 bytes\), virtio-blk$",
                r"blk: ram1 4 MiB \(8192 sectors of 512 bytes\), ramdisk$",
                r"block: vda: 32768 sectors written and read back, 0 mismatches",
                r"block: vda: read back in \d+ requests of up to \d+ pages",
                r"^ok \d+ block$"],
        reject=(r"^\s*not ok ", r"# skipped: no vda"),
        check=check)


FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3
EXT2_WRITTEN_SIZE = 300 * 1024


def fnv1a(data):
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & (2**64 - 1)
    return h


def e2tool(name):
    """An e2fsprogs program (root's PATH has /sbin; others may not)."""
    for path in (shutil.which(name), "/usr/sbin/" + name, "/sbin/" + name):
        if path and os.path.exists(path):
            return path
    raise RuntimeError("%s not found: install e2fsprogs" % name)


def ext2_disk(workdir, files, block_size=1024, size_mib=16):
    """An ext2 image of size_mib MiB made by mke2fs -d from files
    ({name: bytes})."""
    stage = os.path.join(workdir, "stage")
    image = os.path.join(workdir, "disk.img")
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    for name, data in files.items():
        with open(os.path.join(stage, name), "wb") as f:
            f.write(data)
    with open(image, "wb") as f:
        f.truncate(size_mib << 20)
    subprocess.run([e2tool("mke2fs"), "-q", "-F", "-t", "ext2", "-b", str(block_size),
                    "-d", stage, image], check=True)
    return image


def ext2_fsck_problems(image):
    """e2fsck -fn must find image clean: [] or one problem with its output."""
    fsck = subprocess.run([e2tool("e2fsck"), "-fn", image], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if fsck.returncode != 0:
        return ["e2fsck -fn %s: status %d\n%s" % (image, fsck.returncode, fsck.stdout)]
    return []


def ext2_disk_check(image, path, expected):
    """After the kernel wrote to image: e2fsck -fn must find it clean and
    debugfs must read path back as expected."""
    problems = ext2_fsck_problems(image)
    cat = subprocess.run([e2tool("debugfs"), "-R", "cat " + path, image],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if cat.stdout != expected:
        problems.append("debugfs reads %d bytes of %s, not the kernel's %d"
                        % (len(cat.stdout), path, len(expected)))
    return problems


VDA_ARGS = ["-drive", "if=none,id=vd0,format=raw,file={workdir}/disk.img",
            "-device", "virtio-blk-pci,drive=vd0"]


def ext2_virtio_case(build, block_size):
    """test=ext2 on a virtio disk made by mke2fs -d from a staging folder:
    the kernel reads a file and checks it against the hash recorded here,
    then writes, renames and deletes; afterwards e2fsck -fn must find the
    image clean and debugfs must read the kernel's file back."""
    name = "ext2_virtio_%dk_bios" % (block_size // 1024)
    data = bytes((i * 131 + (i >> 8) * 17) & 0xff for i in range(200 * 1024 + 123))
    image = ext2_disk(os.path.join(build, "tests", name), {
        "hello.txt": b"Hello from the host.\n",
        "data.bin": data,
        "data.fnv": b"%d\n" % fnv1a(data)}, block_size)
    written = bytes(((i * 7 + (i >> 10)) & 0xff) for i in range(EXT2_WRITTEN_SIZE))

    return QemuCase(
        name, "test=ext2", qemu_args=VDA_ARGS,
        expect=[r"# data.bin: 204923 bytes, FNV-1a \d+ as recorded", r"^ok \d+ ext2$"],
        reject=(r"^\s*not ok ", r"# skipped: no vda"),
        check=lambda session: ext2_disk_check(image, "/made/written.bin", written))


def filemap_virtio_case(build):
    """test=filemap on a virtio disk made by mke2fs -d holding a 256 KiB
    file: the kernel reads it twice through the page cache (Inactive(file)
    to Active(file)), writes and syncs a file (Dirty back to 0); afterwards
    e2fsck -fn must find the image clean and debugfs must read the
    kernel's file back."""
    name = "filemap_virtio_bios"
    image = ext2_disk(os.path.join(build, "tests", name), {
        "stream.bin": bytes((i * 131 + (i >> 8) * 17) & 0xff for i in range(256 * 1024))})
    written = b"\x3c" * (100 * 1024) + b"\x7e" * 4096

    return QemuCase(
        name, "test=filemap", qemu_args=VDA_ARGS,
        expect=[r"# stream.bin: 64 pages; Inactive\(file\) \d+ -> \d+ -> \d+",
                r"# 100 KiB written: Dirty 100 kB, after sync 0 kB",
                r"^ok \d+ filemap$"],
        reject=(r"^\s*not ok ", r"# skipped: no vda"),
        check=lambda session: ext2_disk_check(image, "/written.bin", written))


def mpage_pattern(salt, start, end):
    """Bytes [start, end) of a file of kernel/tests/mpage_test.c: the
    32-bit word at offset o is o / 4 ^ salt (start and end multiples of 4)."""
    return array.array("I", (i ^ salt for i in range(start // 4, end // 4))).tobytes()


def mpage_virtio_case(build, block_size):
    """test=mpage on a 64 MiB virtio disk made by mke2fs -d: the kernel
    reads a contiguous 1 MiB and a 32 MiB file and a sparse one and checks
    every byte and the number of disk requests, then writes a fragmented
    pair of files and an 8 MiB one; afterwards e2fsck -fn must find the
    image clean and debugfs must read the kernel's files back."""
    name = "mpage_virtio_%dk_bios" % (block_size // 1024)
    workdir = os.path.join(build, "tests", name)
    kib, mib = 1024, 1024 * 1024
    image = ext2_disk(workdir, {
        "mib.bin": mpage_pattern(0x11000000, 0, mib),
        "big.bin": mpage_pattern(0x22000000, 0, 32 * mib)}, block_size, size_mib=64)
    # sparse.bin is added with its holes: debugfs's write keeps them.
    sparse = os.path.join(workdir, "sparse.bin")
    with open(sparse, "wb") as f:
        f.write(mpage_pattern(0x33000000, 0, 101 * kib))
        f.seek(2 * mib + kib)
        f.write(mpage_pattern(0x33000000, 2 * mib + kib, 2 * mib + 301 * kib))
        f.truncate(3 * mib + 1000)
    subprocess.run([e2tool("debugfs"), "-w", "-R", "write %s sparse.bin" % sparse, image],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    written = {"/frag_a.bin": mpage_pattern(0x44000000, 0, mib),
               "/frag_b.bin": mpage_pattern(0x55000000, 0, mib),
               "/seq.bin": mpage_pattern(0x66000000, 0, 8 * mib)}

    def check(session):
        problems = ext2_fsck_problems(image)
        for path, expected in written.items():
            cat = subprocess.run([e2tool("debugfs"), "-R", "cat " + path, image],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if cat.stdout != expected:
                problems.append("debugfs reads %d bytes of %s, not the kernel's %d"
                                % (len(cat.stdout), path, len(expected)))
        return problems

    return QemuCase(
        name, "test=mpage", qemu_args=VDA_ARGS, timeout=240,
        expect=[r"# mib.bin: 1 MiB in \d+ requests", r"# big.bin: 32 MiB in \d+ requests",
                r"# seq.bin: 8 MiB synced in \d+ requests", r"^ok \d+ mpage$"],
        reject=(r"^\s*not ok ", r"# skipped: no vda"),
        check=check)


# Boots that hunt use-after-free keep freed kernel objects in a 1 MiB
# quarantine (mm/slab.c), so that a stale pointer reads poison.  Not the
# boots whose tests count slab pages exactly (leaks, tool_numbers): what
# the quarantine holds changes with every free.
QUARANTINE = "slab_quarantine=1024"

def race_dirs_virtio_case(build):
    """race_fuzz's dirs scenario (three rounds) on a virtio disk, where
    ext2 sleeps on every block it reads: directories made, removed and
    renamed while other processes work in them, freed kernel objects
    quarantined.  Afterwards e2fsck -fn must find the image clean."""
    name = "race_dirs_virtio_bios"
    image = ext2_disk(os.path.join(build, "tests", name), {"hello.txt": b"race\n"})
    return QemuCase(
        name, QUARANTINE + " init=/sbin/init -- /usr/tests/race_fuzz 0x7ace2026 3 dirs",
        qemu_args=VDA_ARGS, timeout=180,
        expect=[r"^ok \d+ - dirs on ext2: afterwards every link count is right",
                r"^init: /usr/tests/race_fuzz finished: exit status 0$"],
        reject=USER_REJECT, check=lambda session: ext2_fsck_problems(image))


# What no user-mode boot may print: a failed check, a kernel crash, or
# init unable to set up the console or start a program.
USER_REJECT = (r"^\s*not ok ", r"^# \S+: FAIL", r"Bail out!", r"Kernel panic", r"^Oops: ",
               r"^init: (mount|cannot|tcsetpgrp|setsid|waitpid)")


def user_test_names():
    """The test programs user/user.mk builds, one per user/tests/NAME.c."""
    here = os.path.dirname(os.path.abspath(__file__))
    return sorted(os.path.basename(p)[:-2]
                  for p in glob.glob(os.path.join(here, "..", "..", "user", "tests", "*.c"))
                  if os.path.basename(p) not in ("runner.c", "testlib.c"))


# user/tests/faults.c: each kind of fault its children make, and the
# signal the kernel must kill the child with.
FAULT_KINDS = {
    "ud2": "SIGILL", "divide_error": "SIGFPE", "text_write": "SIGSEGV",
    "null_write": "SIGSEGV", "nx_mmap": "SIGSEGV", "nx_stack": "SIGSEGV",
    "direct_map_read": "SIGSEGV", "kernel_text_read": "SIGSEGV", "stack_overflow": "SIGSEGV",
}
# What faults prints for each child it saw killed: the kernel's line to come.
FAULT_EXPECT = re.compile(r"^# expect console \((\w+)\): (\S+)\[(\d+)\]: killed by (SIG[A-Z]+) "
                          r"at 0x([0-9a-f]+)(?:\.\.0x([0-9a-f]+))?, rip 0x([0-9a-f]+)$")
# The kernel's line for a process a fault killed (kernel/signal.c).
KILLED_LINE = re.compile(r"^(\S+)\[(\d+)\]: killed by (SIG[A-Z]+) at 0x([0-9a-f]+), "
                         r"rip 0x([0-9a-f]+)$")


def fault_kill_problems(session):
    """Exactly one kernel console line for each child user/tests/faults.c
    saw killed, naming the program, the child's pid, the signal, the
    faulting address (or one in the range faults computed) and the rip;
    and no such line for any other process of that program."""
    expected = {}
    for line in session.lines:
        m = FAULT_EXPECT.match(line)
        if m:
            kind, comm, pid, sig, lo, hi, rip = m.groups()
            expected.setdefault(kind, []).append(
                (comm, int(pid), sig, int(lo, 16), int(hi or lo, 16), int(rip, 16)))
    killed = [m.groups() for m in map(KILLED_LINE.match, session.lines) if m]
    problems = []
    pids = set()
    for kind, want_sig in FAULT_KINDS.items():
        if len(expected.get(kind, [])) != 1:
            problems.append("faults printed %d expectations for its %s child, not one"
                            % (len(expected.get(kind, [])), kind))
            continue
        comm, pid, sig, lo, hi, rip = expected[kind][0]
        pids.add((comm, pid))
        if sig != want_sig:
            problems.append("faults' %s child died of %s, not %s" % (kind, sig, want_sig))
        lines = [k for k in killed if k[0] == comm and int(k[1]) == pid]
        if len(lines) != 1:
            problems.append("%d console lines for %s[%d] (%s), expected exactly one"
                            % (len(lines), comm, pid, kind))
            continue
        _, _, got_sig, addr, got_rip = lines[0]
        if (got_sig != sig or not lo <= int(addr, 16) <= hi or int(got_rip, 16) != rip):
            problems.append("%s[%d] (%s): the console says %s at 0x%s, rip 0x%s; expected %s "
                            "at 0x%x..0x%x, rip 0x%x" % (comm, pid, kind, got_sig, addr, got_rip,
                                                          sig, lo, hi, rip))
    comms = {comm for comm, _ in pids}
    for comm, pid, sig, addr, rip in killed:
        if comm in comms and (comm, int(pid)) not in pids:
            problems.append("an unexpected console line: %s[%s]: killed by %s at 0x%s, rip 0x%s"
                            % (comm, pid, sig, addr, rip))
    return problems


def user_tests_case():
    """init runs /usr/tests/runner all and powers off: every test must end
    as the runner's table expects (demand_paging maps 256 MiB, hence
    -m 512M) and the summary must count them all; each child the faults
    test saw killed must have its one kernel console line."""
    names = user_test_names()
    return QemuCase(
        "user_tests_bios", LISTS_CHECK + " init=/sbin/init -- /usr/tests/runner all", mem="512M",
        timeout=300,
        expect=[r"^init: running /usr/tests/runner$"] +
               [r"^# %s: PASS \(" % n for n in names] +
               [r"^user tests: %d passed, 0 failed$" % len(names),
                r"^init: /usr/tests/runner finished: exit status 0$",
                r"^init: powering off$"] + LISTS_CHECKED,
        reject=USER_REJECT, check=fault_kill_problems)


# The OOM killer's report (mm/oom_kill.c, show_free_areas in
# mm/page_alloc.c): Linux's lines.
OOM_KILLED_LINE = re.compile(r"^Out of memory: Killed process (\d+) \((\S+)\) total-vm:\d+kB, "
                             r"anon-rss:(\d+)kB, file-rss:\d+kB, shmem-rss:0kB, UID:0 "
                             r"pgtables:\d+kB oom_score_adj:(-?\d+)$")
OOM_EXPECT_LINE = re.compile(r"^# expect console: Out of memory: Killed process (\d+) \(oom\)$")
OOM_SELF_EXPECT = re.compile(r"^# expect console: (Out of memory: killing pid \d+ \(oom\))$")


def oom_problems(session):
    """The hog oom.c announced was killed with the report's lines, the
    oom_score_adj 1000 child was the victim of the second kill, nobody at
    -1000 was, the -1000 hog with nothing else to kill was killed by its
    own fault, and the leak test's 50 (plus warm-up) kills each got a
    "Killed process" line."""
    killed = [m.groups() for m in map(OOM_KILLED_LINE.match, session.lines) if m]
    expected = [m.group(1) for m in map(OOM_EXPECT_LINE.match, session.lines) if m]
    problems = []
    if len(expected) != 1:
        return ["oom printed %d expect lines, not one" % len(expected)]
    hog = [k for k in killed if k[0] == expected[0]]
    if len(hog) != 1 or int(hog[0][2]) < 16384:
        problems.append("the hog %s: %r, not one kill line with anon-rss >= 16 MiB"
                        % (expected[0], hog))
    adj = [k for k in killed if k[1] == "oom" and k[3] == "1000"]
    if len(adj) != 1:
        problems.append("%d kills of an oom_score_adj 1000 child, not one" % len(adj))
    if any(k[3] == "-1000" for k in killed):
        problems.append("a process with oom_score_adj -1000 was killed")
    leaks = [k for k in killed if k[1] == "leaks"]
    if len(leaks) < 50:
        problems.append("%d OOM kills of leaks' children, fewer than 50" % len(leaks))
    selves = [m.group(1) for m in map(OOM_SELF_EXPECT.match, session.lines) if m]
    if len(selves) != 1 or session.lines.count(selves[0]) != 1:
        problems.append("the -1000 hog's fault: %r, not one expect line and one console line"
                        % selves)
    return problems


def oom_case():
    """init runs the oom and leaks tests at -m 64M: an anonymous hog twice
    the size of RAM gets the OOM report (the triggering allocation, the
    Mem-Info lines, the per-zone line, the task table, the kill line) and
    is killed while its parent goes on; oom_score_adj 1000 and -1000 steer
    the choice; with nothing killable the allocation fails and the
    faulting hog dies, with no hang and no panic; 50 kills in a row leave
    every counter of the leak test where it was; and the runner ends
    normally afterwards."""
    return QemuCase(
        "oom_64m_bios", "init=/sbin/init -- /usr/tests/runner oom leaks", mem="64M", timeout=420,
        expect=[r"^init: running /usr/tests/runner$",
                r"^oom invoked oom-killer: gfp_mask=0x[0-9a-f]+, order=0, oom_score_adj=0$",
                r"^Mem-Info:$",
                r"^active_anon:\d+ inactive_anon:\d+$",
                r"^ unevictable:\d+ dirty:\d+ writeback:\d+$",
                r"^Node 0 DMA32 free:\d+kB min:\d+kB low:\d+kB high:\d+kB active_anon:\d+kB "
                r"inactive_anon:\d+kB active_file:\d+kB inactive_file:\d+kB unevictable:\d+kB "
                r"writepending:\d+kB present:\d+kB managed:\d+kB$",
                r"^Node 0 DMA32: (\d+\*\d+kB )+= \d+kB$",
                r"^\[  pid  \]   uid  tgid total_vm      rss pgtables_bytes swapents "
                r"oom_score_adj name$",
                r"^\[\s*\d+\]     0 \s*\d+ \s*\d+ \s*\d+ \s*\d+ \s*0 \s+-?\d+ oom$",
                r"^Out of memory: Killed process \d+ \(oom\) total-vm:",
                r"^Out of memory and no killable processes\.\.\.$",
                r"^oom: page allocation failure\. order:0, mode:0x[0-9a-f]+$",
                r"^# oom: PASS \(", r"^# leaks: PASS \(",
                r"^ok \d+ - child killed by the OOM killer: every counter back within its slack$",
                r"^user tests: 2 passed, 0 failed$",
                r"^init: /usr/tests/runner finished: exit status 0$",
                r"^init: powering off$"],
        reject=USER_REJECT, check=oom_problems)


def bench_smoke_case(build):
    """`make bench`'s program, quick, on Pageturn: every row of the table
    must print its measure as a positive, finite number (what the bench
    reads; how large is not judged here), and the file it wrote must
    leave the disk clean for e2fsck -fn."""
    name = "bench_smoke_virtio_bios"
    pattern = bytes(range(256)) * 4096
    image = ext2_disk(os.path.join(build, "tests", name),
                      {"read.bin": pattern * 4, "map.bin": pattern}, 4096, 32)

    def check(session):
        records = bench_console.parse(session.lines)
        problems = []
        for row in bench_micro.ROWS:
            found = [r for r in records if r["bench"] == row.name]
            value = found[0].get(row.key) if len(found) == 1 else None
            if not (isinstance(value, float) and value > 0):
                problems.append("%s: %d lines, %s=%r, not a positive finite number"
                                % (row.name, len(found), row.key, value))
        return problems + ext2_fsck_problems(image)

    return QemuCase(
        name, "init=/sbin/init -- /usr/bin/microbench --quick --dev /dev/vda --dir /mnt all",
        timeout=180, qemu_args=VDA_ARGS,
        expect=[r"^bench-done rows=%d errors=0$" % len(bench_micro.ROWS),
                r"^init: /usr/bin/microbench finished: exit status 0$"],
        reject=USER_REJECT + (r"bench=\S+ error=",), check=check)


def bench_reclaim_smoke_case(build):
    """`make bench QUICK=1`'s reclaim cell, on Pageturn (lru=split) only:
    the same command, sizes and disks (a mkswap'd swap disk on vda, the
    hogs' file on an ext2 disk on vdb, both fresh copies), and the
    bench's own parser must find the hog verified and every counter
    there and plausible: file pages scanned and freed (the file is twice
    the RAM), no more freed than scanned.  How fast is not judged."""
    name = "bench_reclaim_smoke_virtio_bios"
    workdir = os.path.join(build, "tests", name)
    os.makedirs(workdir, exist_ok=True)
    ram_mib, workload = 128, [w for w in bench_reclaim.WORKLOADS if w.name == "stream"][0]
    data = bench_reclaim.data_disk(build, workdir, [workload], ram_mib)
    shutil.copyfile(data, os.path.join(workdir, "data.img"))
    swap = os.path.join(workdir, "swap.img")
    if os.path.exists(swap):
        os.unlink(swap)
    bench_disks.swap_image(swap, 512)
    os.unlink(swap + ".recipe")

    def check(session):
        values, problems = bench_reclaim.parse_boot(session.lines, workload)
        if problems:
            return problems
        if not values["pgscan_file"] > 0 or not values["pgsteal_file"] > 0:
            problems.append("pgscan_file %d, pgsteal_file %d: a file of twice the RAM was "
                            "read without reclaim" % (values["pgscan_file"],
                                                      values["pgsteal_file"]))
        if not 0 < values["steal/scan"] <= 1:
            problems.append("steal/scan %r is not in (0, 1]" % values["steal/scan"])
        return problems

    return QemuCase(
        name, "lru=split init=/sbin/init -- " + bench_reclaim.command(workload, ram_mib, 1001),
        mem="%dM" % ram_mib, timeout=300,
        qemu_args=["-drive", "if=none,id=vd0,format=raw,file={workdir}/swap.img",
                   "-device", "virtio-blk-pci,drive=vd0",
                   "-drive", "if=none,id=vd1,format=raw,file={workdir}/data.img",
                   "-device", "virtio-blk-pci,drive=vd1"],
        expect=[r"^bench=stream exit=0 hog=stream ", r"^init: /bin/sh finished: exit status 0$"],
        reject=USER_REJECT, check=check)


def user_races_case(build):
    """init runs the tests of processes racing on shared kernel objects
    (ext2_race, dead_dir, mount_rename, clone_vm, race_fuzz), sync_merge and the
    system-call fuzzer on a fresh 64 MiB virtio disk with 1 KiB blocks
    (and a second one for mount_rename to mount), so bitmaps and inode
    tables span many blocks and every metadata read sleeps on the disk,
    with freed kernel objects quarantined so that a use after free reads
    poison; afterwards e2fsck -fn must find the disk clean.  (vfork_reap
    stays on the plain boot: under the quarantine its old bug would read
    poison, non-zero, and pass.)"""
    name = "user_races_virtio_bios"
    workdir = os.path.join(build, "tests", name)
    image = ext2_disk(workdir, {}, 1024, 64)
    second = os.path.join(workdir, "second")
    os.makedirs(second, exist_ok=True)
    ext2_disk(second, {"hello.txt": b"the second disk\n"})
    tests = ["ext2_race", "dead_dir", "mount_rename", "clone_vm", "race_fuzz", "syscall_fuzz",
             "rw_iter", "sync_merge", "writeback_race"]
    return QemuCase(
        name, QUARANTINE + " " + LISTS_CHECK + " init=/sbin/init -- /usr/tests/runner " +
        " ".join(tests),
        mem="512M", timeout=300,
        qemu_args=VDA_ARGS + ["-drive", "if=none,id=vd1,format=raw,file={workdir}/second/disk.img",
                              "-device", "virtio-blk-pci,drive=vd1"],
        expect=[r"^init: running /usr/tests/runner$",
                r"slab: freed objects wait in a quarantine of 1024 KiB"] +
               [r"^# %s: PASS \(" % n for n in tests] +
               [r"^user tests: %d passed, 0 failed$" % len(tests),
                r"^init: powering off$"] + LISTS_CHECKED,
        reject=USER_REJECT,
        check=lambda session: ext2_fsck_problems(image) + writeback_race_check(image))


# After the user programs, at power-off, the kernel checks every LRU list
# against its counter and the flags of every page on it (kernel/ktest.c's
# test_at_poweroff=, kernel/tests/vmscan_test.c).
LISTS_CHECK = "test_at_poweroff=vmscan.lists_match_counters"
LISTS_CHECKED = [r"^    ok 1 lists_match_counters$", r"^# ktest: 1 suites, 0 failed: PASS$"]


def reclaim_case(build, name, mem, cmdline_extra=""):
    """user/tests/reclaim_file.c at a small -m with a virtio disk (4 KiB
    blocks): a file of twice the RAM written, read twice and read through
    a mapping while reclaim frees its pages; without swap only file pages
    go.  Afterwards e2fsck -fn must find the disk clean and debugfs must
    read back every word of the file as the program wrote it.  With
    lru=single in cmdline_extra the kernel and the program must both say
    that the pre-split policy ran."""
    policy = "single" if "lru=single" in cmdline_extra.split() else "split"
    workdir = os.path.join(build, "tests", name)
    image = ext2_disk(workdir, {}, 4096, 320)

    def check(session):
        problems = ext2_fsck_problems(image)
        sizes = [int(m.group(1)) for m in (re.search(r"^# wrote (\d+) MiB", line)
                                           for line in session.lines) if m]
        if not sizes:
            return problems + ["no '# wrote N MiB' line from reclaim_file"]
        cat = subprocess.run([e2tool("debugfs"), "-R", "cat /reclaim_file.bin", image],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        want = mpage_pattern(0x5a000000, 0, sizes[0] << 20)
        if cat.stdout != want:
            first = next((i for i in range(min(len(want), len(cat.stdout)))
                          if want[i] != cat.stdout[i]), None)
            problems.append("debugfs reads %d bytes of /reclaim_file.bin (want %d), first "
                            "difference at %s" % (len(cat.stdout), len(want), first))
        return problems

    return QemuCase(
        name, cmdline_extra + " " + LISTS_CHECK + " init=/sbin/init -- /usr/tests/runner "
        "reclaim_file",
        mem=mem, timeout=300, qemu_args=VDA_ARGS,
        expect=[r"mm: LRU policy %s: " % policy, r"^# LRU policy: %s; " % policy,
                r"^# wrote \d+ MiB", r"^# reclaim_file: PASS \(",
                r"^user tests: 1 passed, 0 failed$", r"^init: powering off$"] + LISTS_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",),
        check=check)


def vmscan_virtio_case(build, name="vmscan_virtio_64m_bios", cmdline_extra=""):
    """test=vmscan at -m 64M on a virtio disk holding big.bin, a 128 MiB
    file whose word at offset o is o / 4 ^ 0x77000000: the kernel reads it
    twice checking every word while reclaim frees its pages, then takes
    memory until it must reclaim directly; every LRU list must still
    match its counter."""
    image = ext2_disk(os.path.join(build, "tests", name),
                      {"big.bin": mpage_pattern(0x77000000, 0, 128 << 20)}, 4096, 160)
    return QemuCase(
        name, " ".join(filter(None, [cmdline_extra, "test=vmscan"])), mem="64M", timeout=240,
        qemu_args=VDA_ARGS,
        expect=[r"# big.bin: 128 MiB read twice, 0 words wrong", r"# held \d+ pages; allocstall \+[1-9]",
                r"^ok \d+ vmscan$"],
        reject=(r"^\s*not ok ", r"# skipped: no vda"),
        check=lambda session: ext2_fsck_problems(image))


def reclaim_stress_case(build, name, cmdline_extra=""):
    """user/tests/reclaim_stress.c at -m 64M on a virtio disk, with freed
    slab objects quarantined so that a use after free reads poison: fork,
    copy-on-write, file faults and page-cache inserts, each checking its
    data, while a file of 1.5 x RAM streams; e2fsck -fn clean after."""
    image = ext2_disk(os.path.join(build, "tests", name), {}, 1024, 160)
    return QemuCase(
        name, " ".join(filter(None, [cmdline_extra, QUARANTINE, LISTS_CHECK])) +
        " init=/sbin/init -- /usr/tests/runner reclaim_stress",
        mem="64M", timeout=300, qemu_args=VDA_ARGS,
        expect=[r"slab: freed objects wait in a quarantine of 1024 KiB",
                r"^# streaming \d+ MiB", r"^# reclaim_stress: PASS \(",
                r"^user tests: 1 passed, 0 failed$", r"^init: powering off$"] + LISTS_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",),
        check=lambda session: ext2_fsck_problems(image))


def mlock_case(build, name, mem):
    """user/tests/mlock_lru.c and shm_lock.c at a small -m with a virtio
    disk: 1 MiB of anonymous memory and a 1 MiB mapping of a file stay
    mlocked, resident and intact while a file of twice the RAM is read,
    with Mlocked, Unevictable and the unevictable_pgs_* counters checked on
    the way in and out; then a SHM_LOCKed SysV segment stays on the
    unevictable list through another such read and is rescued by
    SHM_UNLOCK.  e2fsck -fn must find the disk clean afterwards."""
    workdir = os.path.join(build, "tests", name)
    image = ext2_disk(workdir, {}, 4096, 320)
    return QemuCase(
        name, LISTS_CHECK + " init=/sbin/init -- /usr/tests/runner mlock_lru shm_lock",
        mem=mem, timeout=420, qemu_args=VDA_ARGS,
        expect=[r"^# wrote \d+ MiB", r"^# mlock_lru: PASS \(", r"^# read a file of \d+ MiB",
                r"^# shm_lock: PASS \(",
                r"^user tests: 2 passed, 0 failed$", r"^init: powering off$"] + LISTS_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",),
        check=lambda session: ext2_fsck_problems(image))


def swap_disk(workdir, size_mib):
    """A sparse image of size_mib MiB made a swap area by the host's
    mkswap (util-linux: version 1, SWAPSPACE2)."""
    os.makedirs(workdir, exist_ok=True)
    image = os.path.join(workdir, "disk.img")
    with open(image, "wb") as f:
        f.truncate(size_mib << 20)
    mkswap = shutil.which("mkswap") or "/usr/sbin/mkswap"
    subprocess.run([mkswap, "-q", image], check=True, stdout=subprocess.DEVNULL)
    return image


SWAP_CHECK = LISTS_CHECK + ",swap.map_matches_ptes"
SWAP_CHECKED = [r"^    ok 1 lists_match_counters$", r"^    ok 1 map_matches_ptes$",
                r"^# ktest: 2 suites, 0 failed: PASS$"]


def swap_verify_case(build, name, mem, swap_mib):
    """user/tests/swap_verify.c and swapoff_data.c with a virtio disk the
    host's mkswap made a swap area, switched on by swap=/dev/vda before
    init: anonymous memory four times the RAM written, read back twice and
    unmapped; then swapoff with pages out (back bit-exact) and with more
    out than memory holds (ENOMEM, nothing lost); then a tmpfs file of
    twice the RAM through swap and back; then MADV_PAGEOUT, WILLNEED and
    FREE on 4 MiB; then swapoff while the owner of the pages changes its
    VMAs; then a shared futex whose page reclaim works on while it waits.  At power-off every
    slot's count must match the swap PTEs and the swap cache
    (swap.map_matches_ptes) and the LRU lists their counters."""
    swap_disk(os.path.join(build, "tests", name), swap_mib)
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/vda init=/sbin/init -- /usr/tests/runner swap_verify "
        "swapoff_data tmpfs_swap madvise_swap swapoff_race futex_swap",
        mem=mem, timeout=900, qemu_args=VDA_ARGS,
        expect=[r"^# wrote \d+ MiB", r"^# swap_verify: PASS \(", r"^# swapoff_data: PASS \(",
                # virtio-blk ends writes in its interrupt: some after reclaim let go.
                r"^# pswpout \+\d+, pswpin \+\d+, pgmajfault \d+, pgrotated \+[1-9]",
                r"^# tmpfs_swap: PASS \(", r"^# madvise_swap: PASS \(",
                r"^# swapoff_race: PASS \(", r"^# futex_swap: PASS \(",
                r"^user tests: 6 passed, 0 failed$", r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def hogs_swap_case(build):
    """user/tests/hogs_pressure.sh: memory hogs (user/hogs/) beyond the
    RAM on -m 64M with a 256 MiB swap disk the host's mkswap made, on from
    boot: a sequential hog of 150% rewritten once, a forking hog whose
    three children copy on write, an mlock hog with 100% of pressure
    beside its locked set, and the desktop mix of five at 120%.  Every
    hog's result line must say result=ok (hog-mlock's also
    locked_majflt=0: the locked set never left RAM), pages must have gone
    to swap and come back (pswpout, pswpin), and at power-off the swap
    map must match the PTEs and the LRU lists their counters."""
    name = "hogs_swap_64m_bios"
    swap_disk(os.path.join(build, "tests", name), 256)
    ok = r" mismatches=0 result=ok$"
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/vda init=/sbin/init -- /bin/sh /usr/tests/hogs_pressure.sh",
        mem="64M", timeout=300, qemu_args=VDA_ARGS,
        expect=[r"^hog=seq .*" + ok, r"^hog=fork .* children_failed=0 .*" + ok,
                r"^hog=mlock .* locked_majflt=0 .*" + ok, r"^hog=hotcold .*" + ok,
                r"^hog=random .*" + ok, r"^hog=filecycle .*" + ok, r"^hog=tmpfs .*" + ok,
                r"^hog=desktop .* workers_failed=0 .*" + ok, r"^pswpout [1-9]\d*$",
                r"^pswpin [1-9]\d*$", r"^# hogs_pressure\.sh: exit status 0$",
                r"^init: /bin/sh finished: exit status 0$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^mismatch ", r"result=FAIL"))


def tracing_case(build, name="tracing_swap_64m_bios"):
    """user/tests/tracing.c on a 64 MiB machine with a swap disk, so its
    last part sees reclaim: tracefs's control files, overruns of a small
    buffer, trace_pipe, and anonymous memory a quarter larger than RAM
    through swap with every vmscan and pageturn event on, each line
    checked against Linux's format."""
    swap_disk(os.path.join(build, "tests", name), 128)
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/vda init=/sbin/init -- /usr/tests/runner tracing",
        mem="64M", timeout=300, qemu_args=VDA_ARGS,
        expect=[r"^ok \d+ - memory a quarter larger than RAM came back through swap$",
                r"^ok \d+ - every line has Linux's format and its event's fields$",
                r"^# tracing: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def swap_made_inside_case(build, name, mem, qemu_args, script_args, cmdline_extra="",
                          image_mib=0, ext2=False, tests=("swap_verify",)):
    """user/tests/swapverify.sh TESTS SCRIPT_ARGS: busybox mkswap and
    swapon of a disk on another driver (or of a swap file on an ext2
    disk), then the user tests (swap_verify: four times the RAM through
    swap and back, bit-exact), at power-off the slots against the PTEs.  image_mib: the disk image the
    case makes ({workdir}/disk.img; ext2 with 4 KiB blocks if ext2),
    besides which qemu_args name the devices."""
    workdir = os.path.join(build, "tests", name)
    if ext2:
        ext2_disk(workdir, {}, 4096, image_mib)
    elif image_mib:
        os.makedirs(workdir, exist_ok=True)
        with open(os.path.join(workdir, "disk.img"), "wb") as f:
            f.truncate(image_mib << 20)
    return QemuCase(
        name, (SWAP_CHECK + " " + cmdline_extra + " init=/sbin/init -- /bin/sh "
               "/usr/tests/swapverify.sh " + ",".join(tests) + " " + script_args
               ).replace("  ", " "),
        mem=mem, timeout=600, qemu_args=qemu_args,
        expect=[r"^# swapverify\.sh: swap on "] +
               [r"^# %s: PASS \(" % t for t in tests] +
               [r"^user tests: %d passed, 0 failed$" % len(tests),
                r"^init: /bin/sh finished: exit status 0$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def swap_driver_cases(build):
    """swap_verify on every kind of disk Pageturn swaps to besides virtio:
    a SATA disk on q35's AHCI controller, an IDE disk on the pc machine's
    PIIX (PIO), a RAM disk carved from RAM above mem= (also two processes
    through swap at once, swap_two), and a swap file on an ext2 virtio
    disk."""
    return [
        swap_made_inside_case(
            build, "swap_ahci_48m_bios", "48M",
            ["-drive", "if=none,id=sata0,format=raw,file={workdir}/disk.img",
             "-device", "ide-hd,drive=sata0,bus=ide.1"], "/dev/sda", image_mib=256),
        swap_made_inside_case(
            build, "swap_ata_piix_48m_bios", "48M",
            ["-machine", "pc", "-drive", "if=ide,index=1,format=raw,file={workdir}/disk.img"],
            "/dev/sda", image_mib=256),
        swap_made_inside_case(
            build, "swap_brd_48m_bios", "240M", [], "/dev/ram1",
            cmdline_extra="mem=48M brd.rd_size=163840", tests=("swap_verify", "swap_two")),
        swap_made_inside_case(
            build, "swap_file_48m_bios", "48M", VDA_ARGS, "/dev/vda file 192",
            image_mib=256, ext2=True),
        swap_usb_partition_case(build),
    ]


USB_PART_MBR = ("label: dos\n"
                "start=2048, size=63488, type=83\n"
                "start=65536, size=524288, type=82\n")


def swap_usb_partition_case(build):
    """A USB disk (usb-storage behind QEMU's xHCI) with an MBR made by
    sfdisk, the way a stick is laid out by a hobbyist: swap_verify on its
    second partition, found as sda2 and made a swap area by busybox
    mkswap.  The controller has USB 2 ports only (p3=0), so the disk is
    high-speed and its port must be reset before it is enabled, as a
    USB 2 stick's on a real PC."""
    case = swap_made_inside_case(
        build, "swap_usb_sda2_48m_bios", "48M",
        # SeaBIOS would boot the stick, whose MBR ends in 0x55aa: the CD first.
        ["-boot", "order=d", "-device", "qemu-xhci,id=xhci,p3=0",
         "-drive", "if=none,id=stick,format=raw,file={workdir}/disk.img",
         "-device", "usb-storage,bus=xhci.0,drive=stick"], "/dev/sda2", image_mib=288)
    partitioned_disk(os.path.join(build, "tests", case.name, "disk.img"), USB_PART_MBR,
                     size_mib=288)
    case.expect += [r"usb 1-1: new high-speed USB device number 1 using xhci_hcd",
                    r"scsi 0:0:0:0: Direct-Access +QEMU +QEMU HARDDISK",
                    r"sd 0:0:0:0: \[sda\] 589824 512-byte logical blocks: \(302\.0 MB/288\.0 MiB\)",
                    r"^ sda: sda1 sda2$", r"^# swapverify\.sh: swap on /dev/sda2$"]
    return case


# The slots whose I/O the blkdebug cases fail: in the middle of the area,
# where the test's own pages go (the first slots take the idle pages of
# init and the shell).
IOERR_SLOTS = range(4000, 4016)


def swap_ioerr_case(build, name, iotype, expect, usb=False):
    """user/tests/swap_ioerr.c at -m 64M on a 256 MiB swap disk behind
    QEMU's blkdebug, whose rules fail every iotype ("read" or "write") of
    IOERR_SLOTS with EIO; expect says what the console must show.  usb:
    the disk is a USB disk (sda), which reports the error as SCSI sense
    data after a failed command."""
    workdir = os.path.join(build, "tests", name)
    image = swap_disk(workdir, 256)
    conf = os.path.join(workdir, "blkdebug.conf")
    with open(conf, "w") as f:
        for slot in IOERR_SLOTS:
            f.write('[inject-error]\nevent = "%s_aio"\niotype = "%s"\nerrno = "5"\n'
                    'sector = "%d"\n\n' % (iotype, iotype, slot * 8))
    drive = "if=none,id=vd0,format=raw,file=blkdebug:%s:%s" % (conf, image)
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/%s init=/sbin/init -- /usr/tests/runner swap_ioerr"
        % ("sda" if usb else "vda"),
        mem="64M", timeout=600,
        qemu_args=["-drive", drive] + (
            ["-device", "qemu-xhci,id=xhci", "-device", "usb-storage,bus=xhci.0,drive=vd0"]
            if usb else ["-device", "virtio-blk-pci,drive=vd0"]),
        expect=expect + [r"^# swap_ioerr: PASS \(", r"^user tests: 1 passed, 0 failed$",
                         r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def swap_error_orphan_case(build):
    """user/tests/swap_error_orphan.c at -m 64M on a 256 MiB swap disk
    behind QEMU's blkdebug, which fails every write to slots 1..1100 (the
    first a fresh area hands out), throttled to 1 MiB/s so that the
    writes are still in flight when the test unmaps their pages: pages
    whose owner let them go while their writes were in flight, and whose
    writes then failed, must not stay in the swap cache for good."""
    name = "swap_error_orphan_64m_bios"
    workdir = os.path.join(build, "tests", name)
    image = swap_disk(workdir, 256)
    conf = os.path.join(workdir, "blkdebug.conf")
    with open(conf, "w") as f:
        for slot in range(1, 1101):
            f.write('[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\n'
                    'sector = "%d"\n\n' % (slot * 8))
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/vda init=/sbin/init -- /usr/tests/runner swap_error_orphan",
        mem="64M", timeout=600,
        qemu_args=["-drive", "if=none,id=vd0,format=raw,file=blkdebug:%s:%s,bps_wr=1048576"
                   % (conf, image),
                   "-device", "virtio-blk-pci,drive=vd0"],
        expect=[r"Write-error on swap-device \(/dev/vda:\d+\)$",
                r"^# swap_error_orphan: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def swap_slow_disk_case(build):
    """user/tests/swap_slow_disk.c at -m 64M on a 256 MiB swap disk whose
    writes QEMU throttles to 2 MiB/s: with writes in flight for long,
    reclaim must wait for them, not call the OOM killer."""
    name = "swap_slow_disk_64m_bios"
    image = swap_disk(os.path.join(build, "tests", name), 256)
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/vda init=/sbin/init -- /usr/tests/runner swap_slow_disk",
        mem="64M", timeout=900,
        qemu_args=["-drive", "if=none,id=vd0,format=raw,file=%s,bps_wr=2097152" % image,
                   "-device", "virtio-blk-pci,drive=vd0"],
        expect=[r"^# swap_slow_disk: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def swap_inflight_case(build):
    """user/tests/swap_inflight.c at -m 64M on a 256 MiB swap disk whose
    writes QEMU throttles to 1 MiB/s, so that they are in flight while the
    test reads, writes, forks, drops, truncates and swaps off."""
    name = "swap_inflight_64m_bios"
    image = swap_disk(os.path.join(build, "tests", name), 256)
    return QemuCase(
        name, SWAP_CHECK + " swap=/dev/vda init=/sbin/init -- /usr/tests/runner swap_inflight",
        mem="64M", timeout=600,
        qemu_args=["-drive", "if=none,id=vd0,format=raw,file=%s,bps_wr=1048576" % image,
                   "-device", "virtio-blk-pci,drive=vd0"],
        expect=[r"^# swap_inflight: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT + (r"^ok \d+ - .* # skip ",))


def writeback_race_check(image):
    """user/tests/writeback_race.c leaves /wbrace.0 .. /wbrace.7: a page
    holding 'x' first, then 10240 bytes of its pattern, all of which must
    be on the disk."""
    problems = []
    for rnd in range(8):
        want = b"x" + bytes(4095) + bytes((i * 13 + rnd * 7 + (i >> 9)) & 0xff
                                          for i in range(10240))
        cat = subprocess.run([e2tool("debugfs"), "-R", "cat /wbrace.%d" % rnd, image],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if cat.stdout != want:
            bad = sum(a != b for a, b in zip(cat.stdout, want)) + abs(len(cat.stdout) - len(want))
            problems.append("/wbrace.%d on the disk: %d of %d bytes wrong" % (rnd, bad, len(want)))
    return problems


def blkdev_rw_pattern(pos, length, seed):
    """user/tests/blkdev_rw.c's pattern: the bytes it writes at pos."""
    return bytes(((p * 7 + seed) ^ (p >> 8)) & 0xff for p in range(pos, pos + length))


BLKDEV_RW_SIZE = 8 << 20


def blkdev_rw_check(image):
    """The bytes blkdev_rw wrote to /dev/vdb, zeroes where it wrote none,
    and busybox mkswap's header (Linux's union swap_header, 4 KiB pages):
    SWAPSPACE2 ending the first page, version 1 and last_page at 1024 and
    1028, which the host's blkid also takes for swap."""
    problems = []
    with open(image, "rb") as f:
        disk = f.read()
    if len(disk) != BLKDEV_RW_SIZE:
        return ["%s is %d bytes, not %d" % (image, len(disk), BLKDEV_RW_SIZE)]
    spans = [(5000, 3000, 1), (12345, 10000, 2), (65536, 8192, 3), (100000, 1, 4),
             (153600, 1024, 6), (BLKDEV_RW_SIZE - 100, 100, 5)]
    for pos, length, seed in spans:
        if disk[pos:pos + length] != blkdev_rw_pattern(pos, length, seed):
            problems.append("%d bytes at %d are not the pattern written" % (length, pos))
    if disk[4086:4096] != b"SWAPSPACE2":
        problems.append("no SWAPSPACE2 at 4086: %r" % disk[4086:4096])
    version, last_page = struct.unpack_from("<II", disk, 1024)
    if version != 1 or last_page != BLKDEV_RW_SIZE // 4096 - 1:
        problems.append("swap header version %d, last_page %d; want 1, %d"
                        % (version, last_page, BLKDEV_RW_SIZE // 4096 - 1))
    blkid = shutil.which("blkid") or "/usr/sbin/blkid"
    if os.path.exists(blkid):
        kind = subprocess.run([blkid, "-p", "-o", "value", "-s", "TYPE", image],
                              stdout=subprocess.PIPE, text=True).stdout.strip()
        if kind != "swap":
            problems.append("blkid -p says the image is %r, not swap" % kind)
    untouched = [(4096, 5000 - 4096), (8000, 12345 - 8000), (200000, 4096)]
    for pos, length in untouched:
        if disk[pos:pos + length] != bytes(length):
            problems.append("%d bytes at %d were never written but are not zero" % (length, pos))
    return problems


def blkdev_rw_case(build):
    """init runs blkdev_rw with an ext2 /dev/vda (mounted on /mnt), an 8
    MiB scratch /dev/vdb of zeroes and a read-only /dev/vdc: read() and
    write() of the nodes at unaligned offsets, the ends of the device,
    busybox dd, mkswap and hexdump.  Afterwards the host finds every byte
    written in vdb's image and a swap header there, and e2fsck -fn finds
    vda clean."""
    name = "blkdev_rw_virtio_bios"
    workdir = os.path.join(build, "tests", name)
    image = ext2_disk(workdir, {"hello.txt": b"blkdev_rw\n"})
    scratch = os.path.join(workdir, "scratch.img")
    readonly = os.path.join(workdir, "readonly.img")
    for path, size in ((scratch, BLKDEV_RW_SIZE), (readonly, 1 << 20)):
        with open(path, "wb") as f:
            f.truncate(size)
    return QemuCase(
        name, "init=/sbin/init -- /usr/tests/runner blkdev_rw", timeout=180,
        qemu_args=VDA_ARGS + [
            "-drive", "if=none,id=vd1,format=raw,file={workdir}/scratch.img",
            "-device", "virtio-blk-pci,drive=vd1",
            "-drive", "if=none,id=vd2,format=raw,readonly=on,file={workdir}/readonly.img",
            "-device", "virtio-blk-pci,drive=vd2"],
        expect=[r"^# blkdev_rw: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"],
        reject=USER_REJECT + (r"# skipped",),
        check=lambda session: blkdev_rw_check(scratch) + ext2_fsck_problems(image))


SFDISK = "/usr/sbin/sfdisk"
SECTOR = 512
# The tables partitions_virtio_bios gives vda (MBR) and vdb (GPT), as
# sfdisk scripts; user/tests/partitions.c knows the sizes they make.
PART_MBR = ("label: dos\n"
            "start=2048, size=20480, type=83\n"
            "start=22528, size=10240, type=82\n"
            "start=32768, size=65536, type=5\n"
            "start=34816, size=8192, type=83\n"
            "start=45056, size=8192, type=82\n")
PART_GPT = ("label: gpt\n"
            "start=2048, size=20480, type=L\n"
            "start=22528, size=32768, type=L\n"
            "start=57344, size=8192, type=S\n")
VDA6_START, VDA6_SECTORS = 45056, 8192
VDB2_START, VDB2_SECTORS = 22528, 32768


def partitioned_disk(path, script, size_mib=64):
    """A zeroed image of size_mib MiB with sfdisk's table from script."""
    with open(path, "wb") as f:
        f.truncate(size_mib << 20)
    subprocess.run([SFDISK, "-q", path], input=script.encode(), check=True)


def partitions_pattern(length):
    """user/tests/partitions.c's pattern over vda6, from its first byte."""
    return bytes(((i * 13 + 5) ^ (i >> 9)) & 0xff for i in range(length))


def partitions_check(workdir):
    """vda6's sectors of vda hold the pattern and the sectors around it
    are zero; vdb2, cut out of vdb, is a clean ext2 holding the file the
    kernel wrote."""
    problems = []
    with open(os.path.join(workdir, "mbr.img"), "rb") as f:
        mbr = f.read()
    start, end = VDA6_START * SECTOR, (VDA6_START + VDA6_SECTORS) * SECTOR
    if mbr[start:end] != partitions_pattern(end - start):
        problems.append("vda6's sectors of vda do not hold the pattern")
    if mbr[start - 4096:start] != bytes(4096) or mbr[end:end + 4096] != bytes(4096):
        problems.append("the sectors around vda6 on vda changed")
    part = os.path.join(workdir, "vdb2.img")
    with open(os.path.join(workdir, "disk.img"), "rb") as f:
        f.seek(VDB2_START * SECTOR)
        data = f.read(VDB2_SECTORS * SECTOR)
    with open(part, "wb") as f:
        f.write(data)
    return problems + ext2_disk_check(part, "/written.txt", b"written in vdb2\n")


def partitions_case(build):
    """user/tests/partitions.c on two 64 MiB virtio disks partitioned by
    sfdisk: vda with an MBR (primary, extended and logical partitions),
    vdb with a GPT whose second partition is an ext2 made by mke2fs -d.
    The kernel lists them in /proc/partitions, mounts vdb2, fills vda6;
    the host then checks where the bytes went and runs e2fsck -fn on
    vdb2."""
    name = "partitions_virtio_bios"
    workdir = os.path.join(build, "tests", name)
    fs = ext2_disk(workdir, {"hello.txt": b"hello from vdb2\n"}, 1024, VDB2_SECTORS * SECTOR >> 20)
    with open(fs, "rb") as f:
        fs_data = f.read()
    gpt = os.path.join(workdir, "disk.img")
    partitioned_disk(gpt, PART_GPT)
    with open(gpt, "r+b") as f:
        f.seek(VDB2_START * SECTOR)
        f.write(fs_data)
    partitioned_disk(os.path.join(workdir, "mbr.img"), PART_MBR)
    return QemuCase(
        name, "init=/sbin/init -- /usr/tests/runner partitions", timeout=120,
        # SeaBIOS would boot vda, whose MBR ends in 0x55aa: the CD first.
        qemu_args=["-boot", "order=d",
                   "-drive", "if=none,id=vd0,format=raw,file={workdir}/mbr.img",
                   "-device", "virtio-blk-pci,drive=vd0",
                   "-drive", "if=none,id=vd1,format=raw,file={workdir}/disk.img",
                   "-device", "virtio-blk-pci,drive=vd1"],
        expect=[r"^ vda: vda1 vda2 vda3 < vda5 vda6 >$", r"^ vdb: vdb1 vdb2 vdb3$",
                r"^# partitions: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"],
        reject=USER_REJECT + (r"# skip", r"ignored$", r"invalid"),
        check=lambda session: partitions_check(workdir))


def brd_mem_limit_case():
    """user/tests/brd.c with mem=96M on a 256 MiB machine and a 64 MiB RAM
    disk asked for with brd's own option: the disk is carved from the RAM
    above the limit, which the page allocator never sees."""
    return QemuCase(
        "brd_mem_limit_bios", "mem=96M brd.rd_size=65536 init=/sbin/init -- /usr/tests/runner brd",
        mem="256M", timeout=150,
        expect=[r"mm: mem=96 MiB: 1[0-9]{2} MiB of RAM above it kept from the page allocator",
                r"ramdisk: ram1: 65536 KiB carved from RAM above mem= at 0x",
                r"blk: ram1 64 MiB \(131072 sectors of 512 bytes\), ramdisk$",
                r"^# brd: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"],
        reject=USER_REJECT + (r"# skip", r"cmdline: unknown option"))


SD_SCRATCH_BYTES = 8 << 20
SD_WRITTEN_BYTES = 256 << 10


def sd_pattern(length, mul, add, shift):
    """user/tests/sd_disk.c's patterns: ((pos * mul + add) ^ (pos >> shift))."""
    return bytes(((i * mul + add) ^ (i >> shift)) & 0xff for i in range(length))


def sd_disk_case(build, name, machine_args, drive_args, expect):
    """user/tests/sd_disk.c on an ext2 sda (mke2fs -d) and an 8 MiB sdb
    of zeroes, through the ATA driver machine_args and drive_args give
    them; afterwards sdb's image must hold the pattern in every byte, and
    e2fsck -fn must find sda clean with written.bin read back."""
    workdir = os.path.join(build, "tests", name)
    image = ext2_disk(workdir, {"hello.txt": b"hello from sda\n"}, 1024, 16)
    scratch = os.path.join(workdir, "scratch.img")
    with open(scratch, "wb") as f:
        f.truncate(SD_SCRATCH_BYTES)

    def check(session):
        with open(scratch, "rb") as f:
            data = f.read()
        problems = [] if data == sd_pattern(SD_SCRATCH_BYTES, 11, 7, 10) else \
            ["sdb's image does not hold the pattern"]
        return problems + ext2_disk_check(image, "/written.bin",
                                          sd_pattern(SD_WRITTEN_BYTES, 5, 1, 8))
    return QemuCase(
        name, "init=/sbin/init -- /usr/tests/runner sd_disk", timeout=180,
        qemu_args=machine_args + drive_args,
        expect=expect + [r"^# sd_disk: PASS \(", r"^user tests: 1 passed, 0 failed$",
                         r"^init: powering off$"],
        reject=USER_REJECT + (r"# skip", r"failed: ", r"timed out"),
        check=check)


def ata_piix_case(build):
    """The legacy IDE interface of QEMU's pc machine (PIIX3): the CD on
    ata1.00 and QEMU's empty CD on ata2.00 are ATAPI and skipped, sda is
    ata1.01 and sdb ata2.01, both driven by PIO.  (The harness's
    -machine q35 comes first: QEMU takes the last.)"""
    return sd_disk_case(
        build, "ata_piix_pc_bios", ["-machine", "pc"],
        ["-drive", "if=ide,index=1,format=raw,file={workdir}/disk.img",
         "-drive", "if=ide,index=3,format=raw,file={workdir}/scratch.img"],
        [r"ata1\.00: ATAPI device \(a CD or DVD drive\), not supported",
         r"ata1\.01: ATA disk \"QEMU HARDDISK\", 32768 sectors, LBA48, PIO: sda",
         r"ata2\.01: ATA disk \"QEMU HARDDISK\", 16384 sectors, LBA48, PIO: sdb",
         r"blk: sda 16 MiB \(32768 sectors of 512 bytes\), ata_piix$"])


def ahci_case(build, polled=False):
    """The AHCI controller of QEMU's q35 (ICH9): the CD on port 0 is ATAPI
    and skipped, sda is on port 1 and sdb on port 2, both by DMA, their
    completions signalled on IRQ 10.  polled: a virtio disk in slot 4
    takes IRQ 10 first, so the HBA is driven polled."""
    virtio = ["-drive", "if=none,id=vd0,format=raw,file={workdir}/vd.img",
              "-device", "virtio-blk-pci,drive=vd0,addr=0x4"] if polled else []
    name = "ahci_polled_q35_bios" if polled else "ahci_q35_bios"
    if polled:
        os.makedirs(os.path.join(build, "tests", name), exist_ok=True)
        with open(os.path.join(build, "tests", name, "vd.img"), "wb") as f:
            f.truncate(1 << 20)
    return sd_disk_case(
        build, name, [],
        virtio + ["-drive", "if=none,id=sata0,format=raw,file={workdir}/disk.img",
                  "-device", "ide-hd,drive=sata0,bus=ide.1",
                  "-drive", "if=none,id=sata1,format=raw,file={workdir}/scratch.img",
                  "-device", "ide-hd,drive=sata1,bus=ide.2"],
        [r"ahci: AHCI 1\.0 at 0x[0-9a-f]+, 6 ports",
         r"ata1: SATA port 0: ATAPI device \(a CD or DVD drive\), not supported",
         r"ata2: SATA port 1: ATA disk \"QEMU HARDDISK\", 32768 sectors, DMA: sda",
         r"ata3: SATA port 2: ATA disk \"QEMU HARDDISK\", 16384 sectors, DMA: sdb",
         r"blk: sda 16 MiB \(32768 sectors of 512 bytes\), ahci$",
         r"ahci: IRQ 10 is another driver's \(error -16\), completion polled" if polled
         else r"ahci: completion by interrupt on IRQ 10"])


def ahci_two_hbas_case(build):
    """A second AHCI HBA (-device ahci) in slot 2, found first: sda on its
    port 0, sdb on port 3 of q35's own; each HBA completes on its own
    line, and the ata numbers run on across them (six ports each)."""
    return sd_disk_case(
        build, "ahci_two_hbas_q35_bios", [],
        ["-device", "ahci,id=ahci2",
         "-drive", "if=none,id=sata0,format=raw,file={workdir}/disk.img",
         "-device", "ide-hd,drive=sata0,bus=ahci2.0",
         "-drive", "if=none,id=sata1,format=raw,file={workdir}/scratch.img",
         "-device", "ide-hd,drive=sata1,bus=ide.3"],
        [r"ata1: SATA port 0: ATA disk \"QEMU HARDDISK\", 32768 sectors, DMA: sda",
         r"ahci: completion by interrupt on IRQ 11",
         r"ata7: SATA port 0: ATAPI device \(a CD or DVD drive\), not supported",
         r"ata10: SATA port 3: ATA disk \"QEMU HARDDISK\", 16384 sectors, DMA: sdb",
         r"ahci: completion by interrupt on IRQ 10"])


def usb_storage_case(build, polled=False, ehci=False, hub=False):
    """Two USB disks (usb-storage) on QEMU's xHCI controller, each on its
    own root port: sda holds an ext2, sdb is scratch; no ATA disks, so the
    sticks take the first sd names.  polled: a virtio disk in slot 3
    takes the controller's IRQ 11 first, so it is driven polled.  ehci:
    the disks are high-speed on an EHCI controller (usb-ehci) instead, as
    on a PC from before xHCI.  hub: sdb is behind a hub (QEMU's usb-hub,
    full-speed, so on one of the controller's USB 2 ports), as 1-N.2."""
    name = ("usb_storage_hub_q35_bios" if hub else "usb_storage_ehci_q35_bios" if ehci else
            "usb_storage_polled_q35_bios" if polled else "usb_storage_q35_bios")
    virtio = ["-drive", "if=none,id=vd0,format=raw,file={workdir}/vd.img",
              "-device", "virtio-blk-pci,drive=vd0,addr=0x3"] if polled else []
    if polled:
        os.makedirs(os.path.join(build, "tests", name), exist_ok=True)
        with open(os.path.join(build, "tests", name, "vd.img"), "wb") as f:
            f.truncate(1 << 20)
    hc = "ehci" if ehci else "xhci"
    expect = [r"usb1: EHCI 1\.00 at 0x[0-9a-f]+, 6 ports",
              r"usb1: ehci: completion by interrupt on IRQ 10",
              r"usb 1-1: new high-speed USB device number 1 using ehci-pci",
              r"usb 1-2: new high-speed USB device number 2 using ehci-pci"] if ehci else [
              r"usb1: xHCI 1\.00 at 0x[0-9a-f]+, 8 ports, 64 slots, 64-bit DMA",
              r"usb1: xhci: IRQ 11 is another driver's \(error -16\), completion polled" if polled
              else r"usb1: xhci: completion by interrupt on IRQ 11"]
    if hub:
        expect += [r"usb 1-(\d): USB hub found, 8 ports",
                   r"usb 1-\d\.2: new full-speed USB device number 3 using xhci_hcd",
                   r"scsi host1: usb-storage 1-\d\.2: bulk-in 0x81, bulk-out 0x2, max packet 64"]
    return sd_disk_case(
        build, name, [],
        virtio + ["-device", ("usb-ehci,id=ehci,addr=0x2" if ehci else "qemu-xhci,id=xhci,addr=0x2"),
                  "-drive", "if=none,id=stick0,format=raw,file={workdir}/disk.img",
                  "-device", "usb-storage,bus=%s.0,drive=stick0,port=1" % hc,
                  "-drive", "if=none,id=stick1,format=raw,file={workdir}/scratch.img"] +
        (["-device", "usb-hub,bus=xhci.0,port=2",
          "-device", "usb-storage,bus=xhci.0,drive=stick1,port=2.2"] if hub else
         ["-device", "usb-storage,bus=%s.0,drive=stick1,port=2" % hc]),
        expect + [
         r"usb 1-1: New USB device found, idVendor=46f4, idProduct=0001: \"QEMU USB HARDDRIVE\"",
         r"sd 0:0:0:0: \[sda\] 32768 512-byte logical blocks",
         r"sd 1:0:0:0: \[sdb\] 16384 512-byte logical blocks",
         r"blk: sda 16 MiB \(32768 sectors of 512 bytes\), sd$"])


def usb_unplug_case(build, ehci=False):
    """user/tests/usb_unplug.sh: a 16 MiB USB disk pulled out (QMP
    device_del) while the shell reads it: the kernel notices the port's
    disconnect, the next read fails with an I/O error instead of waiting
    for the device, and the shell goes on to power off.  ehci: the disk
    is high-speed on an EHCI controller."""
    name = "usb_unplug_ehci_q35_bios" if ehci else "usb_unplug_q35_bios"
    hc = "ehci" if ehci else "xhci"
    workdir = os.path.join(build, "tests", name)
    os.makedirs(workdir, exist_ok=True)
    with open(os.path.join(workdir, "disk.img"), "wb") as f:
        f.write(bytes(range(256)) * (16 << 12))

    def unplug(session):
        qmp = QMP(session.qmp_path)
        try:
            qmp.command("device_del", id="stick")
        finally:
            qmp.close()
    return QemuCase(
        name, "init=/sbin/init -- /bin/sh /usr/tests/usb_unplug.sh", timeout=180,
        qemu_args=["-device", "usb-ehci,id=ehci" if ehci else "qemu-xhci,id=xhci",
                   "-drive", "if=none,id=stick0,format=raw,file={workdir}/disk.img",
                   "-device", "usb-storage,bus=%s.0,drive=stick0,id=stick" % hc],
        expect=[r"usb 1-1: USB disconnect, device number 1$",
                r"sd sda: read of sector \d+ failed: error -19",
                r"^# usb_unplug\.sh: a read after the unplug failed, the shell goes on$",
                r"^init: /bin/sh finished: exit status 0$", r"^init: powering off$"],
        reject=USER_REJECT,
        on_line=[(r"^# usb_unplug\.sh: unplug now$", unplug)])


def blkdev_hostile_case(build):
    """user/tests/blkdev_hostile.c: bad ioctl pointers and values, offsets
    at the edges, O_APPEND, a whole-block write racing a read of the same
    block, mmap of the node, and random bytes written over a mounted
    ext2's metadata through its node.  /dev/vda is an ext2 of 4 KiB blocks
    (the node's buffers are the filesystem's) with two one-page files;
    /dev/vdb is scratch.  The kernel must survive: no panic, the program
    passes, QEMU powers off."""
    name = "blkdev_hostile_virtio_bios"
    workdir = os.path.join(build, "tests", name)
    ext2_disk(workdir, {"src1.bin": b"A" * 4096, "src2.bin": b"B" * 4096}, 4096, 16)
    scratch = os.path.join(workdir, "scratch.img")
    with open(scratch, "wb") as f:
        f.truncate(4 << 20)
    return QemuCase(
        name, QUARANTINE + " init=/sbin/init -- /usr/tests/runner blkdev_hostile", timeout=180,
        qemu_args=VDA_ARGS + [
            "-drive", "if=none,id=vd1,format=raw,file={workdir}/scratch.img",
            "-device", "virtio-blk-pci,drive=vd1"],
        expect=[r"^# blkdev_hostile: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"],
        reject=USER_REJECT + (r"# skipped",))


SWAP_AREA_SIZE = 256 << 20
SWAP_SCRATCH_SIZE = 8 << 20


def swap_disks(build, name):
    """The disks of the swap cases: /dev/vda an empty ext2 with 4 KiB
    blocks (for swap files), /dev/vdb a sparse 256 MiB area made by the
    host's mkswap (on from boot with swap=vdb), /dev/vdc 8 MiB of zeroes.
    Returns the workdir, the ext2 image and the QEMU arguments."""
    workdir = os.path.join(build, "tests", name)
    image = ext2_disk(workdir, {}, 4096, 32)
    area = os.path.join(workdir, "area.img")
    scratch = os.path.join(workdir, "scratch.img")
    for path, size in ((area, SWAP_AREA_SIZE), (scratch, SWAP_SCRATCH_SIZE)):
        with open(path, "wb") as f:
            f.truncate(size)
    subprocess.run(["mkswap", area], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    args = VDA_ARGS + [
        "-drive", "if=none,id=vd1,format=raw,file={workdir}/area.img",
        "-device", "virtio-blk-pci,drive=vd1",
        "-drive", "if=none,id=vd2,format=raw,file={workdir}/scratch.img",
        "-device", "virtio-blk-pci,drive=vd2"]
    return workdir, image, args


def swap_header_problems(path, pages):
    """The header mkswap wrote at path must still be there, saying pages."""
    with open(path, "rb") as f:
        page = f.read(4096)
    version, last_page = struct.unpack_from("<II", page, 1024)
    if page[4086:] != b"SWAPSPACE2" or version != 1 or last_page != pages - 1:
        return ["%s: the swap header no longer says SWAPSPACE2, version 1, last_page %d"
                % (path, pages - 1)]
    return []


def swap_case(build):
    """user/tests/swapon.c on the swap disks: swapon and swapoff of
    devices and ext2 swap files at the system-call level, each refusal's
    errno and console line, priorities, /proc/swaps against /proc/meminfo
    and sysinfo.  Afterwards e2fsck -fn must find /dev/vda clean and the
    host's header on /dev/vdb must be untouched."""
    name = "swap_virtio_bios"
    workdir, image, args = swap_disks(build, name)
    return QemuCase(
        name, "swap=vdb init=/sbin/init -- /usr/tests/runner swapon", timeout=180,
        qemu_args=args,
        expect=[r"Adding 262140k swap on /dev/vdb\.  Priority:-1 extents:1 across:262144k$",
                r"swapon /dev/vdc: Unable to find swap-space signature$",
                r"swapon /dev/vdc: Unable to handle swap header version 2$",
                r"swapon /mnt/holes: swapfile has holes$",
                r"^# swapon: PASS \(", r"^user tests: 1 passed, 0 failed$",
                r"^init: powering off$"],
        reject=USER_REJECT + (r"# skip",),
        check=lambda session: ext2_fsck_problems(image) + swap_header_problems(
            os.path.join(workdir, "area.img"), SWAP_AREA_SIZE >> 12))


def swap_busybox_case(build):
    """user/tests/swap.sh: Debian's busybox mkswap, swapon and swapoff on
    the swap disks (a device, an ext2 swap file, refusals), checked by
    /proc/swaps and /proc/meminfo.  Afterwards e2fsck -fn must find
    /dev/vda clean, and /dev/vdc must hold busybox's header."""
    name = "swap_busybox_virtio_bios"
    workdir, image, args = swap_disks(build, name)
    return QemuCase(
        name, "swap=vdb init=/sbin/init -- /bin/sh /usr/tests/swap.sh", timeout=180,
        qemu_args=args,
        expect=[r"^# swap\.sh: \d+ passed, 0 failed$",
                r"^init: /bin/sh finished: exit status 0$"],
        reject=USER_REJECT,
        check=lambda session: ext2_fsck_problems(image) + swap_header_problems(
            os.path.join(workdir, "scratch.img"), SWAP_SCRATCH_SIZE >> 12))


def user_busybox_case(build):
    """init runs /usr/tests/busybox.sh, Debian's busybox doing a user's
    everyday work; besides its own checks, the tools' raw output must
    show numbers where numbers belong, and md5sum must read /test/data.bin
    as the build wrote it."""
    def md5_matches(session):
        with open(os.path.join(build, "rootfs", "test", "data.bin"), "rb") as f:
            md5 = hashlib.md5(f.read()).hexdigest()
        if "%s  /test/data.bin" % md5 not in session.lines:
            return ["md5sum did not print %s for /test/data.bin" % md5]
        return []

    return QemuCase(
        "user_busybox_bios", "init=/sbin/init -- /bin/sh /usr/tests/busybox.sh", timeout=180,
        expect=[r"^# busybox.sh: \d+ passed, 0 failed$",
                r"^init: /bin/sh finished: exit status 0$",
                r"^Mem:\s+\d+\s+\d+\s+\d+",
                r"^\s*PID\s+USER\s+.*COMMAND$",
                r"^\s*1\s+root\s+.*init",
                r"load average: \d+\.\d+, \d+\.\d+, \d+\.\d+",
                r"^MemTotal:\s+\d+ kB$"],
        reject=USER_REJECT, check=md5_matches)


# A root shell's prompt (PS1 from rootfs/etc/profile), which ends no line.
PROMPT = r"^\S+@\S+:\S*# $"


def user_shell_steps(build):
    """The console script of user_shell_bios: commands typed at the shell
    and what each must print (the number of entries in /bin is counted in
    the staged root, build/rootfs)."""
    nr_bin = len(os.listdir(os.path.join(build, "rootfs", "bin")))
    return [
        (PROMPT, "echo hello | cat\n"), (r"^hello$", None),
        (PROMPT, "ls /bin | wc -l\n"), (r"^\s*%d$" % nr_bin, None),
        (PROMPT, "echo abc > /tmp/f; cat < /tmp/f\n"), (r"^abc$", None),
        (PROMPT, "false; echo $?\n"), (r"^1$", None),
        (PROMPT, "true; echo $?\n"), (r"^0$", None),
        (PROMPT, "free\n"), (r"^Mem:\s+\d+\s+\d+\s+\d+", None),
        (PROMPT, "ps\n"), (r"^\s*1\s+root\s+.*init", None),
        (PROMPT, "grep nr_free_pages /proc/vmstat\n"), (r"^nr_free_pages \d+$", None),
        # Ctrl-C ends the foreground job: sleep in nanosleep, cat in a tty read.
        (PROMPT, "sleep 100\n"), (r"sleep 100\n", "\x03", 1.5),
        (PROMPT, "echo $?\n"), (r"^130$", None),
        (PROMPT, "cat\n"), (r"cat\n", "ping\n", 1.5), (r"^ping\nping$", "\x03"),
        (PROMPT, "echo $?\n"), (r"^130$", None),
        # init starts a new shell when this one exits.
        (PROMPT, "exit\n"), (r"^init: /bin/sh exited \(exit status 0\); starting a new one$", None),
        (PROMPT, "poweroff\n"),
    ]


def user_shell_case(build):
    """A normal boot: init runs /etc/rc (hostname, motd) and starts a login
    shell; commands typed on the serial console run there, Ctrl-C
    interrupts a job, and busybox's poweroff asks init to power off."""
    return QemuCase(
        "user_shell_bios", "", timeout=180, script=lambda: user_shell_steps(build),
        expect=[r"^init: Pageturn init, pid 1$", r"^Welcome to Pageturn",
                r"^init: powering off$"],
        reject=USER_REJECT)


def oom_shell_case(name="oom_shell_64m_bios", cmdline_extra=""):
    """The shell at -m 64M: busybox dd with a 128 MiB block size fills a
    buffer of twice the RAM from /dev/zero; with no swap the OOM killer
    prints its report and kills dd, and the shell answers the next
    command.  The LRU lists must match their counters at power-off."""
    return QemuCase(
        name, " ".join(filter(None, [cmdline_extra, LISTS_CHECK])), mem="64M", timeout=240,
        script=[
            (PROMPT, "dd if=/dev/zero of=/dev/null bs=128M count=1; echo status=$?\n"),
            (r"^status=137$", None),
            (PROMPT, "echo still-$((6*7))\n"), (r"^still-42$", None),
            (PROMPT, "poweroff\n"),
        ],
        expect=[r"^dd invoked oom-killer: gfp_mask=0x[0-9a-f]+, order=0",
                r"^Out of memory: Killed process \d+ \(dd\) total-vm:",
                r"^init: powering off$"] + LISTS_CHECKED,
        reject=USER_REJECT)


def oom_swap_shell_case(build):
    """The shell at -m 64M with 64 MiB of swap (the host's mkswap,
    swap=vda): busybox dd with a 256 MiB block size wants more than RAM
    and swap together; the anon pages go to swap until it is full, then
    the OOM killer kills dd, once, and the shell answers the next
    command.  At power-off the slots match the PTEs (all free again) and
    the LRU lists their counters."""
    name = "oom_swap_shell_64m_bios"
    swap_disk(os.path.join(build, "tests", name), 64)

    def one_kill(session):
        kills = [l for l in session.lines if "Out of memory: Killed process" in l]
        return [] if len(kills) == 1 else ["%d OOM kills, not 1" % len(kills)]

    return QemuCase(
        name, SWAP_CHECK + " swap=vda", mem="64M", timeout=300, qemu_args=VDA_ARGS,
        script=[
            (PROMPT, "dd if=/dev/zero of=/dev/null bs=256M count=1; echo status=$?\n"),
            (r"^status=137$", None),
            (PROMPT, "grep -E 'pswpout|oom_kill' /proc/vmstat; echo still-$((6*7))\n"),
            (r"^still-42$", None),
            (PROMPT, "poweroff\n"),
        ],
        expect=[r"^dd invoked oom-killer: gfp_mask=0x[0-9a-f]+, order=0",
                r"^Out of memory: Killed process \d+ \(dd\) total-vm:",
                r"^pswpout [1-9]\d*$", r"^oom_kill 1$",
                r"^init: powering off$"] + SWAP_CHECKED,
        reject=USER_REJECT, check=one_kill)


def user_keyboard_case():
    """The same shell, typed on the PS/2 keyboard (QMP send-key): the
    keyboard driver's scan codes, Shift, Enter and Ctrl-C reach the
    console TTY like serial input, and the echo and output show on the
    serial console too."""
    return QemuCase(
        "user_keyboard_bios", "", timeout=180, script=[
            (PROMPT, Keys("echo Typed-$((6*7)) | tr a-z A-Z\n")), (r"^TYPED-42$", None),
            (PROMPT, Keys("sleep 100\n")), (r"sleep 100\n", Keys("\x03"), 1.5),
            (PROMPT, Keys("echo $?\n")), (r"^130$", None),
            (PROMPT, Keys("poweroff\n")),
        ],
        expect=[r"^init: powering off$"], reject=USER_REJECT)


# The user_screen cases: a command typed on the PS/2 keyboard, what it
# prints, and how long the harness waits for the screen to show it after
# the serial console did.
SCREEN_COMMAND = "echo SCREEN-$((40+2))"
SCREEN_OUTPUT = "SCREEN-42"
SCREEN_WAIT = 10


def shell_screen_problems(session, nr_rows, line_is, cursors=None):
    """The screen must show the shell as the serial console does: the
    prompt line with SCREEN_COMMAND (taken from the serial console, its
    escape sequences cleaned), under it SCREEN_OUTPUT, under that the next
    prompt, each row holding that text alone, so that no byte of an escape
    sequence the shell wrote (its cursor query after each prompt, say) was
    drawn.  line_is(row, text): does row show exactly text and then blanks?
    cursors, when given, lists the cells that show a cursor: exactly one,
    right after the next prompt."""
    prompt_line = next((l for l in reversed(session.lines) if l.endswith("# " + SCREEN_COMMAND)),
                       None)
    if prompt_line is None:
        return ["the serial console never showed the prompt line with %r" % SCREEN_COMMAND]
    prompt = prompt_line[:-len(SCREEN_COMMAND)]
    rows = [r for r in range(nr_rows) if line_is(r, prompt_line)]
    if not rows:
        return ["no row shows the serial console's line %r alone" % prompt_line]
    row = rows[-1]
    problems = []
    if row + 1 >= nr_rows or not line_is(row + 1, SCREEN_OUTPUT):
        problems.append("the row under %r (row %d) does not show %r alone"
                        % (prompt_line, row, SCREEN_OUTPUT))
    if row + 2 >= nr_rows or not line_is(row + 2, prompt):
        problems.append("the row under %r does not show the next prompt %r alone"
                        % (SCREEN_OUTPUT, prompt))
    if cursors is not None and cursors != [(len(prompt), row + 2)]:
        problems.append("the cursor shows at %s (col, row), not only right after the prompt "
                        "at %s" % (cursors, (len(prompt), row + 2)))
    return problems


def user_screen_case(name, firmware, save, problems, timeout):
    """A normal boot to the shell, a command typed on the PS/2 keyboard,
    and the screen console must show the session as the serial console
    does.  When the output line reaches the serial console, save(session)
    dumps the screen to a file, again every 0.2 s until problems(session)
    finds none in the dump or SCREEN_WAIT seconds pass (the screen is drawn
    by the same write, but the host is not told when it is done); then
    poweroff is typed.  The check judges the last dump."""
    def grab(session):
        deadline = time.time() + SCREEN_WAIT
        save(session)
        while problems(session) and time.time() < deadline:
            time.sleep(0.2)
            save(session)
        session.send_keys("poweroff\n")

    return QemuCase(
        name, "", firmware=firmware, timeout=timeout,
        script=[(PROMPT, Keys(SCREEN_COMMAND + "\n"))],
        on_line=[(r"^%s$" % SCREEN_OUTPUT, grab)],
        expect=[r"^%s$" % SCREEN_OUTPUT, r"^init: powering off$"],
        reject=USER_REJECT, check=problems)


def user_screen_vga_case():
    """BIOS: the shell on the VGA text console, read from text memory."""
    def save(session):
        session.memsave("vga.bin", VGA_TEXT, VGA_COLS * VGA_ROWS * 2)

    def problems(session):
        path = os.path.join(session.workdir, "vga.bin")
        if not os.path.exists(path):
            return ["VGA text memory was not saved"]
        rows = vga_rows(path)
        found = shell_screen_problems(session, VGA_ROWS,
                                      lambda row, text: rows[row] == text.ljust(VGA_COLS))
        found += ["row %d shows an ESC character" % r for r, line in enumerate(rows) if "\x1b" in line]
        return ["VGA text: %s" % p for p in found]

    return user_screen_case("user_screen_vga_bios", "bios", save, problems, timeout=60)


def user_screen_fbcon_case(build):
    """UEFI: the shell on the framebuffer console, a screendump compared
    cell by cell with glyphs rendered from the kernel's own PSF font; the
    underline cursor waits right after the last prompt, and nowhere else."""
    def save(session):
        session.screendump("screen.png")

    def problems(session):
        png = os.path.join(session.workdir, "screen.png")
        if not os.path.exists(png):
            return ["no screendump was taken"]
        with open(os.path.join(build, "font.psf"), "rb") as f:
            shot = fbcheck.Screenshot(png, psf.Font(f.read()))
        return ["%s: %s" % (png, p)
                for p in shell_screen_problems(session, shot.rows, shot.line_is, shot.cursors)]

    return user_screen_case("user_screen_fbcon_uefi", "uefi", save, problems, timeout=180)


def cases(build):
    cmd_all = "test=all loglevel=abc no_such_option=1"
    return [
        QemuCase("boot_bios", cmd_all + " lru=bogus", expect=all_suites_pass("bios") + [
            r"video: EGA text 80x25 at 0xb8000", r"acpi: RSDP revision \d",
            r"cmdline: lru=bogus is neither split nor single, split kept",
            r"mm: LRU policy split: "]),
        QemuCase("boot_uefi", cmd_all, firmware="uefi", timeout=180,
                 expect=all_suites_pass("uefi") + [
                     r"video: RGB framebuffer \d+x\d+x32 at 0x", r"acpi: RSDP revision 2"]),
        QemuCase("usb_stick_uefi", "test=boot,console", firmware="uefi", medium="usb",
                 timeout=180, expect=BOOT_REPORT + [r"boot: firmware UEFI", r"^ok 1 boot$"]),
        QemuCase("usb_stick_bios", "test=boot,console", medium="usb",
                 expect=BOOT_REPORT + [r"boot: firmware BIOS", r"^ok 1 boot$"]),
        QemuCase("mem_64m_bios", "test=boot,mm", mem="64M",
                 expect=[r"mem: 6[0-3] MiB available", r"^ok 1 boot$", r"^ok 2 mm$",
                         # Zones cut from the map: RAM ends at 0x3fdf000.
                         r"DMA +pfn 0x00000000-0x00001000 spanned 4096 present 3999 managed \d+",
                         r"DMA32 +pfn 0x00001000-0x00003fdf spanned 12255 present 12255",
                         r"Normal empty",
                         r"mm: wrote and verified \d+ pages"]),
        QemuCase("mem_512m_bios", "test=mm", mem="512M",
                 expect=[r"^ok 1 mm$", r"DMA +pfn 0x00000000-0x00001000 spanned 4096 present 3999 managed \d+",
                         r"DMA32 +pfn 0x00001000-0x0001ffdf spanned 126943 present 126943",
                         r"mm: wrote and verified \d+ pages"]),
        QemuCase("mem_5g_bios", "test=boot,mm", mem="5G", timeout=240,
                 # q35 keeps 2 GiB below the PCI hole; the other 3 GiB start at 4 GiB.
                 expect=[r"mem: \[mem 0x0000000100000000-0x00000001bfffffff\] available",
                         r"mem: 511\d MiB available in 3 ranges, 3072 MiB above 4 GiB",
                         r"DMA +pfn 0x00000000-0x00001000 spanned 4096 present 3999 managed \d+",
                         r"DMA32 +pfn 0x00001000-0x00100000 spanned 1044480 present 520159",
                         r"Normal +pfn 0x00100000-0x001c0000 spanned 786432 present 786432",
                         r"^ok 1 boot$", r"^ok 2 mm$",
                         r"mm: wrote and verified \d+ pages"]),
        fb_screen_case(build, "fbcon_screen_uefi"),
        fb_screen_case(build, "fbcon_screen_usb_stick_uefi", medium="usb"),
        vga_screen_case(),
        QemuCase("unknown_test_name_fails", "test=boot,no_such_suite", status=EXIT_FAIL,
                 reject=(), expect=[r"^ok 1 boot$",
                                    r"# ktest: no test matches 'no_such_suite'",
                                    r"# ktest: 1 suites, 0 failed: FAIL"]),
        QemuCase("no_long_mode_bios", "test=boot", cpu="qemu32", status=None, timeout=60,
                 expect=[r"Pageturn: this CPU does not support 64-bit long mode"],
                 on_line=[(r"does not support 64-bit long mode", lambda s: s.stop())]),
        virtio_blk_case(build, "bios"),
        gdb_backtrace_case(build),
        ext2_virtio_case(build, 1024),
        ext2_virtio_case(build, 4096),
        virtio_blk_case(build, "uefi"),
        # Linux's brd options: rd_nr disks of ramdisk_size KiB each.
        QemuCase("ramdisk_cmdline_bios", "test=block ramdisk_size=8192 rd_nr=2",
                 # ram0 is the root filesystem module; the two asked for follow.
                 expect=[r"blk: ram1 8 MiB \(16384 sectors of 512 bytes\), ramdisk$",
                         r"blk: ram2 8 MiB \(16384 sectors of 512 bytes\), ramdisk$",
                         r"# skipped: no vda", r"^ok \d+ block$"],
                 reject=(r"^\s*not ok ", r"cmdline: unknown option", r"blk: ram3 ")),
        crash("page_fault", "crash_page_fault_victim", [
            r"BUG: unable to handle page fault for address: 00000dead0000bad",
            r"#PF: data write access in kernel mode",
            r"#PF: error_code\(0x0002\) - not-present page",
            r"Oops: Page Fault \(#PF\), error code 0x2, in kernel mode",
            r"CR2: 00000dead0000bad",
            r"Kernel panic - not syncing: Fatal exception: Page Fault \(#PF\)"]),
        crash("page_fault", "crash_page_fault_victim", [
            r"Oops: Page Fault \(#PF\)", r"CR2: 00000dead0000bad"], firmware="uefi"),
        crash("invalid_opcode", "crash_invalid_opcode_victim",
              [r"Oops: Invalid Opcode \(#UD\), error code 0x0, in kernel mode"]),
        crash("divide_error", "crash_divide_error_victim",
              [r"Oops: Divide Error \(#DE\)"]),
        crash("general_protection", "crash_general_protection_victim",
              [r"Oops: General Protection \(#GP\)"]),
        crash("bug_on", "crash_bug_on_victim",
              [r"Kernel panic - not syncing: BUG at kernel/tests/traps_test.c:\d+: impossible"],
              rip="panic"),
        crash("write_kernel_text", "crash_write_kernel_text_victim", [
            r"#PF: data write access in kernel mode",
            r"#PF: error_code\(0x0003\) - permissions violation",
            r"Oops: Page Fault \(#PF\)"]),
        # The overflow faults on the guard page, the CPU cannot push the
        # page fault's frame there, and the double fault runs on IST1.
        crash("stack_overflow", "crash_stack_overflow_victim", [
            r"Oops: Double Fault \(#DF\)"], trace=["crash_stack_overflow_victim"]),
        crash("kthread_stack_overflow", "crash_kthread_stack_overflow_victim", [
            r"Oops: Double Fault \(#DF\)"], trace=["crash_kthread_stack_overflow_victim"]),
        crash("double_free", "crash_double_free_victim",
              [r"Kernel panic - not syncing: kfree: double free of 0x[0-9a-f]{16} \(cache kmalloc-64\)"],
              rip="panic"),
        # A pointer loaded from a freed object is POISON_FREE: the #GP
        # report says so.  A write to a quarantined object is found when
        # it leaves the quarantine, naming the function that freed it.
        crash("use_after_free", "crash_use_after_free_victim", [
            r"Oops: General Protection \(#GP\)",
            r"^R\w\w 6b6b6b6b6b6b6b6b is POISON_FREE: loaded from a freed slab object "
            r"\(use after free\)$"], cmdline="slab_quarantine=64"),
        crash("write_after_free", "crash_write_after_free_victim", [
            r"slab: freed objects wait in a quarantine of 64 KiB, 4096 objects",
            r"Kernel panic - not syncing: slab quarantine: use after free: object 0x[0-9a-f]{16} "
            r"of cache kmalloc-64 written after free \(byte 3 is 0x01, not 0x6b\); "
            r"freed by crash_write_after_free_victim\+0x[0-9a-f]+$"],
            rip="panic", cmdline="slab_quarantine=64",
            trace=["crash_write_after_free_victim", "ktest_crash_write_after_free"]),
        crash("malformed_boot_info", "crash_malformed_boot_info_victim",
              [r"Kernel panic - not syncing: multiboot2: malformed boot information: \S+"],
              rip="panic"),
        filemap_virtio_case(build),
        mpage_virtio_case(build, 1024),
        mpage_virtio_case(build, 4096),
        user_tests_case(),
        oom_case(),
        # A CPU with ERMS: memcpy, memset and the user copies take their
        # rep movsb/stosb path (on QEMU's default CPU, the loops).
        QemuCase("fast_strings_bios",
                 "init=/sbin/init -- /usr/tests/runner efault pipes fork_cow file_mmap exec_args",
                 cpu="qemu64,+erms", timeout=180,
                 expect=[r"cpu: fast strings \(ERMS/FSRM\): memcpy, memset and user copies use "
                         r"rep movsb/stosb",
                         r"^user tests: 5 passed, 0 failed$"],
                 reject=USER_REJECT),
        race_dirs_virtio_case(build),
        user_races_case(build),
        reclaim_case(build, "reclaim_file_64m_bios", "64M"),
        reclaim_stress_case(build, "reclaim_stress_64m_bios"),
        vmscan_virtio_case(build),
        mlock_case(build, "mlock_lru_64m_bios", "64M"),
        swap_verify_case(build, "swap_verify_64m_bios", "64M", 256),
        hogs_swap_case(build),
        tracing_case(build),
        *swap_driver_cases(build),
        swap_ioerr_case(build, "swap_write_error_64m_bios", "write",
                        [r"Write-error on swap-device \(/dev/vda:\d+\)$", r"^# child exited 0$",
                         r"^# retired [1-9]\d* slots$"]),
        swap_ioerr_case(build, "swap_read_error_64m_bios", "read",
                        [r"Read-error on swap-device \(\d+\)$",
                         r"swap: read of swap entry 0x[0-9a-f]+ failed: swap_ioerr \(pid \d+\) "
                         r"killed by SIGBUS$", r"^# child killed by SIGBUS$"]),
        swap_ioerr_case(build, "swap_read_error_usb_64m_bios", "read",
                        [r"sd sda: read of sector \d+ failed: status 2, sense key 0xb/0x0",
                         r"Read-error on swap-device \(\d+\)$",
                         r"swap: read of swap entry 0x[0-9a-f]+ failed: swap_ioerr \(pid \d+\) "
                         r"killed by SIGBUS$", r"^# child killed by SIGBUS$"], usb=True),
        swap_error_orphan_case(build),
        swap_slow_disk_case(build),
        swap_inflight_case(build),
        blkdev_rw_case(build),
        blkdev_hostile_case(build),
        swap_case(build),
        swap_busybox_case(build),
        partitions_case(build),
        brd_mem_limit_case(),
        ata_piix_case(build),
        ahci_case(build),
        ahci_case(build, polled=True),
        ahci_two_hbas_case(build),
        usb_storage_case(build),
        usb_storage_case(build, polled=True),
        usb_storage_case(build, ehci=True),
        usb_storage_case(build, hub=True),
        usb_unplug_case(build),
        usb_unplug_case(build, ehci=True),
        bench_smoke_case(build),
        bench_reclaim_smoke_case(build),
        user_busybox_case(build),
        user_shell_case(build),
        user_keyboard_case(),
        oom_shell_case(),
        oom_swap_shell_case(build),
        user_screen_vga_case(),
        user_screen_fbcon_case(build),
        # The pre-split LRU policy: the bookkeeping on real pages, and
        # reclaim_file.  Last, so that the cases above keep the partners
        # they run beside (reclaim_stress is sensitive to the load).
        QemuCase("lru_single_bios", "lru=single test=lru", mem="64M",
                 expect=[r"mm: LRU policy single: ", r"^ok 1 lru$"]),
        reclaim_case(build, "reclaim_file_single_64m_bios", "64M", "lru=single"),
        reclaim_stress_case(build, "reclaim_stress_single_64m_bios", "lru=single"),
        vmscan_virtio_case(build, "vmscan_virtio_single_64m_bios", "lru=single"),
        oom_shell_case("oom_shell_single_64m_bios", "lru=single"),
    ]
