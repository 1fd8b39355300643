#!/usr/bin/python3
"""`make bench`'s reclaim row: is reclaim the bottleneck of a big read?

    scale.py [--n N] [--quick] [--build build] [--accel tcg]
             [--block-size 4096]

Boots Pageturn twice per round on the same ext2 disk holding one file of
4 x 128 MiB: once with -m 128M, where the file is four times the RAM and
reclaim must free the page cache behind the reader all along, and once
with -m 1G, where it fits.  user/bench/microbench times the cold read
(ext2_cold_read) in each.  The goal (reclaim must not be the
bottleneck) is that the 128M read takes at most 1.5 x the 1G one; both
times and the ratio are printed, and written to build/bench/scale.{csv,
json,md}.  --quick reads a 128 MiB file at -m 64M vs -m 256M instead.
"""
import argparse
import datetime
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import disks  # noqa: E402
import machine  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402
from runner import Group, Row  # noqa: E402

MIB = 1 << 20
MICROBENCH = "/usr/bin/microbench"
NOP = "/usr/lib/bench/nop"


class SizedPageturn(machine.PageturnKernel):
    """Pageturn booted with its own -m, whatever the group says: the two
    memory sizes are the two columns of the table."""

    def __init__(self, build, mem):
        super().__init__(build)
        self.mem = mem
        self.name = "pageturn-" + mem.lower()

    def describe(self):
        return "%s, -m %s" % (super().describe(), self.mem)

    def argv(self, mem, command, workdir, accel):
        return super().argv(self.mem, command, workdir, accel)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=3, help="fresh boots per memory size")
    ap.add_argument("--quick", action="store_true", help="one boot each, small sizes")
    ap.add_argument("--accel", default="tcg", choices=("tcg", "kvm"))
    ap.add_argument("--block-size", type=int, default=4096, choices=(1024, 2048, 4096))
    args = ap.parse_args()

    started = datetime.datetime.now(datetime.timezone.utc)
    outdir = os.path.join(args.build, "bench")
    os.makedirs(outdir, exist_ok=True)
    small, big, file_mib = ("64M", "256M", 128) if args.quick else ("128M", "1G", 512)
    rounds = 1 if args.quick else args.n
    kernels = [SizedPageturn(args.build, small), SizedPageturn(args.build, big)]
    row = Row("ext2_cold_read", "s", "s",
              "first read of a %d MiB ext2 file: -m %s against -m %s"
              % (file_mib, small, big), "scale", goal=1.5)
    disk = disks.ext2_image(os.path.join(outdir, "disk-scale-%d-%dk.img"
                                         % (file_mib, args.block_size // 1024)),
                            {"read.bin": file_mib * MIB}, file_mib + 32, args.block_size)
    command = "%s --dev /dev/vda --dir /mnt --nop %s --seconds 0.2 --write-mib 8 ext2_cold_read" \
        % (MICROBENCH, NOP)
    group = Group("scale", [row], command, [disk], big, 300 if args.quick else 900)
    print("bench: reclaim scale, %d MiB file at -m %s and -m %s, %d round%s"
          % (file_mib, small, big, rounds, "s" if rounds > 1 else ""), flush=True)

    cells, samples = runner.run(kernels, [group], rounds, outdir, args.accel)
    names = [k.name for k in kernels]
    table = runner.table([row], cells, names, names[0], names[1])
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    meta = {"date": started.strftime("%Y-%m-%d %H:%M UTC"), "qemu": machine.qemu_version(),
            "kernels": {k.name: k.describe() for k in kernels}, "accel": args.accel,
            "rounds": rounds, "quick": args.quick, "file_mib": file_mib,
            "block_size": args.block_size, "seconds": round(elapsed)}
    lines = ["%s, QEMU %s (%s, 1 vCPU), ext2 with %d-byte blocks, %d boot%s per cell, "
             "%.0f s in all" % (meta["date"], meta["qemu"], args.accel.upper(), args.block_size,
                                rounds, "s" if rounds > 1 else "", elapsed),
             "ratio: -m %s's time over -m %s's; goal at most 1.5" % (small, big)]
    md = report.write_all(outdir, "scale", table, names,
                          {names[0]: "-m " + small, names[1]: "-m " + big}, meta, samples, lines)
    print()
    print(md)
    print("bench: results in %s/scale.{csv,json,md}" % outdir)
    return 0 if all(c["n"] for r in table for c in r["cells"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
