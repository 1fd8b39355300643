#!/usr/bin/python3
"""`make bench`: the micro-benchmarks, on Pageturn and on Debian's Linux.

    micro.py [--n N] [--only REGEX] [--quick] [--mem 512M] [--build build]
             [--block-size 1024] [--no-linux] [--accel tcg]

Boots Pageturn (build/kernel.elf, build/root.img) and Linux (Debian's
linux-image-amd64 with an initramfs made by initramfs.py) under the same
QEMU, -m and disk, runs user/bench/microbench in each, and prints a table
of medians with each row's ratio Pageturn/Linux (goal: at or below 1.0).
Each row group gets N fresh boots per kernel (--quick: one boot per
kernel for all rows, small sizes, short runs).  Results go to
build/bench/micro.{csv,json,md}, each boot's console to
build/bench/boots/.  docs/benchmarks.md describes the rows.
"""
import argparse
import datetime
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import disks  # noqa: E402
import initramfs  # noqa: E402
import machine  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402
from runner import Group, Row  # noqa: E402

MIB = 1 << 20
MICROBENCH = "/usr/bin/microbench"
NOP = "/usr/lib/bench/nop"

# The table of the fast-paths work, in its order; group: which boot.
ROWS = [
    Row("ext2_cold_read", "s", "s", "first read of a 128 MiB ext2 file (cold, 64 KiB read()s)",
        "ext2_read"),
    Row("ext2_cached_read", "ms", "ms", "second and third read of it (page cache)", "ext2_read"),
    Row("tmpfs_read4k", "us_per_op", "us", "read() of a cached tmpfs file, per 4 KiB", "micro"),
    Row("anon_fault", "us_per_page", "us", "first touch of anonymous memory, per page", "micro"),
    Row("cow_fault", "us_per_page", "us", "copy-on-write fault after fork, per page", "micro"),
    Row("file_fault", "us_per_page", "us", "read fault on a mapped cached file, per page",
        "micro"),
    Row("null_syscall", "ns_per_op", "ns", "null system call", "micro"),
    Row("fork_exit", "us_per_op", "us", "fork + exit + wait", "micro"),
    Row("fork_exec", "ms_per_op", "ms", "fork + exec + wait of a small static binary", "micro"),
    Row("pipe_rtt", "us_per_op", "us", "pipe round trip, 1 byte", "micro"),
    Row("ext2_write_sync", "s", "s", "sequential write of 128 MiB to ext2, then sync",
        "ext2_write"),
]
GROUP_ORDER = ["ext2_read", "micro", "ext2_write"]

# Sizes: the full run's and --quick's.
FULL = {"read_mib": 128, "map_mib": 16, "write_mib": 128, "seconds": 1.0}
QUICK = {"read_mib": 16, "map_mib": 4, "write_mib": 8, "seconds": 0.2}


def titles(sizes):
    """Row titles with this run's sizes."""
    return {"ext2_cold_read": "first read of a %d MiB ext2 file (cold, 64 KiB read()s)"
            % sizes["read_mib"],
            "ext2_write_sync": "sequential write of %d MiB to ext2, then sync"
            % sizes["write_mib"]}


def command(rows, sizes):
    return "%s --dev /dev/vda --dir /mnt --nop %s --seconds %g --write-mib %d %s" % (
        MICROBENCH, NOP, sizes["seconds"], sizes["write_mib"], " ".join(r.name for r in rows))


def bench_disk(outdir, sizes, block_size):
    """The ext2 disk every boot gets a copy of: read.bin, map.bin and
    room for write.bin."""
    size = sizes["read_mib"] + sizes["map_mib"] + sizes["write_mib"] + 32
    return disks.ext2_image(os.path.join(outdir, "disk-%d-%d-%d-%dk.img" % (
        sizes["read_mib"], sizes["map_mib"], sizes["write_mib"], block_size // 1024)),
        {"read.bin": sizes["read_mib"] * MIB, "map.bin": sizes["map_mib"] * MIB}, size,
        block_size)


def make_groups(rows, sizes, disk, mem, quick):
    """One boot kind per group, or with quick a single boot for all rows."""
    timeout = 300 if quick else 900
    if quick:
        return [Group("all", rows, command(rows, sizes), [disk], mem, timeout)]
    groups = []
    for name in GROUP_ORDER:
        members = [r for r in rows if r.group == name]
        if members:
            groups.append(Group(name, members, command(members, sizes), [disk], mem, timeout))
    return groups


def linux_kernel(build, outdir):
    """The Linux side, or None with a message saying why."""
    linux = initramfs.find_linux()
    if linux is None:
        print("bench: no Debian kernel (/boot/vmlinuz-* with /lib/modules): the Linux "
              "column is skipped; `apt-get install linux-image-amd64` adds it", flush=True)
        return None
    if shutil.which("cpio") is None:
        print("bench: no cpio to make Linux's initramfs: the Linux column is skipped; "
              "`apt-get install cpio` adds it", flush=True)
        return None
    initrd = initramfs.build_initramfs(linux, os.path.join(outdir, "linux-initramfs.cpio"), {
        MICROBENCH.lstrip("/"): os.path.join(build, "user", "bench", "microbench"),
        NOP.lstrip("/"): os.path.join(build, "user", "bench", "nop")})
    return machine.LinuxKernel(linux, initrd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=3, help="fresh boots per row group and kernel")
    ap.add_argument("--only", help="regex on row names")
    ap.add_argument("--quick", action="store_true",
                    help="one boot per kernel, small sizes, short runs")
    ap.add_argument("--mem", default="512M")
    ap.add_argument("--accel", default="tcg", choices=("tcg", "kvm"))
    ap.add_argument("--block-size", type=int, default=1024, choices=(1024, 2048, 4096),
                    help="the ext2 disk's block size (default 1024: mke2fs's choice at "
                    "this size, as in the tests)")
    ap.add_argument("--no-linux", action="store_true", help="boot Pageturn only")
    args = ap.parse_args()

    started = datetime.datetime.now(datetime.timezone.utc)
    outdir = os.path.join(args.build, "bench")
    os.makedirs(outdir, exist_ok=True)
    sizes = QUICK if args.quick else FULL
    rounds = 1 if args.quick else args.n
    rows = [r for r in ROWS if not args.only or re.search(args.only, r.name)]
    if not rows:
        sys.exit("bench: no row matches %r; rows: %s" % (args.only, " ".join(r.name for r in ROWS)))
    for r in rows:
        r.what = titles(sizes).get(r.name, r.what)

    kernels = []
    linux = None if args.no_linux else linux_kernel(args.build, outdir)
    if linux:
        kernels.append(linux)
    kernels.append(machine.PageturnKernel(args.build))
    disk = bench_disk(outdir, sizes, args.block_size)
    groups = make_groups(rows, sizes, disk, args.mem, args.quick)
    print("bench: %d rows, %d boot kinds x %d kernels x %d rounds, -m %s, %s%s"
          % (len(rows), len(groups), len(kernels), rounds, args.mem, args.accel,
             ", quick" if args.quick else ""), flush=True)

    cells, samples = runner.run(kernels, groups, rounds, outdir, args.accel)
    names = [k.name for k in kernels]
    table = runner.table(rows, cells, names, "pageturn", "linux")
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    meta = {"date": started.strftime("%Y-%m-%d %H:%M UTC"), "qemu": machine.qemu_version(),
            "kernels": {k.name: k.describe() for k in kernels}, "accel": args.accel,
            "mem": args.mem, "rounds": rounds, "quick": args.quick, "sizes": sizes,
            "block_size": args.block_size,
            "seconds": round(elapsed)}
    lines = ["%s, QEMU %s (%s, 1 vCPU, -m %s), ext2 with %d-byte blocks, %d boot%s per cell%s, "
             "%.0f s in all" % (meta["date"], meta["qemu"], args.accel.upper(), args.mem,
                                args.block_size, rounds, "s" if rounds > 1 else "",
                                " (quick)" if args.quick else "", elapsed)]
    lines.append("; ".join(k.describe() for k in kernels))
    md = report.write_all(outdir, "micro", table, names,
                          {"linux": "Linux", "pageturn": "Pageturn"}, meta, samples, lines)
    print()
    print(md)
    print("bench: results in %s/micro.{csv,json,md}" % outdir)
    missing = sum(1 for r in table for c in r["cells"].values() if c["n"] == 0)
    if missing:
        print("bench: %d cells have no value (see the boot logs above)" % missing)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
